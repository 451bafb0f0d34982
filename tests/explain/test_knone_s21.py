"""Pastes where explain found no fatal line at all (session 21, knone): two shapes whose cause the engine's readers
already know, once the line is found.

1. The CANN runtime's own report of an rt call that returned an error, pasted from a plog (``grep ERROR plog-*.log``):
   "[ERROR] RUNTIME(…) … rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a".
   The runtime logs ErrorcodeManage::GetErrorDesc's "ErrCode=%d, desc=[%s], InnerCode=0x%x" at ERROR level before it
   returns the code to its caller (REPORT_FUNC_ERROR_REASON and the COND_RETURN_EXT_ERRCODE_* macros,
   https://github.com/hicann/runtime/blob/master/src/runtime/api/api_c.h and
   src/runtime/core/src/common/errcode_manage.cc). Such a line is a coded failure of its own, read by the codes
   analyzer; its WARNING form (WE0001) and the graph-capture codes stay handled conditions.
2. A short paste (an issue title) whose Chinese lead-in runs into the message the program printed ("vllm-ascend
   训练场景报错 assert isinstance(device, torch.device)", vllm-project/vllm-ascend#3255): the English text after the
   last CJK run is matched against the catalog on its own, so signatures that open the message still match.
"""

from __future__ import annotations

import pytest

# hiascend troubleshooting (msame, aicpu timeout) and the MindSpore FAQ's plog (GetNext, model stream execute failed)
PLOG = (
    "[ERROR] RUNTIME(16243,msame):2022-09-22-11:27:01.794.510 [api_c.cc:661]16243 rtStreamSynchronize:[EXEC][DEFAULT]"
    "ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a\n"
)


def test_a_runtime_errcode_report_is_a_coded_failure(explain_text):
    result, top = explain_text(PLOG)
    assert result.fatal and top is not None and top.kind == "code-507017", top


@pytest.mark.parametrize("prefix", ["", "plog-860_20251231074149720.log:"])
def test_other_calls_codes_and_a_grep_prefix(explain_text, prefix):
    line = (f"{prefix}[ERROR] RUNTIME(150840,python):2021-09-14-09:26:01.014.622 [api_c.cc:581]150900 "
            "rtStreamSynchronize:ErrCode=507011, desc=[the model stream execute failed], InnerCode=0x7150050\n")
    result, top = explain_text(line)
    assert result.fatal and top is not None and top.kind == "code-507011", top


@pytest.mark.parametrize("text", [
    # the WARNING form of the same report (COND_RETURN_EXT_WARNCODE_AND_MSG_OUTER): the caller goes on
    "[WARNING] RUNTIME(150840,python):2021-09-14-09:26:01.014.622 [api_c.cc:581]150900 rtStreamSynchronize:"
    "ErrCode=507011, desc=[the model stream execute failed], InnerCode=0x7150050\n",
    # in a run's log, an operation graph capture does not allow, which capture probes and handles (CAPTURE_CODES)
    "".join(f"INFO 09-23 19:56:{i:02d} [model_runner.py:1] capturing graph for batch size {i}\n" for i in range(48))
    + "[ERROR] RUNTIME(150840,python):2021-09-14-09:26:01.014.622 [api_c.cc:581]150900 rtMemcpy:ErrCode=107030, "
    "desc=[the current capture mode does not support this operation], InnerCode=0x7150050\n"
    + "".join(f"step:{i} - loss:0.5\n" for i in range(3)),
])
def test_handled_reports_stay_quiet(explain_text, text):
    result, _ = explain_text(text)
    assert not result.fatal


def test_a_short_paste_of_a_capture_refusal_is_its_failure(explain_text):
    # the report with its plog head cut off (vllm-project/vllm-ascend#6002's paste): what its author reports
    result, top = explain_text("MemCopySync:Memory copy sync failed\n"
                               "rtMemcpy:ErrCode=107030, desc=[the current capture mode does not support this operation]\n")
    assert result.fatal and top is not None and top.kind == "aclgraph-capture-failed", top


def test_a_chinese_lead_in_before_an_assert_statement(explain_text):
    result, top = explain_text("vllm-ascend 训练场景报错 assert isinstance(device, torch.device)\n")
    assert result.fatal and top is not None and top.entry.id == "ARL-E032", top


def test_a_chinese_lead_in_before_a_message(explain_text):
    result, top = explain_text("kimi2.5部署，A2多机，报错NPU out of memory\n")
    assert result.fatal and top is not None and top.entry.id == "ARL-E204", top


@pytest.mark.parametrize("text", [
    "训练时出现的问题，请帮忙看看\n",  # Chinese prose only
    "部署失败 see the log below\n",  # English words after it that no entry names
])
def test_prose_alone_stays_as_it_was(explain_text, text):
    result, top = explain_text(text)
    assert top is None or top.basis != "catalog", top


@pytest.mark.parametrize("title", [
    # vllm-project/vllm-ascend#16914's title: the code after "acl error" in parentheses
    "[Bug] MegaMoe on Kimi K3 (A3, PD-disaggregated 4P4D) produces garbled output and vector-core crash (acl error 507035)",
    # vllm-project/vllm-ascend#13647's title: "fail with" the code
    "[310P3][x86][Hygon] All TBE (*_tvmbin) kernels fail with 507015 aicore exception; torch.ones(4).npu()+1 is enough",
])
def test_a_title_that_states_the_code_it_failed_with(explain_text, title):
    result, top = explain_text(title + "\n")
    assert result.fatal and top is not None and (top.kind == "aicore-exception" or top.entry.id == "ARL-E330"), top


@pytest.mark.parametrize("title", [
    "training failed after 507000 steps",  # a count, not a code
    "vllm serve failed with 100000 tokens",  # a round number outside the runtime's ranges
    "Release notes: 507015 is fixed in CANN 8.2",  # no failure stated (a fix)
    "INFO 08-28 02:33:28 retrying after error 507035",  # a record at a quiet level
])
def test_numbers_and_handled_codes_in_titles_stay_as_they_were(explain_text, title):
    result, top = explain_text(title + "\n")
    assert top is None or not str(top.kind).startswith(("code-", "aicore")), top


@pytest.mark.parametrize("text", [
    # PaddleCustomDevice's RUNTIME_CHECK (PaddlePaddle/PaddleOCR#16162's title, its Chinese lead-in before it)
    "PaddleOcr应用部署到华为昇腾NPU机器，启动报错Call aclInit(nullptr) failed : 507008\n",
    # torch_npu's NpuSysCtrl::Initialize check (NPU_CHECK_ERROR), with another code
    "RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:253 NPU function error: aclInit, error code is 507008\n",
])
def test_codes_under_a_failed_acl_init_are_that_failure(catalog, explain_text, text):
    import dataclasses

    from ascendrl.catalog import Classifier

    # without the entry that names these words (ARL-E1350), the code analyzer reads the class from them
    kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E1350"))
    classifier = Classifier(kept)
    classifier.feed_log(__import__("io").BytesIO(text.encode()), "x.log")
    result = classifier.result()
    top = result.diagnoses[0] if result.diagnoses else None
    assert result.fatal and top is not None and top.kind == "acl-init-failed", top
