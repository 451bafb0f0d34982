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

HCCL network facts (hccl_facts, reach round): the port range HCCL_IF_BASE_PORT names is tried with
bind() on the node's HCCL address, /etc/hccn.conf is parsed, and the nodes connect over TCP to a
listener a pinned actor opens on the head's (and one peer's) HCCL address. Only the cluster's own
addresses are touched, every socket has a timeout, and the whole round is bounded.
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
# CANN 8.2.RC1+ docs: HCCL takes 32 ports from HCCL_IF_BASE_PORT (default 60000); older CANN took 16.
HCCL_PORTS = 32
HCCL_DEFAULT_BASE = 60000
HCCN_CONF = "/etc/hccn.conf"
CONNECT_TIMEOUT_S = 3.0


def hccl_address(env, interfaces, fallback):
    """The address HCCL binds on this node: HCCL_IF_IP, else the first IPv4 of the first interface
    HCCL_SOCKET_IFNAME names (a name or a prefix, `=` exact, `^` exclusions ignored), else fallback."""
    ip = (env.get("HCCL_IF_IP") or "").strip()
    if ip:
        return ip
    spec = (env.get("HCCL_SOCKET_IFNAME") or "").strip()
    if spec and not spec.startswith("^"):
        exact = spec.startswith("=")
        for want in spec.lstrip("=").split(","):
            for name in sorted(interfaces):
                if name == want or (not exact and name.startswith(want)):
                    v4 = [a for a in interfaces[name] if ":" not in a]
                    if v4:
                        return v4[0]
    return fallback


def free_ports(address, base, count):
    """Ports of base..base+count-1 that cannot be bound on address (errno text each), or an error."""
    import errno
    import socket

    busy = {}
    try:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        for port in range(base, base + count):
            sock = socket.socket(family, socket.SOCK_STREAM)
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind((address, port))
            except OSError as exc:
                if exc.errno == errno.EADDRNOTAVAIL:
                    return busy, f"{address} is not an address of this node ({exc.strerror})"
                busy[str(port)] = exc.strerror or str(exc)
            finally:
                sock.close()
    except (OSError, OverflowError) as exc:
        return busy, str(exc)
    return busy, None


def read_hccn_conf(path=HCCN_CONF):
    """/etc/hccn.conf as hccn_tool writes it: `address_N=IP`, `netmask_N=MASK` (and others) per device N."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)
    except FileNotFoundError:
        return {"present": False}
    except OSError as exc:
        return {"present": True, "error": exc.strerror or str(exc)}
    found = {"present": True, "address": {}, "netmask": {}}
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        name, _, dev = key.strip().rpartition("_")
        if sep and name in ("address", "netmask") and dev.isdigit():
            found[name][dev] = value.strip()
    return found


def node_ip():
    """The address Ray knows this node by (gethostbyname often gives 127.0.1.1)."""
    try:
        import ray

        return ray.util.get_node_ip_address()
    except Exception:
        import socket

        return socket.gethostbyname(socket.gethostname())


def in_container():
    if os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv"):
        return True
    try:
        with open("/proc/1/cgroup", encoding="utf-8", errors="replace") as fh:
            text = fh.read(65536)
    except OSError:
        return False
    return any(w in text for w in ("docker", "kubepods", "containerd", "libpod"))


def hccl_facts(env, interfaces, fallback):
    """What HCCL needs of this node's network: its address, the base-port range free, hccn.conf."""
    address = hccl_address(env, interfaces, fallback)
    raw = (env.get("HCCL_IF_BASE_PORT") or "").strip()
    out = {"address": address, "base_port": None, "ports": HCCL_PORTS, "busy": {}, "port_error": None,
           "hccn_conf": read_hccn_conf(os.environ.get("ASCENDRL_HCCN_CONF", HCCN_CONF)), "container": in_container()}
    try:
        base = int(raw) if raw else HCCL_DEFAULT_BASE
    except ValueError:
        out["port_error"] = f"HCCL_IF_BASE_PORT={raw} is not an integer"
        return out
    out["base_port"] = base
    if not 1024 <= base <= 65520:
        out["port_error"] = f"HCCL_IF_BASE_PORT={base} is outside [1024, 65520]"
        return out
    out["busy"], out["port_error"] = free_ports(address or "0.0.0.0", base, HCCL_PORTS)
    return out


LISTENER = """
import json, os, socket, sys, time
address, seconds, expect = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
try:
    sock = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((address, 0))
    sock.listen(64)
    sock.settimeout(0.5)
except OSError as exc:
    print(json.dumps({"address": address, "port": None, "error": exc.strerror or str(exc)}), flush=True)
    sys.exit(0)
print(json.dumps({"address": address, "port": sock.getsockname()[1], "error": None, "pid": os.getpid()}), flush=True)
until, seen = time.monotonic() + seconds, 0
while seen < expect and time.monotonic() < until:
    try:
        sock.accept()[0].close()
        seen += 1
    except OSError:
        pass
"""


def listen_task(fallback, seconds, expect):
    """Start a TCP listener on this node's HCCL address (an ephemeral port) and say where it listens.

    The listener is a child process that outlives this task and exits after `expect` connections
    or `seconds`: an actor or a generator task would be simpler, but under Ray 2.60's token auth a
    `ray.init(address=...)` driver's actors are torn down at once and generator items never arrive.
    """
    import socket
    import subprocess

    env = {k: v for k, v in os.environ.items() if k.startswith("HCCL_")}
    try:
        import psutil

        interfaces = {n: [a.address for a in addrs if a.family in (socket.AF_INET, socket.AF_INET6)] for n, addrs in psutil.net_if_addrs().items()}
    except Exception:
        interfaces = {}
    address = hccl_address(env, interfaces, fallback)
    proc = subprocess.Popen([sys.executable, "-c", LISTENER, address, str(seconds), str(expect)], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    line = proc.stdout.readline()  # the child prints at once; it is bounded by `seconds` itself
    try:
        return json.loads(line)
    except ValueError:
        proc.kill()
        return {"address": address, "port": None, "error": f"the listener exited {proc.wait()} without a port"}


def connect_task(targets, timeout):
    """From this node: a TCP connect to each (node_id, address, port), bounded by timeout each."""
    import socket

    out = []
    for nid, address, port in targets:
        t = time.monotonic()
        try:
            with socket.create_connection((address, port), timeout=timeout):
                out.append({"to": nid, "address": address, "port": port, "ok": True, "error": None, "ms": round((time.monotonic() - t) * 1000, 1)})
        except OSError as exc:
            out.append({"to": nid, "address": address, "port": port, "ok": False, "error": exc.strerror or str(exc) or type(exc).__name__})
    return out


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
    try:
        out["hccl"] = hccl_facts(env, interfaces, node_ip())
    except Exception as exc:
        out["hccl"] = {"error": f"{type(exc).__name__}: {exc}"}
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
    reach_round(ray, entries, NodeAffinitySchedulingStrategy, min(20.0, bound))
    print(MARK + json.dumps({"nodes": list(entries.values()), "driver_time": time.time()}))


def reach_round(ray, entries, affinity, bound):
    """Listeners on the head (the driver's node) and one peer; every other answering node connects
    to them. Each node entry gets `reach` (its connects) and, for a listener, `listen`."""
    alive = [nid for nid, e in entries.items() if e["result"] is not None]
    if len(alive) < 2:
        return
    here = ray.get_runtime_context().get_node_id()
    heads = sorted(alive, key=lambda nid: (nid != here, nid))[:2]
    remote_listen = ray.remote(num_cpus=0, max_retries=0)(listen_task)
    remote_connect = ray.remote(num_cpus=0, max_retries=0)(connect_task)
    deadline = time.monotonic() + bound
    targets = []
    for nid in heads:
        ref = remote_listen.options(scheduling_strategy=affinity(node_id=nid, soft=False)).remote(entries[nid]["address"], bound, len(alive) - 1)
        try:
            got = ray.get(ref, timeout=max(1.0, deadline - time.monotonic()))
        except Exception as exc:
            got = {"address": None, "port": None, "error": f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0][:200]}"}
        entries[nid]["listen"] = got
        if got.get("port"):
            targets.append((nid, got["address"], got["port"]))
    refs = {}
    for nid in alive:
        mine = [t for t in targets if t[0] != nid]
        if mine:
            pin = affinity(node_id=nid, soft=False)
            refs[remote_connect.options(scheduling_strategy=pin).remote(mine, CONNECT_TIMEOUT_S)] = nid
    for ref, nid in refs.items():
        try:
            entries[nid]["reach"] = ray.get(ref, timeout=max(1.0, deadline - time.monotonic()))
        except Exception as exc:
            entries[nid]["reach_error"] = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0][:200]}"


if __name__ == "__main__":
    try:
        main()
    except Exception:
        print(MARK + json.dumps({"driver_error": traceback.format_exc().strip().splitlines()[-1]}))
