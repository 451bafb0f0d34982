"""The literal-gated line set answers as the whole set does, and compiles only a few members for a paste.

catalog/gatedset.py compiles, for a short text, only the members whose required literals the text holds. A member
left out must be one that cannot match: checked against the whole set on every line of every dev log and golden case,
the way the classifier asks (a block covered once, then its lines; and single lines, as entries_in asks).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl import cache
from ascendrl.catalog import classify, gatedset, load_catalog
from ascendrl.catalog.normalize import strip_escapes

re2 = pytest.importorskip("re2")
HERE = Path(__file__).parent
LOGS = sorted((HERE / "realworld" / "dev").glob("*.log")) + sorted((HERE / "cases").glob("*/*.log"))


def _options():
    options = re2.Options()
    options.log_errors = False
    options.max_mem = classify.RE2_MAX_MEM
    return options


@pytest.fixture(scope="module")
def members():
    matcher = classify._Matcher(load_catalog().entries)
    assert matcher.engine == "re2"
    return matcher._set.members, gatedset.member_literals(matcher._set.members)


def test_a_covered_block_gives_the_whole_sets_answers_line_by_line(members):
    texts, literals = members
    whole = gatedset.GatedSet(texts, _options(), re2, literals)
    whole.compile_whole()
    compared = hits = 0
    for log in LOGS:
        block = strip_escapes(log.read_bytes())[:classify.SMALL_BLOCK]
        gated = gatedset.GatedSet(texts, _options(), re2, literals)
        gated.cover(block)
        assert not gated.whole or log.stat().st_size > 4096, log.name  # a short log stays gated
        for line in block.split(b"\n"):
            want = sorted(whole.match_covered(line))
            assert sorted(gated.match_covered(line)) == want, (log.name, line[:200])
            compared += 1
            hits += bool(want)
    assert hits > 1000 and compared > 20000  # real matches were compared, not only misses


def test_single_lines_give_the_whole_sets_answers(members):
    texts, literals = members
    whole = gatedset.GatedSet(texts, _options(), re2, literals)
    whole.compile_whole()
    hits = 0
    for log in LOGS[::7]:
        gated = gatedset.GatedSet(texts, _options(), re2, literals)
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines()[:gatedset.GATED_COVERS]:
            data = line.strip().encode("utf-8", "replace")
            want = sorted(whole.match_covered(data))
            assert sorted(gated.match(data)) == want, (log.name, line[:200])
            hits += bool(want)
    assert hits > 100


def test_a_one_line_paste_compiles_a_few_members_only(members):
    texts, literals = members
    gated = gatedset.GatedSet(texts, _options(), re2, literals)
    assert gated.match(b"RuntimeError: call aclnnMatmul failed")  # a signature and the generic prefilter match
    assert not gated.whole
    assert 0 < len(gated._index) < len(texts) // 20


def test_a_stream_of_texts_ends_with_the_whole_set(members):
    texts, literals = members
    gated = gatedset.GatedSet(texts, _options(), re2, literals)
    for n in range(gatedset.GATED_COVERS + 1):
        gated.match(f"INFO step:{n} loss: 0.5".encode())
    assert gated.whole


def test_case_folded_members_are_not_gated_on_a_non_ascii_text():
    # RE2 folds the Kelvin sign to k in a case-insensitive match; bytes.lower() does not, so no gate there.
    texts = ["(?i)kernel launch failed", "plain literal text"]
    literals = ["ikernel launch failed", "=plain literal text"]
    gated = gatedset.GatedSet(texts, _options(), re2, literals)
    assert gated.match("KERNEL LAUNCH FAILED".encode()) == [0]
    assert gated.match("\u212aernel launch failed".encode()) == [0]
    assert gated.match("a plain literal text here".encode()) == [1]
    assert gated.match(b"nothing of either") == []


def test_literals_are_kept_in_the_cache_and_a_damaged_file_is_rebuilt(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("ASCENDRL_NO_CACHE", raising=False)
    texts = [r"ValueError: FRACTAL_NZ mode is enabled\.", r"(?i)no space left on device", r"\d+"]
    first = gatedset.member_literals(texts)
    assert first == ["=ValueError: FRACTAL_NZ mode is enabled.", "ino space left on device", None]
    files = list((tmp_path / "ascendrl").glob("gatedset-*.bin"))
    assert len(files) == 1
    gatedset._MEMO.clear()  # a new process
    files[0].write_bytes(files[0].read_bytes()[:-3])  # truncated
    assert gatedset.member_literals(texts) == first
    gatedset._MEMO.clear()
    files[0].write_bytes(cache.encode(["=a", None]))  # a well-formed file for another member list
    assert gatedset.member_literals(texts) == first
