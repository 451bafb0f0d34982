"""The one place that writes: plan → lock → re-read → journal (synced) → atomic writes → re-check; and undo.

A dry run builds the same plan and stops before the journal. Under the state folder's lock
and a lock on each target, the target is read again and the edit rebuilt from those bytes,
so two applies at once both land. Every write keeps the file's identity (see ``files``);
a kill at any moment leaves the old or the new bytes. The journal, written and synced before
the first change, holds the previous and the written bytes; --undo refuses a file that was
changed since (unless forced, and then keeps a copy), and follows only a verified journal.
Processes are signalled only after checking, right then, that they are the ones planned.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import datetime
import difflib
import os
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ascendrl import pinned
from ascendrl.preflight.model import Report

from . import journal as journals
from . import shellfile
from .files import FixError, atomic_write, check_editable, clean_stale_temps, locked, state_lock
from .model import Applicability, Instruction, MakeDir, Proposal, SetEnv, SetOverride, SourceScript, StopProcess

STATE_DIR = ".ascendrl"
ENV_FILE = "env.sh"
STOP_GRACE_S = 10.0



def unified_diff(old: bytes | None, new: bytes, label_old: str, label_new: str) -> str:
    a = (old or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = new.decode("utf-8", "replace").splitlines(keepends=True)
    lines = difflib.unified_diff(a, b, fromfile=label_old, tofile=label_new)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


@dataclasses.dataclass(frozen=True)
class FileChange:
    path: str  # the real file (a symlink's target)
    before: bytes | None  # None: the file does not exist yet
    after: bytes
    exports: tuple[tuple[str, str], ...] = ()
    sources: tuple[str, ...] = ()
    managed: bool = False
    shown: str = ""  # the path as the user gave it
    overrides: tuple[tuple[str, str], ...] = ()  # Hydra overrides on the script's verl command

    def diff(self) -> str:
        label = self.shown or self.path
        return unified_diff(self.before, self.after, label if self.before is not None else "/dev/null", label)

    def rebuilt(self, fresh: bytes | None) -> FileChange:
        """The same edit made on the bytes the file has now."""
        after = shellfile.edit(fresh, self.exports, self.sources, managed=self.managed)
        if self.overrides:
            after = shellfile.set_overrides(after, self.overrides)
        return dataclasses.replace(self, before=fresh, after=after)


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
            "files": [{"path": c.shown or c.path, "real_path": c.path, "created": c.before is None, "diff": c.diff()} for c in self.changes],
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
    overrides: dict[str, str] = {}
    sources: list[str] = []
    mkdirs: list[str] = []
    stops: list[StopProcess] = []
    for p in chosen:
        for action in p.actions:
            if isinstance(action, SetEnv):
                exports[action.name] = action.value
            elif isinstance(action, SetOverride):
                overrides[action.key] = action.value
            elif isinstance(action, SourceScript) and action.path not in sources:
                sources.append(action.path)
            elif isinstance(action, MakeDir) and not os.path.isdir(action.path):
                mkdirs.append(action.path)
            elif isinstance(action, StopProcess):
                stops.append(action)
    changes = []
    if overrides and managed:
        raise FixError("a Hydra override goes on the training command: pass the launch script with --script")
    if exports or sources or overrides:
        real = os.path.realpath(target)  # a symlinked script: edit what it points to, keep the link
        before = _read(real)
        if before is None and not managed:
            raise FixError(f"{target}: no such script (pass an existing launch script to --script, or leave it out to use {STATE_DIR}/{ENV_FILE})")
        if before is not None:
            check_editable(real, before)
        change = FileChange(real, before, b"", tuple(exports.items()), tuple(sources), managed, target, tuple(overrides.items())).rebuilt(before)
        if change.after != before:
            changes.append(change)
    return Plan(tuple(chosen), tuple(manual), tuple(hidden), target, tuple(changes), tuple(mkdirs), tuple(stops))


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise FixError(f"{path} is a directory, not a script") from None
    except OSError as exc:
        raise FixError(f"{path}: {exc.strerror or exc}") from None


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


def _private_dir(path: Path) -> None:
    """mkdir -p with the last two levels 0700: the journal is only ever this user's."""
    path.parent.mkdir(parents=True, exist_ok=True)
    for p in (path.parent, path):
        try:
            p.mkdir(mode=0o700)
        except FileExistsError:
            pass


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
    refused: tuple[tuple[int, str], ...] = ()  # PIDs not signalled, and why
    rebuilt: bool = False  # a target had changed since the plan; the edit was made on its new bytes


Holders = Callable[[], "set[int] | None"]


def apply_plan(plan: Plan, *, state_dir: str = STATE_DIR, holders: Holders | None = None) -> ApplyResult:
    """Lock, re-read, journal, then change. On any error, put back what was already changed and raise FixError.

    ``holders`` re-reads which PIDs hold an NPU right now (None when that cannot be read);
    without it, no process is signalled.
    """
    if plan.empty:
        return ApplyResult("", (), (), ())
    folder = journal_dir(state_dir)
    try:
        _private_dir(folder)
    except OSError as exc:
        raise FixError(f"cannot write the journal in {folder}: {exc.strerror or exc}; nothing was changed") from None
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(state_lock(Path(state_dir)))
        except OSError as exc:
            raise FixError(f"cannot lock {state_dir}: {exc.strerror or exc}; nothing was changed") from None
        changes, rebuilt = [], False
        for change in plan.changes:
            stack.enter_context(locked(change.path))
            fresh = _read(change.path)
            if fresh != change.before:  # someone (another apply?) wrote it since the plan: redo the edit on it
                change, rebuilt = change.rebuilt(fresh), True
            if fresh is not None:
                check_editable(change.path, fresh)
            if change.after != fresh:
                changes.append(change)
        if not (changes or plan.mkdirs or plan.stops):
            return ApplyResult("", (), (), (), (), rebuilt)
        return _apply_locked(plan, changes, folder, state_dir, holders, rebuilt)


def _apply_locked(plan: Plan, changes: list[FileChange], folder: Path, state_dir: str, holders: Holders | None, rebuilt: bool) -> ApplyResult:
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
    dirs: list[str] = []
    for target in plan.mkdirs:
        dirs += [d for d in _missing_ancestors(target) if d not in dirs]
    identity = {c.path: os.stat(c.path) for c in changes if c.before is not None}
    files = [journals.file_record(c.path, c.before, c.after, identity[c.path].st_mode if c.path in identity else None) for c in changes]
    journal = folder / f"{stamp}.json"
    doc: dict[str, Any] = {
        "version": 2, "created": stamp, "state": "started", "uid": os.geteuid(),
        "targets": [c.path for c in changes], "files": files, "dirs": dirs, "stopped": [], "refused": [],
    }
    try:
        journals.write(journal, doc)
    except OSError as exc:
        raise FixError(f"cannot write the journal {journal}: {exc.strerror or exc}; nothing was changed") from None
    written: list[str] = []
    created: list[str] = []
    try:
        for d in dirs:
            os.mkdir(d)
            created.append(d)
        for change in changes:
            if change.before is None:
                os.makedirs(os.path.dirname(change.path), exist_ok=True)
            atomic_write(change.path, change.after, like=identity.get(change.path))
            written.append(change.shown or change.path)
    except OSError as exc:
        problem = f"{getattr(exc, 'filename', None) or ''}: {exc.strerror or exc}".lstrip(": ")
        leftover = _restore(doc, state_dir, force=False)[1]
        doc["state"] = "rolled_back"
        with contextlib.suppress(OSError):
            journals.write(journal, doc)
        tail = "every file is as it was" if not leftover else f"could not restore {', '.join(leftover)}; run `ascendrl fix --undo`"
        raise FixError(f"apply stopped: {problem}; {tail}") from None
    stopped, refused = _stop_all(plan.stops, holders)
    doc["state"], doc["stopped"], doc["refused"] = "complete", stopped, [list(r) for r in refused]
    journals.write(journal, doc)
    return ApplyResult(str(journal), tuple(written), tuple(created), tuple(stopped), tuple(refused), rebuilt)


# ---- undo ------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Conflict:
    path: str
    diff: str  # from what apply wrote to what is there now


def _current(path: str) -> bytes | None:
    try:
        return _read(path)
    except FixError:
        return None


def _restore(doc: dict[str, Any], state_dir: str, *, force: bool, keep: Path | None = None) -> tuple[list[Conflict], list[str]]:
    """Put journaled files back to their previous bytes; remove what the apply created.

    A file is touched only when it holds exactly what the apply wrote (or ``force``; then
    its current bytes are first copied under ``keep``). Returns (conflicts, failures).
    """
    plan: list[tuple[dict[str, Any], bytes | None, bytes]] = []
    conflicts: list[Conflict] = []
    for record in doc["files"]:
        path = record["path"]
        before = base64.b64decode(record["before_b64"])
        with contextlib.suppress(OSError):
            clean_stale_temps(path)  # our own leftovers from a killed apply
        now = _current(path)
        if (now is None and not record["existed"]) or (now == before and record["existed"]):
            continue  # already as it was (an apply killed before its rename, or undone by hand)
        if now is None or journals.sha256(now) != record["after_sha256"]:
            after = journals.record_after(record)
            shown = unified_diff(after, now or b"", f"{path} (as fix --apply wrote it)", f"{path} (now)") if after is not None else ""
            conflicts.append(Conflict(path, shown or f"{path} was {'removed' if now is None else 'changed'} since apply\n"))
        plan.append((record, now, before))
    if conflicts and not force:
        return conflicts, []
    failed: list[str] = []
    for index, (record, now, before) in enumerate(plan):
        path = record["path"]
        try:
            with locked(path):
                if now is not None and journals.sha256(now) != record["after_sha256"] and keep is not None:
                    keep.mkdir(mode=0o700, parents=True, exist_ok=True)
                    atomic_write(str(keep / f"{index}-{os.path.basename(path)}"), now, mode=0o600)
                if not record["existed"]:
                    if os.path.lexists(path):
                        os.unlink(path)
                    continue
                like = os.stat(path) if now is not None else None
                atomic_write(path, before, like=like, mode=(record["mode"] or 0o644) & 0o777)
        except OSError:
            failed.append(path)
    for d in reversed(doc.get("dirs", [])):
        with contextlib.suppress(OSError):
            if os.stat(d).st_uid == os.geteuid():
                os.rmdir(d)  # only if empty: a run that already used it keeps it
    return conflicts, failed


class UndoConflict(FixError):
    """--undo would discard changes made since the apply; nothing was touched."""

    def __init__(self, journal: str, conflicts: tuple[Conflict, ...]) -> None:
        super().__init__(journal)
        self.journal, self.conflicts = journal, conflicts

    def __str__(self) -> str:
        names = ", ".join(c.path for c in self.conflicts)
        return (
            f"{names} changed since `ascendrl fix --apply` wrote it; undo would lose those changes, so nothing was touched.\n"
            + "".join(c.diff for c in self.conflicts)
            + "To keep them, edit the file by hand; to restore the previous version anyway, run "
            "`ascendrl fix --undo --force` (the current bytes are kept next to the journal)."
        )


def undo_last(state_dir: str = STATE_DIR, *, force: bool = False) -> tuple[str, dict[str, Any]]:
    """Restore what the last apply touched, even if that apply was killed half-way.

    Refuses (UndoConflict) when a file no longer holds what the apply wrote, unless ``force``.
    """
    journal = latest_journal(state_dir)
    if journal is None:
        raise FixError(f"nothing to undo: no journal in {journal_dir(state_dir)}")
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(state_lock(Path(state_dir)))
        except OSError as exc:
            raise FixError(f"cannot lock {state_dir}: {exc.strerror or exc}; files were not touched") from None
        doc = journals.load_verified(journal, state_dir)
        keep = journal.with_suffix(".kept")
        conflicts, failed = _restore(doc, state_dir, force=force, keep=keep)
        if conflicts and not force:
            raise UndoConflict(str(journal), tuple(conflicts))
        if failed:
            raise FixError(f"could not restore {', '.join(failed)} (journal kept at {journal})")
        journal.rename(journal.with_suffix(".undone"))
        if conflicts:
            doc["kept"] = str(keep)
    return str(journal), doc


# ---- stopping processes ----------------------------------------------------------------------
def refusal(stop: StopProcess, holders: set[int] | None) -> str | None:
    """Why ``stop`` must not be signalled now, or None when it is still the process that was planned."""
    import psutil

    from .units import protected_pids

    protected = protected_pids()
    if stop.pid <= 1 or stop.pid in protected:
        return protected.get(stop.pid, "not a process id")
    if stop.create_time is None or not stop.argv:
        return "the plan did not record its start time and command line"
    try:
        proc = psutil.Process(stop.pid)
        with proc.oneshot():
            started, argv = proc.create_time(), tuple(proc.cmdline())
    except psutil.NoSuchProcess:
        return "already gone"
    except psutil.AccessDenied:
        return "cannot be inspected (no permission)"
    if started != stop.create_time:
        return "the PID now belongs to a process started after the plan"
    if argv != stop.argv:
        return f"its command line changed (now {' '.join(argv)[:120]!r})"
    if holders is None:
        return "npu-smi could not be read again to confirm it still holds an NPU"
    if stop.pid not in holders:
        return "npu-smi no longer lists it as holding an NPU"
    return None


def _stop_all(stops: Sequence[StopProcess], holders: Holders | None) -> tuple[list[int], list[tuple[int, str]]]:
    stopped, refused = [], []
    for stop in stops:
        # Pinned before its identity is checked (ascendrl.pinned): a PID given to another process meanwhile is never hit.
        with pinned.pinned(stop.pid) as pidfd:
            why = refusal(stop, holders() if holders is not None else None)  # npu-smi read again for each
            if why is None and pidfd is not None and not pinned.alive(pidfd):
                why = "already gone"  # the pinned process died while it was checked: the PID may be another's now
            if why is not None:
                refused.append((stop.pid, why))
            elif stop_process(stop, pidfd=pidfd):
                stopped.append(stop.pid)
            else:
                refused.append((stop.pid, "did not stop (no permission?)"))
    return stopped, refused


def stop_process(stop: StopProcess, grace: float = STOP_GRACE_S, pidfd: int | None = None) -> bool:
    """SIGTERM, wait, SIGKILL; True when the process is gone. The last check is made on the handle signalled.

    With a pidfd (the process pinned before its identity was checked) the signals go to that process alone, even if
    its PID has been given to another since; without one, psutil checks the start time again before each signal.
    """
    if pidfd is not None:
        if not pinned.send(pidfd, signal.SIGTERM):
            return False
        if pinned.exited(pidfd, grace):
            return True
        return pinned.send(pidfd, signal.SIGKILL) and pinned.exited(pidfd, grace)
    import psutil

    try:
        proc = psutil.Process(stop.pid)
        if proc.create_time() != stop.create_time:
            return False
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace)
        except psutil.TimeoutExpired:
            proc.kill()  # psutil checks the process's identity (create time) before signalling
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
