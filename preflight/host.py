"""What a probe may look at: the filesystem root, the environment, the tools.

Every probe reads the host only through a :class:`Host`, so ``--root DIR`` (audit a
mounted image or a captured host) and the fixture hosts in ``tests/`` work the same
way as the live machine. Under ``--root`` every path is resolved the way a chroot would
resolve it (:func:`resolve_in_root`): absolute symlinks point into the image, ``..`` stops
at the root, and nothing outside the root is ever read.
"""

from __future__ import annotations

import dataclasses
import errno
import fnmatch
import os
import stat
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

TIMEOUT_RC = 124  # like coreutils' timeout(1)
NOT_FOUND_RC = 127  # like a shell for a missing command
MAX_SYMLINKS = 40  # Linux's own limit on links followed in one lookup (MAXSYMLINKS)
INFO_LIMIT = 1 << 20  # installer info files and captured outputs are a few KiB
_SLASH = Path("/")
REAP_TIMEOUT = 5.0  # after killing a timed-out command's group, how long to wait for its pipes


def symlink_loop(path: str | os.PathLike[str]) -> OSError:
    """The error for a path whose links do not end (or exceed Linux's 40-link limit)."""
    return OSError(errno.ELOOP, f"symlink loop (more than {MAX_SYMLINKS} links)", str(path))


def resolve_in_root(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> Path:
    """Map an absolute path of the image at ``root`` to a path on this machine, as chroot(2) would.

    Each component is looked up with lstat; a symlink's target is resolved again from the
    root when absolute, from its directory when relative; ``..`` never climbs above the root.
    The result holds no symlink (up to the first missing component, kept as written), so
    reading it on this machine cannot leave the root. More than 40 links raise ELOOP.
    """
    base = os.path.realpath(root)
    pending = [p for p in str(path).split("/") if p not in ("", ".")]
    pending.reverse()  # a stack: the next component is at the end
    done: list[str] = []
    links = 0
    while pending:
        part = pending.pop()
        if part == "..":
            if done:
                done.pop()
            continue
        current = os.path.join(base, *done, part)
        try:
            st = os.lstat(current)
        except FileNotFoundError:
            done.append(part)
            done += _lexical(reversed(pending))
            break
        except NotADirectoryError:
            done.append(part)
            done += _lexical(reversed(pending))
            break
        if not stat.S_ISLNK(st.st_mode):
            done.append(part)
            continue
        links += 1
        if links > MAX_SYMLINKS:
            raise symlink_loop(path)
        target = os.readlink(current)
        if target.startswith("/"):
            done = []
        pending += reversed([p for p in target.split("/") if p not in ("", ".")])
    return Path(base, *done)


def _lexical(parts: Any) -> list[str]:
    out: list[str] = []
    for part in parts:
        if part == "..":
            if out:
                out.pop()
        elif part not in ("", "."):
            out.append(part)
    return out


def read_regular(path: str | os.PathLike[str], *, limit: int = INFO_LIMIT, within: str | None = None) -> bytes:
    """Read at most ``limit`` bytes of a regular file; a FIFO, device or folder is refused, never waited on.

    ``within``: the file actually opened must lie under this folder (checked on the open
    descriptor, so a link swapped in after resolving cannot lead outside it).
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if within is not None:
        flags |= os.O_NOFOLLOW
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else "a device or socket"
            raise OSError(errno.EINVAL, f"not a regular file ({kind})", str(path))
        if within is not None:
            real = os.readlink(f"/proc/self/fd/{fd}") if os.path.isdir("/proc/self/fd") else os.path.realpath(path)
            if real != within and not real.startswith(within.rstrip("/") + "/"):
                raise OSError(errno.EXDEV, f"resolves outside the checked root ({real})", str(path))
        chunks: list[bytes] = []
        left = limit
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


@dataclasses.dataclass(frozen=True)
class CommandResult:
    """Outcome of one external command; never raised, always returned."""

    argv: tuple[str, ...]
    rc: int
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.rc == TIMEOUT_RC

    @property
    def not_found(self) -> bool:
        return self.rc == NOT_FOUND_RC

    def describe(self) -> str:
        """One line for a finding: the command and what went wrong."""
        cmd = " ".join(a if "\n" not in a and len(a) <= 120 else "…" for a in self.argv)  # not an embedded program
        if self.timed_out:
            return f"`{cmd}` did not finish in time (hung?); it and its children were killed"
        if self.not_found:
            return f"`{cmd}`: {self.stderr.strip() or 'not found'}"
        tail = (self.stderr.strip() or self.stdout.strip()).splitlines()[-1:] or [""]
        return f"`{cmd}` exited {self.rc}: {tail[0][:200]}"


def _kill_group(pid: int) -> None:
    """SIGKILL the command's whole process group (it was started in its own session)."""
    import signal

    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run_command(
    argv: Sequence[str], *, timeout: float, env: Mapping[str, str] | None = None
) -> CommandResult:
    """Run a command with a timeout; a missing, hung or crashing tool is a result, not an error.

    The command runs in a new session, so on a timeout (or Ctrl-C here) its whole process
    group is killed: a wedged npu-smi or an import that spawned workers is not left behind.
    """
    import subprocess  # here, not at import: a check on a host without npu-smi runs no command

    args = tuple(str(a) for a in argv)
    try:
        proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env) if env is not None else None,
            start_new_session=True,
        )
    except FileNotFoundError as exc:
        return CommandResult(args, NOT_FOUND_RC, "", str(exc))
    except PermissionError as exc:
        return CommandResult(args, 126, "", str(exc))
    except OSError as exc:  # e.g. exec format error for a foreign-arch binary
        return CommandResult(args, 126, "", str(exc))
    finished = False
    try:
        out, err = proc.communicate(timeout=timeout)
        finished = True
    except subprocess.TimeoutExpired:
        _kill_group(proc.pid)
        try:  # a descendant that left the group may still hold the pipes: do not wait for it forever
            out, _ = proc.communicate(timeout=REAP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            out = b""
        proc.wait()
        return CommandResult(args, TIMEOUT_RC, (out or b"").decode("utf-8", "replace"), "timed out")
    finally:
        if not finished and proc.returncode is None:  # interrupted: take the group down with us
            _kill_group(proc.pid)
            proc.kill()
            proc.wait()
    return CommandResult(args, proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"))


@dataclasses.dataclass(frozen=True)
class Host:
    """The host being checked.

    ``root`` is "/" for the live machine. Absolute paths, including those named by
    environment variables, are looked up under it, with symlinks resolved inside it.
    """

    root: Path = Path("/")
    env: Mapping[str, str] = dataclasses.field(default_factory=lambda: dict(os.environ))
    npu_smi: str | None = None  # explicit --npu-smi
    python: str | None = None  # explicit --python
    checkpoint_dir: str | None = None
    deep: bool = False
    timeout: float = 10.0
    recipe: Any = None  # an ascendrl.recipes.ResolvedRecipe to lint against this host
    validate: bool = False  # also run verl's own validate_config (imports verl: seconds)

    @property
    def live(self) -> bool:
        """True when checking this very machine (RAM, /proc, processes are meaningful)."""
        return self.root == _SLASH  # asked often (every path look-up): a Path built per call was 1 ms of a check

    def path(self, path: str | os.PathLike[str]) -> Path:
        """Map a host path (absolute, as the host sees it) to where we can read it.

        Under a root the result is resolved inside it (raises ELOOP for a symlink loop);
        a relative path is taken from the image's "/".
        """
        if self.live:
            return Path(os.path.expanduser(str(path)))
        return resolve_in_root(self.root, path)

    def _within(self) -> str | None:
        return None if self.live else os.path.realpath(self.root)

    def home(self) -> str:
        return self.env.get("HOME") or ("/root" if not self.live else os.path.expanduser("~"))

    def getenv(self, name: str, default: str | None = None) -> str | None:
        return self.env.get(name, default)

    def read_bytes(self, path: str, *, limit: int = INFO_LIMIT) -> bytes:
        """Read a regular file under the root (bounded); raises OSError, naming the host path, to the probe."""
        try:
            return read_regular(self.path(path), limit=limit, within=self._within())
        except OSError as exc:
            if exc.errno == errno.ELOOP:  # the kernel's "Too many levels of symbolic links", said plainly
                raise symlink_loop(path) from None
            exc.filename = path
            raise

    def read_text(self, path: str, *, limit: int = INFO_LIMIT) -> str:
        """Read a small text file under the root; raises OSError to the probe."""
        return self.read_bytes(path, limit=limit).decode("utf-8", "replace")

    def stat(self, path: str) -> os.stat_result | None:
        """stat of a host path (links resolved inside the root), or None when it cannot be read."""
        try:
            return os.stat(self.path(path))
        except (OSError, ValueError):
            return None

    def is_file(self, path: str) -> bool:
        st = self.stat(path)
        return st is not None and stat.S_ISREG(st.st_mode)

    def is_dir(self, path: str) -> bool:
        st = self.stat(path)
        return st is not None and stat.S_ISDIR(st.st_mode)

    def exists(self, path: str) -> bool:
        return self.stat(path) is not None

    def listdir(self, path: str) -> list[str]:
        """Names in a host folder, sorted; raises OSError to the probe."""
        return sorted(os.listdir(self.path(path)))

    def glob(self, pattern: str) -> list[str]:
        """Host paths matching a glob of the image ("usr/lib/python3*/site-packages"), sorted.

        Unlike Path.glob, each step is resolved inside the root, so a link in the image
        cannot make the match wander onto this machine's own folders.
        """
        found = ["/"]
        for part in [p for p in pattern.split("/") if p]:
            step: list[str] = []
            for folder in found:
                if not any(c in part for c in "*?["):
                    step.append(os.path.join(folder, part))
                    continue
                try:
                    names = self.listdir(folder)
                except OSError:
                    continue
                step += [os.path.join(folder, n) for n in names if fnmatch.fnmatchcase(n, part)]
            found = step
        return sorted(p for p in found if self.exists(p))

    def run(self, argv: Sequence[str], *, timeout: float | None = None) -> CommandResult:
        return run_command(argv, timeout=timeout or self.timeout, env=self.env)

    def which(self, name: str, extra_dirs: Sequence[str] = ()) -> str | None:
        """Find an executable on the host's PATH (under the root), then in ``extra_dirs``."""
        dirs = [d for d in self.env.get("PATH", "").split(os.pathsep) if d]
        for directory in [*dirs, *extra_dirs]:
            try:
                candidate = self.path(os.path.join(directory, name))
            except OSError:
                continue
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
        return None
