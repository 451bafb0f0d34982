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
# vLLM v1's multiprocess executor hands a worker's failure back as str(e) inside f"Worker failed with error '{result}', please
# check the stack trace above for the root cause" (multiproc_executor.py collective_rpc), so a KeyError's quoted name sits
# inside the quotes (VLLM_MULTIPROC below): the same lookup, after start-up, i.e. an RL trainer's weight push.
RPC_KEY = lazy(r"^(?:Call to collective_rpc method failed: ('(?:\w+\.)+\w+')\s*|"
               r"Worker failed with error '('(?:\w+\.)+\w+')'(?:, please check the stack trace above for the root cause)?)$")
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
            rpc = RPC_KEY.match(link.message.strip()) if link.short_type in ("Exception", "RuntimeError") else None
            m = PARAM_KEY.match(rpc.group(1) or rpc.group(2)) if rpc else None
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


# torch's narrow() bound checks (aten/src/ATen/native/TensorShape.cpp, every release since 1.x): "start (S) + length (L)
# exceeds dimension size (D)." and, for a start outside the dimension, "start out of range (expected to be in range of
# [-D, D], but got S)". A model's weight loader narrows each incoming tensor to this rank's tensor- or expert-parallel
# shard (vLLM's weight_loader / SGLang's, loaded_weight.narrow(dim, rank * shard, shard)), so the check fails when the
# tensor handed over is smaller than the full tensor the engine computes its shard from: it is already a shard (TP / ETP
# weights sent without gathering), it is laid out another way (fused, transposed or reshaped after loading, as NPU MoE
# kernels do in process_weights_after_loading), or it belongs to another configuration.
TORCH_NARROW = "https://github.com/pytorch/pytorch/blob/0005449734fa2528f0897170f68064c34f1c0396/aten/src/ATen/native/TensorShape.cpp"
# vLLM v1's multiprocess executor: WorkerProc.__init__ runs init_device() and load_model() itself (a failure there is
# "WorkerProc failed to start"); only a call made after the worker reported READY comes back through collective_rpc's
# f"Worker failed with error '{result}', please check the stack trace above for the root cause". The engine core's
# utility-call wrapper is f"Call to {method_name} method failed: {e}" (DRV-weight-name reads its KeyError form).
VLLM_MULTIPROC = "https://github.com/vllm-project/vllm/blob/00f6c9bf92aa69c72d5828d28d029129775223b7/vllm/v1/executor/multiproc_executor.py"
NARROW = lazy(r"start \((-?\d+)\) \+ length \((\d+)\) exceeds dimension size \((\d+)\)|"
              r"start out of range \(expected to be in range of \[-?\d+, (\d+)\], but got (-?\d+)\)")
AFTER_START = lazy(r"^(?:Worker failed with error '|Call to collective_rpc method failed: )")
# frames of a trainer pushing weights into its rollout engine (verl sharding managers / rollout workers, OpenRLHF,
# TRL's vLLM client, slime, AReaL, ROLL) or of the engine's own update entry points
UPDATE_FUNC = lazy(r"update_\w*weights?|sync_\w*weights?|update_params|_update_param|load_weights_from|broadcast_\w*weights?|update_parameter")
UPDATE_PATH = lazy(r"[/\\]verl[/\\]workers[/\\]sharding_manager[/\\]")
# vLLM's default_weight_loader (model_loader/weight_utils.py; copied by vllm-ascend's own loaders, e.g. ops/layernorm.py)
# asserts the shapes are equal: f"Attempted to load weight ({loaded_weight.size()}) into parameter ({param.size()})"
# (vllm-ascend's KV C8 loader appends " when TP is (N)"). The sentence names the loader, so no frame is needed.
VLLM_WEIGHT_UTILS = "https://github.com/vllm-project/vllm/blob/0a1ee72ed53f07ca8e57e5e82fdbd89734b39026/vllm/model_executor/model_loader/weight_utils.py"
VLLM_ASCEND_LAYERNORM = "https://github.com/vllm-project/vllm-ascend/blob/v0.18.0/vllm_ascend/ops/layernorm.py"
ATTEMPTED = lazy(r"Attempted to load weight \(torch\.Size\(\[([\d, ]*)\]\)\) into parameter \(torch\.Size\(\[([\d, ]*)\]\)\)")
LOADER_FUNC = lazy(r"^(?:weight_loader\w*|load_weights|_load_w\w*|_load_\w*weight\w*|load_model)$")


class WeightShape(Analyzer):
    """A weight tensor handed to an inference engine's loader is smaller than the parameter shard it is narrowed to."""

    id = "DRV-weight-shape"
    title = "A weight tensor does not fit the engine's parameter shard (torch narrow's bound check in a weight loader)"
    family = "data-model"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("RuntimeError", "IndexError", "AssertionError", "ValueError", "Exception"):
            return None
        message = link.message.strip()
        m = NARROW.search(message)
        a = ATTEMPTED.search(message) if m is None else None
        if m is None and a is None:
            return None
        funcs = [f.func for f in link.frames]
        rpc = AFTER_START.match(message) is not None
        update = rpc or any(UPDATE_FUNC.search(f) for f in funcs) or any(UPDATE_PATH.search(f.path) for f in link.frames)
        if m is not None and not update and not any(LOADER_FUNC.match(f) for f in funcs):
            return None  # a narrow() anywhere else is not a weight's shape
        if a is not None:
            given, wanted = a.group(1), a.group(2)
            size = "0" if given.strip() == "0" else ""
            what = f"a tensor of shape [{given}] into a parameter of shape [{wanted}]"
        elif m.group(1) is not None:
            start, length, size = m.group(1), m.group(2), m.group(3)
            what = f"a slice [{start}, {int(start) + int(length)}) of a dimension of size {size}"
        else:
            size, start = m.group(4), m.group(5)
            what = f"a slice starting at {start} of a dimension of size {size}"
        cited = (TORCH_NARROW,) if a is None else (VLLM_WEIGHT_UTILS, VLLM_ASCEND_LAYERNORM)
        where = ("vLLM's collective_rpc returned it from a worker after start-up (WorkerProc loads the model itself before "
                 "it reports READY), so it came from a later call into the workers: the trainer's weight push "
                 "(load_weights / update_weights)" if rpc else
                 "the stack is the trainer's weight push into the rollout engine" if update else
                 "the stack is the engine's weight loader")
        if update:
            return Finding(
                f"The rollout engine could not place a pushed weight: {what}"[:160],
                f"{link.short_type}: {message[:200]}. The engine's weight loader narrows each incoming tensor to this "
                f"rank's tensor- or expert-parallel shard and copies it into the parameter; it could not place {what}; "
                f"{where}. The tensor the trainer sent is "
                "smaller than (or laid out otherwise than) the full tensor the engine's parallel layout expects: a "
                "tensor- or expert-parallel shard sent without gathering it, a trainer / engine pair that converts "
                "names or layouts differently (fused gate_up / qkv, transposed or reshaped MoE expert weights, NPU "
                "kernels that reshape weights after loading), or a different TP / EP size on each side"
                + (" (a tensor with no elements is the placeholder a DeepSpeed ZeRO-3 or sharded FSDP rank holds: the "
                   "trainer read model.state_dict() without gathering the partitioned parameters)" if size == "0" else "")
                + ". The update stops part-way, so the engine holds a mix of old and new weights.",
                ("Compare the first failing parameter's shape in the trainer and in the engine (the engine's "
                 "named_parameters() on one rank); gather TP / ETP shards to full tensors before sending, or give "
                 "trainer and rollout the layout the framework requires",
                 "Use a trainer / rollout-engine (vLLM / vllm-ascend / SGLang) release pair the RL framework tests "
                 "together: its weight converter for this model (MoE experts, fused layers) must match the engine's loader",
                 "After a failed update, discard the engine's weights: restart it or reload from a checkpoint"),
                evidence(link), (*cited, VLLM_MULTIPROC) if rpc else cited,
                key=f"weight-shape-update:{message[:60]}", family="data-model",
                kind="rollout-weight-update-shape-mismatch",
            )
        if size == "0":
            return Finding(
                "The weights handed to the engine hold an empty tensor (size 0): ZeRO-3 / sharded placeholders, "
                "not the gathered weights",
                f"{link.short_type}: {message[:200]}. The engine's weight loader narrows each checkpoint tensor to this "
                f"rank's shard and copies it into the parameter, and the tensor it was given has no elements; {where}. A tensor with no elements is the placeholder "
                "a DeepSpeed ZeRO-3 (or sharded FSDP) rank holds for a partitioned parameter: the weights were "
                "written (a checkpoint) or handed over (an RL trainer's weight sync reading model.state_dict()) from "
                "the ranks' local views instead of the gathered full weights.",
                ("Save the gathered weights: DeepSpeed's zero_to_fp32.py / stage3_gather_16bit_weights_on_model_save, "
                 "FSDP FULL_STATE_DICT, or the trainer's own HF export; in a weight sync, gather each parameter first "
                 "(deepspeed.zero.GatheredParameters) or train with ZeRO-2",
                 "Check the checkpoint's tensor shapes (safetensors safe_open(...).get_slice(name).get_shape()): any "
                 "[0] shape marks a placeholder"),
                evidence(link), cited, key=f"weight-shape-empty:{message[:60]}", family="data-model",
                kind="zero3-saved-empty-weights",
            )
        return Finding(
            f"A checkpoint tensor does not fit the parameter shard the engine built: {what}"[:160],
            f"{link.short_type}: {message[:200]}. The engine's weight loader narrows each checkpoint tensor to this "
            f"rank's tensor- or expert-parallel shard and copies it into the parameter; it could not place {what}; {where}. The checkpoint's tensor is smaller "
            "than config.json and the parallel sizes say: the checkpoint belongs to another configuration (hidden / "
            "intermediate / expert sizes, head counts), it is already sharded or quantized (packed) in a form this "
            "loader does not expect, or the tensor-parallel size does not divide this layer the way the loader assumes.",
            ("Check config.json against the checkpoint's tensor shapes (safetensors safe_open(...).get_slice(name)"
             ".get_shape()), and use a quantized checkpoint in the format the engine's quantization method loads",
             "Try a tensor-parallel size that divides the layer's sizes (or 1) to see whether the sharding is the cause"),
            evidence(link), cited, key=f"weight-shape-load:{message[:60]}", family="data-model",
            kind="checkpoint-shape-mismatch",
        )
