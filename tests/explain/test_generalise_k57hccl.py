"""Readings added by helper k57hccl (2026-12-07) for torch_npu's ProcessGroupHCCL and its Python side at process-group
creation, HCCL's own CANN-log lines of the env-check and link-timeout stages, and c10d's TCPStore socket errors,
confirmed in Ascend/pytorch (v26.1.0-pytorch2.7.1), PyTorch's c10d Utils.hpp (two stored commits) and the HCCL
fault-diagnosis guide in hicann/hccl (v9.1.0). Each test input is a short excerpt around the exact emitted message;
each class also has a near miss (similar words, another failure).

- ARL-E6000: a process group created under a name the process already uses ("The specified group name has already
  been created, please use a different group name"); before, nothing.
- ARL-E6001: ProcessGroupHCCL.Options().hccl_config with a value of the wrong type ("Value type of hccl_buffer_size
  should be int." / "... group_name should be string." / "Value type of hccl_exec_timeout exceeds INT32_MAX"); before,
  nothing.
- ARL-E6002: a named HCCL communicator on a CANN that cannot name them ("The current version of CANN does not support
  the hcclCommName:"); before, the ERR02009 code reading (DRV-code).
- ARL-E6003: torch_npu's warning that this rank's torch_npu differs from rank 0's ("PTA version mismatch"), not fatal;
  before, nothing.
- ARL-E6004: init_process_group(device_id=torch.device('npu')) without an index ("init_process_group device_id
  parameter must be an accelerator with an index"); before, nothing.
- ARL-E374 widened: HCCL's CANN-log line "[Parse][rdmaServerLevel]HCCL_RDMA_SL[1000] is invalid. except: [0, 7]";
  before, nothing.
- ARL-E320 widened: "TopoExchangeAgent: connect server[ip : port] failed" and the connect-timeout detector's "detects
  that srcRank (server ...) fails to connect to dstRank (server ...)"; before, nothing.
- ARL-E136 widened: torch_npu's parallel TCP store client giving up on the master ("connect tcp client to
  server(host:port) failed."); before, nothing.
- ARL-E4604 widened: the bare "torch.distributed.DistNetworkError: Connection reset by peer" / "Broken pipe" and the
  older "RuntimeError: Connection reset by peer"; before, nothing.
- ARL-E341 widened (not fatal): hccn_tool -link_stat's "link down count : N" (N > 0) and "... LINK DOWN" records;
  before, nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/home/user/verl/verl/trainer/main_ppo.py\", line 65, in run_ppo\n"


# ARL-E6000 -----------------------------------------------------------------------------------------------------------

def test_duplicate_group_name_is_e6000():
    for line in (
        "ValueError: The specified group name has already been created, please use a different group name",
        "RuntimeError: The specified group name has already been created, please use a different group name",
    ):
        assert _id(TB + line + "\n") == "ARL-E6000", line


def test_default_group_initialised_twice_is_not_e6000():
    # initialising the default group twice is another failure (ARL-E4170)
    line = "RuntimeError: trying to initialize the default process group twice!"
    assert _id(TB + line + "\n") != "ARL-E6000"


# ARL-E6001 -----------------------------------------------------------------------------------------------------------

def test_hccl_config_wrong_value_type_is_e6001():
    for line in (
        "RuntimeError: Value type of hccl_buffer_size should be int.[ERROR] 2025-11-28-09:12:45 (PID:90311, Device:3, "
        "RankID:3) ERR02002 DIST invalid type",
        "RuntimeError: Value type of group_name should be string.",
        "RuntimeError: Value type of qos_traffic_class should be int.",
        "RuntimeError: Value type of hccl_exec_timeout exceeds INT32_MAX(2147483647).",
    ):
        assert _id(TB + line + "\n") == "ARL-E6001", line


def test_hccl_buffsize_env_not_positive_is_not_e6001():
    # the HCCL_BUFFSIZE environment variable's own check is torch_npu's OptionsManager, another entry
    line = "RuntimeError: HCCL_BUFFSIZE should be positive.[ERROR] 2025-11-28-09:12:45 (PID:1, Device:0, RankID:0) ERR00001"
    assert _id(TB + line + "\n") != "ARL-E6001"


def test_hccl_exec_timeout_negative_warning_is_not_e6001():
    line = "[W compiler_depend.ts:3977] Warning: Value type of hccl_exec_timeout less than 0. (function operator())"
    assert _id(line + "\n") != "ARL-E6001"


# ARL-E6002 -----------------------------------------------------------------------------------------------------------

def test_cann_without_comm_name_support_is_e6002():
    line = ("RuntimeError: The current version of CANN does not support the hcclCommName:tp-group-0[ERROR] "
            "2025-10-14-16:02:59 (PID:3321, Device:0, RankID:0) ERR02009 DIST feature not supported")
    assert _id(TB + line + "\n") == "ARL-E6002"


def test_comm_name_set_twice_is_not_e6002():
    line = ("RuntimeError: The current ProcessGroup has already set the name and cannot be duplicated, Invalid "
            "hcclCommName:a, current hcclCommName:b")
    assert _id(TB + line + "\n") != "ARL-E6002"


# ARL-E6003 -----------------------------------------------------------------------------------------------------------

def test_pta_version_mismatch_is_e6003():
    text = "(WorkerDict pid=20114, ip=10.1.0.12) [W compiler_depend.ts:2481] Warning: PTA version mismatch (function operator())\n"
    assert _id(text) == "ARL-E6003"


def test_pta_version_mismatch_is_not_fatal():
    # a run that fails later with a real error is diagnosed by that error, not by the warning
    text = ("[W compiler_depend.ts:2481] Warning: PTA version mismatch (function operator())\n" + TB
            + "ValueError: The specified group name has already been created, please use a different group name\n")
    assert _id(text) == "ARL-E6000"


def test_ray_version_mismatch_is_not_e6003():
    line = "RuntimeError: Ray version mismatch: cluster has Ray version 2.46.0 but local Ray version is 2.48.0"
    assert _id(TB + line + "\n") != "ARL-E6003"


# ARL-E6004 -----------------------------------------------------------------------------------------------------------

def test_device_id_without_index_is_e6004():
    line = "ValueError: init_process_group device_id parameter must be an accelerator with an index"
    assert _id(TB + line + "\n") == "ARL-E6004"


def test_invalid_device_ordinal_is_not_e6004():
    line = "RuntimeError: Invalid device argument : did you call init?"
    assert _id(TB + line + "\n") != "ARL-E6004"


# ARL-E374 (widened) --------------------------------------------------------------------------------------------------

def test_hccl_env_parse_line_is_e374():
    line = ("[ERROR]HCCL(3729526,python3.11):2025-10-23-17:30:40.098.973 [externalinput.cc:963] [3729526][Parse]"
            "[rdmaServerLevel]HCCL_RDMA_SL[1000] is invalid. except: [0, 7]")
    assert _id(line + "\n") == "ARL-E374"


def test_hccl_env_info_line_is_not_e374():
    line = ("[INFO] HCCL(1595259,alltoall_test):2026-01-06-15:38:29.881.991 [externalinput.cc:1205] [1595259][HCCL_ENV] "
            "HCCL_RDMA_SL set by default to [4]")
    assert _id(line + "\n") != "ARL-E374"


# ARL-E320 (widened) --------------------------------------------------------------------------------------------------

def test_hccl_link_timeout_lines_are_e320():
    for line in (
        "[ERROR] HCCL(7988,all_reduce_test):2025-03-19-04:16:13.978.995 [topoinfo_exchange_agent.cc:41] [7988]"
        "[TopoInfoExchangeAgent][Setup]TopoExchangeAgent: connect server[127.10.0.1 : 60000] failed",
        "[ERROR] HCCL(17528,python3):2026-03-18-10:34:43.141.966 [detect_connect_anomalies.cc:132] [18744]This node "
        "(server 192.168.200.100, device ID 1) detects that srcRank (server 192.168.200.100, device ID 1) fails to "
        "connect to dstRank (server 192.168.200.100, device ID 0). Continue to analyze the fault based on the logs of "
        "srcRank and dstRank.",
    ):
        assert _id(line + "\n") == "ARL-E320", line


def test_create_dest_error_is_not_e320():
    # EI0009's Create Dest error (the peer set up its side differently) is ARL-E355, not a timeout
    line = ("EI0009: [PID: 1] 2025-01-01-00:00:00.000.000 Transport init error. Reason: [Create][DestLink]Create Dest "
            "error! createLink para:rank[5]-localUserrank[4]-localIpAddr[127.10.0.1], dst_rank[6]-remoteUserrank[7]")
    assert _id(line + "\n") != "ARL-E320"


# ARL-E136 (widened) --------------------------------------------------------------------------------------------------

def test_parallel_store_client_connect_failed_is_e136():
    line = "RuntimeError: connect tcp client to server(10.0.0.1:29500) failed."
    assert _id(TB + line + "\n") == "ARL-E136"


def test_parallel_store_key_timeout_is_not_e136():
    # a store that was reached but did not answer a set in time is not the master being unreachable
    line = "RuntimeError: set key /default_pg/0//npu//0 failed or timeout."
    assert _id(TB + line + "\n") != "ARL-E136"


# ARL-E4604 (widened) -------------------------------------------------------------------------------------------------

def test_bare_store_socket_errors_are_e4604():
    for line in (
        "torch.distributed.DistNetworkError: Connection reset by peer",
        "torch.distributed.DistNetworkError: Broken pipe",
        "RuntimeError: Connection reset by peer",
    ):
        assert _id(TB + line + "\n") == "ARL-E4604", line


def test_python_connection_reset_error_is_not_e4604():
    # Python's own socket error (an HTTP client, a Ray RPC) is not the c10d store
    line = "ConnectionResetError: [Errno 104] Connection reset by peer"
    assert _id(TB + line + "\n") != "ARL-E4604"


# ARL-E341 (widened, not fatal) ---------------------------------------------------------------------------------------

def test_hccn_tool_link_down_record_is_e341():
    text = ("$ hccn_tool -i 0 -link_stat -g\n"
            "[devid 0]current time        : Tue Oct 28 21:46:46 2025\n"
            "[devid 0]link up count       : 2\n"
            "[devid 0]link down count     : 1\n"
            "[devid 0]link change records :\n"
            "[devid 0]    Sun Oct  5 10:13:51 2025    LINK UP\n"
            "[devid 0]    Sun Oct  5 10:13:50 2025    LINK DOWN\n")
    assert _id(text) == "ARL-E341"


def test_hccn_tool_clean_link_history_is_not_e341():
    text = ("[devid 0]current time        : Tue Oct 28 21:46:46 2025\n"
            "[devid 0]link up count       : 1\n"
            "[devid 0]link down count     : 0\n"
            "[devid 0]link change records :\n"
            "[devid 0]    Sun Oct  5 10:13:35 2025    LINK UP\n")
    assert _id(text) != "ARL-E341"
