"""Readings added by helper k48verl (2026-12-06) while probing verl's own checks (its dataset classes, checkpoint
resume and rollout servers) for failure classes explain did not name. Each test input is a short excerpt in our own
words around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4640: RLHFDataset refuses a data file by its suffix ("Unsupported file format: <file>", rl_dataset.py).
- ARL-E4641: RLHFDataset cannot use a row's image / video value ("image must be dict or PIL.Image ...", rl_dataset.py).
- ARL-E4642: a multimodal row (or tool response) with no processor loaded (rl_dataset.py assert, tool_agent_loop.py).
- ARL-E4643: an FSDP resume that finds no model/optim/extra_state_world_size_N_rank_R.pt for this rank
  (fsdp_checkpoint_manager.py names, torch.load's FileNotFoundError).
- ARL-E4644: the HF export (hf_model save, model merger) cannot pick an Auto class for config.architectures[0]
  (fsdp_checkpoint_manager.py, base_model_merger.py).
- ARL-E4645: the Megatron model merger refuses a key outside the GPT decoder (vision_model.*, "model." prefix)
  (megatron_model_merger.py _check_megatron_state_key).
- ARL-E4646: verl SFT datasets refuse a sample longer than data.max_length with truncation=error
  (sft_dataset.py, multiturn_sft_dataset.py).
- ARL-E4647: verl 0.9's Megatron checkpoint manager refuses the old (v1) checkpoint layout or a legacy / exported
  LoRA adapter on resume (megatron_checkpoint_manager.py).
- DRV-chat-template-content (catalog/analyzers/data.py ChatTemplateContent): a string-only chat template given
  list-typed message content (str + list TypeError inside apply_chat_template / the jinja "<template>" frame).
- ARL-E107 widened: the agent loop's "Multimodal prompt produced N tokens, exceeding rollout.prompt_length=M" (agent_loop.py).
- DRV-model-path widened (modelarch.py ModelPathMissing): verl's Megatron model merger reading num_hidden_layers (or
  another text attribute) from a composite VL config (Qwen3VLConfig).
- DRV-own-check kind verl-dapo-overlong-buffer-config (own_checks.yaml): the DAPO reward manager's overlong-buffer
  asserts (max_resp_len missing / below overlong_buffer.len / len <= 0; reward_manager/dapo.py).
- ARL-E218 widened: verl 0.8+'s vLLM server wording "Prompt length (N) leaves no room to generate ..."
  (vllm_async_server.py).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

RL_DATASET = '  File "/usr/lib/python3.11/site-packages/verl/utils/dataset/rl_dataset.py", line 170, in _read_files_and_tokenize\n'


# ARL-E4640 ---------------------------------------------------------------------------------------------------------

def test_unsupported_data_file_suffix_is_e4640():
    for text in (
        RL_DATASET + "ValueError: Unsupported file format: /data/gsm8k/train.jsonl\n",
        "ValueError: Unsupported file format: /mnt/nas/sets/prompts.csv\n",
        "(TaskRunner pid=77) ValueError: Unsupported file format: hdfs_cache/train.arrow\n",
        RL_DATASET + '    raise ValueError(f"Unsupported file format: {parquet_file}")\n'
        "ValueError: Unsupported file format: /data/my_dataset\n",
    ):
        assert _id(text) == "ARL-E4640", text


def test_other_unsupported_format_is_not_e4640():
    # Another library's wording about an image or audio format, with no data file path: not verl's dataset reader.
    for text in (
        "ValueError: Unsupported file format: .webp\n",
        "ValueError: Unsupported file type: /home/user/data/train/output.jsonl\n",
    ):
        assert _id(text) != "ARL-E4640", text


# ARL-E4641 ---------------------------------------------------------------------------------------------------------

def test_unsupported_image_value_is_e4641():
    for text in (
        "TypeError: image must be dict or PIL.Image, unsupported image type: <class 'str'>\n",
        "TypeError: image must be dict, PIL.Image, or path-like, unsupported image type: <class 'numpy.ndarray'>\n",
        "TypeError: video must be dict, list, or path-like, unsupported video type: <class 'NoneType'>\n",
    ):
        assert _id(text) == "ARL-E4641", text


def test_pil_cannot_identify_image_is_not_e4641():
    text = "PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7f1e2d3c4b50>\n"
    assert _id(text) != "ARL-E4641"


# ARL-E4642 ---------------------------------------------------------------------------------------------------------

def test_multimodal_row_without_processor_is_e4642():
    for text in (
        RL_DATASET + '    assert self.processor is not None, "processor is needed to process multimodal data"\n'
        "AssertionError: processor is needed to process multimodal data\n",
        "AssertionError: processor is needed to process image and video\n",
        "ValueError: Multimedia data can only be processed by `processor`, but the processor is None. This error is "
        "often caused if you are using a LLM model but your tool returns multimodal data. Plase use a vlm as the base model.\n",
    ):
        assert _id(text) == "ARL-E4642", text


def test_image_token_mismatch_is_not_e4642():
    text = "ValueError: Image features and image tokens do not match: tokens: 1333, features 1332\n"
    assert _id(text) != "ARL-E4642"


# ARL-E4643 ---------------------------------------------------------------------------------------------------------

def test_fsdp_resume_missing_rank_shard_is_e4643():
    for text in (
        "FileNotFoundError: [Errno 2] No such file or directory: "
        "'/ckpt/exp/global_step_200/actor/model_world_size_16_rank_9.pt'\n",
        "(WorkerDict pid=1, ip=10.0.0.1) FileNotFoundError: [Errno 2] No such file or directory: "
        "'/ckpt/exp/global_step_5/critic/optim_world_size_8_rank_3.pt'\n",
        "FileNotFoundError: [Errno 2] No such file or directory: '/tmp/x/extra_state_world_size_4_rank_0.pt'\n",
    ):
        assert _id(text) == "ARL-E4643", text


def test_other_missing_checkpoint_file_is_not_e4643():
    # The merger's missing fsdp_config.json and a plain missing weight file are other failures.
    for text in (
        "FileNotFoundError: Config file /ckpt/global_step_100/actor/fsdp_config.json does not exist.\n",
        "FileNotFoundError: [Errno 2] No such file or directory: '/models/qwen/pytorch_model.bin'\n",
    ):
        assert _id(text) != "ARL-E4643", text


# ARL-E218 (widened) -----------------------------------------------------------------------------------------------

def test_verl_vllm_server_no_room_is_e218():
    text = ('  File "/usr/lib/python3.11/site-packages/verl/workers/rollout/vllm_rollout/vllm_async_server.py", line 596, in generate\n'
            "ValueError: Prompt length (8200) leaves no room to generate within the model's maximum context length (8192); "
            "need at least 1 token of headroom.\n")
    assert _id(text) == "ARL-E218"


def test_prompt_longer_than_max_prompt_length_is_not_e218():
    # verl's dataset check of data.max_prompt_length (truncation='error') is its own entry.
    text = ('  File "/usr/lib/python3.11/site-packages/verl/utils/torch_functional.py", line 560, in postprocess_data\n'
            "NotImplementedError: sequence_length=3011 is larger than max_length=2048\n")
    assert _id(text) != "ARL-E218"


# ARL-E4644 ---------------------------------------------------------------------------------------------------------

def test_hf_export_unknown_architecture_is_e4644():
    for text in (
        "NotImplementedError: Unknown architecture ['InternVLChatModel']\n",
        "(WorkerDict pid=8, ip=10.0.0.3) NotImplementedError: Unknown architecture ['Qwen2ForSequenceClassification']\n",
        "NotImplementedError: Unknown auto class AutoModel\n",
    ):
        assert _id(text) == "ARL-E4644", text


def test_other_unknown_architecture_is_not_e4644():
    # A registry that names one architecture as a quoted string, and verl's Megatron registry: other failures.
    for text in (
        "ValueError: unknown architecture 'resnet18'; expected one of ('resnet50',)\n",
        "ValueError: Model architectures ['Qwen3MoeForCausalLM'] are not supported for now. Supported architectures: "
        "['LlamaForCausalLM', 'Qwen2ForCausalLM']\n",
    ):
        assert _id(text) != "ARL-E4644", text


# ARL-E4645 ---------------------------------------------------------------------------------------------------------

def test_megatron_merger_invalid_key_is_e4645():
    for text in (
        "ValueError: Invalid key vision_model.patch_embed.proj.weight in Megatron state_dict. Expected keys to start "
        "with 'decoder' in TransformerLayer.\n",
        "[rank0]: ValueError: Invalid key model.layers.0.mlp.up_proj.weight in Megatron state_dict. Expected keys to "
        "start with 'decoder/embedding/output_layer' in TransformerLayer.\n",
    ):
        assert _id(text) == "ARL-E4645", text


def test_megatron_dist_ckpt_unexpected_key_is_not_e4645():
    # Megatron's own dist-checkpointing load of mismatched keys is another failure.
    text = ("megatron.core.dist_checkpointing.core.CheckpointingException: Object shard "
            "decoder.layers.self_attention.linear_qkv.weight not found\n")
    assert _id(text) != "ARL-E4645"


# DRV-chat-template-content ------------------------------------------------------------------------------------------

TEMPLATE_TRACE = (
    "Traceback (most recent call last):\n"
    '  File "/opt/verl/verl/utils/dataset/rl_dataset.py", line 262, in __getitem__\n'
    "    raw_prompt = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)\n"
    '  File "/usr/lib/python3.10/site-packages/transformers/tokenization_utils_base.py", line 1695, in apply_chat_template\n'
    "    rendered_chat = compiled_template.render(\n"
    '  File "/usr/lib/python3.10/site-packages/jinja2/environment.py", line 1295, in render\n'
    "    self.environment.handle_exception()\n"
    '  File "<template>", line 4, in top-level template code\n'
)


def test_list_content_in_string_chat_template_is_derived():
    for text in (
        TEMPLATE_TRACE + 'TypeError: can only concatenate str (not "list") to str\n',
        # the short paste: only the dataset frame and its apply_chat_template line
        'Traceback (most recent call last):\n  File "/verl/utils/dataset/rl_dataset.py", line 262, in __getitem__\n'
        "    raw_prompt = self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)\n"
        'TypeError: can only concatenate str (not "list") to str\n',
    ):
        top = _top(text)
        assert top is not None and top.entry.id == "DRV-chat-template-content", text


def test_str_plus_list_outside_a_template_is_not_chat_template():
    text = ('Traceback (most recent call last):\n  File "/home/user/train.py", line 20, in main\n    name = prefix + parts\n'
            'TypeError: can only concatenate str (not "list") to str\n')
    assert _id(text) != "DRV-chat-template-content"


# ARL-E4646 ---------------------------------------------------------------------------------------------------------

def test_sft_sample_longer_than_max_length_is_e4646():
    for text in (
        "ValueError: sequence_length=5213 is larger than self.max_length=4096\n",
        "[rank0]: NotImplementedError: sequence_length=2049 is larger than self.max_length=2048\n",
    ):
        assert _id(text) == "ARL-E4646", text


def test_rl_postprocess_length_is_not_e4646():
    # The RL path's torch_functional.postprocess_data (no "self.") is the prompt-length entry, ARL-E107.
    text = "NotImplementedError: sequence_length=3011 is larger than max_length=2048\n"
    assert _id(text) == "ARL-E107"


# ARL-E107 (widened) -----------------------------------------------------------------------------------------------

def test_agent_loop_multimodal_prompt_too_long_is_e107():
    text = ("ValueError: Multimodal prompt produced 5000 tokens, exceeding rollout.prompt_length=4096. Truncating "
            "multimodal token sequences corrupts vision/audio feature alignment, so this is treated as a configuration error.\n")
    assert _id(text) == "ARL-E107"


def test_image_token_count_mismatch_is_not_e107():
    text = "ValueError: Image features and image tokens do not match: tokens: 5000, features 4096\n"
    assert _id(text) != "ARL-E107"


# ARL-E4647 ---------------------------------------------------------------------------------------------------------

def test_megatron_legacy_checkpoint_layout_is_e4647():
    for text in (
        "RuntimeError: Detected deprecated Megatron checkpoint layout (legacy dist_ckpt/ directly under "
        "/ckpt/global_step_10/actor). The current loader expects the split layout (model/, optimizer/, extra/ subdirectories).\n",
        "RuntimeError: Detected deprecated Megatron checkpoint layout (legacy huggingface/ directly under /ckpt/s/actor).\n",
        "RuntimeError: Found legacy PEFT checkpoint at /ckpt/global_step_10/actor/adapter_checkpoint, but checkpoint "
        "resume now expects adapter weights in /ckpt/global_step_10/actor/model.\n",
        "RuntimeError: Found exported HF PEFT adapter at /ckpt/g/actor/model/huggingface/adapter, but `load_checkpoint()` "
        "resumes from /ckpt/g/actor/model.\n",
    ):
        assert _id(text) == "ARL-E4647", text


def test_megatron_fsdp_metadata_missing_is_not_e4647():
    text = "FileNotFoundError: Megatron-FSDP checkpoint metadata not found at /ckpt/global_step_10/actor/model/.metadata.\n"
    assert _id(text) != "ARL-E4647"


# DRV-model-path (widened): verl's Megatron merger on a VL config ---------------------------------------------------

MERGER_VL = (
    '[rank0]:   File "/opt/verl/verl/model_merger/megatron_model_merger.py", line 233, in __init__\n'
    "[rank0]:     self.pipeline_shards = get_dynamic_pipeline_shards(self.hf_config.num_hidden_layers, self.world_size)\n"
    '[rank0]:   File "/usr/lib/python3.12/site-packages/transformers/configuration_utils.py", line 207, in __getattribute__\n'
    "[rank0]:     return super().__getattribute__(key)\n"
    "[rank0]: AttributeError: 'Qwen3VLConfig' object has no attribute 'num_hidden_layers'\n"
)


def test_verl_merger_on_vl_config_is_model_path():
    top = _top(MERGER_VL)
    assert top is not None and top.entry.id == "DRV-model-path" and top.kind == "model-arch-unsupported-by-verl"


def test_same_attribute_error_in_a_user_script_is_not_the_merger():
    text = MERGER_VL.replace("/opt/verl/verl/model_merger/megatron_model_merger.py", "/home/user/convert.py")
    top = _top(text)
    assert top is None or top.kind != "model-arch-unsupported-by-verl"


# DRV-own-check verl-dapo-overlong-buffer-config ---------------------------------------------------------------------

def test_dapo_overlong_buffer_config_is_own_check():
    for text in (
        "AssertionError: max_resp_len must be provided if overlong_buffer_cfg={'enable': True, 'len': 4096, "
        "'penalty_factor': 1.0, 'log': False}, but got None\n",
        "AssertionError: max_resp_len must be larger than overlong_buffer.len\n",
        "AssertionError: overlong_buffer.len must be positive when overlong penalty is enabled,but got 0.To disable the "
        "overlong penalty, set overlong_buffer.enable = False\n",
    ):
        top = _top(text)
        assert top is not None and top.entry.id == "DRV-own-check" and top.kind == "verl-dapo-overlong-buffer-config", text


def test_dapo_dynamic_sampling_limit_is_not_overlong_buffer():
    text = ("ValueError: num_gen_batches=11 >= max_num_gen_batches=10. Generated too many. Please check if your data "
            "are too difficult. You could also try set max_num_gen_batches=0 to enable endless trials.\n")
    top = _top(text)
    assert top is None or top.kind != "verl-dapo-overlong-buffer-config"
