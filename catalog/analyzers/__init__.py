"""Derived diagnoses: small analyzers that reason from a failure no catalog entry names.

Each analyzer is one class in its own file with a stable id (``DRV-…``). It looks at one link of an
exception chain (the exception, its frames, the CANN lines and codes under it) plus what the log
states elsewhere (package versions, Hydra overrides), and returns a :class:`Finding` — a cause, a
concrete fix, the evidence lines — or ``None``. Analyzers may also add notes to a catalog
diagnosis (the numbers in an OOM message, the decoded codes). The registry is an explicit,
ordered tuple: the first analyzer with a finding for a link wins, so specific ones come first.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from ..chain import Chain, Link
from ..entries import KnownFailure

ANALYZER_ID_PREFIX = "DRV-"


@dataclasses.dataclass(frozen=True)
class Finding:
    title: str
    cause: str
    fix: tuple[str, ...]
    evidence: tuple[str, ...]
    sources: tuple[str, ...]
    key: str  # the same failure seen twice (eight workers) is one diagnosis
    family: str = ""
    kind: str = ""  # the root-cause label (enospc, package-mismatch, process-segfault …), stable across wordings
    weak: bool = False  # a decoded code or a watchdog timeout: ranked below anything specific
    fatal: bool = True
    severity: str = "critical"


@dataclasses.dataclass(frozen=True)
class Facts:
    """What the whole log states, beyond one chain."""

    versions: dict[str, str]
    overrides: dict[str, str]  # Hydra overrides seen on the command line or in "Error executing job"


class Analyzer:
    id: str = ""
    title: str = ""
    family: str = ""

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        return None

    def note(self, link: Link, chain: Chain, facts: Facts) -> list[str]:
        """Extra lines for a catalog diagnosis found on this link (numbers, codes)."""
        return []


def evidence(link: Link, limit: int = 6) -> tuple[str, ...]:
    lines = [link.text or f"{link.type}: {link.message}"]
    lines += [d for d in link.detail if d not in lines]
    return tuple(line[:300] for line in lines[:limit])


@dataclasses.dataclass
class DerivedItem:
    entry: KnownFailure
    file: str
    line: int
    excerpt: str
    count: int
    fatal: bool
    demoted_by: str | None
    evidence: tuple[str, ...]
    weak: bool
    order: int
    kind: str = ""


@dataclasses.dataclass
class Derived:
    items: list[DerivedItem]
    demoted: dict[str, str]  # catalog id -> the diagnosis id it is a consequence of (in some chain)
    roots: set[str]  # catalog ids that are the most specific link of some chain
    notes: dict[str, list[str]]
    explained: set[int]  # id() of links that carry a diagnosis


def entry_for(cls: type[Analyzer], finding: Finding) -> KnownFailure:
    return KnownFailure(
        id=cls.id,
        title=finding.title,
        family=finding.family or cls.family,
        severity=finding.severity,
        fatal=finding.fatal,
        signatures=(),
        cause=finding.cause,
        fix=finding.fix,
        sources=finding.sources,
        origin=f"catalog/analyzers/{Path(sys.modules[cls.__module__].__file__ or cls.__module__).name}",
    )


def registry() -> tuple[Analyzer, ...]:
    from . import codes, memory, oserror, package, process, verl

    return tuple(cls() for cls in (
        process.ProcessDeath,
        memory.Memory,
        oserror.OSErrors,
        package.PackageMismatch,
        verl.VerlCondition,
        verl.HydraKey,
        codes.ErrorCodes,
    ))


def derive(chains: list[Chain], fatal_chain: dict[int, bool], versions: dict[str, str], entries: dict[str, KnownFailure]) -> Derived:
    """Run the analyzers over every chain; say which diagnoses are consequences of a deeper link."""
    analyzers = registry()
    facts = Facts(dict(versions), _overrides(chains))
    out = Derived([], {}, set(), {}, set())
    by_key: dict[tuple[str, str], DerivedItem] = {}
    for chain in chains:
        fatal = fatal_chain.get(id(chain), True)
        best: tuple[int, str] | None = None  # (tier, id) of the deepest diagnosis so far
        for link in chain.links:
            catalog = [entries[i] for i in link.hits if i in entries]
            specific = [e for e in catalog if not e.generic]
            link.families = tuple(e.family for e in catalog)
            item: DerivedItem | None = None
            if specific:
                tier, top = 3, specific[0].id
                for analyzer in analyzers:
                    try:
                        notes = analyzer.note(link, chain, facts)
                    except Exception:  # noqa: BLE001 - a note is never worth a crash
                        notes = []
                    for note in notes:
                        bucket = out.notes.setdefault(top, [])
                        if note not in bucket and len(bucket) < 8:
                            bucket.append(note)
            else:
                tier, top = 0, ""
                for analyzer in analyzers:
                    try:
                        finding = analyzer.analyze(link, chain, facts)
                    except Exception:  # noqa: BLE001 - one analyzer's bug must not hide the others' answers
                        finding = None
                    if finding is None:
                        continue
                    key = (analyzer.id, finding.key)
                    item = by_key.get(key)
                    if item is None:
                        item = by_key[key] = DerivedItem(
                            entry_for(type(analyzer), dataclasses.replace(finding, fatal=finding.fatal and fatal)),
                            link.file, link.line, (link.text or link.message)[:300], 0, finding.fatal and fatal,
                            None, finding.evidence, finding.weak, link.seq, finding.kind,
                        )
                        out.items.append(item)
                    item.count += chain.count
                    tier, top = (2 if finding.weak else 3), analyzer.id
                    break
                if item is None and catalog:
                    tier, top = 1, catalog[0].id
                for e in catalog:  # a wrapper entry on a link the analyzers explained
                    if item is not None:
                        out.demoted.setdefault(e.id, top)
            if tier == 0:
                continue
            out.explained.add(id(link))
            if best is not None and (best[0] >= tier or (item is not None and item.weak)):
                for e in catalog:
                    out.demoted.setdefault(e.id, best[1])
                if item is not None and item.demoted_by is None and item.count == chain.count:
                    item.demoted_by = best[1]
            else:
                out.roots.update(e.id for e in specific)
                best = (tier, top)
    return out


def _overrides(chains: list[Chain]) -> dict[str, str]:
    import re

    found: dict[str, str] = {}
    pair = re.compile(r"['\s\[,]\+{0,2}([A-Za-z_][\w.]*)=([^'\s,\]]+)")
    for chain in chains:
        for link in chain.links:
            if link.kind == "hydra":
                for key, value in pair.findall(" " + link.message):
                    found.setdefault(key, value)
    return found
