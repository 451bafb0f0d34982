"""Readings added by helper k43dev (2026-12-05) from the emitting projects' sources, each for a class of failure rather
than one thread's paste:

- ARL-E308 reads every way the CANN runtime reports that the device refused a package the host's CANN sent it when the
  device was opened (hicann/runtime at 681ef76): E30006 "Failed to verify the OPP." in both report layouts ("E30006:
  <time> …" and CANN 8.x's "Package_Error_Verify_OPP(E30006): …"), the runtime's own "TsdOpen failed:Failed to verify OPP
  package." (runtime.cc PrintfTsdError), and the tsd package loader's E30009 "Failed to verify the signature of package %s
  on the device" and E39011 "Failed to load the package %s on the device." (package_loader.cpp). A bare "TsdOpen failed.
  devId=N, tdt error=N" names no package and stays the device-open failure it was.
- torch_npu throws the device faults its task queue stops on by name, without the ACL code (NPUQueue.cpp deviceErrorMap,
  NPUException.cpp errCodeHandlerMap): "UCE ERROR" (507053), "HBM MULTI BIT ECC ERROR" (507054), "SUSPECT MEM ERROR"
  (507055), "HCCS LINK ERROR" / "UB LINK ERROR" (507056), "SUSPECT REMOTE ERROR" (507057), "HCCL OP RETRY FAILED" (507904),
  "FORCE STOP" (107022). An error message opening with the name carries that code; the same words inside torch_npu's own
  log lines do not.
"""

from __future__ import annotations

from ascendrl.catalog import load_catalog
from ascendrl.catalog.codes import extract
from kdata_helpers import classify

CATALOG = load_catalog()

SET_DEVICE = ("RuntimeError: ExchangeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:285 NPU function error: "
              "c10_npu::SetDevice(device), error code is 507033\n"
              "[ERROR] 2026-01-10-08:12:03 (PID:4121, Device:2, RankID:-1) ERR00100 PTA call acl api failed\n"
              "[Error]: Failed to start the device.\n")


def _top(text: str):
    result = classify(CATALOG, text, "paste.log")
    return result.diagnoses[0] if result.diagnoses else None


def test_load_package_refused_on_device_is_e308():
    top = _top(SET_DEVICE + "Inner_Error_Failed_Load_Package_To_Device(E39011): Failed to load the package "
                            "cann-hybm-compat.tar.gz on the device.\n        TraceBack (most recent call last):\n"
                            "        TsdOpen failed. devId=2, tdt error=1.\n")
    assert top is not None and top.entry.id == "ARL-E308"


def test_package_signature_refused_on_device_is_e308():
    top = _top(SET_DEVICE + "E30009: [PID: 4121] 2026-01-10-08:12:03.120.551 Failed to verify the signature of package "
                            "cann-udf-compat.tar.gz on the device. Reason: cms verify failed.\n")
    assert top is not None and top.entry.id == "ARL-E308"


def test_opp_verify_in_title_layout_and_runtime_words_is_e308():
    assert _top(SET_DEVICE + "Package_Error_Verify_OPP(E30006): Failed to verify the OPP.\n").entry.id == "ARL-E308"
    assert _top(SET_DEVICE + "EE9999: Inner Error!\n        TraceBack (most recent call last):\n"
                             "        TsdOpen failed:Failed to verify OPP package.[FUNC:PrintfTsdError][FILE:runtime.cc]\n"
                ).entry.id == "ARL-E308"


def test_bare_tsdopen_failure_is_not_a_package_refusal():
    top = _top(SET_DEVICE + "EE9999: Inner Error!\n        TraceBack (most recent call last):\n"
                            "        TsdOpen failed. devId=2, tdt error=1.[FUNC:PrintfTsdError][FILE:runtime.cc]\n")
    assert top is not None and top.entry.id != "ARL-E308"


def test_torch_npu_device_error_names_carry_their_codes():
    assert extract("RuntimeError: UCE ERROR, ") == ["507053"]
    assert extract("RuntimeError: HBM MULTI BIT ECC ERROR.EE8888: device error time us= 1712.time is 1712")[0] == "507054"
    assert extract("RuntimeError: SUSPECT REMOTE ERROR, ") == ["507057"]
    assert extract("RuntimeError: UB LINK ERROR, ") == ["507056"]
    assert extract("RuntimeError: HCCL OP RETRY FAILED, ") == ["507904"]
    assert extract("RuntimeError: synchronize:NPUStream.cpp:12 NPU function error:  FORCE STOP, error code is 107022") == ["107022"]


def test_device_error_words_inside_log_lines_carry_no_code():
    assert extract("[INFO] Find FORCE STOP when startedNPUExecutionInternal.") == []
    assert extract("AclrtGetMemUceInfo get UCE ERROR, retSize is 0") == []
    assert extract("ReadQueue: SynchronizeDevice with FORCE STOP, device = 0, write_idx = 3") == []


def test_uce_error_is_read_as_the_device_memory_fault():
    top = _top("Traceback (most recent call last):\n"
               '  File "/home/user/train.py", line 10, in <module>\n'
               "    loss.backward()\n"
               "RuntimeError: UCE ERROR, \n"
               "[ERROR] 2026-01-12-03:41:27 (PID:90211, Device:3, RankID:3) ERR00100 PTA call acl api failed\n")
    assert top is not None and top.entry.id == "DRV-code" and top.kind == "device-memory-fault"


def test_hbm_ecc_name_is_read_as_the_hbm_fault():
    top = _top("RuntimeError: HBM MULTI BIT ECC ERROR.\n"
               "[ERROR] 2026-01-12-03:41:27 (PID:90211, Device:3, RankID:3) ERR00100 PTA call acl api failed\n")
    assert top is not None and top.kind == "hbm-ecc-fault"


def test_hccl_argument_check_between_ranks_counts_as_collective_shape_mismatch():
    # HCCL's own check of the ranks' arguments for one collective (EI0005, the element count differing between ranks)
    # is ARL-E363, and labels.yaml takes E363 for collective-shape-mismatch (the same cause, on Ascend).
    import yaml
    from pathlib import Path

    top = _top("RuntimeError: HCCL function error: HcclAllReduce(send_data, recv_data, count, data_type, op, comm, stream), "
               "error code is 4\n"
               "[ERROR] 2026-01-10-08:12:03 (PID:4121, Device:1, RankID:1) ERR02200 DIST call hccl api failed.\n"
               "EI0005: [PID: 4121] 2026-01-10-08:12:03.120.551 The arguments for collective communication are "
               "inconsistent between ranks: tag [AllReduce_10.0.0.1%enp_60000_0_1712], parameter [count], local [1024], "
               "remote [2048]\n")
    assert top is not None and top.entry.id == "ARL-E363"
    labels = yaml.safe_load((Path(__file__).parent / "realworld" / "labels.yaml").read_text(encoding="utf-8"))
    assert "ARL-E363" in labels["collective-shape-mismatch"]


def test_visible_devices_with_a_repeated_id_is_e365():
    # The runtime's parse of ASCEND_RT_VISIBLE_DEVICES refuses a repeated id as it refuses an unsorted list: its own log
    # line, and the EE2002 that aclrtGetDeviceCount reports.
    plog = ("[ERROR] RUNTIME(3310,python):2026-01-10-08:12:03.666.323 [runtime.cc:5032]3310 GetVisibleDevices:"
            "[INIT][DEFAULT]set ASCEND_RT_VISIBLE_DEVICES:[0,1,1,2] cannot be duplicated, input data range[0-8)\n")
    ee2002 = ("EE2002: [PID: 3310] 2026-01-10-08:12:03.666.400 Value 0,1,1,2 for environment variable "
              "ASCEND_RT_VISIBLE_DEVICES is invalid. Expected value: Cannot be duplicated.\n")
    failure = ("RuntimeError: init:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:285 NPU function error: "
               "aclrtGetDeviceCount(&device_count), error code is 207004\n"
               "[ERROR] 2026-01-10-08:12:03 (PID:3310, Device:-1, RankID:-1) ERR00100 PTA call acl api failed\n")
    assert _top(plog + failure).entry.id == "ARL-E365"
    assert _top(failure + ee2002).entry.id == "ARL-E365"
    # a list the runtime refused for an id past the device count stays ARL-E311
    assert _top("[ERROR] RUNTIME(3310,python):2026-01-10-08:12:03.666.323 [runtime.cc:5058]3310 GetVisibleDevices:"
                "set ASCEND_RT_VISIBLE_DEVICES:[8,9] error, input data range[0-8)\n" + failure).entry.id == "ARL-E311"


def test_runtime_user_device_id_past_the_visible_set_is_named_with_its_numbers():
    top = _top("RuntimeError: ExchangeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:285 NPU function error: "
               "c10_npu::SetDevice(device), error code is 107001\n"
               "[ERROR] 2026-01-10-08:12:03 (PID:3310, Device:-1, RankID:3) ERR00100 PTA call acl api failed\n"
               "EE1003: [PID: 3310] 2026-01-10-08:12:03.666.400 Obtaining the logical device ID based on the user device "
               "ID failed because value 3 for parameter userDevId is invalid. Expected value: [0, 2).\n")
    assert top is not None and top.entry.id == "DRV-device" and top.kind == "invalid-visible-device"
    cause = top.entry.cause
    assert "device 3 was requested" in cause and "the runtime sees 2 device(s)" in cause
