"""--deep imports torch_npu for real, in a venv holding the CPU torch 2.13.0 and torch-npu 2.13.0.

No CANN exists on this machine, which is exactly the "CANN absent or not sourced" case:
torch_npu fails to load libhccl.so and, through torch's backend autoload, so does torch.
The venv is built once (about a minute) at ASCENDRL_TORCH_NPU_VENV or in the test cache (conftest.heavy_venv).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow



@pytest.fixture(scope="session")
def npu_python() -> str:
    from conftest import heavy_venv

    return heavy_venv("torch-npu-2.13.0", "ASCENDRL_TORCH_NPU_VENV", ["torch==2.13.0"], ["torch-npu==2.13.0"])


def test_deep_check_reports_the_real_import_errors(npu_python):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "ATB_"))}
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "check", "--json", "--deep", "--python", npu_python],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    doc = json.loads(proc.stdout)
    facts = doc["facts"]
    assert facts["pkg.torch"]["value"].startswith("2.13.0")
    assert facts["pkg.torch_npu"]["value"] == "2.13.0"
    findings = {f["id"]: f for f in doc["findings"]}
    assert findings["ARL-C003"]["status"] == "pass"  # torch 2.13.0 with torch_npu 2.13.0
    a005, a006 = findings["ARL-A005"], findings["ARL-A006"]
    assert a005["status"] == "fail"
    assert "libhccl.so: cannot open shared object file" in a005["detail"]
    assert "set_env.sh" in a005["fix"]
    assert a006["status"] == "fail"
    assert "Failed to load the backend extension: torch_npu" in a006["detail"]
    assert proc.returncode == 1


def test_without_deep_nothing_is_imported(npu_python):
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "check", "--json", "--python", npu_python],
        capture_output=True,
        text=True,
        timeout=120,
    )
    findings = {f["id"]: f for f in json.loads(proc.stdout)["findings"]}
    assert findings["ARL-A005"]["status"] == "skip"
    assert "--deep" in findings["ARL-A005"]["detail"]
