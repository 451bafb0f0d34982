"""The registry of preflight rules: an explicit, ordered list, grouped by area."""

from __future__ import annotations

from ..engine import RULE_ID, InternalError, Rule
from . import cann, devices, env, recipe, resources, stack, verl

RULE_CLASSES: tuple[type[Rule], ...] = (
    *stack.RULES,
    *verl.RULES,
    *cann.RULES,
    *devices.RULES,
    *resources.RULES,
    *env.RULES,
    *recipe.RULES,
)


def all_rules() -> list[Rule]:
    """One instance of every rule, in report order."""
    return [cls() for cls in RULE_CLASSES]


def rule_by_id(rule_id: str) -> Rule | None:
    from .cluster import RULES as CLUSTER_RULES  # `check --cluster` rules, documented by `check --rule` too

    for cls in (*RULE_CLASSES, *CLUSTER_RULES, InternalError):
        if cls.id == rule_id.upper():
            return cls()
    return None


def _validate() -> None:
    seen: set[str] = set()
    for cls in RULE_CLASSES:
        if not RULE_ID.match(cls.id):
            raise ValueError(f"bad rule id {cls.id!r} on {cls.__name__}")
        if cls.id in seen:
            raise ValueError(f"duplicate rule id {cls.id}")
        seen.add(cls.id)


_validate()
