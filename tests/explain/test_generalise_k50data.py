"""Readings added by helper k50data (2026-12-06) while probing public threads of data and model files, verl / Hydra
config and reward code for failure classes explain did not name. Each test input is a short excerpt in our own words
around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5080: math-verify's signal.alarm timeout escaping the reward function (utils.py "Operation timed out!",
  grader / parser "Timeout during comparison / parsing"; a BaseException since 0.8.0).
- ARL-E5081: a slow SentencePiece tokenizer with no tokenizer.model (sentencepiece.i "not a string") or a model path
  that does not exist (filesystem.cc "Not found: ...: No such file or directory Error #2").
- ARL-E5082: decoding a token id at or above the SentencePiece vocab ("piece id is out of range.", both wordings).
- ARL-E5083: Hydra instantiate cannot import a config's _target_ ("Error locating target 'X'", hydra 1.2 and 1.3
  wordings, and _locate's chained "Error loading 'X':"); generic, so a chained specific cause ranks first.
- ARL-E5084: MindSpeed-RL's validate_rl_args arithmetic (resource allocation vs tp*pp*cp, batch vs micro batch, global
  batch vs data parallel, experience counts, dispatch sizes), v2.1.0 .. v2.3.0 wordings.
- ARL-E5085: MindSpeed-RL's "Sequence length exceeds vLLM max_model_len!".
- ARL-E5086: MindSpeed-RL's option-combination refusals (bf16, integrated worker, use_remove_padding, vLLM pipeline
  parallel, verifier weights, DAPO settings).
- ARL-E5087: ModelScope has no model / revision by the name given (errors.py "The request model: X does not exist!",
  "404 Not Found: X does not exist or is not accessible", the 403 "Authentication token does not exist, failed to access
  ...", requests' 404 on the modelscope.cn API URL, api.py "has no revision"), e.g. under vllm-ascend's
  VLLM_USE_MODELSCOPE=True.
- ARL-E5088: a batched datasets .map() returning columns of different lengths (Arrow table.cc "Column N named X
  expected length A but got length B", and add_column's "Added column's length must match table's length").
- ARL-E5089: Arrow's safe cast refusing a fractional float or a non-numeric string into an integer column
  (scalar_cast_numeric.cc "Float value X was truncated converting to int64", "Failed to parse string: 'X' as a scalar
  of type int64").
- ARL-E5090: MindSpeed-LLM validate_args layout arithmetic (sequence length vs context parallel, heads vs ulysses x tp,
  num_layer_list, vpp, double-ring window, output-layer slices), the v2.3.0 texts.
- ARL-E5091: MindSpeed-LLM validate_args flag-combination refusals (recompute modes, MoE overlaps and dispatchers, 2-D
  tp, MoE without mcore, reuse-fp32-param / O2 without bf16, RoPE scaling parameters ...), the v2.3.0 texts.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/home/user/verl/verl/trainer/main_ppo.py\", line 42, in main\n"


# ARL-E5080 ---------------------------------------------------------------------------------------------------------

def test_math_verify_timeout_is_e5080():
    for text in (
        TB + "math_verify.errors.TimeoutException: Operation timed out!\n",
        "(TaskRunner pid=881) " + TB + "TimeoutException: Operation timed out!\n",
        TB + "math_verify.errors.TimeoutException: Timeout during comparison\n",
        TB + "math_verify.errors.TimeoutException: Timeout during parsing: \\boxed{2^{2^{2^{100}}}}\n",
    ):
        assert _id(text) == "ARL-E5080", text


def test_other_timeouts_are_not_e5080():
    # a socket timeout and math-verify's threaded-environment error are other failures
    assert _id(TB + "socket.timeout: timed out\n") != "ARL-E5080"
    assert _id(TB + "ValueError: Math-Verify doesn't support threaded environment due to usage of signal.alarm() in "
                    "timeout mechanism.\n") != "ARL-E5080"


# ARL-E5081 ---------------------------------------------------------------------------------------------------------

def test_sentencepiece_model_file_missing_is_e5081():
    for text in (
        TB + "  File \"/usr/lib/python3.10/site-packages/sentencepiece/__init__.py\", line 316, in LoadFromFile\n"
             "    return _sentencepiece.SentencePieceProcessor_LoadFromFile(self, arg)\nTypeError: not a string\n",
        TB + "OSError: Not found: \"/home/user/models/llama/tokenizer.model\": No such file or directory Error #2\n",
    ):
        assert _id(text) == "ARL-E5081", text


def test_other_not_a_string_is_not_e5081():
    # a longer TypeError that merely contains the words, and a corrupt (present) tokenizer.model
    assert _id(TB + "TypeError: expected str, bytes or os.PathLike object, not a string-like NoneType\n") != "ARL-E5081"
    assert _id(TB + "TypeError: argument is not a string or bytes object\n") != "ARL-E5081"
    assert _id(TB + "RuntimeError: Internal: src/sentencepiece_processor.cc(1101) "
                    "[model_proto->ParseFromArray(serialized.data(), serialized.size())]\n") != "ARL-E5081"


# ARL-E5082 ---------------------------------------------------------------------------------------------------------

def test_piece_id_out_of_range_is_e5082():
    for text in (
        TB + "IndexError: piece id is out of range.\n",
        TB + "IndexError: Out of range: piece id is out of range.\n",
    ):
        assert _id(text) == "ARL-E5082", text


def test_other_index_errors_are_not_e5082():
    assert _id(TB + "IndexError: index out of range in self\n") != "ARL-E5082"
    assert _id(TB + "IndexError: list index out of range\n") != "ARL-E5082"


# ARL-E5083 ---------------------------------------------------------------------------------------------------------

def test_hydra_target_not_importable_is_e5083():
    for text in (
        TB + "hydra.errors.InstantiationException: Error locating target 'my_pkg.reward.MathReward', set env var "
             "HYDRA_FULL_ERROR=1 to see chained exception.\nfull_key: reward_model.reward_manager\n",
        TB + "hydra.errors.InstantiationException: Error locating target 'src.model.trainer_forecast.Trainer', see "
             "chained exception above.\nfull_key: model.target\n",
        TB + "ImportError: Error loading 'my_pkg.reward.MathReward':\nModuleNotFoundError(\"No module named 'my_pkg'\")\n",
    ):
        assert _id(text) == "ARL-E5083", text


def test_hydra_call_error_is_not_e5083():
    # the target was found; calling it failed (another class of error)
    assert _id(TB + "hydra.errors.InstantiationException: Error in call to target "
                    "'verl.workers.config.engine.FSDPEngineConfig':\nTypeError(\"__init__() got an unexpected keyword "
                    "argument 'foo'\")\n") != "ARL-E5083"


# ARL-E5084 .. E5086 ---------------------------------------------------------------------------------------------------

MS = "Traceback (most recent call last):\n  File \"/home/user/MindSpeed-RL/cli/train_grpo.py\", line 567, in main\n"


def test_mindspeed_rl_arithmetic_is_e5084():
    for text in (
        "ValueError: Invalid Actor resource allocation! Resource=<ResourceConfig num_npus=8> must be divisible by "
        "(tensor_parallel * pipeline_parallel * context_parallel) = 4*1*3=12",
        "ValueError: Invalid Reference batch configuration! (global_batch_size * n_samples) = 30*8 = 240 must be "
        "divisible by micro_batch_size 16",
        "ValueError: Generation global_batch_size 30 must be divisible by data_parallel_size 4",
        "ValueError: Actor global_batch_size 32  // data_parallel 4  * n_samples 3 must be divisible by micro_batch_size 5 ",
        "ValueError: Actor Infer global_batch_size 32 must be divisible by experience_count 3",
        "ValueError: Reward dispatch size configuration error!global_batch_size 7 must be divisible by the number of "
        "nodes in the ray cluster",
        "ValueError: dynamic sampling dispatch size 10 must be divisible by n samples per prompt 8",
        "ValueError: actor_update_dispatch_size=2 must be >= mini_batch_size/actor_data_parallel_size (64/4=16)",
    ):
        assert _id(MS + text + "\n") == "ARL-E5084", text


def test_other_batch_divisibility_is_not_e5084():
    # TRL's and verl's own batch checks are other entries
    assert _id(MS + "ValueError: The global train batch size (7 x 1) must be evenly divisible by the number of "
                    "generations per prompt (8).\n") != "ARL-E5084"
    assert _id(MS + "AssertionError: train_batch_size (30) must be divisible by world size (4)\n") != "ARL-E5084"


def test_mindspeed_rl_seq_length_is_e5085():
    assert _id(MS + "ValueError: Sequence length exceeds vLLM max_model_len! Actor.seq_length=8192 vs "
                    "GenerateConfig.max_model_len=4096\n") == "ARL-E5085"
    # vLLM's own prompt-length refusal is another failure
    assert _id(MS + "ValueError: The decoder prompt (length 9000) is longer than the maximum model length of 8192. "
                    "Make sure that `max_model_len` is no smaller than the number of text tokens.\n") != "ARL-E5085"


def test_mindspeed_rl_option_combination_is_e5086():
    for text in (
        "ValueError:  megatron_config.bf16 should be true and generate_config.dtype should be bfloat16.",
        "ValueError: reference_resource should not be set when use_integrated_worker mode is on.",
        "ValueError:  Reward model is not supported when use_integrated_worker mode is on.",
        "ValueError: 'use_remove_padding' feature requires 'reset_attention_mask=True'! ",
        "ValueError: 'multimodal' models cannot use 'use_remove_padding' feature! Please set 'use_remove_padding=False' in the RLConfig.",
        "ValueError: pipeline_parallel for vllm is not supported yet ! ",
        "ValueError: Verifier function and weight length mismatch: 2 vs 1",
        "ValueError: clip_ratio_low 0.3 must less than clip_ratio_high 0.2",
    ):
        assert _id(MS + text + "\n") == "ARL-E5086", text


def test_other_remove_padding_check_is_not_e5086():
    # verl's sequence-parallel check names use_remove_padding too
    assert _id(MS + "AssertionError: When using sequence parallelism for actor/ref policy, you must enable "
                    "`use_remove_padding`.\n") != "ARL-E5086"


# ARL-E5087 ---------------------------------------------------------------------------------------------------------

def test_modelscope_model_not_found_is_e5087():
    for text in (
        "requests.exceptions.HTTPError: The request model: prometheus-eval/prometheus-7b-v2.0 does not exist!",
        "requests.exceptions.HTTPError: 404 Not Found: Qwen/Qwen2.5-7B-Instruc does not exist or is not accessible, "
        "Request id: 8c1a for url: https://www.modelscope.cn/api/v1/models/Qwen/Qwen2.5-7B-Instruc/revisions",
        "requests.exceptions.HTTPError: Authentication token does not exist, failed to access model /data/share/Qwen-7B-Chat "
        "which may not exist or may be private. Please login first.",
        "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
        "https://www.modelscope.cn/api/v1/models/Nexusflow/Starling-LM-7B-beta/revisions",
        "modelscope.hub.errors.NotExistError: The model: Qwen/Qwen2.5-VL-7B-Instruct has no revision: main !",
        "modelscope.hub.errors.NotExistError: The model: Qwen/Qwen2.5-7B has no revision : v9.9 .",
    ):
        assert _id(TB + text + "\n") == "ARL-E5087", text


def test_hf_hub_not_found_is_not_e5087():
    # the same 404 on the Hugging Face Hub is another entry
    assert _id(TB + "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: "
                    "https://huggingface.co/api/models/Qwen/Qwen2.5-7B-Instruc/revision/main\n") != "ARL-E5087"


# ARL-E5088 ---------------------------------------------------------------------------------------------------------

def test_map_columns_of_different_lengths_is_e5088():
    for text in (
        "pyarrow.lib.ArrowInvalid: Column 1 named input_ids expected length 599 but got length 1500",
        "ArrowInvalid: Column 4 named labels expected length 1007 but got length 1000",
        "pyarrow.lib.ArrowInvalid: Added column's length must match table's length. Expected length 75 but got length 80",
    ):
        assert _id(TB + text + "\n") == "ARL-E5088", text


def test_other_arrow_invalid_is_not_e5088():
    assert _id(TB + "pyarrow.lib.ArrowInvalid: offset overflow while concatenating arrays\n") != "ARL-E5088"
    assert _id(TB + "pyarrow.lib.ArrowInvalid: Parquet magic bytes not found in footer. Either the file is corrupted "
                    "or this is not a parquet file.\n") != "ARL-E5088"


# ARL-E5089 ---------------------------------------------------------------------------------------------------------

def test_value_not_fitting_integer_column_is_e5089():
    for text in (
        "pyarrow.lib.ArrowInvalid: Float value 0.5 was truncated converting to int64",
        "ArrowInvalid: Float value 1.51515 was truncated converting to int32",
        "pyarrow.lib.ArrowInvalid: Failed to parse string: 'N/A' as a scalar of type int64",
    ):
        assert _id(TB + text + "\n") == "ARL-E5089", text


def test_other_conversions_are_not_e5089():
    assert _id(TB + "pyarrow.lib.ArrowInvalid: Could not convert 'abc' with type str: tried to convert to int64\n") != "ARL-E5089"
    assert _id(TB + "ValueError: invalid literal for int() with base 10: 'N/A'\n") != "ARL-E5089"


# ARL-E5090 / E5091 -------------------------------------------------------------------------------------------------

ML = "Traceback (most recent call last):\n  File \"/home/user/MindSpeed-LLM/pretrain_gpt.py\", line 193, in main\n"


def test_mindspeed_llm_layout_arithmetic_is_e5090():
    for text in (
        "ValueError: sequence length must be divisible by 2 * context_parallel_size",
        "ValueError: sequence length must be divisible by context_parallel_size",
        "ValueError: num_attention_heads must be divisible by ulysses_size * tensor_model_parallel_size",
        "ValueError: len(args.num_layer_list) != args.pipeline_model_parallel_size",
        "AssertionError: Output_layer_slice_num needs to be divisible by vocab_size.",
    ):
        assert _id(ML + text + "\n") == "ARL-E5090", text


def test_megatron_own_divisibility_is_not_e5090():
    # Megatron-core's num_query_groups check is another entry
    assert _id(ML + "ValueError: num_query_groups must be divisible by tensor_model_parallel_size\n") != "ARL-E5090"


def test_mindspeed_llm_flag_combination_is_e5091():
    for text in (
        "ValueError: MOE is not supported in legacy model. Please activate `--use-mcore-models` to enable moe features.",
        "AssertionError: --reuse-fp32-param only support for `bf16`",
        "AssertionError: Context parallelism is forbidden when use variable seq lengths.",
        "AssertionError: `--moe-alltoall-overlap-comm` only support with `--moe-token-dispatcher-type alltoall_seq`.",
        "AssertionError: uniform recomputation is not compatible with activation function recomputation.",
        "ValueError: [ERROR] Should only use o2 feature during bf16 mix-precision training.",
    ):
        assert _id(ML + text + "\n") == "ARL-E5091", text


def test_other_flag_checks_are_not_e5091():
    # verl's and MindSpeed-RL's own checks are other entries
    assert _id(ML + "AssertionError: When using sequence parallelism for actor/ref policy, you must enable "
                    "`use_remove_padding`.\n") != "ARL-E5091"
    assert _id(ML + "ValueError:  megatron_config.bf16 should be true and generate_config.dtype should be bfloat16.\n") == "ARL-E5086"
