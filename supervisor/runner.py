"""Launch a command, watch its output and its Ray session, diagnose live, and stop it cleanly.

Events + one loop + an explicit state (honcho/supervisor's shape): a reader thread turns the
child's output into chunks on a queue; the loop owns everything else — the log file, the
classifier, progress, the Ray session follower, stall detection and the stop decision.
STARTING → RUNNING → (STOPPING →) EXITED.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from ascendrl.catalog import Catalog, Classifier
from ascendrl.preflight.probes.env import REDACTED, SECRET_NAME

from .progress import Progress
from .raylogs import SessionFollower, ray_root
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
    run_dir: Path | None = None  # made here when not given


@dataclasses.dataclass
class RunResult:
    exit_code: int
    reason: str  # "exited" | "fatal" | "stalled" | "interrupted" | "failed to start"
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

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["stopped"] = [dataclasses.asdict(s) for s in self.stopped]
        return data


class View(Protocol):
    def output(self, chunk: bytes) -> None: ...
    def update(self, progress: Progress, state: State) -> None: ...
    def message(self, text: str) -> None: ...
    def close(self) -> None: ...


def redacted(env: dict[str, str]) -> dict[str, str]:
    return {k: (REDACTED if SECRET_NAME.search(k) else v) for k, v in sorted(env.items())}


def make_run_dir(runs_dir: str, name: str) -> Path:
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", name)[:60] or "run"
    path = Path(runs_dir) / f"{stamp}-{safe}"
    n = 1
    while path.exists():
        n += 1
        path = Path(runs_dir) / f"{stamp}-{safe}-{n}"
    path.mkdir(parents=True)
    return path


class Supervisor:
    def __init__(self, options: RunOptions, catalog: Catalog, view: View):
        self.o = options
        self.view = view
        self.classifier = Classifier(catalog)
        self.progress = Progress()
        self.state = State.STARTING
        self.events: queue.Queue = queue.Queue(maxsize=16)  # bounded: a fast child waits, memory stays flat
        self.interrupted: int | None = None
        self.run_dir = options.run_dir or make_run_dir(options.runs_dir, options.name)

    # ---- the loop ----------------------------------------------------------------------------
    def run(self) -> RunResult:
        o = self.o
        (self.run_dir / "command.txt").write_text(shlex.join(o.argv) + "\n")
        (self.run_dir / "env.json").write_text(json.dumps(redacted(o.env), indent=1))
        log_path = self.run_dir / "output.log"
        started = time.time()
        t0 = time.monotonic()
        become_subreaper()
        try:
            proc = subprocess.Popen(
                list(o.argv), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env=o.env, start_new_session=True,
            )
        except OSError as exc:
            self.view.message(f"could not start {o.argv[0]}: {exc.strerror or exc}")
            return self._finish(127, "failed to start", log_path, [], None, t0, None)
        previous = {sig: signal.signal(sig, self._on_signal) for sig in (signal.SIGINT, signal.SIGTERM)}
        tree = ProcessTree(proc.pid)
        follower = SessionFollower(ray_root(o.env), started)
        reader = threading.Thread(target=self._read, args=(proc.stdout.fileno(),), daemon=True)
        reader.start()
        self.state = State.RUNNING
        reason, stall = "exited", None
        last_output = last_tick = time.monotonic()
        fatal_seen: str | None = None
        exited_at: float | None = None
        eof = False
        with open(log_path, "wb", buffering=0) as log:
            while True:
                try:
                    kind, data = self.events.get(timeout=o.poll)
                except queue.Empty:
                    kind, data = "tick", b""
                now = time.monotonic()
                if kind == "out":
                    log.write(data)
                    self.view.output(data)
                    self.classifier.feed_chunk(data, "output")
                    self.progress.feed(data)
                    last_output = now
                elif kind == "eof":
                    eof = True
                if now - last_tick >= 0.5 or kind == "eof":
                    last_tick = now
                    tree.refresh()
                    for name, chunk in follower.poll():
                        self.classifier.feed_chunk(chunk, name)
                    self.view.update(self.progress, self.state)
                hit = self.classifier.first_specific_fatal()
                if hit is not None and fatal_seen != hit.entry.id:
                    fatal_seen = hit.entry.id
                    self.view.message(f"{hit.entry.id}: {hit.entry.title} ({hit.file}:{hit.line})")
                    if not o.keep_going:
                        reason = "fatal"
                        break
                if self.interrupted is not None:
                    reason = "interrupted"
                    break
                idle = now - max(last_output, t0)
                if idle > o.stall_timeout and not (eof and proc.poll() is not None):
                    reason, stall = "stalled", self._stall_report(idle)
                    self.view.message(stall)
                    break
                if proc.poll() is not None:
                    # The driver is gone. Its stdout may stay open in descendants (Ray workers,
                    # helpers that called setsid): drain briefly, then stop them.
                    exited_at = exited_at or now
                    if eof or (now - exited_at > 2.0 and now - last_output > 1.0):
                        break
            self.state = State.STOPPING
            if follower.session is not None:
                tree.session_markers.append(str(follower.session))
            stopped = tree.stop_all(proc, o.grace)
            drain_until = time.monotonic() + o.grace + 5  # a holder we could not stop must not hang us
            while (not self.events.empty() or reader.is_alive()) and time.monotonic() < drain_until:
                try:
                    kind, data = self.events.get(timeout=0.2)
                except queue.Empty:
                    continue
                if kind == "out":
                    log.write(data)
                    self.view.output(data)
                    self.classifier.feed_chunk(data, "output")
                    self.progress.feed(data)
            for name, chunk in follower.poll():
                self.classifier.feed_chunk(chunk, name)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        rc = proc.returncode
        code = 128 - rc if rc is not None and rc < 0 else (rc or 0)
        if reason == "interrupted":
            code = 128 + (self.interrupted or signal.SIGINT)
        self.state = State.EXITED
        self.view.update(self.progress, self.state)
        return self._finish(code, reason, log_path, stopped, follower.session, t0, stall)

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
        self.interrupted = signum

    def _stall_report(self, idle: float) -> str:
        text = f"no output and no step progress for {idle:.0f} s (stall timeout {self.o.stall_timeout:.0f} s)"
        demands = self._ray_pending_demands()
        if demands:
            text += "; Ray's pending demands: " + demands
        else:
            text += "; a silent hang right after the config print is typically Ray waiting for CPUs (ARL-L008)"
        return text

    def _ray_pending_demands(self) -> str | None:
        """Best effort: `ray status` of this run's cluster (found through its RAY_TMPDIR), read with the training interpreter."""
        if not self.o.python:
            return None
        for extra in ({}, {"RAY_AUTH_MODE": "token"}):  # Ray >= 2.5x clusters default to token auth
            try:
                proc = subprocess.run(
                    [self.o.python, "-m", "ray.scripts.scripts", "status"],
                    capture_output=True, text=True, timeout=30, env={**self.o.env, **extra}, stdin=subprocess.DEVNULL,
                )
            except (OSError, subprocess.TimeoutExpired):
                return None
            if proc.returncode == 0:
                return _status_sections(proc.stdout, ("Total Usage:", "Pending Demands:"))
        return None

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
        )
        (self.run_dir / "summary.json").write_text(json.dumps(result.to_json(), indent=1, default=str))
        (self.run_dir / "summary.txt").write_text(summary_text(result) + "\n")
        return result


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
    if r.stall:
        lines.append(f"stalled: {r.stall}")
    if r.stopped:
        lines.append(f"stopped {len(r.stopped)} process(es): " + ", ".join(f"{s.pid} {s.name} ({s.how})" for s in r.stopped[:12]))
    if r.ray_session:
        lines.append(f"ray session: {r.ray_session}")
    lines.append(f"log: {r.log_path}")
    return "\n".join(lines)
