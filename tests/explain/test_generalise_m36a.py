"""Knowledge mined by helper m36a (2026-12-04) from resolved verl / vLLM / vllm-ascend threads, each written from the
emitting project's source (the `confirmed` URL of each signature).

Golden cases (tests/explain/cases/ARL-E284x) hold the threads' own pastes; the lines below are the other wordings the
same source emits, so the reading is checked beyond the one paste: verl's checkpoint-engine registry message with the
later suffix, verl's Megatron converter registry (KeyError on a SupportedModel member, an architecture it does not
list), mbridge's registry message for other model types, the V0 multiprocessing executor's TP check, vLLM's LoRA
loader, and vllm-ascend's device-discovery wordings added to ARL-E235. Lines that only look alike stay unmatched.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ascendrl.catalog import Classifier, load_catalog

HERE = Path(__file__).parent
CATALOG = load_catalog(user_dir=HERE / "no-user-catalog")


def _top(explain_text, text: str) -> str | None:
    """The fatal top diagnosis's id (the shared explain_text fixture), or None."""
    _, top = explain_text(text)
    return top.entry.id if top is not None and top.fatal else None


@pytest.mark.parametrize("line, expected", [
    # verl v0.6.x apply_fsdp2 on torch 2.4 / 2.5 (verl/utils/fsdp_utils.py)
    ("AttributeError: 'function' object has no attribute 'FSDPModule'", "ARL-E2840"),
    # verl/checkpoint_engine/base.py after the uv-integration change: registered backends and import errors appended
    ("ValueError: Checkpoint engine nixl not registered, registered backends: ['naive', 'nccl']. Engine modules that "
     "failed to import: nixl_checkpoint_engine: No module named 'nixl'", "ARL-E2841"),
    # verl/models/mcore/registry.py: another SupportedModel member without a converter; an unlisted architecture
    ("KeyError: <SupportedModel.GLM4_MOE: 'Glm4MoeForCausalLM'>", "ARL-E2842"),
    ("NotImplementedError: Model Type: Qwen3NextForCausalLM not supported. Supported models: ['LlamaForCausalLM', "
     "'Qwen2ForCausalLM']", "ARL-E2842"),
    # mbridge/core/auto_bridge.py for another model type
    ("ValueError: Unregistered model type: gemma4, now only support dict_keys(['llama', 'qwen2'])", "ARL-E2843"),
    # Megatron mappings.py through TransformerEngine's copy of the assert
    ("[rank3]: AssertionError: First dimension of the tensor should be divisible by tensor parallel size", "ARL-E2844"),
    # vLLM LoRA loader (vllm/lora/models.py, vllm/lora/utils.py)
    ("ValueError: While loading /ckpt/lora_adapter, expected target modules in ['q_proj', 'k_proj'] but received "
     "['visual.blocks.0.attn.qkv']. Please verify that the loaded LoRA module is correct", "ARL-E2845"),
    ("ValueError: base_model.model.model.embed_tokens.weight is unsupported LoRA weight", "ARL-E2845"),
    # vLLM V0 multiprocessing executor (vllm/executor/mp_distributed_executor.py)
    ("RuntimeError: please set tensor_parallel_size (4) to less than max local gpu count (2)", "ARL-E2846"),
    # vLLM config.py ModelConfig.verify_with_parallel_config (0.8.3+), the raised form
    ("AssertionError: Seed must be set when using external launcher backend to make sure sampling results are the "
     "same across workers.", "ARL-E2847"),
    # vllm-ascend vllm_ascend/device/hardware.py (hardware refactor #13672)
    ("RuntimeError: Cannot support runtime soc_version: 104.", "ARL-E235"),
    ("RuntimeError: Undefined soc_version: Ascend910ProB. Please file an issue to vllm-ascend.", "ARL-E235"),
])
def test_each_wording_names_its_class(explain_text, line, expected):
    assert _top(explain_text, line) == expected


@pytest.mark.parametrize("line", [
    "AttributeError: 'function' object has no attribute 'FSDPParam'",
    "INFO Checkpoint engine nccl registered",
    "KeyError: 'SupportedModel'",
    "INFO model type qwen3_5_moe registered in the bridge",
    "Please verify that the LoRA rank is correct",
])
def test_look_alikes_are_not_named(explain_text, line):
    assert _top(explain_text, line) not in {"ARL-E2840", "ARL-E2841", "ARL-E2842", "ARL-E2843", "ARL-E2845"}


# DRV-weight-name (catalog/analyzers/weightname.py): a KeyError from vLLM's `param = params_dict[name]` lookup in a
# model's load_weights, told apart by the tensor name. The frame and source lines are vLLM's own (qwen2.py load_weights).
FRAME = ('  File "/usr/local/lib/python3.10/site-packages/vllm/model_executor/models/qwen2.py", line 391, in load_weights\n'
         "    param = params_dict[name]\n")


def _derived(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    top = classifier.result().diagnoses[0]
    return top.entry.id, top.kind


@pytest.mark.parametrize("key, kind", [
    ("layers.0.self_attn.qkv_proj.base_layer.weight", "peft-names-in-base-weights"),  # a LoRA model's state dict synced
    ("base_model.model.model.layers.0.mlp.down_proj.weight", "peft-names-in-base-weights"),
    ("module.model.layers.0.mlp.down_proj.weight", "checkpoint-wrapper-prefix"),  # saved from a DDP wrapper
    ("_orig_mod.model.embed_tokens.weight", "checkpoint-wrapper-prefix"),  # saved from torch.compile
    ("layers.0.mlp.down_proj.qzeros", "quant-checkpoint-layer-unsupported"),
    ("layers.0.mlp.experts.w13_bias", "quant-checkpoint-layer-unsupported"),
    ("language_model.embed_tokens.weight", "checkpoint-weight-name-mismatch"),  # another layout than the class expects
    ("layers.0.attention.wk.weight", "checkpoint-weight-name-mismatch"),
])
def test_vllm_weight_lookup_keyerror_is_read_by_the_tensor_name(key, kind):
    text = "Traceback (most recent call last):\n" + FRAME + f"KeyError: '{key}'\n"
    assert _derived(text) == ("DRV-weight-name", kind)


def test_a_keyerror_without_vllms_lookup_is_not_read_as_a_weight_name():
    text = ('Traceback (most recent call last):\n  File "/home/u/train.py", line 12, in main\n'
            "    cfg = settings[name]\nKeyError: 'model.layers.0.weight'\n")
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    assert all(d.entry.id != "DRV-weight-name" for d in classifier.result().diagnoses)


def test_on_the_npu_a_quantized_tensor_stays_vllm_ascends_question():
    text = ("INFO 03-01 10:00:00 [__init__.py:207] Platform plugin ascend is activated\n"
            "Traceback (most recent call last):\n" + FRAME + "KeyError: 'model.layers.0.mlp.down_proj.input_scale'\n")
    assert _derived(text)[0] == "DRV-quant-load"
