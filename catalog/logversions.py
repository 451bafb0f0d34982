"""Versions a pasted log states: pip pins and listings, "X version: v", image tags, CANN paths.

Users paste ``pip list`` / ``pip freeze`` excerpts, ``torch-npu: 2.8.0`` lines of their own, image
tags (``quay.io/ascend/vllm-ascend:v0.11.0rc1``), collect_env's ``vLLM Ascend Version`` and CANN
install paths (``/usr/local/Ascend/ascend-toolkit/8.0.RC3/…``, ``cann8.3.rc2``). The analyzers check the
pairs they state against the compatibility matrices. Keys are import names (``torch_npu``,
``vllm_ascend``) and ``cann``; the device-visibility variables a log exports are kept too, as
``env:ASCEND_RT_VISIBLE_DEVICES`` (what the process was allowed to see).
"""

from __future__ import annotations

import functools
import re

PACKAGES = r"torch[_-]npu|vllm[_-]ascend|transformers|triton[_-]ascend|vllm|torch|verl|ray"
# For the classifier's chunk scan (RE2 syntax): lines that may state a version.
PREFILTER = (
    rf"(?:{PACKAGES})(?:==| version:? v?)\d+\.\d+"
    rf"|^\s*(?:{PACKAGES})\s*(?::\s*|\s{{2,}}|\s*==\s*)v?\d+\.\d+"
    r"|vllm-ascend:v\d+\.\d+|ascend-toolkit/\d+\.\d+\.|\bcann-?\d+\.\d+\.(?:rc|RC|\d)|CANN[ :]+v?\d+\.\d+\.(?:RC|rc|\d)"
    r"|vLLM Ascend Version|vLLM API server version|, but you have \S+ \d\S* which is incompatible"
    r"|ASCEND_(?:RT_)?VISIBLE_DEVICES="
)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    v = r"v?(\d+\.\d+[\w.+-]*)"
    return (
        re.compile(rf"\b({PACKAGES})(?:==| version:? ){v}"),
        re.compile(rf"^\s*(?:\[pip3?\]\s*)?({PACKAGES})\s*(?::\s*|\s{{2,}}|\s*==\s*){v}\s*(?:/\S*)?$"),
        re.compile(r"\b(vllm-ascend):v?(\d+\.\d+[\w.]*)"),  # an image tag (its -openeuler / -a3 suffix is not the version)
        re.compile(rf"\b(vLLM Ascend) Version\s*:\s*{v}"),
        re.compile(rf"\b(vLLM) API server version {v}"),
    )


@functools.cache
def _env() -> re.Pattern[str]:
    return re.compile(r"\b(ASCEND_(?:RT_)?VISIBLE_DEVICES)=['\"]?([\d,]+)")


@functools.cache
def _cann() -> re.Pattern[str]:
    return re.compile(r"(?:ascend-toolkit/|\bcann-?|CANN[ :]+v?)(\d+\.\d+\.(?:RC\d+|rc\d+|\d+)(?:\.alpha\d+|\.beta\d+)?)", re.I)


@functools.cache
def _pip_conflict() -> re.Pattern[str]:
    return re.compile(r"\b([\w.-]+) (\d[\w.+-]*) requires ([\w.-]+)[^,]*, but you have ([\w.-]+) (\d[\w.+-]*) which is incompatible")


def pip_conflict(text: str) -> tuple[str, str, str, str, str] | None:
    """pip's resolver: (package, its version, the requirement, what is installed, its version)."""
    m = _pip_conflict().search(text)
    if m is None:
        return None
    return m.group(1), m.group(2), text[m.start(3):text.index(", but you have", m.start(3))], m.group(4), m.group(5)


def versions_in(text: str) -> list[tuple[str, str]]:
    """(import name or ``cann``, version) pairs a line states."""
    if (conflict := pip_conflict(text)) is not None:  # "X 1 requires Y==2, but you have Y 3": X 1 and Y 3 are installed
        return [(conflict[0].lower().replace("-", "_"), conflict[1]), (conflict[3].lower().replace("-", "_"), conflict[4])]
    found = []
    for pattern in _patterns():
        for m in pattern.finditer(text):
            name = m.group(1).lower().replace("-", "_").replace(" ", "_")
            found.append((name, m.group(2).rstrip(".,;")))
    for m in _cann().finditer(text):
        found.append(("cann", m.group(1)))
    for m in _env().finditer(text):
        found.append((f"env:{m.group(1)}", m.group(2).strip(",")))
    return found
