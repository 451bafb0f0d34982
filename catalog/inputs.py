"""Opening what explain is given: folders walked safely, compressed logs decompressed, every
input that cannot be read named with the reason (the classifier lists them as skipped).

Decompression is chosen by magic bytes, not file names (rotated logs are often `x.log.1.gz` or
unnamed pipes): gzip, xz and bzip2 from the standard library; zstd when Python 3.14's
``compression.zstd`` or the ``zstandard`` package is present.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

PIECE = 8 << 20  # default read size, as the classifier's chunk


def log_files(folder: Path) -> Iterator[tuple[Path, str | None]]:
    """Every file under a folder (a Ray session's logs/), relative to it, in a stable order,
    with why it cannot be read (a link, a FIFO, an unreadable sub-folder) or None."""
    problems: list[tuple[Path, str]] = []

    def unreadable(exc: OSError) -> None:
        where = Path(exc.filename).relative_to(folder) if exc.filename else Path(".")
        problems.append((where, f"folder not readable: {os_reason(exc)}"))

    for root, dirs, files in os.walk(folder, onerror=unreadable):
        base = Path(root).relative_to(folder)
        dirs.sort()
        for name in [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            yield base / name, "symbolic link to a folder (not followed)"
        for name in sorted(files):
            try:
                mode = os.lstat(os.path.join(root, name)).st_mode
            except OSError as exc:
                yield base / name, os_reason(exc)
                continue
            if stat.S_ISLNK(mode):
                yield base / name, "symbolic link (not followed)"
            elif not stat.S_ISREG(mode):
                yield base / name, "not a regular file"
            else:
                yield base / name, None
        yield from problems
        problems.clear()
    yield from problems


def os_reason(exc: BaseException) -> str:
    """An OS error in a few words ("Permission denied", "symlink loop"), else the exception's text."""
    if isinstance(exc, OSError) and exc.errno == errno.ELOOP:
        return "symlink loop"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


BINARY_SNIFF = 8192
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"), (b"\x28\xb5\x2f\xfd", "zstd"))


def decompressing(raw: IO[bytes]) -> tuple[IO[bytes] | None, str]:
    """The stream to read and what it was compressed with ("" for plain text); None and why when it cannot be read.

    Decided by magic bytes, not the file name (rotated logs are often `x.log.1.gz` or unnamed pipes).
    """
    peek = getattr(raw, "peek", None)
    try:
        head = peek(6)[:6] if peek is not None else b""
    except OSError as exc:
        return None, os_reason(exc)
    kind = next((name for magic, name in _MAGIC if head.startswith(magic)), "")
    if kind == "gzip":
        import gzip

        return gzip.GzipFile(fileobj=raw, mode="rb"), kind
    if kind == "xz":
        import lzma

        return lzma.LZMAFile(raw), kind
    if kind == "bzip2":
        import bz2

        return bz2.BZ2File(raw), kind
    if kind == "zstd":
        opener = _zstd_reader()
        if opener is None:
            return None, "zstd-compressed: needs Python 3.14's compression.zstd or the 'zstandard' package, neither is installed"
        return opener(raw), kind
    return raw, kind


def _zstd_reader() -> Any:
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+

        return lambda raw: zstd.ZstdFile(raw)
    except ImportError:
        pass
    try:
        import zstandard  # type: ignore[import-not-found]

        return lambda raw: zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    except ImportError:
        return None


class Prefixed:
    """The stream feed_stream reads: the sniffed head first, then the rest in large pieces.

    A compressed stream that turns out truncated or corrupt ends early instead of raising, so
    everything decoded before the damage is still judged; ``error`` says what happened.
    """

    def __init__(self, head: bytes, rest: IO[bytes]):
        self.head, self.rest = head, rest
        self.error: BaseException | None = None

    def read(self, size: int = -1) -> bytes:
        if self.head:
            out, self.head = self.head, b""
            return out
        if self.error is not None:
            return b""
        read1 = getattr(self.rest, "read1", None) or self.rest.read
        want = size if size > 0 else PIECE
        parts: list[bytes] = []
        got = 0
        try:
            while got < want:  # read1: one underlying read at a time, so data before damage is kept
                piece = read1(want - got)
                if not piece:
                    break
                parts.append(piece)
                got += len(piece)
        except (OSError, EOFError, ValueError) as exc:  # BadGzipFile, LZMAError, zlib.error, EIO
            self.error = exc
        return b"".join(parts)
