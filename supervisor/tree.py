"""Everything a run started, and stopping all of it: TERM, then KILL after a grace period.

A group signal is not enough: Ray's raylet, GCS and workers, and anything that calls
setsid(), leave the child's process group, and when verl's driver dies first they are
re-parented. So the supervisor (1) becomes a child subreaper, so orphans re-parent to it
and stay findable as its descendants; (2) remembers every descendant it has seen, with its
start time so a recycled PID is never hit; (3) adds the processes of this run's own Ray
session (raylogs.py identifies it by its id), and only those: started after the launch, by
this user, with an option naming exactly that session (Ray passes ``--session-dir=``,
``--logs-dir=``, ``--session-name=`` … to its daemons and workers). A process that merely
mentions the same temp dir, or a sibling session whose name starts the same, is never hit,
and neither are ascendrl itself or its ancestors.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import signal
from collections.abc import Iterable
from pathlib import Path

import psutil

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Linux: orphaned descendants re-parent to this process instead of init."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


@dataclasses.dataclass(frozen=True)
class Stopped:
    pid: int
    name: str
    how: str  # "exited", "SIGTERM", "SIGKILL", "gone"


class ProcessTree:
    """The processes a run started, as far as they can be seen."""

    def __init__(self, root_pid: int, launched_at: float):
        self.root_pid = root_pid
        self.seen: dict[int, float] = {}  # pid -> create_time
        self.session: Path | None = None  # this run's Ray session dir, once known
        self._me = psutil.Process()
        self._untouchable = {self._me.pid, 1} | {p.pid for p in self._me.parents()}
        self.refresh()
        # "Started after the launch" on psutil's own clock (boot time + ticks, which can sit up to a
        # second off time.time()): the root's create time, not the wall clock ``launched_at``.
        self.root_created = self.seen.get(root_pid, launched_at)

    def owns(self, pid: int, at: float, session: Path) -> bool:
        """Is ``session`` (made at wall-clock time ``at`` by ``pid``) this run's own?

        Yes when ``pid`` was one of this run's processes then, or, for a short-lived starter this
        loop never saw (``ray start``), when one of this run's processes runs with that session.
        """
        created = self.seen.get(pid)
        if created is not None:
            return created <= at + 1.0  # psutil's clock is coarser than the wall clock
        try:
            descendants = self._me.children(recursive=True)
        except psutil.Error:
            return False
        for proc in descendants:
            try:
                if names_session(proc.cmdline(), session):
                    return True
            except psutil.Error:
                continue
        return False

    def refresh(self) -> None:
        """Remember every current descendant (cheap enough to call a few times a second)."""
        for proc in self._candidates():
            try:
                self.seen.setdefault(proc.pid, proc.create_time())
            except psutil.Error:
                continue

    def _candidates(self) -> list[psutil.Process]:
        procs: list[psutil.Process] = []
        try:
            procs += self._me.children(recursive=True)
        except psutil.Error:
            pass
        if self.session is not None:
            uid = os.getuid()
            for proc in psutil.process_iter(["cmdline", "create_time", "uids"]):
                info = proc.info
                if proc.pid in self._untouchable or (info.get("create_time") or 0) < self.root_created:
                    continue
                if info.get("uids") is None or info["uids"].real != uid:
                    continue
                if names_session(info.get("cmdline") or (), self.session):
                    procs.append(proc)
        return [p for p in procs if p.pid not in self._untouchable]

    def alive(self) -> list[psutil.Process]:
        """Tracked processes still running, except the root (the caller owns and reaps it)."""
        self.refresh()
        out = []
        for pid, created in self.seen.items():
            if pid == self.root_pid:
                continue
            try:
                proc = psutil.Process(pid)
                if abs(proc.create_time() - created) < 0.01 and proc.status() != psutil.STATUS_ZOMBIE:
                    out.append(proc)
            except psutil.Error:
                continue
        return out

    def stop_all(self, root, grace: float) -> list[Stopped]:
        """SIGTERM the root (a Popen) and everything else alive, SIGKILL what is left after ``grace``."""
        import time

        procs = self.alive()
        names = {}
        for proc in procs:
            try:
                names[proc.pid] = proc.name()
                proc.send_signal(signal.SIGTERM)
            except psutil.Error:
                continue
        stopped: list[Stopped] = []
        root_alive = root.poll() is None  # a run stopped for a diagnosis: its driver is still running
        if root_alive:
            try:
                names[root.pid] = psutil.Process(root.pid).name()
            except psutil.Error:
                names[root.pid] = "run"
            root.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        still = procs
        while time.monotonic() < deadline:
            _, still = psutil.wait_procs(still, timeout=0.1)
            if not still and root.poll() is not None:
                break
        stopped += [Stopped(p.pid, names.get(p.pid, "?"), "SIGTERM") for p in procs if p not in still]
        for proc in still:
            try:
                proc.kill()
            except psutil.Error:
                pass
        if root.poll() is None:
            root.kill()
            stopped.append(Stopped(root.pid, names.get(root.pid, "run"), "SIGKILL"))
        elif root_alive:
            stopped.insert(0, Stopped(root.pid, names[root.pid], "SIGTERM"))
        root.wait()
        psutil.wait_procs(still, timeout=grace)
        stopped += [Stopped(p.pid, names.get(p.pid, "?"), "SIGKILL") for p in still]
        # Late joiners (workers started while we were stopping) and re-parented orphans.
        late = [p for p in self.alive() if p.pid not in names]
        for proc in late:
            try:
                name = proc.name()
                proc.kill()
                stopped.append(Stopped(proc.pid, name, "SIGKILL"))
            except psutil.Error:
                continue
        psutil.wait_procs(late, timeout=grace)
        reap_zombies()
        return stopped


def names_session(cmdline: Iterable[str], session: Path) -> bool:
    """Does this command line pass exactly ``session`` (or a path inside it) as an option's value?"""
    root = os.path.normpath(str(session))
    for arg in cmdline:
        option, eq, value = arg.partition("=")
        if not eq or not option.startswith("--") or not value:
            continue
        if option in ("--session-name", "--session_name"):
            if value == session.name:
                return True
            continue
        value = os.path.normpath(value)
        if value == root or value.startswith(root + os.sep):
            return True
    return False


def reap_zombies() -> None:
    """Collect exit statuses of re-parented children so they do not linger as zombies."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
