"""`ascendrl run -- COMMAND` supervising real child processes: progress, escalation, trees, Ray logs, stalls."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from ascendrl.supervisor.progress import Progress

CHILDREN = Path(__file__).parent / "children.py"


def supervise(tmp_path, *child_args, extra=(), env=None, timeout=120):
    """Run `ascendrl run --force --plain -- python children.py ...`; return (proc, summary, seconds)."""
    argv = [sys.executable, "-m", "ascendrl", "run", "--force", "--plain", "--runs-dir", str(tmp_path / "runs"), *extra,
            "--", sys.executable, str(CHILDREN), *child_args]
    start = time.monotonic()
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, cwd=tmp_path, env={**os.environ, **(env or {})})
    seconds = time.monotonic() - start
    summaries = list((tmp_path / "runs").glob("*/summary.json"))
    assert len(summaries) == 1, proc.stderr
    return proc, json.loads(summaries[0].read_text()), seconds


def test_progress_from_recorded_verl_output_at_speed(tmp_path):
    proc, summary, _ = supervise(tmp_path, "verl", "20000")
    assert proc.returncode == 0 and summary["reason"] == "exited"
    assert summary["steps"] == 20000 and summary["total_steps"] == 20000
    assert summary["metrics"]["critic/score/mean"] == pytest.approx(0.5)
    assert summary["metrics"]["timing_s/step"] == 188.9
    log = Path(summary["log_path"]).read_bytes()
    assert log.count(b"m step:") == 20000 and log.startswith(b"\x1b[36m(TaskRunner")  # kept exactly as printed
    assert proc.stdout.count("m step:") == 20000  # and passed through


def test_progress_parser_and_eta():
    p = Progress()
    assert not p.feed(b"no steps here\n")
    assert p.feed(b"Total training steps: 10\nstep:1 - critic/score/mean:0.25 - actor/kl_loss:1e-05\nstep:2 - critic/score/mean:0.5\n")
    assert (p.step, p.total, p.metrics) == (2, 10, {"critic/score/mean": 0.5})
    assert p.eta_s() is not None and p.shown() == {"reward": 0.5}


def test_child_ignoring_sigterm_is_killed_after_the_grace_period(tmp_path):
    proc, summary, seconds = supervise(tmp_path, "fatal-ignore-term", extra=("--grace", "1"))
    assert summary["reason"] == "fatal" and summary["diagnosis"]["id"] == "ARL-E002"
    assert proc.returncode == 128 + signal.SIGKILL
    assert any(s["how"] == "SIGKILL" for s in summary["stopped"])
    assert seconds < 30


def test_a_run_stopped_for_a_fatal_diagnosis_lists_what_it_stopped(tmp_path):
    proc, summary, _ = supervise(tmp_path, "fatal")
    assert summary["reason"] == "fatal" and proc.returncode == 128 + signal.SIGTERM
    assert [s["how"] for s in summary["stopped"]] == ["SIGTERM"] and summary["stopped"][0]["pid"] > 1
    assert "stopped 1 process(es)" in proc.stderr


def test_the_supervisors_own_failures_use_docker_runs_codes(tmp_path):
    base = [sys.executable, "-m", "ascendrl", "run", "--force", "--plain", "--runs-dir", str(tmp_path / "runs")]
    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([*base, *argv], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    missing = run("--", "no-such-command-xyz")
    assert missing.returncode == 127 and "command not found" in missing.stderr
    (tmp_path / "plain.txt").write_text("not a program\n")
    denied = run("--", str(tmp_path / "plain.txt"))
    assert denied.returncode == 126 and "not executable" in denied.stderr
    child = run("--", sys.executable, "-c", "raise SystemExit(3)")
    assert child.returncode == 3  # the command's own status, told apart from ascendrl's 125
    usage = subprocess.run([sys.executable, "-m", "ascendrl", "run", "--bogus"], capture_output=True, text=True)
    assert usage.returncode == 125
    shown = subprocess.run([sys.executable, "-m", "ascendrl", "run", "--help"], capture_output=True, text=True)
    assert "ascendrl run [options] -- COMMAND" in shown.stdout and "127" in shown.stdout and "125" in shown.stdout


def test_grandchildren_in_their_own_session_are_stopped(tmp_path):
    pidfile = tmp_path / "pids"
    proc, summary, _ = supervise(tmp_path, "grandchildren", str(pidfile), extra=("--grace", "1"))
    pids = [int(p) for p in pidfile.read_text().split()]
    assert proc.returncode == 0
    assert {s["pid"] for s in summary["stopped"]} >= set(pids)
    for pid in pids:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_fatal_line_only_in_the_ray_session_log(tmp_path):
    raytmp = tmp_path / "raytmp"
    raytmp.mkdir()
    proc, summary, seconds = supervise(tmp_path, "ray-session", str(raytmp), env={"RAY_TMPDIR": str(raytmp)}, extra=("--grace", "1"))
    d = summary["diagnosis"]
    assert summary["reason"] == "fatal" and d["id"] == "ARL-E002"
    assert d["file"] == "ray:logs/worker-9a1c7f5e-01000000-4242.err" and d["line"] == 1
    assert re.fullmatch(r"session_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d{6}_\d+", Path(summary["ray_session"]).name)
    assert "FRACTAL_NZ" not in Path(summary["log_path"]).read_text()  # the driver never printed it
    assert seconds < 30


def test_a_consequence_with_per_node_logs_names_the_first_failing_node(tmp_path):
    raytmp = tmp_path / "raytmp"
    raytmp.mkdir()
    fixture = Path(__file__).parents[1] / "cluster" / "timeline" / "segv-then-watchdog"
    proc, summary, _ = supervise(tmp_path, "nodes-session", str(raytmp), str(fixture), env={"RAY_TMPDIR": str(raytmp)}, extra=("--grace", "1"))
    assert summary["reason"] == "fatal" and summary["diagnosis"]["id"] == "ARL-E010"  # the watchdog timeout on node-b
    first = summary["first_failure"]
    assert (first["node"], first["id"], first["file"]) == ("node-a", "ARL-E008", "raylet-worker.err"), first
    assert Path(first["folder"]).name == "nodes" and Path(first["folder"]).parent.name == Path(summary["ray_session"]).name
    assert "first failure: node node-a" in proc.stderr + proc.stdout
    assert not any("ascendrl explain --nodes DIR1" in n for n in summary["notes"])


def test_a_consequence_without_per_node_logs_hints_at_gathering_them(tmp_path):
    raytmp = tmp_path / "raytmp"
    raytmp.mkdir()
    one_node = tmp_path / "one"
    (one_node / "node-b").mkdir(parents=True)
    fixture = Path(__file__).parents[1] / "cluster" / "timeline" / "segv-then-watchdog"
    (one_node / "node-b" / "worker.err").write_text((fixture / "node-b" / "worker.err").read_text())
    proc, summary, _ = supervise(tmp_path, "nodes-session", str(raytmp), str(one_node), env={"RAY_TMPDIR": str(raytmp)}, extra=("--grace", "1"))
    assert summary["diagnosis"]["id"] == "ARL-E010" and summary["first_failure"] is None
    assert any("ascendrl explain --nodes DIR1" in n for n in summary["notes"]), summary["notes"]


def test_a_specific_fatal_gets_no_multi_node_hint(tmp_path):
    _, summary, _ = supervise(tmp_path, "fatal")
    assert summary["first_failure"] is None and not any("explain --nodes" in n for n in summary["notes"])


def test_stall_is_detected_and_stopped_within_the_bound(tmp_path):
    proc, summary, seconds = supervise(tmp_path, "stall", extra=("--stall-timeout", "2", "--grace", "1"))
    assert summary["reason"] == "stalled" and "no output and no step progress for" in summary["stall"]
    assert seconds < 60  # a hang guard, not a speed test: the child would sleep 120 s; reason and status say the stall bound stopped it
    assert proc.returncode == 128 + signal.SIGTERM


def test_ctrl_c_stops_the_tree_and_exits_130(tmp_path):
    argv = [sys.executable, "-m", "ascendrl", "run", "--force", "--plain", "--runs-dir", str(tmp_path / "runs"), "--grace", "1",
            "--", sys.executable, str(CHILDREN), "stall"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path)
    time.sleep(3)
    children = psutil.Process(proc.pid).children(recursive=True)
    assert children
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    summary = json.loads(next((tmp_path / "runs").glob("*/summary.json")).read_text())
    assert summary["reason"] == "interrupted"
    assert not [c for c in children if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]


def test_preflight_failure_stops_the_launch_without_force(tmp_path):
    argv = [sys.executable, "-m", "ascendrl", "run", "--plain", "--runs-dir", str(tmp_path / "runs"), "--", sys.executable, "-c", "print('never')"]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 125 and "not launching" in proc.stderr and "never" not in proc.stdout
    assert list((tmp_path / "runs").glob("*/preflight.json"))


def test_ray_status_sections_are_condensed():
    from ascendrl.supervisor.runner import _status_sections

    text = "Resources\n----\nTotal Usage:\n 2.0/2.0 CPU\n 0B/15.73GiB memory\n\nPending Demands:\n (no resource demands)\n"
    assert _status_sections(text, ("Total Usage:", "Pending Demands:")) == (
        "Total Usage: 2.0/2.0 CPU, 0B/15.73GiB memory | Pending Demands: (no resource demands)"
    )


def test_ray_status_is_asked_again_only_while_a_cluster_answers_without_usage():
    """The stall report asks `ray status` again only while a cluster answers without usage ("No cluster status" while Ray's
    autoscaler report lags start-up); an interpreter that cannot run it at all is no cluster answering."""
    import types

    from ascendrl.supervisor.runner import RunOptions, Supervisor, _ask_again

    usage = "Total Usage: 2.0/2.0 CPU | Pending Demands: {'CPU': 1.0}: 1+ pending tasks/actors"
    assert _ask_again(True, None)  # "No cluster status. It may take a few seconds ..." has no section
    assert _ask_again(True, "Pending Demands: (no resource demands)")
    assert not _ask_again(True, usage)
    assert not _ask_again(False, None)
    # This venv has no ray: `python -m ray.scripts.scripts status` fails, in both auth modes, and nothing is retried.
    runner = types.SimpleNamespace(o=RunOptions(argv=[], env=dict(os.environ), name="t", python=sys.executable))
    assert Supervisor._ray_status_once(runner, timeout=30.0) == (False, None)


def test_a_derived_fatal_diagnosis_stops_the_run_live(tmp_path):
    """No catalog entry names a rendezvous timeout; the rendezvous analyzer does, and run stops on it
    although the driver prints nothing more (its open chain is judged once the writer is quiet)."""
    proc, summary, seconds = supervise(tmp_path, "derived-fatal")
    assert summary["reason"] == "fatal" and proc.returncode == 128 + signal.SIGTERM
    assert summary["stopped_on"]["id"] == "DRV-rendezvous" and summary["stopped_on"]["basis"] == "derived"
    assert summary["stopped_on"]["line"] == 4 and "1/3 clients joined" in summary["stopped_on"]["excerpt"]
    assert summary["diagnosis"]["id"] == "DRV-rendezvous" and summary["diagnosis"]["basis"] == "derived"
    assert "DRV-rendezvous (derived)" in proc.stderr
    assert seconds < 60  # the child would sleep 120 s


def test_a_reported_derived_finding_does_not_stop_the_run(tmp_path):
    """Import failures are often caught by plugin loaders: the package analyzer reports, never stops."""
    proc, summary, _ = supervise(tmp_path, "derived-reported")
    assert summary["reason"] == "exited" and proc.returncode == 0 and summary["stopped_on"] is None
    assert summary["diagnosis"]["id"] == "DRV-package"


def test_a_catalog_stop_is_recorded_as_stopped_on(tmp_path):
    _, summary, _ = supervise(tmp_path, "fatal")
    assert summary["stopped_on"]["id"] == "ARL-E002" and summary["stopped_on"]["basis"] == "catalog"
