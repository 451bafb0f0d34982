"""Data a run reads that cannot be used: a broken dataset file, a prompt longer than the model takes, tensors on two devices.

Each is recognised by what the library that raised says (pyarrow, vLLM/verl length checks, torch's
device checks) rather than by one exact wording: releases word these differently, and the numbers,
paths and devices in them are what the fix needs.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised, typed
from ...lazyre import lazy

PYARROW = "https://arrow.apache.org/docs/python/parquet.html"
DATASETS = "https://huggingface.co/docs/datasets/loading"
VLLM_ARGS = "https://docs.vllm.ai/en/latest/configuration/engine_args.html"
VERL_CONFIG = "https://verl.readthedocs.io/en/latest/examples/config.html"
TORCH_DEVICE = "https://docs.pytorch.org/docs/stable/tensor_attributes.html#torch-device"

# pyarrow's reader: the file is not parquet at all (an LFS pointer, an HTML page, an empty download) …
NOT_PARQUET = lazy(r"Parquet magic bytes not found|Parquet file size is 0 bytes|not a parquet file|Invalid: Parquet file size", re.I)
# … or it is parquet whose bytes are damaged (a truncated or corrupted download).
CORRUPT = lazy(
    r"Corrupt snappy compressed data|Couldn't deserialize thrift|Unexpected end of stream|Invalid (?:data|page header)|"
    r"(?:gzip|zstd|lz4|brotli|snappy) (?:decompression|decompress) failed|Corrupted (?:file|data)|Arrow error: IOError",
    re.I,
)
# Words only Arrow's parquet reader prints (its thrift page/footer decoder), so they name a parquet file even
# when the paste has no pyarrow frame or path: "OSError: Couldn't deserialize thrift: TProtocolException: Invalid data".
PARQUET_ONLY = lazy(r"Couldn't deserialize thrift|Deserializing page header failed", re.I)
# A prompt longer than the engine (vLLM max_model_len) or the trainer (data.max_prompt_length) accepts.
PROMPT_LONG = lazy(
    r"(?:prompt|input).{0,40}?(?:\(?length \d+\)?|\(?\d+ tokens?\)?|length)\s*(?:of \d+ )?(?:exceeds|is (?:longer|larger) than|is too long)"
    r"|maximum context length is \d+ tokens|Prompt length exceeds|exceeds (?:the )?(?:model's )?max(?:imum)?[_ ](?:model[_ ])?(?:len|length|token)",
    re.I,
)
NUMBERS = lazy(r"\d{3,}")
# A loader that lists the dataset's columns when the ones it needs are not among them: Hugging Face datasets
# ("Column(s) X not in the dataset. Current columns in the dataset: [...]", KeyError or ValueError) and ms-swift's
# preprocessor choice ("dataset.features.keys(): dict_keys([...])" then the required keys of each format).
# datasets' arrow_dataset.py words it per method (read at 3.6.0): "Column name X" (select / rename_columns), "Column to
# remove X" (map / remove_columns), "Columns X" (select_columns), "Input column X" (map's input_columns), "Original column
# name(s) X" (rename_column(s)), all "... not in the dataset. Current columns in the dataset: [...]"; sort says "Column
# 'X' not found in the dataset. Please provide a column selected in: [...]".
COLUMNS = lazy(r"(?:Input |Original )?[Cc]olumns?(?: names?| to remove)? (.+?) not in the dataset\. "
               r"Current columns in the dataset: (\[.*?\])"
               r"|dataset\.features\.keys\(\): dict_keys\((\[.*?\])\)"
               r"|Column '([^']+)' not found in the dataset\. Please provide a column selected in: (\[.*?\])")
HF_COLUMNS = "https://github.com/huggingface/datasets/blob/5.0.1/src/datasets/arrow_dataset.py"  # and formatting/formatting.py
SWIFT_COLUMNS = ("https://github.com/modelscope/ms-swift/blob/bbbe6ba107e8ed3a128c95481de10bd6f8ccd3be/"
                 "swift/llm/utils/preprocess.py")
STORAGE = lazy(r"storage of a tensor on device \W?(\w+:?\d*)\W? to a storage on different device \W?(\w+:?\d*)")
# A division by the number of batches (or samples) an epoch holds: a trainer's steps per epoch, the dataloader's or the
# dataset's length. The ZeroDivisionError says the data gave no batch at all. verl's SFT trainer divides by
# len(train_dataloader) when it starts (fsdp_sft_trainer.py fit: "start_epoch = global_step // self.steps_per_epoch", later
# guarded with "if self.steps_per_epoch > 0"); other trainers do the same arithmetic for schedules and logging.
EPOCH_DIVISOR = lazy(r"(?://|/|%)\s*\(?\s*((?:self\.)?(?:\w+\.)*\w*(?:steps_per_epoch|batches_per_epoch|num_batches|epoch_size"
                     r"|dataset_size)\w*|len\(\s*(?:self\.)?(?:\w+\.)*\w*(?:dataloader|data_loader|loader|dataset)\w*\s*\))")
VERL_SFT = "https://github.com/verl-project/verl/blob/v0.7.0/verl/trainer/fsdp_sft_trainer.py"
# torch's ATen wording, and torch._prims_common.check_same_device's (decompositions, torch.compile's fake tensors): "Tensor
# on device npu:0 is not on the expected device cpu!" (read in the torch 2.13.0 wheel). A meta side is ARL-E538's.
MIXED = lazy(r"Expected all tensors to be on the same device, but found at least two devices, (\w+(?::\d+)?) and (\w+(?::\d+)?)"
             r"|Tensor on device (\w+(?::\d+)?) is not on the expected device (\w+(?::\d+)?)!")


def _dataset_path(link: Link) -> str:
    for line in (link.message, *link.detail):
        m = re.search(r"(\S+\.(?:parquet|arrow|jsonl?))", line)
        if m:
            return m.group(1).strip("'\"")
    return ""


class DataFile(Analyzer):
    id = "DRV-data-file"
    title = "A dataset file cannot be read"
    family = "data-model"
    stops_run = "a dataset file that cannot be read fails the data loader on every epoch"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = f"{link.type}: {link.message}"
        in_arrow = any(p in ("pyarrow", "datasets") or "pyarrow" in f.path or "parquet" in f.path
                       for f in link.frames[-4:] for p in (f.package,)) or "rrow" in link.type or "parquet" in text.lower() \
            or bool(PARQUET_ONLY.search(text))
        path = _dataset_path(link)
        where = f" ({path})" if path else ""
        if NOT_PARQUET.search(text):
            return Finding(
                "Dataset file is not a parquet file" + where,
                f"{link.short_type}: {link.message[:160]}. pyarrow found no parquet footer: the file is something else — a Git LFS "
                "pointer (cloned without git lfs), an HTML error page or an empty/truncated download.",
                ("Check the file: head -c 200 <file>; ls -l <file> (an LFS pointer starts with 'version https://git-lfs')",
                 "Fetch the real file: git lfs pull, or download it again (huggingface-cli download --repo-type dataset …)"),
                evidence(link), (PYARROW, DATASETS), key=f"notparquet:{path}", family="data-model", kind="parquet-not-parquet",
            )
        if in_arrow and CORRUPT.search(text):
            return Finding(
                "Dataset file is corrupt" + where,
                f"{link.short_type}: {link.message[:160]}. pyarrow read a parquet file whose compressed pages are damaged — "
                "a truncated or corrupted download or copy.",
                ("Delete the file (and its datasets cache: ~/.cache/huggingface/datasets/<name>) and download it again",
                 "Verify it: python -c \"import pyarrow.parquet as pq; pq.read_table('<file>')\""),
                evidence(link), (PYARROW, DATASETS), key=f"corrupt:{path}", family="data-model", kind="parquet-corrupt",
            )
        return None


class PromptLength(Analyzer):
    id = "DRV-prompt-length"
    title = "A prompt is longer than the model length allows"
    family = "data-model"
    stops_run = "a prompt longer than the model takes fails the rollout; verl does not skip it"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("ValueError", "AssertionError", "RuntimeError", "BadRequestError", "NotImplementedError")):
            return None
        m = PROMPT_LONG.search(link.message)
        if m is None:
            return None
        numbers = NUMBERS.findall(link.message)
        limit = numbers[-1] if numbers else ""
        return Finding(
            "A prompt is longer than the model length allows" + (f" ({limit})" if limit else ""),
            f"{link.short_type}: {link.message[:200]}. The rollout engine (vLLM's max_model_len) or the trainer "
            "(data.max_prompt_length) rejects a prompt longer than its limit; prompt + response must fit in max_model_len.",
            ("Filter long prompts out of the data: data.filter_overlong_prompts=True with data.max_prompt_length set to what the model takes",
             "Or raise the limit: actor_rollout_ref.rollout.max_model_len >= data.max_prompt_length + data.max_response_length"
             + (f" (now {limit})" if limit else "") + " (the model's max_position_embeddings bounds it)"),
            evidence(link), (VLLM_ARGS, VERL_CONFIG), key=f"prompt:{limit}", family="data-model", kind="prompt-exceeds-max-model-len",
        )


class TensorDevices(Analyzer):
    id = "DRV-tensor-devices"
    title = "Tensors on different devices in one operation"
    family = "device"
    stops_run = "tensors on two devices fail the same operation on every step"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        if m := STORAGE.search(link.message):
            a, b = m.group(1), m.group(2)
            return Finding(
                f"A tensor on {a} was given storage on {b}",
                f"{link.short_type}: {link.message[:200]}. This rank works on {a} but a tensor's storage was created on {b}: the "
                "process did not set its own device before creating tensors (every rank defaulting to npu:0), or a checkpoint "
                "was loaded onto a fixed device.",
                ("Set the device per rank before any tensor is created: torch.npu.set_device(local_rank) (launchers do this; "
                 "update the training framework), or load with map_location='cpu'",
                 "Make ASCEND_RT_VISIBLE_DEVICES give each process its own card"),
                evidence(link), (TORCH_DEVICE,), key=f"storage:{a}:{b}", family="device", kind="npu-storage-device-mismatch",
            )
        if m := MIXED.search(link.message):
            a, b = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            if "meta" in (a, b):
                return None  # a parameter never loaded (left on the meta device): ARL-E538
            if "cpu" in (a, b):
                return Finding(
                    f"One operation got tensors on {a} and {b}",
                    f"{link.short_type}: {link.message[:200]}. A CPU tensor met an NPU tensor — typically custom reward or "
                    "patched model code that builds a tensor without device=…",
                    ("Create the tensor on the other operand's device (torch.tensor(..., device=x.device) or .to(x.device))",
                     "In a custom reward function, return Python floats or CPU tensors consistently"),
                    evidence(link), (TORCH_DEVICE,), key=f"mixed:{a}:{b}", family="device", kind="cpu-npu-tensor-mix",
                )
            # Two accelerators of one kind (npu:5 and npu:0): the same failure as the storage form above, a rank
            # whose tensors (a loaded checkpoint or adapter, a buffer) landed on the default device.
            return Finding(
                f"One operation got tensors on {a} and {b}",
                f"{link.short_type}: {link.message[:200]}. Tensors of two devices met: this rank works on one card but part "
                "of its model or a loaded checkpoint/adapter sits on another (usually the default npu:0), because the device "
                "was not set per rank before loading, or the checkpoint was loaded onto a fixed device.",
                ("Set the device per rank before loading anything: torch.npu.set_device(local_rank); load checkpoints and "
                 "adapters with map_location='cpu' (or the rank's own device), not a fixed 'npu:0'",
                 "Make ASCEND_RT_VISIBLE_DEVICES give each process its own card"),
                evidence(link), (TORCH_DEVICE,), key=f"mixed:{a}:{b}", family="device", kind="npu-storage-device-mismatch",
            )
        return None


# A reward function called without an argument it requires: "accuracy_reward() missing 1 required positional
# argument: 'solution'", "CosineReward.__call__() missing …". GRPO trainers pass dataset columns to reward
# functions by name (TRL/ms-swift: every extra column as a keyword; verl: data_source, solution_str,
# ground_truth, extra_info), so the missing argument is a column the dataset does not have. ms-swift's built-in
# reward classes are named for what they check (MathAccuracy, MultiModalAccuracyORM in swift/plugin/orm.py), so
# "accura" and the ORM/PRM suffix count as reward names too, for a traceback cut before the reward frame.
REWARD_ARGS = lazy(r"([\w.]+)\(\) missing \d+ required (?:positional|keyword-only) arguments?: (.+)$")
# The same function called with arguments its definition does not take (CPython's "takes N positional arguments but M
# were given" and "got an unexpected keyword argument 'x'"): the reward was written for another trainer's or release's
# call (verl calls compute_score(data_source, solution_str, ground_truth, extra_info); EasyR1's reward workers pass two
# positional arguments; TRL/ms-swift pass prompts, completions and every column as keywords).
REWARD_CALL = lazy(r"([\w.]+)\(\) (?:takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:were|was) given"
                   r"|got an unexpected keyword argument '(\w+)')")
PY_CALL = "https://docs.python.org/3/reference/expressions.html#calls"
# A keyword only a trainer's reward call passes, refused by the function it called (the function's name cut from the paste,
# or named for nothing reward-like): TRL's GRPOTrainer calls reward_func(prompts=…, completions=…, completion_ids=…,
# **reward_kwargs) with trainer_state among the kwargs (trl/trainer/grpo_trainer.py, _calculate_rewards); verl calls
# compute_score(data_source=…, solution_str=…, ground_truth=…, extra_info=…) (verl/workers/reward_manager/naive.py).
TRL_GRPO = "https://github.com/huggingface/trl/blob/v1.9.0/trl/trainer/grpo_trainer.py"
VERL_REWARD_CALL = "https://github.com/verl-project/verl/blob/v0.9.0/verl/workers/reward_manager/naive.py"
REWARD_KEYWORD = lazy(r"(?:^|\(\) got an )unexpected keyword argument '(completion_ids|trainer_state|solution_str|ground_truth)'")
REWARD_NAME = lazy(r"reward|score|verif|accura|(?-i:[OP]RM)\b", re.I)
TRL_REWARDS = "https://huggingface.co/docs/trl/main/en/grpo_trainer#using-a-custom-reward-function"
# TRL's GRPOTrainer.compute_loss called "rewards[i] = torch.tensor(reward_func(prompts, completions))" only on main
# between PR #2606 (a1d295511, custom reward functions) and PR #2650 (2578e9502, every dataset column passed by name);
# v0.14.0 and every later release call reward_func(prompts=prompts, completions=completions, **reward_kwargs). A
# "takes 1 positional argument but 2 were given" raised in TRL's frame is that snapshot.
TRL_POSITIONAL = "https://github.com/huggingface/trl/commit/2578e950238077d1ce421801e19f26a5f74a619c"
TRL_V014 = "https://github.com/huggingface/trl/blob/v0.14.0/trl/trainer/grpo_trainer.py"
POSITIONAL_TWO = lazy(r"takes (?:from \d+ to )?\d+ positional arguments? but 2 were given")


class RewardArguments(Analyzer):
    id = "DRV-reward-args"
    title = "A reward function was called without a dataset field it requires"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("TypeError",)):  # or Python's TypeError sentence pasted without its type
            return None
        m = REWARD_ARGS.search(link.message)
        if m is None:
            return self._call(link)
        if not (REWARD_NAME.search(m.group(1)) or any(REWARD_NAME.search(f.func) for f in link.frames[-2:])):
            return None
        func = m.group(1)
        fields = re.findall(r"'(\w+)'", m.group(2))
        names = ", ".join(fields) or m.group(2)
        return Finding(
            f"Reward function {func}() got no {names}",
            f"TypeError: {link.message[:200]}. The trainer passes each dataset column to the reward functions by name, "
            f"so a required parameter with no column of that name arrives missing: the dataset has no {names} column (named "
            "otherwise, e.g. answer vs solution, or dropped before the reward step), or the reward was written for another "
            "trainer's arguments.",
            (f"Give every row a {names} field (rename the column that holds it), and keep extra columns for the reward step "
             "(TRL/ms-swift: remove_unused_columns=False)",
             f"Or change {func} to read the column your data has, with **kwargs for the rest"),
            evidence(link), (TRL_REWARDS, VERL_CONFIG), key=f"reward-args:{func}:{names}", family="data-model",
            kind="data-missing-field",
        )

    def _call(self, link: Link) -> Finding | None:
        """The reward function's own signature does not fit the trainer's call: too many positional arguments, or a keyword it lacks."""
        m = REWARD_CALL.search(link.message)
        if m is None or not REWARD_NAME.search(m.group(1).rsplit(".", 1)[-1]):
            return self._reward_keyword(link)
        func = m.group(1)
        name = func.rsplit(".", 1)[-1] if func.rsplit(".", 1)[-1] not in ("__call__", "__init__") else func
        # the function itself is the reward (a model class's forward() with "Reward" in it is a library API change)
        if not REWARD_NAME.search(name) or "Model" in func or name in ("forward", "generate"):
            return None
        keyword = m.group(2)
        if keyword is None and link.frames and link.frames[-1].package == "trl" and POSITIONAL_TWO.search(link.message):
            return self._trl_positional(link, func)
        what = f"the keyword argument {keyword!r}" if keyword else "more positional arguments than it takes"
        return Finding(
            f"Reward function {func}() does not take the trainer's arguments"[:160],
            f"TypeError: {link.message[:200]}. The trainer called the reward function with {what}: the function was "
            "written for another trainer's (or another release's) reward interface. verl calls compute_score(data_source, "
            "solution_str, ground_truth, extra_info=…); TRL and ms-swift call reward functions with prompts and completions "
            "and every dataset column as keywords; EasyR1's reward workers pass the response and the ground truth.",
            (f"Change {func}() to the signature this trainer calls (for verl: def compute_score(data_source, solution_str, "
             "ground_truth, extra_info=None)), and accept **kwargs so further fields do not break it",
             "Or point the trainer at a reward function written for it (verl: custom_reward_function.path / .name)"),
            evidence(link), (TRL_REWARDS, VERL_CONFIG, PY_CALL), key=f"reward-call:{func}:{keyword or ''}",
            family="data-model", kind="reward-fn-signature-mismatch",
        )


    def _trl_positional(self, link: Link, func: str) -> Finding:
        """TRL itself passed the reward function two positional arguments: only the main-branch snapshots between
        TRL PR #2606 and #2650 (January 2025, 0.14.0.dev0) call reward_func(prompts, completions); every release
        (v0.14.0 on) calls it with keywords, so the installed TRL is a pre-release older than the caller's rewards."""
        return Finding(
            f"trl is older than the reward functions expect: a pre-release GRPOTrainer calls {func}() positionally"[:160],
            f"TypeError: {link.message[:200]}. The call comes from TRL's own GRPOTrainer frame with two positional arguments "
            "(reward_func(prompts, completions)): that is the interface of TRL main-branch snapshots from before PR #2650 "
            "(0.14.0.dev0, January 2025). Every TRL release from v0.14.0 on calls reward functions with keywords "
            "(reward_func(prompts=…, completions=…, **dataset columns)), which reward functions written for TRL "
            "(open-r1's, def reward(completions, **kwargs)) expect. The installed TRL is older than the code using it.",
            ("Install a TRL release (pip install -U 'trl>=0.14.0', or the version the recipe pins) instead of the old "
             "main-branch snapshot, then rerun",
             f"Or, to keep that snapshot, give {func}() the positional signature it calls: def {func.rsplit('.', 1)[-1]}(prompts, completions, **kwargs)"),
            evidence(link), (TRL_POSITIONAL, TRL_V014), key=f"reward-trl-positional:{func}", family="compat",
            kind="trl-too-old",
        )

    def _reward_keyword(self, link: Link) -> Finding | None:
        """A keyword only a trainer's reward call passes (TRL's completion_ids / trainer_state, verl's solution_str /
        ground_truth), refused by a function whose name the paste cut or that is not named for a reward."""
        m = REWARD_KEYWORD.search(link.message)
        if m is None or any(f.package in ("trl", "verl") and f.func not in ("_calculate_rewards", "compute_score", "__call__")
                            and "reward" not in f.func for f in link.frames[-1:]):
            return None  # raised inside the trainer's own code, not by the reward function it called
        keyword = m.group(1)
        trainer = "TRL's GRPOTrainer" if keyword in ("completion_ids", "trainer_state") else "verl's reward manager"
        return Finding(
            f"A reward function does not take {trainer}'s keyword {keyword!r}",
            f"TypeError: {link.message[:200]}. {trainer} calls each reward function with keywords: TRL passes prompts, "
            "completions, completion_ids, trainer_state and every dataset column (reward_func(prompts=…, completions=…, "
            "completion_ids=…, **reward_kwargs)); verl calls compute_score(data_source=…, solution_str=…, ground_truth=…, "
            f"extra_info=…). The function was written with a fixed signature and no **kwargs, so {keyword!r} is refused.",
            ("Give the reward function a **kwargs parameter (def reward(completions, **kwargs)) so the keywords it does "
             "not use are accepted, as the trainer's built-in rewards do",
             "Or write it to the signature this trainer calls (TRL: prompts, completions, completion_ids, plus dataset "
             "columns by name; verl: data_source, solution_str, ground_truth, extra_info)"),
            evidence(link), (TRL_GRPO, VERL_REWARD_CALL, TRL_REWARDS), key=f"reward-keyword:{keyword}",
            family="data-model", kind="reward-fn-signature-mismatch",
        )


# A None reaching arithmetic, iteration or a string match inside the reward function itself: an answer
# extractor found no final answer in a completion (or a ground-truth field is empty) and the reward code
# uses the None as a value. Told apart from a trainer's own frames by the innermost frame's name.
NONE_USED = re.compile(r"NoneType")
# A helper of a reward module whose own name says nothing (verl's verl/utils/reward_score/math_dapo.py remove_boxed, given
# last_boxed_only_string's None for a ground truth with no \boxed{...}): the folder of the reward functions.
REWARD_DIR = re.compile(r"/reward_score/|/rewards?/")


class RewardNone(Analyzer):
    id = "DRV-reward-none"
    title = "A reward function used None as a value (no answer extracted, or an empty field)"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("TypeError", "AttributeError") or not link.frames:
            return None
        inner = link.frames[-1]
        in_reward = (REWARD_NAME.search(inner.func) or REWARD_NAME.search(inner.path.rsplit("/", 1)[-1])
                     or REWARD_DIR.search(inner.path)
                     # a helper of the same module that a reward-named function just called (MindSpeed-RL's
                     # mindspeed_rl/models/math_dapo.py: compute_score -> verify -> is_correct_minerva -> remove_boxed)
                     or any(f.path == inner.path and REWARD_NAME.search(f.func) for f in link.frames[-4:-1]))
        if not in_reward or not NONE_USED.search(link.message):
            return None
        return Finding(
            f"Reward function {inner.func}() used None as a value",
            f"{link.short_type}: {link.message[:200]}, raised in {inner.func}() ({inner.path.rsplit('/', 1)[-1]}:{inner.line}). "
            "The reward code received or computed None where it needs a value: an answer extractor found no final answer in "
            "a completion (truncated or unformatted output) and returned None, or the sample's ground-truth field is empty. "
            "One such sample ends the whole step.",
            (f"Make {inner.func}() handle a missing answer: when the extracted answer (or ground truth) is None, score the "
             "sample 0.0 instead of using it",
             "Check the data: every row needs its ground truth (verl: reward_model.ground_truth), and responses cut at "
             "max_response_length often lack the final answer"),
            evidence(link), (TRL_REWARDS, VERL_CONFIG), key=f"reward-none:{inner.func}", family="data-model",
            kind="reward-fn-none-input",
        )


# A dataset-map / preprocessing function (datasets .map callbacks, verl's make_map_fn, trainers' tokenize / format /
# collate functions): a KeyError naming a bare field inside one is a row that lacks that field.
MAP_FUNC = lazy(r"^(?:_?preprocess\w*|tokeni[sz]e\w*|_?format_\w+|make_map_fn|process_fn|_?map_fn|convert_\w+|_?collate\w*)$")
ROW_KEY = lazy(r"^['\"]([A-Za-z_][\w -]{0,40})['\"]$")
# The names preprocessing code gives one dataset row (a datasets .map / .filter callback's argument, a json-lines
# record): a KeyError whose printed source line subscripts one of them with the missing key is a row without that field.
ROW_NAMES = ("example", "examples", "row", "sample", "item", "record", "doc", "document", "instance", "datum", "ex",
             "data_item", "line", "entry", "conversation", "conv")


def _indexes_row(source: str, field: str) -> bool:
    """Whether a printed source line reads ``field`` from a row: example["problem"], row['answer'] …"""
    names = "|".join(ROW_NAMES)
    return re.search(rf"\b(?:{names})\s*\[\s*['\"]{re.escape(field)}['\"]\s*\]", source or "") is not None


class DatasetColumns(Analyzer):
    id = "DRV-dataset-columns"
    title = "The dataset lacks the columns the loader needs"
    family = "data-model"
    stops_run = "a dataset without the columns the trainer reads fails the same way on every start"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("KeyError", "ValueError")):
            return None
        row = ROW_KEY.match(link.message.strip()) if link.short_type == "KeyError" else None
        mapper = next((f for f in link.frames if MAP_FUNC.match(f.func)), None)
        if row and mapper is None and link.frames and _indexes_row(link.source, row.group(1)):
            mapper = link.frames[-1]  # the line Python printed reads the key from a row: example["problem"]
        if row and mapper:
            field = row.group(1)
            return Finding(
                f"Dataset row lacks the field {field!r} its preprocessing reads",
                f"KeyError: {link.message[:80]} inside {mapper.func}() ({mapper.path.rsplit('/', 1)[-1]}:{mapper.line}), the "
                f"function that maps each dataset row: the rows do not carry '{field}' — the data is in another format "
                "(another trainer's columns, a multi-turn / chat layout where a single-turn one is read) or names the field otherwise.",
                (f"Give the rows a '{field}' field (convert the data to the format that script reads), or point the script / "
                 "trainer at the column the data has (verl: data.prompt_key; a datasets .rename_column)",
                 "Print one row (dataset[0]) and compare its keys with what the preprocessing function reads"),
                evidence(link), (HF_COLUMNS, VERL_CONFIG), key=f"rowkey:{field}", family="data-model", kind="data-missing-field",
            )
        m = COLUMNS.search(" ".join([link.message, *link.detail]))
        if m is None:
            return None
        missing, present = (m.group(1) or m.group(4) or "").strip("'\""), m.group(2) or m.group(3) or m.group(5)
        return Finding(
            ("Dataset lacks " + (f"column {missing}" if missing else "the columns its format needs") + f"; it has {present}")[:160],
            f"{link.short_type}: {link.message[:200]}. The loader asked for columns the dataset does not have (its columns: "
            f"{present}): the data was written for another trainer or format, or its fields carry other names.",
            ("Rename the dataset's columns to the ones the trainer reads (or point the trainer's key options at them: verl "
             "data.prompt_key / reward field; ms-swift --columns; a datasets .rename_column)",
             "Or convert the data with the trainer's preprocessing script for its format (verl: examples/data_preprocess/*.py)"),
            evidence(link), (HF_COLUMNS, SWIFT_COLUMNS, VERL_CONFIG), key=f"columns:{missing}:{present}"[:120],
            family="data-model", kind="data-missing-field",
        )


class EmptyEpoch(Analyzer):
    """A ZeroDivisionError in a division by the batches per epoch: the training data gave the loader no batch."""

    id = "DRV-empty-epoch"
    title = "The training data gave no batch: zero steps per epoch"
    family = "data-model"
    stops_run = "with no batch per epoch the trainer divides by zero on every start"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type != "ZeroDivisionError" or link.statement:
            return None  # a ZeroDivisionError in an assert is a config condition's (verl.VerlCondition)
        m = EPOCH_DIVISOR.search(link.source)
        if m is None:
            return None
        divisor = m.group(1)
        return Finding(
            f"Division by zero on the data's size per epoch ({divisor}): the training data gave no batch",
            f"ZeroDivisionError in `{link.source[:160]}`: the divisor, computed from {divisor} (how many batches or samples "
            "the training data gives per epoch), is 0. The loader holds fewer samples than one batch (with drop_last), or "
            "none at all: the dataset is empty or smaller than the batch size, or the loading / length filters dropped its rows.",
            ("Count the rows the run actually loads (e.g. len(pandas.read_parquet(FILE)) for each train file) and compare with "
             "the global batch size (verl: data.train_batch_size; SFT: data.train_batch_size / micro batch x devices)",
             "Supply more samples, or lower the batch size below the row count; check the paths and the prompt / response "
             "length filters that may have dropped rows"),
            evidence(link), (VERL_SFT, VERL_CONFIG), key=f"empty-epoch:{divisor}", family="data-model",
            kind="dataset-too-small",
        )


# A checkpoint or pickle file with nothing (or too little) in it. torch.load of a file that is not a zip archive falls
# back to the legacy format (torch/serialization.py _legacy_load), whose first pickle_module.load(f) of an empty file
# raises Python's EOFError("Ran out of input"); a pickle cut off mid-stream raises _pickle.UnpicklingError("pickle data
# was truncated") (Modules/_pickle.c). The EOFError is read under torch's loader, where the raising line itself loads a
# file (pickle / torch / joblib / dill load), or pasted alone with no frames; not under multiprocessing, where the same
# words mean a child's pipe from its parent closed (the parent's own error is the cause).
PICKLE_SHORT = lazy(r"^(?:Ran out of input|pickle data was truncated)\.?$")
PICKLE_READ = lazy(r"\b(?:pickle|cPickle|torch|joblib|dill|_pickle)\.loads?\(|\bpickle_module\.load\(")
TORCH_SERIALIZATION = "https://github.com/pytorch/pytorch/blob/v2.5.0/torch/serialization.py"


class EmptyPickle(Analyzer):
    id = "DRV-pickle-empty"
    title = "A checkpoint or pickle file is empty or cut short"
    family = "data-model"
    stops_run = "loading the same empty or truncated file fails the same way every time"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("EOFError", "UnpicklingError"):
            return None
        if PICKLE_SHORT.match(link.message.strip()) is None:
            return None
        inner = link.frames[-3:]
        loader = any(f.path.replace("\\", "/").endswith("torch/serialization.py") or f.func == "_legacy_load"
                     for f in inner)
        if link.short_type == "EOFError" and not loader:
            if any("multiprocessing" in f.path for f in link.frames):
                return None
            if link.frames and PICKLE_READ.search(link.source or "") is None:
                return None
        return Finding(
            "A checkpoint or pickle file is empty or cut short",
            f"{link.short_type}: {link.message[:120]}. The file being loaded (torch.load / pickle.load) ends before its "
            "first object is complete: it is empty (0 bytes) or truncated. A download or copy that failed part-way, a "
            "save interrupted by a crash, a full disk or a quota, or a placeholder file left where the checkpoint "
            "should be. torch reads a file that is not a zip archive with its legacy loader, whose first pickle read "
            "then finds nothing.",
            ("Check the file: ls -l <file> (0 bytes or far smaller than its siblings); python -c \"import torch; "
             "torch.load('<file>', map_location='cpu')\"",
             "Download or copy it again (compare its size / sha256 with the source), or resume from an earlier checkpoint; "
             "delete the empty file so the run does not pick it up again",
             "If it was written by this run, check free space where checkpoints are saved (df -h) before saving again"),
            evidence(link), (TORCH_SERIALIZATION,), key=f"pickle-empty:{link.short_type}", family="data-model",
            kind="model-weights-corrupt",
        )


# A Jinja chat template (transformers' apply_chat_template renders it with jinja2; the template's own code runs as the
# frame File "<template>", line N, in top-level template code) that builds the prompt by string concatenation
# ('<|im_start|>' + message['role'] + '\n' + message['content'] ...) was given a message whose content is a LIST of
# typed parts ([{"type": "text", "text": ...}, {"type": "image"}], the OpenAI / multimodal form): Python's str + list
# raises 'can only concatenate str (not "list") to str' inside the template. Text-only models' templates (Qwen2.5-Math,
# Llama-2-style, many custom ones) only take string content; VL processors' templates iterate over the parts.
# verl's RLHFDataset (rl_dataset.py __getitem__ / doc2len), TRL and vLLM's chat path all hit this through the tokenizer.
STR_PLUS_LIST = lazy(r"^can only concatenate str \(not \"(?:list|dict)\"\) to str$")
JINJA_SANDBOX = "https://github.com/pallets/jinja/blob/3.1.4/src/jinja2/sandbox.py"
TF_CHAT_TEMPLATE = "https://github.com/huggingface/transformers/blob/v4.57.0/src/transformers/utils/chat_template_utils.py"


class ChatTemplateContent(Analyzer):
    """A string-only chat template given a message whose content is a list of typed parts."""

    id = "DRV-chat-template-content"
    title = "The model's chat template cannot render list-typed (multimodal / OpenAI parts) message content"
    family = "data-model"
    stops_run = "every prompt of that shape fails the same way in the chat template"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type != "TypeError" or STR_PLUS_LIST.match(link.message.strip()) is None:
            return None
        in_template = any(f.path == "<template>" or f.func == "apply_chat_template"
                          or f.path.replace("\\", "/").endswith(("jinja2/environment.py", "chat_template_utils.py"))
                          for f in link.frames) or "apply_chat_template" in link.source
        if not in_template:
            return None  # the same Python error anywhere else is another bug
        part = "list" if '"list"' in link.message else "dict"
        return Finding(
            f"The chat template concatenates message content as a string, and a message's content is a {part}",
            f"TypeError: {link.message.strip()} inside the model's chat template (tokenizer.apply_chat_template). The template "
            "builds the prompt by string concatenation of each message's content, so it accepts only string content; "
            f"a message in the data has content as a {part} of typed parts (the OpenAI / multimodal form, "
            "[{'type': 'text', 'text': ...}, {'type': 'image'}]), e.g. a dataset prepared for a vision-language model or a "
            "tool-call format, rendered with a text-only model's tokenizer template.",
            ("Flatten the content in preprocessing: content = ''.join(p['text'] for p in parts if p.get('type') == 'text') "
             "(and drop image parts) for a text-only model; in verl rewrite the prompt column with string contents",
             "Or train / serve a model whose template takes typed parts (a vision-language model with its processor, e.g. "
             "Qwen2.5-VL), or give the tokenizer a chat_template that iterates over content parts"),
            evidence(link), (TF_CHAT_TEMPLATE, JINJA_SANDBOX), key=f"chat-template-content:{part}", family="data-model",
            kind="chat-template-content-not-string",
        )
