"""The run's settings, collected from the lines the classifier streams past (a file, stdin, `run`'s live output).

A memory failure is read against the memory plan of the run's own config (analyzers/memory.py,
memplan_bridge.py). The config is stated in a few kinds of lines, which the classifier's scan
picks out with ``PREFILTER`` and hands to :class:`LogSettings`, one per input name:

- verl's resolved config, printed at start-up by ``pprint(OmegaConf.to_container(config,
  resolve=True))`` (verl/trainer/main_ppo.py): a nested dict, one ``'key': value`` a line,
  nested keys aligned one column right of their parent's. Only the lines that open a dict and
  the leaves the planner wants are scanned; columns place a leaf under its parents;
- vLLM's engine banner ``Initializing a V1 LLM engine (v…) with config: model='…', …,
  dtype=torch.bfloat16, max_seq_len=…, tensor_parallel_size=…, pipeline_parallel_size=…,
  enforce_eager=…`` (vllm/v1/engine/core.py logging ``VllmConfig.__str__``; V0 says
  ``Initializing an LLM engine``) and a server's ``non-default args: {…}``
  (vllm/entrypoints/utils.py, log_non_default_args);
- the memory lines: ``Available KV cache memory: X GiB`` (vllm/v1/worker/gpu_worker.py,
  vllm_ascend/worker/worker_v1.py), V0's ``total_gpu_memory (X GiB) x gpu_memory_utilization
  (U)`` and ``the rest of the memory reserved for KV Cache is X GiB`` (vllm/worker/worker.py),
  and the allocator's ``X GiB total capacity``;
- ``key=value`` overrides on a logged command line.

Memory stays bounded: only the planner's keys are kept, the dict stack is as deep as the dump,
and at most ``MAX_INPUTS`` input names are remembered.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from ..lazyre import lazy

ROLLOUT = "actor_rollout_ref.rollout."
ACTOR = "actor_rollout_ref.actor."
MODEL_PATH = "actor_rollout_ref.model.path"
MEGATRON = ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size", "expert_model_parallel_size",
            "expert_tensor_parallel_size", "virtual_pipeline_model_parallel_size", "sequence_parallel", "use_distributed_optimizer",
            "param_offload", "optimizer_offload", "override_transformer_config.recompute_granularity",
            "override_transformer_config.recompute_method", "override_transformer_config.recompute_num_layers")
WANTED = frozenset({
    "data.max_prompt_length", "data.max_response_length", "trainer.n_gpus_per_node", "trainer.nnodes", "algorithm.use_kl_in_reward",
    MODEL_PATH, "actor_rollout_ref.model.enable_gradient_checkpointing", "actor_rollout_ref.model.use_remove_padding",
    "actor_rollout_ref.ref.fsdp_config.param_offload", "actor_rollout_ref.ref.megatron.param_offload",
    *(ACTOR + k for k in ("ppo_micro_batch_size_per_gpu", "use_dynamic_bsz", "ppo_max_token_len_per_gpu", "use_kl_loss", "strategy",
                          "fsdp_config.param_offload", "fsdp_config.optimizer_offload", "fsdp_config.offload_policy", "optim.optimizer",
                          "optim.main_grads_dtype")),
    *(ACTOR + "megatron." + k for k in MEGATRON),
    *(ROLLOUT + k for k in ("max_model_len", "tensor_model_parallel_size", "pipeline_model_parallel_size", "data_parallel_size",
                            "expert_parallel_size", "gpu_memory_utilization", "max_num_seqs", "max_num_batched_tokens",
                            "enable_chunked_prefill", "enforce_eager", "free_cache_engine", "dtype")),
})
LEAVES = sorted({key.rsplit(".", 1)[1] for key in WANTED})
VLLM_DEFAULT_UTIL = 0.9  # EngineArgs.gpu_memory_utilization (vllm/engine/arg_utils.py)
MAX_INPUTS = 64
MAX_DEPTH = 32
RAY_PREFIX = lazy(r"^\([\w.:-]+ pid=\d+(?:, ip=[\d.]+)?\) ?")
PPRINT_KEY = lazy(r"'(\w+)': ")
SCALAR = lazy(r"'([^']*)'|(True|False|None)\b|(-?\d+(?:\.\d+)?(?:e-?\d+)?)")
OVERRIDE = lazy(r"(?<![\w.])\+{0,2}((?:actor_rollout_ref|data|trainer|algorithm)\.[\w.]+)=([^\s'\",\]\\]+)")
BANNER = lazy(r"Initializing an? (?:V1 )?LLM engine \(v[^)]*\) with config: (.*)")
BANNER_KEYS = {
    "max_seq_len": ROLLOUT + "max_model_len", "tensor_parallel_size": ROLLOUT + "tensor_model_parallel_size",
    "pipeline_parallel_size": ROLLOUT + "pipeline_model_parallel_size", "enforce_eager": ROLLOUT + "enforce_eager",
}
BANNER_FIELD = lazy(r"\b(model|max_seq_len|tensor_parallel_size|pipeline_parallel_size|enforce_eager|dtype|quantization)=(?:'([^']*)'|torch\.(\w+)|(\w+))")
# The model runners' load line (vllm/worker/model_runner.py, vllm/v1/worker/gpu_model_runner.py and vllm-ascend's
# NPU model runner: logger.info("Starting to load model %s...", self.model_config.model)): the model being loaded,
# where the paste has no engine banner.
LOAD_LINE = lazy(r"Starting to load model (\S+?)\.\.\.")
# vLLM's platform plugin loader (vllm/platforms/__init__.py: logger.info("Platform plugin %s is activated", …)): the
# out-of-tree platform the engine runs on ("ascend" for vllm-ascend).
PLATFORM = lazy(r"Platform plugin (\w+) is activated")
NON_DEFAULT = lazy(r"non-default args: \{(.*)\}")
NON_DEFAULT_KEYS = {  # vLLM's engine arguments -> verl's rollout keys
    "max_model_len": ROLLOUT + "max_model_len", "tensor_parallel_size": ROLLOUT + "tensor_model_parallel_size",
    "pipeline_parallel_size": ROLLOUT + "pipeline_model_parallel_size", "data_parallel_size": ROLLOUT + "data_parallel_size",
    "gpu_memory_utilization": ROLLOUT + "gpu_memory_utilization", "max_num_seqs": ROLLOUT + "max_num_seqs",
    "max_num_batched_tokens": ROLLOUT + "max_num_batched_tokens", "enforce_eager": ROLLOUT + "enforce_eager",
    "enable_chunked_prefill": ROLLOUT + "enable_chunked_prefill", "dtype": ROLLOUT + "dtype",
}
# V1's start-up line, its check_enough_kv_cache_memory error (vllm/v1/core/kv_cache_utils.py), V0's profiling line
KV_LOGGED = lazy(r"(?:Available KV cache memory: |available KV cache memory \(|reserved for KV Cache is )(-?\d+(?:\.\d+)?) ?GiB")
V0_TOTAL = lazy(r"total_gpu_memory \((\d+(?:\.\d+)?) ?GiB\) x gpu_memory_utilization \((\d+(?:\.\d+)?)\)")
TOTAL_CAPACITY = lazy(r"(\d+(?:\.\d+)?) ?GiB total capacity")

# Lines the classifier's main scan adds to its candidates: rare ones (RE2 and re syntax alike; unanchored).
PREFILTER = (
    r"Initializing an? (?:V1 )?LLM engine \(v|non-default args: \{",
    r"Available KV cache memory: |available KV cache memory \(|reserved for KV Cache is |total_gpu_memory \(|GiB total capacity",
    r"(?:actor_rollout_ref|trainer|algorithm)\.[\w.]+=|data\.max_(?:prompt|response)_length=",
    r"Starting to load model |Platform plugin \w+ is activated",
)
GUARD = lazy("|".join(f"(?:{p})" for p in PREFILTER))
# verl's config dump, scanned for separately and only until the first dump of an input is over:
# a pprint line that opens a dict, and the leaves the planner wants.
DUMP_SCAN = "|".join((r"'\w+': \{", "'(?:" + "|".join(LEAVES) + r")': "))
DUMP_OVER_GAP = 64 << 10  # bytes after the dump's last wanted line with none: the dump is over
MAX_DUMP_LINES = 4096  # dump-like lines looked at per input, whatever they turn out to be (verl's dump has < 1000 lines)
MAX_DUMP_START = 16 << 20  # bytes of an input in which the dump must start (verl prints it at start-up) to be looked for further


def _scalar(text: str) -> Any:
    m = SCALAR.match(text.strip())
    if m is None:
        return None
    if m.group(1) is not None:
        return m.group(1)
    if m.group(2) is not None:
        return {"True": True, "False": False, "None": None}[m.group(2)]
    num = m.group(3)
    return float(num) if any(c in num for c in ".e") else int(num)


class LogSettings:
    """The planner's keys a log states, in verl's dotted names, and the logged memory numbers."""

    def __init__(self) -> None:
        self.dump: dict[str, Any] = {}  # verl's resolved config (authoritative for verl's keys)
        self.cli: dict[str, Any] = {}  # key=value overrides on a command line
        self.banner: dict[str, Any] = {}  # what vLLM says it used
        self.quantization: str | None = None  # the engine banner's quantization=… (None when it says None)
        self.loaded: str | None = None  # the model a model runner said it starts loading
        self.platform: str | None = None  # the vLLM platform plugin the log says was activated
        self.kv_logged: float | None = None
        self.kv_line = ""  # the line vLLM logged it on: evidence
        self.total_gib: float | None = None
        self._stack: list[tuple[int, str]] = []  # (column, key) of the open dicts of a pprint dump
        self.dump_started = False
        self.dump_lines = 0
        self.dump_bytes = 0  # of the input scanned for the dump so far
        self.dump_over = False  # the first dump has ended: later dumps (workers print theirs) are not scanned

    def feed(self, line: str) -> None:
        """One line (the classifier hands it with log prefixes removed; a Ray prefix is removed here too)."""
        line = RAY_PREFIX.sub("", line.rstrip("\r\n"))
        if "': " in line:
            if (nd := NON_DEFAULT.search(line)) is not None:
                self._non_default(nd.group(1))
            else:
                self._pprint(line)
        if "=" in line:
            if (b := BANNER.search(line)) is not None and not self.banner:
                self._banner(b.group(1))
            elif (t := V0_TOTAL.search(line)) is not None:
                self.total_gib = float(t.group(1))
                self.cli.setdefault(ROLLOUT + "gpu_memory_utilization", float(t.group(2)))
            else:
                for key, value in OVERRIDE.findall(line):
                    if key in WANTED and key not in self.cli:
                        self.cli[key] = _scalar(value) if SCALAR.fullmatch(value) else value
        if "Starting to load" in line and (load := LOAD_LINE.search(line)) is not None:
            self.loaded = self.loaded or load.group(1)
        if "Platform plugin" in line and (plugin := PLATFORM.search(line)) is not None:
            self.platform = self.platform or plugin.group(1)
        if "KV" in line and (kv := KV_LOGGED.search(line)) is not None:
            self.kv_logged = float(kv.group(1))
            if not kv.group(0).startswith("available"):  # a start-up line, not the failing message itself
                self.kv_line = line.strip()[:300]
        if "total capacity" in line and (cap := TOTAL_CAPACITY.search(line)) is not None:
            self.total_gib = float(cap.group(1))

    def _pprint(self, line: str) -> None:
        stripped = line.lstrip()
        if not stripped.startswith(("{'", "'")):
            return
        if stripped.startswith("{'") and len(line) - len(stripped) == 0:
            if self.dump:  # a second top-level dict: the first one is over
                self.dump_over = True
                return
            self._stack = []  # a new top-level dict
            self.dump_started = True
        if self.dump_over:
            return
        for m in PPRINT_KEY.finditer(line):
            col, key = m.start(), m.group(1)
            while self._stack and self._stack[-1][0] >= col:
                self._stack.pop()
            rest = line[m.end():]
            if rest.startswith("{"):
                if len(self._stack) < MAX_DEPTH:
                    self._stack.append((col, key))
                continue
            dotted = ".".join([k for _, k in self._stack] + [key])
            if dotted in WANTED and dotted not in self.dump:
                self.dump[dotted] = _scalar(rest)

    def _banner(self, text: str) -> None:
        for name, quoted, torch_dtype, word in BANNER_FIELD.findall(text):
            value = quoted or torch_dtype or word
            if name == "model":
                self.banner.setdefault("model", value)
            elif name == "dtype":
                self.banner.setdefault(ROLLOUT + "dtype", value)
            elif name == "quantization":
                self.quantization = None if value == "None" else value
            elif name in BANNER_KEYS:
                self.banner.setdefault(BANNER_KEYS[name], _scalar(value) if word or quoted else value)

    def _non_default(self, text: str) -> None:
        for m in PPRINT_KEY.finditer(text):
            name, value = m.group(1), _scalar(text[m.end():])
            if name == "model" and isinstance(value, str):
                self.banner.setdefault("model", value)
            elif name in NON_DEFAULT_KEYS and value is not None:
                self.banner.setdefault(NON_DEFAULT_KEYS[name], value)

    def settings(self) -> dict[str, Any]:
        """The dotted keys for ``settings_from_verl``: the command line, the resolved dump over it, vLLM's banner over both."""
        out = {**self.cli, **self.dump, **{k: v for k, v in self.banner.items() if k != "model"}}
        if self.banner and not (self.dump or self.cli):  # vLLM alone (a server log): its own default, not verl's
            out.setdefault(ROLLOUT + "gpu_memory_utilization", VLLM_DEFAULT_UTIL)
        return {k: v for k, v in out.items() if v is not None}

    @property
    def model_path(self) -> str | None:
        return self.dump.get(MODEL_PATH) or self.cli.get(MODEL_PATH) or self.banner.get("model")

    @property
    def empty(self) -> bool:
        return not (self.dump or self.cli or self.banner)


class RunSettings:
    """One :class:`LogSettings` per input name, the most recently fed ``MAX_INPUTS`` of them."""

    def __init__(self) -> None:
        self._by_input: OrderedDict[str, LogSettings] = OrderedDict()

    def _get(self, name: str) -> LogSettings:
        found = self._by_input.get(name)
        if found is None:
            found = self._by_input[name] = LogSettings()
            if len(self._by_input) > MAX_INPUTS:
                self._by_input.popitem(last=False)
        else:
            self._by_input.move_to_end(name)
        return found

    def feed(self, name: str, line: str) -> None:
        self._get(name).feed(line)

    def scanning_dump(self, name: str) -> bool:
        """Whether the classifier still looks for the config dump in this input."""
        found = self._by_input.get(name)
        return found is None or not found.dump_over

    def dump_block(self, name: str, lines: list[str], gap: int, size: int) -> None:
        """The dump's lines of one block of ``size`` bytes, and the bytes after the last of them: when
        the dump has started and a block ends ``DUMP_OVER_GAP`` bytes past its last line (or has
        none), it is over; when none started in the first ``MAX_DUMP_START`` bytes, none is looked for."""
        found = self._get(name)
        for line in lines:
            found.feed(line)
        found.dump_lines += len(lines)
        found.dump_bytes += size
        if (found.dump and gap >= DUMP_OVER_GAP) or found.dump_lines >= MAX_DUMP_LINES:
            found.dump_over = True
        elif not found.dump_started and found.dump_bytes >= MAX_DUMP_START:
            found.dump_over = True

    def served(self, name: str) -> tuple[str | None, str | None]:
        """(quantization, model path) vLLM stated for this input, else for any input that states them."""
        order = [self._by_input[name]] if name in self._by_input else []
        order += [s for n, s in self._by_input.items() if n != name]
        quantization = next((s.quantization for s in order if s.quantization), None)
        model = next((s.model_path or s.loaded for s in order if s.model_path or s.loaded), None)
        return quantization, model

    def platforms(self) -> set[str]:
        """The vLLM platform plugins any input says were activated ("ascend" for vllm-ascend)."""
        return {s.platform for s in self._by_input.values() if s.platform}

    def for_input(self, name: str) -> LogSettings:
        """The settings the failing input states; when it states none (a Ray worker's log in a session
        folder), those of the one other input that states any."""
        own = self._by_input.get(name)
        if own is not None and not own.empty:
            return own
        others = [s for n, s in self._by_input.items() if n != name and not s.empty]
        if len(others) != 1:
            return own or LogSettings()
        merged = LogSettings()
        merged.dump, merged.cli, merged.banner = others[0].dump, others[0].cli, others[0].banner
        for attr in ("kv_logged", "kv_line", "total_gib"):
            setattr(merged, attr, getattr(own, attr, None) if own is not None and getattr(own, attr) not in (None, "") else getattr(others[0], attr))
        return merged
