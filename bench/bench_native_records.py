"""explain on a log of C++ loggers' error records (CANN's "[ERROR] MODULE(pid,process):time [file:line] message"), against grep.

A CANN host log (plog) or a MindSpore run prints thousands of ERROR records, most of them handled. explain reads such
records only as a last resort, when nothing else in the log is fatal (catalog/classify.py, Classifier._scan_native):
one RE2 pass per block, and per file only the first error record and the first fatal one after the last progress line.
This times that worst case: half the lines are ERROR records with no code (so no other reader takes them), half are
INFO records, and nothing else is fatal, so the first record is the answer and the similar-failure index is loaded.

    python bench/bench_native_records.py --lines 800000 --runs 3

Figures (2026-12-04, idle 2-core machine; README "Benchmarks"): 10,000 lines 0.34 s (0.15 s before the reading, when the
log gave "nothing fatal found"), 800,000 lines (94 MB) 0.73 s against 0.49 s before (grep 0.04 s).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from bench_explain import timed  # the script's folder is on sys.path

WORK = Path(__file__).parent / ".work"


def generate(path: Path, lines: int) -> None:
    """Records in CANN's log format (Log Reference, "[Level] ModuleName(PID,PName):DateTimeMS [FileName:LineNumber]")."""
    if path.exists() and path.stat().st_size > 0:
        return
    with open(path, "w", encoding="utf-8") as fh:
        buf: list[str] = []
        for i in range(lines):
            if i % 2:
                buf.append(f"[ERROR] RUNTIME(1234{i % 7},python3.11):2026-01-0{i % 9 + 1}-10:11:12.{i % 1000:03d}.{i % 997:03d} "
                           f"[api_c_kernel.cc:{100 + i % 50}] {i} rtsFuncGetByEntry:stream sync failed for task\n")
            else:
                buf.append(f"[INFO] RUNTIME(1234,python3.11):2026-01-01-10:11:12.123.456 [stream.cc:{i}] stream {i} created ok\n")
            if len(buf) >= 20000:
                fh.write("".join(buf))
                buf.clear()
        fh.write("".join(buf))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=800_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    log = WORK / f"cann-records-{args.lines}.log"
    generate(log, args.lines)
    commands = {
        "explain": ([sys.executable, "-m", "ascendrl", "explain", "--json", str(log)], None),
        "grep": (["grep", "-c", r"^\[ERROR\] [A-Z]", str(log)], dict(os.environ, LC_ALL="C")),
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    answer = None
    for _ in range(args.runs):  # alternated, so machine noise hits both alike
        for name, (argv, env) in commands.items():
            elapsed, proc = timed(argv, env)
            times[name].append(elapsed)
            if name == "explain":
                answer = (json.loads(proc.stdout).get("unknown") or {}).get("message", "")
    best = {name: min(t) for name, t in times.items()}
    size_mb = log.stat().st_size / (1 << 20)
    print(f"log: {size_mb:.0f} MB, {args.lines} lines; explain answered {answer[:80]!r}")
    print("  ".join(f"{name} best of {args.runs}: {t:.2f} s" for name, t in best.items()))
    print(json.dumps({"size_mb": size_mb, "best_s": best, "ratio": best["explain"] / best["grep"]}))


if __name__ == "__main__":
    main()
