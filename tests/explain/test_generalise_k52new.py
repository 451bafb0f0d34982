"""Readings added by helper k52new (2026-12-07) while probing public threads filed against the newest releases
(vllm-ascend 0.11 .. 0.14, vLLM 0.11+, verl 0.6 / 0.7, transformers 5.x) and the emitting projects' source for messages
the catalog predated. Each test input is a short excerpt around the exact emitted message; each class also has a near
miss (similar words, another failure).

- ARL-E5620: vllm-ascend's EPLB model registration refusing a model type (eplb/utils.py "EPLB is not supported.",
  v0.11 .. v0.14); before, a resemblance or the generic vllm-ascend refusal.
- ARL-E5621: transformers 5 tokenizers refusing APIs 4.x code calls ("X has no attribute batch_encode_plus /
  encode_plus / additional_special_tokens / special_tokens_map_extended ...", and processors' "You passed keyword
  argument `audios` which is deprecated"); before, nothing.
- ARL-E5622: a transformers-5 tokenizer_config.json (list-valued extra_special_tokens) loaded by transformers 4.x
  ('list' object has no attribute 'keys' in _set_model_specific_special_tokens, read by its frame); before, nothing.
- ARL-E5623: vLLM --quantization X on a folder without that method's config ("Cannot find the config file for X",
  "Found multiple config files for X: [...]"); before, nothing.
- ARL-E5324 widened: the same message for --quantization ascend before vllm-ascend 0.15 ("Cannot find the config file
  for ascend").
- ARL-E5624: verl refusing transformers 4.53.x for Qwen2-VL / Qwen2.5-VL ("Transformers 4.53.* is bugged. Use
  transformers 4.54.0 or later."); before, nothing.
- ARL-E5625: transformers 5.x RoPE validation refusing a config vLLM or a merged checkpoint builds
  (ignore_keys_at_rope_validation as a list: "'list' | 'set'" in convert_rope_params_to_dict, "-=: 'set' and 'list'",
  and 5.4+'s "validate_rope() got an unexpected keyword argument 'ignore_keys'"); before, nothing.
- ARL-E5626: slime / miles Rollout Routing Replay (R3) with no routed experts from SGLang ("rollout_routed_experts is
  required in rollout_data when use_rollout_routing_replay is set."); before, nothing.
- ARL-E5627: vllm-ascend v0.23's rl_config migration ("additional_config.enable_sleep_mode_extra_cleanup has been
  removed", "Unknown rl_config keys", rl_config type checks); before, nothing.
- ARL-E5628: Megatron-Bridge AutoBridge without a bridge for the model ("Model architecture not supported by
  AutoBridge", "Model architecture 'X' is not yet supported"); before, a resemblance or nothing.
- ARL-E3073 widened: vllm-ascend v0.23's reworded finegrained-TP checks ("finegrained tp sizes must divide by
  data_parallel_size.", "... can be enabled only for MOE models.", "oproj_tensor_parallel_size currently requires
  tensor_parallel_size == 1"); ARL-E3064 widened: v0.23's Xlite speculative-decoding wording.
- ARL-E5629: transformers 5 refusing generation parameters in the model config (save_pretrained's "Some generation
  parameters are set in the model config", generate()'s "You have modified the pretrained model configuration to
  control generation ... not supported anymore"; the 4.x warnings non-fatal); before, nothing.
- ARL-E232 widened: transformers 5's missing-weights wording ("Error no file named model.safetensors, or
  pytorch_model.bin, found in directory X."); before, only a resemblance.
- ARL-E5630: vLLM V1 / vllm-ascend model runner's "Sampled token IDs exceed the max model length. Total number of
  tokens: N > max_model_len: M" (speculative / MTP tokens at the context limit); before, read as a verl config check.
- ARL-E5631: structured-output requests in vllm-ascend's own schedulers ("Invalid request status: WAITING_FOR_FSM");
  before, nothing. (The bare "AttributeError: WAITING_FOR_FSM" stays the package-version reading: a dev log's label.)
- ARL-E5632: Mooncake / MemCache KV connectors and KV pools without their config file ("The environment variable
  'MOONCAKE_CONFIG_PATH' / 'MMC_LOCAL_CONFIG_PATH' is not set.", "global segment size cannot be empty."); before,
  nothing.
- ARL-E5633: from_pretrained under a meta-device context, refused by transformers 4.57+ / 5.x ("You are using
  `from_pretrained` with a meta device context manager ..."; the earlier warning non-fatal); before, nothing.
- ARL-E5634: transformers 5's removal of the tuple KV cache ("Passing a tuple of `past_key_values` is not supported
  anymore. Please use a `Cache` instance."; the 4.x deprecation warnings non-fatal); before, nothing.
- ARL-E5635: HF generate() asked for several sequences without sampling or enough beams ("Greedy methods [(do_sample
  != True)] without beam search do not support `num_return_sequences` different than 1", "`num_return_sequences` (N)
  has to be smaller or equal to `num_beams` (M)"); before, nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E5620 -----------------------------------------------------------------------------------------------------------

def test_eplb_model_register_refusal_is_e5620():
    text = (TB + '  File "/vllm-workspace/vllm-ascend/vllm_ascend/eplb/utils.py", line 80, in model_register\n'
            '    raise NotImplementedError("EPLB is not supported.")\nNotImplementedError: EPLB is not supported.\n')
    assert _id(text) == "ARL-E5620"
    assert _id(TB + "NotImplementedError: EPLB is not supported.\n") == "ARL-E5620"


def test_eplb_without_expert_parallel_is_not_e5620():
    assert _id(TB + "AssertionError: EPLB must used in expert parallelism\n") != "ARL-E5620"
    assert _id(TB + "RuntimeError: EPLB not support w4a8_dynamic\n") != "ARL-E5620"


# ARL-E5621 -----------------------------------------------------------------------------------------------------------

def test_transformers5_removed_tokenizer_apis_are_e5621():
    for line in (
        "AttributeError: BertTokenizer has no attribute batch_encode_plus. Did you mean: '_encode_plus'?",
        "AttributeError: XLMRobertaTokenizer has no attribute batch_encode_plus",
        "AttributeError: RobertaTokenizer has no attribute additional_special_tokens. Did you mean: 'add_special_tokens'?",
        "AttributeError: Qwen2Tokenizer has no attribute additional_special_tokens_ids",
        "AttributeError: LlamaTokenizer has no attribute encode_plus",
        "AttributeError: TokenizersBackend has no attribute special_tokens_map_extended",
        "AttributeError: 'T5TokenizerFast' object has no attribute 'as_target_tokenizer'",
        "ValueError: You passed keyword argument `audios` which is deprecated. Please use `audio` instead.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5621", line


def test_other_tokenizer_attribute_errors_are_not_e5621():
    # a tokenizer that was never loaded, and vLLM's own transformers-5 reading (ARL-E240)
    assert _id(TB + "AttributeError: 'NoneType' object has no attribute 'encode_plus'\n") != "ARL-E5621"
    assert _id(TB + "AttributeError: Qwen2Tokenizer has no attribute all_special_tokens_extended\n") == "ARL-E240"
    assert _id(TB + "AttributeError: Qwen2Tokenizer has no attribute image_token\n") != "ARL-E5621"


# ARL-E5622 -----------------------------------------------------------------------------------------------------------

_E5622 = (
    TB + '  File "/usr/lib/python3.11/site-packages/transformers/tokenization_utils_base.py", line 1472, in __init__\n'
    '    self._set_model_specific_special_tokens(special_tokens=self.extra_special_tokens)\n'
    '  File "/usr/lib/python3.11/site-packages/transformers/tokenization_utils_base.py", line 1210, in '
    '_set_model_specific_special_tokens\n'
    '    self.SPECIAL_TOKENS_ATTRIBUTES = self.SPECIAL_TOKENS_ATTRIBUTES + list(special_tokens.keys())\n'
    "AttributeError: 'list' object has no attribute 'keys'\n"
)


def test_v5_tokenizer_config_on_4x_is_e5622():
    assert _id(_E5622) == "ARL-E5622"
    # the frame alone (a paste without the source lines Python prints under it)
    assert _id(_E5622.replace(
        "    self.SPECIAL_TOKENS_ATTRIBUTES = self.SPECIAL_TOKENS_ATTRIBUTES + list(special_tokens.keys())\n", "")) == "ARL-E5622"


def test_list_keys_elsewhere_is_not_e5622():
    text = (TB + '  File "/home/user/reward.py", line 20, in compute_score\n    for k in extra.keys():\n'
            "AttributeError: 'list' object has no attribute 'keys'\n")
    assert _id(text) != "ARL-E5622"


# ARL-E5623 / ARL-E5324 -----------------------------------------------------------------------------------------------

def test_missing_quant_config_file_is_e5623():
    for line in (
        "ValueError: Cannot find the config file for awq",
        "ValueError: Cannot find the config file for gptq",
        "ValueError: Cannot find the config file for gptq_marlin",
        "ValueError: Cannot find the config file for compressed-tensors",
        "  Value error, Cannot find the config file for awq [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]",
        "ValueError: Found multiple config files for gptq: ['/m/quantize_config.json', '/m/old_quantize_config.json']",
    ):
        assert _id(TB + line + "\n") == "ARL-E5623", line


def test_missing_modelslim_config_is_e5324_in_both_wordings():
    for line in (
        "ValueError: Cannot find the config file for ascend",
        "  Value error, Cannot find the config file for ascend [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]",
        "ModelSlim quantization config not found for model '/m'. Searched path: /m. Found JSON files: [].",
    ):
        assert _id(TB + line + "\n") == "ARL-E5324", line


def test_unknown_quant_method_is_not_e5623():
    assert _id(TB + "ValueError: Unknown quantization method: awq_foo. Must be one of ['awq', 'gptq'].\n") != "ARL-E5623"
    assert _id(TB + "FileNotFoundError: Cannot find the config file /m/config.json\n") != "ARL-E5623"


# ARL-E5624 -----------------------------------------------------------------------------------------------------------

def test_verl_transformers_453_refusal_is_e5624():
    assert _id(TB + "RuntimeError: Transformers 4.53.* is bugged. Use transformers 4.54.0 or later.\n") == "ARL-E5624"


def test_other_transformers_version_checks_are_not_e5624():
    text = TB + "ImportError: transformers>=4.54.0 is required for a normal functioning of this module, but found transformers==4.53.2.\n"
    assert _id(text) != "ARL-E5624"


# ARL-E5625 -----------------------------------------------------------------------------------------------------------

def test_transformers5_rope_validation_mismatch_is_e5625():
    frame = ('  File "/usr/lib/python3.12/site-packages/transformers/modeling_rope_utils.py", line 651, in '
             'convert_rope_params_to_dict\n')
    for text in (
        TB + frame + '    ignore_keys_at_rope_validation = ignore_keys_at_rope_validation | {"partial_rotary_factor"}\n'
        "TypeError: unsupported operand type(s) for |: 'list' and 'set'\n",
        TB + '  File "/x/transformers/modeling_rope_utils.py", line 722, in convert_rope_params_to_dict\n'
        '    self.ignore_keys_at_rope_validation = self.ignore_keys_at_rope_validation | {"partial_rotary_factor"}\n'
        "TypeError: unsupported operand type(s) for |: 'list' and 'set'\n",
        TB + "huggingface_hub.errors.StrictDataclassClassValidationError: Class validation error for validator "
        "'validate_rope':\n    TypeError: unsupported operand type(s) for -=: 'set' and 'list'\n",
        TB + "TypeError: RotaryEmbeddingConfigMixin.validate_rope() got an unexpected keyword argument 'ignore_keys'\n",
    ):
        assert _id(text) == "ARL-E5625", text


def test_other_list_set_type_errors_are_not_e5625():
    text = (TB + '  File "/home/user/reward.py", line 9, in score\n    return a | b\n'
            "TypeError: unsupported operand type(s) for |: 'list' and 'set'\n")
    assert _id(text) != "ARL-E5625"
    assert _id(TB + "TypeError: validate() got an unexpected keyword argument 'ignore_keys'\n") != "ARL-E5625"


# ARL-E5626 -----------------------------------------------------------------------------------------------------------

def test_r3_without_routed_experts_is_e5626():
    line = "ValueError: rollout_routed_experts is required in rollout_data when use_rollout_routing_replay is set."
    assert _id(TB + line + "\n") == "ARL-E5626"


def test_other_routing_replay_errors_are_not_e5626():
    assert _id(TB + "AssertionError: routed_experts in tensor_dict1 and tensor_dict2 are not the same object\n") != "ARL-E5626"
    assert _id(TB + "ValueError: rollout_log_probs is required in rollout_data when use_tis is set.\n") != "ARL-E5626"


# ARL-E5627 -----------------------------------------------------------------------------------------------------------

def test_vllm_ascend_rl_config_migration_is_e5627():
    for line in (
        "ValueError: additional_config.enable_sleep_mode_extra_cleanup has been removed. Use "
        "additional_config.rl_config.sleep_mode_extra_cleanup instead.",
        "ValueError: Unknown rl_config keys: ['weight_nz_mode']",
        "ValueError: additional_config.rl_config must be a dict, got str.",
        "ValueError: rl_config.enabled must be a bool, got str: true.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5627", line


def test_nz_refusal_in_rl_is_not_e5627():
    line = ("ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. "
            "Please set weight_nz_mode=0 via --additional-config, or set rl_config.enabled=true.")
    assert _id(TB + line + "\n") == "ARL-E002"
    assert _id(TB + "ValueError: Unknown short_request_first_config keys: ['x']\n") != "ARL-E5627"


# ARL-E5628 -----------------------------------------------------------------------------------------------------------

def test_megatron_bridge_autobridge_refusals_are_e5628():
    for body in (
        "ValueError: \n\u2717 Model architecture not supported by AutoBridge\n\nModel: /m\nArchitectures: ['BertModel']\n",
        "ValueError: \n\u2717 Model architecture 'Qwen3_5MoeForConditionalGeneration' is not yet supported\n\nModel: /m\n"
        "Architecture: Qwen3_5MoeForConditionalGeneration\n\nCurrently supported architectures:\n  \u2022 LlamaForCausalLM\n",
    ):
        assert _id(TB + body) == "ARL-E5628", body


def test_mbridge_and_vllm_architecture_refusals_are_not_e5628():
    mbridge = "ValueError: Unregistered model type: qwen3_5_moe, now only support dict_keys(['llama', 'qwen2'])\n"
    assert _id(TB + mbridge) == "ARL-E2843"
    assert _id(TB + "ValueError: Model architectures ['FooForCausalLM'] are not supported for now.\n") != "ARL-E5628"


# ARL-E3073 / ARL-E3064 widened ---------------------------------------------------------------------------------------

def test_vllm_ascend_023_finegrained_tp_wordings_are_e3073():
    for line in (
        "AssertionError: finegrained tp sizes must divide by data_parallel_size.",
        "AssertionError: The finegrained tp sizes can be enabled only for MOE models.",
        "AssertionError: oproj_tensor_parallel_size currently requires tensor_parallel_size == 1, got 4.",
        "AssertionError: module tp sizes must divide data_parallel_size",
    ):
        assert _id(TB + line + "\n") == "ARL-E3073", line


def test_vllm_ascend_023_xlite_spec_wording_is_e3064():
    line = "RuntimeError: Xlite graph mode only support speculative decoding with num_speculative_tokens=1."
    assert _id(TB + line + "\n") == "ARL-E3064"


def test_other_tp_divisibility_is_not_e3073():
    assert _id(TB + "AssertionError: 28 is not divisible by 8\n") != "ARL-E3073"


# ARL-E5629 / ARL-E232 widened ----------------------------------------------------------------------------------------

def test_transformers5_generation_params_in_config_are_e5629():
    for line in (
        "ValueError: Some generation parameters are set in the model config. These should go into "
        "`model.generation_config`as opposed to `model.config`. ",
        "ValueError: You have modified the pretrained model configuration to control generation We detected the "
        "following values set - {'temperature': 0.6}. This strategy to control generation is not supported anymore. "
        "Please use and modify `model.generation_config`",
    ):
        assert _id(TB + line + "\n") == "ARL-E5629", line


def test_transformers4_generation_param_warning_does_not_hide_the_failure():
    text = ("/x/transformers/configuration_utils.py:461: UserWarning: Some non-default generation parameters are set in "
            "the model config. These should go into either a) `model.generation_config` (as opposed to `model.config`); "
            "OR b) a GenerationConfig file\n  warnings.warn(\n"
            + TB + "ValueError: Cannot find the config file for awq\n")
    # the 4.x warning is non-fatal: the fatal failure after it stays the root cause
    assert _id(text) == "ARL-E5623"


def test_transformers5_missing_weights_wording_is_e232():
    line = "OSError: Error no file named model.safetensors, or pytorch_model.bin, found in directory /home/user/ckpt/actor."
    assert _id(TB + line + "\n") == "ARL-E232"
    line4 = ("OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or "
             "flax_model.msgpack found in directory /home/user/ckpt.")
    assert _id(TB + line4 + "\n") == "ARL-E232"


# ARL-E5630 -----------------------------------------------------------------------------------------------------------

def test_sampled_tokens_past_max_model_len_is_e5630():
    for line in (
        "AssertionError: Sampled token IDs exceed the max model length. Total number of tokens: 1281 > max_model_len: 1280",
        "RuntimeError: Sampled token IDs exceed the max model length. Total number of tokens: 262145 > max_model_len: 262144",
    ):
        assert _id(TB + line + "\n") == "ARL-E5630", line


def test_prompt_longer_than_max_model_len_is_not_e5630():
    line = ("ValueError: The decoder prompt (length 9000) is longer than the maximum model length of 8192. Make sure that "
            "`max_model_len` is no smaller than the number of text tokens.")
    assert _id(TB + line + "\n") == "ARL-E218"


# ARL-E5631 -----------------------------------------------------------------------------------------------------------

def test_structured_output_in_ascend_scheduler_is_e5631():
    for line in (
        "RuntimeError: Invalid request status: WAITING_FOR_FSM",
        "RuntimeError: Invalid request status: RequestStatus.WAITING_FOR_FSM",
    ):
        assert _id(TB + line + "\n") == "ARL-E5631", line


def test_other_request_states_are_not_e5631():
    assert _id(TB + "RuntimeError: Invalid request status: RUNNING\n") != "ARL-E5631"
    # vLLM 0.19 renamed the state: a vllm-ascend that still names it is an older package (a version reading)
    assert _id(TB + "AttributeError: WAITING_FOR_FSM\n") != "ARL-E5631"


# ARL-E5632 -----------------------------------------------------------------------------------------------------------

def test_kv_pool_config_env_unset_is_e5632():
    for line in (
        "ValueError: The environment variable 'MOONCAKE_CONFIG_PATH' is not set.",
        "ValueError: The environment variable 'MMC_LOCAL_CONFIG_PATH' is not set.",
        "ValueError: global segment size cannot be empty.",
        "ValueError: enable_ssd_offload is true but ssd_offload_path is empty. Set ssd_offload_path in mooncake.json.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5632", line


def test_mooncake_transfer_failures_are_not_e5632():
    line = "E20260106 06:43:02.966156  5793 ascend_direct_transport.cpp:820] Failed to connect to target: 172.17.0.16:25482, status: 103900"
    assert _id(line + "\n") != "ARL-E5632"
    assert _id(TB + "ValueError: The environment variable 'HCCL_IF_IP' is not set.\n") != "ARL-E5632"


# ARL-E5633 -----------------------------------------------------------------------------------------------------------

def test_from_pretrained_under_meta_context_is_e5633():
    line = ("RuntimeError: You are using `from_pretrained` with a meta device context manager or "
            "`torch.set_default_device('meta')`.\nThis is an anti-pattern as `from_pretrained` wants to load existing "
            "weights.\n")
    assert _id(TB + line) == "ARL-E5633"


def test_meta_context_warning_does_not_hide_the_failure():
    warn = ("WARNING modeling_utils.py:4768 We detected that you are using `from_pretrained` with a meta device context "
            "manager or `torch.set_default_device('meta')`\n")
    assert _id(warn + TB + "ValueError: Cannot find the config file for awq\n") == "ARL-E5623"
    assert _id(TB + "NotImplementedError: Cannot copy out of meta tensor; no data!\n") != "ARL-E5633"


# ARL-E5634 -----------------------------------------------------------------------------------------------------------

def test_tuple_kv_cache_under_transformers5_is_e5634():
    line = "ValueError: Passing a tuple of `past_key_values` is not supported anymore. Please use a `Cache` instance."
    assert _id(TB + line + "\n") == "ARL-E5634"


def test_tuple_kv_cache_warning_does_not_hide_the_failure():
    warn = ("Passing a tuple of `past_key_values` is deprecated and will be removed in Transformers v4.58.0. You should "
            "pass an instance of `Cache` instead\n")
    assert _id(warn + TB + "ValueError: Cannot find the config file for awq\n") == "ARL-E5623"


# ARL-E5635 -----------------------------------------------------------------------------------------------------------

def test_several_sequences_without_sampling_is_e5635():
    for line in (
        "ValueError: Greedy methods without beam search do not support `num_return_sequences` different than 1 (got 8).",
        "ValueError: Greedy methods (do_sample != True) without beam search do not support `num_return_sequences` "
        "different than 1 (got 8).",
        "ValueError: `num_return_sequences` (8) has to be smaller or equal to `num_beams` (4).",
    ):
        assert _id(TB + line + "\n") == "ARL-E5635", line


def test_rollout_n_checks_are_not_e5635():
    assert _id(TB + "ValueError: train_batch_size (32) must be >= actor.ppo_mini_batch_size (64)\n") != "ARL-E5635"
