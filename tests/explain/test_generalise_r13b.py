"""Forms of device / process-limit failures read from their emitters, not from one paste (session 15, r13b).

- A device that cannot be opened: ACL's "open device N failed, runtime result = 507033." (CANN 8.5/9.0, "rt ret" in the
  9.x C port) and the runtime's RawDevice lines under it name ARL-E312; the runtime's EE1001 "context is a null pointer"
  records that follow a failed open are its consequence, while the same record alone still names ARL-E470.
- bash's fork retry (make_child retries only on EAGAIN) names the process limit, ARL-E014, whatever errno text follows.
- New entries ARL-E930..E935 (vLLM's compute-capability gate, Ray's unpicklable worker exception, the sleep-mode
  allocators' OOM, serving warmup past the device memory, MindIE's missing model_type, paddle-custom-npu kernels): each
  wording their emitters print names its entry, and the near wordings that are another failure do not.
- triton-ascend's extension operations called on triton.language (DRV-triton, kind triton-ascend-extension-op).
"""

from __future__ import annotations

import pytest

from conftest import top_of


CONTEXT_NULL = ("[ERROR] RecentErrMsg: Invalid_Argument(EE1001): The argument is invalid.Reason: rtGetDevMsg execution "
                "failed, the context is a null pointer.\n")


@pytest.mark.parametrize("text", [
    "        open device 2 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n",
    "open device 0 failed, rt ret = 507033.\n",
    "        Failed to open device, retCode=0x7020010, deviceId=1.[FUNC:InitRawDriver][FILE:raw_device.cc][LINE:213]\n",
    "        Failed to init RawDriver, device_id=1, retCode=0x7020010[FUNC:Init][FILE:raw_device.cc][LINE:511]\n",
])
def test_a_device_open_failure_names_e312_over_the_null_context_after_it(explain_text, text):
    top, seen = top_of(explain_text, CONTEXT_NULL + "        TraceBack (most recent call last):\n" + text)
    assert top == "ARL-E312", seen


def test_another_open_device_result_is_not_e312(explain_text):
    # 107001 (invalid device id) is not the busy/unhealthy device of ARL-E312
    top, seen = top_of(explain_text, "open device 9 failed, runtime result = 107001.\n")
    assert top != "ARL-E312", seen


def test_the_null_context_alone_still_names_e470(explain_text):
    top, seen = top_of(explain_text, CONTEXT_NULL)
    assert top == "ARL-E470", seen


def test_the_unpickle_failure_outranks_the_task_error_wrapper_but_not_an_earlier_specific_error(explain_text):
    wrapper = ("ray.exceptions.RayTaskError(RaySystemError): ray::TaskRunner.run() (pid=1, ip=10.0.0.1, "
               "actor_id=ac22, repr=<main_ppo.TaskRunner object at 0x7f07>)\n")
    unpickle = "RuntimeError: Failed to unpickle serialized exception\n"
    top, seen = top_of(explain_text, wrapper + unpickle)
    assert top == "ARL-E931", seen
    # the worker's own failure, printed before the caller's unpickling error, stays the root cause
    top, seen = top_of(explain_text, "RuntimeError: No space left on device\n" + wrapper + unpickle)
    assert top != "ARL-E931", seen


@pytest.mark.parametrize("text, entry_id", [
    # bash's fork retry (EAGAIN only), whatever errno text the release prints
    ("-bash: fork: retry: Resource temporarily unavailable\n", "ARL-E014"),
    ("-bash: fork: retry: No child processes\n", "ARL-E014"),
    ("/usr/bin/bash: fork: retry: Resource temporarily unavailable\n", "ARL-E014"),
    # vLLM's capability gate (the same f-string at every release), compressed-tensors' three-argument tuple, its
    # match_exact branch, and the joined sentence of later releases
    ("ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 89. "
     "Current capability: 86.\n", "ARL-E930"),
    ("RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', "
     "'Current capability: 75.')\n", "ARL-E930"),
    ("RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Required capability: ', "
     "'90. Current capability: 89.')\n", "ARL-E930"),
    ("RuntimeError: Quantization scheme is not supported for the current GPU. Min capability: 80. Current capability: 75.\n",
     "ARL-E930"),
    # the sleep-mode allocators, CUDA and both vllm-ascend wordings, and a caller carrying the message
    ("Wake-up failed on Rank 0: CUDA Error: out of memory at /workspace/csrc/cumem_allocator.cpp:163\n", "ARL-E932"),
    ("RuntimeError: aclrtMallocPhysical failed with acl error code: 207001(OOM: Out of Memory, allocation failed) "
     "/vllm-workspace/vllm-ascend/csrc/camem_allocator.cpp:66\n", "ARL-E932"),
    # serving warmup past the device memory: MindIE's multimodal check (raised as 'NPU out of memory. ...')
    ("RuntimeError: NPU out of memory. Warmup failed, because of multimodal model inference out of memory when "
     "`maxInputTokenLen` set to 8192. Please try to decrease `maxPrefillTokens` in config.json of mindie-service.\n",
     "ARL-E933"),
    ("RuntimeError: Not enough memory to handle 4096 prefill tokens. You need to decrease `--max-batch-prefill-tokens`\n",
     "ARL-E933"),
    # atb_llm's model folders: both separators and capitals (ARL-E910, which r13a wrote from the same thread)
    ("NotImplementedError: Unsupported model type: glm4_moe;请确认atb_llm.models路径下是否存在名为glm4_moe的文件夹。\n", "ARL-E910"),
    # paddle-custom-npu kernels
    ("RuntimeError: (NotFound) The kernel with key (npu, Undefined(AnyLayout), bfloat16) of kernel `round` is not "
     "registered and fail to fallback to CPU one. Selected wrong DataType `bfloat16`.\n", "ARL-E935"),
])
def test_each_wording_names_its_entry(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text)
    assert top == entry_id, seen


@pytest.mark.parametrize("text, not_id", [
    # ENOMEM from fork is memory, not the process limit, and bash never retries it
    ("bash: fork: Cannot allocate memory\n", "ARL-E014"),
    # the quantization method refusing the dtype is not the capability gate
    ("ValueError: torch.bfloat16 is not supported for quantization method awq. Supported dtypes: [torch.float16]\n",
     "ARL-E930"),
    # another ACL result from the camem allocator is not an out-of-memory
    ("acl Error, code: 100000 at /vllm-ascend/csrc/camem_allocator.cpp:145\n", "ARL-E932"),
    # a plain CUDA OOM is not the sleep-mode allocator
    ("RuntimeError: CUDA error: out of memory\n", "ARL-E932"),
    # Paddle's Unimplemented from a GPU kernel, and a kernel missing on the GPU place, are not the NPU plugin
    ("NotImplementedError: (Unimplemented) mode reflect is not supported. (at /paddle/paddle/phi/kernels/gpu/pad3d_kernel.cu:40)\n",
     "ARL-E935"),
    ("RuntimeError: (NotFound) The kernel with key (GPU, Undefined(AnyLayout), float16) of kernel `silu` is not "
     "registered and fail to fallback to CPU one.\n", "ARL-E935"),
])
def test_near_wordings_do_not_name_it(explain_text, text, not_id):
    top, seen = top_of(explain_text, text)
    assert top != not_id, seen


def test_a_triton_ascend_extension_op_on_triton_language_names_the_extension_module(explain_text):
    result, top = explain_text("AttributeError: module 'triton.language' has no attribute 'insert_slice'\n")
    assert top is not None and top.kind == "triton-ascend-extension-op", [(d.entry.id, d.kind) for d in result.diagnoses]
    assert any("extra.cann.extension" in f for f in top.entry.fix)


def test_another_missing_triton_language_name_stays_a_version_mismatch(explain_text):
    # an upstream name (tl.any never existed; here the caller expects another triton release)
    result, top = explain_text("AttributeError: module 'triton.language' has no attribute 'target_info'\n")
    assert top is not None and top.kind == "triton-ascend-mismatch", [(d.entry.id, d.kind) for d in result.diagnoses]
