"""The training side under verl's megatron engine: golden numbers per formula, and verl's NPU recipes.

What is validated against what: the state bytes per parameter against Megatron-Core's distributed
optimizer table (6 + 12/d, 18); the activation terms against Korthikanti et al. 2022's per-layer
accounting (flash attention and no dropout: the replicated 10 sbh less two dropout masks, the
TP-split part, 2 sbh per layer with full recompute, p micro-batches in flight on the first stage).
The recipes are verl's own ascend_extras scripts (verl v0.9.0 tag), composed as verl 0.9.1 does.
No NPU training step was run here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascendrl.cli import main
from ascendrl.preflight import memplan as mp
from ascendrl.preflight import memplan_megatron as mg
from ascendrl.preflight.memplan_advice import Verdict, card_for, make_plan, settings_from_verl, smallest_fix, table
from ascendrl.preflight.memplan_training import Training, plan_training

CONFIGS = Path(__file__).parent / "configs"
GIB = 1 << 30
A, R = "actor_rollout_ref.actor.", "actor_rollout_ref.rollout."


def shape(name: str) -> mp.ModelShape:
    return mp.ModelShape.from_config(json.loads((CONFIGS / f"{name}.json").read_text()), name)


# verl v0.9.0 examples/ascend_extras/grpo_trainer/run_qwen3_32b_mindspeed.sh (16 NPUs, one A3 node)
# https://github.com/verl-project/verl/blob/v0.9.0/examples/ascend_extras/grpo_trainer/run_qwen3_32b_mindspeed.sh
QWEN3_32B_MINDSPEED = {
    "model_engine": "mindspeed", "trainer.n_gpus_per_node": 16, "trainer.nnodes": 1,
    "data.max_prompt_length": 2048, "data.max_response_length": 2048,
    A + "ppo_micro_batch_size_per_gpu": 1, A + "use_dynamic_bsz": False, A + "use_kl_loss": True,
    A + "mindspeed.tensor_model_parallel_size": 4, A + "mindspeed.pipeline_model_parallel_size": 4, A + "mindspeed.context_parallel_size": 1,
    A + "mindspeed.param_offload": True, A + "mindspeed.optimizer_offload": True,
    A + "mindspeed.mcore_kwargs.recompute_method": "uniform", A + "mindspeed.mcore_kwargs.recompute_granularity": "full",
    A + "mindspeed.mcore_kwargs.recompute_num_layers": 1, "actor_rollout_ref.ref.mindspeed.param_offload": True,
    R + "gpu_memory_utilization": 0.5, R + "tensor_model_parallel_size": 4, R + "data_parallel_size": 1, R + "enforce_eager": False,
}
# verl v0.9.0 examples/ascend_extras/grpo_trainer/run_qwen3_30b_a3b_megatron.sh (MoE: TP 4, EP 4, ETP 4)
# https://github.com/verl-project/verl/blob/v0.9.0/examples/ascend_extras/grpo_trainer/run_qwen3_30b_a3b_megatron.sh
QWEN3_30B_A3B_MEGATRON = {
    A + "strategy": "megatron", "trainer.n_gpus_per_node": 16, "trainer.nnodes": 1,
    "data.max_prompt_length": 2048, "data.max_response_length": 8192,
    A + "ppo_micro_batch_size_per_gpu": 1, A + "use_dynamic_bsz": False, A + "use_kl_loss": True,
    A + "megatron.tensor_model_parallel_size": 4, A + "megatron.pipeline_model_parallel_size": 1, A + "megatron.context_parallel_size": 1,
    A + "megatron.expert_model_parallel_size": 4, A + "megatron.expert_tensor_parallel_size": 4,
    A + "megatron.param_offload": True, A + "megatron.optimizer_offload": True, "actor_rollout_ref.ref.megatron.param_offload": True,
    A + "megatron.override_transformer_config.recompute_method": "uniform",
    A + "megatron.override_transformer_config.recompute_granularity": "full",
    A + "megatron.override_transformer_config.recompute_num_layers": 1,
    R + "gpu_memory_utilization": 0.5, R + "tensor_model_parallel_size": 4, R + "enforce_eager": False,
}


@pytest.mark.parametrize(("dist", "d", "per_param"), [(True, 8, 6 + 12 / 8), (True, 1, 18), (False, 8, 18)])
def test_state_bytes_follow_megatrons_distributed_optimizer_table(dist, d, per_param):
    """bf16 parameters, fp32 gradients: 18 bytes replicated, 6 + 12/d with the distributed optimizer."""
    m = shape("qwen2.5-7b-instruct")
    g = mg.Megatron(distributed_optimizer=dist)
    params, grads, optim = mg.state_bytes(m, g, d, "adam")
    assert (params + grads + optim) / m.params() == pytest.approx(per_param, rel=1e-9)


def test_tp_and_pp_split_the_weights_and_dp_shards_the_optimizer():
    m = shape("qwen3-32b")
    g = mg.Megatron(tp=4, pp=4)
    dense, expert = mg.rank_params(m, g)
    body = m.params() - m.embed_params()
    assert expert == 0 and dense == pytest.approx(body / 16 + m.vocab * m.hidden / 4, rel=1e-3)  # one embedding on the heaviest stage
    assert mg.dp_size(32, g) == 2
    assert mg.state_bytes(m, g, 32, "adam")[2] == pytest.approx(12 * dense / 2)


def test_experts_split_over_ep_times_etp_and_shard_over_the_expert_dp_group():
    m = shape("qwen3-30b-a3b")
    g = mg.Megatron(tp=4, ep=4, etp=1)
    dense, expert = mg.rank_params(m, g)
    assert expert == pytest.approx(48 * 128 * 3 * 2048 * 768 / 4)
    assert mg.dp_size(16, g) == 4 and mg.dp_size(16, g, experts=True) == 4
    assert mg.dp_size(16, mg.Megatron(tp=4, ep=4, etp=4), experts=True) == 1


def test_activation_bytes_per_layer_with_and_without_sequence_parallel():
    """Korthikanti et al. 2022 eq. 2 / 4 with flash attention and no dropout: TP alone keeps the
    replicated 8 h bytes per token (the paper's 10, less its two dropout masks) on every rank; with
    sequence parallel all of it is split over t. The split part: Q, K, V, the attention output, the
    gated MLP's up output (2 I) and its activation (I), 2 bytes each."""
    m = shape("qwen2.5-7b-instruct")  # h 3584, 28 heads, 4 KV heads of 128, I 18944
    split = 2 * ((28 + 8) * 128 + 3584 + 3 * 18944) / 4
    assert mg.layer_bytes_per_token(m, mg.Megatron(tp=4, sequence_parallel=False)) == pytest.approx(split + 8 * 3584)
    assert mg.layer_bytes_per_token(m, mg.Megatron(tp=4, sequence_parallel=True)) == pytest.approx(split + 8 * 3584 / 4)


def test_full_recompute_keeps_each_layers_input_and_rebuilds_one_layer():
    """The paper's full recompute: 2 sbh / t per layer (the checkpointed input), plus one layer rebuilt in backward."""
    m = shape("qwen2.5-7b-instruct")
    g = mg.Megatron(tp=4, recompute="full", recompute_method="uniform", recompute_layers=1)
    tokens = 8192
    expected = tokens * (m.layers * 2 * m.hidden / 4 + mg.layer_bytes_per_token(m, g))
    assert mg.stage_activations(m, g, tokens, recompute=True) == pytest.approx(expected)
    assert mg.stage_activations(m, g, tokens, recompute=False) == pytest.approx(tokens * m.layers * mg.layer_bytes_per_token(m, g))
    block = mg.Megatron(tp=4, recompute="full", recompute_method="block", recompute_layers=m.layers)
    assert mg.stage_activations(m, block, tokens, recompute=True) < mg.stage_activations(m, g, tokens, recompute=False)


def test_the_first_pipeline_stage_holds_p_micro_batches_and_cp_splits_the_sequence():
    """Under 1F1B the first stage keeps p micro-batches of L/p layers: as much as all L layers of one."""
    m = shape("qwen3-32b")
    one = mg.peak_parts(m, mg.Megatron(tp=4), tokens=4096, recompute=False)[0]
    staged = mg.peak_parts(m, mg.Megatron(tp=4, pp=4), tokens=4096, recompute=False)[0]
    assert staged == pytest.approx(one, rel=1e-9)
    acts, logits = mg.peak_parts(m, mg.Megatron(tp=4, cp=2), tokens=4096, recompute=False)
    assert acts == pytest.approx(one / 2) and logits == pytest.approx(4096 / 2 * m.vocab / 4 * 10)
    assert mg.in_flight(mg.Megatron(pp=4, vpp=2)) == pytest.approx(4 * (1 + 3 / 8))


def test_the_mindspeed_npu_recipe_reads_its_layout_and_fits_an_a3_node():
    rollout, training = settings_from_verl(QWEN3_32B_MINDSPEED)
    g = training.megatron
    assert (g.tp, g.pp, g.cp, g.recompute, g.recompute_method, g.sequence_parallel) == (4, 4, 1, "full", "uniform", True)
    assert training.param_offload and training.optimizer_offload and training.ref_param_offload and training.gradient_checkpointing
    assert training.optimizer == "adam" and training.world == 16 and rollout.tp == 4
    plan = make_plan(shape("qwen3-32b"), rollout, training, card_for(64, "Ascend910_93"))
    assert plan.verdicts == (Verdict.FITS,)
    assert plan.rollout.resident < 2 * GIB  # everything offloaded while vLLM rolls out
    t = plan.training
    assert t.params == pytest.approx(4.0 * GIB, rel=0.02) and t.optimizer == pytest.approx(6 * t.params, rel=1e-6)  # 12 bytes over DP 1
    lines = table(plan)
    assert any("Megatron TP 4 PP 4 CP 1 over 16 NPUs" in line and "full recompute" in line for line in lines)


def test_the_moe_megatron_npu_recipe_fits_and_without_offload_or_recompute_it_does_not():
    rollout, training = settings_from_verl(QWEN3_30B_A3B_MEGATRON)
    assert (training.megatron.ep, training.megatron.etp) == (4, 4)
    m = shape("qwen3-30b-a3b")
    assert make_plan(m, rollout, training, card_for(64)).fits
    heavy = {**QWEN3_30B_A3B_MEGATRON, A + "ppo_micro_batch_size_per_gpu": 4, A + "megatron.param_offload": False,
             A + "megatron.optimizer_offload": False, A + "megatron.override_transformer_config.recompute_granularity": None}
    rollout, training = settings_from_verl(heavy)
    plan = make_plan(m, rollout, training, card_for(64))
    assert Verdict.TRAINING_OOM in plan.verdicts and not training.gradient_checkpointing


@pytest.mark.parametrize(("micro", "response", "key", "value"), [
    (4, 8192, A + "ppo_micro_batch_size_per_gpu", 2),
    (1, 30720, A + "megatron.override_transformer_config.recompute_granularity", "full (with recompute_method=uniform, recompute_num_layers=1)"),
])
def test_smallest_fix_names_the_megatron_keys(micro, response, key, value):
    """The 30B-A3B recipe without recompute: a halved micro-batch fits at 10k tokens; at 32k tokens a
    micro-batch of one does not, and full recompute (with the method Megatron requires with it) does."""
    base = {**QWEN3_30B_A3B_MEGATRON, A + "megatron.override_transformer_config.recompute_granularity": None,
            A + "ppo_micro_batch_size_per_gpu": micro, "data.max_response_length": response}
    rollout, training = settings_from_verl(base)
    plan = make_plan(shape("qwen3-30b-a3b"), rollout, training, card_for(64))
    assert plan.verdicts == (Verdict.TRAINING_OOM,)
    change = smallest_fix(plan)
    assert change is not None and (change.key, change.value) == (key, value)
    assert change.plan.fits and change.plan.training.peak < plan.training.peak


def test_plan_training_dispatches_on_the_strategy():
    m = shape("qwen2.5-7b-instruct")
    fsdp = plan_training(m, Training(world=8), rollout_held=0)
    meg = plan_training(m, Training(world=8, megatron=mg.Megatron(tp=2)), rollout_held=0)
    assert fsdp.gathered > 0 and meg.gathered == 0
    assert meg.params == pytest.approx(2 * mg.rank_params(m, mg.Megatron(tp=2))[0], rel=1e-6)


def test_plan_verb_with_megatron_overrides(capsys):
    args = ["plan", "--model", str(CONFIGS / "qwen3-32b.json"), "--hbm-gb", "64", "--npus", "16", "--json"]
    words = [f"{k}={v}" for k, v in QWEN3_32B_MINDSPEED.items() if k not in ("trainer.n_gpus_per_node", "trainer.nnodes")]
    sets = [w for word in words for w in ("--set", word)]
    assert main([*args, *sets]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["verdicts"] == ["fits"] and data["plan"]["training"]["gathered_gib"] == 0
    assert data["plan"]["training"]["strategy"] == "megatron"


def test_the_rule_plans_a_megatron_recipe_as_lint_composes_it():
    """ARL-L013 on the config lint_query selects for a model_engine=megatron recipe (verl 0.9.1 key names)."""
    from ascendrl.preflight.model import Fact, Facts, Status
    from ascendrl.preflight.probes.npu_smi import parse_npu_smi_info
    from ascendrl.preflight.rules.recipe import MemoryEstimate

    config = {**QWEN3_30B_A3B_MEGATRON, "trainer.n_gpus_per_node": 8, "data.max_response_length": 30720,
              A + "megatron.override_transformer_config.recompute_granularity": None, A + "optim.main_grads_dtype": "fp32"}
    query = {"verl": {"version": "0.9.1"}, "config": config,
             "model": {"exists": True, "configured": "/models/Qwen3-30B-A3B", "config": json.loads((CONFIGS / "qwen3-30b-a3b.json").read_text())}}
    npu_smi = (Path(__file__).parent.parent / "hosts" / "npu-smi" / "healthy-8x910b3.txt").read_text()
    facts = Facts({"lint.recipe": Fact({"name": "moe", "overrides": [], "env": {}}, "test"), "lint.query": Fact(query, "test"),
                   "npu_smi.info": Fact(parse_npu_smi_info(npu_smi), "test"), "pkg.vllm_ascend": Fact("0.13.0", "test")})
    f = MemoryEstimate().evaluate(facts)
    assert f.status is Status.WARN and "OOM in training likely" in f.detail and "Megatron TP 4 PP 1 CP 1 EP 4 ETP 4 over 8 NPUs" in f.detail
    assert "recompute_granularity=full" in f.fix and f.facts["plan"]["training"]["strategy"] == "megatron"


def test_a_megatron_script_is_composed_with_its_config_name():
    """verl's script passes --config-name='ppo_megatron_trainer.yaml' (ppo_trainer with model_engine=megatron):
    the lint and the plan compose it that way instead of against the FSDP default."""
    from ascendrl.preflight.launch import config_name_overrides
    from ascendrl.run_cmd import launch_from_command

    script = Path(__file__).parent / "scripts" / "run_qwen3_30b_a3b_megatron.sh"
    entry, overrides = launch_from_command(["bash", str(script)], env={"HOME": "/h"})
    assert entry == "verl.trainer.main_ppo" and overrides[0] == "model_engine=megatron"
    words = {o.split("=", 1)[0].lstrip("+"): o.split("=", 1)[1] for o in overrides}
    rollout, training = settings_from_verl({k: (int(v) if v.isdigit() else {"True": True, "False": False}.get(v, v)) for k, v in words.items()})
    assert training.megatron is not None and (training.megatron.tp, training.megatron.ep, training.megatron.etp) == (4, 4, 4)
    assert training.param_offload and training.gradient_checkpointing and rollout.tp == 4
    direct = ["python3", "-m", "verl.trainer.main_ppo", "--config-name", "ppo_megatron_trainer", "trainer.nnodes=1"]
    assert launch_from_command(direct) == ("verl.trainer.main_ppo", ["model_engine=megatron", "trainer.nnodes=1"])
    assert config_name_overrides(["--config-name=ppo_trainer"]) == ((), ())
