"""`ascendrl stack`: the documented stacks for the installed or a named version, with sources and install commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HOSTS = Path(__file__).parents[1] / "hosts"


def stack(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ascendrl", "stack", *args], capture_output=True, text=True, timeout=120)


def test_installed_stack_of_the_seed_host():
    result = stack("--root", str(HOSTS / "seed"))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "vllm-ascend 0.11.0rc1 (installed)" in out.splitlines()[0]
    assert "https://github.com/verl-project/verl/blob/v0.7.0/docs/ascend_tutorial/ascend_quick_start.rst" in out
    assert "torch-npu 2.7.1 ✓" in out and "cann 8.3.RC1 ✓" in out
    assert "$ pip install torch-npu" not in out  # nothing to install: the host has the whole stack


def test_named_verl_release_prints_its_stack_and_install_commands():
    result = stack("--verl", "0.9.0", "--json")
    data = json.loads(result.stdout)
    assert result.returncode == 0 and len(data["stacks"]) == 1
    only = data["stacks"][0]
    assert only["versions"]["cann"] == "9.0.0" and only["versions"]["torch_npu"] == "2.10.0.post2"
    assert "pip install torch==2.10.0 --index-url https://download.pytorch.org/whl/cpu" in only["install"]
    assert any(c.startswith("git clone -b v0.9.0 ") and "verl-project/verl" in c for c in only["install"])
    assert any("VLLM_TARGET_DEVICE=empty" in c and "-b v0.23.0 " in c for c in only["install"])


def test_cann_and_torch_npu_pair_selects_the_matrix_rows():
    data = json.loads(stack("--cann", "9.0.1", "--torch-npu", "2.10.0.post2", "--json").stdout)
    origins = {s["origin"].split(" (")[0] for s in data["stacks"]}
    assert {"vllm-ascend 0.23.0rc1", "vllm-ascend 0.24.0rc1", "vllm-ascend 0.25.1rc1"} <= origins
    assert "TorchNPU 26.0.1" in data["pairs"][0]


def test_unknown_pair_says_what_is_documented():
    result = stack("--torch-npu", "2.7.1.post8")
    assert "documented with CANN" in result.stdout and "9.1.0" in result.stdout


@pytest.mark.parametrize("args, message", [(("--cann", "banana"), "is not a version"), (("--root", "/nonexistent-dir"), "not a directory")])
def test_bad_input_is_one_line(args, message):
    result = stack(*args)
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
