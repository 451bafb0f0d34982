"""Memory plan, the verl side under Megatron-Core (``actor.strategy=megatron``; MindSpeed on NPU).

verl's megatron engine keeps bf16 weights split over TP x PP (experts over EP x ETP), an fp32
main-grad buffer of the same size, and the fp32 master weights and Adam moments in Megatron's
distributed optimizer, sharded over the data-parallel ranks. Bytes per parameter, from
Megatron-Core's "Distributed Optimizer" guide: bf16 parameters with fp32 gradients take 18
bytes without the distributed optimizer, 6 + 12/d with it (d = data-parallel size)
(https://docs.nvidia.com/megatron-core/developer-guide/latest/api-guide/dist_optimizer.html).

Activations follow Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
Transformer Models" (https://arxiv.org/abs/2205.05198), section 4: per layer and token,
``sbh(10 + 24/t + 5as/(ht))`` bytes with TP alone, ``34/t`` with sequence parallel and selective
recompute, ``2/t`` (the layer's input) with full recompute. Here with flash attention (the
``5as/h`` score term is never stored, so selective recompute of core attention saves nothing
more), no dropout (the paper's two ``sbh`` masks), GQA and a gated MLP: the replicated part is
the inputs of QKV and the MLP and the two norms (8h bytes), the TP-split part is Q/K/V, the
attention output, the gate/up output and the activation (2 (qkv + h + 3 I) bytes).
"""

from __future__ import annotations

import dataclasses
import math

from .memplan import ModelShape, constants


@dataclasses.dataclass(frozen=True)
class Megatron:
    """verl's actor_rollout_ref.actor.megatron.* layout (engine/megatron.yaml in verl 0.9.1)."""

    tp: int = 1
    pp: int = 1
    cp: int = 1
    ep: int = 1
    etp: int | None = None  # expert_tensor_parallel_size; None: same as TP
    sequence_parallel: bool = True
    distributed_optimizer: bool = True
    recompute: str | None = None  # recompute_granularity: full | selective | None
    recompute_method: str | None = None  # uniform | block
    recompute_layers: int = 1  # recompute_num_layers
    vpp: int | None = None  # virtual_pipeline_model_parallel_size
    main_grad_bytes: int = 4  # optim.main_grads_dtype fp32


def dp_size(world: int, g: Megatron, *, experts: bool = False) -> int:
    """Data-parallel ranks the distributed optimizer shards over (with CP: Megatron's DDP group includes it)."""
    split = g.pp * (g.ep * (g.etp or g.tp) if experts else g.tp)
    return max(1, world // split)


def rank_params(m: ModelShape, g: Megatron) -> tuple[float, float]:
    """(dense, expert) parameters on the heaviest pipeline stage of one rank.

    Layers are spread evenly over PP (verl's default; num_layers_in_first/last_pipeline_stage
    are not read); the stage that holds an embedding (vocab-parallel over TP) is the heaviest.
    """
    etp = g.etp or g.tp
    dense = expert = 0.0
    for i in range(m.layers):
        dense += m.attn_params() / g.tp + 2 * m.hidden
        if m.experts and i >= m.dense_layers:
            routed = m.experts * 3 * m.hidden * m.moe_intermediate
            expert += routed / (g.ep * etp)
            dense += (m.mlp_params(i) - routed) / g.tp
        else:
            dense += m.mlp_params(i) / g.tp
    dense, expert = dense / g.pp, expert / g.pp
    embeds = m.embed_params() if g.pp == 1 else m.vocab * m.hidden
    return dense + embeds / g.tp + m.hidden + m.vision_params / g.tp, expert  # + the final norm


def layer_bytes_per_token(m: ModelShape, g: Megatron) -> float:
    """Activation bytes one token keeps in one layer without full recompute (see the module docstring)."""
    cb = constants()["training"]["compute_bytes"]
    qkv = (m.heads + 2 * m.kv_heads) * m.head_dim
    inter = m.experts_per_token * m.moe_intermediate + m.shared_intermediate if m.experts else m.intermediate
    split = cb * (qkv + m.hidden + 3 * inter) / g.tp
    replicated = cb * 4 * m.hidden
    return split + (replicated / g.tp if g.sequence_parallel else replicated)


def stage_activations(m: ModelShape, g: Megatron, tokens: int, recompute: bool) -> float:
    """Activations of one micro-batch on one pipeline stage of ``tokens`` tokens (already split over CP)."""
    cb = constants()["training"]["compute_bytes"]
    layers = math.ceil(m.layers / g.pp)
    full = layer_bytes_per_token(m, g)
    if not recompute:
        return tokens * layers * full
    kept_input = cb * m.hidden / (g.tp if g.sequence_parallel else 1)  # the checkpointed layer input
    n = max(1, min(g.recompute_layers, layers))
    if g.recompute_method == "block":  # n layers per stage recomputed, the rest keep everything
        return tokens * (n * kept_input + (layers - n) * full + full)
    return tokens * (math.ceil(layers / n) * kept_input + n * full)  # uniform: one chunk of n rebuilt at a time


def in_flight(g: Megatron) -> float:
    """Micro-batches whose activations the first stage holds under 1F1B: PP (the paper's section 4.2.3),
    times (1 + (p - 1) / (p v)) with an interleaved schedule of v virtual stages."""
    return g.pp * (1 + (g.pp - 1) / (g.pp * g.vpp)) if g.vpp and g.vpp > 1 else float(g.pp)


def state_bytes(m: ModelShape, g: Megatron, world: int, optimizer: str) -> tuple[float, float, float]:
    """(params, main grads, optimizer) bytes per rank: bf16 weights, the fp32 grad buffer (never
    sharded), fp32 master weights + the optimizer's moments (sharded over DP by the distributed optimizer)."""
    c = constants()["training"]
    dense, expert = rank_params(m, g)
    per_param = 4 + c["optimizer_bytes"].get(optimizer, 8)  # master weights + moments
    if g.distributed_optimizer:
        optim = per_param * (dense / dp_size(world, g) + expert / dp_size(world, g, experts=True))
    else:
        optim = per_param * (dense + expert)
    return c["compute_bytes"] * (dense + expert), g.main_grad_bytes * (dense + expert), optim


def peak_parts(m: ModelShape, g: Megatron, *, tokens: int, recompute: bool) -> tuple[float, float]:
    """(activations, logits) of the heavier pipeline stage in update_actor.

    The first stage holds ``in_flight`` micro-batches of its layers; the last one micro-batch and
    the logits (vocab-parallel over TP, fp32 for the loss). With PP 1 they are the same stage.
    Tokens are split over CP.
    """
    per_rank = tokens / g.cp
    acts = stage_activations(m, g, math.ceil(per_rank), recompute)
    logits = per_rank * m.vocab / g.tp * constants()["training"]["logits_bytes_per_entry"]
    if g.pp == 1:
        return acts, logits
    first = acts * in_flight(g)
    return (first, 0.0) if first >= acts + logits else (acts, logits)
