"""A regular expression compiled on first use, for module-level patterns that most runs never use.

Compiling Python's ``re`` patterns at import was a third of ``explain``'s start-up on a one-line
paste; most of those patterns serve lines a short paste does not have (Ray banners, process
deaths, pprinted configs). ``lazy(...)`` stands in for ``re.compile(...)``: same methods, compiled once.
"""

from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    def __init__(self, pattern: str, flags: int = 0):
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # search, match, fullmatch, finditer, sub, pattern, groups …
        if name.startswith("__") or name == "_args":
            raise AttributeError(name)
        compiled = re.compile(*self._args)
        # Later look-ups are plain instance attributes: no __getattr__ call on the hot path.
        for attr in ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "pattern", "flags", "groups", "groupindex"):
            setattr(self, attr, getattr(compiled, attr))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern that compiles on first use (typed as Any: it answers every ``re.Pattern`` method)."""
    return LazyPattern(pattern, flags)
