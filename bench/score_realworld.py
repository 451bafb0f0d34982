"""Top-1 accuracy of `explain` on real failure logs from public threads, dev and held-out apart.

Each log under tests/explain/realworld/{dev,heldout}/ starts with a header (`# source:`,
`# expected:`, `# family:`, `# resolution:`); the header is not fed to the classifier. A log counts
as correct when the top diagnosis names the expected root cause (see that folder's README):

- an expected catalog id equals the top diagnosis id;
- an expected label is the top diagnosis' id, or its derived `kind`/`label`, or labels.yaml maps the
  label to that id;
- `healthy` expects nothing fatal at all.

What is scored is what users get: the classifier, then the similar-known-failure fallback
(catalog/similar.py). That fallback's index is built from the dev logs, so each log is scored with
its own thread left out of the index (leave-one-out; a no-op for held-out logs, which the index
never holds).

    python bench/score_realworld.py            # table per split and family, then the misses
    python bench/score_realworld.py --json out.json
    python bench/score_realworld.py --curve    # dev only: the fallback's precision/coverage by threshold
    python bench/score_realworld.py --leave-thread-out   # dev only, each log without the entries its thread gave
    python bench/score_realworld.py --only ROUND.txt --fresh   # one round, its dev logs out of the similar index too
    python bench/score_realworld.py --dev-only   # what people writing knowledge read: nothing of the held-out split

Leave-thread-out is the development-side stand-in for the held-out figure: each dev log is scored
with every catalog entry that cites its thread (in `sources`, a signature's `confirmed`, or a golden
case's `# source:`) taken out, so only knowledge written from *other* threads can name it. Its misses
may be read and worked on (they are dev logs); making them right means generalising what other
threads taught, which is what the held-out set rewards. Analyzers are code and stay in.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import io
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import yaml

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.similar import eligible, load_index, templates, with_similar

ROOT = Path(__file__).resolve().parent.parent / "tests" / "explain" / "realworld"
SPLITS = ("dev", "heldout")
HEADER = re.compile(r"^# (source|expected|family|resolution): ?(.*)$")
HEALTHY = "healthy"


@dataclasses.dataclass(frozen=True)
class RealLog:
    path: Path
    split: str
    source: str
    expected: tuple[str, ...]
    family: str
    resolution: str
    body: bytes


@dataclasses.dataclass(frozen=True)
class Verdict:
    log: RealLog
    correct: bool
    top: str | None  # what the classifier answered first: an id, "unknown: Type", or None


def read_log(path: Path, split: str) -> RealLog:
    """Split a log into its header fields and the text a user would have pasted."""
    fields: dict[str, str] = {}
    lines = path.read_bytes().splitlines(keepends=True)
    body_start = 0
    for i, raw in enumerate(lines):
        m = HEADER.match(raw.decode("utf-8", "replace").rstrip("\r\n"))
        if not m:
            break
        fields[m.group(1)] = m.group(2).strip()
        body_start = i + 1
    missing = {"source", "expected", "family", "resolution"} - set(fields)
    if missing:
        raise ValueError(f"{path}: header lacks {sorted(missing)}")
    expected = tuple(part.strip() for part in fields["expected"].split("|") if part.strip())
    return RealLog(path, split, fields["source"], expected, fields["family"], fields["resolution"], b"".join(lines[body_start:]))


def load_logs(root: Path = ROOT) -> list[RealLog]:
    return [read_log(p, split) for split in SPLITS for p in sorted((root / split).glob("*.log"))]


def load_labels(root: Path = ROOT) -> dict[str, tuple[str, ...]]:
    data = yaml.safe_load((root / "labels.yaml").read_text(encoding="utf-8")) or {}
    return {label: tuple(ids or ()) for label, ids in data.items()}


REPO = ROOT.parent.parent.parent
URL = re.compile(r"https?://[^\s'\"<>]+")


def cited_sources(repo: Path = REPO) -> set[str]:
    """Every thread the shipped knowledge cites: catalog entries (sources, confirmed), golden and derived cases.

    A held-out log from one of these threads is not a failure nobody wrote an entry for: the summary
    reports the held-out figure without them too.
    """
    urls: set[str] = set()
    for path in (repo / "catalog" / "known_failures").glob("*.yaml"):
        urls.update(u.rstrip(".,)") for u in URL.findall(path.read_text(encoding="utf-8")))
    for pattern in ("tests/explain/cases/*/*.log", "tests/explain/derived/*.log"):
        for path in repo.glob(pattern):
            with path.open(encoding="utf-8", errors="replace") as handle:
                first = handle.readline()
            if first.startswith("# source:"):
                urls.update(u.rstrip(".,)") for u in URL.findall(first))
    return urls


def held_out(source: str) -> bool:
    """The fixed split rule: every third source URL by its sha256 is held out."""
    return int(hashlib.sha256(source.encode()).hexdigest(), 16) % 3 == 0


def _names(diagnosis: dict[str, Any]) -> set[str]:
    """Every name the top diagnosis goes by: its id, and for derived analyses their kind/label."""
    names = {str(diagnosis.get("id"))}
    if diagnosis.get("basis") in ("derived", "similar"):
        names |= {str(diagnosis[k]) for k in ("kind", "label", "analyzer") if diagnosis.get(k)}
    return names


# The tests ask for the same readings several times (the held-out floor and the similar fallback's leave-one-out floor
# score every log with one catalog; the leave-thread-out floor and its threshold curve read every dev log with the same
# per-thread catalogs). A reading depends only on the catalog and the log, and explanations are frozen, so each is made
# once per process: keyed by the catalog object (kept alive here, so its id is never reused) and the log.
_READINGS: dict[tuple[int, Path, bytes], Any] = {}
_KEPT: dict[int, Any] = {}


def reading(log: RealLog, catalog) -> Any:
    """The classifier's explanation of a log with ``catalog``, before the similar-known-failure fallback."""
    key = (id(catalog), log.path, log.body)
    if key not in _READINGS:
        _KEPT[id(catalog)] = catalog
        classifier = Classifier(catalog)
        classifier.feed_stream(io.BytesIO(log.body), log.path.name)
        _READINGS[key] = classifier.result()
    return _READINGS[key]


def explain(log: RealLog, classifier: Classifier):
    """The explanation of a log with the classifier's catalog, before the similar-known-failure fallback."""
    return reading(log, classifier.catalog)


def judge(log: RealLog, catalog, labels: dict[str, tuple[str, ...]], explanation=None,
          unseen: frozenset[str] = frozenset()) -> Verdict:
    """``unseen``: further source URLs whose examples the similar index must not offer (a round scored as fresh)."""
    if explanation is None:
        explanation = with_similar(reading(log, catalog), catalog,
                                   exclude_sources=(log.source, *unseen))
    data = explanation.to_json()
    diagnoses = data.get("diagnoses") or []
    if diagnoses:
        top = str(diagnoses[0].get("id"))
    elif data.get("unknown"):
        top = f"unknown: {data['unknown'].get('type')}"
    else:
        top = None
    names = _names(diagnoses[0]) if diagnoses else set()
    correct = False
    for want in log.expected:
        if want == HEALTHY:
            correct = correct or not explanation.fatal
        elif want in names or names & set(labels.get(want, ())):
            correct = True
    return Verdict(log, correct, top)


def entries_citing(catalog, repo: Path = REPO) -> dict[str, set[str]]:
    """{thread URL: ids of the catalog entries that cite it} — sources, confirmed signatures, golden cases."""
    cites: dict[str, set[str]] = defaultdict(set)
    for entry in catalog.entries:
        urls = set(entry.sources) | {sig.confirmed for sig in entry.signatures if sig.confirmed}
        for path in (repo / "tests" / "explain" / "cases" / entry.id).glob("*.log"):
            with path.open(encoding="utf-8", errors="replace") as handle:
                first = handle.readline()
            if first.startswith("# source:"):
                urls.update(URL.findall(first))
        for text in urls:
            for url in URL.findall(str(text)):
                cites[url.rstrip(".,)")].add(entry.id)
    return cites


_WITHOUT: dict[int, Any] = {}


def without_own_thread(catalog):
    """A function giving, for a log, the catalog without the entries that cite its thread (shared between logs, and
    between calls with the same catalog, so the readings made with each are reused)."""
    if id(catalog) in _WITHOUT and _WITHOUT[id(catalog)][0] is catalog:
        return _WITHOUT[id(catalog)][1]
    cites = entries_citing(catalog)
    kept: dict[frozenset[str], Any] = {}

    def for_log(log: RealLog):
        drop = frozenset(cites.get(log.source, ()))
        if drop not in kept:
            kept[drop] = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in drop))
        return kept[drop]
    _WITHOUT[id(catalog)] = (catalog, for_log)
    return for_log


def _named(log: RealLog, only: set[str] | None) -> bool:
    return only is None or f"{log.split}/{log.path.name}" in only


def score_leave_thread_out(root: Path = ROOT, catalog=None, only: set[str] | None = None) -> list[Verdict]:
    """Dev logs only (those ``only`` names, when given), each scored by a catalog without the entries that cite its own
    thread."""
    catalog = catalog if catalog is not None else load_catalog(user_dir=root / "no-user-catalog")
    labels = load_labels(root)
    catalog_for = without_own_thread(catalog)
    return [judge(log, catalog_for(log), labels) for log in load_logs(root)
            if log.split == "dev" and _named(log, only)]


def score(root: Path = ROOT, catalog=None, unseen: frozenset[str] = frozenset(),
          only: set[str] | None = None) -> list[Verdict]:
    """Every log (those ``only`` names, when given: only they are classified, so a round scores fast)."""
    catalog = catalog if catalog is not None else load_catalog(user_dir=root / "no-user-catalog")
    key = (id(catalog), root, unseen, None if only is None else frozenset(only))
    if key not in _SCORES:
        _KEPT[id(catalog)] = catalog
        labels = load_labels(root)
        _SCORES[key] = [judge(log, catalog, labels, unseen=unseen) for log in load_logs(root) if _named(log, only)]
    return list(_SCORES[key])


_SCORES: dict[tuple, list[Verdict]] = {}


def curve(root: Path = ROOT, catalog=None, thresholds=(0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9)) -> list[dict[str, Any]]:
    """Dev only, leave-one-out: per threshold, how many logs the fallback answers, how many rightly, and dev top-1.

    ``eligible`` counts the logs whose answer the fallback could change: something fatal unexplained,
    and a nearest failure the classifier did not already name.
    """
    catalog = catalog if catalog is not None else load_catalog(user_dir=root / "no-user-catalog")
    labels = load_labels(root)
    index = load_index()
    rows = []  # (similarity, right with the fallback, right without)
    base = 0
    dev = [log for log in load_logs(root) if log.split == "dev"]
    for log in dev:
        plain = reading(log, catalog)
        without = judge(log, catalog, labels, plain).correct
        base += without
        if not eligible(plain):
            continue
        tmpls = templates(plain.error_lines())
        found = index.nearest(tmpls, (log.source,))
        if found is None:
            continue
        answer = with_similar(plain, catalog, exclude_sources=(log.source,), threshold=0.0)
        if answer is plain:
            continue  # the nearest failure is one the classifier already named
        rows.append((found[1], judge(log, catalog, labels, answer).correct, without))
    out = []
    for t in thresholds:
        answered = [r for r in rows if r[0] >= t]
        right = sum(r[1] for r in answered)
        top1 = base + right - sum(r[2] for r in answered)
        out.append({"threshold": t, "eligible": len(rows), "answered": len(answered), "right": right,
                    "precision": round(right / len(answered), 3) if answered else None,
                    "dev_top1": f"{top1}/{len(dev)}"})
    return out


def curve_leave_thread_out(root: Path = ROOT, catalog=None,
                           thresholds=(0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8)) -> list[dict[str, Any]]:
    """Dev only, leave-thread-out (as a held-out log is seen): the fallback's answers by threshold and by what it would
    replace: ``unexplained`` (no diagnosis at all, only the unexplained error) or ``under-a-diagnosis`` (a wrapper, a
    non-fatal finding or a bare code on top). ``gain`` is right answers minus the right answers they replace."""
    catalog = catalog if catalog is not None else load_catalog(user_dir=root / "no-user-catalog")
    labels = load_labels(root)
    catalog_for = without_own_thread(catalog)
    index = load_index()
    rows = []  # (group, similarity, right with the fallback, right without)
    for log in load_logs(root):
        if log.split != "dev":
            continue
        kept = catalog_for(log)
        plain = reading(log, kept)
        if not eligible(plain):
            continue
        tmpls = templates(plain.error_lines())
        found = index.nearest(tmpls, (log.source,))
        answer = with_similar(plain, kept, exclude_sources=(log.source,), threshold=0.0, index=index)
        if found is None or answer is plain:
            continue
        group = "unexplained" if not plain.diagnoses else "under-a-diagnosis"
        rows.append((group, found[1], judge(log, kept, labels, answer).correct,
                     judge(log, kept, labels, plain).correct))
    out = []
    for group in ("unexplained", "under-a-diagnosis"):
        for t in thresholds:
            answered = [r for r in rows if r[0] == group and r[1] >= t]
            right = sum(r[2] for r in answered)
            out.append({"group": group, "threshold": t, "answered": len(answered), "right": right,
                        "precision": round(right / len(answered), 3) if answered else None,
                        "gain": right - sum(r[3] for r in answered)})
    return out


def summary(verdicts: list[Verdict]) -> dict[str, Any]:
    """{split: {"correct", "total", "accuracy", "families": {family: [correct, total]}}}"""
    out: dict[str, Any] = {}
    for split in SPLITS:
        rows = [v for v in verdicts if v.log.split == split]
        families: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for v in rows:
            families[v.log.family][0] += int(v.correct)
            families[v.log.family][1] += 1
        correct = sum(v.correct for v in rows)
        out[split] = {
            "correct": correct,
            "total": len(rows),
            "accuracy": round(correct / len(rows), 3) if rows else 0.0,
            "families": {f: families[f] for f in sorted(families)},
        }
    # Held-out logs whose root cause some development log shares, against those of a class no development log
    # has: how well what was written generalises within a known class, and how often the class itself is new.
    dev_labels = {label for v in verdicts if v.log.split == "dev" for label in v.log.expected}
    held = [v for v in verdicts if v.log.split == "heldout"]
    known = [v for v in held if dev_labels & set(v.log.expected)]
    new = [v for v in held if not dev_labels & set(v.log.expected)]
    if "heldout" in out:
        out["heldout"]["class_seen_in_dev"] = [sum(v.correct for v in known), len(known)]
        out["heldout"]["class_new"] = [sum(v.correct for v in new), len(new)]
        cited = cited_sources()
        clean = [v for v in held if v.log.source not in cited]
        out["heldout"]["uncited"] = [sum(v.correct for v in clean), len(clean)]
    return out


def answer_kind(top: str | None) -> str:
    """What kind of answer a verdict's top is: none, unknown, entry (ARL-), derived (DRV-) or similar (SIM-)."""
    if top is None:
        return "none"
    if top.startswith("unknown:"):
        return "unknown"
    return {"ARL": "entry", "DRV": "derived", "SIM": "similar"}.get(top.split("-", 1)[0], "other")


def render(verdicts: list[Verdict], splits: tuple[str, ...] = SPLITS, heldout_misses: bool = False) -> str:
    """The table per split and family, then the misses; ``splits`` limits both (``--dev-only``: no held-out line at all).

    Held-out misses are counted by kind of answer, not listed, unless ``heldout_misses``: a list of held-out names,
    labels and answers read by someone who then writes knowledge is a leak of the held-out set (realworld/README,
    "Slips", 2026-12-04 fourth stop).
    """
    table = summary(verdicts)
    lines = []
    for split in splits:
        s = table[split]
        lines.append(f"{split}: {s['correct']}/{s['total']} top-1 correct ({s['accuracy']:.1%})")
        for family, (ok, n) in s["families"].items():
            lines.append(f"  {family:<12} {ok:>3}/{n:<3}")
        if "class_seen_in_dev" in s:
            (ok_k, n_k), (ok_n, n_n) = s["class_seen_in_dev"], s["class_new"]
            lines.append(f"  root cause also in dev: {ok_k}/{n_k}; a class no dev log has: {ok_n}/{n_n}")
        if "uncited" in s:
            ok_u, n_u = s["uncited"]
            lines.append(f"  threads no entry or case cites: {ok_u}/{n_u} ({ok_u / n_u:.1%})" if n_u else "")
        if split == "heldout" and not heldout_misses:
            kinds = Counter(answer_kind(v.top) for v in verdicts if v.log.split == split and not v.correct)
            lines.append("  misses by answer: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common())
                         + " (listed with --heldout-misses)")
    lines.append("misses:")
    for v in verdicts:
        if not v.correct and v.log.split in splits and (v.log.split != "heldout" or heldout_misses):
            lines.append(f"  {v.log.split}/{v.log.path.name}: expected {'|'.join(v.log.expected)}, got {v.top}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE", help="also write the per-split, per-family table as JSON")
    parser.add_argument("--curve", action="store_true", help="dev only: the similar fallback's precision/coverage by threshold")
    parser.add_argument("--leave-thread-out", action="store_true",
                        help="dev only: each log without the catalog entries its own thread gave")
    parser.add_argument("--only", metavar="FILE",
                        help="score only the logs FILE names, one 'dev/x.log' or 'heldout/x.log' per line (a round)")
    parser.add_argument("--dev-only", action="store_true",
                        help="print the development split only: no held-out figure, family line or miss (for people writing knowledge)")
    parser.add_argument("--heldout-misses", action="store_true",
                        help="also list the held-out misses by name, label and answer (never before writing knowledge)")
    parser.add_argument("--without", metavar="FILE",
                        help="leave out the logs FILE names ('heldout/x.log' per line): logs whose verdicts someone has seen")
    parser.add_argument("--fresh", action="store_true",
                        help="with --only: score the round as unseen, its dev logs left out of the similar index too")
    args = parser.parse_args(argv)
    if args.fresh and not args.only:
        parser.error("--fresh needs --only")
    if args.curve and args.leave_thread_out:
        for row in curve_leave_thread_out():
            print("  ".join(f"{k}={v}" for k, v in row.items()))
        return 0
    names = set(Path(args.only).read_text(encoding="utf-8").split()) if args.only else None
    if args.leave_thread_out:
        verdicts = score_leave_thread_out(only=names)
        dev = summary(verdicts)["dev"]
        print(f"dev, leave-thread-out: {dev['correct']}/{dev['total']} top-1 correct ({dev['accuracy']:.1%})")
        for family, (ok, n) in dev["families"].items():
            print(f"  {family:<12} {ok:>3}/{n:<3}")
        # As for held-out: a root cause that another dev thread also shows, against one only this thread shows.
        shared = [v for v in verdicts if any(w.log.source != v.log.source and set(w.log.expected) & set(v.log.expected)
                                             for w in verdicts)]
        alone = [v for v in verdicts if v not in shared]
        print(f"  root cause also in another dev thread: {sum(v.correct for v in shared)}/{len(shared)}; "
              f"only in this thread: {sum(v.correct for v in alone)}/{len(alone)}")
        print("misses:")
        for v in verdicts:
            if not v.correct:
                print(f"  dev/{v.log.path.name}: expected {'|'.join(v.log.expected)}, got {v.top}")
        return 0
    if args.curve:
        for row in curve():
            print("  ".join(f"{k}={v}" for k, v in row.items()))
        return 0
    unseen = frozenset(log.source for log in load_logs() if _named(log, names)) if args.fresh else frozenset()
    verdicts = score(unseen=unseen, only=names)
    if args.without:
        seen = {line.strip() for line in Path(args.without).read_text(encoding="utf-8").splitlines()
                if line.strip() and not line.startswith("#")}
        verdicts = [v for v in verdicts if f"{v.log.split}/{v.log.path.name}" not in seen]
    print(render(verdicts, ("dev",) if args.dev_only else SPLITS, heldout_misses=args.heldout_misses))
    if args.json:
        table = summary(verdicts)
        table = {k: v for k, v in table.items() if k == "dev"} if args.dev_only else table
        Path(args.json).write_text(json.dumps(table, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
