"""The registered fixes against fixture hosts and real processes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
import subprocess
import sys

from ascendrl.catalog import load_catalog
from ascendrl.fixes import FIXES, check_as_run_sees_it, npu_holders, propose
from ascendrl.fixes.engine import apply_plan, build_plan
from ascendrl.fixes.model import Instruction, StopProcess
from ascendrl.preflight.host import Host
from ascendrl.preflight.rules import all_rules


def test_every_fix_id_named_by_a_rule_or_catalog_entry_is_registered(tmp_path):
    named = {r.fix_id for r in all_rules() if r.fix_id} | {e.fix_id for e in load_catalog(user_dir=tmp_path).entries if e.fix_id}
    assert named <= set(FIXES)
    assert set(FIXES) <= named  # and no fix is unreachable


def test_relocate_caches_creates_dirs_and_points_env_at_them(host_factory, tmp_path):
    import tempfile

    host = host_factory(env={"RAY_local_fs_capacity_threshold": "0.0001"})
    report = check_as_run_sees_it(host, None)
    big = Path(tempfile.mkdtemp(prefix="arl", dir="/tmp"))  # short: Ray's socket paths must stay under 107 bytes
    proposals = [p for p in propose(report, host, data_dir=str(big / "big")) if p.fix_id == "relocate-caches"]
    assert proposals and "ARL-R001" in proposals[0].resolves
    env_file = tmp_path / "state" / "env.sh"
    plan = build_plan(proposals, target=str(env_file), managed=True, unsafe=False)
    apply_plan(plan, state_dir=str(tmp_path / "state"))
    text = env_file.read_text()
    for name, sub in (("RAY_TMPDIR", "ray"), ("TMPDIR", "tmp"), ("HF_DATASETS_CACHE", "hf_datasets")):
        assert f"export {name}={big}/big/ascendrl/{sub}" in text
        assert (big / "big" / "ascendrl" / sub).is_dir()
    shutil.rmtree(big)


def test_relocate_caches_refuses_a_data_dir_too_deep_for_ray(host_factory, tmp_path):
    host = host_factory(env={"RAY_local_fs_capacity_threshold": "0.0001"})
    report = check_as_run_sees_it(host, None)
    deep = tmp_path / ("d" * 60)
    [proposal] = [p for p in propose(report, host, data_dir=str(deep)) if p.fix_id == "relocate-caches"]
    assert [type(a).__name__ for a in proposal.actions] == ["Instruction"]
    assert "too deep for Ray's socket paths" in proposal.actions[0].text


def test_container_setup_is_manual_with_the_docker_flags(host_factory):
    host = host_factory(remove=["dev/davinci*", "dev/devmm_svm", "dev/hisi_hdc"])
    report = check_as_run_sees_it(host, None)
    plan = build_plan(propose(report, host), target="unused", managed=True, unsafe=False)
    manual = [p for p in plan.manual if p.fix_id == "container-setup"]
    assert manual and all(isinstance(a, Instruction) for a in manual[0].actions)
    assert "--device /dev/davinci0" in manual[0].actions[0].text


def _child_holding_an_npu():
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])


def test_stopping_npu_holders_needs_unsafe_and_stops_the_real_process(tmp_path):
    from conftest import NPU_SMI

    child = _child_holding_an_npu()
    try:
        captured = tmp_path / "npu-smi-info.txt"  # a recorded table with our child as the holder
        captured.write_text((NPU_SMI / "occupied.txt").read_text().replace("214587", str(child.pid)))
        host = Host(env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, npu_smi=str(captured))
        report = check_as_run_sees_it(host, None)
        d003 = next(f for f in report.findings if f.rule_id == "ARL-D003")
        assert d003.status.value == "fail" and child.pid in d003.facts["pids"]
        proposals = [p for p in propose(report, host) if p.fix_id == "kill-npu-holders"]
        safe_only = build_plan(proposals, target=str(tmp_path / "env.sh"), managed=True, unsafe=False)
        assert safe_only.hidden_unsafe and not safe_only.stops
        stops = [a for a in proposals[0].actions if isinstance(a, StopProcess)]
        assert [s.pid for s in stops] == [child.pid] and "time.sleep(600)" in stops[0].cmdline
        plan = build_plan(proposals, target=str(tmp_path / "env.sh"), managed=True, unsafe=True)
        result = apply_plan(plan, state_dir=str(tmp_path / "state"), holders=npu_holders(host))
        assert result.stopped == (child.pid,)
        child.wait(timeout=5)  # already reaped by the fix's wait; this only confirms it is gone
        assert child.returncode is not None
        journal = json.loads(open(result.journal).read())
        assert journal["stopped"] == [child.pid]
    finally:
        if child.poll() is None:
            child.kill()
