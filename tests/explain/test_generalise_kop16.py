"""Classes of operator / device failures that recur in real threads and no entry named (session 16, kop).

- ARL-E1030: a kernel launched on the NPU with more than 65535 blocks, read from triton-ascend's launcher check and
  from the CANN runtime's EE1003 on KernelLaunch's coreDim; other EE1003 refusals and GPU block-size limits are not it.
- ARL-E1031: FlashAttention-2 refusing a pre-Ampere GPU (flash_api.cpp's compute-capability check), not its argument checks.
"""

from __future__ import annotations

import pytest

from test_generalise_kop import top_of  # the top diagnosis id of a paste, and every (id, kind) read


@pytest.mark.parametrize("text, entry_id", [
    # triton-ascend's launcher check
    ('RuntimeError: grid should be less than 65536! You can try "export TRITON_ALL_BLOCKS_PARALLEL=1" to avoid this '
     'problem.', "ARL-E1030"),
    # the runtime's EE1003 under the CANN 8.5 wording (function name) and a later one (task description)
    ("Invalid_Argument(EE1003): KernelLaunch failed because value 511744 for parameter coreDim is invalid. "
     "Expected value: less than or equal to 65535.", "ARL-E1030"),
    ("EE1003: Starting the compute task of the corresponding operator failed because value 69888 for parameter coreDim "
     "is invalid. Expected value: less than or equal to 65535.", "ARL-E1030"),
    ("RuntimeError: FlashAttention only supports Ampere GPUs or newer.", "ARL-E1031"),
    # vLLM's model runner re-raises the worker's error with the input-dump prefix
    ("RuntimeError: Error in model execution (input dumped to /tmp/err_execute_model_input_20250111-130939.pkl): "
     "FlashAttention only supports Ampere GPUs or newer.", "ARL-E1031"),
])
def test_each_form_names_its_class(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text + "\n")
    assert top == entry_id, seen


@pytest.mark.parametrize("text, entry_id", [
    # the same EE1003 check for an empty grid (its own kind), and another parameter's 65535 bound
    ("Invalid_Argument(EE1003): LaunchKernelV2 failed because value 0 for parameter blockDim is invalid. "
     "Expected value: not equal to 0.", "ARL-E1030"),
    ("EE1003: Setting host info failed because value 70000 for parameter hostInfoNum is invalid. "
     "Expected value: [1, 65535].", "ARL-E1030"),
    # a GPU library's own block-size limit (unsloth on CUDA) is not the NPU launch limit
    ("RuntimeError: Cannot launch Triton kernel since n = 46336 exceeds the maximum CUDA blocksize = 65535.", "ARL-E1030"),
    # flash_api.cpp's other checks are about the call, not the GPU
    ("RuntimeError: FlashAttention forward only supports head dimension at most 256", "ARL-E1031"),
    ("RuntimeError: FlashAttention only support fp16 and bf16 data type", "ARL-E1031"),
])
def test_near_misses_are_not_the_class(explain_text, text, entry_id):
    _, seen = top_of(explain_text, text + "\n")
    assert all(entry != entry_id for entry, _ in seen), seen
