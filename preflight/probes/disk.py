"""Free space where a verl run writes, judged the way each writer judges it; /dev/shm; RAM."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from ..host import Host
from ..model import Fact, missing

GIB = 1 << 30


@dataclasses.dataclass(frozen=True)
class DiskUsage:
    path: str  # the directory the run will use (host path)
    measured_at: str  # nearest existing ancestor that was measured
    capacity_bytes: int
    available_bytes: int
    device: int
    writable: bool
    missing: str | None = None  # the first folder of ``path`` that does not exist yet (host path), if any

    @property
    def ray_fullness(self) -> float:
        """Ray's file_system_monitor: 1 - available/capacity (not df's Use%)."""
        return 1.0 - self.available_bytes / self.capacity_bytes if self.capacity_bytes else 1.0


def ray_temp_root(host: Host) -> tuple[str, str]:
    """Ray's temp root and the variable that decided it.

    Ray's get_user_temp_dir: RAY_TMPDIR, else TMPDIR on Linux, else /tmp; sessions live
    under <root>/ray (ray/_private/utils.py).
    """
    for var in ("RAY_TMPDIR", "TMPDIR"):
        value = host.getenv(var)
        if value:
            return value, var
    return "/tmp", "default"


def hf_home(host: Host) -> str:
    if host.getenv("HF_HOME"):
        return str(host.getenv("HF_HOME"))
    xdg = host.getenv("XDG_CACHE_HOME") or f"{host.home()}/.cache"
    return f"{xdg}/huggingface"


def run_dirs(host: Host) -> dict[str, tuple[str, str]]:
    """Directories a run writes, keyed by purpose, with what decided each."""
    ray_root, ray_var = ray_temp_root(host)
    dirs = {
        "ray_tmp": (f"{ray_root.rstrip('/')}/ray", ray_var),
        "tmpdir": (host.getenv("TMPDIR") or "/tmp", "TMPDIR" if host.getenv("TMPDIR") else "default"),
        "hf_datasets_cache": (
            host.getenv("HF_DATASETS_CACHE") or f"{hf_home(host)}/datasets",
            "HF_DATASETS_CACHE" if host.getenv("HF_DATASETS_CACHE") else "HF_HOME default",
        ),
        "hf_hub_cache": (
            host.getenv("HF_HUB_CACHE") or host.getenv("HUGGINGFACE_HUB_CACHE") or f"{hf_home(host)}/hub",
            "HF_HUB_CACHE" if host.getenv("HF_HUB_CACHE") else "HF_HOME default",
        ),
    }
    if host.checkpoint_dir:
        dirs["checkpoint"] = (host.checkpoint_dir, "--checkpoint-dir")
    return dirs


def measure(host: Host, path: str) -> DiskUsage:
    """statvfs of the path, or of its nearest existing ancestor (the run will create it).

    ``missing`` names the first folder that does not exist, so rules can tell "Ray will
    create its ``ray`` folder" from "TMPDIR itself points nowhere".
    """
    probe = host.path(path)
    host_path = Path("/", path) if not host.live else Path(os.path.abspath(os.path.expanduser(path)))
    missing = None
    while not probe.exists() and probe != probe.parent:
        missing = str(host_path)
        probe, host_path = probe.parent, host_path.parent
    st = os.statvfs(probe)
    writable = os.access(probe, os.W_OK) and not (st.f_flag & os.ST_RDONLY)
    return DiskUsage(
        path=path,
        measured_at=str(probe),
        capacity_bytes=st.f_blocks * st.f_frsize,
        available_bytes=st.f_bavail * st.f_frsize,
        device=os.stat(probe).st_dev,
        writable=writable,
        missing=missing,
    )


def probe_disk(host: Host) -> dict[str, Fact]:
    facts: dict[str, Fact] = {}
    for purpose, (path, decided_by) in run_dirs(host).items():
        source = f"statvfs({path}) [{decided_by}]"
        try:
            facts[f"disk.{purpose}"] = Fact(measure(host, path), source)
        except OSError as exc:
            facts[f"disk.{purpose}"] = missing(source, f"cannot measure: {exc}")
    threshold = host.getenv("RAY_local_fs_capacity_threshold")
    try:
        value = float(threshold) if threshold else 0.95
        facts["ray.fs_capacity_threshold"] = Fact(
            value, "env RAY_local_fs_capacity_threshold" if threshold else "Ray default (0.95)"
        )
    except ValueError:
        facts["ray.fs_capacity_threshold"] = missing(
            "env RAY_local_fs_capacity_threshold", f"not a number: {threshold!r}"
        )
    shm = host.path("/dev/shm")
    try:
        st = os.statvfs(shm)
        facts["mem.shm_bytes"] = Fact(st.f_blocks * st.f_frsize, "statvfs(/dev/shm)")
    except OSError as exc:
        facts["mem.shm_bytes"] = missing("statvfs(/dev/shm)", f"cannot measure: {exc}")
    if host.live:
        facts["mem.ram_bytes"] = Fact(*_ram_total())
    else:
        facts["mem.ram_bytes"] = missing("/proc/meminfo", "host RAM is only read on the live host (--root given)")
    return facts


def _ram_total() -> tuple[int, str]:
    """Host RAM and where it was read: MemTotal of /proc/meminfo (what psutil.virtual_memory().total reads on Linux),
    without importing psutil."""
    try:
        with open("/proc/meminfo", "rb") as meminfo:
            for line in meminfo:
                fields = line.split()
                if fields and fields[0] == b"MemTotal:":
                    return int(fields[1]) * 1024, "/proc/meminfo MemTotal"
    except OSError:
        pass
    import psutil  # no /proc (another OS): psutil knows where to look

    return psutil.virtual_memory().total, "psutil.virtual_memory()"
