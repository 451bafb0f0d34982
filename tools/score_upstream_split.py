#!/usr/bin/env python3
"""Time-split score of the upstream-fix matcher (maintainer tool).

Builds the index as it would have been on day D (`mine_upstream_fixes.py --until D`), then
replays fixes merged on or after D: each one's quoted error line (the raw line, as a user
would paste it, not its template) is matched against the before-D index.

What that can and cannot measure: a fix after D is by construction absent from the index,
so the matcher can only be *right* when the same failure had been fixed before D (a
recurrence, a regression, the same bug fixed for another model or branch). For every query
the top match is judged:

  same-cause   the top match and the later fix touched a common file, or share a traceback
               frame (the same code was at fault);
  same-message the top match has the identical template and quoted values, but no common
               file or frame (the same error text, cause not confirmed);
  backport     the top match is the same change (same subject once [vX.Y] / (#N) are
               removed): counted apart, as it is a cherry-pick, not a recurrence;
  false        anything else the matcher returned;
  none         nothing returned.

With --with-frames the paste also carries the traceback frames the later fix quoted (as a
user pasting a traceback would); otherwise it is the error line alone.

coverage = matched / queries; precision = same-cause / matched (strict) and
(same-cause + same-message) / matched (lenient); both exclude backports from the numerator
and the denominator. `answerable` counts queries for which the before-D index holds an entry
with the same template and quoted values and a common file or frame (a true earlier fix existed); `recall` = same-cause
top-1 / answerable. `same-message-before-D` counts queries whose exact message (template and
quoted values) the before-D index holds at all, whatever code it was fixed in.

    python tools/score_upstream_split.py --until 2026-05-01 \
        --repo vllm-project/vllm-ascend=/path/vllm-ascend.git --repo ... [--index built.json]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import mine_upstream_fixes as miner  # noqa: E402

from ascendrl.catalog import upstream  # noqa: E402

_SUBJ_NOISE = re.compile(r"\[[^\]]*\]|\(#\d+\)|^(?:cherry[- ]pick|backport)\W*", re.I)


def _subject_key(s: str) -> str:
    return " ".join(_SUBJ_NOISE.sub(" ", s).lower().split())


def judge(q: dict, top: upstream.UpstreamFix | None) -> str:
    if top is None:
        return "none"
    if _subject_key(q["subject"]) == _subject_key(top.subject) or q.get("pr") == top.pr and q["repo"] == top.repo:
        return "backport"
    if set(q["files"]) & set(top.files) or set(q["frames"]) & set(top.frames):
        return "same-cause"
    if q["template"] == top.template and sorted(q["args"]) == sorted(top.args):
        return "same-message"
    return "false"


def answerable(q: dict, index: list[dict]) -> bool:
    """The before-D index holds the same message (template and quoted values) fixed in the same code."""
    return any(e["template"] == q["template"] and sorted(e["args"]) == sorted(q["args"])
               and (set(e["files"]) & set(q["files"]) or set(e["frames"]) & set(q["frames"]))
               and _subject_key(e["subject"]) != _subject_key(q["subject"]) for e in index)


def same_message_before(q: dict, index: list[dict]) -> bool:
    return any(e["template"] == q["template"] and sorted(e["args"]) == sorted(q["args"]) for e in index)


def self_retrieval(data_file: str) -> tuple[int, int]:
    """Each entry's own raw line, dressed as a log line (Ray prefix, colour), finds that entry first.

    Not a generalisation measure: it checks that normalisation and ranking are consistent
    (a generic message is expected to miss here, since alone it needs a frame in common).
    """
    entries = json.loads(Path(data_file).read_text())["entries"]
    hit = 0
    for e in entries:
        line = "\x1b[36m(WorkerDict pid=4242, ip=10.0.0.1)\x1b[0m " + e["raw_example"]
        got = upstream.match([line], {}, data_file=data_file, limit=1)
        hit += bool(got) and got[0].template == e["template"] and got[0].repo == e["repo"]
    return hit, len(entries)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", action="append", required=True, metavar="OWNER/NAME=GITDIR")
    ap.add_argument("--until", required=True, help="split day D (YYYY-MM-DD, UTC)")
    ap.add_argument("--index", help="reuse an index already built with --until D")
    ap.add_argument("--json", help="write per-query results here")
    ap.add_argument("--with-frames", action="store_true",
                    help="paste the traceback frames the later fix quoted along with its error line")
    ap.add_argument("--logs", nargs="*", default=[],
                    help="also match these real failure logs against the shipped data and list what matched")
    ap.add_argument("--self-check", metavar="DATA_FILE", help="also report self-retrieval on this data file")
    a = ap.parse_args(argv)
    day = dt.datetime.fromisoformat(a.until).replace(tzinfo=dt.timezone.utc)
    repos = [r.partition("=")[::2] for r in a.repo]

    index_path = a.index
    if not index_path:
        index_path = str(Path(tempfile.mkdtemp()) / "index.json")
        rc = miner.main([x for r in a.repo for x in ("--repo", r)] + ["--until", a.until, "--no-tags", "-o", index_path])
        if rc:
            return rc
    index = json.loads(Path(index_path).read_text())["entries"]
    if any(e["date"] >= a.until for e in index):
        print(f"error: {index_path} holds entries dated on/after {a.until}; build it with --until", file=sys.stderr)
        return 2

    queries = []
    for repo, gitdir in repos:
        queries += miner.mine(repo, gitdir, None, log=lambda s: None, since=day, with_tags=False)

    rows, per_repo = [], defaultdict(Counter)
    for q in queries:
        paste = [q["raw_example"]]
        if a.with_frames:   # the traceback the PR quoted, as a user pasting it would include it
            paste = [f'  File "/site-packages/{f.rsplit(":", 1)[0]}", line 1, in {f.rsplit(":", 1)[1]}'
                     for f in q["frames"]] + paste
        got = upstream.match(paste, {}, data_file=index_path, limit=1)
        top = got[0] if got else None
        verdict = judge(q, top)
        ans = answerable(q, index)
        per_repo[q["repo"]][verdict] += 1
        per_repo[q["repo"]]["answerable"] += ans
        per_repo[q["repo"]]["answerable-hit"] += ans and verdict == "same-cause"
        per_repo[q["repo"]]["same-message-before"] += same_message_before(q, index)
        rows.append({"query": q["raw_example"], "query_repo": q["repo"], "query_pr": q["pr"],
                     "query_date": q["date"], "verdict": verdict, "answerable": ans,
                     "top": None if top is None else {"repo": top.repo, "pr": top.pr, "date": top.date,
                                                      "template": top.template, "score": top.score}})

    def line(name: str, c: Counter) -> str:
        n = sum(c[k] for k in ("same-cause", "same-message", "backport", "false", "none"))
        matched = c["same-cause"] + c["same-message"] + c["false"]
        prec = f"{c['same-cause'] / matched:.0%}" if matched else "n/a"
        plen = f"{(c['same-cause'] + c['same-message']) / matched:.0%}" if matched else "n/a"
        rec = f"{c['answerable-hit']}/{c['answerable']}"
        return (f"{name:28} queries={n:4} backport={c['backport']:3} matched={matched:3} "
                f"coverage={matched / max(n - c['backport'], 1):.0%} same-cause={c['same-cause']:3} "
                f"same-message={c['same-message']:3} false={c['false']:3} precision strict={prec} "
                f"lenient={plen} answerable top-1={rec} same-message-before-D={c['same-message-before']}")

    total = Counter()
    for repo, c in sorted(per_repo.items()):
        total.update(c)
        print(line(repo, c))
    print(line("all", total))
    print(f"index: {len(index)} entries before {a.until}; queries: fixes on/after {a.until} quoting an error line")
    if a.self_check:
        hit, n = self_retrieval(a.self_check)
        print(f"self-retrieval on {a.self_check}: {hit}/{n} entries found first from their own dressed raw line")
    if a.logs:
        hits = 0
        for p in a.logs:
            got = upstream.match(Path(p).read_text(errors="replace").splitlines(), {}, limit=1)
            if got:
                hits += 1
                print(f"  {p}: {got[0].repo}#{got[0].pr} {got[0].template[:100]!r}")
        print(f"real logs: {hits}/{len(a.logs)} matched an upstream fix (shipped data); judge each line above")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
