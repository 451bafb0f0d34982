"""Readings added by helper k50hccl (2026-12-06) while probing public threads and the emitting projects' source for
HCCL / collective, Ray and memory failure classes explain did not name. Each test input is a short excerpt around the
exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E320 widened: HCCL's root-info detection lines (topoinfo_exchange_server.cc / hcomm rank_info_detect_service:
  "topo exchange server get socket timeout" in its 2024, CANN 8.x and hcomm wordings; the failed-agent list forwarded
  to the ranks that connected, "TopoDetect ERROR occur ... Failed to connect agent[...]" / "failedRankIdList[...]").
  Before, these lines read as an invalid rank table (DRV-hccl, from their [RanktableDetect] stage tag).
- DRV-hccl: a class hccl-rootinfo-detect-timeout (hccl_classes.yaml) for the same lines, tried before the rank-table
  class, so a link no entry names is not read as a rank-table problem either.
- ARL-E4960: the single-tensor all-gather / reduce-scatter size check ("output tensor size must be equal to world_size
  times input tensor size", "input tensor must be the same size as output size times world size"), torch_npu's
  ProcessGroupHCCL (RuntimeError) and PyTorch's ProcessGroupNCCL (ValueError).
- ARL-E4961: Kubernetes node-pressure eviction for memory (kubelet eviction/helpers.go "The node was low on resource:
  memory.", old and new container wordings, "The node had condition: [MemoryPressure]").
- ARL-E4962: the same eviction for local storage (ephemeral-storage / nodefs / imagefs, DiskPressure, a pod over its
  ephemeral-storage limit, an emptyDir such as a /dev/shm volume over its sizeLimit).
- ARL-E4963: torch.distributed new_group / new_subgroups refusing a group that does not fit the world (1.x and 2.x
  wordings of distributed_c10d.py); before, "Rank N is out of range" read as a verl batch-size check (DRV-verl).
- ARL-E4683 widened: vLLM V0's AsyncEngineDeadError ("Background loop has errored already.", "Background loop is not
  running. If it was running, inspect the output ..."), async_llm_engine.py; before, nothing was reported.
- ARL-E502 widened: vLLM's initialize_ray_cluster refusing an engine node with no free GPU ("Current node has no GPU
  available. current_node_resource=... vLLM engine cannot start without GPU"), ray_utils.py; before, nothing (the NPU
  form stays ARL-E142's).
- ARL-E4964: vLLM's Ray executor finding a different number of worker IPs than Ray nodes ("Every node should have a
  unique IP address"), ray_distributed_executor.py: multi-NIC hosts, a VLLM_HOST_IP copied between nodes.
- ARL-E2846 widened: vLLM V1's ParallelConfig check of the world size against the visible GPUs ("Tensor parallel size
  (N) cannot be larger than the number of available GPUs (M)", later "World size (N) is larger than ...").
- ARL-E4965: vLLM refusing a placement group with multi-device bundles ("Placement group bundle cannot have more than
  1 GPU / NPU."), ray_utils.py.
- ARL-E4966: Slurm's memory cgroup OOM-killing job-step tasks (task_cgroup_memory.c, 22.05+ "oom_kill event(s) in
  StepId=... OOM Killed" and the older "oom-kill event(s) ... cgroup out-of-memory handler"; srun "task N: Out Of
  Memory"; "Exceeded job memory limit").
- ARL-E4967: Slurm cancelling the job at its time limit or on preemption ("*** JOB N ON host CANCELLED AT t DUE TO TIME
  LIMIT ***", "... DUE TO PREEMPTION ***").
- ARL-E020 widened: a container killed at its memory limit as the runtime records it ("Reason: OOMKilled",
  "OOMKilled": true).
- DRV-rendezvous widened: c10d socket.cpp's raised connect failures ("The client socket has failed to connect to
  [host]:port (errno: 110 / 111 / 113 ...)", "... to any network address of (host, port)"); the localhost IPv6 retry
  warning is not read.
- ARL-E4968: init_process_group's env:// rendezvous missing RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT
  (rendezvous.py "environment variable X expected, but not set"): a script started without a launcher.
- ARL-E4969: a Ray worker ended by ray.cancel(force=True) ("The worker exits because the task ... has received a force
  ray.cancel request."); before, the raylet line read as a SIGKILL / OOM kill (ARL-E121).
- ARL-E4970: an actor whose __init__ raised (worker exit type USER_ERROR, "Worker exits because there was an exception
  in the initialization method"); generic, so the __init__ exception itself ranks first when it is in the log.
- ARL-E4362 widened: "Worker force exited because its job has finished" (the job's driver ended, its actors with it).
- ARL-E4971: srun unable to create a job step because the allocation's memory is held by the job's other steps
  ("Unable to create step for job N: Memory required by task is not available"; the retry line is non-fatal).
- ARL-E4972: a pod left Pending by kube-scheduler for CPU / memory / ephemeral storage ("0/N nodes are available: M
  Insufficient memory"); the Ascend NPU resource stays ARL-E4004's.
"""

from __future__ import annotations

import functools
import io

from ascendrl.catalog import Classifier, load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


def _kinds(text: str) -> list[str]:
    c = Classifier(CATALOG)
    c.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return [d.kind for d in c.result().diagnoses]


# ARL-E320 (root-info detection) ------------------------------------------------------------------------------------

ROOT_TIMEOUTS = (
    # CANN 8.x plog / stdout of the root rank (hicann/hccl fault-diagnosis guide)
    "[ERROR] HCCL(1041081,python3):2025-11-21-01:20:01.624.966 [topoinfo_exchange_server.cc:314] [1041362]"
    "[InitGroupStage][RanktableDetect]topo exchange server get socket timeout! timeout[120 s]\n"
    "[ERROR] HCCL(1041081,python3):2025-11-21-01:20:01.625.103 [topoinfo_exchange_server.cc:501] [1041362]"
    "[InitGroupStage][DisplayConnectionedRank]total connected num is [4],line num is [1]\n",
    # the 2024 open-source wording
    "[ERROR] HCCL(2231,python3):2024-09-02-10:11:12.000.001 [topoinfo_exchange_server.cc:120] [2240][Get][Connection]"
    "topo exchange server get socket timeout! timeout[120 s]\n",
    # hcomm's rank_info_detect_service
    "[ERROR] HCCL(5120,python3):2026-03-01-08:00:00.000.001 [rank_info_detect_service.cc:88] [5120][InitGroupStage]"
    "[RanktableDetect] errNo[0x0000000005000009] topo exchange server get socket timeout[120 s], expected[8] nodes, "
    "received[4] nodes\n",
    # a rank that reached the root, told which ranks never did
    "[ERROR] HCCL(1041085,python3):2025-11-21-01:20:01.630.122 [topoinfo_exchange_base.cc:145] [1041085]"
    "[InitGroupStage][RanktableDetect] TopoDetect ERROR occur !!! fault_type[1], fault_info[\"Failed to connect "
    "agent[1,3,5,7,]\"]\n"
    "[ERROR] HCCL(1041085,python3):2025-11-21-01:20:01.630.557 [topoinfo_exchange_agent.cc:552] [1041085]"
    "[InitGroupStage][RanktableDetect]rank num[8]is different with rank list size[4] in total topo rank info.\n",
    "[ERROR] HCCL(1041085,python3):2026-03-01-08:00:00.000.002 [rank_info_detect_client.cc:201] [1041085]"
    "[RankInfoDetectClient::RecvRankTableAndFailedAgents] TopoDetect ERROR occur, failedRankIdList[1,3,5,7]\n",
)
TORCH_NPU_TAIL = (
    "RuntimeError: create:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2061 HCCL function error: "
    "HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 9\n"
)


def test_root_info_detection_timeout_is_e320():
    for text in ROOT_TIMEOUTS:
        assert _id(text) == "ARL-E320", text
        assert _id(text + TORCH_NPU_TAIL) == "ARL-E320", text


def test_root_info_detection_block_is_not_read_as_a_rank_table_problem():
    for text in ROOT_TIMEOUTS:
        assert "hccl-ranktable-invalid" not in _kinds(text + TORCH_NPU_TAIL), text


def test_rank_table_path_error_is_not_e320():
    # A rank table that cannot be read (EI0004) carries the same stage family of tags but is its own failure.
    text = (
        "[ERROR] HCCL(1104629,python3):2025-10-28-17:45:13.679.684 [param_check.cc:66] [1104629][InitGroupStage]"
        "[RanktableConfig]errNo[0x0000000005010001] path /ranktable.json is not a valid real path\n"
    )
    assert _id(text) != "ARL-E320"


def test_root_port_bind_failure_is_not_e320():
    # The root could not even listen (EI0019): a port problem, not ranks failing to arrive.
    text = (
        "[ERROR] HCCL(3626636,python3):2025-11-21-13:18:47.639.860 [hccl_socket.cc:110] [3626636][InitChannelStage]"
        "[RanktableDetect] socket type[2], listen on ip[192.168.1.100%enp53s0f2] and specific port[60000] fail. Please "
        "check the port status and whether the port is being used by other process.\n"
    )
    assert _id(text) != "ARL-E320"


# ARL-E4960 ---------------------------------------------------------------------------------------------------------

def test_flat_collective_size_check_is_e4960():
    for text in (
        # PyTorch ProcessGroupNCCL (ValueError), DeepSpeed ZeRO-3 gathering parameters
        "[rank5]:   File \"/usr/local/lib/python3.11/dist-packages/deepspeed/runtime/zero/partitioned_param_coordinator.py\", "
        "line 412, in fetch_sub_module\n"
        "[rank5]:     self.__all_gather_params(params_to_prefetch, forward)\n"
        "[rank5]: ValueError: output tensor size must be equal to world_size times input tensor size\n",
        # torch_npu ProcessGroupHCCL (RuntimeError with the DIST error tag)
        "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", line 3920, in "
        "all_gather_into_tensor\n"
        "    work = group._allgather_base(output_tensor, input_tensor, opts)\n"
        "RuntimeError: output tensor size must be equal to world_size times input tensor size\n"
        "[ERROR] 2026-01-01-10:00:00 (PID:1234, Device:0, RankID:0) ERR02002 DIST invalid type\n",
        "  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", line 4400, in "
        "reduce_scatter_tensor\n"
        "RuntimeError: input tensor must be the same size as output size times world size\n",
        "ValueError: input tensor must be the same size as output size times world size\n",
    ):
        assert _id(text) == "ARL-E4960", text


def test_list_all_gather_size_mismatch_is_not_e4960():
    # A list all_gather whose tensors differ in size is checked elsewhere, with other words.
    text = "RuntimeError: Tensors must have identical size\n"
    assert _id(text) != "ARL-E4960"
    text = "ValueError: output tensor must have the same type as input tensor\n"
    assert _id(text) != "ARL-E4960"


# ARL-E4961 / ARL-E4962 ---------------------------------------------------------------------------------------------

def test_kubelet_memory_eviction_is_e4961():
    for text in (
        "Status:           Failed\nReason:           Evicted\n"
        "Message:          The node was low on resource: memory. Threshold quantity: 1Gi, available: 991045Ki. \n",
        "4m11s  Warning  Evicted  pod/ray-worker-abc  The node was low on resource: memory. Container ray-worker was "
        "using 5053216Ki, which exceeds its request of 0.\n",
        "Message: The node was low on resource: memory. Threshold quantity: 100Mi, available: 51200Ki. Container "
        "ray-worker was using 120Gi, request is 0, has larger consumption of memory. \n",
        "4m7s  Warning  Evicted  pod/ray-worker-def  The node had condition: [MemoryPressure].\n",
    ):
        assert _id(text) == "ARL-E4961", text


def test_kubelet_storage_eviction_is_e4962():
    for text in (
        "Message:        The node was low on resource: ephemeral-storage. Container ray-node was using 11205428Ki, "
        "which exceeds its request of 0. \n",
        "Message: The node was low on resource: ephemeral-storage. Threshold quantity: 2146223340, available: 1883424Ki. "
        "Container ray-head was using 10304Ki, request is 10Mi, has larger consumption of ephemeral-storage.\n",
        "Message: The node was low on resource: nodefs.\n",
        "csi-rbdplugin-qtr59   Evicted   node-3   Pod The node had condition: [DiskPressure]. \n",
        "Message: Usage of EmptyDir volume \"dshm\" exceeds the limit \"64Gi\". \n",
        "Message: Pod ephemeral local storage usage exceeds the total limit of containers 10Gi. \n",
    ):
        assert _id(text) == "ARL-E4962", text


def test_container_oom_kill_is_not_a_kubelet_eviction():
    # A container killed by its own cgroup limit (OOMKilled) is the kernel OOM killer, not a node-pressure eviction.
    text = "[12345.678] Memory cgroup out of memory: Killed process 4321 (python3) total-vm:1234kB, anon-rss:1234kB\n"
    assert _id(text) not in ("ARL-E4961", "ARL-E4962")
    # Ray's own memory monitor killing a task is Ray's, not the kubelet's.
    text = "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
    assert _id(text) not in ("ARL-E4961", "ARL-E4962")


# ARL-E4963 ---------------------------------------------------------------------------------------------------------

def test_subgroup_outside_world_is_e4963():
    for text in (
        "RuntimeError: the new group's world size should be less or equal to the world size set by init_process_group\n",
        "ValueError: the new group's world size should be less or equal to the world size set by init_process_group\n",
        "ValueError: the new group's rank should be within the world_size set by init_process_group\n",
        "ValueError: Rank 8 is out of range. Valid ranks are 0 to 7 (world_size=8)\n",
        "ValueError: The world size (6) must be divisible by 'group_size=4'\n",
        "ValueError: The arg 'group_size' (16) must not exceed the world size (8)\n",
    ):
        assert _id(text) == "ARL-E4963", text


def test_other_world_size_errors_are_not_e4963():
    # The rendezvous waiting for processes that never joined is another failure.
    text = "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. 1/2 clients joined.\n"
    assert _id(text) != "ARL-E4963"
    text = "ValueError: Default process group has not been initialized, please make sure to call init_process_group.\n"
    assert _id(text) != "ARL-E4963"


# ARL-E4683 widened (vLLM V0) ---------------------------------------------------------------------------------------

def test_v0_async_engine_dead_is_e4683():
    for text in (
        "vllm.engine.async_llm_engine.AsyncEngineDeadError: Background loop has errored already.\n",
        "ERROR 05-26 22:40:01 async_llm_engine.py:65] Engine background task failed\n"
        "vllm.engine.async_llm_engine.AsyncEngineDeadError: Background loop is not running. If it was running, inspect "
        "the output to find the stacktrace of the error that caused the background loop to stop (AsyncEngineDeadError).\n",
    ):
        assert _id(text) == "ARL-E4683", text


def test_v0_engine_dead_wrapper_yields_to_the_cause_above():
    text = (
        "torch.OutOfMemoryError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; "
        "58.00 GiB already allocated; 58.00 GiB current active; 1.00 GiB free; 59.00 GiB reserved in total by PyTorch)\n"
        "vllm.engine.async_llm_engine.AsyncEngineDeadError: Background loop has errored already.\n"
    )
    assert _id(text) != "ARL-E4683"
    # "Background loop is already running" is a usage error of a live engine, not a dead one.
    assert _id("RuntimeError: Background loop is already running.\n") != "ARL-E4683"


# ARL-E502 widened (vLLM initialize_ray_cluster) --------------------------------------------------------------------

def test_current_node_has_no_device_is_e502():
    for text in (
        "ValueError: Current node has no GPU available. current_node_resource={'memory': 803011488768.0, "
        "'GPU_group_0_5999116f8a6e3cc0472c77e709e801000000': 1.0, 'CPU': 92.0}. vLLM engine cannot start without GPU. "
        "Make sure you have at least 1 GPU available in a node current_node_id='da16' current_ip='131.179.168.116'.\n",
        # the paste wrapped after the resource dict
        "ValueError: Current node has no GPU available. current_node_resource={'CPU': 192.0,\n"
        "'memory': 1.0}. vLLM engine cannot start without GPU. Make sure you have at least 1 GPU available in a node "
        "current_node_id='a776' current_ip='10.0.0.201'.\n",
    ):
        assert _id(text) == "ARL-E502", text
    # the NPU form stays ARL-E142's (a Ray node offering no NPU resource)
    text = ("(EngineCore_DP0 pid=14400) ValueError: Current node has no NPU available. current_node_resource={'memory': "
            "2151287372800.0, 'CPU': 192.0, 'GPU': 8.0}. vLLM engine cannot start without NPU. Make sure you have at least "
            "1 NPU available in a node current_node_id='a776' current_ip='10.0.0.201'.\n")
    assert _id(text) == "ARL-E142"


def test_no_gpus_at_all_is_not_e502():
    # torch finding no CUDA device at all (an NPU host running CUDA code) is another failure.
    assert _id("RuntimeError: No CUDA GPUs are available\n") != "ARL-E502"
    # vLLM's placement group holding fewer devices than the parallel size is ARL-E513's.
    text = ("ValueError: The number of required NPUs exceeds the total number of available NPUs in the placement group. "
            "Required number of devices: 16. Total number of devices: 8.\n")
    assert _id(text) != "ARL-E502"


# ARL-E4964 ---------------------------------------------------------------------------------------------------------

def test_vllm_unique_ip_check_is_e4964():
    for text in (
        "RuntimeError: Every node should have a unique IP address. Got 2 nodes with node ids ['3b1f', '8e77'] and 1 "
        "unique IP addresses {'10.0.0.1'}. Please check your network configuration. If you set `VLLM_HOST_IP` "
        "environment variable, make sure it is unique for each node.\n",
        # older releases end after "network configuration."
        "RuntimeError: Every node should have a unique IP address. Got 2 nodes with node ids ['a', 'b'] and 3 unique "
        "IP addresses {'10.0.0.1', '10.0.0.2', '192.168.1.5'}. Please check your network configuration.\n",
        "(EngineCore_DP0 pid=3120) RuntimeError: Every node should have a unique IP address. Got 4 nodes with node ids "
        "['a', 'b', 'c', 'd'] and 2 unique IP addresses {'10.0.0.1', '10.0.0.2'}. Please check your network "
        "configuration. If you set `VLLM_HOST_IP` or `HOST_IP` environment variable, make sure it is unique for each "
        "node.\n",
    ):
        assert _id(text) == "ARL-E4964", text


def test_ray_node_ip_mismatch_is_not_e4964():
    # Ray's own check that this host's IP is one of the cluster's nodes (a driver on a host outside the cluster).
    text = (
        "RuntimeError: This node has an IP address of 10.0.0.2, and Ray expects this IP address to be either the GCS "
        "address or one of the Raylet addresses. Connected to GCS at 10.0.0.1:6379 and found raylets at 10.0.0.1 but "
        "none of these match this node's IP 10.0.0.2.\n"
    )
    assert _id(text) != "ARL-E4964"


# ARL-E2846 widened (vLLM V1 ParallelConfig) ------------------------------------------------------------------------

def test_v1_parallel_config_device_count_is_e2846():
    for text in (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ParallelConfig\n"
        "  Value error, Tensor parallel size (2) cannot be larger than the number of available GPUs (1). "
        "[type=value_error, input_value=ArgsKwargs((), {'tensor_parallel_size': 2}), input_type=ArgsKwargs]\n",
        "ValueError: World size (8) is larger than the number of available GPUs (4) in this node. If this is "
        "intentional and you are using:\n- ray, set '--distributed-executor-backend ray'.\n",
    ):
        assert _id(text) == "ARL-E2846", text


def test_placement_group_short_of_devices_is_not_e2846():
    text = ("ValueError: The number of required GPUs exceeds the total number of available GPUs in the placement group. "
            "Required number of devices: 8. Total number of devices: 4.\n")
    assert _id(text) != "ARL-E2846"


# ARL-E4965 ---------------------------------------------------------------------------------------------------------

def test_multi_device_bundle_is_e4965():
    for text in (
        "ValueError: Placement group bundle cannot have more than 1 GPU.\n",
        "(EngineCore_DP0 pid=811) ValueError: Placement group bundle cannot have more than 1 NPU.\n",
    ):
        assert _id(text) == "ARL-E4965", text


def test_bundle_index_out_of_range_is_not_e4965():
    text = "ValueError: placement group bundle index 3 is invalid. Valid placement group indexes: 0-2\n"
    assert _id(text) != "ARL-E4965"


# ARL-E4966 / ARL-E4967 (Slurm) and ARL-E020 widened (container OOMKilled) -----------------------------------------

def test_slurm_cgroup_oom_kill_is_e4966():
    for text in (
        "slurmstepd: error: Detected 1 oom_kill event in StepId=8538204.0. Some of the step tasks have been OOM Killed.\n",
        "slurmstepd-node03: error: Detected 2 oom_kill events in StepId=128435.batch. Some of the step tasks have been "
        "OOM Killed.\n",
        "slurmstepd: error: Detected 8 oom-kill event(s) in step 59137890.batch cgroup. Some of your processes may have "
        "been killed by the cgroup out-of-memory handler.\n",
        "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=997857.batch. Some of your processes may have been "
        "killed by the cgroup out-of-memory handler.\n",
        "srun: error: curie-gpu003: task 1: Out Of Memory\n",
        "slurmstepd: error: Exceeded job memory limit\n",
        # the Slurm line wins over the worker deaths it causes
        "(raylet) A worker died or was killed while executing a task by an unexpected system error. Worker exit type: "
        "SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file.\n"
        "slurmstepd: error: Detected 1 oom_kill event in StepId=700.0. Some of the step tasks have been OOM Killed.\n",
    ):
        assert _id(text) == "ARL-E4966", text


def test_slurm_time_limit_is_e4967():
    for text in (
        "slurmstepd: error: *** JOB 59137890 ON gpu-node17 CANCELLED AT 2021-02-26T08:00:12 DUE TO TIME LIMIT ***\n",
        "slurmstepd: error: *** STEP 777.0 ON node1 CANCELLED AT 2026-09-19T10:00:00 DUE TO TIME LIMIT ***\n",
    ):
        assert _id(text) == "ARL-E4967", text


def test_slurm_near_misses():
    # a manual scancel names no time limit
    text = "slurmstepd: error: *** STEP 123456.0 ON node01 CANCELLED AT 2025-01-01T10:00:00 ***\n"
    assert _id(text) != "ARL-E4967"
    # Ray's own memory monitor is not the Slurm cgroup
    text = "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
    assert _id(text) != "ARL-E4966"


def test_container_oomkilled_is_e020():
    for text in (
        "Status:         Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n",
        "containerID: containerd://0f30d47b\nexitCode: 137\nreason: OOMKilled\n",
        '            "OOMKilled": true,\n',
    ):
        assert _id(text) == "ARL-E020", text
    assert _id("      Reason:       Completed\n      Exit Code:    0\n") != "ARL-E020"


# DRV-rendezvous widened (c10d socket connect failures) -------------------------------------------------------------

def test_raised_client_connect_failure_is_rendezvous():
    for text in (
        "torch.distributed.DistNetworkError: The client socket has failed to connect to [node01]:29500 (errno: 110 - "
        "Connection timed out).\n",
        "torch.distributed.DistNetworkError: The client socket has failed to connect to [10.0.0.1]:29500 (errno: 111 - "
        "Connection refused).\n",
    ):
        found = _top(text)
        assert found is not None and found.kind == "rendezvous-socket-timeout", text


def test_localhost_ipv6_connect_warning_is_not_a_failure():
    # c10d's retry warning for localhost's IPv6 address, printed by healthy runs.
    text = ("[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500 (errno: 99 - Cannot "
            "assign requested address).\n")
    found = _top(text)
    assert found is None or found.kind != "rendezvous-socket-timeout"


# ARL-E4968 ---------------------------------------------------------------------------------------------------------

def test_env_rendezvous_variable_unset_is_e4968():
    for var in ("RANK", "WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"):
        text = (f"ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable {var} "
                "expected, but not set\n")
        assert _id(text) == "ARL-E4968", text


def test_unreachable_master_is_not_e4968():
    text = ("torch.distributed.DistNetworkError: The client socket has timed out after 1800000ms while trying to connect "
            "to (10.0.0.1, 29500).\n")
    assert _id(text) != "ARL-E4968"


# ARL-E4969 ---------------------------------------------------------------------------------------------------------

def test_force_cancel_worker_exit_is_e4969():
    for text in (
        "(raylet) A worker died or was killed while executing a task by an unexpected system error. Worker exit type: "
        "INTENDED_USER_EXIT Worker exit detail: The worker exits because the task compute_score has received a force "
        "ray.cancel request.\n",
        "The actor is dead because its worker process has died. Worker exit type: INTENDED_USER_EXIT Worker exit detail: "
        "The worker exits because the task RolloutWorker.generate has received a force ray.cancel request.\n",
    ):
        assert _id(text) == "ARL-E4969", text


def test_oom_killed_worker_is_not_e4969():
    text = ("(raylet) A worker died or was killed while executing a task by an unexpected system error. Worker exit "
            "type: SYSTEM_ERROR Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. "
            "There are some potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory "
            "usage.\n")
    assert _id(text) != "ARL-E4969"


# ARL-E4970 and ARL-E4362 widened -----------------------------------------------------------------------------------

USER_ERROR_INIT = (
    "The actor is dead because its worker process has died. Worker exit type: USER_ERROR Worker exit detail: Worker exits "
    "because there was an exception in the initialization method (e.g., __init__). Fix the exceptions from the "
    "initialization to resolve the issue.\n"
)


def test_actor_init_user_error_is_e4970():
    assert _id("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
               + USER_ERROR_INIT) == "ARL-E4970"


def test_actor_init_user_error_yields_to_the_init_exception():
    text = ("ValueError: Error initializing torch.distributed using env:// rendezvous: environment variable RANK "
            "expected, but not set\n" + USER_ERROR_INIT)
    assert _id(text) == "ARL-E4968"


def test_job_finished_force_exit_is_owner_death():
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "The actor is dead because its worker process has died. Worker exit type: INTENDED_SYSTEM_EXIT Worker exit "
            "detail: Worker force exited because its job has finished\n")
    assert _id(text) == "ARL-E4362"
    # an idle worker reaped by Ray is routine
    text = "(raylet) Worker exit type: INTENDED_SYSTEM_EXIT Worker exit detail: Worker exited because it was idle for a long time\n"
    assert _id(text) not in ("ARL-E4362", "ARL-E4970")


# ARL-E4971 ---------------------------------------------------------------------------------------------------------

def test_srun_step_creation_failure_is_e4971():
    for text in (
        "srun: error: Unable to create step for job 29986033: Memory required by task is not available\n",
        "srun: error: Unable to create step for job 812: Requested node configuration is not available\n",
    ):
        assert _id(text) == "ARL-E4971", text
    # the waiting line alone is not fatal
    found = _top("srun: Job 29986033 step creation temporarily disabled, retrying (Requested nodes are busy)\n")
    assert found is None or found.entry.id != "ARL-E4971" or not found.fatal


def test_slurm_oom_is_not_e4971():
    text = "slurmstepd: error: Detected 1 oom_kill event in StepId=8538204.0. Some of the step tasks have been OOM Killed.\n"
    assert _id(text) != "ARL-E4971"


# ARL-E4972 ---------------------------------------------------------------------------------------------------------

def test_pod_unschedulable_for_memory_or_cpu_is_e4972():
    for text in (
        "Warning  FailedScheduling  2m20s  default-scheduler  0/3 nodes are available: 3 Insufficient cpu, 3 "
        "Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.\n",
        "Warning  FailedScheduling  0/2 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint "
        "{node-role.kubernetes.io/control-plane: }.\n",
    ):
        assert _id(text) == "ARL-E4972", text


def test_npu_resource_shortage_stays_e4004():
    text = ("Warning  FailedScheduling  12s  default-scheduler  0/4 nodes are available: 4 Insufficient "
            "huawei.com/Ascend910. preemption: 0/4 nodes are available\n")
    assert _id(text) == "ARL-E4004"


def test_slurm_preemption_is_e4967():
    text = "slurmstepd: error: *** JOB 4412 ON gpu-node02 CANCELLED AT 2026-03-01T04:12:55 DUE TO PREEMPTION ***\n"
    assert _id(text) == "ARL-E4967"
