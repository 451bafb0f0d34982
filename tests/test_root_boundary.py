"""`--root` is a chroot for reads: links resolve inside the image, nothing outside it is read,
special files never hang a check, and tools run by check never outlive their timeout."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ascendrl.preflight import check
from ascendrl.preflight.host import MAX_SYMLINKS, Host, read_regular, resolve_in_root, run_command
from conftest import BASE_ENV, SOURCED_ENV, build_host

TOOLKIT = "usr/local/Ascend/ascend-toolkit"
DRIVER_INFO = "usr/local/Ascend/driver/version.info"


def _statuses(host: Host) -> dict[str, str]:
    return {f.rule_id: f.status.value for f in check(host).findings}


def _json(host: Host) -> str:
    from ascendrl import render

    return render.to_json(check(host))


def test_absolute_in_image_link_resolves_inside_the_root(host_factory):
    """Real images are built with `latest -> /usr/local/Ascend/ascend-toolkit/8.3.RC1`: same report as a relative link."""
    relative = host_factory()
    expected = _statuses(relative)
    latest = relative.root / TOOLKIT / "latest"
    latest.unlink()
    latest.symlink_to(f"/{TOOLKIT}/8.3.RC1")
    report = check(relative)
    assert report.facts.value("cann.toolkit.version") == "8.3.RC1"
    assert {f.rule_id: f.status.value for f in report.findings} == expected
    assert "fail" not in expected.values()


def test_links_to_this_machines_files_are_never_read(host_factory, tmp_path):
    """An absolute link, a `..` climb and a site-packages link that point at a real file outside the root read nothing of it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "hostname"
    secret.write_text("Version=HOST-SECRET-1\nNAME=HOST-SECRET-1\n")
    meta = outside / "torch-9.9.9.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 9.9.9+HOST-SECRET-1\n")
    host = host_factory()
    root = host.root
    (root / DRIVER_INFO).unlink()
    (root / DRIVER_INFO).symlink_to(secret)  # absolute: the real host's file, by chroot rules a missing one
    install = root / "etc/ascend_install.info"
    install.unlink()
    install.symlink_to("../" * 40 + str(secret).lstrip("/"))  # `..` climbing far above the root
    site = root / "usr/local/python3.11.13/lib/python3.11/site-packages"
    for old in site.glob("torch-*.dist-info"):
        import shutil

        shutil.rmtree(old)
    (site / "torch-9.9.9.dist-info").symlink_to(meta)
    (root / "usr/local/python3.12").symlink_to(outside)  # a whole python3* folder pointing out
    text = _json(host)
    assert "HOST-SECRET" not in text
    facts = check(host).facts
    assert facts.value("hdk.driver") is None and "not present" in facts.get_fact("hdk.driver").reason
    assert facts.value("pkg.torch") is None


def test_a_fifo_where_an_info_file_should_be_does_not_hang_check(host_factory):
    host = host_factory()
    (host.root / DRIVER_INFO).unlink()
    os.mkfifo(host.root / DRIVER_INFO)
    env = {**os.environ, **BASE_ENV, **SOURCED_ENV["seed"]}
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "check", "--json", "--root", str(host.root)],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert time.monotonic() - start < 30
    assert proc.returncode in (0, 1), proc.stderr
    reason = json.loads(proc.stdout)["facts"]["hdk.driver"]["reason"]
    assert "not a regular file (a FIFO)" in reason


def test_a_symlink_loop_is_called_a_loop(host_factory):
    host = host_factory()
    latest = host.root / TOOLKIT / "latest"
    latest.unlink()
    latest.symlink_to("latest2")
    (host.root / TOOLKIT / "latest2").symlink_to(f"/{TOOLKIT}/latest")
    fact = check(host).facts.get_fact("cann.toolkit")
    assert "symlink loop" in fact.reason
    assert "no such file" not in fact.reason.lower()


def test_resolver_is_a_chroot(tmp_path):
    root = tmp_path / "img"
    (root / "a/b").mkdir(parents=True)
    (root / "a/b/f").write_text("x")
    (root / "abs").symlink_to("/a/b")
    (root / "up").symlink_to("../../../../a")
    (root / "a/b/rel").symlink_to("../../abs/f")
    real = Path(os.path.realpath(root))
    assert resolve_in_root(root, "/abs/f") == real / "a/b/f"
    assert resolve_in_root(root, "/up/b/f") == real / "a/b/f"
    assert resolve_in_root(root, "/a/b/rel") == real / "a/b/f"
    assert resolve_in_root(root, "/../../../a/b/f") == real / "a/b/f"
    assert not resolve_in_root(root, "/a/b/missing/../f").exists()  # as the kernel: ENOENT, not a/b/f
    # a chain of exactly 40 links resolves, 41 is a loop (Linux's MAXSYMLINKS)
    (root / "l0").symlink_to("/a/b/f")
    for i in range(1, MAX_SYMLINKS + 1):
        (root / f"l{i}").symlink_to(f"l{i - 1}")
    assert resolve_in_root(root, f"/l{MAX_SYMLINKS - 1}") == real / "a/b/f"
    with pytest.raises(OSError) as exc:
        resolve_in_root(root, f"/l{MAX_SYMLINKS}")
    assert exc.value.errno == errno.ELOOP and "symlink loop" in str(exc.value)


def test_reads_are_bounded_and_regular_only(tmp_path):
    big = tmp_path / "big"
    big.write_bytes(b"x" * (3 << 20))
    assert len(read_regular(big)) == 1 << 20
    with pytest.raises(OSError, match="a folder"):
        read_regular(tmp_path)
    with pytest.raises(OSError, match="a device"):
        read_regular("/dev/zero")


def test_timed_out_command_takes_its_children_with_it():
    """npu-smi or an import that forks and hangs: the whole group dies at the timeout, and we do not wait for it."""
    start = time.monotonic()
    result = run_command(["sh", "-c", "sleep 60 & echo $!; sleep 60"], timeout=1)
    elapsed = time.monotonic() - start
    assert result.timed_out
    assert elapsed < 15
    pid = int(result.stdout.split()[0])
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), f"background child {pid} of a timed-out command is still running"


def test_tmpdir_that_does_not_exist_is_not_judged_by_an_ancestors_space(host_factory, tmp_path):
    """TMPDIR=/nonexistent: R002 says so (tempfile falls back to /tmp); R001 says Ray would create it elsewhere."""
    host = host_factory(env={"TMPDIR": "/nonexistent"}, unset=["RAY_TMPDIR"])
    findings = {f.rule_id: f for f in check(host).findings}
    r002, r001 = findings["ARL-R002"], findings["ARL-R001"]
    assert r002.status.value == "warn" and "does not exist" in r002.detail and "/nonexistent" in r002.detail
    assert r001.status.value == "warn" and "does not exist" in r001.detail and "os.makedirs" in r001.detail
    # the ordinary case is untouched: /tmp exists, <tmp>/ray is Ray's own to create
    (tmp_path / "other").mkdir()
    plain = {f.rule_id: f for f in check(build_host(tmp_path / "other", {"unset": ["RAY_TMPDIR", "TMPDIR"]})).findings}
    assert "does not exist" not in plain["ARL-R001"].detail and "does not exist" not in plain["ARL-R002"].detail


def test_live_host_reads_say_symlink_loop_too(tmp_path):
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError, match="symlink loop") as exc:
        Host().read_text(str(tmp_path / "a"))
    assert exc.value.errno == errno.ELOOP and not isinstance(exc.value, FileNotFoundError)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


def test_a_hung_npu_smi_and_its_children_are_killed_at_the_timeout(tmp_path):
    """The CLI end to end: `check --timeout 1` with an npu-smi that forks a child and hangs."""
    pidfile = tmp_path / "child.pid"
    fake = tmp_path / "npu-smi"
    fake.write_text(f"#!/bin/sh\nsleep 120 &\necho $! > {pidfile}\nsleep 120\n")
    fake.chmod(0o755)
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "ascendrl", "check", "--json", "--npu-smi", str(fake), "--timeout", "1"],
                          capture_output=True, text=True, timeout=90)
    assert time.monotonic() - start < 45
    reason = json.loads(proc.stdout)["facts"]["npu_smi.info"]["reason"]
    assert "did not finish in time" in reason and "killed" in reason
    pid = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), f"npu-smi's child {pid} outlived the check"


def test_root_never_runs_the_images_npu_smi(tmp_path):
    """--root treats the image as data: an npu-smi inside it is found but not executed on this machine."""
    import shutil

    from conftest import HOSTS

    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    marker = tmp_path / "ran"
    planted = root / "usr/local/sbin/npu-smi"
    planted.unlink()
    planted.write_text(f"#!/bin/sh\ntouch {marker}\n")
    planted.chmod(0o755)
    env = {**os.environ, **BASE_ENV, **SOURCED_ENV["seed"]}
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "check", "--json", "--root", str(root)],
        capture_output=True, text=True, env=env, timeout=60,
    )
    assert proc.returncode in (0, 1), proc.stderr
    assert not marker.exists()
    reason = json.loads(proc.stdout)["facts"]["npu_smi.info"]["reason"]
    assert "did not run it" in reason and "--npu-smi" in reason
