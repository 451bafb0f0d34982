"""Verdicts, the smallest fix (re-planned to fit), ARL-L013 on facts, and `ascendrl plan`."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path

import pytest

from ascendrl.cli import main
from ascendrl.preflight import memplan as mp
from ascendrl.preflight import memplan_training as mt
from ascendrl.preflight.memplan_advice import Card, Verdict, card_for, card_from_npu_smi, make_plan, settings_from_verl, smallest_fix
from ascendrl.preflight.model import Fact, Facts, Status
from ascendrl.preflight.probes.npu_smi import parse_npu_smi_info
from ascendrl.preflight.rules.recipe import MemoryEstimate

HERE = Path(__file__).parent
CONFIGS = HERE / "configs"
NPU_SMI = HERE.parent / "hosts" / "npu-smi"
GIB = 1 << 30
SEED = {  # the seed recipe's settings (recipes/qwen25vl-7b-gsm8k-grpo.yaml), as verl composes them
    "trainer.n_gpus_per_node": 8, "trainer.nnodes": 1, "data.max_prompt_length": 1024, "data.max_response_length": 2048,
    "actor_rollout_ref.rollout.tensor_model_parallel_size": 4, "actor_rollout_ref.rollout.gpu_memory_utilization": 0.5,
    "actor_rollout_ref.rollout.enable_chunked_prefill": False, "actor_rollout_ref.rollout.enforce_eager": True,
    "actor_rollout_ref.rollout.free_cache_engine": True, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 2,
    "actor_rollout_ref.model.enable_gradient_checkpointing": True, "actor_rollout_ref.model.use_remove_padding": True,
    "actor_rollout_ref.actor.fsdp_config.param_offload": False, "actor_rollout_ref.actor.fsdp_config.optimizer_offload": False,
    "actor_rollout_ref.actor.use_kl_loss": True, "actor_rollout_ref.ref.fsdp_config.param_offload": True,
}


def shape(name: str) -> mp.ModelShape:
    return mp.ModelShape.from_config(json.loads((CONFIGS / f"{name}.json").read_text()), name)


def assert_fix_fits(plan, expected_key, **kw):
    change = smallest_fix(plan, **kw)
    assert change is not None and change.key.endswith(expected_key), change and change.describe()
    assert change.plan.fits
    again = make_plan(change.plan.model, change.plan.rollout_cfg, change.plan.training_cfg, change.plan.card, **kw)
    assert again.fits  # the suggested change, planned from scratch, fits
    return change


def test_the_seed_recipe_fits_an_8x910b_host():
    rollout, training = settings_from_verl(SEED)
    assert (rollout.tp, rollout.max_model_len, rollout.max_num_batched_tokens, training.world) == (4, 3072, 8192, 8)
    plan = make_plan(shape("qwen2.5-vl-7b-instruct"), rollout, training, card_for(64), vllm_ascend="0.11.0rc1")
    assert plan.verdicts == (Verdict.FITS,)
    assert plan.rollout.era.formula == "legacy_peak" and plan.rollout.kv_tokens > 100 * 3072
    assert plan.training.peak < plan.card.total and plan.rollout_margin > 0
    assert smallest_fix(plan) is None


def test_negative_kv_and_its_fix():
    """vllm-ascend#9372's setting: Qwen3-14B alone on a 32 GB NPU at util 0.9."""
    plan = make_plan(shape("qwen3-14b"), mp.Rollout(gpu_memory_utilization=0.9, max_model_len=4096, max_num_batched_tokens=2048), None, card_for(32), vllm_ascend="0.18.0")
    assert Verdict.NEGATIVE_KV in plan.verdicts and plan.rollout.kv < 0
    change = assert_fix_fits(plan, "gpu_memory_utilization", vllm_ascend="0.18.0")
    assert change.value == 0.95 and change.plan.rollout.kv_tokens >= 4096


def test_kv_below_one_sequence_and_its_fix():
    r = mp.Rollout(gpu_memory_utilization=0.4, max_model_len=131072, max_num_batched_tokens=8192)
    plan = make_plan(shape("llama-3.1-8b-instruct"), r, None, card_for(64), vllm_ascend="0.18.0")
    assert plan.verdicts == (Verdict.KV_BELOW_ONE_SEQUENCE,)
    change = assert_fix_fits(plan, "gpu_memory_utilization", vllm_ascend="0.18.0")
    assert 0.4 < change.value <= 0.6 and change.plan.rollout.kv_tokens >= 131072
    # on a 32 GB NPU no utilization holds 16 GiB of KV next to 15 GiB of weights: TP 2 does
    small = make_plan(shape("llama-3.1-8b-instruct"), dataclasses.replace(r, gpu_memory_utilization=0.6), None, card_for(32), vllm_ascend="0.18.0")
    assert assert_fix_fits(small, "tensor_model_parallel_size", vllm_ascend="0.18.0").value == 2


def test_start_refused_when_another_process_holds_the_card():
    card = Card(total=mp.usable_bytes(65536), other=40 * GIB)
    plan = make_plan(shape("qwen2.5-0.5b-instruct"), mp.Rollout(gpu_memory_utilization=0.5, max_model_len=2048), None, card, vllm_ascend="0.18.0")
    assert Verdict.START_REFUSED in plan.verdicts
    assert smallest_fix(plan, vllm_ascend="0.18.0").value == "stopped"  # freeing the NPU comes first
    util = [c for c in range(2, 20) if make_plan(plan.model, dataclasses.replace(plan.rollout_cfg, gpu_memory_utilization=c / 20), None, card, vllm_ascend="0.18.0").fits]
    assert util and max(util) / 20 <= (card.total - card.other) / card.total  # lowering util alone also works


def test_legacy_release_subtracts_other_processes_instead_of_refusing():
    card = Card(total=mp.usable_bytes(65536), other=40 * GIB)
    plan = make_plan(shape("qwen2.5-0.5b-instruct"), mp.Rollout(gpu_memory_utilization=0.5, max_model_len=2048), None, card, vllm_ascend="0.11.0rc1")
    assert Verdict.START_REFUSED not in plan.verdicts and Verdict.NEGATIVE_KV in plan.verdicts


def test_rollout_oom_when_the_optimizer_state_arrives_after_profiling():
    """vLLM sizes KV before the first step; from step 2 AdamW's state sits next to it."""
    settings = {**SEED, "actor_rollout_ref.rollout.gpu_memory_utilization": 0.8, "actor_rollout_ref.rollout.tensor_model_parallel_size": 1,
                "actor_rollout_ref.ref.fsdp_config.param_offload": False}
    rollout, training = settings_from_verl(settings)
    plan = make_plan(shape("qwen2.5-7b-instruct"), rollout, training, card_for(64), vllm_ascend="0.18.0")
    assert plan.verdicts == (Verdict.ROLLOUT_OOM,)
    assert_fix_fits(plan, "gpu_memory_utilization", vllm_ascend="0.18.0")


def test_training_oom_and_the_micro_batch_fix():
    settings = {**SEED, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 16, "data.max_response_length": 4096}
    rollout, training = settings_from_verl(settings)
    plan = make_plan(shape("qwen2.5-vl-7b-instruct"), rollout, training, card_for(64), vllm_ascend="0.11.0rc1")
    assert plan.verdicts == (Verdict.TRAINING_OOM,)
    change = assert_fix_fits(plan, "ppo_micro_batch_size_per_gpu", vllm_ascend="0.11.0rc1")
    assert change.value < 16


def test_checkpointing_and_offload_lower_the_training_peak():
    base = mt.Training(world=8, micro_batch=2, seq_len=4096, gradient_checkpointing=False)
    m = shape("qwen2.5-7b-instruct")
    plain = mt.plan_training(m, base, rollout_held=0)
    ckpt = mt.plan_training(m, mt.Training(world=8, micro_batch=2, seq_len=4096, gradient_checkpointing=True), rollout_held=0)
    cpu = mt.plan_training(m, mt.Training(world=8, micro_batch=2, seq_len=4096, offload_policy=True), rollout_held=0)
    assert ckpt.activations < plain.activations / 5
    assert cpu.params == cpu.optimizer == 0 and cpu.peak < ckpt.peak
    # verl loads param/optimizer offload back before update_actor: no effect on the training peak
    off = mt.plan_training(m, mt.Training(world=8, micro_batch=2, seq_len=4096, gradient_checkpointing=True, param_offload=True, optimizer_offload=True), rollout_held=0)
    assert off.peak == ckpt.peak
    assert mt.resident_during_rollout(m, mt.Training(param_offload=True, optimizer_offload=True)) < mt.resident_during_rollout(m, mt.Training())


def test_graph_memory_counted_only_where_the_release_counts_it():
    m, r = shape("qwen2.5-7b-instruct"), mp.Rollout(enforce_eager=False, capture_sizes=20, gpu_memory_utilization=0.8)
    total = mp.usable_bytes(65536)
    counted = mp.plan_rollout(m, r, total=total, vllm_ascend="0.21.0rc1")
    not_counted = mp.plan_rollout(m, r, total=total, vllm_ascend="0.23.0")
    assert counted.graph == not_counted.graph > 0
    assert not_counted.kv - counted.kv == counted.graph


def test_card_from_npu_smi_takes_the_busiest_npu():
    occupied = card_from_npu_smi(parse_npu_smi_info((NPU_SMI / "occupied.txt").read_text()), 8)
    assert occupied.other == 58210 * (1 << 20) and "NPU 0" in occupied.chip and occupied.hbm_gib == 64
    healthy = card_from_npu_smi(parse_npu_smi_info((NPU_SMI / "healthy-8x910b3.txt").read_text()), 8)
    assert healthy.other == 0  # idle HBM-Usage (~3.4 GB) is below the idle level
    busy = card_from_npu_smi(parse_npu_smi_info((NPU_SMI / "hbm-busy-no-process.txt").read_text()), 8)
    assert busy.other > 10 * GIB  # held by a process in another container: no process rows


def _lint_facts(npu_smi: str, **overrides) -> Facts:
    cfg = json.loads((CONFIGS / "qwen2.5-vl-7b-instruct.json").read_text())
    query = {"verl": {"version": "0.7.0"}, "config": {**SEED, **overrides}, "model": {"exists": True, "configured": "/models/Qwen2.5-VL-7B-Instruct", "config": cfg}}
    return Facts({
        "lint.recipe": Fact({"name": "seed", "overrides": [], "env": {}}, "test"),
        "lint.query": Fact(query, "test"),
        "npu_smi.info": Fact(parse_npu_smi_info((NPU_SMI / npu_smi).read_text()), "test"),
        "pkg.vllm_ascend": Fact("0.11.0rc1", "test"),
    })


def test_rule_passes_the_seed_on_a_free_host_with_the_table():
    f = MemoryEstimate().evaluate(_lint_facts("healthy-8x910b3.txt"))
    assert f.status is Status.PASS and "of 64 GiB" in f.detail and "KV cache" in f.detail and "training" in f.detail
    assert f.facts["plan"]["verdicts"] == ["fits"] and f.facts["plan"]["rollout"]["formula"] == "legacy_peak"
    doc = json.loads(json.dumps(f.to_json()))  # what `check --json` carries
    assert doc["facts"]["plan"]["rollout"]["kv_cache_tokens"] > 0 and doc["facts"]["plan"]["training"]["peak_gib"] > 0


def test_rule_fails_when_a_leftover_process_holds_an_npu_and_names_the_fix():
    f = MemoryEstimate().evaluate(_lint_facts("occupied.txt"))
    assert f.status is Status.FAIL and "negative KV" in f.detail
    assert f.facts["plan"]["card"]["other_processes_gib"] > 50
    assert f.facts["smallest_fix"]["value"] == "stopped" and f.facts["smallest_fix"]["plan"]["verdicts"] == ["fits"]
    assert "ARL-D003" in f.fix and "logged clamped to 0" in f.detail


def test_rule_warns_on_a_training_oom_with_the_micro_batch_fix():
    f = MemoryEstimate().evaluate(_lint_facts("healthy-8x910b3.txt", **{"actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 16, "data.max_response_length": 4096}))
    assert f.status is Status.WARN and "OOM in training likely" in f.detail
    assert "ppo_micro_batch_size_per_gpu" in f.fix and f.facts["smallest_fix"]["plan"]["verdicts"] == ["fits"]


def test_rule_skips_without_a_config_json():
    facts = _lint_facts("healthy-8x910b3.txt")
    q = dict(facts.value("lint.query"), model={"exists": False, "configured": "/nope"})
    f = MemoryEstimate().evaluate(Facts({**{k: facts[k] for k in facts}, "lint.query": Fact(q, "test")}))
    assert f.status is Status.SKIP and "config.json" in f.detail


def test_lint_query_reads_the_whole_config_json(tmp_path):
    spec = importlib.util.spec_from_file_location("lint_query", Path(mp.__file__).with_name("lint_query.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "config.json").write_text((CONFIGS / "qwen2.5-7b-instruct.json").read_text())
    assert module.model_facts(str(tmp_path))["config"]["num_key_value_heads"] == 4


def test_plan_verb_json_and_text(capsys):
    args = ["plan", "--model", str(CONFIGS / "qwen2.5-vl-7b-instruct.json"), "--recipe", "qwen25vl-7b-gsm8k-grpo", "--hbm-gb", "64"]
    assert main([*args, "--json", "--vllm-ascend", "0.11.0rc1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["plan"]["verdicts"] == ["fits"] and [o["tp"] for o in data["tp_options"]] == [1, 2, 4]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "KV cache" in out and "verdict   fits" in out and "TP 4" in out


@pytest.mark.parametrize("argv", [["plan", "--model", "/nonexistent"], ["plan", "--model", str(CONFIGS / "qwen3-14b.json"), "--hbm-gb", "-1"]])
def test_plan_verb_bad_input_is_a_usage_error(argv, capsys):
    assert main(argv) == 2
    assert "Traceback" not in capsys.readouterr().err
