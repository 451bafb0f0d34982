"""Edit `export` and `source` lines of a shell file, keeping every other byte as it was.

Works on bytes so CRLF files, files without a trailing newline and non-UTF-8 comments
survive untouched. An existing ``export NAME=…`` is corrected in place; missing lines go in
one marked block near the top (after the shebang, leading comments and ``set`` lines).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from ascendrl.preflight.shellenv import EXPORT_LINE, exported_value, read_sources

BLOCK_BEGIN = b"# >>> ascendrl fix >>>"
BLOCK_END = b"# <<< ascendrl fix <<<"
MANAGED_HEADER = (
    b"# Managed by `ascendrl fix`; sourced by `ascendrl run`. Use it in your own shell with:\n"
    b"#   source .ascendrl/env.sh\n"
    b"# `ascendrl fix --undo` restores the previous version.\n"
)
_HEAD = re.compile(rb"^(?:#.*|[ \t]*|set[ \t].*)$")
# An export's value, and what follows it on the line (spaces and a comment), kept as written.
_VALUE_AND_REST = re.compile(rb"""^(?P<value>(?:'[^']*'|"(?:\\.|[^"\\])*"|[^\s#'"]+)*)(?P<rest>\s*(?:#.*)?)$""")


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
    lines = _split_lines(data)
    pending: list[bytes] = []
    present_sources = set(read_sources(data))
    for path in sources:
        if path not in present_sources:
            pending.append(b"source " + shlex.quote(path).encode())
    for name, value in exports:
        encoded = shlex.quote(value).encode()
        for i, line in enumerate(lines):
            m = EXPORT_LINE.match(_body(line))
            if m and m.group("name").decode() == name and not m.group("indent"):
                if exported_value(m.group("value")) != value:
                    ending = line[len(_body(line)):]
                    kept = _VALUE_AND_REST.match(m.group("value"))
                    rest = kept.group("rest") if kept else b""
                    lines[i] = b"export " + name.encode() + b"=" + encoded + rest + ending
                break
        else:
            pending.append(b"export " + name.encode() + b"=" + encoded)
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
