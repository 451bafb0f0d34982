"""A regular expression compiled on first use, for module-level patterns that most runs never use.

Compiling Python's ``re`` patterns at import was a third of ``explain``'s start-up on a one-line
paste; most of those patterns serve lines a short paste does not have (Ray banners, process
deaths, pprinted configs). ``lazy(...)`` stands in for ``re.compile(...)``: same methods, compiled once.

Even on first use most patterns do not match: an analyzer asks a one-line paste about a Ray banner
it does not hold. So a pattern with plain text that every match must contain (``required_literals``)
answers its first searches with a substring test, and compiles only once that text turns up (or
after ``GATED_CALLS`` misses, so a long stream runs the compiled pattern as before). The answers
are the same: a text without the required literal cannot match. Those texts are worked out once
and remembered in the cache folder (``remembered_literals``), not again in every process.
"""

from __future__ import annotations

import atexit
import re
from typing import Any
from . import cache

cache.imported(__file__)  # own_source keys by the text this process runs

GATED_CALLS = 256  # misses answered by the substring test before compiling anyway
MEMO_LIMIT = 4096  # patterns whose literals are remembered across processes (the shipped code uses a few hundred)
_EMPTY = {"search": lambda: None, "match": lambda: None, "fullmatch": lambda: None, "findall": list, "finditer": lambda: iter(())}
_ATTRS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "pattern", "flags", "groups", "groupindex")
_FLAG_LETTERS = set("aiLmsux")


def required_literals(pattern: Any, flags: int = 0) -> tuple[str, ...] | None:
    """Plain texts of which every match of ``pattern`` contains at least one, or None when none is certain.

    One text per top-level alternative (``a|b|c``): its longest run of plain characters, or the
    texts of a group it cannot match without (``\\b(ENOSPC|EMFILE)\\b``), whichever is longer.
    Conservative by construction: only characters outside any group or class, not made optional
    by a quantifier, and contiguous in the pattern count. Verbose and byte patterns, octal/hex/named
    escapes and comments give None (no gate), never a wrong text. A case-insensitive pattern's texts
    are lower case, and only ASCII ones count (see ``ignores_case``).
    """
    if not isinstance(pattern, str) or flags & re.VERBOSE:
        return None
    start = 0
    if pattern.startswith("(?") and (close := pattern.find(")")) > 2 and set(pattern[2:close]) <= _FLAG_LETTERS:
        if "x" in pattern[2:close]:
            return None
        start = close + 1
    literals = _alternatives(pattern[start:])
    if literals is None:
        return None
    if ignores_case(pattern, flags):
        if not all(lit.isascii() for lit in literals):
            return None
        literals = tuple(lit.lower() for lit in literals)
    return literals


def ignores_case(pattern: str, flags: int = 0) -> bool:
    """Whether the whole pattern matches case-insensitively (the flag, or a leading ``(?i)``).

    re then also takes non-ASCII letters for ASCII ones ("İtem" for "item", "ſ" for "s"), which
    ``str.lower`` does not reproduce: the gate only answers for an ASCII text, lowered.
    """
    if flags & re.IGNORECASE:
        return True
    close = pattern.find(")") if pattern.startswith("(?") else -1
    return close > 2 and set(pattern[2:close]) <= _FLAG_LETTERS and "i" in pattern[2:close]


def top_level_branches(pattern: str) -> list[str] | None:
    """``pattern`` cut at its top-level ``|`` (not inside a group, a class or after a backslash)."""
    branches, depth, begin = [], 0, 0
    for i, c in _syntax(pattern, 0):
        if c is None:
            return None
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return None
        elif c == "|" and depth == 0:
            branches.append(pattern[begin:i])
            begin = i + 1
    if depth != 0:
        return None
    branches.append(pattern[begin:])
    return branches


def _syntax(pattern: str, i: int):
    """(index, character) of each ``(``, ``)`` and ``|`` from ``i`` on, outside classes and escapes.

    Yields ``(i, None)`` and stops at a class that does not close.
    """
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = _class_end(pattern, i)
            if i < 0:
                yield -1, None
                return
            continue
        if c in "()|":
            yield i, c
        i += 1


def _class_end(pattern: str, i: int) -> int:
    """The index after the character class opening at ``i``, or -1 when it does not close."""
    j, n = i + 1, len(pattern)
    if j < n and pattern[j] == "^":
        j += 1
    if j < n and pattern[j] == "]":
        j += 1
    while j < n and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1 if j < n else -1


def _alternatives(pattern: str) -> tuple[str, ...] | None:
    """Texts of which every match of ``pattern`` (no leading flags) contains one, or None."""
    branches = top_level_branches(pattern)
    if branches is None:
        return None
    found: list[str] = []
    for branch in branches:
        literals = _branch_literals(branch)
        if literals is None:
            return None
        found += [lit for lit in literals if lit not in found]
    return tuple(found)


def _group_end(pattern: str, i: int) -> int:
    """The index of the ``)`` closing the group opened at ``i``, or -1."""
    depth = 0
    for j, c in _syntax(pattern, i):
        if c is None:
            return -1
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _plain_group_body(pattern: str, i: int) -> int:
    """Where the content of the group opened at ``i`` starts, for ``(``, ``(?:`` and ``(?P<name>``;
    -1 for lookarounds, scoped flags, conditionals and back-references, whose content proves nothing."""
    if pattern[i + 1 : i + 2] != "?":
        return i + 1
    if pattern.startswith("?:", i + 1):
        return i + 3
    if pattern.startswith("?P<", i + 1) and (end := pattern.find(">", i)) > 0:
        return end + 1
    return -1


def _branch_literals(branch: str) -> tuple[str, ...] | None:
    """The best texts one alternative cannot match without: its longest plain run, or a required group's texts."""
    best, run, i, n = "", [], 0, len(branch)
    groups: list[tuple[str, ...]] = []

    def end_run() -> None:
        nonlocal best
        if len(run) > len(best):
            best = "".join(run)
        run.clear()

    while i < n:
        c = branch[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            d = branch[i + 1]
            if d.isalnum() or d == "_":  # \d \s \b \1 \x41 \N{…}: not a plain character
                if d in "xuUN0123456789":
                    return None  # an escape that takes more characters: leave the pattern ungated
                end_run()
            else:
                run.append(d)
            i += 2
            continue
        if c == "[":
            end_run()
            i = _class_end(branch, i)
            if i < 0:
                return None
            continue
        if c == "(":
            if branch.startswith("(?#", i):
                return None
            end_run()
            close = _group_end(branch, i)
            if close < 0:
                return None
            body = _plain_group_body(branch, i)
            optional = close + 1 < n and branch[close + 1] in "?*{"
            if body > 0 and not optional:
                inner = _alternatives(branch[body:close])
                if inner is not None:
                    groups.append(inner)
            i = close + 1
            continue
        if c in "*?{+":
            if c != "+" and run:
                run.pop()  # the last character may be absent (or, for {m,n}, counted: keep it out)
            end_run()
            if c == "{":
                close = branch.find("}", i)
                if close < 0 or not all(ch.isdigit() or ch == "," for ch in branch[i + 1 : close]):
                    return None
                i = close
        elif c in ".^$":
            end_run()
        else:
            run.append(c)
        i += 1
    end_run()
    candidates = [(best,), *groups] if best else groups
    candidates = [cand for cand in candidates if cand and min(map(len, cand)) >= 2]
    return max(candidates, key=lambda cand: min(map(len, cand))) if candidates else None


_memo: dict[tuple[int, str], tuple[str, ...] | None] | None = None
_memo_grown = False


def remembered_literals(pattern: Any, flags: int = 0) -> tuple[str, ...] | None:
    """``required_literals``, remembered across processes in the cache folder (ascendrl/cache.py).

    Working them out again in every process cost a one-line ``explain`` more than a tenth of its
    start-up. They depend only on the pattern, its flags and this module's text, which keys the
    file; a file that is absent, damaged or not the user's own only means working them out again.
    """
    global _memo, _memo_grown
    if not isinstance(pattern, str):
        return required_literals(pattern, flags)
    if _memo is None:
        _memo = _read_memo()
    key = (int(flags), pattern)
    if key in _memo:
        return _memo[key]
    literals = required_literals(pattern, flags)
    if len(_memo) < MEMO_LIMIT:
        _memo[key] = literals
        if not _memo_grown:
            _memo_grown = True
            atexit.register(_write_memo)
    return literals


def _memo_key() -> str:
    from . import cache

    return cache.content_key("lazy-literals", cache.own_source(__file__))


def _read_memo() -> dict[tuple[int, str], tuple[str, ...] | None]:
    from . import cache

    rows = cache.read("lazy-literals", _memo_key())
    memo: dict[tuple[int, str], tuple[str, ...] | None] = {}
    if not isinstance(rows, list):
        return memo
    for row in rows:
        if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], int) and isinstance(row[1], str)
                and (row[2] is None or (isinstance(row[2], list) and row[2] and all(isinstance(t, str) and t for t in row[2])))):
            return {}  # not a file this module wrote: work them out again
        memo[(row[0], row[1])] = None if row[2] is None else tuple(row[2])
    return memo


def _write_memo() -> None:
    from . import cache

    if _memo:
        cache.write("lazy-literals", _memo_key(), [[flags, pattern, None if lits is None else list(lits)]
                                                  for (flags, pattern), lits in _memo.items()])


class LazyPattern:
    def __init__(self, pattern: str, flags: int = 0):
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # search, match, fullmatch, finditer, sub, pattern, groups …
        if name.startswith("__") or name in ("_args", "_literal"):
            raise AttributeError(name)
        if name in _EMPTY and "_literal" not in self.__dict__:
            self._literal = remembered_literals(*self._args)
            if self._literal is not None:
                self._install_gates(self._literal, ignores_case(*self._args))
                return getattr(self, name)
        return getattr(self._compile(), name)

    def _compile(self) -> re.Pattern[str]:
        compiled = re.compile(*self._args)
        # Later look-ups are plain instance attributes: no __getattr__ call on the hot path.
        for attr in _ATTRS:
            setattr(self, attr, getattr(compiled, attr))
        return compiled

    def _install_gates(self, literals: tuple[str, ...], fold: bool) -> None:
        misses = 0

        def gated(name: str) -> Any:
            empty = _EMPTY[name]

            def call(*args: Any, **kwargs: Any) -> Any:
                nonlocal misses
                string = args[0] if args else kwargs.get("string")
                if isinstance(string, str) and misses < GATED_CALLS and not (fold and not string.isascii()):
                    text = string.lower() if fold else string
                    if not any(lit in text for lit in literals):
                        misses += 1
                        return empty()
                return getattr(self._compile(), name)(*args, **kwargs)

            return call

        for name in _EMPTY:
            setattr(self, name, gated(name))

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"


def lazy(pattern: str, flags: int = 0) -> Any:
    """A pattern that compiles on first use (typed as Any: it answers every ``re.Pattern`` method)."""
    return LazyPattern(pattern, flags)
