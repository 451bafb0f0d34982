"""Recipes as data: loading, parameters, overrides, and `ascendrl recipes` / `run --dry-run`."""

from __future__ import annotations

import shlex

from pathlib import Path

import pytest

from ascendrl.cli import main
from ascendrl.recipes import RecipeError, builtin_names, load_recipe, parse_recipe

SEED_OVERRIDES = 43  # the seed's tune_qwen25vl7b_grpo.sh passes 44 Hydra overrides; the recipe drops its data.image_key


def test_builtin_recipes_load_and_describe_their_hardware():
    assert set(builtin_names()) == {"qwen25vl-7b-gsm8k-grpo", "qwen25-0.5b-gsm8k-smoke"}
    seed = load_recipe("qwen25vl-7b-gsm8k-grpo")
    assert seed.entry == "verl.trainer.main_ppo"
    assert seed.hardware["npus_per_node"] == 8 and seed.hardware["device"] == "npu"
    assert seed.env == {"VLLM_ASCEND_ENABLE_NZ": "0", "USE_OPTIMIZED_MODEL": "0"}
    assert any("16" in note and "Box16" in note for note in seed.notes)


def test_seed_recipe_matches_the_seed_script():
    resolved = load_recipe("qwen25vl-7b-gsm8k-grpo").resolve()
    assert len(resolved.overrides) == SEED_OVERRIDES
    values = {o.split("=", 1)[0]: o.split("=", 1)[1] for o in resolved.overrides}
    assert values["actor_rollout_ref.rollout.tensor_model_parallel_size"] == "4"
    assert values["data.train_batch_size"] == "512" and values["actor_rollout_ref.rollout.n"] == "5"
    assert values["data.max_prompt_length"] == "1024" and values["data.max_response_length"] == "2048"
    assert values["actor_rollout_ref.actor.kl_loss_type"] == "low_var_kl" and values["actor_rollout_ref.actor.kl_loss_coef"] == "0.01"
    assert values["actor_rollout_ref.rollout.gpu_memory_utilization"] == "0.5"
    assert values["trainer.total_epochs"] == "15" and values["trainer.n_gpus_per_node"] == "8"
    assert values["data.train_files"] == "/workspace/verl/gsm8k/train.parquet"
    assert values["actor_rollout_ref.model.path"] == "/models/Qwen2.5-VL-7B-Instruct"
    assert "geo3k" not in values["trainer.project_name"] and "data.image_key" not in values  # named for GSM8K


def test_seed_recipe_against_the_seed_script_read_statically():
    from ascendrl.preflight.host import Host
    from ascendrl.preflight.launch import read_script

    script = Path(__file__).parents[1] / "fixes" / "scripts" / "tune_qwen25vl7b_grpo.sh"
    launch = read_script(Host(env={"HOME": "/root"}), str(script)).launch
    assert launch is not None
    keys = lambda overrides: {o.split("=", 1)[0] for o in overrides}  # noqa: E731
    recipe = load_recipe("qwen25vl-7b-gsm8k-grpo").resolve()
    assert keys(launch.overrides) - keys(recipe.overrides) == {"data.image_key"}
    assert keys(recipe.overrides) <= keys(launch.overrides)


def test_a_mistyped_parameter_is_an_error_with_the_nearest_names():
    recipe = load_recipe("qwen25vl-7b-gsm8k-grpo")
    with pytest.raises(RecipeError, match=r"modelpath is not a parameter of recipe qwen25vl-7b-gsm8k-grpo; did you mean model_path\?"):
        recipe.resolve(["modelpath=/x"])
    assert recipe.resolve(["+newkey=1"]).overrides[-1] == "+newkey=1"  # a + word is always an override


def test_user_words_set_params_and_replace_or_add_overrides():
    resolved = load_recipe("qwen25vl-7b-gsm8k-grpo").resolve(
        ["model_path=/data/qwen", "trainer.total_epochs=1", "+ray_kwargs.ray_init.num_cpus=64"]
    )
    assert resolved.value("actor_rollout_ref.model.path") == "/data/qwen"
    assert resolved.value("trainer.total_epochs") == "1"
    assert resolved.overrides[-1] == "+ray_kwargs.ray_init.num_cpus=64"
    assert len(resolved.overrides) == SEED_OVERRIDES + 1
    with pytest.raises(RecipeError, match="not key=value"):
        load_recipe("qwen25vl-7b-gsm8k-grpo").resolve(["oops"])


def test_malformed_recipes_are_clear_errors(tmp_path):
    with pytest.raises(RecipeError, match="missing"):
        parse_recipe("name: x\n", "x.yaml")
    with pytest.raises(RecipeError, match=r"bad.yaml:2"):
        parse_recipe("name: x\n  - : [\n", "bad.yaml")
    with pytest.raises(RecipeError, match="has no param"):
        parse_recipe("name: x\ndescription: d\nentry: e\nhardware: {}\noverrides: ['a={{nope}}']\n", "p.yaml")
    with pytest.raises(RecipeError, match="no recipe"):
        load_recipe("no-such-recipe")


def test_user_recipe_by_path(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("name: mine\ndescription: d\nentry: verl.trainer.main_ppo\nhardware: {npus_per_node: 8, nnodes: 1}\n"
                    "params: {lr: {default: '1e-6'}}\noverrides: ['actor_rollout_ref.actor.optim.lr={{lr}}']\n")
    assert load_recipe(str(path)).resolve(["lr=2e-6"]).overrides == ("actor_rollout_ref.actor.optim.lr=2e-6",)


def test_recipes_command(capsys):
    assert main(["recipes"]) == 0
    out = capsys.readouterr().out
    assert "qwen25vl-7b-gsm8k-grpo" in out and "8 NPU x 1 node" in out


def test_run_dry_run_prints_the_exact_command_and_env(capsys):
    assert main(["run", "qwen25vl-7b-gsm8k-grpo", "model_path=/m/q", "trainer.total_epochs=2", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "export VLLM_ASCEND_ENABLE_NZ=0" in out and "export USE_OPTIMIZED_MODEL=0" in out
    command = out[out.index("python3"):].replace("\\\n", " ")
    argv = shlex.split(command)
    assert argv[:3] == ["python3", "-m", "verl.trainer.main_ppo"]
    assert "python3 -m verl.trainer.main_ppo \\\n" in out  # copy-pasteable: the entry point on one line
    assert "actor_rollout_ref.model.path=/m/q" in argv and "trainer.total_epochs=2" in argv
    assert len(argv) == 3 + SEED_OVERRIDES


def test_run_on_a_host_that_fails_preflight_does_not_launch(capsys, tmp_path):
    # This machine has no NPU: preflight fails, and without --force nothing starts.
    assert main(["run", "qwen25vl-7b-gsm8k-grpo", "--runs-dir", str(tmp_path)]) == 125  # ascendrl did not launch
    err = capsys.readouterr().err
    assert "not launching" in err and "ARL-D001" in err
    [run_dir] = list(tmp_path.iterdir())
    assert (run_dir / "preflight.json").exists() and not (run_dir / "output.log").exists()


def test_run_usage_errors(capsys):
    assert main(["run"]) == 125  # run's own failures: docker run's 125
    assert main(["run", "qwen25vl-7b-gsm8k-grpo", "--", "python3", "x.py"]) == 125
    assert main(["run", "--stall-timeout", "0", "--", "true"]) == 125
