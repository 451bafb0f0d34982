"""`ascendrl stack`: which versions go together.

The documented stacks are the vllm-ascend matrix rows and verl's Ascend guides (data/compat.yaml);
a query (named versions, or what is installed) selects the stacks that contain it, and each is
printed with its source and the install commands for the pieces the host does not have yet.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from packaging.version import Version

from . import compat
from .versions import minor, parse_ascend, parse_python_pkg

KEYS = ("vllm_ascend", "verl", "cann", "torch_npu")
SHOWN = ("cann", "hdk", "python", "torch", "torch_npu", "vllm", "vllm_ascend", "triton_ascend", "transformers", "verl")
CPU_TORCH = "https://download.pytorch.org/whl/cpu"
ASCEND_MIRROR = "https://mirrors.huaweicloud.com/ascend/repos/pypi"


class QueryError(ValueError):
    """A version that cannot be read: reported in one line."""


@dataclasses.dataclass(frozen=True)
class Stack:
    origin: str  # who documents it, in words
    source: str
    versions: Mapping[str, str]


def documented_stacks() -> list[Stack]:
    data = compat.matrices()
    stacks = []
    for row in data["vllm_ascend"]["rows"]:
        versions = {k: row[k] for k in ("cann", "python", "torch", "torch_npu", "vllm_ascend", "triton_ascend") if row.get(k)}
        versions["vllm"] = row["vllm"][-1]
        hdk = compat.cann_hdk_row(parse_ascend(row["cann"]))
        if hdk:
            versions["hdk"] = hdk["paired"]
        stacks.append(Stack(f"vllm-ascend {row['vllm_ascend']} (release matrix row)", row.get("source", data["vllm_ascend"]["source"]), versions))
    for row in data["verl"]["rows"]:
        if row.get("ascend"):
            versions = {k: str(v) for k, v in row["ascend"].items()}
            versions["verl"] = row["verl"]
            stacks.append(Stack(f"verl {row['verl']} (its Ascend install guide)", row.get("ascend_source", row["source"]), versions))
    return stacks


def _parse(key: str, text: str) -> Version:
    version = parse_ascend(text) if key == "cann" else parse_python_pkg(text)
    if version is None:
        raise QueryError(f"{key.replace('_', '-')} {text!r} is not a version")
    return version


def _same(key: str, wanted: Version, have: str | None) -> bool:
    if have is None:
        return False
    other = parse_ascend(have) if key == "cann" else parse_python_pkg(have)
    return other is not None and Version(other.public) == Version(wanted.public)


def matching(query: Mapping[str, str]) -> tuple[list[Stack], str]:
    """Stacks containing every queried version; when none contains a CANN or torch_npu exactly, the
    same CANN line / torch base (said in the returned note)."""
    parsed = {k: _parse(k, v) for k, v in query.items() if v}
    stacks = documented_stacks()
    exact = [s for s in stacks if all(_same(k, v, s.versions.get(k)) for k, v in parsed.items())]
    if exact or not ({"cann", "torch_npu"} & set(parsed)):
        return exact, ""

    def near(key: str, wanted: Version, have: str | None) -> bool:
        if _same(key, wanted, have):
            return True
        other = (parse_ascend if key == "cann" else parse_python_pkg)(have) if have else None
        if other is None or key not in ("cann", "torch_npu"):
            return False
        return minor(other) == minor(wanted) if key == "cann" else other.release[:3] == wanted.release[:3]

    close = [s for s in stacks if all(near(k, v, s.versions.get(k)) for k, v in parsed.items())]
    return close, "no documented stack has exactly these versions; these share the CANN line / torch base"


def pair_notes(query: Mapping[str, str]) -> list[str]:
    """For a torch_npu or CANN query: which CANN / torch_npu builds a source documents with it."""
    notes = []
    if query.get("torch_npu"):
        build = _parse("torch_npu", query["torch_npu"])
        canns = sorted({e.cann for e in compat.torch_npu_evidence(build)})
        release = compat.torchnpu_release(build)
        notes.append(
            f"torch_npu {build}" + (f" (TorchNPU {release})" if release else "") + (f" is documented with CANN {', '.join(canns)}" if canns else " is in no release note or matrix shipped here")
        )
    if query.get("cann") and not query.get("torch_npu"):
        cann = _parse("cann", query["cann"])
        bases = sorted({".".join(b.split(".")[:3]) for b in compat.matrices()["torch_npu_builds"]["builds"]}, key=Version, reverse=True)
        builds = [b for base in bases for b in compat.torch_npu_builds_for(cann, base)[:1]]
        if builds:
            notes.append(f"torch_npu builds documented for CANN {query['cann']} (newest per torch): {', '.join(builds)}")
    return notes


def installed_query(facts: Any) -> dict[str, str]:
    """What to ask about on this host: its vllm-ascend, else its verl, else its CANN and torch_npu."""
    for key in ("vllm_ascend", "verl"):
        if facts.value(f"pkg.{key}"):
            return {key: str(facts.value(f"pkg.{key}"))}
    return {k: v for k, v in (("cann", facts.value("cann.toolkit.version")), ("torch_npu", facts.value("pkg.torch_npu"))) if v}


def _verl_ref(version: str) -> str:
    row = compat.verl_row(parse_python_pkg(version)) or {}
    for url in (row.get("source", ""), row.get("ascend_source", "")):
        if "/blob/v" in url:
            return url.split("/blob/")[1].split("/")[0]
    return "main"


def install_commands(stack: Stack, installed: Mapping[str, str | None]) -> list[str]:
    """Commands for the pieces of ``stack`` that the host lacks or has in another version."""
    v = stack.versions

    def missing(key: str) -> bool:
        return key in v and not _same(key, _parse(key, v[key]), installed.get(key))

    out = []
    if missing("cann"):
        out.append(f"# CANN {v['cann']}: toolkit, ops and NNAL of that release (https://www.hiascend.com/cann/download), then source their set_env.sh")
    if missing("torch"):
        out.append(f"pip install torch=={v['torch']} --index-url {CPU_TORCH}")
    if missing("torch_npu"):
        build = parse_python_pkg(v["torch_npu"])
        mirror = f" --extra-index-url {ASCEND_MIRROR}" if build and (build.is_devrelease or build.local or build.is_postrelease) else ""
        out.append(f"pip install torch-npu=={v['torch_npu']}{mirror}")
    if missing("triton_ascend"):
        out.append(f"pip install triton-ascend=={v['triton_ascend']}")
    if missing("vllm"):
        out.append(f"git clone -b v{v['vllm']} --depth 1 https://github.com/vllm-project/vllm && VLLM_TARGET_DEVICE=empty pip install -e vllm")
    if missing("vllm_ascend"):
        out.append(f"git clone -b v{v['vllm_ascend']} --depth 1 https://github.com/vllm-project/vllm-ascend && pip install -e vllm-ascend")
    if missing("transformers"):
        out.append(f"pip install transformers=={v['transformers']}")
    if missing("verl"):
        out.append(f"git clone -b {_verl_ref(v['verl'])} --depth 1 https://github.com/verl-project/verl && pip install -e verl")
    return out


def render(query: Mapping[str, str], stacks: list[Stack], note: str, installed: Mapping[str, str | None], *, from_host: bool) -> str:
    asked = ", ".join(f"{k.replace('_', '-')} {v}" for k, v in query.items())
    lines = [f"ascendrl stack — {asked}{' (installed)' if from_host else ''}", ""]
    for line in pair_notes(query):
        lines += [line, ""]
    if note:
        lines += [f"note: {note}", ""]
    if not stacks:
        lines.append("No documented stack contains these versions (vllm-ascend's release matrix, verl's Ascend guides).")
        return "\n".join(lines)
    for stack in stacks:
        lines.append(f"{stack.origin}  {stack.source}")
        shown = []
        for key in (k for k in SHOWN if k in stack.versions):
            have = key not in ("python", "hdk") and _same(key, _parse(key, stack.versions[key]), installed.get(key))
            shown.append(f"{key.replace('_', '-')} {stack.versions[key]}{' ✓' if have else ''}")
        lines.append("  " + " · ".join(shown))
        commands = install_commands(stack, installed) if from_host else install_commands(stack, {})
        lines += [f"  $ {c}" if not c.startswith("#") else f"  {c}" for c in commands]
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def to_json(query: Mapping[str, str], stacks: list[Stack], note: str, installed: Mapping[str, str | None], *, from_host: bool) -> dict[str, Any]:
    return {
        "schema": 1,
        "query": dict(query),
        "note": note or None,
        "pairs": pair_notes(query),
        "stacks": [
            {"origin": s.origin, "source": s.source, "versions": dict(s.versions), "install": install_commands(s, installed if from_host else {})}
            for s in stacks
        ],
    }
