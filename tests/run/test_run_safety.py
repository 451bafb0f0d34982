"""`ascendrl run` under hostile conditions, with real processes, terminals, mounts and files.

A dropped SSH session (a real pty hung up, and `kill -HUP`), a full disk (a small tmpfs), a
read-only runs dir (a read-only bind mount), another Ray session under the same temp dir,
secrets on the command line and in the env, and a hostile recipe.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import signal
import stat
import subprocess
import sys
import termios
import threading
import time
from pathlib import Path

import psutil
import pytest

from ascendrl.cli import main
from ascendrl.preflight.redact import MASK, redact_argv, redact_env, redact_text, secret_name
from ascendrl.supervisor.raylogs import parse_session_name
from ascendrl.supervisor.runfolder import RunFolder
from ascendrl.supervisor.tree import names_session

CHILDREN = Path(__file__).parent / "children.py"


def ascendrl_run(runs_dir, *child_args, extra=()) -> list[str]:
    return [sys.executable, "-m", "ascendrl", "run", "--force", *extra, "--runs-dir", str(runs_dir), "--grace", "1",
            "--", sys.executable, str(CHILDREN), *child_args]


def wait_for(predicate, timeout=30.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def live(procs) -> list[psutil.Process]:
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            continue
    return out


@contextlib.contextmanager
def reaped(proc):
    """Whatever a test asserts, its ascendrl does not outlive it."""
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def sigterm_stops_what_is_still_supervised(proc, children, growing: Path | None = None):
    """ascendrl and its whole tree are still there (and the output still grows); SIGTERM then stops it all."""
    assert proc.poll() is None, "ascendrl ended while its tree was running"
    assert children and len(live(children)) == len(children), "the tree must keep running"
    if growing is not None:
        size = growing.stat().st_size
        wait_for(lambda: growing.stat().st_size > size, what=f"{growing.name} to keep growing")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == 128 + signal.SIGTERM
    assert not live(children)


def only_summary(runs: Path) -> dict:
    [path] = list(runs.glob("*/summary.json"))
    return json.loads(path.read_text())


# ---- item 8: SIGHUP, SIGTERM, a full disk, a read-only runs dir --------------------------------

def _on_new_pty(argv, cwd, env):
    """Start argv as the session leader of a fresh pty (what sshd does); return (proc, master fd)."""
    master, slave = pty.openpty()

    def controlling_tty():
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env, preexec_fn=controlling_tty)
    os.close(slave)
    seen = bytearray()
    stop = threading.Event()

    def drain():  # a terminal that reads what it is sent, until the session drops
        while not stop.is_set():
            if select.select([master], [], [], 0.1)[0]:
                try:
                    seen.extend(os.read(master, 65536))
                except OSError:
                    return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()

    def hang_up():
        stop.set()
        reader.join()
        os.close(master)  # the last reference: the kernel hangs up the tty and sends SIGHUP

    return proc, hang_up, seen


@pytest.mark.parametrize("view", ["live", "plain"])
def test_ssh_drop_keeps_the_run_supervised_and_sigterm_still_stops_it(tmp_path, view):
    runs = tmp_path / "runs"
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"} | {"TERM": "xterm"}
    extra = ("--plain",) if view == "plain" else ()
    proc, hang_up, seen = _on_new_pty(ascendrl_run(runs, "ticker", extra=extra), tmp_path, env)
    with reaped(proc):
        log = wait_for(lambda: next(runs.glob("*/output.log"), None), what="the run folder")
        wait_for(lambda: b"tick 3" in log.read_bytes(), what="output")
        children = psutil.Process(proc.pid).children(recursive=True)
        wait_for(lambda: b"tick" in seen, what="the terminal to show the run")
        hang_up()  # the SSH session drops
        time.sleep(2)
        sigterm_stops_what_is_still_supervised(proc, children, growing=log)
    summary = only_summary(runs)
    assert summary["reason"] == "interrupted" and any("SIGHUP" in n for n in summary["notes"])


def test_kill_hup_with_output_to_files_keeps_writing_there(tmp_path):
    runs = tmp_path / "runs"
    with open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
        proc = subprocess.Popen(ascendrl_run(runs, "ticker", extra=("--plain",)), stdout=out, stderr=err, cwd=tmp_path)
    with reaped(proc):
        wait_for(lambda: b"tick 3" in (tmp_path / "out").read_bytes(), what="output")
        children = psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(signal.SIGHUP)
        time.sleep(1.5)
        sigterm_stops_what_is_still_supervised(proc, children, growing=tmp_path / "out")  # a file, not a terminal
    assert only_summary(runs)["reason"] == "interrupted"
    assert "run interrupted, exit status 143" in (tmp_path / "err").read_text()


def test_a_reader_that_goes_away_does_not_end_supervision(tmp_path):
    """`ascendrl run … | head -1`: stdout's pipe closes; the run must not be orphaned by EPIPE."""
    runs = tmp_path / "runs"
    with open(tmp_path / "err", "wb") as err:
        proc = subprocess.Popen(ascendrl_run(runs, "ticker", extra=("--plain",)), stdout=subprocess.PIPE, stderr=err, cwd=tmp_path)
    with reaped(proc):
        assert proc.stdout.readline().startswith(b"tick")
        children = psutil.Process(proc.pid).children(recursive=True)
        proc.stdout.close()
        time.sleep(2)
        sigterm_stops_what_is_still_supervised(proc, children, growing=next(runs.glob("*/output.log")))
    summary = only_summary(runs)
    assert summary["reason"] == "interrupted" and any("stdout could not be written" in n for n in summary["notes"])
    assert "run interrupted, exit status 143" in (tmp_path / "err").read_text()  # stderr was fine: the summary is there


@pytest.fixture
def small_disk(tmp_path):
    mnt = tmp_path / "small"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", str(mnt)], capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield mnt
    subprocess.run(["umount", "-l", str(mnt)], check=False)


@pytest.mark.parametrize("then", ["fatal", "sleep"])
def test_full_disk_warns_once_keeps_supervising_and_still_stops(tmp_path, small_disk, then):
    runs = small_disk / "runs"
    with open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
        proc = subprocess.Popen(ascendrl_run(runs, "flood", "4", then, extra=("--plain",)), stdout=out, stderr=err, cwd=tmp_path)
    with reaped(proc):
        wait_for(lambda: b"flood done" in (tmp_path / "out").read_bytes(), what="the flood to pass through")
        children = psutil.Process(proc.pid).children(recursive=True) if proc.poll() is None else []
        if then == "sleep":
            time.sleep(1)
            sigterm_stops_what_is_still_supervised(proc, children)
        code = proc.wait(timeout=60)
    stderr = (tmp_path / "err").read_text()
    assert "unexpected error" not in stderr and "Traceback" not in stderr
    assert stderr.count("No space left on device; the run goes on") == 1  # warned once
    assert code == 128 + signal.SIGTERM
    if then == "fatal":  # the classifier kept reading after the disk filled up
        assert "run fatal" in stderr and "diagnosis: ARL-E002" in stderr
    else:
        assert "run interrupted" in stderr
    assert "bytes of output not saved" in stderr  # the printed summary says what was lost
    assert not live(children)


def test_log_marks_the_gap_when_the_disk_has_room_again(small_disk):
    warnings = []
    folder = RunFolder.create(str(small_disk / "runs"), "r")
    folder.warn = warnings.append
    filler = small_disk / "filler"
    with folder.open_log("output.log") as log:
        log.write(b"before\n")
        with open(filler, "wb", buffering=0) as fh:  # the disk fills up (another process, a checkpoint ...)
            with contextlib.suppress(OSError):
                while True:
                    fh.write(b"\0" * 65536)
        log.write(b"x" * 200_000)
        log.write(b"y" * 1000)
        filler.unlink()
        log.write(b"after\n")
    text = (folder.path / "output.log").read_bytes()
    assert text.startswith(b"before\n") and text.endswith(b"after\n")
    assert b"bytes of output were not saved here: No space left on device]" in text
    assert len(warnings) == 1 and "No space left on device" in warnings[0]
    assert folder.notes() and "bytes of output not saved" in folder.notes()[0]


def test_read_only_runs_dir_is_refused_before_launch(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    done = subprocess.run(["mount", "--bind", str(ro), str(ro)], capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"cannot bind-mount here: {done.stderr.strip()}")
    try:
        subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], check=True)
        marker = tmp_path / "started"
        argv = [sys.executable, "-m", "ascendrl", "run", "--force", "--plain", "--runs-dir", str(ro),
                "--", sys.executable, "-c", f"open({str(marker)!r}, 'w')"]
        proc = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    finally:
        subprocess.run(["umount", "-l", str(ro)], check=False)
    assert proc.returncode == 125, proc.stderr
    assert f"cannot create a run folder in {ro}: Read-only file system; nothing was started" in proc.stderr
    assert "Traceback" not in proc.stderr and not marker.exists()


@pytest.mark.parametrize("option", ["--grace", "--stall-timeout"])
@pytest.mark.parametrize("value", ["inf", "nan", "-1"])
def test_grace_and_stall_timeout_must_be_finite(capsys, option, value):
    assert main(["run", option, value, "--", "true"]) == 125
    assert f"{option} must be a positive number of seconds" in capsys.readouterr().err


# ---- item 9: only this run's processes, only this run's Ray session ----------------------------

SLEEPER = "import time; time.sleep(120)"


def _unrelated_session_daemon(ray_dir: Path, future_s: float) -> subprocess.Popen:
    """A daemon of another Ray session under the same temp dir, started before the run: its session
    dir is named with its own pid (and a time after the launch), and its command line names it."""
    code = (
        "import datetime, os, sys, time\n"
        f"when = datetime.datetime.today() + datetime.timedelta(seconds={future_s})\n"
        f"d = os.path.join({str(ray_dir)!r}, 'session_' + when.strftime('%Y-%m-%d_%H-%M-%S_%f') + '_' + str(os.getpid()))\n"
        "os.makedirs(os.path.join(d, 'logs'))\n"
        "future = time.time() + 3600\n"
        "os.utime(d, (future, future))\n"  # the newest-looking session under the temp dir
        f"os.execv(sys.executable, [sys.executable, '-c', {SLEEPER!r}, '--session-dir=' + d, '--logs-dir=' + d + '/logs'])\n"
    )
    return subprocess.Popen([sys.executable, "-c", code])


def _our_session(ray_dir: Path, not_pid: int) -> Path:
    def find():
        for p in ray_dir.glob("session_2*"):
            parsed = parse_session_name(p.name)
            if parsed and parsed[1] != not_pid:
                return p
        return None

    return wait_for(find, what="the run's session")


def test_another_ray_session_under_the_same_temp_dir_is_neither_followed_nor_stopped(tmp_path):
    raytmp = tmp_path / "raytmp"
    (raytmp / "ray").mkdir(parents=True)
    other = _unrelated_session_daemon(raytmp / "ray", future_s=30)
    try:
        wait_for(lambda: "--session-dir" in " ".join(psutil.Process(other.pid).cmdline()), what="the other daemon")
        proc = subprocess.run(ascendrl_run(tmp_path / "runs", "ray-session", str(raytmp), "", "8", extra=("--plain",)),
                              capture_output=True, text=True, timeout=120, cwd=tmp_path, env={**os.environ, "RAY_TMPDIR": str(raytmp)})
        summary = only_summary(tmp_path / "runs")
        assert other.poll() is None, "a process of another Ray session was stopped"
        assert other.pid not in {s["pid"] for s in summary["stopped"]}
        ours = Path(summary["ray_session"] or "")
        assert parse_session_name(ours.name) and parse_session_name(ours.name)[1] != other.pid
        assert summary["reason"] == "fatal" and summary["diagnosis"]["id"] == "ARL-E002", proc.stderr
    finally:
        other.kill()
        other.wait()


def test_a_sibling_session_path_started_after_the_launch_is_not_stopped(tmp_path):
    raytmp = tmp_path / "raytmp"
    (raytmp / "ray").mkdir(parents=True)
    trigger = tmp_path / "go"
    run = subprocess.Popen(ascendrl_run(tmp_path / "runs", "ray-session", str(raytmp), str(trigger), extra=("--plain",)),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path, env={**os.environ, "RAY_TMPDIR": str(raytmp)})
    sibling = mention = None
    try:
        ours = _our_session(raytmp / "ray", not_pid=-1)
        # After the launch, by this user, naming a path that starts like ours but is another session,
        # and one that only mentions the same temp dir.
        sibling = subprocess.Popen([sys.executable, "-c", SLEEPER, f"--session-dir={ours}0", f"--logs-dir={ours}0/logs"])
        mention = subprocess.Popen([sys.executable, "-c", SLEEPER, f"--temp-dir={raytmp / 'ray'}", str(ours / "logs" / "raylet.out")])
        wait_for(lambda: all(len(psutil.Process(p.pid).cmdline()) > 3 for p in (sibling, mention)), what="the bystanders")
        trigger.touch()
        assert run.wait(timeout=60) == 128 + signal.SIGTERM, run.stderr.read().decode()
        summary = only_summary(tmp_path / "runs")
        assert summary["reason"] == "fatal" and summary["ray_session"] == str(ours)
        assert sibling.poll() is None and mention.poll() is None, "a process that is not this run's was stopped"
    finally:
        for p in (run, sibling, mention):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()


def test_session_names_and_path_component_matching():
    assert parse_session_name("session_2026-11-30_10-00-00_000001_4242")[1] == 4242
    for name in ("session_latest", "session_2026-11-30_10-00-00_4242", "session_2026-13-30_10-00-00_000001_1"):
        assert parse_session_name(name) is None
    s = Path("/tmp/ray/session_2026-11-30_10-00-00_000001_4242")
    assert names_session(["raylet", f"--session_dir={s}"], s)
    assert names_session(["python", f"--logs-dir={s}/logs"], s)
    assert names_session(["gcs_server", f"--session-name={s.name}"], s)
    assert not names_session(["python", f"--session-dir={s}0"], s)  # a sibling whose name starts the same
    assert not names_session(["tail", "-f", f"{s}/logs/raylet.out"], s)  # mentions it, is not of it
    assert not names_session(["python", "--temp-dir=/tmp/ray"], s)


# ---- item 10: secrets ----------------------------------------------------------------------------

SECRETS = ("s3cret", "sk-live-123456", "sk-live-654321", "hunter2", "wandb-555", "pg-s3cret", "sk-openai-999", "hf_tok_777", "mirror-pw")


def test_secrets_never_reach_the_run_folder_or_stderr_and_files_are_private(tmp_path):
    runs = tmp_path / "runs"
    env = {**os.environ, "DATABASE_URL": "postgres://app:pg-s3cret@db:5432/x", "OPENAI_KEY": "sk-openai-999",
           "HF_TOKEN": "hf_tok_777", "HF_ENDPOINT": "https://mirror:mirror-pw@hf-mirror.example/"}
    argv = ascendrl_run(runs, "verl", "3", "https://user:s3cret@host/x", "--api-key=sk-live-123456", "--api-key", "sk-live-654321",
                        "--password", "hunter2", "WANDB_API_KEY=wandb-555", extra=("--plain",))
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env, preexec_fn=lambda: os.umask(0))
    assert proc.returncode == 0, proc.stderr
    [run_dir] = list(runs.iterdir())
    assert stat.S_IMODE(run_dir.stat().st_mode) == 0o700
    files = {p.name: p for p in run_dir.iterdir()}
    assert {"command.txt", "env.json", "preflight.json", "output.log", "summary.json", "summary.txt"} <= set(files)
    for name, path in files.items():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, name
        text = path.read_text()
        assert not [s for s in SECRETS if s in text], name
    assert not [s for s in SECRETS if s in proc.stderr]
    command = files["command.txt"].read_text()
    assert "https://user:***@host/x" in command and "'--api-key=***' --api-key '***'" in command and "'WANDB_API_KEY=***'" in command
    saved_env = json.loads(files["env.json"].read_text())
    assert saved_env["DATABASE_URL"] == "postgres://app:***@db:5432/x" and saved_env["OPENAI_KEY"] == MASK
    assert saved_env["PATH"] == os.environ["PATH"]  # the rest is kept as it was
    assert "https://user:***@host/x" in proc.stderr


def test_check_json_redacts_env_settings(tmp_path):
    env = {**os.environ, "HF_TOKEN": "hf_tok_777", "HF_ENDPOINT": "https://mirror:mirror-pw@hf-mirror.example/", "TOKENIZERS_PARALLELISM": "false"}
    proc = subprocess.run([sys.executable, "-m", "ascendrl", "check", "--json"], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    settings = json.loads(proc.stdout)["facts"]["env.settings"]["value"]
    assert settings["HF_TOKEN"] == MASK and settings["HF_ENDPOINT"] == "https://mirror:***@hf-mirror.example/"
    assert settings["TOKENIZERS_PARALLELISM"] == "false"  # a word match, not a substring: not a secret
    assert "mirror-pw" not in proc.stdout and "hf_tok_777" not in proc.stdout


@pytest.mark.parametrize("name", ["OPENAI_KEY", "HF_TOKEN", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "RAY_AUTH_TOKEN", "--api-key",
                                  "--hf-token", "+trainer.wandb_api_key", "GOOGLE_APPLICATION_CREDENTIALS", "apiKey", "NPM_AUTH"])
def test_secret_names(name):
    assert secret_name(name)


@pytest.mark.parametrize("name", ["DATABASE_URL", "RAY_AUTH_MODE", "TOKENIZERS_PARALLELISM", "--tokenizer", "--max-num-batched-tokens",
                                  "actor_rollout_ref.actor.ppo_max_token_len_per_gpu", "data.prompt_key", "SSH_AUTH_SOCK", "PWD"])
def test_names_that_stay_readable(name):
    assert not secret_name(name)


def test_redaction_of_words_text_and_env():
    assert redact_argv(["x", "--api-key", "sk-1", "--token", "--verbose", "--password=p", "data.prompt_key=q", "K=https://u:p@h/"]) == [
        "x", "--api-key", MASK, "--token", "--verbose", f"--password={MASK}", "data.prompt_key=q", f"K=https://u:{MASK}@h/"]
    text = "bash -c \"train --api-key sk-1 HF_TOKEN='a b' https://u:pw@h/x https://ghp_0123456789abcdefghij@github.com/o\""
    assert redact_text(text) == f"bash -c \"train --api-key {MASK} HF_TOKEN={MASK} https://u:{MASK}@h/x https://{MASK}@github.com/o\""
    assert redact_text("http://host:8080/path@x and ssh://git@host/x") == "http://host:8080/path@x and ssh://git@host/x"
    assert redact_env({"OPENAI_KEY": "sk", "DATABASE_URL": "postgres://u:pw@db/x"}) == {"DATABASE_URL": f"postgres://u:{MASK}@db/x", "OPENAI_KEY": MASK}


# ---- item 11: a recipe's env names ----------------------------------------------------------------

RECIPE = """name: {name}
description: d
entry: verl.trainer.main_ppo
hardware: {{npus_per_node: 1, nnodes: 1}}
overrides: [trainer.total_epochs=1]
env:
  {env}
"""


@pytest.mark.parametrize("key", ["'X=1; touch {marker}; Y'", "'A=B'", "'1ABC'", "'A B'"])
def test_recipe_env_names_are_validated_at_load(tmp_path, capsys, key):
    marker = tmp_path / "pwned"
    recipe = tmp_path / "r.yaml"
    recipe.write_text(RECIPE.format(name="r", env=f"{key.format(marker=marker)}: '1'"))
    assert main(["run", str(recipe), "--dry-run"]) == 125
    err = capsys.readouterr().err
    assert f"{recipe}: env key " in err and "is not a variable name" in err and "Traceback" not in err
    assert not marker.exists()


def test_dry_run_output_is_inert_shell(tmp_path, capsys):
    marker = tmp_path / "pwned"
    recipe = tmp_path / "r.yaml"
    value = f"$(touch {marker})'; touch {marker}; echo '"
    recipe.write_text(RECIPE.format(name=json.dumps(f"evil\ntouch {marker}"), env=f"SAFE_NAME: {json.dumps(value)}\n  OPENAI_KEY: sk-x"))
    assert main(["run", str(recipe), f"trainer.project_name=$(touch {marker})", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# recipe evil\\ntouch") and "sk-x" not in out
    exports = "\n".join(line for line in out.splitlines() if line.startswith(("#", "export ")))
    shown = subprocess.run(["bash", "-c", exports + '\nprintf %s "$SAFE_NAME"'], capture_output=True, text=True, cwd=tmp_path)
    assert shown.returncode == 0 and shown.stdout == value
    command = "\n".join(line for line in out.splitlines() if not line.startswith(("#", "export ", "source ")))
    words = subprocess.run(["bash", "-c", 'printf "%s\\n" ' + command], capture_output=True, text=True, cwd=tmp_path).stdout
    assert f"trainer.project_name=$(touch {marker})\n" in words
    assert not marker.exists()
