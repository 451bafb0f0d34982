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
from ascendrl import cache

cache.imported(__file__)  # own_source keys by the text this process runs

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

    Parsed from the YAML once, then read from the parsed-data cache (ascendrl/cache.py).
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


# HCCL's argument check on a collective's data type (EI0003, Invalid_Argument_Collective_Communication_Operator: "In
# [CheckDataType], value [bfloat16] for parameter [dataType] is invalid", the CANN error-code registry's template).
HCCL_DTYPE = lazy(r"In \[\w+\], value \[(\w+)\] for parameter \[dataType\] is invalid")
EI0003_PAGE = "https://www.hiascend.com/doc_center/source/zh/CANNCommunityEdition/81RC1beta1/maintenref/troubleshooting/atlaserrorcode_15_0240.html"
# torch_npu's own checks before HCCL is called: getHcclDataType finds no HCCL type for the tensor's torch type
# (HCCLUtils.cpp; ProcessGroupHCCL.cpp in the 1.x line: "Unsupported data type for HCCL process group"), and
# checkSupportedDataType refuses a type the collective does not take ("HCCL <function>: Unsupported data type
# at::kByte/at::kBool", the HCCL type's torch names from kHcclDataTypeToStringMap): the old line names the collectives
# "AllReduce & Reduce", current releases the calling function (__FUNCTION__: allreduce, reduce_scatter, ...).
TORCH_NPU_DTYPE = lazy(r"Unsupported data type for HCCL process group|HCCL [\w &]+: Unsupported data type (at::[\w:/]+)?")
TORCH_NPU_HCCL_UTILS = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/torch_npu/csrc/distributed/HCCLUtils.cpp"
TORCH_NPU_PG_HCCL = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/torch_npu/csrc/distributed/ProcessGroupHCCL.cpp"


class HcclDataType(Analyzer):
    """A collective HCCL refuses for its tensor's data type (EI0003 on parameter dataType): bfloat16 on a device whose
    HCCL has no bf16 (Atlas 300I / 310P), or a type no HCCL collective takes (bool, complex ...)."""

    id = "DRV-hccl-dtype"
    title = "HCCL refused a collective's data type"
    family = "hccl"
    stops_run = "every call of the collective with that tensor type is refused"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        m = next((m for t in (link.message, link.text, *link.detail) if (m := HCCL_DTYPE.search(t or ""))), None)
        if m is None:
            return self._torch_npu(link)
        dtype = m.group(1)
        if dtype.lower() in ("bfloat16", "bf16"):
            return Finding(
                "HCCL's collectives refuse bfloat16 on this device",
                f"HCCL reports (EI0003): {m.group(0)}. The collective communication library of this device has no bfloat16 "
                "data type (Atlas 300I / 310P cards, where the model must run in float16), so the first all-reduce of a "
                "bf16 model across cards (tensor parallel) fails.",
                ("Run the model in float16 on this device: vLLM --dtype float16 (verl actor_rollout_ref.rollout.dtype=float16), "
                 "the trainer's fp16 instead of bf16",
                 "Or run on a device whose HCCL takes bfloat16 (Atlas A2 / A3, 910B and later)"),
                evidence(link), (EI0003_PAGE,), key=f"hccl-dtype:{dtype}", family="dtype", kind="bf16-unsupported-on-device",
            )
        return Finding(
            f"HCCL refused the collective's data type {dtype}",
            f"HCCL reports (EI0003): {m.group(0)}. The tensor handed to the collective has a type HCCL does not carry for "
            "this operation on this device.",
            ("Cast the tensor to a type HCCL supports for the collective (float16 / float32 / int32 ...) before it, and back after",
             "Or upgrade CANN / torch_npu: newer releases map more torch types (bool, uint8, bfloat16) to HCCL types"),
            evidence(link), (EI0003_PAGE,), key=f"hccl-dtype:{dtype}", kind="hccl-dtype-unsupported",
        )

    @staticmethod
    def _torch_npu(link: Link) -> Finding | None:
        """torch_npu's ProcessGroupHCCL refused the tensor's type before HCCL saw it."""
        m = next((m for t in (link.message, link.text, *link.detail) if (m := TORCH_NPU_DTYPE.search(t or ""))), None)
        if m is None:
            return None
        dtype = m.group(1) or ""
        named = f" ({dtype})" if dtype else ""
        return Finding(
            f"torch_npu's HCCL process group refused the collective's tensor type{named}",
            f"torch_npu reports: {m.group(0)}. Its HCCL process group maps each torch type to an HCCL data type and checks "
            "that the collective takes it; the tensor handed to the collective has a type that has no HCCL counterpart in "
            "this torch_npu release (bool / uint8 / bfloat16 / float64 in the 1.x line, complex types in any) or that this "
            "collective does not carry (all_reduce / reduce of bool or uint8).",
            ("Cast the tensor before the collective to a type HCCL carries (int32 / int64 for flags and counts, float32 / "
             "float16 for values) and back after it",
             "Or upgrade torch_npu (with the CANN it pairs): newer releases map bool, uint8, bfloat16 and float64 to HCCL types"),
            evidence(link), (TORCH_NPU_HCCL_UTILS, TORCH_NPU_PG_HCCL), key=f"hccl-dtype:{dtype or 'torch_npu'}",
            kind="hccl-dtype-unsupported",
        )
