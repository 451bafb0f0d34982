"""Renderers for a preflight report: JSON, plain text, and rich. They only read findings."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ascendrl.preflight.engine import Rule
from ascendrl.preflight.model import Area, Finding, Report, Status

if TYPE_CHECKING:
    from rich.console import Console

AREA_TITLES = {
    Area.STACK: "Stack versions",
    Area.CANN: "CANN toolkit and environment",
    Area.DEVICES: "NPU devices",
    Area.RESOURCES: "Disk, memory and limits",
    Area.ENV: "Environment settings",
    Area.RECIPE: "Recipe lint (against the installed verl)",
    Area.INTERNAL: "ascendrl itself",
}
PLAIN_TAG = {Status.PASS: "PASS", Status.WARN: "WARN", Status.FAIL: "FAIL", Status.SKIP: "SKIP"}
GLYPH = {Status.PASS: "✔", Status.WARN: "▲", Status.FAIL: "✖", Status.SKIP: "○"}
STYLE = {Status.PASS: "green", Status.WARN: "yellow", Status.FAIL: "bold red", Status.SKIP: "dim"}


def to_json(report: Report) -> str:
    return json_text(report.to_json())


def json_text(doc: Any) -> str:
    """JSON that is always valid UTF-8: undecodable bytes from the environment or file names
    (Python's surrogate escapes) become visible ``\\xff`` text instead of invalid output."""
    text = json.dumps(doc, indent=2, ensure_ascii=False)
    try:
        text.encode("utf-8")  # the usual case: no escaped byte anywhere, nothing to clean (a walk of every value)
        return text
    except UnicodeEncodeError:
        return json.dumps(_clean(doc), indent=2, ensure_ascii=False)


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return value.encode("utf-8", "surrogateescape" if _escaped_bytes(value) else "backslashreplace").decode("utf-8", "backslashreplace")
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _escaped_bytes(text: str) -> bool:
    """Only U+DC80..U+DCFF surrogates (undecodable bytes) can go back to bytes with surrogateescape."""
    return all(not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF for c in text)


def summary_line(report: Report) -> str:
    c = report.counts()
    verdict = "NOT READY: fix the failures above before launching" if report.failed else "ready to launch" + (" (see warnings)" if c["warn"] else "")
    warnings = "warning" if c["warn"] == 1 else "warnings"
    return f"{c['fail']} failed, {c['warn']} {warnings}, {c['pass']} passed, {c['skip']} skipped — {verdict}"


def host_line(report: Report) -> str:
    f = report.facts
    info = f.value("npu_smi.info")
    parts = [
        f"Python {f.value('python.version', '?')}",
        f"CANN {f.value('cann.toolkit.version', 'none')}",
        f"driver {(f.value('hdk.driver') or {}).get('version', 'none')}",
        f"NPUs {len(info.chips) if info is not None else 'none'}",
    ]
    for name in ("torch_npu", "vllm_ascend", "verl"):
        parts.append(f"{name.replace('_', '-')} {f.value('pkg.' + name, 'none')}")
    return " · ".join(parts)


def _grouped(findings: Iterable[Finding]) -> list[tuple[Area, list[Finding]]]:
    groups: dict[Area, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(finding.area, []).append(finding)
    return [(area, groups[area]) for area in Area if area in groups]


def to_plain(report: Report) -> str:
    lines = [f"ascendrl check — {host_line(report)}", ""]
    for area, findings in _grouped(report.findings):
        lines.append(AREA_TITLES[area])
        for fd in findings:
            lines.append(f"  {PLAIN_TAG[fd.status]} {fd.rule_id} {fd.title}: {fd.detail}")
            if fd.status in (Status.FAIL, Status.WARN):
                lines.append(f"       why: {fd.why}")
                if fd.fix:
                    lines.append(f"       fix: {fd.fix}" + (f" [ascendrl fix: {fd.fix_id}]" if fd.fix_id else ""))
        lines.append("")
    lines.append(summary_line(report))
    return "\n".join(lines)


def print_rich(report: Report, console: Console) -> None:
    from rich.text import Text

    console.print(Text.assemble(("ascendrl check", "bold"), "  ", (host_line(report), "cyan")))
    for area, findings in _grouped(report.findings):
        console.print()
        console.print(Text(AREA_TITLES[area], style="bold underline"))
        for fd in findings:
            line = Text.assemble(
                (f" {GLYPH[fd.status]} ", STYLE[fd.status]),
                (f"{fd.rule_id} ", "dim"),
                (fd.title, "bold" if fd.status is Status.FAIL else ""),
                (": ", ""),
                (fd.detail, "dim" if fd.status is Status.SKIP else ""),
            )
            console.print(line)
            if fd.status in (Status.FAIL, Status.WARN):
                console.print(Text.assemble(("     why ", "dim"), fd.why))
                if fd.fix:
                    console.print(Text.assemble(("     fix ", "dim"), (fd.fix, "green"), (f"  [ascendrl fix: {fd.fix_id}]" if fd.fix_id else "", "dim")))
    console.print()
    style = "bold red" if report.failed else ("yellow" if report.counts()["warn"] else "bold green")
    console.print(Text(summary_line(report), style=style))


def rule_list(rules: Iterable[Rule]) -> str:
    lines = []
    for rule in rules:
        fix = f"  [fix: {rule.fix_id}]" if rule.fix_id else ""
        lines.append(f"{rule.id}  {rule.severity.value:<8} {rule.area.value:<9} {rule.title}{fix}")
    return "\n".join(lines)


def rule_doc(rule: Rule) -> str:
    """ruff-style rule documentation: what, why, fix, fix safety, sources."""
    out: list[Any] = [
        f"{rule.id}: {rule.title}",
        f"severity: {rule.severity.value}   area: {rule.area.value}",
        "",
        "What it checks",
        f"  {rule.what}",
        "",
        "Why it breaks a verl run",
        f"  {rule.why}",
        "",
        "Fix",
        f"  {rule.fix or '-'}",
        f"  auto-fix: {rule.fix_id or 'none (manual)'}",
        "",
        "Sources",
        *[f"  {s}" for s in rule.sources],
    ]
    return "\n".join(out)
