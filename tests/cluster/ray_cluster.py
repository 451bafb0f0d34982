"""A real local Ray cluster for the tests, run in the interpreter that has ray.

argv[1]: JSON list of nodes, the first is the head: {"num_cpus", "resources", "env_vars"}.
Prints {"address", "nodes": [node ids]} on one line once every node is up, then reads commands
on stdin: "kill I" removes node I ungracefully (a node dying mid-check); end of input or
SIGTERM shuts the whole cluster down, so a failing test leaves nothing behind.
"""

import json
import signal
import sys

from ray.cluster_utils import Cluster


def main() -> None:
    specs = json.loads(sys.argv[1])
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, **specs[0]})
    # Loopback addresses of their own, so the driver attaches to the head's raylet, not to one a test kills.
    nodes = [cluster.head_node] + [cluster.add_node(num_cpus=1, node_ip_address=f"127.0.0.{i + 2}", **spec) for i, spec in enumerate(specs[1:])]
    cluster.wait_for_nodes()
    signal.signal(signal.SIGTERM, lambda *_: (cluster.shutdown(), sys.exit(0)))
    print(json.dumps({"address": cluster.address, "nodes": [n.node_id for n in nodes]}), flush=True)
    try:
        for line in sys.stdin:
            word, _, arg = line.strip().partition(" ")
            if word == "kill":
                cluster.remove_node(nodes[int(arg)], allow_graceful=False)
                print("killed", flush=True)
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    main()
