"""HCCL's own error lines: which stage of setting up the communicator failed, and what to check.

HCCL and its network layer HCCP log ``[ERROR] HCCL(pid,proc):time [file.cc:line] …`` lines before
(or instead of) the Python exception, and those lines say far more than the exception's "error code
is 7": a listen on a port that failed, an interface named by HCCL_SOCKET_IFNAME that does not exist,
a device NIC that is down, a link table of peers with ``no connect``, a peer whose heartbeat was
lost, a call trace ending in ``hcclRet -> N``. The class (port / interface / NIC / TLS / peer / link /
rank table / init) decides the fix; the rank, IP and port come from the same lines. The phrase tables
are data (``hccl_classes.yaml``) with the guide pages they come from.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from ..chain import Chain, Link
from ..codes import decode
from . import Analyzer, Facts, Finding, evidence, shipped_rows
from ...lazyre import lazy

HCCL_RET = lazy(r"hcclRet -> (\d{1,2})\b|errNo\[0x0*5000+([0-9a-f]{1,2})\]|ret\[(\d{1,2})\]\.?$", re.I)
PORT = lazy(r"port\[(\d+)\]|port (\d{4,5})\b")
IP = lazy(r"\bip\[([\d.]+)\]")
PEER = lazy(r"\|\s*([\d.]+)\((\d+)\)\s*\|\s*([\d.]+)\((\d+)\)\s*\|\s*(\w+)\s*\|\s*([\w ]+?)\s*\|")
LOST = lazy(r"Cluster Exception Location\[IP/ID\]:\[([^\]]+)\]|rank \[([^\]]+)\] status\[LOST\]")
HCCL_BLOCK = lazy(r"\[ERROR\]\s?HCC[LP]\(")
IFNAME = lazy(r"set ifname to \[([^\]]*)\]")


@functools.cache
def classes() -> tuple[dict[str, Any], ...]:
    """The HCCL failure classes, in the order they are tried (specific first), with compiled phrases.

    Parsed from the YAML once, then read from the JSON cache (ascendrl/cache.py).
    """
    rows = shipped_rows(__file__, __package__, "hccl_classes.yaml", "classes", frozenset(("kind", "words")))
    return tuple({**row, "words": re.compile(row["words"], re.I)} for row in rows)


def _hccl_text(link: Link) -> str:
    return "\n".join([link.message, *link.detail])


class HcclLog(Analyzer):
    id = "DRV-hccl"
    title = "HCCL's own error lines name the stage that failed"
    family = "hccl"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind != "cann" or not (link.type in ("HCCL", "HCCP") or HCCL_BLOCK.search(_hccl_text(link))):
            return None
        if "hccl" in link.families:
            return None  # a catalog entry of the family already names this block
        text = _hccl_text(link)
        row = next((r for r in classes() if r["words"].search(text)), None)
        if row is None:
            return None
        specifics = self._specifics(text)
        cause = f"HCCL reports: {link.message[:160]}. {row['cause']}"
        if specifics:
            cause += " From the log: " + "; ".join(specifics) + "."
        fix = tuple(step.replace("<PORT>", self._port(text) or "<port>") for step in row["fix"])
        return Finding(
            row["title"], cause, fix, evidence(link, 8), tuple(row["sources"]),
            key=f"hccl:{row['kind']}", family="hccl", kind=row["kind"], weak=bool(row.get("weak")),
            notes=(f"{self.id}: {row['title']}", *specifics[:3]),
        )

    @staticmethod
    def _port(text: str) -> str:
        m = PORT.search(text)
        return (m.group(1) or m.group(2)) if m else ""

    def _specifics(self, text: str) -> list[str]:
        out = []
        if (port := self._port(text)) and (ip := IP.search(text)):
            out.append(f"listen on {ip.group(1)} port {port}")
        elif port:
            out.append(f"port {port}")
        if m := IFNAME.search(text):
            out.append(f"HCCL_SOCKET_IFNAME={m.group(1)}")
        peers = [f"{m.group(3)} (rank {m.group(4)}) -> {m.group(1)} (rank {m.group(2)}): {m.group(6)}" for m in PEER.finditer(text)]
        out.extend(peers[:2])
        if m := LOST.search(text):
            out.append(f"peer lost: {m.group(1) or m.group(2)}")
        for m in HCCL_RET.finditer(text):
            raw = m.group(1) or m.group(3)
            code = raw if raw else str(int(m.group(2), 16))
            info = decode(f"hccl:{code}")
            if info is not None:
                out.append(f"HcclResult {info.summary()}")
                break
        return out
