"""Versions of installed distributions, read from their metadata folders by importlib.metadata's rules.

One listing of each path folder answers every name: what ``importlib.metadata.version`` and
``distributions()`` answer (folders keyed by the name in the folder's name, the first on the path
wins, a folder's dist-infos before its egg), reading only the wanted folders' metadata. A
``version()`` call per package (a scan of the path each) and a parse of every distribution's whole
METADATA to find the CUDA wheels cost a training venv of 150 distributions 0.1 s in-process and
0.5 s in a ``--python`` query.

Standard library only, and valid Python 3.8: this file's text also runs inside the checked
interpreter (``check --python``, see packages.py), never importing ascendrl there.
"""

from __future__ import annotations

import os
import re
import sys

CUDA_DIST_PREFIX = "nvidia-"  # the CUDA runtime wheels a PyPI (CUDA) torch or vllm pulls in

# A header line as the email package's feed parser tells them from the body: a name and a colon,
# a continuation (leading blank), or an mbox "From " line.
_HEADER_LINE = re.compile(r"(From |[\041-\071\073-\176]*:|[\t ])")
_LINES = re.compile(r".*?(?:\r\n|\r|\n)|.+", re.DOTALL)


def normalize(name: str) -> str:
    """A distribution name as importlib.metadata keys metadata folders (PEP 503, dashes as underscores)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


def installed(paths: list[str], names: list[str], *, cuda_last: bool = False) -> tuple[dict, dict] | None:
    """(version by wanted name, version by CUDA wheel name) as importlib.metadata answers them.

    A version is None when the metadata has no Version field; a name not installed is left out.
    ``cuda_last``: a CUDA wheel found twice keeps the later one (what the --python query always
    did), not the first (what importlib imports, and the in-process probe keeps). None when
    importlib.metadata would look elsewhere too: a zip on the path, another distribution finder.
    """
    from importlib.machinery import PathFinder

    if any(getattr(finder, "find_distributions", None) and finder is not PathFinder for finder in sys.meta_path):
        return None
    wanted = {normalize(name): name for name in names}
    wanted_eggs = {name.lower().replace("-", "_"): name for name in names}
    versions: dict[str, str | None] = {}
    cuda: dict[str, str | None] = {}
    for entry in paths:
        try:
            children = os.listdir(entry or ".")
        except OSError:
            if os.path.exists(entry or "."):
                return None
            continue
        found = []  # (wanted name or None, folder-name key, metadata path)
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                key = normalize(low.rpartition(".")[0].partition("-")[0])
                found.append((wanted.get(key), key, os.path.join(entry, child)))
        egg = os.path.basename(entry).lower()
        if egg.endswith(".egg"):
            key = egg.rpartition(".")[0].partition("-")[0].replace("-", "_")
            found += [(wanted_eggs.get(key), key, os.path.join(entry, c)) for c in children if c.lower() == "egg-info"]
        for name, key, folder in found:
            if name is not None and name not in versions:
                versions[name] = field(metadata_text(folder), "Version")
            if key.startswith("nvidia"):  # a folder's name is its distribution's name; the Name field decides
                text = metadata_text(folder)
                dist = (field(text, "Name") or "").lower().replace("_", "-")
                if dist.startswith(CUDA_DIST_PREFIX) and (cuda_last or dist not in cuda):
                    cuda[dist] = field(text, "Version")
    return versions, dict(sorted(cuda.items()))


def by_importlib(names: list[str], *, cuda_last: bool = False) -> tuple[dict, dict]:
    """The same answer from importlib.metadata itself, where the path holds more than folders."""
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except Exception:  # PackageNotFoundError, or metadata that does not parse
            pass
    return versions, cuda_dists(metadata.distributions(), cuda_last=cuda_last)


def cuda_dists(dists, *, cuda_last: bool = False) -> dict[str, str]:
    """CUDA wheels among importlib.metadata distributions, by normalised name."""
    found: dict[str, str] = {}
    for dist in dists:
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name.startswith(CUDA_DIST_PREFIX) and (cuda_last or name not in found):
            found[name] = dist.version
    return dict(sorted(found.items()))


def metadata_text(folder: str) -> str:
    """A distribution's METADATA, else PKG-INFO, else the .egg-info file itself: what importlib.metadata parses."""
    for name in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                text = handle.read()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            continue
        if text:
            return text
    try:
        with open(folder, encoding="utf-8") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return ""


def field(text: str, name: str) -> str | None:
    """The first ``name`` header of an RFC 822 header block, as ``email``'s compat32 parser returns it.

    Continuation lines are joined, the value is stripped of leading blanks and the final line end;
    the headers end at a blank line or a line that is no header. None when the field is absent.
    """
    wanted = name.lower()
    value: list[str] | None = None
    for line in _LINES.findall(text):
        if not _HEADER_LINE.match(line):
            break  # a blank line (or the body, without one)
        if line[0] in " \t":
            if value is not None:
                value.append(line)
            continue
        if value is not None:
            break  # the field's value ended; the first occurrence is the one returned
        if line.startswith("From ") or line.startswith(":"):
            continue  # an mbox envelope line, or a header without a name: skipped
        header, rest = line.split(":", 1)
        if header.lower() == wanted:
            value = [rest.lstrip(" \t")]
    return "".join(value).rstrip("\r\n") if value is not None else None
