"""`explain` names the upstream fix commit whose error a diagnosed line carries (issue 10, item 4)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEALTHY = Path(__file__).resolve().parents[1] / "explain" / "healthy"

# The error line is the one vllm-ascend PR #11429 quotes (shipped in catalog/data/upstream_fixes.json).
TRACEBACK = """Traceback (most recent call last):
  File "/usr/local/python3.11.13/lib/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", line 1200, in execute_model
    x = foo()
RuntimeError: Ascend config is not initialized. Please call init_ascend_config first
"""


def explain(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ascendrl", "explain", *args], input=stdin, capture_output=True, text=True, timeout=60)


def test_a_diagnosed_error_line_names_the_upstream_fix():
    proc = explain("--json", "-", stdin=TRACEBACK)
    assert proc.returncode == 1, proc.stderr
    fixes = json.loads(proc.stdout)["upstream"]
    assert [f["pr"] for f in fixes][:1] == [11429]
    assert fixes[0]["tag_first_fixed"] == "v0.23.0rc1" and fixes[0]["verdict"] == "unknown"
    text = explain("--color", "never", "-", stdin=TRACEBACK).stdout
    assert "Known upstream bugs with this error" in text and "https://github.com/vllm-project/vllm-ascend/pull/11429" in text


def test_healthy_logs_name_no_upstream_fix():
    logs = sorted(str(p) for p in HEALTHY.iterdir() if p.is_file())
    assert logs
    proc = explain("--json", *logs)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["upstream"] == []


def test_the_verdict_uses_a_version_line_anywhere_in_the_log():
    """The image tag and the error are far apart; the verdict reads the tag (verl's release-image format,
    https://github.com/volcengine/verl/blob/main/docs/ascend_tutorial/dockerfile_build_guidance.rst)."""
    # source: https://github.com/verl-project/verl/pull/3779 (the error line its description quotes)
    error = "AssertionError: Two tensor dict must have identical batch size. Got torch.Size([4096]) and torch.Size([16384])"
    log = ("+ docker run quay.io/ascend/verl:verl-8.2.rc1-910b-ubuntu22.04-py3.11-v0.5.0 bash train.sh\n"
           + "(TaskRunner pid=20311) step:1 - actor/pg_loss:0.01\n" * 50
           + "Traceback (most recent call last):\n  File \"/workspace/verl/verl/protocol.py\", line 88, in union_tensor_dict\n" + error + "\n")
    doc = json.loads(explain("--json", "-", stdin=log).stdout)
    fix = next(f for f in doc["upstream"] if f["pr"] == 3779)
    assert (fix["user_version"], fix["version_from"], fix["verdict"]) == ("0.5.0", "log", "lacks-fix")
    text = explain("--color", "never", "-", stdin=log).stdout
    assert "your log shows verl 0.5.0: this fix is not in it" in text
