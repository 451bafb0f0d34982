"""Log forms of OS, operator and HCCL failures that knowledge from one thread must not be needed to read.

Each case is a form the engine reads generally (an errno by its symbolic name, strerror's text alone or quoted in
a Chinese sentence, torch_npu's failed aclnn call with CANN's report on the same line, CANN's registered
argument-check codes), so that a failure of a known class is named whatever thread it comes from.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("line, kind", [
    ("EADDRINUSE (-98) error when setting up NCCL communicator", "eaddrinuse"),  # a syscall's return, as C code writes it
    ("accept() failed: EMFILE (-24)", "emfile"),
    ("No space left on device", "enospc"),  # strerror's text alone: the whole paste
    ('多机 prefill 启动报 MessageQueue ZMQ bind "Address already in use"（shm_broadcast.py）', "eaddrinuse"),
    ("保存 checkpoint 时报错「Disk quota exceeded」", "edquot"),
])
def test_an_os_error_without_its_type_or_number(explain_text, line, kind):
    result, top = explain_text(line + "\n")
    assert top is not None and top.kind == kind and top.fatal, (result.diagnoses, result.unknown)


@pytest.mark.parametrize("line", [
    "WARNING 03-01 10:00:00 [utils.py:12] port 29500 busy: EADDRINUSE (-98) error, retrying with another port",
    "INFO: Too many open files in the watcher, closing idle handles",
    "EADDRINUSE (-98)",  # a name and number alone do not say anything failed
    '用户问："No space left" 是什么意思',  # a quote that is no complete message
])
def test_a_handled_or_incomplete_os_error_is_no_failure(explain_text, line):
    result, _ = explain_text(line + "\n")
    assert not result.fatal, (result.diagnoses, result.unknown)


ACLNN = "call aclnnQuantMatmulV4 failed, detail:EZ0019: [PID: 7] Parameter scale of aclnnQuantMatmulV4 has incorrect dtype DT_FLOAT16. It should be DT_BFLOAT16."


@pytest.mark.parametrize("line", [
    f"RuntimeError: {ACLNN}",
    # a serving framework's logger quoting the error without its type
    f"2025-09-15 05:12:52,285 serve.worker 13 ERROR    [request 1] load failed, error: [address=1:2, pid=7] {ACLNN}",
])
def test_the_cann_report_on_the_failed_call_line_is_its_cause(explain_text, line):
    # op-plugin prints CANN's report after "detail:"; on one line it is still the cause, the call its consequence
    result, top = explain_text(line + "\n")
    ranked = [(d.entry.id, d.demoted_by) for d in result.diagnoses]
    assert top.entry.id == "DRV-op-params" and top.kind == "quant-rollout-dtype", ranked
    assert ("ARL-E331", "DRV-op-params") in ranked, ranked


def test_inner_error_on_the_call_line_keeps_the_call_entry(explain_text):
    # "detail:EZ9999: Inner Error!" says nothing yet: the report's text follows below, read as before
    result, top = explain_text("RuntimeError: call aclnnCast failed, detail:EZ9999: Inner Error!\n"
                                          "EZ9999: 2024-05-17-18:46:14.721.067  Op Cast does not has any binary.\n")
    assert top.entry.id == "ARL-E331", [(d.entry.id, d.demoted_by) for d in result.diagnoses]


@pytest.mark.parametrize("line, analyzer", [
    # CANN's registry titles these argument checks (Not_Supported_Data_Type, Invalid_Input_Shape): the class, whatever the words
    ("EZ1006: Operator Gather does not support data type DT_DOUBLE. The supported data type range is [DT_FLOAT].", "DRV-code"),
    ("EZ0001: OP[Reshape] 0th input has incorrect shape[: 3,4], it should be[: 12].", "DRV-code"),
    # a free-text reason under a registered argument code that speaks of a dtype
    ("RuntimeError: call aclnnMatmul failed, detail:EZ1001: [PID: 1] when x1 dtype is float16, out dtype should be float16", "DRV-op-params"),
])
def test_a_registered_argument_check_is_an_operator_rejecting_its_input(explain_text, line, analyzer):
    result, top = explain_text(line + "\n")
    assert (top.entry.id, top.kind) == (analyzer, "aclnn-param-unsupported"), [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("line, kind", [
    # the code's own name says the class (ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR; HCCL's registered Transport init error,
    # Resource_Error; HCCP's "The network port is down"; the runtime's capture-mode code)
    ("RuntimeError: synchronize: NPU function error: AclrtSynchronizeStreamWithTimeout(stream()), error code is 507054", "hbm-ecc-fault"),
    ("EI0009: [PID: 1] 2025-09-24-20:59:48.119.066 Transport init error. Reason: [Create][DestLink]Create Dest error!", "hccl-transport-init-failed"),
    ("EI0011: [PID: 1] 2025-09-24-20:59:48.119.066 Failed to allocate [1048576] bytes of NPU memory.", "hccl-resource-exhausted"),
    ("EJ0002: [PID: 1] 2025-09-24-20:59:48.119.066 The network port is down.Suggest: check the link", "hccl-nic-down"),
    ("RuntimeError: capture_end: NPU function error: c10_npu::acl::AclmdlRICaptureEnd(capture_stream_, &model_ri_), error code is 107036",
     "aclgraph-capture-failed"),
])
def test_a_code_whose_name_is_a_class(explain_text, line, kind):
    result, top = explain_text(line + "\n")
    assert kind in [d.kind for d in result.diagnoses if d.fatal][:2], [(d.entry.id, d.kind) for d in result.diagnoses]


def test_hccl_init_failure_cut_before_its_code(explain_text):
    # torch_npu's HCCL_CHECK_ERROR message as a paste cut before ", error code is N"
    line = ("RuntimeError: create:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:89 HCCL function error: "
            "HcclCommInitRootInfo(numRanks, &rootInfo, rank, &(comm->hcclComm_))")
    result, top = explain_text(line + "\n")
    assert top.entry.id == "ARL-E324", [(d.entry.id, d.kind) for d in result.diagnoses]
