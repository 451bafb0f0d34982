"""Round-11 dev misses of the operator / device / CANN-environment families, generalised (session 13, helper r11b):
the boundaries of each mechanism on pastes written here."""

from __future__ import annotations

import pytest

from ascendrl.catalog.similar import THRESHOLD, Example, Index, error_codes, load_index


def test_a_resemblance_carrying_another_error_code_is_not_close_enough():
    # Numbers are no words: without the codes as features "error code is 561000" and "error code is 107002" are
    # identical (similarity 1.0), although the code is all either line says.
    other = Example("a", "https://example.invalid/a", "npu-device-not-set", None, "", "device", ("error code is 107002",))
    same = Example("b", "https://example.invalid/b", "aclnn-inner-error", None, "", "operator", ("OPS function error: <*>, error code is 561000",))
    query = ["OPS function error: <*>, error code is 561000"]
    found = Index([other, same]).nearest(query)
    assert found is not None and found[0].label == "aclnn-inner-error" and found[1] >= THRESHOLD
    # in the shipped index, where the codes are rare words and "error code is" a common phrase, the code decides
    found = load_index().nearest(["error code is 561000"], ("https://github.com/flashserve/flash-linear-attention-npu/issues/174",))
    assert found is None or found[1] < THRESHOLD or "561000" in " ".join(found[0].lines)
    # the rest of a long line still carries a resemblance across codes
    a = "RuntimeError: operator():<*> NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is "
    found = Index([Example("c", "https://example.invalid/c", "x", None, "", "operator", (a + "507035",))]).nearest([a + "507048"])
    assert found is not None and found[1] >= THRESHOLD


def test_error_codes_leave_os_errnos_out():
    assert error_codes(["error code is 561000", "open device 3 failed, runtime result = 107001"]) == {"561000", "107001"}
    assert error_codes(["OSError: [Errno 28] No space left on device (errno: 28 - x)"]) == frozenset()


def test_torch_npus_ops_check_pasted_alone_is_a_failure_of_its_own(explain_text):
    _, top = explain_text("InnerRun:torch_npu/csrc/framework/OpParamMaker.cpp:287 OPS function error: aclnnFoo, error code is 561002\n")
    assert top is not None and top.entry.id == "DRV-code" and "561002" in top.entry.title


def test_the_ops_check_words_without_a_failure_code_are_not_a_failure(explain_text):
    # a success-range number is no ACL code: nothing fatal from the prefix alone
    result, top = explain_text("OPS function error: aclnnFoo, error code is 0\n")
    assert top is None or top.entry.id != "DRV-code"


@pytest.mark.parametrize("tail,named", [
    ("[op_run_context.h:167][NNOP][Tiling] errno[561000] OpName:[aclnnFoo_3_Foo] Tiling failed", True),
    # the words inside a longer sentence are not the engine's line
    ("[op_kernel.h:100][NNOP][GetWorkspace] errno[561103] OpName:[aclnnFoo_3_Foo] Tiling failed because the input is empty", False),
])
def test_plog_tiling_failed_line_names_the_tiling_step(explain_text, tail, named):
    paste = "RuntimeError: aclnnFooGetWorkspaceSize failed: 561103\n[ERROR] OP(1,python3):2026-01-01-00:00:00.000.000 " + tail + "\n"
    _, top = explain_text(paste)
    assert (top is not None and top.kind == "op-tiling-failed") == named


def test_mmcv_registry_for_a_cuda_or_cpu_device_is_not_the_npu_class(explain_text):
    _, top = explain_text("RuntimeError: nms_impl: implementation for device cpu not found.\n")
    assert top is None or top.entry.id != "ARL-E630"
    _, top = explain_text("RuntimeError: nms_impl: implementation for device npu:0 not found.\n")
    assert top is not None and top.entry.id == "ARL-E630"


def test_the_runtimes_sdma_report_names_the_copy_engine(explain_text):
    paste = (
        "The error from device(0), serial number is 1. there is a sdma error, sdma channel is 0, the channel exist the following "
        "problems: The SMMU returns a Terminate error during page table translation..[FUNC:ProcessSdmaErrorInfo]\n"
        "wait for compute device to finish failed, runtime result = 507013.[FUNC:ReportCallError]\n"
    )
    _, top = explain_text(paste)
    assert top is not None and top.kind == "sdma-copy-failed"


def test_507013_without_the_sdma_report_stays_the_bare_code(explain_text):
    _, top = explain_text("wait for compute device to finish failed, runtime result = 507013.\n")
    assert top is None or top.kind != "sdma-copy-failed"
