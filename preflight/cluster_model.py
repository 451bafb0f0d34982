"""What `check --cluster` knows about each node: the JSON one node task sent back, typed.

Cluster rules read only these objects, so they are pure functions over per-node JSON and are
tested from fixture node documents without Ray.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any


@dataclasses.dataclass(frozen=True)
class Node:
    """One alive Ray node: where it is, what it reported, or why it reported nothing."""

    node_id: str
    address: str
    resources: Mapping[str, float] = dataclasses.field(default_factory=dict)
    hostname: str = ""
    python: str = ""
    env: Mapping[str, str] = dataclasses.field(default_factory=dict)
    interfaces: Mapping[str, Sequence[str]] | None = None
    clock: Mapping[str, float] | None = None
    paths: Mapping[str, bool] = dataclasses.field(default_factory=dict)  # recipe path -> exists on this node
    check: Mapping[str, Any] | None = None  # the node's own `check --json` document
    hccl: Mapping[str, Any] | None = None  # cluster_driver.hccl_facts: address, base-port range, hccn.conf
    listen: Mapping[str, Any] | None = None  # the reach round's listener on this node, if it had one
    reach: Sequence[Mapping[str, Any]] | None = None  # this node's TCP connects to the listeners
    reach_error: str | None = None
    error: str | None = None  # not_installed | timeout: … | died: … | check_failed: … | check_timeout: …

    @property
    def name(self) -> str:
        """How findings name a node: every local node has the same hostname, so the id and address."""
        return f"{self.node_id[:12]} ({self.address})"

    def fact(self, key: str) -> Any:
        """A fact value from the node's check, None when absent or unreadable."""
        fact = ((self.check or {}).get("facts") or {}).get(key) or {}
        return fact.get("value")

    def finding(self, rule_id: str) -> Mapping[str, Any] | None:
        for f in (self.check or {}).get("findings") or ():
            if f.get("id") == rule_id:
                return f
        return None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Node:
        """From the driver's per-node entry (or a test fixture of the same shape)."""
        result = data.get("result") or {}
        return cls(
            node_id=str(data.get("node_id") or "?"),
            address=str(data.get("address") or "?"),
            resources=dict(data.get("resources") or {}),
            hostname=str(result.get("hostname") or ""),
            python=str(result.get("python") or ""),
            env=dict(result.get("env") or {}),
            interfaces=result.get("interfaces"),
            clock=data.get("clock"),
            paths=dict(result.get("paths") or {}),
            check=result.get("check"),
            hccl=result.get("hccl"),
            listen=data.get("listen"),
            reach=data.get("reach"),
            reach_error=data.get("reach_error"),
            error=data.get("error") or result.get("error"),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "node_id": self.node_id, "address": self.address, "hostname": self.hostname, "python": self.python,
            "resources": dict(self.resources), "clock": dict(self.clock) if self.clock else None,
            "paths": dict(self.paths), "error": self.error, "check": self.check,
            "hccl": self.hccl, "listen": self.listen, "reach": self.reach, "reach_error": self.reach_error,
        }


@dataclasses.dataclass(frozen=True)
class Cluster:
    """All alive nodes, plus what the whole run expects of them (from --recipe)."""

    nodes: tuple[Node, ...]
    n_gpus_per_node: int | None = None

    @property
    def answered(self) -> tuple[Node, ...]:
        return tuple(n for n in self.nodes if n.check is not None)
