"""Operator / device / CANN-environment classes widened or named in session 19 (kcls).

- ARL-E405 (widened): CANN's registered Unsupported_Operator messages, EZ3002 ('Optype [X] of Ops kernel [Y] is
  unsupported. Reason: ...') and EZ3003 ('No supported Ops kernel and engine are found for [X], optype [Y]'), moved
  from ARL-E331: the running SoC's operator information library has no entry for the op (or none for its format and
  dtype), the operator-not-for-this-SoC class; E331 keeps the kernel-binary lookups of the aclnn path. Also
  torch_npu's op-plugin refusing an interface on the running chip ('not support on this soc version', 'no longer
  supported on Ascend950', 'supported only on the Ascend950 platform and after').
- ARL-E1430: a build's own SoC auto-detection failed (llama.cpp's CANN CMake, vllm-ascend's setup.py): npu-smi
  missing or unreadable where the build ran, or a chip name the script has no rule for; set SOC_VERSION / SOC_TYPE.
  The runtime's aclInit 'init soc version failed' (its own causes: device busy, stub HAL) and vllm-ascend's
  unsupported-chip checks (ARL-E235) are not it.
- ARL-E910 (widened): MindIE's atb_llm has the model_type's folder but no module for the checkpoint's variant
  (No module named 'atb_llm.models.<type>.flash_causal_<type>_v2'): this MindIE release does not support the model.
  atb_llm itself or its utilities missing (an install or PYTHONPATH matter) are not it.
"""

from __future__ import annotations

import pytest

from conftest import top_of


@pytest.mark.parametrize("text, entry_id", [
    # EZ3002 as torch_npu's error block prints it under a vLLM engine (code in parentheses, message after it)
    ("[PID: 1255038] 2025-11-26-11:43:03.835.873 Unsupported_Operator(EZ3002): Optype [TransData] of Ops kernel "
     "[AIcoreEngine] is unsupported. Reason: [tbe-custom]:op type TransData is not found in this op store.", "ARL-E405"),
    # EZ3002 with the code first, as the CANN report's header line
    ("EZ3002: [PID: 2116992] 2026-07-08-02:38:38.087.548 Optype [TransData] of Ops kernel [AIcoreEngine] is unsupported. "
     "Reason: [Dynamic shape check]: The format and dtype is not precisely equivalent to format and dtype in op "
     "information library.", "ARL-E405"),
    # EZ3003 as ATC and an issue title quote it
    ("EZ3003: No supported Ops kernel and engine are found for [AddDsl], optype [AddDsl].", "ARL-E405"),
    ("昇腾310p部署报错No supported Ops kernel and engine are found for [ResizeD154], optype [ResizeD].", "ARL-E405"),
    # the entry's own forms still read as before
    ("Op MoeDistributeDispatchV2 not support soc version ascend950", "ARL-E405"),
    ("Get regInfo failed, The binary_info_config.json of socVersion [ascend910] does not support opType "
     "[ApplyRotaryPosEmb].", "ARL-E405"),
    # torch_npu's operator library refusing an interface of another chip generation
    ("RuntimeError: npu_mla_prolog_v2 not support on this soc version, please use npu_mla_prolog_v3\n"
     "[ERROR] 2026-03-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01007 OPS feature not supported", "ARL-E405"),
    ("RuntimeError: Interface npu_prompt_flash_attention is no longer supported on Ascend950.", "ARL-E405"),
    ("RuntimeError: _scaled_mm is supported only on the Ascend950 platform and after.", "ARL-E405"),
    # llama.cpp's CANN backend configure step, on one line as an issue title quotes it
    ("CMake Error: Auto-detech ascend soc type failed, please specify manually or check ascend device working "
     "normally.", "ARL-E1430"),
    # vllm-ascend setup.py: the chip name npu-smi printed has no rule, and 0.11's build step without SOC_VERSION
    ("ValueError: Unable to recognize chip name: Ascend910, please manually set env SOC_VERSION", "ARL-E1430"),
    ("ValueError: SOC version is not set. Please set SOC_VERSION environment variable.", "ARL-E1430"),
    # MindIE's model wrapper logging the router's failed import of a model variant's module
    ("[2025-08-25 09:34:12.025+0800] [63670] [281459881996512] [batchscheduler] [ERROR] [model.py:61] : [Model]\t>>> "
     "Exception:No module named 'atb_llm.models.qwen2_moe.flash_causal_qwen2_moe_v2'", "ARL-E910"),
    ("ModuleNotFoundError: No module named 'atb_llm.models.deepseekv2.config_deepseekv2'", "ARL-E910"),
])
def test_each_form_names_its_class(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text + "\n")
    assert top == entry_id, seen


@pytest.mark.parametrize("text, entry_id", [
    # the aclnn kernel-binary lookup stays ARL-E331 (kernels package missing or older), not the SoC entry
    ("EZ9999: Inner Error! Op AddRmsNormQuant does not has any binary.", "ARL-E405"),
    # an operator without an NPU kernel that torch_npu runs on the CPU is a warning of its own (ARL-E335)
    ("[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently "
     "supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. "
     "(function npu_cpu_fallback)", "ARL-E405"),
    # GE's other operator messages (a compile failure) are not the op store's gap
    ("E40021: Failed to compile Op [trans_Cast_2,]. (oppath: [Compile /usr/local/Ascend/ascend-toolkit/8.3.RC2/opp/"
     "built-in/op_impl/ai_core/tbe/impl/dynamic/cast.py failed", "ARL-E405"),
    # op-plugin's warning that foreach copy falls back from memcpyBatch (ASCEND_LOGW) refuses no operator
    ("[W] The current situation does not support the use of the memcpyBatch interface in the foreach copy interface."
     "There may be the following reasons:1.SOC version is not supported; 2.CANN version is not supported;", "ARL-E405"),
    # aclInit's own SoC read failing is the runtime's report (device busy, stub HAL), not a build's detection
    ("        [Init][Version]init soc version failed, ret = 507008[FUNC:ReportInnerError][FILE:log_inner.cpp]"
     "[LINE:145]", "ARL-E1430"),
    # vllm-ascend refusing a chip it knows but does not support is ARL-E235
    ("RuntimeError: Can not support soc_version: 104", "ARL-E1430"),
    # atb_llm itself, or its utilities, missing is an install / PYTHONPATH matter, not an unsupported model
    ("ModuleNotFoundError: No module named 'atb_llm'", "ARL-E910"),
    ("ModuleNotFoundError: No module named 'atb_llm.utils.env'", "ARL-E910"),
])
def test_near_misses_are_not_the_class(explain_text, text, entry_id):
    _, seen = top_of(explain_text, text + "\n")
    assert all(entry != entry_id for entry, _ in seen), seen


def test_the_aclnn_binary_lookup_stays_e331(explain_text):
    top, seen = top_of(explain_text, "EZ9999: Inner Error! Op AddRmsNormQuant does not has any binary.\n")
    assert top == "ARL-E331", seen


@pytest.mark.parametrize("text", [
    # a configure that detected the chip, and vllm-ascend's warning when SOC_VERSION and npu-smi disagree
    "-- CANN: SOC_VERSION auto-detected is:Ascend910B3\n-- CANN: SOC_VERSION =  ascend910b3\n",
    "WARNING:root:env SOC_VERSION: ascend910b1 is not equal to soc_version from npu-smi: ascend910b3\n",
])
def test_a_build_that_found_its_chip_is_not_fatal(explain_text, text):
    result, _ = explain_text(text)
    assert not result.fatal, [(d.entry.id, d.excerpt) for d in result.diagnoses]
