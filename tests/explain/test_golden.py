"""Every catalog entry has golden logs; each log's top diagnosis is the expected entry; healthy logs stay clean."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths, load_catalog

HERE = Path(__file__).parent
CASES = sorted((HERE / "cases").glob("*/*.log"))
HEALTHY = sorted((HERE / "healthy").glob("*.log"))


@pytest.fixture(scope="module")
def catalog():
    cat = load_catalog(user_dir=HERE / "no-user-catalog")
    assert cat.problems == ()
    return cat


_EXPLAINED: dict[tuple[int, Path], object] = {}


def _explain(catalog, log: Path):
    """explain on one golden log, made once per module run: the per-case test reads every case, and the tests over all
    cases below read them again (explanations are frozen; the module's catalog is one object)."""
    key = (id(catalog), log)
    if key not in _EXPLAINED:
        _EXPLAINED[key] = explain_paths(catalog, [log])
    return _EXPLAINED[key]


@pytest.mark.parametrize("log", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_top_diagnosis(log, catalog):
    expected = log.with_suffix(".expect").read_text().strip()
    result = _explain(catalog, log)
    ranked = [(d.entry.id, d.demoted_by) for d in result.diagnoses]
    assert ranked and ranked[0][0] == expected, ranked
    top = result.diagnoses[0]
    assert top.file == str(log) and top.line >= 1
    line = log.read_text(errors="replace").splitlines()[top.line - 1]
    assert top.excerpt[:40] in line.replace("\x1b", "") or any(
        part in line for part in top.excerpt.split()[:3]
    ), (top.excerpt, line)
    if top.fatal:
        assert result.fatal


@pytest.mark.parametrize("log", HEALTHY, ids=lambda p: p.stem)
def test_healthy_logs_have_no_fatal_diagnosis(log, catalog):
    result = explain_paths(catalog, [log])
    assert not result.fatal, [(d.entry.id, d.excerpt) for d in result.diagnoses if d.fatal] or result.unknown


def test_every_entry_has_a_golden_case(catalog):
    with_cases = {p.parent.name for p in CASES}
    assert {e.id for e in catalog.entries} <= with_cases


def test_at_least_three_cases_per_family(catalog):
    family_of = {e.id: e.family for e in catalog.entries}
    per_family = Counter(family_of[p.parent.name] for p in CASES)
    thin = {family: n for family, n in per_family.items() if n < 3}
    assert not thin, thin
    assert set(per_family) == set(family_of.values())


def test_some_cases_bury_the_cause_under_a_wrapper(catalog):
    buried = 0
    for log in CASES:
        result = _explain(catalog, log)
        if any(d.entry.generic for d in result.diagnoses[1:]):
            last = max(d.line for d in result.diagnoses)
            buried += result.diagnoses[0].line < last
    assert buried >= 15


def test_no_two_specific_entries_name_the_same_failure(catalog):
    """Two entries that each fire on the line of the other's golden case are one failure written twice.

    Entries written in parallel from different threads landed as pairs (GLIBCXX, model_type, TP vs heads …);
    a consequence link between them says the overlap is intended.
    """
    by_id = {e.id: e for e in catalog.entries}
    fires_on: dict[str, set[str]] = {}  # case's entry -> other specific entries matching its top line
    for log in CASES:
        expected = log.with_suffix(".expect").read_text().strip()
        result = _explain(catalog, log)
        top = next((d for d in result.diagnoses if d.entry.id == expected), None)
        if top is None:
            continue
        same_line = {d.entry.id for d in result.diagnoses if d.line == top.line and d.file == top.file}
        fires_on.setdefault(expected, set()).update(i for i in same_line if i != expected and i in by_id and not by_id[i].generic)
    linked = lambda a, b: b in by_id[a].consequences or a in by_id[b].consequences  # noqa: E731
    twice = sorted({tuple(sorted((a, b))) for a, others in fires_on.items() for b in others
                    if a in fires_on.get(b, set()) and not by_id[a].generic and not linked(a, b)})
    assert not twice, twice
