"""Preflight: probes read facts of a host, rules turn them into findings.

This package never imports rich, the CLI, or the heavy training stack.
"""

from __future__ import annotations

from collections.abc import Sequence

from .engine import Rule, run_rules
from .host import Host
from .model import Facts, Report


def check(host: Host, rules: Sequence[Rule] | None = None) -> Report:
    """Probe the host and run the rules over what was found."""
    from .probes import collect
    from .rules import all_rules

    return run_rules(list(rules) if rules is not None else all_rules(), collect(host))


__all__ = ["Facts", "Host", "Report", "Rule", "check", "run_rules"]
