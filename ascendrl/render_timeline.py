"""Plain text for `explain` across nodes: the first failure, the chain that followed, the order."""

from __future__ import annotations

from ascendrl.catalog.timeline import Event, Timeline


def _when(e: Event) -> str:
    if e.stamp is None:
        return "time unknown".ljust(23)
    text = e.stamp.when.strftime("%m-%d %H:%M:%S.%f")[:-3] if e.stamp.yearless else e.stamp.when.isoformat(sep=" ", timespec="milliseconds")
    return (text + ("~" if not e.stamp.own_line else "")).ljust(23)


def _what(e: Event) -> str:
    who = f"{e.node}" + (f" {e.rank}" if e.rank else "")
    return f"{who}: {e.entry_id + ' ' if e.entry_id else ''}{e.title}  ({e.file}:{e.line})"


def to_plain(t: Timeline) -> str:
    """The root first, then its consequences as a chain, then every event in time order."""
    lines = [f"ascendrl explain — {len(t.nodes)} node(s): {', '.join(t.nodes)}", ""]
    if t.first is None:
        lines.append("No fatal failure found on any node.")
    else:
        lines += ["First failure", f"  {_when(t.first)} {_what(t.first)}"]
        if t.first.excerpt:
            lines.append(f"  {'':23} {t.first.excerpt.strip()[:200]}")
        if t.consequences:
            lines += ["", "What followed from it"]
            lines += [f"  └─ {_when(e)} {_what(e)}" for e in t.consequences]
        others = [e for e in t.events if e is not t.first and e not in t.consequences]
        if others:
            lines += ["", "Other fatal events (time order)"]
            lines += [f"     {_when(e)} {_what(e)}" for e in others]
    if t.uncertain:
        lines += ["", "How sure is this order"]
        lines += [f"  - {u}" for u in t.uncertain]
    else:
        lines += ["", "Order from the lines' own timestamps (nodes' clocks assumed in step; ~ marks a time taken from an earlier line)."]
    if t.skipped:
        lines += ["", f"Not read: {len(t.skipped)} input(s)"] + [f"  {p}: {why}" for p, why in t.skipped[:10]]
    return "\n".join(lines)
