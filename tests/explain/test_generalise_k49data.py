"""Readings added by helper k49data (2026-12-06) while probing public threads of data and model files, verl / Hydra config
and user code (LoRA adapters, tokenizers, datasets, Megatron-style launch arguments) for failure classes explain did not
name. Each test input is a short excerpt around the exact emitted message; each class also has a near miss (similar
words, another failure).

New entries (catalog/known_failures/mined_2026z_s48_k49data.yaml):
- ARL-E4800: PEFT refusing a module matched by target_modules that is no layer type LoRA can wrap (lora/model.py
  "Target module X is not supported. Currently, only the following modules are supported: ..." and peft <= 0.4's
  "only `torch.nn.Linear` and `Conv1D` are supported"), read on the message's last line when the repr spans lines.
- ARL-E4801: a model folder / repo lacking a file transformers or safetensors must read (hub.py "does not appear to
  have a file named X", safetensors' "No such file or directory" for an indexed shard, AutoProcessor's "Unrecognized
  processing class"); config.json (E155) and generation_config.json (E060) keep their entries.
- ARL-E4802: rope_scaling lacking a key (transformers _check_received_keys KeyError, vLLM patch_rope_scaling_dict).
- ARL-E4803: datasets refusing to concatenate files whose column types differ (_check_if_features_can_be_aligned).
- ARL-E4804: tiktoken unable to download its BPE file from openaipublic.blob.core.windows.net (or a hash mismatch).
- ARL-E4805: a YAML config that does not parse (PyYAML ScannerError / ParserError / ComposerError).
- ARL-E4806: OmegaConf interpolation with an unregistered resolver or that does not parse (UnsupportedInterpolationType,
  GrammarParseError).
- ARL-E4807: datasets config name missing or unknown (_create_builder_config).
- ARL-E4808: generate() given kwargs the model does not take (_validate_model_kwargs, token_type_ids).
- ARL-E4809: Megatron-style .bin / .idx data not at the --data-path prefix, or an .idx that is no Megatron index.
- ARL-E4810 (non-fatal): Megatron found no latest_checkpointed_iteration.txt under --load and starts from random.
- ARL-E4811: an image processor unable to infer the channel axis (grayscale / RGBA / odd-shaped images).
- ARL-E4812: a video decord / PyAV cannot open or decode.
- ARL-E4813: backward() on a non-scalar loss (_make_grads; DataParallel per-device losses).
- ARL-E4816: a Hub revision (branch / tag / commit) the repo does not have (transformers hub.py, hf_raise_for_status);
  ARL-E4801 also reads hf_raise_for_status' "Entry Not Found for url" (a file the revision lacks).
- ARL-E4815: a trust_remote_code class (transformers_modules.*) that pickle cannot send to another process.
- ARL-E4814: a download whose file size (huggingface_hub) or sha256 (ModelScope) does not match the hub's.

Widened entries:
- ARL-E4331: sentencepiece 0.2.0's "could not parse ModelProto from <path>".
- ARL-E4323: transformers' own non-text checks ("text input must (be) of type ...", "is not valid. Should be a
  string ...") in three releases' wordings.
- ARL-E108: validate_repo_id's charset refusal of a path taken for a repo id.
- ARL-E050: DeepSpeed _batch_assertion's "has to be greater than 0" checks and the no-batch-size refusal.
- ARL-E2845: vLLM PEFTHelper refusing modules_to_save, DoRA, or a bias without bias_enabled.
- ARL-E4328: verl's own lora_adapter_path checks.
- ARL-E165: datasets' verify_checksums (NonMatchingChecksumError and the downloaded-file set checks).
- ARL-E1689: pyarrow's "ArrowTypeError: Expected bytes, got a 'X' object" without the pandas suffix (common.h).

Analyzers:
- DRV-launch-args (catalog/analyzers/launchargs.py): an AssertionError / ValueError raised by a validation function of
  Megatron-LM / Megatron-core or MindSpeed / MindSpeed-LLM / MindSpeed-RL (validate_args, _validate_*, _valid_*,
  validate_rl_args, a feature's validate_args, a config's __post_init__; old Megatron's parse_args), or pasted alone
  when it names Megatron flags or Megatron's parallel-layout words; names the flags (or MindSpeed-RL YAML keys).
- DRV-hub widened: huggingface_hub's FileMetadataError ("Distant resource does not seem to be on huggingface.co"): a
  proxy, portal or wrong HF_ENDPOINT answered instead of the Hub.
- own_checks.yaml row verl-reward-manager-unknown (DRV-own-check): RewardManagerConfig's "Reward manager is not
  registered" (a name outside verl's @register registry).
- DRV-rope-scaling-key (catalog/analyzers/ropekeys.py): a KeyError whose printed source line indexes rope_scaling /
  rope_parameters by the missing key (code and config of different transformers conventions).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4800 ---------------------------------------------------------------------------------------------------------

def test_peft_target_module_not_supported_is_e4800():
    for text in (
        # peft 0.10+, one line (a leaf module with a short repr)
        "ValueError: Target module Identity() is not supported. Currently, only the following modules are supported: "
        "`torch.nn.Linear`, `torch.nn.Embedding`, `torch.nn.Conv2d`, `transformers.pytorch_utils.Conv1D`.\n",
        # peft 0.10+, a whole decoder layer matched: the repr spans many lines, the message ends on the last one
        "[rank0]: ValueError: Target module Qwen2DecoderLayer(\n"
        "[rank0]:   (input_layernorm): Qwen2RMSNorm()\n"
        "[rank0]: ) is not supported. Currently, only the following modules are supported: `torch.nn.Linear`, "
        "`torch.nn.Embedding`, `torch.nn.Conv1d`, `torch.nn.Conv2d`, `torch.nn.Conv3d`, "
        "`transformers.pytorch_utils.Conv1D`, `torch.nn.MultiheadAttention.`.\n",
        # peft <= 0.4
        "ValueError: Target module QuantLinear() is not supported. Currently, only `torch.nn.Linear` and `Conv1D` are "
        "supported.\n",
    ):
        assert _id(text) == "ARL-E4800", text


def test_peft_target_modules_not_found_is_not_e4800():
    # The other target_modules failure: no module of the model has the name at all.
    text = ("ValueError: Target modules {'query_key_value'} not found in the base model. Please check the target "
            "modules and try again.\n")
    assert _id(text) not in (None, "ARL-E4800")


# ARL-E4331 (widened) -----------------------------------------------------------------------------------------------

def test_sentencepiece_020_unparsable_model_is_e4331():
    for text in (
        "RuntimeError: Internal: could not parse ModelProto from /home/user/models/Llama-2-7b-hf/tokenizer.model\n",
        "RuntimeError: Internal: src/sentencepiece_processor.cc(1102) "
        "[model_proto->ParseFromArray(serialized.data(), serialized.size())]\n",
    ):
        assert _id(text) == "ARL-E4331", text


def test_sentencepiece_missing_file_is_not_e4331():
    text = 'OSError: Not found: "/home/user/models/Llama-2-7b-hf/tokenizer.model": No such file or directory Error #2\n'
    assert _id(text) != "ARL-E4331"


# DRV-launch-args ---------------------------------------------------------------------------------------------------

_MEGATRON_TB = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/MindSpeed-LLM/pretrain_gpt.py", line 250, in <module>\n'
    "    pretrain(\n"
    '  File "/home/user/Megatron-LM/megatron/training/initialize.py", line 60, in initialize_megatron\n'
    "    validate_args(args, args_defaults)\n"
)


def test_megatron_validate_args_is_launch_args():
    for text in (
        _MEGATRON_TB
        + '  File "/home/user/Megatron-LM/megatron/training/arguments.py", line 403, in validate_args\n'
        "    assert args.overlap_grad_reduce, \\\n"
        "AssertionError: Must use --overlap-param-gather with --overlap-grad-reduce\n",
        # MindSpeed-LLM's own checks raise AssertionError from _validate_* functions
        _MEGATRON_TB
        + '  File "/home/user/MindSpeed-LLM/mindspeed_llm/training/arguments.py", line 1500, in wrapper\n'
        "    _validate_fused_opts(args)\n"
        '  File "/home/user/MindSpeed-LLM/mindspeed_llm/training/arguments.py", line 1380, in _validate_fused_opts\n'
        "    raise AssertionError(\n"
        "AssertionError: --use-fused-rmsnorm must enable with --normalization=RMSNorm, but got normalization=LayerNorm.\n",
        # old Megatron asserting in parse_args, without a message
        "Traceback (most recent call last):\n"
        '  File "/workspace/megatron-lm/megatron/arguments.py", line 213, in parse_args\n'
        "    assert args.encoder_seq_length is not None\n"
        "AssertionError\n",
        # MindSpeed-RL's YAML checks
        "Traceback (most recent call last):\n"
        '  File "/home/user/MindSpeed-RL/cli/train_grpo.py", line 560, in main\n'
        "    validate_rl_args(actor_config, ref_config, reward_config, rl_config, generate_config)\n"
        '  File "/home/user/MindSpeed-RL/mindspeed_rl/config_cls/validate_config.py", line 150, in _validate_data_parallel\n'
        "    raise ValueError(\n"
        "ValueError: Actor global_batch_size 30 must be divisible by data_parallel_size 4\n",
        # pasted alone: Megatron's parallel-layout words
        "AssertionError: world size (8) is not divisible by tensor model parallel size (3) times pipeline model "
        "parallel size (1)\n",
    ):
        top = _top(text)
        if "MindSpeed-RL" in text:  # k50data's ARL-E5084 names MindSpeed-RL's own checks; the analyzer's reading folds into it
            assert top is not None and (top.entry.id, top.kind) == ("ARL-E5084", "launch-args-invalid"), text
            continue
        assert top is not None and top.entry.id == "DRV-launch-args", text


def test_launch_args_names_the_flags():
    text = (_MEGATRON_TB
            + '  File "/home/user/Megatron-LM/megatron/training/arguments.py", line 403, in validate_args\n'
            "    assert args.overlap_grad_reduce, \\\n"
            "AssertionError: Must use --overlap-param-gather with --overlap-grad-reduce\n")
    top = _top(text)
    assert "--overlap-param-gather" in " ".join(top.entry.fix)


def test_megatron_assert_outside_validation_is_not_launch_args():
    # An assert in Megatron's training loop (not a validation function): another failure.
    text = ("Traceback (most recent call last):\n"
            '  File "/home/user/Megatron-LM/megatron/training/training.py", line 800, in train_step\n'
            "    assert not torch.isnan(loss)\n"
            "AssertionError: --loss is nan\n")
    assert _id(text) != "DRV-launch-args"
    # verl's own batch condition keeps its reading.
    text = ("Traceback (most recent call last):\n"
            '  File "/home/user/verl/verl/trainer/ppo/ray_trainer.py", line 300, in _validate_config\n'
            "    assert real_train_batch_size % minimal_bsz == 0\n"
            "AssertionError: real_train_batch_size (60) must be divisible by minimal possible batch size (8)\n")
    assert _id(text) != "DRV-launch-args"


# ARL-E4801 ---------------------------------------------------------------------------------------------------------

def test_model_folder_missing_file_is_e4801():
    for text in (
        "OSError: /home/user/models/Qwen2.5-VL-7B does not appear to have a file named preprocessor_config.json. "
        "Checkout 'https://huggingface.co//home/user/models/Qwen2.5-VL-7B/tree/None' for available files.\n",
        "OSError: Qwen/Qwen2.5-7B does not appear to have a file named model-00003-of-00004.safetensors. Checkout "
        "'https://huggingface.co/Qwen/Qwen2.5-7B/tree/main' for available files.\n",
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.10/site-packages/transformers/modeling_utils.py", line 505, in load_state_dict\n'
        '    with safe_open(checkpoint_file, framework="pt") as f:\n'
        'FileNotFoundError: No such file or directory: "/home/user/Qwen1.5-7B/model-00001-of-00004.safetensors"\n',
    ):
        assert _id(text) == "ARL-E4801", text


def test_specific_missing_files_keep_their_entries():
    # config.json (a checkpoint folder given as the model) and generation_config.json (verl's save) have their own.
    assert _id("OSError: /home/user/ckpt/global_step_100/actor does not appear to have a file named config.json. "
               "Checkout 'https://huggingface.co//home/user/ckpt/global_step_100/actor/tree/None' for available "
               "files.\n") == "ARL-E155"
    assert _id("OSError: /workspace/model does not appear to have a file named generation_config.json.\n") == "ARL-E060"
    # A missing single-file checkpoint (no shard index) is not this class.
    assert _id('FileNotFoundError: No such file or directory: "/home/user/model/model.safetensors"\n') != "ARL-E4801"


# ARL-E4802 ---------------------------------------------------------------------------------------------------------

def test_rope_scaling_missing_key_is_e4802():
    for text in (
        "KeyError: \"Missing required keys in `rope_scaling` for 'rope_type'='yarn': {'factor'}\"\n",
        "ValueError: rope_scaling should have a 'rope_type' key\n",
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        "  Value error, rope_scaling should have a 'rope_type' key [type=value_error, input_value=ArgsKwargs((), "
        "{'model': '/home/user/model'}), input_type=ArgsKwargs]\n",
    ):
        assert _id(text) == "ARL-E4802", text


def test_rope_scaling_warnings_and_old_format_are_not_e4802():
    # transformers' warning for an extra key (Qwen2.5-VL's mrope_section): healthy runs print it.
    assert _id("Unrecognized keys in `rope_scaling` for 'rope_type'='default': {'mrope_section'}\n") != "ARL-E4802"
    # The Llama 3.1 format read by a transformers too old for it has its own entry.
    text = ("ValueError: `rope_scaling` must be a dictionary with two fields, `type` and `factor`, got {'factor': 8.0, "
            "'high_freq_factor': 4.0, 'low_freq_factor': 1.0, 'original_max_position_embeddings': 8192, "
            "'rope_type': 'llama3'}\n")
    assert _id(text) not in (None, "ARL-E4802")


# DRV-rope-scaling-key ----------------------------------------------------------------------------------------------

def test_code_indexing_rope_scaling_is_rope_scaling_key():
    for key, line in (("type", 'scaling_type = self.config.rope_scaling["type"]'),
                      ("rope_type", "rope_type = config.rope_scaling['rope_type']"),
                      ("factor", 'factor = self.config.rope_scaling["factor"]')):
        text = ("Traceback (most recent call last):\n"
                '  File "/home/user/KBLaM/src/kblam/models/llama3_model.py", line 128, in _init_rope\n'
                f"    {line}\n"
                f"KeyError: '{key}'\n")
        top = _top(text)
        assert top is not None and top.entry.id == "DRV-rope-scaling-key", text


def test_other_key_errors_are_not_rope_scaling_key():
    # A KeyError on another dict, and a KeyError for another key than the line indexes.
    for text in (
        "Traceback (most recent call last):\n"
        '  File "/home/user/reward.py", line 10, in compute_score\n'
        '    answer = extra_info["type"]\n'
        "KeyError: 'type'\n",
        "Traceback (most recent call last):\n"
        '  File "/home/user/model.py", line 10, in _init_rope\n'
        '    scaling_type = self.config.rope_scaling["type"]\n'
        "KeyError: 'factor'\n",
    ):
        assert _id(text) != "DRV-rope-scaling-key", text


# ARL-E4323 (widened) -----------------------------------------------------------------------------------------------

def test_tokenizer_given_non_text_transformers_checks_are_e4323():
    for text in (
        "ValueError: text input must be of type `str` (single example), `List[str]` (batch or single pretokenized "
        "example) or `List[List[str]]` (batch of pretokenized examples).\n",
        "ValueError: text input must of type `str` (single example), `List[str]` (batch or single pretokenized "
        "example) or `List[List[str]]` (batch of pretokenized examples).\n",
        'AssertionError: text input must of type "str" (single example), "List[str]" (batch or single pretokenized '
        'example) or "List[List[str]]" (batch of pretokenized examples).\n',
        "ValueError: Input None is not valid. Should be a string, a list/tuple of strings or a list/tuple of "
        "integers.\n",
    ):
        assert _id(text) == "ARL-E4323", text


def test_tokenizer_split_words_check_is_not_e4323():
    # The is_split_into_words variant names another misuse (a pre-split input flag), not a non-text value.
    text = ("ValueError: Input [1, 2] is not valid. Should be a string or a list/tuple of strings when "
            "`is_split_into_words=True`.\n")
    assert _id(text) != "ARL-E4323"


# ARL-E4803 ---------------------------------------------------------------------------------------------------------

def test_features_cannot_be_aligned_is_e4803():
    for text in (
        "ValueError: The features can't be aligned because the key prompt of features {'prompt': Value(dtype='string', "
        "id=None)} has unexpected type - Value(dtype='string', id=None) (expected either [{'content': "
        "Value(dtype='string', id=None), 'role': Value(dtype='string', id=None)}] or Value(\"null\").\n",
        "ValueError: The features can't be aligned because the key input_ids of features {'input_ids': "
        "Sequence(feature=Value(dtype='int32', id=None), length=-1, id=None)} has unexpected type - "
        "Sequence(feature=Value(dtype='int32', id=None), length=-1, id=None) (expected either "
        "LargeList(dtype=Value(dtype='int32', id=None), id=None) or Value(\"null\").\n",
    ):
        assert _id(text) == "ARL-E4803", text


def test_single_file_cast_error_is_not_e4803():
    # One file's own rows disagreeing with its schema is a cast error inside the builder, not a join of two files.
    text = ("datasets.table.CastError: Couldn't cast\nprompt: string\nto\n{'content': Value(dtype='string', id=None)}\n"
            "because column names don't match\n")
    assert _id(text) != "ARL-E4803"


# ARL-E108 (widened) ------------------------------------------------------------------------------------------------

def test_path_refused_as_repo_id_charset_is_e108():
    for text in (
        "huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.', '--' and "
        "'..' are forbidden, '-' and '.' cannot start or end the name, max length is 96: "
        "'D:\\ComfyUI\\models\\LLavacheckpoints\\files_for_uform_gen2_qwen'.\n",
        "huggingface_hub.utils._validators.HFValidationError: Repo id must use alphanumeric chars or '-', '_', '.', "
        "'--' and '..' are forbidden, '-' and '.' cannot start or end the name, max length is 96: '../Qwen2.5-7B'.\n",
    ):
        assert _id(text) == "ARL-E108", text


def test_repo_id_double_dash_from_code_is_not_e108():
    # A library turning "org/name" into "org--name" is its own bug, not a missing local path.
    text = "huggingface_hub.errors.HFValidationError: Cannot have -- or .. in repo_id: 'mlx-community--Qwen3-VL-4B'.\n"
    assert _id(text) != "ARL-E108"


# ARL-E4804 ---------------------------------------------------------------------------------------------------------

def test_tiktoken_download_failure_is_e4804():
    for text in (
        "requests.exceptions.ConnectionError: HTTPSConnectionPool(host='openaipublic.blob.core.windows.net', "
        "port=443): Max retries exceeded with url: /encodings/cl100k_base.tiktoken (Caused by "
        "NewConnectionError('<urllib3.connection.HTTPSConnection object at 0x7f2a>: Failed to establish a new "
        "connection: [Errno 101] Network is unreachable'))\n",
        "requests.exceptions.SSLError: HTTPSConnectionPool(host='openaipublic.blob.core.windows.net', port=443): Max "
        "retries exceeded with url: /encodings/o200k_base.tiktoken (Caused by SSLError(SSLEOFError(8, 'EOF occurred "
        "in violation of protocol (_ssl.c:1129)')))\n",
        "ValueError: Hash mismatch for data downloaded from "
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken (expected "
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7). This may indicate a corrupted download. "
        "Please try again.\n",
    ):
        assert _id(text) == "ARL-E4804", text


def test_hub_connection_error_is_not_e4804():
    text = ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries "
            "exceeded with url: /Qwen/Qwen2.5-7B/resolve/main/config.json (Caused by NewConnectionError('<urllib3."
            "connection.HTTPSConnection object at 0x7f2a>: Failed to establish a new connection: [Errno 101] Network "
            "is unreachable'))\n")
    assert _id(text) != "ARL-E4804"


# ARL-E4805 ---------------------------------------------------------------------------------------------------------

def test_yaml_syntax_error_is_e4805():
    for text in (
        'yaml.scanner.ScannerError: mapping values are not allowed here\n  in "./config.yaml", line 9, column 8\n',
        "yaml.scanner.ScannerError: while scanning a simple key\n  in \"recipe.yaml\", line 3, column 1\n"
        "could not find expected ':'\n",
        'yaml.parser.ParserError: while parsing a block mapping\n  in "ppo.yaml", line 1, column 1\n'
        "expected <block end>, but found '<block mapping start>'\n",
        "Exception has occurred: ScannerError mapping values are not allowed here\n",
        "ScannerError: mapping values are not allowed here\n",
    ):
        assert _id(text) == "ARL-E4805", text


def test_yaml_constructor_error_is_not_e4805():
    # A Python-object tag refused by safe_load is valid YAML of another kind: not a syntax slip.
    text = ("yaml.constructor.ConstructorError: could not determine a constructor for the tag "
            "'tag:yaml.org,2002:python/object/apply:numpy.core.multiarray.scalar'\n")
    assert _id(text) != "ARL-E4805"


# ARL-E4806 ---------------------------------------------------------------------------------------------------------

def test_omegaconf_interpolation_unresolvable_is_e4806():
    for text in (
        "omegaconf.errors.UnsupportedInterpolationType: Unsupported interpolation type env\n"
        "    full_key: trainer.default_local_dir\n    object_type=dict\n",
        "omegaconf.errors.InterpolationResolutionError: Unsupported interpolation type eval\n"
        "    full_key: model.d_inner\n",
        "omegaconf.errors.GrammarParseError: token recognition error at: '='\n    full_key: tasks.connect.api_key\n",
    ):
        assert _id(text) == "ARL-E4806", text


def test_interpolation_to_missing_key_is_not_e4806():
    # A ${key} pointing at a key that is not there has its own entry (ARL-E163).
    text = ("omegaconf.errors.InterpolationKeyError: Interpolation key 'actor_rollout_ref.foo' not found\n"
            "    full_key: critic.foo\n    object_type=dict\n")
    assert _id(text) == "ARL-E163"


# ARL-E050 (widened) ------------------------------------------------------------------------------------------------

def test_deepspeed_batch_size_zero_is_e050():
    for text in (
        "AssertionError: Micro batch size per gpu: 0 has to be greater than 0\n",
        "AssertionError: Gradient accumulation steps: 0 has to be greater than 0\n",
        "AssertionError: Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided\n",
    ):
        assert _id(text) == "ARL-E050", text


def test_other_greater_than_zero_asserts_are_not_e050():
    text = "AssertionError: Number of workers has to be greater than 0\n"
    assert _id(text) != "ARL-E050"


# ARL-E2845 (widened) -----------------------------------------------------------------------------------------------

def test_vllm_peft_feature_refusal_is_e2845():
    for text in (
        "ValueError: Call to add_lora method failed: vLLM only supports modules_to_save being None.\n",
        "ValueError: vLLM does not yet support DoRA.\n",
        "ValueError: Adapter bias cannot be used without bias_enabled.\n",
    ):
        assert _id(text) == "ARL-E2845", text


def test_vllm_lora_rank_refusal_stays_e510():
    assert _id("ValueError: LoRA rank 64 is greater than max_lora_rank 16.\n") == "ARL-E510"


# ARL-E4807 ---------------------------------------------------------------------------------------------------------

def test_dataset_config_name_missing_or_unknown_is_e4807():
    for text in (
        "ValueError: Config name is missing.\nPlease pick one among the available configs: ['main', 'socratic']\n"
        "Example of usage:\n\t`load_dataset('openai/gsm8k', 'main')`\n",
        "ValueError: BuilderConfig 'default' not found. Available: ['main', 'socratic']\n",
    ):
        assert _id(text) == "ARL-E4807", text


def test_unknown_split_is_not_e4807():
    # A split name the dataset lacks is another refusal (ARL-E547).
    assert _id("ValueError: Unknown split \"test\". Should be one of ['train'].\n") != "ARL-E4807"


def test_processor_files_missing_is_e4801():
    text = ("ValueError: Unrecognized processing class in /home/user/ckpt/global_step_50/actor/huggingface. Can't "
            "instantiate a processor, a tokenizer, an image processor or a feature extractor for this model. Make sure "
            "the repository contains the files of at least one of those processing classes.\n")
    assert _id(text) == "ARL-E4801"
    # An image processor class this transformers lacks is a version question (ARL-E911), not a missing file.
    text = ("ValueError: Unrecognized image processor in /home/user/model. Should have a `image_processor_type` key in "
            "its preprocessor_config.json of config.json\n")
    assert _id(text) == "ARL-E911"


# ARL-E4808 ---------------------------------------------------------------------------------------------------------

def test_generate_unused_model_kwargs_is_e4808():
    for text in (
        "ValueError: The following `model_kwargs` are not used by the model: ['token_type_ids'] (note: typos in the "
        "generate arguments will also show up in this list)\n",
        "ValueError: The following model_kwargs are not used by the model: ['token_type_ids'] (note: typos in the "
        "generate arguments will also show up in this list)\n",
    ):
        assert _id(text) == "ARL-E4808", text


def test_forward_unexpected_keyword_is_not_e4808():
    text = "TypeError: forward() got an unexpected keyword argument 'num_items_in_batch'\n"
    assert _id(text) != "ARL-E4808"


# ARL-E4809 ---------------------------------------------------------------------------------------------------------

def test_megatron_indexed_dataset_prefix_is_e4809():
    for text in (
        "ValueError: One or both of the .idx and .bin files cannot be found at the path prefix "
        "./dataset/alpaca_text_document.bin\n",
        "AssertionError: One or both of the .idx and .bin files cannot be found at the path prefix /data/gsm8k/train\n",
        "AssertionError: bad header, cannot read: /data/pile/pile_text_document.idx\n",
        "AssertionError: Index file doesn't match expected format. Make sure that --dataset-impl is configured "
        "properly.\n",
    ):
        assert _id(text) == "ARL-E4809", text


def test_parquet_train_file_missing_is_not_e4809():
    text = "FileNotFoundError: [Errno 2] No such file or directory: '/home/user/data/gsm8k/train.parquet'\n"
    assert _id(text) != "ARL-E4809"


# ARL-E4810 ---------------------------------------------------------------------------------------------------------

def test_megatron_no_tracker_file_is_e4810_and_not_fatal():
    text = ("WARNING: could not find the metadata file /home/user/ckpt/actor/latest_checkpointed_iteration.txt\n"
            "    will not load any checkpoints and will start from random\n")
    top = _top(text)
    assert top is not None and top.entry.id == "ARL-E4810" and not top.entry.fatal


def test_real_failure_ranks_above_e4810():
    text = ("WARNING: could not find the metadata file /home/user/ckpt/actor/latest_checkpointed_iteration.txt\n"
            "    will not load any checkpoints and will start from random\n"
            "ValueError: One or both of the .idx and .bin files cannot be found at the path prefix /data/alpaca\n")
    assert _id(text) == "ARL-E4809"


# ARL-E4811 ---------------------------------------------------------------------------------------------------------

def test_image_channel_dimension_is_e4811():
    for text in (
        "ValueError: Unable to infer channel dimension format\n",
        "ValueError: Unsupported number of image dimensions: 2\n",
    ):
        assert _id(text) == "ARL-E4811", text


def test_invalid_image_type_is_not_e4811():
    text = ("ValueError: Invalid image type. Expected either PIL.Image.Image, numpy.ndarray, torch.Tensor, tf.Tensor or "
            "jax.ndarray, but got <class 'dict'>.\n")
    assert _id(text) == "ARL-E4404"


# ARL-E4812 ---------------------------------------------------------------------------------------------------------

def test_video_decode_failure_is_e4812():
    for text in (
        "decord._ffi.base.DECORDError: [16:56:24] /github/workspace/src/video/video_reader.cc:151: Check failed: "
        "st_nb >= 0 (-1381258232 vs. 0) ERROR cannot find video stream with wanted index: -1\n",
        "decord._ffi.base.DECORDError: [16:33:15] /github/workspace/src/video/video_reader.cc:486: Error: "
        "av_read_frame failed with 1094995529\n",
        "decord._ffi.base.DECORDError: [22:56:36] /workspace/3rd/decord/src/video/video_reader.cc:270: [BytesIO] "
        "Failed to measure duration/frame-count due to broken metadata.\n",
        "av.error.InvalidDataError: [Errno 1094995529] Invalid data found when processing input: '/data/v/1.mp4'\n",
    ):
        assert _id(text) == "ARL-E4812", text


def test_broken_image_is_not_e4812():
    text = "PIL.UnidentifiedImageError: cannot identify image file '/data/images/0001.jpg'\n"
    assert _id(text) != "ARL-E4812"


# ARL-E4328 (widened) -----------------------------------------------------------------------------------------------

def test_verl_lora_adapter_path_checks_are_e4328():
    for text in (
        "FileNotFoundError: LoRA adapter path not found: /home/user/ckpt/global_step_100/actor/lora_adapter\n",
        "FileNotFoundError: adapter_config.json not found in /home/user/ckpt/global_step_100/actor\n",
    ):
        assert _id(text) == "ARL-E4328", text


def test_plain_missing_file_is_not_e4328():
    assert _id("FileNotFoundError: [Errno 2] No such file or directory: '/home/user/lora/config.json'\n") != "ARL-E4328"


# ARL-E4813 ---------------------------------------------------------------------------------------------------------

def test_non_scalar_backward_is_e4813():
    assert _id("RuntimeError: grad can be implicitly created only for scalar outputs\n") == "ARL-E4813"


def test_backward_without_grad_fn_is_not_e4813():
    assert _id("RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n") == "ARL-E542"


# ARL-E4814 ---------------------------------------------------------------------------------------------------------

def test_download_size_or_checksum_mismatch_is_e4814():
    for text in (
        "OSError: Consistency check failed: file should be of size 3963750880 but has size 1049128960 "
        "(model-00001-of-00004.safetensors).\nWe are sorry for the inconvenience. Please retry with "
        "`force_download=True`.\n",
        "modelscope.hub.errors.FileIntegrityError: File /home/user/.cache/modelscope/hub/Qwen/Qwen2.5-7B/model-00001-of-"
        "00004.safetensors integrity check failed, expected sha256 signature is 6b1f, actual is 9a0c, the download may "
        "be incomplete, please try again.\n",
    ):
        assert _id(text) == "ARL-E4814", text


def test_corrupt_safetensors_header_is_not_e4814():
    # A file already on disk that does not parse is read by its own entry.
    assert _id("safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge\n") == "ARL-E141"


# DRV-hub (widened) -------------------------------------------------------------------------------------------------

def test_hub_answer_without_hub_headers_is_hub_unreachable():
    text = ("huggingface_hub.errors.FileMetadataError: Distant resource does not seem to be on huggingface.co. It is "
            "possible that a configuration issue prevents you from downloading resources from https://huggingface.co. "
            "Please check your firewall and proxy settings and make sure your SSL certificates are updated.\n")
    assert _id(text) == "DRV-hub"


# DRV-own-check row verl-reward-manager-unknown ---------------------------------------------------------------------

def test_verl_reward_manager_not_registered_is_own_check():
    for text in (
        "AssertionError: Reward manager is not registered: self.name='dapo_v2' ,REWARD_MANAGER_REGISTRY.keys()="
        "dict_keys(['batch', 'dapo', 'naive', 'prime'])\n",
        "ValueError: Reward manager is not registered: self.name='foo' ,REWARD_MANAGER.keys()=dict_keys(['naive'])\n",
    ):
        top = _top(text)
        assert top is not None and top.entry.id == "DRV-own-check" and top.kind == "verl-reward-manager-unknown", text


# ARL-E1689 (widened) -----------------------------------------------------------------------------------------------

def test_arrow_expected_bytes_is_e1689():
    for text in (
        "pyarrow.lib.ArrowTypeError: Expected bytes, got a 'dict' object\n",
        "pyarrow.lib.ArrowTypeError: (\"Expected bytes, got a 'int' object\", 'Conversion failed for column answer "
        "with type object')\n",
    ):
        assert _id(text) == "ARL-E1689", text


def test_python_bytes_typeerror_is_not_e1689():
    text = "TypeError: a bytes-like object is required, not 'str'\n"
    assert _id(text) != "ARL-E1689"


# ARL-E165 (widened) ------------------------------------------------------------------------------------------------

def test_datasets_checksum_mismatch_is_e165():
    for text in (
        "datasets.utils.info_utils.NonMatchingChecksumError: Checksums didn't match for dataset source files:\n"
        "['https://raw.githubusercontent.com/openai/grade-school-math/master/grade_school_math/data/train.jsonl']\n",
        "datasets.exceptions.NonMatchingChecksumError:\n",
    ):
        assert _id(text) == "ARL-E165", text


def test_hub_consistency_check_is_not_e165():
    text = ("OSError: Consistency check failed: file should be of size 100 but has size 50 (train.parquet).\n")
    assert _id(text) == "ARL-E4814"


# ARL-E4815 ---------------------------------------------------------------------------------------------------------

def test_remote_code_class_pickling_is_e4815():
    text = ("_pickle.PicklingError: Can't pickle <class 'transformers_modules.UniVL_2b.configuration_internvl_chat."
            "InternVLChatConfig'>: it's not the same object as transformers_modules.UniVL_2b.configuration_internvl_chat."
            "InternVLChatConfig\n")
    assert _id(text) == "ARL-E4815"


def test_custom_reward_module_pickling_is_not_e4815():
    # verl's custom reward file loaded as custom_module has its own entry.
    text = ("_pickle.PicklingError: Can't pickle <function compute_score at 0x7f1c>: it's not the same object as "
            "custom_module.compute_score\n")
    assert _id(text) not in (None, "ARL-E4815")


# ARL-E4816 and ARL-E4801 (EntryNotFound) ---------------------------------------------------------------------------

def test_hub_revision_not_found_is_e4816():
    for text in (
        "OSError: v1.0 is not a valid git identifier (branch name, tag name or commit id) that exists for this model "
        "name. Check the model page at 'https://huggingface.co/Qwen/Qwen2.5-7B' for available revisions.\n",
        "huggingface_hub.errors.RevisionNotFoundError: 404 Client Error. (Request ID: Root=1-abc)\n\n"
        "Revision Not Found for url: https://huggingface.co/api/models/Qwen/Qwen2.5-7B/revision/v1.0.\n",
    ):
        assert _id(text) == "ARL-E4816", text


def test_hub_entry_not_found_is_e4801_and_repo_not_found_is_e108():
    text = ("huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-abc)\n\n"
            "Entry Not Found for url: https://huggingface.co/Qwen/Qwen2.5-7B/resolve/main/preprocessor_config.json.\n")
    assert _id(text) == "ARL-E4801"
    text = ("huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-abc)\n\n"
            "Repository Not Found for url: https://huggingface.co/api/models/Qwen/Qwen9-7B/revision/main.\n")
    assert _id(text) == "ARL-E108"
