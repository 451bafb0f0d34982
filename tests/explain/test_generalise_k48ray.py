"""Readings added by helper k48ray (2026-12-06) while probing public threads of Ray clusters and actors, HCCL hangs and
host / NPU memory for failure classes explain did not name. Each test input is a short excerpt in our own words around
the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4600: a task / actor with a hard NodeAffinitySchedulingStrategy(soft=False) whose node is gone or can never fit
  it (cluster_lease_manager.cc, raised as ActorUnschedulableError / TaskUnschedulableError); ranked below the node's
  own death (ARL-E139, ARL-E1643, ARL-E4130 list it as a consequence).
- ARL-E4601: a Ray runtime_env (pip / uv / conda / working_dir) whose setup ran past setup_timeout_seconds
  (runtime_env_agent.py, both the current and the 2.8-era wording).
- ARL-E4602: torch.distributed's TORCH_DISTRIBUTED_DEBUG=DETAIL wrapper catching ranks at different collectives
  (ProcessGroupWrapper.cpp "Detected mismatch between collectives on ranks"), whatever the backend (HCCL / NCCL / gloo).
- ARL-E4603: `ray start --block` tearing the node down because one of its daemons exited (scripts.py "Some Ray
  subprocesses exited unexpectedly"); generic, so a specific error printed with it ranks first.
- ARL-E4604: a rank whose TCPStore connection was closed by the store's host (Utils.hpp "Failed to recv, got 0 bytes",
  both wordings; the communicator-id fetch reset by rank 0); the store timeout forms stay ARL-E136.
- ARL-E4605: a Ray actor killed with ray.kill (GenKilledByApplicationCause) or ended by its own exit_actor() and called
  afterwards; before this entry the similarity fallback read them as a node death (ARL-E139) or a package mismatch.
- ARL-E4606: an actor / task whose placement group was removed (exceptions.py ActorPlacementGroupRemoved /
  TaskPlacementGroupRemoved, gcs_actor_manager.cc OnActorSchedulingFailed).
- ARL-E4607: torch.distributed's monitored barrier naming the ranks that did not arrive, or a rank reporting rank 0
  (ProcessGroupGloo.cpp monitoredBarrier).
- ARL-E4608: a gloo (CPU) collective / barrier timing out for a peer (gloo unbound_buffer.cc waitRecv / waitSend) or
  losing it (pair.cc "Connection closed by peer", read only with gloo's file prefix).
- DRV-rendezvous widened: init_process_group's store-based barrier timing out before world_size ranks joined
  (distributed_c10d.py _store_based_barrier, the 1.x "rank: N ... worker_count=" and 2.x "num_workers_joined=" forms).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

_AFFINITY = ("The node specified via NodeAffinitySchedulingStrategy doesn't exist any more or is infeasible, and "
             "soft=False was specified.")


# ARL-E4600 ---------------------------------------------------------------------------------------------------------

def test_hard_node_affinity_unschedulable_is_e4600():
    for text in (
        f"ray.exceptions.ActorUnschedulableError: The actor is not schedulable: {_AFFINITY}\n",
        f"ray.exceptions.TaskUnschedulableError: The task is not schedulable: {_AFFINITY}\n",
        # Ray Jobs: the supervisor actor is pinned to the head node.
        f"Status message: Job supervisor actor could not be scheduled: The actor is not schedulable: {_AFFINITY}\n",
        # Inside verl's TaskRunner, wrapped by RayTaskError.
        "ray.exceptions.RayTaskError(ActorUnschedulableError): ray::TaskRunner.run() (pid=20931, ip=10.0.0.11)\n"
        f"ray.exceptions.ActorUnschedulableError: The actor is not schedulable: {_AFFINITY}\n",
    ):
        assert _id(text) == "ARL-E4600", text


def test_infeasible_resource_shapes_is_not_e4600():
    # The other ActorUnschedulableError wording: no node of the cluster has the resources (autoscaler gave up).
    text = ("ray.exceptions.ActorUnschedulableError: The actor is not schedulable: Tasks or actors with resource "
            "shapes [{NPU: 1, CPU: 1}] failed to schedule because there are not enough resources for the tasks or "
            "actors on the whole cluster.\n")
    assert _id(text) == "ARL-E128"


def test_node_death_ranks_above_e4600():
    # The node's own death is the cause; the pinned actor that can no longer be placed follows from it.
    text = ("2026-11-30 14:01:58,004\tWARNING worker.py:2112 -- The node with node id: 5c1f0e2d and address: 10.0.0.12 "
            "and node name: 10.0.0.12 has been marked dead because the detector has missed too many heartbeats from "
            "it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, etc.) \n"
            f"ray.exceptions.ActorUnschedulableError: The actor is not schedulable: {_AFFINITY}\n")
    assert _id(text) != "ARL-E4600"


# ARL-E4601 ---------------------------------------------------------------------------------------------------------

def test_runtime_env_setup_timeout_is_e4601():
    for text in (
        "ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
        "Failed to install runtime_env within the timeout of 600 seconds. Consider increasing the timeout in the "
        "runtime_env config. For example: \n",
        "Status message: runtime_env setup failed: Failed to set up runtime environment.\n"
        "Failed to install runtime_env within the timeout of 1800 seconds. Consider increasing the timeout in the "
        "runtime_env config. For example: \n",
        "ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
        "Failed due to timeout; check runtime_env setup logs and consider increasing `setup_timeout_seconds` beyond "
        "the default of 600.For example: \n",
    ):
        assert _id(text) == "ARL-E4601", text


def test_runtime_env_pip_failure_is_not_e4601():
    # A pip install that fails outright (no such package) is not a timeout.
    text = ("ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
            "Failed to install pip requirements:\nERROR: No matching distribution found for vllm-ascend==9.9.9\n")
    assert _id(text) != "ARL-E4601"


# ARL-E4602 ---------------------------------------------------------------------------------------------------------

def test_collective_fingerprint_mismatch_is_e4602():
    for text in (
        "[rank1]: RuntimeError: Detected mismatch between collectives on ranks. Rank 1 is running collective: "
        "CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[195812480], TensorDtypes=BFloat16, "
        "TensorDeviceTypes=TensorOptions(dtype=float (default), device=npu:1, layout=Strided (default))), but Rank 0 "
        "is running collective: CollectiveFingerPrint(SequenceNumber=3104, OpType=ALLREDUCE, TensorShape=[51123456]).\n",
        # torch < 1.13 worded it "running inconsistent collective".
        "RuntimeError: Detected mismatch between collectives on ranks. Rank 0 is running inconsistent collective: "
        "CollectiveFingerPrint(OpType=BROADCAST, TensorShape=[34112], TensorDtypes=Float)\n",
        # Inside a Ray worker of verl.
        "(WorkerDict pid=4411, ip=10.0.0.3) RuntimeError: Detected mismatch between collectives on ranks. Rank 3 is "
        "running collective: CollectiveFingerPrint(SequenceNumber=21, OpType=BROADCAST, TensorShape=[1], "
        "TensorDtypes=Long), but Rank 0 is running collective: CollectiveFingerPrint(SequenceNumber=21, "
        "OpType=ALLGATHER).\n",
    ):
        assert _id(text) == "ARL-E4602", text


def test_hccl_ei0005_is_not_e4602():
    # HCCL's own consistency check (no debug wrapper) keeps its entry.
    text = ("EI0005: [PID: 2231] 2026-06-01-10:12:44.118.000 The arguments for collective communication are "
            "inconsistent between ranks: tag [AllReduce_10.0.0.1%enp_60000_0_1], parameter [count], local [1024], "
            "remote [2048]\n")
    assert _id(text) == "ARL-E363"


# ARL-E4603 ---------------------------------------------------------------------------------------------------------

def test_ray_start_block_daemon_exit_is_e4603():
    for text in (
        "Some Ray subprocesses exited unexpectedly:\n  raylet [exit code=1]\n\nRemaining processes will be killed.\n",
        "2025-05-24 10:02:33,271\tERR scripts.py:1093 -- Some Ray subprocesses exited unexpectedly:\n"
        "2025-05-24 10:02:33,271\tERR scripts.py:1097 -- gcs_server [exit code=-9]\n",
    ):
        assert _id(text) == "ARL-E4603", text


def test_specific_cause_ranks_above_e4603():
    # The worker node could not reach the head's GCS: that names the cause, the daemon exit follows from it.
    text = ("[2026-01-06 10:00:05,001 E 311 311] gcs_rpc_client.h:179: Failed to connect to GCS at address "
            "192.168.10.132:6379 within 5 seconds.\n"
            "Some Ray subprocesses exited unexpectedly:\n  raylet [exit code=1]\n")
    assert _id(text) == "ARL-E119"


# ARL-E4604 ---------------------------------------------------------------------------------------------------------

def test_tcpstore_peer_closed_is_e4604():
    for text in (
        "torch.distributed.DistNetworkError: Failed to recv, got 0 bytes. Connection was likely closed. Did the remote "
        "server shutdown or crash?\n",
        "[rank2]:[W625 23:35:35.303797152 TCPStore.cpp:125] [c10d] recvValue failed on SocketImpl(fd=6, "
        "addr=[::ffff:127.0.0.1]:37468, remote=[::ffff:127.0.0.1]:6006): failed to recv, got 0 bytes\n",
        "RuntimeError: [3] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via c10d key-value store "
        "by key '0', but store->get('0') got error: Connection reset by peer. This may indicate a possible application "
        "crash on rank 0 or a network set up issue.[ERROR] 2026-06-01-10:00:00 (PID:311, Device:3, RankID:3) ERR02002 "
        "DIST internal error\n",
    ):
        assert _id(text) == "ARL-E4604", text


def test_tcpstore_timeout_is_not_e4604():
    # The store never answered in time: the rendezvous timeout entry, not a closed connection.
    text = ("RuntimeError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value "
            "store by key '0', but store->get('0') got error: Socket Timeout\n")
    assert _id(text) == "ARL-E136"


# ARL-E4605 ---------------------------------------------------------------------------------------------------------

def test_actor_killed_by_ray_kill_is_e4605():
    for text in (
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: vLLMHttpServer\n\tactor_id: 3f2a9c1e7b6d5a4f8e0d1c2b01000000\n"
        "The actor is dead because it was killed by `ray.kill`.\n",
        "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task. "
        "The actor is dead because it was killed by `ray.kill`.\n",
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "The actor is dead because its worker process has died. Worker exit type: INTENDED_USER_EXIT Worker exit "
        "detail: Worker exits by an user request. exit_actor() is called.\n",
    ):
        assert _id(text) == "ARL-E4605", text


def test_healthy_worker_exit_line_is_not_e4605():
    # The same exit detail in a healthy worker's own shutdown log line is no failure.
    text = ("[2026-06-01 10:00:00,000 I 311 311] core_worker.cc:901: Exit signal received, this process will exit "
            "after all outstanding tasks have finished, exit_type=INTENDED_USER_EXIT, detail=Worker exits by an user "
            "request. exit_actor() is called.\n")
    assert _id(text) != "ARL-E4605"


def test_actor_out_of_scope_is_not_e4605():
    # Ray destroyed the actor itself because no handle was left: the out-of-scope entry.
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "The actor is dead because all references to the actor were removed.\n")
    assert _id(text) == "ARL-E4361"


# ARL-E4606 ---------------------------------------------------------------------------------------------------------

def test_placement_group_removed_is_e4606():
    for text in (
        "ray.exceptions.ActorPlacementGroupRemoved: The placement group corresponding to this Actor has been removed.\n",
        "ray.exceptions.TaskPlacementGroupRemoved: The placement group corresponding to this task has been removed.\n",
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "Could not create the actor because its associated placement group was removed.\n",
    ):
        assert _id(text) == "ARL-E4606", text


def test_empty_placement_group_is_not_e4606():
    # A group requested with no bundles at all is a configuration error of its own.
    text = "ValueError: The placement group `bundles` argument cannot contain an empty list\n"
    assert _id(text) != "ARL-E4606"


# ARL-E4607 ---------------------------------------------------------------------------------------------------------

def test_monitored_barrier_is_e4607():
    for text in (
        "RuntimeError: [Rank 0]: Ranks 1, 3 failed to pass monitoredBarrier in 1800000 ms\n",
        "RuntimeError: [Rank 0]: Rank 1 failed to pass monitoredBarrier in 2000 ms\n Original exception: \n"
        "[../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer [10.0.0.2]:8594\n",
        "[rank5]: RuntimeError: Rank 5 successfully reached monitoredBarrier, but received errors while waiting for "
        "send/recv from rank 0. Please check rank 0 logs for faulty rank.\n",
    ):
        assert _id(text) == "ARL-E4607", text


def test_gloo_connect_failure_is_not_e4607():
    # Gloo could not even build its full mesh: a network / interface problem, not a barrier timeout.
    text = "RuntimeError: Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error\n"
    assert _id(text) != "ARL-E4607"


# DRV-rendezvous (store-based barrier) -------------------------------------------------------------------------------

def test_store_based_barrier_timeout_is_rendezvous():
    for text in (
        "RuntimeError: Timed out initializing process group in store based barrier on rank 3, for key: "
        "store_based_barrier_key:1 (world_size=4, num_workers_joined=3, timeout=0:30:00)\n",
        "RuntimeError: Timed out initializing process group in store based barrier on rank: 5, for key: "
        "store_based_barrier_key:1 (world_size=8, worker_count=4, timeout=0:30:00)\n",
        "torch.distributed.DistStoreError: Timed out initializing process group in store based barrier on rank 1, for "
        "key: store_based_barrier_key:2 (world_size=2, num_workers_joined=1, timeout=0:10:00 error=Socket Timeout)\n",
    ):
        assert _id(text) == "DRV-rendezvous", text


def test_double_init_is_not_rendezvous():
    # Initialising the default group twice in one process is a code error, not ranks missing the rendezvous.
    text = "RuntimeError: trying to initialize the default process group twice!\n"
    assert _id(text) != "DRV-rendezvous"


# ARL-E4608 ---------------------------------------------------------------------------------------------------------

def test_gloo_recv_timeout_is_e4608():
    for text in (
        "[rank3]: RuntimeError: [../third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:81] Timed out waiting "
        "1800000ms for recv operation to complete\n",
        "RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/unbound_buffer.cc:78] Timed out waiting 75000ms "
        "for recv operation to complete\n",
        "torch.distributed.DistBackendError: [../third_party/gloo/gloo/transport/uv/unbound_buffer.cc:67] Timed out "
        "waiting 5000ms for send operation to complete\n",
        "RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:598] Connection closed by peer "
        "[10.0.0.2]:8594\n",
    ):
        assert _id(text) == "ARL-E4608", text


def test_plain_connection_closed_is_not_e4608():
    # The same words from an HTTP client are not a gloo peer.
    text = "requests.exceptions.ConnectionError: ('Connection aborted.', RemoteDisconnected('Connection closed by peer'))\n"
    assert _id(text) != "ARL-E4608"


def test_hccl_watchdog_timeout_is_not_e4608():
    # The NPU-side collective timeout has its own entry.
    text = ("[E ProcessGroupHCCL.cpp:500] [Rank 3] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=12, "
            "OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800123 milliseconds before timing out.\n")
    assert _id(text) == "ARL-E010"
