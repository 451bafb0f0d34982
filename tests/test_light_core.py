"""The core stays light: check never imports the heavy stack, and preflight never imports the CLI or rich."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys
from ascendrl.preflight import check
from ascendrl.preflight.host import Host
check(Host())
heavy = ["torch", "torch_npu", "vllm", "vllm_ascend", "verl", "ray", "transformers", "datasets", "rich", "ascendrl.cli"]
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def test_check_imports_nothing_heavy():
    proc = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


def test_json_path_does_not_import_rich():
    code = "import sys; from ascendrl.cli import main; main(['check', '--json']); print('rich' in sys.modules, file=sys.stderr)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stderr.strip().splitlines()[-1] == "False"
