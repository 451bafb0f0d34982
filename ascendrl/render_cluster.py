"""Plain text for `check --cluster`: a short section per node, then the findings across nodes."""

from __future__ import annotations

from ascendrl.preflight.cluster import ClusterReport
from ascendrl.preflight.model import Status

from .render import PLAIN_TAG


def to_plain(report: ClusterReport) -> str:
    """Each node's failures and warnings (its full check is in --json), then the cluster rules."""
    lines = [f"ascendrl check --cluster — {len(report.nodes)} alive node(s) at {report.address or 'the local cluster'}", ""]
    for node in report.nodes:
        head = f"node {node.node_id[:12]} {node.address}"
        if node.check is None:
            lines += [f"{head}: not checked ({node.error})", ""]
            continue
        summary = node.check.get("summary") or {}
        lines.append(f"{head} {node.hostname} {node.python}: {summary.get('fail', 0)} fail, {summary.get('warn', 0)} warn, {summary.get('pass', 0)} pass")
        for f in node.check.get("findings") or ():
            if f.get("status") in ("fail", "warn"):
                lines.append(f"  {PLAIN_TAG[Status(f['status'])]} {f['id']} {f['title']}: {f['detail']}")
        lines.append("")
    lines.append("Across nodes")
    for fd in report.findings:
        lines.append(f"  {PLAIN_TAG[fd.status]} {fd.rule_id} {fd.title}: {fd.detail}")
        if fd.status in (Status.FAIL, Status.WARN):
            lines.append(f"       why: {fd.why}")
            if fd.fix:
                lines.append(f"       fix: {fd.fix}")
    counts = report.counts()
    lines += ["", f"across {len(report.nodes)} node(s): {counts['fail']} fail, {counts['warn']} warn, {counts['pass']} pass, {counts['skip']} skip"]
    return "\n".join(lines)
