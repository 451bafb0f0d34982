"""`ascendrl explain` on a large generated log against `grep -c -E` with the catalog's signatures.

The log mixes what a verl GRPO run really prints: Ray-prefixed, ANSI-coloured worker lines, the
config pprint, vLLM INFO lines, verl step metric lines, harmless warnings, handled tracebacks,
and a few real failures (catalog signatures) deep inside. grep gets one alternation of every
catalog signature, translated to POSIX ERE, over the same file, in the same run. Reported:
MB/s of each, the time ratio, and explain's peak RSS. Goal: within 3x grep, under 150 MB.

    python bench/bench_explain.py --size-mb 500
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from ascendrl.catalog import load_catalog

WORK = Path(__file__).parent / ".work"
E = "\x1b"


def mixed_lines(rng: random.Random):
    step = 0
    while True:
        step += 1
        pid = 20501 + rng.randrange(8)
        wd = f"{E}[36m(WorkerDict pid={pid}, ip=10.0.0.{rng.randrange(1, 5)}){E}[0m"
        tr = f"{E}[36m(TaskRunner pid=20311){E}[0m"
        yield (
            f"{tr} step:{step} - global_seqlen/min:{480000 + step} - actor/entropy:0.61 - actor/kl_loss:0.0004 - "
            f"actor/pg_loss:0.0117 - actor/grad_norm:0.31 - critic/score/mean:0.43 - response_length/mean:306.2 - "
            f"timing_s/gen:61.5 - timing_s/step:188.9 - perf/throughput:1527.0"
        )
        for _ in range(rng.randrange(20, 40)):
            yield f"{wd} INFO 11-20 10:{rng.randrange(60):02d}:{rng.randrange(60):02d} [model_runner_v1.py:2119] Processed prompts: {rng.randrange(100)}% | {rng.randrange(512)}/512 [00:{rng.randrange(60):02d}<00:12, 41.2it/s]"
        for _ in range(rng.randrange(5, 15)):
            yield f"{tr}                                  'ppo_micro_batch_size_per_gpu': {rng.randrange(8)},"
        if rng.random() < 0.05:
            yield f"{wd} WARNING 11-20 10:19:40 [scheduler.py:314] Sequence group {step} is preempted by PreemptionMode.RECOMPUTE mode because there is not enough KV cache space."
        if rng.random() < 0.01:
            yield f"{wd} Traceback (most recent call last):"
            yield f'{wd}   File "/workspace/verl/verl/utils/import_utils.py", line 41, in is_flash_attn_available'
            yield f"{wd} ModuleNotFoundError: No module named 'flash_attn'"


FAILURES = [
    "ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. Please set VLLM_ASCEND_ENABLE_NZ=0.",
    "ImportError: libhccl.so: cannot open shared object file: No such file or directory",
    "OSError: Not enough disk space. Needed: Unknown size (download: Unknown size, generated: Unknown size, post-processed: Unknown size)",
]


def generate(path: Path, size_mb: int) -> None:
    target = size_mb << 20
    if path.exists() and abs(path.stat().st_size - target) < (1 << 20) * 2:
        return
    rng = random.Random(7)
    lines = mixed_lines(rng)
    written, next_failure = 0, target // 3
    with open(path, "w", encoding="utf-8") as fh:
        buf: list[str] = []
        while written < target:
            line = next(lines) + "\n"
            buf.append(line)
            written += len(line)
            if written >= next_failure and FAILURES:
                buf.append(f"{E}[36m(WorkerDict pid=20503){E}[0m {FAILURES.pop(0)}\n")
                next_failure += target // 4
            if len(buf) >= 20000:
                fh.write("".join(buf))
                buf.clear()
        fh.write("".join(buf))


def to_ere(regex: str) -> str:
    """Python re -> POSIX ERE for the signatures the catalog uses."""
    out = regex.replace("(?:", "(")
    out = out.replace("\\d", "[0-9]").replace("\\s", "[[:space:]]").replace("\\S", "[^[:space:]]").replace("\\w", "[[:alnum:]_]")
    return out


def timed(argv: list[str], env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    return time.perf_counter() - start, proc


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    WORK.mkdir(exist_ok=True)
    log = WORK / f"mixed-{args.size_mb}mb.log"
    generate(log, args.size_mb)
    size_mb = log.stat().st_size / (1 << 20)
    signatures = [to_ere(s.regex) for e in load_catalog().entries for s in e.signatures]
    # One pattern per line (grep -f): the same alternation, and the catalog outgrew one argument (Linux's 128 KiB
    # MAX_ARG_STRLEN: "Argument list too long" at about 1,700 signatures).
    patterns = WORK / "signatures.ere"
    patterns.write_text("".join(f"{s}\n" for s in signatures), encoding="utf-8")
    pattern_args = ["-f", str(patterns)]
    check = subprocess.run(["grep", "-c", "-E", *pattern_args, "/dev/null"], capture_output=True, text=True)
    if check.returncode == 2:
        raise SystemExit(f"grep rejected the alternation: {check.stderr}")
    runner = (
        "import resource, subprocess, sys; "
        "p = subprocess.run([sys.executable, '-m', 'ascendrl', 'explain', '--json', sys.argv[1]], capture_output=True, text=True); "
        "sys.stdout.write(p.stdout); sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))"
    )
    grep_env = dict(os.environ, LC_ALL="C")
    results: dict[str, list[float]] = {"explain": [], "grep": []}
    peak_kb, found, grep_count = 0, [], ""
    for _ in range(args.runs):
        t, proc = timed([sys.executable, "-c", runner, str(log)])
        results["explain"].append(t)
        peak_kb = max(peak_kb, int(proc.stderr.strip().splitlines()[-1]))
        found = [d["id"] for d in json.loads(proc.stdout)["diagnoses"]]
        t, proc = timed(["grep", "-c", "-E", *pattern_args, str(log)], env=grep_env)
        results["grep"].append(t)
        grep_count = proc.stdout.strip()
    best = {k: min(v) for k, v in results.items()}
    print(f"log: {size_mb:.0f} MB, {len(signatures)} signatures; explain found {found}; grep counted {grep_count} lines")
    for name, t in best.items():
        print(f"{name:<8} best of {args.runs}: {t:.2f} s  ({size_mb / t:.0f} MB/s)")
    print(f"explain / grep = {best['explain'] / best['grep']:.2f}x   peak RSS of explain: {peak_kb / 1024:.0f} MB   (goal: <= 3x, < 150 MB)")
    print(json.dumps({"size_mb": size_mb, "best_s": best, "ratio": best["explain"] / best["grep"], "peak_rss_mb": peak_kb / 1024}))


if __name__ == "__main__":
    main()
