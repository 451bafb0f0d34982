"""The interpreter is newer than the caller was written for: a standard-library name or module that CPython removed.

CPython removes deprecated standard-library names on a schedule and says so in each release's "What's New" page
(section "Removed"). A package written for an older Python then fails with Python's generic words, which name a
module of the standard library as if it were a package: "cannot import name 'Mapping' from 'collections'",
"module 'asyncio' has no attribute 'coroutine'", "module 'pkgutil' has no attribute 'ImpImporter'", "No module named
'imp'", "'Thread' object has no attribute 'isAlive'". The pair that does not fit is the caller and the interpreter:
upgrade the caller to a release made for this Python, or run it under the last Python that still had the name.

The tables are data (python_stdlib.yaml): each row a name, the Python release that removed or added it, what replaced
it; the "What's New" page of that release is the row's source, and the file's header says how the rows were checked
against the CPython interpreters. The interpreter's version, where the log shows it
(a lib/python3.X path in a frame or the message, logversions' "python"), must be at least the removal release, else
the row does not explain the failure.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from ..chain import Link
from . import Facts, Finding, evidence, shipped_rows
from ...lazyre import lazy
from ascendrl import cache

cache.imported(__file__)  # own_source keys by the text this process runs

WHATSNEW = "https://docs.python.org/3/whatsnew/{}.html"

class Tables(NamedTuple):
    """python_stdlib.yaml as lookups: each removed-* value is (removed in, replacement), each added-* value the release."""

    names: dict[tuple[str, str], tuple[str, str]]
    modules: dict[str, tuple[str, str]]
    methods: dict[tuple[str, str], tuple[str, str]]
    testcase_aliases: dict[str, str]
    added_names: dict[tuple[str, str], str]
    added_modules: dict[str, str]
    added_builtins: dict[str, str]
    added_methods: dict[tuple[str, str], str]
    added_keywords: dict[tuple[str, str], str]
    backports: dict[str, str]


# The columns of each kind of row: the key's columns, then the value's.
KINDS = {
    "removed-name": ("names", ("module", "name"), ("release", "replacement")),
    "removed-module": ("modules", ("module",), ("release", "replacement")),
    "removed-method": ("methods", ("class", "name"), ("release", "replacement")),
    "testcase-alias": ("testcase_aliases", ("name",), ("replacement",)),
    "added-name": ("added_names", ("module", "name"), ("release",)),
    "added-module": ("added_modules", ("module",), ("release",)),
    "added-builtin": ("added_builtins", ("name",), ("release",)),
    "added-method": ("added_methods", ("class", "name"), ("release",)),
    "added-keyword": ("added_keywords", ("function", "name"), ("release",)),
    "backport": ("backports", ("name",), ("package",)),
}


@functools.cache
def tables() -> Tables:
    """The rows of python_stdlib.yaml (data with its sources), read on the first message of a matching shape: a
    one-line explain of anything else does not load them."""
    t = Tables(*({} for _ in Tables._fields))
    for r in shipped_rows(__file__, __package__, "python_stdlib.yaml", "rows", frozenset(("kind",))):
        field, key, value = KINDS[r["kind"]]
        k = tuple(r[c] for c in key)
        v = tuple(r[c] for c in value)
        getattr(t, field)[k if len(k) > 1 else k[0]] = v if len(v) > 1 else v[0]
    return t


# asyncio's high-level API lost its loop= parameter in 3.10 (What's New 3.10, "Removed"); 3.10 itself words the
# primitives' refusal "As of 3.10, the *loop* parameter was removed from Queue() since it is no longer necessary"
# (asyncio/mixins.py), 3.11 on CPython's generic "Queue.__init__() got an unexpected keyword argument 'loop'" (read
# in CPython 3.11.7), the functions "sleep() got an unexpected keyword argument 'loop'".
ASYNCIO_LOOP_CALLEES = frozenset((
    "Queue PriorityQueue LifoQueue Lock Event Condition Semaphore BoundedSemaphore Barrier sleep gather wait_for "
    "shield as_completed open_connection start_server open_unix_connection start_unix_server "
    "create_subprocess_exec create_subprocess_shell").split())
LOOP_310 = lazy(r"As of 3\.10, the \*loop\* parameter was removed from (\w+)\(\) since it is no longer necessary")
LOOP_KW = lazy(r"\b(\w+)(?:\.__init__)?\(\) got an unexpected keyword argument 'loop'")
# random.sample() stopped taking a set in 3.11 (What's New 3.11, "Removed"); the words are random.py's (3.11.7).
SAMPLE_SET = lazy(r"Population must be a sequence\.\s+For dicts or sets, use sorted\(d\)\.")

NO_ATTR = lazy(r"module '([\w.]+)' has no attribute '(\w+)(?:'|$)")
CANNOT_IMPORT = lazy(r"cannot import name '(\w+)' from '([\w.]+)'")
NO_MODULE = lazy(r"No module named '([\w.]+)'")
OBJ_ATTR = lazy(r"(?:'([\w.]+)' object|type object '([\w.]+)') has no attribute '(\w+)(?:'|$)")
# The interpreter's version, from a path of its own library ("/usr/lib/python3.10/collections/__init__.py") or of a
# package it imports (".../lib/python3.12/site-packages/...").
PY_PATH = lazy(r"[/\\]python(3\.\d+)[/\\]")
PY_WINDOWS = lazy(r"[/\\][Pp]ython(3)(\d{1,2})[/\\]")


def _tuple(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in re.findall(r"\d+", version)[:2])


def _python(link: Link, facts: Facts) -> str | None:
    """The interpreter's X.Y as the failure or the log shows it, or None."""
    for text in (link.message, *(f.path for f in link.frames), *link.detail):
        if m := PY_PATH.search(text):
            return m.group(1)
        if m := PY_WINDOWS.search(text):
            return f"{m.group(1)}.{m.group(2)}"
    found = facts.versions.get("python")
    return ".".join(found.split(".")[:2]) if found else None


def _caller(link: Link) -> str:
    """The package whose code used the removed name: the innermost frame in an installed package or a source tree
    (the standard library's own frames name none)."""
    return next((f.package for f in reversed(link.frames) if f.package), "") or ""


def _row(link: Link) -> tuple[str, str, str, str] | None:
    """(what was removed, removed in, replacement, kind) for the link's message, or None."""
    msg = link.message
    if m := CANNOT_IMPORT.search(msg):
        row = tables().names.get((m.group(2), m.group(1)))
        return (f"{m.group(2)}.{m.group(1)}", *row, "package-mismatch") if row else None
    if m := NO_ATTR.search(msg):
        row = tables().names.get((m.group(1), m.group(2)))
        return (f"{m.group(1)}.{m.group(2)}", *row, "package-mismatch") if row else None
    if m := NO_MODULE.search(msg):
        module = m.group(1)
        if module == "distutils" or module.startswith("distutils."):
            if module not in ("distutils", "distutils.core", "distutils.util", "distutils.version", "distutils.spawn",
                              "distutils.sysconfig", "distutils.command", "distutils.errors", "distutils.extension",
                              "distutils.dir_util", "distutils.file_util", "distutils.log", "distutils.cmd"):
                return None  # a distutils submodule setuptools' own copy dropped (msvccompiler): not the 3.12 removal
            return ("distutils", "3.12", "setuptools (which provides distutils again when installed) or "
                    "packaging / sysconfig / shutil for the few functions used", "missing-dependency")
        if module in tables().modules:
            return (module, *tables().modules[module], "package-mismatch")
        return None
    if m := OBJ_ATTR.search(msg):
        cls, attr = m.group(1) or m.group(2), m.group(3)
        row = tables().methods.get((cls, attr))
        if row is None and attr == "isAlive" and cls.endswith(("Thread", "Timer")):
            row = tables().methods[("Thread", "isAlive")]
        if row is None and attr in tables().testcase_aliases and m.group(1):
            row = ("3.12", f"TestCase.{tables().testcase_aliases[attr]}()")
        return (f"{cls}.{attr}", *row, "package-mismatch") if row else None
    if (m := LOOP_310.search(msg) or LOOP_KW.search(msg)) and m.group(1) in ASYNCIO_LOOP_CALLEES:
        return (f"the loop parameter of asyncio.{m.group(1)}()", "3.10", f"asyncio.{m.group(1)}() without loop= "
                "(the running loop is used)", "package-mismatch")
    if SAMPLE_SET.search(msg):
        return ("random.sample() of a set", "3.11", "random.sample(sorted(population), k) (or a list / tuple)",
                "package-mismatch")
    return None


# setuptools 59.6 on replaces the standard library's distutils with its own copy when setuptools is imported first
# (60.0 made SETUPTOOLS_USE_DISTUTILS=local the default), and that copy's package does not import its submodules:
# code that does `import distutils` (or `from setuptools import distutils`) and then reads distutils.version finds no
# such attribute. torch's torch/utils/tensorboard/__init__.py before the fix for pytorch#69894 is the usual caller.
DISTUTILS_SUBMODULE = lazy(r"module '(?:setuptools\.)?_?distutils' has no attribute '(version|util|sysconfig|spawn|errors|dir_util|file_util)'")
DISTUTILS_THREAD = "https://github.com/pytorch/pytorch/issues/69894"


def distutils_submodule(link: Link) -> Finding | None:
    m = DISTUTILS_SUBMODULE.search(link.message)
    if m is None:
        return None
    sub = m.group(1)
    who = _caller(link) or "the calling code"
    torch = " (torch's torch/utils/tensorboard before the fix for pytorch#69894: LooseVersion = distutils.version.LooseVersion)" \
        if who == "torch" else ""
    return Finding(
        f"{who} reads distutils.{sub} without importing it, and setuptools' own distutils (setuptools >= 59.6) does not import it"[:160],
        f"{link.short_type}: {link.message.splitlines()[0][:200]}. {who[0].upper() + who[1:]} does `import distutils` and "
        f"then uses distutils.{sub}{torch}; that worked while the standard library's distutils package happened to have "
        f"the submodule loaded, but setuptools from 59.6 on puts its own copy of distutils in its place, whose package "
        f"does not import {sub}, so the attribute is missing. The pair that does not fit is that caller and the installed "
        "setuptools.",
        (f"Pin setuptools below 59.6 in this environment: pip install 'setuptools==59.5.0' (the fix pytorch#69894 gives)",
         f"Or upgrade {who} to a release that imports packaging.version / distutils.{sub} itself (for torch: a release "
         "after the pytorch#69894 fix)",
         f"Or, in your own code, import the submodule explicitly: import distutils.{sub}"),
        evidence(link), (DISTUTILS_THREAD,), key=f"distutils-submodule:{sub}:{who}", kind="package-mismatch",
    )


def stdlib_removed(link: Link, facts: Facts) -> Finding | None:
    """A standard-library name or module removed by the running Python, used by code written for an older one."""
    if (found := distutils_submodule(link)) is not None:
        return found
    row = _row(link)
    if row is None:
        return None
    what, removed, replacement, kind = row
    python = _python(link, facts)
    if python is not None and _tuple(python) < _tuple(removed):
        return None  # this interpreter still has it: the name is missing for another reason
    caller = _caller(link)
    if what.startswith("pkgutil.Imp") and caller in ("", "pkg_resources", "setuptools", "pip"):
        caller = "pkg_resources (an old setuptools, or the copy vendored by an old pip)"
    runs = f"Python {python}" if python else f"Python {removed} or newer"
    who = caller or "the calling code"
    if kind == "missing-dependency":
        title = f"Python {removed} removed distutils and setuptools is not installed to provide it ({runs})"

        fix = ("Install setuptools into this environment (python -m pip install setuptools; for a build in an isolated "
               "environment add setuptools to build-system.requires or build with --no-build-isolation); on Debian / "
               "Ubuntu's system Python: apt install python3-setuptools",
               f"Or upgrade {who} to a release that no longer imports distutils (most use setuptools, packaging or sysconfig now)",
               f"Or run it under Python 3.11, the last release with distutils")
    else:
        shown = f" (the log shows Python {python})" if python else ""
        title = f"{who} was written for an older Python: Python {removed} removed {what}{shown}"
        fix = (f"Upgrade {who} to a release made for {runs.split(' or ')[0] if python else 'this Python'} (its changelog "
               f"names the Python versions it supports); in your own code use {replacement} instead",
               f"Or create the environment with Python {_previous(removed)} or older (conda create -n env "
               f"python={_previous(removed)}; a venv from that interpreter), the last release that has {what}")
        if what.startswith("pkgutil.Imp"):
            fix = ("Upgrade pip and setuptools inside this interpreter: python -m ensurepip --upgrade (or get-pip.py), then "
                   "python -m pip install -U pip setuptools; for a failing build, relax a setuptools<… pin in the "
                   "project's build-system.requires (the isolated build installs that old setuptools)",
                   *fix[1:])
    cause = (f"{link.short_type}: {link.message.splitlines()[0][:200]}. {what} is part of Python's standard library, "
             f"not of an installed package, and CPython {removed} removed it (What's New in Python {removed}, "
             f"Removed); its replacement is {replacement}. {who[0].upper() + who[1:]} still uses it, so it was written "
             f"for an older Python than the one this environment runs ({runs}).")
    return Finding(title[:160], cause, fix, evidence(link), (WHATSNEW.format(removed),),
                   key=f"stdlib-removed:{what}", kind=kind)


def _previous(version: str) -> str:
    major, minor = _tuple(version)
    return f"{major}.{minor - 1}"


# The other direction: names the standard library gained in a release (python_stdlib.yaml's added-* rows), used by code
# written for that release or newer and run under an older interpreter. typing's own additions are ARL-E244's signature.
UNEXPECTED_KW = lazy(r"\b(\w+)\(\) got an unexpected keyword argument '(\w+)'")
BISECT_KEY = lazy(r"'key' is an invalid keyword argument for (?:bisect|insort)(?:_left|_right)?\(\)")
# PEP 584 (3.9): dict | dict; a bare @functools.lru_cache (3.8: "Expected maxsize to be an integer or None" before);
# collections.abc classes as generics (3.9, PEP 585: "'ABCMeta' object is not subscriptable" before). Each message read
# from the interpreter one release older (3.7.16 / 3.8.18 / 3.9.18).
DICT_UNION = lazy(r"unsupported operand type\(s\) for \|=?: 'dict' and 'dict'")
BARE_LRU_CACHE = lazy(r"Expected maxsize to be an integer or None")
ABC_NOT_SUBSCRIPTABLE = lazy(r"'ABCMeta' object is not subscriptable")
NAME_UNDEFINED = lazy(r"name '(\w+)' is not defined")
# PEP 585 (3.9): builtin collections as generics (list[int], dict[str, int]); under 3.8 the annotation raises this.
NOT_SUBSCRIPTABLE = lazy(r"'type' object is not subscriptable")
# PEP 604 (3.10): "int | None" annotations outside typing raise this under 3.9; ARL-E244's signature reads it.


def _added_row(link: Link, python: str | None) -> tuple[str, str] | None:
    """(what the caller used, the Python release that added it) for the link's message, or None."""
    msg = link.message
    if m := CANNOT_IMPORT.search(msg):
        added = tables().added_names.get((m.group(2), m.group(1)))
        return (f"{m.group(2)}.{m.group(1)}", added) if added else None
    if m := NO_ATTR.search(msg):
        added = tables().added_names.get((m.group(1), m.group(2)))
        return (f"{m.group(1)}.{m.group(2)}", added) if added else None
    if m := NO_MODULE.search(msg):
        added = tables().added_modules.get(m.group(1))
        return (m.group(1), added) if added else None
    if link.short_type == "NameError" and (m := NAME_UNDEFINED.search(msg)):
        added = tables().added_builtins.get(m.group(1))
        return (f"the builtin {m.group(1)}", added) if added else None
    if m := OBJ_ATTR.search(msg):
        cls, attr = m.group(1) or "", m.group(3)
        added = tables().added_methods.get((cls, attr))
        if added is None and attr == "add_note" and cls.endswith(("Error", "Exception", "Exit", "Interrupt", "Warning")):
            added = "3.11"  # BaseException.add_note (PEP 678)
        return (f"{cls}.{attr}()", added) if added else None
    if (m := UNEXPECTED_KW.search(msg)) and (added := tables().added_keywords.get((m.group(1), m.group(2)))):
        return (f"the {m.group(2)}= argument of {m.group(1)}()", added)
    if BISECT_KEY.search(msg):
        return ("the key= argument of bisect / insort", "3.10")
    if DICT_UNION.search(msg):
        return ("the dict union operator (d1 | d2, PEP 584)", "3.9")
    if BARE_LRU_CACHE.search(msg):
        return ("functools.lru_cache as a bare decorator (@lru_cache without parentheses)", "3.8")
    if NOT_SUBSCRIPTABLE.search(msg) and python is not None and _tuple(python) < (3, 9):
        return ("builtin collections as generic types (list[int], dict[str, int]: PEP 585)", "3.9")
    if ABC_NOT_SUBSCRIPTABLE.search(msg) and python is not None and _tuple(python) < (3, 9):
        return ("collections.abc classes as generic types (Callable[[int], int]: PEP 585)", "3.9")
    return None


def stdlib_added(link: Link, facts: Facts) -> Finding | None:
    """A standard-library name the running Python does not have yet, used by code written for a newer one."""
    python = _python(link, facts)
    row = _added_row(link, python) or _syntax_row(link)
    if row is None:
        return None
    what, added = row
    if python is not None and _tuple(python) >= _tuple(added):
        return None  # this interpreter has it: missing for another reason (a shadowing file, a broken install)
    who = _caller(link) or "the calling code"
    key = what.split(" ")[-1].rstrip("()")
    backport = next((b for k, b in tables().backports.items() if b and (what == k or what.startswith(k + ".") or what.endswith(k)
                                                               or key == k)), "")
    shown = f" (the log shows Python {python})" if python else ""
    fix = [f"Run it under Python {added} or newer: create the environment again with that interpreter (conda create -n "
           f"env python=3.{max(int(added.split('.')[1]), 10)}; a venv made from it) and reinstall the packages there",
           f"Or install a release of {who} that still supports " + (f"Python {python}" if python else "this Python")
           + " (its changelog / Requires-Python says which)"]
    if backport:
        fix.append(f"In your own code: the PyPI backport {backport} provides it on older Pythons")
    has = ("subscripts builtin collections (list[int], PEP 585)" if what.startswith("builtin collections")
           else f"it uses {what}, which this Python cannot parse" if link.short_type == "SyntaxError"
           else f"this Python does not support {what}" if " " in what
           else f"{what} is not in this Python's standard library")
    return Finding(
        f"{who} needs Python {added} or newer: {has}{shown}"[:160],
        f"{link.short_type}: {link.message.splitlines()[0][:200]}"
        + (f" at `{link.source.strip()[:120]}`. That line is {what}, Python syntax from Python {added} on (What's New in "
           f"Python {added}); an older parser stops on it before anything runs"
           if link.short_type == "SyntaxError" else
           f". {what} is part of Python's standard library from Python {added} on (What's New in Python {added})")
        + f"; {who} uses it, so it was written for Python {added} or newer, and this environment runs "
        + (f"Python {python}." if python else "an older Python."),
        tuple(fix), evidence(link), (WHATSNEW.format(added),), key=f"stdlib-added:{what}", kind="python-too-old",
    )


# Syntax a newer Python introduced, met by an older parser: "SyntaxError: invalid syntax" under the line Python printed
# (What's New 3.8: assignment expressions, positional-only parameters; 3.10: match statements; 3.11: except*; 3.12: PEP
# 695 type parameter syntax and type statements, PEP 701 f-strings that reuse their quotes). (regex on the source line,
# the release that added it, what it is.) Each checked: the older interpreter refuses it, the named one parses it.
NEW_SYNTAX: tuple[tuple[object, str, str], ...] = (
    (lazy(r"\(\s*\w+\s*:=|[=(,\[]\s*\w+\s*:=|\b(?:if|while|elif)\s+\(?\w+\s*:="), "3.8", "an assignment expression (:=)"),
    (lazy(r"^\s*def\s+\w+\s*\(.*,\s*/\s*[,)]"), "3.8", "a positional-only parameter marker (/)"),
    (lazy(r"^\s*match\s+[^=]+:\s*(?:#.*)?$"), "3.10", "a match statement"),
    (lazy(r"^\s*case\s+[^=]+:\s*(?:#.*)?$"), "3.10", "a match statement's case clause"),
    (lazy(r"^\s*except\s*\*"), "3.11", "an except* clause (exception groups)"),
    (lazy(r"^\s*(?:async\s+)?(?:def|class)\s+\w+\s*\[[^\]]*\]\s*[(:]"), "3.12", "type parameter syntax (PEP 695: def f[T])"),
    (lazy(r"^\s*type\s+\w+\s*(?:\[[^\]]*\])?\s*="), "3.12", "a type statement (PEP 695)"),
)
FSTRING_ERROR = lazy(r"^f-string: (?:unmatched|expecting|single '}' is not allowed|unterminated string)")
FSTRING_REUSED_QUOTE = lazy(r"""\bf"[^"]*\{[^}"]*"|\bf'[^']*\{[^}']*'""")


def _syntax_row(link: Link) -> tuple[str, str] | None:
    if link.short_type != "SyntaxError" or not link.source:
        return None
    msg = link.message.strip()
    if msg.startswith(("invalid syntax", "expected '('")):  # 3.11's parser words def f[T] as "expected '('"
        return next(((what, added) for rx, added, what in NEW_SYNTAX if rx.search(link.source)), None)
    if FSTRING_ERROR.search(msg) and FSTRING_REUSED_QUOTE.search(link.source):
        return ("an f-string that reuses its own quotes inside a replacement field (PEP 701)", "3.12")
    return None
