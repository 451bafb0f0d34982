"""The one place that writes: plan → journal (synced) → atomic writes → re-check; and undo.

A dry run builds the same plan and stops before the journal. Every file write is a temp
file in the same directory, fsynced, then renamed over the original with its mode kept,
so a kill at any moment leaves the old or the new bytes, never a torn file. The journal,
written and synced before the first change, holds the exact previous bytes for --undo.
"""

from __future__ import annotations

import base64
import dataclasses
import datetime
import difflib
import hashlib
import json
import os
import signal
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ascendrl.preflight.model import Report

from . import shellfile
from .model import Applicability, Instruction, MakeDir, Proposal, SetEnv, SourceScript, StopProcess

STATE_DIR = ".ascendrl"
ENV_FILE = "env.sh"
TMP_SUFFIX = ".ascendrl-tmp"
STOP_GRACE_S = 10.0


class FixError(Exception):
    """An apply or undo that could not be done; the message says what and what was left how."""


@dataclasses.dataclass(frozen=True)
class FileChange:
    path: str
    before: bytes | None  # None: the file does not exist yet
    after: bytes

    def diff(self) -> str:
        old = (self.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
        new = self.after.decode("utf-8", "replace").splitlines(keepends=True)
        label = self.path if self.before is not None else "/dev/null"
        lines = difflib.unified_diff(old, new, fromfile=label, tofile=self.path)
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


@dataclasses.dataclass(frozen=True)
class Plan:
    proposals: tuple[Proposal, ...]  # selected, to apply
    manual: tuple[Proposal, ...]  # instructions only
    hidden_unsafe: tuple[Proposal, ...]  # need --unsafe
    target: str  # the env file or script the env actions go to
    changes: tuple[FileChange, ...]
    mkdirs: tuple[str, ...]
    stops: tuple[StopProcess, ...]

    @property
    def empty(self) -> bool:
        return not (self.changes or self.mkdirs or self.stops)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "fixes": [p.to_json() for p in self.proposals],
            "manual": [p.to_json() for p in self.manual],
            "needs_unsafe": [p.to_json() for p in self.hidden_unsafe],
            "files": [{"path": c.path, "created": c.before is None, "diff": c.diff()} for c in self.changes],
            "mkdirs": list(self.mkdirs),
            "stop_pids": [s.pid for s in self.stops],
        }


def build_plan(
    proposals: Sequence[Proposal],
    *,
    target: str,
    managed: bool,
    unsafe: bool,
    only: Sequence[str] = (),
    skip: Sequence[str] = (),
) -> Plan:
    """Select proposals and turn their actions into concrete file changes, dirs and stops."""
    chosen, manual, hidden = [], [], []
    for p in proposals:
        if (only and p.fix_id not in only) or p.fix_id in skip:
            continue
        if p.applicability is Applicability.MANUAL or all(isinstance(a, Instruction) for a in p.actions):
            manual.append(p)
        elif p.applicability is Applicability.UNSAFE and not unsafe:
            hidden.append(p)
        else:
            chosen.append(p)
    exports: dict[str, str] = {}
    sources: list[str] = []
    mkdirs: list[str] = []
    stops: list[StopProcess] = []
    for p in chosen:
        for action in p.actions:
            if isinstance(action, SetEnv):
                exports[action.name] = action.value
            elif isinstance(action, SourceScript) and action.path not in sources:
                sources.append(action.path)
            elif isinstance(action, MakeDir) and not os.path.isdir(action.path):
                mkdirs.append(action.path)
            elif isinstance(action, StopProcess):
                stops.append(action)
    changes = []
    if exports or sources:
        before = _read(target)
        if before is None and not managed:
            raise FixError(f"{target}: no such script (pass an existing launch script to --script, or leave it out to use {STATE_DIR}/{ENV_FILE})")
        after = shellfile.edit(before, list(exports.items()), sources, managed=managed)
        if after != before:
            changes.append(FileChange(target, before, after))
    return Plan(tuple(chosen), tuple(manual), tuple(hidden), target, tuple(changes), tuple(mkdirs), tuple(stops))


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise FixError(f"{path} is a directory, not a script") from None


# ---- writing ---------------------------------------------------------------------------------
def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: str, data: bytes, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` so that readers see the old or the new file, never a mix."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=TMP_SUFFIX, dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _fsync_dir(directory)


def _clean_stale_temps(path: str) -> None:
    """Temp files a killed apply may have left next to ``path``."""
    directory = os.path.dirname(os.path.abspath(path))
    for stale in Path(directory).glob(f".{os.path.basename(path)}.*{TMP_SUFFIX}"):
        try:
            stale.unlink()
        except OSError:
            pass


def _missing_ancestors(path: str) -> list[str]:
    """The directories `mkdir -p path` would create, outermost first."""
    out: list[str] = []
    p = Path(path).absolute()
    while not p.exists():
        out.append(str(p))
        if p.parent == p:
            break
        p = p.parent
    return list(reversed(out))


# ---- journal ---------------------------------------------------------------------------------
def journal_dir(state_dir: str) -> Path:
    return Path(state_dir) / "journal"


def _journal_write(path: Path, doc: dict[str, Any]) -> None:
    atomic_write(str(path), json.dumps(doc, indent=1).encode())


def latest_journal(state_dir: str) -> Path | None:
    folder = journal_dir(state_dir)
    if not folder.is_dir():
        return None
    entries = sorted(p for p in folder.glob("*.json"))
    return entries[-1] if entries else None


@dataclasses.dataclass(frozen=True)
class ApplyResult:
    journal: str
    written: tuple[str, ...]
    created_dirs: tuple[str, ...]
    stopped: tuple[int, ...]


def apply_plan(plan: Plan, *, state_dir: str = STATE_DIR) -> ApplyResult:
    """Journal, then change. On any error, put back what was already changed and raise FixError."""
    if plan.empty:
        return ApplyResult("", (), (), ())
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    folder = journal_dir(state_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FixError(f"cannot write the journal in {folder}: {exc.strerror or exc}; nothing was changed") from None
    dirs: list[str] = []
    for target in plan.mkdirs:
        dirs += [d for d in _missing_ancestors(target) if d not in dirs]
    files = []
    for change in plan.changes:
        mode = os.stat(change.path).st_mode & 0o7777 if change.before is not None else None
        files.append(
            {
                "path": os.path.abspath(change.path),
                "existed": change.before is not None,
                "before_b64": base64.b64encode(change.before or b"").decode(),
                "mode": mode,
                "after_sha256": hashlib.sha256(change.after).hexdigest(),
            }
        )
    journal = folder / f"{stamp}.json"
    doc: dict[str, Any] = {"version": 1, "created": stamp, "state": "started", "files": files, "dirs": dirs, "stopped": []}
    try:
        _journal_write(journal, doc)
    except OSError as exc:
        raise FixError(f"cannot write the journal {journal}: {exc.strerror or exc}; nothing was changed") from None
    written: list[str] = []
    created: list[str] = []
    try:
        for d in dirs:
            os.mkdir(d)
            created.append(d)
        for change, record in zip(plan.changes, files):
            if change.before is None:
                os.makedirs(os.path.dirname(os.path.abspath(change.path)), exist_ok=True)
            atomic_write(change.path, change.after, record["mode"] if record["mode"] is not None else 0o644)
            written.append(change.path)
    except OSError as exc:
        problem = f"{getattr(exc, 'filename', None) or ''}: {exc.strerror or exc}".lstrip(": ")
        leftover = _restore(doc)
        doc["state"] = "rolled_back"
        try:
            _journal_write(journal, doc)
        except OSError:
            pass
        tail = "every file is as it was" if not leftover else f"could not restore {', '.join(leftover)}; run `ascendrl fix --undo`"
        raise FixError(f"apply stopped: {problem}; {tail}") from None
    stopped = [s.pid for s in plan.stops if stop_process(s.pid)]
    doc["state"], doc["stopped"] = "complete", stopped
    _journal_write(journal, doc)
    return ApplyResult(str(journal), tuple(written), tuple(created), tuple(stopped))


def _restore(doc: dict[str, Any]) -> list[str]:
    """Put every journaled file back to its previous bytes; remove what the apply created."""
    failed: list[str] = []
    for record in doc["files"]:
        path = record["path"]
        before = base64.b64decode(record["before_b64"])
        try:
            _clean_stale_temps(path)
            if not record["existed"]:
                if os.path.exists(path):
                    os.unlink(path)
                continue
            if _read(path) != before:
                atomic_write(path, before, record["mode"])
        except OSError:
            failed.append(path)
    for d in reversed(doc.get("dirs", [])):
        try:
            os.rmdir(d)
        except FileNotFoundError:
            pass
        except OSError:
            pass  # not empty: the run already used it; leave it
    return failed


def undo_last(state_dir: str = STATE_DIR) -> tuple[str, dict[str, Any]]:
    """Restore what the last apply touched, even if that apply was killed half-way."""
    journal = latest_journal(state_dir)
    if journal is None:
        raise FixError(f"nothing to undo: no journal in {journal_dir(state_dir)}")
    try:
        doc = json.loads(journal.read_text())
    except (OSError, ValueError) as exc:
        raise FixError(f"the journal {journal} is unreadable ({exc}); files were not touched") from None
    failed = _restore(doc)
    if failed:
        raise FixError(f"could not restore {', '.join(failed)} (journal kept at {journal})")
    journal.rename(journal.with_suffix(".undone"))
    return str(journal), doc


def stop_process(pid: int, grace: float = STOP_GRACE_S) -> bool:
    """SIGTERM, wait, SIGKILL; True when the process is gone."""
    import psutil

    try:
        proc = psutil.Process(pid)
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except psutil.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=grace)
        return True
    except psutil.NoSuchProcess:
        return True
    except (psutil.AccessDenied, psutil.TimeoutExpired):
        return False


def summary_changes(before: Report, after: Report, rule_ids: Sequence[str]) -> list[tuple[str, str, str]]:
    b = {f.rule_id: f.status.value for f in before.findings}
    a = {f.rule_id: f.status.value for f in after.findings}
    return [(rid, b.get(rid, "-"), a.get(rid, "-")) for rid in rule_ids]
