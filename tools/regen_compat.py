"""Rebuild the generated parts of preflight/data/compat.yaml from upstream files, and diff them.

Maintainer tool, not shipped in the package. It reads local copies of the upstream
repositories and prints what differs from the committed data:

    git clone https://github.com/vllm-project/vllm-ascend
    git clone https://github.com/Ascend/pytorch
    python tools/regen_compat.py --vllm-ascend vllm-ascend --pytorch pytorch

Each source is either a git repository (read with ``git show <ref>:<path>``, so any clone or
mirror works) or a snapshot folder laid out as ``<ref>/<path>`` (the test fixtures). What it
rebuilds:

- ``vllm_ascend`` rows: the "Release compatibility matrix" of
  ``docs/source/community/versioning_policy.md`` on the main ref, then every ``vX.Y.Z`` tag newer
  than the matrix from that tag's ``requirements.txt`` (torch, torch-npu, triton-ascend,
  transformers), ``Dockerfile`` (CANN image, ``VLLM_TAG``) and ``docs/source/installation.md``
  (Python range).
- ``torch_npu_builds``: which TorchNPU (Ascend Extension for PyTorch) release each torch_npu
  build belongs to, from the final release tags ``v<release>[.<patch>]-pytorch<torch>`` and
  their ``version.txt``, and from ``COMPATIBILITY.en.md``'s branch column for older builds.

Hand-kept fields (sources, notes, transformers/numpy pins, HDK ranges) are not generated and
are not compared. Exit status: 0 when the committed data matches, 1 when it differs, 2 on bad
input.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from packaging.version import InvalidVersion, Version

MAIN = "main"
MATRIX_PATH = "docs/source/community/versioning_policy.md"


class Source:
    """Files of one upstream repository at named refs: a git repository or a ``<ref>/<path>`` tree."""

    def __init__(self, path: Path, main: str = MAIN):
        self.path = path
        self.main = main
        self.git = _is_git(path)
        if not self.git and not path.is_dir():
            raise SystemExit(f"regen_compat: {path} is neither a git repository nor a folder")

    def refs(self) -> list[str]:
        if self.git:
            out = self._git("tag", "--list")
            return [line for line in out.splitlines() if line]
        return sorted(p.name for p in self.path.iterdir() if p.is_dir())

    def read(self, ref: str, rel: str) -> str | None:
        if self.git:
            try:
                return self._git("show", f"{ref}:{rel}")
            except subprocess.CalledProcessError:
                return None
        target = self.path / ref / rel
        return target.read_text(encoding="utf-8") if target.is_file() else None

    def commit(self) -> str | None:
        if not self.git:
            marker = self.path / "COMMIT"
            return marker.read_text().strip() if marker.is_file() else None
        return self._git("rev-parse", self.main).strip()

    def _git(self, *args: str) -> str:
        return subprocess.run(["git", f"--git-dir={_git_dir(self.path)}", *args], check=True, capture_output=True, text=True).stdout


def _git_dir(path: Path) -> Path:
    return path / ".git" if (path / ".git").exists() else path


def _is_git(path: Path) -> bool:
    try:
        subprocess.run(["git", f"--git-dir={_git_dir(path)}", "rev-parse", "--git-dir"], check=True, capture_output=True)
    except (subprocess.CalledProcessError, FileNotFoundError):
        return False
    return True


# ---- vllm-ascend -------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _spec(text: str) -> str:
    """'>= 3.10, < 3.13' -> '>=3.10,<3.13'."""
    return ",".join(part.replace(" ", "") for part in text.split(","))


def _version(text: str) -> str:
    return text.strip().lstrip("v")


def parse_matrix(markdown: str) -> list[dict[str, Any]]:
    """The release rows of the "Release compatibility matrix" table, in the table's order."""
    rows: list[dict[str, Any]] = []
    lines = markdown.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip().lower().startswith("## release compatibility matrix"))
    except StopIteration:
        raise SystemExit("regen_compat: no 'Release compatibility matrix' section in versioning_policy.md") from None
    header: list[str] | None = None
    for line in lines[start + 1 :]:
        if line.startswith("## "):
            break
        if not line.strip().startswith("|"):
            if rows:
                break
            continue
        cells = _cells(line)
        if header is None:
            header = [c.lower() for c in cells]
            continue
        if set("".join(cells)) <= set("-: "):
            continue
        record = dict(zip(header, cells))
        torch, _, torch_npu = record["pytorch/torch_npu"].partition("/")
        row: dict[str, Any] = {
            "vllm_ascend": _version(record["vllm ascend"]),
            "vllm": [_version(v) for v in record["vllm"].split("/")],
            "python": _spec(record["python"]),
            "cann": record["stable cann"],
            "torch": torch.strip(),
            "torch_npu": torch_npu.strip(),
        }
        triton = record.get("triton ascend", "N/A")
        if triton and triton.upper() != "N/A":
            row["triton_ascend"] = triton
        rows.append(row)
    return rows


def _pin(requirements: str, name: str) -> str | None:
    match = re.search(rf"^{re.escape(name)}\s*==\s*([^\s;#]+)", requirements, re.MULTILINE | re.IGNORECASE)
    return match.group(1) if match else None


def row_from_tag(src: Source, tag: str) -> dict[str, Any] | None:
    """A row for a tag the matrix does not list yet, from the tag's own install files."""
    requirements = src.read(tag, "requirements.txt") or ""
    dockerfile = src.read(tag, "Dockerfile") or ""
    install = src.read(tag, "docs/source/installation.md") or ""
    torch, torch_npu = _pin(requirements, "torch"), _pin(requirements, "torch-npu")
    cann = re.search(r"(?:cann:|CANN_VERSION=\"?)(\d+\.\d+\.(?:\d+|rc\d+))", dockerfile, re.IGNORECASE)
    vllm = re.search(r"VLLM_TAG=v?([\w.]+)", dockerfile)
    python = re.search(r"^- Python:\s*(.+)$", install, re.MULTILINE)
    if not (torch and torch_npu and cann and vllm):
        return None
    row: dict[str, Any] = {
        "vllm_ascend": _version(tag),
        "vllm": [vllm.group(1)],
        "python": _spec(python.group(1)) if python else None,
        "cann": cann.group(1).upper(),  # image tags write 8.3.rc1; the matrix writes 8.3.RC1
        "torch": torch,
        "torch_npu": torch_npu,
    }
    triton = _pin(requirements, "triton-ascend")
    if triton:
        row["triton_ascend"] = triton
    return row


def _release_tag(tag: str) -> Version | None:
    if not re.fullmatch(r"v\d+\.\d+\.\d+((rc|\.post)\d+)?", tag):
        return None
    try:
        return Version(tag[1:])
    except InvalidVersion:
        return None


def vllm_ascend_rows(src: Source) -> list[dict[str, Any]]:
    matrix_text = src.read(src.main, MATRIX_PATH)
    if matrix_text is None:
        raise SystemExit(f"regen_compat: {MATRIX_PATH} not found on {src.main}")
    rows = parse_matrix(matrix_text)
    newest = max(Version(r["vllm_ascend"]) for r in rows)
    extra = []
    for tag in src.refs():
        version = _release_tag(tag)
        if version is None or version <= newest:
            continue
        row = row_from_tag(src, tag)
        if row is not None:
            extra.append(row)
    extra.sort(key=lambda r: Version(r["vllm_ascend"]), reverse=True)
    return extra + rows


# ---- torch_npu (Ascend/pytorch) ---------------------------------------------------------

_RELEASE_TAG = re.compile(r"v(\d+\.\d+\.\d+)(?:\.\d+)?-pytorch(\d+\.\d+\.\d+)")


def _valid(text: str) -> bool:
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def torch_npu_builds(src: Source) -> dict[str, str]:
    """torch_npu build -> TorchNPU release, from final release tags and COMPATIBILITY's branches."""
    builds: dict[str, str] = {}
    tagged = []
    for tag in src.refs():
        match = _RELEASE_TAG.fullmatch(tag)
        if match:
            tagged.append((Version(match.group(1)), tag, match.group(1)))
    for _, tag, release in sorted(tagged):
        text = src.read(tag, "version.txt") or ""
        versions = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]
        if len(versions) == 1:  # newer trees list every version they can build: not a release record
            builds.setdefault(versions[0], release)
    compat = src.read(src.main, "COMPATIBILITY.en.md") or ""
    for line in compat.splitlines():
        cells = _cells(line) if line.strip().startswith("|") else []
        if len(cells) >= 2 and re.fullmatch(r"v\d+\.\d+\.\d+-(\d+\.\d+\.\d+)", cells[1]) and _valid(cells[0]):
            builds.setdefault(cells[0], cells[1].split("-", 1)[1])
    return dict(sorted(builds.items(), key=lambda kv: (Version(kv[0]), kv[1]), reverse=True))


# ---- verl ----------------------------------------------------------------------------------

VERL_FIRST = Version("0.5.0")  # the first release with an Ascend quick start that names a full stack
VERL_DOCS = ("docs/ascend_tutorial/get_start/install_guidance.rst", "docs/ascend_tutorial/ascend_quick_start.rst")
VERL_FILES = ("setup.py", "verl/version/version", *VERL_DOCS)
# doc label -> row key; labels as the guides write them in their version tables
_VERL_LABELS = {
    "hdk": "hdk", "cann": "cann", "python": "python", "torch": "torch", "torch_npu": "torch_npu",
    "triton-ascend": "triton_ascend", "transformers": "transformers", "vllm": "vllm", "vllm-ascend": "vllm_ascend",
}


def _doc_versions(doc: str) -> dict[str, str]:
    """The first value of each labelled row in the guide's version tables (the vLLM path comes first)."""
    found: dict[str, str] = {}
    for line in doc.splitlines():
        text = line.strip()
        grid = re.fullmatch(r"\|\s*([\w-]+)\s*\|\s*([^|]+?)\s*\|", text)  # | CANN | == 8.3.RC1 |
        simple = re.match(r"([\w-]+)\s+``([^`]+)``", text)  # CANN   ``9.0.0``
        label, value = (grid.group(1), grid.group(2)) if grid else (simple.group(1), simple.group(2)) if simple else (None, None)
        key = _VERL_LABELS.get((label or "").lower())
        if key and key not in found:
            value = value.replace(" ", "")
            if key != "python":
                value = value.lstrip("=v")
                if not _valid(value) and not re.fullmatch(r"\d+\.\d+\.rc\d+|\d+\.\d+\.RC\d+", value):
                    continue  # "latest release" and the like: no version to record
            found[key] = value
    for repo, key in (("vllm", "vllm"), ("vllm-ascend", "vllm_ascend")):
        match = re.search(rf"git clone .*?(?:-b|--branch)\s+(?:releases/)?v([\w.]+)\s.*?vllm-project/{re.escape(repo)}\.git", doc)
        if match and key not in found:
            found[key] = match.group(1)
    return found


def _verl_line(line: str) -> bool:
    text = line.strip()
    return bool(
        re.search(r'"vllm[<>=!]', text)
        or ("git clone" in text and "vllm-project" in text)
        or re.fullmatch(r"\|\s*[\w-]+\s*\|[^|]+\|", text)
        or re.match(r"[\w-]+\s+``", text)
    )


def verl_rows(src: Source) -> list[dict[str, Any]]:
    """verl version, setup.py's vllm range and the Ascend guide's stack, per release tag (and main)."""
    rows = []
    refs = [t for t in src.refs() if re.fullmatch(r"v\d+\.\d+\.\d+", t) and Version(t[1:]) >= VERL_FIRST]
    for ref in sorted(refs, key=lambda t: Version(t[1:])) + [src.main]:
        version_file = (src.read(ref, "verl/version/version") or "").strip()
        doc = next((text for path in VERL_DOCS if (text := src.read(ref, path))), None)
        if not version_file or doc is None:
            continue
        ascend = _doc_versions(doc)
        if "cann" not in ascend:
            continue
        row: dict[str, Any] = {"verl": str(Version(version_file)), "ref": ref}
        vllm = re.search(r'"vllm([<>=!][^"]*)"', src.read(ref, "setup.py") or "")
        if vllm:
            row["vllm"] = vllm.group(1)
        row["ascend"] = ascend
        rows.append(row)
    return rows


def diff_verl(generated: list[dict[str, Any]], committed: list[dict[str, Any]]) -> list[str]:
    have = {row["verl"]: row for row in committed}
    made = {row["verl"] for row in generated}
    out = [f"- verl {key}: not in the upstream files" for key, row in have.items() if key not in made and "hand-kept" not in row.get("note", "")]
    for row in generated:
        key = row["verl"]
        if key not in have:
            out.append(f"+ verl {key} ({row['ref']}): vllm={row.get('vllm')!r}, ascend={row['ascend']!r}")
            continue
        if row.get("vllm") != have[key].get("vllm"):
            out.append(f"~ verl {key}: vllm {have[key].get('vllm')!r} -> {row.get('vllm')!r}")
        ascend = have[key].get("ascend") or {}
        for field, value in row["ascend"].items():
            if str(ascend.get(field)) != value:
                out.append(f"~ verl {key}: ascend.{field} {ascend.get(field)!r} -> {value!r}")
    return out


# ---- snapshot (test fixtures) ---------------------------------------------------------------

INSTALL_HEAD_LINES = 40  # installation.md: only its requirements section is read


def write_snapshot(out: Path, vllm_ascend: Source | None, pytorch: Source | None, verl: Source | None = None) -> None:
    """Copy just the upstream files the generator reads into ``<out>/<repo>/<ref>/<path>``."""

    def put(repo: str, ref: str, rel: str, text: str | None) -> None:
        if text is None:
            return
        target = out / repo / ref / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    if vllm_ascend is not None:
        put("vllm-ascend", vllm_ascend.main, MATRIX_PATH, vllm_ascend.read(vllm_ascend.main, MATRIX_PATH))
        newest = max(Version(r["vllm_ascend"]) for r in parse_matrix(vllm_ascend.read(vllm_ascend.main, MATRIX_PATH) or ""))
        for tag in vllm_ascend.refs():
            version = _release_tag(tag)
            if version is None or version <= newest:
                continue
            put("vllm-ascend", tag, "requirements.txt", vllm_ascend.read(tag, "requirements.txt"))
            put("vllm-ascend", tag, "Dockerfile", vllm_ascend.read(tag, "Dockerfile"))
            install = vllm_ascend.read(tag, "docs/source/installation.md")
            put("vllm-ascend", tag, "docs/source/installation.md", "\n".join((install or "").splitlines()[:INSTALL_HEAD_LINES]) + "\n")
        (out / "vllm-ascend" / "COMMIT").write_text(f"{vllm_ascend.commit()}\n")
    if pytorch is not None:
        put("pytorch", pytorch.main, "COMPATIBILITY.en.md", pytorch.read(pytorch.main, "COMPATIBILITY.en.md"))
        for tag in pytorch.refs():
            if _RELEASE_TAG.fullmatch(tag):
                put("pytorch", tag, "version.txt", pytorch.read(tag, "version.txt"))
        (out / "pytorch" / "COMMIT").write_text(f"{pytorch.commit()}\n")
    if verl is not None:
        for ref in [t for t in verl.refs() if re.fullmatch(r"v\d+\.\d+\.\d+", t) and Version(t[1:]) >= VERL_FIRST] + [verl.main]:
            for rel in VERL_FILES:
                text = verl.read(ref, rel)
                if text is not None and rel != "verl/version/version":  # keep only the lines the generator reads
                    text = "\n".join(line for line in text.splitlines() if _verl_line(line)) + "\n"
                put("verl", ref, rel, text)
        (out / "verl" / "COMMIT").write_text(f"{verl.commit()}\n")


# ---- diff ---------------------------------------------------------------------------------

GENERATED_FIELDS = ("vllm", "python", "cann", "torch", "torch_npu", "triton_ascend")


def diff_vllm_ascend(generated: list[dict[str, Any]], committed: list[dict[str, Any]]) -> list[str]:
    have = {row["vllm_ascend"]: row for row in committed}
    want = {row["vllm_ascend"]: row for row in generated}
    out = [f"- vllm_ascend {key}: not in the upstream files" for key, row in have.items() if key not in want and "hand-kept" not in row.get("note", "")]
    for key, row in want.items():
        if key not in have:
            out.append(f"+ vllm_ascend {key}: " + ", ".join(f"{f}={row.get(f)!r}" for f in GENERATED_FIELDS if row.get(f) is not None))
            continue
        for field in GENERATED_FIELDS:
            if row.get(field) is not None and row.get(field) != have[key].get(field):
                out.append(f"~ vllm_ascend {key}: {field} {have[key].get(field)!r} -> {row.get(field)!r}")
    return out


def diff_builds(generated: dict[str, str], committed: dict[str, str]) -> list[str]:
    out = []
    for build, release in generated.items():
        if build not in committed:
            out.append(f"+ torch_npu_builds {build}: {release}")
        elif committed[build] != release:
            out.append(f"~ torch_npu_builds {build}: {committed[build]} -> {release}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vllm-ascend", type=Path, help="clone (or snapshot folder) of vllm-project/vllm-ascend")
    parser.add_argument("--pytorch", type=Path, help="clone (or snapshot folder) of Ascend/pytorch")
    parser.add_argument("--verl", type=Path, help="clone (or snapshot folder) of verl-project/verl")
    parser.add_argument("--main", default=MAIN, help="ref holding the current docs (default: main; Ascend/pytorch uses master)")
    parser.add_argument("--compat", type=Path, default=Path(__file__).resolve().parents[1] / "preflight" / "data" / "compat.yaml")
    parser.add_argument("--emit", action="store_true", help="print the generated rows as YAML instead of a diff")
    parser.add_argument("--snapshot", type=Path, help="write the upstream files read into this folder (test fixtures) and stop")
    args = parser.parse_args(argv)
    if not (args.vllm_ascend or args.pytorch or args.verl):
        parser.error("give --vllm-ascend, --pytorch and/or --verl")
    try:
        committed = yaml.safe_load(args.compat.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        print(f"regen_compat: cannot read {args.compat}: {exc}", file=sys.stderr)
        return 2
    if args.snapshot:
        write_snapshot(
            args.snapshot,
            Source(args.vllm_ascend, args.main) if args.vllm_ascend else None,
            Source(args.pytorch, "master" if args.main == MAIN else args.main) if args.pytorch else None,
            Source(args.verl, args.main) if args.verl else None,
        )
        return 0
    lines: list[str] = []
    emitted: dict[str, Any] = {}
    if args.vllm_ascend:
        src = Source(args.vllm_ascend, args.main)
        rows = vllm_ascend_rows(src)
        emitted["vllm_ascend"] = {"commit": src.commit(), "rows": rows}
        lines += diff_vllm_ascend(rows, committed["vllm_ascend"]["rows"])
    if args.pytorch:
        src = Source(args.pytorch, "master" if args.main == MAIN else args.main)
        builds = torch_npu_builds(src)
        emitted["torch_npu_builds"] = {"commit": src.commit(), "builds": builds}
        lines += diff_builds(builds, (committed.get("torch_npu_builds") or {}).get("builds", {}))
    if args.verl:
        src = Source(args.verl, args.main)
        rows = verl_rows(src)
        emitted["verl"] = {"commit": src.commit(), "rows": rows}
        lines += diff_verl(rows, committed["verl"]["rows"])
    if args.emit:
        print(yaml.safe_dump(emitted, sort_keys=False, default_flow_style=None, width=200))
        return 0
    print("\n".join(lines) if lines else "compat.yaml matches the upstream files")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
