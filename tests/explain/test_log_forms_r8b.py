"""Log forms from the round-8 dev misses (device, hccl, operator, verl-config share) that known classes now name (issue #10).

Each is a known class in a paste the engine or a signature did not read: a strerror quoted lower-case in prose,
torch's fixed CUDA message quoted in a title, triton-ascend's compile error summarised with its stage.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text", [
    "the job that starts later reports an “address already in use” error.\n",
    "second server fails with 'address already in use'\n",
    'rollout: "too many open files" after a day\n',
])
def test_a_lower_cased_strerror_quoted_in_prose_is_the_os_error(explain_text, text):
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "DRV-oserror", text
    assert top.kind in ("eaddrinuse", "emfile")


def test_prose_that_names_a_strerror_unquoted_stays_quiet(explain_text):
    result, _ = explain_text("INFO tip: address already in use errors mean another job holds the port\n")
    assert not result.fatal


@pytest.mark.parametrize("text", [
    "Ascend 910B上GRPO + vLLM server报错：'Torch not compiled with CUDA enabled'\n",
    'vLLM server on 910B: "Torch not compiled with CUDA enabled"\n',
])
def test_torchs_cuda_message_quoted_in_a_title_is_a_cuda_call_on_npu(explain_text, text):
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E012"


def test_triton_ascends_compile_error_summarised_with_its_stage(explain_text):
    _, top = explain_text("triton.compiler.errors.MLIRCompilationError  (stage ConvertTritonIRToLinalgIR)\n")
    assert top is not None and top.entry.id == "ARL-E403"
    result, _ = explain_text("INFO triton.compiler.errors.MLIRCompilationError is exported by the package\n")
    assert not any(d.entry.id == "ARL-E403" for d in result.diagnoses)


def test_the_drivers_resource_occupied_code_is_a_device_held_elsewhere(explain_text):
    # a CANN component's plog line for a driver call that failed, with the driver's drvError_t
    line = ("[ERROR] ATRACE(618,python3):2025-03-06-01:09:06.981.451 [trace_driver_api.c:56](tid:618) "
            "get platform info failed, drvErr=87.\n")
    _, top = explain_text(line)
    assert top is not None and top.kind == "dcmi-device-occupied"
    assert "DRV_ERROR_RESOURCE_OCCUPIED" in top.entry.title
    # a driver code the table does not decode, or one not reported as a failure, names no device-occupied cause
    for other in ("[ERROR] ATRACE(1,python3): get platform info failed, drvErr=7.\n", "INFO drvErr=87 handler registered\n"):
        result, top = explain_text(other)
        assert not any(d.kind == "dcmi-device-occupied" for d in result.diagnoses), other


def test_any_cann_modules_inner_error_ranks_below_the_aclnn_code_of_the_failed_call(explain_text):
    # E29999 is the fusion engine's "Inner Error!", a catch-all like EZ9999: the aclnn code of the call names the class
    text = ("RuntimeError: NPUModelRunner failed, error is npu_fused_infer_attention_score_symint:build/CMakeFiles/torch_npu.dir/"
            "compiler_depend.ts:415 NPU function error: call aclnnFusedInferAttentionScoreV3 failed, error code is 561002\n"
            "[ERROR] 2026-04-13-12:29:42 (PID:464, Device:1, RankID:-1) ERR00100 PTA call acl api failed.\n"
            "E29999: Inner Error!\n"
            "E29999[PID: 464] 2026-04-13-12:28:25.885.371 (E29999):  [InitOpInfoLib][InitOpKernel] Inconsistent format size [1] "
            "and data type size [2]![FUNC:InitUnknownFormatAndDtype][FILE:op_kernel_info_constructor.cc][LINE:959]\n")
    _, top = explain_text(text)
    assert top is not None and top.kind == "op-tiling-failed"  # 561002 ACLNN_ERR_INNER_TILING_ERROR
    _, alone = explain_text("E29999: Inner Error!\n")
    assert alone is not None and alone.kind == "code-E29999"



@pytest.mark.parametrize("line", [
    "training_batch_size must be greater than ppo_mini_batch\n",  # a report restating verl's check (FoldAgent#13)
    "train_batch_size (16) must be >= actor.ppo_mini_batch_size (32)\n",  # verl's ValueError pasted without its type
    "ppo_mini_batch_size (64) must be divisible by ppo_micro_batch_size (3)\n",
])
def test_a_batch_size_check_pasted_without_its_type_is_a_verl_batch_config(explain_text, line):
    _, top = explain_text(line)
    assert top is not None and (top.entry.id in ("ARL-E104", "ARL-E143") or top.kind == "verl-batch-config"), line


def test_a_batch_key_that_must_merely_be_set_is_no_failure(explain_text):
    result, _ = explain_text("ppo_micro_batch_size_per_gpu must be set when use_dynamic_bsz is off (see the docs)\n")
    assert not result.fatal
