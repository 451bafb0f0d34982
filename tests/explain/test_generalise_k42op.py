"""Helper k42op (2026-12-05), operator / dtype / memory / nz families.

- A triton-ascend kernel that BiShengIR refuses because its tiles need more Unified Buffer than the AI Core has
  ("ub overflow, requires N bits while M bits available", ARL-E231) is one compile failure of the kernel: the label
  triton-kernel-compile-failed names ARL-E231 beside the stage wrapper ARL-E403. The specific compiler message stays
  the answer (it outranks the wrapper's "Failed to run BiShengIR pipeline" / MLIRCompilationError lines), so the
  mapping is what scores it.
- FlashAttention refusing a float32 query (ARL-E2779) in every build's wording, not only FA2's.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
import yaml

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()
LABELS = Path(__file__).parent / "realworld" / "labels.yaml"


def _top_id(text: str) -> str | None:
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    diagnoses = classifier.result().to_json().get("diagnoses") or []
    return diagnoses[0].get("id") if diagnoses else None


# BiShengIR's diagnostic in triton-ascend's error banner (sgl-kernel-npu's mamba kernel, Ascend/sglang#754, a dev
# thread), with the pipeline-failure line and the wrapper's type line the compile raises.
UB_OVERFLOW = """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.11/site-packages/triton/compiler/compiler.py", line 289, in compile
    next_module = compile_ir(module, metadata)
triton.compiler.errors.MLIRCompilationError:
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
loc("/usr/local/lib/python3.11/site-packages/sgl_kernel_npu/mamba/mamba_state_update_triton.py":21:0): error: ub overflow, requires 2097152 bits while 1572864 bits available! (possible reason: tiling basic block is too large or block number is more than what user expect due to multi-buffer feature is enabled and some ops need extra local buffer.)
[ERROR] Failed to run BiShengIR pipeline
///------------------[ERROR][Triton][END]------------------
"""

# The same stage failure with another compiler reason (an op the BiSheng compiler does not lower): the wrapper answers.
UNSUPPORTED_USER = """\
triton.compiler.errors.MLIRCompilationError:
///------------------[ERROR][Triton][BEG]------------------
[ConvertLinalgRToBinary] encounters error:
loc("/tmp/tmpabc/kernel.ttadapter.mlir":59:15): error: 'arith.select' op Unsupported user for root alloc op.
loc("/tmp/tmpabc/kernel.ttadapter.mlir":1:1): error: Failed to run BiShengHIR pipeline
///------------------[ERROR][Triton][END]------------------
"""
# A reason no entry names (an op the Triton-to-Linalg conversion does not legalise; k53triton left it to the wrapper): the
# wrapper answers. "Unsupported user for root alloc op" has an entry of its own since k53triton (ARL-E5720).
UNLEGALIZED = """\
triton.compiler.errors.MLIRCompilationError:
///------------------[ERROR][Triton][BEG]------------------
[ConvertTritonIRToLinalgIR] encounters error:
loc("/tmp/tmpabc/kernel.ttir":12:10): error: failed to legalize operation 'tt.call' that was explicitly marked illegal
///------------------[ERROR][Triton][END]------------------
"""


def test_ub_overflow_is_named_by_its_own_entry():
    assert _top_id(UB_OVERFLOW) == "ARL-E231"


def test_other_compile_refusals_are_the_stage_wrapper():
    assert _top_id(UNLEGALIZED) == "ARL-E403"
    assert _top_id(UNSUPPORTED_USER) == "ARL-E5720"  # a reason with an entry of its own names it over the wrapper


def test_the_compile_failed_label_names_both():
    labels = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    assert {"ARL-E403", "ARL-E231"} <= set(labels["triton-kernel-compile-failed"])
    # both readings of a kernel BiShengIR refused answer the one label
    for text in (UB_OVERFLOW, UNSUPPORTED_USER, UNLEGALIZED):
        assert _top_id(text) in labels["triton-kernel-compile-failed"]


# - FlashAttention refusing a float32 query (ARL-E2779) in every build's wording: FA2's TORCH_CHECK, FA3's (hopper,
#   with fp8 in its list, and its sm8x path), the Triton kernel's assert and the CuTe DSL kernels' TypeError
#   (Dao-AILab/flash-attention v2.8.3 / v2.8.3.post1).

@pytest.mark.parametrize("line", [
    "RuntimeError: FlashAttention only support fp16 and bf16 data type",
    "RuntimeError: FlashAttention only supports fp16, bf16, and fp8_e4m3 data type",
    "RuntimeError: FlashAttention on Ampere/Ada cards only supports fp16 and bf16 data type",
    "AssertionError: Only support fp16 and bf16",
    "TypeError: Only Float16 or BFloat16 is supported",
])
def test_flash_attention_dtype_refusals(line):
    assert _top_id(line + "\n") == "ARL-E2779"


def test_other_fp16_bf16_sentences_are_not_flash_attention():
    # fused_dense's GEMM check (another flash-attn extension) names its own kernel, not FlashAttention
    assert _top_id("RuntimeError: gemm_bias_act_lt only supports fp16 and bf16\n") != "ARL-E2779"


# - The caching allocator's later wording (torch >= 2.1, c10/cuda/CUDACachingAllocator.cpp at eb42ad6e; the XPU / MLU /
#   PrivateUse1 allocators copy it): "GPU N has a total capacity of T of which F is free. … Of the allocated memory A is
#   allocated by PyTorch, and U is reserved by PyTorch but unallocated." DRV-memory reads its numbers as it reads
#   torch_npu's "(NPU 0; T total capacity; A already allocated; F free; R reserved in total by PyTorch)".
def _memory(text: str) -> dict:
    """The top diagnosis; DRV-memory's reading is its own (derived) or the notes it gives a catalog entry (ARL-E204)."""
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO((text + "\n").encode()), "paste.log")
    diagnoses = classifier.result().to_json().get("diagnoses") or []
    top = dict(diagnoses[0]) if diagnoses else {}
    assert top.get("id") in ("DRV-memory", "ARL-E204")
    top["cause"] = " ".join([top.get("cause") or "", *(top.get("notes") or [])])
    return top


LATER = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 13.91 GiB. GPU 0 has a total capacity of 79.11 GiB "
         "of which 8.85 GiB is free. Process 23444 has 70.25 GiB memory in use. Of the allocated memory 60.49 GiB is "
         "allocated by PyTorch, and 6.77 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is "
         "large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.")


def test_later_wording_gives_the_shortfall():
    top = _memory(LATER)
    assert top["kind"] == "npu-oom"
    assert "needed 13.91 GiB more with 8.85 GiB free of 79.11 GiB: short by 5.06 GiB" in top["cause"]
    # reserved (60.49 + 6.77) minus allocated is 6.77 GiB, under the request: not the fragmentation reading
    assert "reserved but unallocated (fragmentation)" not in top["cause"]


def test_later_wording_with_most_of_the_card_elsewhere():
    # 93.02 total, 1.18 free, this process reserved 2.63 + 0.12 GiB: the other 89.09 GiB is held outside its allocator
    top = _memory("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.25 GiB. GPU 1 has a total capacity of "
                  "93.02 GiB of which 1.18 GiB is free. Process 2752205 has 91.82 GiB memory in use. Of the allocated memory "
                  "2.63 GiB is allocated by PyTorch, and 120.54 MiB is reserved by PyTorch but unallocated.")
    assert top["kind"] == "npu-memory-occupied"
    assert "89.09 GiB of the card's 93.02 GiB is held outside" in top["cause"]


def test_torch_2_1_spelling_and_zero_bytes_free():
    top = _memory("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacty "
                  "of 8.00 GiB of which 0 bytes is free. Of the allocated memory 7.51 GiB is allocated by PyTorch, and "
                  "15.90 MiB is reserved by PyTorch but unallocated.")
    assert top["kind"] == "npu-oom"
    assert "with 0.00 GiB free of 8.00 GiB" in top["cause"]


def test_a_request_under_the_free_memory_is_not_called_short():
    # either wording: the device reports more free memory than the request, so the failure is not a shortfall
    for text in (
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.15 GiB. GPU 0 has a total capacity of 39.56 GiB of "
        "which 6.80 GiB is free. Including non-PyTorch memory, this process has 32.61 GiB memory in use. Of the allocated "
        "memory 27.66 GiB is allocated by PyTorch, and 4.11 GiB is reserved by PyTorch but unallocated.",
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 50.00 GiB already "
        "allocated; 50.00 GiB current active; 4.00 GiB free; 55.00 GiB reserved in total by PyTorch)",
    ):
        top = _memory(text)
        assert "short by" not in top["cause"]
        assert "the request fits the free total" in top["cause"]
