"""The interpreter is older than the release a failure needs: Requires-Python, read from the package index.

pip installs only a release whose Requires-Python admits the running interpreter and rarely says that is why:
"Could not find a version that satisfies the requirement X (from versions: none)" when no release of X admits it, an
older release of X installed in silence (the newest that admits it) and then "cannot import name 'N' from 'X'", or
Python 2 running a script for Python 3 ("No module named X", Python 2's words). ``catalog/data/requires_python.json``
(built by ``tools/build_requires_python.py`` from the index's Requires-Python of each release) says from which release
on each package of the stack requires which Python; the interpreter's version comes from the log (logversions'
"python": a lib/pythonX.Y path, pip's refusal, ``python --version``). The finding says: X's releases from R on require
Python S; this environment runs P.
"""

from __future__ import annotations

import dataclasses

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
from .apihistory import name_history, shipped_packages
from ...lazyre import lazy

# pip's resolver (factory.py): logger.critical "Could not find a version that satisfies the requirement %s (from
# versions: %s)", then DistributionNotFound "No matching distribution found for %s"; the requirement as written (name,
# extras, specifier).
PIP_NONE = lazy(r"(?:[Cc]ould not find a version that satisfies the requirement|[Nn]o matching distribution found for) "
                r"([A-Za-z0-9][\w.-]*?)(?:\[[^\]]*\])?\s*((?:[<>=!~]=?|===)\s*[\w.*+!-]+(?:\s*,\s*(?:[<>=!~]=?)\s*[\w.*+!-]+)*)?"
                r"(?=[\s;(]|$)")
PIP_FACTORY = "https://github.com/pypa/pip/blob/23.2.1/src/pip/_internal/resolution/resolvelib/factory.py"
# CPython 2's import machinery: "No module named %.200s" (the name bare); Python 3's importlib quotes it ({!r}).
PY2_NO_MODULE = lazy(r"^No module named ([A-Za-z_][\w.]*)\s*$")
PY2_IMPORT = "https://github.com/python/cpython/blob/v2.7.18/Python/import.c"
PY3_BOOTSTRAP = "https://github.com/python/cpython/blob/v3.6.15/Lib/importlib/_bootstrap.py"
NO_MODULE = lazy(r"No module named '([\w.]+)'")
CANNOT_IMPORT = lazy(r"cannot import name '(\w+)' from '([\w.]+)'")
PY3_FRAME = lazy(r"[/\\]python3\.\d+[/\\]")
PYPI = "https://pypi.org/project/{}/#history"
SPEC_DOC = "https://packaging.python.org/en/latest/specifications/core-metadata/#requires-python"
# Without the interpreter's version in the log, a package is read as needing a newer Python only when every release
# refuses this one and all older (math-verify, latex2sympy2_extended: >=3.10 from their first release).
UNSTATED_PROBE = "3.9"
# CPython 3.8's PyObject_GetItem on a type without __class_getitem__: "'type' object is not subscriptable"
# (Objects/abstract.c type_error "'%.200s' object is not subscriptable"); PEP 585 made the builtins generic in 3.9.
TYPE_SUBSCRIPT = lazy(r"'type' object is not subscriptable")
BUILTIN_GENERIC = lazy(r"(?:^|[^\w.])(list|dict|tuple|set|frozenset|type)\[")
PEP585 = "https://peps.python.org/pep-0585/"


def _table() -> dict:
    return shipped_packages("requires_python.json")


def _by_import(module: str) -> str | None:
    top = module.split(".")[0]
    for pip, row in _table().items():
        if row.get("import") == top:
            return pip
    return None


def admits(spec: str | None, python: str) -> bool:
    """Whether a Requires-Python admits the interpreter ("3.9" as a lib/python3.9 path states it: any 3.9.x)."""
    if not spec:
        return True
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    try:
        s = SpecifierSet(spec)
    except InvalidSpecifier:
        return True  # a spec pip itself would ignore
    tries = [python] if python.count(".") >= 2 else [f"{python}.0", f"{python}.99"]
    return any(s.contains(t, prereleases=True) for t in tries)


@dataclasses.dataclass(frozen=True)
class Refusal:
    """Which releases of a package (of those the table reads) do not admit an interpreter."""

    pip: str
    every: bool  # no release read admits it
    first: str  # the first release of the refused run (every: the first read)
    spec: str  # its Requires-Python
    newest: str  # the newest release read
    admitted: str  # the newest release read that admits it ("" when none)
    requirement: str = ""  # the specifier the releases were taken inside ("" for all)


def releases(pip: str) -> list[list]:
    return (_table().get(pip) or {}).get("releases") or []


def requires_at(pip: str, version: str) -> str | None:
    """The Requires-Python of a release: the table keeps every change, so it is that of the nearest kept one at or below."""
    from packaging.version import InvalidVersion, Version

    try:
        v = Version(version)
    except InvalidVersion:
        return None
    spec = None
    for row in releases(pip):
        if Version(row[0]) > v:
            break
        spec = row[1]
    return spec


def refusal(pip: str, python: str, requirement: str = "") -> Refusal | None:
    """Whether the releases (inside ``requirement``, a specifier, where given) from some release on refuse ``python``:
    None when the newest release read admits it (the interpreter is not what bars it), or the package is not read."""
    from packaging.specifiers import InvalidSpecifier, SpecifierSet

    rows = releases(pip)
    if requirement:
        try:
            want = SpecifierSet(requirement)
        except InvalidSpecifier:
            return None
        inside = [r for r in rows if want.contains(r[0], prereleases=True)]
        if not inside and "==" in requirement:  # a release the table does not keep: its Requires-Python is the one below
            pinned = requirement.split("==", 1)[1].strip()
            spec = requires_at(pip, pinned)
            inside = [[pinned, spec, None]] if spec is not None else []
        rows = inside
    if not rows or admits(rows[-1][1], python):
        return None
    ok = [i for i, r in enumerate(rows) if admits(r[1], python)]
    start = ok[-1] + 1 if ok else 0
    return Refusal(pip, not ok, rows[start][0], rows[start][1] or "", rows[-1][0], rows[ok[-1]][0] if ok else "", requirement)


def _stated(r: Refusal) -> str:
    read = f"{r.pip} {releases(r.pip)[0][0]} to {r.newest}, as the package index lists them"
    if r.every and r.requirement:
        return f"every release of {r.pip} inside {r.requirement} ({r.first} to {r.newest} read) requires Python {r.spec}"
    if r.every:
        return f"every release of {r.pip} read ({read}) requires Python {r.spec}"
    return (f"{r.pip} {r.first} and every later release read require Python {r.spec} ({read}); the newest release that admits "
            f"the interpreter is {r.admitted} or a later patch below {r.first}")


class PythonTooOld(Analyzer):
    id = "DRV-pythonver"
    title = "The Python interpreter is older than the package release the failure needs (Requires-Python)"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        msg = link.message
        if "No module named" in msg:
            return self._no_module(link, facts, msg)
        if "cannot import name" in msg:
            return self._too_old_release(link, facts, msg)
        if "ould not find a version" in msg or "o matching distribution" in msg:
            return self._pip_none(link, facts, msg)
        if "object is not subscriptable" in msg:
            return self._builtin_generic(link, facts, msg)
        return None

    def _builtin_generic(self, link: Link, facts: Facts, msg: str) -> Finding | None:
        """PEP 585 generics (list[int], dict[str, X]) evaluated on Python 3.8 or older: "'type' object is not subscriptable"."""
        if TYPE_SUBSCRIPT.search(msg) is None:
            return None
        code = link.source or link.statement
        m = BUILTIN_GENERIC.search(code)
        if m is None:
            return None
        python = facts.versions.get("python")
        if python and not python.startswith(("2.", "3.5", "3.6", "3.7", "3.8")):
            return None  # the log shows 3.9+: a class of the code's own that defines no __class_getitem__
        shown = f" (the log shows Python {python})" if python else ""
        return Finding(
            f"The code needs Python 3.9 or newer: {m.group(1)}[...] in an annotation or expression{shown}"[:160],
            f"{link.short_type}: {msg.strip()}. The line `{code.strip()[:120]}` subscripts the builtin {m.group(1)}, which "
            "Python supports from 3.9 on (PEP 585: list[int], dict[str, int]); on Python 3.8 and older the builtin type "
            f"is not subscriptable, so the package was written for a newer interpreter than this one{shown}.",
            ("Run it with Python 3.9+ (the stack's packages: 3.10-3.12): a new conda / venv environment, then reinstall",
             "Or pin the package to an older release that still supports this Python (its Requires-Python on PyPI)"),
            evidence(link), (PEP585, ), key=f"pep585:{m.group(1)}", kind="python-too-old",
        )

    def _pip_none(self, link: Link, facts: Facts, msg: str) -> Finding | None:
        m = PIP_NONE.search(msg)
        if m is None:
            return None
        from packaging.utils import canonicalize_name

        pip, requirement = canonicalize_name(m.group(1)), (m.group(2) or "").replace(" ", "")
        python = facts.versions.get("python")
        if not releases(pip):
            return None
        if python:
            r = refusal(pip, python, requirement)
            if r is None:
                return None
            shown = f"this environment runs Python {python}"
        else:
            r = refusal(pip, UNSTATED_PROBE, requirement)
            if r is None or not r.every:
                return None  # some release admits an older Python: without the log's interpreter, nothing to say
            shown = "the log does not show the interpreter's version (python --version)"
        return Finding(
            f"No {pip} release pip may install admits this Python: {pip} requires Python {r.spec}"[:160],
            f"{link.short_type}: {m.group(0).strip()[:160]}. pip considers only releases whose Requires-Python admits the "
            f"running interpreter, and {_stated(r)}; {shown}. So pip found no {pip}"
            + (f" matching {requirement}" if requirement else "") + " it may install: the interpreter is too old, not the index.",
            (f"Run it with a Python that {pip} admits ({r.spec}): a new virtual environment or conda env "
             "(conda create -n py310 python=3.10), then reinstall"
             + ("" if r.every else f"; or pin {pip}<{r.first} (a release that still admits this Python, if the caller accepts it)"),
             f"Check which Python pip runs under: python -m pip --version"),
            evidence(link), (PIP_FACTORY, PYPI.format(pip), SPEC_DOC), key=f"pythonver:pip:{pip}", kind="python-too-old",
        )

    def _too_old_release(self, link: Link, facts: Facts, msg: str) -> Finding | None:
        python = facts.versions.get("python")
        m = CANNOT_IMPORT.search(msg)
        if m is None or not python:
            return None
        name, module = m.group(1), m.group(2)
        pip = _by_import(module)
        if pip is None:
            return None
        top = module.split(".")[0]
        history = name_history(pip, module, name, facts.versions.get(top))
        if history is None or history.direction != "too-old" or not history.since:
            return None
        spec = requires_at(pip, history.since)
        if spec is None or admits(spec, python):
            return None
        return Finding(
            f"{pip} {history.since}, the first release with {name}, requires Python {spec}; this Python is {python}"[:160],
            f"{link.short_type}: {m.group(0)}. {history.sentence} {pip} {history.since} requires Python {spec}, and this "
            f"environment runs Python {python}: pip installs only the newest {pip} release that admits it, which lacks "
            f"{name}. The cause is the interpreter, not the package: upgrading {pip} on this Python cannot succeed.",
            (f"Run it with a Python that {pip} {history.since} admits ({spec}): a new virtual environment or conda env, then "
             f"python -m pip install '{pip}>={history.since}'",
             "Or use a release of the calling code written for the older API"),
            evidence(link), (PYPI.format(pip), SPEC_DOC, history.source), key=f"pythonver:import:{pip}:{name}",
            kind="python-too-old",
        )

    def _no_module(self, link: Link, facts: Facts, msg: str) -> Finding | None:
        python = facts.versions.get("python")
        if (m := PY2_NO_MODULE.match(msg.strip())) and link.short_type == "ImportError" \
                and not (python or "").startswith("3") and not any(PY3_FRAME.search(f.path) for f in link.frames):
            module = m.group(1)
            pip = _by_import(module)
            rows = releases(pip) if pip else []
            if not rows:
                return None  # a module no release table knows (a project's own, an old Python 2 era package): not claimed
            py3 = all(r[2] or not admits(r[1], "2.7") for r in rows)  # a Requires-Python or CPython wheels that exclude 2.7
            needs = f" (no release of {pip} {rows[0][0]} to {rows[-1][0]} admits Python 2)" if py3 else ""
            return Finding(
                f"Python 2 ran this code: No module named {module}",
                f"{link.short_type}: {msg.strip()}. That is Python 2's wording (its import machinery names the module bare; "
                "Python 3 quotes it and raises ModuleNotFoundError): the command ran the script with a Python 2 interpreter "
                f"(`python` on many older images is Python 2.7), where {module} is not installed and cannot be{needs}.",
                ("Run it with Python 3: call python3 (or the environment's python) explicitly, or make `python` point to it "
                 "(update-alternatives --install /usr/bin/python python /usr/bin/python3 10)",
                 "Check: python --version on the machine that runs the command (for a cluster launcher, on the head node)"),
                evidence(link), (PY2_IMPORT, PY3_BOOTSTRAP), key=f"pythonver:py2:{module}", kind="python-too-old",
            )
        m = NO_MODULE.search(msg)
        if m is None or not python:
            return None
        pip = _by_import(m.group(1))
        if pip is None:
            return None
        r = refusal(pip, python)
        if r is None or not r.every:
            return None  # some release admits this Python: the package was not installed, not barred
        return Finding(
            f"{pip} cannot be installed on Python {python}: it requires Python {r.spec}"[:160],
            f"{link.short_type}: {msg.strip()[:160]}. {_stated(r)[0].upper()}{_stated(r)[1:]}; this environment runs Python "
            f"{python}, so pip never installed it here (the install step failed or skipped it).",
            (f"Run it with a Python that {pip} admits ({r.spec}): a new virtual environment or conda env, then install it",),
            evidence(link), (PYPI.format(pip), SPEC_DOC), key=f"pythonver:module:{pip}", kind="python-too-old",
        )
