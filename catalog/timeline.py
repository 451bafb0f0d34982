"""`explain` across nodes: which node failed first, and what on the others followed from it.

Each node's folder is classified on its own (the same Classifier as `explain`); the fatal
diagnoses carry file and line, and the time comes from that line (or the nearest earlier line
that has one): Ray's and Python logging's ``2025-12-02 10:14:31,552``, CANN plog and torch_npu's
``2025-12-03-09:02:11.634.432``, vLLM's ``INFO 11-30 08:12:01`` and glog.s ``E1130 08:12:01.5`` (torch_npu: ``[E324 13:00:25.428``)
(no year: comparable only with each other's day). Events are ordered by time across nodes; the
earliest specific failure is the root, and HCCL timeouts, actor deaths and generic wrappers on
every node after it are shown as its consequences. What makes the order uncertain (no
timestamp, a year-less one, a near tie that clock skew could reverse) is said, not hidden.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import Catalog, Classifier  # the package's public API (classify.py is being rewritten)
from ..lazyre import lazy

TIE_S = 2.0  # closer than this across nodes, unsynchronised clocks can swap the order
LOOK_BACK = 200  # lines searched above an error line that has no time of its own
# 2025-12-02 10:14:31,552 | [2026-11-30 23:43:16,648 I …] | 2025-12-03-09:02:11.634.432 | 2025-12-03-09:02:11
FULL = lazy(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})[ T-](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9})(?:\.(\d{3}))?)?")
# vLLM `INFO 11-30 08:12:01 [` and glog `[E1130 08:12:01.428029551` (month and day, no year)
YEARLESS = lazy(r"(?:\b(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) (\d{2})-(\d{2})|\b[EWIF](\d{1,2})(\d{2})) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?")
RANK = lazy(r"\[rank(\d+)\]|RankID:(\d+)|\[Rank (\d+)\]|\brank[ =](\d+)\b")
RAY_PREFIX = lazy(r"\((\w+) pid=(\d+)(?:, ip=([\d.]+))?\)")
PID = lazy(r"\[[A-Z]+\] [A-Z_]+\((\d+),|\(PID:(\d+)|\[PID: (\d+)\]")  # plog HCCL(5120,python3), torch_npu (PID:5120, EI… [PID: 749]


@dataclasses.dataclass(frozen=True)
class Stamp:
    """A time read from a log line; ``yearless`` ones carry year 1900 and compare only among themselves."""

    when: dt.datetime
    yearless: bool
    own_line: bool  # False: taken from an earlier line of the same file


@dataclasses.dataclass(frozen=True)
class Event:
    """One fatal diagnosis (or the unexplained error) on one node, placed in time."""

    node: str
    entry_id: str | None
    title: str
    file: str
    line: int
    excerpt: str
    stamp: Stamp | None
    rank: str | None
    secondary: bool  # an HCCL timeout, an actor death or a generic wrapper: usually what another failure caused

    def to_json(self) -> dict[str, Any]:
        return {
            "node": self.node, "id": self.entry_id, "title": self.title, "file": self.file, "line": self.line,
            "excerpt": self.excerpt, "rank": self.rank, "secondary": self.secondary,
            "time": self.stamp.when.isoformat(timespec="milliseconds") if self.stamp else None,
            "time_has_year": not self.stamp.yearless if self.stamp else None,
            "time_from_earlier_line": (not self.stamp.own_line) if self.stamp else None,
        }


@dataclasses.dataclass(frozen=True)
class Timeline:
    """Events in time order, the first failure, what followed from it, and why the order may be wrong."""

    nodes: tuple[str, ...]
    events: tuple[Event, ...]
    first: Event | None
    consequences: tuple[Event, ...]
    uncertain: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": 1, "nodes": list(self.nodes), "events": [e.to_json() for e in self.events],
            "first": self.first.to_json() if self.first else None,
            "consequences": [e.to_json() for e in self.consequences],
            "uncertain": list(self.uncertain), "skipped": [list(s) for s in self.skipped],
        }


def parse_stamp(text: str) -> tuple[dt.datetime, bool] | None:
    """The first time on a line, and whether it lacks a year."""
    m = FULL.search(text)
    if m:
        y, mo, d, h, mi, s, frac, micro = m.groups()
        us = int((frac or "0")[:6].ljust(6, "0"))
        if micro and frac and len(frac) == 3:  # plog: .634.432 is milliseconds then microseconds
            us = int(frac) * 1000 + int(micro)
        try:
            return dt.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), us), False
        except ValueError:
            return None
    m = YEARLESS.search(text)
    if m:
        mo, d = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        h, mi, s, frac = m.group(5), m.group(6), m.group(7), m.group(8)
        try:
            return dt.datetime(1900, int(mo), int(d), int(h), int(mi), int(s), int((frac or "0")[:6].ljust(6, "0"))), True
        except ValueError:
            return None
    return None


def stamp_at(path: Path, line: int) -> tuple[Stamp | None, str]:
    """The time of line ``line`` (1-based) of a log, else of the nearest earlier line that has one."""
    window: list[str] = []
    try:
        with _open_text(path) as fh:
            for number, text in enumerate(fh, 1):
                window.append(text)
                if len(window) > LOOK_BACK:
                    window.pop(0)
                if number == line:
                    break
    except OSError:
        return None, ""
    for back, text in enumerate(reversed(window)):
        found = parse_stamp(text)
        if found:
            return Stamp(found[0], found[1], own_line=back == 0), window[-1] if window else ""
    return None, window[-1] if window else ""


def _open_text(path: Path):
    import bz2
    import gzip
    import lzma

    with open(path, "rb") as fh:
        magic = fh.read(6)
    opener = {b"\x1f\x8b": gzip.open, b"BZ": bz2.open, b"\xfd7": lzma.open}.get(magic[:2], open)
    return opener(path, "rt", encoding="utf-8", errors="replace")


def is_secondary(entry: Any) -> bool:
    """Timeouts waiting for a peer, actor deaths and wrappers: on a healthy node, the echo of another's failure."""
    title = entry.title.lower()
    return bool(entry.generic) or (entry.family == "hccl" and ("timeout" in title or "timed out" in title or "times out" in title)) \
        or "actordied" in title.replace(" ", "") or "actor died" in title


def rank_of(text: str) -> str | None:
    m = RANK.search(text)
    if m:
        return "rank " + next(g for g in m.groups() if g is not None)
    m = RAY_PREFIX.search(text)
    if m:
        return f"{m.group(1)} pid {m.group(2)}" + (f" ip {m.group(3)}" if m.group(3) else "")
    m = PID.search(text)
    return "pid " + next(g for g in m.groups() if g is not None) if m else None


def node_events(catalog: Catalog, name: str, folder: Path) -> tuple[list[Event], list[tuple[str, str]]]:
    """Classify one node's folder; every fatal diagnosis and the unexplained error, with their times."""
    classifier = Classifier(catalog)
    classifier.feed_path(folder)
    result = classifier.result()
    events = []
    for d in result.diagnoses:
        if not d.fatal:
            continue
        stamp, text = stamp_at(_under(folder, d.file), d.line)
        events.append(Event(name, d.entry.id, d.entry.title, d.file, d.line, d.excerpt, stamp, rank_of(text or d.excerpt), is_secondary(d.entry)))
    unknown = getattr(result, "unknown", None)
    if unknown is not None:
        stamp, text = stamp_at(_under(folder, unknown.file), unknown.line)
        # The unexplained exception is itself an echo when a matched wrapper/death names its type (ActorDiedError).
        echo = any(e.secondary and unknown.type.rsplit(".", 1)[-1] in e.title for e in events)
        events.append(Event(name, None, f"{unknown.type}: {unknown.message}"[:200], unknown.file, unknown.line, text.strip()[:300],
                            stamp, rank_of(text), echo))
    return events, [(p, why) for p, why in result.skipped]


def _under(folder: Path, file: str) -> Path:
    """A diagnosis names a file relative to the folder it was fed from, or the file itself."""
    return folder / file if folder.is_dir() else folder


def node_folders(path: str | os.PathLike[str]) -> list[Path] | None:
    """Per-node subfolders of a gathered folder, when it is one: at least two subfolders that each
    hold files, no loose files beside them, and not itself a Ray session (which has logs/)."""
    root = Path(path)
    try:
        children = sorted(root.iterdir())
    except OSError:
        return None
    dirs = [c for c in children if c.is_dir() and not c.is_symlink()]
    loose = [c for c in children if c.is_file() and not c.name.startswith(".") and c.name.lower() not in ("readme.md", "readme")]
    if len(dirs) < 2 or loose or any(d.name == "logs" for d in dirs):
        return None
    if not all(any(f.is_file() for f in d.rglob("*")) for d in dirs):
        return None
    return dirs


def explain_nodes(catalog: Catalog, folders: Sequence[str | os.PathLike[str]]) -> Timeline:
    """Order every node's fatal events in time; name the first failure and what followed from it."""
    names = _names([Path(f) for f in folders])
    events: list[Event] = []
    skipped: list[tuple[str, str]] = []
    for name, folder in zip(names, folders):
        found, skip = node_events(catalog, name, Path(folder))
        events += found
        skipped += [(f"{name}: {p}", why) for p, why in skip]
    return order(names, events, tuple(skipped))


def _names(folders: list[Path]) -> list[str]:
    names = [f.name or str(f) for f in folders]
    return names if len(set(names)) == len(names) else [str(f) for f in folders]


def order(names: Sequence[str], events: Sequence[Event], skipped: tuple[tuple[str, str], ...] = ()) -> Timeline:
    """The ordering itself, on events already read (pure: the golden tests feed it too)."""
    uncertain: list[str] = []
    timed = [e for e in events if e.stamp]
    yearless = {e.stamp.yearless for e in timed if e.stamp}
    if len(yearless) > 1:
        uncertain.append("some times have no year (vLLM / glog lines) and others do: they are ordered by day and time, assuming the same year")
    ordered = sorted(timed, key=lambda e: (e.stamp.when.replace(year=2000), e.secondary, e.node, e.file, e.line)) + [e for e in events if not e.stamp]  # type: ignore[union-attr]
    for e in events:
        if not e.stamp:
            uncertain.append(f"{e.node}: {e.entry_id or e.title} ({e.file}:{e.line}) has no timestamp on or above its line: its place in the order is unknown")
        elif not e.stamp.own_line and not e.secondary:
            uncertain.append(f"{e.node}: the time of {e.entry_id or 'the error'} ({e.file}:{e.line}) is taken from an earlier line")
    primary = [e for e in ordered if not e.secondary]
    first = (primary or ordered or [None])[0]
    consequences: tuple[Event, ...] = ()
    if first is not None:
        consequences = tuple(e for e in ordered if e is not first and e.secondary and _not_before(e, first))
        if first.stamp:
            rivals = [e for e in primary if e is not first and e.node != first.node and e.stamp
                      and abs((e.stamp.when.replace(year=2000) - first.stamp.when.replace(year=2000)).total_seconds()) < TIE_S]
            for r in rivals:
                gap = abs((r.stamp.when.replace(year=2000) - first.stamp.when.replace(year=2000)).total_seconds())  # type: ignore[union-attr]
                uncertain.append(f"{r.node}: {r.entry_id or r.title} is {gap:.3f} s from the first failure: clock skew between nodes "
                                 "could reverse the order (`ascendrl check --cluster` measures it, ARL-K009)")
        if first.secondary:
            uncertain.append("every failure found is a timeout, actor death or wrapper: the node that stalled may have logged nothing fatal")
    return Timeline(tuple(names), tuple(ordered), first, consequences, tuple(dict.fromkeys(uncertain)), skipped)


def _not_before(event: Event, first: Event) -> bool:
    if event.stamp is None or first.stamp is None:
        return event.node != first.node
    return event.stamp.when.replace(year=2000) >= first.stamp.when.replace(year=2000)
