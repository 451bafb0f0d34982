"""Parsed data files kept in the user's cache folder, keyed by the texts they came from.

Parsing the shipped YAML (and checking every signature compiles in RE2) costs more than the rest
of ``explain`` on a one-line paste. The parsed form is written once, atomically, under
``$XDG_CACHE_HOME/ascendrl`` (``~/.cache/ascendrl``) and read back while the texts are unchanged.
A folder that cannot be written, or a damaged file, only means parsing again: nothing fails.
``ASCENDRL_NO_CACHE=1`` turns it off.

The files hold plain data (dicts, lists, strings, numbers) in marshal's format 4, behind a magic
and a CRC-32 of the payload: decoding 3 MB of JSON was a tenth of a one-line ``explain``, marshal
takes under half of that. A file that is truncated, damaged or not this module's is refused by the
checksum before marshal sees it, and one that others may write is never read (``_trusted``).
"""

from __future__ import annotations

import marshal
import os
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def cache_dir(env: dict[str, str] | os._Environ[str] | None = None) -> Path | None:
    env = os.environ if env is None else env
    if env.get("ASCENDRL_NO_CACHE", "") not in ("", "0"):
        return None
    base = env.get("XDG_CACHE_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".cache")
    return Path(base) / "ascendrl"


def content_key(*parts: str | bytes | Iterable[tuple[str, str]]) -> str:
    """A digest of names and texts: any edit to a file (or to the format tag) gives a new key.

    CRC-32 and Adler-32 with the length (zlib): hashlib's OpenSSL import alone costs more than this
    whole lookup, and the key only has to notice edits, not resist forgery (the folder is the user's).
    """
    chunks: list[bytes] = []
    for part in parts:
        if isinstance(part, bytes):
            chunks.append(part)
        elif isinstance(part, str):
            chunks.append(part.encode("utf-8", "surrogateescape"))
        else:  # (name, text) pairs: thousands of short texts, joined before one digest (one call per piece cost more)
            pieces = [p for pair in part for p in pair]
            chunks += [p.encode("utf-8", "surrogateescape") if isinstance(p, str) else p for p in pieces]
    data = b"\0".join(chunks) + b"\0" if chunks else b""
    crc, adler, size = zlib.crc32(data), zlib.adler32(data), len(data)
    return f"{crc:08x}{adler:08x}{size:x}"


RACY_NS = 2_000_000_000  # a file changed this recently may change again within one tick of its timestamps


def stat_key(kind: str, paths: Iterable[Path] | None, parts: tuple[str, ...], compute: Callable[[], str]) -> str:
    """``compute()`` (a content key of these files' texts), remembered against the files' stat.

    Reading and digesting 2 MB of catalog YAML only to find the key of its parse cost a warm start
    more than reading the parse. Any edit changes a file's size, mtime, ctime or inode, and ctime
    cannot be set back (``touch -d`` and ``cp -p`` leave it new), so the same stat means the same
    text. As git's index does, a file changed within the last two seconds is not remembered: a
    second edit could share its timestamps. ``paths`` None (no folder on disk) computes every time.
    """
    if paths is None:
        return compute()
    try:
        stats = [(str(p), p.stat()) for p in paths]
    except OSError:
        return compute()
    import time

    now = time.time_ns()
    settled = all(now - max(st.st_mtime_ns, st.st_ctime_ns) > RACY_NS for _, st in stats)
    signature = content_key(kind, *parts, [(name, f"{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}:{st.st_ino}") for name, st in stats])
    remembered = read(f"stat-{kind}", signature)
    if isinstance(remembered, dict) and isinstance(remembered.get("key"), str):
        return remembered["key"]
    key = compute()
    if settled:
        write(f"stat-{kind}", signature, {"key": key})
    return key


_SOURCES: dict[str, bytes] = {}
_IMPORTED: dict[str, tuple[int, int, int]] = {}  # a parsing module's file -> its (size, mtime, inode) when imported
_STALE = False  # a module this process runs was changed on disk after its import: store nothing it parses


def imported(module_file: str) -> None:
    """Note a parsing module's file as it is imported (called at its top): ``own_source`` compares against it."""
    try:
        info = os.stat(module_file)
    except OSError:
        return
    _IMPORTED[module_file] = (info.st_size, info.st_mtime_ns, info.st_ino)


def own_source(module_file: str) -> bytes:
    """The parsing module's own text, for the key: a changed parser must not read an old parse.

    Read once per process (at its first cache lookup): a process keys its caches with the text it first read. A
    module whose file changed between its import and that read (an edit or an upgrade while a long ``run`` or a
    scorer starts up) runs one text and would key by another, filing its old parse under the new text's key for the
    next process to trust (seen here: a scorer started before a classify.py edit wrote the old word-prefix index under
    the edited file's key). Such a process gets a key nothing is stored under, and stores nothing (``_STALE``).
    """
    global _STALE
    text = _SOURCES.get(module_file)
    if text is None:
        try:
            with open(module_file, "rb") as handle:
                text = handle.read()
                info = os.fstat(handle.fileno())
            then = _IMPORTED.get(module_file)
            if then is not None and then != (info.st_size, info.st_mtime_ns, info.st_ino):
                import time

                _STALE = True
                text = b"\0changed after import\0%d\0%d\0" % (os.getpid(), time.time_ns()) + text
        except OSError:  # no source on disk (a zipped install): the version stands in
            from ascendrl import __version__

            text = __version__.encode()
        _SOURCES[module_file] = text
    return text


def shipped_texts(module_file: str, package: str, suffixes: tuple[str, ...], folder: str = "") -> list[tuple[str, str]]:
    """(name, text) of the data files shipped beside a module, sorted: what a parse and its key are made of.

    Read straight from the module's folder: importlib.resources (and the tempfile, zipfile and
    random it imports) cost a one-line ``explain`` more than the read. Only a package that is not
    a folder on disk (a zipped install) goes through importlib.resources.
    """
    base = Path(module_file).parent / folder if folder else Path(module_file).parent
    if base.is_dir():
        return sorted((p.name, p.read_text(encoding="utf-8")) for p in base.iterdir() if p.name.endswith(suffixes))
    from importlib import resources  # pragma: no cover - zipped installs only

    root = resources.files(package)
    root = root.joinpath(folder) if folder else root
    return sorted((p.name, p.read_text(encoding="utf-8")) for p in root.iterdir() if p.name.endswith(suffixes))


def shipped_text(module_file: str, package: str, name: str) -> str:
    """One data file shipped beside a module (``name`` relative to its folder), read as shipped_texts reads."""
    path = Path(module_file).parent / name
    if path.parent.is_dir():
        return path.read_text(encoding="utf-8")
    from importlib import resources  # pragma: no cover - zipped installs only

    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


MAGIC = b"ARL\x01"


def encode(data: Any) -> bytes:
    """A cache file's bytes: the magic, the payload's CRC-32, the payload (marshal format 4, any Python 3 reads it)."""
    payload = marshal.dumps(data, 4)
    return MAGIC + zlib.crc32(payload).to_bytes(4, "little") + payload


def decode(blob: bytes) -> Any:
    """The data of a cache file's bytes; ValueError for anything ``encode`` did not write whole."""
    if blob[:4] != MAGIC or zlib.crc32(memoryview(blob)[8:]) != int.from_bytes(blob[4:8], "little"):
        raise ValueError("not an ascendrl cache file, or damaged")
    try:
        return marshal.loads(memoryview(blob)[8:])
    except (EOFError, TypeError) as exc:
        raise ValueError(str(exc)) from exc


def cached(kind: str, key: str, build: Callable[[], Any], load: Callable[[Any], T]) -> T:
    """``load(data)`` of the cached data for ``kind``/``key``; on a miss, ``build()`` it, store it, load it.

    ``load`` also checks the shape: a file that does not load (edited, truncated, from another
    version) is rebuilt. Writing a new file removes all but the newest few of its kind.
    """
    path = _path(kind, key)
    if path is not None:
        try:
            if _trusted(path):
                return load(decode(path.read_bytes()))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            pass
    data = build()
    value = load(data)
    if path is not None:
        _store(path, kind, data)
    return value


def read(kind: str, key: str) -> Any:
    """The cached data for ``kind``/``key`` as stored, or None (absent, unreadable, damaged, not trusted)."""
    path = _path(kind, key)
    try:
        return decode(path.read_bytes()) if path is not None and _trusted(path) else None
    except (OSError, ValueError):
        return None


def write(kind: str, key: str, data: Any) -> None:
    """Store ``data`` for ``kind``/``key`` atomically; a folder that cannot be written is ignored."""
    path = _path(kind, key)
    if path is not None:
        _store(path, kind, data)


def _path(kind: str, key: str) -> Path | None:
    folder = cache_dir()
    return folder / f"{kind}-{key}.bin" if folder is not None else None


KEEP = 4  # cached files per kind


def _trusted(path: Path) -> bool:
    """Only a file this user owns, that nobody else may write (a shared cache folder must not steer explain)."""
    import stat

    info = path.lstat()
    return stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def _store(path: Path, kind: str, data: Any) -> None:
    if _STALE:
        return
    import tempfile

    tmp = None
    try:
        blob = encode(data)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as out:
            out.write(blob)
        os.replace(tmp, path)  # readers see the old file or the whole new one, never a part
        tmp = None
        # Keep the newest few of a kind: two installs (a venv per project) sharing one cache folder
        # each keep theirs, and files of edits long gone do not pile up.
        others = sorted((p for p in path.parent.glob(f"{kind}-*.bin") if p != path), key=_mtime, reverse=True)
        for old in others[KEEP - 1:]:
            old.unlink(missing_ok=True)
        for old in path.parent.glob(f"{kind}-*.json"):  # the JSON files of releases before 2026-12-06
            old.unlink(missing_ok=True)
    except (OSError, ValueError, TypeError):
        pass  # read-only or full cache folder: parse again next time
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
