"""Processes pinned by a pidfd: a handle that names one process, never a later one given its PID.

Linux 5.3+ (``os.pidfd_open``, ``signal.pidfd_send_signal``); elsewhere every function here says "no pidfd"
(``open_pidfd`` returns None) and callers fall back to psutil, which compares the start time before it signals
but leaves a window between that check and the signal. Used by ``fix`` (a process holding an NPU) and by the run
supervisor (the training tree and its Ray session).

The order that makes a check trustworthy: open the pidfd, check the process's identity through its PID (start time,
command line, owner), then confirm the pidfd's process is still alive. A PID is not reused while its process lives, so
a live pidfd after the checks means the checks read the pinned process.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal

AVAILABLE = hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")


def open_pidfd(pid: int) -> int | None:
    """A pidfd for ``pid``, or None (no such process, no pidfd on this platform, out of descriptors)."""
    if not AVAILABLE:
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


@contextlib.contextmanager
def pinned(pid: int):
    """``open_pidfd`` for the length of a ``with`` block, closed after it."""
    fd = open_pidfd(pid)
    try:
        yield fd
    finally:
        if fd is not None:
            os.close(fd)


def alive(pidfd: int) -> bool:
    """The pinned process has not exited (signal 0 through the pidfd; a zombie counts as exited)."""
    if exited(pidfd, 0):
        return False
    try:
        signal.pidfd_send_signal(pidfd, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, but not ours to signal: the caller's signal reports that
    return True


def exited(pidfd: int, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the pinned process to exit; True once it has."""
    return bool(first_exits([pidfd], timeout))


def first_exits(pidfds: list[int], timeout: float) -> set[int]:
    """The pidfds among ``pidfds`` whose processes have exited, waiting up to ``timeout`` for the first one (a pidfd is
    readable once its process has exited)."""
    if not pidfds:
        return set()
    poller = select.poll()
    for fd in pidfds:
        poller.register(fd, select.POLLIN)
    return {fd for fd, _ in poller.poll(max(0, int(timeout * 1000)))}


def send(pidfd: int, sig: int) -> bool:
    """Signal the pinned process; True when it was signalled or has already exited, False without permission."""
    try:
        signal.pidfd_send_signal(pidfd, sig)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return True
