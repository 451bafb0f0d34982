"""A native PyTorch kernel has no implementation for the tensor's dtype: ATen's dtype dispatch refusing it.

ATen's kernels pick their scalar type with the AT_DISPATCH_* macros (aten/src/ATen/Dispatch.h); a dtype none of the
macro's cases lists ends in ``"<dispatch name>" not implemented for '<ScalarType>'`` (``TORCH_CHECK_NOT_IMPLEMENTED``,
raised as NotImplementedError by recent releases, RuntimeError by older ones). The dispatch name is the kernel's own
(``upsample_linear1d_out_frame``, ``max_all_cuda``, ``addmm_impl_cpu_``, ``eye``), often with the device it runs on as a
suffix; the scalar type is c10's name for the dtype (Half, BFloat16, Float, Long, Bool ...). It is the same class
whichever kernel it names: the installed torch has no kernel of that op for that dtype on that device, not a broken
installation or an Ascend operator. Two readings follow from where the kernel ran:

- a half-precision dtype (Half / BFloat16) refused by a CPU kernel (``…_cpu`` / ``…_cpu_``, the CPU-only ``…Impl``
  kernels): the tensor is on the host. On an accelerator host that is a model (or a reward / reference model, an input)
  that never reached the device, where the op has half kernels; CPU kernels lack many of them, above all in older torch.
- another half / 8-bit float dtype: that op has no kernel for this dtype on this device in this torch release (bfloat16
  and half kernels were added to CUDA and CPU ops release by release): cast around the op, or a newer torch.
- a full-width or integer dtype (Float, Double, Int, Long, Bool ...): the op is not defined for it at all (a shift on
  floats, a loss's target or an index given as int32 or float where the kernel takes Long): the caller passed the wrong
  dtype (op-input-dtype-mismatch).

A second check, in the convolutions (check_input_same_type_as_parameters in aten/src/ATen/native/Convolution.cpp, and
the same check in torch_npu's op-plugin): ``Input type (<input>) and weight type (<weight>) should be the same`` (or
``bias type``), each type as the tensor's type string: the legacy ``torch.FloatTensor`` / ``torch.cuda.HalfTensor`` /
``torch.npu.BFloat16Tensor`` or ATen's ``CUDAFloatType``. The check compares device and dtype together, so the two
strings say which differs: a device (the input or the layer not moved with the other) is tensors on two devices
(cpu-npu-tensor-mix); the same device with another dtype is the input in another dtype than the layer
(op-input-dtype-mismatch: float64 data into a float32 model, float32 inputs into a half model).
"""

from __future__ import annotations

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
from ...lazyre import lazy

DISPATCH = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/Dispatch.h"
AMP_DOC = "https://pytorch.org/docs/stable/amp.html#ops-that-can-autocast-to-float32"
# '"<name>" not implemented for \'<ScalarType>\'': the name is a C++ string literal (letters, digits, '_', and a few
# kernels' spaces or '::'), the scalar type one of c10's ScalarType names.
# Pastes through a blog or chat often carry typographic quotes instead (“…“ / ‘…‘).
NOT_IMPLEMENTED = lazy(r"[\"“”]([\w:. ]{1,80})[\"“”] not implemented for ['‘’](\w+)['‘’]")
HALF = ("Half", "BFloat16")
# The dtypes kernels gained release by release (half, bfloat16, the 8-bit floats, complex half): a release gap; any
# other dtype refused is one the op is not defined for.
RELEASE_GAP = lazy(r"Half|BFloat16|Float8_\w+|ComplexHalf")
# CPU kernels by their dispatch names: the '_cpu' / '_cpu_' suffix ATen gives host kernels, and the CPU-only kernels
# named '...Impl' (LayerNormKernelImpl, GroupNormKernelImpl) or 'slow_conv2d_cpu'.
CPU_KERNEL = lazy(r"(?i)(?:^|_)cpu_?$|_cpu_|KernelImpl$")
# ATen's per-op dtype checks that say the same as the dispatch message, in their own words (lto53compat): isin's
# (TensorCompare.cpp check_for_unsupported_isin_dtype: "Unsupported input type encountered for isin(): BFloat16", the
# bfloat16 / half / complex inputs older releases' isin kernels lacked) and linalg's (LinearAlgebraUtils.h
# checkFloatingOrComplex, mirrored by torch/_prims_common: "linalg.inv: Low precision dtypes not supported. Got Half";
# cuSOLVER / LAPACK have no half-precision factorisations).
TENSOR_COMPARE = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/native/TensorCompare.cpp"
LINALG_UTILS = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/native/LinearAlgebraUtils.h"
OP_REFUSALS = (
    (lazy(r"Unsupported input type encountered for (isin)\(\): (\w+)"), TENSOR_COMPARE),
    (lazy(r"([\w.]{1,40}): Low precision dtypes not supported\. Got (\w+)"), LINALG_UTILS),
)
CONVOLUTION = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/native/Convolution.cpp"
SAME_TYPE = lazy(r"Input type \(([^()]{1,60})\) and (weight|bias) type \(([^()]{1,60})\) should be the same")
LEGACY_TYPE = lazy(r"torch\.(?:(\w+)\.)?(\w+)Tensor")
TENSOR_UTILS = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/TensorUtils.cpp"
# checkScalarType / checkScalarTypes (TensorUtils.cpp): "Expected tensor for argument #1 'indices' to have one of the
# following scalar types: Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)".
ARG_TYPES = lazy(r"Expected tensor for argument #\d+ '(\w+)' to have (?:scalar type (\w+)|one of the following scalar "
                 r"types: ([\w, ]+)); but got (\S+) instead \(while checking arguments for (\w+)\)")
# ATen's other checks that two tensors (or an index) disagree in dtype, each as the emitter words it:
# index_put_ (TensorAdvancedIndexing.cpp), an in-place / out= result that cannot take the promoted type (canCast in
# TensorIterator.cpp and the ops, torch_npu's op-plugin the same), an index tensor of another dtype (IndexingUtils.h).
ADVANCED_INDEXING = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/native/TensorAdvancedIndexing.cpp"
TENSOR_ITERATOR = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/TensorIterator.cpp"
INDEXING_UTILS = "https://github.com/pytorch/pytorch/blob/v2.1.0/aten/src/ATen/native/IndexingUtils.h"
MISMATCHES = (
    (lazy(r"Index put requires the source and destination dtypes match, got (\w+) for the destination and (\w+) for "
          r"the source"), ADVANCED_INDEXING,
     "an indexed assignment (x[idx] = y, index_put_) wrote a {1} tensor into a {0} one"),
    (lazy(r"result type (\w+) can['‘’]t be cast to the desired output type (\w+(?: int)?)"), TENSOR_ITERATOR,
     "an in-place or out= operation computes a {0} result that its {1} output cannot hold (e.g. x += float into an "
     "integer tensor)"),
    (lazy(r"tensors used as indices must be (long, (?:int, )?byte or bool) tensors"), INDEXING_UTILS,
     "a tensor used as an index is not {0} (a float mask or float positions)"),
    # masked_scatter_ (TensorAdvancedIndexing.cpp masked_scatter__cpu, cuda/IndexKernel.cu; torch_npu's op-plugin and
    # the Meta function the same): "masked_scatter: expected self and source to have same dtypes but got" + the two
    # ScalarTypes with no space after "got" (newer releases: "masked_scatter_: ... but got "; the Python meta function
    # prints torch.float32-style names). Multimodal models (Qwen2-VL / Qwen2.5-VL, Gemma, audio LMs) merge the encoder's
    # features into the text embeddings with inputs_embeds.masked_scatter(mask, features): the text embeddings and the
    # encoder output in different dtypes (autocast, an fp32 embedding under QLoRA / bf16 training, a vision tower kept
    # in float32) end here.
    (lazy(r"masked_scatter_?: expected self and source to have same dtypes but got ?(?:torch\.)?(\w+) and "
          r"(?:torch\.)?(\w+)"), ADVANCED_INDEXING,
     "a masked_scatter wrote a {1} source into a {0} tensor (in a multimodal model: the image / video / audio "
     "encoder's features scattered into text embeddings of another dtype, inputs_embeds.masked_scatter(mask, "
     "features))"),
)
ATEN_TYPE = lazy(r"(CPU|CUDA|HIP|XPU|MPS|XLA|NPU|PrivateUse1|Meta)(\w+)Type")


def _device_dtype(text: str) -> tuple[str | None, str]:
    """(device, dtype) of a tensor's type string; device None where the string names a dtype only (c10::BFloat16)."""
    text = text.strip()
    if m := LEGACY_TYPE.fullmatch(text):
        return (m.group(1) or "cpu").lower(), m.group(2)
    if m := ATEN_TYPE.fullmatch(text):
        return ("npu" if m.group(1) == "PrivateUse1" else m.group(1).lower()), m.group(2)
    return None, text.removeprefix("c10::")


class TorchDtypeDispatch(Analyzer):
    """ATen's dtype dispatch found no kernel of the op for the tensor's dtype."""

    id = "DRV-torch-dtype"
    title = "A native PyTorch kernel has no implementation for this dtype"
    family = "dtype"
    stops_run = "the op has no kernel for this dtype; every call fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("RuntimeError", "NotImplementedError", "Exception"):
            return None
        m = NOT_IMPLEMENTED.search(link.message)
        if m is None:
            return self._op_check(link)
        kernel, scalar = m.group(1).strip(), m.group(2)
        if scalar in HALF and CPU_KERNEL.search(kernel):
            kind = "half-model-on-cpu"
            title = (f"A {scalar} tensor reached a CPU kernel ('{kernel}' not implemented for '{scalar}'): it is on the "
                     "host, not the device")
            cause = (
                f"PyTorch's CPU kernel '{kernel}' has no {scalar} implementation (ATen's dtype dispatch, Dispatch.h), and "
                f"it was called because the {scalar} tensors are on the CPU. On an NPU / GPU host the model (or a reward "
                "or reference model, or the inputs) was never moved to the device: torch_npu not imported or the device "
                "not available in this process, device='cpu' / no device_map, or CPU offload left layers on the host. "
                "On the device the op has half-precision kernels; on the CPU many ops have none (more in newer torch).")
            fix = ("Move the model and inputs to the device (import torch_npu; model.to('npu') or device_map='npu:0'; "
                   "check torch.npu.is_available() in the failing process)",
                   "If it must run on the CPU, load it in float32 (torch_dtype=torch.float32), or use a torch release "
                   "whose CPU kernels cover this dtype")
        elif not RELEASE_GAP.fullmatch(scalar):
            kind = "op-input-dtype-mismatch"
            title = f"PyTorch's '{kernel}' kernel takes no {scalar} tensors: an input has the wrong dtype"
            cause = (
                f"The native PyTorch kernel '{kernel}' is not defined for {scalar} (ATen's dtype dispatch, Dispatch.h, "
                "lists no such case): the caller passed a tensor in a dtype the op does not take, e.g. a loss's target "
                "or an index tensor as int32 / float where the kernel takes int64 (Long), or floats to an integer "
                "(bitwise / shift) op. No torch release changes that; the tensor's dtype must.")
            fix = ("Cast the input the op refuses to the dtype it takes (targets and indices: .long(); bitwise ops: an "
                   "integer dtype)",
                   "Find where the tensor got that dtype (a dataset / collate function building it from numpy int32 or "
                   "float arrays) and build it in the right dtype there")
        else:
            kind = "torch-op-dtype-unsupported"
            title = f"PyTorch's '{kernel}' kernel is not implemented for {scalar}"
            cause = (
                f"The native PyTorch kernel '{kernel}' has no {scalar} implementation in the installed torch (ATen's "
                "dtype dispatch, Dispatch.h, found no case for that dtype on this device). The op, not the installation, "
                "lacks it: this torch release never built that kernel for this dtype (bfloat16 and half kernels were "
                "added op by op over releases), so the tensor reaching it must change dtype or the torch release must.")
            fix = (f"Cast the input of that op to a dtype it supports (e.g. x.float() around it, then back to {scalar}), "
                   "or run that part in float32 (outside autocast / with the module kept in float32)",
                   "Or use a torch release whose kernel covers the dtype (check the op's dtype list in that release), or "
                   "train / infer in a dtype the model's ops support (float16 instead of bfloat16, or float32)")
        sources = (DISPATCH, AMP_DOC) if kind == "torch-op-dtype-unsupported" else (DISPATCH,)
        return Finding(title, cause, fix, evidence(link), sources, key=f"torch-dtype:{kernel}:{scalar}", family="dtype",
                       kind=kind)

    def _op_check(self, link: Link) -> Finding | None:
        """An op's own dtype check (isin, linalg) refusing a half-precision dtype: the same release gap, other words."""
        for pattern, source in OP_REFUSALS:
            if (m := pattern.search(link.message)) is not None and RELEASE_GAP.fullmatch(m.group(2)):
                op, scalar = m.group(1), m.group(2)
                return Finding(
                    f"PyTorch's {op} does not take {scalar} tensors",
                    f"{link.short_type}: {m.group(0)}. Native PyTorch's {op} checks its input's dtype and has no {scalar} "
                    "implementation in the installed torch (not an Ascend operator: the op's own check refuses it on any "
                    "device). A bfloat16 / half model or autocast hands it a dtype it cannot compute in.",
                    (f"Cast the input of {op} to float32 (x.float()) and the result back, or run that step outside autocast",
                     "Or use a torch release whose op covers the dtype (isin gained bfloat16 / half in later releases; "
                     "the linalg factorisations have no half-precision kernels at all)"),
                    evidence(link), (source, AMP_DOC), key=f"torch-dtype:{op}:{scalar}", family="dtype",
                    kind="torch-op-dtype-unsupported",
                )
        return None


class TorchSameType(Analyzer):
    """A convolution's input and its weight (or bias) differ in device or dtype."""

    id = "DRV-torch-same-type"
    title = "A layer's input and its weights differ in device or dtype"
    family = "dtype"
    stops_run = "every forward through the layer fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("RuntimeError", "IndexError", "Exception"):
            return None
        for pattern, source, said in MISMATCHES:
            if mm := pattern.search(link.message):
                what = said.format(*mm.groups())
                return Finding(
                    f"Tensors of two dtypes met where one is needed: {what}",
                    f"PyTorch's dtype check refused the operation: {what}. The tensors came from places that built "
                    "them in different dtypes (a half / bfloat16 model writing into a float32 buffer, numpy float64 or "
                    "int32 data, an integer tensor updated with floats, a mask or index computed in float).",
                    ("Cast one side to the other's dtype at that line (y.to(x.dtype); indices .long(), masks .bool())",
                     "Find where that tensor got its dtype (a buffer allocated as float32 under a half model, a "
                     "dataset's numpy arrays) and create it in the dtype it meets"),
                    evidence(link), (source,), key=f"mismatch:{mm.group(0)[:80]}", family="dtype",
                    kind="op-input-dtype-mismatch",
                )
        if link.short_type == "IndexError":
            return None
        if a := ARG_TYPES.search(link.message):
            name, wanted, got, op = a.group(1), a.group(2) or a.group(3), a.group(4), a.group(5)
            return Finding(
                f"{op}'s argument '{name}' must be {wanted}, got {got}",
                f"PyTorch's argument check (checkScalarType(s), TensorUtils.cpp) refused '{name}' of {op}: the op takes "
                f"it only as {wanted}, and the caller passed {got}. The tensor was built in another dtype than the op "
                "needs (token ids or indices as float, from numpy / a collate function or a cast of the whole batch).",
                (f"Cast '{name}' to the dtype {op} takes before the call (token ids / indices: .long())",
                 "Find where that tensor got its dtype (a dataset, a collate function, a model.to(dtype) / "
                 "batch.to(dtype) that cast integer inputs too) and keep integer inputs integer there"),
                evidence(link), (TENSOR_UTILS,), key=f"arg-type:{op}:{name}:{got}", family="dtype",
                kind="op-input-dtype-mismatch",
            )
        m = SAME_TYPE.search(link.message)
        if m is None:
            return None
        given, param, held = m.group(1).strip(), m.group(2), m.group(3).strip()
        (in_dev, in_dtype), (par_dev, par_dtype) = _device_dtype(given), _device_dtype(held)
        if in_dev and par_dev and in_dev != par_dev:
            return Finding(
                f"A layer's input is on {in_dev} and its {param} on {par_dev} (Input type ({given}) and {param} type "
                f"({held}))",
                f"PyTorch's convolution checks that its input and its {param} have the same type, device included "
                f"(Convolution.cpp): the input is a {in_dev} tensor and the layer's {param} a {par_dev} one. One of the "
                "two was not moved with the other: the model was moved to the device but a batch (or a tensor built "
                "inside forward) stayed on the host, or the inputs were moved and the model (or a submodule kept in a "
                "plain Python list, which .to() does not reach) was not.",
                ("Move both to one device: model.to(device) and each batch .to(device) (on Ascend device = 'npu:N', "
                 "after import torch_npu)",
                 "Register submodules properly (nn.ModuleList / nn.ModuleDict, not a Python list) so model.to() moves "
                 "them, and create tensors inside forward on the input's device (device=x.device)"),
                evidence(link), (CONVOLUTION,), key=f"same-type:{given}:{held}", family="device",
                kind="cpu-npu-tensor-mix",
            )
        if in_dtype.lower() == par_dtype.lower():
            return None
        return Finding(
            f"A layer's input is {in_dtype} and its {param} {par_dtype} (Input type ({given}) and {param} type ({held}))",
            f"PyTorch's convolution checks that its input and its {param} have the same type (Convolution.cpp): both "
            f"are on one device, but the input is {in_dtype} and the layer's {param} {par_dtype}. The data was built in "
            "another dtype than the model (numpy's float64 into a float32 model, float32 inputs into a model cast to "
            "half / bfloat16), or only part of the model was cast.",
            (f"Cast the input to the layer's dtype before the call (x.to({param}.dtype), e.g. x.float() for float64 "
             "numpy data, x.half() / x.bfloat16() for a half model)",
             "Or run the forward under autocast (torch.autocast / torch.npu.amp.autocast), which casts the inputs of "
             "convolutions itself, or cast the whole model to one dtype"),
            evidence(link), (CONVOLUTION,), key=f"same-type:{given}:{held}", family="dtype",
            kind="op-input-dtype-mismatch",
        )
