"""Readers for the small ``key=value`` and ``Key : value`` files Ascend installers write."""

from __future__ import annotations

from ..host import Host


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
        if key and _printable(value):
            values.setdefault(key, value)
    if not values:
        raise UnreadableFile(f"{path} has no {sep!r}-separated lines")
    return values


def _printable(value: str) -> bool:
    """Tab, printable ASCII and the rest of the BMP from U+00A0: no control bytes, nothing astral.

    A loop, not a regular expression: compiling that character class took 3-4 ms of every check.
    """
    return all(c == "\t" or " " <= c <= "~" or "\u00a0" <= c <= "\uffff" for c in value)


def pick(values: dict[str, str], *keys: str) -> str | None:
    """The first present key, compared case-insensitively (installers vary in case)."""
    lowered = {k.lower(): v for k, v in values.items()}
    for key in keys:
        value = lowered.get(key.lower())
        if value:
            return value
    return None
