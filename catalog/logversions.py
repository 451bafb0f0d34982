"""The one reader of the versions a log states, for the analyzers and the known-upstream-bug verdict.

Users paste ``pip list`` / ``pip freeze`` / ``pip show`` excerpts, ``torch-npu: 2.8.0`` lines of their
own, collect_env's ``vLLM Ascend Version``, ``X version: v`` log lines, ``dist-info`` paths, image tags
(``quay.io/ascend/vllm-ascend:v0.11.0rc1``, verl's ``quay.io/ascend/verl:…``) and CANN install paths
(``/usr/local/Ascend/ascend-toolkit/8.0.RC3/…``, ``cann8.3.rc2``). The analyzers check the pairs they
state against the compatibility matrices (DRV-versions); the upstream verdict says whether the
version the log shows has a fix. Keys are import names (``torch_npu``, ``vllm_ascend``) and ``cann``;
the device-visibility variables a log exports are kept too, as ``env:ASCEND_RT_VISIBLE_DEVICES``.
The first statement of a package wins, and keeps the line it was read from as its evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ..lazyre import lazy
from .normalize import strip_escapes_text

# the training stack, and the packages whose releases the import history (analyzers/apihistory.py) and NumPy's removals
# (analyzers/numpyapi.py) are read against: a pasted pip list decides which side of a name's releases the install is on
PACKAGES = (r"torch[_-]npu|vllm[_-]ascend|transformers|triton[_-]ascend|vllm|torch|verl|ray"
            r"|accelerate|trl|peft|huggingface[_-]hub|datasets|numpy|tokenizers|deepspeed")
_UPSTREAM_PKG = r"(vllm[-_]ascend|verl|torch[-_]npu)"  # the packages the mined upstream fixes belong to
# For the classifier's chunk scan (RE2 syntax; ^ is a line start): lines that may state a version.
PREFILTER = (
    rf"(?:{PACKAGES})(?:==| version:? v?)\d+\.\d+"
    rf"|^\s*(?:{PACKAGES})\s*(?::\s*|\s{{2,}}|\s*==\s*)v?\d+\.\d+"
    r"|vllm-ascend:v\d+\.\d+|ascend-toolkit/\d+\.\d+\.|\bcann-?\d+\.\d+\.(?:rc|RC|\d)|CANN[ :]+v?\d+\.\d+\.(?:RC|rc|\d)"
    r"|vLLM Ascend Version|vLLM API server version|, but you have \S+ \d\S* which is incompatible"
    r"|ASCEND_(?:RT_)?VISIBLE_DEVICES="
    r"|^\s*(?:\[(?:pip3?|conda)\]\s+)?(?:vllm[-_]ascend|torch[-_]npu|verl)\s+v?\d+\.\d+|^\s*vLLM (?:Ascend )?Version: "
    rf"|^\s*(?:Name: (?:{PACKAGES})\s*$|Version: \d)|\bascend/(?:verl|vllm-ascend):"
    r"|(?i:(?:vllm[-_]ascend|verl|torch[-_]npu)(?:-v?\d+\.\d+[\w.+-]*\.dist-info|\b[\w ]{0,20}?\bversion\b\s*(?:is|:|=)?\s*v?\d+\.\d))"
    # the interpreter (key "python"): an installed package's path, pip's refusal, `python --version`, collect_env
    r"|[/\\]python[23]\.\d+[/\\](?:site|dist)-packages|requires a different Python: [23]\.\d|^\s*[Pp]ython\s+[23]\.\d+\.\d|\bPython version: [23]\.\d"
)
MAX_PACKAGES = 64  # a log that states more is a pip list of everything: the first ones are the stack


class Stated(NamedTuple):
    """A version as the log states it, and the line that states it (the evidence)."""

    version: str
    line: str


_V = r"v?(\d+\.\d+[\w.+-]*)"
# Anywhere in a line: "torch_npu==2.7.1", "vllm_ascend version: 0.10.2rc1"; a whole line: "torch-npu: 2.8.0",
# pip list's "torch_npu   2.7.1rc1", "[pip3] torch==2.8.0"; image tags, collect_env and vLLM's start-up banner.
_ANYWHERE = (
    lazy(rf"\b({PACKAGES})(?:==| version:? ){_V}"),
    lazy(rf"^\s*(?:\[pip3?\]\s*)?({PACKAGES})\s*(?::\s*|\s{{2,}}|\s*==\s*){_V}\s*(?:/\S*)?$"),
    # conda list's rows, Name Version Build [Channel] ("torch   2.1.0   pypi_0   pypi", "numpy  1.26.4  py310h5f9d8c6_0"), and
    # collect_env's "[conda] numpy  1.26.4  pypi_0  pypi" (https://docs.conda.io/projects/conda/en/stable/commands/list.html)
    lazy(rf"^\s*(?:\[conda\]\s+)?({PACKAGES})\s{{2,}}{_V}\s{{2,}}[\w.+-]+(?:\s+[\w./:-]+)?\s*$"),
    lazy(r"\b(vllm-ascend):v?(\d+\.\d+[\w.]*)"),  # an image tag (its -openeuler / -a3 suffix is not the version)
    lazy(rf"\b(vLLM Ascend) Version\s*:\s*{_V}"),
    lazy(rf"\b(vLLM) API server version {_V}"),
)
# The interpreter's version as a log shows it (key "python"): the lib/pythonX.Y folder of the packages it imports or pip
# reports installed (".../lib/python3.9/site-packages/..."), pip's refusal of a project ("Package 'x' requires a different
# Python: 3.8.10 not in '>=3.9'"), `python --version` / the interactive banner ("Python 3.9.9"), or a person's own line ("python  3.8.17"), collect_env's "Python
# version: 3.10.12 (main, ...)".
_PYTHON = (
    lazy(r"[/\\]python([23]\.\d+)[/\\](?:site|dist)-packages(?![\w.-])"),
    lazy(r"requires a different Python: ([23]\.\d+\.\d+) not in"),
    lazy(r"^\s*[Pp]ython\s+([23]\.\d+\.\d+)(?![\d.])"),
    lazy(r"\bPython version: ([23]\.\d+\.\d+)"),
)
_ENV = lazy(r"\b(ASCEND_(?:RT_)?VISIBLE_DEVICES)=['\"]?([\d,]+)")
_CANN = lazy(r"(?:ascend-toolkit/|\bcann-?|CANN[ :]+v?)(\d+\.\d+\.(?:RC\d+|rc\d+|\d+)(?:\.alpha\d+|\.beta\d+)?)", re.I)
_PIP_CONFLICT = lazy(r"\b([\w.-]+) (\d[\w.+-]*) requires ([\w.-]+)(?:[^,]|,(?=\s*[<>=!~]))*, but you have ([\w.-]+) (\d[\w.+-]*) which is incompatible")

# The release-shaped forms, each from where it is printed (case as the tools print it, or any):
_VER = r"v?(\d+(?:\.\d+)+(?:[.-]?(?:rc|a|b|alpha|beta|post|dev)\.?\d*)*(?:\+[\w.]+)?)"
_RELEASE_LINES = (
    # pip freeze, and torch's / vllm-ascend's collect_env "[pip3] torch_npu==2.7.1" (vllm-ascend collect_env.py:
    # https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/collect_env.py)
    lazy(r"^\s*(?:\[(?:pip3?|conda)\]\s+)?" + _UPSTREAM_PKG + r"\s*==\s*" + _VER, re.I),
    # pip list (https://pip.pypa.io/en/stable/cli/pip_list/), and collect_env's conda rows "[conda] torch-npu  2.5.1  <pip>"
    lazy(r"^\s*(?:\[conda\]\s+)?" + _UPSTREAM_PKG + r"\s+" + _VER + r"(?:\s+(?:<pip>|pypi_0\s+pypi))?\s*$", re.I),
    # vllm-ascend's collect_env: "vLLM Version: 0.11.0" / "vLLM Ascend Version: 0.11.0rc2 (git sha: …)"
    lazy(r"^\s*(vLLM Ascend|vLLM) Version:\s*" + _VER),
    lazy(r"\b" + _UPSTREAM_PKG + r"\b[\w ]{0,20}?\bversion\b\s*(?:is|:|=)?\s*" + _VER, re.I),
    lazy(r"\b" + _UPSTREAM_PKG + r"-" + _VER + r"\.dist-info", re.I),
    # vllm-ascend images, quay.io/ascend/vllm-ascend:v0.11.0rc1[-a3|-openeuler…]
    # (https://docs.vllm.ai/projects/ascend/en/latest/getting_started/quick_start.html)
    lazy(r"\bascend/(vllm-ascend):v?(\d+\.\d+\.\d+(?:rc\d+|\.post\d+)?)(?![\w.])"),
)
# verl's Ascend images (https://github.com/volcengine/verl/blob/v0.7.0/docs/ascend_tutorial/dockerfile_build_guidance.rst):
# release tags verl-{CANN}-{device}-{OS}-{python}-v{verl}, later v{verl}-cann{CANN}-torch_npu{X}-…; a tag that
# names its vllm-ascend ("…-vllm-ascend-v0.x") gives that too. A daily "-latest" tag names no verl release.
_VERL_IMAGE = lazy(r"\bascend/verl:(\S+)")
_IMAGE_PARTS = (
    ("verl", lazy(r"^v(\d+\.\d+\.\d+[\w.]*?)-cann|-py3\.\d+-v(\d+\.\d+\.\d+[\w.]*)$")),
    ("torch_npu", lazy(r"-torch_npu(\d+\.\d+\.\d+(?:\.?post\d+)?)")),
    ("vllm_ascend", lazy(r"-vllm-ascend-v?(\d+\.\d+\.\d+(?:rc\d+)?)")),
)
# pip show (https://pip.pypa.io/en/stable/cli/pip_show/): "Name: vllm_ascend" then "Version: 0.9.1"; any package of the
# stack (PACKAGES), since the import history and the matrices read transformers', torch's or ray's release as well.
_SHOW_NAME = lazy(r"^Name:\s*(" + PACKAGES + r")\s*$", re.I)
_SHOW_VERSION = lazy(r"^Version:\s*" + _VER + r"\s*$")
# A line that may hold one of the release-shaped forms: the cheap test before them.
_RELEASE_HINT = lazy(r"(?i)ascend|verl|npu|^vllm|^name:|^version:")


def import_name(package: str) -> str:
    """``vllm-ascend`` / ``vLLM Ascend`` / ``Torch_NPU`` → ``vllm_ascend`` / ``torch_npu``."""
    return package.lower().replace("-", "_").replace(" ", "_")


def pip_conflict(text: str) -> tuple[str, str, str, str, str] | None:
    """pip's resolver: (package, its version, the requirement, what is installed, its version)."""
    m = _PIP_CONFLICT.search(text)
    if m is None:
        return None
    return m.group(1), m.group(2), text[m.start(3):text.index(", but you have", m.start(3))], m.group(4), m.group(5)


def versions_in(text: str, show: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """(import name, ``cann`` or ``env:NAME``; version) pairs one line states, in the order read.

    ``show`` carries a ``pip show`` block's Name to its Version line when lines come one at a time.
    """
    if (conflict := pip_conflict(text)) is not None:  # "X 1 requires Y==2, but you have Y 3": X 1 and Y 3 are installed
        return [(import_name(conflict[0]), conflict[1]), (import_name(conflict[3]), conflict[4])]
    found = []
    for pattern in _ANYWHERE:
        for m in pattern.finditer(text):
            found.append((import_name(m.group(1)), m.group(2).rstrip(".,;")))
    for m in _CANN.finditer(text):
        found.append(("cann", m.group(1)))
    for m in _ENV.finditer(text):
        found.append((f"env:{m.group(1)}", m.group(2).strip(",")))
    if "ython" in text:
        for pattern in _PYTHON:
            if m := pattern.search(text):
                found.append(("python", m.group(1)))
                break
    if _RELEASE_HINT.search(text.lstrip()):
        found += _release_forms(strip_escapes_text(text).strip(), {} if show is None else show)
    return list(dict.fromkeys(found))  # a pair two forms read alike, once


def _release_forms(line: str, show: dict[str, str]) -> list[tuple[str, str]]:
    if (m := _SHOW_NAME.match(line)) is not None:
        show["pip-show"] = import_name(m.group(1))
        return []
    if (m := _SHOW_VERSION.match(line)) is not None:
        return [(show.pop("pip-show"), m.group(1))] if "pip-show" in show else []
    if (image := _VERL_IMAGE.search(line)) is not None:
        found = []
        for package, rx in _IMAGE_PARTS:
            if (m := rx.search(image.group(1))) is not None:
                found.append((package, (m.group(1) or m.group(2)).replace("post", ".post").replace("..", ".")))
        return found
    for rx in _RELEASE_LINES:
        if (m := rx.search(line)) is not None:
            return [(import_name(m.group(1)), m.group(2))]
    return []


class LogVersions:
    """The versions a whole log states, read a line at a time: the first statement of each package wins.

    A later line that states another version of the same package (a second ``pip list``, an image tag
    and a pin that disagree) does not replace it: the first is what the run was started with as far
    as the log shows, and its line is the evidence either way.
    """

    def __init__(self, limit: int = MAX_PACKAGES):
        self.stated: dict[str, Stated] = {}
        self._show: dict[str, str] = {}
        self._limit = limit

    def read(self, line: str) -> None:
        if len(self.stated) >= self._limit:
            return
        for package, version in versions_in(line, self._show):
            if package not in self.stated:
                self.stated[package] = Stated(version, line.strip()[:300])

    def versions(self) -> dict[str, str]:
        """Import name → version, without the evidence (what the analyzers compare)."""
        return {package: s.version for package, s in self.stated.items()}


def read_versions(lines: Iterable[str]) -> dict[str, Stated]:
    """Every version the lines state (see :class:`LogVersions`)."""
    reader = LogVersions()
    for line in lines:
        reader.read(line)
    return reader.stated
