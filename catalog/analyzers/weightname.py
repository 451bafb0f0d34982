"""A checkpoint tensor vLLM's model class has no parameter for: KeyError in the model's ``load_weights``.

vLLM's model classes load weights by looking each incoming tensor's name up among the model's own parameters
(``param = params_dict[name]`` in ``load_weights``, vllm/model_executor/models/*.py); a name the model did not build
raises ``KeyError: '<name>'``. The same lookup runs when an RL trainer pushes new weights into the rollout engine
(verl, TRL, OpenRLHF call ``model.load_weights`` with the trainer's names). The name itself tells the class apart:

- a quantized checkpoint's tensor (``weight_scale``, ``g_idx``, ``qzeros``, ``w13_bias`` …): the layers vLLM built
  for this model and quantization method have no such parameter, so the checkpoint's scheme is not one this vLLM
  release implements for that model (quantload.py reads the same on Ascend NPUs, where it is vllm-ascend's);
- a PEFT name (``base_layer``, ``lora_A`` / ``lora_B``, ``base_model.model.``): a LoRA-wrapped model's state dict was
  pushed or saved as if it were the base model;
- a wrapper prefix (``module.``, ``_orig_mod.``): a DDP / torch.compile wrapper's names were saved into the checkpoint;
- anything else: the checkpoint's names belong to another layout than the class config.json selects (another
  architecture's weights, a layout written by a different transformers release, a second weight format in the folder).

Read only where the paste shows the lookup: a ``load_weights`` frame under vllm/ or the ``params_dict[name]`` source line.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised, typed
from .quantload import PARAM_KEY, QUANT_TENSORS, QUANT_WORDS

# vLLM's per-model loader: `param = params_dict[name]` (llama.py, qwen2.py, qwen3_moe.py … at every release).
VLLM_LOAD_WEIGHTS = "https://github.com/vllm-project/vllm/blob/v0.7.3/vllm/model_executor/models/llama.py"
VLLM_QUANT_DOC = "https://docs.vllm.ai/en/latest/features/quantization/index.html"
PEFT_MERGE = "https://huggingface.co/docs/peft/main/en/developer_guides/lora#merge-lora-weights-into-the-base-model"
VLLM_FRAME = lazy(r"[/\\]vllm[/\\](?:model_executor|worker|v1)[/\\]")
LOOKUP = lazy(r"\bparams_dict\[name\]")
# bias tensors that only fused / quantized MoE expert layers store (GPT-OSS MXFP4 w13_bias / w2_bias)
MOE_QUANT_BIAS = frozenset(("w13_bias", "w2_bias"))
PEFT = lazy(r"(?:^|\.)(?:base_layer|lora_[AB]|lora_embedding_[AB])(?:\.|$)|^base_model\.model\.")
WRAPPER = lazy(r"^(?:module|_orig_mod|_fsdp_wrapped_module|_checkpoint_wrapped_module)\.")
# vLLM's engine core answers a failed utility call with f"Call to {method_name} method failed: {str(e)}" and the client
# re-raises it as a bare Exception (vllm/v1/engine/core.py / core_client.py); an RL trainer's weight push runs
# model.load_weights through collective_rpc, so the worker's KeyError arrives as the quoted parameter name.
VLLM_ENGINE_CORE = "https://github.com/vllm-project/vllm/blob/v0.11.0/vllm/v1/engine/core.py"
RPC_KEY = lazy(r"^Call to collective_rpc method failed: ('(?:\w+\.)+\w+')\s*$")
# A vision-language model's tower / projector prefix. vLLM's VL classes route names by prefix (hf_to_vllm_mapper /
# AutoWeightsLoader), so a name that still starts with one inside a loader's params_dict[name] lookup reached the text
# model: the names follow transformers >= 4.52's VLM layout (model.visual. / model.language_model. /
# model.vision_tower. / model.multi_modal_projector.), which VL classes of vLLM releases before it do not map
# ("mapping for new names in checkpoint saved after transformers v4.52" in their hf_to_vllm_mapper).
# Read in the vLLM 0.9.2 wheel: qwen2_5_vl.py's hf_to_vllm_mapper maps "model.visual." with the comment
# "mapping for new names in checkpoint saved after transformers v4.52".
VLLM_VL_MAPPER = "https://github.com/vllm-project/vllm/blob/v0.9.2/vllm/model_executor/models/qwen2_5_vl.py"
VISION_PREFIX = lazy(r"^(?:model\.)?(?:visual|vision_tower|vision_model|vision_encoder|multi_modal_projector|mm_projector)\.")


def _looked_up(link: Link) -> bool:
    """The KeyError comes from vLLM's parameter lookup: a load_weights frame under vllm/, or its source line."""
    if link.source and LOOKUP.search(link.source):
        return True
    return any(f.func == "load_weights" and VLLM_FRAME.search(f.path) for f in link.frames)


class VllmWeightName(Analyzer):
    id = "DRV-weight-name"
    title = "A checkpoint tensor vLLM's model class has no parameter for"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        if link.short_type == "KeyError":
            m = PARAM_KEY.match(link.message.strip())
            if m is None or not _looked_up(link):
                return None
        else:
            rpc = RPC_KEY.match(link.message.strip()) if link.short_type == "Exception" else None
            m = PARAM_KEY.match(rpc.group(1)) if rpc else None
            if m is None:
                return None
        key, tensor = m.group(1), m.group(2)
        line = f"{link.lead} {link.text or link.message}" if link.lead else (link.text or link.message)
        if tensor in QUANT_TENSORS or tensor in MOE_QUANT_BIAS or QUANT_WORDS.search(line):
            return Finding(
                f"The quantized checkpoint's tensor {key} has no parameter in the model vLLM built"[:160],
                f"KeyError: '{key}' in vLLM's load_weights. vLLM built the model's layers for the quantization method it "
                "read from config.json and looks each checkpoint tensor up among their parameters; this quantization "
                "tensor (a scale, zero point, group index or quantized bias) has no place in them, so the checkpoint's "
                "scheme is not one this vLLM release implements for this model or layer (a GPTQ / AWQ / FP8 / MXFP4 "
                "variant, a quantized MoE gate or expert bias, a quantization tool newer than the vLLM).",
                ("Check the model's quantization_config in config.json against the methods and models the installed "
                 "vLLM supports, and upgrade vLLM if a newer release adds this model / scheme",
                 "Or load the unquantized (bf16) checkpoint, or re-quantize with a method and layer set this vLLM "
                 "loads (e.g. leave the MoE gate unquantized)"),
                evidence(link), (VLLM_LOAD_WEIGHTS, VLLM_QUANT_DOC), key=f"weight-name-quant:{tensor}",
                family="compat", kind="quant-checkpoint-layer-unsupported",
            )
        if PEFT.search(key):
            return Finding(
                f"A LoRA-wrapped name {key} reached vLLM's loader: the adapter's state dict was loaded as base weights"[:160],
                f"KeyError: '{key}' in vLLM's load_weights. The name carries PEFT's wrapping (base_layer / lora_A / "
                "lora_B / base_model.model.), which the base model vLLM built does not have: a LoRA model's state dict "
                "was pushed to the rollout engine (an RL trainer's weight sync) or saved as the checkpoint without "
                "merging the adapter and restoring the base names.",
                ("Merge the adapter before the weights reach vLLM (PEFT merge_and_unload(), then the merged model's "
                 "state_dict) or strip the PEFT prefixes; in an RL trainer use its LoRA rollout path (verl: "
                 "actor_rollout_ref.model.lora_rank > 0 syncs the adapter to vLLM's LoRA support)",
                 "For a saved checkpoint, save the merged model (save_pretrained after merge_and_unload) rather than the "
                 "wrapped one"),
                evidence(link), (VLLM_LOAD_WEIGHTS, PEFT_MERGE), key=f"weight-name-peft:{tensor}",
                family="data-model", kind="peft-names-in-base-weights",
            )
        if VISION_PREFIX.match(key):
            return Finding(
                f"The vision-language model's name {key} reached vLLM's text-model loader: transformers is newer than "
                "this vLLM maps"[:160],
                f"KeyError: '{key}' in vLLM's weight loading. vLLM's vision-language classes route each incoming name by "
                "its prefix to the vision tower or the language model; a vision tower / projector name that reached the "
                "language model's params_dict lookup carried a prefix this vLLM release does not map. transformers 4.52 "
                "moved VLMs to a new layout (model.visual. / model.vision_tower. / model.multi_modal_projector. next to "
                "model.language_model.), and vLLM's VL classes map those names only from releases written after it: "
                "the names come from a transformers newer than the installed vLLM supports (an RL trainer's weight "
                "sync through collective_rpc, or a checkpoint saved with that transformers).",
                ("Install the transformers release your vLLM (and vllm-ascend / RL framework) release pins, e.g. "
                 "transformers<4.52 with vLLM 0.8.x",
                 "Or upgrade vLLM (and vllm-ascend, the RL framework) to a release whose VL model classes map the "
                 "transformers >= 4.52 names"),
                evidence(link), (VLLM_LOAD_WEIGHTS, VLLM_VL_MAPPER, VLLM_ENGINE_CORE), key=f"weight-name-vlm:{tensor}",
                family="compat", kind="transformers-too-new",
            )
        if WRAPPER.search(key):
            return Finding(
                f"The checkpoint's names keep a training wrapper's prefix ({key.split('.', 1)[0]}.): vLLM cannot place them"[:160],
                f"KeyError: '{key}' in vLLM's load_weights. The name starts with the prefix a training wrapper adds "
                "(DistributedDataParallel's module., torch.compile's _orig_mod., FSDP's wrapped-module names); the "
                "checkpoint was saved from the wrapped model, so none of its names match the plain model vLLM built.",
                ("Re-save the checkpoint from the unwrapped model (model.module / model._orig_mod, or the trainer's "
                 "save_pretrained), or rename the keys by dropping the wrapper prefix",),
                evidence(link), (VLLM_LOAD_WEIGHTS,), key=f"weight-name-wrapper:{tensor}",
                family="data-model", kind="checkpoint-wrapper-prefix",
            )
        return Finding(
            f"The checkpoint tensor {key} has no parameter in the model class vLLM built from config.json"[:160],
            f"KeyError: '{key}' in vLLM's load_weights. vLLM built the model class config.json's architectures names "
            "and looks each checkpoint tensor up among its parameters; this name is not one of them, so the weights "
            "follow another layout: another architecture's checkpoint under this config, a layout written by a "
            "different transformers release (vision-language models moved their language model and vision tower under "
            "new prefixes), a second weight format in the same folder (e.g. Mistral's consolidated.safetensors next to "
            "the HF shards), or, in RL weight sync, the trainer's names for a model vLLM maps differently.",
            ("Check that config.json's architectures and the checkpoint's tensor names belong together (list the names "
             "with safetensors.safe_open(...).keys()); remove extra weight files of another format from the folder",
             "If the checkpoint was written by a newer transformers / trainer than the installed vLLM knows, upgrade "
             "vLLM (its model class maps the new names) or save with the transformers release that vLLM expects"),
            evidence(link), (VLLM_LOAD_WEIGHTS,), key=f"weight-name:{tensor}",
            family="data-model", kind="checkpoint-weight-name-mismatch",
        )


# MindIE's ATB model library (atb_llm) finds each tensor its model class asks for through Weights.get_filename, which
# routes a tensor name to the safetensors file holding it and raises AssertionError(f"weight {tensor_name} does not
# exist") when no file (nor alias) has it; MindIE's model wrapper logs the message without its type
# ("[Model] >>> Exception:weight … does not exist", chains.MINDIE_CAUGHT).
ATB_WEIGHTS = "https://github.com/Ascend/MindIE-LLM/blob/3.0.0.beta.1/examples/atb_models/atb_llm/utils/weights.py"
ATB_MODELS = "https://github.com/Ascend/MindIE-LLM/tree/3.0.0.beta.1/examples/atb_models/atb_llm/models"
ATB_MISSING = lazy(r"^weight (\S+) does not exist$")
# the tensors atb_llm's quantized linear layers read besides the weight (utils/layers/linear: f"{prefix}.weight_scale" …)
ATB_QUANT_TENSOR = lazy(r"\.(?:weight_scale|weight_offset|deq_scale|quant_bias|input_scale|input_offset)$")
# a tensor whose presence differs between members of one family: attention q/k/v biases (Qwen2 has them, Qwen3 not),
# q/k norms (Qwen3 and later add them), a MoE shared expert or gate
ATB_VARIANT_TENSOR = lazy(r"\.(?:[qkv]_proj|query_key_value|c_attn)\.bias$|\.[qk]_norm\.weight$|\.shared_experts?\.|\.shared_expert_gate\.")


class MindieWeightMissing(Analyzer):
    """MindIE's model class asked for a tensor the checkpoint does not have (atb_llm Weights.get_filename)."""

    id = "DRV-mindie-weight"
    title = "A tensor MindIE's model class needs is not in the checkpoint"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("AssertionError", "Exception")):
            return None
        m = ATB_MISSING.match(link.message.strip())
        if m is None:
            return None
        tensor = m.group(1)
        if ATB_QUANT_TENSOR.search(tensor):
            return Finding(
                f"MindIE's quantized layer wants {tensor}: the checkpoint is not quantized the way config.json says"[:160],
                f"{link.short_type}: {link.message[:200]}. MindIE's ATB model library builds quantized linear layers when "
                "config.json (quantize / quantization_config, and quant_model_description.json) says the weights are "
                "quantized, and each reads its scale / offset tensors; the checkpoint has none for this layer, so the "
                "weights are float (or quantized with another scheme or layer set) under a quantized configuration.",
                ("Load weights quantized with msModelSlim for this MindIE release (its quant_model_description.json next to "
                 "the shards), or remove the quantize setting from config.json to serve the float weights",),
                evidence(link), (ATB_WEIGHTS,), key=f"mindie-weight-quant:{tensor}", family="data-model",
                kind="mindie-quant-weights-mismatch",
            )
        variant = ATB_VARIANT_TENSOR.search(tensor) is not None
        return Finding(
            f"MindIE's model class wants {tensor}, which the checkpoint does not have"[:160],
            f"{link.short_type}: {link.message[:200]}. MindIE's ATB model library picks one hand-written model class for "
            "config.json's model_type and asks the checkpoint for every tensor that class was written for; this one is "
            "in none of the safetensors files. "
            + ("Such a tensor (an attention bias, a q/k norm, a shared expert) is what differs between members of one "
               "model family: the checkpoint is a variant the chosen class was not written for (a newer generation routed "
               "through an older one's class, e.g. a Qwen3 model through a Qwen2 path that expects q/k/v biases), so this "
               "MindIE release does not support the model as it is."
               if variant else
               "Either the checkpoint's layout is not the one the class expects (another variant of the family, a "
               "checkpoint converted or renamed by a training framework) or the folder is incomplete (a shard missing)."),
            ("Check the model against the supported-model list of the installed MindIE release and upgrade MindIE to one "
             "that lists this exact model (or serve it with vllm-ascend)",
             "Check that the folder is complete: every file model.safetensors.index.json names is present, and the tensor "
             "names in the shards are the original Hugging Face ones (python -c \"from safetensors import safe_open; "
             "print(list(safe_open('SHARD', 'pt').keys())[:20])\")"),
            evidence(link), (ATB_WEIGHTS, ATB_MODELS), key=f"mindie-weight:{tensor}", family="data-model",
            kind="model-arch-unsupported-by-mindie" if variant else "mindie-checkpoint-tensor-missing",
        )
