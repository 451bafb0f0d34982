"""The core stays light: check never imports the heavy stack, and preflight never imports the CLI or rich."""

from __future__ import annotations

import gc
import json
import os
import re
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


# What a one-line `explain` needs is the catalog, the classifier and its analyzers. The compatibility
# matrices (preflight, packaging), importlib.resources (tempfile, zipfile), the crash handler's
# traceback, difflib and the YAML parser are for other inputs; importing them was a third of the
# start-up (bench/bench_startup.py).
NOT_FOR_ONE_LINE = ["ascendrl.preflight", "packaging.version", "importlib.resources", "traceback", "difflib", "yaml", "rich", "tempfile"]
EXPLAIN_PROBE = """
import contextlib, io, json, sys
from ascendrl.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["explain", sys.argv[1]])
print(json.dumps([code, sorted(m for m in json.loads(sys.argv[2]) if m in sys.modules)]))
"""


def test_one_line_explain_imports_only_what_it_needs(tmp_path):
    paste = tmp_path / "one.log"
    paste.write_text("RuntimeError: call aclnnMatmul failed\n")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", EXPLAIN_PROBE, str(paste), json.dumps(NOT_FOR_ONE_LINE)],
                           capture_output=True, text=True, timeout=120, env=env) for _ in range(2)]
    first, second = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert first[0] == second[0] == 1  # a fatal diagnosis (ARL-E331), both times
    assert "yaml" in first[1]  # the first run parses the catalog and fills the cache: the probe sees imports
    assert second[1] == []  # from the cache, nothing else


def test_a_command_parser_alone_parses_as_the_whole_one():
    from ascendrl.cli import _parser

    for argv in (["explain", "--json", "a.log", "b.log"], ["explain", "--nodes", "n1", "n2", "--all"],
                 ["check", "--json", "--root", "/x", "--set", "a=1", "--set", "b=2"], ["run", "grpo", "model_path=/m", "--dry-run"]):
        assert vars(_parser(argv[0]).parse_args(argv)) == vars(_parser().parse_args(argv))
    assert _parser("explain")._subparsers._group_actions[0].choices.keys() == {"explain"}


# What `check --json` on a host without the training stack leaves out (bench/bench_startup.py):
# importlib.metadata and email (one listing of
# sys.path), concurrent.futures and logging (plain threads), the crash-only traceback (psutil, which reads the
# interfaces, imports subprocess), packaging's specifier grammar with no range to check, and the YAML parser once cached.
NOT_FOR_CHECK = ["importlib.metadata", "email", "concurrent.futures", "logging", "traceback", "importlib.resources",
                 "packaging.specifiers", "platform", "tempfile", "yaml", "rich"]
CHECK_PROBE = """
import contextlib, io, json, sys
from ascendrl.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["check", "--json"])
print(json.dumps([code, sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)]))
"""


def test_check_json_imports_only_what_it_needs(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PATH"} | {"PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", CHECK_PROBE, json.dumps(NOT_FOR_CHECK)], capture_output=True, text=True,
                           timeout=120, env=env, cwd=tmp_path) for _ in range(2)]
    first, second = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert first[0] == second[0] == 1  # no NPUs here: findings fail
    zipped = any(os.path.isfile(entry) for entry in sys.path)  # a zip on the path is read by importlib.metadata itself
    expected = ["email", "importlib.metadata"] if zipped else []
    assert [m for m in second[1] if m not in expected] == []  # the compatibility matrices from the cache


# A process started as `python -m ascendrl` (and the console script, pyproject's entry) loads the catalog with the
# collector's first generation raised and freezes what is left at the end: a one-line explain spent 7 % of its
# instructions walking the catalog's objects (callgrind, bench/bench_startup.py for the time).
ENTRY_PROBE = """
import atexit, gc, runpy, sys
atexit.register(lambda: print(gc.get_threshold()[0], gc.get_freeze_count() > 0, file=sys.stderr))
sys.argv = ["ascendrl", "explain", sys.argv[1]]
runpy.run_module("ascendrl", run_name="__main__")
"""


def test_the_process_entry_sets_the_collector_and_main_does_not(tmp_path):
    from ascendrl.cli import GC_FIRST_GENERATION

    log = tmp_path / "one.log"
    log.write_text("RuntimeError: call aclnnMatmul failed\n")
    proc = subprocess.run([sys.executable, "-c", ENTRY_PROBE, str(log)], capture_output=True, text=True, timeout=120)
    assert "ARL-E331" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1] == f"{GC_FIRST_GENERATION} True"
    code = "import gc, sys; from ascendrl.cli import main; main(['explain', sys.argv[1]]); print(gc.get_threshold()[0], gc.get_freeze_count(), file=sys.stderr)"
    proc = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, timeout=120)
    assert proc.stderr.strip().splitlines()[-1] == f"{gc.get_threshold()[0]} 0"  # tests call main(): nothing frozen


def test_console_script_is_the_entry():
    from pathlib import Path

    text = (Path(__file__).parents[1] / "pyproject.toml").read_text()
    scripts = text.split("[project.scripts]", 1)[1].split("\n[", 1)[0]
    assert re.findall(r'^ascendrl\s*=\s*"([^"]+)"', scripts, re.M) == ["ascendrl.cli:entry"]
