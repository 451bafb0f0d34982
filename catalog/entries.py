"""Known-failure entries: the schema, and loading them from reviewed YAML files.

The built-in catalog ships in ``known_failures/*.yaml``; users add entries in the same
format with ``--catalog FILE`` or in ``$XDG_CONFIG_HOME/ascendrl/catalog/*.yaml``. A malformed
entry is reported with its file and line and skipped; it never stops the others loading.

Signatures are RE2 patterns (linear-time matching, so no log line can stall ``explain`` or
``run``): one RE2 cannot compile (a lookaround, a backreference) is rejected at load with its
file:line and RE2's reason, and the rest keep RE2. Only when the google-re2 wheel is missing
does matching use Python's ``re`` (see :data:`REGEX_ENGINE`).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from .. import cache

cache.imported(__file__)  # own_source keys by the text this process runs

try:  # google-re2 is a dependency; its absence is reported by `explain`, not hidden
    import re2 as _re2
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    _re2 = None

REGEX_ENGINE = "re2" if _re2 is not None else "re"

FAMILIES = (
    "compat", "cann-env", "device", "memory", "disk", "nz", "hccl", "operator",
    "verl-config", "ray", "data-model", "dtype", "qwen-vl", "user",
)
SEVERITIES = ("critical", "error", "warning")
ENTRY_ID = re.compile(r"^[A-Z][A-Z0-9]*-[A-Za-z0-9_.-]+$")
REQUIRED = ("id", "title", "family", "severity", "fatal", "signatures", "cause", "fix", "sources")


@dataclasses.dataclass(frozen=True)
class Signature:
    regex: str
    emitter: str = ""
    confirmed: str | None = None
    fatal: bool | None = None  # overrides the entry's `fatal` for this message (a warning entry whose ValueError form is fatal)


@dataclasses.dataclass(frozen=True)
class KnownFailure:
    """One known failure: how to recognise it, why it happens, how to fix it, and where that is from."""

    id: str
    title: str
    family: str
    severity: str
    fatal: bool
    signatures: tuple[Signature, ...]
    cause: str
    fix: tuple[str, ...]
    sources: tuple[str, ...]
    fix_id: str | None = None
    consequences: tuple[str, ...] = ()
    generic: bool = False  # a wrapper or catch-all (RayTaskError, ERR99999): never the root cause when something specific matched
    zh: str | None = None
    # Root-cause classes (an analyzer finding's kind) narrower than this entry's reading of the same line: where an
    # analyzer recognises one of them on the link this entry names, that finding is the diagnosis and the entry its echo.
    refined_by: tuple[str, ...] = ()
    # The converse: analyzer classes broader than this entry's reading. Where the entry names a link that wraps a deeper
    # link an analyzer read as one of them (vllm-ascend re-raising the runtime's EE9999 capture failure with its own
    # diagnosis), the entry is the diagnosis and the finding its notes, not the entry that finding's consequence.
    narrows: tuple[str, ...] = ()
    origin: str = ""  # file:line it was loaded from


@dataclasses.dataclass(frozen=True)
class CatalogProblem:
    """A malformed file or entry: where, and what is wrong (``what`` was skipped: entry, signature, folder, file)."""

    where: str
    message: str
    what: str = "entry"

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


@dataclasses.dataclass(frozen=True)
class Catalog:
    entries: tuple[KnownFailure, ...]
    problems: tuple[CatalogProblem, ...] = ()

    def by_id(self, entry_id: str) -> KnownFailure | None:
        for entry in self.entries:
            if entry.id == entry_id:
                return entry
        return None


def builtin_files() -> list[tuple[str, str]]:
    """(name, text) of the shipped catalog files, in a stable order."""
    return [(f"known_failures/{name}", text) for name, text in cache.shipped_texts(__file__, __package__, (".yaml",), "known_failures")]


def user_catalog_dir(env: dict[str, str] | None = None) -> Path:
    env = env if env is not None else dict(os.environ)
    base = env.get("XDG_CONFIG_HOME") or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return Path(base) / "ascendrl" / "catalog"


def load_catalog(extra_files: Sequence[str | Path] = (), *, user_dir: Path | None = None) -> Catalog:
    """The built-in entries, then the user's (a user entry with a built-in id replaces it)."""
    read: list[list[tuple[str, str]]] = []

    def builtin() -> list[tuple[str, str]]:  # the texts, read only where the key or the parse needs them
        if not read:
            read.append(builtin_files())
        return read[0]

    folder = Path(__file__).parent / "known_failures"
    files = [Path(__file__), *sorted(p for p in folder.iterdir() if p.name.endswith(".yaml"))] if folder.is_dir() else None
    key = cache.stat_key("catalog", files, (REGEX_ENGINE,),  # a parser change is a new key too
                         lambda: cache.content_key("catalog", REGEX_ENGINE, cache.own_source(__file__), builtin()))
    parsed = cache.cached("catalog", key, lambda: _to_data(_parse_all(builtin())), _from_data)
    sources: list[tuple[str, str]] = []
    problems: list[CatalogProblem] = list(parsed[1])
    user_paths: list[Path] = []
    directory = user_dir if user_dir is not None else user_catalog_dir()
    try:
        if directory.is_dir():
            user_paths += sorted(p for p in directory.glob("*.y*ml") if p.is_file())
    except OSError as exc:  # e.g. ~/.config not readable: the built-in catalog still works
        problems.append(CatalogProblem(str(directory), f"cannot read ({exc.strerror or exc}); user entries not loaded", "folder"))
    user_paths += [Path(p) for p in extra_files]
    for path in user_paths:
        try:
            sources.append((str(path), path.read_text(encoding="utf-8", errors="replace")))
        except OSError as exc:
            problems.append(CatalogProblem(str(path), f"cannot read: {exc.strerror or exc}", "file"))
    merged: dict[str, KnownFailure] = {entry.id: entry for entry in parsed[0]}
    user_entries, user_problems = _parse_all(sources)
    problems += user_problems
    for entry in user_entries:
        merged[entry.id] = entry
    known = set(merged)
    for entry in merged.values():
        for other in entry.consequences:
            if other not in known:
                problems.append(CatalogProblem(entry.origin, f"{entry.id}: consequence {other!r} is not a catalog id"))
    return Catalog(tuple(merged.values()), tuple(problems))


def _parse_all(sources: list[tuple[str, str]]) -> tuple[list[KnownFailure], list[CatalogProblem]]:
    entries: list[KnownFailure] = []
    problems: list[CatalogProblem] = []
    for name, text in sources:
        file_entries, file_problems = parse_catalog_text(text, name)
        entries += file_entries
        problems += file_problems
    return entries, problems


def _to_data(parsed: tuple[list[KnownFailure], list[CatalogProblem]]) -> dict[str, Any]:
    """The parsed built-in catalog as JSON-able data, for the cache (catalog/cache.py)."""
    return {"entries": [dataclasses.asdict(e) for e in parsed[0]], "problems": [dataclasses.asdict(p) for p in parsed[1]]}


def _from_data(data: dict[str, Any]) -> tuple[list[KnownFailure], list[CatalogProblem]]:
    entries = []
    for row in data["entries"]:
        fields = dict(row)
        fields["signatures"] = tuple(Signature(**sig) for sig in row["signatures"])
        for name in ("fix", "sources", "consequences", "refined_by", "narrows"):
            fields[name] = tuple(row.get(name) or ())
        entries.append(KnownFailure(**fields))
    return entries, [CatalogProblem(**p) for p in data["problems"]]


def _loader() -> Any:
    import yaml  # only when a YAML text is parsed: the built-in catalog usually comes from the cache

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_catalog_text(text: str, name: str) -> tuple[list[KnownFailure], list[CatalogProblem]]:
    """Parse one file: a YAML list of entries. Bad entries become problems with their line."""
    import yaml

    _Loader = _loader()
    try:
        root = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{name}:{mark.line + 1}" if mark is not None else name
        return [], [CatalogProblem(where, f"not valid YAML: {getattr(exc, 'problem', None) or exc}")]
    if root is None:
        return [], []
    if not isinstance(root, yaml.SequenceNode):
        return [], [CatalogProblem(f"{name}:{root.start_mark.line + 1}", "expected a list of entries")]
    try:
        items = _Loader("").construct_document(root)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{name}:{mark.line + 1}" if mark is not None else name
        return [], [CatalogProblem(where, f"cannot read entries: {getattr(exc, 'problem', None) or exc}")]
    entries: list[KnownFailure] = []
    problems: list[CatalogProblem] = []
    for node, data in zip(root.value, items):
        where = f"{name}:{node.start_mark.line + 1}"
        try:
            entry, rejected = _entry(data, where, _signature_lines(node))
        except (ValueError, TypeError, re.error) as exc:
            problems.append(CatalogProblem(where, str(exc)))
            continue
        problems += [CatalogProblem(at, message, "signature") for at, message in rejected]
        if entry.signatures:
            entries.append(entry)
        else:
            problems.append(CatalogProblem(where, f"{entry.id}: no usable signature left"))
    return entries, problems


def _signature_lines(node: Any) -> list[int]:
    """1-based line of each item of an entry's ``signatures`` list, for error messages."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if getattr(key, "value", None) == "signatures" and isinstance(value, yaml.SequenceNode):
                return [item.start_mark.line + 1 for item in value.value]
    return []


def regex_problem(regex: str) -> str | None:
    """Why a signature cannot be used, or None: it must compile in RE2 (linear time), or in re without RE2."""
    if _re2 is None:
        try:
            re.compile(regex)
        except re.error as exc:
            return f"bad regex {regex!r}: {exc}"
        return None
    options = _re2.Options()
    options.log_errors = False  # RE2 would print its own copy of the message to stderr
    try:
        _re2.compile(regex, options)
    except _re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        return (
            f"regex {regex!r} is not RE2 syntax ({reason}); signatures are matched in linear time "
            "by RE2, which has no lookahead, lookbehind or backreferences"
        )
    return None


def _entry(data: Any, where: str, sig_lines: Sequence[int] = ()) -> tuple[KnownFailure, list[tuple[str, str]]]:
    """The entry, and (file:line, why) for each signature rejected (the entry keeps its good ones)."""
    if not isinstance(data, dict):
        raise ValueError("an entry must be a mapping")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise ValueError(f"{data.get('id', 'entry')}: missing {', '.join(missing)}")
    entry_id = str(data["id"])
    if not ENTRY_ID.match(entry_id):
        raise ValueError(f"id {entry_id!r} is not of the form PREFIX-NAME (e.g. ARL-E123, USR-my-error)")
    if data["family"] not in FAMILIES:
        raise ValueError(f"{entry_id}: family {data['family']!r} is not one of {', '.join(FAMILIES)}")
    if data["severity"] not in SEVERITIES:
        raise ValueError(f"{entry_id}: severity {data['severity']!r} is not one of {', '.join(SEVERITIES)}")
    if not isinstance(data["fatal"], bool):
        raise ValueError(f"{entry_id}: fatal must be true or false")
    signatures = []
    rejected: list[tuple[str, str]] = []
    line_of = dict(enumerate(sig_lines))
    for index, sig in enumerate(_list(data["signatures"], entry_id, "signatures")):
        if isinstance(sig, str):
            sig = {"regex": sig}
        if not isinstance(sig, dict) or not isinstance(sig.get("regex"), str) or not sig["regex"]:
            raise ValueError(f"{entry_id}: each signature needs a non-empty regex")
        problem = regex_problem(sig["regex"])
        if problem is not None:
            at = f"{where.rsplit(':', 1)[0]}:{line_of[index]}" if index in line_of else where
            rejected.append((at, f"{entry_id}: {problem}"))
            continue
        sig_fatal = sig.get("fatal")
        if sig_fatal is not None and not isinstance(sig_fatal, bool):
            raise ValueError(f"{entry_id}: a signature's fatal must be true or false")
        signatures.append(Signature(sig["regex"], str(sig.get("emitter") or ""), sig.get("confirmed"), sig_fatal))
    if not signatures and not rejected:
        raise ValueError(f"{entry_id}: needs at least one signature")
    fix = data["fix"]
    entry = KnownFailure(
        id=entry_id,
        title=str(data["title"]),
        family=str(data["family"]),
        severity=str(data["severity"]),
        fatal=data["fatal"],
        signatures=tuple(signatures),
        cause=" ".join(str(data["cause"]).split()),
        fix=tuple(str(step) for step in ([fix] if isinstance(fix, str) else _list(fix, entry_id, "fix"))),
        sources=tuple(str(s) for s in _list(data["sources"], entry_id, "sources")),
        fix_id=data.get("fix_id"),
        consequences=tuple(str(c) for c in (data.get("consequences") or ())),
        generic=bool(data.get("generic", False)),
        zh=data.get("zh"),
        refined_by=tuple(str(k) for k in (data.get("refined_by") or ())),
        narrows=tuple(str(k) for k in (data.get("narrows") or ())),
        origin=where,
    )
    return entry, rejected


def _list(value: Any, entry_id: str, field: str) -> Iterable[Any]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"{entry_id}: {field} must be a non-empty list")
    return value
