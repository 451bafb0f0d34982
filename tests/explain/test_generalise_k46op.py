"""Readings added by helper k46op (2026-12-06) while probing the operator / graph-mode / HCCL area (triton-ascend,
TorchAir, GE, custom ops, HCCL) for failure classes explain did not name. Each test input is a short excerpt in our own
words around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4240: triton-ascend cannot find bishengir-compile / bishengir-opt / bisheng (BiSheng toolkit not sourced).
- ARL-E4241: TorchAir GE graph mode has only a stub converter for an op ("ge_converter is not implemented!").
- ARL-E4242: a custom op's Meta function returns a non-meta tensor (FakeTensorConverter.from_meta_and_device).
- ARL-E4243: functionalization refuses a custom in-place / aliasing op (FunctionalizeFallbackKernel.cpp, both wordings).
- ARL-E4244: GE's InferShapePass rejected a node ("Call InferShapeAndType for node:X(Type) failed").
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4240 ---------------------------------------------------------------------------------------------------------

def test_bishengir_compile_not_found_is_e4240():
    for tool in ("bishengir-compile", "bishengir-opt", "bisheng"):
        text = ("  File \"/usr/local/lib/python3.11/site-packages/triton/backends/ascend/utils.py\", line 222, in "
                "_get_npucompiler_path\n"
                "    raise EnvironmentError(\n"
                f"OSError: Couldn't find executable {tool} or TRITON_NPU_COMPILER_PATH.\n")
        assert _id(text) == "ARL-E4240", tool


def test_bishengir_unknown_target_is_not_e4240():
    # The compiler was found; it just does not know this chip (another entry).
    text = ("triton.compiler.errors.MLIRCompilationError: \n"
            "[ConvertLinalgRToBinary] encounters error:\n"
            "bishengir-compile: for the --target option: Cannot find option named 'Ascend310P3'!\n")
    assert _id(text) != "ARL-E4240"


# ARL-E4241 ---------------------------------------------------------------------------------------------------------

def test_torchair_converter_stub_is_e4241():
    text = ("torch._dynamo.exc.BackendCompilerFailed: backend='npu_backend' raised:\n"
            "NotImplementedError: torch.ops.aten.item.default ge_converter is not implemented!\n")
    assert _id(text) == "ARL-E4241"


def test_torchair_old_converter_wording_is_e4241():
    text = "NotImplementedError: torch.ops.prims.convert_element_type.default ge converter is not implement!\n"
    assert _id(text) == "ARL-E4241"


def test_onnx2torch_converter_missing_is_not_e4241():
    text = ("NotImplementedError: Converter is not implemented (OperationDescription(domain='', "
            "operation_type='NonZero', version=9))\n")
    assert _id(text) != "ARL-E4241"


# ARL-E4242 ---------------------------------------------------------------------------------------------------------

def test_meta_kernel_returning_cpu_tensor_is_e4242():
    text = ("torch._dynamo.exc.TorchRuntimeError: Failed running call_function my_ops.npu_fused_gate(*(FakeTensor(..., "
            "device='npu:0', size=(16, 4096), dtype=torch.bfloat16),), **{}): tensor's device must be `meta`, got "
            "cpu instead\n")
    assert _id(text) == "ARL-E4242"


def test_fake_tensor_device_propagation_is_not_e4242():
    text = ("RuntimeError: Unhandled FakeTensor Device Propagation for aten.mm.default, found two different devices "
            "npu:0, cpu\n")
    assert _id(text) != "ARL-E4242"


# ARL-E4243 ---------------------------------------------------------------------------------------------------------

def test_custom_inplace_op_old_wording_is_e4243():
    text = ("RuntimeError: Found a custom (non-ATen) operator that either mutates or its inputs: "
            "npu::npu_scatter_cache_.. Getting these operators to work with functionalization requires some extra "
            "work.\n")
    assert _id(text) == "ARL-E4243"


def test_custom_aliasing_op_new_wording_is_e4243():
    text = ("RuntimeError: Found a custom (non-ATen) operator whose output has alias annotations: "
            "my_ops::rms_norm_(Tensor(a!) x, Tensor w, float eps) -> Tensor(a!). We only support functionalizing "
            "operators whose outputs do not have alias annotations\n")
    assert _id(text) == "ARL-E4243"


def test_dynamo_unsupported_custom_op_is_not_e4243():
    text = ("torch._dynamo.exc.Unsupported: unsupported operator: npu.custom.default (see "
            "https://docs.google.com/document/d/1GgvOe7C8_NVOMLOCwDaYV1mXXyHMXY7ExoewHqooxrs/edit#heading="
            "h.64r4npvq0w0 for how to fix)\n")
    assert _id(text) != "ARL-E4243"


# ARL-E4244 ---------------------------------------------------------------------------------------------------------

def test_ge_infershape_failure_is_e4244():
    text = ("E89999: [PID: 260559] 2024-11-06-15:44:43.218.474 op[FloorDiv_1] op dtype is not same, type1:DT_FLOAT, "
            "type2:DT_INT64[FUNC:CheckTwoInputDtypeSame]\n"
            "       TraceBack (most recent call last):\n"
            "       Verifying FloorDiv_1 failed.[FUNC:InferShapeAndType][FILE:infershape_pass.cc][LINE:129]\n"
            "       Call InferShapeAndType for node:FloorDiv_1(FloorDiv) failed[FUNC:Infer][FILE:infershape_pass.cc]"
            "[LINE:117]\n"
            "       [Compile][Graph]Compile graph failed, error code:1343225857, session_id:0, graph_id:0."
            "[FUNC:CompileGraph][FILE:ge_api.cc]\n")
    assert _id(text) == "ARL-E4244"


def test_ge_output_buffer_too_small_is_not_e4244():
    text = ("RuntimeError: E19025: [PID: 44349] 2024-12-05-16:19:12.399.912 Input tensor is invalid. Reason: The "
            "Output memory provided by the user, plus 64 bytes for data alignment, is smaller than op_size in the "
            "model, which is an illegal behavior. Output size=8192 , op_size=16416.\n"
            "       Check output size failed, index 0, user size 8192, op size 16416.[FUNC:ConstructZeroCopyIoActive"
            "BaseAddrs][FILE:davinci_model.cc][LINE:5728]\n")
    assert _id(text) != "ARL-E4244"


# ARL-E4245 ---------------------------------------------------------------------------------------------------------

def test_task_queue_2_during_capture_is_e4245():
    text = ("(WorkerDict pid=30211, ip=10.0.0.1)     self.npu_graph.capture_begin(\n"
            "(WorkerDict pid=30211, ip=10.0.0.1) RuntimeError: Do not support TASK_QUEUE_ENABLE = 2 during NPU graph "
            "capture, please export TASK_QUEUE_ENABLE=1/0.\n")
    assert _id(text) == "ARL-E4245"


def test_task_queue_value_out_of_range_is_not_e4245():
    # torch_npu's own range check on the variable (another entry): the value is not 0/1/2 at all.
    text = "RuntimeError: TASK_QUEUE_ENABLE should be 0, 1 or 2\n"
    assert _id(text) != "ARL-E4245"


# ARL-E338 widened: op-plugin's own pre-check of an aclnn kernel the installed CANN lacks ------------------------------

def test_op_plugin_cann_precheck_is_e338():
    for line in ("RuntimeError: Current CANN version do not support this api. Please try to update the version of CANN.",
                 "RuntimeError: The param sink is not supported in this CANN version, aclnnFlashAttentionScoreV3 is "
                 "not available"):
        assert _id(line + "\n") == "ARL-E338", line


def test_runtime_symbol_missing_from_cann_is_not_e338():
    # torch_npu's lookup of a CANN runtime / HCCL entry point (not an aclnn kernel): ARL-E348's reading.
    text = ("RuntimeError: HcclCommInitRootInfoConfig not found, maybe you cann version is too low, please upgrade it\n")
    assert _id(text) != "ARL-E338"


# ARL-E4246 ---------------------------------------------------------------------------------------------------------

def test_fusion_attention_argument_checks_are_e4246():
    for line in ("RuntimeError: The shapes of the input key should be 3 or 4 dimensional, but got 5-dimensional",
                 "RuntimeError: The input_layout should be BSH/SBH/BNSD/BSND/TND(case-insensitive), but got BHSD",
                 "RuntimeError: The keep_prob value must be in range of (0, 1], but got 0",
                 "RuntimeError: The sparse_mode value must be in range of [0,6], but got 9",
                 "RuntimeError: For TND layout, actual_seq_qlen and actual_seq_kvlen must be provided and have same "
                 "size"):
        assert _id(line + "\n") == "ARL-E4246", line


def test_fusion_attention_kernel_mask_shape_is_not_e4246():
    # The kernel itself (EZ9999 from aclnnFlashAttentionScore) refusing a mask shape: another reading.
    text = ("RuntimeError: npu_fusion_attention:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1042 NPU function "
            "error: call aclnnFlashAttentionScore failed, error code is 561103\n"
            "EZ9999: Inner Error!\n"
            "EZ9999[PID: 10443] 2026-01-19-16:32:47.486.947 (EZ9999):  get unsupported atten_mask shape, the shape is "
            "[1, 6902]. B=[1], N=[12], Sq=[6902], Skv=[6902], supported atten_mask shape can be [B, N, Sq, Skv], "
            "[B, 1, Sq, Skv], [1, 1, Sq, Skv] and [Sq, Skv].\n")
    assert _id(text) != "ARL-E4246"


# ARL-E4247 ---------------------------------------------------------------------------------------------------------

def test_triton_without_compiler_is_e4247_in_each_wording():
    for line in ("RuntimeError: Failed to find C compiler. Please specify via CC environment variable.",
                 "RuntimeError: Failed to find C compiler. Please specify via CC environment variable or set "
                 "triton.knobs.build.impl.",
                 "RuntimeError: Failed to find C++ compiler"):
        assert _id(line + "\n") == "ARL-E4247", line


def test_launcher_compile_crash_is_not_e4247():
    # A compiler was found and crashed on the launcher source: not a missing compiler.
    text = ("RuntimeError: Failed to compile /tmp/tmpx5kvific/launcher_cxx11abi1.cxx, error: g++: internal compiler "
            "error: Segmentation fault signal terminated program cc1plus\n")
    assert _id(text) != "ARL-E4247"
