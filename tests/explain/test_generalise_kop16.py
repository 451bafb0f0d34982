"""Classes of operator / device failures that recur in real threads and no entry named (session 16, kop).

- ARL-E1030: a kernel launched on the NPU with more than 65535 blocks, read from triton-ascend's launcher check and
  from the CANN runtime's EE1003 on KernelLaunch's coreDim; other EE1003 refusals and GPU block-size limits are not it.
- ARL-E1031: FlashAttention-2 refusing a pre-Ampere GPU (flash_api.cpp's compute-capability check), not its argument checks.
- ARL-E1032: a constant outside float16's range written into an fp16 tensor (c10 report_overflow for Half only).
- ARL-E935 (widened): Paddle's missing NPU kernel with CPU fallback off, and the plugin's older device name 'ascend'.
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
    # Paddle's kernel selection on the NPU plugin with CPU fallback switched off (the sibling of 'fail to fallback')
    ("RuntimeError: (NotFound) The kernel with key (npu, Undefined(AnyLayout), bfloat16) of kernel `full_like` is not "
     "registered and the current value of FLAGS_enable_api_kernel_fallback(bool, default true) is false. If you want to "
     "fallback this kernel to CPU one, please set the flag true before run again.", "ARL-E935"),
    # c10's report_overflow for a float16 target, under the newer type name
    ("RuntimeError: value cannot be converted to type c10::Half without overflow", "ARL-E1032"),
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
    # Paddle's missing kernel on a GPU or CPU key is a dtype / build matter, not the NPU plugin
    ("RuntimeError: (NotFound) The kernel with key (GPU, NCHW, int64) of kernel `sigmoid_cross_entropy_with_logits` is "
     "not registered and fail to fallback to CPU one.", "ARL-E935"),
    ("RuntimeError: (NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) of kernel `multiply` is not "
     "registered.", "ARL-E935"),
    # the same check for an integer dtype is a different mistake (a value past int8's range), not float16's range
    ("RuntimeError: value cannot be converted to type int8_t without overflow", "ARL-E1032"),
])
def test_near_misses_are_not_the_class(explain_text, text, entry_id):
    _, seen = top_of(explain_text, text + "\n")
    assert all(entry != entry_id for entry, _ in seen), seen
