"""The run folder: private from the start, and never the reason a training tree is abandoned.

The folder is made 0700 and every file 0600 by ``os.open``'s mode (no window in which another
user can read a log or open a file first). Before the launch a folder that cannot be made or
written is refused; after it, a full disk or a folder gone read-only is reported once and the
run stays supervised, because crashing here would leave the whole tree running with no one to
stop it. The log records how many bytes it lost, where they were lost.
"""

from __future__ import annotations

import datetime
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

_NOT_STARTED = "; nothing was started (choose another --runs-dir)"
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class RunFolderError(Exception):
    """The run folder cannot be made or written before the launch (a usage error: nothing started)."""


def _stderr_warning(text: str) -> None:
    try:
        print(f"ascendrl: warning: {text}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


class RunFolder:
    def __init__(self, path: Path, warn: Callable[[str], None] = _stderr_warning):
        self.path = path
        self.warn = warn
        self.problems: dict[str, str] = {}  # file -> why it could not be written (once each)

    @classmethod
    def create(cls, runs_dir: str, name: str) -> RunFolder:
        """``runs_dir/<time>-<name>[-n]``, mode 0700; RunFolderError says why not."""
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name)[:60] or "run"
        try:
            os.makedirs(runs_dir, mode=0o700, exist_ok=True)
            n = 1
            while True:
                path = Path(runs_dir) / (f"{stamp}-{safe}" if n == 1 else f"{stamp}-{safe}-{n}")
                try:
                    os.mkdir(path, 0o700)
                    return cls(path)
                except FileExistsError:
                    n += 1
        except OSError as exc:
            raise RunFolderError(f"cannot create a run folder in {runs_dir}: {exc.strerror or exc}{_NOT_STARTED}") from None

    def write(self, name: str, text: str, *, required: bool = False) -> bool:
        """Create ``name`` (0600) with ``text``. A failure raises RunFolderError when required, else is reported once."""
        try:
            fd = os.open(self.path / name, _FLAGS, 0o600)
            try:
                _write_all(fd, text.encode("utf-8", "surrogateescape"))
            finally:
                os.close(fd)
            return True
        except OSError as exc:
            if required:
                raise RunFolderError(f"cannot write {self.path / name}: {exc.strerror or exc}{_NOT_STARTED}") from None
            self.failed(name, exc)
            return False

    def open_log(self, name: str) -> Log:
        try:
            return Log(self, name, os.open(self.path / name, _FLAGS | os.O_APPEND, 0o600))
        except OSError as exc:
            raise RunFolderError(f"cannot write {self.path / name}: {exc.strerror or exc}{_NOT_STARTED}") from None

    def failed(self, name: str, exc: OSError) -> None:
        """Remember why ``name`` was not written; the first problem of the run is said out loud."""
        if name in self.problems:
            return
        self.problems[name] = exc.strerror or str(exc)
        if len(self.problems) == 1:
            self.warn(
                f"cannot write {self.path / name}: {self.problems[name]}; the run goes on and is still supervised "
                "(Ctrl-C or SIGTERM stop it), but what cannot be written is lost; the summary is printed at the end"
            )

    def notes(self) -> list[str]:
        return [f"{name} not fully written: {why}" for name, why in self.problems.items()]


class Log:
    """The run's output as it arrives; bytes that cannot be written are counted, and the gap is marked."""

    def __init__(self, folder: RunFolder, name: str, fd: int):
        self.folder, self.name, self.fd = folder, name, fd
        self.pending = 0  # lost since the last successful write: marked in the log once writing works again
        self.lost = 0

    def write(self, data: bytes) -> None:
        if self.pending:
            why = self.folder.problems.get(self.name, "write failed")
            if self._unwritten(f"\n[ascendrl: {self.pending} bytes of output were not saved here: {why}]\n".encode()):
                self._lose(len(data))
                return
            self.pending = 0
        self._lose(self._unwritten(data))

    def _lose(self, n: int) -> None:
        self.pending += n
        self.lost += n

    def _unwritten(self, data: bytes) -> int:
        """Write what fits; the number of bytes that did not."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.fd, view) :]
            except OSError as exc:
                self.folder.failed(self.name, exc)
                return len(view)
        return 0

    def close(self) -> None:
        if self.lost:
            why = self.folder.problems.get(self.name, "write failed")
            self.folder.problems[self.name] = f"{why}; {self.lost} bytes of output not saved"
        os.close(self.fd)

    def __enter__(self) -> Log:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
