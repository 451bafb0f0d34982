"""Edit the assignments and `source` lines of a shell file, keeping every other byte as it was.

Works on bytes so CRLF files, files without a trailing newline and non-UTF-8 comments
survive untouched. Every top-level assignment to a wanted name (``export NAME=…``,
``NAME=…``, ``declare -x NAME=…``, the ``NAME=…`` prefix of a command, anywhere in an
``&&``/``;`` chain) gets the new value in place: only the value's bytes change. A name the
file does not export yet goes in one marked block near the top (after the shebang, leading
comments and ``set`` lines), as do missing ``source`` lines. Blocks the file does not
always run (``if``, loops, functions) are left alone.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from ascendrl.preflight.shellenv import ASSIGN, DECLARE, Unknown, expand, parse, read_exports, read_sources

BLOCK_BEGIN = b"# >>> ascendrl fix >>>"
BLOCK_END = b"# <<< ascendrl fix <<<"
MANAGED_HEADER = (
    b"# Managed by `ascendrl fix`; sourced by `ascendrl run`. Use it in your own shell with:\n"
    b"#   source .ascendrl/env.sh\n"
    b"# `ascendrl fix --undo` restores the previous version.\n"
)
_HEAD = re.compile(rb"^(?:#.*|[ \t]*|set[ \t].*)$")


def _split_lines(data: bytes) -> list[bytes]:
    """Lines with their endings kept (b'a\\r\\n', b'b')."""
    return data.splitlines(keepends=True)


def _newline(data: bytes) -> bytes:
    return b"\r\n" if b"\r\n" in data else b"\n"


def _body(line: bytes) -> bytes:
    return line.rstrip(b"\r\n")


def edit(data: bytes | None, exports: Sequence[tuple[str, str]], sources: Sequence[str], *, managed: bool) -> bytes:
    """Return the file with the sources and exports in place. Unchanged input gives identical output."""
    if data is None:
        data = MANAGED_HEADER if managed else b""
    nl = _newline(data)
    pending: list[bytes] = []
    present_sources = set(read_sources(data))
    for path in sources:
        if path not in present_sources:
            pending.append(b"source " + shlex.quote(path).encode())
    wanted = dict(exports)
    data = _set_values(data, wanted)
    lines = _split_lines(data)
    exported = read_exports(data)
    for name, value in wanted.items():
        if exported.get(name) != value:
            pending.append(b"export " + name.encode() + b"=" + shlex.quote(value).encode())
    if not pending:
        return b"".join(lines)
    block_end = next((i for i, line in enumerate(lines) if _body(line) == BLOCK_END), None)
    if block_end is not None:  # extend our earlier block
        insert_at, block = block_end, [p + nl for p in pending]
    else:
        insert_at = 0
        while insert_at < len(lines) and _HEAD.match(_body(lines[insert_at])):
            insert_at += 1
        if insert_at and insert_at == len(lines) and not lines[-1].endswith((b"\n", b"\r")):
            lines[-1] = lines[-1] + nl  # the file ends in a header line without a newline
        block = [BLOCK_BEGIN + nl, *[p + nl for p in pending], BLOCK_END + nl]
    return b"".join(lines[:insert_at] + block + lines[insert_at:])


def _set_values(data: bytes, wanted: dict[str, str]) -> bytes:
    """Replace the value bytes of every top-level assignment to a wanted name whose value differs."""
    spans: list[tuple[int, int, bytes]] = []
    for cmd in parse(data):
        if cmd.skipped and cmd.skipped.startswith("inside"):
            continue
        declaring = bool(cmd.words) and cmd.words[0].raw in DECLARE
        for word in (*cmd.assigns, *(cmd.words[1:] if declaring else ())):
            m = ASSIGN.match(word.raw)
            if not m or m.group("name") not in wanted:
                continue
            value = wanted[m.group("name")]
            try:
                same = not m.group("plus") and expand(word.raw[m.end() :], {}, tilde=False) == value
            except Unknown:
                same = False
            if not same:
                spans.append((word.start + len(m.group("name")), word.end, b"=" + shlex.quote(value).encode()))
    for start, end, new in sorted(spans, reverse=True):
        data = data[:start] + new + data[end:]
    return data


def set_overrides(data: bytes, overrides: Sequence[tuple[str, str]]) -> bytes:
    """Give each Hydra override ``key=value`` on the script's verl command line (value-only edits).

    An override word already there (``key=…``, ``+key=…``, quoted or not) gets the new value's
    bytes in place; a missing one is added as ``+key=value`` after the command's last override
    word, on the same line. A script with no verl command is returned unchanged.
    """
    from ascendrl.preflight.launch import is_launch

    launch = next((cmd for cmd in parse(data) if is_launch(cmd)), None)
    if launch is None:
        return data
    spans: list[tuple[int, int, bytes]] = []
    for key, value in overrides:
        found = False
        for word in launch.words:
            name, eq, raw = word.raw.partition("=")
            if not eq or name.strip("\"'").lstrip("+~") != key:
                continue
            found = True
            try:
                same = expand(raw, {}, tilde=False) == value
            except Unknown:
                same = False
            if not same:
                at = word.start + len(name) + 1
                spans.append((at, word.end, shlex.quote(value).encode()))
        if not found:
            last = max((w for w in launch.words if "=" in w.raw), key=lambda w: w.end, default=launch.words[-1])
            spans.append((last.end, last.end, f" +{key}={shlex.quote(value)}".encode()))
    for start, end, new in sorted(spans, reverse=True):
        data = data[:start] + new + data[end:]
    return data
