"""Readings added by helper k50cann (2026-12-06) while probing CANN environment and device-health messages of torch_npu
for failure classes explain did not name. Each test input is a short excerpt in our own words around the exact emitted
message; each class also has a near miss (similar words, another failure).

- ARL-E4920: torch_npu's CPU / IRQ affinity binding (CPU_AFFINITY_CONF) cannot use the driver's DCMI library
  (GetAffinityCPUInfo.cpp "Failed to init dcmi. Error code: N"; DcmiInterface.cpp "Failed to find function dcmi_*,
  maybe your hdk version is too low, please upgrade it", "Failed to get affinity cpu info, maybe your hdk version is too
  low"): libdcmi.so not mounted / not loadable, or an HDK older than the affinity API; before, unknown.
- ARL-E4002 widened: OptionsManager.cpp's size / path checks ("P2P_HCCL_BUFFSIZE cannot be negative.",
  "NPU_SHMEM_SYMMETRIC_SIZE is invalid.", "`OOM_SNAPSHOT_PATH` is invalid."); before, unknown or a similarity guess.
- DRV-device widened: torch_npu GetDeviceProperties' "device=N, num_npus=M" (Module.cpp) and vllm-ascend's "local_rank N
  is out of bounds for the available NPU devices: [ids]" (utils.py), and verl's vLLM rollout "device_id N must less than
  [ids]" (get_device_uuid); before, unknown or a similarity guess.
- ARL-E4921: torch_npu.npu.stress_detect()'s hardware verdict (Stress_detect.cpp "Stress detect failed due to hardware
  malfunction, [device id is N, ]error code is M" in 7.1 and 7.3, and "Stress detect error. Error code is 574007. Error
  message is Voltage recovery failed"): a faulty NPU; before, nothing or unknown.
- ARL-E4922: vllm-ascend's get_device_uuid finding no uuid in torch.npu.get_device_properties (platform.py "Device N does
  not have a valid UUID."): torch_npu older than 7.3, or CANN / driver without aclrtDeviceGetUuid; before, unknown.
- ARL-E4923 (folded at merge into k50op's ARL-E5041, the same class written the same hour): vllm-ascend's enable_mc2_hierarchy_comm on a torch_npu without npu_moe_distribute_dispatch_v2
  (token_dispatcher.py "PTA and CANN version is too old to support mc2 hierarchy comm"); before, unknown.
- ARL-E4203 widened: npu-smi's FileNotFoundError inside verl's platform_npu.py "Failed to execute npu-smi command: [Errno
  2] ..." and under a Chinese locale ("[Errno 2] 没有那个文件或目录: 'npu-smi'"); before, DRV-oserror or unknown.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4920 ---------------------------------------------------------------------------------------------------------

def test_dcmi_affinity_is_e4920():
    for text in (
        "RuntimeError: Failed to init dcmi. Error code: -8005\n"
        "[ERROR] 2026-12-01-10:02:40 (PID:2790, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n",
        "RuntimeError: Failed to find function dcmi_init,  maybe your hdk version is too low, please upgrade it.\n"
        "[ERROR] 2026-12-01-10:02:40 (PID:2790, Device:0, RankID:-1) ERR00008 PTA resource not found\n",
        "(WorkerDict pid=2790, ip=10.0.0.1) RuntimeError: Failed to find function dcmi_get_device_id_in_card,  maybe your "
        "hdk version is too low, please upgrade it\n",
        "RuntimeError: Failed to get affinity cpu info, maybe your hdk version is too low, please upgrade it\n",
    ):
        assert _id(text) == "ARL-E4920", text


def test_dcmi_near_miss_is_not_e4920():
    # npu-smi's own DCMI failure in a container is the device held by another container (ARL-E333), and a missing ACL
    # function is CANN too old (ARL-E348): neither is torch_npu's affinity binding.
    assert _id("dcmi model initialized failed, because the device is used. ret is -8020\n") != "ARL-E4920"
    assert _id("RuntimeError: Failed to find function aclrtGetDeviceInfo, maybe you cann version is too low, "
               "please upgrade it\n") != "ARL-E4920"


# ARL-E4921 ---------------------------------------------------------------------------------------------------------

def test_stress_detect_hardware_fault_is_e4921():
    for text in (
        "[W compiler_depend.ts:131] Warning: Stress detect failed due to hardware malfunction, device id is 3, error "
        "code is 574006 (function transfer_result)\n",
        # torch_npu 7.1's log wording, without the device id
        "[ERROR] PYTORCH(1234,python):2026-12-01-10:00:00.000.000 [Stress_detect.cpp:79]1234 Stress detect failed due "
        "to hardware malfunction, error code is 574005.\n",
        "RuntimeError: Stress detect error. Error code is 574007. Error message is Voltage recovery failed.\n"
        "[ERROR] 2026-12-01-10:02:40 (PID:2790, Device:3, RankID:3) ERR00100 PTA call acl api failed\n",
    ):
        assert _id(text) == "ARL-E4921", text


def test_stress_detect_near_miss_is_not_e4921():
    # a stress test that could not run (no memory for its workspace) says nothing about the card
    text = ("[W compiler_depend.ts:131] Warning: Stress detect failed, call AclrtMallocAlign32 failed, skip "
            "StressDetect, device id is 0, error is 207001\n")
    assert _id(text) != "ARL-E4921"


# ARL-E4002 widened -------------------------------------------------------------------------------------------------

def test_torch_npu_size_and_path_variables_are_e4002():
    for text in (
        "RuntimeError: P2P_HCCL_BUFFSIZE cannot be negative.\n"
        "[ERROR] 2026-12-01-10:02:40 (PID:2790, Device:0, RankID:0) ERR00003 PTA invalid value\n",
        "RuntimeError: NPU_SHMEM_SYMMETRIC_SIZE is invalid.\n",
        "RuntimeError: `OOM_SNAPSHOT_PATH` is invalid.\n"
        "[ERROR] 2026-12-01-10:02:40 (PID:2790, Device:0, RankID:0) ERR00008 PTA resource not found\n",
    ):
        assert _id(text) == "ARL-E4002", text


def test_hccl_buffsize_near_miss_is_not_e4002():
    # HCCL's own refusal of a buffer it cannot allocate is an HCCL / memory failure, not an invalid variable value
    assert _id("EI0001: Value [-5] for environment variable [HCCL_BUFFSIZE] is invalid.\n") != "ARL-E4002"


# DRV-device widened ------------------------------------------------------------------------------------------------

def test_device_property_index_past_visible_is_drv_device():
    for text in (
        "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    torch.npu.get_device_properties(4)\n"
        "RuntimeError: device=4, num_npus=2\n"
        "[ERROR] 2026-12-01-10:02:40 (PID:2790, Device:0, RankID:-1) ERR00001 PTA invalid parameter\n",
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\n"
        "(EngineCore_DP0 pid=553) ValueError: local_rank 2 is out of bounds for the available NPU devices: [0, 1]\n",
        # verl's vLLM rollout, get_device_uuid: the list form and a platform plugin's count form
        "(vLLMHttpServer pid=881) AssertionError: device_id 2 must less than ['0', '1']\n",
        "AssertionError: device_id 4 must less than 4\n",
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "DRV-device", text


def test_device_words_near_miss_is_not_drv_device():
    # vllm-ascend finding no device at all (an empty list) is not an id past the end of a list; nor is a log line that
    # merely prints a device and a count
    assert _id("ValueError: No NPU devices found or specified in ASCEND_RT_VISIBLE_DEVICES.\n") != "DRV-device"
    assert _id("INFO 12-01 10:00:00 [worker.py:1] device=0, world_size=2, rank=0\n") != "DRV-device"


# ARL-E4922 ---------------------------------------------------------------------------------------------------------

def test_npu_uuid_missing_is_e4922():
    for text in (
        "RuntimeError: Device 0 does not have a valid UUID.\n",
        "(EngineCore_DP0 pid=553) RuntimeError: Device 3 does not have a valid UUID.\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n",
    ):
        assert _id(text) == "ARL-E4922", text


def test_uuid_near_miss_is_not_e4922():
    # a UUID that does not parse is a value error of the caller, not a stack that reports none
    assert _id("ValueError: badly formed hexadecimal UUID string\n") != "ARL-E4922"


# ARL-E4923 -> E5041 ---------------------------------------------------------------------------------------------------------

def test_mc2_hierarchy_on_old_pta_is_e4923():
    text = ("(EngineCore_DP0 pid=553) RuntimeError: PTA and CANN version is too old to support mc2 hierarchy comm, please "
            "upgrade your version.\n")
    assert _id(text) == "ARL-E5041"


def test_mc2_hierarchy_near_miss_is_not_e4923():
    # the same option on an unsupported chip is a different refusal (ascend_config.py)
    assert _id("NotImplementedError: enable_mc2_hierarchy_comm is only supported on A2 and A3, but got A5.\n") != "ARL-E5041"


# ARL-E4203 widened -------------------------------------------------------------------------------------------------

def test_npu_smi_missing_inside_callers_message_is_e4203():
    for text in (
        # verl's NPU platform wraps get_npu_versions' FileNotFoundError
        "RuntimeError: Failed to execute npu-smi command: [Errno 2] No such file or directory: 'npu-smi'\n",
        # a Chinese locale's strerror
        "FileNotFoundError: [Errno 2] 没有那个文件或目录: 'npu-smi'\n",
    ):
        assert _id(text) == "ARL-E4203", text


def test_npu_smi_nonzero_exit_is_not_e4203():
    # npu-smi present but refusing the NPU id it was given is verl's hard-coded id (ARL-E051), not a missing tool
    text = ("RuntimeError: Failed to execute npu-smi command: Command '['npu-smi', 'info', '-t', 'board', '-i', '0']' "
            "returned non-zero exit status 255.\n")
    assert _id(text) != "ARL-E4203"
