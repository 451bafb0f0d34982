"""Unexplained exceptions whose class holds across frameworks and wordings (session 18, kexc).

- DRV-op-no-npu-kernel: a framework's dispatcher has no kernel for the operator on the NPU — mmcv's C++ op registry
  (pytorch_device_registry.hpp), Paddle's phi KernelFactory (kernel_factory.cc: the kernel name not registered at all,
  or the npu/ascend key), PyTorch's dispatcher (OperatorEntry::reportError, the 'npu' / 'PrivateUse1' / torch_npu 1.x
  'XLA' key, the layout-prefixed 'Sparsenpu'), MindSpore's Ascend kernel selection (kernel_select_ascend.cc). Each
  wording below is the template its source emits (the operator names are examples); the near misses are other classes
  and stay so.
"""

from __future__ import annotations

import dataclasses

import pytest

from conftest import top_of

NO_KERNEL = "DRV-op-no-npu-kernel"


def _without(catalog, ids):
    return dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in ids))


@pytest.mark.parametrize("text", [
    # Paddle: no kernel of that name in the build at all (a GPU-only kernel on the NPU plugin)
    "RuntimeError: (NotFound) The kernel `sync_batch_norm` is not registered.\n"
    "  [Hint: Expected iter != kernels_.end(), but received iter == kernels_.end().] "
    "(at /paddle/paddle/phi/core/kernel_factory.cc:141)",
    # PyTorch's dispatcher with torch_npu's renamed PrivateUse1 key, the unrenamed key, and torch_npu 1.x's XLA key
    "NotImplementedError: Could not run 'aten::_linalg_eigh.eigenvalues' with arguments from the 'npu' backend. This "
    "could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build "
    "process (if using custom build).",
    "NotImplementedError: Could not run 'aten::_foreach_norm.Scalar' with arguments from the 'PrivateUse1' backend. This "
    "could be because the operator doesn't exist for this backend, or was omitted during the selective/custom build "
    "process (if using custom build).",
    "NotImplementedError: Could not run 'aten::bucketize.Tensor' with arguments from the 'XLA' backend.",
    # a sparse tensor on the NPU: the renamed key keeps the layout prefix
    "NotImplementedError: Could not run 'aten::_sparse_coo_tensor_with_dims_and_tensors' with arguments from the "
    "'Sparsenpu' backend.",
    # MindSpore's Ascend kernel selection with no AI Core nor AI CPU kernel (kernel_select_ascend.cc)
    "RuntimeError: Can not find any available kernel info for: Unique. Maybe the operator is not supported on Ascend "
    "platform.",
])
def test_each_framework_wording_names_the_missing_npu_kernel(explain_text, text):
    top, seen = top_of(explain_text, text + "\n")
    assert top == NO_KERNEL, seen
    assert (NO_KERNEL, "op-not-supported-on-npu") in seen, seen


def test_the_mmcv_wording_is_read_without_its_entry(catalog, tmp_path):
    """ARL-E630 names mmcv's wording; without it the analyzer still names the class (other wordings, other threads)."""
    from ascendrl.catalog import explain_paths

    log = tmp_path / "x.log"
    log.write_text("RuntimeError: roi_align_forward_impl: implementation for device npu:0 not found.\n", encoding="utf-8")
    result = explain_paths(_without(catalog, ["ARL-E630"]), [log])
    top = result.diagnoses[0]
    assert (top.entry.id, top.kind) == (NO_KERNEL, "op-not-supported-on-npu"), [(d.entry.id, d.kind) for d in result.diagnoses]
    assert "roi_align_forward" in top.entry.title
    # with the entry in place, the entry names it and the analyzer's finding is folded into it
    full = explain_paths(catalog, [log])
    assert full.diagnoses[0].entry.id == "ARL-E630"


@pytest.mark.parametrize("text", [
    # an NPU-only op handed CPU tensors: the 'CPU' backend is the CPU-fallback class, not a missing NPU kernel
    "NotImplementedError: Could not run 'vllm::all_reduce' with arguments from the 'CPU' backend. This could be because "
    "the operator doesn't exist for this backend.",
    # a missing backward registration (Autograd key), not a missing kernel
    "NotImplementedError: Could not run 'aten::to.dtype' with arguments from the 'AutogradPrivateUse1' backend.",
    # Paddle's keyed miss on a CPU or GPU key is a dtype / build matter (kop16's near misses)
    "RuntimeError: (NotFound) The kernel with key (CPU, Undefined(AnyLayout), float16) of kernel `multiply` is not "
    "registered.",
    "RuntimeError: (NotFound) The kernel with key (GPU, NCHW, int64) of kernel `sigmoid_cross_entropy_with_logits` is "
    "not registered and fail to fallback to CPU one.",
    # mmcv on a CUDA device: a CUDA build problem, not the NPU
    "RuntimeError: nms_impl: implementation for device cuda:0 not found.",
    # MindSpore found kernels, none for these dtypes / shapes: an input matter
    "TypeError: Can not select a valid kernel info for [Gather] in AI CORE or AI CPU kernel info candidates list.",
])
def test_near_misses_are_not_a_missing_npu_kernel(explain_text, text):
    _, seen = top_of(explain_text, text + "\n")
    assert all(entry != NO_KERNEL for entry, _ in seen), seen


# --- DRV-mindspore-device: MindSpore's own device checks (context, device address, runtime init) -------------------

MS = "DRV-mindspore-device"


@pytest.mark.parametrize("text, kind", [
    # MindSpore's error-analysis guide: a GPU wheel asked for Ascend
    ("ValueError: For 'set_context', package type mindspore-gpu support 'device_target' type gpu or cpu, but got Ascend.",
     "device-target-mismatch"),
    # GeDeviceResManager::AllocateMemory, both spellings of its context part (MindOCR's FAQ shows the first)
    ("RuntimeError: The device address type is wrong: type name in address:CPU, type name in context:Ascend",
     "device-target-mismatch"),
    ("RuntimeError: The device address type is wrong: type name in address:CPU, type name in context: Ascend.",
     "device-target-mismatch"),
    # AscendKernelRuntime::Init, the older wording without the device id and the newer one with it (MindSpore's FAQ)
    ("RuntimeError: Ascend kernel runtime initialization failed. The details refer to 'Ascend Error Message'.",
     "acl-init-failed"),
    ("RuntimeError: Ascend kernel runtime initialization failed, device id: 9. The details refer to 'Ascend Error Message'.",
     "acl-init-failed"),
])
def test_mindspore_device_checks_are_named(explain_text, text, kind):
    top, seen = top_of(explain_text, text + "\n")
    assert top == MS, seen
    assert (MS, kind) in seen, seen


@pytest.mark.parametrize("text", [
    # set_context's own argument check (a misspelt target) is a typo, not a package built for another backend
    "ValueError: For 'context.set_context', the argument 'device_target' must be one of ['CPU', 'GPU', 'Ascend', "
    "'Davinci'], but got Acsend.",
    # another runtime's initialisation (torch_npu) is not MindSpore's
    "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: "
    "c10_npu::acl::AclrtSetDevice(device_id_), error code is 507033",
])
def test_near_misses_are_not_mindspore_device(explain_text, text):
    _, seen = top_of(explain_text, text + "\n")
    assert all(entry != MS for entry, _ in seen), seen
