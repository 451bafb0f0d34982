"""Error-code tables (reviewed data, one YAML file per family, each row from a cited reference) and
the extraction of codes from log lines.

Codes are normalised to one spelling per family: ``507015`` (ACL / runtime return code),
``EZ9999`` (CANN error code), ``ERR00100`` (torch_npu sub-module + error), ``hccl:7`` (HcclResult),
``dcmi:-8005`` (DCMI / npu-smi). Tables load on first use, so a paste without codes never reads them.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from importlib import resources
from typing import Any

ACL = re.compile(
    r"(?i)(?:error ?code|errcode|ret(?:code)?|result|errno|error|return code|status)\s*(?:is|=|:)?\s*\[?\s*([125]\d{5})\b"
)
CANN = re.compile(r"\b(E[A-Z]\d{4})\b|\b(E\d{5}):")
TORCH_NPU = re.compile(r"\bERR(\d\d)(\d{3})\b")
# torch_npu's "HCCL function error: hcclX(...), error code is N", the same call quoted without that prefix,
# and HcclResult printed on its own.
HCCL = re.compile(
    r"HCCL function error: .*?error code is (\d{1,2})\b|\bHcclResult\D{0,12}(\d{1,2})\b"
    r"|\b[Hh]ccl[A-Z]\w*(?:\([^)]*\))?,? error code is (\d{1,2})\b"
)
DCMI = re.compile(r"(?i)\bdcmi\w*.*?(?:ret|error code|errcode|result)\s*(?:is|=|:)?\s*(-\d{4,5})\b")
ERRNO = re.compile(r"\(errno: (\d+) - ")
HINT = re.compile(r"(?i)\d{5}|dcmi|hccl function error|errno: |\bhccl\w+\(")


@dataclasses.dataclass(frozen=True)
class CodeInfo:
    code: str
    family: str  # acl | cann | torch_npu | hccl | dcmi
    name: str
    meaning: str
    advice: str
    source: str

    def summary(self) -> str:
        name = f" {self.name}" if self.name and self.name != self.code else ""
        return f"{self.code}{name}: {self.meaning}"


def extract(text: str) -> list[str]:
    """Every code in a line, normalised, in the order they appear (no duplicates)."""
    if not HINT.search(text):
        return []
    found: list[tuple[int, str]] = []
    for m in TORCH_NPU.finditer(text):
        found.append((m.start(), f"ERR{m.group(1)}{m.group(2)}"))
    for m in CANN.finditer(text):
        found.append((m.start(), m.group(1) or m.group(2)))
    for m in ACL.finditer(text):
        found.append((m.start(1), m.group(1)))
    for m in HCCL.finditer(text):
        found.append((m.start(), f"hccl:{m.group(1) or m.group(2) or m.group(3)}"))
    for m in ERRNO.finditer(text):
        found.append((m.start(1), f"errno:{m.group(1)}"))
    for m in DCMI.finditer(text):
        found.append((m.start(1), f"dcmi:{m.group(1)}"))
    out: list[str] = []
    for _, code in sorted(found):
        if code not in out:
            out.append(code)
    return out


@functools.lru_cache(maxsize=1)
def tables() -> dict[str, dict[str, Any]]:
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    folder = resources.files(__package__)
    out: dict[str, dict[str, Any]] = {}
    for item in sorted(folder.iterdir(), key=lambda p: p.name):
        if item.name.endswith(".yaml"):
            out[item.name[:-5]] = yaml.load(item.read_text(encoding="utf-8"), Loader=loader)
    return out


def decode(code: str) -> CodeInfo | None:
    """What a code means, from the shipped tables; ``None`` when no table names it."""
    t = tables()
    if code.startswith("ERR"):
        return _torch_npu(code, t.get("torch_npu") or {})
    if code.startswith("hccl:"):
        return _row(code, "hccl", t.get("hccl") or {}, int(code[5:]))
    if code.startswith("errno:"):
        return None  # the OS-error analyzer reads errno with its path and writer
    if code.startswith("dcmi:"):
        return _row(code, "dcmi", t.get("dcmi") or {}, int(code[5:]))
    if code[0] == "E":
        table = t.get("cann") or {}
        info = _row(code, "cann", table, code)
        if info is None:
            family = (table.get("families") or {}).get(code[1])
            if family:
                return CodeInfo(code, "cann", code, f"{family} error (CANN error-code module E{code[1]})", "", table.get("source", ""))
        return info
    if code.isdigit():
        return _row(code, "acl", t.get("acl") or {}, int(code))
    return None


def _row(code: str, family: str, table: dict[str, Any], key: Any) -> CodeInfo | None:
    row = (table.get("codes") or {}).get(key)
    if row is None:
        return None
    name, meaning, *rest = row
    source = str(rest[1]) if len(rest) > 1 and rest[1] else str(table.get("source", ""))
    return CodeInfo(code, family, str(name), str(meaning), str(rest[0]) if rest else "", source)


def _torch_npu(code: str, table: dict[str, Any]) -> CodeInfo | None:
    sub, err = int(code[3:5]), int(code[5:])
    if err == 0:
        return None  # ERRxx000 is "success": nothing to decode
    if code in (table.get("special") or {}):
        name, meaning, *rest = table["special"][code]
        return CodeInfo(code, "torch_npu", name, meaning, rest[0] if rest else "", str(table.get("source", "")))
    submodule = (table.get("submodules") or {}).get(sub)
    error = (table.get("errors") or {}).get(err)
    if submodule is None or error is None:
        return None
    return CodeInfo(code, "torch_npu", f"{submodule} {error[0]}", f"{error[1]} (reported by torch_npu's {submodule} layer)", "", str(table.get("source", "")))
