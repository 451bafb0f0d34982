"""Paste-size shortcuts answer as the general path does: the word-prefix table, the line-by-line scan.

The word-prefix table's groups only decide which prefixes are compiled for a text; a prefix left out
must be one that cannot match all of it: checked against one RE2 set of every prefix, on the dev logs'
lines cut after each word. A paste-size block is scanned line by line: checked against the combined
scan on every dev log.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.catalog import load_catalog
from ascendrl.catalog import classify

re2 = pytest.importorskip("re2")
DEV = Path(__file__).parent / "realworld" / "dev"


def _reference(items):
    options = re2.Options()
    options.log_errors = False
    options.max_mem = classify.RE2_MAX_MEM
    whole = re2.Set.FullMatchSet(options)
    index = {}
    for i, (pattern, _, _) in enumerate(items):
        try:
            index[whole.Add(pattern.encode())] = i
        except Exception:  # a cut that does not parse: left out there too
            continue
    whole.Compile()

    def first(text):
        found = [index[k] for k in whole.Match(text.encode()) or ()]
        return items[min(found)][1:] if found else None
    return first


def test_groups_answer_as_one_set_of_every_prefix():
    catalog = load_catalog()
    items = [(rx, e, s) for e in catalog.entries for s in e.signatures for rx in classify._word_prefixes(s.regex)]
    heads, first = classify._WordHeads(items), _reference(items)
    assert any(isinstance(key, tuple) for key in heads._groups)  # the literal-start groups exist
    texts = set()
    for log in sorted(DEV.glob("*.log")):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            words = line.strip().split(" ")
            texts.update(" ".join(words[:k]) for k in range(3, min(len(words), 24) + 1))
    texts = sorted(t for t in texts if len(t) >= 16)
    matched = 0
    for text in texts:
        want = first(text)
        assert heads.first_full_match(text) == want, text
        matched += want is not None
    assert matched >= 50  # the comparison saw real matches, not only misses


def test_a_fresh_table_gated_by_literals_answers_as_one_set_of_every_prefix():
    """Each group compiles only the prefixes whose required literals a text holds (gatedset.py): a table that has seen
    one text only is the gated one; the table above has seen thousands and compiled its groups whole."""
    from ascendrl.catalog import gatedset

    catalog = load_catalog()
    items = [(rx, e, s) for e in catalog.entries for s in e.signatures for rx in classify._word_prefixes(s.regex)]
    groups, literals = classify._word_groups([p for p, _, _ in items]), gatedset.member_literals([p for p, _, _ in items])
    first = _reference(items)
    texts = set()
    for log in sorted(DEV.glob("*.log"))[::3]:
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines()[4:]:
            words = line.strip().split(" ")
            texts.update(" ".join(words[:k]) for k in range(3, min(len(words), 12) + 1))
    matched = 0
    for text in sorted(t for t in texts if len(t) >= 16)[::4]:
        heads = classify._WordHeads(items, groups, literals)
        want = first(text)
        assert heads.first_full_match(text) == want, text
        assert not any(g.whole for g in heads._compiled.values() if len(g.members) > 64), text
        matched += want is not None
    assert matched >= 20


def test_a_paste_scanned_line_by_line_gives_the_lines_the_block_scan_gives():
    # A block up to SMALL_BLOCK is tested line by line (an RE2 set of the scan's patterns), a larger
    # one with the combined scan: both must name the same candidate lines of every dev log.
    from ascendrl.catalog.normalize import strip_escapes

    matcher = classify._Matcher(load_catalog().entries)
    total = 0
    for log in sorted(DEV.glob("*.log")):
        block = strip_escapes(log.read_bytes())
        by_line = list(matcher.candidate_lines(block, by_line=True))
        by_scan = list(matcher.candidate_lines(block, by_line=False))
        assert by_line == by_scan, log.name
        total += len(by_line)
    assert total > 500  # the comparison saw real candidate lines


def test_one_set_names_the_same_signatures_as_a_set_of_the_signatures_alone():
    """The per-line set also holds prefilter-only patterns; a hit on one of them is never reported as a signature."""
    catalog = load_catalog()
    matcher = classify._Matcher(catalog.entries)
    options = re2.Options()  # as _Matcher sets them
    options.log_errors = False
    options.max_mem = classify.RE2_MAX_MEM
    alone = re2.Set.SearchSet(options)
    for _, sig in matcher.owners:
        alone.Add(sig.regex.encode())
    alone.Compile()
    lines = set()
    for log in sorted(DEV.glob("*.log")):
        lines.update(line.strip() for line in log.read_text(encoding="utf-8", errors="replace").splitlines()[4:])
    named = 0
    for line in sorted(lines):
        want = [matcher.owners[i] for i in sorted(alone.Match(line.encode("utf-8", "replace")) or ())]
        assert matcher.entries_in(line) == want, line
        named += bool(want)
    assert named >= 100  # real hits were compared, not only misses
