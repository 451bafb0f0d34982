"""verl's own checks and Hydra's unknown keys, related back to the config keys to change.

verl validates its config with ``assert``/``ValueError`` whose messages name the quantities
(batch sizes, ``rollout.n``, world size, chunks) but not always the keys; Hydra and OmegaConf
reject keys that are not in verl's config ("not in struct", "Could not override"). This analyzer
maps the message to the keys and, for unknown keys, suggests the nearest valid ones from verl's
generated PPO trainer config (``verl_keys.txt``).
"""

from __future__ import annotations

import functools
import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, typed
from ...lazyre import lazy

VERL_CONFIG = "https://verl.readthedocs.io/en/latest/examples/config.html"
PROTOCOL = "https://github.com/verl-project/verl/blob/v0.9.0/verl/protocol.py"
REWARD = "https://github.com/verl-project/verl/blob/v0.9.0/verl/utils/reward_score/__init__.py"
PREPROCESS = "https://verl.readthedocs.io/en/latest/preparation/prepare_data.html"
OMEGACONF = "https://omegaconf.readthedocs.io/en/2.3_branch/usage.html#struct-flag"

KEYS = (  # words in a message -> the config keys they stand for
    (lazy(r"only support equal chunk|chunk", re.I), ("data.train_batch_size", "actor_rollout_ref.rollout.n", "trainer.n_gpus_per_node", "trainer.nnodes")),
    (lazy(r"ppo_mini_batch_size|mini[_ ]batch", re.I), ("actor_rollout_ref.actor.ppo_mini_batch_size", "critic.ppo_mini_batch_size")),
    (lazy(r"micro[_ ]batch", re.I), ("actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu", "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu")),
    (lazy(r"train_batch_size|batch[_ ]size", re.I), ("data.train_batch_size",)),
    (lazy(r"rollout\.n\b|\bn_samples|\bn \(", re.I), ("actor_rollout_ref.rollout.n",)),
    (lazy(r"world[_ ]size|n_gpus|dp[_ ]size|divisible", re.I), ("trainer.n_gpus_per_node", "trainer.nnodes")),
    (lazy(r"tensor_model_parallel|tp[_ ]size|infer_tp|num_attention_heads|num_key_value_heads", re.I), ("actor_rollout_ref.rollout.tensor_model_parallel_size",)),
    (lazy(r"max_prompt_length|prompt length", re.I), ("data.max_prompt_length",)),
    (lazy(r"max_response_length|response length", re.I), ("data.max_response_length",)),
    (lazy(r"max_model_len|max_num_batched_tokens", re.I), ("actor_rollout_ref.rollout.max_model_len", "actor_rollout_ref.rollout.max_num_batched_tokens")),
    (lazy(r"ppo_max_token_len", re.I), ("actor_rollout_ref.actor.ppo_max_token_len_per_gpu",)),
)
DIVISIBLE = lazy(r"\(?(\d+)\)?\s*(?:must|should|is not|isn't)? ?(?:be )?divisible by[^\d]*(\d+)|(\d+)\s*%\s*(\d+)\s*(?:!=|==)\s*0")
CONFIG_WORDS = lazy(r"world_size|infer_tp|mini_batch|micro_batch|rollout|train_batch_size|equal chunk|n_gpus|batch_size \d+ < chunks \d+", re.I)
# The same words in another library's own batch check (DeepSpeed's config assertion): not a verl condition. Nor is the
# process group's own buffer-size check of a single-tensor all-gather / reduce-scatter (torch c10d ProcessGroupNCCL,
# torch_npu ProcessGroupHCCL: ARL-E4960), whose "world_size" names the collective's group, not trainer.n_gpus_per_node.
FOREIGN = lazy(r"Check batch related parameters\.|output tensor size must be equal to world_size times input tensor size|"
               r"input tensor must be the same size as output size times world size")
CHUNK = lazy(r"Got size of DataProto (\d+) and chunk (\d+)")
# ROLL's DataProto (roll/distributed/scheduler/protocol.py, derived from verl's) splits a batch unevenly but asserts it holds at
# least one row per chunk: "batch_size 32 < chunks 64" when the batch is smaller than the workers' data-parallel size.
ROLL_PROTOCOL = "https://github.com/alibaba/ROLL/blob/v0.3.0/roll/distributed/scheduler/protocol.py"
FEWER_ROWS = lazy(r"batch_size (\d+) < chunks (\d+)")
DATA_FIELDS = ("ground_truth", "reward_model", "data_source", "prompt", "extra_info", "raw_prompt", "index")
# Column names of training datasets (verl's, and the tokenised/preference columns trainers add): a
# KeyError naming one, even without frames, is a row that lacks it.
DATA_COLUMN = lazy(r"^(?:input_ids|attention_mask|labels|chosen|rejected|prompt|response|answer|question|messages|solution|"
                         r"ground_truth|reward_model|data_source|extra_info|raw_prompt|images)(?:_\w+)?$")
# DataProto.union (verl/protocol.py union_tensor_dict: an assert, a ValueError in later rewrites) joins the prompt batch and
# the rollout's output row by row; its sizes tell how the two sides disagree.
UNION = lazy(r"Two tensor dicts? must have identical batch size\. Got (?:torch\.Size\(\[)?(\d+)\]?\)? and (?:torch\.Size\(\[)?(\d+)")
NOT_IN_STRUCT = lazy(r"Key '([^']*)' is not in struct|Could not override '([^']+)'|Key '([^']*)' not in '(\w+)'")
FULL_KEY = lazy(r"full_key: (\S+)")


@functools.lru_cache(maxsize=1)
def verl_keys() -> tuple[str, ...]:
    from importlib import resources  # here, not at import: a one-line explain never needs it (nor its tempfile, zipfile)

    text = resources.files(__package__).joinpath("verl_keys.txt").read_text(encoding="utf-8")
    return tuple(line for line in text.splitlines() if line and not line.startswith("#"))


def nearest_keys(key: str, n: int = 3) -> list[str]:
    """Valid keys close to an unknown one: the same leaf elsewhere, then similar siblings, then similar paths."""
    import difflib  # only for an unknown key: most logs never need it

    keys = verl_keys()
    clean = key.strip("'\" +~")
    parent, _, leaf = clean.rpartition(".")
    out = [k for k in keys if k.rsplit(".", 1)[-1] == leaf and k != clean][:n]
    siblings = [k.rsplit(".", 1)[-1] for k in keys if k.rpartition(".")[0] == parent]
    out += [f"{parent}.{s}" for s in difflib.get_close_matches(leaf, siblings, n=n, cutoff=0.72)]
    if not out:  # a similar leaf anywhere (a renamed or moved option)
        by_leaf: dict[str, list[str]] = {}
        for k in keys:
            by_leaf.setdefault(k.rsplit(".", 1)[-1], []).append(k)
        for name in difflib.get_close_matches(leaf, list(by_leaf), n=n, cutoff=0.8):
            out += by_leaf[name][:2]
    return list(dict.fromkeys(out))[:n]


def known_suffix(key: str) -> str | None:
    """The key as verl's current config spells it, when the unknown key is a valid key under a wrapper prefix or as is."""
    keys = set(verl_keys())
    parts = key.strip("'\" +~").split(".")
    for i in range(len(parts)):
        candidate = ".".join(parts[i:])
        if candidate in keys:
            return candidate
    return None


def _in_verl(link: Link) -> bool:
    """Raised in verl, or in the DataProto protocol ROLL took from verl."""
    return any(f.package == "verl" or "/verl/" in f.path or f.path.endswith("/scheduler/protocol.py") for f in link.frames[-3:])


class VerlCondition(Analyzer):
    id = "DRV-verl"
    title = "A verl config condition failed"
    family = "verl-config"
    stops_run = "verl's own check of the config or data failed: it fails the same way on a rerun"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        msg = link.message
        if link.kind not in ("python", "remote", "bare"):
            return None
        if link.short_type == "KeyError" and (_in_verl(link) or not link.frames and DATA_COLUMN.match(msg.strip("'\""))):
            field = msg.strip("'\"")
            if field in DATA_FIELDS or DATA_COLUMN.match(field) or any(f.func.startswith(("compute_score", "__call__", "__getitem__")) for f in link.frames[-2:]):
                return Finding(
                    f"Dataset row lacks the field verl reads: {field}",
                    f"KeyError: {msg} " + (f"inside verl ({link.frames[-1]})" if link.frames else "reading a dataset row")
                    + f". verl's dataset/reward code (or the trainer's collator) expects each row to carry "
                    f"'{field}' (verl's preprocessing writes prompt, data_source, reward_model.ground_truth, extra_info); this "
                    "dataset was not produced by it, or uses other column names.",
                    ("Run the dataset through verl's preprocessing script for its task (examples/data_preprocess/*.py), or add the field",
                     "If the column has another name, set data.prompt_key (or the reward function's field) to it"),
                    evidence(link), (PREPROCESS, VERL_CONFIG), key=f"field:{field}", family="data-model", kind="data-missing-field",
                )
        reward_path = any("reward" in f.path or "compute_score" in f.func for f in link.frames[-4:])
        if link.short_type == "NotImplementedError" and ("Reward function is not implemented for" in msg or reward_path and not msg):
            source = re.search(r"data_source=?'?([^'\s)]*)", msg)
            name = source.group(1) if source else ""
            return Finding(
                f"No reward function for data_source {name!r}",
                f"{msg}. verl's default_compute_score picks the scorer from each row's data_source; this value has none "
                "(empty, misspelled, or a dataset not prepared with verl's scripts).",
                ("Write data_source with a known value in preprocessing (e.g. openai/gsm8k), or",
                 "pass your own scorer: custom_reward_function.path=/path/reward.py custom_reward_function.name=compute_score"),
                evidence(link), (REWARD, PREPROCESS), key=f"reward:{name}", family="data-model", kind="reward-data-source-unknown",
            )
        if typed(link, ("AssertionError", "ValueError")) and (m := UNION.search(msg)):
            return union_sizes(link, int(m.group(1)), int(m.group(2)))
        # A ZeroDivisionError or TypeError raised while verl evaluates its own assert: a size in the condition is 0 or None.
        in_assert = link.short_type in ("ZeroDivisionError", "TypeError") and CONFIG_WORDS.search(link.statement)
        condition = f"{msg} ({link.statement})" if in_assert else msg
        if not typed(link, ("AssertionError", "ValueError")) and not in_assert or not (
                _in_verl(link) or link.kind == "bare" and CONFIG_WORDS.search(condition) and not FOREIGN.search(condition)):
            return None
        keys: list[str] = []
        for pattern, names in KEYS:
            if pattern.search(condition):
                keys += [k for k in names if k not in keys]
        if not keys:
            return None
        advice = []
        if in_assert:
            advice.append(
                f"{link.statement} failed with {link.short_type}: a size in it is "
                + ("0 (a global micro-batch size smaller than the device count becomes 0 per device)" if link.short_type == "ZeroDivisionError"
                   else "unset (None): set the *_micro_batch_size_per_gpu key")
            )
        if (m := CHUNK.search(msg)) and int(m.group(2)) > 0:
            size, chunks = int(m.group(1)), int(m.group(2))
            advice.append(
                f"a batch of {size} cannot be split into {chunks} equal parts: make data.train_batch_size x rollout.n "
                f"(and the mini-batch sizes) multiples of the data-parallel size {chunks}; e.g. {((size + chunks - 1) // chunks) * chunks} instead of {size}"
            )
        elif (m := FEWER_ROWS.search(msg)) and int(m.group(1)) < int(m.group(2)):
            size, chunks = int(m.group(1)), int(m.group(2))
            advice.append(
                f"a batch of {size} rows cannot give each of {chunks} data-parallel workers a row: make the batch (rollout or "
                f"train batch size x samples per prompt) at least {chunks}, or run the workers with a smaller data-parallel size"
            )
        elif not in_assert and (m := DIVISIBLE.search(msg)):
            a, b = int(m.group(1) or m.group(3)), int(m.group(2) or m.group(4))
            if b:
                lower, upper = (a // b) * b, ((a + b - 1) // b) * b
                divisors = [d for d in range(b, 0, -1) if a % d == 0][:1]
                advice.append(
                    f"{a} is not a multiple of {b}: raise the first to {upper}" + (f" (or lower it to {lower})" if lower and lower != upper else "")
                    + (f", or lower the second to {divisors[0]}" if divisors and divisors[0] != b else "")
                )
        overrides = [f"{k}={facts.overrides[k]}" for k in keys if k in facts.overrides]
        cause = (
            f"{link.short_type} raised by verl ({link.frames[-1] if link.frames else 'verl'}): {condition[:200]}. "
            f"The condition relates {', '.join(keys[:4])}." + (" " + advice[0] + "." if advice else "")
        )
        fix = [f"Change {' / '.join(keys[:3])} so the condition holds" + (f" (now: {', '.join(overrides)})" if overrides else "")]
        fix += advice[:1]
        fix.append("Check the whole config before launching: ascendrl check --recipe <recipe> (composes verl's config and runs its validation)")
        return Finding(
            f"verl config condition failed: {condition[:100]}", cause, tuple(fix), evidence(link),
            (VERL_CONFIG, PROTOCOL, ROLL_PROTOCOL) if FEWER_ROWS.search(msg) else (VERL_CONFIG, PROTOCOL),
            key=f"cond:{re.sub(r'[0-9]+', 'N', msg[:80])}", kind="dataproto-equal-chunk" if "equal chunk" in msg else "verl-batch-config",
        )


def union_sizes(link: Link, first: int, second: int) -> Finding:
    """DataProto.union of two batches whose sizes differ: which side was repeated or filtered, from the two numbers."""
    big, small = max(first, second), min(first, second)
    if small and big % small == 0:
        ratio = big // small
        how = (f"one side holds {ratio} times the rows of the other ({first} and {second}): the samples per prompt the "
               f"rollout returned and the times the prompts were repeated differ by a factor of {ratio} (verl repeats the prompt "
               "batch actor_rollout_ref.rollout.n times, interleaved, before the union; a custom rollout, agent loop or trainer "
               "that generates or repeats by a count of its own breaks that)")
    else:
        how = (f"the sizes ({first} and {second}) are not multiples of each other: rows were dropped or added on one side "
               "only (a filter, dynamic sampling, aborted or failed requests, padding for the data-parallel split)")
    return Finding(
        f"verl's DataProto.union joined two batches of different sizes ({first} vs {second})",
        f"{link.short_type}: {link.message[:160]}. DataProto.union (verl/protocol.py union_tensor_dict) joins the prompt "
        f"batch with the rollout's output row by row and needs both the same size; {how}.",
        ("Make both sides agree on the samples per prompt: one actor_rollout_ref.rollout.n, read by the rollout and by the "
         "trainer that repeats the prompts; a custom rollout, reward loop or trainer must return batch x n rows in verl's "
         "interleaved order",
         "Where rows are filtered or dropped after generation, drop the same rows from the prompt batch (or pad both), and "
         "keep verl's trainer, rollout worker and recipe from one release"),
        evidence(link), (PROTOCOL, VERL_CONFIG), key=f"union:{first}:{second}", kind="dataproto-union-batch-size-mismatch",
    )


class HydraKey(Analyzer):
    id = "DRV-hydra-key"
    title = "A config key that verl's config does not have"
    family = "verl-config"
    stops_run = "the config does not compose: nothing runs"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        text = " ".join([link.message, *link.detail])
        m = NOT_IN_STRUCT.search(text)
        if m is None:
            return None
        full = FULL_KEY.search(text)
        key = (full.group(1) if full else None) or m.group(2) or m.group(1) or m.group(3)
        quoted = bool(re.search(r"['\"][\w.]+['\"]", key)) or "'" in (m.group(1) or "")[1:-1]
        current = known_suffix(key)
        close = [k for k in nearest_keys(key) if k != current]
        cause = f"{link.short_type}: the key {key!r} is not in verl's config (OmegaConf struct mode rejects unknown keys)."
        fix = []
        if current:
            cause += (f" verl's current config has {current}: the installed verl is older than the config or recipe that "
                      "sets it (or a wrapper framework pins an older verl).")
            fix.append(f"Upgrade verl to a release that has {current}, or drop the setting")
        if quoted:
            cause += " The key itself contains quotes: a quoted, dotted key in YAML is one literal name, not a path."
            fix.append("Remove the quotes (write the key as nested YAML or as an unquoted dotted override)")
        if close:
            fix.append("Did you mean: " + ", ".join(close))
        if m.group(4):  # "Key 'x' not in 'ActorConfig'": a node backed by a dataclass, where + does not add keys
            cause += (f" The node is a structured config (dataclass {m.group(4)}): only the fields it declares are accepted, "
                      "and a leading + does not add one.")
            fix.append(f"Use a field {m.group(4)} declares (check the spelling and the section), or the verl release whose {m.group(4)} has it")
        else:
            fix.append(f"To add a key that is really new, prefix the override with +: +{key.strip(chr(39))}=…")
        return Finding(
            f"Unknown config key: {key}"[:160], cause, tuple(fix), evidence(link), (OMEGACONF, VERL_CONFIG),
            key=f"key:{key}", kind="hydra-not-in-struct",
        )


# vLLM's / Megatron's ensure_divisibility(numerator, denominator): a model dimension split over a parallel group.
NOT_DIVISIBLE = lazy(r"^(\d+) is not divisible by (\d+)$")
SPLITTERS = ("vllm", "vllm_ascend", "megatron", "mindspeed", "colossalai")
VLLM_DIVIDE = "https://github.com/vllm-project/vllm/blob/v0.34.0/vllm/distributed/utils.py"
VLLM_VOCAB = "https://github.com/vllm-project/vllm/blob/v0.11.0/vllm/model_executor/layers/vocab_parallel_embedding.py"
VOCAB_MIN = 64000


class ParallelDivisibility(Analyzer):
    id = "DRV-parallel-split"
    title = "A model dimension cannot be split over the tensor-parallel ranks"
    family = "verl-config"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.short_type != "AssertionError" or link.kind not in ("python", "remote", "bare") or _in_verl(link):
            return None
        m = NOT_DIVISIBLE.match(link.message.strip())
        if m is None or (link.frames and not any(f.package in SPLITTERS or f.func in ("ensure_divisibility", "divide") for f in link.frames[-3:])):
            return None
        n, size = int(m.group(1)), int(m.group(2))
        fits = [d for d in range(1, min(n, 16) + 1) if n % d == 0]
        # vLLM's VocabParallelEmbedding / ParallelLMHead split the vocabulary (padded to a multiple of 64) over the TP
        # ranks with the same divide(); a frame there says so. Otherwise, unless the innermost frames are a linear or
        # attention layer's, a count this large is no head, KV-head or expert count (those are at most a few hundred) and
        # no MLP width of current models: a vocabulary.
        vocab = any("vocab_parallel_embedding" in f.path for f in link.frames) \
            or (n >= VOCAB_MIN and not any(f.path.endswith(("linear.py", "attention.py")) for f in link.frames[-3:]))
        if vocab:
            title = f"The vocabulary ({n}) is not divisible by the tensor-parallel size {size}"
            cause = (f"vLLM splits the embedding and LM head over the tensor-parallel ranks along the vocabulary "
                     f"(VocabParallelEmbedding: the vocabulary padded to a multiple of 64, then divide() by the TP size); "
                     f"{n} rows cannot be shared by {size} ranks. Head counts may divide by {size} and still this fails.")
            other = "Or keep a TP size that divides it and use the remaining cards as data-parallel replicas or pipeline stages"
            source, kind = VLLM_VOCAB, "tp-size-not-divisor-of-vocab"
        else:
            title = f"{n} is not divisible by the parallel size {size}"
            cause = (f"vLLM (and Megatron) split attention heads, KV heads, a vision tower's heads or experts evenly over the "
                     f"tensor-parallel ranks (ensure_divisibility); this model has {n} of one of them, which {size} ranks "
                     "cannot share. In a multimodal model the vision tower's head count counts too.")
            other = "Or use more data-parallel rollout replicas (or pipeline parallelism) instead of a larger TP size"
            source, kind = VLLM_DIVIDE, "tp-size-not-divisor-of-heads"
        return Finding(
            title, f"AssertionError: {link.message}. {cause}",
            (f"Set the tensor-parallel size to a divisor of {n}: {', '.join(map(str, fits))} "
             "(verl: actor_rollout_ref.rollout.tensor_model_parallel_size; vLLM: --tensor-parallel-size)", other),
            evidence(link), (source, VERL_CONFIG), key=f"split:{n}:{size}", family="verl-config", kind=kind,
        )


# verl's FSDP checkpoint merger (verl/model_merger/fsdp_model_merger.py, _load_and_merge_state_dicts; copied into trainers
# built on verl) merges the rank files key by key: a DTensor by its placement (Replicate: rank 0's copy, Shard(d):
# concatenated on d), every other tensor concatenated on dim 0 as if it were a dim-0 shard. A plain tensor that is in
# fact whole on every rank (a 0-dim scalar buffer or parameter, a replicated buffer) is not a shard: a 0-dim one stops
# torch.cat (ATen's check_cat_no_zero_dim: "zero-dimensional tensor (at position N) cannot be concatenated").
FSDP_MERGER = "https://github.com/verl-project/verl/blob/v0.6.0/verl/model_merger/fsdp_model_merger.py"
ATEN_CAT = "https://github.com/pytorch/pytorch/blob/v2.13.0/aten/src/ATen/native/TensorShape.h"
ZERO_DIM_CAT = lazy(r"zero-dimensional tensor \(at position \d+\) cannot be concatenated")
MERGER_FRAME = lazy(r"model_merger[^/\\]*\.py$")


class MergerConcat(Analyzer):
    """A checkpoint merger concatenating, as dim-0 shards, tensors every rank holds whole (0-dim scalars)."""

    id = "DRV-model-merger"
    title = "verl's checkpoint merger concatenated a tensor that is not sharded"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not typed(link, ("RuntimeError",)) or not ZERO_DIM_CAT.search(link.message):
            return None
        frame = next((f for f in reversed(link.frames)
                      if MERGER_FRAME.search(f.path.replace("\\", "/")) or f.func == "_load_and_merge_state_dicts"), None)
        if frame is None:
            return None
        return Finding(
            "The FSDP checkpoint merger concatenated a scalar tensor as if it were a dim-0 shard",
            f"RuntimeError: {link.message[:160]} (in {frame}). verl's FSDP model merger rebuilds each weight from the "
            "per-rank files: DTensors by their placement, and every other tensor by concatenating the ranks' copies on "
            "dim 0, as if each rank held a dim-0 shard. The model has a tensor that is not sharded that way: a 0-dim "
            "scalar parameter or buffer (a per-layer scale, a learned scalar) that every rank saves whole, which torch.cat "
            "cannot concatenate. The training checkpoint is fine; the merger's assumption is not.",
            ("Use a merger release that keeps replicated and 0-dim plain tensors from rank 0 instead of concatenating them "
             "(update verl, or the trainer that ships the merger)",
             "Or patch the merge step: for a non-DTensor value whose dim() == 0 (or that is equal on every rank) keep the "
             "first rank's tensor; concatenate only real shards"),
            evidence(link), (FSDP_MERGER, ATEN_CAT), key="merger-zero-dim", family="data-model",
            kind="model-merger-replicated-tensor-concat",
        )
