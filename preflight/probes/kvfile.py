"""Readers for the small ``key=value`` and ``Key : value`` files Ascend installers write."""

from __future__ import annotations

import re

from ..host import Host

_PRINTABLE = re.compile(r"^[\x20-\x7e\t\u00a0-\uffff]*$")


class UnreadableFile(Exception):
    """The file exists but is not the text format we expect; the message says how."""


def read_kv(host: Host, path: str, *, sep: str = "=") -> dict[str, str]:
    """Parse ``key<sep>value`` lines. Raises OSError (missing) or UnreadableFile (garbled)."""
    text = host.read_text(path)
    if "\x00" in text:
        raise UnreadableFile(f"{path} holds binary data, not {sep!r}-separated text")
    values: dict[str, str] = {}
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or sep not in line:
            continue
        key, _, value = line.partition(sep)
        key, value = key.strip(), value.strip()
        if key and _PRINTABLE.match(value):
            values.setdefault(key, value)
    if not values:
        raise UnreadableFile(f"{path} has no {sep!r}-separated lines")
    return values


def pick(values: dict[str, str], *keys: str) -> str | None:
    """The first present key, compared case-insensitively (installers vary in case)."""
    lowered = {k.lower(): v for k, v in values.items()}
    for key in keys:
        value = lowered.get(key.lower())
        if value:
            return value
    return None
