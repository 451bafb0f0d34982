"""Versions read from pasted logs and checked as pairs against the compatibility matrices (DRV-versions)."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.analyzers.versions import unsupported
from ascendrl.catalog.codes import extract
from ascendrl.catalog.logversions import pip_conflict, versions_in

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
