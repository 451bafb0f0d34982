"""Read an out-of-memory failure against the memory plan for the run's own settings.

When ``DRV-memory`` diagnoses an OOM or a KV cache that is negative or too small, this re-plans
the settings the log states with ``preflight/memplan*`` (imported only then, pure Python): the
predicted KV cache (or training peak) next to the logged one, the margin, and the smallest single
change that fits, with its predicted effect. The settings are what the classifier collected from
the lines it streamed past (``catalog/run_settings.py``), so a file, stdin and `run`'s live output
all get the plan and no file is read twice. The model's shape is its config.json, read when the
logged model path is a folder on this machine (or a hub id in the local cache); without it the
notes say so and how to get the plan.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from ..run_settings import ACTOR, ROLLOUT, LogSettings

MAX_CONFIG = 1 << 20  # a config.json larger than this is not a model config


def _hub_snapshot(repo_id: str) -> Path | None:
    """config.json of a hub model id (``Qwen/Qwen2.5-7B-Instruct``) in the local Hugging Face cache, if there."""
    hub = os.environ.get("HF_HUB_CACHE") or os.path.join(os.environ.get("HF_HOME") or os.path.expanduser("~/.cache/huggingface"), "hub")
    snapshots = Path(hub) / ("models--" + repo_id.replace("/", "--")) / "snapshots"
    try:
        return next((p / "config.json" for p in sorted(snapshots.iterdir()) if (p / "config.json").is_file()), None)
    except OSError:
        return None


def model_config(path: str | None) -> dict[str, Any] | None:
    """config.json of a logged model folder (or hub id in the local cache), when it is on this machine and small."""
    if not path:
        return None
    cfg: Path | None = Path(path) / "config.json" if not path.endswith(".json") else Path(path)
    if not cfg.is_file() and re.fullmatch(r"[\w.-]+/[\w.-]+", path):
        cfg = _hub_snapshot(path)
    try:
        if cfg is None or not cfg.is_file() or cfg.stat().st_size > MAX_CONFIG:
            return None
        data = json.loads(cfg.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _shown(settings: dict[str, Any]) -> str:
    short = {ROLLOUT + "tensor_model_parallel_size": "TP", ROLLOUT + "gpu_memory_utilization": "gpu_memory_utilization",
             ROLLOUT + "max_model_len": "max_model_len", ACTOR + "ppo_micro_batch_size_per_gpu": "micro-batch",
             "trainer.n_gpus_per_node": "NPUs per node"}
    return ", ".join(f"{name} {settings[k]}" for k, name in short.items() if k in settings)


def plan_notes(kind: str, stated: LogSettings, text: str, versions: dict[str, str]) -> tuple[list[str], tuple[str, ...]]:
    """Notes that read a memory failure (``kv`` or ``alloc``) against the plan for the settings the
    run stated, and the logged KV line. The failing message's own numbers come first."""
    found = LogSettings()
    found.feed(text)
    for attr in ("kv_logged", "kv_line", "total_gib"):
        if getattr(found, attr) in (None, ""):
            setattr(found, attr, getattr(stated, attr))
    found.dump, found.cli, found.banner = stated.dump, {**found.cli, **stated.cli}, stated.banner
    return _notes(kind, found, text, versions), ((found.kv_line,) if found.kv_line and kind == "kv" else ())


def _notes(kind: str, found: LogSettings, text: str, versions: dict[str, str]) -> list[str]:
    settings = found.settings()
    cfg = model_config(found.model_path)
    if cfg is None:
        where = f"{found.model_path} is not a model folder on this machine" if found.model_path else "the log names no model path"
        read = f" (settings read from the log: {_shown(settings)})" if _shown(settings) else ""
        return [f"the memory plan for this config needs the model's config.json ({where}): run `ascendrl plan --model DIR` "
                f"with the run's settings{read}"]
    from ...preflight.memplan import GIB, ModelShape, constants
    from ...preflight.memplan_advice import Card, card_for, layout_text, make_plan, settings_from_verl, smallest_fix

    shape = ModelShape.from_config(cfg, name=Path(found.model_path or "model").name)
    rollout, verl_side = settings_from_verl(settings)
    training = verl_side if (found.dump or found.cli) else None  # vLLM alone: no actor shares the card
    backend = "cuda" if "CUDA out of memory" in text else "npu"
    vllm_ascend = versions.get("vllm_ascend")
    if found.total_gib:
        cards = [(Card(total=int(found.total_gib * GIB), chip="NPU", hbm_gib=round(found.total_gib)), f"{found.total_gib:.2f} GiB card (logged)")]
    elif found.kv_logged is not None:  # the HBM size whose plan is nearest the logged KV cache
        cards = [(card_for(gb), f"{gb:g} GB card (not logged; nearest the logged KV)") for gb in sorted(set(constants()["hbm_gb"].values()))]
    else:
        cards = [(card_for(64), "64 GB 910B (card size not logged, assumed)")]
    plans = [(make_plan(shape, rollout, training, card, vllm_ascend=vllm_ascend, backend=backend), label) for card, label in cards]
    if found.kv_logged is not None:
        plans.sort(key=lambda p: abs(p[0].rollout.kv / GIB - found.kv_logged))
    plan, card_label = plans[0]
    r, verdict = plan.rollout, ", ".join(v.value for v in plan.verdicts)
    notes = [f"memory plan for {shape.name} ({_shown(settings) or 'verl defaults'}; {card_label})"]
    if kind == "kv" or plan.training is None:
        logged = f" where the log says {found.kv_logged:.2f} GiB" if found.kv_logged is not None else ""
        notes.append(f"the plan predicts a KV cache of {r.kv / GIB:.2f} GiB ({r.kv_tokens:,} tokens, {r.max_concurrency}x at "
                     f"max_model_len {rollout.max_model_len}){logged}; rollout margin {plan.rollout_margin / GIB:.2f} GiB; verdict: {verdict}")
    else:
        t = plan.training
        layout = f"{layout_text(training)}; " if training is not None and training.megatron else ""
        notes.append(f"the plan predicts a training peak of {t.peak / GIB:.2f} GiB per NPU ({layout}{t.tokens:,} tokens per micro-batch), "
                     f"margin {(plan.training_margin or 0) / GIB:.2f} GiB; rollout peak {r.peak / GIB:.2f} GiB; verdict: {verdict}")
    change = smallest_fix(plan, vllm_ascend=vllm_ascend, backend=backend)
    if change is not None:
        described = change.describe()
        if training is None:  # a vLLM server: its own engine argument names
            described = described.replace(ROLLOUT + "tensor_model_parallel_size", "tensor_parallel_size").replace(ROLLOUT, "")
        notes.append(f"set {described} (the smallest change that fits, re-planned)")
    elif plan.fits:
        notes.append("the plan predicts this config fits: something it does not count holds the card — another process "
                     "(npu-smi), graph capture, or fragmentation; check `ascendrl check` and the settings it read")
    else:
        notes.append("no single change fits per the plan: combine them (offload, micro-batch, TP) or use more NPUs; see `ascendrl plan`")
    return notes
