"""A crashing rule or probe becomes an ARL-X001 finding; the rest of the report stands."""

from __future__ import annotations

from ascendrl.preflight import check
from ascendrl.preflight.engine import Rule, run_rules
from ascendrl.preflight.host import Host
from ascendrl.preflight.model import Area, Fact, Facts, Severity
from ascendrl.preflight.probes import PROBES
from ascendrl.preflight.rules.stack import PythonVersion


class Exploding(Rule):
    id = "ARL-C999"
    title = "explodes"
    severity = Severity.INFO
    area = Area.STACK
    what = why = "test"

    def evaluate(self, facts):
        raise ZeroDivisionError("boom")


def test_rule_crash_becomes_a_finding():
    facts = Facts({"python.version": Fact("3.11.7", "test")})
    report = run_rules([Exploding(), PythonVersion()], facts)
    ids = [f.rule_id for f in report.findings]
    assert ids == ["ARL-X001", "ARL-C001"]
    assert "ZeroDivisionError: boom" in report.findings[0].detail
    assert report.findings[1].status.value == "pass"


def test_probe_crash_becomes_a_finding(tmp_path):
    # A root whose /dev is a file, not a directory, and whose site-packages is unreadable junk:
    # probes must report, not raise.
    (tmp_path / "dev").write_text("not a directory")
    report = check(Host(root=tmp_path, env={}))
    assert {f.rule_id for f in report.findings} >= {"ARL-A001", "ARL-D001"}
    assert all(f.rule_id != "ARL-X001" for f in report.findings), [f.detail for f in report.findings]


def test_probe_registry_wraps_exceptions(monkeypatch):
    def broken(host):
        raise OSError("disk on fire")

    monkeypatch.setitem(PROBES, "env", broken)
    report = check(Host(root=Host().root, env={}))
    internal = [f for f in report.findings if f.rule_id == "ARL-X001"]
    assert internal and "disk on fire" in internal[0].detail
