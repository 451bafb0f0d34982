"""Forms of hccl / operator / device / memory failures read from their emitters, not from one thread (session 15, kop).

- The process-group watchdog's records (torch_npu ProcessGroupHCCL, PyTorch ProcessGroupNCCL) when a paste keeps them
  without the "Watchdog caught collective operation timeout" line: the timeout-only records name the watchdog
  timeout (ARL-E010); the failed-or-timed-out records name the generic ARL-E850, which never outranks a specific cause.
"""

from __future__ import annotations

import pytest

from conftest import top_of


@pytest.mark.parametrize("text, entry_id", [
    # torch_npu WorkHCCL::synchronizeInternal (v7.2.0) and PyTorch's twin, old and new wording: a timeout only
    ("[E ProcessGroupHCCL.cpp:878] [Rank 3] Work WorkHCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=1800000) timed out in "
     "blocking wait (HCCL_BLOCKING_WAIT=1).", "ARL-E010"),
    ("[rank1]:[E1002 18:16:40.662691402 ProcessGroupNCCL.cpp:756] [Rank 1] Work WorkNCCL(SeqNum=2521, OpType=ALLREDUCE, "
     "NumelIn=1, NumelOut=1, Timeout(ms)=600000) timed out in blocking wait.", "ARL-E010"),
    ("[rank0]:[E1206 18:44:16.994932383 ProcessGroupNCCL.cpp:1709] [PG 1 Rank 0] Timeout at NCCL work: 7753, last enqueued "
     "NCCL work: 7755, last completed NCCL work: 7752.", "ARL-E010"),
    # handleException / the 2.3-2.4 watchdog record: failed OR timed out, the generic teardown
    ("[E ProcessGroupHCCL.cpp:795] Some HCCL operations have failed or timed out. Due to the asynchronous nature of "
     "ASCEND kernels, subsequent NPU operations might run on corrupted/incomplete data.", "ARL-E850"),
    ("[rank4]:[E602 11:18:52.531176265 ProcessGroupNCCL.cpp:684] [Rank 4] Some NCCL operations have failed or timed out. "
     "Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
     "ARL-E850"),
    ("[rank3]:[E416 20:40:12.986007770 ProcessGroupNCCL.cpp:1664] [PG 5 Rank 3] Exception (either an error or timeout) "
     "detected by watchdog at work: 8, last enqueued NCCL work: 10, last completed NCCL work: 7.", "ARL-E850"),
    # the failed branch: the communicator's asynchronous error (torch_npu v7.2 checkAndSetException, v7.3 checkHcclComms),
    # and the watchdog's exit line with its error on the next line (the trailing space lost in a paste)
    ("[E ProcessGroupHCCL.cpp:606] [Rank 3] found async exception when checking for HCCL errors: HCCL error in: "
     "torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:412, ", "ARL-E850"),
    ("[rank5]:[E compiler_depend.ts:1795] [Rank 5] checkHcclComms found HcclComms vector 0:1 got ERROR via "
     "HcclGetCommAsyncError : HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:1790, ", "ARL-E850"),
    ("[E ProcessGroupHCCL.cpp:1673] [Rank 0] HCCL watchdog thread terminated with exception:", "ARL-E850"),
])
def test_each_watchdog_record_alone_names_its_entry(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text + "\n")
    assert top == entry_id, seen


def test_the_watchdog_records_never_outrank_a_specific_cause(explain_text):
    # The records come first in the paste, the specific cause (the collective timeout itself) after them.
    top, seen = top_of(explain_text,
        "[E ProcessGroupNCCL.cpp:489] Some NCCL operations have failed or timed out. Due to the asynchronous nature of "
        "CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.\n"
        "[E ProcessGroupNCCL.cpp:495] To avoid data inconsistency, we are taking the entire process down.\n"
        "[E ProcessGroupNCCL.cpp:916] [Rank 2] NCCL watchdog thread terminated with exception: [Rank 2] Watchdog caught "
        "collective operation timeout: WorkNCCL(SeqNum=48490, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=1800000) ran for 1800781 milliseconds before timing out.\n")
    assert top == "ARL-E010", seen
    # ... and an unrelated specific failure on an earlier line stays the root cause.
    top, seen = top_of(explain_text,
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 58.10 GiB already "
        "allocated; 58.10 GiB current active; 1.02 GiB free; 59.00 GiB reserved in total by PyTorch)\n"
        "[E ProcessGroupHCCL.cpp:795] Some HCCL operations have failed or timed out. Due to the asynchronous nature of "
        "ASCEND kernels, subsequent NPU operations might run on corrupted/incomplete data.\n")
    assert top not in (None, "ARL-E850"), seen


@pytest.mark.parametrize("lines", [
    # torch_npu HCCLUtils: HCCL_CHECK_ERROR's "HCCL error in: file:line, " then getHcclErrorDetailStr(HCCL_E_REMOTE)
    ["RuntimeError: HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2345, ",
     "HCCL_E_REMOTE: A call failed possibly due to a network error or a remote process exiting prematurely.[ERROR] "
     "2025-06-01-10:00:00 (PID:1234, Device:0, RankID:1) ERR02200 DIST call hccl api failed."],
    # the watchdog's records first, the remote error in the exception it rethrows after them
    ["[rank1]:[E ProcessGroupNCCL.cpp:577] [Rank 1] Some NCCL operations have failed or timed out. Due to the asynchronous "
     "nature of CUDA kernels, subsequent GPU operations might run on corrupted/incomplete data.",
     "[rank1]:[E ProcessGroupNCCL.cpp:1414] [PG 0 Rank 1] Process group watchdog thread terminated with exception: NCCL "
     "error: remote process exited or there was a network error, NCCL version 2.20.5",
     "ncclRemoteError: A call failed possibly due to a network error or a remote process exiting prematurely."],
])
def test_a_remote_error_names_the_peer_or_link_not_the_code_or_the_teardown(explain_text, lines):
    top, seen = top_of(explain_text, "\n".join(lines) + "\n")
    assert top == "ARL-E851", seen


def test_another_hccl_detail_is_not_a_remote_error(explain_text):
    top, seen = top_of(explain_text, "RuntimeError: HCCL error in: torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2345, \n"
                                     "Unknown HCCL error!\n")
    assert top != "ARL-E851", seen


@pytest.mark.parametrize("value, expected, entry_id", [
    # hicann/runtime v8.5.0 ApiImpl::GetDeviceCount: EE2002's template filled in for ASCEND_RT_VISIBLE_DEVICES
    ("4,5", "[0, 2).", "ARL-E311"),
    ("1,0", "configured in ascending order.", "ARL-E365"),
])
def test_the_runtimes_visible_devices_refusal_names_the_device_list(explain_text, value, expected, entry_id):
    top, seen = top_of(explain_text, f"EE2002: [PID: 3049] 2025-11-18-09:33:13.666.323 Value {value} for environment variable "
                                     f"ASCEND_RT_VISIBLE_DEVICES is invalid. Expected value: {expected}\n")
    assert top == entry_id, seen
    assert "ARL-E374" not in [i for i, _ in seen]  # not an HCCL variable


def test_an_hccl_variable_out_of_range_stays_the_hccl_entry(explain_text):
    top, seen = top_of(explain_text, "Config_Error_Invalid_Environment_Variable(EI0001): Value 1000 for environment variable "
                                     "HCCL_RDMA_SL is invalid. Expected value : range[0, 7].\n")
    assert top == "ARL-E374", seen


def test_the_rendezvous_client_giving_up_on_every_address_names_the_master_unreachable(explain_text):
    # PyTorch socket.cpp SocketConnectOp::run, with the error it recorded (not retried: no route to host)
    top, seen = top_of(explain_text, "torch.distributed.DistNetworkError: The client socket has failed to connect to any "
                                     "network address of (10.0.0.2, 29500). The client socket has failed to connect to "
                                     "10.0.0.2:29500 (errno: 113 - No route to host).\n")
    assert top == "ARL-E136", seen


def test_a_retried_connect_warning_alone_is_not_the_rendezvous_failure(explain_text):
    # the per-attempt warning of the same client (retried until the timeout; harmless when a later attempt connects)
    top, seen = top_of(explain_text, "[W427 01:04:16.149509694 socket.cpp:752] [c10d] The client socket has failed to "
                                     "connect to [::ffff:198.18.0.1]:3254 (errno: 110 - Connection timed out).\n")
    assert top != "ARL-E136", seen
