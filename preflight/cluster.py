"""`check --cluster`: run the check on every node of a Ray cluster and compare the nodes.

ascendrl never imports ray: cluster_driver.py runs as ``python -c`` in an interpreter that has
it, bounded by a timeout, and prints one JSON document; this module turns that into nodes and
runs the cluster rules (rules/cluster.py) over them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from .cluster_model import Cluster, Node
from .model import Finding, Status
from .rules.cluster import run_cluster_rules

MARK = "ascendrl-cluster-report "  # as cluster_driver.py prints it
CONNECT_SLACK_S = 60.0  # ray.init, listing nodes and the clock round on top of the per-node bound


class ClusterError(Exception):
    """The cluster could not be asked at all (no ray, no cluster, driver crashed): one line."""


@dataclasses.dataclass(frozen=True)
class ClusterReport:
    """Each node's own check plus the findings across nodes."""

    address: str | None
    nodes: tuple[Node, ...]
    findings: tuple[Finding, ...]

    @property
    def failed(self) -> bool:
        node_failed = any(f.get("status") == "fail" for n in self.nodes for f in (n.check or {}).get("findings") or ())
        return node_failed or any(f.status is Status.FAIL for f in self.findings)

    def counts(self) -> dict[str, int]:
        counts = {s.value: 0 for s in Status}
        for f in self.findings:
            counts[f.status.value] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "cluster": {"address": self.address, "nodes": len(self.nodes)},
            "nodes": [n.to_json() for n in self.nodes],
            "findings": [f.to_json() for f in self.findings],
            "summary": self.counts(),
        }


def gather(python: str, *, address: str | None, check_args: Sequence[str], bound: float, env: Mapping[str, str],
           paths: Sequence[str] = ()) -> dict[str, Any]:
    """Run the driver in ``python``; retry with RAY_AUTH_MODE=token, as Ray >= 2.5x heads enable token auth."""
    program = resources.files(__package__).joinpath("cluster_driver.py").read_text(encoding="utf-8")
    opts = json.dumps({"address": address, "bound": bound, "check_args": list(check_args), "paths": list(paths)})
    last = "no answer"
    for extra in _auth_attempts(env):
        try:
            proc = subprocess.run([python, "-c", program, opts], capture_output=True, text=True,
                                  timeout=bound + CONNECT_SLACK_S, env={**env, **extra}, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise ClusterError(f"the Ray driver in {python} did not finish within {bound + CONNECT_SLACK_S:g} s") from None
        except OSError as exc:
            raise ClusterError(f"cannot run {python}: {exc.strerror or exc}") from None
        doc = _report_line(proc.stdout)
        if doc is None:  # exit 0 without a report: the raylet the driver attached to went away
            err = proc.stderr.strip().splitlines()
            raise ClusterError(f"the Ray driver in {python} exited {proc.returncode}: {(err or ['no output'])[-1][:300]}")
        if "No module named 'ray'" in doc.get("driver_error", ""):
            raise ClusterError(f"{python} has no ray: give the interpreter of the training venv with --python")
        if "driver_error" in doc:
            raise ClusterError(f"the Ray driver failed: {doc['driver_error']}")
        if "connect_error" not in doc:
            return doc
        last = doc["connect_error"]
    tried = " (with and without RAY_AUTH_MODE=token)" if len(_auth_attempts(env)) > 1 else ""
    raise ClusterError(f"cannot connect to the Ray cluster at {address or 'auto'}{tried}: {last}")


def _auth_attempts(env: Mapping[str, str]) -> tuple[dict[str, str], ...]:
    """RAY_AUTH_MODE as the user set it; else token first when a token is at hand (a refused attempt
    costs Ray's ~20 s of connect retries), then the other way."""
    if env.get("RAY_AUTH_MODE"):
        return ({},)
    home = Path(env.get("HOME") or os.path.expanduser("~"))
    has_token = bool(env.get("RAY_AUTH_TOKEN") or env.get("RAY_AUTH_TOKEN_PATH")) or (home / ".ray" / "auth_token").is_file()
    token = {"RAY_AUTH_MODE": "token"}
    return (token, {}) if has_token else ({}, token)


def _report_line(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.splitlines()):
        if line.startswith(MARK):
            try:
                return json.loads(line[len(MARK):])
            except ValueError:
                return None
    return None


def check_cluster(python: str, *, address: str | None, check_args: Sequence[str], bound: float,
                  env: Mapping[str, str], n_gpus_per_node: int | None = None, paths: Sequence[str] = ()) -> ClusterReport:
    """Ask every alive node, then run the cluster rules over what came back."""
    doc = gather(python, address=address, check_args=check_args, bound=bound, env=env, paths=paths)
    return report_from(doc, address=address, n_gpus_per_node=n_gpus_per_node)


def report_from(doc: Mapping[str, Any], *, address: str | None = None, n_gpus_per_node: int | None = None) -> ClusterReport:
    """The report for a driver document (also what the golden tests feed from fixture JSON)."""
    nodes = tuple(sorted((Node.from_json(n) for n in doc.get("nodes") or ()), key=lambda n: n.node_id))
    cluster = Cluster(nodes=nodes, n_gpus_per_node=n_gpus_per_node)
    return ClusterReport(address=address, nodes=nodes, findings=run_cluster_rules(cluster))
