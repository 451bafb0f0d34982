#!/usr/bin/env python3
"""Build catalog/data/requires_python.json: which Python each release of the stack's packages admits.

pip installs only a release whose Requires-Python admits the running interpreter, and says so rarely: "Could not find a
version that satisfies the requirement X (from versions: none)", an older release of X installed in silence (then
"cannot import name ..."), or X's code failing at import on an interpreter its metadata did not exclude. The package
index states every file's Requires-Python (the simple API's ``requires-python``, PEP 503 ``data-requires-python`` /
PEP 691), which is what pip reads: this reads it from the index pip is configured with, one page per package, so
nothing is downloaded, installed or imported (torch's wheels are never fetched). The releases are the ones
``pip index versions`` lists (``tools/build_api_history.releases``).

    python tools/build_requires_python.py                  # all packages in PACKAGES
    python tools/build_requires_python.py --only trl       # one package (merged into the existing file)

Per package the table keeps the newest release of each minor line and the first release of each change of
Requires-Python (so every release between two kept ones has the Requires-Python of the lower one), each with its
Requires-Python (null: none stated) and, where every wheel of it is built for particular CPython versions (cp310, no
``py3`` / ``abi3`` wheel), the oldest of those ("wheels").
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

from packaging.utils import (InvalidSdistFilename, InvalidWheelFilename, canonicalize_name, parse_sdist_filename,
                            parse_wheel_filename)
from packaging.version import InvalidVersion, Version

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_api_history import ROOT, listed_versions, releases  # noqa: E402  (the same index, the same release list)

OUT = ROOT / "catalog" / "data" / "requires_python.json"
# pip name -> (import name, the first minor line read): the packages a verl GRPO user installs, and their pins.
PACKAGES = {
    "verl": ("verl", "0.1"),
    "vllm": ("vllm", "0.2"),
    "vllm-ascend": ("vllm_ascend", "0.7"),
    "torch": ("torch", "1.13"),
    "torch-npu": ("torch_npu", "2.1"),
    "transformers": ("transformers", "4.30"),
    "trl": ("trl", "0.1"),
    "peft": ("peft", "0.1"),
    "accelerate": ("accelerate", "0.1"),
    "datasets": ("datasets", "2.0"),
    "huggingface-hub": ("huggingface_hub", "0.10"),
    "ray": ("ray", "2.0"),
    "numpy": ("numpy", "1.21"),
    "math-verify": ("math_verify", "0.1"),
    "latex2sympy2-extended": ("latex2sympy2_extended", "0.1"),
    "tensordict": ("tensordict", "0.1"),
    "hydra-core": ("hydra", "1.1"),
    "megatron-core": ("megatron", "0.5"),
    "deepspeed": ("deepspeed", "0.9"),
    "sglang": ("sglang", "0.2"),
}
DEFAULT_INDEX = "https://pypi.org/simple"


def index_url() -> str:
    """The index pip is configured with (its global.index-url, else PyPI's)."""
    out = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.index-url"], capture_output=True, text=True)
    url = out.stdout.strip() if out.returncode == 0 else ""
    return (url or os.environ.get("PIP_INDEX_URL") or DEFAULT_INDEX).rstrip("/")


def files(index: str, pip: str) -> list[dict]:
    """The project's files as the simple API lists them (PEP 691 JSON)."""
    req = urllib.request.Request(f"{index}/{pip}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)["files"]


def _parsed(filename: str) -> tuple[str, Version, frozenset] | None:
    """(project name, version, wheel tags: empty for an sdist) as packaging reads a distribution's file name."""
    try:
        if filename.endswith(".whl"):
            name, version, _build, tags = parse_wheel_filename(filename)
            return name, version, tags
        name, version = parse_sdist_filename(filename)
        return name, version, frozenset()
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        return None  # an egg, an exe installer, a .tar.bz2: not what pip installs today


def per_release(pip: str, listing: list[dict]) -> dict[str, dict]:
    """{version: {"requires_python": spec or None, "wheels": oldest CPython the wheels are built for, or None}}."""
    out: dict[str, dict] = {}
    cps: dict[str, list[tuple[int, int] | None]] = {}
    for f in listing:
        if f.get("yanked") or (parsed := _parsed(f["filename"])) is None or parsed[0] != canonicalize_name(pip):
            continue
        v, tags = str(parsed[1]), parsed[2]
        row = out.setdefault(v, {"requires_python": None, "wheels": None})
        spec = (f.get("requires-python") or "").strip() or None
        if spec and (row["requires_python"] is None or f["filename"].endswith(".whl")):
            row["requires_python"] = spec  # a wheel's metadata first: it is what pip installs
        if tags:
            pinned = [re.fullmatch(r"cp(\d)(\d+)", t.interpreter) for t in tags]
            if any(t.abi == "abi3" for t in tags) or not all(pinned):
                cps.setdefault(v, []).append(None)  # a wheel any Python 3 may install
            else:
                cps.setdefault(v, []).extend((int(m.group(1)), int(m.group(2))) for m in pinned if m)
    for v, tags in cps.items():
        if tags and None not in tags:
            major, minor = min(tags)  # type: ignore[type-var]
            out[v]["wheels"] = f"{major}.{minor}"
    return out


def keep(versions: list[str], rows: dict[str, dict], newest_per_minor: list[str]) -> list[list]:
    """[version, requires_python, wheels] for the newest of each minor line and the first of each change, in order."""
    ordered = sorted((v for v in rows if v in set(versions) | set(newest_per_minor)), key=Version)
    kept: list[list] = []
    last = object()
    for v in ordered:
        r = rows[v]
        now = (r["requires_python"], r["wheels"])
        if now != last or v in newest_per_minor:
            kept.append([v, *now])
        last = now
    return kept


def all_versions(pip: str, first: str) -> list[str]:
    """Every release ``pip index versions`` lists from ``first`` on (pre-releases too: vllm-ascend ships mostly rcs)."""
    try:
        listed = listed_versions(pip, pre=True)
    except SystemExit:
        return []
    return [str(v) for v in listed if v >= Version(first)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", action="append", help="pip name of one package (repeatable)")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args()
    table = json.loads(a.out.read_text()) if a.out.exists() else {"packages": {}}
    index = index_url()
    for pip in a.only or list(PACKAGES):
        top, first = PACKAGES[pip]
        versions = all_versions(pip, first)
        if not versions:
            print(f"{pip}: pip index versions lists none; left out", file=sys.stderr)
            continue
        try:
            newest = releases(pip, first)
        except SystemExit:
            newest = []
        rows = per_release(pip, files(index, pip))
        kept = keep(versions, rows, newest)
        table["packages"][pip] = {"import": top, "releases": kept}
        print(f"{pip}: {len(kept)} releases kept of {len(versions)}, {kept[0][0]}..{kept[-1][0]}", file=sys.stderr)
    table["source"] = (f"Requires-Python of each file as the package index lists it ({index}, the simple API's "
                       "requires-python); tools/build_requires_python.py")
    table["built"] = datetime.date.today().isoformat()
    lines = ['{"source": ' + json.dumps(table["source"]) + ', "built": ' + json.dumps(table["built"]) + ', "packages": {']
    items = sorted(table["packages"].items())
    lines += [f"{json.dumps(p)}: {json.dumps(row, separators=(',', ':'))}" + ("," if i < len(items) - 1 else "")
              for i, (p, row) in enumerate(items)]
    lines.append("}}")
    tmp = a.out.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n")
    json.loads(tmp.read_text())
    tmp.replace(a.out)
    print(f"wrote {a.out.relative_to(ROOT) if a.out.is_relative_to(ROOT) else a.out} ({a.out.stat().st_size // 1024} KiB)")


if __name__ == "__main__":
    main()
