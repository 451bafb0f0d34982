"""Runs INSIDE the interpreter that has ray: a Ray driver that checks every alive node of a cluster.

ascendrl never imports ray itself. This file is sent as the program of ``python -c`` (as
lint_query.py is); it prints one JSON document on a line of its own. It schedules one task per alive
node, pinned with NodeAffinitySchedulingStrategy(soft=False), that runs
``python -m ascendrl check --json`` in that node's Python and records what only the node
knows (its interfaces, its HCCL/Ascend env, its clock). The JSON line starts with MARK: Ray itself
prints to the driver's stdout (a dead raylet's last log lines), also after the report. Every wait is bounded: a node that does
not answer in time, or dies, becomes an error entry with its node id and address.

argv: a JSON object {"address", "bound", "check_args", "paths"} (paths: the recipe's model and data,
looked up on every node). Standard library plus ray only; the
node task also uses psutil when the node has it (Ray depends on it).
"""

# ruff: noqa
import json
import os
import sys
import time
import traceback

ENV_PREFIXES = ("HCCL_", "ASCEND_", "RAY_EXPERIMENTAL_NOSET_", "GLOO_SOCKET_IFNAME")
MARK = "ascendrl-cluster-report "
SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL")


def node_task(check_args, bound, paths=()):
    """In a worker on the node: its own facts, then ascendrl's check in this node's Python."""
    import importlib.util
    import shlex
    import socket
    import subprocess

    started = time.time()
    env = {k: ("***" if any(w in k.upper() for w in SECRET_WORDS) else v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES)}
    try:
        import psutil

        interfaces = {name: sorted(a.address for a in addrs if a.family in (socket.AF_INET, socket.AF_INET6)) for name, addrs in psutil.net_if_addrs().items()}
    except Exception:
        interfaces = {name: [] for _, name in socket.if_nameindex()}
    out = {"hostname": socket.gethostname(), "python": sys.executable, "env": env, "interfaces": interfaces,
           "started": started, "paths": {p: os.path.exists(p) for p in paths}, "check": None, "error": None}
    if importlib.util.find_spec("ascendrl") is None:
        out["error"] = "not_installed"
        return out
    # ASCENDRL_NODE_CHECK_ARGS: extra `check` options for this node only (e.g. --python of a container's venv).
    try:
        extra = shlex.split(os.environ.get("ASCENDRL_NODE_CHECK_ARGS", ""))
    except ValueError as exc:
        out["error"] = f"check_failed: ASCENDRL_NODE_CHECK_ARGS on this node does not parse: {exc}"
        return out
    argv = [sys.executable, "-m", "ascendrl", "check", "--json", *check_args, *extra]
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=max(1.0, bound - 2.0), stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        out["error"] = f"check_timeout: `ascendrl check` did not finish within {max(1.0, bound - 2.0):g} s on this node"
        return out
    try:
        out["check"] = json.loads(proc.stdout)
    except ValueError:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
        out["error"] = f"check_failed: `ascendrl check --json` exited {proc.returncode}: {tail[0][:300]}"
    return out


def clock_task():
    return time.time()


def main():
    opts = json.loads(sys.argv[1])
    bound = float(opts["bound"])
    import ray
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    try:
        ray.init(address=opts.get("address") or "auto", log_to_driver=False, logging_level="ERROR")
    except Exception as exc:
        print(MARK + json.dumps({"connect_error": f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"}))
        return
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    remote_check = ray.remote(num_cpus=0, max_retries=0)(node_task)
    remote_clock = ray.remote(num_cpus=0, max_retries=0)(clock_task)
    entries = {}
    refs = {}
    for n in nodes:
        nid = n["NodeID"]
        entries[nid] = {"node_id": nid, "address": n.get("NodeManagerAddress"), "resources": n.get("Resources", {}), "result": None, "error": None}
        pin = NodeAffinitySchedulingStrategy(node_id=nid, soft=False)
        refs[remote_check.options(scheduling_strategy=pin).remote(opts["check_args"], bound, opts.get("paths") or [])] = nid
    deadline = time.monotonic() + bound
    pending = list(refs)
    while pending and time.monotonic() < deadline:
        done, pending = ray.wait(pending, num_returns=1, timeout=max(0.0, deadline - time.monotonic()))
        for ref in done:
            nid = refs[ref]
            try:
                entries[nid]["result"] = ray.get(ref, timeout=5)
            except Exception as exc:
                entries[nid]["error"] = f"died: {type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0][:300]}"
    for ref in pending:
        entries[refs[ref]]["error"] = f"timeout: no answer within {bound:g} s"
        try:
            ray.cancel(ref, force=True)
        except Exception:
            pass
    # Clocks: a tiny task on each node that answered, now that its worker is warm; offset against the
    # midpoint of the round trip, which bounds the error by half of it.
    clocks = {}
    for nid, e in entries.items():
        if e["result"] is None:
            continue
        pin = NodeAffinitySchedulingStrategy(node_id=nid, soft=False)
        sent = time.time()
        ref = remote_clock.options(scheduling_strategy=pin).remote()
        try:
            node_time = ray.get(ref, timeout=min(10.0, bound))
        except Exception:
            continue
        back = time.time()
        e["clock"] = {"offset_s": round(node_time - (sent + back) / 2, 3), "rtt_s": round(back - sent, 3)}
    print(MARK + json.dumps({"nodes": list(entries.values()), "driver_time": time.time()}))


if __name__ == "__main__":
    try:
        main()
    except Exception:
        print(MARK + json.dumps({"driver_error": traceback.format_exc().strip().splitlines()[-1]}))
