"""Readings added by helper kghccl (2026-12-06, fourth wave) from the HCCL / HCCP entries of the MindCluster fault
knowledge base (Ascend/mind-cluster kg-config.json, kg codes in brackets), with the wording checked in HCCL's source.
Each test input is a short plog excerpt around the exact emitted message; each class also has a near miss.

- ARL-E362 widened (AISW_CANN_HCCL_029): HCCL's heartbeat thread reporting an error CQE in the plog
  ("[Heartbeat]cqe error status[12]", older "cqe err status", CANN 8.5+ "[ROCE CQE ERROR]cqe error status[12]").
- ARL-E320 widened (AISW_CANN_HCCL_006): a non-root rank that never got the cluster information back from the root
  ("[Recv][ClusterInfoMsg]receive msg length from fdhandle failed", "... receive from fdhandle failed").
- ARL-E323 widened (AISW_CANN_HCCL_027): the Notify Wait timeout as HCCL's task exception handler logs it
  ("[TaskExceptionHandler][Callback]Task run failed, base information is ... taskType[Notify Wait]", CANN 8.5+
  "[TaskExecStage][Timeout][Host]Task run failed, base information is streamID").
- ARL-E5360 (AISW_CANN_HCCL_024 / 028): the RDMA queue pair to a peer device never became ready
  ("[Connect][Qp]get qp status timeout_=... qp_status=...").
- ARL-E5361 (AISW_CANN_HCCL_016): the P2P enable wait towards another NPU of the same server timed out
  ("[Wait][P2PConnected]connected p2p timeout").
- ARL-E5362 (AISW_CANN_HCCL_009): the rank table file is not valid JSON ("[Read][File]... load file[...] to json fail").
- ARL-E5363 (AISW_CANN_HCCP_001 / HCCP_003): HCCP's RDMA agent losing its HDC channel to the device-side service
  ("HDC recv msg err ret(16)" wait timeout, "HDC send err ret(25)" socket closed; negated in newer hcomm).
- ARL-E5364 (AISW_VLLM_ASCEND_KV_POOL_MOONCAKE_002): vllm-ascend's Mooncake KV-pool store failing to set up
  ("Initialize mooncake failed.", v0.11 .. master).
- ARL-E372 widened (AISW_CANN_HCCL_023, out-of-memory case): "ra qp create fail, reason: out of memory" (hcomm
  adapter_hccp.cc); a bare "ra qp create fail" with another code is not read.
- ARL-E363 widened (AISW_CANN_HCCL_020): hcomm's rank-consistency check ("[RankConsistentImpl][CompareFrame]...op
  information ... check fail. local[...], remote[...]").
- ARL-E371 widened (AISW_CANN_HCCL_034): the root's TLS comparison ("Some ranks tlsStatus are inconsistent.").
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

P = "[ERROR] HCCL(12345,python3):2025-06-01-10:00:00.000.001 "
TORCH_NPU_TAIL = (
    "RuntimeError: create:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2061 HCCL function error: "
    "HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 9\n"
)


def _both(text: str, expected: str) -> None:
    assert _id(text) == expected, text
    assert _id(text + TORCH_NPU_TAIL) == expected, text


# ARL-E362 (error CQE) -----------------------------------------------------------------------------------------------

def test_heartbeat_cqe_error_is_e362():
    for line in (
        "[heartbeat.cc:1020] [12400][Heartbeat]cqe error status[12], time:[2025-06-01 09:59:58.123456],"
        "localIP[192.168.1.10], remoteIP:[192.168.1.20]\n",
        "[heartbeat.cc:998] [12400][Heartbeat]cqe err status[12], time:[2024-06-01 09:59:58.123456]\n",
        "[heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], "
        "time:[2025-09-15 08:38:12.776654],localInfo{server[10.0.0.1],deviceId[0],deviceIp[192.168.1.10]}\n",
    ):
        assert _id(P + line) == "ARL-E362", line


def test_cqe_words_elsewhere_are_not_e362():
    # a kernel RDMA driver's own completion error (not HCCL's heartbeat report)
    assert _id("bnxt_en 0000:3b:00.0: FP: CQ Processed Req wr_id[12] = 0x0 with status 0x5 (cqe error status)\n") != "ARL-E362"


# ARL-E320 (root-info detection, the non-root side) ------------------------------------------------------------------

def test_cluster_info_recv_failure_is_e320():
    for line in (
        "[topoinfo_exchange_base.cc:75] [347][Recv][ClusterInfoMsg]receive msg length from fdhandle failed, ret[9]\n",
        "[topoinfo_exchange_base.cc:90] [347][Recv][ClusterInfoMsg]receive from fdhandle failed ,ret[4]\n",
    ):
        _both(P + line, "ARL-E320")


def test_cluster_info_step_mismatch_is_not_e320():
    text = P + "[topoinfo_exchange_base.cc:110] [347][Recv][ClusterInfoMsg]RecvClusterInfo step failed step[2] vs currentStep_[1]\n"
    assert _id(text) != "ARL-E320"


# ARL-E323 (Notify Wait timeout in the plog) -------------------------------------------------------------------------

def test_notify_wait_task_exception_is_e323():
    for line in (
        "[task_exception_handler.cc:452] [69395][TaskExceptionHandler][Callback]Task run failed, base information is "
        "streamID:[3], taskID[77726298], taskType[Notify Wait], tag[AllReduce_10.0.0.1%enp179s0f0_60000_0_1712529353144389], "
        "index[3], AlgType(level 0-1-2):[null-null-ring].\n",
        "[task_exception_handler.cc:908] [2111667][TaskExecStage][Timeout][Host]Task run failed, base information is "
        "streamID:[2], taskID[21], tag[AllReduce_10.0.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n",
    ):
        assert _id(P + line) == "ARL-E323", line


def test_sdma_task_exception_is_not_e323():
    line = ("[task_exception_handler.cc:452] [69395][TaskExceptionHandler][Callback]Task run failed, base information is "
            "streamID:[3], taskID[12], taskType[Memcpy], tag[AllReduce_x].\n")
    assert _id(P + line) != "ARL-E323"


# ARL-E5360 (RDMA QP not ready) ---------------------------------------------------------------------------------------

def test_qp_status_timeout_is_e5360():
    for line in (
        "[transport_ibverbs.cc:512] [12400][Connect][Qp]get qp status timeout_=120 s, qp_status=0\n",
        "[transport_ibv_exp.cc:520] [12400][Connect][Qp]get qp status timeout_=[120 s], qp_status=[0]\n",
        "[transport_roce.cc:310] [12400][Connect][Qp]get qp status timeout_=[120000 ms], qp_status=[2]\n",
    ):
        _both(P + line, "ARL-E5360")


def test_qp_create_failure_is_not_e5360():
    assert _id(P + "[adapter_hccp.cc:700] [12400]ra qp create fail, ret[-12]\n") != "ARL-E5360"


# ARL-E5361 (P2P enable wait) -----------------------------------------------------------------------------------------

def test_p2p_enable_timeout_is_e5361():
    line = ("[p2p_enable_manager.cc:160] [12400][Wait][P2PConnected]connected p2p timeout, timeout:120 s. "
            "local logicDevid:0, remote physic id:3.\n")
    _both(P + line, "ARL-E5361")


def test_p2p_plane_error_is_not_e5361():
    text = ("EI0010: [PID: 1234] 2025-01-01-10:00:00.000.000 P2P communication failed. Reason: Device ID 0 in module 0 "
            "and device ID 9 in module 1 are not on the same plane.\n")
    assert _id(text) == "ARL-E4721"


# ARL-E5362 (rank table not JSON) ---------------------------------------------------------------------------------------

def test_ranktable_json_failure_is_e5362():
    for line in (
        "[topoinfo_ranktableParser.cc:260] [12345][Read][File]errNo[0x0000000005000004] load file[/home/user/rank_table.json] "
        "to json fail. please check json file!\n",
        "[topoinfo_ranktableParser.cc:255] [12345][Read][File] load file[/home/user/rank_table.json] to json fail. "
        "please check json file!\n",
    ):
        _both(P + line, "ARL-E5362")


def test_other_json_config_failure_is_not_e5362():
    # HCCL's op-retry host white list, another JSON file with its own tag
    line = ("[opretry_connection.cc:88] [12345][OpRetryConnection][LoadHostWhiteList]load file[/home/user/wl.json] "
            "to json fail. please check json file format.\n")
    assert _id(P + line) != "ARL-E5362"


# ARL-E363 (rank consistency) -------------------------------------------------------------------------------------------

def test_rank_consistency_compare_frame_is_e363():
    for line in (
        "[rank_consistent.cc:40] [12345][RankConsistentImpl][CompareFrame][ReportOpCheckFailed]op information count "
        "check fail. local[1024], remote[2048]\n",
        "[rank_consistent.cc:52] [12345][RankConsistentImpl][CompareFrame][ReportOpCheckFailed]op information"
        "[AllReduce] group[hccl_world_group] dataType check fail. local[fp32], remote[bf16]\n",
    ):
        _both(P + line, "ARL-E363")


def test_rank_consistency_info_line_is_not_e363():
    assert _id("[INFO] HCCL(12345,python3):2025-06-01-10:00:00.000.001 [rank_consistent.cc:20] [12345]"
               "[RankConsistentImpl]RecordOpPara success, tag[AllReduce_x]\n") != "ARL-E363"


# ARL-E371 (TLS inconsistent) -------------------------------------------------------------------------------------------

def test_tls_status_inconsistent_is_e371():
    _both(P + "[topoinfo_exchange_server.cc:620] [12345]Some ranks tlsStatus are inconsistent.\n", "ARL-E371")


def test_tls_word_in_link_block_is_not_e371():
    # HCCL's link-failure block names TLS among its generic possible reasons; that alone is not this check
    text = P + ("[transport_manager.cc:900] [12345]Wait links establish completed failed. Possible reasons: "
                "1. The TLS switch is inconsistent 2. the network is disconnected\n")
    assert _id(text) != "ARL-E371"


# ARL-E5363 (HCCP HDC channel) ------------------------------------------------------------------------------------------

H = "[ERROR] HCCP(12345,python3):2025-06-01-10:00:00.000.001 [ra_hdc.c:352]tid:12400,"


def test_hccp_hdc_timeout_or_close_is_e5363():
    for line in (
        "HdcSendRecvPktRecv : [recv][hdc_send_recv_pkt]HDC recv msg err ret(16)\n",
        "HdcSendRecvPktSend : [send][hdc_send_recv_pkt]HDC send err ret(25)\n",
        "HdcAsyncSendPkt : [async][send_pkt]HDC send err ret(-25) phyId(3)\n",
        "HdcSendRecvPkt : [send_recv][pkt]HDC broken, pkt recv err ret(-16) phyId(3)\n",
    ):
        _both(H + line, "ARL-E5363")


def test_hccp_hdc_other_code_is_not_e5363():
    # an argument error on the same call (code 8 DRV_ERROR_PARA_ERROR) is not a lost channel
    assert _id(H + "HdcSendRecvPktRecv : [recv][hdc_send_recv_pkt]HDC recv msg err ret(8)\n") != "ARL-E5363"


# ARL-E5364 (Mooncake KV-pool store) -----------------------------------------------------------------------------------

def test_mooncake_store_init_failure_is_e5364():
    for text in (
        "RuntimeError: Initialize mooncake failed.\n",
        "ERROR 06-01 14:00:03 [mooncake_backend.py:151] Initialize mooncake failed. ret=-1, "
        "metadata_server=P2PHANDSHAKE. Check mooncake config and network.\nRuntimeError: Initialize mooncake failed.\n",
    ):
        assert _id(text) == "ARL-E5364", text


def test_mooncake_transfer_to_peer_is_not_e5364():
    # the transfer engine failing towards a peer at run time is another failure
    text = "E0601 14:00:03.120551 88123 transfer_engine.cpp:412] Failed to open segment prefill-0:12345\n"
    assert _id(text) != "ARL-E5364"


# ARL-E372 (QP create out of memory) -----------------------------------------------------------------------------------

def test_qp_create_out_of_memory_is_e372():
    line = ("[adapter_hccp.cc:120] [12400][HrtRaQpCreate] ra qp create fail, reason: out of memory. "
            "qpInfo:[rdmaHandle:281471 flag:0 qpMode:2], return: ret[328100]\n")
    _both(P + line, "ARL-E372")


def test_qp_create_other_failure_is_not_e372():
    line = ("[adapter_hccp.cc:131] [12400][Create][RaQp]errNo[0x0000000005000013] ra qp create fail. "
            "qpInfo:[rdmaHandle:281471 flag:0 qpMode:2], return: ret[-22]\n")
    assert _id(P + line) != "ARL-E372"
