"""Read the numbers in out-of-memory messages and say which knob to turn, by roughly how much.

Four sources print numbers: torch_npu's caching allocator ("Tried to allocate X GiB (… Y GiB total capacity; … Z GiB
free; … reserved in total by PyTorch)", with "A allowed" under a per-process memory fraction; its operator-workspace pool's
"NPUWorkspaceAllocator tried to allocate …"; a refusal at the fraction, throw_on_npumalloc_oom), vLLM's KV-cache check ("N GiB KV cache is needed, which is larger than the
available KV cache memory (M GiB)… estimated maximum model length is L"), vLLM's start-up guard ("Free memory on
device (F/T GiB) on startup is less than desired GPU memory utilization (U, R GiB)": the largest utilization that fits
is F/T), its profiling check ("Error in memory profiling. Initial free memory B, current free memory A": what another
process gave back meanwhile) and Ray's memory monitor ("… was 237.3GB / 250.0GB (0.949), which exceeds the memory usage threshold of
0.95"). Host RAM is read from NumPy's array allocation ("Unable to allocate 7.91 GiB for an array with shape (…) and
data type float64": a size past any host is a shape computed wrong), from torch_npu's pinned host pool ("Malloc pin
memory failed, host out of memory") and from a bare MemoryError. The catalog has
entries for most of these messages; on their links this analyzer's arithmetic becomes their notes, and it diagnoses
the variants the catalog does not spell out.
"""

from __future__ import annotations

import math
import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

SIZE = r"(-?\d+(?:\.\d+)?) ?([KMGT]i?B)"
# The caching allocator's "Tried to allocate X (…", and torch_npu's operator-workspace pool's "NPUWorkspaceAllocator tried
# to allocate X(NPU n; T total capacity; F free)" (NPUWorkspaceAllocator.cpp, every release since v2.1.0-6.0.0).
ALLOC = lazy(rf"[Tt]ried to allocate {SIZE}")
TOTAL = lazy(rf"{SIZE} total capacity")
FREE = lazy(rf"{SIZE} free")
ALLOCATED = lazy(rf"{SIZE} already allocated")
RESERVED = lazy(rf"{SIZE} reserved in total by PyTorch")
# The caching allocators' later wording (torch >= 2.1's CUDA allocator, and the XPU / MLU / GCU / PrivateUse1 copies of
# it; torch 2.1 spelt "capacty"): "Tried to allocate X. GPU N has a total capacity of T of which F is free. [Process P has
# M memory in use. | Including non-PyTorch memory, this process has M memory in use.] Of the allocated memory A is
# allocated by PyTorch, [with … allocated in private pools (e.g., CUDA Graphs), ]and U is reserved by PyTorch but
# unallocated." (c10/cuda/CUDACachingAllocator.cpp). What the allocator reserved is A + U; a free size of nothing is
# printed "0 bytes".
BYTES = r"(-?\d+(?:\.\d+)?) ?([KMGT]i?B|bytes)"
TOTAL_OF = lazy(rf"has a total capac(?:i)?ty of {BYTES}")
FREE_OF = lazy(rf"of which {BYTES} ?is free")
ALLOCATED_BY = lazy(rf"Of the allocated memory {BYTES} is allocated by PyTorch")
UNALLOCATED = lazy(rf"and {BYTES} is reserved by PyTorch but unallocated")
NEW_WORDING = "https://github.com/pytorch/pytorch/blob/eb42ad6eca0ce61e7c581212b4bf32f991425571/c10/cuda/CUDACachingAllocator.cpp"
# A per-process cap (torch.npu / torch.cuda set_per_process_memory_fraction) adds "A allowed; " to either wording: the
# allocator refuses a block when what it already reserved plus the request passes A, whatever the card has free.
ALLOWED = lazy(rf"{BYTES} allowed;")
# torch >= 2.1 prints the process's own use before "allowed" (the reserved figures after it are often cut off a paste).
IN_USE = lazy(rf"(?:this process|Process \d+) has {BYTES} memory in use")
WORKSPACE = lazy(r"NPUWorkspaceAllocator tried to allocate")
WORKSPACE_SOURCE = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.9.0/torch_npu/csrc/core/npu/NPUWorkspaceAllocator.cpp"
# torch_npu with PYTORCH_NPU_ALLOC_CONF=throw_on_npumalloc_oom:True refuses, before asking the device, a block that would
# take the process past its per_process_memory_fraction (NPUCachingAllocator.cpp, master after the 26.1 releases).
FRACTION_REJECTED = lazy(rf"rejected because it would exceed per_process_memory_fraction limit\. Requested size: {BYTES}")
FRACTION_SOURCE = "https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/torch_npu/csrc/core/npu/NPUCachingAllocator.cpp"
# torch_npu's pinned host memory pool (CachingHostAllocator.cpp, from the 26.0 releases; "Rried" is its spelling): the
# host could not give page-locked memory for tensor.pin_memory() / a non_blocking copy; sizes in bytes.
PINNED = lazy(
    r"Malloc pin memory failed, host out of memory, [RT]ried to allocate size: (\d+), total_allocated_memory: (\d+), "
    r"total_reserved_memory: (\d+)"
)
PINNED_SOURCE = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.9.0/torch_npu/csrc/core/npu/CachingHostAllocator.cpp"
KV_NEED = lazy(rf"max seq len \((\d+)\),? \(?{SIZE} KV cache is ?needed", re.I)
KV_AVAIL = lazy(rf"available KV cache memory \({SIZE}\)", re.I)
KV_MAX = lazy(r"estimated maximum model length is (\d+)")
KV_TOKENS = lazy(r"max seq len \((\d+)\) is larger than the maximum number of tokens that can be stored in KV cache \((\d+)\)")
NUM = r"(\d+(?:\.\d+)?)"
# vLLM's start-up guard (V1 worker; vllm-ascend's NPUWorker copies it, 310P worker too): the card's free memory when the
# engine starts is below gpu_memory_utilization x total. Releases up to v0.11 print "Free memory on device (F/T GiB)",
# later ones (request_memory in vllm/v1/worker/utils.py) name the device, "Free memory on device cuda:0 (F/T GiB)"; the
# words may be wrapped over lines in a paste.
STARTUP = lazy(
    rf"Free memory on device (?:(\S+) )?\({NUM}/{NUM} GiB\) on startup\s+is less than desired\s+GPU memory utilization "
    rf"\((\d*\.?\d+), {NUM} GiB\)"
)
STARTUP_SOURCES = (
    "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/vllm_ascend/worker/worker.py",
    "https://github.com/vllm-project/vllm/blob/v0.11.0/vllm/v1/worker/gpu_worker.py",
)
# vLLM's / vllm-ascend's check after the profiling forward pass (assert initial free > free after): free memory did not go
# down, so something else on the card gave memory back while vLLM measured. vllm-ascend up to 0.13 and vLLM V0 print bytes
# ("Initial free memory 62512345088, current free memory 63012345088."), later releases GiB ("… 58.1 GiB, current free
# memory 59.4 GiB.").
PROFILING = lazy(rf"Error in memory profiling\. Initial free memory {NUM}( ?GiB)?, current free memory {NUM}( ?GiB)?")
PROFILING_SOURCES = (
    "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0/vllm_ascend/worker/worker_v1.py",
    "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/vllm_ascend/worker/worker.py",
)
RAY_MEM = lazy(rf"was {NUM}GB / {NUM}GB \({NUM}\), which exceeds the memory usage threshold of {NUM}")
NO_KV = lazy(r"No available memory for the cache blocks|Available KV cache memory: -\d|available KV cache memory \(-\d", re.I)
NO_KV_ADVICE = (
    "no memory is left for the KV cache after the weights and activations: raise "
    "actor_rollout_ref.rollout.gpu_memory_utilization (or tensor_model_parallel_size, so each card holds less of the "
    "model), or free the card (actor/ref offload, free_cache_engine) before vLLM starts"
)
PLAN_SOURCES = (
    "https://github.com/volcengine/verl/blob/v0.7.0/verl/trainer/main_ppo.py",  # the resolved config it prints
    "https://github.com/vllm-project/vllm/blob/v0.34.0/vllm/config/vllm.py",  # VllmConfig.__str__, vLLM's engine banner
)
# The allocators' words, and MindIE-LLM's ("Device out of memory (OOM) reported by PyTorch", its exception_handler).
OOM = lazy(r"(?:NPU|CUDA|XPU|Device) out of memory|OutOfMemoryError")
# torch's own class for a device allocation failure (torch.OutOfMemoryError, torch.cuda / torch.npu's alias of it): the
# type says it when torch_npu's message under it does not ("The Inner error is reported as above").
OOM_TYPE = "OutOfMemoryError"
# Most of the card held outside this process's caching allocator: total - reserved - free is at least this share of it.
HELD_OUTSIDE = 0.5
# No card has an exabyte: the allocator refuses such a request outright ("Tried to allocate more than 1EB memory").
# The size was computed from garbage: ranks out of step in a collective exchanged mismatched size metadata
# (all_gather_object / broadcast_object_list, uneven batch counts per rank), or a kernel wrote out of bounds
# over a tensor whose values feed a shape.
IMPOSSIBLE = lazy(r"Tried to allocate more than 1EB|Tried to allocate \d+(?:\.\d+)? ?(?:PiB|EiB|PB|EB)\b")
# Host RAM, in NumPy's words: _ArrayMemoryError (a MemoryError) prints "Unable to allocate <size> for an array with shape
# <shape> and data type <dtype>" (numpy >= 1.18; 1.17 printed no size: "Unable to allocate array with shape …"), the size
# in bytes / KiB … EiB. A bare MemoryError (Python's PyErr_NoMemory, pybind11's std::bad_alloc) is host memory too.
NP_ALLOC = lazy(r"Unable to allocate (?:(\d+(?:\.\d*)?) (bytes|[KMGTPE]iB) for )?(?:an )?array with shape (\([^)]*\)) and data type (\w+)")
HOST_TYPES = frozenset({"MemoryError", "_ArrayMemoryError"})
# More than any host has: the shape was computed wrong (a length, a vocabulary size, a dimension swapped), not a shortage.
HOST_ABSURD_GIB = 64 * 1024.0
HOST_SOURCES = (
    "https://github.com/numpy/numpy/blob/v2.2.0/numpy/_core/_exceptions.py",
    "https://docs.python.org/3/library/exceptions.html#MemoryError",
)
ONE_EB_CHECK = "https://github.com/pytorch/pytorch/blob/c3342c1f83ad074c49ca803c2119b3694779950f/c10/cuda/CUDAMallocAsyncAllocator.cpp"

SOURCES = {
    "alloc": "https://www.hiascend.com/document/detail/zh/Pytorch/710/comref/Envvariables/Envir_012.html",
    "kv": "https://github.com/vllm-project/vllm/blob/v0.32.0/vllm/v1/core/kv_cache_utils.py",
    "kv0": "https://github.com/vllm-project/vllm/blob/v0.6.3/vllm/worker/worker.py",
    "ray": "https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html",
    "verl": "https://verl.readthedocs.io/en/latest/perf/perf_tuning.html",
}


def gib(m: re.Match | None, offset: int = 1) -> float | None:
    if m is None:
        return None
    value, unit = float(m.group(offset)), m.group(offset + 1)
    return value * {"K": 1 / 1024**2, "M": 1 / 1024, "G": 1.0, "T": 1024.0, "P": 1024.0**2, "E": 1024.0**3,
            "b": 1 / 1024**3}[unit[0]]


def sizes(text: str) -> tuple[float | None, float | None, float | None, float | None]:
    """(total, free, allocated, reserved) in GiB from either wording of the caching allocator's message."""
    total, free = gib(TOTAL.search(text)), gib(FREE.search(text))
    allocated, reserved = gib(ALLOCATED.search(text)), gib(RESERVED.search(text))
    if total is None and (total := gib(TOTAL_OF.search(text))) is not None:
        free = gib(FREE_OF.search(text))
        allocated, unallocated = gib(ALLOCATED_BY.search(text)), gib(UNALLOCATED.search(text))
        reserved = allocated + unallocated if allocated is not None and unallocated is not None else None
    return total, free, allocated, reserved


def _round_up(x: float, step: float = 0.05) -> float:
    return math.ceil(x / step - 1e-9) * step


def fraction_advice(text: str, need: float, reserved: float | None, free: float | None) -> list[str]:
    """A per-process memory fraction that stopped the allocator: the "A allowed" size of either allocator wording, or
    torch_npu's refusal before the device was asked (throw_on_npumalloc_oom)."""
    cap = "raise the per-process memory fraction (torch.npu.set_per_process_memory_fraction(f) / torch.cuda's, set by the "
    cap += "script or a framework sharing the card) or remove it; or lower the batch so that this process needs less"
    if (m := FRACTION_REJECTED.search(text)) is not None:
        return [
            f"torch_npu refused a {gib(m):.2f} GiB block before asking the device: it would take this process past its "
            "per_process_memory_fraction (PYTORCH_NPU_ALLOC_CONF=throw_on_npumalloc_oom:True turns that into this error); the "
            "card itself may have the memory free", cap,
        ]
    allowed = gib(ALLOWED.search(text))
    held, how = (reserved, "had reserved") if reserved is not None else (gib(IN_USE.search(text)), "had in use")
    if allowed is None or held is None or held + need <= allowed:
        return []
    free_part = f" while {free:.2f} GiB of the card is free" if free is not None else ""
    return [
        f"this process may use at most {allowed:.2f} GiB (a per-process memory fraction is set): it {how} "
        f"{held:.2f} GiB and asked for {need:.2f} GiB more, past that cap{free_part}", cap,
    ]


def allocator_advice(text: str) -> list[str]:
    total, free, allocated, reserved = sizes(text)
    if FRACTION_REJECTED.search(text):
        return fraction_advice(text, 0.0, None, None)
    need = gib(ALLOC.search(text))
    if need is None:
        return []
    if capped := fraction_advice(text, need, reserved, free):
        return capped
    out = []
    if WORKSPACE.search(text):
        out.append(
            "the request came from torch_npu's NPUWorkspaceAllocator, the pool for operators' scratch workspace, not a "
            "tensor: too little of the card was free when this operator ran (the message itself suggests TASK_QUEUE_ENABLE=1)"
        )
    short = need - (free or 0.0)
    if total and short <= 0:
        # The device reported more free memory than the request, yet the allocation failed: the free memory is not in one
        # piece, or a per-process cap (set_per_process_memory_fraction, the allocator's "allowed" size) stopped it first.
        out.append(
            f"the allocator asked for {need:.2f} GiB with {free or 0:.2f} GiB free of {total:.2f} GiB: the request fits the free "
            "total, so that memory is fragmented (not in one piece) or a per-process memory limit capped the allocator"
        )
        out.append(
            "set PYTORCH_NPU_ALLOC_CONF=expandable_segments:True (PYTORCH_CUDA_ALLOC_CONF on GPUs; not with vLLM sleep mode, "
            "see ARL-E207), or lower the batch so that smaller blocks are requested; check any per-process memory fraction"
        )
    elif total:
        out.append(
            f"the allocator needed {need:.2f} GiB more with {free or 0:.2f} GiB free of {total:.2f} GiB: short by "
            f"{short:.2f} GiB ({short / total:.0%} of the card)"
        )
        util = _round_up(short / total)
        out.append(
            f"if vLLM shares the card (hybrid engine), lower actor_rollout_ref.rollout.gpu_memory_utilization by at least {util:.2f}; "
            f"otherwise halve the micro batch (ppo_micro_batch_size_per_gpu / log_prob_micro_batch_size_per_gpu) or enable "
            f"actor/ref param_offload"
        )
    if allocated is not None and reserved is not None and reserved - allocated > max(need, 0.5):
        out.append(
            f"{reserved - allocated:.2f} GiB is reserved but unallocated (fragmentation): "
            "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True helps (not with vLLM sleep mode, see ARL-E207)"
        )
    return out


def held_outside(text: str) -> list[str]:
    """The allocator's numbers when most of the card is held outside this process's caching allocator.

    torch_npu's message gives the card's total, what is free and what this process's caching allocator reserved; the
    rest (total - reserved - free) is held by something else: another process on the card (a leftover run, a second
    job or vLLM instance), or in this process a pool outside the caching allocator (vLLM's sleep-mode allocator, HCCL
    buffers). When that is most of the card, a smaller batch of this process does not help.
    """
    total, free, _, reserved = sizes(text)
    if not total or free is None or reserved is None:
        return []
    other = total - reserved - free
    if other < HELD_OUTSIDE * total:
        return []
    return [
        f"{other:.2f} GiB of the card's {total:.2f} GiB is held outside this process's caching allocator (it reserved "
        f"{reserved:.2f} GiB; {free:.2f} GiB is free): another process on the card, or a pool outside the allocator in this "
        "process (vLLM's sleep-mode memory, HCCL buffers)",
        "if npu-smi info shows another process on this NPU (a leftover run, another job or vLLM server), stop it or move "
        "to a free card (ASCEND_RT_VISIBLE_DEVICES); in a verl hybrid engine, lower actor_rollout_ref.rollout.gpu_memory_utilization "
        "or offload the rollout (free_cache_engine) before training steps",
    ]


def kv_advice(text: str) -> list[str]:
    need_m, avail_m, max_m = KV_NEED.search(text), KV_AVAIL.search(text), KV_MAX.search(text)
    if (tokens := KV_TOKENS.search(text)) is not None:  # vLLM V0's wording
        return [
            f"max_model_len {tokens.group(1)} is more than the {tokens.group(2)} tokens the KV cache holds",
            f"set actor_rollout_ref.rollout.max_model_len (or data.max_prompt_length + data.max_response_length) to at "
            f"most {tokens.group(2)}, or raise gpu_memory_utilization",
        ]
    if need_m is None and avail_m is None:
        return [NO_KV_ADVICE] if NO_KV.search(text) else []
    out = []
    avail = gib(avail_m)
    if avail is not None and avail <= 0:
        out.append(
            f"the KV-cache budget is negative ({avail:.2f} GiB): weights and activations alone exceed "
            "gpu_memory_utilization x card memory — raise actor_rollout_ref.rollout.gpu_memory_utilization, or raise "
            "tensor_model_parallel_size so each card holds less of the model, or free the card (actor offload)"
        )
    if need_m is not None:
        max_len, need = int(need_m.group(1)), gib(need_m, 2)
        msg = f"max_model_len {max_len} needs {need:.2f} GiB of KV cache"
        if avail is not None:
            msg += f", {avail:.2f} GiB is available"
        out.append(msg)
        if max_m is not None:
            out.append(
                f"set actor_rollout_ref.rollout.max_model_len (or data.max_prompt_length + data.max_response_length) to at "
                f"most {max_m.group(1)}, or raise gpu_memory_utilization"
            )
        elif need and avail and avail > 0:
            out.append(f"raise gpu_memory_utilization so that about {need - avail:.2f} GiB more is left for the KV cache, or lower max_model_len")
    return out


def startup_advice(text: str) -> list[str]:
    """vLLM's start-up guard: what was free, what gpu_memory_utilization asked for, the largest value that fits."""
    m = STARTUP.search(text)
    if m is None:
        return []
    device = m.group(1) or "the device"
    free, total, util, requested = (float(g) for g in m.groups()[1:])
    if total <= 0:
        return []
    held, fits = total - free, math.floor(free / total * 100 - 1) / 100
    return [
        f"{device} had {free:.2f} of {total:.2f} GiB free when vLLM started, and gpu_memory_utilization {util:g} asks for "
        f"{requested:.2f} GiB: {held:.2f} GiB ({held / total:.0%} of the card) was already held — by another process on the "
        "card (a leftover run, a second vLLM / job), or in a colocated RL job by this job's own trainer (actor / ref weights, "
        "optimizer state, not offloaded before the rollout engine starts)",
        (f"set actor_rollout_ref.rollout.gpu_memory_utilization (vLLM's --gpu-memory-utilization) to at most {fits:.2f}, what "
         "was free, " if fits > 0 else "no gpu_memory_utilization fits: ")
        + "or free the card before vLLM starts: stop the process npu-smi info / nvidia-smi shows on it, or offload the "
        "actor / ref (param_offload, optimizer_offload) in a colocated job",
    ]


def profiling_advice(text: str) -> list[str]:
    """vLLM's profiling check: free memory before and after the profile run, and what came back in between."""
    m = PROFILING.search(text)
    if m is None:
        return []
    before, after = (float(m.group(i)) / (1.0 if m.group(i + 1) else 1024.0**3) for i in (1, 3))
    rose = after - before
    what = (f"free memory rose by {rose:.2f} GiB ({before:.2f} -> {after:.2f} GiB) while vLLM ran its profiling forward pass"
            if rose > 0 else f"free memory did not go down ({before:.2f} GiB before and after vLLM's profiling forward pass)")
    return [
        f"{what}: another process on the card (a leftover run, a second engine, or in a colocated RL job this job's own "
        "trainer offloading or emptying its cache) gave memory back meanwhile, so vLLM cannot tell what its model used",
        "if another process shares the card, stop it or give vLLM its own card (npu-smi info shows it); in a colocated job, "
        "let the actor / ref offload (param_offload, optimizer_offload) and torch.npu.empty_cache() finish before the rollout "
        "engine is built, not during it",
    ]


def ray_advice(text: str) -> list[str]:
    m = RAY_MEM.search(text)
    if m is None:
        return []
    used, total, _, threshold = (float(g) for g in m.groups())
    over = used - threshold * total
    return [
        f"host RAM was {used:.1f} of {total:.1f} GB, {max(over, 0):.1f} GB over Ray's kill threshold ({threshold:.2f})",
        "reduce what the node's workers hold in host RAM: fewer workers per node, CPU offload off (param/optimizer offload "
        "uses host RAM), smaller data.dataloader_num_workers; or raise RAY_memory_usage_threshold only if RAM is really free",
    ]


class Memory(Analyzer):
    id = "DRV-memory"
    title = "Out of memory, with the numbers the message gives"
    family = "memory"
    stops_run = "an out-of-memory error raised in a traceback ends the step; verl's actors are not restarted"

    def _advice(self, link: Link) -> tuple[str, list[str]]:
        text = " ".join([link.message, *link.detail])
        for kind, fn in (("alloc", allocator_advice), ("kv", kv_advice), ("startup", startup_advice), ("profile", profiling_advice),
                         ("ray", ray_advice)):
            advice = fn(text)
            if advice:
                return kind, advice
        return "", []

    @staticmethod
    def _planned(kind: str, link: Link, facts: Facts) -> tuple[list[str], tuple[str, ...]]:
        """The failure read against the memory plan for the logged config (memplan_bridge; the planner loads only here)."""
        if kind not in ("kv", "alloc"):
            return [], ()
        from ..run_settings import LogSettings
        from .memplan_bridge import plan_notes

        try:
            stated = facts.settings.for_input(link.file) if facts.settings is not None else LogSettings()
            return plan_notes(kind, stated, " ".join([link.message, *link.detail]), facts.versions)
        except Exception:  # noqa: BLE001 - a plan that cannot be made is no reason to lose the numbers' advice
            return [], ()

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind != "cann" and IMPOSSIBLE.search(link.message):
            return self._impossible(link)
        if link.kind in ("python", "remote", "bare") and (host := self._host(link)) is not None:
            return host
        kind, advice = self._advice(link)
        notes = tuple(advice)
        if not advice:
            if not (OOM.search(link.message) or link.short_type == OOM_TYPE) or link.kind == "cann":
                return None
            kind, advice, notes = "alloc", ["the message gives no sizes; see the fix"], ()
        if kind == "alloc" and (outside := held_outside(" ".join([link.message, *link.detail]))):
            return Finding(
                "NPU out of memory: most of the card is held outside this process's allocator",
                f"{link.short_type}: " + "; ".join(outside[:1] + advice[:1]) + ".", (outside[1],), evidence(link),
                (SOURCES["alloc"], "https://github.com/vllm-project/vllm-ascend/issues/1670",
                 *((NEW_WORDING,) if TOTAL_OF.search(link.message) else ())),
                key=f"outside:{link.message[:60]}", kind="npu-memory-occupied", notes=tuple(outside[:1]),
            )
        fix = [a for a in advice if a.startswith(("set ", "raise ", "reduce ", "if ", "PYTORCH"))] or advice[-1:]
        planned, logged = self._planned(kind, link, facts)
        if planned:
            advice, notes = [*advice, *planned], (*notes, *planned)
            fix = [p for p in planned if p.startswith("set ")] + fix + [p for p in planned if p.startswith("the memory plan")]
        no_kv = kind == "kv" and ("negative" in advice[0] or advice[0] == NO_KV_ADVICE)
        titles = {
            "alloc": "NPU out of memory in the caching allocator",
            "kv": "vLLM KV cache too small for max_model_len" if not no_kv else "No NPU memory left for vLLM's KV cache",
            "ray": "Ray's memory monitor killed a worker: host RAM",
            "startup": "Free device memory at vLLM start is below gpu_memory_utilization x the card",
            "profile": "vLLM's memory profiling saw free memory rise: another process released memory meanwhile",
        }
        fix.append("See verl's performance-tuning guide for the memory knobs: " + SOURCES["verl"])
        return Finding(
            titles[kind], f"{link.short_type}: " + "; ".join(advice) + ".", tuple(fix), (*evidence(link), *logged),
            (*({"startup": STARTUP_SOURCES, "profile": PROFILING_SOURCES}.get(kind) or (SOURCES[kind],)), *((SOURCES["kv0"],) if kind == "kv" else ()),
             SOURCES["verl"], *(PLAN_SOURCES if planned else ()),
             *((NEW_WORDING,) if kind == "alloc" and TOTAL_OF.search(link.message) else ()),
             *((WORKSPACE_SOURCE,) if kind == "alloc" and WORKSPACE.search(link.message) else ()),
             *((FRACTION_SOURCE,) if kind == "alloc" and FRACTION_REJECTED.search(link.message) else ())),
            key=f"{kind}:{link.message[:60]}",
            kind={"alloc": "npu-oom", "kv": "kv-cache-no-memory" if no_kv else "kv-cache-below-max-model-len", "ray": "host-oom",
                  "startup": "npu-memory-occupied", "profile": "npu-memory-occupied"}[kind],
            notes=notes,
        )

    @staticmethod
    def _host(link: Link) -> Finding | None:
        """Host RAM: NumPy's array allocation (with its size, shape and dtype), torch_npu's pinned pool, a bare MemoryError."""
        if (pin := PINNED.search(link.message)) is not None:
            want, held = (int(g) / 1024**3 for g in pin.group(1, 3))
            note = (f"torch_npu could not get {want:.2f} GiB of pinned (page-locked) host memory; its pinned pool already "
                    f"held {held:.2f} GiB: the host (or the container's limit) ran out of RAM it can lock")
            return Finding(
                "Host RAM exhausted: torch_npu's pinned host memory pool could not grow",
                f"{link.short_type}: {note}. Pinned buffers serve tensor.pin_memory(), DataLoader(pin_memory=True) and the "
                "non-blocking host<->NPU copies of CPU offload; they stay cached in the pool after use.",
                ("Release the cached pinned blocks (torch_npu.npu.host_empty_cache(), as the message says) and pin less: "
                 "DataLoader pin_memory=False, fewer workers, smaller offload buffers",
                 "Or give the job more RAM (a larger container / Slurm --mem); free -g shows what the host has"),
                evidence(link), (PINNED_SOURCE,), key=f"host-pinned:{pin.group(1)}", family="memory", kind="host-oom",
                notes=(note,),
            )
        m = NP_ALLOC.search(link.message)
        if m is None and not (link.short_type in HOST_TYPES and link.message.strip() in ("", "std::bad_alloc")):
            return None
        size = gib(m, 1) if m is not None and m.group(1) else None
        if m is None:
            what = "Python could not allocate host memory (MemoryError)"
        else:
            amount = f"{m.group(1)} {m.group(2)} for " if size is not None else ""
            what = f"NumPy could not allocate {amount}an array of shape {m.group(3)} ({m.group(4)})"
        if size is not None and size >= HOST_ABSURD_GIB:
            note = (f"{what}: more than any host's RAM, so the shape itself is wrong (a length, vocabulary or batch "
                    "dimension computed from a bad value), not a memory shortage")
            return Finding(
                "Impossible host allocation: an array shape computed wrong", f"{link.short_type}: {note}.",
                ("Print the dimensions that build this shape where the array is created; one of them is garbage (an "
                 "overflowed or uninitialised value, a token count used as a size)",),
                evidence(link), HOST_SOURCES, key=f"host-absurd:{m.group(3)}", family="memory",
                kind="corrupted-allocation-size", notes=(note,),
            )
        note = f"{what}: the host (or the container's / Ray's memory limit) ran out of RAM"
        return Finding(
            "Host RAM exhausted: " + ("NumPy could not allocate an array" if m is not None else "MemoryError"),
            f"{link.short_type}: {note}. The process asked the host for more memory than was left: the data, rewards or "
            "weights held in host RAM (per worker, per rank) add up past the machine's or the container's limit.",
            ("Hold less in host RAM at once: process the data in chunks or memory-mapped (np.load(mmap_mode='r'), datasets / "
             "pyarrow), fewer DataLoader / Ray workers per node (data.dataloader_num_workers), no CPU offload of weights or "
             "optimizer on a small host",
             "Or give the job more RAM (a larger container / Slurm --mem); free -g and dmesg -T | grep -i oom show the limit hit"),
            evidence(link), HOST_SOURCES, key=f"host:{link.message[:60]}", family="memory", kind="host-oom",
            notes=(note,),
        )

    @staticmethod
    def _impossible(link: Link) -> Finding:
        return Finding(
            "Impossible allocation size (an exabyte or more): a corrupted size, not a memory shortage",
            f"{link.short_type}: {link.message[:160]}. No device has that much memory, so this is not a real shortage: the "
            "size was computed from corrupted values. Either ranks ran collectives out of step (one rank in another "
            "all_gather / broadcast, often because ranks have different numbers of batches, or object collectives "
            "exchanged mismatched size metadata), or a kernel wrote out of bounds over a tensor whose values feed a shape.",
            ("Make every rank run the same collectives in the same order: equal batch counts per rank (drop_last, same "
             "dataloader length), no rank-dependent branch around all_gather_object / broadcast_object_list",
             "If it happens on one rank or right after a custom (Triton / AscendC) kernel: rerun with ASCEND_LAUNCH_BLOCKING=1, "
             "check the tensors that feed the size for garbage values, and compare with the framework's own op"),
            evidence(link), (ONE_EB_CHECK, "https://github.com/flashserve/flash-linear-attention-npu/issues/149"),
            key=f"impossible:{link.message[:60]}", kind="corrupted-allocation-size",
            notes=("the requested size is an exabyte or more: a corrupted size (collectives out of step across ranks, or an "
                   "out-of-bounds write), not a memory shortage; lowering batch sizes will not help",),
        )



# Shared memory (/dev/shm, a tmpfs a container gets 64 MB of by default) too small for what is put there: Ray's object
# store refusing to start (ray/_private/services.py), torch's DataLoader workers dying of SIGBUS (torch/csrc/DataLoader.cpp).
SHM_SHORT = lazy(
    r"exceeds /dev/shm size|exceeds the capacity of /dev/shm|/dev/shm has only \d+ bytes|out of shared memory|insufficient shared memory"
    r"|raise your shared memory limit",
    re.I,
)
SHM_SOURCES = ("https://github.com/ray-project/ray/blob/ray-2.9.0/python/ray/_private/services.py",
               "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/csrc/DataLoader.cpp")


class SharedMemory(Analyzer):
    id = "DRV-shm"
    title = "Shared memory (/dev/shm) too small"
    family = "memory"
    stops_run = "the object store or the data loader cannot start without the shared memory it asks for"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        m = SHM_SHORT.search(" ".join([link.message, *link.detail]))
        if m is None:
            return None
        ray = "/dev/shm" in m.group(0)
        who = "Ray's object store" if ray else "torch DataLoader workers"
        return Finding(
            f"Shared memory (/dev/shm) too small for {who}",
            f"{link.short_type}: {link.message[:200]}. /dev/shm is smaller than what {who} put there — usually a container "
            "started with Docker's default 64 MB --shm-size.",
            ("Start the container with a larger /dev/shm: docker run --shm-size=64g (or --ipc=host); on Kubernetes mount an "
             "emptyDir with medium: Memory at /dev/shm",
             "Or ask for less: ray_init object_store_memory below the /dev/shm size (RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1 "
             "runs the store from disk, slower)" if ray
             else "Or ask for less: fewer DataLoader workers (num_workers) or smaller batches per worker"),
            evidence(link), SHM_SOURCES, key=f"shm:{who}", family="memory", kind="shm-too-small",
        )
