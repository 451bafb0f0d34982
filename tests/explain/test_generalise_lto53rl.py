"""Readings generalised by helper lto53rl (2026-12-07) for dev logs of the Ray / verl-config / data-model classes that
leave-thread-out scoring missed although another dev thread shows the same root cause.

- DRV-divisible: a divisibility check whose divisor is GRPO's group (num_generations / "the number of generations
  [per prompt | used for evaluation]") over a batch is read as grpo-num-generations-batch-mismatch, and one whose
  divisor is a quantization unit (weight quantization block_n / block_k, min_thread_n / k, group_size, pack_factor)
  over a weight / partition size as quant-tp-size-misaligned, whatever the framework's wording; before, both were the
  generic size-not-divisible. Wordings: TRL grpo_trainer.py v0.14-v0.17 and grpo_config.py v0.18-v1.x (ARL-E421's
  signatures), vLLM / SGLang fp8.py and marlin_utils.py (ARL-E4168 / ARL-E4164's signatures).
- DRV-trl-check: the same GRPO batch-versus-group check raised in a TRL frame (where DRV-trl-check reads first) now
  carries the kind grpo-num-generations-batch-mismatch instead of trl-config-check.
- ARL-E4161 widened: Megatron-Core dist_checkpointing's strict-load key checks ("Missing keys (for which sharded
  tensors / objects ...)" / "Unexpected keys (not expected to be in the checkpoint)"), the sharded-checkpoint form of
  torch's load_state_dict key mismatch.
- ARL-E2778 widened: accelerate's refusal of a bitsandbytes-quantized model spread over several devices in a distributed run
  ("loaded in 8-bit [or 4-bit ]precision on multiple devices in any distributed mode", accelerate v0.20 .. v1.14).
- ARL-E1766 widened: the empty ZeRO-3 checkpoint as accelerate's set_module_tensor_to_device refuses it (from_pretrained
  with device_map / low_cpu_mem_usage: "Trying to set a tensor of shape torch.Size([0]) in ... this look(s) incorrect.",
  accelerate 0.22 .. 1.14), ranked over ARL-E1682's generic reading of the same line (E1766 lists it as consequence).

The analyzer tests use the catalog without the entries that state these classes, so the reading itself is tested (as a
held-out log with a wording no entry has meets it); with the full catalog the entries keep ranking first.
"""

from __future__ import annotations

import dataclasses
import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)
WITHOUT = dataclasses.replace(
    CATALOG, entries=tuple(e for e in CATALOG.entries if e.id not in ("ARL-E421", "ARL-E4164", "ARL-E4168")))
_bare = functools.partial(first, WITHOUT)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'
TRL_TB = ('Traceback (most recent call last):\n  File "/home/user/grpo.py", line 40, in <module>\n    trainer = GRPOTrainer(\n'
          '  File "/usr/lib/python3.10/site-packages/trl/trainer/grpo_trainer.py", line 431, in __init__\n'
          '    raise ValueError(\n')


# DRV-divisible / DRV-trl-check: GRPO's batch over num_generations ----------------------------------------------------

GRPO_WORDINGS = (
    # trl/trainer/grpo_trainer.py v0.14 .. v0.17
    "ValueError: The global train batch size (7 x 1) must be evenly divisible by the number of generations per prompt "
    "(8). Given the current train batch size, the valid values for the number of generations are: [7].",
    "ValueError: The global eval batch size (3 x 2) must be evenly divisible by the number of generations per prompt (4).",
    # trl/trainer/grpo_config.py v0.18 .. v1.x
    "ValueError: generation_batch_size (12) must be divisible by num_generations (8).",
    "ValueError: The global eval batch size (1 * 2) must be divisible by num_generations (4).",
    "ValueError: The global eval batch size (1 * 2) must be divisible by the number of generations used for evaluation (4).",
)


def test_grpo_batch_over_generations_is_its_class_without_the_entry():
    for line in GRPO_WORDINGS:
        top = _bare(TB + line + "\n")
        assert top is not None and top.entry.id == "DRV-divisible", line
        assert top.kind == "grpo-num-generations-batch-mismatch", line


def test_grpo_check_copied_by_other_trainers_is_the_class():
    """ms-swift's GRPO trainer (swift/trainers/rlhf_trainer/grpo_trainer.py) copies TRL's check, with a per-SP-group
    form; TRL 0.18's effective batch multiplies steps per generation: read by DRV-divisible, not by the TRL frame."""
    swift = ('Traceback (most recent call last):\n  File "/usr/lib/python3.10/site-packages/swift/trainers/rlhf_trainer/'
             'grpo_trainer.py", line 120, in __init__\n    raise ValueError(\n')
    for line in (
        "ValueError: The global train batch size per SP group (2 x 1) must be evenly divisible by the number of "
        "generations per prompt (8). Given the current train batch size, the valid values for the number of generations are: [2].",
        "ValueError: The effective train batch size (4 x 2 x 1) must be evenly divisible by the number of generations "
        "per prompt (16).",
    ):
        top = _bare(swift + line + "\n")
        assert top is not None and top.entry.id == "DRV-divisible", line
        assert top.kind == "grpo-num-generations-batch-mismatch", line


def test_grpo_check_in_a_trl_frame_carries_the_class():
    top = _bare(TRL_TB + GRPO_WORDINGS[0] + "\n")
    assert top is not None and top.entry.id == "DRV-trl-check"
    assert top.kind == "grpo-num-generations-batch-mismatch"


def test_grpo_batch_over_generations_keeps_e421_with_the_full_catalog():
    assert _id(TB + GRPO_WORDINGS[0] + "\n") == "ARL-E421"
    assert _id(TRL_TB + GRPO_WORDINGS[2] + "\n") == "ARL-E421"


def test_other_trl_checks_and_other_generation_counts_are_not_the_class():
    # a fork's extra-generations check: the dividend is no batch
    top = _bare(TB + "ValueError: Number of extra generations (12) must be divisible by the number of generations (8).\n")
    assert top is None or top.kind != "grpo-num-generations-batch-mismatch"
    # GRPO's group too small: another class (grpo-num-generations-too-small), another sentence
    top = _bare(TRL_TB + "ValueError: GRPO requires at least 2 generations per prompt to calculate the advantages. You "
                "provided 1, which is less than the minimum required.\n")
    assert top is None or top.kind != "grpo-num-generations-batch-mismatch"
    # a batch over the devices stays the world-size class
    top = _bare(TB + "ValueError: global batch size (64) must be divisible by the number of data parallel ranks (6)\n")
    assert top is not None and top.kind == "batch-size-not-divisible-by-world-size"


# DRV-divisible: a quantized weight's TP shard over its quantization unit ---------------------------------------------

QUANT_WORDINGS = (
    # vLLM / SGLang fp8.py (Fp8LinearMethod.create_weights; later fp8_utils.validate_fp8_block_shape)
    "ValueError: Weight output_partition_size = 8 is not divisible by weight quantization block_n = 128.",
    "ValueError: Weight input_size_per_partition = 64 is not divisible by weight quantization block_k = 128.",
    # fp8.py Fp8MoEMethod.create_weights
    "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128.",
    "ValueError: The input_size of down's weight = 96 is not divisible by weight quantization block_k = 128.",
    # marlin_utils.py verify_marlin_supports_shape
    "ValueError: Weight output_size_per_partition = 1376 is not divisible by  min_thread_n = 64. Consider reducing "
    "tensor_parallel_size or running with --quantization gptq.",
    "ValueError: Weight input_size_per_partition = 1408 is not divisible by group_size = 128. Consider reducing "
    "tensor_parallel_size or running with --quantization gptq.",
)


def test_quant_shard_over_block_is_its_class_without_the_entries():
    for line in QUANT_WORDINGS:
        top = _bare(TB + line + "\n")
        assert top is not None and top.entry.id == "DRV-divisible", line
        assert top.kind == "quant-tp-size-misaligned", line


def test_quant_shard_over_block_keeps_the_entries_with_the_full_catalog():
    assert _id(TB + QUANT_WORDINGS[0] + "\n") == "ARL-E4168"
    assert _id(TB + QUANT_WORDINGS[4] + "\n") == "ARL-E4164"


def test_other_group_and_head_checks_are_not_the_quant_class():
    # GRPO's group_size over a batch: no weight shard
    top = _bare(TB + "ValueError: train_batch_size (12) must be divisible by group_size (5)\n")
    assert top is None or top.kind != "quant-tp-size-misaligned"
    # heads over TP: its own class
    top = _bare(TB + "ValueError: num_heads (28) must be divisible by tp_size (8)\n")
    assert top is not None and top.kind == "tp-size-not-divisor-of-heads"


# ARL-E4161: Megatron-Core dist_checkpointing's strict-load key checks ------------------------------------------------

def test_megatron_dist_ckpt_key_mismatch_is_e4161():
    for line in (
        "megatron.core.dist_checkpointing.core.CheckpointingException: Some keys found in the checkpoint are missing in "
        "the provided sharded state dict. ",
        "megatron.core.dist_checkpointing.core.CheckpointingException: Unexpected keys (not found in the checkpoint) "
        "encountered in the provided sharded state dict. ",
        "CheckpointingException: Some keys found in the checkpoint are missing in the provided sharded state dict. "
        "Unexpected keys (not found in the checkpoint) encountered in the provided sharded state dict. ",
    ):
        text = TB + line + "\nMissing keys (for all ranks): {'decoder.layers.0.mlp.linear_fc1.weight'}. \n"
        assert _id(text) == "ARL-E4161", line


def test_megatron_dist_ckpt_other_failures_are_not_e4161():
    # the same titles logged as a warning (LOG_ALL): the load goes on
    text = ("[WARNING | megatron.core.dist_checkpointing.validation]: Some keys found in the checkpoint are missing in the "
            "provided sharded state dict. \nMissing keys (for all ranks): {'decoder.final_layernorm.weight'}. \n"
            " iteration       10/     100 | consumed samples:          640 | lm loss: 2.1E+00 |\n")
    assert _id(text) != "ARL-E4161"
    # a sharded checkpoint folder that is not there: another failure
    text = TB + "megatron.core.dist_checkpointing.core.CheckpointingException: /ckpt/iter_0000100 is not a distributed checkpoint\n"
    assert _id(text) != "ARL-E4161"


# ARL-E1766: the empty (ZeRO-3 placeholder) checkpoint met through accelerate's set_module_tensor_to_device --------------

ACCEL_TB = ('Traceback (most recent call last):\n  File "/home/user/infer.py", line 9, in <module>\n'
            '    model = AutoModelForCausalLM.from_pretrained(path, device_map="auto")\n'
            '  File "/usr/lib/python3.10/site-packages/accelerate/utils/modeling.py", line 285, in set_module_tensor_to_device\n'
            '    raise ValueError(\n')


def test_accelerate_empty_checkpoint_tensor_is_e1766():
    for tail in ("this looks incorrect.", "this look incorrect."):  # accelerate >= 0.33 / 0.22 .. 0.32
        line = ('ValueError: Trying to set a tensor of shape torch.Size([0]) in "weight" (which has shape '
                f'torch.Size([2560, 2560])), {tail}')
        assert _id(ACCEL_TB + line + "\n") == "ARL-E1766", tail


def test_accelerate_other_shape_refusals_are_not_e1766():
    # a checkpoint of another size: accelerate's generic reading
    line = ('ValueError: Trying to set a tensor of shape torch.Size([32000, 4096]) in "weight" (which has shape '
            'torch.Size([32001, 4096])), this looks incorrect.')
    assert _id(ACCEL_TB + line + "\n") == "ARL-E1682"
    # the target parameter is the empty one (a partitioned model loaded into), not the checkpoint
    line = ('ValueError: Trying to set a tensor of shape torch.Size([4096]) in "weight" (which has shape '
            'torch.Size([0])), this looks incorrect.')
    assert _id(ACCEL_TB + line + "\n") == "ARL-E1682"


# ARL-E2778: accelerate's quantized-model form of the device_map-in-a-distributed-run refusal --------------------------

def test_accelerate_quantized_model_over_devices_in_distributed_run_is_e2778():
    for line in (
        # accelerate v0.20 .. v0.34
        "ValueError: You can't train a model that has been loaded in 8-bit precision on multiple devices in any "
        "distributed mode. In order to use 8-bit models that have been loaded across multiple GPUs the solution is to use "
        "Naive Pipeline Parallelism. Therefore you should not specify that you are under any distributed regime in your "
        "accelerate config.",
        # accelerate v1.0 .. v1.14
        "ValueError: You can't train a model that has been loaded in 8-bit or 4-bit precision on multiple devices in any "
        "distributed mode. In order to use 8-bit or 4-bit models that have been loaded across multiple GPUs the solution "
        "is to use Naive Pipeline Parallelism.",
    ):
        assert _id(TB + line + "\n") == "ARL-E2778", line


def test_accelerate_quantized_model_offload_is_not_e2778():
    # the same function's offload check: another failure (weights on CPU / disk, not a distributed run)
    text = TB + ("ValueError: You can't train a model that has been loaded in 8-bit or 4-bit precision with CPU or disk "
                 "offload. If you want train the 8-bit or 4-bit model in CPU, please install bitsandbytes with multi-backend\n")
    assert _id(text) != "ARL-E2778"
