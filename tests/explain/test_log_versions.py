"""Versions read from pasted logs (the one reader: analyzers and the upstream verdict) and checked as pairs (DRV-versions)."""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.analyzers.versions import unsupported
from ascendrl.catalog.codes import extract
from ascendrl.catalog.logversions import LogVersions, Stated, pip_conflict, read_versions, versions_in

# The "Your current environment" block of https://github.com/vllm-project/vllm-ascend/issues/7587
ENV_7587 = "torch: 2.8.0\ntorch-npu: 2.8.0\nvllm: 0.11.0\nvllm-ascend: 0.11.0rc1.dev\nPython: 3.11\n"
# pip list excerpt of https://github.com/vllm-project/vllm-ascend/issues/3793
PIP_LIST_3793 = "torch                             2.7.1\ntorch_npu                         2.7.1rc1\nvllm                              0.11.0\n"


def test_pasted_version_formats_are_read():
    assert versions_in("torch-npu: 2.8.0") == [("torch_npu", "2.8.0")]
    assert versions_in("torch_npu                         2.7.1rc1") == [("torch_npu", "2.7.1rc1")]
    assert versions_in("docker pull quay.io/ascend/vllm-ascend:v0.13.0rc1-openeuler") == [("vllm_ascend", "0.13.0rc1")]
    assert ("cann", "8.3.RC2") in versions_in("CANN 8.3.RC2")
    assert versions_in("Python: 3.11") == []


def test_pip_conflict_names_what_is_installed_not_what_is_required():
    line = "  torch-npu 2.7.1.dev20250724 requires torch==2.7.1, but you have torch 2.8.0+cpu which is incompatible."
    assert pip_conflict(line) == ("torch-npu", "2.7.1.dev20250724", "torch==2.7.1", "torch", "2.8.0+cpu")
    assert versions_in(line) == [("torch_npu", "2.7.1.dev20250724"), ("torch", "2.8.0+cpu")]



def test_pip_conflict_reads_a_requirement_of_several_comma_joined_specifiers():
    # pip joins a requirement's specifiers with commas (the Hunyuan-MT issue 18 paste, from a LLaMA-Factory install)
    line = ("llamafactory 0.9.4.dev0 requires transformers!=4.52.0,<=4.55.0,>=4.49.0, "
            "but you have transformers 4.56.1 which is incompatible.")
    assert pip_conflict(line) == ("llamafactory", "0.9.4.dev0", "transformers!=4.52.0,<=4.55.0,>=4.49.0",
                                  "transformers", "4.56.1")
    # a comma that does not start another specifier still ends the requirement: not a conflict line
    assert pip_conflict("x 1 requires y, and z, but you have y 2 which is incompatible.") is None

def test_classifier_collects_a_pasted_environment_without_calling_it_a_failure():
    c = Classifier(load_catalog())
    c.feed_stream(io.BytesIO((ENV_7587 + PIP_LIST_3793).encode()), "paste")
    result = c.result()
    assert not result.fatal and not result.diagnoses
    assert c.versions["vllm_ascend"] == "0.11.0rc1.dev" and c.versions["torch_npu"] == "2.8.0"


def test_pairs_against_the_matrix():
    # vllm-ascend 0.11.0rc1 is documented with torch / torch-npu 2.7.1 (#7587 had 2.8.0 installed by vllm)
    kind, pair, documented = unsupported({"torch": "2.8.0", "torch_npu": "2.8.0", "vllm": "0.11.0", "vllm_ascend": "0.11.0rc1.dev"})
    assert kind == "package-mismatch" and "torch-npu 2.8.0" in pair and "torch-npu 2.7.1" in documented
    # vllm-ascend 0.13.0 is documented with CANN 8.5.0 (https://github.com/vllm-project/vllm-ascend/issues/5914 ran 8.3.RC2)
    kind, pair, _ = unsupported({"cann": "8.3.RC2", "vllm": "0.13.0", "vllm_ascend": "0.13.0"})
    assert (kind, pair) == ("cann-too-old", "vllm-ascend 0.13.0 with CANN 8.3.RC2")
    # the documented stack is not a finding; neither is a release the matrix does not know
    assert unsupported({"vllm_ascend": "0.13.0", "vllm": "0.13.0", "torch": "2.8.0", "torch_npu": "2.8.0.post2", "cann": "8.5.0"}) is None
    assert unsupported({"vllm_ascend": "0.11.1.dev6", "vllm": "0.11.1+empty"}) is None
    assert unsupported({"torch": "2.7.1", "torch_npu": "2.7.1rc1"}) is None


def test_hccl_call_quoted_without_torch_npus_prefix_is_decoded():
    # the title of https://github.com/vllm-project/vllm-ascend/issues/3196
    assert extract("How to troubleshoot the “hcclCommInitRootInfoConfig(xxx), error code is 11") == ["hccl:11"]


def _read(lines):
    return {package: s.version for package, s in read_versions(lines).items()}


# Each format as the tool that prints it writes it. These were read only by the upstream verdict's reader before
# the two became one; the analyzers read them now too.
@pytest.mark.parametrize("lines, expected", [
    (["vllm-ascend==0.11.0rc1"], {"vllm_ascend": "0.11.0rc1"}),
    (["torch_npu                2.5.1.post1"], {"torch_npu": "2.5.1.post1"}),
    (["INFO 09-10 vllm_ascend version: 0.10.2rc1"], {"vllm_ascend": "0.10.2rc1"}),
    (["verl version is 0.5.0"], {"verl": "0.5.0"}),
    # the interpreter too (key "python"), from the lib/pythonX.Y folder an installed package lies in
    (["  /usr/local/lib/python3.11/site-packages/verl-0.6.1.dist-info/METADATA"], {"python": "3.11", "verl": "0.6.1"}),
    # pip's refusal of a project (pip/_internal/resolution/resolvelib/factory.py), and collect_env's line
    (["ERROR: Package 'verl' requires a different Python: 3.8.10 not in '>=3.9'"], {"python": "3.8.10"}),
    (["Python version: 3.10.12 (main, Nov 20 2023, 15:14:05) [GCC 11.4.0] (64-bit runtime)"], {"python": "3.10.12"}),
    # vllm-ascend collect_env.py (the bug-report template): https://github.com/vllm-project/vllm-ascend/blob/main/collect_env.py
    (["[pip3] torch_npu==2.7.1.dev20250724", "vLLM Version: 0.11.0", "vLLM Ascend Version: 0.11.0rc2"],
     {"torch_npu": "2.7.1.dev20250724", "vllm": "0.11.0", "vllm_ascend": "0.11.0rc2"}),
    (["vLLM Ascend Version: 0.9.0rc2.dev0+g706de02.d20250610 (git sha: 706de02, date: 20250610)"],
     {"vllm_ascend": "0.9.0rc2.dev0+g706de02.d20250610"}),
    (["[conda] torch-npu               2.5.1                     <pip>"], {"torch_npu": "2.5.1"}),
    # pip show: https://pip.pypa.io/en/stable/cli/pip_show/
    (["Name: vllm_ascend", "Version: 0.10.2rc1", "Summary: vLLM Ascend backend plugin"], {"vllm_ascend": "0.10.2rc1"}),
    (["Version: 9.9.9", "Name: verl"], {}),  # a Version line before any Name is not a package's
    # vllm-ascend images: https://docs.vllm.ai/projects/ascend/en/latest/getting_started/quick_start.html
    (["docker pull quay.io/ascend/vllm-ascend:v0.11.0rc1-a3"], {"vllm_ascend": "0.11.0rc1"}),
    # verl's Ascend images: https://github.com/volcengine/verl/blob/main/docs/ascend_tutorial/dockerfile_build_guidance.rst
    (["image: quay.io/ascend/verl:verl-8.5.0-910b-ubuntu22.04-py3.11-v0.7.1"], {"verl": "0.7.1"}),
    (["quay.io/ascend/verl:v0.8.0-cann9.0.0-torch_npu2.9.0.post2-a3-ubuntu22.04-py3.11-vllm"],
     {"verl": "0.8.0", "torch_npu": "2.9.0.post2", "cann": "9.0.0"}),
    (["quay.io/ascend/verl:verl-8.5.0-910b-ubuntu22.04-py3.11-latest-vllm-ascend-v0.13.0"], {"vllm_ascend": "0.13.0"}),
    (["quay.io/ascend/verl:verl-8.5.0-910b-ubuntu22.04-py3.11-latest"], {}),  # 8.5.0 is CANN's, a daily tag names no verl
    # read only by the analyzers' reader before: the upstream verdict reads them now too
    (["torch-npu: 2.8.0", "transformers==4.57.1"], {"torch_npu": "2.8.0", "transformers": "4.57.1"}),
    (["INFO 10-20 [api_server.py:1839] vLLM API server version 0.11.0"], {"vllm": "0.11.0"}),
    (["source /usr/local/Ascend/ascend-toolkit/8.0.RC3/set_env.sh", "export ASCEND_RT_VISIBLE_DEVICES=0,1,"],
     {"cann": "8.0.RC3", "env:ASCEND_RT_VISIBLE_DEVICES": "0,1"}),
    (["\x1b[32mName: verl\x1b[0m", "Version: 0.6.1"], {"verl": "0.6.1"}),  # colour escapes around a pip show block
])
def test_version_formats_logs_print(lines, expected):
    assert _read(lines) == expected


def test_each_version_keeps_the_line_that_states_it():
    stated = read_versions(["  Name: verl", "Version: 0.6.1", "  torch_npu   2.7.1rc1  "])
    assert stated == {"verl": Stated("0.6.1", "Version: 0.6.1"), "torch_npu": Stated("2.7.1rc1", "torch_npu   2.7.1rc1")}


def test_two_versions_of_one_package_the_first_statement_wins():
    # two pip lists in one paste (before and after an upgrade): the first is what the log started with
    stated = read_versions(["torch_npu                2.5.1", "torch_npu                2.7.1"])
    assert stated["torch_npu"] == Stated("2.5.1", "torch_npu                2.5.1")
    # within one line, the anywhere forms are read before the release-shaped ones (what the classifier did before)
    assert versions_in("vllm_ascend version: 0.10.2rc1 (vllm_ascend version is 0.9.0)")[0] == ("vllm_ascend", "0.10.2rc1")
    # a pip show block and a pip freeze pin that disagree
    assert _read(["Name: vllm-ascend", "Version: 0.9.1", "vllm-ascend==0.11.0rc1"]) == {"vllm_ascend": "0.9.1"}
    # a pip conflict names what is installed: a later pin does not replace it
    assert _read(["  torch-npu 2.7.1 requires torch==2.7.1, but you have torch 2.8.0 which is incompatible.", "torch==2.7.1"])["torch"] == "2.8.0"


def test_the_reader_stops_at_its_bound():
    reader = LogVersions(limit=2)
    for line in ("torch==2.7.1", "vllm==0.11.0", "verl==0.6.1"):
        reader.read(line)
    assert reader.versions() == {"torch": "2.7.1", "vllm": "0.11.0"}


def test_classifier_reads_the_forms_the_upstream_reader_alone_read():
    c = Classifier(load_catalog())
    paste = ("Name: verl\nVersion: 0.6.1\nvLLM Version: 0.11.0\n[conda] torch-npu               2.5.1                     <pip>\n"
             "  /usr/local/lib/python3.11/site-packages/vllm_ascend-0.9.1.dist-info/METADATA\n"
             "INFO 09-10 Triton_Ascend version is 3.2.0\n")  # not a package the release-shaped forms know
    c.feed_stream(io.BytesIO(paste.encode()), "paste")
    result = c.result()
    assert c.versions == {"verl": "0.6.1", "vllm": "0.11.0", "torch_npu": "2.5.1", "vllm_ascend": "0.9.1", "python": "3.11"}
    assert dict(result.versions)["verl"] == Stated("0.6.1", "Version: 0.6.1")
