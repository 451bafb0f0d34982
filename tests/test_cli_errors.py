"""check and explain fail in one clear line, never a traceback: bad paths, closed or full stdout,
a reader that leaves early, odd encodings, undecodable environment bytes, absurd timeouts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HCCL = "ImportError: libhccl.so: cannot open shared object file: No such file or directory"
LOG = f"Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n{HCCL}\n"
AS_USER = ["setpriv", "--reuid", "1000", "--regid", "1000", "--clear-groups"]
CLI = [sys.executable, "-m", "ascendrl"]


def _run(*args: str, env: dict | None = None, user: bool = False, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("capture_output", True)
    return subprocess.run([*(AS_USER if user else []), *CLI, *args], env=env, timeout=120, **kw)


def _no_traceback(stderr: bytes | str) -> None:
    text = stderr.decode(errors="replace") if isinstance(stderr, bytes) else stderr
    assert "Traceback" not in text and "Exception ignored" not in text and "unexpected error" not in text, text


@pytest.fixture
def log(tmp_path) -> Path:
    path = tmp_path / "run.log"
    path.write_text(LOG)
    return path


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0", "1e9"])
def test_timeout_must_be_finite_positive_and_sane(value):
    proc = _run("check", "--timeout", value, text=True)
    assert proc.returncode == 2
    assert "positive, finite number of seconds" in proc.stderr
    _no_traceback(proc.stderr)


def test_python_at_an_inaccessible_path_is_a_usage_error(shared_tmp):
    private = shared_tmp / "private"
    private.mkdir()
    (private / "python3").symlink_to(sys.executable)
    private.chmod(0o700)
    plain = shared_tmp / "not-executable"
    plain.write_text("#!/bin/sh\n")
    plain.chmod(0o644)
    proc = _run("check", "--python", str(private / "python3"), user=True, text=True)
    assert proc.returncode == 2 and "permission denied" in proc.stderr
    _no_traceback(proc.stderr)
    proc = _run("check", "--python", str(plain), text=True)
    assert proc.returncode == 2 and "not executable" in proc.stderr
    proc = _run("check", "--python", "no-such-python-anywhere", text=True)
    assert proc.returncode == 2 and "not found on PATH" in proc.stderr


def test_symlink_loops_are_called_loops(tmp_path):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    proc = _run("check", "--python", str(tmp_path / "a"), text=True)
    assert proc.returncode == 2 and "symlink loop" in proc.stderr
    proc = _run("explain", str(tmp_path / "a"), text=True)
    assert proc.returncode == 4 and "symlink loop" in proc.stdout
    assert "no such file" not in (proc.stdout + proc.stderr).lower()
    for argv in (["explain", "--catalog", str(tmp_path / "a"), "-"], ["check", "--env-file", str(tmp_path / "a")]):
        proc = _run(*argv, text=True, input="")
        assert proc.returncode == 2 and "symlink loop" in proc.stderr, argv


def test_closed_stdout_exits_120_quietly(log):
    proc = subprocess.run([*CLI, "explain", str(log)], stdout=subprocess.DEVNULL, capture_output=False, stderr=subprocess.PIPE,
                          timeout=60, preexec_fn=lambda: os.close(1))
    assert proc.returncode == 120
    assert b"standard output is closed" in proc.stderr
    _no_traceback(proc.stderr)


@pytest.mark.parametrize("command", [["explain"], ["check"]])
def test_full_stdout_exits_120_quietly(log, command):
    args = [*command, str(log)] if command == ["explain"] else command
    with open("/dev/full", "w") as full:
        proc = subprocess.run([*CLI, *args], stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert proc.returncode == 120
    assert b"cannot write the output: No space left on device" in proc.stderr
    _no_traceback(proc.stderr)


def test_a_reader_that_leaves_keeps_the_exit_status(log):
    """`ascendrl explain log | head -1`: still 1 (a fatal failure was found), no traceback."""
    proc = subprocess.Popen([*CLI, "explain", "--all", str(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # the reader is gone before anything is written
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    _no_traceback(err)
    shell = subprocess.run(["bash", "-c", f'set -o pipefail; {sys.executable} -m ascendrl explain "$1" | head -1', "sh", str(log)],
                           capture_output=True, text=True, timeout=60)
    assert shell.returncode == 1 and shell.stdout.strip() == "Root cause"
    _no_traceback(shell.stderr)


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}])
def test_ascii_or_posix_locale_output_does_not_crash(log, env):
    full = {**os.environ, **env}
    check = _run("check", env=full, text=False)
    assert check.returncode in (0, 1), check.stderr
    _no_traceback(check.stderr)
    assert b"failed," in check.stdout  # the summary line, its dash escaped rather than fatal
    explain = _run("explain", str(log), env=full)
    assert explain.returncode == 1
    _no_traceback(explain.stderr)


def test_undecodable_env_values_keep_check_json_valid_utf8():
    env = dict(os.environb)
    env[b"HCCL_BUFFSIZE"] = b"\xff\xfe200"
    env[b"VLLM_\xffODD"] = b"1"
    proc = subprocess.run([*CLI, "check", "--json"], env=env, capture_output=True, timeout=120)
    assert proc.returncode in (0, 1)
    _no_traceback(proc.stderr)
    doc = json.loads(proc.stdout.decode("utf-8"))  # strict: raises on invalid UTF-8
    settings = doc["facts"]["env.settings"]["value"]
    assert settings["HCCL_BUFFSIZE"] == "\\xff\\xfe200"
    assert "VLLM_\\xffODD" in settings
    text = subprocess.run([*CLI, "check"], env=env, capture_output=True, timeout=120)
    assert text.returncode in (0, 1)
    _no_traceback(text.stderr)
