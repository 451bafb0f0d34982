"""Readings added by helper k53triton (2026-12-07) for triton-ascend / BiShengIR compile and run-time failures of Triton
kernels on Ascend NPUs, confirmed in triton-ascend's and AscendNPU-IR's source. Each test input is a short excerpt around
the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5720: BiShengIR's hivm-infer-mem-scope refusing a kernel buffer ("Unsupported user for root alloc op.", "Failed to
  propagate memory scope [ub ]for allocOp / operand / result", CANN's "Unsupported op for finding the root alloc.");
  before, only the generic stage wrapper ARL-E403.
- ARL-E5721: float conversions the Ascend vector unit lacks (ArithToHFusion "unsupported datatype for arith::ExtFOp /
  TruncFOp to hfusion", triton-ascend's "[fp8, fp64] is unsupported on Ascend for now."); before, ARL-E403 or unknown.
- ARL-E5722: a zero-stride memref in triton-ascend's adapter IR (MLIR "strides must not be zero"); before, ARL-E403.
- ARL-E5723: TRITON_ASCEND_ARCH set to a name triton-ascend does not know; before, unknown.
- ARL-E5724: triton-ascend's EnvironmentError for an unset ASCEND_HOME_PATH (fatal, unlike torch_npu's ARL-E303 warning).
- ARL-E5725: A5-only (Ascend910_95) extension operations used on A2/A3; before, unknown.
- ARL-E5726: triton-ascend's backend asked for a non-'npu' target; before, unknown.
- ARL-E5727: tl.sort along a non-last axis (BiShengIR "Currently only tail axis sorting is supported"); ARL-E5721 also
  reads HIVM's verifier "Current hardware doesn't support fp8 type".
- ARL-E5728..E5731: Triton's front-end checks, in upstream triton and triton-ascend alike (block numel over
  TRITON_MAX_TENSOR_NUMEL, tl.arange range not a power of 2, autotuned parameter passed again, @triton.jit called on
  the host); before, unknown.
- ARL-E5732: triton-ascend's launcher failing aclrtPointerGetAttributes on a kernel argument ("Failed to query pointer
  attributes at argument N"); before, unknown.
- ARL-E5733: CANN's bisheng compiler crashing on a kernel ("bisheng: error: clang frontend command failed with exit code
  139"); before, the stage wrapper ARL-E403.
- ARL-E5727: tl.sort along a non-last axis (BiShengIR "Currently only tail axis sorting is supported"); ARL-E5721 also
  reads HIVM's "Current hardware doesn't support fp8 type".
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'
WRAP = ("triton.compiler.errors.MLIRCompilationError: \n///------------------[ERROR][Triton][BEG]------------------\n"
        "[ConvertLinalgRToBinary] encounters error:\n")
LOC = 'loc("/tmp/tmpab12/kernel.ttadapter.mlir":59:15): error: '


# ARL-E5720 -----------------------------------------------------------------------------------------------------------

def test_hivm_memory_scope_failures_are_e5720():
    for line in (
        LOC + "'arith.select' op Unsupported user for root alloc op.",
        LOC + "'memref.subview' op Unsupported user for root alloc op.",
        LOC + "'memref.alloc' op Failed to propagate memory scope ub for allocOp",
        LOC + "'memref.alloc' op Failed to propagate memory scope for allocOp",
        LOC + "'hivm.hir.load' op Unsupported op for finding the root alloc.",
    ):
        assert _id(WRAP + line + "\n") == "ARL-E5720", line
        assert _id(line + "\n") == "ARL-E5720", line


def test_other_bishengir_error_is_not_e5720():
    text = WRAP + 'loc("/tmp/a/kernel.ttadapter.mlir":1:1): error: Failed to run BiShengHIR pipeline\n'
    assert _id(text) == "ARL-E403"


# ARL-E5721 -----------------------------------------------------------------------------------------------------------

def test_float_conversions_the_npu_lacks_are_e5721():
    for line in (
        "LLVM ERROR: unsupported datatype for arith::ExtFOp to hfusion",
        "LLVM ERROR: unsupported datatype for arith::TruncFOp to hfusion",
    ):
        assert _id(WRAP + line + "\n") == "ARL-E5721", line
    text = TB + ("ValueError: [fp8, fp64] is unsupported on Ascend for now.Source scalar type is fp64 and destination "
                 "type is fp32\n")
    assert _id(text) == "ARL-E5721"


def test_integer_cast_or_other_llvm_error_is_not_e5721():
    assert _id(WRAP + "LLVM ERROR: Failed to infer result type(s).\n") != "ARL-E5721"
    assert _id(TB + "ValueError: fp_downcast_rounding should be set only for truncating fp conversions. Source scalar "
               "type is fp16 and destination type is fp32\n") != "ARL-E5721"


# ARL-E5722 -----------------------------------------------------------------------------------------------------------

def test_zero_stride_memref_is_e5722():
    text = WRAP + (LOC + "strides must not be zero\n[ERROR] Failed to parse input file: /tmp/tmpab12/kernel.ttadapter.mlir\n")
    assert _id(text) == "ARL-E5722"


def test_stride_mismatch_is_not_e5722():
    text = TB + "RuntimeError: The size of tensor a (128) must match the size of tensor b (64) at non-singleton dimension 1\n"
    assert _id(text) != "ARL-E5722"


# ARL-E5723 / ARL-E5724 -----------------------------------------------------------------------------------------------

def test_invalid_triton_ascend_arch_is_e5723():
    for value in ("910B3", "Ascend910B", "ascend910b4"):
        text = TB + f"ValueError: TRITON_ASCEND_ARCH = {value} is invalid!Candidates are [Ascend910B1, Ascend910B2]\n"
        assert _id(text) == "ARL-E5723", value


def test_unknown_subtarget_is_not_e5723():
    assert _id(TB + "NotImplementedError: NPU subtarget Ascend310P3 not supported yet\n") != "ARL-E5723"


def test_triton_ascend_home_path_unset_is_e5724():
    text = TB + "OSError: ASCEND_HOME_PATH is not set, source <ascend-toolkit>/set_env.sh first\n"
    assert _id(text) == "ARL-E5724"


def test_torch_npu_home_path_warning_is_not_e5724():
    assert _id("Warning : ASCEND_HOME_PATH environment variable is not set.\n") != "ARL-E5724"


# ARL-E5725 / ARL-E5726 -----------------------------------------------------------------------------------------------

def test_a5_only_extension_is_e5725():
    for text in (
        TB + "RuntimeError: this feature is only supported on Ascend910_95\n",
        "triton.compiler.errors.CompilationError: at 31:8:\n        al.copy_from_ub_to_l1(a, b)\n        ^\n"
        "RuntimeError('this feature is only supported on Ascend910_95')\n",
    ):
        assert _id(text) == "ARL-E5725", text


def test_unsupported_soc_target_is_not_e5725():
    text = WRAP + "bishengir-compile: for the --target option: Cannot find option named 'Ascend310P1'!\n"
    assert _id(text) != "ARL-E5725"


def test_non_npu_backend_is_e5726():
    for backend in ("cuda", "cpu", "hip"):
        text = TB + (f"NotImplementedError: Backend '{backend}' is not supported. Please ensure the target backend is set "
                     "to 'npu'.\n")
        assert _id(text) == "ARL-E5726", backend


def test_two_active_drivers_is_not_e5726():
    text = TB + "RuntimeError: 2 active drivers ([<NPUDriver>, <CudaDriver>]). There should only be one.\n"
    assert _id(text) != "ARL-E5726"


# ARL-E5721 (fp8 verifier) / ARL-E5727 ----------------------------------------------------------------------------------

def test_fp8_verifier_is_e5721():
    text = WRAP + LOC + "'hivm.hir.vcast' op Current hardware doesn't support fp8 type\n"
    assert _id(text) == "ARL-E5721"


def test_non_tail_sort_is_e5727():
    for op in ("hfusion.sort", "hivm.hir.vsort"):
        text = WRAP + LOC + f"'{op}' op Currently only tail axis sorting is supported\n"
        assert _id(text) == "ARL-E5727", op


def test_sort_rank_check_is_not_e5727():
    text = TB + "ValueError: ascend.sort requires tensor rank >= 1\n"
    assert _id(text) != "ARL-E5727"


# ARL-E5728 .. ARL-E5731: Triton's front-end checks -------------------------------------------------------------------

def test_block_numel_limit_is_e5728():
    for line in ("ValueError: numel (2097152) exceeds triton maximum tensor numel (1048576)",
                 "ValueError('numel (4194304) exceeds triton maximum tensor numel (1048576)')"):
        assert _id(TB + line + "\n") == "ARL-E5728", line


def test_ub_overflow_is_not_e5728():
    text = WRAP + LOC + "ub overflow, requires 3072256 bits while 1572864 bits available!\n"
    assert _id(text) != "ARL-E5728"


def test_arange_power_of_two_is_e5729():
    text = ("triton.compiler.errors.CompilationError: at 8:11:\n    d = tl.arange(0, HEAD_DIM)\n        ^\n"
            "ValueError(\"arange's range must be a power of 2\")\n")
    assert _id(text) == "ARL-E5729"


def test_arange_bounds_is_not_e5729():
    text = TB + "ValueError: arange's end argument must be greater than the start argument\n"
    assert _id(text) != "ARL-E5729"


def test_conflicting_autotune_parameter_is_e5730():
    for names in ("BLOCK_SIZE", "BLOCK_M, BLOCK_N"):
        text = TB + (f"ValueError: Conflicting meta-parameters: {names}. Make sure that you don't re-define auto-tuned "
                     "symbols.\n")
        assert _id(text) == "ARL-E5730", names


def test_no_valid_configs_is_not_e5730():
    assert _id(TB + "RuntimeError: No valid triton configs. OutOfResources: out of resource\n") != "ARL-E5730"


def test_jit_called_on_host_is_e5731():
    assert _id(TB + "RuntimeError: Cannot call @triton.jit'd outside of the scope of a kernel\n") == "ARL-E5731"


def test_interpreter_limit_is_not_e5731():
    assert _id(TB + "NotImplementedError: inline_asm not supported in interpreter mode\n") != "ARL-E5731"


# ARL-E5732 -----------------------------------------------------------------------------------------------------------

def test_pointer_attribute_query_failure_is_e5732():
    for code in ("107002", "507899", "-1"):
        text = TB + (f"RuntimeError: Failed to query pointer attributes at argument 3. Error code: {code}. This may "
                     "indicate invalid memory address or NPU device error.\n")
        assert _id(text) == "ARL-E5732", code


def test_cpu_tensor_pointer_is_not_e5732():
    text = TB + "ValueError: Pointer argument (at 0) cannot be accessed from Triton (cpu tensor?)\n"
    assert _id(text) == "ARL-E2872"


# ARL-E5733 -----------------------------------------------------------------------------------------------------------

def test_bisheng_compiler_crash_is_e5733():
    for code in ("139", "134"):
        text = WRAP + f"bisheng: error: clang frontend command failed with exit code {code} (use -v to see invocation)\n"
        assert _id(text) == "ARL-E5733", code


def test_host_clang_crash_is_not_e5733():
    text = "clang++: error: clang frontend command failed with exit code 139 (use -v to see invocation)\n"
    assert _id(text) != "ARL-E5733"
