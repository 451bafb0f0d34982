"""Read an out-of-memory failure against the memory plan for the run's own settings.

When ``DRV-memory`` diagnoses an OOM or a KV cache that is negative or too small, this reads the
settings the log states and re-plans them with ``preflight/memplan*`` (imported only then, pure
Python): the predicted KV cache (or training peak) next to the logged one, the margin, and the
smallest single change that fits, with its predicted effect. Settings come from three lines:

- verl's resolved config, printed at start-up by ``pprint(OmegaConf.to_container(config,
  resolve=True))`` (verl/trainer/main_ppo.py): a nested dict, one ``'key': value`` a line,
  nested keys aligned one column right of their parent's;
- vLLM's engine banner ``Initializing a V1 LLM engine (v…) with config: model='…', …,
  dtype=torch.bfloat16, max_seq_len=…, tensor_parallel_size=…, pipeline_parallel_size=…,
  enforce_eager=…, kv_cache_dtype=…`` (vllm/v1/engine/core.py logging ``VllmConfig.__str__``,
  vllm/config/vllm.py; V0 says ``Initializing an LLM engine``);
- the memory lines: ``Available KV cache memory: X GiB`` (vllm/v1/worker/gpu_worker.py,
  vllm_ascend/worker/worker_v1.py), V0's ``total_gpu_memory (X GiB) x gpu_memory_utilization
  (U)`` and ``the rest of the memory reserved for KV Cache is X GiB`` (vllm/worker/worker.py),
  and the allocator's ``X GiB total capacity``;

plus ``key=value`` overrides on a logged command line. Only the keys the planner needs are
kept. The model's shape is its config.json, read when the logged model path is a folder on this
machine; without it the notes say so and how to get the plan.
"""

from __future__ import annotations

import gzip
import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from ...lazyre import lazy
from ..normalize import strip_prefixes

ROLLOUT = "actor_rollout_ref.rollout."
ACTOR = "actor_rollout_ref.actor."
MODEL_PATH = "actor_rollout_ref.model.path"
WANTED = frozenset({
    "data.max_prompt_length", "data.max_response_length", "trainer.n_gpus_per_node", "trainer.nnodes", "algorithm.use_kl_in_reward",
    MODEL_PATH, "actor_rollout_ref.model.enable_gradient_checkpointing", "actor_rollout_ref.model.use_remove_padding",
    "actor_rollout_ref.ref.fsdp_config.param_offload",
    *(ACTOR + k for k in ("ppo_micro_batch_size_per_gpu", "use_dynamic_bsz", "ppo_max_token_len_per_gpu", "use_kl_loss",
                          "fsdp_config.param_offload", "fsdp_config.optimizer_offload", "fsdp_config.offload_policy", "optim.optimizer")),
    *(ROLLOUT + k for k in ("max_model_len", "tensor_model_parallel_size", "pipeline_model_parallel_size", "data_parallel_size",
                            "expert_parallel_size", "gpu_memory_utilization", "max_num_seqs", "max_num_batched_tokens",
                            "enable_chunked_prefill", "enforce_eager", "free_cache_engine", "dtype")),
})
VLLM_DEFAULT_UTIL = 0.9  # EngineArgs.gpu_memory_utilization (vllm/engine/arg_utils.py)
MAX_READ = 256 << 20  # bytes of a log read for its settings
MAX_CONFIG = 1 << 20  # a config.json larger than this is not a model config
RAY_PREFIX = lazy(r"^\([\w.:-]+ pid=\d+(?:, ip=[\d.]+)?\) ?")
PPRINT_KEY = lazy(r"'(\w+)': ")
SCALAR = lazy(r"'([^']*)'|(True|False|None)\b|(-?\d+(?:\.\d+)?(?:e-?\d+)?)")
OVERRIDE = lazy(r"(?<![\w.])\+{0,2}((?:actor_rollout_ref|data|trainer|algorithm)\.[\w.]+)=([^\s'\",\]\\]+)")
BANNER = lazy(r"Initializing an? (?:V1 )?LLM engine \(v[^)]*\) with config: (.*)")
BANNER_KEYS = {
    "max_seq_len": ROLLOUT + "max_model_len", "tensor_parallel_size": ROLLOUT + "tensor_model_parallel_size",
    "pipeline_parallel_size": ROLLOUT + "pipeline_model_parallel_size", "enforce_eager": ROLLOUT + "enforce_eager",
}
BANNER_FIELD = lazy(r"\b(model|max_seq_len|tensor_parallel_size|pipeline_parallel_size|enforce_eager|dtype)=(?:'([^']*)'|torch\.(\w+)|(\w+))")
# V1's start-up line, its check_enough_kv_cache_memory error (vllm/v1/core/kv_cache_utils.py), V0's profiling line
KV_LOGGED = lazy(r"(?:Available KV cache memory: |available KV cache memory \(|reserved for KV Cache is )(-?\d+(?:\.\d+)?) ?GiB")
V0_TOTAL = lazy(r"total_gpu_memory \((\d+(?:\.\d+)?) ?GiB\) x gpu_memory_utilization \((\d+(?:\.\d+)?)\)")
TOTAL_CAPACITY = lazy(r"(\d+(?:\.\d+)?) ?GiB total capacity")


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
        self.model: str | None = None
        self.kv_logged: float | None = None
        self.kv_line = ""  # the line vLLM logged it on: evidence
        self.total_gib: float | None = None
        self._stack: list[tuple[int, str]] = []  # (column, key) of the open dicts of a pprint dump

    def feed(self, line: str) -> None:
        line = RAY_PREFIX.sub("", line.rstrip("\r\n"))
        if "': " in line:
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
        if "KV" in line and (kv := KV_LOGGED.search(line)) is not None:
            self.kv_logged = float(kv.group(1))
            if not kv.group(0).startswith("available"):  # a start-up line, not the failing message itself
                self.kv_line = strip_prefixes(line)[0].strip()[:300]
        if "total capacity" in line and (cap := TOTAL_CAPACITY.search(line)) is not None:
            self.total_gib = float(cap.group(1))

    def _pprint(self, line: str) -> None:
        stripped = line.lstrip()
        if not stripped.startswith(("{'", "'")):
            return
        if stripped.startswith("{'") and len(line) - len(stripped) == 0:
            self._stack = []  # a new top-level dict
        for m in PPRINT_KEY.finditer(line):
            col, key = m.start(), m.group(1)
            while self._stack and self._stack[-1][0] >= col:
                self._stack.pop()
            rest = line[m.end():]
            if rest.startswith("{"):
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
            elif name in BANNER_KEYS:
                self.banner.setdefault(BANNER_KEYS[name], _scalar(value) if word or quoted else value)

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


@lru_cache(maxsize=8)
def _read(path: str, size: int, mtime: int) -> LogSettings:
    found = LogSettings()
    opener = gzip.open if path.endswith(".gz") else open
    read = 0
    with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            read += len(line)
            if read > MAX_READ:
                break
            found.feed(line[:4096])
    return found


_NAMED_INPUTS: set[str] = set()


def allow_rereading(paths: "list[str]") -> None:
    """The files the user named on the command line, as given: the only relative names read again.

    A diagnosis carries its file's name, not a path: "output" in `run`, a path relative to its
    folder for folder inputs. Reading such a name from the current directory could read a file the
    user never named, so only absolute names and the files named on the command line are read again.
    """
    _NAMED_INPUTS.update(paths)


def log_settings(file: str, text: str) -> LogSettings:
    """The settings of the log a failure was read from (when it is a file the user named), then the failure's own text."""
    found = LogSettings()
    if os.path.isabs(file) or file in _NAMED_INPUTS:
        try:
            st = os.stat(file)
            if os.path.isfile(file):
                found = _read(file, st.st_size, st.st_mtime_ns)
        except OSError:
            pass
    own = LogSettings()
    own.feed(text)
    for attr in ("kv_logged", "kv_line", "total_gib"):  # the failing message's own numbers first
        if getattr(own, attr) in (None, ""):
            setattr(own, attr, getattr(found, attr))
    own.dump, own.cli, own.banner = found.dump, {**own.cli, **found.cli}, found.banner
    return own


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


def plan_notes(kind: str, file: str, text: str, versions: dict[str, str]) -> tuple[list[str], tuple[str, ...]]:
    """Notes that read a memory failure (``kv`` or ``alloc``) against the plan for the logged config, and the logged KV line."""
    found = log_settings(file, text)
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
    from ...preflight.memplan_advice import Card, card_for, make_plan, settings_from_verl, smallest_fix

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
        notes.append(f"the plan predicts a training peak of {t.peak / GIB:.2f} GiB per NPU ({t.tokens:,} tokens per micro-batch), "
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
