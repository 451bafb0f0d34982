"""Python and the installed stack, read from package metadata without importing anything heavy.

Three ways, one result: this interpreter (its sys.path folders, looked up in-process by
importlib.metadata's rules: distinfo.py), another interpreter (``--python EXE``: a short query
run in it, with distinfo.py's text), or the site-packages
folders of a mounted image (``--root DIR``: METADATA files read through the host, inside the root).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ascendrl import cache

from ..host import Host
from ..model import Fact, missing
from . import distinfo

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

# Runs inside the checked interpreter: stdlib only, any Python 3. From 3.8 on it runs distinfo.py's text
# (argv[2]); before, there is no importlib.metadata and every package reads as not installed.
_QUERY = """
import json, platform, sys
names = json.loads(sys.argv[1])
versions, cuda = {}, {}
if sys.version_info >= (3, 8):
    scope = {"__name__": "ascendrl_distinfo"}
    exec(sys.argv[2], scope)
    found = scope["installed"](sys.path, names, cuda_last=True)
    versions, cuda = found if found is not None else scope["by_importlib"](names, cuda_last=True)
print(json.dumps({"python": platform.python_version(),
                  "implementation": platform.python_implementation(),
                  "executable": sys.executable, "packages": {n: versions.get(n) for n in names}, "cuda": cuda}))
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
    names = list(PACKAGES)
    found = distinfo.installed(sys.path, names)
    versions, cuda = found if found is not None else distinfo.by_importlib(names)
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


def _from_interpreter(host: Host) -> dict[str, Fact]:
    exe = str(host.python)
    program = cache.shipped_text(distinfo.__file__, __package__, "distinfo.py")
    result = host.run([exe, "-c", _QUERY, json.dumps(list(PACKAGES)), program], timeout=max(host.timeout, 20))
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
    cuda = {name: version for name, version in sorted(found.items()) if name.startswith(distinfo.CUDA_DIST_PREFIX)}
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
            name, version = (distinfo.field(head, "Name") or "").strip(), (distinfo.field(head, "Version") or "").strip()
            if name and version:
                out.append((name.lower().replace("_", "-"), version))
            break
    return out


def _python_from_site(site: Path, rel: str) -> Fact:
    for part in reversed(site.parts):
        if part.startswith("python3") and part[len("python"):].replace(".", "").isdigit():
            return Fact(part[len("python"):], f"site-packages path {rel}")
    return missing(f"site-packages path {rel}", "no pythonX.Y component in the path")
