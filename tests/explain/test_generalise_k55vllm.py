"""Readings added by helper k55vllm (2026-12-07) for vLLM as verl's rollout engine: the engine's start-up and request
checks a verl GRPO run meets through actor_rollout_ref.rollout.*, confirmed in vLLM's source at v0.11.0 (and v0.9.2 for
the older single-file config.py). Each test input is a short excerpt around the exact emitted message; each class also
has a near miss (similar words, another failure).

- ARL-E5860: SamplingParams refusing a value from the rollout config (top_p / top_k / temperature / n / min_p /
  penalties; a negative max_tokens stays ARL-E4163); before, nothing.
- ARL-E5861: CacheConfig refusing gpu_memory_utilization > 1.0; before, nothing.
- ARL-E5862: SchedulerConfig refusing max_num_batched_tokens < max_num_seqs; before, nothing.
- ARL-E5863: vLLM refusing float16 for gemma2 / gemma3 / plamo2 / glm4; before, nothing.
- ARL-E5864: an unknown load_format (V1 "Load format `x` is not supported", older "'x' is not a valid LoadFormat");
  before, nothing.
- ARL-E5865: expert parallelism enabled for a model without experts; before, nothing.
- ARL-E5866: AutoWeightsLoader meeting a weight name the vLLM model lacks ("There is no module or parameter named
  'base_model' in Qwen2ForCausalLM"); before, nothing.
- ARL-E5867: vLLM's --enable-eplb refused on a non-CUDA platform (Ascend); before, nothing.
- ARL-E5868: rollout pipeline parallelism for a model class without SupportsPP; before, nothing.
- ARL-E5869: the quantization argument contradicting the checkpoint's quantization_config; before, nothing.
- ARL-E5870: a request's logprobs / prompt_logprobs above the engine's max_logprobs; before, nothing.
- ARL-E5871: a LoRA request / add_lora reaching an engine started without LoRA; before, nothing.
- ARL-E204 widened: vllm-ascend's "Failed to create unquantized linear weights. This may be caused by insufficient
  memory to allocate the weight." (its create_weights patch re-raising the OOM); before, nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

RAY = "(WorkerDict pid=48213, ip=10.0.0.11) "


def _tb(line: str, frame: str = "vllm/sampling_params.py\", line 404, in _verify_args") -> str:
    return (f"{RAY}Traceback (most recent call last):\n"
            f"{RAY}  File \"/usr/local/lib/python3.11/site-packages/{frame}\n"
            f"{RAY}{line}\n")


# ARL-E5860 -----------------------------------------------------------------------------------------------------------

def test_sampling_params_out_of_range_is_e5860():
    for line in (
        "ValueError: top_p must be in (0, 1], got 0.0.",
        "ValueError: top_k must be 0 (disable), or at least 1, got -2.",
        "ValueError: temperature must be non-negative, got -1.0.",
        "ValueError: n must be at least 1, got 0.",
        "ValueError: min_p must be in [0, 1], got 1.5.",
        "ValueError: repetition_penalty must be greater than zero, got 0.0.",
        "ValueError: presence_penalty must be in [-2, 2], got 3.0.",
    ):
        assert _id(_tb(line)) == "ARL-E5860", line


def test_other_range_messages_are_not_e5860():
    # torch's own top-p check and a vLLM logprobs limit are other failures
    assert _id(_tb("ValueError: Requested sample logprobs of 21, which is greater than max allowed: 20",
                   "vllm/v1/engine/processor.py\", line 81, in _validate_logprobs")) != "ARL-E5860"
    assert _id("INFO top_p=1.0 top_k=-1 temperature=1.0 n=5\n") != "ARL-E5860"
    # a negative generation budget is ARL-E4163's
    assert _id(_tb("ValueError: max_tokens must be at least 1, got -239.")) == "ARL-E4163"


# ARL-E5861 -----------------------------------------------------------------------------------------------------------

def test_gpu_memory_utilization_above_one_is_e5861():
    text = (f"{RAY}pydantic_core._pydantic_core.ValidationError: 1 validation error for CacheConfig\n"
            f"{RAY}  Value error, GPU memory utilization must be less than 1.0. Got 60.0. [type=value_error, "
            "input_value=ArgsKwargs((), {'block_size': 128}), input_type=ArgsKwargs]\n")
    assert _id(text) == "ARL-E5861"
    assert _id(_tb("ValueError: GPU memory utilization must be less than 1.0. Got 1.2.",
                   "vllm/config.py\", line 1584, in _verify_args")) == "ARL-E5861"


def test_free_memory_below_utilization_is_not_e5861():
    line = ("ValueError: Free memory on device (20.1/61.28 GiB) on startup is less than desired GPU memory utilization "
            "(0.6, 36.77 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.")
    assert _id(_tb(line, "vllm/v1/worker/gpu_worker.py\", line 188, in init_device")) != "ARL-E5861"


# ARL-E5862 -----------------------------------------------------------------------------------------------------------

def test_batched_tokens_below_max_num_seqs_is_e5862():
    text = (f"{RAY}pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n"
            f"{RAY}  Value error, max_num_batched_tokens (512) must be greater than or equal to max_num_seqs (1024). "
            "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n")
    assert _id(text) == "ARL-E5862"


def test_batched_tokens_below_max_model_len_is_not_e5862():
    line = ("ValueError: max_num_batched_tokens (2048) is smaller than max_model_len (4096). This effectively limits "
            "the maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. Please "
            "increase max_num_batched_tokens or decrease max_model_len.")
    assert _id(_tb(line, "vllm/config/scheduler.py\", line 237, in _verify_args")) != "ARL-E5862"


# ARL-E5863 -----------------------------------------------------------------------------------------------------------

def test_float16_refused_for_model_type_is_e5863():
    for mt in ("gemma2", "gemma3_text", "glm4", "plamo2"):
        line = (f"ValueError: The model type '{mt}' does not support float16. Reason: Numerical instability. "
                "Please use bfloat16 or float32 instead.")
        assert _id(_tb(line, "vllm/config/model.py\", line 1601, in _check_valid_dtype")) == "ARL-E5863", mt


def test_quantization_dtype_refusal_is_not_e5863():
    line = "ValueError: torch.bfloat16 is not supported for quantization method gptq. Supported dtypes: [torch.float16]"
    assert _id(_tb(line, "vllm/config/__init__.py\", line 270, in _get_quantization_config")) != "ARL-E5863"


# ARL-E5864 -----------------------------------------------------------------------------------------------------------

def test_unknown_load_format_is_e5864():
    for line, frame in (
        ("ValueError: Load format `dtensor` is not supported",
         "vllm/model_executor/model_loader/__init__.py\", line 109, in get_model_loader"),
        ("ValueError: 'hf' is not a valid LoadFormat", "vllm/config.py\", line 1755, in __post_init__"),
    ):
        assert _id(_tb(line, frame)) == "ARL-E5864", line


def test_unknown_quantization_or_format_words_are_not_e5864():
    assert _id(_tb("ValueError: 'q5' is not a valid QuantizationMethods", "vllm/config.py\", line 10, in x")) != "ARL-E5864"
    assert _id("INFO 12-07 10:02:11 [loader.py:458] Load format dummy: skipping weight download\n") != "ARL-E5864"


# ARL-E5865 -----------------------------------------------------------------------------------------------------------

def test_expert_parallel_on_dense_model_is_e5865():
    line = "ValueError: Number of experts in the model must be greater than 0 when expert parallelism is enabled."
    assert _id(_tb(line, "vllm/config/model.py\", line 1014, in _verify_with_expert_parallelism")) == "ARL-E5865"


def test_experts_not_divisible_is_not_e5865():
    line = "AssertionError: Number of experts 60 must be divisible by ep_size 8"
    assert _id(_tb(line, "vllm/model_executor/layers/fused_moe/layer.py\", line 300, in __init__")) != "ARL-E5865"


# ARL-E5866 -----------------------------------------------------------------------------------------------------------

def test_unknown_weight_prefix_is_e5866():
    for line in (
        "ValueError: There is no module or parameter named 'base_model' in Qwen2ForCausalLM",
        "ValueError: There is no module or parameter named 'v_head' in LlamaForCausalLM",
        "ValueError: There is no module or parameter named 'model.visual' in Qwen2_5_VLForConditionalGeneration",
    ):
        assert _id(_tb(line, "vllm/model_executor/models/utils.py\", line 280, in _load_module")) == "ARL-E5866", line


def test_missing_python_module_is_not_e5866():
    assert _id(_tb("ModuleNotFoundError: No module named 'vllm_ascend'", "verl/utils/x.py\", line 1, in <module>")) != "ARL-E5866"


# ARL-E5867 -----------------------------------------------------------------------------------------------------------

def test_eplb_on_npu_is_e5867():
    text = (f"{RAY}pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n"
            f"{RAY}  Value error, Expert parallelism load balancing is only supported on CUDA devices now. "
            "[type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n")
    assert _id(text) == "ARL-E5867"


def test_eplb_without_expert_parallel_is_not_e5867():
    line = "ValueError: enable_expert_parallel must be True to use EPLB."
    assert _id(_tb(line, "vllm/config/parallel.py\", line 432, in __post_init__")) != "ARL-E5867"


# ARL-E5868 -----------------------------------------------------------------------------------------------------------

def test_pp_unsupported_model_is_e5868():
    line = ("NotImplementedError: Pipeline parallelism is not supported for this model. Supported models implement "
            "the `SupportsPP` interface.")
    assert _id(_tb(line, "vllm/config/model.py\", line 1061, in verify_with_parallel_config")) == "ARL-E5868"


def test_other_pp_messages_are_not_e5868():
    line = "ValueError: Async scheduling is not supported with pipeline-parallel-size > 1."
    assert _id(_tb(line, "vllm/engine/arg_utils.py\", line 1296, in create_engine_config")) != "ARL-E5868"


# ARL-E5869 -----------------------------------------------------------------------------------------------------------

def test_quantization_argument_mismatch_is_e5869():
    for cfg, arg in (("awq", "fp8"), ("compressed-tensors", "ascend"), ("None", "gptq")):
        line = (f"ValueError: Quantization method specified in the model config ({cfg}) does not match the "
                f"quantization method specified in the `quantization` argument ({arg}).")
        assert _id(_tb(line, "vllm/config/model.py\", line 953, in _verify_quantization")) == "ARL-E5869", line


def test_unknown_quantization_method_is_not_e5869():
    line = "ValueError: Unknown quantization method: awq_marlinx. Must be one of ['aqlm', 'awq', 'fp8']."
    assert _id(_tb(line, "vllm/config/model.py\", line 961, in _verify_quantization")) != "ARL-E5869"


# ARL-E5870 -----------------------------------------------------------------------------------------------------------

def test_logprobs_above_engine_cap_is_e5870():
    for line in ("ValueError: Requested sample logprobs of 64, which is greater than max allowed: 20",
                 "ValueError: Requested prompt logprobs of 151936, which is greater than max allowed: 20"):
        assert _id(_tb(line, "vllm/v1/engine/processor.py\", line 81, in _validate_logprobs")) == "ARL-E5870", line


def test_logprobs_sign_check_is_not_e5870():
    line = "ValueError: logprobs must be non-negative or -1, got -5."
    assert _id(_tb(line)) != "ARL-E5870"


# ARL-E5871 -----------------------------------------------------------------------------------------------------------

def test_lora_on_engine_without_lora_is_e5871():
    for line, frame in (
        ("ValueError: Got lora_request LoRARequest(lora_name='123', lora_int_id=123) but LoRA is not enabled!",
         "vllm/v1/engine/processor.py\", line 210, in _validate_lora"),
        ("RuntimeError: LoRA is not enabled. Use --enable-lora to enable LoRA.",
         "vllm/v1/worker/lora_model_runner_mixin.py\", line 70, in _ensure_lora_enabled"),
    ):
        assert _id(_tb(line, frame)) == "ARL-E5871", line


def test_lora_rank_limit_is_not_e5871():
    line = "ValueError: LoRA rank 64 is greater than max_lora_rank 16."
    assert _id(_tb(line, "vllm/lora/peft_helper.py\", line 121, in validate_legal")) != "ARL-E5871"


# ARL-E204 (widened) --------------------------------------------------------------------------------------------------

def test_vllm_ascend_create_weights_oom_is_e204():
    line = ("RuntimeError: Failed to create unquantized linear weights. This may be caused by insufficient memory to "
            "allocate the weight.")
    assert _id(_tb(line, "vllm_ascend/patch/worker/patch_weight_loader.py\", line 32, in create_weights")) == "ARL-E204"


def test_create_weights_shape_error_is_not_e204():
    line = "RuntimeError: Failed to create unquantized linear weights: shape mismatch for layer model.layers.0.mlp"
    assert _id(_tb(line, "vllm/model_executor/layers/linear.py\", line 200, in create_weights")) != "ARL-E204"
