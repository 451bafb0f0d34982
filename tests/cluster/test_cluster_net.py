"""The HCCL network probes of cluster_driver.py, on real sockets and files of this machine."""

from __future__ import annotations

import socket
import time

import psutil
import pytest

from ascendrl.preflight import cluster_driver as drv


@pytest.fixture
def held_port():
    """A port on 127.0.0.1 that a listening socket holds for the test."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1)
    yield sock.getsockname()[1]
    sock.close()


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_a_held_port_in_the_range_is_busy(held_port):
    busy, error = drv.free_ports("127.0.0.1", held_port - 2, 4)
    assert error is None
    assert "in use" in busy[str(held_port)]
    # Another process of this machine may hold a neighbour (a client's ephemeral port: a clean-clone CI run once found
    # held_port + 1 taken). Any other port reported busy must be one that cannot be bound now either.
    assert all(not _bindable(int(port)) for port in set(busy) - {str(held_port)})


def test_a_free_range_is_free(held_port):
    busy, error = drv.free_ports("127.0.0.1", held_port + 1, 3)
    assert error is None and str(held_port) not in busy


def test_an_address_not_on_this_node_is_an_error_not_busy_ports():
    busy, error = drv.free_ports("192.0.2.7", 61000, 4)  # TEST-NET-1, never assigned here
    assert busy == {} and "not an address of this node" in error


def test_base_port_is_read_and_bounded():
    facts = drv.hccl_facts({"HCCL_IF_BASE_PORT": "65530", "HCCL_IF_IP": "127.0.0.1"}, {}, "127.0.0.1")
    assert facts["port_error"] == "HCCL_IF_BASE_PORT=65530 is outside [1024, 65520]"
    facts = drv.hccl_facts({"HCCL_IF_BASE_PORT": "5e4"}, {}, "127.0.0.1")
    assert facts["port_error"] == "HCCL_IF_BASE_PORT=5e4 is not an integer"
    facts = drv.hccl_facts({}, {}, "127.0.0.1")
    assert (facts["base_port"], facts["ports"], facts["address"]) == (60000, 32, "127.0.0.1")


def test_hccl_address_follows_if_ip_then_ifname_then_fallback():
    interfaces = {"lo": ["127.0.0.1", "::1"], "eth0": ["fe80::1", "10.1.2.3"], "enp189s0f0": ["10.9.9.9"]}
    assert drv.hccl_address({"HCCL_IF_IP": "10.9.9.9"}, interfaces, "x") == "10.9.9.9"
    assert drv.hccl_address({"HCCL_SOCKET_IFNAME": "eth"}, interfaces, "x") == "10.1.2.3"
    assert drv.hccl_address({"HCCL_SOCKET_IFNAME": "=enp189s0f0"}, interfaces, "x") == "10.9.9.9"
    assert drv.hccl_address({"HCCL_SOCKET_IFNAME": "=enp"}, interfaces, "x") == "x"
    assert drv.hccl_address({}, interfaces, "x") == "x"


def test_hccn_conf_is_parsed(tmp_path):
    conf = tmp_path / "hccn.conf"
    # The layout hccn_tool leaves (address_N / netmask_N / netdetect_N per device).
    conf.write_text("address_0=192.168.100.101\nnetmask_0=255.255.255.0\nnetdetect_0=192.168.100.1\n"
                    "address_1=192.168.101.101\nnetmask_1=255.255.255.0\n")
    got = drv.read_hccn_conf(str(conf))
    assert got == {"present": True, "address": {"0": "192.168.100.101", "1": "192.168.101.101"},
                   "netmask": {"0": "255.255.255.0", "1": "255.255.255.0"}}
    assert drv.read_hccn_conf(str(tmp_path / "absent")) == {"present": False}
    unreadable = drv.read_hccn_conf(str(tmp_path))  # a directory: read fails with an OSError
    assert unreadable["present"] is True and unreadable["error"]


def test_listener_is_reached_and_a_closed_port_is_not(monkeypatch):
    for name in ("HCCL_IF_IP", "HCCL_SOCKET_IFNAME"):
        monkeypatch.delenv(name, raising=False)
    got = drv.listen_task("127.0.0.1", 20.0, 1)
    assert got["error"] is None and got["address"] == "127.0.0.1"
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    dead = closed.getsockname()[1]
    closed.close()
    out = drv.connect_task([("head", "127.0.0.1", got["port"]), ("peer", "127.0.0.1", dead)], 2.0)
    assert [r["ok"] for r in out] == [True, False]
    assert out[1]["to"] == "peer" and "refused" in out[1]["error"].lower()
    gone = time.monotonic() + 10  # the listener exits after the connections it expects, well before its 20 s
    while time.monotonic() < gone and psutil.pid_exists(got["pid"]) and psutil.Process(got["pid"]).status() != psutil.STATUS_ZOMBIE:
        time.sleep(0.1)
    assert not psutil.pid_exists(got["pid"]) or psutil.Process(got["pid"]).status() == psutil.STATUS_ZOMBIE


def test_listener_on_an_address_it_does_not_have_reports_the_error(monkeypatch):
    monkeypatch.setenv("HCCL_IF_IP", "192.0.2.7")
    got = drv.listen_task("127.0.0.1", 1.0, 1)
    assert got["port"] is None and got["address"] == "192.0.2.7" and got["error"]
