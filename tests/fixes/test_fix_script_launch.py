"""`fix --script` proposes what the script's own verl command needs (issue 12)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from itertools import takewhile
from pathlib import Path

from conftest import HOSTS, NPU_SMI, rules_measured_here

VERL_SCRIPTS = Path(__file__).parents[1] / "recipes" / "verl_npu_scripts"
VLLM = VERL_SCRIPTS / "special_npu_run_qwen2_5_05b_grpo.sh"  # actor_rollout_ref.rollout.name=vllm
SGLANG = VERL_SCRIPTS / "ex_grpo_trainer_run_qwen2-32b_sglang_fsdp_npu.sh"
KEY = "actor_rollout_ref.rollout.engine_kwargs.vllm.additional_config.weight_nz_mode"


def _host(tmp_path: Path, vllm_ascend: str | None) -> Path:
    """The seed host with vllm-ascend at ``vllm_ascend`` (None: not installed)."""
    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    site = next(root.glob("usr/local/python3*/lib/python3*/site-packages"))
    old = next(site.glob("vllm_ascend-*.dist-info"))
    if vllm_ascend is None:
        shutil.rmtree(old)
    else:
        new = site / f"vllm_ascend-{vllm_ascend}.dist-info"
        old.rename(new)
        meta = new / "METADATA"
        meta.write_text("".join(f"Version: {vllm_ascend}\n" if line.startswith("Version:") else line for line in meta.read_text().splitlines(True)))
    return root


def fix(tmp_path: Path, root: Path, script: Path, *args: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "ascendrl", "fix", "--root", str(root), "--npu-smi", str(NPU_SMI / "healthy-8x910b3.txt"), "--script", str(script), *args]
    return subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=120)


def _copy(tmp_path: Path, source: Path, text: str | None = None) -> Path:
    script = tmp_path / source.name
    script.write_text(text if text is not None else source.read_text())
    return script


def test_new_vllm_ascend_gets_the_override_on_the_command_and_undo_restores(tmp_path: Path):
    root = _host(tmp_path, "0.20.2rc1")
    script = _copy(tmp_path, VLLM)
    original = script.read_bytes()
    proc = fix(tmp_path, root, script, "--only", "nz-off", "--apply", "--json")
    doc = json.loads(proc.stdout)
    assert any(a["kind"] == "SetOverride" and a["key"] == KEY for p in doc["plan"]["fixes"] for a in p["actions"])
    text = script.read_text()
    assert f"trainer.total_training_steps=1 +{KEY}=0 $@" in text  # appended to the invocation, nothing else changed
    assert text.replace(f" +{KEY}=0", "") == original.decode()
    assert "VLLM_ASCEND_ENABLE_NZ" not in text
    assert {c["id"]: c["after"] for c in doc["before_after"]}.get("ARL-V001") == "pass", doc["before_after"]
    undo = subprocess.run([sys.executable, "-m", "ascendrl", "fix", "--undo"], cwd=tmp_path, capture_output=True, text=True)
    assert undo.returncode == 0 and script.read_bytes() == original


def test_an_existing_override_gets_only_its_value_changed(tmp_path: Path):
    root = _host(tmp_path, "0.20.2rc1")
    body = VLLM.read_text().replace("trainer.critic_warmup=0 \\", f"+{KEY}='2' \\\n    trainer.critic_warmup=0 \\")
    script = _copy(tmp_path, VLLM, body)
    fix(tmp_path, root, script, "--only", "nz-off", "--apply")
    assert script.read_text() == body.replace(f"+{KEY}='2'", f"+{KEY}=0")


def test_old_vllm_ascend_gets_the_env_form(tmp_path: Path):
    root = _host(tmp_path, "0.11.0rc1")
    script = _copy(tmp_path, VLLM)
    proc = fix(tmp_path, root, script, "--only", "nz-off")
    assert "export VLLM_ASCEND_ENABLE_NZ=0" in proc.stdout and KEY not in proc.stdout


def test_sglang_and_install_scripts_get_no_vllm_settings(tmp_path: Path):
    root = _host(tmp_path, "0.11.0rc1")
    for script, why in ((_copy(tmp_path, SGLANG), "rollout is sglang, not vllm"), (_copy(tmp_path, VLLM, "pip install verl vllm-ascend\n"), "starts no verl training")):
        proc = fix(tmp_path, root, script, "--json")
        doc = json.loads(proc.stdout)
        assert "nz-off" not in [p["fix_id"] for p in doc["plan"]["fixes"]], script
        assert why in proc.stderr
        forced = fix(tmp_path, root, script, "--only", "nz-off")
        assert "export VLLM_ASCEND_ENABLE_NZ" not in forced.stdout


def test_only_when_the_rule_is_skipped_says_why_and_applies_to_a_vllm_script(tmp_path: Path):
    root = _host(tmp_path, None)  # a login node preparing the launch script: no vllm-ascend
    script = _copy(tmp_path, VLLM)
    proc = fix(tmp_path, root, script, "--only", "nz-off", "--apply")
    assert "vllm-ascend is not installed" in proc.stderr and "applying it to the script anyway" in proc.stderr
    assert "export VLLM_ASCEND_ENABLE_NZ=0" in script.read_text() and "export USE_OPTIMIZED_MODEL=0" in script.read_text()


def test_failures_without_an_automatic_fix_are_listed_with_their_manual_fix(tmp_path: Path):
    root = _host(tmp_path, "0.20.2rc1")  # vllm-ascend too new for the seed's torch/CANN: C-rule failures no fix can make
    script = _copy(tmp_path, VLLM)
    proc = fix(tmp_path, root, script)
    assert "have no automatic fix:" in proc.stdout and "ARL-C006" in proc.stdout and "fix by hand: " in proc.stdout
    doc = json.loads(fix(tmp_path, root, script, "--json").stdout)
    assert "ARL-C006" in [f["id"] for f in doc["no_automatic_fix"]] and all(f["fix"] for f in doc["no_automatic_fix"])


def test_second_apply_has_no_empty_heading_and_status_says_failures_remain(tmp_path: Path):
    root = _host(tmp_path, "0.20.2rc1")
    script = _copy(tmp_path, VLLM)
    first = fix(tmp_path, root, script, "--apply")
    assert "Before → after:" in first.stdout and first.returncode == 1  # applied, yet C-rule failures remain
    second = fix(tmp_path, root, script, "--apply")
    assert "Nothing to change" in second.stdout
    # No empty heading. Rows may remain only for rules read on the machine running the test (its free disk can be
    # under R001's 50 GiB wherever the caches go), unchanged by the second apply.
    lines = second.stdout.splitlines()
    if "Before → after:" in lines:
        rows = list(takewhile(lambda line: line.startswith("  "), lines[lines.index("Before → after:") + 1 :]))
        assert rows and {row.split(":")[0].strip() for row in rows} <= rules_measured_here()
        assert all(row.split(": ", 1)[1].split(" → ")[0] == row.split(" → ")[1] for row in rows), rows
    assert second.returncode == 1 and "have no automatic fix:" in second.stdout


def test_under_root_the_process_stopping_fix_says_it_is_left_out(tmp_path: Path):
    root = _host(tmp_path, "0.11.0rc1")
    cmd = [sys.executable, "-m", "ascendrl", "fix", "--root", str(root), "--npu-smi", str(NPU_SMI / "occupied.txt"), "--unsafe"]
    proc = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=120)
    assert "Left out under --root" in proc.stdout and "214587" in proc.stdout
