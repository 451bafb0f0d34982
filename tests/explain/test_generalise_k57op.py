"""Readings added by helper k57op (2026-12-07) for single operators as verl GRPO training and vllm-ascend rollout meet
them: CANN's fused-attention and grouped-matmul argument / tiling checks (hicann/ops-transformer at c29bc10, torch_npu's
op-plugin), transformers' NPU flash-attention switch and vllm-ascend's custom-op import. Each test input is a short
excerpt around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E6020: npu_fusion_attention's head counts ("n1Size [28] should be a multiple of n2Size [3].", "head_num is [28],
  but got query dim2 [7].", the grad's "headNum is [N], but got n1 [M]." / "Invalid HeadNum, pls check input attr");
  before, DRV-code's op-tiling-failed or an unnamed EZ1001 refusal.
- ARL-E6021: a full mask with a compressed sparse_mode ("In the attenmask compression, please set the atten_mask_shape
  to [2048,2048].", the grad's "atten mask shape is invalid, try setting it to [2048, 2048]."); before, op-tiling-failed.
- ARL-E6022: a mask shape the kernel does not broadcast ("get unsupported atten_mask shape, the shape is [...]. B=...",
  "atten mask dim should be 2 or 4, but got 3"); before, DRV-op-params' unnamed shape refusal or op-tiling-failed.
- ARL-E6023: sparse tokens leaving rows empty ("PreTokens[..] and nextTokens[..] config error, there is no valid data
  block.", "Batch[3] s1[2048] is larger than s2[1024], exist invalid row."); before, op-tiling-failed.
- ARL-E6024: varlen / TND argument checks ("VarLen scene, q is not equal kv.", "Var len not support sparse mode 5.",
  "Layout BSND is not TND, invalid shape, please check"); before, op-tiling-failed / EZ1001.
- ARL-E6025: head dim out of range ("dSize is not in range:(0, 512].", "Head dim must <= 768, but got 1024", "only
  support kD >= vD, but got kD=24 vD=48"); before, op-tiling-failed / DRV-op-params.
- ARL-E6026: inference attention's GQA ratio ("numHeads(28) must be divisible by numKeyValueHeads(3)!", "the query's
  heads num divided by the key/value's heads num = 96, cannot be greater than 64"); before, EZ1001's generic reading.
- ARL-E6027: npu_grouped_matmul's group_list ("group_list[2] - group_list[1] should be larger than or equal to 0, but now
  is -317.", "Invalid dtype: Only int64 is supported for groupList"); before, DRV-op-params' generic reading.
- ARL-E6028: transformers' NPU_FA2_SPARSE_MODE check; before, an unknown ValueError.
- ARL-E6029: vllm-ascend's "Failed to register custom ops, all custom ops will be disabled" (a warning, not fatal);
  before, nothing.
- ARL-E6030: MC2 MoE dispatch / combine refusing the EP layout or batch ("moeExpertNum should be divisible by
  (epWorldSize - sharedExpertRankNum)", "epWorldSize is invalid, only support [2, 768]", "xDim0(BS) is invalid. Should
  be between [1, 512]"); before, op-tiling-failed / EZ9999's generic reading.
- ARL-E387 widened: FlashAttentionScore's "The data type of query[DT_FLOAT], key[DT_BFLOAT16], value[DT_BFLOAT16] are
  not equal." (q upcast by RoPE); before, EZ1001's generic reading.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

P = "(WorkerDict pid=48213, ip=10.0.0.11) "


def _fa(detail: str, code: str = "561002", op: str = "aclnnFlashAttentionScore", tag: str = "EZ9999") -> str:
    return (f"{P}RuntimeError: npu_fusion_attention:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1122 NPU function "
            f"error: call {op} failed, error code is {code}\n"
            f"{P}[ERROR] 2026-12-01-10:07:41 (PID:48213, Device:0, RankID:0) ERR00100 PTA call acl api failed.\n"
            f"{P}{tag}: Inner Error!\n"
            f"{P}{tag}[PID: 48213] 2026-12-01-10:07:41.662.108 ({tag}):  {detail}\n"
            f"{P}        TraceBack (most recent call last):\n{P}        Tiling failed\n")


def _ops(line: str, code: str = "ERR01003 OPS invalid value") -> str:
    return (f"{P}RuntimeError: {line}\n"
            f"{P}[ERROR] 2026-12-01-10:07:41 (PID:48213, Device:0, RankID:0) {code}\n")


# ARL-E6020 -----------------------------------------------------------------------------------------------------------

def test_fusion_attention_head_counts_are_e6020():
    for detail in (
        "n1Size [28] should be a multiple of n2Size [3].",
        "head_num is [28], but got query dim2 [7].",
        "head_num is [32], but got query dim1 [8].",
        "h1 [3584] should be a multiple of n1Size [30].",
        "h1 [3584] should be a multiple of headNum [30].",
        "headNum is [28], but got n1 [7].",
        "Invalid HeadNum, pls check input attr",
    ):
        assert _id(_fa(detail)) == "ARL-E6020", detail


def test_fusion_attention_head_num_zero_is_not_e6020():
    # torch_npu's own argument check on head_num itself (DRV-op-params reads it), not a mismatch with the tensors
    assert _id(_ops("head_num must > 0, but got 0", "ERR01001 OPS invalid parameter")) != "ARL-E6020"


# ARL-E6021 -----------------------------------------------------------------------------------------------------------

def test_compressed_mask_shape_is_e6021():
    for detail in (
        "In the attenmask compression, please set the atten_mask_shape to [2048,2048].",
        "In the prefix attenmask compression, please set the atten_mask_shape to [3072,2048].",
        "atten mask shape is invalid, try setting it to [2048, 2048].",
    ):
        assert _id(_fa(detail)) == "ARL-E6021", detail


def test_compressed_mask_warning_is_not_e6021():
    # the backward's OP_LOGW: only a warning that a larger mask would be used better, not the refusal
    assert _id(f"{P}[WARNING] atten mask shape is small, try setting it to [2048, 2048].\n") != "ARL-E6021"


# ARL-E6022 -----------------------------------------------------------------------------------------------------------

def test_unsupported_mask_shape_is_e6022():
    for detail in (
        "get unsupported atten_mask shape, the shape is [8, 1, 1, 1536]. B=[8], N=[7], Sq=[1536], Skv=[1536], supported "
        "atten_mask shape can be [B, N, Sq, Skv], [B, 1, Sq, Skv], [1, 1, Sq, Skv] and [Sq, Skv].",
        "get unsupported atten_mask shape, the shape is [1, 6902]. B=[1], N=[12], Sq=[6902], Skv=[6902], su",
        "atten mask dim should be 2 or 4, but got 3",
        "Prefix mode get invalid atten_mask shape, should be [BNSS] or [B1SS].",
    ):
        assert _id(_fa(detail)) == "ARL-E6022", detail


def test_mask_dtype_is_not_e6022():
    # the mask's dtype, not its shape: DRV-op-params names the dtype
    assert _id(_fa("invalid attenMask dtype[DT_FLOAT16], only support bool or uint8.")) != "ARL-E6022"


# ARL-E6023 -----------------------------------------------------------------------------------------------------------

def test_sparse_tokens_leaving_empty_rows_are_e6023():
    for detail in (
        "PreTokens[-10] and nextTokens[-20] config error, there is no valid data block.",
        "nextTokens[-4096] config error, there is no valid data block.",
        "pre_tokens[-1] config error, has invalid data block.",
        "Batch[3] s1[2048] is larger than s2[1024], exist invalid row.",
        "Batch[0], s1[512], s2[256], next_tokens[0], has invalid row.",
        "Batch[1] s1[300] s2[200] has invalid row, check pre_tokens and next_tokens.",
        "Check pre_tokens and next_tokens failed.",
    ):
        assert _id(_fa(detail)) == "ARL-E6023", detail


def test_sparse_mode_out_of_range_is_not_e6023():
    # torch_npu's own range check on sparse_mode (ARL-E4246's reading)
    line = "The sparse_mode value must be in range of [0,6], but got 9"
    assert _id(_ops(line, "ERR01001 OPS invalid parameter")) != "ARL-E6023"


# ARL-E6024 -----------------------------------------------------------------------------------------------------------

def test_varlen_arguments_are_e6024():
    for detail in ("VarLen scene, q is not equal kv.", "Var len not support sparse mode 5."):
        assert _id(_fa(detail, op="aclnnFlashAttentionVarLenScore")) == "ARL-E6024", detail
    detail = "Layout BSND is not TND, invalid shape, please check"
    assert _id(_fa(detail, code="161002", op="aclnnFlashAttentionVarLenScore", tag="EZ1001")) == "ARL-E6024"


def test_tnd_without_seq_lens_is_not_e6024():
    # torch_npu's own check that TND has actual_seq_qlen / kvlen at all (ARL-E4246's reading)
    line = "For TND layout, actual_seq_qlen and actual_seq_kvlen must be provided and have same size"
    assert _id(_ops(line, "ERR01001 OPS invalid parameter")) != "ARL-E6024"


# ARL-E6025 -----------------------------------------------------------------------------------------------------------

def test_head_dim_limits_are_e6025():
    assert _id(_fa("dSize is not in range:(0, 512].")) == "ARL-E6025"
    for detail in ("Head dim must <= 768, but got 1024", "qD and kD should be same, but got qD=192 kD=128",
                   "only support kD >= vD, but got kD=24 vD=48"):
        text = f"{P}RuntimeError: call aclnnFlashAttentionScore failed, detail:EZ1001: [PID: 48213] 2026-12-01-10:07:41.633.868 {detail}\n"
        assert _id(text) == "ARL-E6025", detail


def test_fia_tnd_head_dim_is_not_e6025():
    # the inference kernel's TND head-dim rule has its own entry
    text = _fa("In TND situation, the query/key's head dim only support 512, but got 256",
               op="aclnnFusedInferAttentionScoreV3")
    assert _id(text) != "ARL-E6025"


# ARL-E6026 -----------------------------------------------------------------------------------------------------------

def test_infer_attention_gqa_ratio_is_e6026():
    for detail in (
        "numHeads(28) must be divisible by numKeyValueHeads(3)!",
        "numHeads / numKeyValueHeads = 96, cannot be larger than 64",
        "the query's heads num divided by the key/value's heads num = 96, cannot be greater than 64",
        "Attr num_key_value_heads is invalid, n: 28, the key/value's heads num: 3",
    ):
        assert _id(_fa(detail, op="aclnnFusedInferAttentionScoreV3")) == "ARL-E6026", detail


def test_verl_ulysses_heads_check_is_not_e6026():
    # verl's own Ulysses check before any kernel runs (ARL-E1291 reads it)
    line = "AssertionError: num_key_value_heads 4 must be divisible by ulysses_sp_size 8 or vise versa."
    assert _id(line + "\n") != "ARL-E6026"


# ARL-E6027 -----------------------------------------------------------------------------------------------------------

def test_grouped_matmul_group_list_is_e6027():
    assert _id(_ops("group_list[2] - group_list[1] should be larger than or equal to 0, but now is -317.")) == "ARL-E6027"
    assert _id(_ops("group_list[0] should be larger than or equal to 0, but now is -1.")) == "ARL-E6027"
    text = (f"{P}RuntimeError: call aclnnGroupedMatmulV4 failed, error code is 161002\n"
            f"{P}EZ1001: [PID: 48213] 2026-12-01-10:07:41.166.059 Invalid dtype: Only int64 is supported for groupList.\n")
    assert _id(text) == "ARL-E6027"


def test_grouped_matmul_old_cann_is_not_e6027():
    # a Tensor group_list on a CANN without aclnnGroupedMatmulV4 is a version problem (ARL-E338), not the list's content
    line = ("group_list don't support Tensor input with current cann version. Please update cann version to 8.0.RC3 "
            "or higher, or use List[int] as input.")
    assert _id(_ops(line, "ERR01007 OPS feature not supported")) != "ARL-E6027"


# ARL-E6028 -----------------------------------------------------------------------------------------------------------

def test_npu_fa2_sparse_mode_is_e6028():
    line = ("ValueError: Environment variable `NPU_FA2_SPARSE_MODE` can only be set as 2 (top-left aligned causal mask) "
            "or 3 (down-right aligned causal mask).")
    assert _id(P + line + "\n") == "ARL-E6028"


def test_other_env_value_error_is_not_e6028():
    line = "ValueError: Environment variable `VLLM_ATTENTION_BACKEND` is set to an invalid value: FLASH_ATTN_NPU"
    assert _id(P + line + "\n") != "ARL-E6028"


# ARL-E6029 -----------------------------------------------------------------------------------------------------------

def test_custom_ops_disabled_warning_is_e6029_and_not_fatal():
    text = f"{P}WARNING 12-02 08:13:05 [utils.py:243] Warning: Failed to register custom ops, all custom ops will be disabled\n"
    assert _id(text) == "ARL-E6029"
    entry = next(e for e in CATALOG.entries if e.id == "ARL-E6029")
    assert entry.fatal is False


def test_sleep_mode_vllm_ascend_c_is_not_e6029():
    # camem's own import warning has its own entry (ARL-E233, sleep mode unavailable)
    text = (f"{P}WARNING 12-02 08:13:05 [camem.py:67] Failed to import vllm_ascend_C:No module named "
            "'vllm_ascend.vllm_ascend_C'. Sleep mode will be disabled. \n")
    assert _id(text) != "ARL-E6029"


# ARL-E6030 -----------------------------------------------------------------------------------------------------------

def test_mc2_dispatch_ep_layout_is_e6030():
    for detail in (
        "moeExpertNum should be divisible by (epWorldSize - sharedExpertRankNum), but moeExpertNum=128, epWorldSize=6, "
        "sharedExpertRankNum=0.",
        "epWorldSize is invalid, only support [2, 768], but got epWorldSize=1.",
        "xDim0(BS) is invalid. Should be between [1, 512], but got xDim0=1024.",
    ):
        assert _id(_fa(detail, op="aclnnMoeDistributeDispatchV2")) == "ARL-E6030", detail


def test_mc2_hccl_buffsize_is_not_e6030():
    # the MC2 window too small for the batch is HCCL_BUFFSIZE's entry, not the EP layout
    detail = ("HCCL_BUFFSIZE is too SMALL, maxBs = 512, h = 7168, epWorldSize = 16, localMoeExpertNum = 16, "
              "ep_worldsize * maxBs * h * 2 * 2 * localMoeExpertNum = 3584MB, HCCL_BUFFSIZE=200MB.")
    assert _id(_fa(detail, op="aclnnMoeDistributeDispatchV2")) != "ARL-E6030"


# ARL-E387 widened --------------------------------------------------------------------------------------------------

def test_fusion_attention_qkv_dtypes_is_e387():
    text = (f"{P}RuntimeError: call aclnnFlashAttentionScore failed, detail:EZ1001: [PID: 48213] 2026-12-01-10:07:41.633.868 "
            "The data type of query[DT_FLOAT], key[DT_BFLOAT16], value[DT_BFLOAT16] are not equal.\n")
    assert _id(text) == "ARL-E387"


def test_fusion_attention_rope_dtypes_is_not_e387():
    # the MLA rope form wants every input in bf16: an operator's dtype support, not two operands disagreeing
    text = (f"{P}RuntimeError: call aclnnFlashAttentionScore failed, detail:EZ1001: [PID: 48213] 2026-12-01-10:07:41.633.868 "
            "The data type of query[DT_FLOAT16], queryRope[DT_FLOAT16], key[DT_FLOAT16], keyRope[DT_FLOAT16], "
            "value[DT_FLOAT16] should be BFloat16.\n")
    assert _id(text) != "ARL-E387"
