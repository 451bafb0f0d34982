"""Child programs the supervision tests run under `ascendrl run -- python children.py KIND ...`."""

import os
import signal
import subprocess
import sys
import time

NZ = "ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. Please set VLLM_ASCEND_ENABLE_NZ=0."


def recorded_verl(steps: int) -> None:
    """verl's console output at speed: the announcement, then one metric line per step."""
    print("\x1b[36m(TaskRunner pid=20311)\x1b[0m Total training steps: %d" % steps, flush=True)
    for s in range(1, steps + 1):
        print(
            f"\x1b[36m(TaskRunner pid=20311)\x1b[0m step:{s} - global_seqlen/min:480311 - actor/entropy:0.61 - "
            f"actor/kl_loss:{0.0001 * s:.4f} - actor/pg_loss:0.0117 - critic/score/mean:{0.4 + s / (10 * steps):.4f} - "
            f"response_length/mean:{306.0 - s / steps:.2f} - perf/throughput:1527.0 - timing_s/step:188.9"
        )
    sys.stdout.flush()


def fatal_then_ignore_term() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print("(WorkerDict pid=4242, ip=10.0.0.3) " + NZ, flush=True)
    time.sleep(120)


def grandchildren(pidfile: str) -> None:
    code = "import os, signal, time; os.setsid(); signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(120)"
    kids = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(2)]
    with open(pidfile, "w") as fh:
        fh.write(" ".join(str(k.pid) for k in kids))
    time.sleep(0.5)
    print("driver done, leaving its helpers behind", flush=True)


def ray_session_fatal(root: str) -> None:
    logs = os.path.join(root, "ray", "session_2026-11-30_10-00-00_000001_4242", "logs")
    os.makedirs(logs)
    with open(os.path.join(logs, "raylet.out"), "w") as fh:
        fh.write("[2026-11-30 10:00:01,000 I 4411 4411] (raylet) main.cc:180: Setting cluster ID\n")
    print("INFO training is starting", flush=True)
    time.sleep(1)
    with open(os.path.join(logs, "worker-9a1c7f5e-01000000-4242.err"), "w") as fh:
        fh.write(NZ + "\n")
    time.sleep(120)


def stall() -> None:
    print("{'actor_rollout_ref': {...}}  # the config print, then nothing", flush=True)
    time.sleep(120)


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "verl":
        recorded_verl(int(sys.argv[2]))
    elif kind == "fatal-ignore-term":
        fatal_then_ignore_term()
    elif kind == "grandchildren":
        grandchildren(sys.argv[2])
    elif kind == "ray-session":
        ray_session_fatal(sys.argv[2])
    elif kind == "stall":
        stall()
