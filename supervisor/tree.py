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

Each process is pinned by a pidfd when first seen (ascendrl.pinned: opened before its identity is read, kept while it
runs), and every signal goes through that pidfd: a PID that a tracked process gave up and another process took, even
between the last check and the signal, is never hit. Where there is no pidfd (old kernels, more processes than
MAX_PINNED) psutil compares the start time before each signal, as before.
"""

from __future__ import annotations

import ctypes
import dataclasses
import os
import signal
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import psutil

from ascendrl import pinned

PR_SET_CHILD_SUBREAPER = 36
# Open pidfds at most: a run's tree is a few hundred processes at most (Ray workers); beyond this, psutil's check.
MAX_PINNED = 512


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


class _Handle:
    """One tracked process: its pidfd where it is pinned, else its psutil handle (start time checked per signal)."""

    def __init__(self, pid: int, pidfd: int | None = None, proc: psutil.Process | None = None):
        self.pid = pid
        self.pidfd = pidfd
        self.proc = proc

    def signal(self, sig: int) -> bool:
        if self.pidfd is not None:
            return pinned.send(self.pidfd, sig)
        try:
            self.proc.send_signal(sig)  # psutil refuses a PID whose start time changed (NoSuchProcess)
        except psutil.NoSuchProcess:
            return True
        except psutil.Error:
            return False
        return True

    def exited(self) -> bool:
        if self.pidfd is not None:
            return pinned.exited(self.pidfd, 0)  # a zombie has exited too
        try:
            return not self.proc.is_running() or self.proc.status() == psutil.STATUS_ZOMBIE
        except psutil.Error:
            return True


class ProcessTree:
    """The processes a run started, as far as they can be seen."""

    def __init__(self, root_pid: int, launched_at: float):
        self.root_pid = root_pid
        self.seen: dict[int, float] = {}  # pid -> create_time
        self.pins: dict[int, int] = {}  # pid -> pidfd of the process seen with that PID, while it runs
        self.done: set[int] = set()  # PIDs whose pinned process has exited: whoever has the PID now is not tracked
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
        """Remember (and pin) every current descendant, and close the pidfds of the processes that have exited.

        Cheap enough to call a few times a second: one poll over the open pidfds, one pidfd per new process.
        """
        gone = pinned.first_exits(list(self.pins.values()), 0)
        for pid, fd in [(pid, fd) for pid, fd in self.pins.items() if fd in gone]:
            os.close(fd)
            del self.pins[pid]
            self.done.add(pid)  # a process given the PID in the same clock tick would pass the start-time check
        for proc, check in self._candidates():
            if proc.pid in self.seen:
                continue
            try:
                created = proc.create_time()
            except psutil.Error:
                continue
            # The root is a Popen child: not reused before the caller reaps it, and its own signals check that.
            if proc.pid != self.root_pid and len(self.pins) < MAX_PINNED:
                fd = pinned.open_pidfd(proc.pid)
                if fd is not None and not self._still(proc.pid, created, check, fd):
                    os.close(fd)
                    continue  # not the process that was listed any more: it exited, its PID may be another's
                if fd is not None:
                    self.pins[proc.pid] = fd
            self.seen[proc.pid] = created

    @staticmethod
    def _still(pid: int, created: float, check: Callable[[psutil.Process], bool] | None, fd: int) -> bool:
        """Read after the pidfd was opened: the same start time and ``check`` still true, and the pinned process alive
        after both were read, so what was read was the pinned process."""
        try:
            again = psutil.Process(pid)
            same = again.create_time() == created and (check is None or check(again))
        except psutil.Error:
            return False
        return same and pinned.alive(fd)

    def _candidates(self) -> list[tuple[psutil.Process, Callable[[psutil.Process], bool] | None]]:
        """(process, the identity check to repeat once it is pinned, or None for a descendant)."""
        procs: list[tuple[psutil.Process, Callable[[psutil.Process], bool] | None]] = []
        try:
            procs += [(p, None) for p in self._me.children(recursive=True)]
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
                    procs.append((proc, self._session_check(self.session, uid)))
        return [(p, c) for p, c in procs if p.pid not in self._untouchable]

    @staticmethod
    def _session_check(session: Path, uid: int) -> Callable[[psutil.Process], bool]:
        """Why a process outside the tree is this run's: its owner and the session its command line names."""

        def check(proc: psutil.Process) -> bool:
            return proc.uids().real == uid and names_session(proc.cmdline(), session)
        return check

    def alive(self) -> list[_Handle]:
        """Tracked processes still running, except the root (the caller owns and reaps it)."""
        self.refresh()
        out = []
        for pid, created in self.seen.items():
            if pid == self.root_pid or pid in self.done:
                continue
            fd = self.pins.get(pid)
            if fd is not None:
                if pinned.alive(fd):
                    out.append(_Handle(pid, pidfd=fd))
                continue
            try:
                proc = psutil.Process(pid)
                if abs(proc.create_time() - created) < 0.01 and proc.status() != psutil.STATUS_ZOMBIE:
                    out.append(_Handle(pid, proc=proc))
            except psutil.Error:
                continue
        return out

    def close(self) -> None:
        """Close every pidfd still open."""
        for fd in self.pins.values():
            os.close(fd)
        self.pins.clear()

    def stop_all(self, root, grace: float) -> list[Stopped]:
        """SIGTERM the root (a Popen) and everything else alive, SIGKILL what is left after ``grace``."""
        try:
            return self._stop_all(root, grace)
        finally:
            self.close()

    def _stop_all(self, root, grace: float) -> list[Stopped]:
        procs = self.alive()
        names = {}
        for h in procs:
            names[h.pid] = _name(h.pid)
            h.signal(signal.SIGTERM)
        stopped: list[Stopped] = []
        root_alive = root.poll() is None  # a run stopped for a diagnosis: its driver is still running
        if root_alive:
            names[root.pid] = _name(root.pid) or "run"
            root.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + grace
        still = procs
        while time.monotonic() < deadline:
            still = _waiting(still, 0.1)
            if not still and root.poll() is not None:
                break
        stopped += [Stopped(h.pid, names.get(h.pid) or "?", "SIGTERM") for h in procs if h not in still]
        for h in still:
            h.signal(signal.SIGKILL)
        if root.poll() is None:
            root.kill()
            stopped.append(Stopped(root.pid, names.get(root.pid) or "run", "SIGKILL"))
        elif root_alive:
            stopped.insert(0, Stopped(root.pid, names[root.pid], "SIGTERM"))
        root.wait()
        _wait_all(still, grace)
        stopped += [Stopped(h.pid, names.get(h.pid) or "?", "SIGKILL") for h in still]
        # Late joiners (workers started while we were stopping) and re-parented orphans.
        late = [h for h in self.alive() if h.pid not in names]
        for h in late:
            name = _name(h.pid)
            if h.signal(signal.SIGKILL):
                stopped.append(Stopped(h.pid, name or "?", "SIGKILL"))
        _wait_all(late, grace)
        reap_zombies()
        return stopped


def _name(pid: int) -> str:
    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return ""


def _waiting(handles: list[_Handle], timeout: float) -> list[_Handle]:
    """The handles whose processes have not exited after waiting up to ``timeout`` for any of them."""
    fds = [h.pidfd for h in handles if h.pidfd is not None]
    if fds and len(fds) == len(handles):
        pinned.first_exits(fds, timeout)
    else:
        time.sleep(timeout)  # not reaped here: that could take the root's exit status from its Popen
    return [h for h in handles if not h.exited()]


def _wait_all(handles: list[_Handle], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while handles and time.monotonic() < deadline:
        handles = _waiting(handles, 0.1)


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
