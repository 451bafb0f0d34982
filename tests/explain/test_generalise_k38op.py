"""ATen's dtype dispatch refusing a dtype, read as its class whichever kernel it names (k38op).

PyTorch's AT_DISPATCH_* macros (aten/src/ATen/Dispatch.h) end a dtype none of their cases lists with
``"<dispatch name>" not implemented for '<ScalarType>'`` (RuntimeError in older releases, NotImplementedError in newer).
DRV-torch-dtype reads that form for any kernel: a half dtype refused by a CPU kernel is a tensor left on the host
(kind half-model-on-cpu), anything else the op lacking that dtype in this torch (kind torch-op-dtype-unsupported).
The lines are real pastes (sources beside them). ARL-E388 names three CPU kernels' Half refusal; with it in the
catalog it stays the answer and the analyzer's reading is folded into it.
"""

from __future__ import annotations

import pytest

OWN = ("ARL-E388",)


@pytest.mark.parametrize("text, kind", [
    # https://github.com/chijames/KERPLE/issues/5
    ('RuntimeError: "max_all_cuda" not implemented for \'BFloat16\'\n', "torch-op-dtype-unsupported"),
    # https://github.com/pytorch/pytorch/issues/116609 (torch.eye on the CPU in bfloat16, torch 2.1)
    ('RuntimeError: "eye" not implemented for \'BFloat16\'\n', "torch-op-dtype-unsupported"),
    # https://github.com/alibaba/Tora/issues/34
    ('RuntimeError: "replication_pad1d_cuda" not implemented for \'BFloat16\'\n', "torch-op-dtype-unsupported"),
    # https://github.com/Vchitect/Latte/issues/61 (a half model sampled on the CPU)
    ('RuntimeError: "slow_conv2d_cpu" not implemented for \'Half\'\n', "half-model-on-cpu"),
    # https://github.com/baichuan-inc/Baichuan-13B/issues/112
    ('RuntimeError: "addmm_impl_cpu_" not implemented for \'Half\'\n', "half-model-on-cpu"),
    # https://github.com/facebookresearch/flores/issues/30
    ('RuntimeError: "LayerNormKernelImpl" not implemented for \'Half\'\n', "half-model-on-cpu"),
])
def test_the_dispatch_refusal_is_read_by_its_class(explain_without, text, kind):
    assert explain_without(text) == ("DRV-torch-dtype", kind)


def test_a_catalog_entry_naming_the_kernel_stays_the_answer(explain_text):
    result, top = explain_text('RuntimeError: "addmm_impl_cpu_" not implemented for \'Half\'\n')
    assert top is not None and top.entry.id == "ARL-E388"


@pytest.mark.parametrize("text", [
    "RuntimeError: Unsupported input type encountered for isin(): BFloat16\n",  # another check, not the dispatch's
    'KeyError: "max_all_cuda" not implemented for \'BFloat16\'\n',  # not a type ATen raises
    "not implemented for 'Half'\n",
])
def test_other_wordings_are_not_this_reading(explain_without, text):
    assert explain_without(text)[0] != "DRV-torch-dtype"


# The convolutions' same-type check (aten/src/ATen/native/Convolution.cpp, check_input_same_type_as_parameters): the
# two type strings say whether the device or the dtype differs. Lines from real pastes.
@pytest.mark.parametrize("text, kind", [
    # https://github.com/glam-imperial/cider/issues/6 (a CPU batch into a CUDA model)
    ("RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same\n",
     "cpu-npu-tensor-mix"),
    # https://github.com/kyegomez/LiqudNet/issues/7 (a CUDA batch into a model left on the CPU)
    ("RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same\n",
     "cpu-npu-tensor-mix"),
    # https://github.com/timeseriesAI/tsai/issues/468 (float64 data into a float32 model, both on the GPU)
    ("RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same\n",
     "op-input-dtype-mismatch"),
])
def test_the_same_type_check_names_what_differs(explain_without, text, kind):
    assert explain_without(text) == ("DRV-torch-same-type", kind)


def test_aten_type_strings_are_read_too():
    from ascendrl.catalog.analyzers.torchdtype import _device_dtype

    assert _device_dtype("CUDABFloat16Type") == ("cuda", "BFloat16")
    assert _device_dtype("torch.npu.HalfTensor") == ("npu", "Half")
    assert _device_dtype("torch.FloatTensor") == ("cpu", "Float")
    assert _device_dtype("c10::BFloat16") == (None, "BFloat16")


@pytest.mark.parametrize("text", [
    # https://github.com/rasbt/machine-learning-book/issues/192 (int32 labels into cross_entropy)
    'RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for \'Int\'\n',
    # https://github.com/lxztju/pytorch_classification/issues/47 (the same, pasted with typographic quotes)
    "RuntimeError: “nll_loss_forward_reduce_cuda_kernel_2d_index“ not implemented for ‘Int‘\n",
    # https://github.com/pytorch/pytorch/issues/116598 (float token ids into an embedding)
    "RuntimeError: Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
    "but got torch.FloatTensor instead (while checking arguments for embedding)\n",
    # https://github.com/PengNi/ccsmeth/issues/57 (older torch: Long only)
    "RuntimeError: Expected tensor for argument #1 'indices' to have scalar type Long; but got torch.cuda.IntTensor "
    "instead (while checking arguments for embedding)\n",
])
def test_a_dtype_the_op_never_takes_is_the_callers_input(explain_without, text):
    top, kind = explain_without(text)
    assert top in ("DRV-torch-dtype", "DRV-torch-same-type") and kind == "op-input-dtype-mismatch"


@pytest.mark.parametrize("text", [
    # https://github.com/pytorch/pytorch/issues/63935 (a float64 value into a float32 tensor by index)
    "RuntimeError: Index put requires the source and destination dtypes match, got Float for the destination and "
    "Double for the source.\n",
    # https://github.com/AI-secure/DBA/issues/1 (an integer buffer updated in place with floats)
    "RuntimeError: result type Float can't be cast to the desired output type Long\n",
    # https://github.com/ppogg/YOLOv5-Lite/issues/215 (the same, typographic apostrophe, 'long int')
    "RuntimeError: result type Float can‘t be cast to the desired output type long int\n",
    # https://github.com/INK-USC/RE-Net/issues/29 (older torch's wording)
    "IndexError: tensors used as indices must be long, byte or bool tensors\n",
])
def test_two_dtypes_meeting_are_the_callers_input(explain_without, text):
    assert explain_without(text) == ("DRV-torch-same-type", "op-input-dtype-mismatch")


def test_another_index_error_is_not_read(explain_without):
    # torch's embedding / index_select bound check is another class (ARL-E2776), not a dtype
    assert explain_without("IndexError: index out of range in self\n")[0] != "DRV-torch-same-type"
