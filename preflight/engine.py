"""The rule engine: a rule is a small named class; the engine runs rules over facts.

A rule never prints and never raises to the user: a crash inside one becomes an
``ARL-X001`` finding and the report goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

from .model import Area, Facts, Finding, Report, Severity, Status

RULE_ID = re.compile(r"^ARL-[A-Z]\d{3}$")


class Rule:
    """Base of every preflight rule.

    Subclasses set the class attributes (``what``/``why``/``fix`` are the rule's docs,
    shown by ``check --rule ID``) and implement :meth:`evaluate`.
    """

    id: ClassVar[str]
    title: ClassVar[str]
    severity: ClassVar[Severity]
    area: ClassVar[Area]
    what: ClassVar[str]
    why: ClassVar[str]
    fix: ClassVar[str] = ""
    fix_id: ClassVar[str | None] = None
    sources: ClassVar[tuple[str, ...]] = ()

    def evaluate(self, facts: Facts) -> Iterable[Finding]:
        raise NotImplementedError

    # Helpers so a rule body reads as its verdicts.
    def _finding(self, status: Status, detail: str, fix: str | None, facts: dict[str, Any]) -> Finding:
        return Finding(
            rule_id=self.id,
            status=status,
            severity=self.severity,
            area=self.area,
            title=self.title,
            detail=detail,
            why=self.why,
            fix="" if status in (Status.PASS, Status.SKIP) else (fix if fix is not None else self.fix),
            fix_id=self.fix_id if status in (Status.FAIL, Status.WARN) else None,
            facts=facts,
        )

    def passed(self, detail: str, **facts: Any) -> Finding:
        return self._finding(Status.PASS, detail, None, facts)

    def warn(self, detail: str, *, fix: str | None = None, **facts: Any) -> Finding:
        return self._finding(Status.WARN, detail, fix, facts)

    def fail(self, detail: str, *, fix: str | None = None, **facts: Any) -> Finding:
        return self._finding(Status.FAIL, detail, fix, facts)

    def skip(self, reason: str, **facts: Any) -> Finding:
        return self._finding(Status.SKIP, reason, None, facts)


class InternalError(Rule):
    id = "ARL-X001"
    title = "ascendrl itself failed on part of the check"
    severity = Severity.WARNING
    area = Area.INTERNAL
    what = "Reports a probe or rule of ascendrl that crashed, so the rest of the report still stands."
    why = "A crashed check cannot vouch for what it was meant to check."
    fix = "Please report it with `ascendrl check --json` output attached."


def internal_error(where: str, exc: BaseException) -> Finding:
    import traceback  # only for a crash: linecache and tokenize come with it

    detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return InternalError().warn(f"{where} crashed: {detail}")


def run_rules(rules: Sequence[Rule], facts: Facts) -> Report:
    """Evaluate every rule, in order; crashes and crashed probes become findings."""
    findings: list[Finding] = []
    for key, fact in facts.items():
        if key.startswith("probe.") and fact.reason:
            findings.append(InternalError().warn(f"{key[len('probe.'):]} probe {fact.reason}"))
    for rule in rules:
        try:
            findings.extend(_checked(rule, rule.evaluate(facts)))
        except Exception as exc:
            findings.append(internal_error(f"rule {rule.id}", exc))
    return Report(facts=facts, findings=tuple(findings))


def _checked(rule: Rule, produced: Iterable[Finding] | Finding | None) -> Iterator[Finding]:
    if produced is None:
        return
    if isinstance(produced, Finding):
        produced = (produced,)
    for finding in produced:
        if finding.rule_id != rule.id:
            raise ValueError(f"rule {rule.id} produced a finding for {finding.rule_id}")
        yield finding
