"""Speed of the upstream-fix matcher: one-line paste start-up, and a large log streamed through it.

Reported: seconds for a fresh interpreter to import ascendrl.catalog and match one pasted line
(against the bare import), and MB/s of `upstream.match` over a generated verl-style log
(bench_explain's line mix, with real error lines from the shipped data sprinkled in) against
`grep -c -E` with one alternation of the same number of literal pieces. Not a test: numbers
depend on the machine.

    python bench/bench_upstream.py --size-mb 100
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_explain import mixed_lines  # noqa: E402

from ascendrl.catalog import upstream  # noqa: E402

WORK = Path(__file__).parent / ".work"
ONE_LINE = "RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with multiprocessing, " \
           "you must use the 'spawn' start method"


def startup(runs: int = 5) -> tuple[float, float]:
    def best(code: str) -> float:
        ts = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True)
            ts.append(time.perf_counter() - t)
        return min(ts)
    bare = best("import ascendrl.catalog")
    paste = best(f"from ascendrl.catalog import upstream; upstream.match([{ONE_LINE!r}])")
    return bare, paste


def make_log(path: Path, size_mb: int) -> int:
    rng = random.Random(7)
    raws = [e["raw_example"] for e in json.loads(upstream.DATA_FILE.read_text())["entries"]]
    gen = mixed_lines(rng)
    n = 0
    with path.open("w") as f:
        while f.tell() < size_mb * 1_000_000:
            for _ in range(1000):
                f.write(next(gen) + "\n")
            f.write(rng.choice(raws) + "\n")
            n += 1
    return n


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mb", type=int, default=100)
    a = ap.parse_args()
    bare, paste = startup()
    print(f"start-up: import {bare:.3f}s; import + load data + match one line {paste:.3f}s")
    WORK.mkdir(exist_ok=True)
    log = WORK / "upstream.log"
    errs = make_log(log, a.size_mb)
    mb = log.stat().st_size / 1e6

    entries = json.loads(upstream.DATA_FILE.read_text())["entries"]
    pieces = sorted({max((p.strip() for p in e["template"].split(upstream.WILD)), key=len) for e in entries})
    pattern = "|".join(re.sub(r"([][.*^$\\+?(){}|/])", r"\\\1", p) for p in pieces if p)
    t = time.perf_counter()
    subprocess.run(["grep", "-c", "-E", pattern, str(log)], capture_output=True)
    g = time.perf_counter() - t

    t = time.perf_counter()
    with log.open(errors="replace") as f:
        found = upstream.match(f, limit=50)
    m = time.perf_counter() - t
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"log {mb:.0f} MB, {errs} error lines: match {m:.2f}s ({mb / m:.0f} MB/s), "
          f"grep -c -E ({len(pieces)} pieces) {g:.2f}s ({mb / g:.0f} MB/s), ratio {m / g:.1f}x, "
          f"{len(found)} fixes, peak RSS {rss:.0f} MB")
    log.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
