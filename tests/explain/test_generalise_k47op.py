"""Readings added by helper k47op (2026-12-06) while probing public threads of operator, CANN / aclnn and dtype
failures for failure classes explain did not name. Each test input is a short excerpt in our own words around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4520: CANN's fused rotary-embedding kernels (RotaryPositionEmbedding / ApplyRotaryPosEmb) refusing the q / k /
  cos / sin shapes or layout (ops-transformer rope_rotate_half_tiling.cpp, apply_rotary_pos_emb_tiling.cpp).
- ARL-E4521: vLLM's rope_scaling conflict between rope_type and the legacy type (Qwen2-VL mrope config under a newer
  transformers; vllm/transformers_utils/config.py).
- DRV-torch-same-type widened: masked_scatter's dtype check ("masked_scatter: expected self and source to have same
  dtypes but got..."; TensorAdvancedIndexing.cpp), the multimodal encoder-feature merge of transformers#47672.
- ARL-E4522: xgrammar's CPU bitmask kernel refusing tensor indices under vllm-ascend structured output
  (apply_token_bitmask_inplace_cpu(): incompatible function arguments).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4520 ---------------------------------------------------------------------------------------------------------

def test_fused_rope_shape_rule_is_e4520():
    for text in (
        "RuntimeError: npu_rotary_mul:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:62 NPU function error: call "
        "aclnnRotaryPositionEmbedding failed, error code is 561002\n"
        "[ERROR] 2026-04-01-13:43:00 (PID:1, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\n"
        "E89999: Inner Error!\n"
        "E89999[PID: 1] 2026-04-01-13:43:00.810.813 (E89999):  op[RotaryPositionEmbedding],\n"
        "when input is BNSD layout and  B * N is large or D is not aligned, please do not use RotaryPositionEmbedding "
        "fusion operator.\n",
        "RuntimeError: call aclnnRotaryPositionEmbedding failed, detail:E89999: Inner Error!\n"
        "E89999: when input mode is half, layout is BNSD layout and  B * N is large or D is not aligned, please do not "
        "use RotaryPositionEmbedding fusion operator.\n",
        "RuntimeError: call aclnnApplyRotaryPosEmb failed, detail:E89999: Inner Error!\n"
        "E89999: [PID: 7] 2026-01-22-02:43:26.123.456 op[ApplyRotaryPosEmb], all input dim1 must equal"
        "[FUNC:CheckParams][FILE:apply_rotary_pos_emb_tiling.cpp][LINE:204]\n",
        "E89999: [PID: 7] op[ApplyRotaryPosEmb], last dims is not 128[FUNC:CheckParams]"
        "[FILE:apply_rotary_pos_emb_tiling.cpp][LINE:208]\n",
        "EZ9999: [PID: 9] ApplyRotaryPosEmb: query, key and cos: The 1st dims of input query, key and cos should be "
        "equal when the attr layout is 1 (BSND), and the 0th dims of input query, key and cos should be equal when the "
        "attr layout is 4 (TND)\n",
    ):
        assert _id(text) == "ARL-E4520", text


def test_other_tiling_failure_is_not_e4520():
    # Another fused operator's tiling failure (no rotary shape rule) is not this class.
    text = ("RuntimeError: call aclnnAddRmsNormBias failed, detail:EZ9999: Inner Error!\n"
            "EZ9999[PID: 500] 2026-06-11-09:00:42.517.404 AclNN_Inner_Error(EZ9999): AddRmsNormBias do tiling failed, "
            "ret is -1.\n")
    assert _id(text) != "ARL-E4520"


# ARL-E4521 ---------------------------------------------------------------------------------------------------------

def test_rope_type_conflict_is_e4521():
    for text in (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
        "  Value error, Found conflicts between 'rope_type=default' (modern field) and 'type=mrope' (legacy field). "
        "You should only specify one of them. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]\n",
        "ValueError: Found conflicts between 'rope_type=longrope' (modern field) and 'type=su' (legacy field). You "
        "should only specify one of them.\n",
    ):
        assert _id(text) == "ARL-E4521", text


def test_rope_scaling_missing_key_is_not_e4521():
    text = "ValueError: rope_scaling should have a 'rope_type' key\n"
    assert _id(text) != "ARL-E4521"


# DRV-torch-same-type: masked_scatter ---------------------------------------------------------------------------------

def test_masked_scatter_dtype_is_same_type_mismatch():
    for text in (
        "RuntimeError: masked_scatter: expected self and source to have same dtypes but gotFloat and BFloat16\n",
        "RuntimeError: masked_scatter_: expected self and source to have same dtypes but got BFloat16 and Float\n",
        "RuntimeError: masked_scatter: expected self and source to have same dtypes but got torch.float32 and "
        "torch.bfloat16\n",
    ):
        top = _top(text)
        assert top is not None and top.entry.id == "DRV-torch-same-type" and top.kind == "op-input-dtype-mismatch", text
        assert "masked_scatter" in top.entry.title


def test_masked_scatter_mask_dtype_is_not_same_type_mismatch():
    # The mask's own dtype check (a float mask) is another message, not two data tensors of different dtypes.
    text = "RuntimeError: masked_scatter_ only supports boolean masks, but got mask with dtype float\n"
    assert _id(text) != "DRV-torch-same-type"


# ARL-E4522 ---------------------------------------------------------------------------------------------------------

def test_xgrammar_cpu_bitmask_tensor_indices_is_e4522():
    for text in (
        "TypeError: apply_token_bitmask_inplace_cpu(): incompatible function arguments. The following argument types "
        "are supported:\n"
        "    1. apply_token_bitmask_inplace_cpu(logits_ptr: int, logits_shape: tuple[int, int], logits_strides: "
        "tuple[int, int], bitmask_ptr: int, bitmask_shape: tuple[int, int], bitmask_strides: tuple[int, int], "
        "vocab_size: int, indices: collections.abc.Sequence[int] | None) -> None\n"
        "Invoked with types: int, tuple, tuple, int, tuple, tuple, int, torch.Tensor\n",
        "(Worker_DP0_TP1_EP1 pid=45277) ERROR 03-16 09:57:09 [multiproc_executor.py:824] TypeError: "
        "apply_token_bitmask_inplace_cpu(): incompatible function arguments. The following argument types are "
        "supported:\n",
    ):
        assert _id(text) == "ARL-E4522", text


def test_xgrammar_logits_dtype_check_is_not_e4522():
    # xgrammar's own argument check in the same wrapper (logits in float16) is another failure.
    text = "ValueError: logits must be of type float32 or bfloat16\n"
    assert _id(text) != "ARL-E4522"


def test_vllm_ascend_masked_scatter_chain_names_the_dtype_mismatch():
    # vllm-ascend's patch_multimodal_merge.py re-raises a failed masked_scatter_ as "Error during masked scatter
    # operation"; the dtype check under it is the cause.
    text = (
        "Traceback (most recent call last):\n"
        '  File "/w/vllm_ascend/patch/worker/patch_multimodal_merge.py", line 40, in _merge_multimodal_embeddings\n'
        "    inputs_embeds.masked_scatter_(is_multimodal.unsqueeze(-1), mm_embeds_flat)\n"
        "RuntimeError: masked_scatter_: expected self and source to have same dtypes but got Float and BFloat16\n"
        "\n"
        "The above exception was the direct cause of the following exception:\n"
        "\n"
        "Traceback (most recent call last):\n"
        '  File "/w/vllm_ascend/patch/worker/patch_multimodal_merge.py", line 53, in _merge_multimodal_embeddings\n'
        '    raise ValueError("Error during masked scatter operation") from e\n'
        "ValueError: Error during masked scatter operation\n"
    )
    assert _id(text) == "DRV-torch-same-type"


# ARL-E331 refined by DRV-op-params ----------------------------------------------------------------------------------

def test_old_torch_npu_detail_form_names_the_rejected_argument():
    # torch_npu 2.1's "[E OpParamMaker.cpp] call aclnnX failed, detail:EZ9999" over FlashAttentionScore's tiling check
    # (the report Open-Sora-Plan#360 pasted): the rejected atten_mask, not a missing binary, is the diagnosis.
    text = (
        "[E OpParamMaker.cpp:273] call aclnnFlashAttentionScore failed, detail:EZ9999: Inner Error!\n"
        "EZ9999: 2024-07-27-05:01:55.672.958  get unsupported atten_mask shape, the shape is [2, 1, 28800, 28800]"
        "[FUNC:AnalyzeOptionalInput][FILE:flash_attention_score_tiling_general.cpp][LINE:1179]\n"
        "        TraceBack (most recent call last):\n"
        "        Tiling failed\n"
        "        Kernel Run failed. opType: 104, FlashAttentionScore\n"
    )
    top = _top(text)
    # Since the twenty-sixth stop k57op's ARL-E6022 names this check (the atten_mask shape); DRV-op-params' reading of the
    # rejected argument is folded into it.
    assert top is not None and top.entry.id == "ARL-E6022" and top.kind == "aclnn-param-unsupported", top
    assert any("atten_mask" in note for note in top.notes), top.notes


def test_detail_form_with_missing_binary_stays_e331():
    text = ("RuntimeError: call aclnnSwiGlu failed, detail:EZ9999: Inner Error!\n"
            "EZ9999: [PID: 7] Op SwiGlu does not has any binary.\n")
    assert _id(text) == "ARL-E331"
