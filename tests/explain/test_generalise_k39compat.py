"""Readings widened by helper k39compat (2026-12-04) from vllm-ascend's quantization source, each for a class of failure
rather than one thread's paste:

- A vllm-ascend layer (Ascend*Linear, a fused-MoE layer) lacking a parameter that only one quantization method creates
  (vllm_ascend/quantization/w8a8.py: input_scale / input_offset, deq_scale, quant_bias, weight_scale / weight_offset,
  and the aclnn_input_scale / aclnn_input_scale_reciprocal / aclnn_input_offset derived after loading): the code path
  that read it does not support the scheme the checkpoint gave that layer. DRV-package read it as vLLM and vllm-ascend
  releases that do not match; it is read as the quantization scheme this path does not support.
- A quantized checkpoint's fused-MoE tensors (w13_ / w2_ prefixes: w2_weight_scale_inv, w13_deq_scale …) that the NPU
  model has no parameter for are the same quantization tensors as a linear layer's (DRV-quant-load).
- A call's TypeError raised in a decorator's forwarding wrapper ("return func(*args, **kwargs)", pandas'
  util/_decorators.py, transformers' deprecate_kwarg): the wrapper's package defines the decorated function and the
  package further out made the call (DRV-package read it as the wrapper's package calling the user's callback).
- msModelSlim's own tensors (deq_scale, quant_bias: vllm-ascend's W8A8 methods) name the Ascend stack by themselves: a
  cut paste (vLLM's engine log of the KeyError, vllm-ascend#1329) need not show an NPU word.
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result.diagnoses[0] if result.diagnoses else None


def _is(diagnosis, id_: str, kind: str) -> bool:
    return diagnosis is not None and diagnosis.entry.id == id_ and diagnosis.kind == kind


# The attribute the flashcomm path reads from a W4A8 layer (vllm-ascend#9658's line, a worker's log prefix kept).
FLASHCOMM = ("(Worker_DP2_TP0_EP8 pid=38700) ERROR 05-28 15:10:56 [multiproc_executor.py:870] AttributeError: "
             "'AscendRowParallelLinear' object has no attribute 'aclnn_input_scale'\n")


def test_missing_w8a8_parameter_is_the_scheme_not_the_versions():
    top = _top(FLASHCOMM)
    assert _is(top, "DRV-package", "quant-method-unsupported-on-npu")
    assert "aclnn_input_scale" in top.entry.title and "vllm and vllm_ascend versions" not in top.entry.title


def test_every_quantization_parameter_of_the_method_reads_the_same():
    for cls, attribute in (("AscendColumnParallelLinear", "deq_scale"), ("AscendQKVParallelLinear", "quant_bias"),
                           ("AscendMergedColumnParallelLinear", "aclnn_input_offset"),
                           ("AscendFusedMoE", "w13_weight_scale"), ("AscendRowParallelLinear", "input_offset")):
        top = _top(f"AttributeError: '{cls}' object has no attribute '{attribute}'\n")
        assert _is(top, "DRV-package", "quant-method-unsupported-on-npu"), (cls, attribute)


def test_other_attributes_of_ascend_layers_keep_the_version_reading():
    # not a quantization parameter: vLLM reading what a vllm-ascend subclass of another release does not set
    top = _top("AttributeError: 'AscendRowParallelLinear' object has no attribute 'reduce_results'\n")
    assert top is not None and top.kind != "quant-method-unsupported-on-npu"
    # a quantization-named attribute of a class that is not a layer (an attention metadata object) is not this
    top = _top("AttributeError: 'AscendMetadata' object has no attribute 'input_scale'\n")
    assert top is None or top.kind != "quant-method-unsupported-on-npu"


# vllm-ascend#183's shape: DeepSeek's FP8 checkpoint's expert scale under a fused-MoE name, on the NPU stack.
MOE_KEY = (
    "Traceback (most recent call last):\n"
    "  File \"/usr/local/lib/python3.10/site-packages/vllm_ascend/worker/model_runner.py\", line 1012, in load_model\n"
    "    self.model = get_model(vllm_config=self.vllm_config)\n"
    "  File \"/usr/local/lib/python3.10/site-packages/vllm/model_executor/models/deepseek_v2.py\", line 782, in load_weights\n"
    "    param = params_dict[name]\n"
    "KeyError: 'model.layers.27.mlp.experts.w2_weight_scale_inv'\n"
)


def test_fused_moe_quant_tensor_is_a_quantization_tensor():
    top = _top(MOE_KEY)
    assert _is(top, "DRV-quant-load", "quant-method-unsupported-on-npu") or (
        top is not None and top.entry.id == "ARL-E1991")
    without = [e for e in CATALOG.entries if e.id != "ARL-E1991"]
    import dataclasses

    classifier = Classifier(dataclasses.replace(CATALOG, entries=tuple(without)))
    classifier.feed_stream(io.BytesIO(MOE_KEY.encode()), "paste.log")
    result = classifier.result()
    assert result.diagnoses and _is(result.diagnoses[0], "DRV-quant-load", "quant-method-unsupported-on-npu")


def test_a_moe_weight_that_is_not_quantization_is_not_this():
    text = MOE_KEY.replace("w2_weight_scale_inv", "w2_router_bias")
    without = tuple(e for e in CATALOG.entries if e.id != "ARL-E1991")
    import dataclasses

    classifier = Classifier(dataclasses.replace(CATALOG, entries=without))
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    assert not result.diagnoses or result.diagnoses[0].entry.id != "DRV-quant-load"


# vLLM's engine log of the KeyError alone (the traceback under it cut), as vllm-ascend#1329 printed it.
ENGINE_KEY = ("ERROR 06-20 23:20:13 engine.py:400] 'layers.0.mlp.gate_up_proj.deq_scale'\n"
              "ERROR 06-20 23:20:13 engine.py:400] Traceback (most recent call last):\n")


def test_msmodelslim_tensor_names_the_ascend_stack():
    without = tuple(e for e in CATALOG.entries if e.id != "ARL-E248")
    import dataclasses

    for text in (ENGINE_KEY, ENGINE_KEY.replace("deq_scale", "quant_bias")):
        classifier = Classifier(dataclasses.replace(CATALOG, entries=without))
        classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
        result = classifier.result()
        assert result.diagnoses and _is(result.diagnoses[0], "DRV-quant-load", "quant-method-unsupported-on-npu"), text
    # a GPU format's scale without any Ascend word is a checkpoint question here, not this reading
    classifier = Classifier(dataclasses.replace(CATALOG, entries=without))
    classifier.feed_stream(io.BytesIO(ENGINE_KEY.replace("deq_scale", "qzeros").encode()), "paste.log")
    result = classifier.result()
    assert not result.diagnoses or result.diagnoses[0].entry.id != "DRV-quant-load"


WRAPPED = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.10/dist-packages/datasets/packaged_modules/json/json.py", line 155, in _generate_tables\n'
    '    df = pd.read_json(f, dtype_backend="pyarrow")\n'
    '  File "/usr/local/lib/python3.10/dist-packages/pandas/util/_decorators.py", line 331, in wrapper\n'
    "    return func(*args, **kwargs)\n"
    "TypeError: read_json() got an unexpected keyword argument 'dtype_backend'\n"
)


def test_call_through_a_decorator_wrapper_names_the_caller_and_the_callee():
    top = _top(WRAPPED)
    assert _is(top, "DRV-package", "package-mismatch")
    assert "datasets and pandas" in top.entry.title and "your read_json" not in top.entry.title
    assert any("pandas/util/_decorators.py" in s for s in top.entry.sources)  # the wrapper reading cites where it is from


def test_a_forwarding_frame_that_is_not_a_decorator_wrapper_is_not_read_so():
    # torch's module call forwards to a model's forward the caller chose: not torch's function
    text = WRAPPED.replace("pandas/util/_decorators.py", "torch/nn/modules/module.py").replace("in wrapper", "in _call_impl")
    top = _top(text)
    assert top is None or "datasets and torch" not in top.entry.title
    # the call made from the user's own script: no package pair from the wrapper alone
    text = WRAPPED.replace("/usr/local/lib/python3.10/dist-packages/datasets/packaged_modules/json/json.py", "/home/user/run.py")
    top = _top(text)
    assert top is None or "pandas versions" not in top.entry.title
