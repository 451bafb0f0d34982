"""Python and the installed stack, read from package metadata without importing anything heavy.

Three ways, one result: this interpreter (its sys.path folders, looked up in-process by
importlib.metadata's rules, see ``_installed``), another
interpreter (``--python EXE``: a short metadata query run in it), or the site-packages
folders of a mounted image (``--root DIR``: METADATA files read through the host, inside the root).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from ..host import Host
from ..model import Fact, missing

# Distribution names as published on PyPI; facts are keyed by the name on the right.
PACKAGES: dict[str, str] = {
    "torch": "torch",
    "torch-npu": "torch_npu",
    "torchvision": "torchvision",
    "vllm": "vllm",
    "vllm-ascend": "vllm_ascend",
    "verl": "verl",
    "ray": "ray",
    "transformers": "transformers",
    "tensordict": "tensordict",
    "datasets": "datasets",
    "triton-ascend": "triton_ascend",
    "triton": "triton",
    "numpy": "numpy",
}

# CUDA runtime wheels that a PyPI (CUDA) torch or vllm pulls in; their presence means a CUDA stack (ARL-C014).
CUDA_DIST_PREFIX = "nvidia-"

# Runs inside the checked interpreter: stdlib only, Python 3.8+.
_QUERY = """
import json, platform, sys
try:
    from importlib import metadata
except ImportError:
    metadata = None
names = json.loads(sys.argv[1])
pk = {}
for n in names:
    try:
        pk[n] = metadata.version(n) if metadata else None
    except Exception:
        pk[n] = None
cuda = {}
for d in (metadata.distributions() if metadata else ()):
    n = (d.metadata["Name"] or "").lower().replace("_", "-")
    if n.startswith("nvidia-"):
        cuda[n] = d.version
print(json.dumps({"python": platform.python_version(),
                  "implementation": platform.python_implementation(),
                  "executable": sys.executable, "packages": pk, "cuda": cuda}))
"""

# Where Python packages live in the images users run (CANN images put Python under
# /usr/local/python3.X.Y; quay.io/ascend/verl uses it; conda images use /opt/conda).
_SITE_GLOBS = (
    "usr/local/python3*/lib/python3*/site-packages",
    "usr/local/lib/python3*/site-packages",
    "usr/local/lib/python3*/dist-packages",
    "usr/lib/python3*/site-packages",
    "usr/lib/python3/dist-packages",
    "opt/conda/lib/python3*/site-packages",
    "root/.local/lib/python3*/site-packages",
)


def probe_packages(host: Host) -> dict[str, Fact]:
    """Python version and the versions of the stack's distributions."""
    if host.python:
        return _from_interpreter(host)
    if not host.live:
        return _from_root(host)
    source = f"importlib.metadata ({sys.executable})"
    version, implementation = _python_version()
    facts = {
        "python.version": Fact(version, f"platform ({sys.executable})"),
        "python.implementation": Fact(implementation, "platform"),
        "python.executable": Fact(sys.executable, "sys.executable"),
    }
    found = _installed(sys.path)
    if found is None:  # a zip or egg file on sys.path: importlib.metadata reads those
        found = _installed_by_importlib()
    versions, cuda = found
    for dist, key in PACKAGES.items():
        facts[f"pkg.{key}"] = Fact(versions[dist], source) if dist in versions else missing(source, "not installed")
    facts["pkg.cuda_dists"] = Fact(cuda, source)
    return facts


def _python_version() -> tuple[str, str]:
    """platform.python_version() and python_implementation(); CPython's from sys.version without importing platform."""
    head = sys.version.split(None, 1)[0] if sys.version else ""
    if sys.implementation.name != "cpython" or not head or not all(c.isalnum() or c in "._+" for c in head):
        import platform

        return platform.python_version(), platform.python_implementation()
    return (head + ".0" if head.count(".") == 1 else head), "CPython"


def _normalize(name: str) -> str:
    """A distribution name as importlib.metadata keys its metadata folders (PEP 503, dashes as underscores)."""
    return re.sub(r"[-_.]+", "-", name).lower().replace("-", "_")


Installed = tuple[dict[str, "str | None"], dict[str, "str | None"]]


def _installed(paths: list[str]) -> Installed | None:
    """(version by wanted distribution, version by CUDA wheel) from one listing of each ``paths`` folder.

    What ``importlib.metadata.version`` and ``distributions()`` answer, by their rules: metadata
    folders keyed by the name in the folder's name, the first on the path wins, a folder's
    dist-infos before its egg. Only the wanted folders' metadata is read: a ``version()`` call per
    package (each a scan of the path) and a parse of every installed distribution's metadata for the
    CUDA wheels cost a training venv of 200 distributions 100+ ms. None when importlib.metadata
    would look elsewhere too: a zip file on the path, or another finder that lists distributions.
    """
    from importlib.machinery import PathFinder

    if any(getattr(finder, "find_distributions", None) and finder is not PathFinder for finder in sys.meta_path):
        return None
    wanted = {_normalize(dist): dist for dist in PACKAGES}
    wanted_eggs = {dist.lower().replace("-", "_"): dist for dist in PACKAGES}
    versions: dict[str, str | None] = {}
    cuda: dict[str, str | None] = {}
    for entry in paths:
        try:
            children = os.listdir(entry or ".")
        except OSError:
            if os.path.exists(entry or "."):
                return None
            continue
        found = []  # (wanted distribution or None, folder-name key, metadata path)
        egg = os.path.basename(entry).lower()
        for child in children:
            low = child.lower()
            if low.endswith((".dist-info", ".egg-info")):
                key = _normalize(low.rpartition(".")[0].partition("-")[0])
                found.append((wanted.get(key), key, os.path.join(entry, child)))
        if egg.endswith(".egg") and "egg-info" in (c.lower() for c in children):
            key = egg.rpartition(".")[0].partition("-")[0].replace("-", "_")
            found += [(wanted_eggs.get(key), key, os.path.join(entry, c)) for c in children if c.lower() == "egg-info"]
        for dist, key, folder in found:
            if dist is not None and dist not in versions:
                versions[dist] = _field(_metadata_text(folder), "Version")
            if key.startswith("nvidia"):  # a folder's name is its distribution's name; the Name field decides
                text = _metadata_text(folder)
                name = (_field(text, "Name") or "").lower().replace("_", "-")
                if name.startswith(CUDA_DIST_PREFIX):
                    cuda.setdefault(name, _field(text, "Version"))
    return versions, dict(sorted(cuda.items()))


def _metadata_text(folder: str) -> str:
    """A distribution's METADATA, else PKG-INFO, else the .egg-info file itself: what importlib.metadata parses."""
    for name in ("METADATA", "PKG-INFO"):
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                if text := handle.read():
                    return text
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            pass
    try:
        with open(folder, encoding="utf-8") as handle:
            return handle.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return ""


# A header line as the email package's feed parser tells them from the body: a name and a colon,
# a continuation (leading blank), or an mbox "From " line.
_HEADER_LINE = re.compile(r"(From |[\041-\071\073-\176]*:|[\t ])")
_LINES = re.compile(r".*?(?:\r\n|\r|\n)|.+", re.DOTALL)


def _field(text: str, field: str) -> str | None:
    """The first ``field`` header of an RFC 822 header block, as ``email``'s compat32 parser returns it.

    Continuation lines are joined, the value is stripped of leading blanks and the final line end;
    the headers end at a blank line or a line that is no header. None when the field is absent.
    """
    wanted = field.lower()
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
        name, rest = line.split(":", 1)
        if name.lower() == wanted:
            value = [rest.lstrip(" \t")]
    return "".join(value).rstrip("\r\n") if value is not None else None


def _installed_by_importlib() -> Installed:  # pragma: no cover - only with a zip on sys.path
    from importlib import metadata

    versions: dict[str, str | None] = {}
    for dist in PACKAGES:
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            pass
    return versions, _cuda_dists(metadata.distributions())


def _cuda_dists(dists) -> dict[str, str]:
    found = {}
    for dist in dists:
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name.startswith(CUDA_DIST_PREFIX):
            found.setdefault(name, dist.version)
    return dict(sorted(found.items()))


def _from_interpreter(host: Host) -> dict[str, Fact]:
    exe = str(host.python)
    result = host.run([exe, "-c", _QUERY, json.dumps(list(PACKAGES))], timeout=max(host.timeout, 20))
    source = f"metadata query run by {exe}"
    try:
        data = json.loads(result.stdout.strip().splitlines()[-1]) if result.rc == 0 else None
    except (ValueError, IndexError):
        data = None
    if not isinstance(data, dict):
        if result.rc == 0 and not result.timed_out:  # /usr/bin/true, a shell script, a wrapper that swallows -c
            reason = f"{exe} did not answer like Python (it exited 0 and printed {'no JSON' if result.stdout.strip() else 'nothing'}); pass a Python interpreter"
        else:
            reason = f"could not query {exe}: {result.describe()}"
        facts = {f"pkg.{key}": missing(source, reason) for key in PACKAGES.values()}
        facts["python.version"] = missing(source, reason)
        facts["python.executable"] = missing(source, reason)
        return facts
    facts = {
        "python.version": Fact(data.get("python"), source),
        "python.implementation": Fact(data.get("implementation"), source),
        "python.executable": Fact(data.get("executable"), source),
    }
    versions = data.get("packages") or {}
    for dist, key in PACKAGES.items():
        value = versions.get(dist)
        facts[f"pkg.{key}"] = Fact(value, source) if value else missing(source, "not installed")
    facts["pkg.cuda_dists"] = Fact(dict(sorted((data.get("cuda") or {}).items())), source)
    return facts


def _from_root(host: Host) -> dict[str, Fact]:
    sites = [p for pattern in _SITE_GLOBS for p in host.glob(pattern) if host.is_dir(p)]
    if not sites:
        reason = f"no site-packages folder under {host.root} (looked in {', '.join(_SITE_GLOBS)})"
        facts = {f"pkg.{key}": missing("site-packages scan", reason) for key in PACKAGES.values()}
        facts["python.version"] = missing("site-packages scan", reason)
        return facts
    rel = sites[0]
    source = f"package metadata under {rel}"
    found: dict[str, str] = {}
    for site in sites:
        for name, version in _distributions(host, site):
            found.setdefault(name, version)
    cuda = {name: version for name, version in sorted(found.items()) if name.startswith(CUDA_DIST_PREFIX)}
    facts = {"python.version": _python_from_site(Path(rel), rel), "pkg.cuda_dists": Fact(cuda, source)}
    for dist_name, key in PACKAGES.items():
        value = found.get(dist_name)
        facts[f"pkg.{key}"] = Fact(value, source) if value else missing(source, "not installed")
    return facts


def _distributions(host: Host, site: str) -> list[tuple[str, str]]:
    """(normalised name, version) of each *.dist-info / *.egg-info in an image's site-packages.

    Read through the host (links resolved inside the root, bounded reads), not with
    importlib.metadata, which would follow an image's absolute links onto this machine.
    """
    try:
        names = host.listdir(site)
    except OSError:
        return []
    out = []
    for entry in names:
        if entry.endswith(".dist-info"):
            candidates = [f"{site}/{entry}/METADATA"]
        elif entry.endswith(".egg-info"):
            candidates = [f"{site}/{entry}/PKG-INFO", f"{site}/{entry}"]
        else:
            continue
        for meta in candidates:
            try:
                head = host.read_text(meta, limit=64 << 10).split("\n\n", 1)[0]
            except OSError:
                continue
            name, version = (_field(head, "Name") or "").strip(), (_field(head, "Version") or "").strip()
            if name and version:
                out.append((name.lower().replace("_", "-"), version))
            break
    return out


def _python_from_site(site: Path, rel: str) -> Fact:
    for part in reversed(site.parts):
        if part.startswith("python3") and part[len("python"):].replace(".", "").isdigit():
            return Fact(part[len("python"):], f"site-packages path {rel}")
    return missing(f"site-packages path {rel}", "no pythonX.Y component in the path")
