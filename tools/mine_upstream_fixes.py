#!/usr/bin/env python3
"""Mine fix commits that quote an error line from upstream git history (maintainer tool).

Not shipped in the package. Reads local (bare or normal) clones of vllm-project/vllm-ascend,
verl-project/verl and Ascend/pytorch with plain `git`, and writes the data file that
`ascendrl.catalog.upstream` matches logs against:

    python tools/mine_upstream_fixes.py \
        --repo vllm-project/vllm-ascend=/path/to/vllm-ascend.git \
        --repo verl-project/verl=/path/to/verl.git \
        --repo Ascend/pytorch=/path/to/pytorch.git \
        [--until 2026-05-01] -o catalog/data/upstream_fixes.json

A commit is kept when it is a fix (subject or body says fix / bugfix / [Bugfix], or the
Ascend PR template ticks 问题单) and its message quotes a concrete error line
(``XxxError: ...``, a CANN code such as EZ9999 / EE1001, a torch_npu ERRxxyyy tag, an ACL
return code). Only facts are copied: the message line, PR number, dates, tags, file names.

``tag_first_fixed`` is the earliest release tag (by version order, then tag date) whose
history contains the commit; ``fixed_in`` lists the earliest such tag per release line
(0.11 for vllm-ascend, 2.5.1 for torch_npu), since fixes reach release branches through
cherry-picks with other hashes: entries with the same repo, template and quoted values are
merged so a backport adds its line. With ``--until D`` only commits and tags dated before
D are read, as if the index had been built on D.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from packaging.version import InvalidVersion, Version

from ascendrl.catalog.upstream import extract_errors, frame_key, is_concrete, release_line, template_of

PACKAGE = {"vllm-project/vllm-ascend": "vllm-ascend", "verl-project/verl": "verl",
           "volcengine/verl": "verl", "Ascend/pytorch": "torch-npu"}

_FIX = re.compile(r"\b(?:bug ?fix(?:es|ed)?|hot ?fix|fix(?:es|ed|ing)?)\b|\[bugfix\]|\[fix\]", re.I)
_CHECKLIST = re.compile(r"^\s*[-*]\s*\[[ xX]\]")
_TICKED_BUG = re.compile(r"^\s*[-*]\s*\[[xX]\]\s*问题单")
_ISSUE = re.compile(r"\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?)\s*:?\s*()#(\d+)|"
                    r"https://(?:github\.com|gitcode\.com)/([\w.-]+/[\w.-]+)/issues/(\d+)", re.I)
_PR_GH = re.compile(r"\(#(\d+)\)\s*$")
_PR_GITCODE = re.compile(r"See merge request: \S+!(\d+)|^!(\d+) ", re.M)
_WORKAROUND = re.compile(r"^\s*(?:[-*>]\s*)?(?:\*\*)?(?:workarounds?|work around|you can set|as a workaround|"
                         r"to avoid (?:this|it)[^.]{0,40}\b(?:set|use|pass)\b)\b.*", re.I)
_TEST_ONLY = re.compile(r"^(?:tests?|\.github|\.ci|ci|docs?|benchmarks?|examples?)/|/tests?/|(?:^|/)test_[^/]*\.py$|\.md$")
_CAN_SET = re.compile(r"\b(?:can|could|should) (?:be )?set\b.{0,80}?\bto avoid\b", re.I)
_FRAME = re.compile(r'File "([^"]+)", line \d+, in (\S+)')
_RAISE = re.compile(r"^\s*(?:[-+]\s*)?(?:raise|except|assert|logger\.|log\.|print\(|#|//|>>>)")
# Wrapper messages that only say "something failed elsewhere": never a root cause by themselves.
_WRAPPERS = re.compile(
    r"Exception in worker process|Engine core initialization failed|Worker failed with error|"
    r"Error executing job|EZ9999: Inner Error!?\s*$|^RayTaskError|Failed to load the backend extension|"
    # torch_npu's ERR tags alone (ERR99999 UNKNOWN ..., ERR00100 PTA call acl api failed): the
    # CANN lines under them carry the cause
    r"^ERR\d{5} [A-Z]+ [\w ]+$|"
    r"Traceback|call aclnn\w* failed\s*$|"
    # test-suite assertion output, not a failure a user meets
    r"Tensor-likes are not|Scalars are not|Regex didn't match|unexpectedly identical|is not true\b", re.I)


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", gitdir, *args], check=True,
                          capture_output=True, text=True, errors="replace").stdout


def tag_versions(gitdir: str, repo: str, until: dt.datetime | None) -> dict[str, tuple[Version, str, int]]:
    """tag → (comparable version, release line, unix date) for the repo's release tags."""
    out: dict[str, tuple[Version, str, int]] = {}
    raw = git(gitdir, "for-each-ref", "refs/tags",
              "--format=%(refname:short)\t%(creatordate:unix)\t%(*objectname)%(objectname)")
    for row in raw.splitlines():
        tag, ts, _ = row.split("\t")
        if until and int(ts) >= until.timestamp():
            continue
        pkg = PACKAGE[repo]
        try:
            if pkg == "torch-npu":
                # v7.1.0-pytorch2.5.1: the pip version (2.5.1.post1) is in version.txt at the tag.
                if not re.match(r"[vV]\d[\w.-]*-pytorch\d", tag):
                    continue       # release tags only (not compatibility_release-*, 7.3.0.alpha002)
                v = Version(git(gitdir, "show", f"{tag}:version.txt").strip())
            else:
                v = Version(tag.lstrip("vV"))
        except (InvalidVersion, subprocess.CalledProcessError):
            continue
        out[tag] = (v, release_line(pkg, v), int(ts))
    return out


def fixed_in(gitdir: str, sha: str, tags: dict) -> dict[str, list[str]]:
    """Earliest tag per release line whose history contains sha: {line: [tag, version]}."""
    best: dict[str, tuple] = {}
    for tag in git(gitdir, "tag", "--contains", sha).split():
        if tag not in tags:
            continue
        v, line, ts = tags[tag]
        if line not in best or (v, ts) < best[line][:2]:
            best[line] = (v, ts, tag)
    return {line: [t, str(v)] for line, (v, _, t) in best.items()}


def touched(gitdir: str, sha: str) -> list[str]:
    """Files the commit changed (a mirror may lack some trees: then none)."""
    try:
        names = git(gitdir, "show", "--no-renames", "--name-only", "--format=", sha)
    except subprocess.CalledProcessError:
        return []
    return [n for n in names.splitlines() if n][:15]


def is_fix(subject: str, body: str) -> bool:
    if subject.lower().startswith("revert"):
        return False                   # the fix was taken back
    if _FIX.search(subject):
        return True
    lines = body.splitlines()
    if any(_TICKED_BUG.match(ln) for ln in lines):
        return True
    text = "\n".join(ln for ln in lines[:40] if not _CHECKLIST.match(ln) and "类型标签" not in ln)
    return bool(_FIX.search(text))


def error_lines(body: str) -> list[tuple[str, str, list[str]]]:
    """(raw line, template, quoted values) for each concrete error line quoted in a message."""
    out, seen = [], set()
    lines = body.splitlines()
    for n, ln in enumerate(lines):
        nxt = lines[n + 1] if n + 1 < len(lines) else ""
        if 60 <= len(ln) <= 80 and (nxt[:1].islower() or nxt[:1] in ("'", '"')):
            ln = ln + " " + nxt        # a message hard-wrapped at ~72 columns by the PR author
        if _RAISE.match(ln) or len(ln) > 2000:
            continue
        for msg in extract_errors(ln):
            tmpl, args = template_of(msg)
            if tmpl in seen or _WRAPPERS.search(tmpl):
                continue
            # KeyError: 'ground_truth' — no words, but a specific value: kept; the matcher
            # then requires the same value.
            if not is_concrete(tmpl) and not (args and max(map(len, args)) >= 6):
                continue
            seen.add(tmpl)
            out.append((msg.strip()[:200], tmpl, args[:6]))
    # The same message quoted twice, once cut short: keep the full one.
    out = [o for o in out if not any(p[1] != o[1] and p[1].startswith(o[1]) for p in out)]
    return out[:3]


def workaround(body: str) -> str | None:
    """Where the description states a workaround: a line that starts with one, or a sentence
    saying a setting can be set to avoid the error. The line and its continuation."""
    lines = body.splitlines()
    for i, ln in enumerate(lines):
        pair = " ".join(x.strip() for x in lines[i:i + 2])
        if (_WORKAROUND.match(ln) and not re.search(r"remov|revert|no longer|instead of|redundant", ln, re.I)) \
                or (_CAN_SET.search(pair) and _CAN_SET.search(pair).start() < len(ln.strip())):
            text = ln.strip()
            if i + 1 < len(lines) and lines[i + 1].strip() and not text.endswith((".", ":")):
                text += " " + lines[i + 1].strip()
            return text[:240]
    return None


def link(repo: str, pr: int | None, sha: str) -> str:
    if pr is None:
        return f"https://github.com/{repo}/commit/{sha}"
    if repo == "Ascend/pytorch":
        return f"https://gitcode.com/Ascend/pytorch/pull/{pr}"
    return f"https://github.com/{repo}/pull/{pr}"


def mine(repo: str, gitdir: str, until: dt.datetime | None, log=print,
         since: dt.datetime | None = None, with_tags: bool = True) -> list[dict]:
    """Entries for one repository; `since` / `with_tags=False` serve the time-split scorer."""
    tags = tag_versions(gitdir, repo, until) if with_tags else {}
    args = ["log", "--branches", "--no-merges", "--format=%x1e%H%x1f%cI%x1f%s%x1f%b"]
    if until:
        args.append(f"--before={until.isoformat()}")
    if since:
        args.append(f"--since={since.isoformat()}")
    commits = git(gitdir, *args).split("\x1e")[1:]
    log(f"{repo}: {len(commits)} commits, {len(tags)} release tags")
    groups: dict[tuple, dict] = {}
    n_fix = 0
    for c in commits:
        sha, date, subject, body = c.split("\x1f")
        when = dt.datetime.fromisoformat(date)
        if (until and when >= until) or (since and when < since):
            continue
        if not is_fix(subject, body):
            continue
        n_fix += 1
        found = error_lines(_PR_GH.sub("", subject) + "\n" + body)
        if not found:
            continue
        m = _PR_GH.search(subject) or _PR_GITCODE.search(body)
        pr = int(next(g for g in m.groups() if g)) if m else None
        frames = list(dict.fromkeys(frame_key(f.group(1), f.group(2)) for f in _FRAME.finditer(body)))[:8]
        files = touched(gitdir, sha)
        if files and all(_TEST_ONLY.search(f) for f in files):
            continue        # only tests / CI / docs changed: the user-facing code did not have the bug
        wa = workaround(body)
        issues = sorted({int(n1 or n2) for _, n1, where, n2 in _ISSUE.findall(body)
                         if n1 or where.lower() == repo.lower()} - {pr})[:3]
        for raw, tmpl, qargs in found:
            key = (tmpl, tuple(sorted(set(qargs))))
            entry = {"repo": repo, "package": PACKAGE[repo], "pr": pr, "link": link(repo, pr, sha),
                     "commit": sha, "date": date[:10], "subject": subject[:160],
                     "template": tmpl, "raw_example": raw, "args": qargs, "frames": frames,
                     "files": files, "workaround": wa, "issues": issues}
            old = groups.get(key)
            if old is None or entry["date"] < old["date"]:
                if old is not None:
                    entry["_shas"] = old["_shas"]
                groups[key] = entry
            groups[key].setdefault("_shas", []).append(sha)
    log(f"{repo}: {n_fix} fix commits, {len(groups)} entries with a concrete error line")
    out = []
    for e in groups.values():
        merged: dict[str, list[str]] = {}
        for sha in e.pop("_shas") if with_tags else ():
            for line, (tag, ver) in fixed_in(gitdir, sha, tags).items():
                if line not in merged or (Version(ver), tag) < (Version(merged[line][1]), merged[line][0]):
                    merged[line] = [tag, ver]
        e["fixed_in"] = dict(sorted(merged.items(), key=lambda kv: tuple(int(x) for x in kv[0].split("."))))
        first = min(merged.values(), key=lambda tv: (Version(tv[1]), tags[tv[0]][2]), default=None)
        e["tag_first_fixed"] = first[0] if first else None
        out.append(e)
    out.sort(key=lambda e: (e["date"], e["commit"], e["template"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", action="append", required=True, metavar="OWNER/NAME=GITDIR",
                    help="a repository and the path of its local clone (bare is fine); repeatable")
    ap.add_argument("--until", help="only commits and tags dated before this day (YYYY-MM-DD, UTC)")
    ap.add_argument("-o", "--output", required=True, help="JSON file to write")
    ap.add_argument("--no-tags", action="store_true",
                    help="skip the release-tag lookup (fast; for scoring, where versions do not matter)")
    a = ap.parse_args(argv)
    until = None
    if a.until:
        try:
            until = dt.datetime.fromisoformat(a.until).replace(tzinfo=dt.timezone.utc)
        except ValueError:
            print(f"error: --until {a.until!r} is not a date like 2026-05-01", file=sys.stderr)
            return 2
    entries: list[dict] = []
    sizes = {}
    for spec in a.repo:
        repo, sep, gitdir = spec.partition("=")
        if not sep or repo not in PACKAGE:
            print(f"error: --repo {spec!r}: expected one of {sorted(PACKAGE)}=GITDIR", file=sys.stderr)
            return 2
        try:
            got = mine(repo, gitdir, until, log=lambda s: print(s, file=sys.stderr), with_tags=not a.no_tags)
        except (subprocess.CalledProcessError, FileNotFoundError) as exc:
            err = getattr(exc, "stderr", "") or exc
            print(f"error: cannot read {gitdir} as a git repository: {str(err).strip()[:200]}", file=sys.stderr)
            return 2
        sizes[repo] = len(got)
        entries += got
    data = {"schema": 1, "built_until": a.until, "generated_by": "tools/mine_upstream_fixes.py",
            "sizes": sizes, "entries": entries}
    Path(a.output).parent.mkdir(parents=True, exist_ok=True)
    Path(a.output).write_text(json.dumps(data, ensure_ascii=False, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {len(entries)} entries to {a.output}: {sizes}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
