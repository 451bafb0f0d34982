"""Session 36 (helper m36b): classes mined from Ascend-side threads the measure had not used.

Each entry is keyed on the string its emitter prints (torch_npu's ProcessGroupHCCL and PyTorch's ProcessGroupNCCL for
non-contiguous collective tensors; torch_npu's aclop runner for a failed Conv3D), and each test checks that the reading
covers the class — other callers, other releases' exception types, other Conv3D kernels — and not look-alike lines.
"""

from __future__ import annotations

import pytest
from kdata_helpers import classify


def _top(catalog, text: str) -> str | None:
    result = classify(catalog, text)
    return result.diagnoses[0].entry.id if result.diagnoses and result.diagnoses[0].fatal else None


@pytest.mark.parametrize("line", [
    "RuntimeError: Tensors must be contiguous",            # torch_npu ProcessGroupHCCL / older ProcessGroupNCCL
    "ValueError: Tensors must be contiguous",              # PyTorch >= 2.2 ProcessGroupNCCL
    "[rank3]: ValueError: Tensors must be contiguous",     # torchrun's rank prefix
])
def test_a_non_contiguous_collective_tensor_is_read(catalog, line):
    assert _top(catalog, line + "\n") == "ARL-E2870"


def test_the_torch_npu_form_with_its_dist_tag_is_read(catalog):
    text = ("RuntimeError: Tensors must be contiguous\n"
            "[ERROR] 2025-07-22-10:01:02 (PID:4242, Device:3, RankID:3) ERR02002 DIST invalid type\n")
    assert _top(catalog, text) == "ARL-E2870"


@pytest.mark.parametrize("line", [
    "AssertionError: Tensors must be contiguous",          # a kernel's own assert, not a process group
    "RuntimeError: tensors must be contiguous",            # lowercase: custom kernels' TORCH_CHECK
    "RuntimeError: Tensors to combine must be contiguous.",
])
def test_kernel_asserts_are_not_read_as_the_collective_check(catalog, line):
    assert _top(catalog, line + "\n") != "ARL-E2870"


@pytest.mark.parametrize("op", ["Conv3D", "Conv3DTranspose", "Conv3DBackpropInput"])
def test_a_failed_conv3d_on_the_aclop_path_is_read(catalog, op):
    line = (f"RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:234 OPS function error: {op}, "
            "error code is 500002\n")
    assert _top(catalog, line) == "ARL-E2871"


def test_another_aclop_operator_is_not_read_as_conv3d(catalog):
    line = ("RuntimeError: InnerRun:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:218 OPS function error: Conv2D, "
            "error code is 500002\n")
    assert _top(catalog, line) != "ARL-E2871"


@pytest.mark.parametrize("line", [
    "ValueError: Pointer argument (at 0) cannot be accessed from Triton (cpu tensor?)",   # triton-ascend / CUDA launcher
    "(Worker_TP0 pid=812) ERROR 08-04 06:01:38 [core.py:1] ValueError: Pointer argument (at 3) cannot be accessed "
    "from Triton (cpu tensor?)",
    "ValueError: Pointer argument cannot be accessed from Triton (cpu tensor?)",          # older launchers: no index
])
def test_a_host_tensor_given_to_a_triton_kernel_is_read(catalog, line):
    assert _top(catalog, line + "\n") == "ARL-E2872"


def test_a_non_pointer_argument_is_not_read_as_a_host_tensor(catalog):
    line = "TypeError: Pointer argument must be either uint64 or have data_ptr method\n"
    assert _top(catalog, line) != "ARL-E2872"


@pytest.mark.parametrize("line", [
    "RuntimeError: output tensor must have the same type as input tensor",       # all_gather_into_tensor
    "RuntimeError: input tensor must be the same type as the output tensor.",    # reduce_scatter_tensor
    "[rank1]: ValueError: output tensor must have the same type as input tensor",
])
def test_a_dtype_mismatch_in_a_flat_collective_is_read(catalog, line):
    assert _top(catalog, line + "\n") == "ARL-E2873"


def test_a_numel_mismatch_is_not_read_as_a_dtype_mismatch(catalog):
    line = "RuntimeError: output tensor must have the same numel as input tensor\n"
    assert _top(catalog, line) != "ARL-E2873"
