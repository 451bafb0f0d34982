"""A real multi-node failure, run in the interpreter that has ray: one actor per node, pinned; the
actor on node 1 raises first and exits, the others see it die (ActorDiedError) and exit too.

argv: ADDRESS. Prints RESULT {"session_logs", "pids": {node_id: [pid, ...]}, "failing_node"} on a line (Ray also writes to stdout), so the
test can gather each node's worker logs into a folder of its own, as a user copies them from
each machine.
"""

import json
import logging
import os
import sys
import time

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

FORMAT = "%(asctime)s\t%(levelname)s %(filename)s:%(lineno)d -- %(message)s"  # Ray's own log format


@ray.remote(num_cpus=0, max_restarts=0)
class Rank:
    def __init__(self, rank):
        logging.basicConfig(format=FORMAT, level=logging.INFO)
        self.rank = rank

    def where(self):
        return ray.get_runtime_context().get_node_id(), os.getpid()

    def ping(self):
        return self.rank

    def run(self, peer):
        logging.info("rank %d started", self.rank)
        if self.rank == 1:
            time.sleep(1.0)
            try:
                raise RuntimeError(f"rank {self.rank}: the reward function failed on this node")
            except RuntimeError:
                logging.exception("rank %d failed", self.rank)
                sys.stderr.flush()
                os._exit(1)
        while True:  # a healthy rank waiting on its peer, as a collective would
            try:
                ray.get(peer.ping.remote())
            except Exception:
                logging.exception("rank %d lost its peer", self.rank)
                sys.stderr.flush()
                os._exit(1)
            time.sleep(0.2)


def main():
    logging.basicConfig(format=FORMAT, level=logging.INFO)
    ray.init(address=sys.argv[1], log_to_driver=False, logging_level="ERROR")
    nodes = sorted((n for n in ray.nodes() if n["Alive"]), key=lambda n: n["NodeManagerAddress"])
    ranks = [Rank.options(scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False)).remote(i) for i, n in enumerate(nodes)]
    placed = ray.get([r.where.remote() for r in ranks])
    failing = ranks[1]
    done = [r.run.remote(failing if r is not failing else None) for r in ranks]
    for ref in done:
        try:
            ray.get(ref, timeout=60)
        except Exception as exc:
            logging.error("a rank failed: %s", type(exc).__name__)
    time.sleep(1.0)  # let the workers' log files be flushed
    pids = {}
    for node_id, pid in placed:
        pids.setdefault(node_id, []).append(pid)
    logs = os.path.join(ray._private.worker._global_node.get_session_dir_path(), "logs")
    print("RESULT " + json.dumps({"session_logs": logs, "pids": pids, "failing_node": placed[1][0]}))


if __name__ == "__main__":
    main()
