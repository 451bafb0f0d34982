"""Readings added by helper k54ms (2026-12-07) for MindSpeed (the Megatron adaptor of verl's megatron workers on Ascend
NPUs) and MindSpeed-RL's own GRPO trainer, confirmed in MindSpeed's, MindSpeed-RL's and verl's source. Each test input is
a short excerpt around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5740: MindSpeed's repatch (called by verl's megatron workers) reading Megatron's uninitialised global args
  (get_full_args before MindSpeed dcba784c, "AssertionError: args is not initialized."); before, a resemblance only.
- ARL-E5741: MindSpeed's attention-mask generator without use_flash_attn ("Please set micro_batch_size or set
  use_flash_attn=True in config."); before, unknown.
- ARL-E5742: a MindSpeed patch target (a method of a Megatron class) missing from the installed Megatron-LM ("no exist
  <name> of <class ...>"); before, unknown.
- ARL-E5743: MoE grouped GEMM with MindSpeed's npu_gmm not importable ("from mindspeed.ops.gmm import npu_gmm
  failed."); before, unknown.
- ARL-E5744: MindSpeed-RL's config classes refusing a YAML key they do not define ("The key: X is missing, causing the
  setup to fail."); before, unknown.
- ARL-E5745: MindSpeed-RL's Megatron-to-vLLM weight-loader registry without the model's architecture (bare
  architecture name, unlike vLLM's / verl's bracketed lists); before, a resemblance only.
- ARL-E5746: Megatron's TransformerConfig refusing a MindSpeed-only override key (use_flash_attn, use_fused_*): MindSpeed's
  TransformerConfig patch not in effect; before, a resemblance only.
- ARL-E5747 / E5748: MindSpeed's fused-kernel feature checks (fused RoPE without position_embedding_type=rope; MoE
  permute fusion with the allgather dispatcher or a capacity factor without padding); before, unknown.
- ARL-E5749: MindSpeed's check against one virtual pipeline stage per rank ("num_layers_per_virtual_pipeline_stage *
  pipeline_model_parallel_size == num_layers"); before, unknown.
- Widened ARL-E5086 (MindSpeed-RL option combinations): the launcher's "ref_config / reward_config should not be set
  when use_integrated_worker mode is on"; before, unknown.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'
RAY = "(WorkerDict pid=4242, ip=10.0.0.3) "


# ARL-E5740 -----------------------------------------------------------------------------------------------------------

def test_repatch_reading_uninitialised_megatron_args_is_e5740():
    frames = (
        '  File "/home/user/verl/verl/workers/megatron_workers.py", line 242, in __init__\n'
        '    repatch(self.config.actor.megatron.get("override_transformer_config", {}))\n'
        '  File "/opt/MindSpeed/mindspeed/megatron_adaptor.py", line 63, in repatch\n'
        '    full_args = get_full_args()\n'
        '  File "/opt/MindSpeed/mindspeed/args_utils.py", line 58, in get_full_args\n'
        '    full_args = get_args()\n'
        '  File "/opt/Megatron-LM/megatron/training/global_vars.py", line 25, in get_args\n'
        "    _ensure_var_is_initialized(_GLOBAL_ARGS, 'args')\n"
        "AssertionError: args is not initialized.\n"
    )
    assert _id(TB + frames) == "ARL-E5740"
    assert _id("".join(RAY + line + "\n" for line in (TB + frames).splitlines())) == "ARL-E5740"
    assert _id(TB + "AssertionError: args is not initialized.\n") == "ARL-E5740"


def test_other_megatron_globals_not_initialised_are_not_e5740():
    assert _id(TB + "AssertionError: tokenizer is not initialized.\n") != "ARL-E5740"
    assert _id(TB + "AssertionError: num microbatches calculator is not initialized.\n") != "ARL-E5740"


# ARL-E5741 -----------------------------------------------------------------------------------------------------------

def test_attention_mask_without_flash_attention_is_e5741():
    text = TB + ('  File "/opt/MindSpeed/mindspeed/core/transformer/flash_attention/generate_mask/generate_mask.py", '
                 "line 21, in generate_attention_mask\n"
                 "    raise RuntimeError('Please set micro_batch_size or set use_flash_attn=True in config.')\n"
                 "RuntimeError: Please set micro_batch_size or set use_flash_attn=True in config.\n")
    assert _id(text) == "ARL-E5741"
    assert _id(RAY + "RuntimeError: Please set micro_batch_size or set use_flash_attn=True in config.\n") == "ARL-E5741"


def test_flash_attention_recommendation_warning_alone_is_not_e5741():
    text = (RAY + "/opt/MindSpeed/mindspeed/core/transformer/flash_attention/generate_mask/generate_mask.py:19: "
            "UserWarning: Flash Attention is highly recommended!\n" + RAY + "step:1 - actor/pg_loss:0.012\n")
    assert _id(text) != "ARL-E5741"


# ARL-E5742 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_patch_target_missing_from_megatron_is_e5742():
    for line in (
        "RuntimeError: no exist step_with_ready_grads of <class "
        "'megatron.core.optimizer.distrib_optimizer.DistributedOptimizer'>",
        "RuntimeError: no exist _make_backward_post_hook of <class "
        "'megatron.core.distributed.distributed_data_parallel.DistributedDataParallel'>",
    ):
        assert _id(TB + line + "\n") == "ARL-E5742", line


def test_a_missing_cuda_stub_or_other_no_exist_is_not_e5742():
    # MindSpeed's placeholder for a CUDA-only function (another cause) and unrelated wording stay out.
    assert _id(TB + "RuntimeError: function flash_attn.flash_attn_interface.flash_attn_unpadded_func no exist\n") \
        != "ARL-E5742"
    assert _id(TB + "RuntimeError: the patch of forward exist !\n") != "ARL-E5742"


# ARL-E5743 -----------------------------------------------------------------------------------------------------------

def test_grouped_gemm_op_not_importable_is_e5743():
    text = TB + ('  File "/opt/MindSpeed/mindspeed/core/fusions/grouped_matmul.py", line 26, in '
                 "assert_grouped_gemm_is_available\n"
                 '    raise ImportError("from mindspeed.ops.gmm import npu_gmm failed.")\n'
                 "ImportError: from mindspeed.ops.gmm import npu_gmm failed.\n")
    assert _id(text) == "ARL-E5743"


def test_megatron_grouped_gemm_package_missing_on_gpu_is_not_e5743():
    assert _id(TB + "ImportError: Grouped GEMM is not available. Please run `pip install "
               "git+https://github.com/fanshiqing/grouped_gemm@v1.1.4`.\n") != "ARL-E5743"


# ARL-E5744 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_rl_unknown_yaml_key_is_e5744():
    for key in ("use_dynamic_bsz", "blocking", "num_gpus_for_train"):
        text = TB + (f"ValueError: The key: {key} is missing, causing the setup to fail. Please check. If necessary, "
                     "register it in the config file.\n")
        assert _id(text) == "ARL-E5744", key


def test_missing_mapping_key_is_not_e5744():
    assert _id(TB + "KeyError: 'rl_config'\n") != "ARL-E5744"
    assert _id(TB + "ValueError: The key is missing\n") != "ARL-E5744"


# ARL-E5745 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_rl_weight_loader_without_architecture_is_e5745():
    text = TB + ("ValueError: Model architectures Gemma3ForCausalLM are not supported for now. Supported "
                 "architectures: ['AquilaModel', 'LlamaForCausalLM', 'Qwen2ForCausalLM']\n")
    assert _id(text) == "ARL-E5745"


def test_vllm_and_verl_registries_are_not_e5745():
    # vLLM's registry (ARL-E228) and verl's Megatron registry / loader (ARL-E614) word it with brackets or 'loader'.
    assert _id(TB + "ValueError: Model architectures ['Gemma3ForCausalLM'] are not supported for now. Supported "
               "architectures: ['LlamaForCausalLM', 'Qwen2ForCausalLM', 'MistralForCausalLM']\n") != "ARL-E5745"
    assert _id(TB + "ValueError: Model architectures Qwen3MoeForCausalLM loader are not supported for now. Supported "
               "architectures: dict_keys(['LlamaForCausalLM'])\n") != "ARL-E5745"


# ARL-E5746 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_only_key_refused_by_plain_megatron_is_e5746():
    for key in ("use_flash_attn", "use_fused_rmsnorm", "use_fused_swiglu", "use_fused_rotary_pos_emb"):
        text = TB + f"TypeError: TransformerConfig.__init__() got an unexpected keyword argument '{key}'\n"
        assert _id(text) == "ARL-E5746", key
    assert _id(TB + "TypeError: MLATransformerConfig.__init__() got an unexpected keyword argument "
               "'use_flash_attn'\n") == "ARL-E5746"


def test_megatron_own_keys_or_other_classes_are_not_e5746():
    # A Megatron key of another release, or a Hugging Face model refusing use_flash_attn, is another failure.
    assert _id(TB + "TypeError: TransformerConfig.__init__() got an unexpected keyword argument "
               "'moe_router_dtype'\n") != "ARL-E5746"
    assert _id(TB + "TypeError: LlamaForCausalLM.__init__() got an unexpected keyword argument "
               "'use_flash_attn'\n") != "ARL-E5746"


# ARL-E5747 / ARL-E5748 -----------------------------------------------------------------------------------------------

def test_fused_rope_without_rope_is_e5747():
    for line in ("AssertionError: --use-fused-rotary-pos-emb must enable with--position-embedding-type=rope",
                 "AssertionError: --use-fused-rotary-pos-emb must enable with --position-embedding-type=rope"):
        assert _id(TB + line + "\n") == "ARL-E5747", line


def test_moe_permute_fusion_refusals_are_e5748():
    for line in (
        "AssertionError: Only alltoall and alltoall_seq dispatcher supports --moe-permute-fusion(or "
        "--use-fused-moe-token-permute-and-unpermute). allgather dispatcher don't support it.",
        "AssertionError: The --moe-permute-fusion can only be enabled if '--moe-expert-capacity-factor' and "
        "'--moe-pad-expert-input-to-capacity' are enabled at the same time. If only --moe-expert-capacity-factor is "
        "enabled, the moe permute fusion is not supported.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5748", line


def test_other_mindspeed_feature_refusals_are_not_e5747_or_e5748():
    for line in ("AssertionError: --use-fused-rmsnorm must enable with --normalization=RMSNorm",
                 "AssertionError: `--moe-alltoall-overlap-comm` only support with `--moe-token-dispatcher-type "
                 "alltoall_seq`."):
        assert _id(TB + line + "\n") not in ("ARL-E5747", "ARL-E5748"), line


# ARL-E5086 (widened) -------------------------------------------------------------------------------------------------

def test_integrated_worker_with_ref_or_reward_section_is_e5086():
    for section in ("ref_config", "reward_config"):
        text = TB + f"ValueError: {section} should not be set when use_integrated_worker mode is on.\n"
        assert _id(text) == "ARL-E5086", section


def test_integrated_worker_off_is_not_read_as_e5086_section_check():
    assert _id(TB + "ValueError: ref_config should be set when use_integrated_worker mode is off.\n") != "ARL-E5086"


# ARL-E5749 -----------------------------------------------------------------------------------------------------------

def test_one_virtual_stage_per_rank_is_e5749():
    text = TB + ("ValueError: num_layers_per_virtual_pipeline_stage * pipeline_model_parallel_size == num_layers, "
                 "please close --num-layers-per-virtual-pipeline-stage\n")
    assert _id(text) == "ARL-E5749"


def test_megatron_vpp_divisibility_is_not_e5749():
    assert _id(TB + "AssertionError: number of layers should be divisible by the pipeline parallel size\n") \
        != "ARL-E5749"
