"""`ascendrl run` on the real verl 0.9.1 (CPU torch): real failures, named, stopped, nothing left behind.

verl cannot train here (no accelerator), so each run fails for real: with no NPU it ends in
`ValueError: Total available GPUs 0 is less than total desired GPUs …` after Ray starts; with a
model path that does not exist, in `HFValidationError`; and with Ray's CPUs below what
TransferQueue asks for, it hangs silently. Ray's temp dir and TMPDIR point at the test's folder.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.slow
SMOKE = "qwen25-0.5b-gsm8k-smoke"


@pytest.fixture
def short_tmp():
    """Short on purpose: Ray's socket paths under RAY_TMPDIR must stay within 107 bytes (ARL-R009, ARL-E123)."""
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="arl", dir="/tmp"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_recipe(tmp_path, verl_python, raytmp, *words, extra=(), timeout=540):
    env = {**os.environ, "RAY_TMPDIR": str(raytmp), "TMPDIR": str(raytmp), "HF_HUB_OFFLINE": "1", "RAY_USAGE_STATS_ENABLED": "0"}
    argv = [sys.executable, "-m", "ascendrl", "run", SMOKE, "--force", "--plain", "--python", verl_python,
            "--runs-dir", str(tmp_path / "runs"), "--grace", "5", *extra, *words]
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=tmp_path, env=env)
    summary = json.loads(next((tmp_path / "runs").glob("*/summary.json")).read_text())
    return proc, summary, time.monotonic() - start, raytmp


def assert_nothing_left(summary, raytmp: Path):
    time.sleep(1)
    for s in summary["stopped"]:
        if psutil.pid_exists(s["pid"]):
            assert psutil.Process(s["pid"]).status() == psutil.STATUS_ZOMBIE, s
    marker = str(raytmp)
    leftovers = []
    for p in psutil.process_iter(["pid", "cmdline", "environ", "status"]):
        try:
            cmd = " ".join(p.info["cmdline"] or [])
            env = p.info.get("environ") or {}
        except psutil.Error:
            continue
        if p.info["status"] != psutil.STATUS_ZOMBIE and (marker in cmd or env.get("RAY_TMPDIR") == marker):
            leftovers.append((p.pid, cmd[:120]))
    assert leftovers == []


def test_no_npu_names_the_real_cause_and_stops_everything(tmp_path, verl_python, verl_workspace, short_tmp):
    proc, summary, seconds, raytmp = run_recipe(
        tmp_path, verl_python, short_tmp,
        f"data_dir={verl_workspace / 'data'}", f"model_path={verl_workspace / 'model'}", "ray_kwargs.ray_init.num_cpus=16",
    )
    assert summary["reason"] == "fatal", proc.stderr[-3000:]
    d = summary["diagnosis"]
    assert d["id"] == "ARL-E106" and "Total available GPUs 0 is less than total desired GPUs 2" in d["excerpt"]
    log = Path(summary["log_path"]).read_text(errors="replace")
    assert "Total available GPUs 0" in log and "Started a local Ray instance" in log  # the full log is kept
    assert summary["ray_session"] and summary["ray_session"].startswith(str(raytmp))
    assert any("gcs_server" in s["name"] or "raylet" in s["name"] for s in summary["stopped"])
    assert proc.returncode != 0
    assert "preflight found" in proc.stderr and "ARL-L006" in proc.stderr  # preflight said so before launching
    assert_nothing_left(summary, raytmp)


def test_missing_model_path_is_hfvalidationerror(tmp_path, verl_python, verl_workspace, short_tmp):
    proc, summary, _, raytmp = run_recipe(
        tmp_path, verl_python, short_tmp,
        f"data_dir={verl_workspace / 'data'}", "model_path=/models/not-there", "ray_kwargs.ray_init.num_cpus=16",
    )
    assert summary["reason"] == "fatal", proc.stderr[-3000:]
    assert summary["diagnosis"]["id"] == "ARL-E108"
    assert_nothing_left(summary, raytmp)


def test_silent_hang_on_too_few_cpus_is_detected_as_a_stall(tmp_path, verl_python, verl_workspace, short_tmp):
    cpus = len(os.sched_getaffinity(0))
    if cpus >= 11:  # 8 storage units + 1 controller + 2 worker bundles
        pytest.skip(f"{cpus} CPUs: TransferQueue's actors fit, there is no hang to detect")
    bound = 45
    proc, summary, seconds, raytmp = run_recipe(
        tmp_path, verl_python, short_tmp,
        f"data_dir={verl_workspace / 'data'}", f"model_path={verl_workspace / 'model'}",
        extra=("--stall-timeout", str(bound)),
    )
    assert summary["reason"] == "stalled", proc.stderr[-3000:]
    assert summary["diagnosis"] is None
    # Ray's own view of the hang, read with `ray status` from the run's cluster: every CPU taken.
    assert "Total Usage:" in summary["stall"] and f"{cpus}.0/{cpus}.0 CPU" in summary["stall"]
    # Stopped because of the stall bound, not by the driver's own timeout: the idle time reported
    # is at least the bound. (No wall-clock assertion: this machine's load decides Ray's start-up.)
    idle = int(re.search(r"no output and no step progress for (\d+) s", summary["stall"]).group(1))
    assert idle >= bound, summary["stall"]
    assert "ARL-L008" in proc.stderr  # preflight predicted it
    assert_nothing_left(summary, raytmp)
