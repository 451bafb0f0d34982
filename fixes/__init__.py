"""Registered auto-fixes (``ascendrl fix``): one small unit per fix, one engine that writes.

Rules name the fix that resolves them (``Rule.fix_id``), and so do catalog entries; a fix
only proposes actions, and ``engine`` journals, writes atomically, re-checks and undoes.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Sequence

from ascendrl.preflight import check
from ascendrl.preflight.host import Host
from ascendrl.preflight.model import Report
from ascendrl.preflight.shellenv import ShellEnv, read_environment

from .model import Applicability, Fix, FixContext, Proposal
from .units import REGISTERED

FIXES: dict[str, Fix] = {fix.id: fix for fix in REGISTERED}


def read_env_file(host: Host, env_file: str | None) -> ShellEnv | None:
    """What sourcing ``env_file`` would export, read without running it (None when there is no such file)."""
    if env_file and os.path.isfile(env_file):
        return read_environment(host, env_file)
    return None


def check_as_run_sees_it(host: Host, env_file: str | None, shell: ShellEnv | None = None) -> Report:
    """Check with the environment a run will have after sourcing ``env_file`` (when it exists)."""
    shell = shell or read_env_file(host, env_file)
    if shell is not None:
        host = dataclasses.replace(host, env=shell.env)
    return check(host)


def npu_holders(host: Host) -> Callable[[], set[int] | None]:
    """Reads npu-smi again when called: the PIDs that hold an NPU now, or None when it cannot be read."""

    def now() -> set[int] | None:
        from ascendrl.preflight.probes.npu_smi import probe_npu_smi

        fact = probe_npu_smi(host).get("npu_smi.info")
        info = getattr(fact, "value", None)
        if info is None or not hasattr(info, "processes"):
            return None
        return {p.pid for p in info.processes}

    return now


def propose(
    report: Report, host: Host, *, data_dir: str | None = None, script: str | None = None, launch=None, forced: Sequence[str] = (),
) -> list[Proposal]:
    """Every registered fix's proposal for the failing and warning findings of ``report``.

    ``launch`` is the --script's verl command (fixes propose only what it needs); ``forced``
    are fix ids asked for by --only whose rule does not fail here.
    """
    ctx = FixContext(host=host, facts=report.facts, findings=report.findings, data_dir=data_dir, script=script, launch=launch, forced=tuple(forced))
    proposals = []
    for fix in REGISTERED:
        proposal = fix.propose(ctx)
        if proposal is not None:
            proposals.append(proposal)
    return proposals


def unknown_ids(ids: Sequence[str]) -> list[str]:
    return [i for i in ids if i not in FIXES]


__all__ = ["FIXES", "Applicability", "Fix", "Proposal", "check_as_run_sees_it", "npu_holders", "read_env_file", "propose", "unknown_ids"]
