"""Readings added by helper k54sgl (2026-12-07) for SGLang as verl's rollout engine on Ascend NPUs, confirmed in
sgl-kernel-npu's torch_memory_saver and verl's SGLang rollout source. Each test input is a short excerpt around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5760: the NPU torch_memory_saver's "[torch_memory_saver.cpp] aclrtMallocPhysical failed" (HBM exhausted while
  SGLang allocates or resumes a pauseable region) and the CUDA build's "CUresult error: 2 (out of memory)"; before,
  silent.
- ARL-E5761: torch_memory_saver refusing expandable_segments:True in PYTORCH_CUDA_ALLOC_CONF; before, unknown.
- verl's SGLang / TensorRT-LLM rollout accepting only quantization=fp8: written here as ARL-E5762 and, independently, by
  k54verl as ARL-E5813 (every rollout's quantization refusal); merged into E5813 at review; before, a similar-log guess
  (vLLM's NPU quantization entry).
- ARL-E5763: verl's MTP rollout needing sglang >= 0.5.6; before, unknown.
- verl's rollouts refusing pipeline_model_parallel_size > 1: written here as ARL-E5764 and by k54verl as ARL-E5800, the
  same check; merged into E5800 at review (its regex takes the name with or without quotes, as this one's did).
- ARL-E5765: SGLang's "torch_npu is required when run on npu device." (a wrapper of torch_npu's import error: generic,
  so a chained cause an entry names, such as ARL-E300's missing libhccl.so, ranks first); before, unknown.
- ARL-E5766: CANN FusedInferAttentionScore refusing the paged KV block size ("In NO_QUANT situation, block_size should
  aligned to 16, but got 1."; SGLang page_size 1 on NPU); before, the derived tiling-failure reading.
- Widened: ARL-E222 reads verl's SGLang "max_model_len (N) should be less than or equal to max_position_embeddings (M)";
  ARL-E4889 reads verl's "Server process terminated unexpectedly during startup".
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'
SGL = '  File "/workspace/verl/verl/workers/rollout/sglang_rollout/async_sglang_server.py", line 293, in launch_server\n'
RAY = "(WorkerDict pid=52011, ip=10.0.0.1) "


# ARL-E5760 -----------------------------------------------------------------------------------------------------------

def test_npu_memory_saver_physical_alloc_failure_is_e5760():
    line = ("[torch_memory_saver.cpp] aclrtMallocPhysical failed file=/sgl-kernel-npu/contrib/torch_memory_saver/csrc/"
            "utils.h func=cann_mem_create line=37")
    assert _id(line + "\n") == "ARL-E5760"
    assert _id(RAY + line + "\n" + RAY + "[2026-03-02 11:20:43] Received sigquit from a child process. It usually "
               "means the child failed.\n") == "ARL-E5760"


def test_cuda_memory_saver_out_of_memory_is_e5760():
    for line in (
        "(SGLangHttpServer pid=250977) [torch_memory_saver.cpp] CUresult error: 2 (out of memory)  file=csrc/utils.h "
        "func=cu_mem_create line=194",
        "[torch_memory_saver.cpp] cu_mem_create has CUDA_ERROR_OUT_OF_MEMORY",
    ):
        assert _id(line + "\n") == "ARL-E5760", line


def test_other_memory_saver_check_is_not_e5760():
    line = "[torch_memory_saver.cpp] tag should not be null file=csrc/entrypoint.cpp func=tms_pause line=99"
    assert _id(line + "\n") != "ARL-E5760"
    assert _id("aclrtMallocPhysical failed, ret=207001\n") != "ARL-E5760"
    line = ("[torch_memory_saver.cpp] CUresult error: 1 (invalid argument)  file=csrc/core.cpp func=malloc line=80")
    assert _id(line + "\n") != "ARL-E5760"


# ARL-E5761 -----------------------------------------------------------------------------------------------------------

def test_memory_saver_refusing_expandable_segments_is_e5761():
    text = TB + ("RuntimeError: TorchMemorySaver is disabled for the current process because expandable_segments is "
                 "not supported yet.\n")
    assert _id(text) == "ARL-E5761"


def test_vllm_ascend_expandable_segments_assert_is_not_e5761():
    text = TB + "AssertionError: Expandable segments are not compatible with memory pool. Please track https://x\n"
    assert _id(text) != "ARL-E5761"


# ARL-E5813 (was ARL-E5762) -----------------------------------------------------------------------------------------

def test_sglang_rollout_non_fp8_quantization_is_e5813():
    for method in ("w8a8_int8", "modelslim", "awq", "torchao"):
        text = TB + SGL + f"ValueError: Currently only support fp8 quantization, got: {method}\n"
        assert _id(text) == "ARL-E5813", method


def test_vllm_npu_quantization_refusal_is_not_e5813():
    text = TB + "ValueError: awq quantization is currently not supported in npu.\n"
    assert _id(text) == "ARL-E1564"


# ARL-E5763 -----------------------------------------------------------------------------------------------------------

def test_mtp_rollout_on_old_sglang_is_e5763():
    for version in ("0.5.2", "0.5.4.post3", "0.5.5rc1"):
        text = TB + SGL + f"ValueError: sglang version {version} is not supported for MTP rollout\n"
        assert _id(text) == "ARL-E5763", version


def test_other_version_refusal_is_not_e5763():
    assert _id(TB + "ValueError: vllm version 0.6.3 not supported and SGLang also not Found\n") != "ARL-E5763"


# ARL-E5800 (was ARL-E5764) -----------------------------------------------------------------------------------------

def test_rollout_pipeline_parallel_is_e5800():
    for name in ("sglang", "vllm", "trtllm"):
        text = TB + (f"NotImplementedError: Current rollout self.name='{name}' not implemented "
                     "pipeline_model_parallel_size > 1 yet.\n")
        assert _id(text) == "ARL-E5800", name


def test_other_pipeline_message_is_not_e5800():
    text = TB + "AssertionError: expert_parallel_size must be equal to tensor_model_parallel_size * data_parallel_size\n"
    assert _id(text) != "ARL-E5800"


# Widened: ARL-E222, ARL-E4889 ----------------------------------------------------------------------------------------

def test_sglang_rollout_max_model_len_over_positions_is_e222():
    text = TB + ("ValueError: max_model_len (40960) should be less than or equal to max_position_embeddings (32768)\n")
    assert _id(text) == "ARL-E222"


def test_prompt_over_context_is_not_e222():
    text = TB + "ValueError: Prompt length (9000) exceeds the model's maximum context length (8192).\n"
    assert _id(text) != "ARL-E222"


def test_verl_sglang_server_died_at_startup_is_e4889_and_ranks_below_cause():
    wrapper = ('  File "/workspace/verl/verl/workers/rollout/sglang_rollout/http_server_engine.py", line 154, in '
               "launch_server_process\nRuntimeError: Server process terminated unexpectedly during startup\n")
    assert _id(TB + wrapper) == "ARL-E4889"
    cause = ("[torch_memory_saver.cpp] aclrtMallocPhysical failed file=/sgl-kernel-npu/contrib/torch_memory_saver/"
             "csrc/utils.h func=cann_mem_create line=37\n")
    assert _id(cause + TB + wrapper) == "ARL-E5760"


# ARL-E5765 -----------------------------------------------------------------------------------------------------------

SGL_UTILS = ('  File "/usr/local/lib/python3.11/site-packages/sglang/srt/utils.py", line 1513, in get_npu_memory_capacity\n'
             '    raise ImportError("torch_npu is required when run on npu device.")\n')


def test_sglang_without_torch_npu_is_e5765():
    assert _id(TB + SGL_UTILS + "ImportError: torch_npu is required when run on npu device.\n") == "ARL-E5765"


def test_cann_not_sourced_under_the_sglang_wrapper_ranks_first():
    text = (TB + '  File "/usr/local/lib/python3.11/site-packages/torch_npu/__init__.py", line 40, in <module>\n'
            "ImportError: libhccl.so: cannot open shared object file: No such file or directory\n\n"
            "During handling of the above exception, another exception occurred:\n\n"
            + TB + SGL_UTILS + "ImportError: torch_npu is required when run on npu device.\n")
    assert _id(text) == "ARL-E300"


def test_other_torch_requirement_is_not_e5765():
    assert _id(TB + "ImportError: torch_npu is required for the hccl backend.\n") != "ARL-E5765"


# ARL-E5766 -----------------------------------------------------------------------------------------------------------

FIA = ("RuntimeError: npu_fused_infer_attention_score_v2_symint:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:95 "
       "NPU function error: call aclnnFusedInferAttentionScoreV4 failed, error code is 561002\n"
       "[ERROR] 2026-05-13-10:11:12 (PID:4242, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\n"
       "EZ9999: Inner Error!\n")


def test_fia_block_size_refusals_are_e5766():
    for line in (
        "EZ9999: [PID: 4242] 2026-05-13-10:11:12.531.778 In NO_QUANT situation, block_size should aligned to 16, but "
        "got 1.[FUNC:CheckFeatureBlockSize][FILE:fused_infer_attention_score_tiling_check_feature.cpp][LINE:73]",
        "        In ANTI_QUANT situation, block_size should aligned to 16, but got 8.",
        "        In NO_QUANT situation, block_size should less equal than 1024, but got 2048.",
    ):
        assert _id(TB + FIA + line + "\n        FusedInferAttentionScore do tiling failed, ret is -1.\n") == "ARL-E5766", line


def test_other_fia_tiling_check_is_not_e5766():
    line = "        In NO_QUANT situation, query dtype only support DT_BF16 and DT_FLOAT16, but got DT_FLOAT\n"
    assert _id(TB + FIA + line + "        FusedInferAttentionScore do tiling failed, ret is -1.\n") != "ARL-E5766"
