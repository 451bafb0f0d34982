"""Readings widened by helper k41op (2026-12-05) from the emitting projects' sources, each for a class of failure rather
than one thread's paste:

- An NPU operator's own check that a required input is null (hicann/ops-transformer op_host tiling / op_api OP_LOGE:
  "%s should not be null", "When D is 512, inputlayout %s q_rope and k_rope should not be null!", "query must not be
  nullptr.", "dropMask can not be nullptr"): the caller passed None for an input the operator needs in that mode
  (DRV-op-params, kind aclnn-param-unsupported). The runtime's own "Check param failed, context can not be null." under
  a device-open failure is not that class, nor is the phrase in a plain Python error with no operator around it.
- An operator's argument check refusing something because of the chip (ops-transformer / op-plugin / torch_npu: "Current
  Soc do not support …", "… is unsupported by the current SOC version [%s]", "… are not supported on Ascend310P Soc",
  "does not support Atlas300I platform", "Unsupported SocVersion." …): under whatever code carries it, the class is the
  chip lacking the feature (DRV-code kind op-unsupported-on-soc), and with bf16 named the chip lacking bf16
  (bf16-unsupported-on-device), not an input the caller should cast (aclnn-param-unsupported).
"""

from __future__ import annotations

import io
from pathlib import Path

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _result(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _top(text: str) -> dict:
    diagnoses = _result(text).to_json().get("diagnoses") or []
    return diagnoses[0] if diagnoses else {}


# torch_npu's error block (tests/explain/derived/op_param_unsupported_shape.log, vllm-omni#845) around an ops-nn /
# ops-transformer op_api null check, in the "must not be nullptr." wording (ops-transformer attention/nsa_selected_attention_grad/op_host/op_api/aclnn_nsa_selected_attention_grad.cpp).
MUST_NOT_BE_NULLPTR = """\
[rank0]:[E119 16:32:47.013946230 compiler_depend.ts:444] operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:1042 NPU function error: call aclnnNsaSelectedAttentionGrad failed, error code is 161001
[ERROR] 2026-01-19-16:32:47 (PID:10443, Device:0, RankID:0) ERR00100 PTA call acl api failed.
EZ1001: [PID: 10443] 2026-01-19-16:32:47.486.947 attentionOutGrad must not be nullptr.
"""

# The runtime's argument checks in the TraceBack of a device that failed to open (vllm-project/vllm-ascend#4284).
RUNTIME_CONTEXT_NULL = """\
RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:152 NPU function error: c10_npu::SetDevice(device_id_), error code is 507033
[ERROR] 2025-11-19-11:14:58 (PID:356, Device:0, RankID:-1) ERR00100 PTA call acl api failed
[Error]: Failed to start the device.
        Rectify the fault based on the error information in the ascend log.
E30006: 2025-11-19-11:14:58.516.606 Failed to verify the OPP
        Possible Cause: 1.The OPP is incorrect.
        Solution: 1. Use a correct OPP.
        TraceBack (most recent call last):
        Check param failed, dev can not be NULL![FUNC:PrimaryContextRetain][FILE:runtime.cc][LINE:3576]
        Check param failed, ctx can not be NULL![FUNC:PrimaryContextRetain][FILE:runtime.cc][LINE:3603]
        Check param failed, context can not be null.[FUNC:NewDevice][FILE:api_impl.cc][LINE:2375]
        New device failed, retCode=0x7010006[FUNC:SetDevice][FILE:api_impl.cc][LINE:2398]
"""


def test_operator_null_check_names_the_missing_input():
    top = _top((Path(__file__).parent / "derived" / "op_param_required_input_null.log").read_text())
    assert top.get("id") == "DRV-op-params"
    assert top.get("kind") == "aclnn-param-unsupported"
    assert "(q_rope and k_rope)" in top.get("title", "")


def test_must_not_be_nullptr_wording_is_the_same_class():
    top = _top(MUST_NOT_BE_NULLPTR)
    assert top.get("id") == "DRV-op-params", top.get("id")
    assert top.get("kind") == "aclnn-param-unsupported"
    assert "attentionOutGrad" in top.get("title", "")


def test_runtime_context_null_under_device_open_is_not_an_operator_input():
    top = _top(RUNTIME_CONTEXT_NULL)
    assert top.get("id") != "DRV-op-params"
    assert top.get("kind") != "aclnn-param-unsupported"


def test_phrase_without_an_operator_is_not_read():
    text = "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    load(cfg)\nValueError: reward_fn should not be null\n"
    assert _top(text).get("id") != "DRV-op-params"


def _ez1001(message: str) -> str:
    """The AclNN_Parameter_Error(EZ1001) shape of a real paste (vllm-project/vllm-ascend#17030) around a check's message."""
    return f"AclNN_Parameter_Error(EZ1001): {message}\n"


# The checks' own messages (hicann/ops-transformer c29bc106 op_host / op_api, Ascend/op-plugin 517f2e7d, torch_npu 9e73e708),
# the format arguments filled in.
SOC_REFUSALS = (
    "Current Soc do not support quantScaleOptional or quantOffsetOptional",
    "current soc does not support non aligned calculations.",
    "This socversion not support antiquant scale dtype int64/uint64",
    "Weight NZ is unsupported by the current SOC version [Ascend310P3].",
    "customize_dtype is not supported by the current soc version.",
    "SOC Version[Ascend310P3] is not support.",
    "Unsupported SocVersion.",
    "aclnnFFNGetWorkspaceSize and aclnnFFN are not supported on Ascend310P Soc. Please use aclnnFFNV2GetWorkspaceSize and aclnnFFNV2!",
    "Only float16 is supported on Ascend310P platforms.",
    "Activation is not supported on Ascend310P platforms.",
    "does not support Atlas300I platform",
    "Not support 910B platform.",
    "ascend310p platform do not support batch size(256) more than 128.",
    "npu_mla_prolog not support on this soc version, please use npu_mla_prolog_v3",
)


def test_soc_refusals_read_as_the_chip_lacking_the_feature():
    for message in SOC_REFUSALS:
        top = _top(_ez1001(message))
        assert top.get("kind") == "op-unsupported-on-soc", (message, top.get("id"), top.get("kind"))


def test_soc_refusal_naming_bf16_is_the_chip_lacking_bf16():
    for message in ("Bfloat16 is unsupported by the current SOC version [Ascend310P3], self is DT_BFLOAT16, mat2 is DT_BFLOAT16",
                    "The soc version does not support bf16 / fp32 for calculations, please change the setting of cubeMathType"):
        top = _top(_ez1001(message))
        assert top.get("kind") == "bf16-unsupported-on-device", (message, top.get("kind"))
        assert "float16" in " ".join(top.get("fix") or ()), top.get("fix")


def test_an_argument_check_without_the_chip_stays_an_argument_check():
    top = _top(_ez1001("the dtype of x2 must be in dtype support list [DT_INT8], actual is DT_FLOAT16."))
    assert top.get("kind") == "aclnn-param-unsupported", top.get("kind")
    assert top.get("id") == "DRV-op-params"


def test_dtype_not_supported_names_the_input_not_a_verb():
    top = _top(_ez1001("the input dtype is not supported, self dtype is DT_INT64."))
    assert "is's" not in top.get("title", ""), top.get("title")
