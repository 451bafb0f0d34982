"""Child programs the supervision tests run under `ascendrl run -- python children.py KIND ...`."""

import datetime
import os
import shutil
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


def session_name() -> str:
    """What Ray calls a session this process starts (ray/_private/node.py: session_{date_str}_{os.getpid()})."""
    return f"session_{datetime.datetime.today().strftime('%Y-%m-%d_%H-%M-%S_%f')}_{os.getpid()}"


def ray_session_fatal(root: str, trigger: str | None = None, linger: float = 120) -> None:
    """Start a Ray-like session under ROOT/ray; the fatal line goes only to its worker log (after TRIGGER exists)."""
    logs = os.path.join(root, "ray", session_name(), "logs")
    os.makedirs(logs)
    with open(os.path.join(logs, "raylet.out"), "w") as fh:
        fh.write("[2026-11-30 10:00:01,000 I 4411 4411] (raylet) main.cc:180: Setting cluster ID\n")
    print("INFO training is starting", flush=True)
    time.sleep(1)
    deadline = time.monotonic() + 60
    while trigger and not os.path.exists(trigger) and time.monotonic() < deadline:
        time.sleep(0.1)
    with open(os.path.join(logs, "worker-9a1c7f5e-01000000-4242.err"), "w") as fh:
        fh.write(NZ + "\n")
    time.sleep(linger)


def nodes_session(root: str, fixture: str, linger: float = 120) -> None:
    """A Ray-like session whose nodes/ holds a folder per node (logs a user synced from each machine);
    the driver itself prints only the HCCL watchdog timeout of the healthy node."""
    session = os.path.join(root, "ray", session_name())
    os.makedirs(os.path.join(session, "logs"))
    shutil.copytree(fixture, os.path.join(session, "nodes"))
    print("INFO training is starting", flush=True)
    time.sleep(1)
    with open(os.path.join(fixture, "node-b", "worker.err"), encoding="utf-8") as fh:
        print(fh.readline().rstrip("\n"), flush=True)
    time.sleep(linger)


def ticker() -> None:
    """A run that keeps printing (so the log grows) until it is stopped."""
    for i in range(600):
        print(f"tick {i}", flush=True)
        time.sleep(0.2)


def flood(megabytes: int, then: str) -> None:
    """Output faster than a small disk can take, then a fatal known failure or silence."""
    line = b"x" * 1023 + b"\n"
    for _ in range(megabytes * 1024):
        sys.stdout.buffer.write(line)
    sys.stdout.buffer.write(b"flood done\n")
    sys.stdout.flush()
    if then == "fatal":
        time.sleep(1)
        print("(WorkerDict pid=4242, ip=10.0.0.3) " + NZ, flush=True)
    time.sleep(120)


def stall() -> None:
    print("{'actor_rollout_ref': {...}}  # the config print, then nothing", flush=True)
    time.sleep(120)


if __name__ == "__main__":
    kind = sys.argv[1]
    if kind == "verl":
        recorded_verl(int(sys.argv[2]))
    elif kind == "fatal":  # a known fatal line, then a driver that would run on (default SIGTERM)
        print("(WorkerDict pid=4242, ip=10.0.0.3) " + NZ, flush=True)
        time.sleep(120)
    elif kind == "fatal-ignore-term":
        fatal_then_ignore_term()
    elif kind == "grandchildren":
        grandchildren(sys.argv[2])
    elif kind == "ray-session":
        ray_session_fatal(sys.argv[2], *(sys.argv[3:4] or [None]), *[float(a) for a in sys.argv[4:5]])
    elif kind == "nodes-session":
        nodes_session(sys.argv[2], sys.argv[3])
    elif kind == "ticker":
        ticker()
    elif kind == "flood":
        flood(int(sys.argv[2]), sys.argv[3])
    elif kind == "stall":
        stall()
