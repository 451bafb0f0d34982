"""Readings added by helper k57mem (2026-12-07) for device and host memory as a verl GRPO run on Ascend meets it,
confirmed in the emitting source (torch_npu at v2.1.0-6.0.0 / v7.3.0-pytorch2.7.1, vllm-ascend v0.9.1 / v0.10.0rc1 /
v0.11.0, vLLM's vllm/config/cache.py, Linux mm/oom_kill.c, bash jobs.c). Each test input is a short excerpt around the
exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E6080: vLLM's / vllm-ascend's warm-up of the sampler or pooler with max_num_seqs dummy requests ran out of device
  memory ("CUDA|NPU out of memory occurred when warming up sampler|pooler ..."); before, the derived npu-oom reading
  without the max_num_seqs fix.
- ARL-E6081: vllm-ascend's warning after ACL graph capture ("Post graph compilation, the available memory on each NPU is
  reduced to merely N GB"), not fatal; before, nothing.
- ARL-E6082: torch_npu turning expandable_segments off when the runtime cannot reserve virtual memory
  ("expandable_segments setting failure, now change to `False`."), not fatal; before, nothing.
- ARL-E6083: torch_npu's page_size:1g fallbacks ("The application for 1G large-page physical memory failed." / "The
  malloc 1G large-page physical memory failed, so malloc 2M page memory"), not fatal; before, nothing.
- ARL-E6084: torch_npu's "Get a block from the existing pool failed. ... This error log can be ignored." (an ERROR-level
  log of a retry that usually succeeds), not fatal; before, nothing.
- ARL-E6085: set_per_process_memory_fraction refusing its argument ("Invalid fraction value: X. Allowed range: 0~1" /
  "Invalid type for fraction argument, must be `float`"); before, nothing.
- ARL-E6086: vLLM's swap-space check ("Too large swap space. X GiB out of the Y GiB total CPU memory ...", fatal; its
  "Possibly too large swap space." warning, not fatal); before, nothing.
- ARL-E020 widened: the kernel's "<comm> invoked oom-killer: gfp_mask=0x..." header and "oom_reaper: reaped process N
  (comm)"; before, nothing.
- ARL-E932 widened: vllm-ascend's CaMem "aclrtReserveMemAddress failed with acl error code: 207001(OOM: ...)"; before,
  the derived 207001 code reading.
- ARL-E4366 widened: bash's "<script>: line N: PID Killed   <command>"; before, the derived process-killed reading.
- ARL-E204 widened: torch_npu's "NPU out of memory. device id: N" (NpuUtils::IsOomError); before, the derived npu-oom
  reading.
- ARL-E015 widened: torch's "unable to allocate shared memory(shm) for file </torch_...>" (a /dev/shm too small for the
  DataLoader's shared tensors); before, nothing.
- ARL-E117 widened: Ray's "Worker exit type: NODE_OUT_OF_MEMORY" in a dead worker's / actor's death cause; before, the
  generic ActorDiedError entry (ARL-E111) or nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/home/user/verl/verl/trainer/main_ppo.py\", line 65, in run_ppo\n"
STEPS = "(TaskRunner pid=1) step:1 - actor/pg_loss:0.02\n"
AFTER = "(TaskRunner pid=1) step:2 - actor/pg_loss:0.01\n"


def _warning_id(line: str) -> str | None:
    """The top id of a line between two training steps, checked to be a warning the run survived (not fatal)."""
    found = first(CATALOG, STEPS + line + "\n" + AFTER)
    assert found is None or not found.fatal, line
    return found.entry.id if found is not None else None


# ARL-E6080 -----------------------------------------------------------------------------------------------------------

def test_sampler_or_pooler_warmup_oom_is_e6080():
    for line in (
        "RuntimeError: CUDA out of memory occurred when warming up sampler with 1024 dummy requests. Please try "
        "lowering `max_num_seqs` or `gpu_memory_utilization` when initializing the engine.",
        "RuntimeError: NPU out of memory occurred when warming up pooler with 256 dummy requests. Please try lowering "
        "`max_num_seqs` or `gpu_memory_utilization` when initializing the engine.",
        "RuntimeError: CUDA out of memory occurred when warming up pooler (task='embed') with 256 dummy requests.",
    ):
        assert _id(TB + line + "\n") == "ARL-E6080", line


def test_plain_allocator_oom_is_not_e6080():
    line = ("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
            "40.10 GiB already allocated; 40.10 GiB current active; 1.02 GiB free; 58.00 GiB reserved in total by PyTorch)")
    assert _id(TB + line + "\n") not in (None, "ARL-E6080")


# ARL-E6081 -----------------------------------------------------------------------------------------------------------

WARN_E6081 = ("WARNING 06-12 14:03:22 [model_runner_v1.py:2200] Post graph compilation, the available memory on each NPU "
              "is reduced to merely 1.84 GB. During inference operations, subsequent memory allocations may potentially "
              "trigger Out-of-Memory(OOM) conditions.")


def test_low_memory_after_graph_capture_is_e6081_and_not_fatal():
    assert _warning_id(WARN_E6081) == "ARL-E6081"


def test_graph_capture_finished_is_not_e6081():
    line = "INFO 06-12 14:03:22 [model_runner_v1.py:2206] Graph capturing finished in 42 secs, took 0.61 GiB"
    assert _id(STEPS + line + "\n" + AFTER) != "ARL-E6081"


# ARL-E6082 -----------------------------------------------------------------------------------------------------------

def test_expandable_segments_fallback_is_e6082_and_not_fatal():
    line = "[W compiler_depend.ts:733] Warning: expandable_segments setting failure, now change to `False`. (function operator())"
    assert _warning_id(line) == "ARL-E6082"


def test_expandable_segments_parse_error_is_not_e6082():
    line = "RuntimeError: Expected a single True/False argument for expandable_segments"
    assert _id(TB + line + "\n") not in (None, "ARL-E6082")


# ARL-E6083 -----------------------------------------------------------------------------------------------------------

def test_page_size_1g_fallbacks_are_e6083():
    for line in (
        "[W compiler_depend.ts:166] Warning: The application for 1G large-page physical memory failed. Using the "
        "HUGE_MEM memory page allocation method may result in performance degradation.",
        "[W compiler_depend.ts:511] Warning: The malloc 1G large-page physical memory failed, so malloc 2M page "
        "memory.Using the 2M memory page may result in performance degradation.",
    ):
        assert _warning_id(line) == "ARL-E6083", line


def test_page_size_format_error_is_not_e6083():
    line = "RuntimeError: page_size requires format 'page_size:1g'"
    assert _id(TB + line + "\n") not in (None, "ARL-E6083")


# ARL-E6084 -----------------------------------------------------------------------------------------------------------

def test_get_block_retry_log_is_e6084_and_not_fatal():
    line = ("[ERROR] PYTORCH(7340,python):2026-10-02-17:41:09.512.338 [NPUCachingAllocator.cpp:1578]7340 Get a block "
            "from the existing pool failed. Try to free cached blocks and reallocate. This error log can be ignored.")
    assert _warning_id(line) == "ARL-E6084"


def test_oom_after_the_retry_log_is_not_e6084():
    text = (STEPS + "Get a block from the existing pool failed. Try to free cached blocks and reallocate. This error "
            "log can be ignored.\n" + TB + "RuntimeError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 0; 60.97 GiB "
            "total capacity; 50.10 GiB already allocated; 50.10 GiB current active; 0.50 GiB free; 58.00 GiB reserved "
            "in total by PyTorch)\n")
    assert _id(text) == "ARL-E204"


# ARL-E6085 -----------------------------------------------------------------------------------------------------------

def test_refused_memory_fraction_is_e6085():
    for line in (
        "ValueError: Invalid fraction value: 1.5. Allowed range: 0~1",
        "TypeError: Invalid type for fraction argument, must be `float`",
    ):
        assert _id(TB + line + "\n") == "ARL-E6085", line


def test_mps_fraction_range_is_not_e6085():
    # torch.mps allows up to 2: another device's check, not the NPU / CUDA caching allocator's
    line = "ValueError: Invalid fraction value: 2.5. Allowed range: 0~2"
    assert _id(TB + line + "\n") != "ARL-E6085"


# ARL-E6086 -----------------------------------------------------------------------------------------------------------

def test_too_large_swap_space_is_e6086():
    line = ("ValueError: Too large swap space. 32.00 GiB out of the 31.26 GiB total CPU memory is allocated for the "
            "swap space.")
    assert _id(TB + line + "\n") == "ARL-E6086"


def test_possibly_too_large_swap_space_is_a_warning():
    line = ("WARNING 03-18 21:40:05 [cache.py:200] Possibly too large swap space. 16.00 GiB out of the 31.26 GiB total "
            "CPU memory is allocated for the swap space.")
    assert _warning_id(line) == "ARL-E6086"


def test_lack_of_swap_space_at_runtime_is_not_e6086():
    line = "WARNING 05-02 10:11:12 scheduler.py:1560] Sequence group 12 is preempted. Aborted due to the lack of CPU swap space."
    assert _id(STEPS + line + "\n") != "ARL-E6086"


# ARL-E020 widened ----------------------------------------------------------------------------------------------------

def test_kernel_oom_killer_header_and_reaper_are_e020():
    for line in (
        "[Tue Nov 18 03:12:44 2026] python3 invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, "
        "oom_score_adj=0",
        "[  123.999] oom_reaper: reaped process 220331 (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB",
    ):
        assert _id(STEPS + line + "\n") == "ARL-E020", line


def test_oom_killer_sysctl_setting_is_not_e020():
    line = "vm.oom_kill_allocating_task = 0"
    assert _id(STEPS + line + "\n" + AFTER) != "ARL-E020"


# ARL-E932 widened ----------------------------------------------------------------------------------------------------

def test_camem_reserve_address_oom_is_e932():
    line = ("RuntimeError: aclrtReserveMemAddress failed with acl error code: 207001(OOM: Out of Memory, allocation "
            "failed) /vllm-workspace/vllm-ascend/csrc/camem_allocator.cpp:157")
    assert _id(TB + line + "\n") == "ARL-E932"


def test_camem_reserve_address_other_code_is_not_e932():
    line = ("RuntimeError: aclrtReserveMemAddress failed with acl error code: 107000 "
            "/vllm-workspace/vllm-ascend/csrc/camem_allocator.cpp:161")
    assert _id(TB + line + "\n") != "ARL-E932"


# ARL-E4366 widened ---------------------------------------------------------------------------------------------------

def test_bash_reports_command_killed_is_e4366():
    line = ("run_qwen2_5_7b_grpo_npu.sh: line 31: 88001 Killed                  python3 -m verl.trainer.main_ppo "
            "algorithm.adv_estimator=grpo")
    assert _id(STEPS + line + "\n") == "ARL-E4366"


def test_bash_reports_command_terminated_is_not_e4366():
    line = ("run_qwen2_5_7b_grpo_npu.sh: line 31: 88001 Terminated              python3 -m verl.trainer.main_ppo "
            "algorithm.adv_estimator=grpo")
    assert _id(STEPS + line + "\n") != "ARL-E4366"


# ARL-E204 widened ----------------------------------------------------------------------------------------------------

def test_npu_oom_with_device_id_is_e204():
    assert _id(TB + "RuntimeError: NPU out of memory. device id: 0\n") == "ARL-E204"


def test_device_id_banner_is_not_e204():
    line = "INFO: using NPU device id: 0"
    assert _id(STEPS + line + "\n" + AFTER) != "ARL-E204"


# ARL-E015 widened ----------------------------------------------------------------------------------------------------

def test_shm_fallocate_failure_is_e015():
    line = "RuntimeError: unable to allocate shared memory(shm) for file </torch_1140157_3143461634_13983>: Success (0)"
    assert _id(TB + line + "\n") == "ARL-E015"


def test_shm_mmap_failure_is_not_e015():
    line = "RuntimeError: unable to mmap 1048576 bytes from file </torch_1234_5678_0>: Cannot allocate memory (12)"
    assert _id(TB + line + "\n") != "ARL-E015"


# ARL-E117 widened ----------------------------------------------------------------------------------------------------

def test_node_out_of_memory_exit_type_is_e117():
    line = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task. Worker exit type: "
            "NODE_OUT_OF_MEMORY Worker exit detail: Task was killed by the memory monitor.")
    assert _id(STEPS + line + "\n") == "ARL-E117"


def test_system_error_exit_type_is_not_e117():
    line = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task. Worker exit type: "
            "SYSTEM_ERROR Worker exit detail: The leased worker has unrecoverable failure.")
    assert _id(STEPS + line + "\n") != "ARL-E117"
