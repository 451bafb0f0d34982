"""Issue 9 items 1, 3, 5, 6, 7: `fix` never loses a user's edit, follows only its own journals,
keeps files whose they are, and signals only the processes it planned to. Real files, users and processes."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascendrl.fixes.engine import FixError, UndoConflict, apply_plan, build_plan, latest_journal, undo_last
from ascendrl.fixes.model import Applicability, Proposal, SetEnv, StopProcess

SCRIPTS = Path(__file__).parent / "scripts"
ORIGINAL = (SCRIPTS / "tune_qwen25vl7b_grpo.sh").read_bytes()


def nz() -> Proposal:
    return Proposal("nz-off", "nz", Applicability.SAFE, ("ARL-V001",), (SetEnv("VLLM_ASCEND_ENABLE_NZ", "0"),))


def applied(tmp_path: Path, name: str = "train.sh") -> tuple[Path, Path]:
    script = tmp_path / name
    script.write_bytes(ORIGINAL)
    state = tmp_path / ".ascendrl"
    apply_plan(build_plan([nz()], target=str(script), managed=False, unsafe=False), state_dir=str(state))
    return script, state


def cli(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "ascendrl", "fix", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


# ---- item 1: undo never discards edits made after apply --------------------------------------
def test_undo_refuses_a_file_edited_after_apply_and_force_keeps_a_copy(tmp_path):
    script, state = applied(tmp_path)
    edited = script.read_bytes() + b"echo my own change\n"
    script.write_bytes(edited)
    refused = cli("--undo", cwd=tmp_path)
    assert refused.returncode == 1
    assert script.read_bytes() == edited  # nothing lost
    assert "+echo my own change" in refused.stderr and "--undo --force" in refused.stderr
    assert latest_journal(str(state)) is not None  # still there to undo later
    forced = cli("--undo", "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert script.read_bytes() == ORIGINAL
    kept = list(state.glob("journal/*.kept/*"))
    assert [p.read_bytes() for p in kept] == [edited]  # the discarded version is still on disk


def test_undo_does_not_delete_a_managed_env_file_the_user_extended(tmp_path):
    env_file = tmp_path / ".ascendrl" / "env.sh"
    apply_plan(build_plan([nz()], target=str(env_file), managed=True, unsafe=False), state_dir=str(tmp_path / ".ascendrl"))
    env_file.write_bytes(env_file.read_bytes() + b"export MINE=1\n")
    with pytest.raises(UndoConflict):
        undo_last(str(tmp_path / ".ascendrl"))
    assert b"export MINE=1" in env_file.read_bytes()


def test_force_is_only_for_undo(tmp_path):
    assert cli("--force", cwd=tmp_path).returncode == 2


# ---- item 3: only verified journals are followed ---------------------------------------------
def _journal(state: Path, doc: object, mode: int = 0o600) -> Path:
    folder = state / "journal"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / "20990101T000000.000000Z.json"
    path.write_text(json.dumps(doc))
    path.chmod(mode)
    return path


def _record(path: Path, before: bytes, now: bytes, existed: bool = True, mode: int = 0o644) -> dict:
    return {
        "path": str(path), "existed": existed, "mode": mode,
        "before_b64": base64.b64encode(before).decode(), "before_sha256": hashlib.sha256(before).hexdigest(),
        "after_b64": base64.b64encode(now).decode(), "after_sha256": hashlib.sha256(now).hexdigest(),
    }


@pytest.mark.parametrize(
    "doc",
    ["not json {", [], {"version": 2}, {"version": 2, "state": "complete", "files": "x", "targets": []},
     {"version": 2, "state": "complete", "targets": ["/x"], "files": [{"path": "/x", "existed": True, "before_b64": "!!", "after_sha256": "0" * 64}]},
     {"version": 2, "state": "complete", "targets": ["rel"], "files": [{"path": "rel"}]}],
)
def test_a_malformed_journal_is_a_clear_error_not_a_crash(tmp_path, doc):
    folder = tmp_path / ".ascendrl" / "journal"
    folder.mkdir(parents=True, mode=0o700)
    path = folder / "1.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    path.chmod(0o600)
    proc = cli("--undo", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert "malformed" in proc.stderr and "files were not touched" in proc.stderr


def test_a_journal_cannot_delete_a_file_fix_did_not_create(tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_bytes(b"keep me\n")
    doc = {"version": 2, "state": "complete", "targets": [str(victim)], "files": [_record(victim, b"", b"keep me\n", existed=False)], "dirs": []}
    _journal(tmp_path / ".ascendrl", doc)
    with pytest.raises(FixError, match="only creates files in"):
        undo_last(str(tmp_path / ".ascendrl"))
    assert victim.read_bytes() == b"keep me\n"


def test_a_journal_never_sets_setuid_and_only_touches_its_targets(tmp_path):
    victim = tmp_path / "tool.sh"
    victim.write_bytes(b"#!/bin/sh\necho hi\n")
    victim.chmod(0o755)
    record = _record(victim, b"#!/bin/sh\nevil\n", b"#!/bin/sh\necho hi\n", mode=0o4755)
    state = tmp_path / ".ascendrl"
    _journal(state, {"version": 2, "state": "complete", "targets": [str(tmp_path / "other.sh")], "files": [record], "dirs": []})
    with pytest.raises(FixError, match="not one of the files this apply targeted"):
        undo_last(str(state))
    assert victim.read_bytes() == b"#!/bin/sh\necho hi\n"
    _journal(state, {"version": 2, "state": "complete", "targets": [str(victim)], "files": [record], "dirs": []})
    undo_last(str(state))
    assert victim.stat().st_mode & 0o7777 == 0o755  # the bytes go back; set-id bits never


def test_journal_hashes_are_checked(tmp_path):
    victim = tmp_path / "a.sh"
    victim.write_bytes(b"a\n")
    record = _record(victim, b"old\n", b"a\n")
    record["before_sha256"] = "0" * 64
    _journal(tmp_path / ".ascendrl", {"version": 2, "state": "complete", "targets": [str(victim)], "files": [record], "dirs": []})
    with pytest.raises(FixError, match="do not match their recorded hash"):
        undo_last(str(tmp_path / ".ascendrl"))
    assert victim.read_bytes() == b"a\n"


@pytest.mark.parametrize("what", ["other-owner", "shared-file", "shared-folder"])
def test_journals_not_private_to_this_user_are_refused(tmp_path, what):
    script, state = applied(tmp_path)
    journal = latest_journal(str(state))
    if what == "other-owner":
        os.chown(journal, 1000, 1000)
    elif what == "shared-file":
        journal.chmod(0o644)  # e.g. committed to a repository and checked out
    else:
        journal.parent.chmod(0o777)
    proc = cli("--undo", cwd=tmp_path)
    assert proc.returncode == 1 and "refusing to follow it" in proc.stderr
    assert script.read_bytes() != ORIGINAL  # nothing touched


# ---- item 5: concurrent applies both land -----------------------------------------------------
def test_two_concurrent_applies_on_one_script_keep_both_edits(tmp_path):
    from conftest import HOSTS

    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    env = {"PATH": "/usr/bin:/bin", "HOME": "/root", "HCCL_CONNECT_TIMEOUT": "9000"}
    for attempt in range(10):
        work = tmp_path / f"try{attempt}"
        (work / "a").mkdir(parents=True)
        (work / "b").mkdir()
        script = work / "train.sh"
        script.write_bytes(ORIGINAL)
        procs = [
            subprocess.Popen([sys.executable, "-m", "ascendrl", "fix", "--apply", "--root", str(root), "--script", str(script), "--only", fix], cwd=work / sub, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for sub, fix in (("a", "nz-off"), ("b", "hccl-timeouts"))
        ]
        outs = [p.communicate(timeout=120) for p in procs]
        text = script.read_text()
        assert "export VLLM_ASCEND_ENABLE_NZ=0" in text, (attempt, outs)
        assert "export HCCL_CONNECT_TIMEOUT=3600" in text, (attempt, outs)


# ---- item 6: file identity --------------------------------------------------------------------
@pytest.fixture
def open_dir():
    """A folder uid 1000 can reach (pytest's own tmp folders are 0700 root)."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="arl-owner-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path)


def test_owner_group_mode_and_xattrs_are_kept(open_dir):
    tmp_path = open_dir
    script = tmp_path / "train.sh"
    script.write_bytes(ORIGINAL)
    os.chown(script, 1000, 1000)
    script.chmod(0o640)
    try:
        os.setxattr(script, "user.origin", b"mine")
        has_xattr = True
    except OSError:
        has_xattr = False  # this filesystem has no user xattrs
    state = tmp_path / ".ascendrl"
    apply_plan(build_plan([nz()], target=str(script), managed=False, unsafe=False), state_dir=str(state))
    st = script.stat()
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1000, 1000, 0o640)
    if has_xattr:
        assert os.getxattr(script, "user.origin") == b"mine"
    as_owner = subprocess.run(["setpriv", "--reuid", "1000", "--regid", "1000", "--clear-groups", "cat", str(script)], capture_output=True)
    if as_owner.returncode != 0 and b"setpriv" in as_owner.stderr:
        pytest.skip(f"setpriv unavailable: {as_owner.stderr.decode().strip()}")
    assert as_owner.returncode == 0 and b"VLLM_ASCEND_ENABLE_NZ=0" in as_owner.stdout
    undo_last(str(state))
    st = script.stat()
    assert script.read_bytes() == ORIGINAL and (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (1000, 1000, 0o640)


def test_a_symlinked_script_edits_its_target_and_undo_keeps_the_link(tmp_path):
    real = tmp_path / "scripts" / "real.sh"
    real.parent.mkdir()
    real.write_bytes(ORIGINAL)
    link = tmp_path / "train.sh"
    link.symlink_to("scripts/real.sh")
    state = tmp_path / ".ascendrl"
    apply_plan(build_plan([nz()], target=str(link), managed=False, unsafe=False), state_dir=str(state))
    assert link.is_symlink() and os.readlink(link) == "scripts/real.sh"
    assert b"VLLM_ASCEND_ENABLE_NZ=0" in real.read_bytes()
    undo_last(str(state))
    assert link.is_symlink() and real.read_bytes() == ORIGINAL


@pytest.mark.parametrize("kind", ["hardlink", "readonly", "binary", "latin1"])
def test_files_that_must_not_be_edited_are_refused(tmp_path, kind):
    script = tmp_path / "train.sh"
    script.write_bytes(ORIGINAL)
    if kind == "hardlink":
        os.link(script, tmp_path / "other-name.sh")
        match = "hard links"
    elif kind == "readonly":
        script.chmod(0o444)
        match = "read-only"
    elif kind == "binary":
        script.write_bytes(ORIGINAL + b"\0\x01\x02")
        match = "NUL bytes"
    else:
        script.write_bytes(ORIGINAL + "# réglage ".encode("latin-1") * 20)
        match = "not UTF-8 text"
    before = script.read_bytes()
    with pytest.raises(FixError, match=match):
        build_plan([nz()], target=str(script), managed=False, unsafe=False)
    assert script.read_bytes() == before
    from conftest import HOSTS

    proc = cli("--apply", "--root", str(HOSTS / "seed"), "--script", str(script), "--only", "nz-off", cwd=tmp_path)
    assert proc.returncode == 2 and match in proc.stderr and "nothing was changed" in proc.stderr
    assert script.read_bytes() == before


# ---- item 7: only the planned process is ever signalled ---------------------------------------
def _holders_file(tmp_path: Path, *pids: int) -> Path:
    from conftest import NPU_SMI

    text = (NPU_SMI / "occupied.txt").read_text()
    for old, new in zip(("214587", "19341"), pids):
        text = text.replace(old, str(new))
    captured = tmp_path / "npu-smi-info.txt"
    captured.write_text(text)
    return captured


def _plan_stop(tmp_path: Path, *pids: int):
    from ascendrl.fixes import check_as_run_sees_it, npu_holders, propose
    from ascendrl.preflight.host import Host

    host = Host(env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, npu_smi=str(_holders_file(tmp_path, *pids)))
    proposals = [p for p in propose(check_as_run_sees_it(host, None), host) if p.fix_id == "kill-npu-holders"]
    return proposals, npu_holders(host)


def _sleeper(seconds: str = "600") -> subprocess.Popen:
    """`sleep` started and past its exec: planned any earlier, /proc still shows the forking Python's (or an empty)
    command line, and the plan rightly refuses a process whose command line it could not record."""
    proc = subprocess.Popen(["sleep", seconds])
    for _ in range(200):
        if Path(f"/proc/{proc.pid}/cmdline").read_bytes().startswith(b"sleep"):
            return proc
        time.sleep(0.01)
    raise AssertionError(f"sleep {proc.pid} did not exec within 2 s")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_init_ascendrl_and_its_parent_are_never_planned(tmp_path):
    proposals, _ = _plan_stop(tmp_path, 1, os.getppid())
    [proposal] = proposals
    assert not [a for a in proposal.actions if isinstance(a, StopProcess)]
    texts = " ".join(a.text for a in proposal.actions)
    assert "PID 1 " in texts and f"PID {os.getppid()} " in texts


def test_a_reused_pid_is_not_signalled(tmp_path):
    """sleep A is planned; A exits and sleep B is started with A's PID (ns_last_pid); B survives."""
    first = _sleeper("600")
    pid = first.pid
    proposals, holders = _plan_stop(tmp_path, pid)
    stops = [a for a in proposals[0].actions if isinstance(a, StopProcess)]
    assert [s.pid for s in stops] == [pid] and stops[0].argv == ("sleep", "600")
    first.kill()
    first.wait()
    # psutil's create_time has the kernel's clock-tick resolution (10 ms at USER_HZ 100): let a tick pass, or B can
    # carry A's start time and only its command line tells it apart (refused too, but not by the check tested here)
    time.sleep(0.05)
    second = None
    for _ in range(50):
        try:
            Path("/proc/sys/kernel/ns_last_pid").write_text(str(pid - 1))
        except OSError as exc:
            pytest.skip(f"cannot choose the next PID here: {exc}")
        candidate = _sleeper("601")
        if candidate.pid == pid:
            second = candidate
            break
        candidate.kill()
        candidate.wait()
    if second is None:
        pytest.skip("could not get the same PID again (busy machine)")
    try:
        plan = build_plan(proposals, target=str(tmp_path / "env.sh"), managed=True, unsafe=True)
        result = apply_plan(plan, state_dir=str(tmp_path / ".ascendrl"), holders=holders)
        assert result.stopped == () and result.refused and "started after the plan" in result.refused[0][1]
        time.sleep(0.2)
        assert second.poll() is None  # still running
    finally:
        second.kill()
        second.wait()


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="no pidfd on this platform")
def test_a_pinned_process_is_signalled_through_its_pidfd_never_a_later_one_with_its_pid(same_pid_again):
    """The window between the identity checks and the signal: A is pinned, A exits, B takes A's PID and looks exactly
    as the plan recorded (its own start time and command line). The signal goes to A's pidfd: A is gone, B lives."""
    from ascendrl.fixes.engine import stop_process
    from ascendrl.pinned import alive as _pidfd_alive

    first = _sleeper("600")
    pidfd = os.pidfd_open(first.pid)
    try:
        assert _pidfd_alive(pidfd)
        first.kill()
        first.wait()
        assert not _pidfd_alive(pidfd)
        second = same_pid_again(first.pid, ["sleep", "601"])
        if second is None:
            pytest.skip("cannot choose the next PID here")
        try:
            import psutil

            as_planned = StopProcess(second.pid, "sleep", "sleep 601", psutil.Process(second.pid).create_time(), ("sleep", "601"))
            assert stop_process(as_planned, grace=1.0, pidfd=pidfd) is True  # A, the pinned one, is gone
            time.sleep(0.2)
            assert second.poll() is None  # B was never signalled
        finally:
            second.kill()
            second.wait()
    finally:
        os.close(pidfd)


@pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="no pidfd on this platform")
def test_a_pinned_process_is_stopped_term_then_kill():
    from ascendrl.fixes.engine import stop_process

    # ignores SIGTERM: only the SIGKILL after the grace period stops it
    stubborn = subprocess.Popen([sys.executable, "-c", "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(1, flush=True); time.sleep(600)"],
                                stdout=subprocess.PIPE)
    stubborn.stdout.readline()
    pidfd = os.pidfd_open(stubborn.pid)
    try:
        stop = StopProcess(stubborn.pid, "python", "python", 0.0, ("python",))
        started = time.monotonic()
        assert stop_process(stop, grace=0.5, pidfd=pidfd) is True
        assert time.monotonic() - started >= 0.5
        assert stubborn.wait(timeout=5) == -signal.SIGKILL
    finally:
        os.close(pidfd)


def test_a_process_that_became_another_program_or_left_the_npu_is_not_signalled(tmp_path):
    # execs into `sleep` when told to: same PID and start time, different command line
    child = subprocess.Popen([sys.executable, "-c", "import os,sys; sys.stdin.readline(); os.execvp('sleep', ['sleep', '600'])"], stdin=subprocess.PIPE)
    other = _sleeper("600")
    try:
        proposals, holders = _plan_stop(tmp_path, child.pid, other.pid)
        plan = build_plan(proposals, target=str(tmp_path / "env.sh"), managed=True, unsafe=True)
        child.stdin.write(b"go\n")
        child.stdin.flush()
        for _ in range(100):
            if Path(f"/proc/{child.pid}/cmdline").read_bytes().startswith(b"sleep"):
                break
            time.sleep(0.05)
        result = apply_plan(plan, state_dir=str(tmp_path / ".ascendrl"), holders=lambda: {other.pid})
        reasons = dict(result.refused)
        assert "command line changed" in reasons[child.pid]
        assert result.stopped == (other.pid,)
        assert _alive(child.pid)
        # and when npu-smi no longer lists it, it is not signalled either
        third = _sleeper("600")
        proposals, _ = _plan_stop(tmp_path, third.pid)
        plan = build_plan(proposals, target=str(tmp_path / "env.sh"), managed=True, unsafe=True)
        result = apply_plan(plan, state_dir=str(tmp_path / ".ascendrl2"), holders=lambda: set())
        assert result.stopped == () and "no longer lists it" in dict(result.refused)[third.pid]
        assert third.poll() is None
        third.kill()
        third.wait()
    finally:
        for proc in (child, other):
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                proc.wait()


def test_a_hand_made_plan_naming_pid_1_or_ourselves_is_refused(tmp_path):
    stops = (StopProcess(1, "init", "init", 0.0, ("init",)), StopProcess(os.getpid(), "python", "python", 0.0, ("python",)))
    plan = build_plan([Proposal("kill-npu-holders", "k", Applicability.UNSAFE, (), stops)], target=str(tmp_path / "env.sh"), managed=True, unsafe=True)
    result = apply_plan(plan, state_dir=str(tmp_path / ".ascendrl"), holders=lambda: {1, os.getpid()})
    assert result.stopped == () and {pid for pid, _ in result.refused} == {1, os.getpid()}


def test_a_file_the_user_cannot_write_is_refused(open_dir):
    """As uid 1000 (a forked child that dropped root), a root-owned 0644 script is refused, not replaced."""
    script = open_dir / "train.sh"
    script.write_bytes(ORIGINAL)
    script.chmod(0o644)
    (open_dir).chmod(0o777)  # the folder would even allow a rename over the file
    pid = os.fork()
    if pid == 0:  # child: imports are done; drop to uid 1000 and try
        code = 1
        try:
            os.setgroups([])
            os.setgid(1000)
            os.setuid(1000)
            build_plan([nz()], target=str(script), managed=False, unsafe=False)
        except FixError as exc:
            code = 0 if "read-only for you" in str(exc) else 2
        except BaseException:
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert script.read_bytes() == ORIGINAL and script.stat().st_uid == 0
