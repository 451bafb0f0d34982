"""Golden tests of the cluster rules from per-node fixture documents (cases.yml)."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

from ascendrl.preflight.cluster import report_from
from ascendrl.preflight.rules.cluster import RULES

CASES = yaml.safe_load((Path(__file__).parent / "cases.yml").read_text())


def node_doc(name: str, change: dict) -> dict:
    """The base node document with a case's changes, under node id ``name``."""
    doc = copy.deepcopy(CASES["base"])
    doc.update(node_id=name, address=f"10.0.0.{ord(name) - 96}")
    result = doc["result"]
    for key in ("env", "interfaces", "paths"):
        if key in change:
            result[key] = change[key]
    if "hccl" in change:
        result["hccl"] = {**result["hccl"], **change["hccl"]}
    for key in ("resources", "clock", "listen", "reach", "reach_error"):
        if key in change:
            doc[key] = change[key]
    result["check"]["facts"].update(change.get("facts", {}))
    if "findings" in change:
        result["check"]["findings"] = change["findings"]
    if "check" in change:
        result["check"] = change["check"]
    if "error" in change:
        result["error"] = change["error"]
    if "driver_error" in change:
        doc["error"], doc["result"] = change["driver_error"], None
    return doc


@pytest.mark.parametrize("name", sorted(CASES["cases"]))
def test_case(name):
    case = CASES["cases"][name]
    doc = {"nodes": [node_doc(n, change) for n, change in case["nodes"].items()]}
    report = report_from(doc, n_gpus_per_node=case.get("n_gpus_per_node"))
    by_id = {}
    for f in report.findings:
        by_id.setdefault(f.rule_id, []).append(f)
    for rule_id, status in case["expect"].items():
        statuses = {f.status.value for f in by_id[rule_id]}
        assert status in statuses, (rule_id, [f.detail for f in by_id[rule_id]])
        if status in ("fail", "warn"):
            detail = " ".join(f.detail for f in by_id[rule_id] if f.status.value == status) + " ".join(f.fix for f in by_id[rule_id])
            for odd in case.get("names", []):
                assert re.search(rf"\b{odd} \(10\.0\.0\.\d\)", detail), detail
            normal = {n for n in case["nodes"]} - set(case.get("names", []))
            for other in normal if case.get("names") else ():
                assert f"{other} (10.0.0." not in detail, detail
            if "detail" in case:
                assert case["detail"] in detail


def test_rules_are_documented_and_sourced():
    ids = [cls.id for cls in RULES]
    assert len(ids) == len(set(ids)) and all(re.match(r"^ARL-K\d{3}$", i) for i in ids)
    for cls in RULES:
        assert all(len(getattr(cls, f)) > 10 for f in ("title", "what", "why", "fix")), cls.id
        assert cls.sources and all(s.startswith("https://") for s in cls.sources)


def test_a_crashing_rule_is_a_finding_not_a_crash():
    doc = {"nodes": [node_doc("a", {"clock": {"offset_s": "x", "rtt_s": 1}}), node_doc("b", {})]}
    report = report_from(doc)
    assert any(f.rule_id == "ARL-X001" and "ARL-K009" in f.detail for f in report.findings)
    assert len(report.to_json()["nodes"]) == 2


def test_no_npu_table_anywhere_is_a_skip_not_a_pass():
    gone = {"facts": {"npu_smi.info": {"value": None}}}
    report = report_from({"nodes": [node_doc("a", gone), node_doc("b", gone)]})
    assert [f.status.value for f in report.findings if f.rule_id in ("ARL-K004", "ARL-K005")] == ["skip", "skip"]
