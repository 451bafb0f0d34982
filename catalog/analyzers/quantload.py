"""A quantized checkpoint whose weights the NPU model loader does not know: the quantization format is not supported there.

vLLM's model classes load a checkpoint by looking each stored tensor's name up in the model's parameters
(``param = params_dict[name]`` in ``load_weights``, vllm/model_executor/models/*.py), and vllm-ascend's quantization
config looks each layer up in the checkpoint's quantization description (``self.quant_description[prefix + '.weight']``,
vllm_ascend/quantization/quant_config.py): a name the model built for this quantization method, or the description,
does not have raises ``KeyError: '<name>'``. On Ascend the layers are vllm-ascend's; a quantized
checkpoint whose format vllm-ascend does not implement for that model or device (AWQ / GPTQ / FP8 checkpoints, or an
msModelSlim W8A8 / W4A4 scheme this release or chip lacks) meets exactly this: its scale / offset tensors
(``deq_scale``, ``weight_scale``, ``input_offset`` …) or its renamed weights have no parameter to go to.
Read only where the paste shows both the Ascend stack and the quantization (a quantization tensor's name, the
failing line saying the checkpoint is quantized, or vLLM saying so of the model it loads: its engine banner's
quantization=<method>, or a quantization format in the loaded model's name; the Ascend stack also by vLLM's
"Platform plugin ascend is activated", which Facts.npu counts, or by a tensor only msModelSlim writes: deq_scale,
quant_bias); without them a missing weight name is a
checkpoint/architecture question (tied lm_head, another model's checkpoint), not this.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised

VLLM_LOAD_WEIGHTS = "https://github.com/vllm-project/vllm/blob/v0.7.3/vllm/model_executor/models/llama.py"
QUANT_CONFIG = "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/quantization/quant_config.py"
QUANT_DOC = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/user_guide/feature_guide/quantization.md"
VLLM_BANNER = "https://github.com/vllm-project/vllm/blob/v0.34.0/vllm/config/vllm.py"  # VllmConfig.__str__: quantization=…
VLLM_LOAD_LINE = "https://github.com/vllm-project/vllm/blob/v0.33.0/vllm/v1/worker/gpu_model_runner.py"  # "Starting to load model %s..."

# A parameter path: dotted module names ending in a tensor name (a pasted title may go on after the quoted key).
PARAM_KEY = lazy(r"^'((?:\w+\.)+(\w+))'(?:$|\W)")
# Tensors only quantized checkpoints store (msModelSlim W8A8 / W4A4 / W8A8-dynamic, AWQ / GPTQ, FP8).
QUANT_TENSORS = frozenset(("deq_scale", "quant_bias", "input_scale", "input_offset", "weight_scale", "weight_offset",
                           "qweight", "qzeros", "scales", "g_idx", "weight_scale_inv", "weight_packed", "weight_zero_point"))
# The failing line (an issue title, the reporter's sentence around the error) says the checkpoint is quantized.
# A fused-MoE layer stores its experts' tensors under w13_ (gate and up projections) and w2_ (down) prefixes: the same
# quantization tensors as a linear layer's (vllm-ascend quantization/w8a8.py, AscendW8A8FusedMoEMethod: w13_weight_scale,
# w2_deq_scale, w13_input_offset …; vLLM's FP8 MoE method: w13_weight_scale_inv).
MOE_PREFIX = lazy(r"^w(?:13|2)_")
ASCEND_W8A8 = "https://github.com/vllm-project/vllm-ascend/blob/00a69bff4efda1f988cf5c5a6a20ed740beeb597/vllm_ascend/quantization/w8a8.py"
# Tensors only msModelSlim (Ascend's quantization tool) writes: its W8A8 linear and MoE methods' dequantization scale and
# integer bias (AscendW8A8LinearMethod / AscendW8A8FusedMoEMethod in the file above). A checkpoint that has them was
# quantized for the Ascend stack, which the paste need not name otherwise.
ASCEND_TENSORS = frozenset(("deq_scale", "quant_bias"))
QUANT_WORDS = lazy(r"(?i)\b(?:quantiz\w*|awq|gptq|fp8|w8a8\w*|w4a4\w*|w8a16|w4a16|w4a8\w*)\b|量化")
# vllm-ascend's quantization config looks each layer up in the checkpoint's quant_model_description
# (quant_config.py is_layer_skipped_ascend at v0.11.0rc1: self.quant_description[prefix + '.weight']; modelslim_config.py
# in later releases): a KeyError raised there.
QUANT_FRAME = lazy(r"[/\\]quantization[/\\]\w+\.py$")
ASCEND = lazy(r"(?i)vllm[-_]ascend|\bascend\b|\bnpu\b|昇腾")
# The source line Python prints above that KeyError when the frame line itself was cut from the paste: the lookup of the
# layer in the checkpoint's quant_model_description ("is_shard_skipped = self.quant_description[shard_prefix +",
# "quant_type = quant_description[prefix + '.weight']"). Only the Ascend quantization configs (vllm-ascend's
# AscendQuantConfig / AscendModelSlimConfig, which msModelSlim checkpoints feed) keep a per-layer quant_description.
QUANT_DESCRIPTION = lazy(r"\bquant_description\[")


def served_quantized(link: Link, facts: Facts) -> bool:
    """vLLM says the model it serves is quantized: its engine banner's ``quantization=<method>`` (VllmConfig.__str__), or
    a quantization format in the name of the model its banner or model runner ("Starting to load model %s...") names (a
    Hub repo or directory called …-AWQ, …-GPTQ-Int4, …-FP8, …-w8a8, as quantized checkpoints are published)."""
    if facts.settings is None:
        return False
    quantization, model = facts.settings.served(link.file)
    name = model.rstrip("/\\").rsplit("/", 1)[-1].replace("_", "-") if model else ""  # qwen2_w8a8: "_" is a word character
    return bool(quantization) or bool(name and QUANT_WORDS.search(name))


class QuantizedWeights(Analyzer):
    id = "DRV-quant-load"
    title = "A quantized checkpoint's weights that the NPU model loader does not know"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type != "KeyError":
            return None
        m = PARAM_KEY.match(link.message.strip())
        if m is None:
            return None
        key, tensor = m.group(1), m.group(2)
        line = link.text or link.message
        if link.lead:  # a pasted sentence around the error: "qwen2.5 量化模型，用vllm-ascend跑报错KeyError: '…'"
            line = f"{link.lead} {line}"
        described = bool(link.source and QUANT_DESCRIPTION.search(link.source))
        quant = (tensor in QUANT_TENSORS or MOE_PREFIX.sub("", tensor) in QUANT_TENSORS or bool(QUANT_WORDS.search(line)) or described
                 or any(QUANT_FRAME.search(f.path) for f in link.frames))
        stated = not quant and served_quantized(link, facts)
        quant = quant or stated
        ascend = (facts.npu or described or MOE_PREFIX.sub("", tensor) in ASCEND_TENSORS or any("vllm_ascend" in f.path for f in link.frames)
                  or bool(ASCEND.search(line)))
        if not (quant and ascend):
            return None
        if described:
            return Finding(
                f"The checkpoint's quantization description has no entry for {key}: vllm-ascend cannot quantize this layer"[:160],
                f"KeyError: '{key}' raised by the lookup of the layer in the checkpoint's quantization description "
                f"({link.source.strip()[:80]}). vllm-ascend's Ascend quantization config takes every quantized checkpoint on an "
                "NPU and looks each layer the model builds up in quant_model_description.json (msModelSlim's per-tensor list): "
                "a checkpoint of another format (AWQ / GPTQ, whose config has no per-layer entries) or an msModelSlim export "
                "that lacks a layer this release builds (an MTP / draft layer, a renamed module) stops at the first such layer.",
                ("Quantize the model with msModelSlim for the installed vllm-ascend release (its quantization guide names the "
                 "version pairing), so quant_model_description.json lists every layer the model builds, including MTP layers",
                 "Or serve the unquantized bf16 / fp16 checkpoint; AWQ / GPTQ checkpoints are only read by releases whose "
                 "quantization guide lists them"),
                evidence(link), (QUANT_CONFIG, QUANT_DOC), key=f"quant-description:{tensor}",
                family="compat", kind="quant-method-unsupported-on-npu",
            )
        return Finding(
            f"The quantized checkpoint's tensor {key} has no parameter in the NPU model: its quantization format is not supported"[:160],
            f"KeyError: '{key}'. The model loader looked the checkpoint's tensor up among the parameters of the model vLLM / "
            "vllm-ascend built for this quantization and found none: the checkpoint's quantization format (its scale / "
            "offset tensors or renamed weights) is not one the installed vllm-ascend implements for this model or device.",
            ("Use a quantization vllm-ascend supports for this model and chip (an msModelSlim W8A8 / W4A8 checkpoint made for "
             "the installed release, quantization=\"ascend\"), or the unquantized bf16 / fp16 checkpoint",
             "If the format is listed for a newer vllm-ascend, upgrade vllm-ascend (with the vLLM it pins); AWQ / GPTQ / FP8 "
             "checkpoints made for GPUs are not loaded by the NPU layers of most releases"),
            evidence(link), (VLLM_LOAD_WEIGHTS, QUANT_CONFIG, QUANT_DOC, *((ASCEND_W8A8,) if MOE_PREFIX.match(tensor) or tensor in ASCEND_TENSORS else ()),
                             *((VLLM_BANNER, VLLM_LOAD_LINE) if stated else ())),
            key=f"quant-load:{tensor}",
            family="compat", kind="quant-method-unsupported-on-npu",
        )
