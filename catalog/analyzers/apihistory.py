"""Which side of a failed import is behind: the releases in which a module binds a name.

"cannot import name 'X' from 'M'" and "module 'M' has no attribute 'X'" say the caller and the installed package
disagree, not which one moved. ``catalog/data/api_history.json`` (built by ``tools/build_api_history.py`` from the
PyPI wheels of one release per minor line) records the release ranges in which each module binds each name, so the
answer can say: X arrived in M with release a (the installed package is older: upgrade), X left M after release b
(newer: pin below, or move the caller), X moved to another module, or every release read has X (then the release is
not the cause: the package Python imported is not the installed one, or it is older than the table reaches).
"""

from __future__ import annotations

import dataclasses
import functools
import json

PYPI = "https://pypi.org/project/{}/#history"


@functools.cache
def shipped_packages(name: str) -> dict:
    """The "packages" of a release table shipped in catalog/data (api_history.json, requires_python.json), read once
    and only when a failure asks (explain's start-up and other logs do not pay for it)."""
    from importlib import resources

    try:
        text = resources.files("ascendrl.catalog").joinpath(f"data/{name}").read_text(encoding="utf-8")
        return json.loads(text).get("packages", {})
    except (OSError, ValueError):  # a damaged install: say nothing rather than fail the explanation
        return {}


def _table() -> dict:
    return shipped_packages("api_history.json")


@dataclasses.dataclass(frozen=True)
class NameHistory:
    """What the released wheels say about one name in one module."""

    pip: str
    direction: str  # "too-old", "too-new", "between", "always", "absent"
    sentence: str  # the facts, for the cause
    fix: str  # the first fix, or ""
    source: str
    since: str = ""  # too-old: the first release read that has the name (the release the caller needs at least)


def _spans(ranges: list[list[int]], versions: list[str]) -> str:
    return ", ".join(versions[a] if a == b else f"{versions[a]} to {versions[b]}" for a, b in ranges)


def _indices(ranges: list[list[int]]) -> list[int]:
    return [i for a, b in ranges for i in range(a, b + 1)]


def _minor(version: str) -> str:
    from packaging.version import InvalidVersion, Version  # here: explain's start-up does not pay for it

    try:
        v = Version(version)
        return f"{v.major}.{v.minor}"
    except InvalidVersion:
        return version


def _older(a: str, b: str) -> bool | None:
    from packaging.version import InvalidVersion, Version

    try:
        return Version(a) < Version(b)
    except InvalidVersion:
        return None


def _holders(mods: dict, name: str, at: int, skip: str) -> list[str]:
    """Modules that bind ``name`` in release index ``at`` (where a moved name lives), shortest paths first."""
    out = []
    for mod, row in mods.items():
        if mod == skip:
            continue
        if name in row["names"]:
            if at in _indices(row["names"][name]):
                out.append(mod)
        elif name in row["always"] and at in _indices(row["in"]):
            out.append(mod)
    return sorted(out, key=lambda m: (m.count("."), len(m)))[:2]


def _span(pip: str, versions: list[str]) -> str:
    return f"{pip} {versions[0]} to {versions[-1]} (the newest release of each minor line)"


def _shows(installed: str | None) -> str:
    return f" (the log shows {installed})" if installed else ""


def _inside(installed: str | None, versions: list[str], first: int, last: int) -> bool:
    """The installed release (where the log states it) is inside the range read as having a thing: at or above the
    first release read that has it, below the minor line of the first release read without it."""
    return bool(installed) and _older(installed, versions[first]) is False and (
        last == len(versions) - 1 or _older(installed, _minor(versions[last + 1])) is True)


def _side(installed: str | None, versions: list[str], first: int, last: int) -> str | None:
    """Which side of the releases read as having a thing (``first`` to ``last``) the installed release (where the log
    states it) is on: "too-old" below the first, "too-new" at or above the minor line of the first release without it."""
    if not installed:
        return None
    if first > 0 and _older(installed, versions[first]) is True:
        return "too-old"
    if last < len(versions) - 1 and _older(installed, _minor(versions[last + 1])) is False:
        return "too-new"
    return None


# A thing that came and went, with no release in the log: the installed release either predates the first line that
# has it (too old) or is at or after the line that dropped it (too new). When the first line came out this many days
# before the line that dropped it, an install older than that first line would be years older than the releases in
# use when the caller met the failure: the too-new side is the reading.
LONG_LIVED_DAYS = 730


def _long_lived(pip: str, versions: list[str], first: int, last: int) -> str:
    """Where ``first`` (the first release line that has a thing) came out at least LONG_LIVED_DAYS before the line
    after ``last`` (the first without it), per the table's PyPI upload dates: the clause that says so, else ""."""
    import datetime

    dates = _table().get(pip, {}).get("dates", {})
    if last + 1 >= len(versions) or first <= 0:
        return ""
    try:
        a, b = (datetime.date.fromisoformat(dates[versions[i]]) for i in (first, last + 1))
    except (KeyError, ValueError):
        return ""
    if (b - a).days < LONG_LIVED_DAYS:
        return ""
    return (f" No release is in the log; the {_minor(versions[first])} line came out on {a.isoformat()}, "
            f"{(b - a).days // 365} years before {_minor(versions[last + 1])} ({b.isoformat()}, PyPI upload dates), so "
            f"an install older than {_minor(versions[first])} is not a plausible reading.")


def _too_old(pip: str, versions: list[str], first: int, what: str, lacks: str, installed: str | None) -> NameHistory:
    """``what`` follows "the first release" ("whose M has X"); ``lacks`` says the release before has it not."""
    return NameHistory(pip, "too-old", f"{pip} {versions[first]} is the first release {what} (the newest "
                       f"{_minor(versions[first - 1])} release, {versions[first - 1]}, {lacks}; {_span(pip, versions)} "
                       f"read): the installed {pip} is older than the caller needs{_shows(installed)}.",
                       f"Upgrade: python -m pip install '{pip}>={versions[first]}' (within the range the caller and the "
                       "rest of the stack accept)", PYPI.format(pip), versions[first])


def _too_new(pip: str, versions: list[str], last: int, what: str, lacks: str, installed: str | None,
             moved: str = "", dated: str = "") -> NameHistory:
    """``what`` follows "the last release" ("whose M has X"); ``lacks`` says the later releases have it not; ``dated``
    (from _long_lived) why the too-new side is read where the log shows no release."""
    return NameHistory(pip, "too-new", f"{pip} {versions[last]} is the last release {what}: {versions[last + 1]} and "
                       f"later {lacks}{moved}; the installed {pip} is newer than the caller was written for"
                       f"{_shows(installed)}.{dated}",
                       f"Pin below the release that dropped it: python -m pip install '{pip}<{_minor(versions[last + 1])}' "
                       f"(or upgrade the caller to a release written for the newer {pip})", PYPI.format(pip))


def _between(pip: str, versions: list[str], spans: list, what: str, installed: str | None) -> NameHistory:
    """Only some middle releases (``spans``, ranges of indices) have ``what``."""
    at = _indices(spans)
    return NameHistory(pip, "between", f"Only {pip} {_spans(spans, versions)} have {what} ({_span(pip, versions)} read): "
                       f"the installed {pip}" + (f" ({installed})" if installed else "") + " is outside that range.",
                       f"Install a {pip} release of that range: python -m pip install '{pip}>={versions[at[0]]},<="
                       f"{versions[at[-1]]}'", PYPI.format(pip))


def top_level_owner(name: str) -> tuple[str, str] | None:
    """(pip name, module) of the one package in the table whose top-level module binds ``name`` in some release read,
    or None (none does, or several do): a failed import quoted without its "from 'M'" ("cannot import name
    'cached_download'") still names its package when only one package ever had that name."""
    found = []
    for pip, pkg in _table().items():
        top = next(iter(pkg.get("modules", {})), None)
        row = pkg["modules"].get(top) if top else None
        if row is not None and (name in row["always"] or name in row["names"]):
            found.append((pip, top))
    return found[0] if len(found) == 1 else None


def name_history(pip: str, module: str, name: str, installed: str | None = None) -> NameHistory | None:
    """The history of ``module``'s binding of ``name`` in ``pip``'s releases, or None when the table has no such module."""
    pkg = _table().get(pip)
    if not pkg or module not in pkg["modules"]:
        return None
    versions, mods = pkg["versions"], pkg["modules"]
    row = mods[module]
    source = PYPI.format(pip)

    def binds(n: str) -> bool:
        return n in row["always"] or n in row["names"]

    # A module __getattr__ (lazy exports, deprecation shims) or a star import of another package provides names no
    # statement binds: a name's absence there proves nothing, so no "absent" or "removed" claim is made for it.
    dynamic = binds("__getattr__") or binds("*")
    # "from google.protobuf import runtime_version": a submodule is importable from its package whether or not the
    # package's __init__ binds it, so the releases that ship the submodule are the releases that have the name.
    sub = mods.get(f"{module}.{name}")
    if name in row["always"]:
        at, spans = _indices(row["in"]), row["in"]
    elif name in row["names"]:
        at, spans = _indices(row["names"][name]), row["names"][name]
    elif sub is not None:
        at, spans = _indices(sub["in"]), sub["in"]
    elif dynamic:
        return None
    else:
        moved = _holders(mods, name, len(versions) - 1, module)
        where = f"; {versions[-1]} has it in {' and '.join(moved)}" if moved else ""
        return NameHistory(pip, "absent", f"No release of {_span(pip, versions)} has {name} in {module}{where}, so no "
                           f"{pip} release fixes this import: the caller was written for another package or a fork of "
                           f"{pip}" + (", or for that other module" if moved else "") + ".", "", source)
    first, last = at[0], at[-1]
    mod_first = _indices(row["in"])[0]
    newest = len(versions) - 1
    if _inside(installed, versions, first, last):
        return NameHistory(pip, "always", f"The log shows {pip} {installed}, and the {versions[first]} release already has "
                           f"{name} in {module}: the release is not what is wrong. The {module} Python imported is not the "
                           "installed one (a folder or file of that name on sys.path, a half-finished upgrade that left old "
                           "files), or the import ran before the package finished initialising.",
                           f"Find what Python imports: python -c \"import {module}; print({module}.__file__)\" (and pip show -f {pip})",
                           source)
    if first > mod_first and last == newest:
        return _too_old(pip, versions, first, f"whose {module} has {name}", "has not", installed)
    side = _side(installed, versions, first, last)
    if side == "too-old" and first > mod_first:
        # a name that came and went (or left a module with __getattr__): the release the log shows is below its arrival
        return _too_old(pip, versions, first, f"whose {module} has {name}", "has not", installed)
    dated = "" if side else _long_lived(pip, versions, first, last)
    if last < newest and (side == "too-new" or first == mod_first or dated):
        # At or above the release that dropped it (the log shows it), or had by every release read up to ``last``. A
        # module __getattr__ (lazy exports: huggingface_hub's _SUBMOD_ATTRS) or a star import may give later releases
        # names no statement binds, but the failed import shows the installed release gives none: only the releases
        # after ``last`` can lack it, so the installed one is newer than the caller was written for all the same.
        moved = _holders(mods, name, newest, module)
        where = f" ({versions[-1]} has it in {' and '.join(moved)})" if moved else ""
        lacks = ("do not bind it in their source (the installed release's module __getattr__ did not provide it either: "
                 "the import failed)") if dynamic else "have not"
        return _too_new(pip, versions, last, f"whose {module} has {name}", lacks, installed, where, dated)
    if last < newest and dynamic:
        return None
    if first > mod_first or last < newest:
        return _between(pip, versions, spans, f"{name} in {module}", installed)
    # Every release read that has the module has the name (the module may itself have arrived after the first release).
    return NameHistory(pip, "always", f"Every release of {pip} {_spans(row['in'], versions)} (the newest of each minor line) has "
                       f"{name} in {module}: unless the installed {pip} is older than {versions[mod_first]}, the release is "
                       f"not what is wrong; the {module} Python imported is not the "
                       "installed one (a folder or file of that name on sys.path, a half-finished upgrade).",
                       f"Find what Python imports: python -c \"import {module}; print({module}.__file__)\" "
                       f"(and pip show {pip})", source)


def module_history(pip: str, module: str, installed: str | None = None) -> NameHistory | None:
    """The releases in which ``module`` (a submodule, "No module named 'M.sub'") exists, or None when none of those read
    says anything: the module is in every release, or in none (then it is another package's, or a compiled one)."""
    pkg = _table().get(pip)
    if not pkg or module not in pkg["modules"]:
        return None
    versions, spans = pkg["versions"], pkg["modules"][module]["in"]
    at = _indices(spans)
    first, last, newest = at[0], at[-1], len(versions) - 1
    if _inside(installed, versions, first, last):
        return NameHistory(pip, "always", f"The log shows {pip} {installed}, and that release line has {module}: the "
                           f"release is not what is wrong; the {pip} Python imported is not the installed one, or its "
                           "install is incomplete (files missing).",
                           f"Reinstall it: python -m pip install --force-reinstall --no-deps '{pip}=={installed}'",
                           PYPI.format(pip))
    side = _side(installed, versions, first, last)  # a module that came and went: by the release the log shows
    if first > 0 and (last == newest or side == "too-old"):
        return _too_old(pip, versions, first, f"that has {module}", "has not", installed)
    dated = "" if side else _long_lived(pip, versions, first, last)
    if last < newest and (first == 0 or side == "too-new" or dated):
        return _too_new(pip, versions, last, f"that has {module}", "have not", installed, dated=dated)
    if first > 0 or last < newest:
        return _between(pip, versions, spans, module, installed)
    return None


def method_params(pip: str, method: str) -> list[tuple[str, str, dict]]:
    """(module, "Class.method", keyword record) of each recorded "Class.method" of ``pip`` whose method is ``method`` (the trainers'
    methods of tools/build_api_history.py --attrs), one class only: a name several classes define is ambiguous."""
    pkg = _table().get(pip) or {}
    hits = [(mod, fn, rec) for mod, row in pkg.get("modules", {}).items() for fn, rec in row.get("params", {}).items()
            if "." in fn and fn.split(".", 1)[1] == method]
    return hits if len({fn.split(".")[0] for _m, fn, _r in hits}) == 1 else []


def method_owner(method: str, keyword: str) -> str:
    """The import name of the one package whose recorded trainer method ``method`` took ``keyword`` in some releases
    and not in others, or "" (a bare "m() got an unexpected keyword argument 'k'" names no package)."""
    owners = {pkg["import"] for pip, pkg in _table().items() if any(keyword in rec for _m, _f, rec in method_params(pip, method))}
    return owners.pop() if len(owners) == 1 else ""


def class_param_owner(cls: str, keyword: str) -> str:
    """The import name of the one package whose class ``cls`` took ``keyword`` in some releases and not in others, or "":
    a class name several packages define ("Trainer": transformers, Lightning, YOLO trainers) is told apart by the
    keyword whose history the table records ("Trainer.__init__() got an unexpected keyword argument 'processing_class'")."""
    owners = {pkg["import"] for pkg in _table().values()
              if any(keyword in row.get("params", {}).get(cls, {}) for row in pkg.get("modules", {}).values())}
    return owners.pop() if len(owners) == 1 else ""


def param_history(pip: str, callable_name: str, keyword: str, installed: str | None = None) -> NameHistory | None:
    """The releases in which ``callable_name`` (a function, or a class by its __init__ or dataclass fields) of ``pip``
    takes ``keyword`` ("X() got an unexpected keyword argument 'k'"), where that changed while it existed."""
    pkg = _table().get(pip)
    name = callable_name[: -len(".__init__")] if callable_name.endswith(".__init__") else callable_name
    if not pkg or not name or name == "__init__":
        return None  # a bare "__init__" (Python < 3.10 omits the class)
    versions = pkg["versions"]
    found = [(mod, row["params"][name]) for mod, row in sorted(pkg["modules"].items(), key=lambda kv: len(kv[0]))
             if name in row.get("params", {})]
    method = "." in name
    if not found and not method:  # a method by its bare name (Python < 3.10, or a copy exec'd outside its class)
        hits = method_params(pip, name)
        found, method = [(mod, rec) for mod, _fn, rec in hits], bool(hits)
        name = hits[0][1] if hits else name
    if not found or keyword not in found[0][1]:
        return None
    module, rec = found[0]
    life, at = _indices(rec["defined"]), _indices(rec[keyword])
    newest = life[-1]
    if newest in _indices(rec.get("**", [])):
        return None  # the newest release takes any keyword: the argument was refused elsewhere
    first, last = at[0], at[-1]
    if _inside(installed, versions, first, last):
        return None  # the installed release takes it: this call is not the one the table describes
    what = f"whose {module}.{name} takes {keyword}"
    side = _side(installed, versions, first, last)
    if method and first > life[0] and (last == newest or side == "too-old"):
        # a keyword a method gained: either a caller passes it to an older release, or the class's own code passes it
        # to a subclass's override written before it (Trainer.compute_loss(num_items_in_batch=) on an old override):
        # opposite readings, so none
        return None
    if first > life[0] and (last == newest or side == "too-old"):
        return _too_old(pip, versions, first, what, "does not", installed)
    inherits = newest in _indices(rec.get("^", []))
    dated = "" if side or first == life[0] else _long_lived(pip, versions, first, last)
    if (first == life[0] or side == "too-new" or dated) and last < newest and not inherits:
        # a keyword that came and went is read by the release the log shows (at or above the one that dropped it),
        # or, with no release in the log, by how long it lived (an install older than its arrival is implausible)
        return _too_new(pip, versions, last, what, "do not", installed, dated=dated)
    return None


@functools.lru_cache(maxsize=256)  # package.py asks once to choose its branch, then import_history asks again
def attr_history(pip: str, cls: str, attribute: str, installed: str | None = None) -> NameHistory | None:
    """The releases in which an instance of ``pip``'s class ``cls`` has ``attribute`` (a method, a class attribute, or
    one its methods set on self: the "attrs" of api_history.json, tools/build_api_history.py --attrs), where that changed
    while the class existed; None where the table has no such class or attribute, or the attribute never changed."""
    pkg = _table().get(pip)
    if not pkg:
        return None
    found = [(mod, row["attrs"][cls]) for mod, row in sorted(pkg["modules"].items(), key=lambda kv: len(kv[0]))
             if cls in row.get("attrs", {})]
    if not found or attribute not in found[0][1] or attribute == "defined":
        return None
    module, rec = found[0]
    versions = pkg["versions"]
    life, at = _indices(rec["defined"]), _indices(rec[attribute])
    first, last, newest = at[0], at[-1], life[-1]
    if _inside(installed, versions, first, last):
        return None  # the installed release sets it: the object is not the class the table describes
    what = f"whose {module}.{cls} has {attribute} (set on its instances)"
    side = _side(installed, versions, first, last)
    if first > life[0] and (last == newest or side == "too-old"):
        return _too_old(pip, versions, first, what, "does not", installed)
    dated = "" if side or first == life[0] else _long_lived(pip, versions, first, last)
    if (first == life[0] or side == "too-new" or dated) and last < newest:
        return _too_new(pip, versions, last, what, "do not", installed, dated=dated)
    return None
