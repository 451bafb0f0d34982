"""Readings added by helper k51hccl (2026-12-06) while probing the HCCL / collective, Ray and memory area against
the emitting projects' source (torch_npu's parallel TCP store, CANN HCCP). Each test input is a short excerpt
around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E136 widened: torch_npu's parallel TCP store (rendezvous backend "parallel", torch_npu_run,
  TORCH_NPU_USE_PARALLEL_TCPSTORE=True) giving up on the master: "connect tcp client to server(host:port failed."
  (ParallelTcpStore.cpp; the literal has no closing parenthesis). Before, nothing was reported.
- ARL-E006 widened: the same store's server unable to bind MASTER_PORT ("bind server socket fd failed 98 : Address
  already in use", ParallelTcpServer.cpp; "start tcp server on port N failed.", ParallelTcpStore.cpp). Before,
  nothing was reported.
- DRV-rendezvous widened: the same store's get / wait timing out ("get key K failed or timeout.", through the agent
  proxy "proxy sync wait msgK failed or timeout."), read as a key the other ranks never wrote. Before, nothing.
- ARL-E368 widened: HCCP's own wording of the rank-table device_ip check (ra_host.c RaRdevInitCheckIp: "... in the
  ranktable is inconsistent with the IP(x.x.x.x)address of the network adapter") and HCCL's caller line ("the IP
  address in the ranktable is inconsistent with the IP address of the network adapter."). Before, the HCCP line read
  as a device NIC that did not come up (DRV-hccl).
- ARL-E322 widened: HCCP's own bind lines for a port another process holds (rs_socket.c: older "bind fail! family:2,
  IP:x, port:p, ..., error:98, Possible Cause: ...", "bind and listen fail, err_no:98"; hcomm "bind unsuccessful!
  ..." / "bind and listen unsuccessful, errNo:98"). Before, only a similarity guess.
- ARL-E5160: HCCP unable to bind a socket to an IP this host does not have (errno 99 EADDRNOTAVAIL: "client bind
  fail(ed)! IP:..., error:99", "bind fail! ... error:99", "bind and listen failed, errNo:99"): HCCL picked a NIC /
  IP that is not local (HCCL_SOCKET_IFNAME / HCCL_IF_IP, IPv6 link-local, a container without the host network).
- ARL-E5161: torchrun's launcher sent SIGTERM from outside ("SignalException: Process N got signal: 15", "Received 15 /
  Signals.SIGTERM death signal, shutting down workers"): scheduler time limit / preemption / scancel, pod deletion
  or eviction, docker stop. Before, a resemblance to the SIGHUP entry (ARL-E021) at similarity 1.00.
- ARL-E5162: the same launcher interrupted by SIGINT (Ctrl-C): signal 2. Before, the same wrong resemblance.
- ARL-E021 widened: "Received Signals.SIGHUP death signal, shutting down workers" (the enum name later releases log).
- ARL-E1643 widened: the core worker's view of a dead raylet (normal_task_submitter.cc: "The worker failed to receive
  a response from the local raylet because the raylet is unavailable (crashed).", the driver's "...local
  raylet(id: N ,ip: X) because the raylet is unavailable (crashed).", "Terminating the worker due to local raylet
  death"). Before, unknown or a resemblance to a package mismatch.
- ARL-E5163: the head node unable to start its GCS server (node.py "Failed to start GCS.  Last N lines of error
  files: ...", "Failed to start GCS. Last connection error: ...", the older CRITICAL log line). Before, the quoted
  Redis lines read as a worker that cannot reach a remote GCS (ARL-E119) or nothing.
- ARL-E5164: an HCCL collective run as AIV kernels (HCCL_OP_EXPANSION_MODE=AIV) failing on the device: the runtime's
  "Aicore kernel execute failed, ..., fault kernel_name=aiv_all_gather_bfloat16_t" names HCCL's kernel (hicann/hccl
  fault-diagnosis guide). Before, an operator's AI Core exception (ARL-E330).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# torch_npu parallel TCP store ----------------------------------------------------------------------------------------

def test_parallel_store_client_connect_failure_is_e136():
    for text in (
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.10/site-packages/torch_npu/distributed/rendezvous.py\", line 96, in _create_c10d_store\n"
        "    return torch_npu._C._distributed_c10d.ParallelStore(hostname, port, world_size, is_master, timeout)\n"
        "RuntimeError: connect tcp client to server(10.0.0.1:29500 failed.\n",
        "[E1206 10:00:00.000000 1234 StoreClient.cpp:63] connect socket to server(10.0.0.1:29500) failed 111 : Connection refused\n"
        "RuntimeError: connect tcp client to server(node-0:29500 failed.\n",
    ):
        assert _id(text) == "ARL-E136", text


def test_parallel_store_retry_line_alone_is_not_e136():
    # The per-attempt connect warning is a retry a healthy run can print while the master is still starting.
    text = "[E1206 10:00:00.000000 1234 StoreClient.cpp:63] connect socket to server(10.0.0.1:29500) failed 111 : Connection refused\n"
    assert _id(text) != "ARL-E136"


def test_parallel_store_server_bind_failure_is_e006():
    for text in (
        "[E1206 10:00:00.000000 1234 ParallelTcpServer.cpp:261] bind server socket fd failed 98 : Address already in use\n"
        "RuntimeError: start tcp server on port 29500 failed.\n",
        "RuntimeError: start tcp server on port 6000 failed.\n",
    ):
        assert _id(text) == "ARL-E006", text


def test_parallel_store_server_other_socket_error_is_not_e006_by_its_bind_line():
    # EADDRNOTAVAIL (99) on bind is another failure (an address not on this host); the bind-98 signature must not fire.
    text = "[E1206 10:00:00.000000 1234 ParallelTcpServer.cpp:261] bind server socket fd failed 99 : Cannot assign requested address\n"
    assert _id(text) != "ARL-E006"


def test_parallel_store_get_timeout_is_a_store_wait():
    for text in (
        "  File \"/usr/local/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 1520, in init_process_group\n"
        "    store, rank, world_size = next(rendezvous_iterator)\n"
        "RuntimeError: get key /default_pg/0//hccl/0/0 failed or timeout.\n",
        "RuntimeError: proxy sync wait msgrank_7 failed or timeout.\n",
    ):
        top = _top(text)
        assert top is not None and top.entry.id == "DRV-rendezvous", text
        assert top.kind == "rendezvous-socket-timeout"


def test_a_plain_dict_key_error_is_not_a_store_wait():
    text = "KeyError: 'get key foo'\nValueError: unsupported check operation.\n"
    assert _id(text) != "DRV-rendezvous"


# ARL-E368 ----------------------------------------------------------------------------------------------------------

def test_hccp_device_ip_check_wordings_are_e368():
    for text in (
        "[ERROR] HCCP(1609,python3):2023-10-19-12:33:13.313.594 [ra_host.c:544]tid:1609,ra_rdev_init_check_ip(544) : "
        "[check][ip]fail, ret(-16) the IP address(29.4.84.36) in the ranktable is inconsistent with the IP(29.4.76.85)"
        "address of the network adapter, please make sure they're consistent. num(1)\n",
        "[ERROR] HCCP(1609,python3):2026-01-19-12:33:13.313.594 [ra_host.c:480]tid:1609,RaRdevInitCheckIp(480) : "
        "[check][ip]failed, ret(-16) the IP address(192.168.1.8) in the ranktable is inconsistent with the IP(192.168.1.9)"
        "address of the network adapter, please make sure they're consistent. num(2)\n",
        "[ERROR] HCCL(1234,python3):2025-01-01-00:00:00.000.000 [network_manager.cc:100] [1234][InitGroupStage]"
        "[RanktableCheck]the IP address in the ranktable is inconsistent with the IP address of the network adapter.\n",
        # the earlier (HCCL guide) wording still reads the same
        "[ERROR] HCCP(166192,eExecutor):2025-01-21-16:59:39.962.565 [ra_host.c:480]tid:167056,ra_rdev_init_check_ip(480) : "
        "[check][ip]fail, ret(129) the IP address(127.10.0.0) in the ranktable is inconsistent with the IP address(127.10.0.1) "
        "of the network adapter\n",
    ):
        assert _id(text) == "ARL-E368", text


def test_device_nic_link_down_is_not_e368():
    # ENOLINK (-67) from ra_rdev_init: the NIC is down, not a rank table naming another IP.
    text = (
        "[ERROR] HCCP(46430,python3):2023-09-21-03:43:49.546.469 [ra hdc.c:1270]tid:46430,ra_hdc_rdev_init(1270) : "
        "[init][ra_hdc_rdev]ra hdc message process failed ret(-67) phy_id(3)\n"
        "[ERROR] HCCP(46430,python3):2023-09-21-03:43:49.546.488 [ra_host.c:621]tid:46430,ra_rdev_init(621) : "
        "[init][ra_rdev]ra rdev init failed. ret(-67)\n"
    )
    assert _id(text) != "ARL-E368"


# ARL-E322 (HCCP bind lines, errno 98) -------------------------------------------------------------------------------

HCCP_BIND_98 = (
    "[ERROR] HCCP(3541138,python3):2023-11-13-19:05:49.833.681 [rs_socket.c:671]tid:3541138,rs_socket_listen_bind_listen(671) : "
    "bind fail! family:2, IP:127.0.0.1, port:50000, sock:27, ret:0xffffffff, error:98, Possible Cause: the IP address and port "
    "have been bound already\n"
    "[ERROR] HCCP(3541138,python3):2023-11-13-19:05:49.833.687 [rs_socket.c:860]tid:3541138,rs_socket_listen_start(860) : "
    "bind and listen fail, err_no:98, listen_fd:27, listen state:1, IP(127.0.0.1) server_port:50000\n",
    "[WARNING] HCCP(4120,python3):2026-05-02-09:00:00.000.001 [rs_socket.c:702]tid:4120,RsSocketListenBindListen(702) : "
    "bind unsuccessful! family:2, IP:192.168.100.12, port:16666, sock:31, ret:0xffffffff, error:98, Possible Cause: the IP "
    "address and port have been bound already\n"
    "[WARNING] HCCP(4120,python3):2026-05-02-09:00:00.000.002 [rs_socket.c:860]tid:4120,RsSocketListenStart(860) : "
    "bind and listen unsuccessful, errNo:98, listenFd:31, state:1, IP(192.168.100.12) serverPort:16666\n",
)


def test_hccp_bind_in_use_is_e322():
    for text in HCCP_BIND_98:
        assert _id(text) == "ARL-E322", text


# ARL-E5160 ---------------------------------------------------------------------------------------------------------

HCCP_BIND_99 = (
    "[ERROR] HCCP(13854,python3):2023-09-04-14:37:34.444.964 [rs_socket.c:1124]tid:21717,rs_connect_bind_client(1124) : "
    "client bind fail! IP:fe80::4b79:e6c9:31eb:f019, sock:530, ret:-1, error:99\n"
    "[ERROR] HCCP(13854,python3):2023-09-04-14:37:34.444.968 [rs_socket.c:1164]tid:21717,rs_socket_state_reset(1164) : "
    "rs_connect_bind_client failed, ret[-99]\n",
    "[ERROR] HCCP(13854,python3):2026-09-04-14:37:34.444.964 [rs_socket.c:1124]tid:21717,RsConnectBindClient(1124) : "
    "client bind failed! IP:10.20.0.7, sock:530, ret:-1, error:99\n",
    # the FAQ's IPv6 listen case: older HCCP appended the EADDRINUSE hint whatever the errno
    "[ERROR] HCCP(160639,python3):2023-10-17-07:28:13.178.137 [rs_socket.c:671]tid:160639,rs_socket_listen_bind_listen(671) : "
    "bind fail! ::350d:755b:add4:ada6, port:60000, sock:25, ret:0xffffffff, error:99, Possible Cause: the IP address and "
    "port have been bound already\n",
    "[ERROR] HCCP(2001,python3):2026-09-04-14:37:34.444.964 [rs_socket.c:860]tid:2001,RsSocketListenStart(860) : "
    "bind and listen failed, errNo:99, listenFd:27, listen state:1, IP(29.4.84.36) serverPort:16666\n",
)


def test_hccp_bind_address_not_available_is_e5160():
    tail = (
        "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 HCCL function error: "
        "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 7\n"
    )
    for text in HCCP_BIND_99:
        assert _id(text) == "ARL-E5160", text
        assert _id(text + tail) == "ARL-E5160", text


def test_hccp_bind_in_use_is_not_e5160():
    for text in HCCP_BIND_98:
        assert _id(text) != "ARL-E5160", text


def test_c10d_eaddrnotavail_is_not_e5160():
    # torch.distributed's own store socket on an address that is not local is the rendezvous's problem, not HCCP's.
    text = ("[W socket.cpp:436] [c10d] The server socket has failed to bind to 10.9.9.9:29500 (errno: 99 - Cannot assign "
            "requested address).\n")
    assert _id(text) != "ARL-E5160"


# ARL-E5161 / ARL-E5162 / ARL-E021 (torchrun's launcher receiving a signal) --------------------------------------------

def _launcher(sig: str, received: str) -> str:
    return (
        f"W1206 16:43:25.650000 190834 torch/distributed/elastic/agent/server/api.py:723] Received {received} death signal, "
        "shutting down workers\n"
        "W1206 16:43:25.654000 190834 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 190910 closing "
        "signal SIGTERM\n"
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/site-packages/torch/distributed/elastic/multiprocessing/api.py\", line 86, in "
        "_terminate_process_handler\n"
        "    raise SignalException(f\"Process {os.getpid()} got signal: {sigval}\", sigval=sigval)\n"
        f"torch.distributed.elastic.multiprocessing.api.SignalException: Process 190834 got signal: {sig}\n"
    )


def test_launcher_sigterm_is_e5161():
    for text in (_launcher("15", "15"), _launcher("15", "Signals.SIGTERM"),
                 "torch.distributed.elastic.multiprocessing.api.SignalException: Process 76 got signal: 15\n",
                 "WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting down workers\n"):
        assert _id(text) == "ARL-E5161", text


def test_launcher_sigint_is_e5162():
    for text in (_launcher("2", "2"), _launcher("2", "Signals.SIGINT"),
                 "torch.distributed.elastic.multiprocessing.api.SignalException: Process 17860 got signal: 2\n"):
        assert _id(text) == "ARL-E5162", text


def test_launcher_sighup_stays_e021():
    for text in (_launcher("1", "1"), _launcher("1", "Signals.SIGHUP"),
                 "W1229 api.py:723] Received Signals.SIGHUP death signal, shutting down workers\n"):
        assert _id(text) == "ARL-E021", text


def test_workers_sent_sigterm_by_the_launcher_is_not_e5161():
    # The agent's own "Sending process N closing signal SIGTERM" (after a worker failed) is not the launcher being stopped.
    text = (
        "W1206 torch/distributed/elastic/multiprocessing/api.py:900] Sending process 4039306 closing signal SIGTERM\n"
        "E1206 torch/distributed/elastic/multiprocessing/api.py:874] failed (exitcode: -9) local_rank: 0 (pid: 4039305) of "
        "binary: /usr/bin/python3\n"
    )
    assert _id(text) not in ("ARL-E5161", "ARL-E5162")


def test_an_earlier_npu_oom_outranks_the_sigterm():
    text = (
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 55.10 GiB already "
        "allocated; 55.10 GiB current active; 1.20 GiB free; 58.00 GiB reserved in total by PyTorch)\n"
        + _launcher("15", "Signals.SIGTERM")
    )
    assert _id(text) != "ARL-E5161"


# ARL-E1643 (the core worker's view of a dead raylet) ----------------------------------------------------------------

def test_core_worker_sees_raylet_unavailable_is_e1643():
    for text in (
        "(WorkerDict pid=4242, ip=10.0.0.2) [2026-01-01 10:00:00,000 W 4242 4300] normal_task_submitter.cc:301: The worker "
        "failed to receive a response from the local raylet because the raylet is unavailable (crashed). Error: "
        "RpcError: RPC Error message: failed to connect to all addresses; RPC Error details:\n"
        "(WorkerDict pid=4242, ip=10.0.0.2) [2026-01-01 10:00:00,001 W 4242 4300] normal_task_submitter.cc:306: Terminating "
        "the worker due to local raylet death\n",
        "ray.exceptions.LocalRayletDiedError: The worker failed to receive a response from the local raylet(id: "
        "3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c ,ip: 10.0.0.1) because the raylet is unavailable (crashed).\n",
    ):
        assert _id(text) == "ARL-E1643", text


def test_raylet_still_alive_retry_is_not_e1643():
    text = (
        "[2026-01-01 10:00:00,000 W 1234 1240] normal_task_submitter.cc:300: The worker failed to receive a response from "
        "the local raylet, but raylet is still alive. Try again on a local node. Error: RpcError\n"
    )
    assert _id(text) != "ARL-E1643"


# ARL-E5163 ---------------------------------------------------------------------------------------------------------

def test_head_failed_to_start_gcs_is_e5163():
    for text in (
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.10/site-packages/ray/_private/node.py\", line 1026, in _init_gcs_client\n"
        "RuntimeError: Failed to start GCS.  Last 1 lines of error files:\n"
        "[2026-01-01 10:00:00,000 C 1234 1234] (gcs_server) gcs_server_main.cc:120: Check failed: ... bind: Address already "
        "in use\n"
        ".Please check /tmp/ray/session_2026-01-01_10-00-00_000000_1234/logs/gcs_server.out for details. Last connection "
        "error: RpcError\n",
        "RuntimeError: Failed to start GCS. Last connection error: RpcError: RPC Error message: failed to connect to all "
        "addresses\n",
        "2023-03-30 18:42:44,984 CRITICAL node.py:610 -- Failed to start GCS. Last 10 lines of error files:\n",
    ):
        assert _id(text) == "ARL-E5163", text


def test_worker_failed_to_connect_to_gcs_is_not_e5163():
    text = ("RuntimeError: Failed to connect to GCS. Please check if the GCS server is running and the address "
            "10.0.0.1:6379 is correct.\n")
    assert _id(text) != "ARL-E5163"


# ARL-E5164 ---------------------------------------------------------------------------------------------------------

EZ_AIVEC = (
    "EZ9999: Inner Error!\n"
    "EZ9999[PID: 2723298] 2026-06-02-04:45:20.800.000 (EZ9999):  The error from device(chipId:8, dieId:0), serial number "
    "is 4, there is an exception of aivec error, core id is 32, error code = 0x800000, dump info: pc start: 0x1244011f86fc, "
    "current: 0x1244011f8b84.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_core_proc.cc][LINE:303]\n"
)


def test_hccl_aiv_kernel_failure_is_e5164():
    for kernel in ("aiv_all_reduce_910b_bfloat16_t", "aiv_all_gather_bfloat16_t", "aiv_reduce_scatter_910b_float",
                   "aiv_all_to_all_910b_int8_t"):
        line = (
            "[ERROR] RUNTIME(699131,python):2025-04-24-21:54:17.707.236 [davinci_kernel_task.cc:1268]699131 "
            "PrintErrorInfoForDavinciTask:[INIT][DEFAULT]Aicore kernel execute failed, device_id=0, stream_id=2, "
            f"report_stream_id=2, task_id=55873, flip_num=2073, fault kernel_name={kernel}, fault kernel info ext={kernel}, "
            "program id=42, hash=9645272693770703471.\n"
        )
        assert _id(line) == "ARL-E5164", kernel
        assert _id(EZ_AIVEC + line) == "ARL-E5164", kernel


def test_compute_kernel_failure_is_not_e5164():
    line = (
        "[ERROR] RUNTIME(1456,python):2025-09-17-05:36:01.000.000 [davinci_kernel_task.cc:1268]1456 "
        "PrintErrorInfoForDavinciTask:[INIT][DEFAULT]Aicore kernel execute failed, device_id=2, stream_id=2, "
        "report_stream_id=2, task_id=42014, flip_num=6, fault kernel_name=reshape_and_cache_200000000, program id=3, hash=1.\n"
    )
    assert _id(EZ_AIVEC + line) != "ARL-E5164"
