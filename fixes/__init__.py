"""Registered auto-fixes (``ascendrl fix``): one small unit per fix, one engine that writes.

Rules name the fix that resolves them (``Rule.fix_id``), and so do catalog entries; a fix
only proposes actions, and ``engine`` journals, writes atomically, re-checks and undoes.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence

from ascendrl.preflight import check
from ascendrl.preflight.host import Host
from ascendrl.preflight.model import Report
from ascendrl.preflight.shellenv import environment_after

from .model import Applicability, Fix, FixContext, Proposal
from .units import REGISTERED

FIXES: dict[str, Fix] = {fix.id: fix for fix in REGISTERED}


def check_as_run_sees_it(host: Host, env_file: str | None) -> Report:
    """Check with the environment a run will have after sourcing ``env_file`` (when it exists)."""
    if env_file and os.path.isfile(env_file):
        host = dataclasses.replace(host, env=environment_after(host, env_file))
    return check(host)


def propose(report: Report, host: Host, *, data_dir: str | None = None) -> list[Proposal]:
    """Every registered fix's proposal for the failing and warning findings of ``report``."""
    ctx = FixContext(host=host, facts=report.facts, findings=report.findings, data_dir=data_dir)
    proposals = []
    for fix in REGISTERED:
        proposal = fix.propose(ctx)
        if proposal is not None:
            proposals.append(proposal)
    return proposals


def unknown_ids(ids: Sequence[str]) -> list[str]:
    return [i for i in ids if i not in FIXES]


__all__ = ["FIXES", "Applicability", "Fix", "Proposal", "check_as_run_sees_it", "propose", "unknown_ids"]
