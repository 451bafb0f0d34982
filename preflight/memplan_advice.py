"""Memory plan verdicts and the smallest change that makes a plan fit (on top of ``memplan.py``).

A plan is two phases on one NPU of a colocated verl run (hybrid engine): the rollout (vLLM
with the training state resident next to it) and update_actor (the FSDP state, activations and
what the sleeping rollout engine keeps). Every suggested change is re-planned before it is
offered, so the predicted effect shown is the planner's own.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from .memplan import GIB, ModelShape, Rollout, RolloutPlan, constants, plan_rollout
from .memplan_megatron import Megatron
from .memplan_training import Training, TrainingPlan, plan_training, resident_during_rollout


class Verdict(str, enum.Enum):
    """What the plan predicts, worst first."""

    START_REFUSED = "start refused"  # free HBM < total x util (profiled formula)
    NEGATIVE_KV = "negative KV"
    KV_BELOW_ONE_SEQUENCE = "KV smaller than one max_model_len sequence"
    ROLLOUT_OOM = "OOM in rollout likely"
    TRAINING_OOM = "OOM in training likely"
    FITS = "fits"


@dataclasses.dataclass(frozen=True)
class Card:
    """One NPU as the plan sees it."""

    total: int  # bytes torch reports (mem_get_info total)
    other: int = 0  # HBM other processes hold (npu-smi)
    chip: str = "NPU"
    hbm_gib: float = 0.0  # as sold / as npu-smi prints it


@dataclasses.dataclass(frozen=True)
class Plan:
    """Both phases for one NPU, with the verdicts."""

    model: ModelShape
    rollout_cfg: Rollout
    training_cfg: Training | None
    card: Card
    rollout: RolloutPlan
    training: TrainingPlan | None
    verdicts: tuple[Verdict, ...]

    @property
    def fits(self) -> bool:
        return self.verdicts == (Verdict.FITS,)

    @property
    def rollout_margin(self) -> int:
        return self.card.total - self.rollout.peak

    @property
    def training_margin(self) -> int | None:
        return None if self.training is None else self.card.total - self.card.other - self.training.peak

    def to_json(self) -> dict[str, Any]:
        r = self.rollout
        out: dict[str, Any] = {
            "verdicts": [v.value for v in self.verdicts],
            "card": {"total_gib": _g(self.card.total), "hbm_gib": self.card.hbm_gib, "other_processes_gib": _g(self.card.other), "chip": self.card.chip},
            "rollout": {
                "formula": r.era.formula, "formula_since": r.era.since, "formula_source": r.era.cite,
                "requested_gib": _g(r.requested), "weights_gib": _g(r.weights), "peak_activation_gib": _g(r.activation),
                "non_torch_gib": _g(r.non_torch), "graph_gib": _g(r.graph), "graph_counted": r.graph_counted,
                "resident_gib": _g(r.resident), "outside_budget_gib": _g(r.outside), "kv_cache_gib": _g(r.kv), "kv_cache_tokens": r.kv_tokens,
                "max_concurrency": r.max_concurrency, "max_model_len": self.rollout_cfg.max_model_len,
                "start_refused": r.start_refused, "peak_gib": _g(r.peak), "margin_gib": _g(self.rollout_margin),
            },
        }
        if self.training is not None:
            out["training"] = {k + "_gib": _g(v) for k, v in self.training.rows()}
            out["training"].update(strategy=self.training_cfg.strategy if self.training_cfg else "fsdp",
                                   layout=layout_text(self.training_cfg) if self.training_cfg else "")
            out["training"].update(tokens_per_micro_batch=self.training.tokens, peak_gib=_g(self.training.peak), margin_gib=_g(self.training_margin or 0))
        return out


def _g(b: float) -> float:
    return round(b / GIB, 2)


def make_plan(model: ModelShape, rollout: Rollout, training: Training | None, card: Card, *, vllm_ascend: str | None = None, backend: str = "npu") -> Plan:
    """Plan both phases. vLLM profiles at init, before the first optimizer step (no Adam state yet);
    it wakes with the same KV size in later steps, when the optimizer state is resident."""
    at_init = card.other + (resident_during_rollout(model, training, after_first_step=False) if training else 0)
    steady = card.other + (resident_during_rollout(model, training) if training else 0)
    rp = plan_rollout(model, rollout, total=card.total, resident=at_init, backend=backend, vllm_ascend=vllm_ascend)
    rp = dataclasses.replace(rp, resident=steady)
    tp = None
    if training is not None:
        held = int(constants()["training"]["vllm_sleep_residue_gib"] * GIB) if training.free_cache_engine else rp.weights + max(rp.kv, 0) + rp.non_torch + rp.graph
        tp = plan_training(model, training, rollout_held=held)
    verdicts = []
    if rp.start_refused:
        verdicts.append(Verdict.START_REFUSED)
    if rp.kv <= 0:
        verdicts.append(Verdict.NEGATIVE_KV)
    elif rp.kv_tokens < rollout.max_model_len:
        verdicts.append(Verdict.KV_BELOW_ONE_SEQUENCE)
    if rp.kv > 0 and rp.peak > card.total:
        verdicts.append(Verdict.ROLLOUT_OOM)
    if tp is not None and tp.peak + card.other > card.total:
        verdicts.append(Verdict.TRAINING_OOM)
    return Plan(model, rollout, training, card, rp, tp, tuple(verdicts) or (Verdict.FITS,))


@dataclasses.dataclass(frozen=True)
class Change:
    """One knob turned, and the plan it gives."""

    key: str
    value: Any
    plan: Plan

    def describe(self) -> str:
        r = self.plan.rollout
        effect = f"KV {_g(r.kv)} GiB, {r.kv_tokens:,} tokens, {r.max_concurrency}x at {self.plan.rollout_cfg.max_model_len}"
        if self.plan.training is not None:
            effect += f"; training peak {_g(self.plan.training.peak)} GiB"
        verdict = "fits" if self.plan.fits else ", ".join(v.value for v in self.plan.verdicts)
        return f"{self.key}={self.value} → {effect} ({verdict})"


ROLLOUT_KEYS = {"gpu_memory_utilization": "actor_rollout_ref.rollout.gpu_memory_utilization", "max_num_batched_tokens": "actor_rollout_ref.rollout.max_num_batched_tokens", "tp": "actor_rollout_ref.rollout.tensor_model_parallel_size"}
TRAINING_KEYS = {"micro_batch": "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", "param_offload": "actor_rollout_ref.actor.fsdp_config.param_offload", "optimizer_offload": "actor_rollout_ref.actor.fsdp_config.optimizer_offload", "ref_param_offload": "actor_rollout_ref.ref.fsdp_config.param_offload", "gradient_checkpointing": "actor_rollout_ref.model.enable_gradient_checkpointing"}
MEGATRON = "actor_rollout_ref.actor.megatron."
RECOMPUTE = MEGATRON + "override_transformer_config.recompute_granularity"
MEGATRON_KEYS = {**TRAINING_KEYS, "param_offload": MEGATRON + "param_offload", "optimizer_offload": MEGATRON + "optimizer_offload",
                 "ref_param_offload": "actor_rollout_ref.ref.megatron.param_offload", "gradient_checkpointing": RECOMPUTE,
                 "megatron_tp": MEGATRON + "tensor_model_parallel_size"}
FULL_RECOMPUTE = "full (with recompute_method=uniform, recompute_num_layers=1)"  # Megatron refuses full without a method


def _turned_on(t: Training, flag: str) -> tuple[Any, Training]:
    """A training flag turned on, and the value to show: under Megatron, checkpointing is full
    recompute, which Megatron accepts only with a recompute method."""
    if flag == "gradient_checkpointing" and t.megatron is not None:
        g = dataclasses.replace(t.megatron, recompute="full", recompute_method="uniform", recompute_layers=1)
        return FULL_RECOMPUTE, dataclasses.replace(t, gradient_checkpointing=True, megatron=g)
    return True, dataclasses.replace(t, **{flag: True})


def _candidates(p: Plan) -> list[tuple[str, str, Any, Rollout, Training | None]]:
    """Single-knob changes in order of how little they cost the run."""
    r, t = p.rollout_cfg, p.training_cfg
    out: list[tuple[str, str, Any, Rollout, Training | None]] = []
    for util in [round(x * 0.05, 2) for x in range(2, 20)]:
        if util != r.gpu_memory_utilization:
            out.append(("rollout", "gpu_memory_utilization", util, dataclasses.replace(r, gpu_memory_utilization=util), t))
    tokens = r.max_num_batched_tokens
    while tokens > max(r.max_model_len, 2048) and tokens > 1024:
        tokens //= 2
        out.append(("rollout", "max_num_batched_tokens", max(tokens, r.max_model_len), dataclasses.replace(r, max_num_batched_tokens=max(tokens, r.max_model_len)), t))
    if t is not None:
        mb = t.micro_batch
        while mb > 1:
            mb //= 2
            out.append(("training", "micro_batch", mb, r, dataclasses.replace(t, micro_batch=mb)))
        for flag in ("gradient_checkpointing", "ref_param_offload", "optimizer_offload", "param_offload"):
            if not getattr(t, flag):
                value, changed = _turned_on(t, flag)
                out.append(("training", flag, value, r, changed))
        g = t.megatron
        if g is not None and t.world % (g.tp * 2 * g.pp * g.cp) == 0 and p.model.heads % (g.tp * 2) == 0:
            out.append(("training", "megatron_tp", g.tp * 2, r, dataclasses.replace(t, megatron=dataclasses.replace(g, tp=g.tp * 2))))
    if r.tp * 2 <= 16 and p.model.heads % (r.tp * 2) == 0:
        out.append(("rollout", "tp", r.tp * 2, dataclasses.replace(r, tp=r.tp * 2), t))
    return out


def smallest_fix(p: Plan, *, vllm_ascend: str | None = None, backend: str = "npu") -> Change | None:
    """The first single change (in cost order) whose re-plan fits; None when none does.

    gpu_memory_utilization is tried from the current value outwards, so the nearest value that
    fits wins over a far one.
    """
    if p.fits:
        return None
    if p.card.other:  # a leftover process is the cheapest thing to remove (ARL-D003 names it)
        freed = make_plan(p.model, p.rollout_cfg, p.training_cfg, dataclasses.replace(p.card, other=0), vllm_ascend=vllm_ascend, backend=backend)
        if freed.fits:
            return Change("processes holding the NPU (see ARL-D003)", "stopped", freed)
    cands = _candidates(p)
    util_first = sorted((c for c in cands if c[1] == "gpu_memory_utilization"), key=lambda c: abs(c[2] - p.rollout_cfg.gpu_memory_utilization))
    order = util_first + [c for c in cands if c[1] != "gpu_memory_utilization"]
    for _phase, key, value, r, t in order:
        q = make_plan(p.model, r, t, p.card, vllm_ascend=vllm_ascend, backend=backend)
        if q.fits:
            keys = MEGATRON_KEYS if (t is not None and t.megatron) else TRAINING_KEYS
            full = ROLLOUT_KEYS.get(key) or keys.get(key) or key
            return Change(full, value, q)
    return None


def table(p: Plan) -> list[str]:
    """The per-NPU table, one line per row, for the finding's detail and `ascendrl plan`."""
    r, gib = p.rollout, lambda b: f"{b / GIB:6.2f}"
    lines = [
        f"per NPU ({p.card.chip}, {p.card.total / GIB:.2f} GiB usable of {p.card.hbm_gib:g} GiB HBM, {p.card.other / GIB:.2f} GiB held by other processes)",
        f"rollout   vLLM requests {gib(r.requested)} GiB (util {p.rollout_cfg.gpu_memory_utilization}, TP {p.rollout_cfg.tp}; {r.era.formula} formula of vllm-ascend >= {r.era.since})",
        f"          weights {gib(r.weights)} | peak activation {gib(r.activation)} | non-torch {gib(r.non_torch)} | graph {gib(r.graph)}{' (counted)' if r.graph_counted else ' (not counted)'}",
        f"          KV cache {gib(r.kv)} GiB{' (logged clamped to 0)' if r.kv < 0 and r.era.formula == 'legacy_peak' else ''} = {r.kv_tokens:,} tokens, max concurrency {r.max_concurrency}x at {p.rollout_cfg.max_model_len} tokens",
        f"          resident training state + other processes {gib(r.resident)}"
        + (f" | NPU runtime outside the budget {gib(r.outside)}" if r.outside else "") + f" | peak {gib(r.peak)} | margin {gib(p.rollout_margin)}",
    ]
    if p.training is not None:
        t = p.training
        parts = " | ".join(f"{k.replace('_', ' ')} {gib(v).strip()}" for k, v in t.rows() if v)
        lines.append(f"training  {layout_text(p.training_cfg)}" if p.training_cfg else "training")
        lines.append(f"          {parts}")
        lines.append(f"          {t.tokens:,} tokens per micro-batch | peak {gib(t.peak)} | margin {gib(p.training_margin or 0)}")
    lines.append("verdict   " + ", ".join(v.value for v in p.verdicts))
    return lines


def layout_text(t: Training) -> str:
    """How the actor is laid out, for the table's training line."""
    g = t.megatron
    if g is None:
        return f"FSDP over {t.world} NPUs, gradient checkpointing {'on' if t.gradient_checkpointing else 'off'}"
    ep = f" EP {g.ep} ETP {g.etp or g.tp}" if g.ep > 1 or g.etp else ""
    recompute = f"{g.recompute} recompute" + (f" ({g.recompute_method}, {g.recompute_layers} layer(s))" if g.recompute == "full" else "") if g.recompute else "no recompute"
    return (f"Megatron TP {g.tp} PP {g.pp} CP {g.cp}{ep} over {t.world} NPUs, sequence parallel {'on' if g.sequence_parallel else 'off'}, "
            f"{'distributed' if g.distributed_optimizer else 'replicated'} optimizer, {recompute}")


def settings_from_verl(c: dict[str, Any], model: dict[str, Any] | None = None) -> tuple[Rollout, Training]:
    """Rollout and training settings from verl's composed config (dotted keys, as lint_query selects them)."""
    def val(key: str, default: Any) -> Any:
        v = c.get(key)
        return default if v is None else v

    prompt, response = int(val("data.max_prompt_length", 1024)), int(val("data.max_response_length", 1024))
    max_len = int(val("actor_rollout_ref.rollout.max_model_len", 0) or prompt + response)
    rollout = Rollout(
        tp=int(val("actor_rollout_ref.rollout.tensor_model_parallel_size", 1)),
        pp=int(val("actor_rollout_ref.rollout.pipeline_model_parallel_size", 1)),
        dp=int(val("actor_rollout_ref.rollout.data_parallel_size", 1)),
        expert_parallel=int(val("actor_rollout_ref.rollout.expert_parallel_size", 1)) > 1,
        gpu_memory_utilization=float(val("actor_rollout_ref.rollout.gpu_memory_utilization", 0.5)),
        max_model_len=max_len,
        max_num_seqs=int(val("actor_rollout_ref.rollout.max_num_seqs", 1024)),
        max_num_batched_tokens=max(int(val("actor_rollout_ref.rollout.max_num_batched_tokens", 8192)), max_len if not val("actor_rollout_ref.rollout.enable_chunked_prefill", True) else 0),
        enforce_eager=bool(val("actor_rollout_ref.rollout.enforce_eager", True)),
        capture_sizes=len(val("actor_rollout_ref.rollout.cudagraph_capture_sizes", []) or []),
        dtype=str(val("actor_rollout_ref.rollout.dtype", "bfloat16")),
    )
    dyn = bool(val("actor_rollout_ref.actor.use_dynamic_bsz", False))
    training = Training(
        world=int(val("trainer.n_gpus_per_node", 8)) * int(val("trainer.nnodes", 1)),
        micro_batch=int(val("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", 1) or 1),
        seq_len=prompt + response,
        dynamic_bsz_tokens=int(val("actor_rollout_ref.actor.ppo_max_token_len_per_gpu", 16384)) if dyn else 0,
        gradient_checkpointing=bool(val("actor_rollout_ref.model.enable_gradient_checkpointing", False)),
        remove_padding=bool(val("actor_rollout_ref.model.use_remove_padding", False)),
        param_offload=bool(val("actor_rollout_ref.actor.fsdp_config.param_offload", False)),
        optimizer_offload=bool(val("actor_rollout_ref.actor.fsdp_config.optimizer_offload", False)),
        offload_policy=bool(val("actor_rollout_ref.actor.fsdp_config.offload_policy", False)),
        optimizer=str(val("actor_rollout_ref.actor.optim.optimizer", "AdamW")).lower(),
        ref=bool(val("actor_rollout_ref.actor.use_kl_loss", False)) or bool(val("algorithm.use_kl_in_reward", False)),
        ref_param_offload=bool(val("actor_rollout_ref.ref.fsdp_config.param_offload", False)),
        free_cache_engine=bool(val("actor_rollout_ref.rollout.free_cache_engine", True)),
        critic=_uses_critic(c),
        critic_param_offload=bool(val("critic.model.fsdp_config.param_offload", False)),
        critic_optimizer_offload=bool(val("critic.model.fsdp_config.optimizer_offload", False)),
    )
    engine = _engine(c)
    if engine is not None:
        training = _megatron_training(c, training, engine)
    return rollout, training


def _uses_critic(c: dict[str, Any]) -> bool:
    """verl runs a critic when critic.enable says so, else for GAE (need_critic, verl/trainer/ppo/utils.py).
    A composed config always names the estimator; settings read off a command line count only when
    they name the estimator or a critic model."""
    if c.get("critic.enable") is not None:
        return bool(c["critic.enable"])
    est = c.get("algorithm.adv_estimator")
    if est is not None:
        return str(est).lower() == "gae"
    return any(k.startswith("critic.model.path") for k in c)


ENGINES = ("megatron", "mindspeed")


def _engine(c: dict[str, Any]) -> str | None:
    """The Megatron-style engine a config selects: verl 0.9's ``model_engine=megatron`` sets
    ``actor.strategy: megatron`` (trainer/config/actor/megatron_actor.yaml); later releases add
    ``model_engine=mindspeed`` with its keys under ``actor.mindspeed``."""
    strategy = str(c.get("actor_rollout_ref.actor.strategy") or c.get("model_engine") or "")
    if strategy in ENGINES:
        return strategy
    return next((e for e in ENGINES if any(k.startswith(f"actor_rollout_ref.actor.{e}.") for k in c)), None)


def _megatron_training(c: dict[str, Any], t: Training, engine: str) -> Training:
    """The megatron engine's layout and offload keys (verl 0.9.1 trainer/config/engine/megatron.yaml);
    MindSpeed takes the recompute settings in ``mcore_kwargs`` instead of ``override_transformer_config``."""
    pre = f"actor_rollout_ref.actor.{engine}."
    over = pre + ("mcore_kwargs." if engine == "mindspeed" else "override_transformer_config.")

    def val(key: str, default: Any) -> Any:
        v = c.get(key)
        return default if v is None else v

    tp = int(val(pre + "tensor_model_parallel_size", 1))
    recompute = val(over + "recompute_granularity", None)
    etp = c.get(pre + "expert_tensor_parallel_size")
    vpp = c.get(pre + "virtual_pipeline_model_parallel_size")
    g = Megatron(
        tp=tp, pp=int(val(pre + "pipeline_model_parallel_size", 1)), cp=int(val(pre + "context_parallel_size", 1)),
        ep=int(val(pre + "expert_model_parallel_size", 1)), etp=int(etp) if etp else None,
        sequence_parallel=bool(val(pre + "sequence_parallel", True)) and tp > 1,
        distributed_optimizer=bool(val(pre + "use_distributed_optimizer", True)),
        recompute=str(recompute) if recompute else None, recompute_method=c.get(over + "recompute_method"),
        recompute_layers=int(val(over + "recompute_num_layers", 1) or 1), vpp=int(vpp) if vpp else None,
        main_grad_bytes=2 if str(val("actor_rollout_ref.actor.optim.main_grads_dtype", "fp32")) in ("bf16", "bfloat16") else 4,
    )
    return dataclasses.replace(
        t, megatron=g, gradient_checkpointing=g.recompute == "full",
        param_offload=bool(val(pre + "param_offload", False)), optimizer_offload=bool(val(pre + "optimizer_offload", False)),
        offload_policy=False, optimizer=str(val("actor_rollout_ref.actor.optim.optimizer", "adam")).lower(),
        ref_param_offload=bool(val(f"actor_rollout_ref.ref.{engine}.param_offload", False)),
    )


def card_from_npu_smi(info: Any, npus: int) -> Card | None:
    """The worst of the first ``npus`` chips: its HBM and what other processes already hold on it.

    Held memory is the process table's sum for that NPU; without processes listed (they run in
    another container) it is HBM-Usage above the idle level (total minus torch's usable part).
    """
    from .memplan import usable_bytes

    chips = [ch for ch in info.chips if ch.hbm_total_mb][: max(npus, 1)]
    if not chips:
        return None
    worst: Card | None = None
    for ch in chips:
        total = usable_bytes(ch.hbm_total_mb)
        procs = sum(p.memory_mb for p in info.processes if p.npu == ch.npu and p.chip == ch.chip)
        idle = ch.hbm_total_mb * (1 - constants()["usable_fraction"]) + 512
        other_mb = procs or max(0.0, (ch.hbm_used_mb or 0) - idle)
        card = Card(total=total, other=int(other_mb * (1 << 20)), chip=f"{ch.name} NPU {ch.npu}", hbm_gib=round(ch.hbm_total_mb / 1024))
        if worst is None or card.total - card.other < worst.total - worst.other:
            worst = card
    return worst


def card_for(hbm_gb: float, chip: str = "NPU") -> Card:
    """A card of ``hbm_gb`` as sold, nothing else on it."""
    from .memplan import usable_bytes

    return Card(total=usable_bytes(hbm_gb * 1024), chip=chip, hbm_gib=hbm_gb)
