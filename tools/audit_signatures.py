#!/usr/bin/env python3
"""Audit: does the file a signature's `confirmed:` URL names contain the signature's longest literal fragment?

For each signature whose confirmed URL is github.com/<owner>/<repo>/blob/<tag-or-commit>/<path>, read that file at
that ref offline where possible:
  * a fetched mirror (<mirror-root>/<owner>+<repo>/repo, read with `git show <ref>:<path>`), or
  * the PyPI wheel of that release for the Python projects mapped in WHEELS (downloaded once with
    `pip download --no-deps`, cached under the temp dir), the repository path mapped to the path inside the wheel.
Then check that the longest literal run of the regex (regex syntax stripped, escapes resolved; a character made
optional by ?/* ends the run) occurs in the file. Prints checked / found / missing / unreadable and each missing one.

Usage: python tools/audit_signatures.py [--mirrors DIR] [--no-download] [--ids ARL-E1,ARL-E2] [--show-unreadable]
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path


from ascendrl.catalog.classify import REGEX_TOKEN  # noqa: E402

BLOB = re.compile(r"^https://github\.com/([\w.-]+)/([\w.-]+)/blob/([^/]+)/(.+?)(?:#.*)?$")

# repository -> (PyPI name, tag -> version, repository path prefix -> wheel path prefix)
WHEELS = {
    "ray-project/ray": ("ray", r"ray-(.+)", ("python/", "")),
    "vllm-project/vllm": ("vllm", r"v(.+)", ("", "")),
    "huggingface/transformers": ("transformers", r"v(.+)", ("src/", "")),
    "huggingface/accelerate": ("accelerate", r"v(.+)", ("src/", "")),
    "huggingface/peft": ("peft", r"v(.+)", ("src/", "")),
    "huggingface/trl": ("trl", r"v(.+)", ("", "")),
    "huggingface/datasets": ("datasets", r"(?:v)?(\d.+)", ("src/", "")),
    "huggingface/huggingface_hub": ("huggingface_hub", r"v(.+)", ("src/", "")),
    "pytorch/pytorch": ("torch", r"v(.+)", ("", "")),
    "sgl-project/sglang": ("sglang", r"v(.+)", ("python/", "")),
    "pallets/click": ("click", r"(\d.+)", ("src/", "")),
    "pypa/pip": ("pip", r"(\d.+)", ("src/", "")),
}


def longest_literal(regex: str) -> str:
    """The longest run of literal text in a regex (escapes resolved); classes, groups, metacharacters end a run."""
    runs, cur = [], []
    for m in REGEX_TOKEN.finditer(regex):
        kind = m.lastgroup
        if kind == "char":
            cur.append(m.group())
        elif kind == "escaped":
            cur.append(m.group()[1])
        else:
            if cur and (kind == "quant" or m.group() in ("?", "*")):
                cur.pop()  # the character before ?, * or {m,n} may be absent or repeated
            runs.append("".join(cur))
            cur = []
    runs.append("".join(cur))
    return max((r.strip() for r in runs), key=len, default="")


# Seams where source code splits one message over several string literals: "a" "b", "a" + "b", "a" << "b",
# TORCH_CHECK(..., "a", "b") and Python's implicit concatenation over lines ("a "\n    "b").
SEAM = re.compile(r"""(?:\\n)?["']\s*(?:\+|<<|,)?\s*[fbr]?["']""")


def joined(text: str) -> str:
    """The file text with adjacent string literals joined, so a message split over several literals reads whole."""
    return SEAM.sub("", text)


# A label the logger or the interpreter prints before the message: "ERROR: ", "[Error]: ", "ValueError: ".
LABEL = re.compile(r"^\[?[A-Za-z_.]+\]?: ")


def candidates(lit: str) -> list[str]:
    """The literal, and the literal without a leading log / exception label (not part of the source's string)."""
    out = [lit]
    while LABEL.match(out[-1]) and len(LABEL.sub("", out[-1], count=1)) >= 8:
        out.append(LABEL.sub("", out[-1], count=1))
    return out


class Reader:
    def __init__(self, mirrors: Path, cache: Path, download: bool):
        self.mirrors, self.cache, self.download = mirrors, cache, download
        self.memo: dict[tuple[str, str, str], str | None] = {}
        self.wheels: dict[tuple[str, str], Path | None] = {}

    def read(self, repo: str, ref: str, path: str) -> str | None:
        key = (repo, ref, path)
        if key not in self.memo:
            self.memo[key] = self._mirror(repo, ref, path)
            if self.memo[key] is None:
                self.memo[key] = self._wheel(repo, ref, path)
        return self.memo[key]

    def _mirror(self, repo: str, ref: str, path: str) -> str | None:
        if str(self.mirrors) in ("", ".") or not self.mirrors.is_dir():
            return None
        want = repo.replace("/", "+").lower()
        for d in self.mirrors.iterdir():
            if d.name.lower() == want:
                git = d / "repo" if (d / "repo").exists() else d
                r = subprocess.run(["git", "-C", str(git), "show", f"{ref}:{path}"], capture_output=True)
                if r.returncode == 0:
                    return r.stdout.decode("utf-8", "replace")
        return None

    def _wheel(self, repo: str, ref: str, path: str) -> str | None:
        spec = WHEELS.get(repo)
        if not spec:
            return None
        pkg, tag_re, (src_prefix, dst_prefix) = spec
        m = re.fullmatch(tag_re, ref)
        if not m or not path.startswith(src_prefix):
            return None
        whl = self._fetch(pkg, m.group(1))
        if whl is None:
            return None
        inner = dst_prefix + path[len(src_prefix):]
        try:
            with zipfile.ZipFile(whl) as z:
                names = [n for n in z.namelist() if n == inner or n.endswith(("/purelib/" + inner, "/platlib/" + inner))]
                # the release exists but has no such file: nothing to find in it
                return z.read(names[0]).decode("utf-8", "replace") if names else ""
        except zipfile.BadZipFile:
            return None

    def _fetch(self, pkg: str, version: str) -> Path | None:
        key = (pkg, version)
        if key in self.wheels:
            return self.wheels[key]
        dest = self.cache / f"{pkg}-{version}"
        found = sorted(dest.glob("*.whl")) if dest.is_dir() else []
        if not found and self.download:
            dest.mkdir(parents=True, exist_ok=True)
            subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary", ":all:",
                            "-d", str(dest), f"{pkg}=={version}"], capture_output=True)
            found = sorted(dest.glob("*.whl"))
            if not found:  # an old release has no wheel for this interpreter: take the one for CPython 3.9 / Linux
                subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary", ":all:",
                                "--python-version", "3.9", "--platform", "manylinux2014_x86_64", "-d", str(dest),
                                f"{pkg}=={version}"], capture_output=True)
                found = sorted(dest.glob("*.whl"))
        self.wheels[key] = found[0] if found else None
        return self.wheels[key]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirrors", default=os.environ.get("AUDIT_MIRRORS", ""),
                    help="folder of fetched mirrors (<owner>+<repo>/repo); default $AUDIT_MIRRORS, else none")
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "audit_signatures_cache"))
    ap.add_argument("--no-download", action="store_true", help="use only wheels already in the cache")
    ap.add_argument("--ids", default="", help="comma-separated entry ids to audit (default: all)")
    ap.add_argument("--show-unreadable", action="store_true")
    ap.add_argument("--catalog", default=str(Path(__file__).resolve().parents[1] / "catalog" / "known_failures"))
    args = ap.parse_args(argv)

    import yaml

    ids = {i.strip() for i in args.ids.split(",") if i.strip()}
    reader = Reader(Path(args.mirrors) if args.mirrors else Path(""), Path(args.cache), not args.no_download)
    counts = {"checked": 0, "found": 0, "missing": 0, "unreadable": 0}
    missing, unreadable = [], []
    root = Path(args.catalog)
    for f in sorted(root.glob("*.yaml")):
        for entry in yaml.safe_load(f.read_text()) or []:
            if ids and entry.get("id") not in ids:
                continue
            for sig in entry.get("signatures") or []:
                url = (sig.get("confirmed") or "").strip()
                m = BLOB.match(url)
                regex = sig.get("regex")
                if not m or not regex:
                    continue
                owner, name, ref, path = m.groups()
                counts["checked"] += 1
                text = reader.read(f"{owner}/{name}", ref, path)
                if text is None:
                    counts["unreadable"] += 1
                    unreadable.append((entry["id"], url))
                    continue
                lit = longest_literal(regex)
                if lit and any(c in text or c in joined(text) for c in candidates(lit)):
                    counts["found"] += 1
                else:
                    counts["missing"] += 1
                    missing.append((entry["id"], f.name, lit, url))
    print("checked {checked}  found {found}  missing {missing}  unreadable {unreadable}".format(**counts))
    for eid, fname, lit, url in missing:
        print(f"MISSING {eid} ({fname}): {lit!r} not in {url}")
    if args.show_unreadable:
        for eid, url in unreadable:
            print(f"UNREADABLE {eid}: {url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
