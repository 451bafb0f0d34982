"""The file operations `fix` relies on: what it refuses to edit, locks, and writes that keep a file's identity.

A write is a temp file in the same folder, given the original's owner, group, permission
bits and extended attributes, fsynced, then renamed over the original: readers see the old
or the new bytes, never a mix, and the file stays whose it was. Set-id and sticky bits are
never written. Files that an in-place rename would silently break (hard links) or that the
user marked read-only, and files that are not text, are refused before anything is written.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path

TMP_SUFFIX = ".ascendrl-tmp"
MAX_INVALID_UTF8 = 8  # a few stray bytes in a comment are fine; more means a binary or another encoding
PERMISSION_BITS = 0o777


class FixError(Exception):
    """An apply or undo that could not be done; the message says what and what was left how."""


def text_problem(data: bytes) -> str | None:
    """Why ``data`` is not a text file we may edit, or None."""
    if b"\0" in data:
        return "contains NUL bytes (a binary file?)"
    invalid = len(data) - len(data.decode("utf-8", "ignore").encode("utf-8"))
    if invalid > MAX_INVALID_UTF8:
        return f"is not UTF-8 text ({invalid} invalid bytes)"
    return None


def check_editable(path: str, data: bytes | None = None) -> os.stat_result:
    """The stat of ``path`` (already resolved) when `fix` may replace it; FixError saying why not otherwise."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise FixError(f"{path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise FixError(f"{path} is not a regular file; nothing was changed")
    if st.st_nlink > 1:
        raise FixError(
            f"{path} has {st.st_nlink} hard links: replacing it would leave the other names with the old content; "
            "edit it by hand or give it a single name first; nothing was changed"
        )
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            raise FixError(f"{path} is on a read-only filesystem; nothing was changed")
    except OSError:
        pass
    if not st.st_mode & 0o222:
        raise FixError(f"{path} is read-only (mode {st.st_mode & 0o7777:o}); make it writable first if it should be edited; nothing was changed")
    if not os.access(path, os.W_OK):
        raise FixError(f"{path} is read-only for you (owner uid {st.st_uid}, mode {st.st_mode & 0o7777:o}); nothing was changed")
    if data is not None and (problem := text_problem(data)):
        raise FixError(f"{path} {problem}; only text scripts are edited; nothing was changed")
    return st


@contextlib.contextmanager
def locked(path: str) -> Iterator[None]:
    """Hold an exclusive flock on ``path`` (the inode the path names now, even if it is renamed over meanwhile).

    A file that does not exist is not locked (the state folder's lock covers creating it).
    """
    while True:
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except FileNotFoundError:
            yield
            return
        except OSError as exc:
            raise FixError(f"cannot lock {path}: {exc.strerror or exc}") from None
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            now = os.stat(path)
            mine = os.fstat(fd)
        except FileNotFoundError:
            os.close(fd)
            continue
        if (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino):
            break
        os.close(fd)  # another writer renamed a new file over it while we waited: lock that one
    try:
        yield
    finally:
        os.close(fd)


@contextlib.contextmanager
def state_lock(folder: Path) -> Iterator[None]:
    """Exclusive lock on ``folder/lock`` (created 0600): one apply or undo at a time per state folder."""
    fd = os.open(folder / "lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy_xattrs(src: str, fd: int) -> None:
    try:
        names = os.listxattr(src)
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return
        raise
    for name in names:
        os.setxattr(fd, name, os.getxattr(src, name))


def atomic_write(path: str, data: bytes, *, like: os.stat_result | None = None, mode: int = 0o644) -> None:
    """Replace ``path`` with ``data``; with ``like`` (the original's stat) keep its owner, group, mode and xattrs."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=TMP_SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if like is not None:
                if (like.st_uid, like.st_gid) != (os.geteuid(), os.getegid()):
                    os.fchown(fh.fileno(), like.st_uid, like.st_gid)
                if os.path.exists(path):
                    _copy_xattrs(path, fh.fileno())
                os.fchmod(fh.fileno(), like.st_mode & PERMISSION_BITS)
            else:
                os.fchmod(fh.fileno(), mode & PERMISSION_BITS)
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(directory)


def clean_stale_temps(path: str) -> None:
    """Temp files a killed apply may have left next to ``path``."""
    directory = os.path.dirname(os.path.abspath(path))
    for stale in Path(directory).glob(f".{os.path.basename(path)}.*{TMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            if stale.is_file() and not stale.is_symlink():
                stale.unlink()
