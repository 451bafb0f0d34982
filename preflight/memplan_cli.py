"""Inputs and text of `ascendrl plan`: a model folder or config.json, a recipe, this host's HBM."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from .memplan import GIB, ModelConfigError, ModelShape
from .memplan_advice import Card, card_for, card_from_npu_smi, make_plan, settings_from_verl, smallest_fix, table


class PlanInputError(ValueError):
    """A bad --model, --recipe or --set: one line for the user."""


def read_config(model: str) -> dict[str, Any]:
    """config.json of a model folder, or the file itself."""
    path = Path(model)
    cfg_path = path / "config.json" if path.is_dir() else path
    if not cfg_path.is_file():
        raise PlanInputError(f"--model {model}: no config.json there (give a local model folder or its config.json)")
    try:
        data: dict[str, Any] = json.loads(cfg_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PlanInputError(f"--model {model}: {cfg_path} is not readable JSON ({exc})") from None
    desc = cfg_path.parent / "quant_model_description.json"  # msModelSlim's, read by vllm-ascend
    if desc.is_file():
        try:
            data["quant_model_description"] = json.loads(desc.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise PlanInputError(f"--model {model}: {desc} is not readable JSON ({exc})") from None
    return data


def _overrides(recipe: str | None, words: list[str]) -> dict[str, Any]:
    """verl keys from the recipe's resolved overrides (values parsed as YAML scalars, like Hydra's)."""
    lines = list(words)
    if recipe:
        from ..recipes import RecipeError, load_recipe

        try:
            lines = list(load_recipe(recipe).resolve(words).overrides)
        except RecipeError as exc:
            raise PlanInputError(str(exc)) from None
    out: dict[str, Any] = {}
    for line in lines:
        if "=" not in line:
            continue
        key, value = line.split("=", 1)
        try:
            out[key.lstrip("+~")] = yaml.safe_load(value)
        except yaml.YAMLError:
            out[key.lstrip("+~")] = value
    return out


def host_card(npus: int) -> Card | None:
    """This host's worst NPU from `npu-smi info`, or None without one."""
    from .probes.npu_smi import NpuSmiFormatError, parse_npu_smi_info

    exe = shutil.which("npu-smi")
    if exe is None:
        return None
    try:
        out = subprocess.run([exe, "info"], capture_output=True, text=True, timeout=10, check=False).stdout
        return card_from_npu_smi(parse_npu_smi_info(out), npus)
    except (OSError, subprocess.TimeoutExpired, NpuSmiFormatError):
        return None


def plan_inputs(model: str, *, recipe: str | None, words: list[str], hbm_gb: float | None) -> tuple[Card | None, dict[str, Any], dict[str, Any]]:
    """The card (when --hbm-gb names one), the model's config.json and the recipe's verl keys."""
    cfg = read_config(model)
    if hbm_gb is not None and hbm_gb <= 0:
        raise PlanInputError("--hbm-gb must be positive")
    card = card_for(hbm_gb, f"{hbm_gb:g} GB NPU") if hbm_gb else None
    return card, cfg, _overrides(recipe, words)


def plan_report(card: Card | None, cfg: dict[str, Any], overrides: dict[str, Any], *, npus: int | None, vllm_ascend: str | None) -> tuple[list[str], dict[str, Any]]:
    """The table for the recipe's settings, then each rollout TP that divides the NPUs."""
    try:
        shape = ModelShape.from_config(cfg, name=str(overrides.get("actor_rollout_ref.model.path") or "model"))
    except ModelConfigError as exc:
        raise PlanInputError(str(exc)) from None
    if npus:
        overrides = {**overrides, "trainer.n_gpus_per_node": npus, "trainer.nnodes": 1}
    rollout, training = settings_from_verl(overrides)
    note = ""
    if card is None:
        card = host_card(training.world)
    if card is None:
        card, note = card_for(64, "910B (assumed)"), " (no --hbm-gb and no npu-smi here: a 64 GB 910B assumed)"
    plan = make_plan(shape, rollout, training, card, vllm_ascend=vllm_ascend)
    quant = f", {shape.quant.method} weights ({shape.weight_bits:.2f} bits)" if shape.quant else ""
    lines = [f"{shape.name}: {shape.params() / 1e9:.2f}B params{quant} on {training.world} NPU(s){note}", *table(plan)]
    change = smallest_fix(plan, vllm_ascend=vllm_ascend)
    if change is not None:
        lines.append("smallest fix " + change.describe())
    lines.append("rollout TP options (same settings):")
    options = []
    for tp in (1, 2, 4, 8, 16):
        if tp > training.world or training.world % tp or shape.heads % tp:
            continue
        q = make_plan(shape, dataclasses.replace(rollout, tp=tp), training, card, vllm_ascend=vllm_ascend)
        r = q.rollout
        options.append({"tp": tp, "verdicts": [v.value for v in q.verdicts], "kv_cache_gib": round(r.kv / GIB, 2), "kv_cache_tokens": r.kv_tokens, "max_concurrency": r.max_concurrency})
        lines.append(f"  TP {tp:<2} KV {r.kv / GIB:6.2f} GiB  {r.kv_tokens:>10,} tokens  {r.max_concurrency:>8}x  {', '.join(v.value for v in q.verdicts)}")
    data = {"model": shape.name, "params": shape.params(), "quantization": shape.quant.method if shape.quant else None, "plan": plan.to_json(), "tp_options": options,
            "smallest_fix": None if change is None else {"key": change.key, "value": change.value, "plan": change.plan.to_json()}}
    return lines, data
