"""The PPO critic on the actor's NPUs (verl's CriticWorker, hybrid placement): when verl runs one
(need_critic: critic.enable, else GAE) and what it holds outside update_critic."""

from __future__ import annotations

import json
from pathlib import Path

from ascendrl.preflight import memplan as mp
from ascendrl.preflight.memplan_advice import Card, make_plan, settings_from_verl
from ascendrl.preflight.memplan_training import critic_resident

HERE = Path(__file__).parent
GIB = 1 << 30


def llama3b() -> mp.ModelShape:
    return mp.ModelShape.from_config(json.loads((HERE / "configs" / "llama-3.2-3b-instruct.json").read_text()))


def test_which_settings_run_a_critic():
    assert settings_from_verl({"algorithm.adv_estimator": "gae"})[1].critic
    assert not settings_from_verl({"algorithm.adv_estimator": "grpo"})[1].critic
    assert not settings_from_verl({"algorithm.adv_estimator": "gae", "critic.enable": False})[1].critic
    assert settings_from_verl({"algorithm.adv_estimator": "grpo", "critic.enable": True})[1].critic
    assert settings_from_verl({"critic.model.path": "/models/x"})[1].critic  # a command line naming a critic model
    assert not settings_from_verl({})[1].critic


def test_critic_state_is_fp32_params_and_adamw_sharded():
    m = llama3b()
    _, t = settings_from_verl({"algorithm.adv_estimator": "gae", "trainer.n_gpus_per_node": 4})
    body = m.params()  # tied embeddings: the value model keeps the same body, a 1-wide head
    assert abs(critic_resident(m, t) - body * 12 / 4) <= 2  # fp32 params + exp_avg + exp_avg_sq over 4 ranks
    assert critic_resident(m, t, after_first_step=False) == int(body * 4 / 4)  # no AdamW state before the first step
    _, off = settings_from_verl({"algorithm.adv_estimator": "gae", "trainer.n_gpus_per_node": 4,
                                 "critic.model.fsdp_config.param_offload": True, "critic.model.fsdp_config.optimizer_offload": True})
    assert critic_resident(m, off) == 0


def test_critic_raises_both_phases_by_its_state():
    m, card = llama3b(), Card(total=int(21.99 * GIB))
    base = {"data.max_prompt_length": 512, "data.max_response_length": 256, "trainer.n_gpus_per_node": 4,
            "actor_rollout_ref.rollout.gpu_memory_utilization": 0.4, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 1}
    r, grpo = settings_from_verl({**base, "algorithm.adv_estimator": "grpo"})
    _, gae = settings_from_verl({**base, "algorithm.adv_estimator": "gae"})
    p0, p1 = (make_plan(m, r, t, card, backend="cuda") for t in (grpo, gae))
    assert p1.training.peak - p0.training.peak == critic_resident(m, gae)
    assert p1.rollout.peak - p0.rollout.peak == critic_resident(m, gae)
    assert p0.fits and not p1.fits  # verl#1141's settings: fits without the critic, not with it
