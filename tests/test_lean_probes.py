"""Probes that stopped importing a library for start-up's sake must still answer as that library does.

RAM and network interfaces were psutil's answers; the installer-file reader's printable test was a
regular expression. Each is compared with the original on this machine (and, for interfaces, in a
network namespace with aliases, point-to-point, IPv6-only and link-layer-less interfaces).
"""

from __future__ import annotations

import re
import shutil
import socket
import subprocess
import sys

import psutil
import pytest
from hypothesis import given, strategies as st

from ascendrl.preflight.probes.disk import _ram_total
from ascendrl.preflight.probes.ifaddrs import interface_addresses
from ascendrl.preflight.probes.kvfile import _printable

OLD_PRINTABLE = re.compile(r"^[\x20-\x7e\t\u00a0-\uffff]*$")  # kvfile's pattern before


@given(st.text())
def test_printable_is_the_old_pattern(text):
    value = text.strip()  # read_kv tests stripped values
    assert _printable(value) == bool(OLD_PRINTABLE.match(value))


@pytest.mark.parametrize("value", ["8.3.RC1", "a\tb", "\x7f", "\x9f", "\xa0", "\ufffd", "\U0001f600", "x\x01y", "版本"])
def test_printable_edges(value):
    assert _printable(value) == bool(OLD_PRINTABLE.match(value))


def test_ram_is_psutils_figure():
    assert _ram_total() == psutil.virtual_memory().total


COMPARE = """
import json, socket, psutil
from ascendrl.preflight.probes.ifaddrs import interface_addresses
ref = {n: sorted(a.address for a in addrs if a.family in (socket.AF_INET, socket.AF_INET6)) for n, addrs in psutil.net_if_addrs().items()}
print(json.dumps([list(interface_addresses().items()), list(ref.items())]))
"""

SETUP = """
set -e
ip link set lo up
ip link add v0 type veth peer name v1
ip link set v1 up; ip link set v0 up
ip addr add 10.1.0.1/24 dev v0
ip addr add 10.1.0.2/24 dev v0 label v0:app
ip addr add 10.9.0.1 peer 10.9.0.2 dev v1
ip -6 addr add 2001:db8::5/64 dev v0 nodad
ip -6 addr add fe80::5/64 dev v1 nodad
ip link add b0 type bridge
ip -6 addr add 2001:db8:1::1/64 dev b0 nodad
ip tuntap add t0 mode tun
ip addr add 10.7.0.1/32 dev t0
ip -6 addr add fe80::7/64 dev t0 nodad
ip tuntap add t1 mode tun
"""


def test_interfaces_are_psutils_here():
    got = interface_addresses()
    assert got is not None
    ref = {n: sorted(a.address for a in addrs if a.family in (socket.AF_INET, socket.AF_INET6)) for n, addrs in psutil.net_if_addrs().items()}
    assert list(got.items()) == list(ref.items())  # the order too: it is the JSON's order


def test_interfaces_are_psutils_in_a_busy_namespace(tmp_path):
    if not (shutil.which("unshare") and shutil.which("ip")):
        pytest.skip("needs unshare and ip (iproute2)")
    script = tmp_path / "setup.sh"
    script.write_text(SETUP)
    proc = subprocess.run(["unshare", "--net", "sh", "-c", f'sh "$1" && exec "$2" -c "$3"', "sh", str(script), sys.executable, COMPARE],
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0 and "Operation not permitted" in proc.stderr:
        pytest.skip("no permission for a network namespace")
    assert proc.returncode == 0, proc.stderr
    import json

    got, ref = json.loads(proc.stdout)
    assert got == ref
    names = [name for name, _ in got]
    assert {"v0:app", "b0", "t0"} <= set(names) and "t1" not in names  # a label, an IPv6-only bridge; t1 has no address at all
    assert dict(got)["v1"][0] == "10.9.0.1"  # the local end of the point-to-point address


def test_probes_that_wait_on_commands_run_together(tmp_path):
    """The --python query waits for npu-smi to have run: in turn (packages first) it would time out."""
    from pathlib import Path

    from ascendrl.preflight.host import Host
    from ascendrl.preflight.probes import PROBES, WAITS, collect

    assert set(WAITS) <= set(PROBES)
    captured = Path(__file__).parent / "hosts" / "npu-smi" / "healthy-8x910b3.txt"
    npu_smi = tmp_path / "npu-smi"
    npu_smi.write_text(f'#!/bin/sh\ntouch "{tmp_path}/npu-smi-ran"\ncat "{captured}"\n')
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nwhile [ ! -e "{tmp_path}/npu-smi-ran" ]; do sleep 0.05; done\nexec "{sys.executable}" "$@"\n')
    for script in (npu_smi, python):
        script.chmod(0o755)
    facts = collect(Host(npu_smi=str(npu_smi), python=str(python), timeout=30))
    assert facts.value("python.version") == "%d.%d.%d" % sys.version_info[:3]
    assert facts.get_fact("npu_smi.info").reason is None
