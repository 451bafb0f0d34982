"""The packages probe lists each path folder once (distinfo.py); it must answer what importlib.metadata answers.

Each case is a real folder tree of metadata folders; importlib.metadata itself, pointed at the same
folders, is the reference, in this process and inside a checked interpreter (--python).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata

import pytest

from ascendrl.preflight.host import Host
from ascendrl.preflight.probes.distinfo import cuda_dists, field, installed
from ascendrl.preflight.probes.packages import PACKAGES, _from_interpreter

NAMES = list(PACKAGES)


def _installed(paths: list[str], **options):
    return installed(paths, NAMES, **options)


def _reference(paths: list[str], cuda_last: bool = False) -> tuple[dict, dict]:
    versions = {}
    for dist in PACKAGES:
        found = next(iter(metadata.Distribution.discover(name=dist, path=paths)), None)
        if found is not None:
            versions[dist] = found.version
    return versions, cuda_dists(metadata.distributions(path=paths), cuda_last=cuda_last)


def _dist(folder, name: str, text: str, file: str = "METADATA") -> None:
    (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / name / file).write_text(text)


@pytest.fixture()
def site(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    _dist(a, "torch-2.7.1.dist-info", "Metadata-Version: 2.1\nName: torch\nVersion: 2.7.1+cpu\nSummary: x\n\nVersion: 9\n")
    _dist(b, "torch-2.5.0.dist-info", "Name: torch\nVersion: 2.5.0\n")  # later on the path: shadowed
    _dist(b, "vllm_ascend-0.11.0rc1.dist-info", "Name: vllm_ascend\nVersion:  0.11.0rc1\n")  # the name as the folder has it
    _dist(a, "Torch_NPU-2.7.1.post1.dist-info", "Name: torch-npu\nVersion: 2.7.1.post1\n")
    _dist(a, "ray-2.49.0.dist-info", "Name: ray\nSummary: long\n  folded\nVersion: 2.49.0\n")
    _dist(a, "verl-0.7.0.dist-info", "Name: verl\nSummary: no version\n")
    _dist(a, "numpy-2.0.0.dist-info", "", file="METADATA")  # empty METADATA: PKG-INFO is read
    (a / "numpy-2.0.0.dist-info" / "PKG-INFO").write_text("Name: numpy\nVersion: 2.0.0\n")
    _dist(a, "datasets.egg-info", "Name: datasets\nVersion: 3.1.0\n", file="PKG-INFO")
    (a / "transformers-4.57.1-py3.11.egg-info").write_text("Metadata-Version: 1.0\nName: transformers\nVersion: 4.57.1\n")
    _dist(a, "nvidia_cublas_cu12-12.8.4.1.dist-info", "Name: nvidia-cublas-cu12\nVersion: 12.8.4.1\n")
    _dist(b, "nvidia_cublas_cu12-12.1.0.dist-info", "Name: nvidia-cublas-cu12\nVersion: 12.1.0\n")  # shadowed
    _dist(b, "nvidia_NCCL_cu12-2.27.dist-info", "Name: nvidia_NCCL_cu12\nVersion: 2.27\n")
    _dist(a, "nvidiatools-1.0.dist-info", "Name: nvidiatools\nVersion: 1.0\n")  # not a CUDA wheel
    _dist(a, "tensordict-0.10.0.dist-info", "From someone\nName: tensordict\nVersion: 0.10.0\n")
    _dist(a, "triton-3.0.0.dist-info", "Name: triton\nVersion : 3.0.0\n")  # no header: the headers end there
    egg = b / "triton_ascend-3.2.0-py3.11.egg"
    _dist(egg, "EGG-INFO", "Name: triton-ascend\nVersion: 3.2.0\n", file="PKG-INFO")
    (egg / "egg-info").mkdir()  # importlib.metadata reads only a child named egg-info in an .egg folder
    (egg / "egg-info" / "PKG-INFO").write_text("Name: triton-ascend\nVersion: 3.2.0\n")
    return [str(a), str(tmp_path / "missing"), str(b), str(egg)]


def test_the_scan_answers_as_importlib_metadata(site):
    got = _installed(site)
    assert got == _reference(site)
    versions, cuda = got
    assert versions["torch"] == "2.7.1+cpu" and versions["vllm-ascend"] == "0.11.0rc1"
    assert versions["verl"] is None and versions["triton"] is None and "vllm" not in versions
    assert cuda == {"nvidia-cublas-cu12": "12.8.4.1", "nvidia-nccl-cu12": "2.27"}


def test_a_cuda_wheel_found_twice_keeps_the_later_when_asked(site):
    assert _installed(site, cuda_last=True) == _reference(site, cuda_last=True)
    assert _installed(site, cuda_last=True)[1]["nvidia-cublas-cu12"] == "12.1.0"


def test_the_scan_of_this_interpreter_answers_as_importlib_metadata():
    assert _installed(sys.path) == _reference(sys.path)


REFERENCE_QUERY = """
import json, sys
from importlib import metadata
names = json.loads(sys.argv[1])
pk = {}
for n in names:
    try:
        pk[n] = metadata.version(n)
    except Exception:
        pk[n] = None
cuda = {}
for d in metadata.distributions():
    n = (d.metadata["Name"] or "").lower().replace("_", "-")
    if n.startswith("nvidia-"):
        cuda[n] = d.version
print(json.dumps([pk, dict(sorted(cuda.items()))]))
"""


def test_the_query_in_a_checked_interpreter_answers_as_importlib_metadata(site, tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(site)}
    facts = _from_interpreter(Host(python=sys.executable, env=env))
    ref = subprocess.run([sys.executable, "-c", REFERENCE_QUERY, json.dumps(NAMES)], env=env, capture_output=True, text=True, check=True, cwd=tmp_path)
    versions, cuda = json.loads(ref.stdout)
    assert {dist: facts[f"pkg.{key}"].value for dist, key in PACKAGES.items()} == versions
    assert facts["pkg.cuda_dists"].value == cuda
    assert versions["torch"] == "2.7.1+cpu" and cuda["nvidia-cublas-cu12"] == "12.1.0"  # the later copy, as ever


def test_a_zip_on_the_path_is_left_to_importlib_metadata(tmp_path):
    archive = tmp_path / "site.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\0" * 18)  # an empty zip archive
    assert _installed([str(archive)]) is None


@pytest.mark.parametrize("text", [
    "Name: a\nVersion: 1\n", "Version:1\r\nName: a\r\n", "X: y\n\tmore\nVersion: 1\n  2\nVersion: 3\n",
    "Version\nVersion: 1\n", ": x\nVersion: 1\n", "Name: a\n\nVersion: 1\n", " lead\nVersion: 1 \n", "",
])
def test_a_field_reads_as_the_email_parser_reads_it(text):
    import email.parser

    assert field(text, "Version") == email.parser.HeaderParser().parsestr(text).get("Version")


def test_the_python_version_is_platforms():
    import platform

    from ascendrl.preflight.probes.packages import _python_version

    assert _python_version() == (platform.python_version(), platform.python_implementation())
