"""Readings widened by helper ltorl (2026-12-06) for the dev logs of the rl area (data and model files, Ray, verl
config, memory, disk, user errors) that leave-thread-out scoring got wrong although another dev thread shows the same
root cause. Each widening covers every wording its emitter has had that could be found in the emitter's source; each
has a near miss (similar words, another failure) that must not take it.

- ARL-E4814 widened, ARL-E141 narrowed: safetensors' MetadataIncompleteBuffer check (the header is intact, the data
  region is not what the header's offsets cover: a file cut short by a download or copy), in both of its wordings
  ("Error while deserializing header: MetadataIncompleteBuffer", safetensors 0.3 .. 0.5's {e:?}; "... incomplete
  metadata, file not fully covered", 0.6+'s Display). Before, E141 (not a valid checkpoint: LFS pointer, wrong file)
  read them, which labels.yaml does not map to model-download-incomplete; E4814 (a download ended with a file of the
  wrong size) is the class. HeaderTooLarge and the other header errors stay E141.
- DRV-own-check, kind batch-size-not-divisible-by-world-size: YOLOv5 / Ultralytics (and the many trainers copied from
  them: ScaledYOLOv4, YOLOR, YOLOv7) refusing a batch size the GPU count does not divide ("batch-size N not multiple
  of GPU count G", "'batch=N' must be a multiple of GPU count G", "--batch-size must be multiple of CUDA device
  count", "--batch-size N must be multiple of WORLD_SIZE"); before, an unexplained AssertionError / ValueError.
- ARL-E2875 widened: the line NCCL prints first when it cannot size its /dev/shm segment ("Error: failed to extend
  /dev/shm/nccl-X to N bytes" in NCCL 2.12+, with ", error: ..." from 2.23; "Call to posix_fallocate failed : ..." in
  NCCL 2.4 .. 2.11); before, a paste with only that line read as a full disk (ARL-E003) or nothing.
- ARL-E4164 widened: the Marlin kernels' per-shard shape checks vLLM runs for AWQ / GPTQ checkpoints ("Weight
  input_size_per_partition = N is not divisible by min_thread_k = 128. Consider reducing tensor_parallel_size ...",
  min_thread_n, group_size; vLLM 0.4's min_k_threads / min_n_threads); before, an unexplained ValueError.
- ARL-E2776 widened: the CUDA form of the out-of-table embedding lookup (Indexing.cu's "Assertion `srcIndex <
  srcSelectDimSize` failed." before "device-side assert triggered"); before, not named as this class.
- DRV-verl narrowed (ranking): a bare single-tensor all-gather / reduce-scatter buffer check ("output tensor size must be
  equal to world_size times input tensor size", torch c10d / torch_npu, ARL-E4960) was read as a verl config condition
  because it says "world_size", and its kind verl-batch-config was folded into ARL-E4960; the check is now among the
  analyzer's FOREIGN texts, so ARL-E4960 states it alone.
- ARL-E4163 widened: SGLang's form of the negative generation budget ("max_new_tokens must be at least 0, got -N.",
  sampling_params.py SamplingParams.verify); before, an unexplained ValueError.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E4814 / ARL-E141 ------------------------------------------------------------------------------------------------

def test_safetensors_truncated_file_is_e4814():
    for line in (
        "safetensors_rust.SafetensorError: Error while deserializing header: MetadataIncompleteBuffer",
        "safetensors_rust.SafetensorError: Error while deserializing header: incomplete metadata, file not fully covered",
    ):
        assert _id(TB + line + "\n") == "ARL-E4814", line


def test_safetensors_header_too_large_stays_e141():
    for line in (
        "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge",
        "safetensors_rust.SafetensorError: Error while deserializing header: header too large",
        "safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization",
    ):
        assert _id(TB + line + "\n") == "ARL-E141", line


# DRV-own-check: batch-size-not-divisible-by-world-size ---------------------------------------------------------------

def test_yolo_batch_size_vs_gpu_count_is_named():
    for line in (
        "AssertionError: batch-size 64 not multiple of GPU count 3",
        "AssertionError: torch_utils.py select_device///batch-size 16 not multiple of GPU count 3",
        "ValueError: 'batch=16' must be a multiple of GPU count 3. Try 'batch=15' or 'batch=18', the nearest batch "
        "sizes evenly divisible by 3.",
        "AssertionError: --batch-size must be multiple of CUDA device count",
        "AssertionError: --batch-size 10 must be multiple of WORLD_SIZE",
    ):
        found = _top(TB + line + "\n")
        assert found is not None and found.entry.id == "DRV-own-check", line
        assert found.kind == "batch-size-not-divisible-by-world-size", line


def test_other_batch_assertion_is_not_the_yolo_check():
    found = _top(TB + "AssertionError: batch size must be at least 1\n")
    assert found is None or found.kind != "batch-size-not-divisible-by-world-size"
    # Ultralytics' AutoBatch refusal under several GPUs is another failure (batch < 1), not a divisibility one
    found = _top(TB + "ValueError: AutoBatch with batch<1 not supported for Multi-GPU training, please specify a valid "
                      "batch size, i.e. batch=16.\n")
    assert found is None or found.kind != "batch-size-not-divisible-by-world-size"


# ARL-E2875 -----------------------------------------------------------------------------------------------------------

def test_nccl_shm_sizing_lines_are_e2875():
    for line in (
        "node1:1234:1300 [0] misc/shmutils.cc:87 NCCL WARN Error: failed to extend /dev/shm/nccl-qm2kF1 to 9637892 "
        "bytes, error: No space left on device (28)",
        "node1:1234:1300 [0] misc/shmutils.cc:38 NCCL WARN Error: failed to extend /dev/shm/nccl-Ab12Cd to 9637892 bytes",
        "node1:1234:1300 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : No space left on device",
    ):
        text = line + "\nRuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled system error\n"
        assert _id(text) == "ARL-E2875", line


def test_plain_disk_full_is_not_e2875():
    text = TB + "OSError: [Errno 28] No space left on device: '/home/user/ckpt/global_step_10/model.pt'\n"
    assert _id(text) != "ARL-E2875"
    text = "node1:1234:1300 [0] misc/socket.cc:50 NCCL WARN Call to connect returned Connection refused, retrying\n"
    assert _id(text) != "ARL-E2875"


# ARL-E4164 -----------------------------------------------------------------------------------------------------------

def test_marlin_shard_shape_checks_are_e4164():
    for line in (
        "ValueError: Weight input_size_per_partition = 14784 is not divisible by min_thread_k = 128. Consider reducing "
        "tensor_parallel_size or running with --quantization gptq.",
        "ValueError: Weight output_size_per_partition = 7392 is not divisible by  min_thread_n = 64. Consider reducing "
        "tensor_parallel_size or running with --quantization gptq.",
        "ValueError: Weight input_size_per_partition = 1376 is not divisible by group_size = 128.Consider reducing "
        "tensor_parallel_size or running with --quantization gptq.",
        "ValueError: Weight input_size_per_partition = 1376 is not divisible by min_k_threads = 128.",
        "ValueError: Weight input_size_per_partition = f1376 is not divisible by group_size = 128.",
    ):
        assert _id(TB + line + "\n") == "ARL-E4164", line


def test_fp8_block_and_other_divisibility_are_not_e4164():
    # the FP8 block form of the class is its own entry (ARL-E4168)
    line = "ValueError: Weight input_size_per_partition = 64 is not divisible by weight quantization block_k = 128."
    assert _id(TB + line + "\n") == "ARL-E4168"
    line = "ValueError: Total number of attention heads (28) must be divisible by tensor parallel size (8)."
    assert _id(TB + line + "\n") != "ARL-E4164"


# ARL-E2776 -----------------------------------------------------------------------------------------------------------

CUDA_ASSERT_TAIL = (
    'Traceback (most recent call last):\n  File "train.py", line 10, in <module>\n    out = model(input_ids)\n'
    "RuntimeError: CUDA error: device-side assert triggered\n"
)


def test_cuda_index_select_assert_is_e2776():
    for kernel in ("indexSelectLargeIndex", "indexSelectSmallIndex"):
        line = (f"../aten/src/ATen/native/cuda/Indexing.cu:1289: {kernel}: block: [323,0,0], thread: [96,0,0] "
                "Assertion `srcIndex < srcSelectDimSize` failed.")
        assert _id(line + "\n" + CUDA_ASSERT_TAIL) == "ARL-E2776", kernel


def test_other_cuda_asserts_are_not_e2776():
    line = ("../aten/src/ATen/native/cuda/ScatterGatherKernel.cu:144: operator(): block: [0,0,0], thread: [3,0,0] "
            "Assertion `idx_dim >= 0 && idx_dim < index_size && \"index out of bounds\"` failed.")
    assert _id(line + "\n" + CUDA_ASSERT_TAIL) != "ARL-E2776"
    line = ("../aten/src/ATen/native/cuda/Loss.cu:240: nll_loss_forward_reduce_cuda_kernel_2d: block: [0,0,0], thread: "
            "[5,0,0] Assertion `t >= 0 && t < n_classes` failed.")
    assert _id(line + "\n" + CUDA_ASSERT_TAIL) != "ARL-E2776"


# DRV-verl: a collective's own buffer check is not a verl config condition ---------------------------------------------

def test_collective_size_check_is_not_read_as_verl_batch_config():
    for line in (
        "ValueError: output tensor size must be equal to world_size times input tensor size",
        "RuntimeError: input tensor must be the same size as output size times world size",
    ):
        found = _top(line + "\n")
        assert found is not None and found.entry.id == "ARL-E4960", line
        assert found.kind != "verl-batch-config", line


def test_verl_world_size_condition_still_is_verl_batch_config():
    text = ('Traceback (most recent call last):\n  File "/usr/local/lib/python3.10/site-packages/verl/trainer/ppo/'
            'ray_trainer.py", line 320, in _validate_config\n    assert real_train_batch_size % n_gpus == 0\n'
            "AssertionError: real_train_batch_size (20) must be divisible by total n_gpus (8).\n")
    found = _top(text)
    assert found is not None and (found.entry.id, found.kind) == ("DRV-verl", "verl-batch-config"), found


# ARL-E4163 -----------------------------------------------------------------------------------------------------------

def test_sglang_negative_max_new_tokens_is_e4163():
    for line in (
        "ValueError: max_new_tokens must be at least 0, got -512.",
        "ValueError: max_tokens must be at least 1, got -239.",
    ):
        assert _id(TB + line + "\n") == "ARL-E4163", line


def test_other_sampling_checks_are_not_e4163():
    for line in (
        "ValueError: min_new_tokens must be in [0, max_new_tokens(128)], got 256.",
        "ValueError: top_p must be in (0, 1], got 0.0.",
        "ValueError: max_tokens must be at least 1, got 0.",
    ):
        assert _id(TB + line + "\n") != "ARL-E4163", line
