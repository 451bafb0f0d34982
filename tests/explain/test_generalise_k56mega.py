"""Readings added by helper k56mega (2026-12-07) for verl's Megatron backend and what it loads: Megatron-Core's start-up
checks (parallel_state, ModelParallelConfig / TransformerConfig, dist_checkpointing's load validation) at core_v0.12.0 ..
core_v0.14.0, verl's own mcore checks at v0.5.0 / v0.6.0 and mbridge's HF weight reader at v0.15.1. Each test input is a
short excerpt around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5940: "world_size (N) is not divisible by M" from initialize_model_parallel (tp x pp x cp does not divide the
  ranks); before, a resemblance to verl-batch-config.
- ARL-E5941: virtual pipeline with pipeline size 1 ("... should be greater than 1 with interleaved schedule"); before,
  unknown.
- ARL-E5942: expert parallel on a dense model ("num_moe_experts must be non None to use expert-parallel."); before, the
  generic DRV-launch-args reading (or nothing without a traceback).
- ARL-E5943: expert + tensor parallel without sequence parallel; before, DRV-launch-args.
- ARL-E5944: incomplete recompute settings (granularity without method / num_layers, selective with num_layers); before,
  DRV-launch-args or unknown; also bad recompute_modules.
- ARL-E5945 / ARL-E5946: verl's DeepSeek-V3 converter refusing MTP layers / a quantization_config; before, unknown.
- ARL-E5947: verl's Qwen2.5-VL forward refusing context parallel; before, unknown.
- ARL-E5948: mbridge refusing pytorch_model-*.bin weights; before, unknown.
- ARL-E5949: dist_checkpointing.load on a path that is missing or has no metadata.json; before, unknown.
- ARL-E5950: Megatron's optimizer factory refusing a name other than adam / sgd ("AdamW optimizer is not supported.",
  a FSDP-style optim.optimizer); before, unknown.
- ARL-E5951: verl's Megatron resume finding no model state in dist_ckpt/ (a checkpoint saved in the mbridge / HF
  layout, resumed with distributed checkpointing); before, unknown.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

RAY = "(WorkerDict pid=48213, ip=192.168.0.11) "
MCORE = "/usr/local/python3.10/lib/python3.10/site-packages/megatron/core"


def _tb(frame: str, line: str, prefix: str = "") -> str:
    return (f"{prefix}Traceback (most recent call last):\n{prefix}  File \"{frame}\", line 1, in f\n{prefix}    raise X\n"
            f"{prefix}{line}\n")


# ARL-E5940 -----------------------------------------------------------------------------------------------------------

def test_world_size_not_divisible_by_model_parallel_is_e5940():
    for n, m in ((8, 3), (16, 6), (1, 2)):
        text = _tb(f"{MCORE}/parallel_state.py", f"RuntimeError: world_size ({n}) is not divisible by {m}", RAY)
        assert _id(text) == "ARL-E5940", (n, m)
    assert _id(RAY + "RuntimeError: world_size (8) is not divisible by 3 [repeated 7x across cluster]\n") == "ARL-E5940"


def test_other_world_size_messages_are_not_e5940():
    assert _id("AssertionError: rollout world_size: 8 is not divisible by infer_tp: 3\n") != "ARL-E5940"
    assert _id("RuntimeError: world_size (8) is not divisible by expert_tensor_model_pipeline_parallel size (3)\n") != "ARL-E5940"


# ARL-E5941 -----------------------------------------------------------------------------------------------------------

def test_vpp_without_pp_is_e5941():
    text = _tb(f"{MCORE}/parallel_state.py",
               "RuntimeError: pipeline-model-parallel size should be greater than 1 with interleaved schedule", RAY)
    assert _id(text) == "ARL-E5941"


def test_vpp_layer_split_is_not_e5941():
    assert _id("ValueError: number of layers on each middle pipeline rank:7 must be divisible by virtualpipeline "
               "parallel degree 2\n") != "ARL-E5941"


# ARL-E5942 / ARL-E5943 -----------------------------------------------------------------------------------------------

def test_ep_on_dense_model_is_e5942():
    line = "ValueError: num_moe_experts must be non None to use expert-parallel."
    assert _id(_tb(f"{MCORE}/transformer/transformer_config.py", line)) == "ARL-E5942"
    assert _id(line + "\n") == "ARL-E5942"


def test_negative_expert_count_is_not_e5942():
    assert _id(_tb(f"{MCORE}/transformer/transformer_config.py",
                   "ValueError: num_moe_experts must be non-negative.")) != "ARL-E5942"


def test_ep_tp_without_sp_is_e5943():
    line = "ValueError: When using expert parallelism and tensor parallelism, sequence parallelism must be used"
    assert _id(_tb(f"{MCORE}/model_parallel_config.py", line, RAY)) == "ARL-E5943"


def test_sp_without_tp_is_not_e5943():
    assert _id(_tb(f"{MCORE}/model_parallel_config.py",
                   "ValueError: Can not use sequence paralllelism without tensor parallelism")) != "ARL-E5943"


# ARL-E5944 -----------------------------------------------------------------------------------------------------------

def test_incomplete_recompute_settings_are_e5944():
    for line in (
        'ValueError: Using recompute_granularity: full so recompute_method must be "block" or "uniform"',
        "ValueError: When using recompute_granularity: full recompute_num_layers must be between 1 and "
        "num_layers_per_pipeline_rank: 28",
        "ValueError: When using recompute_granularity: selective recompute_num_layers must be None.",
        'ValueError: recompute_method: even must be "block" or "uniform".',
        "AssertionError: Invalid choices for recompute_modules: {'attn'}. Allowed modules are: {'core_attn', 'mlp', "
        "'moe', 'layernorm', 'moe_act', 'mla_up_proj'}",
        "ValueError: moe_act in recompute_modules is only supported with moe_grouped_gemm.",
    ):
        assert _id(_tb(f"{MCORE}/transformer/transformer_config.py", line)) == "ARL-E5944", line


def test_recompute_with_cpu_offload_is_not_e5944():
    assert _id(_tb(f"{MCORE}/transformer/transformer_config.py",
                   "ValueError: CPU offloading does not work when activation recomputation is enabled")) != "ARL-E5944"


# ARL-E5945 / ARL-E5946 -----------------------------------------------------------------------------------------------

CONV = "/usr/local/python3.10/lib/python3.10/site-packages/verl/models/mcore/config_converter.py"


def test_dpskv3_mtp_is_e5945():
    line = ("AssertionError: MTP is not supported for now, please modify the config.json to set num_nextn_predict_layers "
            "to 0")
    assert _id(_tb(CONV, line, RAY)) == "ARL-E5945"


def test_dpskv3_quantization_is_e5946():
    line = "AssertionError: quantization is not supported for now, please modify the config.json to remove quantization_config"
    assert _id(_tb(CONV, line, RAY)) == "ARL-E5946"


def test_other_mtp_and_quant_refusals_are_not_e5945_e5946():
    assert _id("AssertionError: only support one mtp layer for now\n") not in ("ARL-E5945", "ARL-E5946")
    assert _id("ValueError: Unknown quantization method: fp8. Must be one of ['awq', 'gptq'].\n") not in ("ARL-E5945", "ARL-E5946")


# ARL-E5947 -----------------------------------------------------------------------------------------------------------

def test_qwen2_5_vl_cp_is_e5947():
    line = "AssertionError: qwen2_5_vl's context parallel is not accurate yet"
    assert _id(_tb("/x/verl/models/mcore/model_forward.py", line, RAY)) == "ARL-E5947"


def test_cp_without_seq_pack_is_not_e5947():
    assert _id(_tb("/x/verl/models/mcore/util.py",
                   "AssertionError: Context parallel size without seq_pack is not supported")) != "ARL-E5947"


# ARL-E5948 -----------------------------------------------------------------------------------------------------------

def test_mbridge_bin_weights_is_e5948():
    line = ("NotImplementedError: Not implemented for deprecated pytorch_model-*.bin format huggingface weights, please "
            "use safetensors format")
    assert _id(_tb("/x/mbridge/core/safetensor_io.py", line, RAY)) == "ARL-E5948"


def test_missing_safetensors_weights_is_not_e5948():
    assert _id(_tb("/x/mbridge/core/safetensor_io.py",
                   "ValueError: Weights {'lm_head.weight'} not found in safetensors files in /mnt/models/q")) != "ARL-E5948"


# ARL-E5949 -----------------------------------------------------------------------------------------------------------

def test_dist_ckpt_path_is_e5949():
    for line in (
        "megatron.core.dist_checkpointing.core.CheckpointingException: /mnt/models/Qwen2.5-7B-Instruct is not a "
        "distributed checkpoint",
        "megatron.core.dist_checkpointing.core.CheckpointingException: Checkpoint directory /mnt/ckpt/mcore does not exist",
    ):
        assert _id(_tb(f"{MCORE}/dist_checkpointing/validation.py", line, RAY)) == "ARL-E5949", line


def test_other_checkpointing_exceptions_are_not_e5949():
    assert _id(_tb(f"{MCORE}/dist_checkpointing/strategies/fully_parallel.py",
                   "megatron.core.dist_checkpointing.core.CheckpointingException: Missing shards after fully parallel "
                   "loading: [x]")) != "ARL-E5949"
    assert _id("FileNotFoundError: [Errno 2] No such file or directory: '/mnt/ckpt/mcore/metadata.json'\n") != "ARL-E5949"


# ARL-E5950 -----------------------------------------------------------------------------------------------------------

def test_unknown_megatron_optimizer_name_is_e5950():
    for name in ("AdamW", "Adam", "adamw", "AdamW8bit"):
        line = f"Exception: {name} optimizer is not supported."
        assert _id(_tb(f"{MCORE}/optimizer/__init__.py", line, RAY)) == "ARL-E5950", name


def test_other_optimizer_refusals_are_not_e5950():
    assert _id("ValueError: Optimizer AdamW is not supported for FSDP2\n") != "ARL-E5950"
    assert _id("NotImplementedError: optimizer type muon is not supported yet\n") != "ARL-E5950"


# ARL-E5951 -----------------------------------------------------------------------------------------------------------

def test_resume_without_model_state_is_e5951():
    line = ("AssertionError: Model state dict not found in dict_keys(['optimizer', 'rng_state']). Please check the "
            "checkpoint file /mnt/ckpt/global_step_100/actor.")
    assert _id(_tb("/x/verl/utils/checkpoint/megatron_checkpoint_manager.py", line, RAY)) == "ARL-E5951"


def test_missing_optimizer_state_is_not_e5951():
    line = ("AssertionError: Optimizer state dict not found in dict_keys(['model', 'rng_state']). Please check the "
            "checkpoint file /mnt/ckpt/global_step_100/actor.")
    assert _id(_tb("/x/verl/utils/checkpoint/megatron_checkpoint_manager.py", line, RAY)) != "ARL-E5951"
