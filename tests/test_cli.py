"""The CLI end to end: this machine (no Ascend at all), JSON schema, exit codes, usage errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ascendrl.cli import main
from conftest import HOSTS, NPU_SMI

ENV_NO_ASCEND = {k: v for k, v in os.environ.items() if not k.startswith(("ASCEND_", "ATB_", "HCCL_"))}


def run_cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ascendrl", *args], capture_output=True, text=True, env=env or ENV_NO_ASCEND, timeout=120
    )


def test_this_machine_reports_no_npu_stack_calmly():
    """CI's machine has no Ascend at all: one clear fail per missing layer, dependents skip, no crash."""
    proc = run_cli("check", "--json")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    status = {f["id"]: f["status"] for f in doc["findings"]}
    assert status["ARL-A001"] == "fail"
    assert status["ARL-D001"] == "fail"
    d001 = next(f for f in doc["findings"] if f["id"] == "ARL-D001")
    assert "no Ascend NPU on this host" in d001["detail"]
    for dependent in ("ARL-A002", "ARL-D002", "ARL-D003", "ARL-D004", "ARL-C005", "ARL-C007"):
        assert status[dependent] == "skip", dependent
    assert "ARL-X001" not in status
    assert [f["id"] for f in doc["findings"] if f["status"] == "fail"] == ["ARL-A001", "ARL-D001"]
    assert proc.stderr == ""


def test_json_schema_is_the_documented_one():
    proc = run_cli("check", "--json")
    doc = json.loads(proc.stdout)
    assert doc["schema"] == 1
    assert set(doc) == {"schema", "facts", "findings", "summary"}
    assert set(doc["summary"]) == {"pass", "warn", "fail", "skip"}
    assert sum(doc["summary"].values()) == len(doc["findings"])
    for finding in doc["findings"]:
        assert {"id", "status", "severity", "title", "detail", "fix"} <= set(finding)
        assert finding["status"] in doc["summary"]
    assert doc["facts"]["python.version"]["value"] == ".".join(map(str, sys.version_info[:3]))
    assert doc["facts"]["cann.toolkit"]["value"] is None and doc["facts"]["cann.toolkit"]["reason"]


def test_fixture_host_passes_and_exits_zero(tmp_path):
    import shutil

    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    env = dict(ENV_NO_ASCEND)
    from conftest import BASE_ENV, IMAGE_NPU_SMI, SOURCED_ENV

    env.update(BASE_ENV)
    env.update(SOURCED_ENV["seed"])
    env["RAY_local_fs_capacity_threshold"] = "1.0"  # this machine's disk fullness must not decide the exit code
    proc = run_cli("check", "--root", str(root), "--npu-smi", str(root / IMAGE_NPU_SMI), "--json", env=env)
    doc = json.loads(proc.stdout)
    fails = [f for f in doc["findings"] if f["status"] == "fail"]
    # The disk floors depend on this machine; everything else on the seed host passes.
    assert all(f["id"] in {"ARL-R002", "ARL-R003"} for f in fails), fails
    assert proc.returncode == (1 if fails else 0)


def test_plain_output_when_not_a_tty():
    proc = run_cli("check")
    assert "\x1b[" not in proc.stdout
    assert "FAIL ARL-D001" in proc.stdout
    assert proc.stdout.rstrip().splitlines()[-1].startswith("2 failed")


def test_no_color_and_color_always():
    env = dict(ENV_NO_ASCEND, NO_COLOR="1")
    assert "\x1b[" not in run_cli("check", "--color", "auto", env=env).stdout
    colored = run_cli("check", "--color", "always", env=dict(ENV_NO_ASCEND, TERM="xterm-256color", COLUMNS="200"))
    assert "✖" in colored.stdout and "\x1b[" in colored.stdout


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "--root", "/definitely/not/here"], "not a directory"),
        (["check", "--rule", "ARL-Z999"], "no rule"),
        (["check", "--npu-smi", "/no/such/npu-smi"], "no such file"),
        (["check", "--timeout", "0"], "positive"),
    ],
)
def test_usage_errors_exit_2(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_unknown_flag_exits_2(capsys):
    assert main(["check", "--bogus"]) == 2


def test_list_rules_and_explain_one(capsys):
    assert main(["check", "--list-rules"]) == 0
    listing = capsys.readouterr().out
    assert "ARL-V001" in listing and "nz-off" in listing
    assert main(["check", "--rule", "arl-v001"]) == 0
    doc = capsys.readouterr().out
    for section in ("What it checks", "Why it breaks a verl run", "Fix", "Sources", "vllm-ascend"):
        assert section in doc


def test_npu_smi_flag_accepts_a_captured_output_file(tmp_path):
    captured = tmp_path / "npu-smi.txt"
    captured.write_text((NPU_SMI / "occupied.txt").read_text())
    captured.chmod(0o644)
    proc = run_cli("check", "--json", "--npu-smi", str(captured))
    doc = json.loads(proc.stdout)
    d003 = next(f for f in doc["findings"] if f["id"] == "ARL-D003")
    assert d003["status"] == "fail" and d003["facts"]["pids"] == [19341, 214587]


def test_python_flag_reads_another_interpreter():
    proc = run_cli("check", "--json", "--python", sys.executable)
    facts = json.loads(proc.stdout)["facts"]
    import platform

    assert facts["python.executable"]["value"] == sys.executable
    assert facts["python.version"]["value"] == platform.python_version()
    assert facts["pkg.verl"]["value"] is None and facts["pkg.verl"]["reason"] == "not installed"
    assert "metadata query run by" in facts["python.version"]["source"]


def test_python_that_does_not_answer_like_python_is_one_line(tmp_path):
    proc = run_cli("check", "--python", "/usr/bin/true")
    line = next(ln for ln in proc.stdout.splitlines() if "ARL-C001" in ln)
    assert "/usr/bin/true did not answer like Python" in line and "import json" not in proc.stdout


def test_python_flag_is_looked_up_on_path_everywhere():
    name = os.path.basename(sys.executable)
    env = {**ENV_NO_ASCEND, "PATH": os.path.dirname(sys.executable) + os.pathsep + ENV_NO_ASCEND.get("PATH", "")}
    for argv in (("check", "--json", "--python", name), ("stack", "--python", name, "--vllm-ascend", "0.11.0rc1")):
        proc = run_cli(*argv, env=env)
        assert proc.returncode in (0, 1) and "no such file" not in proc.stderr, proc.stderr


def test_python_flag_with_a_broken_interpreter_is_a_reason_not_a_crash(tmp_path):
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\necho 'Fatal Python error: init_fs_encoding' >&2\nexit 1\n")
    fake.chmod(0o755)
    proc = run_cli("check", "--json", "--python", str(fake))
    assert proc.returncode == 1
    facts = json.loads(proc.stdout)["facts"]
    assert facts["pkg.torch"]["value"] is None
    assert "init_fs_encoding" in facts["pkg.torch"]["reason"]
    status = {f["id"]: f["status"] for f in json.loads(proc.stdout)["findings"]}
    assert status["ARL-C001"] == "skip"


def test_entry_point_installed():
    exe = Path(sys.executable).with_name("ascendrl")
    assert exe.exists()
    proc = subprocess.run([str(exe), "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.startswith("ascendrl ")
