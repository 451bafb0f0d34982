"""The apply journal: written and synced before the first change, verified before any undo.

A journal says which files one apply wrote (the previous bytes, the bytes it wrote and both
hashes), which folders it created and which processes it stopped. `--undo` follows only a
journal that this user owns in a folder only this user can write, whose shape and hashes
check out, and whose files are the ones that apply targeted; a file it created may only be
under the state folder. Anything else is a clear error, and nothing is touched.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from .files import FixError, atomic_write

VERSIONS = (1, 2)  # 1: before --undo checked for edits (no after bytes, no targets)
STATES = ("started", "complete", "rolled_back")
_SHA = re.compile(r"[0-9a-f]{64}")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_record(path: str, before: bytes | None, after: bytes, mode: int | None) -> dict[str, Any]:
    return {
        "path": path,
        "existed": before is not None,
        "before_b64": base64.b64encode(before or b"").decode(),
        "before_sha256": sha256(before or b""),
        "after_b64": base64.b64encode(after).decode(),
        "after_sha256": sha256(after),
        "mode": None if mode is None else mode & 0o777,
    }


def write(path: Path, doc: dict[str, Any]) -> None:
    atomic_write(str(path), json.dumps(doc, indent=1).encode(), mode=0o600)


def _private(path: Path, what: str, want_dir: bool) -> None:
    """Owned by this user, not a symlink, not writable by group or others."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise FixError(f"the {what} {path}: {exc.strerror or exc}; files were not touched") from None
    kind_ok = stat.S_ISDIR(st.st_mode) if want_dir else stat.S_ISREG(st.st_mode)
    if not kind_ok:
        raise FixError(f"the {what} {path} is not a plain {'folder' if want_dir else 'file'}; refusing to follow it; files were not touched")
    if st.st_uid != os.geteuid():
        raise FixError(f"the {what} {path} belongs to uid {st.st_uid}, not to you (uid {os.geteuid()}); refusing to follow it; files were not touched")
    # `fix` writes journals 0600 in a 0700 folder; a journal anyone else could write (or one that came
    # with a checked-out repository, 0644) is not one this user's apply wrote.
    if st.st_mode & (0o022 if want_dir else 0o077):
        raise FixError(
            f"the {what} {path} is open to others (mode {st.st_mode & 0o7777:o}; `fix` writes it {'0700' if want_dir else '0600'}); "
            "refusing to follow it; files were not touched"
        )


def _bad(journal: Path, why: str) -> FixError:
    return FixError(f"the journal {journal} is malformed ({why}); files were not touched")


def _b64(journal: Path, value: Any, field: str) -> bytes:
    if not isinstance(value, str):
        raise _bad(journal, f"{field} is not a string")
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        raise _bad(journal, f"{field} is not base64") from None


def _abs_path(journal: Path, value: Any, field: str) -> str:
    if not isinstance(value, str) or not value.startswith("/") or "\0" in value or os.path.normpath(value) != value:
        raise _bad(journal, f"{field} {value!r} is not an absolute, normalized path")
    return value


def load_verified(journal: Path, state_dir: str) -> dict[str, Any]:
    """The journal's document, after checking who owns it, its shape, its paths and its hashes."""
    _private(journal.parent, "journal folder", want_dir=True)
    _private(journal, "journal", want_dir=False)
    try:
        with open(journal, "rb") as fh:
            doc = json.loads(fh.read(64 << 20))
    except OSError as exc:
        raise FixError(f"the journal {journal} is unreadable ({exc.strerror or exc}); files were not touched") from None
    except ValueError as exc:
        raise _bad(journal, f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("version") not in VERSIONS:
        raise _bad(journal, "no known version")
    if doc.get("state") not in STATES:
        raise _bad(journal, "unknown state")
    files, dirs, stopped = doc.get("files"), doc.get("dirs", []), doc.get("stopped", [])
    if not isinstance(files, list) or not isinstance(dirs, list) or not isinstance(stopped, list):
        raise _bad(journal, "files, dirs and stopped must be lists")
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in stopped):
        raise _bad(journal, "stopped must list PIDs")
    targets = doc.get("targets")
    if doc["version"] >= 2 and (not isinstance(targets, list) or not all(isinstance(t, str) for t in targets)):
        raise _bad(journal, "no list of targets")
    state_real = os.path.realpath(state_dir)
    for i, record in enumerate(files):
        where = f"files[{i}]"
        if not isinstance(record, dict):
            raise _bad(journal, f"{where} is not an object")
        path = _abs_path(journal, record.get("path"), f"{where}.path")
        if not isinstance(record.get("existed"), bool):
            raise _bad(journal, f"{where}.existed is not true/false")
        before = _b64(journal, record.get("before_b64"), f"{where}.before_b64")
        if not isinstance(record.get("after_sha256"), str) or not _SHA.fullmatch(record["after_sha256"]):
            raise _bad(journal, f"{where}.after_sha256 is not a SHA-256")
        mode = record.get("mode")
        if mode is not None and (not isinstance(mode, int) or isinstance(mode, bool) or not 0 <= mode <= 0o7777):
            raise _bad(journal, f"{where}.mode is not a file mode")
        if doc["version"] >= 2:
            if path not in targets:
                raise _bad(journal, f"{path} is not one of the files this apply targeted")
            if record.get("before_sha256") != sha256(before):
                raise _bad(journal, f"{where}: the previous bytes do not match their recorded hash")
            after = _b64(journal, record.get("after_b64"), f"{where}.after_b64")
            if sha256(after) != record["after_sha256"]:
                raise _bad(journal, f"{where}: the written bytes do not match their recorded hash")
        if not record["existed"] and os.path.commonpath([os.path.realpath(path), state_real]) != state_real:
            raise _bad(journal, f"{path} is recorded as created, but `fix` only creates files in {state_dir}")
    for i, d in enumerate(dirs):
        _abs_path(journal, d, f"dirs[{i}]")
    return doc


def record_after(record: dict[str, Any]) -> bytes | None:
    """The bytes the apply wrote (None for a version 1 journal, which kept only their hash)."""
    return base64.b64decode(record["after_b64"]) if "after_b64" in record else None
