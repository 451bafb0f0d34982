"""Version strings of the Ascend stack, made comparable with :mod:`packaging`.

CANN writes ``8.3.RC1``, ``8.5.0.alpha001`` or ``9.1.0-beta.1``; HDK drivers write
``25.3.rc1``; container tags write ``8.3.rc1``. Release candidates come before the
final release of the same number (8.0.RC3 then 8.0.0), which is exactly PEP 440's
``rc`` ordering, so we map onto it.
"""

from __future__ import annotations

import re

from packaging.version import InvalidVersion, Version

_RC = re.compile(r"[.\-_]?rc\.?(\d+)", re.IGNORECASE)
_ALPHA = re.compile(r"[.\-_]?alpha\.?0*(\d+)", re.IGNORECASE)
_BETA = re.compile(r"[.\-_]?beta\.?0*(\d+)", re.IGNORECASE)
_TSFX = re.compile(r"[.\-_]?t\d+$", re.IGNORECASE)  # e.g. "25.5.T3" internal builds


def parse_ascend(text: str | None) -> Version | None:
    """Parse a CANN or HDK version; None when it is not a version at all."""
    if not text:
        return None
    cleaned = text.strip().lstrip("vV")
    cleaned = _RC.sub(r"rc\1", cleaned)
    cleaned = _ALPHA.sub(r"a\1", cleaned)
    cleaned = _BETA.sub(r"b\1", cleaned)
    cleaned = _TSFX.sub("", cleaned)
    try:
        return Version(cleaned)
    except InvalidVersion:
        return None


def parse_python_pkg(text: str | None) -> Version | None:
    """Parse a Python package version (torch 2.7.1+cpu, torch_npu 2.7.1.post1 ...)."""
    if not text:
        return None
    try:
        return Version(text.strip())
    except InvalidVersion:
        return None


def base(version: Version) -> str:
    """major.minor.patch without pre/post/dev/local parts: how torch pairs with torch_npu."""
    parts = list(version.release) + [0, 0]
    return f"{parts[0]}.{parts[1]}.{parts[2]}"


def minor(version: Version) -> str:
    """major.minor: enough to say two CANN releases belong to the same line."""
    parts = list(version.release) + [0]
    return f"{parts[0]}.{parts[1]}"


def in_range(version: Version, spec: str) -> bool | None:
    """Whether ``version`` satisfies a PEP 440 specifier; None when the spec is bad."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet  # its 4 KB pattern compiles at import: only when a range is checked

    try:
        return SpecifierSet(spec, prereleases=True).contains(Version(version.public))
    except InvalidSpecifier:
        return None

