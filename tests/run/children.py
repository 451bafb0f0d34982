"""Child programs the supervision tests run under `ascendrl run -- python children.py KIND ...`."""

import datetime
import os
import shutil
import signal
import subprocess
import sys
import time

NZ = "ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. Please set VLLM_ASCEND_ENABLE_NZ=0."


# A failure no catalog entry names (the rendezvous analyzer derives it). Wording from torch's TCPStore
# server, as quoted in https://github.com/OpenRLHF/OpenRLHF/issues/1040.
RENDEZVOUS = [
    "Traceback (most recent call last):",
    '  File "/workspace/verl/verl/trainer/main_ppo.py", line 96, in run_ppo',
    "    torch.distributed.init_process_group(backend='hccl')",
    "torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/3 clients joined.",
]
# An import failure a plugin loader catches and logs (the package analyzer reports it; it never stops a run).
OPTIONAL_IMPORT = [
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.11/site-packages/vllm/plugins/__init__.py", line 40, in load_plugins',
    "    from vllm_ascend.ops import fused_moe",
    "ImportError: cannot import name 'AscendFusedMoE' from 'vllm_ascend.ops.fused_moe'",
]


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
    elif kind == "derived-fatal":  # a derived fatal failure, then a driver that hangs (nothing closes the chain)
        print("\n".join(f"(WorkerDict pid=4242, ip=10.0.0.3) {line}" for line in RENDEZVOUS), flush=True)
        time.sleep(120)
    elif kind == "derived-reported":  # a derived finding that is reported, not stopped for; the run ends by itself
        print("\n".join(OPTIONAL_IMPORT), flush=True)
        time.sleep(3)
        print("INFO plugins loaded; continuing", flush=True)
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
