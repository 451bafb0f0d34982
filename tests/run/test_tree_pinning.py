"""The supervisor's process tree pins each process by a pidfd: a PID the run gave up is never signalled again.

Real processes throughout; the one constructed part is a start time psutil cannot tell apart (two processes started in
the same clock tick), which is set on the tree's record because a test cannot make the kernel produce it on demand.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import psutil
import pytest

from ascendrl.supervisor.tree import ProcessTree

pytestmark = pytest.mark.skipif(not hasattr(os, "pidfd_open"), reason="no pidfd on this platform")


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _is_pidfd(fd: int) -> bool:
    try:
        return "pidfd" in os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return False


def _stop(*procs: subprocess.Popen | None) -> None:
    for p in procs:
        if p is not None and p.poll() is None:
            p.kill()
            p.wait()


def test_a_pid_a_tracked_process_gave_up_is_not_signalled_even_with_the_same_start_time(same_pid_again):
    root = subprocess.Popen(["sleep", "600"])
    worker = subprocess.Popen(["sleep", "600"])
    newcomer = None
    try:
        tree = ProcessTree(root.pid, time.time())
        assert worker.pid in tree.pins  # pinned when first seen
        worker.kill()
        worker.wait()
        newcomer = same_pid_again(worker.pid, ["sleep", "601"])
        if newcomer is None:
            pytest.skip("cannot choose the next PID here")
        # Started in the same clock tick as the worker, as far as psutil's start time can tell.
        tree.seen[worker.pid] = psutil.Process(newcomer.pid).create_time()
        stopped = tree.stop_all(root, grace=1.0)
        assert newcomer.poll() is None, "a process that took a tracked PID was signalled"
        assert worker.pid not in {s.pid for s in stopped if s.pid != root.pid}
        assert root.poll() is not None  # the run itself was stopped
    finally:
        _stop(root, worker, newcomer)


def test_a_tree_stops_term_then_kill_through_its_pidfds_and_closes_them():
    stubborn_code = "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print(1, flush=True); time.sleep(600)"
    before = _open_fds()
    root = subprocess.Popen(["sleep", "600"])
    polite = subprocess.Popen(["sleep", "600"])
    stubborn = subprocess.Popen([sys.executable, "-c", stubborn_code], stdout=subprocess.PIPE)
    try:
        stubborn.stdout.readline()
        tree = ProcessTree(root.pid, time.time())
        assert {polite.pid, stubborn.pid} <= set(tree.pins)
        stopped = {s.pid: s.how for s in tree.stop_all(root, grace=0.5)}
        assert stopped[polite.pid] == "SIGTERM" and stopped[stubborn.pid] == "SIGKILL"
        # Both gone (stop_all reaps what it stopped, so their Popen objects see no exit status of their own).
        assert polite.poll() is not None and stubborn.poll() is not None
        assert tree.pins == {}
        stubborn.stdout.close()
        assert _open_fds() == before  # every pidfd the tree opened is closed
    finally:
        _stop(root, polite, stubborn)


def test_refresh_closes_the_pidfd_of_a_process_that_exited_and_forgets_its_pid():
    root = subprocess.Popen(["sleep", "600"])
    short = subprocess.Popen(["sleep", "600"])
    try:
        tree = ProcessTree(root.pid, time.time())
        fd = tree.pins[short.pid]
        assert _is_pidfd(fd)
        short.kill()
        short.wait()
        tree.refresh()
        assert short.pid not in tree.pins and short.pid in tree.done
        assert not _is_pidfd(fd)  # closed (its number may serve another file by now, never this pidfd)
        assert short.pid not in {h.pid for h in tree.alive()}
    finally:
        tree.close()
        _stop(root, short)
