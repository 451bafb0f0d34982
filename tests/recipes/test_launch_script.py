"""A launch script read statically gives the overrides bash really passes (verl's own NPU scripts)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from ascendrl.preflight.host import Host
from ascendrl.preflight.launch import read_script

SCRIPTS = Path(__file__).parent / "verl_npu_scripts"
VENDORED = sorted(SCRIPTS.glob("*.sh"))
# A stand-in interpreter: appends its argv as one JSON line and exits (nothing is trained).
STANDIN = "#!/usr/bin/env bash\nexec /usr/bin/python3 -c 'import json,os,sys; open(os.environ[\"ARGV_OUT\"],\"a\").write(json.dumps(sys.argv[1:])+\"\\n\")' \"$0\" \"$@\"\n"


def _env(tmp: Path) -> dict[str, str]:
    stubs = tmp / "bin"
    stubs.mkdir(exist_ok=True)
    for name in ("python3", "python"):
        (stubs / name).write_text(STANDIN)
        (stubs / name).chmod(0o755)
    for name in ("ray", "npu-smi", "nvidia-smi", "huggingface-cli", "ulimit"):
        (stubs / name).write_text("#!/bin/sh\nexit 0\n")
        (stubs / name).chmod(0o755)
    (tmp / "home").mkdir(exist_ok=True)
    # `ulimit -n 32768` fails in a container whose hard limit is lower; BASH_ENV (read before the
    # script) turns the builtin off so the stand-in on PATH answers instead.
    (tmp / "bash_env").write_text("enable -n ulimit\n")
    return {"PATH": f"{stubs}:/usr/bin:/bin", "HOME": str(tmp / "home"), "ARGV_OUT": str(tmp / "argv.jsonl"), "LANG": "C.UTF-8", "USE_DUMMY_MODEL": "False", "BASH_ENV": str(tmp / "bash_env")}


def _bash_launch(script: Path, tmp: Path, env: dict[str, str]) -> list[str] | None:
    """argv bash gives the interpreter for the verl launch (after `-m MODULE`)."""
    work = tmp / "work"
    work.mkdir(exist_ok=True)
    subprocess.run(["bash", str(script)], cwd=work, env=env, capture_output=True, timeout=60)
    lines = (tmp / "argv.jsonl").read_text().splitlines() if (tmp / "argv.jsonl").exists() else []
    for line in lines:
        argv = json.loads(line)
        if "-m" in argv[1:-1] and argv[argv.index("-m") + 1].startswith(("verl.", "recipe.")):
            return argv[argv.index("-m") + 1 :]
    return None


def test_vendored_scripts_are_there():
    assert len(VENDORED) >= 10, "verl's NPU scripts are the test data"


@pytest.mark.parametrize("script", VENDORED, ids=lambda p: p.stem)
def test_overrides_equal_what_bash_passes(script: Path, tmp_path: Path):
    env = _env(tmp_path)
    passed = _bash_launch(script, tmp_path, env)
    read = read_script(Host(env=dict(env)), str(script))
    if passed is None:  # bash stopped before the launch (set -e/-u): the reader says so
        assert read.launch is None and any("bash stops here" in u for u in read.unresolved), read.unresolved
        return
    assert read.launch is not None
    assert read.launch.entry == passed[0]
    bash_overrides = [w for w in passed[1:] if not w.startswith("-") and ("=" in w or w.startswith("~"))]
    assert len(read.launch.overrides) == len(bash_overrides)
    differ = {o.split("=", 1)[0] for o, b in zip(read.launch.overrides, bash_overrides) if o != b}
    assert differ <= set(read.launch.uncertain), differ  # only where it said it could not know
    assert len(read.launch.uncertain) <= 2
    assert list(read.launch.options) == [w for w in passed[1:] if w.startswith("-")]


def test_what_could_not_be_known_is_said(tmp_path: Path):
    read = read_script(Host(env=_env(tmp_path)), str(SCRIPTS / "special_npu_run_one_step_off_policy.sh"))
    assert any("$(…) command substitution" in u for u in read.unresolved)
    read = read_script(Host(env=_env(tmp_path)), str(SCRIPTS / "special_npu_run_qwen2_5_vl_3b_npu.sh"))
    assert any("$1: the script's arguments are not known" in u for u in read.unresolved)
    assert read.launch is not None and read.launch.rollout == "vllm" and read.launch.exports == {"USE_OPTIMIZED_MODEL": "0"}


def test_rollout_engine_and_no_launch(tmp_path: Path):
    sglang = read_script(Host(env=_env(tmp_path)), str(SCRIPTS / "ex_grpo_trainer_run_qwen2-32b_sglang_fsdp_npu.sh"))
    assert sglang.launch is not None and sglang.launch.rollout == "sglang"
    install = tmp_path / "install.sh"
    install.write_text("set -e\npip install 'vllm-ascend==0.11.0'\nexport VLLM_TARGET_DEVICE=npu\necho python3 -m verl.trainer.main_ppo\n")
    read = read_script(Host(env={}), str(install))
    assert read.launch is None and read.env["VLLM_TARGET_DEVICE"] == "npu"


def test_prefix_assignments_arithmetic_and_torchrun(tmp_path: Path):
    script = tmp_path / "train.sh"
    script.write_text(
        "n=4\nlen=$(( (n + 2) * 512 ))\n"
        "EXTRA='trainer.total_epochs=1 trainer.save_freq=-1'\n"
        "HCCL_CONNECT_TIMEOUT=7200 torchrun --nproc_per_node $n -m recipe.dapo.main_dapo \\\n"
        "  data.max_prompt_length=$len $EXTRA \\\n  actor_rollout_ref.rollout.name=\"sglang\" 2>&1 | tee log\n"
    )
    env = _env(tmp_path)
    read = read_script(Host(env=env), str(script))
    assert read.launch is not None and read.launch.entry == "recipe.dapo.main_dapo"
    assert read.launch.overrides == ("data.max_prompt_length=3072", "trainer.total_epochs=1", "trainer.save_freq=-1", "actor_rollout_ref.rollout.name=sglang")
    assert read.launch.env["HCCL_CONNECT_TIMEOUT"] == "7200"
    assert not os.path.exists(tmp_path / "log")  # read, never run


def _cli(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    import sys

    return subprocess.run([sys.executable, "-m", "ascendrl", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_check_script_lints_the_command_as_a_recipe(tmp_path: Path):
    script = SCRIPTS / "special_npu_run_qwen2_5_vl_3b_npu.sh"
    for flag in ("--script", "--recipe"):  # --recipe given a .sh reads it as a script, not YAML
        proc = _cli("check", flag, str(script), "--json", env={**os.environ, "HOME": str(tmp_path)})
        doc = json.loads(proc.stdout)
        ids = {f["id"] for f in doc["findings"]}
        assert "ARL-L001" in ids  # the lint rules ran on the script's command
        assert doc["facts"]["lint.recipe"]["value"]["overrides"][0] == "algorithm.adv_estimator=grpo"
        assert doc["facts"]["env.settings"]["value"].get("USE_OPTIMIZED_MODEL") == "0"  # its export is the run's env
        assert "not valid YAML" not in proc.stderr and "$1: the script's arguments are not known" in proc.stderr


def test_recipes_import_writes_a_recipe_that_loads_back(tmp_path: Path):
    from ascendrl.recipes import load_recipe

    env = {**_env(tmp_path)}
    env["PATH"] = os.environ["PATH"]
    out = tmp_path / "r.yaml"
    script = SCRIPTS / "ex_grpo_trainer_run_qwen3-8b_npu.sh"
    proc = _cli("recipes", "import", str(script), "--out", str(out), env=env)
    assert proc.returncode == 0, proc.stderr
    recipe = load_recipe(str(out))
    read = read_script(Host(env=env), str(script))
    assert read.launch is not None
    assert recipe.entry == "verl.trainer.main_ppo" and list(recipe.overrides) == list(read.launch.overrides)
    assert recipe.hardware["npus_per_node"] == int(read.launch.value("trainer.n_gpus_per_node") or 0)
    install = tmp_path / "install.sh"
    install.write_text("pip install verl\n")
    proc = _cli("recipes", "import", str(install), env=env)
    assert proc.returncode == 1 and "starts no verl training" in proc.stderr


def test_lint_rules_that_need_no_verl_run_without_it_and_the_note_names_a_python_with_verl(tmp_path: Path):
    import sys

    import subprocess
    import sysconfig

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)  # a real venv
    site = venv / Path(sysconfig.get_path("purelib")).relative_to(sysconfig.get_path("data"))
    (site / "verl").mkdir(parents=True)
    (site / "verl" / "__init__.py").write_text("")  # verl installed in that venv (found on disk, never by running it)
    python = venv / "bin" / "python"
    env = {**os.environ, "VIRTUAL_ENV": str(venv), "HOME": str(tmp_path)}
    model = tmp_path / "no-model"
    proc = _cli("check", "--recipe", "qwen25vl-7b-gsm8k-grpo", "--set", f"model_path={model}", env=env)
    lines = {ln.split()[1]: ln for ln in proc.stdout.splitlines() if ln.strip().startswith(("PASS", "WARN", "FAIL", "SKIP")) and "ARL-L" in ln}
    assert lines["ARL-L012"].lstrip().startswith("FAIL") and f"{model} does not exist" in lines["ARL-L012"]
    assert lines["ARL-L010"].lstrip().startswith("FAIL") and "does not exist" in lines["ARL-L010"]
    assert not lines["ARL-L009"].lstrip().startswith("SKIP")
    assert lines["ARL-L002"].lstrip().startswith("SKIP") and "see ARL-L001" in lines["ARL-L002"]
    assert "verl is not installed in this interpreter" in lines["ARL-L001"]
    assert proc.stderr.count("recipe lint rules need verl") == 1 and f"--python {python}" in proc.stderr


def test_run_lints_the_command_or_the_script_it_is_given(tmp_path: Path):
    from ascendrl.run_cmd import launch_from_command

    direct = ["python3", "-m", "verl.trainer.main_ppo", "--config-name=ppo_trainer", "trainer.nnodes=1", "+x.y=2"]
    assert launch_from_command(direct) == ("verl.trainer.main_ppo", ["trainer.nnodes=1", "+x.y=2"])
    script = SCRIPTS / "special_npu_run_qwen2_5_05b_grpo.sh"
    entry, overrides = launch_from_command(["bash", str(script)], env={"HOME": "/h"}) or ("", [])
    assert entry == "verl.trainer.main_ppo" and "data.train_files=/h/data/gsm8k/train.parquet" in overrides
    assert launch_from_command(["bash", "-c", "true"]) is None


def test_check_script_usage_and_a_script_that_launches_nothing(tmp_path: Path):
    install = tmp_path / "install.sh"
    install.write_text("export VLLM_ASCEND_ENABLE_NZ=0\npip install verl\n")
    proc = _cli("check", "--script", str(install), "--json")
    doc = json.loads(proc.stdout)
    assert "starts no verl training" in proc.stderr and not any(f["id"].startswith("ARL-L") for f in doc["findings"])
    assert doc["facts"]["env.settings"]["value"].get("VLLM_ASCEND_ENABLE_NZ") == "0"  # its exports are still the env
    both = _cli("check", "--script", str(install), "--recipe", "qwen25vl-7b-gsm8k-grpo")
    assert both.returncode == 2 and "either --recipe or --script" in both.stderr
    missing = _cli("check", "--script", str(tmp_path / "nope.sh"))
    assert missing.returncode == 2 and "nope.sh" in missing.stderr and "Traceback" not in missing.stderr


def test_values_from_this_shells_environment_are_said_once_and_secrets_hidden(tmp_path: Path):
    script = tmp_path / "train.sh"
    script.write_text(
        "MODEL_PATH=${MODEL_PATH:-/models/q}\nexport WANDB_API_KEY=$WANDB_API_KEY\n"
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.model.path=$MODEL_PATH trainer.default_local_dir=$HOME/ckpt\n"
    )
    read = read_script(Host(env={"HOME": "/h", "MODEL_PATH": "/m", "WANDB_API_KEY": "s3cret"}), str(script))
    assert read.launch is not None and read.launch.value("actor_rollout_ref.model.path") == "/m"
    said = [u for u in read.unresolved if "comes from this shell's environment" in u]
    assert len(said) == 3 and any("$MODEL_PATH" in u and "'/m'" in u for u in said)
    assert not any("s3cret" in u for u in read.unresolved) and any("$WANDB_API_KEY" in u and "***" in u for u in said)


def test_import_leaves_secrets_out_of_the_recipe(tmp_path: Path):
    from ascendrl.recipes import recipe_from_launch, recipe_yaml

    script = tmp_path / "train.sh"
    script.write_text("export HF_TOKEN=hf_abc\nexport TASK_QUEUE_ENABLE=2\npython3 -m verl.trainer.main_ppo trainer.nnodes=1\n")
    launch = read_script(Host(env={}), str(script)).launch
    assert launch is not None
    text = recipe_yaml(recipe_from_launch(launch, str(script)))
    assert "hf_abc" not in text and "HF_TOKEN" in text and "TASK_QUEUE_ENABLE: '2'" in text


@pytest.mark.parametrize("expr", ["7 % 3", "-7 / 2", "-7 % 3", "(a + 2) * b", "a * (b - 10) / 3", "x + 1"])
def test_arithmetic_agrees_with_bash(expr: str):
    from ascendrl.preflight.launch import fill_arithmetic

    env = {"a": "1", "b": "4"}
    bash = subprocess.run(["bash", "-c", f"echo $(({expr}))"], env={**env, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    assert fill_arithmetic(f"$(({expr}))", env) == bash.stdout.strip()
