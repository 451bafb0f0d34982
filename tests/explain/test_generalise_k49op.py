"""Readings added by helper k49op (2026-12-06) while probing public threads and the emitting projects' source for
operator, dtype and graph-mode failure classes explain did not name. Each test input is a short excerpt in our own
words around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4840: vllm-ascend's attention mask builder refusing a float32 model dtype (attention_mask.py
  get_mask_scale_factor / get_splitfuse_attn_mask, 0.10.1rc1-0.11.0rc0).
- ARL-E4841: vllm-ascend's ACL graph capture failure it names as an old HDK ("Alloc sq cq fail", acl_graph.py, 0.24+).
- ARL-E4842: vllm-ascend's NPU rope refusing per-token offsets (batched / long-context LoRA rope, rotary_embedding.py).
- ARL-E4843: vllm-ascend graph mode with sequence parallelism where no capture size is a multiple of tp_size
  (platform.py check_and_update_config).
- ARL-E4844: CANN's prompt / fused infer attention tiling refusing a head dim in TND layout
  (prompt_flash_attention_tiling.cpp CheckInputShapeWhenLayoutIsTND, and an earlier release's wording).
- ARL-E4845: vllm-ascend failing to resolve a Triton-Ascend op (triton_utils.py: triton-ascend missing, shadowed by
  upstream triton, or too old), both wordings.
- ARL-E4846: vllm-ascend 310P gated-delta-rule kernels refusing non-float16 q/k/v (_310p/ops/fla/chunk_gated_delta_rule.py).
- ARL-E1562 widened: the 0.23-era 310P fused MoE refusing expert parallelism ("Expert Parallel is not supported on 310P").
- ARL-E4847: torch_npu unable to create / open an inter-process NPU event (Event.cpp, AclInterface.cpp IsSupportIpcEvent):
  NPU tensors shared through torch.multiprocessing on an old HDK / CANN or a non-4K page kernel.
- ARL-E4848: SGLang's SafeUnpickler (CVE-2025-10164 fix) blocking a weight-update payload class (torch_npu's
  rebuild_npu_tensor before SGLang PR 14138, or a trainer's own rebuild function).
- ARL-E4849: torch_npu's fused optimizers (npu_fused_optim_base.py) refusing bfloat16 parameters.
- ARL-E338 widened: op-plugin's other "the installed CANN lacks the aclnn kernel this feature needs" checks
  (grouped matmul NZ weight / Tensor group_list, quant matmul A8W4 / NZ, matmul all-reduce comm_mode, FIA rope inputs,
  tuning_config, "… not found, please upgrade CANN").
- ARL-E135 widened: PyTorch's current dispatcher device-check wording ("but got X is on cpu, different from other
  tensors on npu:0"), cpu / accelerator pairs only.
- ARL-E4850: PyTorch refusing to promote a float8 tensor with another dtype (c10/core/ScalarType.cpp), FP8 data used
  in plain arithmetic.
- ARL-E4851: vllm-ascend TorchAir graph mode getting a decode batch beyond its largest compiled graph size
  (select_torchair_padded_batch_size / _get_torchair_lazy_compiled_model).
- ARL-E4852: vllm-ascend refusing MXFP (MXFP4 / MXFP8) MoE quantization off Ascend A5 (device_op.py, moe_mlp.py).
- ARL-E4853: torch_npu refusing an in-place as_strided view of a tensor in an internal (NZ) format (TensorShape.cpp).
- ARL-E335 widened: torch_npu's explicit CPU-fallback warning ("CPU fallback is allowed because
  TORCH_NPU_FALLBACK_CPU_DISABLE=0 …"), non-fatal.
- ARL-E392 widened: triton-ascend's _get_kernel_target refusing a chip it has no subtarget for
  ("NPU subtarget Ascend310P3 not supported yet").
- ARL-E4854: Triton's NullAllocator: a kernel needing runtime scratch memory launched with no triton.set_allocator in
  that process (verl fused kernels before 0.7, FLA / vLLM linear-attention kernels).
- ARL-E4855: MindSpeed context parallel (attention_mask_type general) refusing a mask that is not 2-D (mindspeed/utils.py).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4840 ---------------------------------------------------------------------------------------------------------

def test_vllm_ascend_mask_dtype_refusal_is_e4840():
    for text in (
        "ValueError: The current operation now only supports data types: torch.float16 and torch.bfloat16. "
        "Please ensure the input is of one of these types.\n",
        "(WorkerDict pid=32211) ValueError: splitfuse_attn_mask now only supports bf16 and fp16\n",
    ):
        assert _id(text) == "ARL-E4840", text


def test_bf16_unsupported_device_is_not_e4840():
    # A device without bf16 is another failure (ARL-E337 family), not a float32 rollout dtype.
    text = "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0.\n"
    assert _id(text) != "ARL-E4840"


# ARL-E4841 ---------------------------------------------------------------------------------------------------------

def test_aclgraph_old_hdk_is_e4841():
    text = ("RuntimeError: ACL graph capture failed with an old Ascend HDK/CANN stack signature (`Alloc sq cq fail`). "
            "Please upgrade Ascend HDK to 25.5.1 or later and use the matching CANN stack.\n")
    assert _id(text) == "ARL-E4841"


def test_aclgraph_stream_resource_wording_is_not_e4841():
    # The sibling message of the same wrapper: stream resources, not the driver.
    text = ("RuntimeError: ACL graph capture failed with a known stream-resource exhaustion signature. Consider reducing "
            "cudagraph_capture_sizes, lowering max_cudagraph_capture_size, preferring FULL or FULL_DECODE_ONLY for "
            "mostly uniform decode workloads, or temporarily disabling graph mode to confirm the failure is "
            "capture-related.\n")
    assert _id(text) not in (None, "ARL-E4841")


# ARL-E4842 ---------------------------------------------------------------------------------------------------------

def test_batched_rope_on_npu_is_e4842():
    for text in (
        "NotImplementedError: Batched rotary embedding is currently not supported on NPU.\n",
        "(WorkerDict pid=52110) NotImplementedError: Batched rotary embedding is currently not supported on NPU.\n",
    ):
        assert _id(text) == "ARL-E4842", text


def test_partial_rotary_is_not_e4842():
    text = ("RuntimeError: call aclnnRotaryPositionEmbedding failed, detail:EZ1001: x's shape dim 3 should be "
            "64 or 128\n")
    assert _id(text) != "ARL-E4842"


# ARL-E4843 ---------------------------------------------------------------------------------------------------------

def test_sp_capture_sizes_not_multiple_of_tp_is_e4843():
    for text in (
        "AssertionError: cudagraph_capture_sizes [1, 2, 6] does not containvalues that are multiples of tp_size 4\n",
        "AssertionError: cudagraph_capture_sizes [1, 2] does not contain values that are multiples of tp_size 8\n",
    ):
        assert _id(text) == "ARL-E4843", text


def test_mtp_capture_sizes_multiple_is_not_e4843():
    text = ("ValueError: In the MTP fullgraph scenario, each graph size must be an integer multiple of "
            "(num_speculative_tokens + 1): 2. Please modify the cudagraph_capture_sizes variable to be integer "
            "multiple of 2, while ensuring the maximum cudagraph_capture_sizes does not exceed max_num_seqs * "
            "(num_speculative_tokens + 1): 512.\n")
    assert _id(text) != "ARL-E4843"


# ARL-E4844 ---------------------------------------------------------------------------------------------------------

def test_tnd_head_dim_refusal_is_e4844():
    for text in (
        "RuntimeError: npu_fused_infer_attention_score_symint:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:208 NPU "
        "function error: call aclnnFusedInferAttentionScoreV3 failed, error code is 561002\n"
        "[ERROR] 2025-11-06-11:21:05 (PID:948496, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\n"
        "E89999: Inner Error!\n"
        "E89999[PID: 948496] 2025-11-06-11:21:05.612.749 (E89999):  When layout is TND, queryD(256), keyD(256) and "
        "valueD(256) must be same equal 192/128/64, or queryD and keyD equal 192 and valueD equal 128."
        "[FUNC:CheckInputShapeWhenLayoutIsTND][FILE:prompt_flash_attention_tiling.cpp][LINE:3701]\n",
        "EZ9999: Inner Error!\nEZ9999: When layout is NTD_TND, queryD(80), keyD(80) and valueD(80) must be same equal "
        "192/128/64, or queryD and keyD equal 192 and valueD equal 128.\n",
        # an earlier CANN release's wording
        "[Bug]: torch_npu.npu_fused_infer_attention_score | When layout is TND, queryD(128) or keyD(128) must be 192, "
        "valueD(128) must be 192/128!\n",
    ):
        assert _id(text) == "ARL-E4844", text


def test_tnd_missing_seq_len_is_not_e4844():
    # The same function's other check: TND without actual sequence lengths is a missing argument, not a head dim.
    text = ("EZ9999: Inner Error!\nEZ9999: When layout is TND, actualSequenceLengthQ is required, but now is nullptr!"
            "[FUNC:CheckInputShapeWhenLayoutIsTND][FILE:prompt_flash_attention_tiling.cpp]\n")
    assert _id(text) != "ARL-E4844"


# ARL-E4845 ---------------------------------------------------------------------------------------------------------

def test_triton_ascend_op_unresolved_is_e4845():
    for text in (
        "RuntimeError: Failed to resolve Triton op 'insert_slice': neither triton.language.extra.cann.extension nor "
        "triton.language provides it.\n",
        "RuntimeError: Triton op 'extract_slice' cannot be resolved because HAS_TRITON is False\n",
    ):
        assert _id(text) == "ARL-E4845", text


def test_triton_extension_used_from_tl_is_not_e4845():
    # Kernel code calling an extension op from triton.language (the triton analyzer's class), not a missing install.
    text = "AttributeError: module 'triton.language' has no attribute 'insert_slice'\n"
    assert _id(text) != "ARL-E4845"


# ARL-E4846 and the 310P widening of ARL-E1562 -----------------------------------------------------------------------

def test_310p_gdr_dtype_is_e4846():
    text = "TypeError: q/k/v must share float16 dtype on 310P, got torch.bfloat16, torch.bfloat16, torch.bfloat16.\n"
    assert _id(text) == "ARL-E4846"


def test_gdr_float32_on_a2_is_not_e4846():
    # The A2/A3 Triton gated delta rule refusing float32 asks for bfloat16 (ARL-E3074), not the 310P float16 kernel.
    text = "AssertionError: ChunkGatedDeltaRuleFunction does not support float32. Please use bfloat16.\n"
    assert _id(text) == "ARL-E3074"


def test_310p_expert_parallel_is_e1562():
    text = "RuntimeError: Expert Parallel is not supported on 310P. Please remove --enable-expert-parallel.\n"
    assert _id(text) == "ARL-E1562"


# ARL-E4847 ---------------------------------------------------------------------------------------------------------

def test_npu_ipc_event_unsupported_is_e4847():
    for text in (
        "RuntimeError: Parameter interprocess is not supported, please upgrade the HDK(driver) or CANN package.\n"
        "[ERROR] 2026-01-10-10:00:00 (PID:1, Device:0, RankID:-1) ERR00007 PTA feature not supported\n",
        "RuntimeError: The from_ipc_handle method is not supported, please upgrade the HDK(driver) or CANN package.\n",
        "RuntimeError: IPC Event is not support because IPC event requires page size 4096 but current page size is "
        "65536, which is not supported by the current HDK(driver).\n",
        "RuntimeError: IPC Event is not support because aclrtIpcGetEventHandle does not exist.\n",
    ):
        assert _id(text) == "ARL-E4847", text


def test_received_tensor_resend_is_not_e4847():
    # Re-sending a tensor received from another process is a usage limit, not missing IPC support.
    text = ("RuntimeError: Supported to send NPU tensor received from another process; other is not currently "
            "supported. Consider cloning before sending.\n")
    assert _id(text) != "ARL-E4847"


# ARL-E4848 ---------------------------------------------------------------------------------------------------------

def test_sglang_safe_unpickler_block_is_e4848():
    for text in (
        "RuntimeError: Blocked unsafe class loading (torch_npu.multiprocessing.reductions.rebuild_npu_tensor), to "
        "prevent exploitation of CVE-2025-10164\n",
        "RuntimeError: Blocked unsafe class loading (torch_npu.multiprocessing.reductions.rebuild_npu_tensor)\n",
        "RuntimeError: Blocked unsafe class loading (unirl.weight_sync.transfer.sgl_compat._rebuild_cuda_tensor_modified),"
        " to prevent exploitation of CVE-2025-10164\n",
    ):
        assert _id(text) == "ARL-E4848", text


def test_torch_weights_only_unpickler_is_not_e4848():
    # torch.load's weights_only unpickler refusing a global is another failure (a checkpoint load).
    text = ("_pickle.UnpicklingError: Weights only load failed. Unsupported global: GLOBAL numpy.core.multiarray._reconstruct"
            " was not an allowed global by default.\n")
    assert _id(text) != "ARL-E4848"


# ARL-E4849 ---------------------------------------------------------------------------------------------------------

def test_npu_fused_optimizer_bf16_is_e4849():
    for text in (
        "TypeError: Fused optimizer's parameters must be either float32 or float16, but received torch.bfloat16\n",
        "TypeError: Fused optimizer's parameters must be either float32 or float16, but received torch.float64\n"
        "[ERROR] 2025-06-12-10:31:09 (PID:52311, Device:0, RankID:-1) ERR00002 PTA invalid type\n",
    ):
        assert _id(text) == "ARL-E4849", text


def test_gradscaler_fp16_grads_is_not_e4849():
    # GradScaler refusing fp16 gradients (ARL-E540) is the fp16 sibling, not the fused optimizer's dtype list.
    text = "ValueError: Attempting to unscale FP16 gradients.\n"
    assert _id(text) != "ARL-E4849"


# ARL-E338 widened: op-plugin's "CANN too old for this feature" checks ----------------------------------------------

_ERR = "[ERROR] 2025-10-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01001 OPS invalid parameter\n"


def test_op_plugin_cann_too_old_wordings_are_e338():
    for msg in (
        "In this CANN Version, comm_mode is not supported, please upgrade CANN Version.",
        "Format of weight in npu_grouped_matmul is FRACTAL_NZ, current CANN version do not support with this format. "
        "Please try to update the version of CANN.",
        "group_list don't support Tensor input with current cann version. Please update cann version to 8.0.RC3 or "
        "higher, or use List[int] as input.",
        "Get aclnnQuantMatmulV5 or aclnnQuantMatmulV5 failed, only aclnnQuantMatmulV5 support A8W4, please upgrade CANN.",
        "aclnnMatmulCompressDequant or aclnnMatmulCompressDequantGetWorkspaceSize not found, please upgrade CANN.",
        "Get aclnnQuantGroupedMatmulDequantWeightNZ failed, please upgrade CANN.",
        "query_rope|key_rope|key_rope_antiquant_scale has value, CANN version should greater than 8.1.RC1!",
        "not support tuning_config, Please try to update your CANN version.",
    ):
        assert _id(f"RuntimeError: {msg}\n{_ERR}") == "ARL-E338", msg


def test_grouped_matmul_group_list_value_is_not_e338():
    # The same operator's value check on group_list is a bad argument, not an old CANN.
    text = f"RuntimeError: group_list[0] should be larger than or equal to 0, but now is -1.\n{_ERR}"
    assert _id(text) != "ARL-E338"


# ARL-E135 widened: the current PyTorch wording of the dispatcher device check --------------------------------------

def test_current_device_check_wording_cpu_npu_is_e135():
    for text in (
        "RuntimeError: Expected all tensors to be on the same device, but got index is on cpu, different from other "
        "tensors on npu:0 (when checking argument in method wrapper_NPU__index_select)\n",
        "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on npu:0, different from other "
        "tensors on cpu (when checking argument in method wrapper_NPU_addmm)\n",
    ):
        assert _id(text) == "ARL-E135", text


def test_two_accelerators_device_check_is_not_e135():
    # Two accelerator devices (a model split over cuda:0 / cuda:1) is not a CPU / NPU mix.
    text = ("RuntimeError: Expected all tensors to be on the same device, but got index is on cuda:1, different from "
            "other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)\n")
    assert _id(text) != "ARL-E135"


# ARL-E4850 ---------------------------------------------------------------------------------------------------------

def test_float8_promotion_is_e4850():
    for text in (
        "RuntimeError: Promotion for Float8 Types is not supported, attempted to promote Float8_e4m3fn and Bool\n",
        "RuntimeError: Promotion for Float8 Types is not supported, attempted to promote BFloat16 and Float8_e4m3fn\n",
    ):
        assert _id(text) == "ARL-E4850", text


def test_float8_unsupported_on_npu_is_not_e4850():
    # torch_npu without an FP8 dtype mapping (ARL-E384) is the device lacking FP8, not a promotion in user code.
    text = ("RuntimeError: Float8_e4m3fn has not been supported\n"
            "[ERROR] 2026-05-11-23:56:11 (PID:182346, Device:0, RankID:-1) ERR01007 OPS feature not supported\n")
    assert _id(text) != "ARL-E4850"


# ARL-E4851 ---------------------------------------------------------------------------------------------------------

def test_torchair_batch_above_graph_sizes_is_e4851():
    for text in (
        "ValueError: cur batch_size is invalid, torchair_graph_batch_sizes is [8, 16, 24], but cur batch_size is 31.\n",
        "ValueError: Bad graph batch size:64! max_graph_batch_sizes:48\n",
    ):
        assert _id(text) == "ARL-E4851", text


def test_torchair_graph_batch_sizes_type_is_not_e4851():
    # A malformed graph_batch_sizes setting is a config type error, not a batch beyond the compiled sizes.
    text = "TypeError: graph_batch_sizes must be list[int]\n"
    assert _id(text) != "ARL-E4851"


# ARL-E4852 ---------------------------------------------------------------------------------------------------------

def test_mxfp_moe_off_a5_is_e4852():
    for text in (
        "RuntimeError: MXFP MoE quantization is only supported on Ascend A5.\n",
        "RuntimeError: The MiniMax-M3 SwiGLU-OAI MX quant path is only expected on Ascend A5.\n",
    ):
        assert _id(text) == "ARL-E4852", text


def test_fp8_checkpoint_on_npu_is_not_e4852():
    # vLLM refusing an FP8 checkpoint on the NPU platform is ARL-E1564's class, not the MXFP / A5 limit.
    text = "ValueError: fp8 quantization is currently not supported in npu.\n"
    assert _id(text) != "ARL-E4852"


# ARL-E4853 ---------------------------------------------------------------------------------------------------------

def test_inplace_view_of_internal_format_is_e4853():
    text = ("RuntimeError: Current tensor is running as_strided__symint while internal format is not allowed. You can "
            "try torch.npu.config.allow_internal_format = False to avoid the problem.\n"
            "[ERROR] 2026-03-02-17:20:41 (PID:30412, Device:0, RankID:0) ERR00007 PTA feature not supported\n")
    assert _id(text) == "ARL-E4853"


def test_vllm_ascend_nz_wakeup_is_not_e4853():
    # vllm-ascend refusing wake_up with NZ weights is ARL-E002, the other NZ failure.
    text = "ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios.\n"
    assert _id(text) != "ARL-E4853"


# ARL-E335 widened: torch_npu's explicit CPU-fallback warning ---------------------------------------------------------

def test_explicit_cpu_fallback_warning_is_e335_and_not_fatal():
    text = ("[W compiler_depend.ts:26] Warning: CPU fallback is allowed because TORCH_NPU_FALLBACK_CPU_DISABLE=0. Since "
            "the NPU interface does not support operator 'aten::_sparse_csr_sum.dim_dtype', the operator will fall back "
            "to CPU. (function operator())\n")
    found = _top(text)
    assert found is not None and found.entry.id == "ARL-E335"
    assert not found.entry.fatal


def test_fallback_disabled_is_not_e335():
    # With TORCH_NPU_FALLBACK_CPU_DISABLE=1 the same operator stops the run (ARL-E4044).
    text = ("RuntimeError: The operator 'aten::_sparse_csr_sum.dim_dtype' would execute its main computation on CPU "
            "through explicit CPU kernel, but CPU fallback is disabled by TORCH_NPU_FALLBACK_CPU_DISABLE=1.\n")
    assert _id(text) != "ARL-E335"


# ARL-E392 widened: triton-ascend's own subtarget mapping -------------------------------------------------------------

def test_triton_ascend_unknown_subtarget_is_e392():
    assert _id("NotImplementedError: NPU subtarget Ascend310P3 not supported yet\n") == "ARL-E392"


def test_triton_ascend_no_target_is_not_e392():
    # No target at all in the kernel metadata is another failure than an unknown chip.
    assert _id("Exception: No target provided!\n") != "ARL-E392"


# ARL-E4854 ---------------------------------------------------------------------------------------------------------

def test_triton_no_allocator_is_e4854():
    text = ("RuntimeError: Kernel requires a runtime memory allocation, but no allocator was set. Use "
            "triton.set_allocator to specify an allocator.\n")
    assert _id(text) == "ARL-E4854"


def test_triton_out_of_resources_is_not_e4854():
    # A block config needing more on-chip memory than the device has is ARL-E2941, not a missing allocator.
    text = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, Hardware limit: "
            "232448. Reducing block sizes or `num_stages` may help.\n")
    assert _id(text) != "ARL-E4854"


# ARL-E4855 ---------------------------------------------------------------------------------------------------------

def test_mindspeed_cp_general_mask_not_2d_is_e4855():
    text = "AssertionError: The fusion attention operator currently only support 2D attention mask.\n"
    assert _id(text) == "ARL-E4855"


def test_npu_fusion_attention_mask_shape_is_not_e4855():
    # The kernel's own mask-shape check (aclnnFlashAttentionScore) is the derived parameter reading, not MindSpeed's CP.
    text = ("RuntimeError: call aclnnFlashAttentionScore failed, detail:EZ9999: Inner Error!\n"
            "EZ9999: get unsupported atten_mask shape, the shape is [2, 1, 1, 4096]. B=[2], N=[32], Sq=[4096], "
            "Skv=[4096], supported atten_mask shape can be [B, N, Sq, Skv], [B, 1, Sq, Skv], [1, 1, Sq, Skv] and "
            "[Sq, Skv].\n")
    assert _id(text) != "ARL-E4855"
