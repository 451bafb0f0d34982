"""apply / undo on real files: exact bytes, modes, journal, read-only and full disks, kill -9, idempotence."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import NPU_SMI as _NPU_SMI_DIR

from ascendrl.fixes.engine import FixError, apply_plan, build_plan, latest_journal, undo_last
from ascendrl.fixes.model import Applicability, MakeDir, Proposal, SetEnv, SourceScript

SCRIPTS = Path(__file__).parent / "scripts"
REPO = Path(__file__).resolve().parents[2]

CAPTURED_NPU_SMI = str(_NPU_SMI_DIR / "healthy-8x910b3.txt")  # a captured `npu-smi info`, read as text, never run


def nz_proposal(*extra) -> Proposal:
    actions = (SetEnv("VLLM_ASCEND_ENABLE_NZ", "0"), SetEnv("USE_OPTIMIZED_MODEL", "0"), *extra)
    return Proposal("nz-off", "nz", Applicability.SAFE, ("ARL-V001",), actions)


def copy_script(tmp_path: Path, name: str, mode: int = 0o750) -> Path:
    target = tmp_path / f"{name}.sh"
    target.write_bytes((SCRIPTS / f"{name}.sh").read_bytes())
    target.chmod(mode)
    return target


@pytest.mark.parametrize("name", ["tune_qwen25vl7b_grpo", "crlf_no_newline"])
def test_apply_undo_round_trip_restores_exact_bytes_and_mode(tmp_path, name):
    script = copy_script(tmp_path, name)
    original = script.read_bytes()
    state = tmp_path / "state"
    plan = build_plan([nz_proposal(SourceScript("/usr/local/Ascend/ascend-toolkit/set_env.sh"))], target=str(script), managed=False, unsafe=False)
    result = apply_plan(plan, state_dir=str(state))
    assert script.read_bytes() != original and (script.stat().st_mode & 0o777) == 0o750
    doc = json.loads(Path(result.journal).read_text())
    assert doc["state"] == "complete"
    undo_last(str(state))
    assert script.read_bytes() == original and (script.stat().st_mode & 0o777) == 0o750
    assert latest_journal(str(state)) is None
    assert not list(tmp_path.glob(".*.ascendrl-tmp"))


def test_second_apply_changes_nothing(tmp_path):
    script = copy_script(tmp_path, "tune_qwen25vl7b_grpo")
    plan = build_plan([nz_proposal()], target=str(script), managed=False, unsafe=False)
    apply_plan(plan, state_dir=str(tmp_path / "state"))
    again = build_plan([nz_proposal()], target=str(script), managed=False, unsafe=False)
    assert again.empty and again.changes == ()
    assert apply_plan(again, state_dir=str(tmp_path / "state")).journal == ""


def test_created_env_file_and_dirs_are_removed_by_undo(tmp_path):
    env_file = tmp_path / ".ascendrl" / "env.sh"
    data = tmp_path / "data" / "ascendrl" / "ray"
    proposal = Proposal("relocate-caches", "r", Applicability.SAFE, ("ARL-R001",), (MakeDir(str(data)), SetEnv("RAY_TMPDIR", str(data))))
    plan = build_plan([proposal], target=str(env_file), managed=True, unsafe=False)
    result = apply_plan(plan, state_dir=str(tmp_path / ".ascendrl"))
    assert data.is_dir() and env_file.is_file()
    assert str(tmp_path / "data") in result.created_dirs
    undo_last(str(tmp_path / ".ascendrl"))
    assert not env_file.exists() and not (tmp_path / "data").exists()


def test_missing_script_is_a_clear_error(tmp_path):
    with pytest.raises(FixError, match="no such script"):
        build_plan([nz_proposal()], target=str(tmp_path / "nope.sh"), managed=False, unsafe=False)


def _mount_tmpfs(path: Path, options: str) -> None:
    path.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount tmpfs here: {proc.stderr.decode().strip()}")


@pytest.fixture
def mounts(tmp_path):
    made: list[Path] = []

    def mount(name: str, options: str) -> Path:
        path = tmp_path / name
        _mount_tmpfs(path, options)
        made.append(path)
        return path

    yield mount
    for path in reversed(made):
        subprocess.run(["umount", "-l", str(path)], check=False)


def test_read_only_mount_is_refused_before_anything_is_written(tmp_path, mounts):
    ro = mounts("ro", "size=1m")
    script = ro / "run.sh"
    script.write_bytes((SCRIPTS / "tune_qwen25vl7b_grpo.sh").read_bytes())
    original = script.read_bytes()
    subprocess.run(["mount", "-o", "remount,ro", str(ro)], check=True)
    with pytest.raises(FixError, match="read-only"):
        build_plan([nz_proposal()], target=str(script), managed=False, unsafe=False)
    assert script.read_bytes() == original
    assert latest_journal(str(tmp_path / "state")) is None


def test_read_only_state_dir_changes_nothing(tmp_path, mounts):
    ro_state = mounts("state", "size=1m,ro")
    script = copy_script(tmp_path, "tune_qwen25vl7b_grpo")
    original = script.read_bytes()
    plan = build_plan([nz_proposal()], target=str(script), managed=False, unsafe=False)
    with pytest.raises(FixError, match="nothing was changed"):
        apply_plan(plan, state_dir=str(ro_state / ".ascendrl"))
    assert script.read_bytes() == original


def test_full_disk_stops_the_apply_and_leaves_files_as_they_were(tmp_path, mounts):
    small = mounts("full", "size=64k")
    script = small / "run.sh"
    script.write_bytes((SCRIPTS / "tune_qwen25vl7b_grpo.sh").read_bytes())
    original = script.read_bytes()
    filler = small / "filler"
    with open(filler, "wb", buffering=0) as fh:  # fill the filesystem up to the last block
        try:
            while True:
                fh.write(b"\0" * 512)
        except OSError:
            pass
    plan = build_plan([nz_proposal()], target=str(script), managed=False, unsafe=False)
    with pytest.raises(FixError, match="No space left on device"):
        apply_plan(plan, state_dir=str(tmp_path / "state"))
    assert script.read_bytes() == original
    assert not list(small.glob(".*.ascendrl-tmp"))


APPLY = """
import sys
from ascendrl.fixes.engine import apply_plan, build_plan
from ascendrl.fixes.model import Applicability, Proposal, SetEnv
actions = tuple(SetEnv(f"ASCENDRL_TEST_{i}", "x" * 2000) for i in range(200))
plan = build_plan([Proposal("nz-off", "t", Applicability.SAFE, (), actions)], target=sys.argv[1], managed=False, unsafe=False)
print("ready", flush=True)
apply_plan(plan, state_dir=sys.argv[2])
"""


def test_kill_9_mid_apply_leaves_old_or_new_and_undo_works(tmp_path):
    """Kill the applying process at random moments; the script is never torn, and --undo restores it."""
    rng = random.Random(1234)
    outcomes = set()
    for attempt in range(40):  # until kills have landed both before and after the rename (at least 8 tries)
        if attempt >= 8 and outcomes == {False, True}:
            break
        work = tmp_path / f"try{attempt}"
        work.mkdir()
        script = copy_script(work, "tune_qwen25vl7b_grpo")
        original = script.read_bytes()
        state = work / "state"
        proc = subprocess.Popen([sys.executable, "-c", APPLY, str(script), str(state)], stdout=subprocess.PIPE)
        assert proc.stdout.readline().strip() == b"ready"
        time.sleep(rng.uniform(0, 0.02 + 0.005 * attempt))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        content = script.read_bytes()
        new = content != original
        if new:
            assert content.count(b"ASCENDRL_TEST_") == 200 and content.endswith(original.splitlines(keepends=True)[-1])
        outcomes.add(new)
        if latest_journal(str(state)) is not None:
            undo_last(str(state))
        assert script.read_bytes() == original
        assert not list(work.glob(".*.ascendrl-tmp"))
    assert outcomes == {False, True}, outcomes  # kills landed both before and after the rename


def test_cli_dry_run_apply_idempotent_undo_on_a_fixture_host(tmp_path):
    import shutil

    from conftest import HOSTS, IMAGE_NPU_SMI

    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    work = tmp_path / "work"
    work.mkdir()
    env = {"PATH": "/usr/local/sbin:/usr/bin:/bin", "HOME": "/root", "ASCEND_RT_VISIBLE_DEVICES": "0, 1,2", "HCCL_CONNECT_TIMEOUT": "9000"}

    def run(*args):
        return subprocess.run([sys.executable, "-m", "ascendrl", "fix", "--root", str(root), "--npu-smi", str(root / IMAGE_NPU_SMI), *args], cwd=work, env=env, capture_output=True, text=True, timeout=120)

    dry = run()
    assert dry.returncode == 0, dry.stderr
    assert "--- /dev/null" in dry.stdout and "+export VLLM_ASCEND_ENABLE_NZ=0" in dry.stdout
    assert not (work / ".ascendrl").exists()  # a dry run writes nothing
    applied = run("--apply", "--json")
    doc = json.loads(applied.stdout)
    after = {row["id"]: row["after"] for row in doc["before_after"]}
    assert {after[i] for i in ("ARL-A002", "ARL-A004", "ARL-V001", "ARL-V002", "ARL-D005", "ARL-V004")} == {"pass"}
    env_sh = (work / ".ascendrl" / "env.sh").read_text()
    assert "export ASCEND_RT_VISIBLE_DEVICES=0,1,2" in env_sh and "export HCCL_CONNECT_TIMEOUT=3600" in env_sh
    assert "source /usr/local/Ascend/ascend-toolkit/set_env.sh" in env_sh
    again = run("--apply")
    assert "Nothing to change" in again.stdout
    assert len(list((work / ".ascendrl" / "journal").glob("*.json"))) == 1
    undo = subprocess.run([sys.executable, "-m", "ascendrl", "fix", "--undo"], cwd=work, capture_output=True, text=True)
    assert undo.returncode == 0 and not (work / ".ascendrl" / "env.sh").exists()


def test_cli_script_mode_and_usage_errors(tmp_path):
    script = copy_script(tmp_path, "tune_qwen25vl7b_grpo")
    base = [sys.executable, "-m", "ascendrl", "fix"]
    missing = subprocess.run([*base, "--script", str(tmp_path / "nope.sh")], cwd=tmp_path, capture_output=True, text=True)
    assert missing.returncode == 2 and "no such file" in missing.stderr
    bogus = subprocess.run([*base, "--only", "no-such-fix"], cwd=tmp_path, capture_output=True, text=True)
    assert bogus.returncode == 2 and "no fix no-such-fix" in bogus.stderr
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run([*base, "--only", "nz-off", "--npu-smi", CAPTURED_NPU_SMI, "--script", str(script)], cwd=tmp_path, env=env, capture_output=True, text=True)
    # no vllm-ascend in this interpreter: V001 skips; asked for by id, the script's vllm rollout lets it apply (said on stderr)
    assert "its rules do not judge this host" in proc.stderr and "vllm-ascend is not installed" in proc.stderr
    assert "export VLLM_ASCEND_ENABLE_NZ=0" in proc.stdout
    assert script.read_bytes() == (SCRIPTS / "tune_qwen25vl7b_grpo.sh").read_bytes()  # a dry run writes nothing
