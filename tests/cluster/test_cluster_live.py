"""`check --cluster` against a real local Ray cluster (ray.cluster_utils, one raylet per node).

Each node's check reads its own fixture host through ASCENDRL_NODE_CHECK_ARGS in that raylet's
env, so the cluster rules must find the planted drift. Every local node has the same hostname
and address, so nodes are told apart by node id. The cluster is shut down in every case.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

from ascendrl.cli import main

pytestmark = pytest.mark.slow
HERE = Path(__file__).parent
HOSTS = HERE.parent / "hosts"


@pytest.fixture(scope="module")
def ray_python(request) -> str:
    """An interpreter with ray 2.60 and this ascendrl: ASCENDRL_RAY_PYTHON, else the verl venv."""
    return os.environ.get("ASCENDRL_RAY_PYTHON") or request.getfixturevalue("verl_python")


class LocalCluster:
    """ray_cluster.py in the ray interpreter; shut down on exit, killed if it does not go."""

    def __init__(self, python: str, specs: list[dict]):
        self.proc = subprocess.Popen([python, str(HERE / "ray_cluster.py"), json.dumps(specs)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        line = self.proc.stdout.readline()
        if not line:
            self.close()
            raise RuntimeError("the local Ray cluster did not start")
        info = json.loads(line)
        self.address, self.node_ids = info["address"], info["nodes"]

    def kill(self, index: int) -> None:
        self.proc.stdin.write(f"kill {index}\n")
        self.proc.stdin.flush()
        assert self.proc.stdout.readline().strip() == "killed"

    def close(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        except (subprocess.TimeoutExpired, OSError):
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


def node(host: str, npu_smi: str, *, npus: int = 8, env: dict | None = None) -> dict:
    args = f"--root {HOSTS / host} --npu-smi {npu_smi}"
    return {"resources": {"NPU": npus}, "env_vars": {"ASCENDRL_NODE_CHECK_ARGS": args, **(env or {})}}


def four_chip_npu_smi(tmp_path: Path) -> str:
    """The recorded 8-chip table cut to its first 4 chips (header 6 lines, 3 per chip)."""
    lines = (HOSTS / "npu-smi" / "healthy-8x910b3.txt").read_text().splitlines()
    kept = lines[:6 + 4 * 3] + [line for line in lines[6 + 8 * 3:] if not any(f"NPU {i} " in line + " " for i in range(4, 8))]
    path = tmp_path / "four-chips.txt"
    path.write_text("\n".join(kept) + "\n")
    return str(path)


def cluster_json(capsys, *argv: str) -> tuple[int, dict]:
    code = main(["check", "--cluster", "--json", *argv])
    return code, json.loads(capsys.readouterr().out)


def by_rule(doc: dict, rule_id: str) -> str:
    return " ".join(f["detail"] for f in doc["findings"] if f["id"] == rule_id and f["status"] in ("fail", "warn"))


def test_three_nodes_drift_devices_and_interface(ray_python, tmp_path, capsys):
    healthy = str(HOSTS / "npu-smi" / "healthy-8x910b3.txt")
    held = socket.socket()  # a port inside the drifted node's HCCL_IF_BASE_PORT range, held by "another job"
    held.bind(("127.0.0.1", 0))
    held.listen(1)
    port = held.getsockname()[1]
    hccn = []  # each node's /etc/hccn.conf (ASCENDRL_HCCN_CONF); the short node reuses the head's device 3 address
    for i, addresses in enumerate([[f"192.168.100.{d + 1}" for d in range(8)], [f"192.168.101.{d + 1}" for d in range(8)],
                                   ["192.168.102.1", "192.168.102.2", "192.168.102.3", "192.168.100.4"]]):
        hccn.append(tmp_path / f"hccn{i}.conf")
        hccn[-1].write_text("".join(f"address_{d}={a}\nnetmask_{d}=255.255.255.0\n" for d, a in enumerate(addresses)))
    specs = [
        node("seed", healthy, env={"ASCENDRL_HCCN_CONF": str(hccn[0])}),
        node("cann85", healthy, env={"HCCL_IF_IP": "127.0.0.1", "HCCL_IF_BASE_PORT": str(port - 3),  # another CANN, driver and Python stack
                                     "ASCENDRL_HCCN_CONF": str(hccn[1])}),
        node("seed", four_chip_npu_smi(tmp_path), env={"HCCL_SOCKET_IFNAME": "=ib9", "ASCENDRL_HCCN_CONF": str(hccn[2])}),  # 4 chips, Ray says 8; no such NIC
    ]
    cluster = LocalCluster(ray_python, specs)
    try:
        t0 = time.monotonic()
        (tmp_path / "model").mkdir()
        code, doc = cluster_json(capsys, "--python", ray_python, "--address", cluster.address, "--node-timeout", "90",
                                 "--recipe", "qwen25-0.5b-gsm8k-smoke", "--set", f"model_path={tmp_path / 'model'}",
                                 "--set", f"data_dir={tmp_path / 'no-data'}", "--set", "trainer.n_gpus_per_node=8")
        elapsed = time.monotonic() - t0
    finally:
        cluster.close()
        held.close()
    head, drifted, short = (i[:12] for i in cluster.node_ids)
    # the held port is among those reported; an ephemeral port of Ray's own processes may sit in the same range
    in_use = re.search(rf"port\(s\) ([\d, ]+) of {port - 3}-{port + 28} on 127\.0\.0\.1 are in use", by_rule(doc, "ARL-K012"))
    assert in_use is not None and str(port) in in_use.group(1).split(", "), by_rule(doc, "ARL-K012")
    assert drifted in by_rule(doc, "ARL-K012") and head not in by_rule(doc, "ARL-K012")
    assert "192.168.100.4 is used by" in by_rule(doc, "ARL-K013")  # nodes are named in node id order
    assert f"{head} (" in by_rule(doc, "ARL-K013") and f"{short} (" in by_rule(doc, "ARL-K013")
    assert drifted not in by_rule(doc, "ARL-K013")
    reach = [f for f in doc["findings"] if f["id"] == "ARL-K014"]
    assert [f["status"] for f in reach] == ["pass"] and "4 connect(s)" in reach[0]["detail"], reach[0]["detail"]
    missing = by_rule(doc, "ARL-K011")  # every node looked: the data is missing on all three, the model is there
    assert all(i in missing for i in (head, drifted, short)) and "no-data/train.parquet" in missing and "/model " not in missing
    assert f"trainer.n_gpus_per_node=8, but {short}" in by_rule(doc, "ARL-K004")
    assert code == 1 and len(doc["nodes"]) == 3 and all(n["check"]["findings"] for n in doc["nodes"]), doc["nodes"]
    assert {n["node_id"] for n in doc["nodes"]} == set(cluster.node_ids)
    for rule_id in ("ARL-K002", "ARL-K003"):
        assert drifted in by_rule(doc, rule_id) and head not in by_rule(doc, rule_id) and short not in by_rule(doc, rule_id)
    assert "8.5.0" in by_rule(doc, "ARL-K002")
    for rule_id in ("ARL-K004", "ARL-K005", "ARL-K007"):
        assert short in by_rule(doc, rule_id) and head not in by_rule(doc, rule_id), (rule_id, by_rule(doc, rule_id))
    assert "Ray NPU 8, npu-smi 4" in by_rule(doc, "ARL-K005")
    assert "HCCL_SOCKET_IFNAME==ib9" in by_rule(doc, "ARL-K007")
    assert [f["status"] for f in doc["findings"] if f["id"] == "ARL-K001"] == ["pass"]
    print(f"cluster check of 3 local nodes: {elapsed:.1f} s")


def test_node_killed_mid_check_fails_within_the_bound(ray_python, capsys):
    hang = str(HOSTS / "npu-smi" / "hang")
    specs = [node("seed", str(HOSTS / "npu-smi" / "healthy-8x910b3.txt")), node("seed", hang)]
    specs[1]["env_vars"]["ASCENDRL_NODE_CHECK_ARGS"] += " --timeout 200"  # its check would hang
    cluster = LocalCluster(ray_python, specs)
    try:
        threading.Timer(6.0, cluster.kill, (1,)).start()
        t0 = time.monotonic()
        code, doc = cluster_json(capsys, "--python", ray_python, "--address", cluster.address, "--node-timeout", "45")
        elapsed = time.monotonic() - t0
    finally:
        cluster.close()
    victim = cluster.node_ids[1]
    failed = [f for f in doc["findings"] if f["id"] == "ARL-K001" and f["status"] == "fail"]
    assert code == 1 and len(failed) == 1 and victim[:12] in failed[0]["detail"], failed
    assert failed[0]["facts"]["node_id"] == victim and failed[0]["facts"]["address"]
    assert elapsed < 45 + 60, elapsed
    print(f"killed node reported in {elapsed:.1f} s: {failed[0]['detail']}")


def test_explain_across_nodes_of_a_real_run(ray_python, tmp_path, capsys):
    """A real 3-node Ray run where the rank on one node raises first; each node's worker logs are
    gathered into a folder of their own, as a user copies them from each machine."""
    cluster = LocalCluster(ray_python, [{}, {}, {}])
    try:
        proc = subprocess.run([ray_python, str(HERE / "failing_run.py"), cluster.address], capture_output=True, text=True, timeout=180)
    finally:
        cluster.close()
    line = next(line for line in proc.stdout.splitlines() if line.startswith("RESULT "))
    run = json.loads(line[len("RESULT "):])
    gathered = tmp_path / "gathered"
    for node_id, pids in run["pids"].items():
        folder = gathered / f"node-{node_id[:12]}"
        folder.mkdir(parents=True)
        for pid in pids:
            for log in Path(run["session_logs"]).glob(f"worker-*-{pid}.*"):
                (folder / log.name).write_bytes(log.read_bytes())
    assert main(["explain", "--json", str(gathered)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["nodes"]) == 3
    first = doc["first"]
    assert first["node"] == f"node-{run['failing_node'][:12]}", doc
    assert "the reward function failed on this node" in first["title"] and first["time"]
    healthy = {f"node-{n[:12]}" for n in run["pids"]} - {first["node"]}
    assert healthy <= {c["node"] for c in doc["consequences"]}, doc["consequences"]
    assert all(c["id"] in ("ARL-E111", "ARL-E112", None) and c["secondary"] for c in doc["consequences"])
    print("first:", first["node"], first["time"], "consequences:", [(c["node"], c["id"], c["time"]) for c in doc["consequences"]], "uncertain:", doc["uncertain"])


def test_report_with_cluster_has_a_section_per_node(ray_python, tmp_path, capsys, monkeypatch):
    healthy = str(HOSTS / "npu-smi" / "healthy-8x910b3.txt")
    cluster = LocalCluster(ray_python, [node("seed", healthy), node("cann85", healthy)])
    monkeypatch.setenv("RAY_ADDRESS", cluster.address)
    try:
        code = main(["report", "--yes", "--cluster", "--python", ray_python, "--out", str(tmp_path / "rep"),
                     "--runs-dir", str(tmp_path / "no-runs"), "--root", str(HOSTS / "seed"), "--npu-smi", healthy])
    finally:
        cluster.close()
    capsys.readouterr()
    assert code == 0
    md = (tmp_path / "rep.md").read_text()
    assert sum(f"#### node {i[:12]}" in md for i in cluster.node_ids) == 2
    assert "FAIL ARL-K002" in md and "8.5.0" in md
