"""The compatibility matrices (``data/compat.yaml``) and look-ups over them."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from packaging.version import Version

from .versions import base, minor, parse_ascend, parse_python_pkg

from ascendrl import cache

cache.imported(__file__)  # own_source keys by the text this process runs


@functools.lru_cache(maxsize=1)
def matrices() -> dict[str, Any]:
    """The parsed matrices; from the parsed-data cache (ascendrl/cache.py) while compat.yaml is unchanged: no YAML import."""
    text = cache.shipped_text(__file__, __package__, "data/compat.yaml")
    return cache.cached("compat", cache.content_key("compat", cache.own_source(__file__), text), lambda: _parse(text), _checked)


def _parse(text: str) -> dict[str, Any]:
    import yaml

    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml's loader is ~10x faster


def _checked(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise TypeError("not the compat matrices")
    return data


def source_of(table: str) -> str:
    return str(matrices()[table].get("source", ""))


def vllm_ascend_row(version: Version) -> dict[str, Any] | None:
    """The matrix row of exactly this vllm-ascend release (local labels ignored)."""
    for row in matrices()["vllm_ascend"]["rows"]:
        row_version = parse_python_pkg(row["vllm_ascend"])
        if row_version is not None and row_version == Version(version.public):
            return row
    return None


def newest_vllm_ascend() -> Version:
    return max(v for row in matrices()["vllm_ascend"]["rows"] if (v := parse_python_pkg(row["vllm_ascend"])))


def torch_npu_rows() -> list[dict[str, Any]]:
    return list(matrices()["torch_npu_cann"]["rows"])


def cann_hdk_row(cann: Version) -> dict[str, Any] | None:
    """The row of exactly this CANN release if one exists (8.5.2), else the row of its line (8.5)."""
    rows = matrices()["cann_hdk"]["rows"]
    for row in rows:
        exact = parse_ascend(row.get("cann_release"))
        if exact is not None and exact == cann:
            return row
    for row in rows:
        if row.get("cann_line") == minor(cann):
            return row
    return None


def verl_row(version: Version) -> dict[str, Any] | None:
    """The newest row at or below this verl version within the same major.minor line."""
    best: tuple[Version, dict[str, Any]] | None = None
    for row in matrices()["verl"]["rows"]:
        row_version = parse_python_pkg(row["verl"])
        if row_version is None or minor(row_version) != minor(version):
            continue
        if Version(row_version.base_version) <= Version(version.base_version):
            if best is None or row_version > best[0]:
                best = (row_version, row)
    return best[1] if best else None


def cann_version(text: str | None) -> Version | None:
    return parse_ascend(text)


# ---- (CANN, torch_npu) evidence -------------------------------------------------------------


@dataclass(frozen=True)
class Evidence:
    """One published statement that a torch_npu build runs on a CANN release (or line)."""

    cann: str  # as the source writes it: "8.3.RC1", or "9.0.X" for a whole line
    says: str  # who says so, in words
    source: str


def _same_build(a: Version, text: str | None) -> bool:
    other = parse_python_pkg(text)
    return other is not None and Version(a.public) == Version(other.public)


def cann_matches(pattern: str, cann: Version) -> bool:
    """'9.0.X' matches every 9.0 release; anything else matches one release (8.3.rc1 == 8.3.RC1)."""
    if pattern.upper().endswith(".X"):
        return minor(cann) == pattern[:-2]
    wanted = parse_ascend(pattern)
    return wanted is not None and wanted == cann


def torchnpu_release(build: Version) -> str | None:
    """The TorchNPU (Ascend Extension for PyTorch) release a torch_npu build comes from, if known."""
    for key, release in matrices()["torch_npu_builds"]["builds"].items():
        if _same_build(build, key):
            return str(release)
    return None


def _release_matches(pattern: str, release: str) -> bool:
    if pattern.upper().endswith(".X"):
        return release.startswith(pattern[:-1])
    return release == pattern


def torch_npu_evidence(build: Version) -> list[Evidence]:
    """Every CANN release (or line) a source documents this torch_npu build with."""
    data = matrices()
    found: list[Evidence] = []
    compat_source = data["torch_npu_cann"]["source"]
    for row in data["torch_npu_cann"]["rows"]:
        if any(_same_build(build, b) for b in row["torch_npu"]):
            found.append(Evidence(row["cann"], "Ascend/pytorch's compatibility table pairs it", row.get("source", compat_source)))
    release = torchnpu_release(build)
    if release:
        for row in data["torchnpu_releases"]["rows"]:
            if _release_matches(row["release"], release):
                for cann in row["cann"]:
                    found.append(Evidence(cann, f"the TorchNPU {row['release']} release notes list it (torch_npu {build} is TorchNPU {release})", row["source"]))
    va_source = data["vllm_ascend"]["source"]
    for row in data["vllm_ascend"]["rows"]:
        if _same_build(build, row["torch_npu"]):
            found.append(Evidence(row["cann"], f"vllm-ascend {row['vllm_ascend']}'s official stack uses it", row.get("source", va_source)))
    for row in data["verl"]["rows"]:
        ascend = row.get("ascend") or {}
        if ascend.get("cann") and _same_build(build, ascend.get("torch_npu")):
            found.append(Evidence(ascend["cann"], f"verl {row['verl']}'s Ascend guide documents it", row.get("ascend_source", row["source"])))
    return found


def torch_npu_supports(build: Version, cann: Version) -> Evidence | None:
    """The first published statement that this build runs on this CANN; None when nothing says so."""
    return next((e for e in torch_npu_evidence(build) if cann_matches(e.cann, cann)), None)


def torch_npu_builds_for(cann: Version, torch_base: str) -> list[str]:
    """Published torch_npu builds of one torch base that a source documents with this CANN, newest first."""
    data = matrices()
    candidates = {b for row in data["torch_npu_cann"]["rows"] for b in row["torch_npu"]}
    candidates |= set(data["torch_npu_builds"]["builds"])
    candidates |= {row["torch_npu"] for row in data["vllm_ascend"]["rows"]}
    fits = []
    for text in candidates:
        build = parse_python_pkg(text)
        if build is not None and not build.is_devrelease and base(build) == torch_base and torch_npu_supports(build, cann):
            fits.append(build)
    return [str(b) for b in sorted(set(fits), reverse=True)]


def verl_stacks_with(vllm_ascend: Version, cann: Version) -> list[dict[str, Any]]:
    """verl rows whose documented Ascend stack runs this vllm-ascend on this CANN."""
    rows = []
    for row in matrices()["verl"]["rows"]:
        ascend = row.get("ascend") or {}
        if _same_build(vllm_ascend, ascend.get("vllm_ascend")) and ascend.get("cann") and cann_matches(ascend["cann"], cann):
            rows.append(row)
    return rows
