"""Ranks that never met: torch.distributed's store or rendezvous timed out before every rank joined.

The TCPStore on MASTER_ADDR:MASTER_PORT is where all ranks meet before HCCL is set up. Its server
side says how many joined ("Timed out after 1801 seconds waiting for clients. 1/3 clients joined."),
its client side that it could not reach the server ("The client socket has timed out after …ms while
trying to connect to (host, port)", older: "connect() timed out", "Socket Timeout"), and the elastic
agent raises RendezvousTimeoutError; c10d's C++ side logs the client timeout as its own
``[E… socket.cpp:N] [c10d] …`` line, often with no Python exception near it. Releases word it differently; the class is one: some rank did
not start, died early, or cannot reach the master's address and port.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
from ...lazyre import lazy

JOINED = lazy(r"Timed out after (\d+) seconds waiting for clients\. (\d+)/(\d+) clients joined")
CLIENT = lazy(
    r"client socket has timed out after \d+\s*m?s while trying to connect to \(?([^,)\s]+),? ?(\d+)?"
    r"|connect\(\) timed out\. Original timeout was|\bSocket Timeout\b|RendezvousTimeoutError|Timed out waiting for \d+ ?ms? for (?:the )?store"
    r"|The client socket cannot be initialized to connect to|store->get\('[^']*'\) got error: (?:Socket Timeout|wait timeout)"
    # k50hccl: c10d socket.cpp's connect failures raised as DistNetworkError: after its retries "The client socket has
    # failed to connect to any network address of (host, port)." (2.x), and a raised "... failed to connect to
    # [host]:port (errno: N - ...)" with a network errno (timed out, refused, no route, unreachable, reset); the
    # localhost IPv6 warnings (errno 97 / 99) a healthy run prints are not raised and not read.
    r"|client socket has failed to connect to any network address of \(([^,)\s]+), ?(\d+)"
    r"|client socket has failed to connect to \[?([^\]\s]+?)\]?:(\d+) \(errno: (?:101|104|110|111|113)\b"
    # k52dist: torchrun's c10d rendezvous backend (c10d_rendezvous_backend.py _create_tcp_store / _call_store) re-raising
    # the store client's failure as RendezvousConnectionError when the inner exception was cut from the paste
    r"|The connection to the C10d store has failed\. See inner exception",
    re.I,
)
# TCPStore's own wait for keys the other ranks set ("wait timeout after {}ms, keys: {}", DistStoreError from
# TCPStore::wait / doWait, torch/csrc/distributed/c10d/TCPStore.cpp): this rank reached the store, a peer never came.
# k51hccl: torch_npu's parallel TCP store (ParallelTcpStore.cpp, rendezvous backend "parallel" / torch_npu_run /
# TORCH_NPU_USE_PARALLEL_TCPSTORE=True) does a get as wait + get and raises "get key K failed or timeout." (through the
# agent's proxy "proxy sync wait msgK failed or timeout.", no space before the key).
STORE_WAIT = lazy(r"\bwait timeout after \d+ ?ms, keys: (\S+)"
                  r"|\b(?:get key |proxy sync (?:wait|get) msg ?)(\S+) failed or timeout\.")
# init_process_group's store-based barrier (torch/distributed/distributed_c10d.py _store_based_barrier): every rank
# adds itself to a counter key and waits until world_size have; 1.x said "rank: N" and "worker_count=", 2.x "rank N"
# and "num_workers_joined=" (2.5+ append " error=..."). k48ray.
BARRIER = lazy(r"Timed out initializing process group in store based barrier on rank:? ?(\d+), for key: \S+ "
               r"\(world_size=(\d+), (?:num_workers_joined|worker_count)=(\d+)")
TCPSTORE = "https://github.com/pytorch/pytorch/blob/b874478480be06eab07db7ecd307883fb286fb8a/torch/csrc/distributed/c10d/TCPStore.cpp"
NPU_STORE = "https://github.com/Ascend/pytorch/blob/v7.3.1-pytorch2.7.1/torch_npu/csrc/distributed/ParallelTcpStore.cpp"
TORCH_DIST = "https://docs.pytorch.org/docs/stable/distributed.html#environment-variable-initialization"
C10D_PY = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/distributed/distributed_c10d.py"


class Rendezvous(Analyzer):
    id = "DRV-rendezvous"
    title = "Distributed ranks never all joined the rendezvous"
    family = "hccl"
    stops_run = "the ranks never met: nothing runs until every rank is restarted"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) and not (link.kind == "cann" and link.type == "c10d"):
            return None
        text = f"{link.type}: {link.message}"
        joined = JOINED.search(text)
        barrier = None if joined else BARRIER.search(text)
        if barrier:
            rank, want, came = barrier.groups()
            cause = (f"init_process_group's store barrier on rank {rank} saw only {came} of {want} ranks join before its timeout: "
                     "the missing ranks never started, died before init_process_group, or were launched with another world size.")
            return Finding(
                "Ranks did not all join the distributed rendezvous", f"{link.short_type}: {link.message[:200]}. {cause}",
                ("Read the log of the rank that did not join (or died first) — its own error is the cause",
                 "Make sure every node launches the same world size (nnodes x nproc_per_node) and starts within the timeout",
                 "If some ranks are legitimately slow to start (large imports, model download on one node), raise the "
                 "init_process_group timeout"),
                evidence(link), (TORCH_DIST, C10D_PY), key=f"barrier:{want}", family="hccl", kind="rendezvous-socket-timeout",
                notes=(f"{self.id}: Ranks did not all join the distributed rendezvous", f"{came} of {want} ranks joined the store barrier"),
            )
        waited = None if joined else STORE_WAIT.search(text)
        client = None if joined or waited else CLIENT.search(text)
        if joined is None and client is None and waited is None:
            return None
        if waited:
            wkey = (waited.group(1) or waited.group(2)).rstrip(',')
            cause = (f"This rank reached the rendezvous store but waited in vain for the key {wkey}, which "
                     "the other ranks write when they get there: a rank never reached this step (it died, hangs, or was started "
                     "with another world size or process-group layout).")
            key, specific = "store-wait", f"this rank waited on the store for {wkey}"
        elif joined:
            seconds, came, want = joined.groups()
            cause = (f"The rendezvous server (the TCPStore on MASTER_ADDR:MASTER_PORT) waited {seconds} s and only {came} of {want} "
                     "ranks connected: the others never started, died before init_process_group, or cannot reach the master.")
            key, specific = f"joined:{want}", f"{came} of {want} ranks joined in {seconds} s"
        else:
            host = client.group(1) or client.group(3) or client.group(5)
            port = client.group(2) or client.group(4) or client.group(6)
            where = f" ({host}:{port})" if host and port else ""
            cause = (f"This rank could not reach the rendezvous server{where} in time: the master rank has not started or "
                     "died, MASTER_ADDR/MASTER_PORT point elsewhere, or a firewall/NIC choice blocks the connection.")
            key, specific = f"client:{where}", f"this rank could not reach the rendezvous server{where}"
        return Finding(
            "Ranks did not all join the distributed rendezvous", f"{link.short_type}: {link.message[:200]}. {cause}",
            ("Read the log of the rank that did not join (or died first) — its own error is the cause",
             "Check MASTER_ADDR / MASTER_PORT are the same on every node and reachable (nc -zv $MASTER_ADDR $MASTER_PORT); "
             "on multi-NIC hosts pin the interface (GLOO_SOCKET_IFNAME / HCCL_SOCKET_IFNAME)",
             "Make sure every node launches the same world size (nnodes x nproc_per_node) and starts within the timeout"),
            evidence(link), (TORCH_DIST,) + (((NPU_STORE if waited.group(2) else TCPSTORE),) if waited else ()), key=key, family="hccl", kind="rendezvous-socket-timeout",
            notes=(f"{self.id}: Ranks did not all join the distributed rendezvous", specific),
        )
