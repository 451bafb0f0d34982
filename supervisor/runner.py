"""Launch a command, watch its output and its Ray session, diagnose live, and stop it cleanly.

Events + one loop + an explicit state (honcho/supervisor's shape): a reader thread turns the
child's output into chunks on a queue; the loop owns everything else — the log file, the
classifier, progress, the Ray session follower, stall detection and the stop decision.
STARTING → RUNNING → (STOPPING →) EXITED.

Once the tree is started, nothing may end the supervisor before it has stopped the tree:
SIGINT/SIGTERM stop it cleanly; SIGHUP (the SSH session dropped) and a terminal that cannot be
written only end the terminal output, like ``nohup``; a run folder that cannot be written is
reported once (runfolder.py).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from ascendrl.catalog import Catalog, Classifier
from ascendrl.catalog.timeline import explain_nodes, is_secondary, node_folders
from ascendrl.preflight.redact import redact_argv, redact_env, redact_json, redact_text

from .progress import Progress
from .raylogs import SessionFollower, ray_root
from .runfolder import RunFolder
from .tree import ProcessTree, Stopped, become_subreaper

READ_SIZE = 1 << 20


class State(str, enum.Enum):
    STARTING = "starting"
    RUNNING = "running"
    STOPPING = "stopping"
    EXITED = "exited"


@dataclasses.dataclass
class RunOptions:
    argv: Sequence[str]
    env: dict[str, str]
    name: str
    runs_dir: str = "runs"
    stall_timeout: float = 1800.0
    grace: float = 10.0
    keep_going: bool = False
    python: str | None = None  # the training interpreter, to ask Ray for pending demands on a stall
    poll: float = 0.25
    folder: RunFolder | None = None  # made here when not given


@dataclasses.dataclass
class RunResult:
    exit_code: int
    reason: str  # "exited" | "fatal" | "stalled" | "interrupted" | "failed to start" | "supervisor error"
    run_dir: str
    log_path: str
    steps: int
    total_steps: int | None
    metrics: dict[str, float]
    diagnosis: dict[str, Any] | None
    unknown: dict[str, Any] | None
    stopped: list[Stopped]
    ray_session: str | None
    duration_s: float
    stall: str | None = None
    first_failure: dict[str, Any] | None = None  # across per-node log folders, when the run had them (catalog/timeline.py)
    stopped_on: dict[str, Any] | None = None  # the diagnosis the run was stopped for live: a catalog entry or a derived one
    notes: list[str] = dataclasses.field(default_factory=list)  # what went wrong around the run (SIGHUP, a full disk)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["stopped"] = [dataclasses.asdict(s) for s in self.stopped]
        return data


class View(Protocol):
    def output(self, chunk: bytes) -> None: ...
    def update(self, progress: Progress, state: State) -> None: ...
    def message(self, text: str) -> None: ...
    def close(self) -> None: ...


class NoTerminal:
    """The view after the terminal went away: output still reaches the log and the classifier."""

    def output(self, chunk: bytes) -> None:
        pass

    def update(self, progress: Progress, state: State) -> None:
        pass

    def message(self, text: str) -> None:
        pass

    def close(self) -> None:
        pass


class Supervisor:
    def __init__(self, options: RunOptions, catalog: Catalog, view: View):
        self.o = options
        self.view = view
        self.catalog = catalog
        self.classifier = Classifier(catalog)
        self.progress = Progress()
        self.state = State.STARTING
        self.events: queue.Queue = queue.Queue(maxsize=16)  # bounded: a fast child waits, memory stays flat
        self.interrupted: int | None = None
        self.hung_up = False
        self.notes: list[str] = []
        self.stopped_on: dict[str, Any] | None = None  # the diagnosis the run was stopped for, once it is
        self.folder = options.folder or RunFolder.create(options.runs_dir, options.name)
        self.run_dir = self.folder.path

    # ---- the loop ----------------------------------------------------------------------------
    def run(self) -> RunResult:
        """Launch, supervise, stop. Before the launch a run folder that cannot be written raises RunFolderError."""
        o = self.o
        self.folder.write("command.txt", shlex.join(redact_argv(o.argv)) + "\n", required=True)
        self.folder.write("env.json", json.dumps(redact_env(o.env), indent=1), required=True)
        log_path = self.run_dir / "output.log"
        log = self.folder.open_log("output.log")
        self.folder.warn = self._say
        t0 = time.monotonic()
        # Handlers before the launch: from here on a signal must never end us with the tree running.
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
        started = time.time()
        become_subreaper()
        try:
            proc = subprocess.Popen(
                list(o.argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=o.env, start_new_session=True,
            )
        except OSError as exc:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            log.close()
            self._say(f"could not start {o.argv[0]}: {exc.strerror or exc}")
            code = 127 if isinstance(exc, FileNotFoundError) else 126  # as docker run / timeout: not found / not executable
            return self._finish(code, "failed to start", log_path, [], None, t0, None)
        tree = ProcessTree(proc.pid, started)
        follower = SessionFollower(ray_root(o.env), started, tree.owns)
        reader = threading.Thread(target=self._read, args=(proc.stdout.fileno(),), daemon=True)
        reader.start()
        self.state = State.RUNNING
        reason, stall = "exited", None
        last_output = last_tick = time.monotonic()
        fatal_seen: str | None = None
        exited_at: float | None = None
        eof = False
        with log:
            try:
                while True:
                    try:
                        kind, data = self.events.get(timeout=o.poll)
                    except queue.Empty:
                        kind, data = "tick", b""
                    if self.hung_up:
                        self.hung_up = False
                        self._detach("SIGHUP (the terminal hung up)", _terminal_fds())
                    now = time.monotonic()
                    if kind == "out":
                        self._take(data, log)
                        last_output = now
                    elif kind == "eof":
                        eof = True
                    if now - last_tick >= 0.5 or kind == "eof":
                        last_tick = now
                        tree.refresh()
                        for name, chunk in follower.poll():
                            self.classifier.feed_chunk(chunk, name)
                        self._show("update", self.progress, self.state)
                    hit = self.classifier.first_specific_fatal() or self.classifier.first_derived_fatal()
                    if hit is not None and fatal_seen != hit.entry.id:
                        fatal_seen = hit.entry.id
                        basis = " (derived)" if hit.basis == "derived" else ""
                        self._say(f"{hit.entry.id}{basis}: {hit.entry.title} ({hit.file}:{hit.line})")
                        if not o.keep_going:
                            reason, self.stopped_on = "fatal", _stopped_on(hit)
                            break
                    if self.interrupted is not None:
                        reason = "interrupted"
                        break
                    idle = now - max(last_output, t0)
                    if idle > o.stall_timeout and not (eof and proc.poll() is not None):
                        reason, stall = "stalled", self._stall_report(idle)
                        self._say(stall)
                        break
                    if proc.poll() is not None:
                        # The driver is gone. Its stdout may stay open in descendants (Ray workers,
                        # helpers that called setsid): drain briefly, then stop them.
                        exited_at = exited_at or now
                        if eof or (now - exited_at > 2.0 and now - last_output > 1.0):
                            break
            except Exception as exc:  # noqa: BLE001 - whatever broke, the tree must still be stopped
                reason = "supervisor error"
                self.notes.append(f"ascendrl failed while supervising ({type(exc).__name__}: {exc}); the tree was stopped")
            self.state = State.STOPPING
            tree.session = follower.session
            try:  # what Ray's session logs held before anything was stopped; nothing here may keep the tree running
                for name, chunk in follower.poll():
                    self.classifier.feed_chunk(chunk, name)
            except Exception as exc:  # noqa: BLE001
                self.notes.append(f"ascendrl could not read Ray's session logs before stopping ({type(exc).__name__}: {exc})")
            stopped = tree.stop_all(proc, o.grace)
            drain_until = time.monotonic() + o.grace + 5  # a holder we could not stop must not hang us
            while (not self.events.empty() or reader.is_alive()) and time.monotonic() < drain_until:
                try:
                    kind, data = self.events.get(timeout=0.2)
                except queue.Empty:
                    continue
                if kind == "out":
                    self._take(data, log)
            if reason not in ("stalled", "interrupted"):
                # After a stop ascendrl chose, the session logs go on to record that stop (its agents killed, "the
                # raylet exited because one Ray agent failed"): not the run's failure. Otherwise they may still hold it.
                for name, chunk in follower.poll():
                    self.classifier.feed_chunk(chunk, name)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        rc = proc.returncode
        code = 128 - rc if rc is not None and rc < 0 else (rc or 0)
        if reason == "interrupted":
            code = 128 + (self.interrupted or signal.SIGINT)
        elif reason == "supervisor error":
            code = 125  # ascendrl failed, not the command (docker run's convention)
        self.state = State.EXITED
        self._show("update", self.progress, self.state)
        return self._finish(code, reason, log_path, stopped, follower.session, t0, stall)

    def _take(self, data: bytes, log) -> None:
        """One chunk of output: to the log, the terminal, the classifier and progress."""
        log.write(data)
        self._show("output", data)
        self.classifier.feed_chunk(data, "output")
        self.progress.feed(data)

    # ---- the terminal: optional, it may go away at any time -------------------------------------
    def _show(self, method: str, *args) -> None:
        try:
            getattr(self.view, method)(*args)
        except (OSError, ValueError) as exc:  # EIO after a hang-up, EPIPE, a closed stream
            fd = getattr(self.view, "message_fd", 2) if method == "message" else 1
            terminals = _terminal_fds()
            fds = {fd} | (terminals if fd in terminals else set())
            self._detach(f"{'stdout' if fd == 1 else 'stderr'} could not be written ({getattr(exc, 'strerror', None) or exc})", fds)

    def _say(self, text: str) -> None:
        self._show("message", redact_text(text))

    def _detach(self, why: str, fds: set[int]) -> None:
        """Stop writing to a terminal that is gone (like nohup): its fds lead to /dev/null, the run goes on.

        Output that goes to a file or a pipe (not a terminal) keeps going there.
        """
        names = ", ".join(("stdin", "stdout", "stderr")[fd] for fd in sorted(fds))
        self.notes.append(f"{why}: the run stayed supervised" + (f"; nothing more was written to {names}" if fds else ""))
        try:
            null = os.open(os.devnull, os.O_RDWR)
            for fd in fds:
                os.dup2(null, fd)
            os.close(null)
        except OSError:
            pass
        if 1 in fds and not isinstance(self.view, NoTerminal):
            view, self.view = self.view, NoTerminal()
            try:
                view.close()
            except (OSError, ValueError):
                pass

    def close_view(self) -> None:
        try:
            self.view.close()
        except (OSError, ValueError):
            pass

    def _read(self, fd: int) -> None:
        while True:
            try:
                chunk = os.read(fd, READ_SIZE)
            except OSError:
                chunk = b""
            if not chunk:
                self.events.put(("eof", b""))
                return
            self.events.put(("out", chunk))

    def _on_signal(self, signum, frame) -> None:  # noqa: ARG002
        if signum == signal.SIGHUP:
            self.hung_up = True
        else:
            self.interrupted = signum

    def _stall_report(self, idle: float) -> str:
        text = f"no output and no step progress for {idle:.0f} s (stall timeout {self.o.stall_timeout:.0f} s)"
        demands = self._ray_pending_demands()
        if demands:
            text += "; Ray's pending demands: " + demands
        else:
            text += "; a silent hang right after the config print is typically Ray waiting for CPUs (ARL-L008)"
        return text

    def _ray_pending_demands(self, budget: float = 60.0, pause: float = 3.0) -> str | None:
        """Best effort: `ray status` of this run's cluster (found through its RAY_TMPDIR), read with the training interpreter.

        Asked again (within `budget` seconds) while it has no usage to show: on a loaded head node Ray's autoscaler
        report can lag its start-up, and `ray status` then prints no "Total Usage:" section yet.
        """
        if not self.o.python:
            return None
        deadline = time.monotonic() + budget
        while True:
            answered, sections = self._ray_status_once(timeout=max(1.0, min(30.0, deadline - time.monotonic())))
            if not _ask_again(answered, sections) or time.monotonic() + pause >= deadline:
                return sections
            time.sleep(pause)

    def _ray_status_once(self, timeout: float) -> tuple[bool, str | None]:
        """(whether a cluster answered, its condensed usage and demands)."""
        for extra in ({}, {"RAY_AUTH_MODE": "token"}):  # Ray >= 2.5x clusters default to token auth
            try:
                proc = subprocess.run(
                    [self.o.python, "-m", "ray.scripts.scripts", "status"],
                    capture_output=True, text=True, timeout=timeout, env={**self.o.env, **extra}, stdin=subprocess.DEVNULL,
                )
            except (OSError, subprocess.TimeoutExpired):
                return False, None
            if proc.returncode == 0:
                return True, _status_sections(proc.stdout, ("Total Usage:", "Pending Demands:"))
        return False, None

    def _finish(self, code, reason, log_path, stopped, session, t0, stall) -> RunResult:
        explanation = self.classifier.result()
        specific = [d for d in explanation.diagnoses if d.fatal and not d.entry.generic]
        fatal = [d for d in explanation.diagnoses if d.fatal]
        # A wrapper (Hydra's "Error executing job", RayTaskError) is named only when nothing better is known.
        best = specific[0] if specific else (fatal[0] if fatal and explanation.unknown is None else None)
        top = best.to_json() if best else None
        result = RunResult(
            exit_code=code,
            reason=reason,
            run_dir=str(self.run_dir),
            log_path=str(log_path),
            steps=self.progress.step,
            total_steps=self.progress.total,
            metrics=dict(self.progress.metrics),
            diagnosis=top,
            unknown=explanation.unknown.to_json() if explanation.unknown and reason != "stalled" else None,
            stopped=list(stopped),
            ray_session=str(session) if session else None,
            duration_s=round(time.monotonic() - t0, 2),
            stall=stall,
            stopped_on=self.stopped_on,
        )
        if best is not None and reason == "fatal" and is_secondary(best.entry):
            result.first_failure = self._first_failure(session)
            if result.first_failure is None:
                self.notes.append(f"{best.entry.id} is usually a consequence of a failure on another node or rank: gather each node's "
                                  "Ray logs (/tmp/ray/session_latest/logs on every node) into a folder per node and run "
                                  "`ascendrl explain --nodes DIR1 DIR2 ...` to find the node that failed first")
        result.notes = self.notes + self.folder.notes()
        result = RunResult(**redact_json(dataclasses.asdict(result)) | {"stopped": list(stopped)})
        self.folder.write("summary.json", json.dumps(result.to_json(), indent=1, default=str))
        self.folder.write("summary.txt", summary_text(result) + "\n")
        result.notes = self.notes + self.folder.notes()  # and what could not be saved just now, for the printed summary
        return result

    def _first_failure(self, session) -> dict[str, Any] | None:
        """The first failing node when the run folder or the Ray session holds a folder per node (logs the user synced)."""
        for place in [p for p in (self.run_dir, Path(session) if session else None) if p is not None]:
            try:
                candidates = [place] + sorted(c for c in place.iterdir() if c.is_dir() and not c.is_symlink())
            except OSError:
                continue
            for folder in candidates:
                nodes = node_folders(folder)
                if not nodes:
                    continue
                first = explain_nodes(self.catalog, nodes).first
                if first is not None:
                    self.notes.append(f"per-node logs in {folder}: the first failure is on {first.node}; "
                                      "`ascendrl explain --nodes " + " ".join(str(n) for n in nodes) + "` shows the chain")
                    return {"node": first.node, "rank": first.rank, "id": first.entry_id, "title": first.title,
                            "file": first.file, "line": first.line, "folder": str(folder)}
        return None


def _terminal_fds() -> set[int]:
    """stdin, stdout and stderr where they are a terminal (a file or pipe outlives an SSH session)."""
    fds = set()
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd):
                fds.add(fd)
        except OSError:
            continue
    return fds


def _ask_again(answered: bool, sections: str | None) -> bool:
    """Whether `ray status` is worth asking again: a cluster answered, but with no usage yet ("No cluster status")."""
    return answered and not (sections and "Total Usage:" in sections)


def _status_sections(text: str, headers: Sequence[str]) -> str | None:
    """`ray status` sections, one line each: 'Total Usage: 2.0/2.0 CPU, … | Pending Demands: …'."""
    lines = text.splitlines()
    parts = []
    for header in headers:
        try:
            start = next(i for i, line in enumerate(lines) if line.strip() == header)
        except StopIteration:
            continue
        body = []
        for line in lines[start + 1 :]:
            if not line.strip() or not line.startswith(" "):
                break
            body.append(line.strip())
        parts.append(f"{header} {', '.join(body)}")
    return " | ".join(parts) or None


def _stopped_on(hit) -> dict[str, Any]:
    """What summary.json records about the diagnosis a run was stopped for (a classifier Hit)."""
    return {"id": hit.entry.id, "basis": hit.basis, "title": hit.entry.title, "family": hit.entry.family,
            "file": hit.file, "line": hit.line, "excerpt": hit.excerpt}


def summary_text(r: RunResult) -> str:
    lines = [f"run {r.reason}, exit status {r.exit_code}, {r.duration_s:.0f} s"]
    lines.append(f"steps: {r.steps}" + (f" of {r.total_steps}" if r.total_steps else ""))
    if r.metrics:
        shown = ", ".join(f"{k}={v:g}" for k, v in list(r.metrics.items())[:8])
        lines.append(f"last metrics: {shown}")
    if r.diagnosis:
        d = r.diagnosis
        lines.append(f"diagnosis: {d['id']} {d['title']} ({d['file']}:{d['line']})")
        lines += [f"  fix: {step}" for step in d["fix"]]
    elif r.unknown:
        u = r.unknown
        lines.append(f"not in the catalog: {u['type']}: {u['message']} ({u['file']}:{u['line']})")
    if r.stopped_on and (not r.diagnosis or r.diagnosis["id"] != r.stopped_on["id"]):
        st = r.stopped_on
        lines.append(f"stopped for: {st['id']} {st['title']} ({st['file']}:{st['line']})")
    if r.first_failure:
        f = r.first_failure
        lines.append(f"first failure: node {f['node']}" + (f" ({f['rank']})" if f.get("rank") else "")
                     + f": {f['id'] or f['title']} ({f['file']}:{f['line']})")
    if r.stall:
        lines.append(f"stalled: {r.stall}")
    if r.stopped:
        lines.append(f"stopped {len(r.stopped)} process(es): " + ", ".join(f"{s.pid} {s.name} ({s.how})" for s in r.stopped[:12]))
    if r.ray_session:
        lines.append(f"ray session: {r.ray_session}")
    lines += [f"note: {note}" for note in r.notes]
    lines.append(f"log: {r.log_path}")
    return "\n".join(lines)
