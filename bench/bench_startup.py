"""Start-up of `ascendrl explain` on a one-line paste and of `ascendrl check --json`, against peers.

Every command runs in the same interpreter, alternating, so machine noise hits all alike; the
figures that matter are the ratios to the peers in the same run: `python -c pass` (the interpreter
alone) and `python -c "import yaml, rich.console"` (two of ascendrl's own dependencies). Goal
(issue 10): explain one-line and check --json each <= 0.20 s on the 2-core machine.

    python bench/bench_startup.py --runs 15
    python bench/bench_startup.py --runs 15 --against ../base/.venv/bin/python   # alternated with an older tree's install

The first explain fills the parsed-catalog cache (catalog/cache.py); it is a warm-up run, not
counted. `--cold` points the cache at an empty folder for every explain run instead.

Figures (README "Benchmarks" has the detail): idle after the 2026-12-01 merges, explain 0.28 s (6.7x
`python -c pass`), check --json 0.22 s (5.4x). After the second start-up pass, at load average 5.5:
explain 4.46x / 1.51x the import peer, check 4.99x / 1.69x; callgrind, which the load does not move:
explain 841 M -> 638 M instructions, check 544 M -> 531 M (`python -c pass` 87 M).
Check's pass (2026-12-01, load average 6-7, alternated with the tree before it, 15 runs): check --json
5.2-5.4x -> 2.7-3.0x `python -c pass`, explain 4.7-5.6x before and after (CPU time 0.26 s -> 0.24 s);
callgrind: check 527 M -> 293 M instructions, explain 704 M -> 699 M. What went: psutil (interfaces
over rtnetlink, RAM from /proc/meminfo), importlib.metadata and email (one listing of sys.path),
concurrent.futures and threads for probes that wait on nothing, shutil for argparse's help width,
platform, traceback, subprocess, importlib.resources, a 3 ms regex compile in kvfile.
Lazy-pattern gate (2026-12-03, fourth stop; 429 entries, 52 analyzers): a pattern not yet compiled answers from a
substring test of the texts every match must contain (ascendrl/lazyre.py); callgrind, explain one-line, the tree
before it 1,584 M -> 1,236 M instructions (`python -c pass` 88 M), patterns compiled on the paste 114 -> 20.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench_check import timed  # the script's folder is on sys.path

LINE = "RuntimeError: call aclnnMatmul failed\n"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--cold", action="store_true", help="no parsed-catalog cache for explain (an empty cache folder each run)")
    parser.add_argument("--against", metavar="PYTHON",
                        help="also time explain with another install's interpreter (a worktree of an older commit), alternated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ascendrl-bench-") as work:
        paste = Path(work) / "one.log"
        paste.write_text(LINE)
        # Bytecode as an installed wheel has it: with PYTHONDONTWRITEBYTECODE set (some shells and CI set it) and
        # no __pycache__ in the checkout, every run would also compile every module from source (a third more time here).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["XDG_CACHE_HOME"] = str(Path(work) / "cache")
        commands = {
            "explain one-line": [args.python, "-m", "ascendrl", "explain", str(paste)],
            "check --json": [args.python, "-m", "ascendrl", "check", "--json"],
            "python -c pass": [args.python, "-c", "pass"],
            "import yaml, rich": [args.python, "-c", "import yaml, rich.console"],
        }
        if args.against:
            commands["explain, --against"] = [args.against, "-m", "ascendrl", "explain", str(paste)]
        # Every command runs in the temporary folder: `python -m ascendrl` puts its working directory first on sys.path,
        # so run from a checkout, an --against interpreter would import that checkout's ascendrl/ instead of its own.
        for argv in commands.values():  # warm the page cache and the parsed-catalog cache
            timed(argv, env, cwd=work)
        samples: dict[str, list[float]] = {name: [] for name in commands}
        for run in range(args.runs):
            for name, argv in commands.items():
                run_env = dict(env, XDG_CACHE_HOME=str(Path(work) / f"cold{run}")) if args.cold and name.startswith("explain") else env
                samples[name].append(timed(argv, run_env, cwd=work))
    medians = {name: statistics.median(values) for name, values in samples.items()}
    for name, values in samples.items():
        print(f"{name:<18} median {medians[name]:.3f} s  min {min(values):.3f} s  max {max(values):.3f} s  (n={len(values)})")
    ratios = {
        f"{cmd} / {peer}": medians[cmd] / medians[peer]
        for cmd in ("explain one-line", "check --json") for peer in ("python -c pass", "import yaml, rich")
    }
    if args.against:
        ratios["explain one-line / explain, --against"] = medians["explain one-line"] / medians["explain, --against"]
    for name, value in ratios.items():
        print(f"{name:<40} {value:.2f}x")
    print(json.dumps({"medians_s": medians, "ratios": ratios, "runs": args.runs, "cold": args.cold}))


if __name__ == "__main__":
    main()
