"""Readings added by helper k54verl (2026-12-07) for verl's own checks in its newest releases (v0.8.0, v0.9.0), confirmed
in verl's source at v0.9.0. Each test input is a short excerpt around the exact emitted message; each class also has a
near miss (similar words, another failure) that must not take the id.

- ARL-E5800: rollout.pipeline_model_parallel_size > 1 refused by RolloutConfig; before, unknown.
- (ARL-E5801, reward.reward_manager.source=importlib without module.path, was dropped at review: the helper had seen an
  excerpt of a thread url_used.py answers USED about the same feature before writing it.)
- ARL-E5802: grpo_passk with fewer than 2 samples in a group; before, unknown.
- ARL-E5803: GDPO's algorithm.gdpo_reward_keys unset, or a key the reward does not return; before, unknown.
- ARL-E5804: optimal_token_baseline without actor.calculate_sum_pi_squared; before, unknown.
- ARL-E5805: the agent loop's config-file lookup (agent_loop_config_path / tool_config_path); before, unknown.
- ARL-E5806: rollout Prometheus / rl-insight metrics with disable_log_stats=True; before, unknown.
- ARL-E5807: the vLLM rollout's import-time gate finding no 'vllm' distribution; before, a resemblance or unknown.
- ARL-E5808: the rollout server's max_position_embeddings lookup; before, unknown.
- ARL-E5809: dual-clip clip_ratio_c <= 1.0; before, unknown.
- ARL-E5810: the v1 trainer's DAPO group-filtering checks; before, unknown.
- ARL-E5811: verl's vLLM prefill-decode disaggregated rollout refused on Ascend ("vLLM PD on NPU not validated"); before,
  unknown.
- ARL-E5812: the Megatron engine's per-token-loss (CP > 1) checks: seq-mean-token-mean, remove-padding off; before, unknown.
- ARL-E5813: a rollout.quantization value verl's rollout servers do not take (vLLM: fp8 / torchao / ascend); before,
  unknown.
- ARL-E5814: VERL_PLATFORM naming an unregistered platform (Ascend's is huawei); before, unknown.
- ARL-E5815: the model engine registry without an engine for the strategy on this device; before, unknown.
- DRV-own-check widened: the FSDP engine's sequence-parallel wording and verl 0.8+'s LoRA-rank wording.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id, top

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

SP = "/usr/local/python3.11.13/lib/python3.11/site-packages"


def tb(path: str, line: int, func: str) -> str:
    return (f'Traceback (most recent call last):\n  File "{SP}/verl/trainer/main_ppo.py", line 46, in main\n    run_ppo(config)\n'
            f'  File "{SP}/verl/{path}", line {line}, in {func}\n    raise\n')


# ARL-E5800 -----------------------------------------------------------------------------------------------------------

def test_rollout_pipeline_parallel_is_e5800():
    for name in ("vllm", "sglang", "trtllm"):
        text = tb("workers/config/rollout.py", 319, "__post_init__") + (
            f"NotImplementedError: Current rollout self.name='{name}' not implemented pipeline_model_parallel_size > 1 yet.\n")
        assert _id(text) == "ARL-E5800", name


def test_vllm_own_pipeline_refusal_is_not_e5800():
    text = tb("workers/rollout/vllm_rollout/vllm_async_server.py", 300, "launch_server") + (
        "NotImplementedError: Pipeline parallelism is not supported yet with multiprocessing.\n")
    assert _id(text) != "ARL-E5800"


# ARL-E5802 / ARL-E5803 / ARL-E5804 -----------------------------------------------------------------------------------

def test_passk_single_sample_is_e5802():
    text = tb("trainer/ppo/core_algos.py", 517, "compute_grpo_passk_outcome_advantage") + (
        "ValueError: Pass@k requires at least 2 samples per group. Got 1 for group 0d3c9a4e-1f2b.\n")
    assert _id(text) == "ARL-E5802"


def test_no_score_in_group_is_not_e5802():
    text = tb("trainer/ppo/core_algos.py", 323, "compute_grpo_outcome_advantage") + "ValueError: no score in prompt index: 17\n"
    assert _id(text) != "ARL-E5802"


def test_gdpo_keys_are_e5803():
    for line in (
        "AssertionError: GDPO requires 'algorithm.gdpo_reward_keys' listing the individual reward component keys returned "
        "by compute_score (e.g. ['format_reward', 'accuracy_reward']).",
        "AssertionError: GDPO reward key 'accuracy_reward' not found in non_tensor_batch. Available keys: ['score']. Make "
        "sure your compute_score returns a dict containing 'accuracy_reward'.",
    ):
        assert _id(tb("trainer/ppo/core_algos.py", 414, "compute_gdpo_outcome_advantage") + line + "\n") == "ARL-E5803", line


def test_unknown_estimator_is_not_e5803():
    text = tb("trainer/ppo/core_algos.py", 140, "get_adv_estimator_fn") + "ValueError: Unknown advantage estimator simply: gdp\n"
    assert _id(text) != "ARL-E5803"


def test_optimal_baseline_without_sum_pi_squared_is_e5804():
    text = tb("trainer/ppo/ray_trainer.py", 267, "compute_advantage") + (
        "AssertionError: Step-dependent optimal baseline requires sum_pi_squared from actor. Please set "
        "actor.calculate_sum_pi_squared=True in config.\n")
    assert _id(text) == "ARL-E5804"


def test_missing_old_log_prob_is_not_e5804():
    text = tb("trainer/ppo/ray_trainer.py", 1617, "fit") + "AssertionError: \"old_log_prob\" not in batch\n"
    assert _id(text) != "ARL-E5804"


# ARL-E5805 / ARL-E5806 -----------------------------------------------------------------------------------------------

def test_agent_loop_config_file_not_found_is_e5805():
    for path in ("examples/sglang_multiturn/config/tool_config/gsm8k_tool_config.yaml", "/data/cfg/agent.yaml"):
        text = tb("experimental/agent_loop/utils.py", 70, "resolve_config_path") + (
            f"FileNotFoundError: Agent loop configuration file not found: {path}. Tried current directory and verl project root.\n")
        assert _id(text) == "ARL-E5805", path


def test_unregistered_agent_loop_is_not_e5805():
    text = tb("experimental/agent_loop/agent_loop.py", 648, "_run_agent_loop") + (
        "AssertionError: Agent loop tool_agnet not registered, registered agent loops: ['single_turn_agent', 'tool_agent']\n")
    assert _id(text) != "ARL-E5805"


def test_metrics_without_log_stats_is_e5806():
    text = tb("workers/rollout/llm_server.py", 587, "init") + (
        "ValueError: Metrics monitoring requires disable_log_stats=False, but it is currently True.\n")
    assert _id(text) == "ARL-E5806"


def test_load_balancer_without_servers_is_not_e5806():
    text = tb("workers/rollout/llm_server.py", 101, "get") + "RuntimeError: No available servers in load balancer\n"
    assert _id(text) != "ARL-E5806"


# ARL-E5807 / ARL-E5808 -----------------------------------------------------------------------------------------------

def test_vllm_distribution_missing_is_e5807():
    for text in (
        tb("workers/rollout/vllm_rollout/__init__.py", 30, "<module>") + (
            "importlib.metadata.PackageNotFoundError: To use vllm rollout, please ensure the 'vllm' package is properly "
            "installed. See https://verl.readthedocs.io/en/latest/start/install.html for more details\n"),
        tb("third_party/vllm/__init__.py", 37, "<module>") + (
            "ValueError: vllm version None not supported and SGLang also not Found. Currently supported vllm versions are 0.18.0+\n"),
    ):
        assert _id(text) == "ARL-E5807", text


def test_old_verl_refusing_a_vllm_version_is_not_e5807():
    text = tb("third_party/vllm/__init__.py", 37, "<module>") + "ValueError: vllm version 0.11.0 not supported.\n"
    assert _id(text) == "ARL-E243"


def test_max_position_embeddings_missing_is_e5808():
    text = tb("workers/rollout/utils.py", 39, "get_max_position_embeddings") + (
        "ValueError: max_position_embeddings not found in HFModelConfig!\n")
    assert _id(text) == "ARL-E5808"


def test_max_model_len_above_context_is_not_e5808():
    text = tb("workers/rollout/vllm_rollout/vllm_async_server.py", 958, "_validate_configs") + (
        "ValueError: max_model_len (40960) should be less than or equal to max_position_embeddings (32768)\n")
    assert _id(text) != "ARL-E5808"


# ARL-E5809 / ARL-E5810 -----------------------------------------------------------------------------------------------

def test_dual_clip_bound_is_e5809():
    for value in ("1.0", "0.28", "-1"):
        text = tb("trainer/ppo/core_algos.py", 1249, "compute_policy_loss_vanilla") + (
            f"AssertionError: The lower bound of the clip_ratio_c for dual-clip PPO should be greater than 1.0, but get the value: {value}.\n")
        assert _id(text) == "ARL-E5809", value


def test_clip_ratio_positive_check_is_not_e5809():
    text = tb("trainer/ppo/core_algos.py", 1794, "compute_policy_loss_clip_cov") + "AssertionError: clip_ratio should be larger than 0.\n"
    assert _id(text) != "ARL-E5809"


def test_filter_groups_checks_are_e5810():
    for line in (
        "ValueError: algorithm.filter_groups.metric must be set when group filtering is enabled",
        "AssertionError: algorithm.filter_groups requires the reward metric at sampling time: use rule-based reward or "
        "reward.reward_model.enable_resource_pool=True. A colocated reward model computes rewards only after replay-buffer sampling.",
        "RuntimeError: Finished groups are missing DAPO metric 'acc': ['0d3c9a4e', '51b2e0f7']",
    ):
        assert _id(tb("trainer/ppo/v1/trainer_base.py", 199, "_resolve_filter_groups_metric") + line + "\n") == "ARL-E5810", line


def test_replay_buffer_refill_wiring_is_not_e5810():
    text = tb("trainer/ppo/v1/replay_buffer.py", 184, "__init__") + "ValueError: max_inflight_gen_batches must be a positive integer\n"
    assert _id(text) != "ARL-E5810"


# ARL-E5811 / ARL-E5812 -----------------------------------------------------------------------------------------------

def test_vllm_pd_on_npu_is_e5811():
    text = tb("workers/rollout/vllm_rollout/vllm_pd_replica.py", 108, "launch_servers") + "AssertionError: vLLM PD on NPU not validated\n"
    assert _id(text) == "ARL-E5811"


def test_pd_replica_without_disaggregation_is_not_e5811():
    text = tb("workers/rollout/vllm_rollout/vllm_pd_replica.py", 60, "__init__") + (
        "AssertionError: vLLMPDReplica requires rollout.disaggregation.enabled=True\n")
    assert _id(text) != "ARL-E5811"


def test_megatron_per_token_loss_checks_are_e5812():
    for line in (
        "ValueError: loss_agg_mode='seq-mean-token-mean' is incompatible with calculate_per_token_loss=True (auto-enabled "
        "by Megatron-Bridge under CP>1). The per-sequence inner division by n_s requires local-shard counts that diverge "
        "from global under CP. Use one of: 'token-mean', 'seq-mean-token-sum', 'seq-mean-token-sum-norm'.",
        "ValueError: calculate_per_token_loss=True requires use_remove_padding=True. verl does not pass a padding_mask to "
        "the MoE router, so in BSHD it normalizes the aux/z loss by the padding-inclusive token count (B*S) while "
        "gradients are divided by the real token count. Use THD (use_remove_padding=True) or disable CP.",
    ):
        text = tb("workers/engine/megatron/transformer_impl.py", 1447, "forward_backward_batch") + line + "\n"
        assert _id(text) == "ARL-E5812", line


def test_dynamic_cp_without_remove_padding_is_not_e5812():
    text = tb("workers/engine/megatron/transformer_impl.py", 116, "__init__") + (
        "ValueError: dynamic_context_parallel requires use_remove_padding=True\n")
    assert _id(text) != "ARL-E5812"


# ARL-E5813 -----------------------------------------------------------------------------------------------------------

def test_unsupported_rollout_quantization_is_e5813():
    for line in (
        "ValueError: Currently only support ['fp8', 'torchao', 'ascend'] quantization, got: w8a8",
        "ValueError: Currently only support fp8 quantization, got: awq",
    ):
        text = tb("workers/rollout/vllm_rollout/vllm_async_server.py", 1028, "_apply_quantization") + line + "\n"
        assert _id(text) == "ARL-E5813", line


def test_unsupported_qat_method_is_not_e5813():
    text = tb("workers/rollout/vllm_rollout/vllm_async_server.py", 1020, "_apply_quantization") + "ValueError: Unsupported quant_method: gptq\n"
    assert _id(text) != "ARL-E5813"


# ARL-E5814 / ARL-E5815 -----------------------------------------------------------------------------------------------

def test_unknown_platform_is_e5814():
    for name in ("npu", "ascend"):
        text = tb("plugin/platform/platform_manager.py", 124, "_create_platform") + (
            f"ValueError: Unknown platform '{name}'. Registered: ('nvidia', 'huawei', 'amd'). Use @PlatformRegistry.register() "
            "to add a new platform.\n")
        assert _id(text) == "ARL-E5814", name


def test_platform_not_available_warning_is_not_e5814():
    text = ("(TaskRunner pid=311) Platform 'huawei' (PlatformNPU) is registered but not available. This may be due to this "
            "ray actor being a CPU-only actor.\n")
    assert _id(text) != "ARL-E5814"


def test_no_engine_registered_is_e5815():
    for device, backend in (("cuda", "mindspeed_megatron"), ("npu", "automodel")):
        text = tb("workers/engine/base.py", 426, "get_engine_cls") + (
            f"ValueError: No engine registered for device='{device}', vendor='huawei', model_type='language_model', "
            f"backend='{backend}'\n")
        assert _id(text) == "ARL-E5815", backend


def test_checkpoint_engine_not_registered_is_not_e5815():
    text = tb("checkpoint_engine/base.py", 92, "new") + "ValueError: Checkpoint engine hccl not registered\n"
    assert _id(text) != "ARL-E5815"


# DRV-own-check widenings ---------------------------------------------------------------------------------------------

def test_fsdp_engine_sequence_parallel_wording_is_own_check():
    text = tb("workers/engine/fsdp/transformer_impl.py", 130, "__init__") + (
        "ValueError: When using sequence parallelism (ulysses_sequence_parallel_size > 1), you must enable `use_remove_padding`.\n")
    assert top(CATALOG, text) == ("DRV-own-check", "verl-sp-requires-remove-padding")


def test_vllm_lora_rank_wording_is_own_check():
    text = tb("workers/rollout/vllm_rollout/utils.py", 96, "get_vllm_max_lora_rank") + (
        "ValueError: lora_rank must be less than or equal to 512, but got 1024\n")
    assert top(CATALOG, text) == ("DRV-own-check", "verl-lora-rank-above-vllm-limit")


def test_lora_rank_positive_check_is_not_the_limit():
    text = tb("workers/rollout/vllm_rollout/utils.py", 86, "get_vllm_max_lora_rank") + "AssertionError: lora_rank must be greater than 0, get 0\n"
    assert top(CATALOG, text) != ("DRV-own-check", "verl-lora-rank-above-vllm-limit")
