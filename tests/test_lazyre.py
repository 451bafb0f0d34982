"""The lazy patterns' substring gate: it must answer exactly as the compiled pattern would."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import re
from re import _constants as C  # noqa: N812 - the parser's opcodes
from re import _parser

import pytest

from ascendrl import lazyre
from ascendrl.lazyre import GATED_CALLS, LazyPattern, ignores_case, lazy, required_literals, top_level_branches


@pytest.mark.parametrize(
    ("pattern", "flags", "literals"),
    [
        (r"ray\.exceptions\.RayTaskError", 0, ("ray.exceptions.RayTaskError",)),
        (r"^Error executing job with overrides: (.*)$", 0, ("Error executing job with overrides: ",)),
        (r"abc?def", 0, ("def",)),  # c may be absent: "ab" and "def" are the runs, the longer wins
        (r"abcd+ef", 0, ("abcd",)),  # one d at least: the run stops after it
        (r"ab{2,3}cdef", 0, ("cdef",)),
        (r"NPU (?:out of memory|OOM)\. Tried", 0, (". Tried",)),
        (r"[Ee]rror: disk (\d+) full", 0, ("rror: disk ",)),
        (r"foo|barbaz|(?:qu|ux)+ quux", 0, ("foo", "barbaz", " quux")),  # one per alternative
        (r"\b(ENOSPC|EMFILE)\b: ", 0, ("ENOSPC", "EMFILE")),  # a required group's texts, longer than ": "
        (r"\b(?P<code>EZ\d+|EE\d+) (?:x|y)?", 0, ("EZ", "EE")),
        (r"(?:ab|cd)?efg|(?=xyz)h", 0, None),  # an optional group proves nothing; nor does a lookahead
        (r"foo|\d+", 0, None),  # an alternative with no plain text: nothing is certain
        (r"(?i)Out of Memory", 0, ("out of memory",)),  # case-insensitive: lower case, matched against a lowered text
        (r"Out of memory", re.IGNORECASE, ("out of memory",)),
        (r"(?i)Größe", 0, None),  # not ASCII: str.lower is not re's case folding
        (r"out of memory", re.VERBOSE, None),
        (r"\x41BCDEF", 0, None),
        (r"(?#note)abcdef", 0, None),
        (r"a.b", 0, None),  # runs of one character are no gate
        (r"(?s)Traceback \(most recent call last\):", 0, ("Traceback (most recent call last):",)),
        (r"x[)(|]yz(?=w)|vw", 0, ("yz", "vw")),
        (r"abc(def", 0, None),
        (b"bytes", 0, None),
    ],
)
def test_required_literals(pattern, flags, literals):
    assert required_literals(pattern, flags) == literals


@pytest.mark.parametrize(
    ("pattern", "branches"),
    [(r"a|b(c|d)|[|]|\|", ["a", "b(c|d)", "[|]", "\\|"]), (r"[]|]x|y", ["[]|]x", "y"]), (r"(a|b", None), (r"a)|b", None)],
)
def test_top_level_branches(pattern, branches):
    assert top_level_branches(pattern) == branches


def _top_level_runs(pattern: str, flags: int) -> list[str]:
    """Independently of the scanner: the contiguous literal runs of the parsed pattern's top level."""
    runs, run = [], []
    for op, arg in _parser.parse(pattern, flags):
        if op is C.LITERAL:
            run.append(chr(arg))
            continue
        if op in (C.MAX_REPEAT, C.MIN_REPEAT) and arg[0] >= 1 and len(arg[2]) == 1 and arg[2][0][0] is C.LITERAL:
            run.append(chr(arg[2][0][1]))  # "b+": one b is certain, then the run stops
        runs.append("".join(run))
        run = []
    runs.append("".join(run))
    return runs


def _all_lazy_patterns() -> list[LazyPattern]:
    import ascendrl
    import ascendrl.catalog

    for package in (ascendrl, ascendrl.catalog):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)
    return [obj for obj in gc.get_objects() if isinstance(obj, LazyPattern)]


def test_every_shipped_lazy_pattern_gets_literals_its_parse_confirms():
    """Where the gate is a plain run of the pattern, re's own parser finds that run at the top level."""
    patterns = _all_lazy_patterns()
    assert len(patterns) > 200
    gated = runs_checked = 0
    for p in patterns:
        literals = required_literals(*p._args)
        if literals is None:
            continue
        gated += 1
        source, flags = p._args
        if source.startswith("(?") and ")" in source and set(source[2 : source.index(")")]) <= set("aimsuL"):
            flags |= re.IGNORECASE if "i" in source[2 : source.index(")")] else 0
            source = source[source.index(")") + 1 :]
        branches = top_level_branches(source)
        assert branches is not None
        if len(branches) != len(literals):
            continue  # a group's texts stand in for some alternative: the corpus test below covers it
        for branch, literal in zip(branches, literals):
            runs = _top_level_runs(branch, flags)
            runs = [run.lower() for run in runs] if ignores_case(*p._args) else runs
            if any(literal in run for run in runs):
                runs_checked += 1
    assert gated > len(patterns) // 2  # the gate is worth having: most patterns have one
    assert runs_checked > gated // 2


def test_every_match_in_the_golden_logs_holds_one_of_its_patterns_texts():
    """The gate's claim, on real text: whatever a shipped pattern matches in the golden logs contains one of its texts."""
    from pathlib import Path

    root = Path(__file__).parent / "explain"
    corpus = "\n".join(p.read_text(encoding="utf-8", errors="replace") for folder in ("cases", "derived")
                       for p in sorted((root / folder).rglob("*.log")))
    matched = 0
    for p in _all_lazy_patterns():
        literals = required_literals(*p._args)
        if literals is None:
            continue
        fold = ignores_case(*p._args)
        for m in re.compile(*p._args).finditer(corpus):
            text = m.group(0)
            if fold and not text.isascii():
                continue
            text = text.lower() if fold else text
            assert any(lit in text for lit in literals), (p._args, literals, m.group(0))
            matched += 1
    assert matched > 1000


def test_gated_answers_equal_the_compiled_ones():
    texts = ["", "nothing here", "Error executing job with overrides: ['a=1']", "x Error executing job with overrides: \n",
             "ERROR executing job with overrides: []"]
    source = r"Error executing job with overrides: (.*)"
    for method in ("search", "match", "fullmatch", "findall"):
        for text in texts:
            want = getattr(re.compile(source), method)(text)
            got = getattr(lazy(source), method)(text)
            if method == "findall":
                assert got == want
            else:
                assert (got and got.group(0)) == (want and want.group(0)), (method, text)
    assert list(lazy(source).finditer("nothing")) == []
    assert [m.group(1) for m in lazy(source).finditer("Error executing job with overrides: x")] == ["x"]


def test_gate_compiles_only_when_the_literal_turns_up():
    pattern = lazy(r"Ray banner: (\d+) nodes")
    assert pattern.search("RuntimeError: call aclnnMatmul failed") is None
    assert "flags" not in vars(pattern)  # still not compiled: the substring test answered
    assert pattern.search("Ray banner: 4 nodes").group(1) == "4"
    assert "flags" in vars(pattern) and isinstance(vars(pattern)["search"], type(re.compile("").search))


def test_a_long_stream_ends_up_on_the_compiled_pattern():
    pattern = lazy(r"never present text")
    for _ in range(GATED_CALLS):
        assert pattern.search("a line") is None
    assert "flags" not in vars(pattern)
    assert pattern.search("a line") is None
    assert "flags" in vars(pattern)  # after GATED_CALLS misses the hot path is the compiled method


def test_case_insensitive_gate_leaves_non_ascii_texts_to_re():
    pattern = lazy(r"(?i)ITEM number")
    assert pattern.search("an item NUMBER") is not None  # present in another case: compiled and matched
    for text in ("İtem number", "ıtem number"):  # re folds these to "item"; str.lower does not
        assert lazy(r"(?i)ITEM number").search(text) is not None
        assert lazy(r"ITEM number", re.I).search(text) is not None
    assert lazy(r"ITEM number", re.I).search("other text") is None


def test_non_text_arguments_still_fail_as_compiled_patterns_do():
    with pytest.raises(TypeError):
        lazy(r"abc def").search(b"bytes")
    with pytest.raises(re.error):
        lazyre.lazy(r"abc(def").search("abc(def")
