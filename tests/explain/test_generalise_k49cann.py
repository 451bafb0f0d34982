"""Readings added by helper k49cann (2026-12-06) while probing the CANN environment, device visibility and HCCL for
failure classes explain did not name. Each test input is a short excerpt in our own words around the exact emitted
message; each class also has a near miss (similar words, another failure).

- ARL-E310 widened: vllm-ascend's NPUWorker._init_device "DP adjusted local rank N is out of bounds for 0 devices" (no
  NPU visible at all; a count of 1 or more stays ARL-E4169) and vllm_ascend/utils.py "No NPU devices found or
  specified in ASCEND_RT_VISIBLE_DEVICES.".
- ARL-E2846 widened: the NPU executor of vLLM's Ascend branch (multiproc_npu_executor.py) "please set
  tensor_parallel_size (N) to less than / ensure that world_size (N) is less than than max local Ascend npu count (M)".
- ARL-E320 widened: HCCL's EI0015 root-info detection failure ("Failed to collect cluster information of the
  communicator based on rootInfo detection"), the root-info form of the connect timeout.
- ARL-E362 widened: EI0013 (RoCE error CQE) with the "[PID: N] <timestamp>" CANN 7.x+ prints between the code and
  the message (it was read only without them).
- ARL-E4720: EI0008, HCCL / CANN versions differ between ranks (the registry wording and hcomm's CANN 9.x wording).
- ARL-E4721: EI0010, HCCL P2P between two NPUs of a server failed (devices not on the same plane, HCCL_INTRA_ROCE_ENABLE).
- ARL-E4722: EI0017, the rank table lacks a field HCCL needs ("Config X is missing in the ranktable file").
- ARL-E4723: all_to_all_single / uneven reduce-scatter split sizes that do not fit the tensor (torch_npu
  ProcessGroupHCCL.cpp check_split_sizes, torch c10d checkSplitSizes): the three checks' wordings.
- ARL-E4724: the caching allocator refusing PYTORCH_NPU_ALLOC_CONF (torch_npu NPUAllocatorConfig.cpp) or
  PYTORCH_CUDA_ALLOC_CONF (torch CUDAAllocatorConfig.cpp): unknown option, bad boolean / number, exclusive options.
- ARL-E4725: EL0007, the NPU driver refusing the process access to the device (a user outside HwHiAiUser / root).
- ARL-E4726: verl's NPU IPC support check (verl/utils/device.py get_npu_versions) unable to read the CANN version
  ($ASCEND_HOME_PATH/<arch>-linux/ascend_toolkit_install.info) or the driver's Software Version (npu-smi board).
- ARL-E4727: vllm-ascend's worker health check (npu-smi -t health) finding an NPU not OK.
- ARL-E4728: vllm-ascend's PyHcclCommunicator given a tensor on another NPU than it was created for.
- ARL-E3061 widened: vllm-ascend v0.23 cpu_binding.py's cpuset refusals (Cpus_allowed_list missing or disjoint from the
  NUMA CPUs, NPU id out of range, binding refused).
- ARL-E4729: E30003, more user processes on the NPU than it allows (leftovers of an earlier job, or too many per device).
- ARL-E4730: a launch script run by sh (dash) whose `source .../set_env.sh` failed ("source: not found"), ranked above
  the missing-library errors that follow.
- ARL-E374 widened: the registry's EI0001 wording "Environment variable [HCCL_X] is invalid. Reason: ...".
- ARL-E314 widened: EL0001 in the code-first form CANN before 8.5 prints ("EL0001: [PID: N] <time> Device not found or
  invalid."); ARL-E372 widened: the registry's EI0011 wording ("Failed to allocate [N] bytes of NPU memory.").
- ARL-E314 also reads E39009 code-first, ARL-E383 EE1002 in CANN 8.5's titled form (a registry-wide check of the three
  forms CANN prints a code in: "CODE: [PID] time msg", "Title(CODE): msg", "CODE: msg").
- classify.py's line prefilter now also takes CANN's titled form for the five-digit codes ("Title(E39005): ...", the
  code right after the error title), as it did for the letter codes ("Title(EI0006): ..."): the TSDaemon / AI CPU
  reports were dropped unread. A bare "(E29999):" after a space (GE / FE's own log lines) stays unread.
- DRV-device widened: torch_npu's caching allocator "Invalid device argument N: did you call init?" (a memory-stats /
  allocator call on a device index past the visible count), read as an NPU id outside the visible devices.
- ARL-E4731: torch_npu SetDevice with a negative index ("device id must be positive!"), a LOCAL_RANK defaulting to -1.
- ARL-E470 widened: torch_npu npu_sys_ctrl.cpp "no npu device has been initialized!" / "npu device has not been
  inited." (a thread asking for the device of a process that never selected one).
- ARL-E4732: vLLM refusing two platform plugins at once ("Only one platform plugin can be activated, but got: [...]").
- ARL-E322 widened: hcomm's EI0019 / EI0020 bind reports as emitted ("... host|NPU network adapter socket ... add port N
  have already been bound"); ARL-E362 widened: EI0018 (the same error-CQE report on UB links).
- ARL-E136 widened: torch_npu's parallel TCP store proxy giving up on the master ("Failed to connect to TCP server").
- ARL-E138 widened: torch's Backend("hccl") refusal, "Invalid backend: 'hccl'" (torch_npu not imported, so HCCL not
  registered), the same missing registration as "No backend type associated with device type npu".
- ARL-E310 widened again: torch_npu's device_count_ensure_non_zero "No NPUs are available".
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

_ERR = "[ERROR] 2025-10-29-02:17:03 (PID:144557, Device:0, RankID:8) ERR02200 DIST call hccl api failed.\n"


# ARL-E310 (widened) ------------------------------------------------------------------------------------------------

def test_no_npu_visible_vllm_ascend_wordings_are_e310():
    for text in (
        "(Worker pid=1676) ERROR 07-10 09:16:57 [multiproc_executor.py:898] AssertionError: DP adjusted local rank 0 "
        "is out of bounds for 0 devices.\n",
        "(Worker_TP1 pid=2210) AssertionError: DP adjusted local rank 3 is out of bounds for 0 devices.\n",
        "ValueError: No NPU devices found or specified in ASCEND_RT_VISIBLE_DEVICES.\n",
    ):
        assert _id(text) == "ARL-E310", text


def test_dp_local_rank_past_some_devices_is_not_e310():
    # One or more devices visible: the data-parallel shift overflowed them (ARL-E4169), not an empty device list.
    text = ("(Worker pid=1676) ERROR 07-10 09:16:57 [multiproc_executor.py:898] AssertionError: DP adjusted local rank 3 "
            "is out of bounds for 1 devices.\n")
    assert _id(text) == "ARL-E4169"


# ARL-E2846 (widened) -----------------------------------------------------------------------------------------------

def test_npu_executor_parallel_over_visible_npus_is_e2846():
    for text in (
        "AssertionError: please ensure that world_size (8) is less than than max local Ascend npu count (4)\n",
        "AssertionError: please set tensor_parallel_size (8) to less than max local Ascend npu count (0)\n",
        "ERROR 01-08 09:55:02 engine.py:366] please ensure that world_size (16) is less than than max local Ascend npu "
        "count (8)\n",
    ):
        assert _id(text) == "ARL-E2846", text


def test_npu_executor_near_miss_is_not_e2846():
    # vLLM's Ray executor asking for more NPUs than the placement group has: ARL-E513.
    text = ("ValueError: The number of required NPUs exceeds the total number of available NPUs in the placement "
            "group.\n")
    assert _id(text) != "ARL-E2846"


# ARL-E320 (widened) ------------------------------------------------------------------------------------------------

def test_rootinfo_detection_failed_is_e320():
    for text in (
        "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: "
        "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 9\n" + _ERR +
        "EI0015: [PID: 144557] 2025-10-29-02:19:03.100.200 Failed to collect cluster information of the communicator "
        "based on rootInfo detection. Reason: the number of ranks that connected to the root is 8, expected 16.\n",
        "Ranktable_Detect_Failed(EI0015): Failed to collect cluster information of the communicator based on rootInfo "
        "detection. Reason: timeout.\n",
    ):
        assert _id(text) == "ARL-E320", text


def test_ranktable_missing_field_is_not_e320():
    text = "EI0017: [PID: 3311] 2025-12-02-16:40:05.118.402 Config super_pod_id is missing in the ranktable file.\n"
    assert _id(text) == "ARL-E4722"


# ARL-E4720 ---------------------------------------------------------------------------------------------------------

def test_hccl_version_inconsistent_is_e4720():
    for text in (
        "RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS function error: HcclAllreduce, "
        "error code is 4\n" + _ERR +
        "EI0008: [PID: 144557] 2025-10-29-02:17:03.512.206 The HCCL versions are inconsistent: tag [AllReduce_1], "
        "local_version [8.1.RC1], remote_version [8.0.RC3]\n",
        "EI0008: [PID: 77] 2026-03-01-10:00:00.000.000 The ops (cann-hccl) versions are inconsistent. The local version "
        "is 9.2.0 (version file: /usr/local/Ascend/cann-9.2.0/share/info/hccl/version.info), while the remote version "
        "is 9.1.0.\n",
        "Package_Error_Incorrect_HCCL_Version(EI0008): The Toolkit (cann-hcomm) and ops (cann-hccl) versions are "
        "inconsistent. The local Toolkit (cann-hcomm) version is 9.1.0 and ops (cann-hccl) version is 9.1.0, while the "
        "remote Toolkit (cann-hcomm) version is 9.2.0 and ops (cann-hccl) version is 9.2.0.\n",
    ):
        assert _id(text) == "ARL-E4720", text


def test_collective_arguments_inconsistent_is_not_e4720():
    # EI0005: the ranks disagree on the collective's arguments, not on the CANN version.
    text = ("EI0005: [PID: 1] 2025-01-01-10:00:00.000.000 The arguments for collective communication are inconsistent "
            "between ranks: tag [AllReduce_1], parameter [count], local [1024], remote [2048]\n")
    assert _id(text) == "ARL-E363"


# ARL-E4721 ---------------------------------------------------------------------------------------------------------

def test_hccl_p2p_failed_is_e4721():
    for text in (
        "RuntimeError: send:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:4170 HCCL function error: HcclSend(...), "
        "error code is 4\n" + _ERR +
        "EI0010: [PID: 52114] 2025-11-03-10:12:41.301.877 P2P communication failed. Reason: Device ID 0 in module 0 and "
        "device ID 9 in module 1 are not on the same plane.\n",
        "Communication_Error_P2P(EI0010): P2P communication failed. Reason: link check failed.\n",
    ):
        assert _id(text) == "ARL-E4721", text


def test_roce_error_cqe_with_pid_is_e362():
    for text in (
        "EI0013: [PID: 52114] 2025-11-03-10:12:41.301.877 An error CQE occurred during operator execution. Local "
        "information: server 10.0.0.1, device ID 0, device IP 192.168.1.1.\n",
        "Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. Local information: server "
        "10.0.0.1, device ID 0, device IP 192.168.1.1.\n",
    ):
        assert _id(text) == "ARL-E362", text


def test_roce_error_cqe_is_not_e4721():
    text = ("EI0013: [PID: 1] 2025-01-01-10:00:00.000.000 An error CQE occurred during operator execution. Local "
            "information: server 10.0.0.1, device ID 0, device IP 192.168.1.1. Peer information: server 10.0.0.2, "
            "device ID 0, device IP 192.168.1.9.\n")
    assert _id(text) == "ARL-E362"


# ARL-E4722 ---------------------------------------------------------------------------------------------------------

def test_ranktable_field_missing_is_e4722():
    for text in (
        "RuntimeError: createHCCLComm:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2241 HCCL function error: "
        "HcclCommInitClusterInfoConfig(rank_table_file, rank_id, &config, &(comm->hcclComm_)), error code is 1\n" + _ERR +
        "EI0017: [PID: 3311] 2025-12-02-16:40:05.118.402 Config super_pod_id is missing in the ranktable file.\n",
        "Config_Error_Ranktable(EI0017): Config device_ip is missing in the ranktable file.\n",
    ):
        assert _id(text) == "ARL-E4722", text


def test_ranktable_path_invalid_is_not_e4722():
    # EI0004 with an unreadable path: the table itself cannot be read (ARL-E366), not a field missing from it.
    text = ("EI0004: [PID: 1] 2025-01-01-10:00:00.000.000 The ranktable or rank is invalid,Reason:[The ranktable path "
            "/home/user/rank_table.json is not a valid real path.]. Please check the configured ranktable. [{}]\n")
    assert _id(text) != "ARL-E4722"


# ARL-E4723 ---------------------------------------------------------------------------------------------------------

def test_alltoall_split_sizes_mismatch_is_e4723():
    for text in (
        '  File "/usr/local/lib/python3.12/dist-packages/torch/distributed/distributed_c10d.py", line 4688, in '
        'all_to_all_single\n    work = group.alltoall_base(\n'
        "RuntimeError: Split sizes doesn't match total dim 0 size\n",
        "[rank3]: RuntimeError: Number of tensor splits not equal to group size[ERROR] 2025-06-01-10:00:00 (PID:1, "
        "Device:3, RankID:3) ERR02001 DIST invalid type\n",
        "RuntimeError: Tensor's dim 0 does not divide equally across group size\n",
    ):
        assert _id(text) == "ARL-E4723", text


def test_split_with_sizes_is_not_e4723():
    # torch.split's own check on a local tensor: no collective involved.
    text = ("RuntimeError: split_with_sizes expects split_sizes to sum exactly to 185 (input tensor's size at dimension "
            "0), but got split_sizes=[83, 84]\n")
    assert _id(text) != "ARL-E4723"


# ARL-E4724 ---------------------------------------------------------------------------------------------------------

def test_allocator_conf_refused_is_e4724():
    tag = "[ERROR] 2025-06-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR00001 PTA invalid parameter\n"
    for text in (
        "RuntimeError: Unrecognized CachingAllocator option: backend" + tag,
        "RuntimeError: Unrecognized CachingAllocator option: expandable_segments\n",
        "RuntimeError: Expected a single True/False argument for expandable_segments" + tag,
        "RuntimeError: `max_split_size_mb` or `garbage_collection_threshold`, cannot be enabled with "
        "`expandable_segments`, please set `expandable_segments` to `False`." + tag,
        "RuntimeError: CachingAllocator option max_split_size_mb too small, must be > 20\n",
        "RuntimeError: garbage_collect_threshold too big, set it 0.0~1.0\n",
    ):
        assert _id(text) == "ARL-E4724", text


def test_torch_npu_env_flag_is_not_e4724():
    # A torch_npu 0/1 switch with another value: ARL-E4002, not the allocator's configuration.
    text = "RuntimeError: TASK_QUEUE_ENABLE should be 0, 1 or 2.\n"
    assert _id(text) != "ARL-E4724"


def test_no_npus_available_is_e310():
    text = ("RuntimeError: No NPUs are available[ERROR] 2025-06-01-10:00:00 (PID:1, Device:-1, RankID:-1) ERR00007 "
            "PTA resource not available\n")
    assert _id(text) == "ARL-E310"


# ARL-E4725 ---------------------------------------------------------------------------------------------------------

def test_driver_no_permission_is_e4725():
    for text in (
        "RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:215 NPU function error: "
        "c10_npu::SetDevice(device_id_), error code is 507033\n"
        "[ERROR] 2025-11-03-10:12:41 (PID:52114, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
        "EL0007: [PID: 52114] 2025-11-03-10:12:41.301.877 You have no permission.\n",
        "No_Permission(EL0007): You have no permission.\n",
    ):
        assert _id(text) == "ARL-E4725", text


def test_driver_resources_busy_is_not_e4725():
    text = "EL0005: [PID: 1] 2025-01-01-10:00:00.000.000 The resources are busy.\n"
    assert _id(text) != "ARL-E4725"


# ARL-E4726 ---------------------------------------------------------------------------------------------------------

def test_verl_ipc_version_check_is_e4726():
    for text in (
        "RuntimeError: Error checking IPC support: CANN toolkit path does not exist: "
        "/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux\n",
        "RuntimeError: Error checking IPC support: CANN toolkit info file does not exist: "
        "/usr/local/Ascend/ascend-toolkit/latest/x86_64-linux/ascend_toolkit_install.info\n",
        "RuntimeError: Error checking IPC support: Could not find Software Version in npu-smi output\n",
        "RuntimeError: Error checking IPC support: Could not find version in CANN toolkit info file\n",
    ):
        assert _id(text) == "ARL-E4726", text


def test_verl_npu_smi_board_id_is_not_e4726():
    # npu-smi failing on a board id the host lacks: ARL-E051.
    text = ("RuntimeError: Failed to execute npu-smi command: Command '['npu-smi', 'info', '-t', 'board', '-i', '1']' "
            "returned non-zero exit status 255.\n")
    assert _id(text) == "ARL-E051"


# ARL-E4727 / ARL-E4728 / ARL-E3061 ---------------------------------------------------------------------------------

def test_npu_health_not_ok_is_e4727():
    text = ("(EngineCore_DP0 pid=61240) ERROR 11-03 10:12:41 [core.py:710] RuntimeError: NPU card health status is not "
            "OK\n")
    assert _id(text) == "ARL-E4727"


def test_pyhccl_device_mismatch_is_e4728():
    text = "AssertionError: this hccl communicator is created to work on npu:3, but the input tensor is on npu:0\n"
    assert _id(text) == "ARL-E4728"


def test_pyhccl_device_none_is_not_e4728():
    # The communicator handed device=None (ARL-E032's class), not a tensor on another NPU.
    text = ("  File \"/usr/local/lib/python3.10/site-packages/vllm_ascend/distributed/device_communicators/pyhccl.py\", "
            "line 90, in __init__\n    self.device = device\nTypeError: pyhccl device must not be None\n")
    assert _id(text) != "ARL-E4728"


def test_cpu_binding_cpuset_refusals_are_e3061():
    for text in (
        "RuntimeError: CPUs available in 'Cpus_allowed_list' conflict with NUMA affinity.\n",
        "RuntimeError: Can not found specific 'Cpus_allowed_list' in the '/proc/self/status' file.\n",
        "RuntimeError: Invalid NPU id 9, total_npus=8.\n",
        "RuntimeError: Failed to bind 12345 to CPU [0, 1, 2, 3].\n",
    ):
        assert _id(text) == "ARL-E3061", text


# ARL-E4729 ---------------------------------------------------------------------------------------------------------

def test_too_many_device_processes_is_e4729():
    for text in (
        "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:152 NPU function error: "
        "c10_npu::SetDevice(device_id_), error code is 507033\n"
        "[ERROR] 2025-11-03-10:12:41 (PID:70211, Device:2, RankID:-1) ERR00100 PTA call acl api failed\n"
        "E30003: [PID: 70211] 2025-11-03-10:12:41.301.877 The number of started user processes on the device exceeds "
        "the limit.\n",
        "Not_Supported_Specification(E30003): The number of started user processes on the device exceeds the limit.\n",
    ):
        assert _id(text) == "ARL-E4729", text


def test_opp_verify_failed_is_not_e4729():
    text = ("E30006: 2025-11-19-11:14:58.516.606 Failed to verify the OPP\n"
            "        Possible Cause: 1.The OPP is incorrect.\n")
    assert _id(text) != "ARL-E4729"


# ARL-E138 (widened) ------------------------------------------------------------------------------------------------

def test_hccl_backend_unknown_to_torch_is_e138():
    text = ('  File "/usr/local/python3.10/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 258, '
            'in __new__\n    raise ValueError(f"Invalid backend: \'{name}\'")\nValueError: Invalid backend: \'hccl\'\n')
    assert _id(text) == "ARL-E138"


def test_nccl_on_npu_host_is_not_e138():
    text = "RuntimeError: Distributed package doesn't have NCCL built in\n"
    assert _id(text) != "ARL-E138"


# ARL-E4730 ---------------------------------------------------------------------------------------------------------

def test_sh_without_source_is_e4730():
    for text in (
        "/bin/sh: 1: source: not found\n",
        "sh: 1: source: not found\n",
        "run.sh: 3: source: not found\nImportError: libhccl.so: cannot open shared object file: No such file or "
        "directory\n",
        "sh: source: not found\n",
    ):
        assert _id(text) == "ARL-E4730", text


def test_other_not_found_texts_are_not_e4730():
    for text in (
        'ErrNotFound = errors.New("source: not found")\n',
        "CMake Error at cmake/dirs.cmake:12 (message):\n  gDIR_SOURCE: not found\n",
        "bash: ./set_env.sh: No such file or directory\n",
    ):
        assert _id(text) != "ARL-E4730", text


# ARL-E374 (widened) ------------------------------------------------------------------------------------------------

def test_hccl_env_var_registry_wording_is_e374():
    text = ("EI0001: [PID: 1] 2025-01-01-10:00:00.000.000 Environment variable [HCCL_BUFFSIZE] is invalid. Reason: value 0 "
            "is out of range.\n")
    assert _id(text) == "ARL-E374"


def test_runtime_env_var_is_not_e374():
    text = ("EE2002: [PID: 1] 2025-01-01-10:00:00.000.000 Value 4,5 for environment variable ASCEND_RT_VISIBLE_DEVICES is "
            "invalid. Expected value: [0, 2).\n")
    assert _id(text) != "ARL-E374"


# ARL-E314 / ARL-E372 (widened) -------------------------------------------------------------------------------------

def test_el0001_code_first_is_e314():
    text = "EL0001: [PID: 379] 2026-05-01-10:59:07.429.194 Device not found or invalid.\n"
    assert _id(text) == "ARL-E314"


def test_el0002_is_not_e314():
    text = "EL0002: [PID: 379] 2026-05-01-10:59:07.429.194 The device ID is invalid.\n"
    assert _id(text) != "ARL-E314"


def test_ei0011_registry_wording_is_e372():
    text = "EI0011: [PID: 379] 2026-05-01-10:59:07.429.194 Failed to allocate [2097152] bytes of NPU memory.\n"
    assert _id(text) == "ARL-E372"


def test_ei0007_is_not_e372():
    text = ("EI0007: [PID: 1] 2025-01-01-10:00:00.000.000 Failed to allocate resource[HCCL_BUFFSIZE] with info [x]. "
            "Reason: Memory resources are exhausted.\n")
    assert _id(text) != "ARL-E372"


def test_e39009_code_first_is_e314():
    text = "E39009: [PID: 1] 2025-01-01-10:00:00.000.000 Failed to connect the device.\n"
    assert _id(text) == "ARL-E314"


def test_ee1002_titled_is_e383():
    text = ("[PID: 1] 2025-01-01-10:00:00.000.000 Execution_Error_Stream_Synchronize_Timeout(EE1002): Stream synchronize "
            "timeout. stream_id=2\n")
    assert _id(text) == "ARL-E383"


def test_titled_five_digit_code_is_read():
    from kdata_helpers import top
    for text in (
        "[PID: 1] 2025-01-01-10:00:00.000.000 Inner_Error_TSDaemon_Process_Abnormal(E39005): The TSDaemon process "
        "initialization is abnormal.\n",
        "[ERROR] RecentErrMsg: [PID: 3745478] 2026-06-24-16:05:08.105.946 Inner_Error_TSDaemon_Process_Abnormal(E39005): "
        "The TSDaemon process initialization is abnormal.\n",
    ):
        found = top(CATALOG, text)
        assert found is not None and found[0] == "DRV-code", (text, found)


def test_allocator_invalid_device_argument_is_drv_device():
    from kdata_helpers import top
    text = ("  File \"/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/npu/memory.py\", line 262, in "
            "memory_stats_as_nested_dict\n    return torch_npu._C._npu_memoryStats(device)\n"
            "RuntimeError: Invalid device argument 8: did you call init?[ERROR] 2025-06-01-10:00:00 (PID:1, Device:0, "
            "RankID:-1) ERR00001 PTA invalid parameter\n")
    assert top(CATALOG, text) == ("DRV-device", "invalid-visible-device")


def test_device_id_positive_check_is_not_drv_device():
    from kdata_helpers import top
    found = top(CATALOG, "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, "
                         "npu:0 and cpu!\n")
    assert found is None or found[0] != "DRV-device"


# ARL-E4731 ---------------------------------------------------------------------------------------------------------

def test_negative_device_index_is_e4731():
    for text in (
        "RuntimeError: device id must be positive![ERROR] 2025-06-01-10:00:00 (PID:4182, Device:-1, RankID:-1) ERR00003 "
        "PTA invalid value\n",
        "RuntimeError: device id must be positive!\n",
    ):
        assert _id(text) == "ARL-E4731", text


def test_batch_size_positive_is_not_e4731():
    text = "RuntimeError: batch size must be positive\n"
    assert _id(text) != "ARL-E4731"


def test_no_device_initialised_is_e470():
    for text in ("RuntimeError: no npu device has been initialized!\n", "RuntimeError: npu device has not been inited.\n"):
        assert _id(text) == "ARL-E470", text


# ARL-E4732 ---------------------------------------------------------------------------------------------------------

def test_two_platform_plugins_is_e4732():
    for text in (
        "RuntimeError: Only one platform plugin can be activated, but got: ['ascend', 'mindspore']\n",
        "RuntimeError: Only one platform plugin can be activated, but got: ['cuda', 'cpu']\n",
    ):
        assert _id(text) == "ARL-E4732", text


def test_no_platform_is_not_e4732():
    text = "RuntimeError: Device string must not be empty\n"
    assert _id(text) == "ARL-E1780"


def test_hcomm_bind_reports_are_e322():
    for text in (
        "EI0019: [PID: 1] 2025-01-01-10:00:00.000.000 Failed to enable listening for the host network adapter socket. "
        "Reason: The IP address 10.23.146.197 add port 50001 have already been bound.\n",
        "EI0020: [PID: 1] 2025-01-01-10:00:00.000.000 Failed to enable listening for the NPU network adapter socket. "
        "Reason: The IP address 192.1.3.198 add port 16666 have already been bound.\n",
    ):
        assert _id(text) == "ARL-E322", text


def test_ub_error_cqe_is_e362():
    text = ("EI0018: [PID: 1] 2025-01-01-10:00:00.000.000 An error CQE occurred during operator execution. Local "
            "information: server az0-rack0, device ID 1, device IP x. Peer information: server az0-rack0, device ID 0, "
            "device IP y.\n")
    assert _id(text) == "ARL-E362"


def test_parallel_store_connect_failed_is_e136():
    text = ("  File \"/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/distributed/rendezvous.py\", line 120, "
            "in _create_parallel_handler\n    store = ParallelStore(host, port, world_size, is_master, timeout)\n"
            "RuntimeError: Failed to connect to TCP server\n")
    assert _id(text) == "ARL-E136"


def test_bare_parenthesised_five_digit_code_is_not_read():
    from kdata_helpers import top
    text = ("INFO 01-01 10:00:00 [core.py:1] [InitOpInfoLib] (E29999):  op kernel info constructed with defaults\n"
            "INFO 01-01 10:00:01 [core.py:2] step: 1\n")
    found = top(CATALOG, text)
    assert found is None or found[0] != "DRV-code", found
