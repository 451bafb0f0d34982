"""Views for `ascendrl run`: plain pass-through for pipes, a rich live panel for terminals."""

from __future__ import annotations

import collections
import sys
import time

from ascendrl.supervisor.progress import Progress
from ascendrl.supervisor.runner import State


def _fmt_s(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def status_line(progress: Progress, state: State) -> str:
    step = f"step {progress.step}" + (f"/{progress.total}" if progress.total else "")
    metrics = "  ".join(f"{k} {v:.4g}" for k, v in progress.shown().items())
    elapsed = time.monotonic() - progress.started
    return f"[{state.value}] {step}  {metrics}  elapsed {_fmt_s(elapsed)}  eta {_fmt_s(progress.eta_s())}"


class PlainView:
    """Output goes through unchanged (so pipes and log collectors see verl's own lines)."""

    message_fd = 2  # where message() writes (the supervisor stops writing to an fd that fails)

    def __init__(self, stream=None):
        self.out = stream or sys.stdout.buffer

    def output(self, chunk: bytes) -> None:
        self.out.write(chunk)
        self.out.flush()

    def update(self, progress: Progress, state: State) -> None:
        pass

    def message(self, text: str) -> None:
        print(f"ascendrl: {text}", file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


class LiveView:
    """A status panel (step, reward, length, KL, throughput, step time, elapsed, ETA) above the log tail."""

    message_fd = 1

    def __init__(self, console, tail_lines: int = 20):
        from rich.live import Live

        self.console = console
        self.tail: collections.deque[str] = collections.deque(maxlen=tail_lines)
        self.partial = ""
        self.status = "[starting]"
        self.notes: list[str] = []
        self.live = Live(self._render(), console=console, refresh_per_second=4, transient=False)
        self.live.start()

    def _render(self):
        from rich.console import Group
        from rich.panel import Panel
        from rich.text import Text

        body = Text("\n".join(self.tail), overflow="ellipsis", no_wrap=True)
        notes = [Text(n, style="bold red") for n in self.notes]
        return Group(Panel(Text(self.status, style="bold"), title="ascendrl run"), *notes, body)

    def output(self, chunk: bytes) -> None:
        text = self.partial + chunk[-65536:].decode("utf-8", "replace")
        *lines, self.partial = text.split("\n")
        self.tail.extend(line[-300:] for line in lines[-self.tail.maxlen :])
        self.live.update(self._render())

    def update(self, progress: Progress, state: State) -> None:
        self.status = status_line(progress, state)
        self.live.update(self._render())

    def message(self, text: str) -> None:
        self.notes.append(text)
        self.live.update(self._render())

    def close(self) -> None:
        self.live.stop()
