"""`explain` across nodes: golden multi-node folders (timeline/README.md cites each line's source)."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
import yaml

from ascendrl.catalog import load_catalog
from ascendrl.catalog.timeline import explain_nodes, node_folders, parse_stamp
from ascendrl.cli import main

CASES = Path(__file__).parent / "timeline"
EXPECT = yaml.safe_load((CASES / "expect.yml").read_text())


@pytest.mark.parametrize("case", sorted(EXPECT))
def test_golden(case):
    want = EXPECT[case]
    folders = node_folders(CASES / case)
    assert folders is not None and len(folders) == 2
    t = explain_nodes(load_catalog(), folders)
    assert (t.first.node, t.first.entry_id) == (want["first"]["node"], want["first"]["id"])
    assert [e.entry_id for e in t.consequences] == want["consequences"]
    assert set(want["consequence_nodes"]) == {e.node for e in t.consequences}
    for words in want["uncertain"]:
        assert any(words in u for u in t.uncertain), t.uncertain
    if not want["uncertain"]:
        assert t.uncertain == ()


def test_the_head_alone_blames_the_timeout_but_across_nodes_the_worker_is_first():
    """The point of the feature: the head's log alone shows an HCCL timeout, not the worker's NIC error."""
    head = CASES / "hccl-ifname-on-worker" / "head-10.0.0.3"
    alone = explain_nodes(load_catalog(), [head])
    assert alone.first.entry_id == "ARL-E320"  # only timeouts and wrappers: says so
    assert any("stalled may have logged nothing fatal" in u for u in alone.uncertain)


def test_near_tie_across_nodes_is_called_uncertain(tmp_path):
    src = CASES / "hccl-ifname-on-worker" / "worker-10.0.0.4"
    for name, moved in (("w1", "09:02:11.634"), ("w2", "09:02:12.100")):
        (tmp_path / name).mkdir()
        text = (src / "worker-5120.err").read_text().replace("09:02:11.634", moved, 1)
        (tmp_path / name / "worker.err").write_text(text)
    t = explain_nodes(load_catalog(), node_folders(tmp_path))
    assert t.first.node == "w1"
    assert any("w2" in u and "clock skew" in u for u in t.uncertain), t.uncertain


@pytest.mark.parametrize("line,when,yearless", [
    ("2025-12-02 10:14:31,552\tINFO worker.py:1918 -- Started", dt.datetime(2025, 12, 2, 10, 14, 31, 552000), False),
    ("[2026-11-30 23:43:16,648 I 491 491] (raylet) accessor.cc:475:", dt.datetime(2026, 11, 30, 23, 43, 16, 648000), False),
    ("[ERROR] HCCL(5120,python3):2025-12-03-09:02:11.634.432 [sal.cc:501]", dt.datetime(2025, 12, 3, 9, 2, 11, 634432), False),
    ("[ERROR] 2025-12-03-09:02:11 (PID:5120, Device:0, RankID:8) ERR02200", dt.datetime(2025, 12, 3, 9, 2, 11), False),
    ("(WorkerDict pid=5121) INFO 11-30 08:12:01 [__init__.py:43] Available", dt.datetime(1900, 11, 30, 8, 12, 1), True),
    ("[rank1]:[E324 13:00:25.428029551 compiler_depend.ts:574] [Rank 1]", dt.datetime(1900, 3, 24, 13, 0, 25, 428029), True),
])
def test_parse_stamp(line, when, yearless):
    assert parse_stamp(line) == (when, yearless)


def test_parse_stamp_none():
    assert parse_stamp("ray.exceptions.ActorDiedError: The actor died unexpectedly") is None
    assert parse_stamp("step:3 - global_seqlen/mean:3051 - 2025-13-45 99:99:99") is None


def test_cli_auto_detects_node_folders_and_names_the_first(capsys):
    assert main(["explain", str(CASES / "hccl-ifname-on-worker")]) == 1
    out = capsys.readouterr().out
    assert "First failure" in out and "worker-10.0.0.4" in out.split("What followed")[0]
    assert "└─" in out and "ARL-E320" in out.split("What followed")[1]


def test_cli_nodes_json(capsys):
    folders = sorted(str(p) for p in (CASES / "segv-then-watchdog").iterdir())
    assert main(["explain", "--json", "--nodes", *folders]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["first"]["node"] == "node-a" and doc["first"]["time"].startswith("2024-03-24T12:59:58")
    # ARL-E850 is the watchdog's generic record of the same timeout, listed after it
    assert [c["id"] for c in doc["consequences"]] == ["ARL-E010", "ARL-E850"] and doc["consequences"][0]["time_has_year"] is False


def test_cli_bad_node_folder_is_one_line(tmp_path, capsys):
    assert main(["explain", "--nodes", str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_single_session_folder_is_not_taken_for_nodes(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "raylet.out").write_text("x\n")
    (tmp_path / "sockets").mkdir()
    (tmp_path / "sockets" / "a").write_text("")
    assert node_folders(tmp_path) is None
    shutil.rmtree(tmp_path / "logs")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "w.err").write_text("x\n")
    assert node_folders(tmp_path) is not None
