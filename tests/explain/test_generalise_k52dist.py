"""Readings added by helper k52dist (2026-12-07) while probing public threads and the emitting projects' source for
distributed-run failure classes (NCCL / torch.distributed / torchrun-elastic / Ray / verl resource pools). Each test
input is a short excerpt around the exact emitted message; each class also has a near miss (similar words, another
failure).

- ARL-E5580: CUDA peer-to-peer access refused between two GPUs ("peer access is not supported between these two
  devices" in PyTorch's, vLLM / SGLang custom all-reduce's, NCCL's and llama.cpp's wrappers; cudaErrorPeerAccessUnsupported);
  before, nothing.
- ARL-E5581: NCCL's ncclSystemError in PyTorch's detail line ("ncclSystemError: System call (e.g. socket, malloc) or
  external library call failed", torch 1.x "System call (socket, malloc, munmap, etc) failed."); the bare "unhandled
  system error" line alone stays with the resemblance reading (dev threads with only it were resolved differently).
- ARL-E5582: NCCL's socket connect to a peer failing ("Connect to ip<port> failed : ...", "Net : Connect to",
  "socketStartConnect: Connect to", "socketPollConnect: Connect to ... returned N(...)", 2.30's
  "ncclOsSocketPollConnect to", 2.4's "WARN Call to connect failed : ").
- ARL-E5583 / ARL-E5584 / ARL-E5585: NCCL's ncclUnhandledCudaError, ncclInternalError, ncclInvalidUsage /
  ncclInvalidArgument in PyTorch's ("NCCL error in: ..., X", "NCCL Error N: X"), nccl-tests' and PyTorch's detail
  wordings.
- The entries that name the WARN / "Last error:" line of those codes (ARL-E2875 /dev/shm, ARL-E4171 NCCL OOM, ARL-E2801
  duplicate GPU, ARL-E5520 no bootstrap interface, ARL-E4178 ibv ENOMEM, ARL-E4180 HAMi, ARL-E851 remote error) list
  the bare code as their consequence, and classify.py lets such an explicit consequence win over the chain's order.
- ARL-E851 widened: NCCL's socket layer seeing the peer go ("Net : / socketProgress: Connection closed by remote peer",
  "Call to recv from ip<port> failed : Connection reset by peer").
- ARL-E5586: torchrun's elastic rendezvous closed by another agent (RendezvousClosedError).
- DRV-rendezvous widened: RendezvousConnectionError's "The connection to the C10d store has failed. See inner
  exception for details." when the inner exception was cut from the paste.
- DRV-oserror widened: the libuv TCPStore backend's listen failure ("useIpv6: 0, code: -99, name: EADDRNOTAVAIL,
  message: cannot assign requested address").
- ARL-E5587: verl's resource-pool checks (single_controller/ray/base.py: "no enough nodes for request: searching N th
  node", "requesting N processes, bundle count cannot satisfy", "use_gpu is True but resource_pool.use_gpu is False",
  "Both RayResourcePool must either use_gpu or not").
- ARL-E1681 widened: the older gloo's own pair connect failure outside connectFullMesh ("[.../gloo/transport/tcp/
  pair.cc:N] connect [127.0.1.1]:port: Connection refused", "Connect timeout [addr]").
- ARL-E5520 widened: NCCL's socket() refused with EAFNOSUPPORT when no interface was found ("Net : Socket creation
  failed : Address family not supported by protocol", "ncclSocketInit: Socket creation failed : ...").
- ARL-E4604 widened, non-fatal: the NCCL heartbeat's "Failed to check the "should dump" flag on TCPStore, (maybe
  TCPStore server has shut down too early), with error: ..." and TCPStore.cpp's "[c10d] sendBytes / recvValue failed on
  SocketImpl(...): Broken pipe / Connection reset by peer" warnings (a finished run prints them while rank 0 tears
  down); its fatal reading now needs the raised form ("...Error: ... Failed to recv, got 0 bytes").
- ARL-E5588: Ray placement-group waits that ran out (Ray Train v1 / xgboost_ray "Placement group creation timed out
  ... Make sure your cluster either has enough resources", Ray Train v2 "The worker group startup timed out after N
  seconds waiting for M workers.", NeMo-RL "Timed out waiting for placement groups to be ready. The cluster may not
  have enough resources").
- ARL-E5589: Slurm refusing a job's request at submission ("sbatch: error: Batch job submission failed: / srun: error:
  Unable to allocate resources:" with slurm_errno.c's node-configuration / gres / partition / account / QOS reasons).
- ARL-E5590: DeepSpeed's multi-node launcher failing its ssh to a hostfile host (runner.py "Using hostfile at X but
  host=Y was not reachable via ssh.").
- ARL-E5591: NCCL's InfiniBand / RoCE error completions ("NET/IB : Got completion from peer X with error 12, ...",
  "with status=12 ...", 2.26+'s "NET/IB: Got completion", plugins' forms), "Call to ibv_modify_qp failed with", and
  (non-fatal) the HCA's "Got async event : port error".
- ARL-E5592: NCCL's GPU memory registration refused by the NIC ("Call to ibv_reg_mr / ibv_reg_mr_iova2 /
  ibv_reg_dmabuf_mr failed with error Invalid argument / Bad address / Operation not supported"; ENOMEM stays ARL-E4178).
- ARL-E5593: CUDA error 802 "system not yet initialized" (NVSwitch systems without NVIDIA Fabric Manager).
- ARL-E5594: CUDA error 46 "all CUDA-capable devices are busy or unavailable" / "CUDA-capable device(s) is/are busy or
  unavailable" (Exclusive-Process GPUs held by another rank or process).
- ARL-E5595: GPU hardware faults "uncorrectable ECC error encountered" / "uncorrectable NVLink error detected during
  the execution".
- ARL-E5596: DDP's parameter-count all-gather that returned nothing ("DDP expects same model across all ranks, but
  Rank N has M params, while rank K has inconsistent 0 params"); a real count mismatch (non-zero) is not read as it.
- ARL-E5597: TCPStore's libuv backend missing from the build ("use_libuv was requested but PyTorch was build without
  libuv support", Windows wheels with torch >= 2.4).
- ARL-E5598: reductions the Gloo backend does not implement ("Cannot use ReduceOp.AVG / PREMUL_SUM with Gloo", bitwise
  ops on floating tensors).
- ARL-E5599: DDP given device_ids for a model on the CPU or spread over several GPUs (torch's "device_ids and
  output_device arguments only work with single-device/multiple-device GPU modules or CPU modules" and its 1.x
  "single-device CUDA modules" form; accelerate's 8-bit refusal; its device_map='auto' refusal stays ARL-E2778).
- ARL-E5600: ranks that built different models (a non-zero "inconsistent N params", "params[i] in this process with
  sizes [...] appears not to match sizes of the same param in process 0").
- ARL-E5601: the NVIDIA kernel driver not loaded ("NVIDIA-SMI has failed because it couldn't communicate with the
  NVIDIA driver").
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E5580 -----------------------------------------------------------------------------------------------------------

def test_cuda_peer_access_unsupported_is_e5580():
    for text in (
        TB + "RuntimeError: CUDA error: peer access is not supported between these two devices\n",
        TB + "RuntimeError: CUDART error: peer access is not supported between these two devices\n",
        "Failed: Cuda error /workspace/csrc/custom_all_reduce.cuh:307 'peer access is not supported between these two devices'\n",
        "node1:123:456 [0] transport/shm.cc:590 NCCL WARN Cuda failure 217 'peer access is not supported between these two devices'\n"
        + TB + "RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)\n",
        "CUDA error 217 at ggml-cuda.cu:6292: peer access is not supported between these two devices\n",
    ):
        assert _id(text) == "ARL-E5580", text


def test_npu_peer_access_is_not_e5580():
    text = TB + "RuntimeError: NPU function error: aclrtDeviceEnablePeerAccess(dev, 0), error code is 507899\n"
    assert _id(text) != "ARL-E5580"


# ARL-E5581 / ARL-E5582 -----------------------------------------------------------------------------------------------

def test_nccl_system_error_is_e5581():
    for text in (
        TB + "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
        "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
        "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \nLast error:\n\n",
        TB + "RuntimeError: NCCL error in: torch/lib/c10d/ProcessGroupNCCL.cpp:825, unhandled "
        "system error, NCCL version 2.7.8\nncclSystemError: System call (socket, malloc, munmap, etc) failed.\n",
    ):
        assert _id(text) == "ARL-E5581", text


def test_bare_nccl_system_error_is_not_e5581():
    # the bare result line alone is left to the resemblance reading
    assert _id(TB + "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:514, unhandled system error, NCCL version 2.4.8\n") != "ARL-E5581"


def test_nccl_shm_warn_outranks_e5581():
    text = (TB + "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, "
            "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
            "ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error. \n"
            "Last error:\nError while creating shared memory segment /dev/shm/nccl-vzIpS6 (size 9637888)\n")
    assert _id(text) == "ARL-E2875"


def test_nccl_socket_connect_is_e5582():
    for line in (
        "node1:39964:40075 [0] misc/socket.cc:483 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45763> failed : Software caused connection abort",
        "node5:240:240 [6] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to 10.0.0.4<56849> returned 113(No route to host) errno 115(Operation now in progress)",
        "worker:101542:101934 [0] include/socket.h:403 NCCL WARN Connect to 172.18.40.42<40121> failed : Connection timed out",
        "gpu2:100:200 [0] misc/socket.cc:456 NCCL WARN Net : Connect to 192.168.1.5<51022> failed : No route to host",
        "gpu-103:18553:18611 [0] include/socket.h:360 WARN Call to connect failed : Connection timed out",
        "host:1:2 [0] os/linux.cc:328 NCCL WARN ncclOsSocketPollConnect to 10.0.0.3<40000> failed with error Connection refused",
        "node1:1:2 [0] misc/socket.cc:472 NCCL WARN socketStartConnect: exceeded timeouts (35)",
        "node1:1:2 [0] misc/socket.cc:512 NCCL WARN socketPollConnect: exceeded retries (34)",
    ):
        text = line + "\n" + TB + "RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)\n"
        assert _id(text) == "ARL-E5582", line


def test_c10d_client_connect_is_not_e5582():
    text = TB + ("torch.distributed.DistNetworkError: The client socket has failed to connect to any network address of "
                 "(10.0.0.1, 29500). The client socket has failed to connect to 10.0.0.1:29500 (errno: 111 - Connection refused).\n")
    assert _id(text) != "ARL-E5582"


def test_nccl_peer_closed_is_e851():
    for line in (
        "node1:922:1149 [3] misc/socket.cc:49 NCCL WARN socketProgress: Connection closed by remote peer node2<53735>",
        "server1:6601:6625 [0] include/socket.h:385 NCCL WARN Net : Connection closed by remote peer",
        "node1:1:2 [0] misc/socket.cc:30 NCCL WARN socketProgressOpt: Call to recv from 10.0.0.2<42345> failed : Connection reset by peer",
    ):
        text = line + "\n" + TB + "RuntimeError: NCCL error in: ../ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version 2.10.3\n"
        assert _id(text) == "ARL-E851", line


def test_gloo_peer_closed_is_not_e851():
    text = TB + "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer [10.0.0.2]:21823\n"
    assert _id(text) != "ARL-E851"


# ARL-E5583 / ARL-E5584 / ARL-E5585 -----------------------------------------------------------------------------------

def test_nccl_other_result_codes():
    for text, want in (
        (TB + "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:45, unhandled cuda error, NCCL version 21.0.3\n", "ARL-E5583"),
        (TB + "torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1691, unhandled cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3\n"
         "ncclUnhandledCudaError: Call to CUDA function failed.\n", "ARL-E5583"),
        ("ip-0AB85F07: Test NCCL failure common.cu:775 'internal error'\n", "ARL-E5584"),
        (TB + "RuntimeError: NCCL error in: ../ProcessGroupNCCL.cpp:1201, internal error - please report this issue to the NCCL developers, NCCL version 2.18.1\n", "ARL-E5584"),
        (TB + "RuntimeError: NCCL Error 5: invalid usage\n", "ARL-E5585"),
        (TB + "torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1970, invalid usage (run with NCCL_DEBUG=WARN for details), NCCL version 2.19.3\n", "ARL-E5585"),
        (TB + "RuntimeError: NCCL error: invalid argument (run with NCCL_DEBUG=WARN for details)\n", "ARL-E5585"),
    ):
        assert _id(text) == want, text


def test_duplicate_gpu_outranks_e5585():
    text = (TB + "torch.distributed.DistBackendError: NCCL error in: ../ProcessGroupNCCL.cpp:1691, invalid usage (run with "
            "NCCL_DEBUG=WARN for details), NCCL version 2.19.3\nncclInvalidUsage: This usually reflects invalid usage of NCCL library.\n"
            "Last error:\nDuplicate GPU detected : rank 0 and rank 1 both on CUDA device 1000\n")
    assert _id(text) == "ARL-E2801"


def test_plain_internal_error_is_not_e5584():
    for text in (TB + "RuntimeError: internal error\n", TB + "ValueError: invalid argument\n"):
        assert _id(text) not in ("ARL-E5584", "ARL-E5585")


# ARL-E5586 / DRV-rendezvous ------------------------------------------------------------------------------------------

def test_rendezvous_closed_is_e5586():
    for line in ("torch.distributed.elastic.rendezvous.api.RendezvousClosedError",
                 "torch.distributed.elastic.rendezvous.api.RendezvousClosedError: "):
        assert _id(TB + line + "\n") == "ARL-E5586", line


def test_rendezvous_connection_error_is_rendezvous():
    text = TB + ("torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The connection to the C10d store has "
                 "failed. See inner exception for details.\n")
    d = _top(text)
    assert d is not None and d.entry.id == "DRV-rendezvous"
    assert _id(TB + "torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n") != "ARL-E5586"


# DRV-oserror (libuv TCPStore) ----------------------------------------------------------------------------------------

def test_libuv_tcpstore_listen_codes():
    base = "torch.distributed.DistNetworkError: The server socket has failed to listen on any local network address. "
    d = _top(TB + base + "port: 29500, useIpv6: 0, code: -99, name: EADDRNOTAVAIL, message: cannot assign requested address\n")
    assert d is not None and d.entry.id == "DRV-oserror" and d.kind == "eaddrnotavail"
    d = _top(TB + base + "port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use\n")
    assert d is not None and d.kind == "eaddrinuse"


# ARL-E5587 -----------------------------------------------------------------------------------------------------------

def test_verl_resource_pool_checks_are_e5587():
    for line in (
        "AssertionError: no enough nodes for request: searching 2 th node",
        "AssertionError: requesting 8 processes, bundle count cannot satisfy",
        "ValueError: use_gpu is True but resource_pool.use_gpu is False",
        "AssertionError: Both RayResourcePool must either use_gpu or not",
    ):
        assert _id(TB + line + "\n") == "ARL-E5587", line


def test_verl_total_gpus_check_is_not_e5587():
    text = TB + "ValueError: Total available GPUs 4.0 is less than total desired GPUs 8\n"
    assert _id(text) != "ARL-E5587"


# ARL-E1681 / ARL-E5520 widened ---------------------------------------------------------------------------------------

def test_gloo_pair_connect_is_e1681():
    for line in (
        "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:769] connect [127.0.1.1]:25472: Connection refused",
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:799] connect [10.0.0.2]:46421: No route to host",
        "RuntimeError: [/opt/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:598] Connect timeout [10.0.0.2]:21823",
    ):
        assert _id(TB + line + "\n") == "ARL-E1681", line


def test_gloo_bind_in_use_is_not_e1681():
    text = TB + "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:135] bind: Address already in use\n"
    assert _id(text) != "ARL-E1681"


def test_nccl_socket_family_is_e5520():
    for line in (
        "include/socket.h:344 WARN Socket creation failed : Address family not supported by protocol",
        "node1:1:1 [0] include/socket.h:334 NCCL WARN Net : Socket creation failed : Address family not supported by protocol",
        "node1:1:1 [0] misc/socket.cc:726 NCCL WARN ncclSocketInit: Socket creation failed : Address family not supported by protocol",
    ):
        assert _id(line + "\n") == "ARL-E5520", line
    assert _id("h:1:1 [0] misc/socket.cc:726 NCCL WARN ncclSocketInit: Socket creation failed : Too many open files\n") != "ARL-E5520"


# ARL-E4604 warnings --------------------------------------------------------------------------------------------------

def test_tcpstore_shutdown_warnings_are_nonfatal_e4604():
    for line in (
        '[rank1]:[W1229 22:06:38.480071392 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0 Rank 1] Failed to check the "should dump" '
        'flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Broken pipe',
        '[rank3]:[W825 07:38:02.806977494 ProcessGroupNCCL.cpp:1662] [PG ID 0 PG GUID 0(default_pg) Rank 3] Failed to check the '
        '"should dump" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: failed to recv, got 0 bytes',
        "[rank1]:[W1229 22:06:38.558655037 TCPStore.cpp:106] [c10d] sendBytes failed on SocketImpl(fd=67, addr=[bogon]:36214, "
        "remote=[bogon]:43145): Broken pipe",
    ):
        d = _top(line + "\n")
        assert d is not None and d.entry.id == "ARL-E4604" and not d.fatal, line
    d = _top(TB + "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote server shutdown or crash?\n")
    assert d is not None and d.entry.id == "ARL-E4604" and d.fatal


def test_gloo_broken_pipe_is_not_e4604():
    assert _id(TB + "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:575] writev [10.0.0.2]:4444: Broken pipe\n") != "ARL-E4604"


# ARL-E5588 -----------------------------------------------------------------------------------------------------------

def test_ray_placement_group_timeouts_are_e5588():
    for line in (
        "TimeoutError: Placement group creation timed out. Make sure your cluster either has enough resources or use an "
        "autoscaling cluster. Current resources available: {'CPU': 8.0}, resources requested by the placement group: [{'GPU': 1}]",
        "TimeoutError: Placement group creation timed out after 100 seconds. Make sure your cluster either has enough resources or use an autoscaling cluster.",
        "ray.train.v2._internal.exceptions.WorkerGroupStartupTimeoutError: The worker group startup timed out after 30.0 seconds "
        "waiting for 2 workers. Potential causes include: (1) temporary insufficient cluster resources",
        "TimeoutError: Timed out waiting for placement groups to be ready. The cluster may not have enough resources to satisfy "
        "the requested configuration, or the resources may be busy with other tasks.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5588", line


def test_vllm_placement_group_wait_is_not_e5588():
    text = TB + ("ValueError: Cannot provide a placement group of placement_group_specs=[{'GPU': 1.0}] within 1800 seconds. "
                 "See `ray status` and `ray list nodes` to make sure the cluster has enough resources.\n")
    assert _id(text) != "ARL-E5588"


# ARL-E5589 -----------------------------------------------------------------------------------------------------------

def test_slurm_submission_refused_is_e5589():
    for line in (
        "sbatch: error: Batch job submission failed: Requested node configuration is not available",
        "OSError: sbatch: error: Batch job submission failed: Invalid generic resource (gres) specification",
        "srun: error: Unable to allocate resources: Requested node configuration is not available",
        "salloc: error: Unable to allocate resources: Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)",
        "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified",
    ):
        assert _id(line + "\n") == "ARL-E5589", line


def test_slurm_step_inside_allocation_is_not_e5589():
    text = "srun: error: Unable to create step for job 16413634: Requested node configuration is not available\n"
    assert _id(text) != "ARL-E5589"


# ARL-E5590 -----------------------------------------------------------------------------------------------------------

def test_deepspeed_ssh_launch_is_e5590():
    for text in (
        TB + "RuntimeError: Using hostfile at /etc/hostfile but host=ft-main-0.ft was not reachable via ssh. If you are running "
        "with a single node please remove /etc/hostfile or setup passwordless ssh.\n",
    ):
        assert _id(text) == "ARL-E5590", text


def test_deepspeed_master_addr_detection_is_not_e5590():
    text = TB + "RuntimeError: Unable to detect suitable master address via `hostname -I`, please manually specify one via --master_addr\n"
    assert _id(text) != "ARL-E5590"


# ARL-E5591 -----------------------------------------------------------------------------------------------------------

def test_nccl_ib_completion_errors_are_e5591():
    for line in (
        "gpu1:1:2 [0] transport/net_ib.cc:1294 NCCL WARN NET/IB : Got completion from peer 192.168.17.147<38560> with error 12, opcode 0, len 0, vendor err 129",
        "mycl-g2:353236:353423 [6] transport/net_ib.cc:2244 NCCL WARN NET/IB: Got completion from peer 192.168.3.5<53908> with "
        "status=12 opcode=129 len=1048576 vendor err 129 (Recv) localGid ::ffff:192.168.6.3 remoteGids::ffff:192.168.6.5 hca mlx5_10",
        "w0:3468:3905 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 opcode=0 len=0 vendor err 129 (Recv)",
        "h:1:1 [0] misc/ibvwrap.cc:262 NCCL WARN Call to ibv_modify_qp failed with error Connection timed out errno 110",
    ):
        text = line + "\n" + TB + "RuntimeError: NCCL error: remote process exited or there was a network error, NCCL version 2.21.5\n"
        assert _id(text) == "ARL-E5591", line
    d = _top("h:1:1 [0] transport/net_ib.cc:95 NCCL WARN NET/IB : Got async event : port error\n")
    assert d is not None and d.entry.id == "ARL-E5591" and not d.fatal


def test_ib_memory_registration_is_not_e5591():
    text = "h:1:1 [0] misc/ibvwrap.cc:204 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
    assert _id(text) != "ARL-E5591"


# ARL-E5592 -----------------------------------------------------------------------------------------------------------

def test_gpudirect_registration_refused_is_e5592():
    for line in (
        "node1:1:2 [0] misc/ibvwrap.cc:288 NCCL WARN Call to ibv_reg_dmabuf_mr failed with error Operation not supported",
        "[2025-10-13 10:12:54] h:1458548:1480527 [0] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument",
        "h:1:2 [0] misc/ibvwrap.cc:160 NCCL WARN Call to ibv_reg_mr failed with error Bad address",
    ):
        text = TB + "RuntimeError: NCCL Error 2: unhandled system error (run with NCCL_DEBUG=INFO for details)\n" + line + "\n"
        assert _id(text) == "ARL-E5592", line


def test_registration_enomem_is_not_e5592():
    text = "h:1:2 [0] misc/ibvwrap.cc:160 NCCL WARN Call to ibv_reg_mr failed with error Cannot allocate memory\n"
    assert _id(text) != "ARL-E5592"


# ARL-E5593 / ARL-E5594 / ARL-E5595 -----------------------------------------------------------------------------------

def test_cuda_device_state_errors():
    for line, want in (
        ("RuntimeError: CUDA error: system not yet initialized", "ARL-E5593"),
        ("RuntimeError: cuda runtime error (802) : system not yet initialized at aten/src/THC/THCGeneral.cpp:50", "ARL-E5593"),
        ("ggml_cuda_init: failed to initialize CUDA: system not yet initialized", "ARL-E5593"),
        ("RuntimeError: CUDA error: CUDA-capable device(s) is/are busy or unavailable", "ARL-E5594"),
        ("RuntimeError: cuda runtime error (46) : all CUDA-capable devices are busy or unavailable at torch/lib/THC/generic/THCStorage.cu:66", "ARL-E5594"),
        ("RuntimeError: CUDA error: uncorrectable ECC error encountered", "ARL-E5595"),
        ("RuntimeError: cuda runtime error (39) : uncorrectable ECC error encountered at /pytorch/aten/src/THC/THCCachingHostAllocator.cpp:265", "ARL-E5595"),
        ("RuntimeError: CUDA error: uncorrectable NVLink error detected during the execution", "ARL-E5595"),
    ):
        assert _id(TB + line + "\n") == want, line


def test_other_cuda_errors_are_not_device_state():
    for line in ("RuntimeError: CUDA error: an illegal memory access was encountered",
                 "RuntimeError: CUDA error: invalid device ordinal"):
        assert _id(TB + line + "\n") not in ("ARL-E5593", "ARL-E5594", "ARL-E5595"), line


# ARL-E5596 -----------------------------------------------------------------------------------------------------------

def test_ddp_zero_params_is_e5596():
    for line in (
        "RuntimeError: DDP expects same model across all ranks, but Rank 1 has 240 params, while rank 0 has inconsistent 0 params",
        "[rank1]: RuntimeError: DDP expects same model across all ranks, but Rank 3 has 419 params, while rank 0 has inconsistent 0 params.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5596", line


def test_ddp_real_param_mismatch_is_not_e5596():
    text = TB + "RuntimeError: DDP expects same model across all ranks, but Rank 1 has 200 params, while rank 0 has inconsistent 201 params.\n"
    assert _id(text) != "ARL-E5596"


# ARL-E5597 -----------------------------------------------------------------------------------------------------------

def test_tcpstore_libuv_missing_is_e5597():
    for line in ("RuntimeError: use_libuv was requested but PyTorch was build without libuv support",
                 "torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built without libuv support"):
        assert _id(TB + line + "\n") == "ARL-E5597", line


def test_mpi_backend_missing_is_not_e5597():
    text = TB + "RuntimeError: Distributed package doesn't have MPI built in. MPI is only included if you build PyTorch from source on a host that has MPI installed.\n"
    assert _id(text) != "ARL-E5597"


# ARL-E5598 -----------------------------------------------------------------------------------------------------------

def test_gloo_reduce_op_is_e5598():
    for line in ("RuntimeError: Cannot use ReduceOp.AVG with Gloo", "RuntimeError: Cannot use ReduceOp.PREMUL_SUM with Gloo",
                 "RuntimeError: Cannot use ReduceOp.BAND with non-integral dtype"):
        assert _id(TB + line + "\n") == "ARL-E5598", line


def test_gloo_missing_collective_is_not_e5598():
    assert _id(TB + "RuntimeError: ProcessGroupGloo does not support reduce_scatter\n") != "ARL-E5598"


# ARL-E5599 / ARL-E5600 -----------------------------------------------------------------------------------------------

def test_ddp_model_not_on_one_gpu_is_e5599():
    for line in (
        "ValueError: DistributedDataParallel device_ids and output_device arguments only work with single-device/multiple-device GPU "
        "modules or CPU modules, but got device_ids [0], output_device 0, and module parameters {device(type='cpu')}.",
        "ValueError: DistributedDataParallel device_ids and output_device arguments only work with single-device CUDA modules, but got device_ids 1",
        "ValueError: You can't train a model that has been loaded in 8-bit precision on a different device than the one you're training on.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5599", line
    # accelerate's device_map='auto' refusal stays ARL-E2778's
    assert _id(TB + "ValueError: You can't train a model that has been loaded with `device_map='auto'` in any distributed mode.\n") == "ARL-E2778"


def test_ddp_model_mismatch_is_e5600():
    for line in (
        "RuntimeError: [1]: params[0] in this process with sizes [96, 32] appears not to match sizes of the same param in process 0.",
        "RuntimeError: DDP expects same model across all ranks, but Rank 1 has 200 params, while rank 0 has inconsistent 201 params.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5600", line
    assert _id(TB + "ValueError: device_ids can only be None or contain a single element.\n") not in ("ARL-E5599", "ARL-E5600")


# ARL-E5601 -----------------------------------------------------------------------------------------------------------

def test_nvidia_driver_not_loaded_is_e5601():
    for line in ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.",
                 "NVIDIA-SMI has failed because it couldn\u2018t communicate with the NVIDIA driver."):
        assert _id(line + "\n") == "ARL-E5601", line


def test_nvml_version_mismatch_is_not_e5601():
    assert _id("Failed to initialize NVML: Driver/library version mismatch\n") != "ARL-E5601"
