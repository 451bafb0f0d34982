"""Runs INSIDE the checked interpreter (the training venv): compose a recipe against that verl's config.

ascendrl never imports verl, hydra or pyarrow itself. This file is sent as the program of
``python -c`` to the interpreter being checked; it prints one JSON document of facts on its
last line. It uses only the standard library plus what verl itself depends on (hydra,
omegaconf, pyarrow) and, when asked, verl (for its own validate_config) and transformers (for
the tokenizer and the model's architecture). Anything missing becomes a reason, not a crash.
"""

# ruff: noqa
import difflib
import importlib.metadata
import importlib.util
import json
import os
import sys
import time
import traceback

SELECTED = [
    "trainer.device", "trainer.n_gpus_per_node", "trainer.nnodes", "trainer.use_v1", "trainer.total_epochs",
    "data.train_batch_size", "data.max_prompt_length", "data.max_response_length", "data.truncation",
    "data.filter_overlong_prompts", "data.train_files", "data.val_files", "data.prompt_key", "data.image_key",
    "actor_rollout_ref.model.path", "actor_rollout_ref.rollout.name", "actor_rollout_ref.rollout.n",
    "actor_rollout_ref.rollout.tensor_model_parallel_size", "actor_rollout_ref.rollout.gpu_memory_utilization",
    "actor_rollout_ref.actor.strategy", "actor_rollout_ref.actor.ppo_mini_batch_size",
    "actor_rollout_ref.actor.fsdp_config.param_offload", "actor_rollout_ref.actor.fsdp_config.optimizer_offload",
    "actor_rollout_ref.ref.fsdp_config.param_offload", "actor_rollout_ref.actor.use_kl_loss",
    "ray_kwargs.ray_init.num_cpus", "transfer_queue.enable",
    # the memory plan (ARL-L013)
    "actor_rollout_ref.rollout.max_model_len", "actor_rollout_ref.rollout.max_num_batched_tokens",
    "actor_rollout_ref.rollout.max_num_seqs", "actor_rollout_ref.rollout.enforce_eager",
    "actor_rollout_ref.rollout.enable_chunked_prefill", "actor_rollout_ref.rollout.free_cache_engine",
    "actor_rollout_ref.rollout.cudagraph_capture_sizes", "actor_rollout_ref.rollout.dtype",
    "actor_rollout_ref.rollout.data_parallel_size", "actor_rollout_ref.rollout.expert_parallel_size",
    "actor_rollout_ref.rollout.pipeline_model_parallel_size",
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", "actor_rollout_ref.actor.use_dynamic_bsz",
    "actor_rollout_ref.actor.ppo_max_token_len_per_gpu", "actor_rollout_ref.actor.fsdp_config.offload_policy",
    "actor_rollout_ref.actor.optim.optimizer", "actor_rollout_ref.model.enable_gradient_checkpointing",
    "actor_rollout_ref.model.use_remove_padding", "algorithm.use_kl_in_reward",
    # the memory plan under the megatron engine (model_engine=megatron; verl 0.9.1 engine/megatron.yaml)
    *("actor_rollout_ref.actor.megatron." + k for k in (
        "tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size", "expert_model_parallel_size",
        "expert_tensor_parallel_size", "virtual_pipeline_model_parallel_size", "sequence_parallel", "use_distributed_optimizer",
        "param_offload", "optimizer_offload", "override_transformer_config.recompute_granularity",
        "override_transformer_config.recompute_method", "override_transformer_config.recompute_num_layers")),
    "actor_rollout_ref.ref.megatron.param_offload", "actor_rollout_ref.actor.optim.main_grads_dtype",
    "transfer_queue.backend.storage_backend", "transfer_queue.backend.SimpleStorage.num_data_storage_units",
]
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".pt")
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "tokenizer.model", "vocab.json")


def leaf_paths(node, prefix=""):
    from omegaconf import DictConfig

    out = []
    if isinstance(node, DictConfig):
        for key in node.keys():
            path = f"{prefix}.{key}" if prefix else str(key)
            out.append(path)
            try:
                child = node._get_node(key)
            except Exception:
                continue
            if isinstance(child, DictConfig):
                out += leaf_paths(child, path)
    return out


def suggest(key, paths):
    """A key moved elsewhere (same leaf name), or a near spelling under the same parent."""
    parent, _, last = key.rpartition(".")
    same_leaf = [p for p in paths if p.rsplit(".", 1)[-1] == last and p != key]
    if same_leaf:
        return same_leaf[:3]
    siblings = {p.rpartition(".")[2]: p for p in paths if p.rpartition(".")[0] == parent}
    return [siblings[name] for name in difflib.get_close_matches(last, list(siblings), n=2, cutoff=0.8)]


def compose(config_dir, overrides):
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=config_dir, version_base=None):
        return hydra_compose(config_name="ppo_trainer", overrides=list(overrides))


def hydra_message(exc):
    parts = [str(exc).strip()]
    cause = exc.__cause__ or exc.__context__
    if cause is not None and str(cause).strip() and str(cause).strip() not in parts[0]:
        parts.append(str(cause).strip())
    return f"{type(exc).__module__}.{type(exc).__name__}: " + "\n".join(parts)


def check_types(default_cfg, parsed):
    from omegaconf import OmegaConf

    problems = []
    for ov in parsed:
        if ov.is_delete() or ov.is_add() or ov.key_or_group is None:
            continue
        key = ov.key_or_group
        try:
            default = OmegaConf.select(default_cfg, key, default=None, throw_on_missing=False)
        except Exception:
            continue
        value = ov.value()
        if default is None or value is None or isinstance(default, (dict, list)) or not isinstance(value, str):
            continue
        if value.startswith("${"):
            continue
        if isinstance(default, bool) or isinstance(default, (int, float)):
            kind = "bool" if isinstance(default, bool) else type(default).__name__
            problems.append({"override": ov.input_line, "key": key, "expected": kind, "got": value})
    return problems


def read_parquet_facts(path, prompt_key, image_key):
    facts = {"path": path, "exists": os.path.exists(path)}
    if not facts["exists"]:
        return facts
    try:
        import pyarrow.parquet as pq
    except ImportError:
        facts["error"] = "pyarrow is not importable in this interpreter"
        return facts
    try:
        pf = pq.ParquetFile(path)
        schema = pf.schema_arrow
        facts["rows"] = pf.metadata.num_rows
        facts["columns"] = list(schema.names)
        rm = schema.field("reward_model").type if "reward_model" in schema.names else None
        facts["ground_truth"] = bool(rm is not None and hasattr(rm, "names") and "ground_truth" in rm.names) if rm is not None else False
        facts["has_image_column"] = image_key in schema.names
        if prompt_key in schema.names and pf.metadata.num_rows:
            first = pf.read_row_group(0, columns=[prompt_key]).column(0)[0].as_py()
            facts["prompt_is_chat"] = isinstance(first, list) and all(isinstance(m, dict) and "role" in m and "content" in m for m in first)
    except Exception as exc:
        facts["error"] = f"{type(exc).__name__}: {exc}"
    return facts


def prompt_lengths(model_dir, train_files, prompt_key, limit, max_len):
    try:
        from transformers import AutoTokenizer
    except ImportError:
        return {"skipped": "transformers is not importable in this interpreter"}
    try:
        import pyarrow.parquet as pq

        tok = AutoTokenizer.from_pretrained(model_dir, local_files_only=True, trust_remote_code=False)
    except Exception as exc:
        return {"skipped": f"cannot load the tokenizer from {model_dir}: {type(exc).__name__}: {exc}"}
    checked = over = longest = 0
    start = time.perf_counter()
    for path in train_files:
        if not os.path.exists(path):
            continue
        pf = pq.ParquetFile(path)
        for batch in pf.iter_batches(columns=[prompt_key], batch_size=1024):
            for messages in batch.column(0).to_pylist():
                if checked >= limit:
                    break
                ids = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=True)
                if hasattr(ids, "keys"):  # transformers 5 returns a BatchEncoding
                    ids = ids["input_ids"]
                if ids and isinstance(ids[0], list):
                    ids = ids[0]
                n = len(ids)
                checked += 1
                longest = max(longest, n)
                over += n > max_len
    return {"checked": checked, "over": over, "longest": longest, "max_prompt_length": max_len, "seconds": round(time.perf_counter() - start, 3)}


def model_facts(path):
    facts = {"path": path, "exists": os.path.isdir(path)}
    if not facts["exists"]:
        return facts
    names = os.listdir(path)
    facts["weights"] = sorted(n for n in names if n.endswith(WEIGHT_SUFFIXES))
    facts["tokenizer"] = any(n in names for n in TOKENIZER_FILES)
    cfg_path = os.path.join(path, "config.json")
    if os.path.isfile(cfg_path):
        try:
            cfg = json.load(open(cfg_path))
            facts["architectures"] = cfg.get("architectures") or []
            text = cfg.get("text_config") or cfg
            for key in ("max_position_embeddings", "hidden_size", "num_hidden_layers", "vocab_size", "intermediate_size", "num_attention_heads", "num_key_value_heads"):
                facts[key] = text.get(key, cfg.get(key))
            facts["torch_dtype"] = cfg.get("torch_dtype") or text.get("torch_dtype")
            facts["config"] = cfg  # the memory plan reads the whole config.json
            desc_path = os.path.join(path, "quant_model_description.json")  # msModelSlim's quantized weights
            if os.path.isfile(desc_path):
                with open(desc_path, encoding="utf-8") as fh:
                    cfg["quant_model_description"] = json.load(fh)
        except Exception as exc:
            facts["config_error"] = f"{type(exc).__name__}: {exc}"
    index = os.path.join(path, "model.safetensors.index.json")
    total = None
    if os.path.isfile(index):
        try:
            total = json.load(open(index)).get("metadata", {}).get("total_size")
        except Exception:
            total = None
    if total is None and facts.get("weights"):
        total = sum(os.path.getsize(os.path.join(path, n)) for n in facts["weights"])
    facts["weight_bytes"] = total
    try:
        import transformers

        facts["transformers_knows"] = {a: hasattr(transformers, a) for a in facts.get("architectures", [])}
    except ImportError:
        facts["transformers_knows"] = None
    return facts


DEFAULTS = {"data.prompt_key": "prompt", "data.image_key": "images", "data.train_files": None, "data.val_files": None, "actor_rollout_ref.model.path": None}


def _files(value):
    """A files setting as a list: one path, a list, or Hydra's [a,b] text."""
    if isinstance(value, str) and value.startswith("[") and value.endswith("]"):
        return [v.strip().strip("'\"") for v in value[1:-1].split(",") if v.strip()]
    return [value] if isinstance(value, str) else list(value or [])


def data_and_model(out, sel, args, tokenize):
    """Facts about the data files and the model folder ``sel`` (selected config values) names."""
    prefix = args.get("root_prefix") or ""

    def local(p):
        return prefix + p if prefix and isinstance(p, str) and p.startswith("/") else p

    prompt_key, image_key = sel.get("data.prompt_key") or "prompt", sel.get("data.image_key") or "images"
    out["data"] = {
        "train": [read_parquet_facts(local(p), prompt_key, image_key) for p in _files(sel.get("data.train_files"))],
        "val": [read_parquet_facts(local(p), prompt_key, image_key) for p in _files(sel.get("data.val_files"))],
    }
    model_path = sel.get("actor_rollout_ref.model.path")
    out["model"] = model_facts(local(model_path)) if model_path else {"path": None, "exists": False}
    out["model"]["configured"] = model_path
    if tokenize and out["model"].get("tokenizer") and args.get("tokenize", True):
        out["prompts"] = prompt_lengths(
            local(model_path), [local(p) for p in _files(sel.get("data.train_files"))], prompt_key,
            int(args.get("tokenize_limit", 200000)), int(sel.get("data.max_prompt_length") or 0),
        )


def main():
    args = json.loads(sys.argv[1])
    out = {"python": sys.executable, "timing": {}}
    t0 = time.perf_counter()
    spec = importlib.util.find_spec("verl")
    if spec is None or not spec.submodule_search_locations:
        out["verl"] = {"error": "verl is not installed in this interpreter"}
        out["config"] = None
        # what needs no verl: the data files and the model folder the overrides name (verl's defaults otherwise)
        given = {}
        for line in args["overrides"]:
            key, _, value = line.partition("=")
            given[key.lstrip("+~")] = value.strip().strip("'\"")
        data_and_model(out, {**DEFAULTS, **{k: v for k, v in given.items() if k in SELECTED}}, args, tokenize=False)
        print(json.dumps(out, default=str))
        return
    config_dir = os.path.join(list(spec.submodule_search_locations)[0], "trainer", "config")
    try:
        version = importlib.metadata.version("verl")
    except Exception:
        version = None
    out["verl"] = {"version": version, "config_dir": config_dir}
    try:
        from hydra.core.override_parser.overrides_parser import OverridesParser
        from omegaconf import OmegaConf
    except ImportError as exc:
        out["verl"]["error"] = f"hydra/omegaconf not importable: {exc}"
        print(json.dumps(out))
        return
    overrides = args["overrides"]
    parser = OverridesParser.create()
    errors, parsed, good = [], [], []
    for line in overrides:
        try:
            parsed.append(parser.parse_overrides([line])[0])
            good.append(line)
        except Exception as exc:
            errors.append({"override": line, "kind": "parse", "message": hydra_message(exc)})
    default_cfg = compose(config_dir, [])
    out["timing"]["compose_default_s"] = round(time.perf_counter() - t0, 3)
    paths = leaf_paths(default_cfg)
    existing = set(paths)
    suspects = []
    for ov in parsed:
        key = ov.key_or_group
        if ov.is_force_add() or ov.is_delete() or key is None:
            continue
        exists = key in existing
        if (ov.is_add() and exists) or (not ov.is_add() and not exists):
            suspects.append(ov.input_line)
    clean = [line for line in good if line not in suspects]
    for line in suspects:  # Hydra's own verdict and message for each doubtful override
        try:
            compose(config_dir, clean + [line])
            clean.append(line)
        except Exception as exc:
            key = line.split("=", 1)[0].lstrip("+~")
            kind = "append_existing" if line.startswith("+") and not line.startswith("++") else "unknown_key"
            errors.append({"override": line, "kind": kind, "message": hydra_message(exc), "suggestions": suggest(key, paths) if kind == "unknown_key" else []})
    out["hydra_errors"] = errors
    out["type_errors"] = check_types(default_cfg, [p for p in parsed if p.input_line in clean])
    try:
        cfg = compose(config_dir, clean)
        selected = {}
        for key in SELECTED:
            value = OmegaConf.select(cfg, key, default=None, throw_on_missing=False)
            selected[key] = OmegaConf.to_container(value) if hasattr(value, "_metadata") else value
        out["config"] = selected
    except Exception as exc:
        out["config"] = None
        out["compose_error"] = hydra_message(exc)
        cfg = None
    out["timing"]["compose_s"] = round(time.perf_counter() - t0, 3)
    if cfg is not None:
        data_and_model(out, out["config"], args, tokenize=True)
        out["timing"]["data_s"] = round(time.perf_counter() - t0, 3)
        if args.get("validate"):
            t1 = time.perf_counter()
            try:
                from verl.trainer.ppo.utils import need_critic, need_reference_policy
                from verl.utils.config import validate_config

                validate_config(config=cfg, use_reference_policy=need_reference_policy(cfg), use_critic=need_critic(cfg))
                out["validate"] = {"ok": True}
            except Exception as exc:
                out["validate"] = {"ok": False, "error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()[-2000:]}
            out["timing"]["validate_s"] = round(time.perf_counter() - t1, 3)
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
