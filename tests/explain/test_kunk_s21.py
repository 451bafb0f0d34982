"""Classes the leave-thread-out scoring answered `unknown: X` for, read at their emitters' templates (session 21, kunk).

- ARL-E1870: ms-swift refuses DeepSpeed / FSDP2 / GRPO-GKD with vLLM when it splits the model over several devices
  (is_mp(): visible devices >= 2 x NPROC_PER_NODE). Every release's wording: "... is not compatible with MP." (1.x/2.x),
  "... with `device_map`. n_gpu: N, local_world_size: M." (3.x), and the GRPO/GKD sentence, backticks kept or lost.
- ARL-E1871: the KV block size not a multiple of the attention kernel's block size, vllm-ascend's and vLLM's wordings.
- ARL-E222: vLLM's max_model_len check as Huawei Cloud's FAQ quotes it (no number, "drived").
- ARL-E1872: FlashAttention's "batch size must be positive" (zero sequences: an empty micro-batch or rollout batch).
"""

from __future__ import annotations

import pytest


def _top(catalog, tmp_path, text):
    from ascendrl.catalog import explain_paths

    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    result = explain_paths(catalog, [log])
    return result.diagnoses[0].entry.id if result.diagnoses else None


@pytest.mark.parametrize("text", [
    "ValueError: DeepSpeed is not compatible with `device_map`. n_gpu: 8, local_world_size: 1.\n",
    "ValueError: FSDP2 is not compatible with `device_map`. n_gpu: 4, local_world_size: 2.\n",
    "ValueError: DeepSpeed is not compatible with MP. n_gpu: 7, local_world_size: 1.\n",
    "AssertionError: DeepSpeed is not compatible with MP.\n",
    "GRPO with vLLM is not compatible with device_map. Please set NPROC_PER_NODE equal to num_processes.\n",
    "ValueError: GKD with vLLM is not compatible with `device_map`. Please set NPROC_PER_NODE equal to num_processes.\n",
])
def test_ms_swift_device_map_refusals_in_every_wording(catalog, tmp_path, text):
    assert _top(catalog, tmp_path, text) == "ARL-E1870"


def test_transformers_zero3_device_map_is_not_ms_swift_is_mp(catalog, tmp_path):
    """transformers' own "DeepSpeed Zero-3 is not compatible with passing a `device_map`" is another condition."""
    text = "ValueError: DeepSpeed Zero-3 is not compatible with passing a `device_map`.\n"
    assert _top(catalog, tmp_path, text) != "ARL-E1870"


@pytest.mark.parametrize("text", [
    "ValueError: None of the kernel sizes [128] can divide physical block size 16 evenly\n",
    "ValueError: None of the kernel sizes [64, 128] can divide physical block size 48 evenly\n",
    "ValueError: kernel_block_size 64 must divide kv_manager_block_size size 16 evenly\n",
])
def test_kv_block_size_not_a_multiple_of_the_kernel_block(catalog, tmp_path, text):
    assert _top(catalog, tmp_path, text) == "ARL-E1871"


@pytest.mark.parametrize("text", [
    "ValueError: User-specified max_model_len (40960) is greater than the derived max_model_len (max_position_embeddings=32768 or model_max_length=None in model's config.json).\n",
    "ValueError:User-specified max_model_len is greater than the drived max_model_len\n",
])
def test_max_model_len_check_as_quoted(catalog, tmp_path, text):
    assert _top(catalog, tmp_path, text) == "ARL-E222"


@pytest.mark.parametrize("text", [
    "RuntimeError: batch size must be positive\n",
    "Runtime error: batch size must be positive\n",
    "ray.exceptions.RayTaskError(RuntimeError): ray::main_task() (pid=1, ip=10.0.0.1)\nRuntimeError: batch size must be positive\n",
])
def test_flash_attention_with_no_sequences(catalog, tmp_path, text):
    assert _top(catalog, tmp_path, text) == "ARL-E1872"


def test_a_config_check_on_batch_size_is_not_flash_attention(catalog, tmp_path):
    """Configuration validators say "Batch size must be positive" of a setting (capital B, ValueError / assert)."""
    assert _top(catalog, tmp_path, "ValueError: Batch size must be positive\n") != "ARL-E1872"
