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
