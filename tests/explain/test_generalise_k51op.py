"""Readings added by helper k51op (2026-12-06) while probing public threads and the emitting projects' source for
operator / dtype / device-placement failure classes explain did not name. Each test input is a short excerpt around the
exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5240: a random op given a torch.Generator on another device than its kernel (ATen's check_generator /
  get_generator_or_default, "Expected a 'npu' / 'cuda' / 'cpu' device type for generator but found '...'"): a process-wide
  default device under the DataLoader's sampler, or a CPU generator handed to sampling on NPU tensors. Before, nothing.
- ARL-E5241: a CUDA-only torch class created on a torch without CUDA (torch/_utils.py _dummy_type, "Tried to instantiate
  dummy base class CUDAGraph / Stream / Event"): CUDA-graph capture or torch.cuda streams hard-coded in code run on an
  Ascend host. Before, nothing.
- ARL-E5242: transformers refusing attn_implementation=flash_attention_2 because flash_attn and a CUDA build of torch are
  installed but torch sees no CUDA device ("Flash Attention 2 is not available on CPU. Please make sure torch can access
  a CUDA device", modeling_utils.py): on Ascend a CUDA wheel where the CPU wheel + torch_npu belongs. Before, nothing.
- DRV-op-params widened: torch_npu's op-plugin argument checks (TORCH_CHECK(..., OPS_ERROR(ErrCode::PARAM | TYPE |
  VALUE)): the check's own text, then "[ERROR] ... ERR01001 OPS invalid parameter" / ERR01002 invalid type / ERR01003
  invalid value) read as the operator refusing an argument (kind aclnn-param-unsupported), with the check's words.
  Before, DRV-code named only the bare code ("invalid parameter").
- DRV-op-args (new analyzer, catalog/analyzers/operator.py OpArgumentParser): PyTorch's Python argument parser
  (torch/csrc/utils/python_arg_parser.cpp) refusing an operator call: "op(): argument 'x' (position n) must be T, not U"
  (keyword and list-element forms; "expected Tensor as element i in argument j, but got NoneType"), "op() received
  an invalid combination of arguments - got (...)" (kind op-argument-type-mismatch, with None / tuple readings), and for torch_npu's npu_* operators the schema forms
  (missing / unexpected keyword / too many positional / no overload: kind npu-op-signature-mismatch, a caller written for
  another torch_npu release). Before, nothing.
- DRV-vllm-ascend-refusal (new analyzer, operator.py VllmAscendRefusal): a NotImplementedError / ValueError /
  RuntimeError / AssertionError raised inside vllm_ascend/ whose words refuse a feature or setting ("does not
  support", "is not supported", "only supported", "cannot be used with"): vllm-ascend has no NPU path for what the
  engine was asked to do (kind vllm-ascend-feature-unsupported). The refusals an entry names keep their entry; a bare
  "function not implemented" (an abstract method) and Python's own "unsupported operand type" / "not supported between
  instances" are not read. Before, nothing.
"""

from __future__ import annotations

import functools

import pytest

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = ("Traceback (most recent call last):\n"
      '  File "/home/user/train.py", line 57, in train\n'
      "    for batch in loader:\n")


# ARL-E5240 (generator on another device) ----------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'",
    "RuntimeError: Expected a 'npu' device type for generator but found 'cpu'",
    "RuntimeError: Expected a 'cpu' device type for generator but found 'npu'",
    "RuntimeError: Expected a 'cpu' device type for generator but found 'cuda'",
    "RuntimeError: Expected a 'mps' device type for generator but found 'cpu'",
])
def test_generator_device_mismatch(line):
    assert _id(TB + line + "\n") == "ARL-E5240", line


def test_generator_near_miss_is_not_e5240():
    # a device string torch does not know (torch_npu not imported) is another failure
    text = TB + ("RuntimeError: Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, fpga, ort, "
                 "xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device type at start of device string: npu\n")
    assert _id(text) != "ARL-E5240"
    # tensors (not a generator) on two devices stay the CPU / NPU mix
    text = TB + ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 "
                 "and cpu!\n")
    assert _id(text) not in (None, "ARL-E5240")


# ARL-E5241 (CUDA-only dummy class) ----------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", ["CUDAGraph", "Stream", "Event", "_CudaStreamBase"])
def test_dummy_cuda_class(cls):
    text = (TB + '  File "/usr/local/lib/python3.11/site-packages/torch/_utils.py", line 912, in err_fn\n'
            '    raise RuntimeError(f"Tried to instantiate dummy base class {class_name}")\n'
            f"RuntimeError: Tried to instantiate dummy base class {cls}\n")
    assert _id(text) == "ARL-E5241", cls


def test_dummy_class_near_miss():
    # torch without CUDA asked for a CUDA device is its own (older) entry, not the dummy class
    text = TB + "AssertionError: Torch not compiled with CUDA enabled\n"
    assert _id(text) not in (None, "ARL-E5241")
    text = TB + "RuntimeError: Tried to instantiate class '_core.Graph', but it does not exist!\n"
    assert _id(text) != "ARL-E5241"


# DRV-op-params: torch_npu op-plugin argument checks ----------------------------------------------------------------

_TAG = "[ERROR] 2025-06-11-10:21:33 (PID:4242, Device:0, RankID:-1) {code} OPS {what}\n"


@pytest.mark.parametrize("said, code, what", [
    # Ascend/op-plugin op_plugin/ops/opapi/MoeDistributeCombineKernelOpApi.cpp
    ("The x and expert_ids should be 2D", "ERR01001", "invalid parameter"),
    # MoeDistributeCombineAddRmsNormKernelOpApi.cpp
    ("dtype of x should be bfloat16, float16 or int, dtype of expert_ids should be int.", "ERR01001", "invalid parameter"),
    # the TYPE / VALUE tags of the same macro
    ("input must be half, float or bfloat16", "ERR01002", "invalid type"),
    ("head_num must > 0, but got 0", "ERR01003", "invalid value"),
])
def test_op_plugin_argument_check(said, code, what):
    text = (TB + '  File "/usr/local/lib/python3.10/site-packages/torch/_ops.py", line 1116, in __call__\n'
            "    return self._op(*args, **(kwargs or {}))\n"
            f"RuntimeError: {said}\n" + _TAG.format(code=code, what=what))
    d = _top(text)
    assert d is not None and d.entry.id == "DRV-op-params", said
    assert d.kind == "aclnn-param-unsupported"
    assert said[:20] in d.entry.title


def test_op_plugin_check_near_misses():
    # the same code without a check text of its own (the tag alone) is not read as a refused argument
    text = TB + "RuntimeError: \n" + _TAG.format(code="ERR01001", what="invalid parameter")
    d = _top(text)
    assert d is None or d.entry.id != "DRV-op-params"
    # OPS NOT_SUPPORT (ERR01007) stays the "not supported on the NPU" reading
    text = TB + "RuntimeError: can not cast format when output is input\n" + _TAG.format(code="ERR01007", what="feature not supported")
    d = _top(text)
    assert d is None or d.entry.id != "DRV-op-params"
    # a chip refusal under the same tag stays the SoC reading
    text = TB + "RuntimeError: customize_dtype is not supported by the current soc version.\n" + _TAG.format(code="ERR01001", what="invalid parameter")
    d = _top(text)
    assert d is not None and d.kind == "op-unsupported-on-soc"


# DRV-op-args: PyTorch's argument parser refusing an operator call ------------------------------------------------------

@pytest.mark.parametrize("line, kind", [
    # torch/csrc/utils/python_arg_parser.cpp FunctionParameter checks (positional, keyword, list element)
    ("TypeError: npu_rms_norm(): argument 'gamma' (position 2) must be Tensor, not NoneType", "op-argument-type-mismatch"),
    ("TypeError: linear(): argument 'input' (position 1) must be Tensor, not tuple", "op-argument-type-mismatch"),
    ("TypeError: npu_fusion_attention(): argument 'atten_mask' must be Tensor, not bool", "op-argument-type-mismatch"),
    ("TypeError: cat(): argument 'tensors' (position 1) must be tuple of Tensors, but found element of type NoneType at pos 1",
     "op-argument-type-mismatch"),
    # print_error: no overload fits (https://github.com/rogerrojur/tianchi-multi-task-nlp/issues/6,
    # https://github.com/szagoruyko/diracnets/issues/18: code written for another torch release)
    ("TypeError: ne() received an invalid combination of arguments - got (NoneType), but expected one of:",
     "op-argument-type-mismatch"),
    ("TypeError: new() received an invalid combination of arguments - got (Tensor, int, int, int), but expected one of:",
     "op-argument-type-mismatch"),
    # is_tensor_list: a None in the list handed to torch.cat / torch.stack
    # (https://github.com/Jumpat/SegAnyGAussians/issues/110, https://github.com/pytorch/torchdynamo/issues/1024)
    ("TypeError: expected Tensor as element 0 in argument 0, but got NoneType", "op-argument-type-mismatch"),
    # a torch_npu operator called with another release's schema
    ("TypeError: npu_fusion_attention() received an invalid combination of arguments - got (Tensor, Tensor, Tensor, int, "
     "str, atten_mask=Tensor, scale=float), but expected one of:", "npu-op-signature-mismatch"),
    ('TypeError: npu_fusion_attention() missing 1 required positional arguments: "head_num"', "npu-op-signature-mismatch"),
    ("TypeError: npu_fusion_attention() got an unexpected keyword argument 'sparse_mode'", "npu-op-signature-mismatch"),
    ("TypeError: npu_moe_gating_top_k_softmax() takes from 1 to 3 positional arguments but 4 were given",
     "npu-op-signature-mismatch"),
])
def test_argument_parser_refusals(line, kind):
    d = _top(TB + line + "\n")
    assert d is not None and d.entry.id == "DRV-op-args", line
    assert d.kind == kind, line


def test_argument_parser_near_misses():
    # Python's own words for a Python function (not a torch_npu operator) are not the parser's
    for line in ("TypeError: forward() got an unexpected keyword argument 'sparse_mode'",
                 "TypeError: __init__() missing 1 required positional argument: 'config'",
                 # the same words in a RuntimeError are not the parser's TypeError
                 "RuntimeError: linear(): argument 'input' (position 1) must be Tensor, not tuple"):
        d = _top(TB + line + "\n")
        assert d is None or d.entry.id != "DRV-op-args", line


# DRV-vllm-ascend-refusal: vllm-ascend's own refusals no entry names ------------------------------------------------

_VA_TB = ("Traceback (most recent call last):\n"
          '  File "/usr/local/lib/python3.11/site-packages/vllm/v1/worker/gpu_worker.py", line 210, in load_model\n'
          "    self.model_runner.load_model()\n"
          '  File "/vllm-workspace/vllm-ascend/vllm_ascend/{where}", line 88, in {func}\n'
          "    raise X\n")


@pytest.mark.parametrize("where, line", [
    # raise sites in vllm-project/vllm-ascend at 182b75ea (vllm_ascend/worker/v2/..., lora/quant_moe.py, ascend_config.py,
    # sample/..., ops/...)
    ("worker/v2/model_runner.py", "NotImplementedError: Ascend MRV2 PCP does not support LoRA yet."),
    ("lora/quant_moe.py", "NotImplementedError: Ascend quantized MoE LoRA does not support dynamic EPLB."),
    ("ascend_config.py", "AssertionError: Sequence parallelism is only supported when tp_size > 1."),
    ("ascend_config.py", "ValueError: Mix placement is not supported with shared expert DP or multistream overlap."),
    ("sample/rejection_sampler.py", "NotImplementedError: FP64 rejection sampling is not supported on NPU."),
    ("ops/layernorm.py", "RuntimeError: This layer norm doesn't support feature dim >= 64KB."),
])
def test_vllm_ascend_refusal(where, line):
    d = _top(_VA_TB.format(where=where, func="f") + line + "\n")
    assert d is not None and d.entry.id == "DRV-vllm-ascend-refusal", line
    assert d.kind == "vllm-ascend-feature-unsupported"


def test_vllm_ascend_refusal_near_misses():
    # an entry that names the refusal keeps it (E1562: a feature vllm-ascend has no 310P path for)
    d = _top(_VA_TB.format(where="_310p/model_runner_310p.py", func="f")
             + "ValueError: Deepseek Sparse Attention is not supported for 310P.\n")
    assert d is not None and d.entry.id == "ARL-E1562"
    # an abstract method left unimplemented is not a refusal
    d = _top(_VA_TB.format(where="ops/fused_moe/prepare_finalize.py", func="f")
             + "NotImplementedError: Combine function not implemented.\n")
    assert d is None or d.entry.id != "DRV-vllm-ascend-refusal"
    # the same words raised by upstream vLLM (no vllm_ascend frame) are not vllm-ascend's refusal
    text = (TB + '  File "/usr/local/lib/python3.11/site-packages/vllm/config/parallel.py", line 300, in __post_init__\n'
            "    raise ValueError(msg)\n"
            "ValueError: Sequence parallelism is only supported when tp_size > 1.\n")
    d = _top(text)
    assert d is None or d.entry.id != "DRV-vllm-ascend-refusal"
    # an internal invariant under vllm_ascend without refusal words is not read
    d = _top(_VA_TB.format(where="ops/mamba.py", func="f") + "RuntimeError: causal_conv1d_fn requires cache_indices.\n")
    assert d is None or d.entry.id != "DRV-vllm-ascend-refusal"


# ARL-E5242 (flash_attention_2 with a CUDA torch that sees no GPU) ---------------------------------------------------

def test_fa2_not_available_on_cpu():
    text = TB + ("ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: "
                 "Flash Attention 2 is not available on CPU. Please make sure torch can access a CUDA device.\n")
    assert _id(text) == "ARL-E5242"


def test_fa2_near_misses():
    # flash_attn not installed at all is E137's
    text = TB + ("ValueError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: "
                 "the package flash_attn seems to be not installed. Please refer to the documentation of "
                 "https://huggingface.co/docs/transformers/perf_infer_gpu_one#flashattention-2 to install Flash Attention 2.\n")
    assert _id(text) == "ARL-E137"
    # flash_attn too old for the CUDA build is another failure
    text = TB + ("ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: you "
                 "need flash_attn package version to be greater or equal than 2.1.0. Detected version 2.0.4.\n")
    assert _id(text) != "ARL-E5242"


def test_vllm_ascend_refusal_ignores_python_type_errors():
    # Python's own words under a vllm_ascend frame are a bug in the code, not a refusal
    for line in ("TypeError: unsupported operand type(s) for +: 'NoneType' and 'int'",
                 "TypeError: '<' not supported between instances of 'NoneType' and 'int'",
                 "ValueError: '<' not supported between instances of 'str' and 'int'"):
        d = _top(_VA_TB.format(where="worker/model_runner_v1.py", func="f") + line + "\n")
        assert d is None or d.entry.id != "DRV-vllm-ascend-refusal", line
