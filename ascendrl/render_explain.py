"""Renderers for `ascendrl explain`: JSON, plain text, rich; and the catalog listing."""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ascendrl.catalog import Catalog, Diagnosis, Explanation, KnownFailure

if TYPE_CHECKING:
    from rich.console import Console


def to_json(explanation: Explanation) -> str:
    from ascendrl.render import json_text  # imports check's model: not needed for a text report

    return json_text(explanation.to_json())


def _where(d: Diagnosis) -> str:
    repeat = f" (×{d.count})" if d.count > 1 else ""
    return f"{d.file}:{d.line}{repeat}"


def _full(d: Diagnosis) -> list[str]:
    e = d.entry
    derived = d.basis == "derived"
    similar = d.basis == "similar"
    tag = ", derived" if derived else ", resembles" if similar else ""
    lines = [
        f"{e.id}  {e.title}",
        f"  [{e.family}, {e.severity}{', fatal' if d.fatal else ''}{tag}]  at {_where(d)}",
        f"  > {d.excerpt}",
        *[f"  {'~' if similar else '>'} {line}" for line in (d.evidence[:3] if similar else d.evidence[1:4])],
        "",
        "  Cause" + ("  (derived from the failure itself: no catalog entry names it)" if derived else "")
        + ("  (of the similar known failure, not a signature match: check that it fits this log)" if similar else ""),
        *textwrap.wrap(e.cause, width=100, initial_indent="    ", subsequent_indent="    "),
    ]
    if d.notes:
        lines += ["", "  From the similar thread" if similar else "  From this log", *[f"    - {note}" for note in d.notes]]
    lines += [
        "",
        "  Fix",
        *[f"    {i}. {step}" for i, step in enumerate(e.fix, 1)],
    ]
    if e.fix_id:
        lines.append(f"    (registered auto-fix: {e.fix_id})")
    lines += ["", "  Source", *[f"    {s}" for s in e.sources]]
    return lines


def to_plain(explanation: Explanation, *, full: bool = False) -> str:
    out: list[str] = []
    ds = explanation.diagnoses
    if explanation.read_nothing:
        out.append("Nothing could be read, so nothing is explained (see the skipped inputs below).")
    elif not ds and explanation.unknown is None:
        out.append("No known failure and no unexplained fatal error found.")
    elif ds and ds[0].basis == "similar":
        from ascendrl.catalog.similar import THRESHOLD  # only a resemblance needs it

        similarity = getattr(ds[0], "similarity", 0.0)
        if ds[0].fatal:
            out.append(f"{'Likely' if similarity >= THRESHOLD else 'Possibly'} (resembles a known failure, similarity "
                       f"{similarity:.2f}) — a resemblance, not a signature match")
        else:  # nothing fatal read: the log's last error-worded lines resemble one (similar._quiet_resemblance)
            out.append(f"Possibly (nothing fatal read; its last error lines resemble a known failure, similarity "
                       f"{similarity:.2f}) — a resemblance, not a signature match")
        out += _full(ds[0])
    elif ds and (ds[0].fatal or explanation.unknown is None):
        out.append("Root cause" if ds[0].fatal else "Findings (nothing fatal)")
        out += _full(ds[0])
    if explanation.unknown is not None:
        u = explanation.unknown
        out += [
            "",
            "Not in the catalog: the most relevant unexplained error",
            f"  {u.type}: {u.message}",
            f"  at {u.file}:{u.line}" + (f"  (innermost user/verl frame: {u.frame})" if u.frame else ""),
            "  ascendrl does not know this failure; add an entry with --catalog (its format: `ascendrl explain --schema`).",
        ]
    rest = ds[1:] if ds and (ds[0].fatal or explanation.unknown is None) else ds
    if rest:
        out += ["", "Also found"]
        for d in rest:
            if full:
                out += [""] + _full(d)
            else:
                why = (f"; caught, then its handler failed ({d.demoted_by})" if d.handled else f"; consequence of {d.demoted_by}") \
                    if d.demoted_by else (" (wrapper)" if d.entry.generic else "")
                why += " (derived)" if d.basis == "derived" else ""
                out.append(f"  {d.entry.id}  {d.entry.title}  — {_where(d)}{why}")
    if explanation.upstream:
        from ascendrl.catalog.upstream import render_lines

        out += ["", "Known upstream bugs with this error (mined from the projects' fix commits)"]
        for fix in explanation.upstream:
            out += ["  " + line for line in render_lines(fix)]
    out += ["", f"Read {explanation.lines_read:,} lines ({explanation.bytes_read:,} bytes) from {len(explanation.files)} file(s)."]
    if explanation.skipped:
        out.append(f"Skipped {len(explanation.skipped)} input(s):")
        out += [f"  {path}: {why}" for path, why in explanation.skipped]
    return "\n".join(out)


def print_rich(explanation: Explanation, console: Console, *, full: bool = False) -> None:
    from rich.text import Text

    for line in to_plain(explanation, full=full).splitlines():
        style = ""
        if line.startswith(("Root cause", "Not in the catalog")):
            style = "bold red"
        elif line.startswith(("Likely", "Possibly")):
            style = "bold magenta"
        elif line.startswith(("Nothing could be read", "Skipped")):
            style = "bold yellow"
        elif line.startswith(("Findings", "Also found", "No known failure", "Known upstream bugs")):
            style = "bold"
        elif line.startswith("  > "):
            style = "yellow"
        elif line.startswith(("ARL-", "  ARL-", "DRV-", "  DRV-", "SIM-", "  SIM-")):
            style = "bold"
        console.print(Text(line, style=style))


def catalog_list(catalog: Catalog) -> str:
    rows = sorted(catalog.entries, key=lambda e: e.id)
    return "\n".join(f"{e.id}  {e.family:<11} {e.severity:<8} {e.title}" for e in rows) + f"\n\n{len(rows)} known failures"


def entry_doc(entry: KnownFailure) -> str:
    lines = [
        f"{entry.id}: {entry.title}",
        f"family: {entry.family}   severity: {entry.severity}   fatal: {'yes' if entry.fatal else 'no'}"
        + ("   (generic wrapper)" if entry.generic else ""),
        "",
        "Signatures",
    ]
    for sig in entry.signatures:
        lines.append(f"  /{sig.regex}/")
        if sig.emitter:
            lines.append(f"      emitted by {sig.emitter}")
        if sig.confirmed:
            lines.append(f"      seen in {sig.confirmed}")
    lines += ["", "Cause", *textwrap.wrap(entry.cause, 100, initial_indent="  ", subsequent_indent="  "), "", "Fix"]
    lines += [f"  {i}. {s}" for i, s in enumerate(entry.fix, 1)]
    if entry.fix_id:
        lines.append(f"  auto-fix: {entry.fix_id}")
    if entry.consequences:
        lines += ["", "Typically followed by", "  " + ", ".join(entry.consequences)]
    lines += ["", "Sources", *[f"  {s}" for s in entry.sources], "", f"Defined at {entry.origin}"]
    return "\n".join(lines)
