"""What explain reads and what it cannot: compressed logs, unreadable and binary inputs, user
signatures RE2 cannot take — each said out loud, never a silent "No known failure"."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.cli import EXIT_NO_INPUT, main

HCCL = "ImportError: libhccl.so: cannot open shared object file: No such file or directory"
LOG = f"INFO starting\nTraceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n{HCCL}\n".encode()
AS_USER = ["setpriv", "--reuid", "1000", "--regid", "1000", "--clear-groups"]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return load_catalog(user_dir=tmp_path_factory.mktemp("no-user"))


def _explain_json(*args: str, user: bool = False, env: dict | None = None) -> tuple[int, dict, str]:
    argv = [*(AS_USER if user else []), sys.executable, "-m", "ascendrl", "explain", "--json", *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=env)
    return proc.returncode, json.loads(proc.stdout) if proc.stdout else {}, proc.stderr


@pytest.mark.parametrize("suffix, pack", [(".gz", gzip.compress), (".xz", lzma.compress), (".bz2", bz2.compress)])
def test_compressed_logs_are_read_transparently(tmp_path, suffix, pack, capsys):
    log = tmp_path / f"worker.log{suffix}"
    log.write_bytes(pack(LOG))
    assert main(["explain", "--json", str(log)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["diagnoses"][0]["id"] == "ARL-E002" or doc["diagnoses"][0]["excerpt"].endswith("No such file or directory")
    assert doc["input"]["files"] == [str(log)] and doc["input"]["skipped"] == []
    assert doc["input"]["bytes"] == len(LOG)


def test_compressed_files_inside_a_ray_folder_and_on_stdin(tmp_path, catalog):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "worker-1.err.gz").write_bytes(gzip.compress(LOG))
    c = Classifier(catalog)
    c.feed_path(logs)
    assert c.result().diagnoses and c.result().files == ("worker-1.err.gz",)
    proc = subprocess.run([sys.executable, "-m", "ascendrl", "explain", "--json", "-"], input=gzip.compress(LOG), capture_output=True, timeout=60)
    assert proc.returncode == 1 and json.loads(proc.stdout)["diagnoses"]


def _explain_file(catalog, path: Path, data: bytes):
    path.write_bytes(data)
    c = Classifier(catalog)
    c.feed_path(path)
    return c.result()


def test_zstd_without_a_zstd_module_is_named_not_ignored(tmp_path, catalog):
    log = tmp_path / "a.log.zst"
    result = _explain_file(catalog, log, b"\x28\xb5\x2f\xfd" + b"\x00" * 20)
    try:
        import zstandard  # noqa: F401

        pytest.skip("zstandard is installed here: .zst is read")
    except ImportError:
        pass
    if sys.version_info >= (3, 14):
        pytest.skip("Python 3.14 reads .zst with compression.zstd")
    assert result.read_nothing
    assert result.skipped == ((str(log), result.skipped[0][1]),) and "zstd" in result.skipped[0][1]


def test_nothing_readable_is_exit_4_and_says_why(shared_tmp):
    """Unreadable file, unreadable folder, a folder of binary files: not "No known failure", exit 4."""
    tmp_path = shared_tmp
    secret = tmp_path / "denied.log"
    secret.write_bytes(LOG)
    secret.chmod(0o600)
    locked = tmp_path / "locked"
    (locked / "logs").mkdir(parents=True)
    (locked / "logs" / "w.err").write_bytes(LOG)
    locked.chmod(0o700)
    binary = tmp_path / "binary"
    binary.mkdir()
    (binary / "core.dump").write_bytes(b"\x7fELF\x00\x00" + LOG)
    (binary / "core.dump").chmod(0o644)
    rc, doc, _ = _explain_json(str(secret), str(locked), str(binary), user=True)
    assert rc == EXIT_NO_INPUT == 4
    reasons = {item["path"]: item["reason"] for item in doc["input"]["skipped"]}
    assert reasons[str(secret)] == "Permission denied"
    assert "folder not readable: Permission denied" in reasons[str(locked)]
    assert "binary" in reasons[str(binary / "core.dump")]
    assert doc["diagnoses"] == [] and doc["input"]["files"] == []
    proc = subprocess.run([*AS_USER, sys.executable, "-m", "ascendrl", "explain", str(secret)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 4
    assert "No known failure" not in proc.stdout and "Nothing could be read" in proc.stdout
    assert f"{secret}: Permission denied" in proc.stdout


def test_some_inputs_skipped_still_explains_the_rest(tmp_path, capsys):
    good = tmp_path / "good.log"
    good.write_bytes(LOG)
    folder = tmp_path / "session"
    folder.mkdir()
    (folder / "fifo").parent.mkdir(exist_ok=True)
    os.mkfifo(folder / "fifo")
    (folder / "link.log").symlink_to(good)
    start = time.monotonic()
    assert main(["explain", str(good), str(folder)]) == 1
    assert time.monotonic() - start < 20  # the FIFO inside a folder is not opened
    out = capsys.readouterr().out
    assert "Root cause" in out
    assert f"{folder / 'fifo'}: not a regular file" in out
    assert f"{folder / 'link.log'}: symbolic link (not followed)" in out


def test_corrupt_gzip_is_skipped_with_the_reason(tmp_path, catalog):
    result = _explain_file(catalog, tmp_path / "bad.log.gz", b"\x1f\x8b" + b"garbage" * 10)
    assert result.read_nothing and "gzip" in result.skipped[0][1]


# ---- user signatures that RE2 cannot compile ------------------------------------------------

USER_CATALOG = """\
- id: USR-lookahead
  title: uses a lookahead
  family: user
  severity: error
  fatal: true
  signatures:
    - regex: 'foo(?=bar)'
  cause: x
  fix: [y]
  sources: [local]
- id: USR-nested
  title: catastrophic for a backtracking engine
  family: user
  severity: error
  fatal: true
  signatures:
    - regex: '(a+)+$'
    - regex: 'kept(?<=kept)'
  cause: x
  fix: [y]
  sources: [local]
"""


def test_a_signature_re2_cannot_compile_is_rejected_with_file_line_and_why(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text(USER_CATALOG)
    cat = load_catalog([path], user_dir=tmp_path / "none")
    problems = {str(p): p for p in cat.problems}
    lookahead = next(p for p in cat.problems if "foo(?=bar)" in p.message)
    assert lookahead.where == f"{path}:7" and "not RE2 syntax" in lookahead.message and "(?=" in lookahead.message
    lookbehind = next(p for p in cat.problems if "kept(?<=kept)" in p.message)
    assert lookbehind.where == f"{path}:18" and lookbehind.what == "signature"
    assert cat.by_id("USR-lookahead") is None  # no signature left: the entry is skipped
    nested = cat.by_id("USR-nested")
    assert nested is not None and [s.regex for s in nested.signatures] == ["(a+)+$"]
    assert Classifier(cat).matcher.engine == "re2", problems


def test_one_bad_user_signature_does_not_make_explain_backtrack(tmp_path):
    """(a+)+$ on 'aaaa…!' takes seconds per line in Python's re; with RE2 kept it is instant, and good signatures still match."""
    path = tmp_path / "mine.yaml"
    path.write_text(USER_CATALOG)
    log = tmp_path / "run.log"
    log.write_bytes(("a" * 30 + "!\n").encode() * 200 + LOG)
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "explain", "--json", "--catalog", str(path), str(log)],
        capture_output=True, text=True, timeout=60,
    )
    assert time.monotonic() - start < 15
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert any("libhccl" in d["excerpt"] for d in doc["diagnoses"])
    assert f"catalog signature skipped: {path}:7: USR-lookahead" in proc.stderr
    assert "invalid perl operator" in proc.stderr  # RE2's own reason, once, not RE2's log spam
    assert "re2.cc" not in proc.stderr and "absl" not in proc.stderr


def test_unreadable_user_catalog_folder_is_a_warning_not_a_crash(shared_tmp):
    tmp_path = shared_tmp
    home = tmp_path / "home"
    (home / ".config" / "ascendrl" / "catalog").mkdir(parents=True)
    (home / ".config").chmod(0o000)
    log = tmp_path / "a.log"
    log.write_bytes(LOG)
    log.chmod(0o644)
    home.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    env["HOME"] = str(home)
    rc, doc, err = _explain_json(str(log), user=True, env=env)
    assert rc == 1, err
    assert doc["diagnoses"]
    assert "catalog folder skipped" in err and "Permission denied" in err and "Traceback" not in err


def test_a_truncated_gzip_keeps_what_came_before_the_damage(tmp_path, catalog):
    """A log rotated mid-write: the lines before the cut are judged, and the cut is reported."""
    packed = gzip.compress(LOG + b"filler line\n" * 300000)
    result = _explain_file(catalog, tmp_path / "cut.log.gz", packed[: len(packed) // 2])
    assert result.diagnoses and result.files == (str(tmp_path / "cut.log.gz"),)
    assert not result.read_nothing
    assert result.skipped[0][1].startswith("read only the first ") and "end-of-stream marker" in result.skipped[0][1]


def test_partial_paste_matching_never_backtracks_on_a_user_signature(tmp_path):
    """A bare pasted line is matched against signature prefixes with RE2 too (issue 9 item 13)."""
    import time

    from ascendrl.catalog import Classifier, load_catalog

    user = tmp_path / "evil.yaml"
    user.write_text(
        "- id: USR-E001\n  title: evil\n  family: verl-config\n  severity: error\n  fatal: true\n"
        "  signatures:\n    - regex: 'ValueError: (a+)+ (a+)+ (a+)+ (a+)+$'\n"
        "  cause: test\n  fix: [test]\n  sources: [https://example.invalid/test]\n"
    )
    catalog = load_catalog([str(user)], user_dir=tmp_path / "none")
    assert catalog.by_id("USR-E001") is not None, catalog.problems
    c = Classifier(catalog)
    started = time.monotonic()
    c.feed_chunk(b"ValueError: " + b"a" * 40 + b" " + b"a" * 40 + b" " + b"a" * 40 + b"!\n", "paste")
    c.result()
    assert time.monotonic() - started < 5  # Python's re takes minutes on this line
