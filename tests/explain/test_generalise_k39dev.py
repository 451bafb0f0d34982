"""Readings widened by helper k39dev (2026-12-04) from the emitting project's source, for a class of failure rather
than one thread's paste:

- The CANN runtime's reason for a failed call, printed without its number. ErrorcodeManage (hicann/runtime
  src/runtime/core/src/common/errcode_manage.cc) maps each inner error to an ACL return code and a reason text;
  ErrorMessageUtils::FuncErrorReason (error_message_manage.cc) prints "<rtApi> execution failed, reason=<reason>", for a
  null context and an unsupported feature "<rtApi> execution failed, <reason>.", and releases before the runtime was
  published "<rtApi> execute failed, reason=[<reason>]". catalog/codes/rt_reasons.yaml holds the reasons with their codes
  (catch-all codes left out), codes.reasoned reads them back, and a reason line that stands alone (no report open) is
  read as that code's failure: "rtGetDevMsg execution failed, the context is a null pointer" is ACL_ERROR_RT_CONTEXT_NULL
  (107002), a thread that never set a device, whichever framework's thread made the call. Inside an open report (a
  TraceBack line under E30008 / EE9999) the report's own codes keep their say.
- "No CUDA GPUs are available" raised in reward code (a frame in a reward module, or the failure's own words naming a
  reward function): verl computes rewards in Ray workers that ask for a CPU only (main_ppo.py's TaskRunner,
  ppo/reward.py's compute_reward_async, the reward loop's RewardComputeWorker, each @ray.remote(num_cpus=1)), so the
  device a reward function asks for is hidden from it: DRV-cuda-call kind ray-cpu-only-actor, with or without Ray's
  wrapper in the paste.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from ascendrl.catalog import load_catalog
from ascendrl.catalog.codes import decode, reasoned, tables

from kdata_helpers import classify

CATALOG = load_catalog()
PINNED = re.compile(r"^https://github\.com/hicann/runtime/blob/[0-9a-f]{40}/\S+$")


def _result(text: str, catalog=CATALOG):
    return classify(catalog, text)


@pytest.mark.parametrize("line, code", [
    # CANN 8.5+ (FuncErrorReason's RT_ERROR_CONTEXT_NULL case), with and without the sentence's full stop
    ("rtGetDevMsg execution failed, the context is a null pointer", "107002"),
    ("Invalid_Argument(EE1001): rtsGetResInCurrentThread execution failed, the context is a null pointer.", "107002"),
    # the default case: "reason=<reason>" without brackets
    ("rtStreamSynchronize execution failed, reason=device task abort", "107022"),
    # the older form, with plog's [FUNC:…][FILE:…] tail after the bracket
    ("rtGetDeviceIndexByPhyId execute failed, reason=[device id error][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
     "107001"),
    ("rtMalloc execute failed, reason=[driver error:out of memory]", "207001"),
    # CANN 8.5+'s default form in plog, the reason without brackets and the [FUNC:…] tail right after it
    ("rtSetDevice execution failed, reason=device retain error[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:68]",
     "507033"),
    ("rtsGetResInCurrentThread execution failed, the context is a null pointer.[FUNC:FuncErrorReason][FILE:error_message_manage.cc]",
     "107002"),
    ("rtKernelLaunch execute failed, reason=[the feature is not supported]", "207000"),
])
def test_a_runtime_reason_stands_for_its_acl_code(line, code):
    assert reasoned(line) == [code]


@pytest.mark.parametrize("line", [
    "rtStreamSynchronize execute failed, reason=[device base error]",  # ACL_ERROR_RT_INTERNAL_ERROR: left out
    "rtFoo execute failed, reason=[no such reason]",
    "the context is a null pointer",  # the words without the failed call
    "download execution failed, reason=network down",
])
def test_a_catch_all_or_unknown_reason_stands_for_nothing(line):
    assert reasoned(line) == []


def test_every_reason_decodes_and_is_sourced():
    table = tables()["rt_reasons"]
    assert PINNED.match(table["source"]) and PINNED.match(table["codes_source"])
    reasons = [row[0] for row in table["reasons"]]
    assert len(reasons) == len(set(reasons)) > 150
    for reason, code, inner in table["reasons"]:
        info = decode(str(code))
        assert info is not None and info.family == "acl", (reason, code)
        assert inner.startswith("RT_ERROR_"), inner
        assert str(code) not in ("507000", "507001", "507899"), reason  # the catch-alls are not in the table


def test_a_context_null_reason_alone_is_a_thread_without_a_device():
    """Mooncake's transfer worker (issue 3972): the reason alone, no number, read without the entry that names it."""
    text = "Invalid_Argument: rtGetDevMsg execution failed, the context is a null pointer\n"
    alone = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E470"))
    top = _result(text, alone).diagnoses[0]
    assert (top.entry.id, top.basis, top.kind) == ("DRV-code", "derived", "npu-device-not-set")
    assert "107002" in top.entry.title
    assert _result(text).diagnoses[0].entry.id == "ARL-E470"


def test_another_reason_alone_is_read_as_its_code():
    top = _result("rtStreamSynchronize execution failed, reason=device task abort\n").diagnoses[0]
    assert top.entry.id == "DRV-code" and "107022" in top.entry.title


def test_a_reason_inside_an_open_report_leaves_the_report_its_class():
    """E30008's TraceBack names the synchronize that got the AI CPU timeout; the report's GetNext class stays."""
    text = ("E30008: AI CPU operator execution time out.\n"
            "Possible Cause: 1. For the GetNext operator, its preprocessing duration may be too long.\n"
            "TraceBack (most recent call last):\n"
            "Aicpu kernel execute failed, device_id=0, stream_id=2, task_id=2, fault op_name=aicpu_getnext_IteratorGetNext\n"
            "rtStreamSynchronizeWithTimeout execute failed, reason=[aicpu timeout]\n")
    assert reasoned(text.splitlines()[-1]) == ["507017"]
    top = _result(text).diagnoses[0]
    assert top.kind == "getnext-aicpu-timeout", (top.entry.id, top.kind)


REWARD_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/verl/verl/workers/reward_manager/naive.py", line 80, in __call__\n'
    '  File "/home/user/my_reward.py", line 12, in compute_score\n'
    '    model = AutoModel.from_pretrained(path).to("cuda")\n'
    "RuntimeError: No CUDA GPUs are available\n")


@pytest.mark.parametrize("text", [
    REWARD_TRACEBACK,
    "I'm getting \"No CUDA GPUs are available\" when I use a customized reward function\n",
])
def test_no_cuda_device_in_reward_code_is_a_cpu_only_worker(text):
    top = _result(text).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-cuda-call", "ray-cpu-only-actor"), (top.entry.id, top.kind)
    assert "verl computes rewards in workers that ask for a CPU only" in top.entry.cause
    assert any("verl/trainer/main_ppo.py" in s for s in top.entry.sources)


def test_no_cuda_device_elsewhere_stays_a_cuda_call():
    """Outside Ray and outside reward code the same message is code that asked for CUDA on a host without it."""
    top = _result(REWARD_TRACEBACK.replace("my_reward.py", "train.py").replace("reward_manager/naive.py", "trainer/fit.py")
                  .replace("compute_score", "main")).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-cuda-call", "cuda-call-on-npu"), (top.entry.id, top.kind)
