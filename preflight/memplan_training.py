"""Memory plan, the verl side: the actor and reference per NPU, in rollout and in update_actor.

Pure Python like ``memplan.py``; byte sizes per parameter come from ``data/memplan.yaml``
(FSDP: verl creates the actor in fp32 and the reference in bf16, verl/workers/fsdp_workers.py).
Megatron / MindSpeed layouts are in ``memplan_megatron.py``; ``Training.megatron`` selects them.
"""

from __future__ import annotations

import dataclasses

from . import memplan_megatron as mg
from .memplan import GIB, ModelShape, constants


@dataclasses.dataclass(frozen=True)
class Training:
    """verl actor/ref settings (actor_rollout_ref.actor.*, .ref.*, .model.*)."""

    world: int = 8
    micro_batch: int = 2
    seq_len: int = 4096  # max_prompt_length + max_response_length
    dynamic_bsz_tokens: int = 0  # ppo_max_token_len_per_gpu when use_dynamic_bsz
    gradient_checkpointing: bool = True
    remove_padding: bool = True
    param_offload: bool = False
    optimizer_offload: bool = False
    offload_policy: bool = False  # FSDP2 CPUOffloadPolicy: params/grads/optimizer stay on CPU in update
    optimizer: str = "adamw"
    ref: bool = True
    ref_param_offload: bool = False
    free_cache_engine: bool = True
    critic: bool = False  # PPO with GAE: verl's CriticWorker on the same NPUs (hybrid placement)
    critic_param_offload: bool = False
    critic_optimizer_offload: bool = False
    megatron: mg.Megatron | None = None  # strategy=megatron: gradient_checkpointing means full recompute

    @property
    def strategy(self) -> str:
        return "megatron" if self.megatron else "fsdp"


@dataclasses.dataclass(frozen=True)
class TrainingPlan:
    """HBM per NPU during update_actor, by part (bytes)."""

    params: int
    grads: int
    optimizer: int
    gathered: int
    activations: int
    logits: int
    ref: int
    rollout_residue: int
    context: int
    tokens: int
    critic: int = 0


    @property
    def peak(self) -> int:
        return self.params + self.grads + self.optimizer + self.gathered + self.activations + self.logits + self.ref + self.rollout_residue + self.context + self.critic

    def rows(self) -> list[tuple[str, int]]:
        return [(k, getattr(self, k)) for k in ("params", "grads", "optimizer", "gathered", "activations", "logits", "ref", "critic", "rollout_residue", "context")]


def resident_during_rollout(m: ModelShape, t: Training, *, after_first_step: bool = True) -> int:
    """The training state verl leaves on each NPU while vLLM rolls out (hybrid engine, colocated).

    verl offloads params / optimizer between phases only when param_offload / optimizer_offload
    are set (fsdp_workers.py: offload after init and after update_actor, load before it); grads
    are freed (zero_grad set_to_none). At vLLM's profiling (init) the optimizer has no state yet
    and the reference is not built yet (init_model builds actor, then rollout, then ref).
    """
    c = constants()["training"]
    if t.megatron is not None:
        return _megatron_resident(m, t, t.megatron, after_first_step)
    p = m.params()
    out = 0 if (t.param_offload or t.offload_policy) else p * c["actor_param_bytes"] / t.world
    if after_first_step and not (t.optimizer_offload or t.offload_policy):
        out += p * c["optimizer_bytes"].get(t.optimizer, 8) / t.world
    if after_first_step and t.ref and not t.ref_param_offload:
        out += p * c["ref_param_bytes"] / t.world
    return int(out + critic_resident(m, t, after_first_step=after_first_step) + c["context_gib"] * GIB)


def critic_resident(m: ModelShape, t: Training, *, after_first_step: bool = True) -> int:
    """The critic's state left on each NPU outside update_critic. verl's CriticWorker builds the value
    model in fp32 (fsdp_config.model_dtype defaults to fp32; AutoModelForTokenClassification: the body
    and a 1-wide score head, no lm_head) with AdamW, sharded like the actor, and offloads params /
    optimizer between phases only when critic.model.fsdp_config.param_offload / optimizer_offload are set."""
    if not t.critic:
        return 0
    c = constants()["training"]
    p = m.params() - (0 if m.tied else m.vocab * m.hidden)
    out = 0 if t.critic_param_offload else p * c["actor_param_bytes"] / t.world
    if after_first_step and not t.critic_optimizer_offload:
        out += p * c["optimizer_bytes"].get(t.optimizer, 8) / t.world
    return int(out)


def plan_training(m: ModelShape, t: Training, *, rollout_held: int) -> TrainingPlan:
    """Peak HBM of update_actor per NPU (FSDP: states sharded over the world, one layer gathered).

    Activations: tokens = micro_batch x (prompt + response) (or ppo_max_token_len_per_gpu with
    dynamic batch size) — remove_padding makes the real count smaller, never larger, so this is
    the worst case. With gradient checkpointing each layer keeps its input (hidden x tokens) and
    one layer is recomputed at a time; without it every layer keeps ~2 x (5 h + qkv + 3 I) bytes
    per token (Korthikanti et al. 2022's accounting with flash attention and a SwiGLU MLP).
    """
    c = constants()["training"]
    if t.megatron is not None:
        return _megatron_training(m, t, t.megatron, rollout_held)
    p = m.params()
    on_device = not t.offload_policy  # verl loads offloaded params/optimizer back before update_actor
    params = p * c["actor_param_bytes"] / t.world if on_device else 0
    grads = p * c["grad_bytes"] / t.world if on_device else 0
    optim = p * c["optimizer_bytes"].get(t.optimizer, 8) / t.world if on_device else 0
    cb = c["compute_bytes"]
    layer_params = m.attn_params() + m.mlp_params(m.layers - 1)
    gathered = 2 * layer_params * cb + m.embed_params() * cb  # current + prefetched layer, the root unit
    tokens = t.dynamic_bsz_tokens or t.micro_batch * t.seq_len
    qkv = (m.heads + 2 * m.kv_heads) * m.head_dim
    inter = m.experts_per_token * m.moe_intermediate + m.shared_intermediate if m.experts else m.intermediate
    per_layer = cb * (5 * m.hidden + qkv + 3 * inter)
    if t.gradient_checkpointing:
        acts = tokens * (m.layers * m.hidden * cb + per_layer)
    else:
        acts = tokens * m.layers * per_layer
    logits = tokens * m.vocab * c["logits_bytes_per_entry"]
    ref = p * c["ref_param_bytes"] / t.world if (t.ref and not t.ref_param_offload) else 0
    return TrainingPlan(
        params=int(params), grads=int(grads), optimizer=int(optim), gathered=int(gathered), activations=int(acts),
        logits=int(logits), ref=int(ref), rollout_residue=int(rollout_held), context=int(c["context_gib"] * GIB), tokens=tokens,
        critic=critic_resident(m, t),
    )


def _megatron_resident(m: ModelShape, t: Training, g: mg.Megatron, after_first_step: bool) -> int:
    """verl's megatron workers offload weights and the grad buffer with param_offload, the optimizer
    with optimizer_offload (megatron_workers.py: offload_megatron_model_to_cpu / offload_megatron_optimizer
    after init and after update_actor). Before the first step the optimizer holds its fp32 master copy only."""
    params, grads, optim = mg.state_bytes(m, g, t.world, t.optimizer)
    out = 0.0 if t.param_offload else params + grads
    if not t.optimizer_offload:
        out += optim if after_first_step else optim * 4 / (4 + constants()["training"]["optimizer_bytes"].get(t.optimizer, 8))
    if after_first_step and t.ref and not t.ref_param_offload:
        out += params
    return int(out + constants()["training"]["context_gib"] * GIB)


def _megatron_training(m: ModelShape, t: Training, g: mg.Megatron, rollout_held: int) -> TrainingPlan:
    """update_actor under Megatron: everything loaded back, activations of the heavier pipeline stage."""
    params, grads, optim = mg.state_bytes(m, g, t.world, t.optimizer)
    tokens = t.dynamic_bsz_tokens or t.micro_batch * t.seq_len
    acts, logits = mg.peak_parts(m, g, tokens=tokens, recompute=t.gradient_checkpointing)
    ref = params if (t.ref and not t.ref_param_offload) else 0
    return TrainingPlan(
        params=int(params), grads=int(grads), optimizer=int(optim), gathered=0, activations=int(acts), logits=int(logits),
        ref=int(ref), rollout_residue=int(rollout_held), context=int(constants()["training"]["context_gib"] * GIB), tokens=tokens,
    )
