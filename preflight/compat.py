"""The compatibility matrices (``data/compat.yaml``) and look-ups over them."""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from packaging.version import Version

from .versions import minor, parse_ascend, parse_python_pkg

import yaml

try:  # libyaml's loader is ~10x faster; fall back to pure Python where it is missing
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader


@functools.lru_cache(maxsize=1)
def matrices() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/compat.yaml").read_text(encoding="utf-8")
    return yaml.load(text, Loader=_Loader)


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
    for row in matrices()["cann_hdk"]["rows"]:
        if row["cann_line"] == minor(cann):
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
