"""Readings added by helper k57vllm (2026-12-07) for vllm-ascend as verl's rollout engine: start-up and model-runner
checks a GRPO rollout config meets on Ascend NPUs, confirmed in vllm-ascend's source at the v0.9.1 .. v0.13.0 tags.
Each test input is a short excerpt around the exact emitted message; each entry also has a near miss (similar
words, another failure).

- ARL-E6040: the engine asked to profile without a torch profiler ("RuntimeError: Profiler is not enabled.",
  VLLM_TORCH_PROFILER_DIR unset); before, nothing.
- ARL-E6041: vLLM's sequence-parallelism pass outside expert-parallel Qwen3 MoE ("For better performance in (Qwen3)
  MoE, SP ... works exclusively with MC2, AllToAll, and AllToAllV."); before, nothing.
- ARL-E6042: a Mamba-style model (Qwen3-Next) with prefix caching / speculative decoding ("Prefix caching is not
  supported for Mamba yet." / "Mamba with speculative decoding is not supported yet."); before, nothing.
- ARL-E6043: vllm-ascend's Qwen3-Next under VLLM_USE_V1=0 ("Qwen3Next requires VLLM_USE_V1"); before, nothing.
- ARL-E6044: a multimodal model called by a runner that predates the is_multimodal mask ("`get_input_embeddings` /
  `embed_input_ids` now requires `is_multimodal` arg"); before, nothing.
- ARL-E6045: VLLM_ATTENTION_BACKEND naming a backend the installed vLLM lacks ("Invalid attention backend: 'X'. Valid
  backends are: [...]"); before, nothing.
- ARL-E6046: v0.9.x NPU runner finding no attention backend ("Non-Attention backend is not supported by V1
  NPUModelRunner."); before, nothing.
- ARL-E6047: LoRA on a model class with no LoRA-capable module ("No supported LoRA modules found in <Class>"); before,
  nothing.
- ARL-E6048: async scheduling with PP > 1, a non-EAGLE/MTP draft or a non mp/uni/external_launcher executor; before,
  nothing.
- ARL-E6049: an empty cudagraph_capture_sizes or a max capture size below 1; before, nothing.
- ARL-E6050: the NPU runner refusing a KV cache tensor shared by several layers; before, nothing.
- ARL-E6051: the Ascend attention backend without encoder / cross attention ("Encoder/decoder cross-attention are
  not implemented for PallasAttentionBackendImpl"); before, nothing.
- ARL-E4851 widened: v0.9.2rc1's "Bad graph batch size:N! max_num_reqs:M"; before, nothing.
- ARL-E3058 widened: the MoE experts' "<prefix> has different quantization type: {...}"; before, nothing.
- ARL-E501 widened: v0.9-v0.10's "Linear / MoE / Attention method is not implemented for the current quant type.";
  before, nothing.
"""

from __future__ import annotations

import functools

import pytest

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

PREFIX = "(WorkerDict pid=51342, ip=192.168.10.21) "
TB = (PREFIX + "Traceback (most recent call last):\n"
      + PREFIX + "  File \"/workspace/verl/verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py\", line 178, in "
      "__init__\n")

SP_SIZES = "AssertionError: cudagraph_capture_sizes [1, 2, 4] does not containvalues that are multiples of tp_size 8"

# id -> (the exact emitted messages, near misses: similar words, another failure)
CASES = {
    "ARL-E6040": (
        ["RuntimeError: Profiler is not enabled."],
        ["AssertionError: Profiler is not enabled."],  # another program's assert
    ),
    "ARL-E6041": (
        ["AssertionError: For better performance in MoE, SP works exclusively with MC2, AllToAll, and AllToAllV.",
         "NotImplementedError: For better performance in Qwen3 MoE, SP only works exclusively with MC2, AllToAll, "
         "and AllToAllV."],
        [SP_SIZES],  # sequence parallelism too, but the capture sizes vs TP check (ARL-E4843)
    ),
    "ARL-E6042": (
        ["NotImplementedError: Prefix caching is not supported for Mamba yet.",
         "NotImplementedError: Mamba with speculative decoding is not supported yet."],
        ["ValueError: max_num_seqs (1024) exceeds available Mamba cache blocks (512)"],
    ),
    "ARL-E6043": (
        ["AssertionError: Qwen3Next requires VLLM_USE_V1"],
        ["ValueError: Model architectures ['Qwen3NextForCausalLM'] failed to be inspected. Please check the logs "
         "for more details."],
    ),
    "ARL-E6044": (
        [f"ValueError: `{name}` now requires `is_multimodal` arg, please update your model runner according to "
         "https://github.com/vllm-project/vllm/pull/16229." for name in ("get_input_embeddings", "embed_input_ids")],
        ["ValueError: Error during masked scatter operation"],
    ),
    "ARL-E6045": (
        ["ValueError: Invalid attention backend: 'XFORMERS'. Valid backends are: ['FLASH_ATTN', 'TRITON_ATTN', "
         "'FLASHINFER', 'TORCH_SDPA', 'PALLAS', 'NO_ATTENTION', 'FLEX_ATTENTION', 'CUSTOM']"],
        # vllm-ascend's other refusal in the same selector: the platform returned no class (not the env variable)
        ["ValueError: Invalid attention backend for npu"],
    ),
    "ARL-E6046": (
        ["NotImplementedError: Non-Attention backend is not supported by V1 NPUModelRunner."],
        ["NotImplementedError: Currently we only support building dummy metadata for DecodeOnly state"],
    ),
    "ARL-E6047": (
        ["AssertionError: No supported LoRA modules found in",
         "AssertionError: No supported LoRA modules found in Qwen2ForCausalLM."],
        ["ValueError: No supported LoRA modules found in the diffusion pipeline."],  # vllm-omni's adapter loader
    ),
    "ARL-E6048": (
        ["ValueError: Async scheduling is not yet compatible with pipeline_parallel_size > 1.",
         "ValueError: Currently, async scheduling only supports `mp`, `uni`, or `external_launcher` distributed "
         "executor backend, but you chose `ray`.",
         "ValueError: Currently, async scheduling only supports `mp`, `uni` or `external_launcher` distributed "
         "executor backend, but you choose `<class 'verl.workers.rollout.vllm_rollout.vllm_async_server."
         "ExternalRayDistributedExecutor'>`.",
         "ValueError: Currently, async scheduling is only supported with EAGLE/MTP kind of speculative decoding"],
        ["ValueError: max_num_batched_tokens (256) must be greater than or equal to max_num_seqs (1024)."],
    ),
    "ARL-E6049": (
        ["AssertionError: cudagraph_capture_sizes should contain at least one element when using cuda graph.",
         "AssertionError: Maximum cudagraph size should be greater than or equal to 1 when using cuda graph."],
        [SP_SIZES],
    ),
    "ARL-E6050": (
        ["AssertionError: KV cache tensor shared by multiple layers is not supported in NPU."],
        ["AssertionError: Some layers are not correctly initialized"],
    ),
    "ARL-E6051": (
        ["NotImplementedError: Encoder self-attention and encoder/decoder cross-attention are not implemented for "
         "PallasAttentionBackendImpl",
         "NotImplementedError: Encoder/decoder cross-attention are not implemented for PallasAttentionBackendImpl",
         "NotImplementedError: Encoder/Decoder cross-attention is not implemented for PallasAttentionBackendImpl",
         "NotImplementedError: Encoder self-attention and encoder/decoder cross-attention are not implemented for "
         "AscendAttentionTorchairBackendImpl"],
        ["NotImplementedError: fused output quantization is not yet supported for AscendAttentionBackendImpl"],
    ),
    # widened entries
    "ARL-E4851": (["ValueError: Bad graph batch size:300! max_num_reqs:256"], []),
    "ARL-E3058": (
        ["RuntimeError: model.layers.3.mlp.experts has different quantization type: {'W8A8_DYNAMIC', 'FLOAT'}."],
        [],
    ),
    "ARL-E501": (
        [f"NotImplementedError: {kind} method is not implemented for the current quant type."
         for kind in ("Linear", "MoE", "Attention")],
        # a vLLM without the ascend quantization plugin registered (another entry)
        ["ValueError: Unknown quantization method: ascend. Must be one of ['awq', 'fp8']."],
    ),
}


def _tb(line: str) -> str:
    return TB + PREFIX + line + "\n"


@pytest.mark.parametrize("entry", sorted(CASES))
def test_exact_messages_give_the_entry(entry):
    for line in CASES[entry][0]:
        assert _id(_tb(line)) == entry, line


@pytest.mark.parametrize("entry", sorted(e for e in CASES if CASES[e][1]))
def test_near_misses_do_not(entry):
    for line in CASES[entry][1]:
        assert _id(_tb(line)) != entry, line
