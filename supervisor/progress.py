"""Training progress from verl's console lines.

verl's console logger prints one line per step, ``step:N - key:value - key:value`` (verl
utils/logger/aggregate_logger.py, concat_dict_to_str), and the trainer announces
``Total training steps: N`` (ppo/ray_trainer.py, ppo/v1/trainer_base.py).
"""

from __future__ import annotations

import collections
import dataclasses
import re
import time

STEP_LINE = re.compile(rb"step:(\d+) - ([^\n]*)")
TOTAL = re.compile(rb"Total training steps: (\d+)")
PAIR = re.compile(r"([\w/@.\-]+):(-?[\d.]+(?:e[-+]?\d+)?|nan|inf)")

# What the live view shows, in order: label -> verl metric key.
SHOWN = {
    "reward": "critic/score/mean",
    "response len": "response_length/mean",
    "kl": "actor/kl_loss",
    "throughput": "perf/throughput",
    "step time": "timing_s/step",
}


def _last(matches):
    """The last item of an iterator (only the newest step line of a chunk matters)."""
    found = collections.deque(matches, maxlen=1)
    return found[0] if found else None


@dataclasses.dataclass
class Progress:
    step: int = 0
    total: int | None = None
    metrics: dict[str, float] = dataclasses.field(default_factory=dict)
    started: float = dataclasses.field(default_factory=time.monotonic)
    last_step_at: float | None = None

    def feed(self, chunk: bytes) -> bool:
        """Update from a chunk of output; True when a new step was seen."""
        total = _last(TOTAL.finditer(chunk))
        if total is not None:
            self.total = int(total.group(1))
        last = _last(STEP_LINE.finditer(chunk))
        if last is None:
            return False
        step = int(last.group(1))
        metrics = {}
        for key, value in PAIR.findall(last.group(2).decode("utf-8", "replace")):
            try:
                metrics[key] = float(value)
            except ValueError:
                continue
        advanced = step != self.step
        self.step, self.metrics = step, metrics
        if advanced:
            self.last_step_at = time.monotonic()
        return advanced

    def eta_s(self) -> float | None:
        if not self.total or not self.step or self.last_step_at is None:
            return None
        per_step = (self.last_step_at - self.started) / self.step
        return max(self.total - self.step, 0) * per_step

    def shown(self) -> dict[str, float]:
        return {label: self.metrics[key] for label, key in SHOWN.items() if key in self.metrics}
