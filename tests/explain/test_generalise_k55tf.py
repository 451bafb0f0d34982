"""Readings added by helper k55tf (2026-12-07) for model and tokenizer loading in a verl GRPO run, confirmed in the
emitters' source (the transformers 4.51.3 / 4.57.1 wheels built from those tags). Each test input is a short excerpt
around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5820: a .safetensors file without format=pt metadata ("Incompatible safetensors file. File metadata is not
  [...] but None" / "does not contain the valid metadata"); before, nothing.
- ARL-E5821: config.json (or another JSON config) that is not valid JSON; before, nothing.
- ARL-E5822: an attn_implementation name transformers does not register; before, nothing.
- ARL-E5823: gradient checkpointing enabled on a class that does not support it; before, nothing.
- ARL-E5824: layer_types of another length than num_hidden_layers; before, nothing.
- ARL-E5825: the Hub rejecting the token (401 "Invalid credentials in Authorization header", 403 "Make sure your token
  has the correct permissions"); before, nothing.
- ARL-E5826: a causal LM whose lm_head / embeddings / layers were newly initialized (a warning); before, nothing.
- ARL-E007 widened: transformers' "PermissionError at ... when downloading ..." without the PermissionError line;
  before, nothing.
- ARL-E1818 widened: the trust_remote_code prompt's timeout wording; before, nothing.
- ARL-E141 widened: transformers' git-lfs OSError; before, a missing-package finding for "git-lfs".
- ARL-E504 widened: "Videos features and video tokens do not match"; before, nothing.
- ARL-E532 widened: transformers' own "The weights trying to be saved contained shared tensors ..."; before,
  nothing.
- ARL-E133 now lists ARL-E141 as consequence: torch's weights-only refusal under transformers' "Unable to load
  weights from pytorch checkpoint file" wrapper is named as the cause; before, the wrapper.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TF = "  File \"/usr/local/lib/python3.10/site-packages/transformers/modeling_utils.py\", line 4943, in from_pretrained\n"


# ARL-E5820 -----------------------------------------------------------------------------------------------------------

def test_safetensors_without_format_metadata_is_e5820():
    for line in (
        "ValueError: Incompatible safetensors file. File metadata is not ['pt', 'tf', 'flax', 'mlx'] but None",
        "ValueError: Incompatible safetensors file. File metadata is not ['pt', 'tf', 'flax', 'mlx'] but numpy",
        "OSError: The safetensors archive passed at /data/ckpt/model-00001-of-00002.safetensors does not contain the "
        "valid metadata. Make sure you save your model with the `save_pretrained` method.",
    ):
        assert _id(TF + line + "\n") == "ARL-E5820", line


def test_truncated_safetensors_is_not_e5820():
    assert _id("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\n") != "ARL-E5820"


# ARL-E5821 -----------------------------------------------------------------------------------------------------------

def test_config_json_not_json_is_e5821():
    for path in ("/data/models/Qwen2.5-7B-Instruct/config.json", "/data/models/Qwen2.5-VL-7B/preprocessor_config.json"):
        text = (
            "json.decoder.JSONDecodeError: Expecting ',' delimiter: line 25 column 3 (char 700)\n\n"
            "During handling of the above exception, another exception occurred:\n\n"
            f"OSError: It looks like the config file at '{path}' is not a valid JSON file.\n"
        )
        assert _id(text) == "ARL-E5821", path


def test_dataset_json_error_is_not_e5821():
    assert _id("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n") != "ARL-E5821"


# ARL-E5822 -----------------------------------------------------------------------------------------------------------

def test_unknown_attn_implementation_is_e5822():
    for line in (
        'ValueError: Specified `attn_implementation="npu_flash_attention"` is not supported. The only possible arguments '
        'are `attn_implementation="eager"`, `"attn_implementation=flash_attention_3"`, `"attn_implementation=flash_'
        'attention_2"`, `"attn_implementation=sdpa".',
        'ValueError: Specified `attn_implementation="flash_attn"` is not supported. The only possible arguments are '
        '`attn_implementation="eager"` (manual attention implementation), `"attn_implementation=sdpa"` (implementation '
        'using torch.nn.functional.scaled_dot_product_attention).',
    ):
        assert _id(line + "\n") == "ARL-E5822", line


def test_flash_attn_missing_is_not_e5822():
    line = ("ImportError: FlashAttention2 has been toggled on, but it cannot be used due to the following error: the "
            "package flash_attn seems to be not installed.")
    assert _id(line + "\n") != "ARL-E5822"


# ARL-E5823 -----------------------------------------------------------------------------------------------------------

def test_gradient_checkpointing_unsupported_is_e5823():
    for cls in ("NemotronHForCausalLM", "ChatGLMForConditionalGeneration", "InternLM2ForCausalLM"):
        text = (
            '  File "/workspace/verl/verl/workers/fsdp_workers.py", line 503, in _build_model_optimizer\n'
            '    actor_module.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})\n'
            f"ValueError: {cls} does not support gradient checkpointing.\n"
        )
        assert _id(text) == "ARL-E5823", cls


def test_flash_attention_unsupported_is_not_e5823():
    line = ("ValueError: InternLM2ForCausalLM does not support Flash Attention 2.0 yet. Please request to add support "
            "where the model is hosted")
    assert _id(line + "\n") != "ARL-E5823"


# ARL-E5824 -----------------------------------------------------------------------------------------------------------

def test_layer_types_mismatch_is_e5824():
    assert _id("ValueError: `num_hidden_layers` (4) must be equal to the number of layer types (28)\n") == "ARL-E5824"
    assert _id("ValueError: The `layer_types` entries must be in ('full_attention', 'sliding_attention', "
               "'chunked_attention')\n") == "ARL-E5824"


def test_hidden_size_divisibility_is_not_e5824():
    line = "ValueError: hidden_size must be divisible by num_heads (got `hidden_size`: 3584 and `num_heads`: 20)."
    assert _id(line + "\n") != "ARL-E5824"


# Widened entries -----------------------------------------------------------------------------------------------------

def test_hf_cache_permission_wrapper_is_e007():
    line = ("OSError: PermissionError at /mnt/hf/hub/.locks/models--Qwen--Qwen2.5-7B/b7.lock when downloading "
            "Qwen/Qwen2.5-7B. Check cache directory permissions. Common causes: 1) another user is downloading the same "
            "model (please wait); 2) a previous download was canceled and the lock file needs manual removal.")
    assert _id(line + "\n") == "ARL-E007"


def test_trust_remote_code_timeout_wording_is_e1818():
    line = ("ValueError: Loading this model requires you to execute custom code contained in the model repository on "
            "your local machine. Please set the option `trust_remote_code=True` to permit loading of this model.")
    assert _id(line + "\n") == "ARL-E1818"


def test_dataset_custom_code_is_not_e1818():
    line = ("ValueError: Loading this dataset requires you to execute custom code contained in the dataset repository "
            "on your local machine.")
    assert _id(line + "\n") != "ARL-E1818"


def test_transformers_git_lfs_error_is_e141():
    line = ("OSError: You seem to have cloned a repository without having git-lfs installed. Please install git-lfs "
            "and run `git lfs install` followed by `git lfs pull` in the folder you cloned.")
    assert _id(TF + line + "\n") == "ARL-E141"


def test_video_token_mismatch_is_e504():
    assert _id("ValueError: Videos features and video tokens do not match: tokens: 0, features 2304\n") == "ARL-E504"


def test_weights_only_refusal_under_transformers_wrapper_is_e133():
    text = (
        "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two "
        "options, do those steps only if you trust the source of the checkpoint.\n"
        "\tWeightsUnpickler error: Unsupported global: GLOBAL numpy.core.multiarray._reconstruct was not an allowed "
        "global by default.\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "OSError: Unable to load weights from pytorch checkpoint file for '/data/m/pytorch_model.bin' at "
        "'/data/m/pytorch_model.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set "
        "from_tf=True.\n"
    )
    assert _id(text) == "ARL-E133"


def test_corrupt_bin_alone_is_still_e141():
    text = (
        "_pickle.UnpicklingError: invalid load key, 'v'.\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "OSError: Unable to load weights from pytorch checkpoint file for '/data/m/pytorch_model.bin' at "
        "'/data/m/pytorch_model.bin'. If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set "
        "from_tf=True.\n"
    )
    assert _id(text) == "ARL-E141"


# ARL-E5825 -----------------------------------------------------------------------------------------------------------

def test_hub_token_rejected_is_e5825():
    text_401 = (
        "huggingface_hub.errors.HfHubHTTPError: 401 Client Error: Unauthorized for url: "
        "https://huggingface.co/api/models/Qwen/Qwen2.5-7B-Instruct/revision/main (Request ID: Root=1-68a3)\n\n"
        "Invalid credentials in Authorization header\n"
    )
    text_403 = (
        "huggingface_hub.errors.HfHubHTTPError: (Request ID: Root=1-6)\n\n"
        "403 Forbidden: None.\n"
        "Cannot access content at: https://huggingface.co/api/models/meta-llama/Llama-3.2-1B/revision/main.\n"
        "Make sure your token has the correct permissions.\n"
    )
    assert _id(text_401) == "ARL-E5825"
    assert _id(text_403) == "ARL-E5825"


def test_gated_repo_is_not_e5825():
    text = (
        "huggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-65f)\n\n"
        "Cannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.\n"
        "Access to model meta-llama/Llama-3.1-8B-Instruct is restricted. You must have access to it and be "
        "authenticated to access it. Please log in.\n"
    )
    assert _id(text) != "ARL-E5825"


# ARL-E5826 -----------------------------------------------------------------------------------------------------------

def test_causal_lm_weights_newly_initialized_is_e5826():
    for keys in ("['lm_head.weight']",
                 "['model.embed_tokens.weight', 'model.layers.0.input_layernorm.weight', 'model.norm.weight']",
                 "['lm_head.weight', 'model.language_model.embed_tokens.weight']"):
        line = (f"Some weights of Qwen2ForCausalLM were not initialized from the model checkpoint at /data/ckpt/merged "
                f"and are newly initialized: {keys}")
        assert _id(line + "\n") == "ARL-E5826", keys


def test_critic_score_head_newly_initialized_is_not_e5826():
    line = ("Some weights of Qwen2ForTokenClassification were not initialized from the model checkpoint at "
            "/data/models/Qwen2.5-7B and are newly initialized: ['score.bias', 'score.weight']\n"
            "You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.")
    assert _id(line + "\n") != "ARL-E5826"


# ARL-E532 (widened) --------------------------------------------------------------------------------------------------

def test_transformers_shared_tensor_save_is_e532():
    for tail in ("Try saving using `safe_serialization=False` or remove this tensor sharing.",
                 "Try saving using `safe_serialization=False`, setting the `_dynamic_tied_weights_keys` attribute for "
                 "affected modules, or remove this tensor sharing."):
        line = ("RuntimeError: The weights trying to be saved contained shared tensors [{'lm_head.weight', "
                "'model.embed_tokens.weight'}] that are mismatching the transformers base configuration. " + tail)
        assert _id(line + "\n") == "ARL-E532", tail


def test_shared_memory_on_load_is_not_e532():
    assert _id("RuntimeError: unable to mmap 4096 bytes from file </torch_123_0>: Cannot allocate memory (12)\n") != "ARL-E532"
