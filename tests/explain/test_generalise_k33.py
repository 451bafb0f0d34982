"""Readings from the leave-thread-out misses (stop 33, k33), each from the emitter's source.

PaddleCustomDevice reports a failed ACL call as " ACL error, the error code is : N. " (PADDLE_ENFORCE_NPU_SUCCESS,
backends/npu/kernels/funcs/npu_enforce.h build_npu_error_msg): the code reader now reads the code after "is :" (and the HcclResult the same macro prints as " HCCL error, the error code
is : N. "). Every
operator it runs goes through NpuOpRunner::Run -> aclopCompileAndExecute (npu_op_runner.cc), so a Graph Engine failure
(500002) there, or a catch-all 500001 beside the runner or Paddle's "[operator < X > error]", is the operator's online
compile failing (op-compile-failed), as ARL-E1561 reads the same call in onnxruntime's CANN EP. No catalog entry names
these lines; the analyzer alone answers.

The CANN runtime's own words for a call refused under ACL graph capture ("Not allow to synchronize captured-stream",
api_error.cc; FuncErrorReason's "stream is captured", error_message_manage.cc) pasted without the code it returned are
read by cannrt.CaptureRefused. nnopbase's regInfo check ("Get regInfo failed, The binary_info_config.json of socVersion
[Y] does not support opType [X]", indv_executor_ext.cpp) inside op-plugin's "call aclnnX failed, detail:" is the SoC
lacking the operator, narrower than ARL-E331's rejected call (its refined_by), also when a title cut the message.
"""

from __future__ import annotations

import pytest

from ascendrl.catalog.codes import extract

OWN = ("ARL-E405",)  # the entry for the SoC-lacks-the-op message (the analyzers alone must name the rest)


@pytest.mark.parametrize("line, code", [
    ("OSError: (External) ACL error, the error code is : 507033", "507033"),
    ("ExternalError:  ACL error, the error code is : 500002.  (at /x/backends/npu/kernels/funcs/npu_op_runner.cc:626)", "500002"),
    # the same macro on an HcclResult
    ("ExternalError:  HCCL error, the error code is : 7.  (at /x/backends/npu/runtime/runtime.cc:900)", "hccl:7"),
    # the forms read before stay read
    ("RuntimeError: call aclnnArange failed, error code is 561103", "561103"),
    ("aclrtSetDevice failed, ret = 507033", "507033"),
])
def test_the_code_after_paddles_is_colon_is_read(line, code):
    assert code in extract(line)


@pytest.mark.parametrize("text", [
    # PaddleOCR on paddle-custom-npu: the hard_swish operator's compile-and-execute (PaddleOCR issue 11337's shape)
    ("ExternalError:  ACL error, the error code is : 500002.  (at /codes/PaddleCustomDevice/backends/npu/kernels/funcs/"
     "npu_op_runner.cc:626)\n      [operator < hard_swish > error]\n"),
    # the same failure as Paddle's Python wrapper raises it, without the place
    "OSError: (External) ACL error, the error code is : 500002\n",
    # a catch-all 500001 with the operator Paddle names
    ("ExternalError:  ACL error, the error code is : 500001.  (at /home/paddle/PaddleCustomDevice/backends/npu/kernels/funcs/"
     "npu_op_runner.cc:626)\n  [operator < conv2d > error]\n"),
])
def test_paddles_acl_error_from_the_op_runner_is_an_online_compile_failure(explain_without, text):
    assert explain_without(text) == ("DRV-code", "op-compile-failed")


@pytest.mark.parametrize("text, not_kind", [
    # a catch-all 500001 with no sign of the op runner stays a bare code
    ("OSError: (External) ACL error, the error code is : 500001\n", "op-compile-failed"),
    # another code in Paddle's form is that code, not a compile failure
    ("OSError: (External) ACL error, the error code is : 507033\n", "op-compile-failed"),
    # 500002 from torch_npu (graph mode), not Paddle's op runner
    ("RuntimeError: NPU function error: aclmdlExecute, error code is 500002\n", "op-compile-failed"),
])
def test_near_misses_are_not_named_so(explain_without, text, not_kind):
    _, kind = explain_without(text)
    assert kind != not_kind


# --- the runtime's capture refusal pasted without its code (cannrt.CaptureRefused) ---------------------------------


@pytest.mark.parametrize("text", [
    "一直报错Not allow to synchronize captured-stream, stream_id=35.\n",
    "RuntimeError: rtStreamSynchronizeWithTimeout execute failed, reason=[stream is captured]\n",
    "RuntimeError: synchronized memcpy failed: the current capture mode does not support this operation.\n",
])
def test_a_capture_refusal_without_its_code_is_named(explain_without, text):
    assert explain_without(text) == ("DRV-rt-capture-refused", "aclgraph-capture-failed")


def test_with_its_code_the_code_reader_answers(explain_without):
    # the runtime's report with the code it returned: DRV-code reads the same words (codes.CONTEXT_KINDS)
    text = ("RuntimeError: ACL stream synchronize failed, error code:107027\n"
            "EE9999: Inner Error!\n"
            "EE9999: [PID: 6956] 2025-11-03-13:19:43.628.317 Not allow to synchronize captured-stream, stream_id=9."
            "[FUNC:StreamSynchronize][FILE:api_error.cc][LINE:960]\n")
    assert explain_without(text)[1] == "aclgraph-capture-failed"
    assert explain_without(text)[0] != "DRV-rt-capture-refused"


def test_other_capture_words_are_not_a_refusal(explain_without):
    _, kind = explain_without("RuntimeError: Graph capturing failed: out of memory while capturing 67 sizes\n")
    assert kind != "aclgraph-capture-failed"


# --- CANN's words that the SoC lacks the operator, inside an aclnn call's detail (ARL-E331 refined by them) ----------

SOC_LACKS = ("RuntimeError: call aclnnAddRmsNormBias failed, detail:[PID: 106010] 2026-05-12-19:33:40.020.657 "
             "AclNN_Parameter_Error(EZ1001): Get regInfo failed, The binary_info_config.json of socVersion [ascend910b] "
             "does not support opType [AddRmsNormBias].\n")


@pytest.mark.parametrize("text", [
    SOC_LACKS,
    # an issue title GitHub cut inside the socVersion (vllm-ascend#11519's shape): the regInfo check's opening is its own
    ("RuntimeError: call aclnnAddRmsNormBias failed, detail:[PID: 364676] 2026-07-07-09:36:12.120.702 "
     "AclNN_Parameter_Error(EZ1001): Get regInfo failed, The binary_info_config.json of socVersion [asc\n"),
])
def test_the_soc_lacking_the_op_outranks_the_call_wrapper(explain_without, text):
    # ARL-E405 (the entry for this message) and the threads' own entries left out: DRV-code's context class names it
    assert explain_without(text) == ("DRV-code", "op-unsupported-on-soc")


def test_the_call_wrapper_still_names_a_plain_rejection(explain_without):
    text = ("RuntimeError: call aclnnMatmul failed, detail:EZ1001: [PID: 1] 2026-01-01-00:00:00.000.000 "
            "self and mat2 must have the same dtype\n")
    assert explain_without(text)[0] != "DRV-code" or explain_without(text)[1] != "op-unsupported-on-soc"
