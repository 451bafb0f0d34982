"""Memory planner: predicts, per NPU, what vLLM logs at start-up and what verl's FSDP actor needs.

Pure Python (no torch): it runs in-process on facts (the model's config.json, the recipe's
settings, npu-smi's HBM). Formulas follow the code that produces the numbers; the constants
and the vllm-ascend release differences are in ``data/memplan.yaml`` with their sources.
The verl side is in ``memplan_training.py``, the advice (verdicts, the smallest fix) in
``memplan_advice.py``.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml
from packaging.version import InvalidVersion, Version

GIB = float(1 << 30)
DTYPE_BYTES = {"float32": 4, "float": 4, "bfloat16": 2, "float16": 2, "half": 2, "fp8": 1, "fp8_e4m3": 1, "fp8_e5m2": 1, "int8": 1}


@lru_cache(maxsize=1)
def constants() -> dict[str, Any]:
    """The reviewed constants (``data/memplan.yaml``)."""
    text = resources.files(__package__).joinpath("data/memplan.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


class ModelConfigError(ValueError):
    """config.json lacks what the planner needs."""


@dataclasses.dataclass(frozen=True)
class ModelShape:
    """The numbers of a model that decide its memory, read from its config.json."""

    name: str
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    intermediate: int
    vocab: int
    tied: bool
    dtype_bytes: int
    weight_bits: float  # of the linear layers (quantized checkpoints), else dtype_bytes * 8
    qkv_bias: bool = False
    experts: int = 0
    moe_intermediate: int = 0
    experts_per_token: int = 0
    shared_intermediate: int = 0
    dense_layers: int = 0  # leading dense layers of an MoE (first_k_dense_replace)
    mla_kv: int = 0  # kv_lora_rank + qk_rope_head_dim (DeepSeek MLA), else 0
    mla_kv_lora: int = 0
    mla_rope: int = 0
    mla_q_lora: int = 0
    mla_qk_head: int = 0
    mla_v_head: int = 0
    sliding_layers: int = 0
    sliding_window: int = 0
    linear_layers: int = 0  # linear-attention / mamba layers: no KV cache per token
    vision_params: int = 0
    vision_hidden: int = 0
    vision_intermediate: int = 0
    vision_merge: int = 1
    quant: Any = None  # memplan_quant.QuantScheme of a quantized checkpoint

    @classmethod
    def from_config(cls, cfg: dict[str, Any], name: str = "model") -> ModelShape:
        """Read a transformers config.json (text_config of VL models when present)."""
        text = cfg.get("text_config") or cfg
        get = lambda k, d=None: text.get(k, cfg.get(k, d))  # noqa: E731
        try:
            layers, hidden, heads = int(get("num_hidden_layers")), int(get("hidden_size")), int(get("num_attention_heads"))
            vocab = int(get("vocab_size"))
        except (TypeError, ValueError) as exc:
            raise ModelConfigError(f"config.json of {name} lacks num_hidden_layers/hidden_size/num_attention_heads/vocab_size") from exc
        kv_heads = int(get("num_key_value_heads") or heads)
        head_dim = int(get("head_dim") or hidden // heads)
        dtype = str(get("torch_dtype") or get("dtype") or "bfloat16").replace("torch.", "")
        dtype_bytes = DTYPE_BYTES.get(dtype, 2)
        model_type = str(cfg.get("model_type") or text.get("model_type") or "")
        experts = int(get("n_routed_experts") or get("num_experts") or get("num_local_experts") or 0)
        layer_types = list(text.get("layer_types") or [])
        sliding = linear = 0
        window = int(get("sliding_window") or 0)
        if layer_types:
            sliding = sum(1 for t in layer_types if "sliding" in str(t))
            linear = sum(1 for t in layer_types if "linear" in str(t) or "mamba" in str(t))
        elif get("full_attention_interval"):
            linear = layers - layers // int(get("full_attention_interval"))
        elif get("use_sliding_window") and window:
            sliding = max(0, layers - int(get("max_window_layers") or 0))
        if not window:
            sliding = 0
        vc = cfg.get("vision_config") or {}
        from . import memplan_quant as mq

        quant = mq.from_modelslim(cfg.get("quant_model_description")) or mq.from_quantization_config(cfg.get("quantization_config") or text.get("quantization_config"))
        hidden = int(get("hidden_size"))
        mla_kv = int(get("kv_lora_rank") or 0) + int(get("qk_rope_head_dim") or 0) if get("kv_lora_rank") else 0
        return cls(
            name=name, layers=layers, hidden=hidden, heads=heads, kv_heads=kv_heads, head_dim=head_dim,
            intermediate=int(get("intermediate_size") or 4 * hidden), vocab=vocab,
            tied=bool(get("tie_word_embeddings", False)), dtype_bytes=dtype_bytes,
            weight_bits=quant.bits_per_weight(hidden, hidden) if quant else dtype_bytes * 8.0, quant=quant,
            qkv_bias=bool(get("attention_bias") or model_type.startswith("qwen2")),
            experts=experts, moe_intermediate=int(get("moe_intermediate_size") or 0),
            experts_per_token=int(get("num_experts_per_tok") or get("moe_topk") or 0),
            shared_intermediate=int(get("shared_expert_intermediate_size") or 0) or int(get("n_shared_experts") or 0) * int(get("moe_intermediate_size") or 0),
            dense_layers=int(get("first_k_dense_replace") or 0) if experts else 0,
            mla_kv=mla_kv, mla_kv_lora=int(get("kv_lora_rank") or 0), mla_rope=int(get("qk_rope_head_dim") or 0), mla_q_lora=int(get("q_lora_rank") or 0),
            mla_qk_head=int(get("qk_nope_head_dim") or 0) + int(get("qk_rope_head_dim") or 0), mla_v_head=int(get("v_head_dim") or 0),
            sliding_layers=sliding, sliding_window=window, linear_layers=linear,
            vision_params=_vision_params(vc),
            vision_hidden=int(vc.get("hidden_size") or vc.get("embed_dim") or 0),
            vision_intermediate=int(vc.get("intermediate_size") or 0),
            vision_merge=int(vc.get("spatial_merge_size") or 1),
        )

    # -- parameter counts (per layer kind) -------------------------------------------------
    def attn_params(self) -> int:
        h, nh = self.hidden, self.heads
        if self.mla_kv:
            q = h * self.mla_q_lora + self.mla_q_lora * nh * self.mla_qk_head if self.mla_q_lora else h * nh * self.mla_qk_head
            kv_b = self.mla_kv_lora * nh * (self.mla_qk_head - self.mla_rope + self.mla_v_head)
            return q + h * self.mla_kv + kv_b + nh * self.mla_v_head * h  # kv_a projects to kv_lora_rank + rope
        q, kv = nh * self.head_dim, self.kv_heads * self.head_dim
        bias = (q + 2 * kv) if self.qkv_bias else 0
        return h * q + 2 * h * kv + q * h + bias

    def mlp_params(self, layer: int) -> int:
        if self.experts and layer >= self.dense_layers:
            return self.experts * 3 * self.hidden * self.moe_intermediate + 3 * self.hidden * self.shared_intermediate + self.hidden * self.experts
        return 3 * self.hidden * self.intermediate

    def embed_params(self) -> int:
        return self.vocab * self.hidden * (1 if self.tied else 2)

    def params(self) -> int:
        """All parameters (text + vision tower)."""
        body = sum(self.attn_params() + self.mlp_params(i) + 2 * self.hidden for i in range(self.layers))
        return body + self.embed_params() + self.hidden + self.vision_params

    def kv_bytes_per_token_layer(self, tp: int, kv_bytes: int) -> int:
        """Bytes of KV cache one token takes in one attention layer on one rank."""
        if self.mla_kv:  # MLA caches the compressed latent once, replicated over TP
            return self.mla_kv * kv_bytes
        return 2 * max(1, self.kv_heads // tp) * self.head_dim * kv_bytes

    @property
    def attention_layers(self) -> int:
        return self.layers - self.linear_layers


def _vision_params(vc: dict[str, Any] | None) -> int:
    """A ViT tower: depth x (attention + MLP) + the patch merger (Qwen2-VL style)."""
    if not vc:
        return 0
    h = int(vc.get("hidden_size") or vc.get("embed_dim") or 0)
    depth = int(vc.get("depth") or vc.get("num_hidden_layers") or 0)
    inter = int(vc.get("intermediate_size") or 4 * h)
    out = int(vc.get("out_hidden_size") or h)
    merge = h * int(vc.get("spatial_merge_size") or 2) ** 2
    return depth * (4 * h * h + 3 * h * inter) + merge * merge + merge * out


# -- the rollout: vLLM / vllm-ascend start-up ----------------------------------------------


@dataclasses.dataclass(frozen=True)
class Rollout:
    """vLLM settings of the rollout (verl's actor_rollout_ref.rollout.*)."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    expert_parallel: bool = False
    gpu_memory_utilization: float = 0.9
    max_model_len: int = 4096
    max_num_seqs: int = 1024
    max_num_batched_tokens: int = 8192
    enforce_eager: bool = True
    capture_sizes: int = 0  # number of graph batch sizes captured (0: vLLM's default list)
    kv_cache_dtype: str = "auto"
    dtype: str = "bfloat16"


@dataclasses.dataclass(frozen=True)
class Era:
    """How one vllm-ascend release computes the KV budget (see data/memplan.yaml)."""

    since: str
    formula: str  # legacy_peak | profiled
    graph_counted: bool
    cite: str
    profile: str = "vllm"  # whose profile_run: vllm (GPUModelRunner's) | ascend (logits only)


def era_for(vllm_ascend: str | None, backend: str = "npu") -> Era:
    """The KV-budget formula of an installed vllm-ascend (the newest when unknown; vLLM's own on GPU)."""
    eras = constants()["vllm_ascend_eras"]
    if backend == "cuda":
        return Era("vllm-v1", "profiled", False, "vllm/v1/worker/gpu_worker.py determine_available_memory (memory_profiling)", "vllm")
    chosen = eras[-1]
    if vllm_ascend:
        try:
            v = Version(vllm_ascend.split("+")[0])
            for e in eras:
                if v >= Version(e["since"]):
                    chosen = e
        except InvalidVersion:
            pass
    return Era(chosen["since"], chosen["formula"], bool(chosen["graph_counted"]), chosen["cite"], chosen["profile"])


@dataclasses.dataclass(frozen=True)
class RolloutPlan:
    """The numbers vLLM logs at start-up, predicted for one rank (bytes unless named)."""

    total: int
    requested: int
    weights: int
    activation: int
    non_torch: int
    graph: int
    graph_counted: bool
    resident: int  # HBM held next to vLLM while it rolls out: the training state (from step 2), other processes
    kv: int  # "Available KV cache memory" (may be negative; legacy vllm-ascend logs it clamped at 0)
    kv_tokens: int
    max_concurrency: float
    block_size: int
    start_refused: bool  # profiled era: free < total * util at start-up
    era: Era
    outside: int = 0  # what the NPU runtime needs outside the budget while serving (legacy formula, data/memplan.yaml)

    @property
    def peak(self) -> int:
        """HBM held on the card while rolling out: vLLM's share, its graphs and the resident rest."""
        return self.resident + self.weights + max(self.kv, 0) + self.activation + self.non_torch + self.graph + self.outside


def weights_per_rank(m: ModelShape, r: Rollout) -> int:
    """vLLM's "Model loading took": linear layers split over TP (experts over EP), vocab-parallel embeddings;
    a quantized checkpoint's linear layers as its method lays them out (memplan_quant.py)."""
    from . import memplan_quant

    dt = DTYPE_BYTES.get(r.dtype, m.dtype_bytes)
    wb = m.weight_bits / 8 if m.weight_bits < m.dtype_bytes * 8 else dt
    layers = math.ceil(m.layers / r.pp)
    ep = r.tp * r.dp if (r.expert_parallel and m.experts) else r.tp
    total = 0.0
    for i in range(layers):
        if m.quant is not None:
            total += memplan_quant.layer_bytes(m, m.quant, i, r.tp, ep, dt) + 2 * m.hidden * dt
            continue
        attn = m.attn_params()
        if not m.mla_kv and m.kv_heads < r.tp:  # KV heads are replicated when TP exceeds them
            attn += 2 * m.hidden * m.head_dim * (r.tp - m.kv_heads) if r.tp % m.kv_heads == 0 else 0
        mlp = m.mlp_params(i)
        shard = ep if (m.experts and i >= m.dense_layers) else r.tp
        total += attn / r.tp * wb + mlp / shard * wb + 2 * m.hidden * dt
    embeds = m.embed_params() if r.pp == 1 else m.vocab * m.hidden
    total += embeds / r.tp * dt + m.vision_params / r.tp * dt
    return int(total)


def activation_peak(m: ModelShape, r: Rollout, profile: str) -> int:
    """Torch peak increase of profile_run: the largest of the dummy forward of max_num_batched_tokens,
    the logits/sampler rows, and (vLLM's profile_run only) the multimodal encoder's dummy item."""
    c = constants()
    a = c["activation"]
    dt = DTYPE_BYTES.get(r.dtype, m.dtype_bytes)
    tokens = r.max_num_batched_tokens
    inter = m.intermediate
    if m.experts:
        inter = max(m.intermediate if m.dense_layers else 0, m.experts_per_token * m.moe_intermediate + m.shared_intermediate)
    forward = tokens * dt * (a["mlp_factor"] * inter / r.tp + a["hidden_factor"] * m.hidden)
    rows = min(r.max_num_seqs, tokens)
    sampler = rows * m.vocab * a["sampler_bytes_per_logit"][profile]
    encoder = 0.0
    if profile == "vllm" and m.vision_hidden:
        patches = max(tokens, c["vision_tokens_per_item"]) * m.vision_merge**2
        encoder = patches * dt * (a["mlp_factor"] * m.vision_intermediate / r.tp + a["hidden_factor"] * m.vision_hidden)
    return int(max(forward, sampler, encoder))


def graph_memory(m: ModelShape, r: Rollout) -> int:
    """Graph pool of ACL/CUDA graph capture (0 with enforce_eager)."""
    if r.enforce_eager:
        return 0
    c = constants()
    sizes = r.capture_sizes or 67  # vLLM's default list: 1, 2, 4, 8..512 step 8
    return int(min(c["graph_gib_max"], sizes * c["graph_gib_per_capture_size"]) * GIB)


def plan_rollout(
    m: ModelShape, r: Rollout, *, total: int, resident: int = 0, backend: str = "npu", vllm_ascend: str | None = None
) -> RolloutPlan:
    """Predict determine_available_memory and the KV cache lines for one rank.

    ``total`` is the device total as torch sees it; ``resident`` is what is already held on the
    card when vLLM starts (the colocated FSDP state, other processes).
    """
    c = constants()
    era = era_for(vllm_ascend, backend)
    nt = c["non_torch_gib"]
    comm = nt["hccl_per_tp_group"] if r.tp > 1 and backend == "npu" else 0.0
    if backend == "cuda":
        non_torch = nt["cuda"]
    elif era.formula == "legacy_peak":
        non_torch = nt["npu_context"] + comm
    else:
        non_torch = nt["npu_increase"] + comm
    non_torch_b = int(non_torch * GIB)
    weights = weights_per_rank(m, r)
    act = activation_peak(m, r, era.profile)
    graph = graph_memory(m, r)
    requested = int(total * r.gpu_memory_utilization)
    counted_graph = graph if (era.graph_counted and graph) else 0
    if era.formula == "legacy_peak":
        # torch peak (weights + activation + the colocated training state in the same process)
        # plus everything else allocated on the card (context, HCCL, other processes)
        kv = requested - (weights + act + non_torch_b + resident) - counted_graph
        refused = False
    else:
        kv = requested - (weights + act + non_torch_b) - counted_graph
        refused = total - resident < requested
    block = c["block_size"][backend]
    kv_b = DTYPE_BYTES.get(r.kv_cache_dtype, DTYPE_BYTES.get(r.dtype, m.dtype_bytes)) if r.kv_cache_dtype != "auto" else DTYPE_BYTES.get(r.dtype, m.dtype_bytes)
    layer_bytes = m.kv_bytes_per_token_layer(r.tp, kv_b)
    layers = math.ceil(m.attention_layers / r.pp)
    page = block * layer_bytes
    blocks = max(kv, 0) // page // max(layers, 1)
    tokens = blocks * block
    concurrency = _concurrency(m, r, blocks, block, layers)
    return RolloutPlan(
        total=total, requested=requested, weights=weights, activation=act, non_torch=non_torch_b, graph=graph,
        graph_counted=era.graph_counted, resident=resident, kv=int(kv), kv_tokens=int(tokens),
        max_concurrency=concurrency, block_size=block, start_refused=refused, era=era,
        outside=int(c["npu_outside_budget_gib"] * GIB) if (backend == "npu" and era.formula == "legacy_peak") else 0,
    )


def _concurrency(m: ModelShape, r: Rollout, blocks: int, block: int, layers: int) -> float:
    """vLLM's "Maximum concurrency for N tokens per request": blocks / blocks one request needs.

    Sliding-window layers need only (window - 1 + max_num_batched_tokens) per request
    (SlidingWindowSpec.max_memory_usage_bytes in vllm/v1/kv_cache_interface.py).
    """
    per_full = math.ceil(r.max_model_len / block)
    if m.sliding_layers and m.sliding_window and layers:
        per_sw = math.ceil(min(r.max_model_len, m.sliding_window - 1 + r.max_num_batched_tokens) / block)
        full = max(layers - m.sliding_layers, 0)
        need = (full * per_full + m.sliding_layers * per_sw) / layers
    else:
        need = per_full
    return round(blocks / need, 2) if need else 0.0


def hbm_for_chip(name: str | None) -> float | None:
    """HBM GB of a chip by npu-smi name (longest key contained in the name)."""
    if not name:
        return None
    table = constants()["hbm_gb"]
    hits = [k for k in table if k.lower() in name.lower()]
    return float(table[max(hits, key=len)]) if hits else None


def usable_bytes(hbm_mb: float) -> int:
    """What torch's mem_get_info reports as total for an HBM size npu-smi prints in MB."""
    return int(hbm_mb * (1 << 20) * constants()["usable_fraction"])
