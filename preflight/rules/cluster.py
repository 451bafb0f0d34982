"""Cluster rules (ARL-K*): what must agree across the nodes of a multi-node verl run.

Each rule reads the per-node documents `check --cluster` gathered (:class:`Cluster`), never the
live host, and names the node that differs from the rest.
"""

from __future__ import annotations

import ipaddress
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..cluster_model import Cluster, Node
from ..engine import Rule, internal_error
from ..model import Area, Finding, Severity
from .env import HCCL_ENVREF, _ifname_matches

VERL_MULTINODE = "https://verl.readthedocs.io/en/latest/start/multinode.html"
RAY_NPU = "https://github.com/ray-project/ray/blob/master/python/ray/_private/accelerators/npu.py"
RAY_AFFINITY = "https://docs.ray.io/en/latest/ray-core/scheduling/index.html#nodeaffinityschedulingstrategy"
CLOCK_SKEW_S = 5.0
HCCL_BASE_PORT_DOC = "https://www.hiascend.com/document/detail/en/canncommercial/850/maintenref/envvar/envref_07_0074.html"
HCCN_TOOL_DOC = "https://www.hiascend.com/document/detail/en/mindcluster/730/toolbox/toolboxug/toolboxug_0142.html"
HCCN = "/etc/hccn.conf"
VLLM_ASCEND_MULTINODE = "https://docs.vllm.ai/projects/ascend/en/latest/tutorials/multi_node.html"


def odd_ones(values: dict[str, Any], nodes: Sequence[Node]) -> tuple[Any, list[Node]]:
    """The value most nodes have, and the nodes that have another (None counts as a value)."""
    common, _ = Counter(values.values()).most_common(1)[0]
    return common, [n for n in nodes if values[n.node_id] != common]


def _drift(label: str, values: dict[str, Any], nodes: Sequence[Node]) -> str | None:
    if len(set(values.values())) <= 1:
        return None
    common, odd = odd_ones(values, nodes)
    rest = "; ".join(f"{values[n.node_id] if values[n.node_id] is not None else 'missing'} on {n.name}" for n in odd)
    return f"{label} {common if common is not None else 'missing'} on {len(nodes) - len(odd)} node(s), {rest}"


class ClusterRule(Rule):
    """A rule over all nodes; `evaluate_cluster` replaces `evaluate`."""

    area = Area.STACK

    def evaluate_cluster(self, cluster: Cluster) -> Iterable[Finding] | Finding:
        raise NotImplementedError


class NodesAnswered(ClusterRule):
    id = "ARL-K001"
    title = "Every alive Ray node answered the check"
    severity = Severity.CRITICAL
    area = Area.INTERNAL
    what = "Runs one task pinned to each alive node (NodeAffinitySchedulingStrategy, soft=False) and waits a bounded time for its check."
    why = "A node that cannot run a task, dies, or lacks ascendrl is unchecked, and a node that cannot run a small task will not run verl's workers either."
    fix = "Look at the node's raylet (`ray status`, /tmp/ray/session_latest/logs/raylet.out on it); install ascendrl in its Python."
    sources = (RAY_AFFINITY,)

    def evaluate_cluster(self, cluster: Cluster) -> Iterable[Finding]:
        for node in cluster.nodes:
            if node.error == "not_installed":
                yield self.fail(
                    f"node {node.name}: ascendrl is not importable in its Python ({node.python or '?'})",
                    fix=f"On that node: {node.python or 'python3'} -m pip install ascendrl  (or the same `pip install -e` of this checkout)",
                    node_id=node.node_id, address=node.address)
            elif node.error:
                yield self.fail(f"node {node.name}: {node.error}", node_id=node.node_id, address=node.address)
        if all(n.error is None for n in cluster.nodes):
            yield self.passed(f"all {len(cluster.nodes)} node(s) answered")


class SameAscendStack(ClusterRule):
    id = "ARL-K002"
    title = "Same CANN, driver and firmware on every node"
    severity = Severity.CRITICAL
    what = "Compares the CANN toolkit, NPU driver and firmware versions each node's check read."
    why = "HCCL across nodes needs matching CANN and driver; a node on another version fails link setup or collectives after the model has loaded."
    fix = "Install the same CANN / HDK on the odd node (or run every node from the same container image)."
    sources = (VERL_MULTINODE, HCCL_ENVREF)
    KEYS = (("CANN", lambda n: n.fact("cann.toolkit.version")),
            ("driver", lambda n: (n.fact("hdk.driver") or {}).get("version")),
            ("firmware", lambda n: (n.fact("hdk.firmware") or {}).get("version")))

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        return _compare(self, cluster.answered, self.KEYS)


class SamePythonStack(ClusterRule):
    id = "ARL-K003"
    title = "Same torch, torch_npu, vllm, vllm-ascend, verl, transformers, triton-ascend on every node"
    severity = Severity.CRITICAL
    what = "Compares the package versions each node's Python has installed."
    why = "verl's workers on different nodes exchange weights and tensors; mismatched torch_npu/vllm-ascend builds fail at import, at HCCL init, or give different results."
    fix = "Install the same versions on the odd node (`pip freeze` of a good node as constraints), or use one container image everywhere."
    sources = (VERL_MULTINODE,)
    KEYS = tuple((name.replace("_", "-"), (lambda key: lambda n: n.fact(f"pkg.{key}"))(name))
                 for name in ("torch", "torch_npu", "vllm", "vllm_ascend", "verl", "transformers", "triton_ascend"))

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        return _compare(self, cluster.answered, self.KEYS)


def _compare(rule: Rule, nodes: Sequence[Node], keys: Sequence[tuple[str, Callable[[Node], Any]]]) -> Finding:
    if len(nodes) < 2:
        return rule.skip(f"{len(nodes)} node(s) answered: nothing to compare")
    drifts = [d for label, get in keys if (d := _drift(label, {n.node_id: get(n) for n in nodes}, nodes))]
    if drifts:
        return rule.fail("; ".join(drifts), drifts=drifts)
    return rule.passed(f"the same on all {len(nodes)} nodes")


def npu_count(node: Node) -> int | None:
    info = node.fact("npu_smi.info")
    return len(info.get("chips") or ()) if isinstance(info, dict) else None


class SameNpuCount(ClusterRule):
    id = "ARL-K004"
    title = "Every node has the same number of NPUs (and the recipe's n_gpus_per_node)"
    severity = Severity.CRITICAL
    area = Area.DEVICES
    what = "Counts the chips in each node's `npu-smi info`, and compares them with each other and with trainer.n_gpus_per_node of --recipe."
    why = "verl places n_gpus_per_node workers on each of nnodes nodes; a node with fewer NPUs leaves the placement group pending forever."
    fix = "Set trainer.n_gpus_per_node to the NPUs every node has, or fix the odd node's devices (ARL-D001)."
    sources = (VERL_MULTINODE,)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        nodes = cluster.answered
        if not nodes:
            return self.skip("no node answered")
        counts = {n.node_id: npu_count(n) for n in nodes}
        if all(c is None for c in counts.values()):
            return self.skip("no node's npu-smi table was read (see each node's ARL-D001)")
        problems = [d] if (d := _drift("NPUs:", counts, nodes)) else []
        want = cluster.n_gpus_per_node
        if want is not None:
            short = [f"{n.name} has {counts[n.node_id]}" for n in nodes if counts[n.node_id] != want]
            if short:
                problems.append(f"the recipe wants trainer.n_gpus_per_node={want}, but " + ", ".join(short))
        if problems:
            return self.fail("; ".join(problems), counts=counts)
        return self.passed(f"{next(iter(counts.values()))} NPU(s) on each of {len(nodes)} node(s)")


class RayNpuResource(ClusterRule):
    id = "ARL-K005"
    title = "Ray's NPU resource on each node equals what npu-smi sees"
    severity = Severity.ERROR
    area = Area.DEVICES
    what = "Compares each node's Ray `NPU` resource (ray.nodes()) with the chips in its `npu-smi info`."
    why = "Ray schedules verl's workers by its NPU resource; when it counts fewer (ASCEND_RT_VISIBLE_DEVICES at `ray start`, no driver in the raylet's env) placement waits forever, more and workers share chips."
    fix = "Restart the odd node's raylet with `ray start ... --resources='{\"NPU\": N}'` or with the right ASCEND_RT_VISIBLE_DEVICES."
    sources = (RAY_NPU,)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        nodes = [n for n in cluster.answered if npu_count(n) is not None]
        if not nodes:
            return self.skip("no node's npu-smi table was read")
        bad = [f"{n.name}: Ray NPU {n.resources.get('NPU', 0):g}, npu-smi {npu_count(n)}" for n in nodes
               if float(n.resources.get("NPU", 0)) != npu_count(n)]
        if bad:
            return self.fail("; ".join(bad), mismatched=bad)
        return self.passed(f"Ray's NPU resource matches npu-smi on {len(nodes)} node(s)")


class VisibleDevicesConsistent(ClusterRule):
    id = "ARL-K006"
    title = "ASCEND_RT_VISIBLE_DEVICES and RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES agree across nodes"
    severity = Severity.ERROR
    area = Area.ENV
    what = "Compares both variables in the environment of each node's Ray workers (the raylet's, which verl's workers inherit)."
    why = "Ray sets ASCEND_RT_VISIBLE_DEVICES per worker unless the NOSET variable is on; nodes that differ map ranks to devices differently and collide or leave chips idle."
    fix = "Start every raylet with the same settings (unset ASCEND_RT_VISIBLE_DEVICES before `ray start` unless you mean to restrict every node alike)."
    sources = (RAY_NPU,)
    NAMES = ("RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES")

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        nodes = [n for n in cluster.nodes if n.error in (None, "not_installed") or n.env]
        if len(nodes) < 2:
            return self.skip(f"{len(nodes)} node(s) reported their env: nothing to compare")
        drifts = [d for name in self.NAMES if (d := _drift(f"{name}=", {n.node_id: n.env.get(name) for n in nodes}, nodes))]
        if drifts:
            return self.warn("; ".join(drifts), drifts=drifts)
        return self.passed("the same on all nodes")


class HcclInterfaceOnEachNode(ClusterRule):
    id = "ARL-K007"
    title = "HCCL_IF_IP / HCCL_SOCKET_IFNAME name an interface on each node"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = "Matches each node's HCCL_IF_IP against its own addresses and HCCL_SOCKET_IFNAME against its own interfaces (psutil.net_if_addrs in the node's worker)."
    why = "HCCL binds its root socket to that NIC on every rank; an interface name that exists on the head but not on a worker fails link setup there only."
    fix = "Set HCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) per node to a NIC it has, or use a prefix every node matches."
    sources = (HCCL_ENVREF,)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        bad, checked = [], 0
        for node in cluster.nodes:
            ip, ifname = node.env.get("HCCL_IF_IP"), node.env.get("HCCL_SOCKET_IFNAME")
            if node.interfaces is None or (ip is None and ifname is None):
                continue
            checked += 1
            if ip is not None:
                addresses = {a.split("%")[0] for addrs in node.interfaces.values() for a in addrs}
                try:
                    ok = str(ipaddress.ip_address(ip.strip())) in addresses
                except ValueError:
                    ok = False
                if not ok:
                    bad.append(f"{node.name}: HCCL_IF_IP={ip} is not one of its addresses")
            if ifname is not None and not _ifname_matches(ifname, list(node.interfaces)):
                bad.append(f"{node.name}: HCCL_SOCKET_IFNAME={ifname} matches none of {', '.join(sorted(node.interfaces))}")
        if bad:
            return self.fail("; ".join(bad), bad=bad)
        if not checked:
            return self.passed("unset on every node: HCCL picks the first non-docker, non-lo NIC")
        return self.passed(f"found on all {checked} node(s) that set them")


class SameHcclTimeouts(ClusterRule):
    id = "ARL-K008"
    title = "HCCL timeouts are the same on every node"
    severity = Severity.WARNING
    area = Area.ENV
    what = "Compares HCCL_CONNECT_TIMEOUT and HCCL_EXEC_TIMEOUT in each node's worker environment."
    why = "The node with the shortest timeout gives up first and its HCCL timeout hides which node actually stalled."
    fix = "Export the same HCCL_CONNECT_TIMEOUT / HCCL_EXEC_TIMEOUT before `ray start` on every node."
    sources = (HCCL_ENVREF,)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        nodes = [n for n in cluster.nodes if n.env or n.check is not None]
        if len(nodes) < 2:
            return self.skip(f"{len(nodes)} node(s) reported their env: nothing to compare")
        names = ("HCCL_CONNECT_TIMEOUT", "HCCL_EXEC_TIMEOUT")
        drifts = [d for name in names if (d := _drift(f"{name}=", {n.node_id: n.env.get(name) for n in nodes}, nodes))]
        return self.warn("; ".join(drifts), drifts=drifts) if drifts else self.passed("the same on all nodes")


class ClocksInStep(ClusterRule):
    id = "ARL-K009"
    title = f"Node clocks agree within {CLOCK_SKEW_S:g} s"
    severity = Severity.WARNING
    area = Area.ENV
    what = "Compares each node's time.time() in a tiny pinned task with the driver's clock at the midpoint of its round trip."
    why = "Skewed clocks put log lines of different nodes out of order, so the node that failed first is misread; large skew also breaks TLS and token expiry."
    fix = "Run chrony or ntpd on every node (`chronyc tracking`)."
    sources = ("https://chrony-project.org/doc/4.5/chronyc.html",)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        timed = [n for n in cluster.nodes if n.clock]
        if not timed:
            return self.skip("no node's clock was read")
        off = [f"{n.name} is {n.clock['offset_s']:+.1f} s (round trip {n.clock['rtt_s']:.2f} s)" for n in timed
               if abs(n.clock["offset_s"]) - n.clock["rtt_s"] / 2 > CLOCK_SKEW_S]
        if off:
            return self.warn("; ".join(off))
        worst = max(abs(n.clock["offset_s"]) for n in timed)
        return self.passed(f"{len(timed)} node(s) within {worst:.2f} s of this machine")


class NpusFreeEverywhere(ClusterRule):
    id = "ARL-K010"
    title = "No NPU is held by another process on any node"
    severity = Severity.CRITICAL
    area = Area.DEVICES
    what = "Collects each node's own ARL-D003 verdict (npu-smi's process table and HBM in use)."
    why = "One node with a leftover vLLM worker makes that node's rollout fail with too little free HBM, and the others then time out in HCCL."
    fix = "On the named node: `ascendrl fix --unsafe --only kill-npu-holders`, or stop the PIDs and `ray stop --force` leftovers."
    sources = ("https://github.com/vllm-project/vllm-ascend/issues/4376",)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        held = [f"{n.name}: {f.get('detail')}" for n in cluster.answered if (f := n.finding("ARL-D003")) and f.get("status") == "fail"]
        if held:
            return self.fail("; ".join(held), held=held)
        return self.passed(f"no holder on {len(cluster.answered)} node(s)")


class RecipePathsEverywhere(ClusterRule):
    id = "ARL-K011"
    title = "The recipe's model and data paths exist on every node"
    severity = Severity.CRITICAL
    area = Area.RECIPE
    what = "Looks up actor_rollout_ref.model.path, data.train_files and data.val_files of --recipe in a task on each node."
    why = "verl's workers load the model and read the data on their own node; a path that exists only on the head fails there minutes into the start-up."
    fix = "Put the model and data on shared storage mounted at the same path on every node, or copy them to that path on each node."
    sources = (VERL_MULTINODE,)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        asked = [n for n in cluster.nodes if n.paths]
        if not asked:
            return self.skip("no --recipe paths were looked up")
        missing = [f"{path} not on {n.name}" for n in asked for path, ok in sorted(n.paths.items()) if not ok]
        if missing:
            return self.fail("; ".join(missing), missing=missing)
        return self.passed(f"{len(asked[0].paths)} path(s) on all {len(asked)} node(s)")


class HcclPortsFree(ClusterRule):
    id = "ARL-K012"
    title = "The port range of HCCL_IF_BASE_PORT is free on every node"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = ("Tries bind() on each of the 32 ports from HCCL_IF_BASE_PORT (default 60000) on the node's HCCL address "
            "(HCCL_IF_IP, else HCCL_SOCKET_IFNAME's address, else the Ray node address), in a task on that node.")
    why = ("HCCL takes that range on the host NIC to gather the cluster's ranks when a communicator is created; "
           "a port already held (another job, a leftover rank, Ray) fails the communicator's creation on that node.")
    fix = "Set HCCL_IF_BASE_PORT to a free range on every node and reserve it: sysctl -w net.ipv4.ip_local_reserved_ports=BASE-BASE+31."
    sources = (HCCL_BASE_PORT_DOC,)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        nodes = [n for n in cluster.nodes if n.hccl and "error" not in n.hccl]
        if not nodes:
            return self.skip("no node reported its HCCL port range")
        bad = []
        for n in nodes:
            h = n.hccl or {}
            if h.get("port_error"):
                bad.append(f"{n.name}: {h['port_error']}")
            elif h.get("busy"):
                ports = sorted(int(p) for p in h["busy"])
                bad.append(f"{n.name}: port(s) {', '.join(map(str, ports))} of {h['base_port']}-{h['base_port'] + h['ports'] - 1} "
                           f"on {h.get('address')} are in use ({h['busy'][str(ports[0])]})")
        if bad:
            return self.fail("; ".join(bad), bad=bad)
        ranges = sorted({f"{n.hccl['base_port']}-{n.hccl['base_port'] + n.hccl['ports'] - 1}" for n in nodes})  # type: ignore[index]
        return self.passed(f"{', '.join(ranges)} free on all {len(nodes)} node(s)")


def _is_910(node: Node) -> bool:
    """Atlas training (910, 910B = A2, 910_93 = A3) nodes talk across servers over the NPUs' own RoCE ports."""
    info = node.fact("npu_smi.info")
    chips = info.get("chips") or () if isinstance(info, dict) else ()
    return any("910" in str(c.get("name") or "") for c in chips if isinstance(c, dict))


class HccnConfPresent(ClusterRule):
    id = "ARL-K013"
    title = "/etc/hccn.conf gives every NPU an address, unique across nodes"
    severity = Severity.ERROR
    area = Area.DEVICES
    what = ("On nodes with 910-family NPUs (A2/A3 and earlier training cards) in a cluster of two or more: reads /etc/hccn.conf "
            "(`address_N=` / `netmask_N=` per device, as hccn_tool writes them) and compares the addresses across nodes.")
    why = ("Across servers HCCL runs over each NPU's RoCE port, addressed by what hccn_tool configured; a device without an address, "
           "or two nodes with the same device address, breaks link setup and shows up as an HCCL connect timeout.")
    fix = ("Configure each NPU with `hccn_tool -i N -ip -s address IP netmask MASK` (unique per node); in a container mount it: "
           "-v /etc/hccn.conf:/etc/hccn.conf.")
    sources = (HCCN_TOOL_DOC, VLLM_ASCEND_MULTINODE)

    def evaluate_cluster(self, cluster: Cluster) -> Iterable[Finding]:
        nodes = [n for n in cluster.answered if n.hccl and "hccn_conf" in n.hccl and _is_910(n)]
        if len(cluster.answered) < 2 or not nodes:
            yield self.skip("no multi-node cluster of 910-family NPUs: hccn.conf not needed")
            return
        problems, container, owners = [], [], {}
        for n in nodes:
            conf = n.hccl["hccn_conf"]  # type: ignore[index]
            if not conf.get("present"):
                if n.hccl.get("container"):  # type: ignore[union-attr]
                    container.append(n.name)
                else:
                    problems.append(f"{n.name}: {HCCN} is missing")
                continue
            if conf.get("error"):
                problems.append(f"{n.name}: {HCCN} cannot be read ({conf['error']})")
                continue
            addresses, masks = conf.get("address") or {}, conf.get("netmask") or {}
            want = npu_count(n) or 0
            lacking = [d for d in map(str, range(want)) if d not in addresses]
            if lacking:
                problems.append(f"{n.name}: no address_N for device(s) {', '.join(lacking)} in {HCCN}")
            for dev, ip in sorted(addresses.items()):
                try:
                    ipaddress.ip_address(ip)
                except ValueError:
                    problems.append(f"{n.name}: address_{dev}={ip} is not an IP address")
                    continue
                if dev not in masks:
                    problems.append(f"{n.name}: address_{dev} has no netmask_{dev}")
                owners.setdefault(ip, []).append(f"{n.name} device {dev}")
        problems += [f"{ip} is used by {' and '.join(who)}" for ip, who in sorted(owners.items()) if len(who) > 1]
        if problems:
            yield self.fail("; ".join(problems), problems=problems)
        if container:
            yield self.warn(f"{HCCN} is absent in the container on {', '.join(container)}: the NPU addresses could not be checked there",
                            fix="Mount it into the container: docker run ... -v /etc/hccn.conf:/etc/hccn.conf (as vllm-ascend's multi-node guide does)")
        if not problems and not container:
            yield self.passed(f"{HCCN} addresses present and unique on {len(nodes)} node(s)")


class NodesReachEachOther(ClusterRule):
    id = "ARL-K014"
    title = "Nodes reach the head (and a peer) over TCP on their HCCL address"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = ("Opens a TCP listener on the head's and one peer's HCCL address (an ephemeral port, from a pinned actor) and connects "
            "to it from a task on every other node, with a 3 s timeout per connect.")
    why = "HCCL's root rank gathers every rank over the host NIC; a node that cannot reach it (firewall, wrong NIC, another subnet) hangs until HCCL_CONNECT_TIMEOUT."
    fix = "Open the HCCL port range between the nodes, or set HCCL_IF_IP / HCCL_SOCKET_IFNAME to a NIC on a network every node shares."
    sources = (HCCL_ENVREF, HCCL_BASE_PORT_DOC)

    def evaluate_cluster(self, cluster: Cluster) -> Finding:
        names = {n.node_id: n.name for n in cluster.nodes}
        bad = [f"{n.name} cannot listen on {n.listen.get('address')}: {n.listen.get('error')}"
               for n in cluster.nodes if n.listen and n.listen.get("error")]
        bad += [f"{n.name}: the connect round failed ({n.reach_error})" for n in cluster.nodes if n.reach_error]
        tried = 0
        for n in cluster.nodes:
            for r in n.reach or ():
                tried += 1
                if not r.get("ok"):
                    bad.append(f"{n.name} cannot reach {names.get(r.get('to'), r.get('to'))} at {r.get('address')}:{r.get('port')} ({r.get('error')})")
        if bad:
            return self.fail("; ".join(bad), unreachable=bad)
        if not tried:
            return self.skip("no reachability round (fewer than two nodes answered)")
        return self.passed(f"{tried} connect(s) between nodes succeeded")


RULES: tuple[type[ClusterRule], ...] = (
    NodesAnswered, SameAscendStack, SamePythonStack, SameNpuCount, RayNpuResource,
    VisibleDevicesConsistent, HcclInterfaceOnEachNode, SameHcclTimeouts, ClocksInStep, NpusFreeEverywhere,
    RecipePathsEverywhere, HcclPortsFree, HccnConfPresent, NodesReachEachOther,
)


def run_cluster_rules(cluster: Cluster, rules: Sequence[type[ClusterRule]] = RULES) -> tuple[Finding, ...]:
    """Every cluster rule over the nodes; a crashed rule becomes an ARL-X001 finding."""
    findings: list[Finding] = []
    for cls in rules:
        rule = cls()
        try:
            produced = rule.evaluate_cluster(cluster)
            findings.extend([produced] if isinstance(produced, Finding) else produced)
        except Exception as exc:
            findings.append(internal_error(f"rule {rule.id}", exc))
    return tuple(findings)
