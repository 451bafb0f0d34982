"""Follow the Ray session that a run starts: raylet, GCS and worker logs, as they grow.

Ray hides some causes from the driver's output: the raylet's "… is over 95% full …" only
reaches ``<session>/logs/raylet.out``, and repeated worker errors are deduplicated.

The run's session is identified by its id, never by "the newest folder": Ray names a new
session ``session_<local time %Y-%m-%d_%H-%M-%S_%f>_<pid of the process that started it>``
(https://github.com/ray-project/ray/blob/master/python/ray/_private/node.py, read in the
released Ray 2.60.0: ``date_str = datetime.datetime.today().strftime("%Y-%m-%d_%H-%M-%S_%f")``,
``f"session_{date_str}_{os.getpid()}"``). So it is ours only when its time is after
the launch and that pid was one of this run's processes then. Another session under the same
temp dir (another user's run, a cluster started by hand before the run) is never read, nor stopped.
(Ray's local time: a TZ in the run's env that differs from ascendrl's hides the session; safe.)
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Callable
from pathlib import Path

READ_LIMIT = 8 << 20  # per file per poll, so one huge log cannot starve the loop


def ray_root(env: dict[str, str]) -> Path:
    """Ray's temp root for this env: RAY_TMPDIR, else TMPDIR, else /tmp; then /ray."""
    base = env.get("RAY_TMPDIR") or env.get("TMPDIR") or "/tmp"
    return Path(base) / "ray"


SESSION_NAME = re.compile(r"session_(\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d{6})_(\d+)")


def parse_session_name(name: str) -> tuple[float, int] | None:
    """``session_2026-11-30_10-00-00_000001_4242`` -> (its time as a timestamp, 4242); None for anything else."""
    m = SESSION_NAME.fullmatch(name)
    if m is None:
        return None
    try:
        return datetime.datetime.strptime(m.group(1), "%Y-%m-%d_%H-%M-%S_%f").timestamp(), int(m.group(2))
    except (ValueError, OverflowError):
        return None


class SessionFollower:
    def __init__(self, root: Path, started_at: float, owns: Callable[[int, float, Path], bool]):
        self.root = root
        self.started_at = started_at
        self.owns = owns  # (pid, at, session dir) -> is this session this run's own
        self.session: Path | None = None
        self.offsets: dict[str, int] = {}

    def find_session(self) -> Path | None:
        if self.session is not None:
            return self.session
        found = []
        try:
            with os.scandir(self.root) as entries:
                for entry in entries:
                    parsed = parse_session_name(entry.name)
                    if parsed is None or not entry.is_dir(follow_symlinks=False):
                        continue
                    at, pid = parsed
                    if at >= self.started_at and self.owns(pid, at, Path(entry.path)):
                        found.append((at, entry.path))
        except OSError:
            return None
        if found:
            self.session = Path(min(found)[1])
        return self.session

    def poll(self) -> list[tuple[str, bytes]]:
        """New bytes of every log file of the session since the last poll, as (name, bytes)."""
        session = self.find_session()
        if session is None:
            return []
        out = []
        logs = session / "logs"
        try:
            names = sorted(os.listdir(logs))
        except OSError:
            return []
        for name in names:
            path = logs / name
            try:
                if not path.is_file():
                    continue
                size = path.stat().st_size
                offset = self.offsets.get(name, 0)
                if size <= offset:
                    continue
                with open(path, "rb") as fh:
                    fh.seek(offset)
                    data = fh.read(min(size - offset, READ_LIMIT))
            except OSError:
                continue
            self.offsets[name] = offset + len(data)
            out.append((f"ray:logs/{name}", data))
        return out
