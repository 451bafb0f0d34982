"""An RE2 set of the catalog's line patterns that, for a short text, compiles only the members that text could match.

Compiling the whole per-line set (every signature and prefilter pattern, about 2,100 of them) was a third of a one-line
``explain`` (callgrind: RE2's Set::Compile 387 M of 1,247 M instructions). A pattern can only match a text that holds
one of its required literals (lazyre.required_literals: one plain text per top-level alternative), so a short paste
needs the few members whose literals it holds, plus the members with no certain literal. Those are compiled as a small
set; a later text that needs more grows it, and once texts keep coming (a streamed log, a large file) the whole set is
compiled once and the gate steps aside. The answers are the same as the whole set's: tests/explain/test_gatedset.py
compares them on every line of every development log and golden case (test_paste_paths.py, the word-prefix groups').

The literals of every member are worked out once per catalog and kept in the parsed-data cache (ascendrl/cache.py):
working them out costs more than the compile they save.
"""

from __future__ import annotations

from typing import Any

from .. import cache, lazyre

cache.imported(__file__)  # own_source keys by the text this process runs

GATED_COVERS = 64  # texts answered through the gate before compiling the whole set anyway (a stream, not a paste)
WHOLE_SHARE = 0.5  # once the gate has let this share of the members in, the whole set costs no more


# A member's required literals as kept in the cache: None (no certain literal), or one string, "i" (lowered for a
# case-insensitive match) or "=" (exact) and then the literals joined by NUL. A string, not lists: the cached files
# hold thousands of rows, and lists are objects the cyclic collector keeps walking while they load.
Row = str | None


def literal_row(pattern: str) -> Row:
    """A pattern's required literals as a cache row (see Row)."""
    literals = lazyre.required_literals(pattern)
    if literals is None or any("\0" in lit for lit in literals):
        return None
    return ("i" if lazyre.ignores_case(pattern) else "=") + "\0".join(literals)


def member_literals(members: list[str]) -> list[Row]:
    """Per member, its cache row (see Row): kept in the cache under a key of the members."""
    key = cache.content_key("gatedset", cache.own_source(lazyre.__file__), cache.own_source(__file__), *members)
    if (rows := _MEMO.get(key)) is not None:
        return rows

    def load(data: list[Any]) -> list[Row]:
        if len(data) != len(members) or not all(row is None or (isinstance(row, str) and row[:1] in ("i", "=")) for row in data):
            raise ValueError("cached literals are for another member list")
        return data

    if len(_MEMO) >= 8:  # a scorer or a test builds many catalogs, one after another
        _MEMO.clear()
    rows = _MEMO[key] = cache.cached("gatedset", key, lambda: [literal_row(pattern) for pattern in members], load)
    return rows


_MEMO: dict[str, list[Row]] = {}  # member_literals per key, within a process (one Classifier per input file)


class GatedSet:
    """Which members of a pattern list match a text (RE2 set semantics), compiling only what the texts seen need."""

    def __init__(self, members: list[str], options: Any, re2_module: Any,
                 literals: list[Row] | None = None, full_match: bool = False):
        self.members = list(members)
        self._members = [m.encode() for m in members]
        self._options = options
        self._re2 = re2_module
        self._full_match = full_match  # a full-match set (the word-prefix table), not a search set
        self._always: set[int] = set()  # members with no certain literal: compiled for every text
        self._folded: set[int] = set()  # members matched case-insensitively: any of them may match a non-ASCII text
        self._by_literal: dict[bytes, list[int]] = {}
        self._by_folded: dict[bytes, list[int]] = {}
        for i, row in enumerate(member_literals(members) if literals is None else literals):
            if row is None:
                self._always.add(i)
                continue
            folded = row[0] == "i"
            if folded:
                self._folded.add(i)
            for literal in row[1:].split("\0"):
                (self._by_folded if folded else self._by_literal).setdefault(literal.encode("utf-8"), []).append(i)
        self._in: set[int] = set()  # members the compiled set holds
        self._set: Any = None
        self._index: dict[int, int] = {}  # compiled position -> member index (a member RE2 cannot parse has none)
        self._covers = 0
        self.whole = False  # the compiled set holds every member

    def match(self, text: bytes) -> list[int]:
        """The member indices that match somewhere in ``text`` (one line), in no set order."""
        self.cover(text)
        return self.match_covered(text)

    def match_covered(self, text: bytes) -> list[int]:
        """As match, for a text inside one already passed to cover (a line of a covered block)."""
        if self._set is None:
            return []
        return [self._index[h] for h in self._set.Match(text) or ()]

    def cover(self, text: bytes) -> None:
        """Make sure the compiled set holds every member that could match in ``text``."""
        if self.whole:
            return
        self._covers += 1
        if self._covers > GATED_COVERS:
            self.compile_whole()
            return
        needed = set(self._always)
        for literal, owners in self._by_literal.items():
            if literal in text:
                needed.update(owners)
        if self._by_folded:
            if text.isascii():
                lowered = text.lower()
                for literal, owners in self._by_folded.items():
                    if literal in lowered:
                        needed.update(owners)
            else:  # RE2 folds some non-ASCII letters to ASCII ones (K for the Kelvin sign): no gate for those members
                needed |= self._folded
        if needed <= self._in and self._set is not None:
            return
        self._in |= needed
        if len(self._in) >= WHOLE_SHARE * len(self._members):
            self.compile_whole()
            return
        self._set, self._index = self._compile(sorted(self._in))

    def compile_whole(self) -> None:
        """Compile every member (a large or streamed input: the gate's substring tests would cost more than they save)."""
        if not self.whole:
            self._in = set(range(len(self._members)))
            self._set, self._index = self._compile(range(len(self._members)))
            self.whole = True

    def _compile(self, indices: Any) -> tuple[Any, dict[int, int]]:
        """(an RE2 set of these members, or None if none parses; its positions' member indices)."""
        compiled = (self._re2.Set.FullMatchSet if self._full_match else self._re2.Set.SearchSet)(self._options)
        index: dict[int, int] = {}
        for i in indices:
            try:
                index[compiled.Add(self._members[i])] = i
            except Exception:  # re2 raises its own error type for a pattern it cannot parse (a word-prefix cut)
                continue
        if not index:
            return None, {}
        compiled.Compile()
        return compiled, index
