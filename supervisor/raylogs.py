"""Follow the Ray session that a run starts: raylet, GCS and worker logs, as they grow.

Ray hides some causes from the driver's output: the raylet's "… is over 95% full …" only
reaches ``<session>/logs/raylet.out``, and repeated worker errors are deduplicated. The run's
session is the ``session_*`` folder created under its Ray temp root after the launch.
"""

from __future__ import annotations

import os
from pathlib import Path

READ_LIMIT = 8 << 20  # per file per poll, so one huge log cannot starve the loop


def ray_root(env: dict[str, str]) -> Path:
    """Ray's temp root for this env: RAY_TMPDIR, else TMPDIR, else /tmp; then /ray."""
    base = env.get("RAY_TMPDIR") or env.get("TMPDIR") or "/tmp"
    return Path(base) / "ray"


class SessionFollower:
    def __init__(self, root: Path, started_at: float):
        self.root = root
        self.started_at = started_at
        self.session: Path | None = None
        self.offsets: dict[str, int] = {}

    def find_session(self) -> Path | None:
        if self.session is not None:
            return self.session
        try:
            candidates = [p for p in self.root.glob("session_2*") if p.is_dir() and not p.is_symlink()]
        except OSError:
            return None
        fresh = [p for p in candidates if p.stat().st_mtime >= self.started_at - 1]
        if fresh:
            self.session = max(fresh, key=lambda p: p.stat().st_mtime)
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
