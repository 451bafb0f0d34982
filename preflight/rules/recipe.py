"""Recipe lint rules (ARL-L*): the recipe against the installed verl, its data and model, and this host.

They run only with ``check --recipe``; their facts come from the checked interpreter's own
verl (Hydra compose of its ``ppo_trainer`` config, and verl's validate_config with --validate).
"""

from __future__ import annotations

import os
from typing import Any

from ..engine import Rule
from ..model import Area, Facts, Finding, Severity

VERL_CONFIG = "https://github.com/verl-project/verl/blob/main/verl/trainer/config/ppo_trainer.yaml"
GIB = 1 << 30


def _query(facts: Facts) -> dict[str, Any] | None:
    return facts.value("lint.query")


def _cfg(facts: Facts) -> dict[str, Any] | None:
    q = _query(facts)
    return q.get("config") if q else None


class _LintRule(Rule):
    """Skips with the reason when there is no recipe, or the checked interpreter could not compose it."""

    area = Area.RECIPE
    needs_config = True
    needs_verl = True  # False: judged from the recipe, its files and this shell alone

    def evaluate(self, facts: Facts) -> Finding | None:
        if "lint.recipe" not in facts:
            return None  # not linting a recipe: say nothing
        q = _query(facts)
        if q is None:
            return self.skip(facts.get_fact("lint.query").reason or "no lint facts")
        if self.needs_verl and (q.get("verl") or {}).get("error"):
            if self.id != "ARL-L001":  # said once there (and at the top of check's output)
                return self.skip("needs verl in the checked interpreter (see ARL-L001)")
            return self.skip(f"{q['verl']['error']} ({q.get('python')}); pass --python with the training interpreter")
        if self.needs_config and q.get("config") is None:
            return self.skip(f"the overrides did not compose (see ARL-L001): {q.get('compose_error', '')[:200]}")
        return self.judge(facts, q)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        raise NotImplementedError


def _verl(q: dict[str, Any]) -> str:
    return f"verl {q.get('verl', {}).get('version') or '?'}"


class OverridesCompose(_LintRule):
    id = "ARL-L001"
    title = "Overrides compose against the installed verl's config"
    severity = Severity.CRITICAL
    what = "Composes ppo_trainer from the config folder of the verl in the checked interpreter with the recipe's overrides (Hydra, no verl import) and reports unknown keys, a missing or superfluous +, and parse errors in Hydra's own words."
    why = "Hydra rejects them only after `python -m verl.trainer.main_ppo` starts; a key renamed between verl releases is the usual cause."
    fix = "Correct the key (see the suggestion), drop or add the leading +, or use the verl release the recipe was written for."
    sources = (VERL_CONFIG, "https://hydra.cc/docs/advanced/override_grammar/basic/")
    needs_config = False

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        errors = q.get("hydra_errors") or []
        n = len(facts.value("lint.recipe")["overrides"])
        if not errors:
            return self.passed(f"{n} overrides compose against {_verl(q)}'s ppo_trainer config", verl=q["verl"].get("version"))
        parts = []
        for e in errors:
            hint = f" — did you mean {' or '.join(e['suggestions'])}?" if e.get("suggestions") else ""
            first = e["message"].splitlines()[0]
            parts.append(f"{e['override']}: {first}{hint}")
        return self.fail(f"{len(errors)} of {n} overrides rejected by {_verl(q)}: " + "; ".join(parts), errors=errors)


class OverrideTypes(_LintRule):
    id = "ARL-L002"
    title = "Override values have the type verl's config declares"
    severity = Severity.CRITICAL
    what = "Compares each override's value with the type of the key's default in verl's config (Hydra itself composes `rollout.n=abc`)."
    why = "A text where verl expects a number composes fine and fails minutes later inside a worker, or is silently misused."
    fix = "Give the key a value of the declared type."
    sources = (VERL_CONFIG,)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        problems = q.get("type_errors") or []
        if not problems:
            return self.passed("every override value fits its key's type")
        listed = "; ".join(f"{p['key']}={p['got']!r} (expects {p['expected']})" for p in problems)
        return self.fail(listed, problems=problems)


class VerlValidator(_LintRule):
    id = "ARL-L003"
    title = "verl's own validate_config accepts the config"
    severity = Severity.CRITICAL
    what = "With --validate, runs verl.utils.config.validate_config on the composed config in the checked interpreter (batch divisibility, mini vs train batch, micro batch settings) — verl's arithmetic, not a copy of it."
    why = "main_ppo runs the same check first; failing it ends the run, but only after the launch."
    fix = "Change the batch sizes as verl's message says (train_batch_size x rollout.n divisible by the NPU count; ppo_mini_batch_size <= train_batch_size)."
    sources = ("https://github.com/verl-project/verl/blob/main/verl/utils/config.py",)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        v = q.get("validate")
        if v is None:
            return self.skip("not run (add --validate; it imports verl and takes a few seconds)")
        if v["ok"]:
            return self.passed(f"validate_config of {_verl(q)} passed")
        return self.fail(f"{_verl(q)} validate_config: {v['error']}", error=v["error"])


class TensorParallelFits(_LintRule):
    id = "ARL-L004"
    title = "Rollout tensor parallelism divides the NPUs"
    severity = Severity.CRITICAL
    what = "Checks that NPUs per node x nodes is a multiple of actor_rollout_ref.rollout.tensor_model_parallel_size (verl's validator does not)."
    why = "vLLM replicas are TP-sized groups of NPUs; a remainder fails when the rollout workers are placed."
    fix = "Pick a TP that divides n_gpus_per_node x nnodes (e.g. 4 or 8 on an 8-NPU node)."
    sources = ("https://github.com/verl-project/verl/blob/v0.7.0/examples/grpo_trainer/run_qwen2_5_vl_7b_npu.sh",)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        c = q["config"]
        world = int(c["trainer.n_gpus_per_node"] or 0) * int(c["trainer.nnodes"] or 0)
        tp = int(c["actor_rollout_ref.rollout.tensor_model_parallel_size"] or 1)
        if world and world % tp == 0:
            return self.passed(f"TP {tp} divides {world} NPUs ({world // tp} replicas)")
        return self.fail(f"TP {tp} does not divide {world} NPUs", tp=tp, world=world)


class ContextFits(_LintRule):
    id = "ARL-L005"
    title = "Prompt + response fit the model's context"
    severity = Severity.ERROR
    what = "Compares data.max_prompt_length + data.max_response_length with max_position_embeddings in the model's config.json."
    why = "Beyond the model's positions the rollout either fails to allocate or generates garbage."
    fix = "Lower max_prompt_length / max_response_length, or use a model with a longer context."
    sources = (VERL_CONFIG,)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        c, m = q["config"], q.get("model") or {}
        total = int(c["data.max_prompt_length"] or 0) + int(c["data.max_response_length"] or 0)
        limit = m.get("max_position_embeddings")
        if not limit:
            return self.skip("the model's config.json (max_position_embeddings) is not readable here")
        if total <= int(limit):
            return self.passed(f"{total} tokens within the model's {limit}")
        return self.fail(f"prompt + response = {total} tokens > the model's {limit}")


class DeviceMatchesHost(_LintRule):
    id = "ARL-L006"
    title = "trainer.device matches the accelerator present"
    severity = Severity.CRITICAL
    what = "Compares trainer.device with what this host has (npu-smi, /dev/davinci*)."
    why = "Without an NPU, verl's auto_set_device silently rewrites npu to cuda and the run ends in 'Total available GPUs 0 is less than total desired GPUs'."
    fix = "Run on an Ascend node or container with the NPUs visible (see ARL-D001, D004)."
    sources = ("https://github.com/verl-project/verl/blob/main/verl/utils/device.py",)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        device = q["config"]["trainer.device"]
        npus = _npu_count(facts)
        if device == "npu" and not npus:
            return self.fail("trainer.device=npu but this host shows no NPU: verl will switch to cuda and stop at 'Total available GPUs 0'")
        if device != "npu" and npus:
            return self.warn(f"trainer.device={device} on a host with {npus} NPU(s); verl will switch it to npu")
        return self.passed(f"trainer.device={device}, {npus} NPU(s) present")


def _npu_count(facts: Facts) -> int:
    info = facts.value("npu_smi.info")
    if info is not None:
        return len(info.chips)
    return len(facts.value("devices.davinci", []))


class NpusPerNode(_LintRule):
    id = "ARL-L007"
    title = "n_gpus_per_node fits the visible NPUs"
    severity = Severity.CRITICAL
    what = "Compares trainer.n_gpus_per_node with the NPUs npu-smi shows and ASCEND_RT_VISIBLE_DEVICES leaves visible."
    why = "verl asks Ray for that many NPUs per node; with fewer, the placement group waits forever or fails with 'Total available GPUs'."
    fix = "Set trainer.n_gpus_per_node to the visible count, or widen ASCEND_RT_VISIBLE_DEVICES."
    sources = ("https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1/maintenref/envvar/envref_07_0028.html",)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        from ..probes.devices import parse_visible_devices

        wanted = int(q["config"]["trainer.n_gpus_per_node"] or 0)
        present = _npu_count(facts)
        if not present:
            return self.skip("no NPU on this host (see ARL-L006)")
        visible = present
        env = facts.value("devices.visible_env")
        if env is not None:
            visible = len([i for i in parse_visible_devices(env)[0] if i < present])
        if wanted > visible:
            return self.fail(f"n_gpus_per_node={wanted} but {visible} NPU(s) are visible ({present} present)")
        return self.passed(f"n_gpus_per_node={wanted} of {visible} visible NPU(s)")


class RayCpus(_LintRule):
    id = "ARL-L008"
    title = "Ray has the CPUs verl's actors will ask for"
    severity = Severity.CRITICAL
    what = "With the V1 trainer (trainer.use_v1, default in verl 0.9), TransferQueue starts a controller and num_data_storage_units storage actors at 1 CPU each, and each worker bundle takes a CPU; compares that with Ray's CPUs (ray_kwargs.ray_init.num_cpus, else this host's)."
    why = "Ray waits for CPUs that never come: the run hangs silently after the config print (measured on a 2-core host)."
    fix = "Set +ray_kwargs.ray_init.num_cpus high enough, or lower transfer_queue.backend.SimpleStorage.num_data_storage_units."
    sources = ("https://github.com/verl-project/verl/blob/main/verl/trainer/config/transfer_queue/transfer_queue.yaml",)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        c = q["config"]
        if not c.get("trainer.use_v1"):
            return self.skip("the V0 trainer does not start TransferQueue")
        units = int(c.get("transfer_queue.backend.SimpleStorage.num_data_storage_units") or 1)
        workers = int(c["trainer.n_gpus_per_node"] or 0)
        demand = units + 1 + workers
        cpus = c.get("ray_kwargs.ray_init.num_cpus")
        source = "ray_kwargs.ray_init.num_cpus"
        if cpus is None:
            if facts.value("mem.ram_bytes") is None:  # not the live host
                return self.skip("Ray's CPU count is this host's; only known on the live host")
            cpus, source = len(os.sched_getaffinity(0)), "CPUs of this host"
        if int(cpus) < demand:
            return self.fail(f"{cpus} {source} < {demand} needed ({units} storage units + 1 controller + {workers} worker bundles): Ray will wait forever")
        return self.passed(f"{cpus} {source} >= {demand} needed")


class RecipeEnv(_LintRule):
    id = "ARL-L009"
    title = "The run gets the env the recipe needs"
    severity = Severity.WARNING
    what = "Compares the recipe's env (e.g. VLLM_ASCEND_ENABLE_NZ=0) with the environment of this shell."
    why = "`ascendrl run` applies the recipe's env; a plain `python3 -m verl.trainer.main_ppo` from this shell would not."
    fix = "Launch with `ascendrl run`, or export the listed variables."
    sources = ("https://github.com/verl-project/verl/blob/v0.7.0/tests/special_npu/run_qwen2_5_vl_3b_npu.sh",)
    needs_config = False
    needs_verl = False

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        wanted = facts.value("lint.recipe")["env"]
        have = facts.value("env.settings", {})
        differs = {k: (v, have.get(k)) for k, v in wanted.items() if have.get(k) != v}
        if not differs:
            return self.passed("this shell already has the recipe's env" if wanted else "the recipe needs no env")
        shown = ", ".join(f"{k}={v} (shell: {h if h is not None else 'unset'})" for k, (v, h) in differs.items())
        return self.warn(f"recipe sets {shown}")


REQUIRED_COLUMNS = ("data_source", "prompt", "ability", "reward_model", "extra_info")


class DataFiles(_LintRule):
    id = "ARL-L010"
    title = "Train/val parquet files exist with the columns verl reads"
    severity = Severity.CRITICAL
    what = "Reads the parquet schema (pyarrow, in the checked interpreter): data_source, the prompt column as chat messages, ability, reward_model.ground_truth, extra_info; notes the image column when data.image_key names one."
    why = "A missing file ends in datasets' 'Unable to find'; a missing column in a KeyError inside RLHFDataset — both after Ray and the workers have started."
    fix = "Regenerate the data in verl's format: `ascendrl data gsm8k --out DIR`."
    sources = ("https://github.com/verl-project/verl/blob/main/examples/data_preprocess/gsm8k.py", "https://github.com/verl-project/verl/blob/main/verl/utils/dataset/rl_dataset.py")
    needs_config = False
    needs_verl = False

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        data = q.get("data") or {}
        prompt_key = (q.get("config") or {}).get("data.prompt_key") or "prompt"
        problems, notes = [], []
        for split in ("train", "val"):
            for f in data.get(split, []):
                if not f["exists"]:
                    problems.append(f"{split} file {f['path']} does not exist")
                    continue
                if f.get("error"):
                    problems.append(f"{f['path']}: {f['error']}")
                    continue
                missing = [c for c in REQUIRED_COLUMNS if c != "prompt" and c not in f["columns"]]
                if prompt_key not in f["columns"]:
                    missing.insert(0, prompt_key)
                if missing:
                    problems.append(f"{f['path']} lacks {', '.join(missing)}")
                elif not f.get("ground_truth"):
                    problems.append(f"{f['path']}: reward_model has no ground_truth")
                elif f.get("prompt_is_chat") is False:
                    problems.append(f"{f['path']}: {prompt_key} is not a list of {{role, content}} messages")
                if not f.get("has_image_column"):
                    notes.append(split)
        if problems:
            return self.fail("; ".join(problems))
        if not data.get("train"):
            return self.fail("data.train_files is empty")
        rows = sum(f.get("rows", 0) for f in data["train"])
        note = f" (no {(q.get('config') or {}).get('data.image_key') or 'images'} column in {', '.join(sorted(set(notes)))}: text-only)" if notes else ""
        return self.passed(f"{rows} training rows in verl's format{note}")


class OverlongPrompts(_LintRule):
    id = "ARL-L011"
    title = "No prompt longer than data.max_prompt_length"
    severity = Severity.CRITICAL
    what = "With the model's tokenizer on disk, applies its chat template to every training prompt (as verl does) and counts those over max_prompt_length."
    why = "With truncation='error' and no filtering, one overlong prompt stops the run; with filter_overlong_prompts they are silently dropped."
    fix = "Raise data.max_prompt_length, set data.filter_overlong_prompts=True, or clean the data."
    sources = ("https://github.com/verl-project/verl/blob/main/verl/utils/dataset/rl_dataset.py",)

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        p = q.get("prompts")
        if p is None:
            return self.skip("no tokenizer in the model folder to measure prompts with")
        if "skipped" in p:
            return self.skip(p["skipped"])
        c = q["config"]
        shown = f"{p['over']} of {p['checked']} prompts exceed {p['max_prompt_length']} tokens (longest {p['longest']})"
        if not p["over"]:
            return self.passed(f"all {p['checked']} prompts within {p['max_prompt_length']} tokens (longest {p['longest']})")
        if c.get("data.filter_overlong_prompts"):
            return self.warn(f"{shown}; filter_overlong_prompts drops them")
        if c.get("data.truncation") == "error":
            return self.fail(f"{shown} with truncation='error'")
        return self.warn(f"{shown}; they will be truncated ({c.get('data.truncation')})")


class ModelReady(_LintRule):
    id = "ARL-L012"
    title = "The model path exists with weights of an architecture transformers knows"
    severity = Severity.CRITICAL
    what = "Checks actor_rollout_ref.model.path: a local folder, with config.json whose architectures transformers (in the checked interpreter) provides, and weight files."
    why = "A local path that does not exist reaches verl as a hub repo id and fails with HFValidationError after Ray has started; missing weights fail at load."
    fix = "Point actor_rollout_ref.model.path (recipe param model_path) at the downloaded model folder."
    sources = ("https://github.com/huggingface/huggingface_hub/blob/main/src/huggingface_hub/utils/_validators.py",)
    needs_config = False
    needs_verl = False

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        m = q.get("model") or {}
        configured = m.get("configured")
        if not m.get("exists"):
            if configured and (str(configured).startswith(("/", "./", "~")) or str(configured).count("/") != 1):
                return self.fail(f"{configured} does not exist: verl would treat it as a hub repo id (HFValidationError)")
            return self.warn(f"{configured} is not a local folder; it will be downloaded from the hub (needs network)")
        problems = []
        if not m.get("weights"):
            problems.append("no weight files (*.safetensors / *.bin)")
        arch = m.get("architectures") or []
        if not arch:
            problems.append("config.json names no architectures")
        known = m.get("transformers_knows")
        if known:
            unknown = [a for a, ok in known.items() if not ok]
            if unknown:
                problems.append(f"transformers in the checked interpreter has no {', '.join(unknown)}")
        if problems:
            return self.fail(f"{configured}: " + "; ".join(problems))
        return self.passed(f"{configured}: {', '.join(arch)}, {len(m['weights'])} weight file(s)")


class MemoryEstimate(_LintRule):
    id = "ARL-L013"
    title = "The rollout and the actor fit the NPUs' HBM (memory plan)"
    severity = Severity.CRITICAL
    what = (
        "Plans HBM per NPU from the model's config.json and the recipe: what vLLM will log at start-up (weights, profiled "
        "peak activation, non-torch memory, graph capture, 'Available KV cache memory', KV tokens, maximum concurrency) with "
        "the installed vllm-ascend's own formula, the training state resident during rollout, and update_actor's peak "
        "(FSDP: fp32 params, grads, AdamW, gathered layer; Megatron: TP x PP x EP weights, grad buffer, distributed optimizer, "
        "recompute; activations, logits) — against npu-smi's HBM and what other processes hold."
    )
    why = "vLLM finds a negative or too small KV cache only after Ray, the model load and profiling (minutes); an OOM in update_actor comes after the first rollout."
    fix = "Apply the change the finding names (it is re-planned to fit): gpu_memory_utilization, max_num_batched_tokens, micro-batch, offload or TP."
    sources = (
        "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/worker/worker_v1.py",
        "https://github.com/vllm-project/vllm-ascend/blob/v0.15.0rc1/vllm_ascend/worker/worker.py",
        "https://github.com/vllm-project/vllm/blob/main/vllm/v1/core/kv_cache_utils.py",
        "https://github.com/verl-project/verl/blob/main/verl/workers/fsdp_workers.py",
        "https://docs.nvidia.com/megatron-core/developer-guide/latest/api-guide/dist_optimizer.html",
        "https://arxiv.org/abs/2205.05198",
        "https://github.com/vllm-project/vllm-ascend/issues/9372",
    )

    def judge(self, facts: Facts, q: dict[str, Any]) -> Finding:
        from ..memplan import ModelConfigError, ModelShape
        from ..memplan_advice import Verdict, card_for, card_from_npu_smi, make_plan, settings_from_verl, smallest_fix, table

        m, c = q.get("model") or {}, q["config"]
        if not m.get("config"):
            return self.skip("the model's config.json is not readable here (see ARL-L012)")
        try:
            shape = ModelShape.from_config(m["config"], name=str(m.get("configured") or "model"))
        except ModelConfigError as exc:
            return self.skip(str(exc))
        rollout, training = settings_from_verl(c)
        info = facts.value("npu_smi.info")
        card = card_from_npu_smi(info, training.world) if info is not None else None
        assumed = ""
        if card is None:
            card, assumed = card_for(64, "910B (assumed)"), " (no npu-smi HBM: planned for a 64 GB 910B)"
        vllm_ascend = facts.value("pkg.vllm_ascend")
        plan = make_plan(shape, rollout, training, card, vllm_ascend=vllm_ascend)
        r, t = plan.rollout, plan.training
        head = (
            f"{plan.verdicts[0].value}: KV {r.kv / GIB:.2f} GiB = {r.kv_tokens:,} tokens ({r.max_concurrency}x at {rollout.max_model_len}); "
            f"rollout peak {r.peak / GIB:.1f} GiB, training peak {(t.peak if t else 0) / GIB:.1f} GiB of {card.total / GIB:.1f} GiB{assumed}"
        )
        change = smallest_fix(plan, vllm_ascend=vllm_ascend)
        lines = table(plan)
        if not plan.fits:
            lines.append("smallest fix " + (change.describe() if change else "none of gpu_memory_utilization, max_num_batched_tokens, micro-batch, offload, TP alone fits: use more NPUs or a smaller model"))
        detail = head + "\n       " + "\n       ".join(lines)
        data = {"plan": plan.to_json(), "smallest_fix": None if change is None else {"key": change.key, "value": change.value, "plan": change.plan.to_json()}}
        if plan.fits:
            return self.passed(detail, **data)
        hard = {Verdict.START_REFUSED, Verdict.NEGATIVE_KV, Verdict.KV_BELOW_ONE_SEQUENCE}
        fix = f"Set {change.key}={change.value} (re-planned: {change.describe().split(' → ', 1)[1]})." if change else None
        if change is not None and change.value == "stopped":
            fix = f"Stop the {change.key} (re-planned without them: {change.describe().split(' → ', 1)[1]})."
        if hard & set(plan.verdicts):
            return self.fail(detail, fix=fix, **data)
        return self.warn(detail, fix=fix, **data)


RULES: tuple[type[Rule], ...] = (
    OverridesCompose,
    OverrideTypes,
    VerlValidator,
    TensorParallelFits,
    ContextFits,
    DeviceMatchesHost,
    NpusPerNode,
    RayCpus,
    RecipeEnv,
    DataFiles,
    OverlongPrompts,
    ModelReady,
    MemoryEstimate,
)
