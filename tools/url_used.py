#!/usr/bin/env python3
"""Whether a thread URL is already used by the corpus, a golden case or the catalog (maintainer tool).

A collector runs it on every candidate thread before writing a log from it, and a knowledge writer before citing
one: a thread is used once, so a held-out log never measures knowledge written from its own thread. It prints
USED or new per URL and never the URLs it found, so held-out sources are not shown. GitHub threads compare by
owner/repo and number (issues, pulls and discussions alike; volcengine/verl is verl-project/verl); a file on GitHub by
owner/repo and path, whatever the branch or tag; a hiascend.com documentation page by its page name, whatever the
product release, language or site section it was built under (hcclug_000050 under zh/CANNCommunityEdition/latest is the
page the catalog cites under en/canncommercial/850: round 20 wrote a log from the one before noticing the other). A page
name two unrelated releases share makes the check answer USED for both: a collector skips a page, never uses one twice.

    python tools/url_used.py URL [URL ...] [--also DIR ...]   # --also: another checkout (a collector's worktree)
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
URL = re.compile(r"https?://[^\s'\"<>)\]]+")
GITHUB = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)/(?:issues|pull|discussions)/(\d+)", re.I)
GITHUB_FILE = re.compile(r"github\.com/([\w.-]+)/([\w.-]+)/(?:blob|tree|raw)/[^/\s]+/([^?#\s]+)", re.I)
HIASCEND_PAGE = re.compile(r"hiascend\.com/(?:document|doc_center|developer)/\S*?([\w.-]+?)(?:\.html?)?/?(?:[?#]\S*)?$", re.I)
SUFFIXES = {".log", ".yaml", ".yml", ".md", ".expect", ".json", ".txt", ".py"}


def key(url: str) -> str:
    m = GITHUB.search(url)
    if m:
        owner, repo, number = m.group(1).lower(), m.group(2).lower(), m.group(3)
        if repo == "verl" and owner == "volcengine":
            owner = "verl-project"
        return f"github:{owner}/{repo}#{number}"
    m = GITHUB_FILE.search(url)
    if m:
        owner, repo = m.group(1).lower(), m.group(2).lower()
        if repo == "verl" and owner == "volcengine":
            owner = "verl-project"
        return f"github-file:{owner}/{repo}/{m.group(3).rstrip('/.,')}"
    m = HIASCEND_PAGE.search(url.rstrip(".,"))
    if m:
        return f"hiascend-page:{m.group(1).lower()}"
    return url.rstrip("/.,").split("#")[0].lower()


# A file in a git repository on any forge (GitHub, gitcode, gitee; /-/blob/ on gitcode): its repository and file name.
FORGE_FILE = re.compile(r"(?:github\.com|gitcode\.com|gitcode\.net|gitee\.com)/[\w.-]+/([\w.-]+)/(?:-/)?(?:blob|tree|raw)/[^/\s]+/"
                        r"(?:[^?#\s]*/)?([^/?#\s]+)", re.I)
# File names a repository has many of: no page by that name alone.
COMMON_NAMES = {"readme.md", "readme.rst", "readme_en.md", "readme.en.md", "index.md", "index.rst", "summary.md"}


def keys(url: str) -> set[str]:
    """The page's key, and for a file in a repository its repository and file name: a troubleshooting page moved to
    another folder (Ascend/pytorch's docs/zh/troubleshooting/ -> docs/zh/user_guide/troubleshooting/troubleshooting_cases/),
    or mirrored on gitcode / gitee under another owner, is the same page (a slip of 2026-12-04: the moved path read new)."""
    out = {key(url)}
    m = FORGE_FILE.search(url)
    if m and m.group(2).lower() not in COMMON_NAMES:
        out.add(f"file:{m.group(1).lower()}/{m.group(2).lower()}")
    return out


def used(roots: list[Path]) -> set[str]:
    found: set[str] = set()
    for root in roots:
        for top in (root / "tests" / "explain", root / "catalog"):
            for path in top.rglob("*"):
                if path.suffix in SUFFIXES and path.is_file():
                    for u in URL.findall(path.read_text(encoding="utf-8", errors="replace")):
                        found |= keys(u)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("urls", nargs="+")
    parser.add_argument("--also", action="append", default=[], type=Path, help="another checkout to check too")
    args = parser.parse_args()
    taken = used([REPO, *args.also])
    for url in args.urls:
        print(("USED " if keys(url) & taken else "new  ") + url)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
