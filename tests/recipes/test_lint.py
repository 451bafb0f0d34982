"""Recipe lint against the real verl 0.9.1 (in a venv of its own): compose, types, verl's validator, data, model.

The checked interpreter is that venv's python (`--python`), so ascendrl itself never imports verl.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
HERE = Path(__file__).parent
SEED = "qwen25vl-7b-gsm8k-grpo"


def lint(verl_python, *args, recipe=SEED, env=None):
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "check", "--json", "--recipe", recipe, "--python", verl_python, *args],
        capture_output=True, text=True, timeout=600, env=env or {**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    assert proc.returncode in (0, 1), proc.stderr
    doc = json.loads(proc.stdout)
    return {f["id"]: f for f in doc["findings"] if f["id"].startswith("ARL-L")}, doc["facts"]


@pytest.fixture(scope="module")
def workspace(verl_workspace):
    return verl_workspace


def test_seed_recipe_composes_against_verl_0_9_1(verl_python):
    found, facts = lint(verl_python)
    assert facts["lint.query"]["value"]["verl"]["version"] == "0.9.1"
    assert found["ARL-L001"]["status"] == "pass" and "43 overrides compose against verl 0.9.1" in found["ARL-L001"]["detail"]
    assert found["ARL-L002"]["status"] == "pass"
    assert found["ARL-L004"]["status"] == "pass"
    # This machine: no NPU, 2 CPUs, no data or model at the seed's paths.
    assert found["ARL-L006"]["status"] == "fail" and "switch to cuda" in found["ARL-L006"]["detail"]
    assert found["ARL-L010"]["status"] == "fail" and "/workspace/verl/gsm8k/train.parquet does not exist" in found["ARL-L010"]["detail"]
    assert found["ARL-L012"]["status"] == "fail" and "HFValidationError" in found["ARL-L012"]["detail"]


def test_typo_and_plus_on_existing_key_and_parse_error(verl_python):
    found, _ = lint(
        verl_python,
        "--set", "actor_rollout_ref.actor.kl_loss_coeff=0.01",
        "--set", "+actor_rollout_ref.rollout.n=5",
        "--set", "data.max_prompt_length=[1024,",
    )
    l001 = found["ARL-L001"]
    assert l001["status"] == "fail" and "3 of 45 overrides rejected by verl 0.9.1"  # the + and the [ replace the seed's own n and max_prompt_length in l001["detail"]
    kinds = {e["override"]: e for e in l001["facts"]["errors"]}
    typo = kinds["actor_rollout_ref.actor.kl_loss_coeff=0.01"]
    assert "Could not override 'actor_rollout_ref.actor.kl_loss_coeff'" in typo["message"]
    assert typo["suggestions"] == ["actor_rollout_ref.actor.kl_loss_coef"]
    assert "Could not append to config. An item is already at 'actor_rollout_ref.rollout.n'" in kinds["+actor_rollout_ref.rollout.n=5"]["message"]
    assert kinds["data.max_prompt_length=[1024,"]["kind"] == "parse"
    assert "OverrideParseException" in kinds["data.max_prompt_length=[1024,"]["message"]


def test_wrong_type_is_caught_although_hydra_composes_it(verl_python):
    found, _ = lint(verl_python, "--set", "actor_rollout_ref.rollout.n=abc")
    assert found["ARL-L001"]["status"] == "pass"
    assert found["ARL-L002"]["status"] == "fail" and "actor_rollout_ref.rollout.n='abc' (expects int)" in found["ARL-L002"]["detail"]


def test_verl_validator_catches_bad_batch_arithmetic(verl_python):
    found, _ = lint(verl_python, "--validate", "--set", "data.train_batch_size=3")
    l003 = found["ARL-L003"]
    assert l003["status"] == "fail"
    assert "real_train_batch_size (15) must be divisible by minimal possible batch size (8)" in l003["detail"]
    ok, _ = lint(verl_python, "--validate")
    assert ok["ARL-L003"]["status"] == "pass"


def test_hang_prone_cpu_shape(verl_python):
    found, _ = lint(verl_python)
    cpus = len(os.sched_getaffinity(0))
    expected = "fail" if cpus < 17 else "pass"
    assert found["ARL-L008"]["status"] == expected
    roomy, _ = lint(verl_python, "--set", "ray_kwargs.ray_init.num_cpus=32")
    assert roomy["ARL-L008"]["status"] == "pass"


def test_tp_that_does_not_divide(verl_python):
    found, _ = lint(verl_python, "--set", "actor_rollout_ref.rollout.tensor_model_parallel_size=3")
    assert found["ARL-L004"]["status"] == "fail"


def test_prepared_data_and_tiny_model_pass(verl_python, workspace):
    found, facts = lint(
        verl_python,
        "--set", f"data_dir={workspace / 'data'}",
        "--set", f"model_path={workspace / 'model'}",
        "--set", "data.max_response_length=512",  # 1024 + 512 within the tiny model's 2048 positions
    )
    assert found["ARL-L010"]["status"] == "pass" and "3 training rows" in found["ARL-L010"]["detail"]
    assert found["ARL-L012"]["status"] == "pass" and "Qwen2ForCausalLM" in found["ARL-L012"]["detail"]
    assert found["ARL-L005"]["status"] == "pass"
    assert found["ARL-L011"]["status"] == "pass"
    assert facts["lint.query"]["value"]["model"]["architectures"] == ["Qwen2ForCausalLM"]


def test_data_missing_a_column(verl_python, workspace, tmp_path):
    bad = tmp_path / "data"
    bad.mkdir()
    drop = (
        "import pyarrow.parquet as pq, sys; t = pq.read_table(sys.argv[1]);"
        "pq.write_table(t.drop(['ability']), sys.argv[2] + '/train.parquet'); pq.write_table(t, sys.argv[2] + '/test.parquet')"
    )
    subprocess.run([verl_python, "-c", drop, str(workspace / "data" / "train.parquet"), str(bad)], check=True)
    found, _ = lint(verl_python, "--set", f"data_dir={bad}")
    assert found["ARL-L010"]["status"] == "fail" and "train.parquet lacks ability" in found["ARL-L010"]["detail"]


def test_overlong_prompts_with_a_real_tokenizer(verl_python, workspace):
    common = ["--set", f"data_dir={workspace / 'data'}", "--set", f"model_path={workspace / 'model'}", "--set", "data.max_prompt_length=8"]
    filtered, facts = lint(verl_python, *common)
    prompts = facts["lint.query"]["value"]["prompts"]
    assert prompts["checked"] == 3 and prompts["over"] == 3 and prompts["longest"] > 8
    assert filtered["ARL-L011"]["status"] == "warn"  # the seed filters overlong prompts
    strict, _ = lint(verl_python, *common, "--set", "data.filter_overlong_prompts=False")
    assert strict["ARL-L011"]["status"] == "fail" and "truncation='error'" in strict["ARL-L011"]["detail"]


def test_context_longer_than_the_model(verl_python, workspace):
    found, _ = lint(verl_python, "--set", f"model_path={workspace / 'model'}", "--set", "data.max_response_length=4096")
    assert found["ARL-L005"]["status"] == "fail" and "> the model's 2048" in found["ARL-L005"]["detail"]


def test_light_interpreter_without_verl_skips_with_the_reason():
    proc = subprocess.run([sys.executable, "-m", "ascendrl", "check", "--json", "--recipe", SEED], capture_output=True, text=True, timeout=120)
    found = {f["id"]: f for f in json.loads(proc.stdout)["findings"] if f["id"].startswith("ARL-L")}
    assert found["ARL-L001"]["status"] == "skip"
    assert "verl is not installed in this interpreter" in found["ARL-L001"]["detail"] and "--python" in found["ARL-L001"]["detail"]


def test_on_a_fixture_ascend_host(verl_python, workspace, tmp_path):
    """--root: NPUs from the host's npu-smi, data and model paths read under the root."""
    import shutil

    from conftest import BASE_ENV, HOSTS, IMAGE_NPU_SMI, SOURCED_ENV

    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    shutil.copytree(workspace / "model", root / "models" / "tiny")
    shutil.copytree(workspace / "data", root / "workspace" / "verl" / "gsm8k")
    env = {**os.environ, **BASE_ENV, **SOURCED_ENV["seed"], "HF_HUB_OFFLINE": "1"}
    args = ["--root", str(root), "--npu-smi", str(root / IMAGE_NPU_SMI), "--set", "model_path=/models/tiny", "--set", "data.max_response_length=512"]
    found, _ = lint(verl_python, *args, env=env)
    assert found["ARL-L006"]["status"] == "pass" and "8 NPU(s) present" in found["ARL-L006"]["detail"]
    assert found["ARL-L007"]["status"] == "pass"
    assert found["ARL-L009"]["status"] == "pass"  # the sourced env already has NZ and USE_OPTIMIZED_MODEL at 0
    assert found["ARL-L010"]["status"] == "pass" and found["ARL-L012"]["status"] == "pass"
    assert found["ARL-L013"]["status"] == "pass" and "of 64 GiB" in found["ARL-L013"]["detail"]
    assert found["ARL-L008"]["status"] == "skip"  # Ray's CPUs are the live host's
    too_many, _ = lint(verl_python, *args, "--set", "trainer.n_gpus_per_node=16", env=env)
    assert too_many["ARL-L007"]["status"] == "fail" and "n_gpus_per_node=16 but 8 NPU(s) are visible" in too_many["ARL-L007"]["detail"]
    narrowed, _ = lint(verl_python, *args, env={**env, "ASCEND_RT_VISIBLE_DEVICES": "0,1"})
    assert narrowed["ARL-L007"]["status"] == "fail" and "2 NPU(s) are visible" in narrowed["ARL-L007"]["detail"]
    unset_env = {k: v for k, v in env.items() if k != "VLLM_ASCEND_ENABLE_NZ"}
    shell, _ = lint(verl_python, *args, env=unset_env)
    assert shell["ARL-L009"]["status"] == "warn" and "VLLM_ASCEND_ENABLE_NZ=0 (shell: unset)" in shell["ARL-L009"]["detail"]
