"""Fixture hosts → exact finding statuses (cases.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ascendrl.preflight import check

CASES = yaml.safe_load((Path(__file__).parent / "cases.yaml").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case, host_factory):
    report = check(host_factory(**case))
    got = {f.rule_id: f.status.value for f in report.findings}
    expected = case["expect"]
    mismatched = {rid: (want, got.get(rid)) for rid, want in expected.items() if got.get(rid) != want}
    details = {f.rule_id: f.detail for f in report.findings if f.rule_id in mismatched}
    assert not mismatched, f"(expected, got): {mismatched}\n{details}"
    assert "ARL-X001" not in got, [f.detail for f in report.findings if f.rule_id == "ARL-X001"]


def test_every_rule_is_exercised_by_a_case():
    from ascendrl.preflight.rules import RULE_CLASSES

    named = {rid for case in CASES for rid in case["expect"]}
    # Disk floors depend on this machine's free space; test_resources.py covers them with fixed facts.
    covered_elsewhere = {"ARL-R002", "ARL-R003", "ARL-R004"}
    # Recipe lint rules need the real verl: tests/recipes/test_lint.py exercises each of them.
    lint_tests = (Path(__file__).parents[1] / "recipes" / "test_lint.py").read_text()
    lint_ids = {cls.id for cls in RULE_CLASSES if cls.id.startswith("ARL-L")}
    assert {rid for rid in lint_ids if f'"{rid}"' not in lint_tests} == set()
    assert {cls.id for cls in RULE_CLASSES} - named - covered_elsewhere - lint_ids == set()


def test_dcmi_error_names_the_likely_reason(host_factory):
    report = check(host_factory(npu_smi="dcmi-error"))
    d001 = next(f for f in report.findings if f.rule_id == "ARL-D001")
    assert "dcmi module initialize failed. ret is -8005" in d001.detail
    assert "Reboot" in d001.fix


def test_hung_npu_smi_is_named(host_factory):
    report = check(host_factory(npu_smi="hang", timeout=1))
    d001 = next(f for f in report.findings if f.rule_id == "ARL-D001")
    assert "did not finish in time" in d001.detail
