"""Helper k44op (2026-12-05), operator / dtype / memory / nz families.

- torch_npu's memory wordings DRV-memory did not read: the "A allowed;" size either caching allocator prints under a
  per-process memory fraction (the cap, not the card, stopped the allocation when reserved + request passes it), the
  operator-workspace pool ("NPUWorkspaceAllocator tried to allocate X(NPU n; T total capacity; F free)"), the refusal
  at the fraction before the device is asked (throw_on_npumalloc_oom), and the pinned host pool ("Malloc pin memory
  failed, host out of memory, Rried to allocate size: …", bytes): host RAM, not the card.
- vLLM's / vllm-ascend's profiling check (ARL-E209's "Error in memory profiling. Initial free memory B, current free
  memory A", bytes up to vllm-ascend 0.13 and vLLM V0, GiB later) is read for what another process gave back while vLLM
  profiled (npu-memory-occupied: the card is shared).
- Triton's OutOfResources ("out of resource: <shared memory|threads|tensor memory>, Required: R, Hardware limit: L", the
  2.0 wording without the "Reducing block sizes" tail too) is read by DRV-triton-resources: which resource, both
  numbers, how far past the limit, the knob (num_stages / BLOCK_* for shared memory, num_warps for threads). With
  ARL-E2941 the numbers are its notes; without it the analyzer names the class itself. On an NPU that check never
  fires (triton-ascend's driver reports max_shared_mem 1 as a placeholder and sets every kernel's shared size to 1): the
  NPU's limit is BiShengIR's "ub overflow, requires R bits while L bits available", read the same way (bytes, how far
  past the Unified Buffer, the BLOCK_SIZE factor) when the diagnostic sits in the MLIRCompilationError's message.
"""

from __future__ import annotations

import dataclasses

from ascendrl.catalog import load_catalog
from kdata_helpers import classify

CATALOG = load_catalog()


def _without(*ids: str):
    return dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id not in ids))


def _top(text: str, catalog=CATALOG):
    result = classify(catalog, text, "paste.log")
    diagnoses = result.diagnoses
    return diagnoses[0] if diagnoses else None


def _text(d) -> str:
    return " ".join([d.entry.title, d.entry.cause, *d.entry.fix, *d.notes])


TRACE = 'Traceback (most recent call last):\n  File "/home/user/train.py", line 88, in <module>\n    loss = model(batch).loss\n'

# ---- the per-process cap ("A allowed;") ------------------------------------------------------------------------------

NPU_CAPPED = TRACE + (
    "torch.OutOfMemoryError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 28.10 GiB "
    "already allocated; 28.10 GiB current active; 30.00 GiB free; 30.48 GiB allowed; 29.00 GiB reserved in total by "
    "PyTorch).If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.\n"
)
# torch >= 2.1's wording: "allowed; " comes after the process line, before "Of the allocated memory".
CUDA_CAPPED = TRACE + (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.15 GiB of "
    "which 41.20 GiB is free. Including non-PyTorch memory, this process has 37.90 GiB memory in use. 39.58 GiB allowed; "
    "Of the allocated memory 35.10 GiB is allocated by PyTorch, and 2.10 GiB is reserved by PyTorch but unallocated. If "
    "reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid "
    "fragmentation.\n"
)


def test_the_npu_cap_is_read_from_allowed():
    top = _top(NPU_CAPPED)
    assert (top.entry.id, top.kind) == ("ARL-E204", "npu-oom")
    text = _text(top)
    assert "may use at most 30.48 GiB" in text and "reserved 29.00 GiB and asked for 2.00 GiB more" in text
    assert "set_per_process_memory_fraction" in text
    # Not the fragmentation reading the same free-versus-request numbers gave before.
    assert "memory is fragmented" not in " ".join(top.notes)


def test_the_later_wording_carries_the_same_cap():
    top = _top(CUDA_CAPPED, _without("ARL-E204", "ARL-E001", "ARL-E002"))
    assert top.kind == "npu-oom"
    text = _text(top)
    # The reserved figures come after "allowed" and a paste (or the 300-character link) often cuts them: the process's
    # own use, printed before it, is what is compared then.
    assert "may use at most 39.58 GiB" in text and "had in use 37.90 GiB and asked for 4.00 GiB more" in text


def test_a_cap_with_room_left_is_not_blamed():
    roomy = NPU_CAPPED.replace("30.48 GiB allowed", "50.00 GiB allowed")
    top = _top(roomy)
    assert "may use at most" not in _text(top)
    assert "the request fits the free total" in _text(top)


FRACTION_REJECTED = TRACE + (
    "torch.OutOfMemoryError: NPU out of memory. Allocation was preemptively rejected because it would exceed "
    "per_process_memory_fraction limit. Requested size: 512.00 MiB\n"
)


def test_the_refusal_at_the_fraction_names_the_cap():
    top = _top(FRACTION_REJECTED, _without("ARL-E204"))
    assert (top.entry.id, top.kind) == ("DRV-memory", "npu-oom")
    text = _text(top)
    assert "refused a 0.50 GiB block before asking the device" in text and "throw_on_npumalloc_oom" in text


# ---- the operator-workspace pool -------------------------------------------------------------------------------------

WORKSPACE = TRACE + (
    "RuntimeError: NPU out of memory. NPUWorkspaceAllocator tried to allocate 3.50 GiB(NPU 0; 60.96 GiB total capacity; "
    "1.25 GiB free). If you want to reduce memory usage, take a try to set the environment variable TASK_QUEUE_ENABLE=1.\n"
)


def test_the_workspace_pool_reads_its_numbers():
    top = _top(WORKSPACE)
    assert (top.entry.id, top.kind) == ("ARL-E204", "npu-oom")
    text = " ".join(top.notes)
    assert "NPUWorkspaceAllocator, the pool for operators' scratch workspace" in text
    assert "needed 3.50 GiB more with 1.25 GiB free of 60.96 GiB: short by 2.25 GiB" in text


# ---- the pinned host pool --------------------------------------------------------------------------------------------

PINNED = TRACE + (
    "RuntimeError: Malloc pin memory failed, host out of memory, Rried to allocate size: 1073741824, "
    "total_allocated_memory: 214748364800, total_reserved_memory: 236223201280. You might be able to retry after freeing "
    "up memory using torch_npu.npu.host_empty_cache().\n"
)


def test_the_pinned_pool_is_host_memory():
    top = _top(PINNED)
    assert (top.entry.id, top.kind) == ("DRV-memory", "host-oom")
    text = _text(top)
    assert "could not get 1.00 GiB of pinned (page-locked) host memory" in text and "already held 220.00 GiB" in text
    assert "host_empty_cache" in text


# ---- Triton's OutOfResources -----------------------------------------------------------------------------------------

SHARED = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 232448, Hardware limit: 101376. "
          "Reducing block sizes or `num_stages` may help.\n")
# Triton 2.0's wording: no "Reducing block sizes" tail.
SHARED_20 = "triton.runtime.autotuner.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536\n"
THREADS = ("triton.runtime.errors.OutOfResources: out of resource: threads, Required: 1024, Hardware limit: 768. "
           "Reducing block sizes or `num_stages` may help.\n")
TMEM = ("triton.runtime.errors.OutOfResources: out of resource: tensor memory, Required: 640, Hardware limit: 512. "
        "Reducing block sizes or `num_stages` may help.\n")


def test_shared_memory_without_its_entry_is_read_from_the_numbers():
    for text, need, ratio in ((SHARED, "232448 bytes (227 KiB)", "2.3x the 101376 bytes (99 KiB)"),
                              (SHARED_20, "98304 bytes (96 KiB)", "1.5x the 65536 bytes (64 KiB)")):
        top = _top(text, _without("ARL-E2941"))
        assert (top.entry.id, top.kind) == ("DRV-triton-resources", "triton-shared-memory-exceeded"), text
        assert need in top.entry.cause and ratio in top.entry.cause
        assert any("num_stages" in step for step in top.entry.fix)


def test_the_entry_keeps_the_numbers_as_notes():
    top = _top(SHARED)
    assert (top.entry.id, top.kind) == ("ARL-E2941", "triton-shared-memory-exceeded")
    assert any("2.3x the 101376 bytes" in n for n in top.notes)


def test_threads_and_tensor_memory_are_their_own_resources():
    top = _top(THREADS)
    assert (top.entry.id, top.kind) == ("DRV-triton-resources", "triton-out-of-resources")
    assert "1024 threads per block" in top.entry.cause and any("num_warps" in s for s in top.entry.fix)
    top = _top(TMEM, _without("ARL-E2941"))
    assert top.entry.id == "DRV-triton-resources" and "640 columns of tensor memory, the device has 512" in top.entry.cause


def test_other_out_of_resource_words_are_not_read():
    # A CUDA launch refusal is not Triton's check (no Required / Hardware limit numbers).
    top = _top("RuntimeError: CUDA error: too many resources requested for launch\n")
    assert top is None or top.entry.id != "DRV-triton-resources"


# ---- vLLM's profiling check (ARL-E209) -------------------------------------------------------------------------------

PROFILE_BYTES = ("AssertionError: Error in memory profiling. Initial free memory 30064771072, current free memory 32212254720. "
                 "This happens when the NPU memory was not properly cleaned up before initializing the vLLM instance.\n")
PROFILE_GIB = ("(EngineCore_DP0 pid=4242) AssertionError: Error in memory profiling. Initial free memory 41.37109375 GiB, "
               "current free memory 43.12109375 GiB. This happens when other processes sharing the same container release "
               "GPU memory while vLLM is profiling during initialization. To fix this, ensure consistent GPU memory "
               "allocation or isolate vLLM in its own container.\n")


def test_the_profiling_check_reads_what_came_back():
    top = _top(PROFILE_BYTES, _without("ARL-E209"))
    assert (top.entry.id, top.kind) == ("DRV-memory", "npu-memory-occupied")
    assert "free memory rose by 2.00 GiB (28.00 -> 30.00 GiB)" in top.entry.cause
    top = _top(PROFILE_GIB)
    assert top.entry.id == "ARL-E209"
    assert any("free memory rose by 1.75 GiB (41.37 -> 43.12 GiB)" in n for n in top.notes)
    same = _top(PROFILE_GIB.replace("43.12109375", "41.37109375"), _without("ARL-E209"))
    assert "free memory did not go down (41.37 GiB before and after" in same.entry.cause


# ---- the NPU's limit: BiShengIR's ub overflow ------------------------------------------------------------------------

UB = (TRACE + "triton.compiler.errors.MLIRCompilationError: ///------------------[ERROR][Triton][BEG]------------------ "
      "[ConvertLinalgRToBinary] encounters error: loc(\"/tmp/tmpabc/kernel.ttadapter.mlir\":2:3): error: ub overflow, "
      "requires 1966848 bits while 1572864 bits avaliable!\n")


def test_ub_overflow_reads_the_unified_buffer_numbers():
    top = _top(UB)
    assert top.entry.id == "ARL-E231"
    assert any("245856 bytes (240 KiB) of the AI Core's Unified Buffer, 1.3x the 196608 bytes (192 KiB)" in n
               for n in top.notes)
    alone = _top(UB, _without("ARL-E231", "ARL-E403"))
    assert (alone.entry.id, alone.kind) == ("DRV-triton-resources", "triton-kernel-compile-failed")
    assert "power-of-two sizes: 2x" in " ".join(alone.entry.fix)
