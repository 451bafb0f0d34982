"""Disk, shm and RAM rules on fixed facts, and the disk probe against the real filesystem."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from ascendrl.preflight.host import Host
from ascendrl.preflight.model import Fact, Facts
from ascendrl.preflight.probes.disk import GIB, DiskUsage, measure, probe_disk, ray_temp_root
from ascendrl.preflight.rules.resources import (
    CheckpointDisk,
    DatasetsCacheDisk,
    HostMemory,
    RayTempDisk,
    SharedMemory,
    TmpDisk,
)


def usage(free_gib: float, cap_gib: float = 1000, writable: bool = True) -> DiskUsage:
    return DiskUsage("/data/x", "/data", int(cap_gib * GIB), int(free_gib * GIB), 1, writable)


def facts(**items) -> Facts:
    return Facts({k: Fact(v, "test") for k, v in items.items()})


@pytest.mark.parametrize(
    "free, cap, threshold, expected",
    [
        (500, 1000, 0.95, "pass"),  # 50% full by Ray's count
        (40, 1000, 0.95, "fail"),  # 96% >= 95%
        (80, 1000, 0.95, "warn"),  # 92%: within 5 points of the threshold
        (300, 1000, 0.60, "fail"),  # 70% with RAY_local_fs_capacity_threshold=0.6
        (30, 60, 0.95, "warn"),  # 50% full but under 50 GiB free
    ],
)
def test_ray_temp_uses_rays_fullness(free, cap, threshold, expected):
    f = facts(**{"disk.ray_tmp": usage(free, cap), "ray.fs_capacity_threshold": threshold})
    assert RayTempDisk().evaluate(f).status.value == expected


@pytest.mark.parametrize("free, expected", [(1.0, "fail"), (5.0, "warn"), (50.0, "pass")])
def test_tmpdir_floors(free, expected):
    assert TmpDisk().evaluate(facts(**{"disk.tmpdir": usage(free)})).status.value == expected


def test_read_only_dir_fails_whatever_its_free_space():
    f = facts(**{"disk.hf_datasets_cache": usage(900, writable=False)})
    finding = DatasetsCacheDisk().evaluate(f)
    assert finding.status.value == "fail" and "not writable" in finding.detail


def test_checkpoint_skips_without_flag_and_judges_with_it():
    assert CheckpointDisk().evaluate(facts()).status.value == "skip"
    assert CheckpointDisk().evaluate(facts(**{"disk.checkpoint": usage(60)})).status.value == "warn"


@pytest.mark.parametrize("shm, expected", [(64 << 20, "fail"), (8 * GIB, "warn"), (64 * GIB, "pass")])
def test_shm_docker_default_fails(shm, expected):
    assert SharedMemory().evaluate(facts(**{"mem.shm_bytes": shm})).status.value == expected


def test_ram_warns_below_128():
    assert HostMemory().evaluate(facts(**{"mem.ram_bytes": 64 * GIB})).status.value == "warn"
    assert HostMemory().evaluate(facts(**{"mem.ram_bytes": 1536 * GIB})).status.value == "pass"


def test_measure_matches_statvfs_and_walks_up_to_an_existing_parent(tmp_path):
    host = Host()
    got = measure(host, str(tmp_path / "not" / "yet" / "created"))
    st = os.statvfs(tmp_path)
    assert got.measured_at == str(tmp_path)
    assert got.capacity_bytes == st.f_blocks * st.f_frsize
    assert abs(got.available_bytes - st.f_bavail * st.f_frsize) < 64 * 1024 * 1024
    assert got.ray_fullness == pytest.approx(1 - got.available_bytes / got.capacity_bytes)


def test_ray_temp_root_follows_rays_order():
    assert ray_temp_root(Host(env={"RAY_TMPDIR": "/big/ray", "TMPDIR": "/t"})) == ("/big/ray", "RAY_TMPDIR")
    assert ray_temp_root(Host(env={"TMPDIR": "/t"})) == ("/t", "TMPDIR")
    assert ray_temp_root(Host(env={})) == ("/tmp", "default")


def test_probe_names_the_deciding_variable(tmp_path):
    facts_ = probe_disk(Host(env={"RAY_TMPDIR": str(tmp_path), "HOME": str(tmp_path)}))
    assert facts_["disk.ray_tmp"].value.path == f"{tmp_path}/ray"
    assert "RAY_TMPDIR" in facts_["disk.ray_tmp"].source


def test_bad_threshold_is_a_reason():
    facts_ = probe_disk(Host(env={"RAY_local_fs_capacity_threshold": "ninety"}))
    assert facts_["ray.fs_capacity_threshold"].value is None
    assert "not a number" in facts_["ray.fs_capacity_threshold"].reason


@pytest.fixture
def read_only_mount(tmp_path):
    mnt = tmp_path / "ro"
    mnt.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(mnt)], capture_output=True)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here: {proc.stderr.decode().strip()}")
    yield mnt
    subprocess.run(["umount", str(mnt)], check=False)


def test_real_read_only_filesystem_is_detected(read_only_mount: Path):
    host = Host(env={"TMPDIR": str(read_only_mount / "tmp")})
    f = Facts(probe_disk(host))
    assert f.value("disk.tmpdir").writable is False
    assert TmpDisk().evaluate(f).status.value == "fail"
