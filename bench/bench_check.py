"""Time `ascendrl check --json` against `python -m torch.utils.collect_env`, in one run.

Both commands run in the same interpreter (one that has torch and verl installed, built by
bench/setup.sh), alternating, so machine noise hits both alike; the result that matters is
the ratio of the medians. Goal: check < 0.5 s median and >= 10x faster than collect_env.

    bash bench/setup.sh && bench/.work/venv/bin/python bench/bench_check.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


def timed(argv: list[str], env: dict[str, str] | None = None, ok: tuple[int, ...] = (0, 1), cwd: str | None = None) -> float:
    """Wall time of one run of ``argv`` (output captured); a failed run ends the benchmark."""
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd)
    elapsed = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{argv} failed with {proc.returncode}: {proc.stderr[-500:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()
    check = [args.python, "-m", "ascendrl", "check", "--json"]
    collect = [args.python, "-m", "torch.utils.collect_env"]
    for argv in (check, collect):  # warm the page cache once each
        timed(argv)
    samples: dict[str, list[float]] = {"ascendrl check --json": [], "torch collect_env": []}
    for _ in range(args.runs):
        samples["ascendrl check --json"].append(timed(check))
        samples["torch collect_env"].append(timed(collect))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    ratio = medians["torch collect_env"] / medians["ascendrl check --json"]
    for name, values in samples.items():
        print(f"{name:<24} median {medians[name]:.3f} s  min {min(values):.3f} s  max {max(values):.3f} s  (n={len(values)})")
    print(f"collect_env / check = {ratio:.1f}x   (goal: check < 0.5 s and >= 10x)")
    print(json.dumps({"medians_s": medians, "ratio": ratio, "runs": args.runs}))


if __name__ == "__main__":
    main()
