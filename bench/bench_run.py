"""The supervisor's overhead: >= 1 GB of verl-like log lines through `ascendrl run -- <generator>`
versus the same generator writing straight into a file, in one run.

Both write the full stream to a file (the run folder's output.log, or the direct file); the
supervisor also classifies every chunk and parses progress. Reported: the throughput of each,
their ratio, and the supervisor's peak RSS sampled while it runs. Goal: >= 80 % of the direct
throughput, flat RSS.

    python bench/bench_run.py --size-mb 1024
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

GENERATOR = r'''
import sys, random
target = int(sys.argv[1]) << 20
rng = random.Random(7)
out = sys.stdout.buffer
written = step = 0
while written < target:
    step += 1
    lines = [
        f"\x1b[36m(TaskRunner pid=20311)\x1b[0m step:{step} - global_seqlen/min:{480000 + step} - actor/entropy:{rng.random():.4f} - "
        f"actor/kl_loss:{rng.random() / 1000:.6f} - actor/pg_loss:{rng.random() / 100:.5f} - critic/score/mean:{rng.random():.4f} - "
        f"response_length/mean:{300 + rng.random() * 10:.2f} - perf/throughput:{1500 + rng.random() * 50:.1f} - timing_s/step:{188 + rng.random():.2f}\n"
    ]
    for _ in range(30):
        lines.append(
            f"\x1b[36m(WorkerDict pid={20501 + rng.randrange(8)}, ip=10.0.0.3)\x1b[0m INFO 11-20 10:{rng.randrange(60):02d}:{rng.randrange(60):02d} "
            f"[model_runner_v1.py:2119] Processed prompts: {rng.randrange(100)}% | {rng.randrange(512)}/512 [00:{rng.randrange(60):02d}<00:12, 41.2it/s]\n"
        )
    data = "".join(lines).encode()
    out.write(data)
    written += len(data)
out.flush()
'''


def direct(gen: Path, size_mb: int, work: Path) -> float:
    target = work / "direct.log"
    start = time.perf_counter()
    with open(target, "wb") as fh:
        subprocess.run([sys.executable, str(gen), str(size_mb)], stdout=fh, check=True)
    elapsed = time.perf_counter() - start
    target.unlink()
    return elapsed


def supervised(gen: Path, size_mb: int, work: Path) -> tuple[float, float, float, int]:
    runs = work / "runs"
    argv = [sys.executable, "-m", "ascendrl", "run", "--force", "--plain", "--runs-dir", str(runs), "--", sys.executable, str(gen), str(size_mb)]
    peak = [0]
    samples: list[int] = []
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    me = psutil.Process(proc.pid)

    def sample() -> None:
        while proc.poll() is None:
            try:
                rss = me.memory_info().rss
                samples.append(rss)
                peak[0] = max(peak[0], rss)
            except psutil.Error:
                return
            time.sleep(0.05)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    proc.wait()
    elapsed = time.perf_counter() - start
    sampler.join()
    log = next(runs.glob("*/output.log"))
    size = log.stat().st_size
    shutil.rmtree(runs)
    mid = samples[len(samples) // 4 :] or samples
    return elapsed, peak[0] / (1 << 20), (max(mid) - min(mid)) / (1 << 20) if mid else 0.0, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--size-mb", type=int, default=1024)
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="arl-bench-", dir=os.environ.get("BENCH_DIR", "/tmp")))
    gen = work / "gen.py"
    gen.write_text(GENERATOR)
    try:
        d_times, s_times, peaks, drifts = [], [], [], []
        logged = 0
        for _ in range(args.runs):  # alternate, so machine noise hits both alike
            d_times.append(direct(gen, args.size_mb, work))
            t, peak, drift, logged = supervised(gen, args.size_mb, work)
            s_times.append(t)
            peaks.append(peak)
            drifts.append(drift)
        d, s = min(d_times), min(s_times)
        mb = args.size_mb
        print(f"{mb} MB of verl-like lines; supervised log kept {logged / (1 << 20):.0f} MB")
        print(f"direct into a file : {d:.2f} s  ({mb / d:.0f} MB/s)")
        print(f"ascendrl run -- gen: {s:.2f} s  ({mb / s:.0f} MB/s)")
        print(f"throughput ratio {d / s:.1%}   supervisor peak RSS {max(peaks):.0f} MB (drift after warm-up {max(drifts):.0f} MB)   goal >= 80%, flat")
        print(json.dumps({"size_mb": mb, "direct_s": d, "supervised_s": s, "ratio": d / s, "peak_rss_mb": max(peaks), "rss_drift_mb": max(drifts)}))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
