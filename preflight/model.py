"""The typed vocabulary shared by probes, rules and renderers.

Probes return :class:`Fact` values; rules turn facts into :class:`Finding` values;
renderers only read findings. Nothing here imports rich or the CLI.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator, Mapping
from typing import Any


class Status(str, enum.Enum):
    """Outcome of one rule on one host."""

    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"
    SKIP = "skip"


class Severity(str, enum.Enum):
    """How badly a failing rule hurts a verl GRPO run."""

    CRITICAL = "critical"  # the run cannot start or dies
    ERROR = "error"  # the run fails later or gives wrong results
    WARNING = "warning"  # slower, fragile or unconfirmed
    INFO = "info"  # worth knowing


class Area(str, enum.Enum):
    """Groups findings in the report, in this order."""

    STACK = "stack"
    CANN = "cann"
    DEVICES = "devices"
    RESOURCES = "resources"
    ENV = "env"
    RECIPE = "recipe"
    INTERNAL = "internal"


@dataclasses.dataclass(frozen=True)
class Fact:
    """One thing read from the host.

    ``value`` is None when it could not be read; ``reason`` then says why.
    ``source`` says where it came from (a file, a command, an env var), so the
    report can show it and a user can check it by hand.
    """

    value: Any
    source: str
    reason: str | None = None

    @property
    def known(self) -> bool:
        return self.value is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"value": to_jsonable(self.value), "source": self.source}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def missing(source: str, reason: str) -> Fact:
    """A fact that could not be read, with the reason why."""
    return Fact(None, source, reason)


class Facts(Mapping[str, Fact]):
    """An immutable snapshot of everything the probes read, keyed by dotted name."""

    def __init__(self, items: Mapping[str, Fact]):
        self._items = dict(items)

    def __getitem__(self, key: str) -> Fact:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def value(self, key: str, default: Any = None) -> Any:
        """The value of a fact, or ``default`` when absent or unreadable."""
        fact = self._items.get(key)
        return default if fact is None or fact.value is None else fact.value

    def get_fact(self, key: str) -> Fact:
        """The fact, or a missing fact saying no probe produced it."""
        fact = self._items.get(key)
        return fact if fact is not None else missing("-", f"no probe produced {key!r}")

    def to_json(self) -> dict[str, Any]:
        return {key: fact.to_json() for key, fact in sorted(self._items.items())}


@dataclasses.dataclass(frozen=True)
class Finding:
    """What one rule concluded: a status, the facts it used, why, and what to do."""

    rule_id: str
    status: Status
    severity: Severity
    area: Area
    title: str
    detail: str
    why: str = ""
    fix: str = ""
    fix_id: str | None = None
    facts: Mapping[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.rule_id,
            "status": self.status.value,
            "severity": self.severity.value,
            "area": self.area.value,
            "title": self.title,
            "detail": self.detail,
            "why": self.why,
            "fix": self.fix,
            "fix_id": self.fix_id,
            "facts": {k: to_jsonable(v) for k, v in self.facts.items()},
        }


@dataclasses.dataclass(frozen=True)
class Report:
    """All findings of one ``check`` plus the facts behind them."""

    facts: Facts
    findings: tuple[Finding, ...]

    def counts(self) -> dict[str, int]:
        counts = {status.value: 0 for status in Status}
        for finding in self.findings:
            counts[finding.status.value] += 1
        return counts

    @property
    def failed(self) -> bool:
        return any(f.status is Status.FAIL for f in self.findings)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "facts": self.facts.to_json(),
            "findings": [f.to_json() for f in self.findings],
            "summary": self.counts(),
        }


def to_jsonable(value: Any) -> Any:
    """Turn dataclasses, tuples and enums inside fact values into JSON types."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    return value
