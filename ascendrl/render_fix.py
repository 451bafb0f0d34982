"""Renderers for `ascendrl fix`: the plan (dry run), the outcome (before → after), undo."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ascendrl.fixes.engine import ApplyResult, Plan, summary_changes
from ascendrl.fixes.model import Instruction, MakeDir, Proposal, SetEnv, SetOverride, SourceScript, StopProcess
from ascendrl.preflight.model import Report


def _action(action: Any) -> str:
    if isinstance(action, SetEnv):
        return f"export {action.name}={action.value}"
    if isinstance(action, SetOverride):
        return f"{action.key}={action.value} on the script's verl command"
    if isinstance(action, SourceScript):
        return f"source {action.path}"
    if isinstance(action, MakeDir):
        return f"mkdir -p {action.path}"
    if isinstance(action, StopProcess):
        return f"stop PID {action.pid} ({action.name}): {action.cmdline}"
    if isinstance(action, Instruction):
        return action.text
    return str(action)


def _proposal_lines(p: Proposal, report: Report) -> list[str]:
    details = {f.rule_id: f.detail for f in report.findings}
    lines = [f"  {p.fix_id} [{p.applicability.value}] {p.title}"]
    lines += [f"      resolves {rid}: {details.get(rid, '')}" for rid in p.resolves]
    lines += [f"      - {_action(a)}" for a in p.actions]
    return lines


def unfixed(plan: Plan, report: Report) -> list[Any]:
    """Failing findings whose rule names no registered fix and that no proposal answers: only a person can fix them."""
    answered = {rid for p in (*plan.proposals, *plan.manual, *plan.hidden_unsafe) for rid in p.resolves}
    return [f for f in report.findings if f.status.value == "fail" and not f.fix_id and f.rule_id not in answered]


def unfixed_lines(plan: Plan, report: Report) -> list[str]:
    left = unfixed(plan, report)
    if not left:
        return []
    out = ["", f"{len(left)} failure{'s' if len(left) != 1 else ''} {'have' if len(left) != 1 else 'has'} no automatic fix:"]
    for f in left:
        out.append(f"  {f.rule_id} {f.title}: {f.detail}")
        out.append(f"      fix by hand: {f.fix or f'see `ascendrl check --rule {f.rule_id}`'}")
    return out


def unfixed_json(plan: Plan, report: Report) -> list[dict[str, Any]]:
    return [{"id": f.rule_id, "title": f.title, "detail": f.detail, "fix": f.fix} for f in unfixed(plan, report)]


def plan_text(plan: Plan, report: Report) -> str:
    out: list[str] = []
    if not (plan.proposals or plan.manual or plan.hidden_unsafe):
        return "\n".join(["Nothing to fix automatically: no failing or warning finding has a registered fix.", *unfixed_lines(plan, report)])
    if plan.proposals:
        out.append("Would apply (dry run; add --apply):")
        for p in plan.proposals:
            out += _proposal_lines(p, report)
    if plan.changes:
        out.append("")
        for change in plan.changes:
            out.append(change.diff().rstrip("\n"))
    elif plan.proposals and plan.empty:
        out += ["", "Everything these fixes would write is already in place."]
    if plan.hidden_unsafe:
        out += ["", f"{len(plan.hidden_unsafe)} unsafe fix(es) hidden; add --unsafe to include them:"]
        for p in plan.hidden_unsafe:
            out += _proposal_lines(p, report)
    if plan.manual:
        out += ["", "Manual steps (nothing inside this shell can do them):"]
        for p in plan.manual:
            out += _proposal_lines(p, report)
    return "\n".join(out + unfixed_lines(plan, report))


def unresolved_text(target: str, unresolved: Sequence[str], limit: int = 20) -> str:
    """What reading ``target`` (never running it) could not determine."""
    out = [f"Read {target} without running it; not determined (the check assumes these are as they were):"]
    out += [f"  {line}" for line in unresolved[:limit]]
    if len(unresolved) > limit:
        out.append(f"  … and {len(unresolved) - limit} more (see --json)")
    return "\n".join(out)


def plan_json(plan: Plan, report: Report, unresolved: Sequence[str] = ()) -> str:
    doc = {"schema": 1, "mode": "dry-run", "plan": plan.to_json(), "unresolved": list(unresolved), "no_automatic_fix": unfixed_json(plan, report)}
    return json.dumps(doc, indent=2)


def _outcome(plan: Plan, before: Report, after: Report) -> list[tuple[str, str, str]]:
    ids = sorted({rid for p in (*plan.proposals, *plan.manual, *plan.hidden_unsafe) for rid in p.resolves})
    return summary_changes(before, after, ids)


def outcome_text(plan: Plan, result: ApplyResult, before: Report, after: Report) -> str:
    if plan.empty:
        out = ["Nothing to change: everything the fixes would write is already in place."]
    else:
        out = ["Applied:"]
        out += [f"  wrote {path}" for path in result.written]
        out += [f"  created {d}" for d in result.created_dirs]
        out += [f"  stopped PID {pid}" for pid in result.stopped]
        out += [f"  did NOT stop PID {pid}: {why}" for pid, why in result.refused]
        if result.rebuilt:
            out.append("  (the file had changed since the plan, e.g. another apply: the edit was made on its current bytes)")
        out.append(f"  journal {result.journal} (undo with `ascendrl fix --undo`)")
    changes = _outcome(plan, before, after)
    if changes:  # nothing planned (a second --apply): no empty heading
        out += ["", "Before → after:"]
        out += [f"  {rid}: {b} → {a}" for rid, b, a in changes]
    if plan.target.endswith("env.sh") and result.written:
        out += ["", f"Use it in your shell: source {plan.target}   (`ascendrl run` sources it for you)"]
    counts = after.counts()
    out += unfixed_lines(plan, after)
    out += ["", f"After: {counts['fail']} failed, {counts['warn']} warnings, {counts['pass']} passed, {counts['skip']} skipped"]
    return "\n".join(out)


def outcome_json(plan: Plan, result: ApplyResult, before: Report, after: Report, unresolved: Sequence[str] = ()) -> str:
    return json.dumps(
        {
            "schema": 1,
            "mode": "apply",
            "plan": plan.to_json(),
            "result": {
                "journal": result.journal,
                "written": list(result.written),
                "created_dirs": list(result.created_dirs),
                "stopped": list(result.stopped),
                "refused": [{"pid": pid, "reason": why} for pid, why in result.refused],
                "rebuilt": result.rebuilt,
            },
            "unresolved": list(unresolved),
            "before_after": [{"id": rid, "before": b, "after": a} for rid, b, a in _outcome(plan, before, after)],
            "summary_after": after.counts(),
            "no_automatic_fix": unfixed_json(plan, after),
        },
        indent=2,
    )


def undo_text(journal: str, doc: dict[str, Any]) -> str:
    out = [f"Undid {journal}:"]
    for record in doc["files"]:
        out.append(f"  {'restored' if record['existed'] else 'removed'} {record['path']}")
    for d in reversed(doc.get("dirs", [])):
        out.append(f"  removed {d} (if it was still empty)")
    if doc.get("kept"):
        out.append(f"  the changed versions (--force) are kept in {doc['kept']}")
    if doc.get("stopped"):
        out.append(f"  stopped processes cannot be restarted: {', '.join(map(str, doc['stopped']))}")
    return "\n".join(out)
