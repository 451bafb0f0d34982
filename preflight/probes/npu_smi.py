"""``npu-smi info``: chips, health, HBM, and which processes hold which NPU.

Format: the box table documented in the npu-smi reference (hiascend npusmi_007) and seen in
pasted output on Atlas 800T A2 (e.g. github.com/Project-HAMi/HAMi-WebUI/issues/47, 910B4-1,
driver 25.2.0) and A3 (vllm-project/vllm-ascend#2534, "Chip Phy-ID", two chips per NPU).
Each NPU has two rows; the process table follows with one row per process or
"No running processes found in NPU <n>".
"""

from __future__ import annotations

import dataclasses
import os
import re

from ..host import Host, read_regular
from ..model import Fact, missing

SEARCH_DIRS = ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin")
HEALTH_WORDS = ("OK", "Warning", "Alarm", "Critical", "UNKNOWN", "Unknown")


@dataclasses.dataclass(frozen=True)
class NpuChip:
    npu: int
    chip: int
    name: str
    health: str
    bus_id: str
    hbm_used_mb: int | None
    hbm_total_mb: int | None
    aicore_pct: float | None
    phy_id: int | None = None


@dataclasses.dataclass(frozen=True)
class NpuProcess:
    npu: int
    chip: int
    pid: int
    name: str
    memory_mb: int


@dataclasses.dataclass(frozen=True)
class NpuSmiInfo:
    version: str | None
    chips: tuple[NpuChip, ...]
    processes: tuple[NpuProcess, ...]


class NpuSmiFormatError(ValueError):
    """The text is not the documented ``npu-smi info`` table."""


_ROW1 = re.compile(r"^(\d+)\s+(\S.*?)$")
_ROW2 = re.compile(r"^(\d+)(?:\s+(\d+))?$")
_PAIR = re.compile(r"(\d+)\s*/\s*(\d+)")
_VERSION = re.compile(r"Version:\s*(\S+)")
_NO_PROC = re.compile(r"No running processes found in NPU\s+(\d+)", re.I)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def parse_npu_smi_info(text: str) -> NpuSmiInfo:
    """Parse ``npu-smi info``; raises NpuSmiFormatError when it is not that table."""
    version_match = _VERSION.search(text)
    chips: list[NpuChip] = []
    processes: list[NpuProcess] = []
    pending: tuple[int, str, str] | None = None  # (npu, name, health) from a first row
    in_processes = False
    saw_header = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line.startswith("|"):
            continue
        cells = _cells(line)
        joined = " ".join(cells)
        if "Process id" in joined and "Process name" in joined:
            in_processes, pending = True, None
            continue
        if "Health" in joined and "Name" in joined:
            saw_header = True
            continue
        if in_processes:
            if _NO_PROC.search(joined):
                continue
            if len(cells) >= 4:
                ids = cells[0].split()
                if len(ids) >= 1 and all(i.isdigit() for i in ids) and cells[1].isdigit():
                    memory = re.match(r"\d+", cells[3])
                    processes.append(
                        NpuProcess(
                            npu=int(ids[0]),
                            chip=int(ids[1]) if len(ids) > 1 else 0,
                            pid=int(cells[1]),
                            name=cells[2],
                            memory_mb=int(memory.group()) if memory else 0,
                        )
                    )
            continue
        if len(cells) < 3:
            continue
        first = _ROW1.match(cells[0])
        if first and cells[1] in HEALTH_WORDS:
            pending = (int(first.group(1)), first.group(2).strip(), cells[1])
            continue
        second = _ROW2.match(cells[0])
        if pending and second and re.match(r"^[0-9A-Fa-fx]{4,8}:[0-9A-Fa-fx]{2}:", cells[1]):
            pairs = _PAIR.findall(cells[2])
            hbm = pairs[1] if len(pairs) >= 2 else None
            aicore = re.match(r"[\d.]+", cells[2])
            chips.append(
                NpuChip(
                    npu=pending[0],
                    chip=int(second.group(1)),
                    name=pending[1],
                    health=pending[2],
                    bus_id=cells[1],
                    hbm_used_mb=int(hbm[0]) if hbm else None,
                    hbm_total_mb=int(hbm[1]) if hbm else None,
                    aicore_pct=float(aicore.group()) if aicore else None,
                    phy_id=int(second.group(2)) if second.group(2) else None,
                )
            )
            pending = None
    if not saw_header or not chips:
        head = " / ".join(line.strip() for line in text.strip().splitlines()[:2])[:160]
        raise NpuSmiFormatError(
            f"not the documented `npu-smi info` table (no NPU rows found); output starts: {head!r}"
        )
    return NpuSmiInfo(version_match.group(1) if version_match else None, tuple(chips), tuple(processes))


def find_npu_smi(host: Host) -> str | None:
    if host.npu_smi:
        return host.npu_smi
    return host.which("npu-smi", SEARCH_DIRS)


def probe_npu_smi(host: Host) -> dict[str, Fact]:
    exe = find_npu_smi(host)
    if exe is not None and not host.npu_smi and not host.live:
        # Under --root the image's files are data, never programs: running its npu-smi here would
        # execute whatever the image holds, on this machine. Only an npu-smi named with --npu-smi runs.
        reason = f"found {exe} in the image but did not run it (--root never executes the image's files; pass --npu-smi to run one)"
        return {"npu_smi.path": Fact(exe, "PATH search under --root"), "npu_smi.info": missing("npu-smi info", reason)}
    if exe is None:
        reason = "npu-smi not found on PATH or in " + ", ".join(SEARCH_DIRS)
        return {"npu_smi.path": missing("PATH search", reason), "npu_smi.info": missing("npu-smi info", reason)}
    facts = {"npu_smi.path": Fact(exe, "--npu-smi" if host.npu_smi else "PATH search")}
    if os.path.isfile(exe) and not os.access(exe, os.X_OK):
        # A captured `npu-smi info` output saved to a file (e.g. from a bug report).
        source = f"captured output {exe}"
        try:
            text = read_regular(exe).decode("utf-8", "replace")
        except OSError as exc:
            facts["npu_smi.info"] = missing(source, f"unreadable: {exc}")
            return facts
    else:
        source = f"{exe} info"
        result = host.run([exe, "info"])
        if result.rc != 0:
            facts["npu_smi.info"] = missing(source, result.describe())
            return facts
        text = result.stdout
    try:
        facts["npu_smi.info"] = Fact(parse_npu_smi_info(text), source)
    except NpuSmiFormatError as exc:
        facts["npu_smi.info"] = missing(source, str(exc))
    return facts
