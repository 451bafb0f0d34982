"""Forms of operator, device and dtype failures read from the emitting sources, not from one thread.

- The runtime's reason string for an AI Core / vector core fault in each way it prints it (errcode_manage.cc reasons
  under PreCheckTaskErr's "retCode=%#x, [%s]", Stream Synchronize, FuncErrorReason's "reason=%s", bracketed or bare).
- opbase's full ACLNN_ERR_INNER_* table (561101-561119) and the driver's registered EL0002 / EL0005: the class each
  code names, not a bare decoded code.
- bf16 refused up front by accelerate and by torch.autocast, as transformers and vLLM refuse it.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text", [
    "       Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1497]",
    "[ERROR] RUNTIME(7,python):2026-01-01-00:00:00.000.000 [stream.cc:1742]7 Stream Synchronize failed, stream_id=2, retCode=0x31, [vector core exception].",
    "        rtStreamSynchronize execute failed, reason=[vector core exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
    "        rtStreamSynchronize execution failed, reason=aicore exception[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:69]",
    "        Kernel task happen error, retCode=0x2a, [aicore trap exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1497]",
])
def test_the_runtime_reason_for_a_core_fault_names_the_aicore_exception(explain_text, text):
    result, top = explain_text("EZ9999: Inner Error!\n        TraceBack (most recent call last):\n" + text + "\n")
    assert top is not None and top.entry.id == "ARL-E330", [(d.entry.id, d.kind) for d in result.diagnoses]


def test_another_reason_is_not_a_core_fault(explain_text):
    result, top = explain_text("EZ9999: Inner Error!\n        TraceBack (most recent call last):\n"
                               "        rtStreamSynchronize execution failed, reason=aicpu exception[FUNC:FuncErrorReason]\n")
    assert top is None or top.entry.id != "ARL-E330", [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("code, kind", [
    ("561101", "aclnn-inner-error"), ("561104", "aclnn-inner-error"), ("561116", "aclnn-inner-error"),
    ("561119", "aclnn-inner-error"), ("561112", "op-no-binary"),
    ("561107", "cann-env-not-sourced"),  # unchanged: the environment, not the operator
    ("561000", "code-561000"),  # unchanged: the bare inner error stays the decoded code
])
def test_every_aclnn_inner_code_has_its_class(explain_text, code, kind):
    result, top = explain_text("RuntimeError: run:torch_npu/csrc/framework/OpCommand.cpp:14 NPU function error: "
                               f"call aclnnFoo failed, error code is {code}\n")
    assert top is not None and top.kind == kind, [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("lines, kind", [
    (["Call aclrtSetDevice(device->id) failed : 507033 at file runtime.cc line 430",
      "EL0002: 2024-10-22-11:56:14.885.664 The device ID is invalid.",
      "        TraceBack (most recent call last):",
      "        Failed to open device, retCode=0x7020013, deviceId=0.[FUNC:InitRawDriver][FILE:device.cc][LINE:278]"],
     "invalid-visible-device"),
    (["[ERROR] RecentErrMsg: [PID: 3] 2026-06-24-16:04:09.980.816 Resource_Busy(EL0005): The resources are busy.",
      "        Possible Cause: 1. The resources have been occupied. 2. The device is being reset. 3. Software is not ready."],
     "dcmi-device-occupied"),
])
def test_the_drivers_registered_device_codes_name_their_class(explain_text, lines, kind):
    result, top = explain_text("\n".join(lines) + "\n")
    assert top is not None and top.kind == kind, [(d.entry.id, d.kind) for d in result.diagnoses]


def test_another_driver_code_keeps_its_decoded_code(explain_text):
    result, top = explain_text("EL0003: 2024-10-22-11:56:14.885.664 The argument is invalid.\n")
    assert top is None or top.kind not in ("invalid-visible-device", "dcmi-device-occupied"), [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("line, entry_id", [
    # bf16 refused up front names the device (accelerate's and torch.autocast's refusals)
    ('ValueError: bf16 mixed precision requires PyTorch >= 1.10 and a supported device.', "ARL-E337"),
    ("RuntimeError: Current CUDA Device does not support bfloat16. Please switch dtype to float16.", "ARL-E337"),
    # loss scaling at its minimum is fp16 overflow (DeepSpeed, fairseq)
    ("Exception: Current loss scale already at minimum - cannot decrease scale anymore. Exiting run.", "ARL-E730"),
    ("FloatingPointError: Minimum loss scale reached (0.0001). Your loss is probably exploding. Try lowering the learning rate, "
     "using gradient clipping or increasing the batch size.", "ARL-E730"),
    # a device used after fork is one class on NPU and GPU
    ("RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with multiprocessing, you must use the 'spawn' start method", "ARL-E380"),
    ("RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method", "ARL-E380"),
])
def test_a_line_of_the_class_names_its_entry(explain_text, line, entry_id):
    result, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == entry_id and top.fatal, [(d.entry.id, d.kind) for d in result.diagnoses]


def test_fp16_under_accelerate_is_not_the_bf16_class(explain_text):
    result, top = explain_text("ValueError: fp16 mixed precision requires a GPU (not 'mps').\n")
    assert top is None or top.entry.id != "ARL-E337", [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("line", [
    "[2024-01-01 00:00:00,000] [INFO] [loss_scaler.py:183:update_scale] [deepspeed] OVERFLOW! Rank 0 Skipping step. "
    "Attempted loss scale: 65536, reducing to 32768",
    "2020-03-23 11:41:18 | INFO | fairseq.trainer | NOTE: overflow detected, setting loss scale to: 0.00048828125",
])
def test_a_skipped_overflow_step_is_no_failure(explain_text, line):
    # dynamic loss scaling handles single overflows by design: only the minimum reached stops the run
    result, _ = explain_text(line + "\n")
    assert not result.fatal, (result.diagnoses, result.unknown)
