"""Readings added by helper k45op (2026-12-05/06, fourteenth stop) while probing public threads of the Ascend stack
for operator / dtype / custom-op classes no development log has, each written for the class the emitting source prints
rather than one paste's words:

- ARL-E4040: an Ascend C custom-op build whose find_package(ASC) loaded CANN's ASCConfig.cmake from one install while
  ASCEND_HOME_PATH names another (CMake's include() error under ASCConfig.cmake / asc-config.cmake, and the
  compiler/tikcpp/ascendc_kernel_cmake path it could not include).
- ARL-E4041: vllm-ascend's newer "doesn't support quant_type=X for layer_type=Y" wording and the W4A8 per-group MoE
  refusal, after main removed dense W4A8, per-group W4A8 MoE and W8A8_MIX MoE schemes (#13713).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_top_id = functools.partial(first_id, CATALOG)


# ARL-E4040 ---------------------------------------------------------------------------------------------------------

def test_asc_config_include_of_other_cann_is_e4040():
    text = ("-- Opbuild generating sources - done\n"
            "CMake Error at /opt/cann-8.5.1/aarch64-linux/lib64/cmake/ASCConfig.cmake:20 (include):\n"
            "  include could not find requested file:\n\n"
            "    /opt/cann-9.0.0/compiler/tikcpp/ascendc_kernel_cmake/ASC_CMake/FindASC.cmake\n"
            "Call Stack (most recent call first):\n"
            "  CMakeLists.txt:3 (find_package)\n\n"
            "-- Configuring incomplete, errors occurred!\n"
            "gmake: *** No rule to make target 'Makefile'.  Stop.\n")
    assert _top_id(text) == "ARL-E4040"


def test_fwk_module_path_line_alone_is_e4040():
    # ASCEND_HOME_PATH unset: the include path starts at /compiler; older CMake says "could not find load file".
    text = ("CMake Error at build/cmake/asc-config.cmake:29 (include):\n"
            "  include could not find load file:\n\n"
            "    /compiler/tikcpp/ascendc_kernel_cmake/fwk_modules/config.cmake\n")
    assert _top_id(text) == "ARL-E4040"


def test_other_cmake_include_errors_are_not_e4040():
    # Another package's config file that includes a missing sibling is not the CANN ASC package.
    text = ("CMake Error at /usr/lib/cmake/hipblas/hipblasConfig.cmake:33 (include):\n"
            "  include could not find requested file:\n"
            "    /usr/lib/cmake/hipblas/hipblas.cmake\n"
            "-- Configuring incomplete, errors occurred!\n")
    assert _top_id(text) != "ARL-E4040"
    # CANN's ascendc_kernel_cmake named in an ordinary Python traceback path is not a failed include().
    text = ('  File "/usr/local/Ascend/ascend-toolkit/latest/tools/tikcpp/ascendc_kernel_cmake/util/recompile_binary.py",'
            ' line 64, in get_add_obj\n'
            "__main__.TooFewObj: There is no obj file in this directory: /tmp/build/host_dir\n")
    assert _top_id(text) != "ARL-E4040"


# ARL-E4041 ---------------------------------------------------------------------------------------------------------

def test_new_wording_of_unsupported_quant_type_is_e4041():
    for qt, lt in (("W4A8_DYNAMIC", "linear"), ("W8A8_MIX", "moe"), ("W4A4_MXFP4_FLATQUANT", "moe")):
        text = ("(Worker_TP0 pid=7) ERROR 08-30 10:00:01 [multiproc_executor.py:870]   File \"/vllm-workspace/"
                "vllm-ascend/vllm_ascend/quantization/modelslim_config.py\", line 541, in create_scheme_for_layer\n"
                f"(Worker_TP0 pid=7) ERROR 08-30 10:00:01 [multiproc_executor.py:870] NotImplementedError: Currently, "
                f"vLLM Ascend doesn't support quant_type={qt} for layer_type={lt}. Please use a supported "
                "quantization format or load the model with its original float weights.\n")
        assert _top_id(text) == "ARL-E4041", (qt, lt)


def test_per_group_w4a8_moe_refusal_is_e4041():
    text = ("(Worker_TP2 pid=9) ERROR [multiproc_executor.py:870]   File \"/vllm-workspace/vllm-ascend/vllm_ascend/"
            "quantization/methods/w4a8.py\", line 117, in __init__\n"
            "(Worker_TP2 pid=9) ERROR [multiproc_executor.py:870] ValueError: The current weights use Per\u2011Group "
            "quantization, which is no longer supported. Please switch to Per\u2011Channel quantized weights.\n")
    assert _top_id(text) == "ARL-E4041"


def test_older_wordings_and_other_quant_failures_are_not_e4041():
    # The pre-May-2026 wording stays E501's.
    assert _top_id("NotImplementedError: Currently, vLLM Ascend doesn't support W4A16 for linear.\n") == "ARL-E501"
    # Shards of one fused layer quantized differently is another failure (the checkpoint, not the release).
    text = ("ValueError: Not all shards of model.layers.0.mlp.gate_up_proj are quantized with same quant type. "
            "Shard up_proj uses W8A8, but another shard uses W8A8_DYNAMIC. Please check quantization config.\n")
    assert _top_id(text) != "ARL-E4041"
    # MoE TP > 16 with W4A8 weights is a parallel-layout refusal, not a missing scheme.
    assert _top_id("ValueError: The current weight does not support moe part tp>16.\n") != "ARL-E4041"


# ARL-E4042 ---------------------------------------------------------------------------------------------------------

def test_a3_deepep_package_on_a2_is_e4042():
    text = ("[2025-12-04 10:00:00 TP0] Capture npu graph begin.\n"
            "[ERROR][MoeDistributeDispatchV2] Attr commAlg is invalid, current only support fullmesh_v1 and fullmesh_v2, "
            "but got commAlg = fullmesh.\n"
            "[ERROR][MoeDistributeDispatchV2] Get special expert, commAlg attr and set tiling data failed.\n"
            "[ERROR][MoeDistributeDispatchV2] Get attr and set tiling data failed.\n"
            "RuntimeError: call aclnnMoeDistributeDispatchV2 failed, detail:EZ9999: Inner Error!\n")
    assert _top_id(text) == "ARL-E4042"


def test_other_dispatch_failures_are_not_e4042():
    # An A3 package given some other algorithm name is not the A2/A3 package mix-up.
    text = ("[ERROR][MoeDistributeDispatchV2] Attr commAlg is invalid, current only support fullmesh_v1 and fullmesh_v2, "
            "but got commAlg = fullmesh_v3.\n")
    assert _top_id(text) != "ARL-E4042"
    # The A2 package's own refusal of an empty commAlg, and HCCL_BUFFSIZE being too small, are other failures.
    assert _top_id("[ERROR] Attr commAlg is invalid, please configure fullmesh or hierarchy.\n") != "ARL-E4042"
    text = ("EZ9999[PID: 1] 2025-12-23-07:36:19.237.396 (EZ9999):  HCCL_BUFFSIZE is too SMALL, maxBs = 512, h = 2048, "
            "epWorldSize = 2, localMoeExpertNum = 64, sharedExpertNum = 0, tokenNeedSizeDispatch = 4608, "
            "tokenNeedSizeCombine = 4096, k = 8, NEEDED_HCCL_BUFFSIZE(((maxBs * tokenNeedSizeDispatch * ep_worldsize * "
            "localMoeExpertNum) + (maxBs * tokenNeedSizeCombine * (k + sharedExpertNum))) * 2) = 609MB, "
            "HCCL_BUFFSIZE=200MB.[FUNC:MoeDistributeDispatchA3TilingFuncImpl]\n")
    assert _top_id(text) != "ARL-E4042"


# ARL-E4043 ---------------------------------------------------------------------------------------------------------

def test_pre_85_runtime_coredim_wording_is_e4043():
    text = ("RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current "
            "working operator name is layer_norm_fwd_kernel.\n"
            "[ERROR] 2025-10-21-01:17:01 (PID:1, Device:2, RankID:-1) ERR00100 PTA call acl api failed.\n"
            "EE1001: [PID: 1] 2025-10-21-01:17:01.546.291 The argument is invalid.Reason: coreDim=66976 can't be greater "
            "than UINT16_MAX.\n"
            "        Solution: 1.Check the input parameter range of the function. 2.Check the function invocation "
            "relationship.\n"
            "        TraceBack (most recent call last):\n"
            "        The argument is invalid.Reason: rtKernelLaunch execute failed, reason=[invalid value]\n")
    assert _top_id(text) == "ARL-E4043"


def test_other_ee1001_reasons_and_the_85_wording_are_not_e4043():
    # Another EE1001 reason is not the block-count limit.
    text = ("EE1001: [PID: 1] 2025-10-21-01:17:01.546.291 The argument is invalid.Reason: rtKernelLaunch execute "
            "failed, reason=[invalid value]\n")
    assert _top_id(text) != "ARL-E4043"
    # CANN 8.5's EE1003 wording of the same limit stays E1030's.
    text = ("EE1003: [PID: 7] 2026-01-10-10:00:00.000.000 KernelLaunch failed because value 70000 for parameter coreDim "
            "is invalid. Expected value: less than or equal to 65535.\n")
    assert _top_id(text) == "ARL-E1030"


# ARL-E4044 ---------------------------------------------------------------------------------------------------------

def test_cpu_fallback_disabled_refusal_is_e4044():
    for kind, reason in (("dispatcher backend fallback", "no kernel is registered for the NPU PrivateUse1 backend"),
                         ("explicit CPU kernel", "torch_npu currently provides only a CPU implementation for this "
                                                 "Sparse CSR reduction")):
        text = ("Traceback (most recent call last):\n"
                '  File "rollout.py", line 88, in step\n'
                "    mask = torch.isin(ids, stop_ids)\n"
                f"RuntimeError: The operator 'aten::isin.Tensor_Tensor_out' would execute its main computation on CPU "
                f"through {kind} because {reason}, but CPU fallback is disabled by TORCH_NPU_FALLBACK_CPU_DISABLE=1.\n"
                "[ERROR] 2026-09-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01007 OPS feature not supported\n")
        assert _top_id(text) == "ARL-E4044", kind


def test_allowed_fallback_warnings_are_not_e4044():
    # The fallback that ran (the default) is a warning, not this stop.
    text = ("[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently "
            "supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. "
            "(function npu_cpu_fallback)\n")
    assert _top_id(text) != "ARL-E4044"
    text = ("[W compiler_depend.ts:51] Warning: CPU fallback is allowed because TORCH_NPU_FALLBACK_CPU_DISABLE=0. Since the "
            "NPU interface does not support operator 'aten::_sparse_csr_sum.dim_dtype', the operator will fall back to "
            "CPU. (function operator())\n")
    assert _top_id(text) != "ARL-E4044"


# ARL-E4045 ---------------------------------------------------------------------------------------------------------

def test_full_decode_graph_with_mtp_state_is_e4045():
    for tail in ("DecodeOnly state", "DecodeOnly and SpecDecoding state", "DecodeOnly and ChunkedPrefill state"):
        text = ("(Worker_DP0_TP5_EP5 pid=3) ERROR 01-21 02:34:16 [multiproc_executor.py:824]     self._capture_model()\n"
                "(Worker_DP0_TP5_EP5 pid=3) ERROR 01-21 02:34:16 [multiproc_executor.py:824]   File \"/vllm-workspace/"
                "vllm-ascend/vllm_ascend/attention/attention_v1.py\", line 272, in build_for_graph_capture\n"
                "(Worker_DP0_TP5_EP5 pid=3) ERROR 01-21 02:34:16 [multiproc_executor.py:824]     raise NotImplementedError(\n"
                "(Worker_DP0_TP5_EP5 pid=3) ERROR 01-21 02:34:16 [multiproc_executor.py:824] NotImplementedError: "
                f"Currently we only support building dummy metadata for {tail}\n")
        assert _top_id(text) == "ARL-E4045", tail


def test_other_graph_capture_failures_are_not_e4045():
    # An aclop operator inside the capture, and a capture-size problem, are other failures.
    text = ("RuntimeError: Cannot run aclop operators during NPU graph capture. Current working aclop is Fill. If you need "
            "this call to be captured, please try to set torch.npu.config.allow_internal_format = False.\n"
            "[ERROR] 2025-11-03-04:02:21 (PID:31774, Device:0, RankID:-1) ERR00007 PTA feature not supported\n")
    assert _top_id(text) != "ARL-E4045"
    # The MLA metadata builder's own refusal of a decode-only request mix at run time is not the capture refusal.
    assert _top_id("NotImplementedError: Currently we only support DecodeOnly for this backend\n") != "ARL-E4045"


# ARL-E4046 ---------------------------------------------------------------------------------------------------------

def test_compressed_tensors_scheme_missing_is_e4046():
    text = ("(Worker_TP0 pid=11) ERROR 03-09 10:00:00 [multiproc_executor.py:743]   File \"/usr/local/lib/python3.11/"
            "site-packages/vllm_ascend/quantization/compressed_tensors_config.py\", line 333, in "
            "_create_scheme_for_layer_type\n"
            "(Worker_TP0 pid=11) ERROR 03-09 10:00:00 [multiproc_executor.py:743] NotImplementedError: No compressed-tensors "
            "compatible scheme was found for quant_type=W4A16, layer_type=linear.\n")
    assert _top_id(text) == "ARL-E4046"
    assert _top_id("NotImplementedError: No compressed-tensors compatible quantization type was found.\n") == "ARL-E4046"


def test_modelslim_refusals_are_not_e4046():
    # The msModelSlim (--quantization ascend) path's refusal of a quant type is E4041 / E501, not this one.
    text = ("NotImplementedError: Currently, vLLM Ascend doesn't support quant_type=W4A16 for layer_type=linear. Please use "
            "a supported quantization format or load the model with its original float weights.\n")
    assert _top_id(text) == "ARL-E4041"
    # A missing ModelSlim description file is yet another failure.
    assert _top_id("ValueError: Could not determine quantization type for layer model.layers.0.mlp (layer_type=moe).\n") \
        != "ARL-E4046"
