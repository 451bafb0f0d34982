"""Readings added by helper k57ray2 (2026-12-07) for what a verl run meets from Ray while running: objects lost with a
node and why Ray could not rebuild them, the object store spilling, a raylet that cannot reach its runtime-env agent.
Confirmed in Ray's source (python/ray/exceptions.py of the ray 2.43.0 and 2.60.0 wheels; the C++ files at the commits
the catalog cites). Each test input is a short excerpt around the exact emitted message; each class also has a near
miss (similar words, another failure).

- ARL-E6060: ObjectLostError ("All copies of X have been lost due to node failure."); before, unknown: ObjectLostError.
- ARL-E6061: a lost object Ray cannot recompute ("... because it was created by an actor, ray.put() call, or its
  ObjectRef was created by a different worker." (2.4x) / "... created by ray.put(), which has no task lineage." /
  "... it crossed an ownership boundary." (2.60)); before, nothing.
- ARL-E6062: reconstruction out of retries ("... because the maximum number of task retries has been exceeded." /
  "... because the task was created with max_retries=0."); before, nothing.
- ARL-E6063: reconstruction without lineage ("... because its lineage has been evicted to reduce memory pressure.");
  before, nothing.
- ARL-E6064: ObjectFetchTimedOutError ("Fetch for object X timed out because no locations were found for the
  object."); before, nothing.
- ARL-E6065: ReferenceCountingAssertionError ("The object has already been deleted by the reference counting protocol.
  This should not happen."); before, nothing.
- ARL-E6066: object spilling, a warning ("Spilled N MiB, M objects, write throughput X MiB/s."); before, nothing.
- ARL-E6067: the raylet exiting on an unreachable runtime-env agent ("The raylet exited immediately because the runtime
  env agent timed out when Raylet try to connect to it." / "Runtime Env Agent timed out in Nms. ..." / "Raylet could not
  connect to Runtime Env Agent" / "Failed to create runtime env for job X, status = ..., maybe there are some network
  problems, will fail the request."); before, nothing or the generic ARL-E166.
- ARL-E128 widened: the GCS's "There are tasks with infeasible resource requests that cannot be scheduled."; before,
  nothing.
- ARL-E121 widened: the worker exit detail "The leased worker has unrecoverable failure. Worker is requested to be
  destroyed when it is returned."; before, the generic ARL-E111.
- ARL-E114 widened: "<path> has no capacity, object creation will fail if spilling is required."; before, nothing.
- ARL-E166 (generic) widened: the pip plugin's "Failed to install pip packages." and the driver's "Failed to upload
  working_dir X to the Ray cluster: <reason>" (a specific reason on the same line still ranks first); before, nothing.
- ARL-E139 / ARL-E1643 list ARL-E6060..E6064 as consequences: a node death in the log ranks above the lost object.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

OBJ = "9f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c601000000"
TB = ("Traceback (most recent call last):\n"
      "  File \"/home/user/verl/verl/single_controller/ray/base.py\", line 51, in __call__\n"
      "    output = ray.get(output)\n")


def _lost(cls: str, tail: str) -> str:
    return (TB + f"ray.exceptions.{cls}: Failed to retrieve object {OBJ}. To see information about where this "
            "ObjectRef was created in Python, set the environment variable RAY_record_ref_creation_sites=1 during "
            "`ray start` and `ray.init()`.\n\n" + tail + "\n")


# ARL-E6060 -----------------------------------------------------------------------------------------------------------

def test_object_lost_with_node_is_e6060():
    text = _lost("ObjectLostError", f"All copies of {OBJ} have been lost due to node failure. Check cluster logs "
                                    "(`/tmp/ray/session_latest/logs`) for more information about the failure.")
    assert _id(text) == "ARL-E6060"


def test_owner_died_is_not_e6060():
    # a subclass of ObjectLostError with its own entry: the owner exited, not a node's object store
    text = _lost("OwnerDiedError", "The object's owner has exited. This is the Python worker that first created the "
                                   "ObjectRef via `.remote()` or `ray.put()`. Check cluster logs "
                                   "(`/tmp/ray/session_latest/logs/*01000000ffffffffffffffffffffffffffffffffffffffffffffffff*` "
                                   "at IP address 10.0.0.3) for more information about the Python worker failure.")
    assert _id(text) != "ARL-E6060"


def test_node_marked_dead_ranks_above_the_lost_object():
    text = ("2026-12-07 10:15:02,114 WARNING worker.py:2058 -- The node with node id: 6f1c2a9e and address: 10.0.0.7 "
            "and node name: 10.0.0.7 has been marked dead because the detector has missed too many heartbeats from "
            "it. This can happen when a \t(1) raylet crashes unexpectedly (OOM, etc.) \n"
            + _lost("ObjectLostError", f"All copies of {OBJ} have been lost due to node failure. Check cluster logs "
                                       "(`/tmp/ray/session_latest/logs`) for more information about the failure."))
    assert _id(text) == "ARL-E139"


# ARL-E6061 -----------------------------------------------------------------------------------------------------------

def test_object_without_lineage_is_e6061():
    for tail in (
        "The object cannot be reconstructed because it was created by an actor, ray.put() call, or its ObjectRef was "
        "created by a different worker.",
        "[OBJECT_UNRECONSTRUCTABLE_PUT] The object cannot be reconstructed because it was created by ray.put(), which "
        "has no task lineage. To prevent this error, return the value from a task instead.",
        "[OBJECT_UNRECONSTRUCTABLE_BORROWED] The object cannot be reconstructed because it crossed an ownership "
        "boundary. Only the owner of an object can trigger reconstruction, but this worker borrowed the object from "
        "another worker.",
    ):
        assert _id(_lost("ObjectReconstructionFailedError", tail)) == "ARL-E6061", tail


def test_reconstruction_out_of_retries_is_not_e6061():
    tail = ("The object cannot be reconstructed because the maximum number of task retries has been exceeded. To "
            "prevent this error, set `@ray.remote(max_retries=<num retries>)` (default 3).")
    assert _id(_lost("ObjectReconstructionFailedMaxAttemptsExceededError", tail)) != "ARL-E6061"


# ARL-E6062 -----------------------------------------------------------------------------------------------------------

def test_reconstruction_out_of_retries_is_e6062():
    for cls, tail in (
        ("ObjectReconstructionFailedMaxAttemptsExceededError",
         "The object cannot be reconstructed because the maximum number of task retries has been exceeded. To prevent "
         "this error, set `@ray.remote(max_retries=<num retries>)` (default 3)."),
        ("ObjectReconstructionFailedError",
         "[OBJECT_UNRECONSTRUCTABLE_MAX_ATTEMPTS_EXCEEDED] The object cannot be reconstructed because the maximum "
         "number of task retries has been exceeded. Consider increasing the number of retries using "
         "`@ray.remote(max_retries=N)`."),
        ("ObjectReconstructionFailedError",
         "[OBJECT_UNRECONSTRUCTABLE_RETRIES_DISABLED] The object cannot be reconstructed because the task was created "
         "with max_retries=0. Consider enabling retries using `@ray.remote(max_retries=N)`."),
    ):
        assert _id(_lost(cls, tail)) == "ARL-E6062", tail


def test_lineage_evicted_is_not_e6062():
    tail = ("The object cannot be reconstructed because its lineage has been evicted to reduce memory pressure. To "
            "prevent this error, set the environment variable RAY_max_lineage_bytes=<bytes> (default 1GB) during "
            "`ray start`.")
    assert _id(_lost("ObjectReconstructionFailedLineageEvictedError", tail)) != "ARL-E6062"


# ARL-E6063 -----------------------------------------------------------------------------------------------------------

def test_lineage_evicted_is_e6063():
    for tail in (
        "The object cannot be reconstructed because its lineage has been evicted to reduce memory pressure. To "
        "prevent this error, set the environment variable RAY_max_lineage_bytes=<bytes> (default 1GB) during "
        "`ray start`.",
        "[OBJECT_UNRECONSTRUCTABLE_LINEAGE_EVICTED] The object cannot be reconstructed because its lineage has been "
        "evicted to reduce memory pressure. To prevent this error, set the environment variable "
        "RAY_max_lineage_bytes=<bytes> (default 1GB) during `ray start`.",
    ):
        assert _id(_lost("ObjectReconstructionFailedLineageEvictedError", tail)) == "ARL-E6063"


def test_lineage_disabled_is_not_e6063():
    tail = ("[OBJECT_UNRECONSTRUCTABLE_LINEAGE_DISABLED] The object cannot be reconstructed because lineage "
            "reconstruction is disabled system-wide (object_reconstruction_enabled=False).")
    assert _id(_lost("ObjectReconstructionFailedError", tail)) != "ARL-E6063"


# ARL-E6064 -----------------------------------------------------------------------------------------------------------

def test_fetch_timed_out_is_e6064():
    tail = (f"Fetch for object {OBJ} timed out because no locations were found for the object. This may indicate a "
            "system-level bug.")
    assert _id(_lost("ObjectFetchTimedOutError", tail)) == "ARL-E6064"


def test_get_timeout_is_not_e6064():
    # ray.get(timeout=...) giving up on unfinished tasks: another failure (GetTimeoutError)
    text = TB + "ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.\n"
    assert _id(text) != "ARL-E6064"


# ARL-E6065 -----------------------------------------------------------------------------------------------------------

def test_refcount_assertion_is_e6065():
    tail = "The object has already been deleted by the reference counting protocol. This should not happen."
    assert _id(_lost("ReferenceCountingAssertionError", tail)) == "ARL-E6065"


def test_object_freed_is_not_e6065():
    tail = ("The object was manually freed using the internal `free` call. Please ensure that `free` is only called "
            "once the object is no longer needed.")
    assert _id(_lost("ObjectFreedError", tail)) != "ARL-E6065"


# ARL-E6066 -----------------------------------------------------------------------------------------------------------

def test_spilling_is_e6066_and_not_fatal():
    text = ("(TaskRunner pid=2210) step:3 - actor/pg_loss:-0.018 - critic/score/mean:0.301\n"
            "(raylet) Spilled 4215 MiB, 31 objects, write throughput 1450 MiB/s. Set RAY_verbose_spill_logs=0 to "
            "disable this message.\n"
            "(TaskRunner pid=2210) step:4 - actor/pg_loss:-0.011 - critic/score/mean:0.318\n")
    found = first(CATALOG, text)
    assert found is not None and found.entry.id == "ARL-E6066"
    assert not found.entry.fatal


def test_restore_log_is_not_e6066():
    text = "[2026-12-07 11:03:10,002 I 881 881] local_object_manager.cc:512: Restored 4215 MiB, 31 objects, read throughput 2210 MiB/s\n"
    assert _id(text) != "ARL-E6066"


# ARL-E6067 -----------------------------------------------------------------------------------------------------------

def test_runtime_env_agent_timeout_is_e6067():
    for line in (
        "[2026-12-07 06:42:18,909 E 4410 4410] (raylet) runtime_env_agent_client.cc:310: The raylet exited "
        "immediately because the runtime env agent timed out when Raylet try to connect to it. This can happen "
        "because the runtime env agent was never started, or is listening to the wrong port.",
        "[2026-12-07 06:42:18,909 E 4410 4410] (raylet) runtime_env_agent_client.cc:340: Runtime Env Agent timed out "
        "in 30000ms. Status: NotFound: on_connect Connection refused, address: 10.3.0.17, port: 52365, existing "
        "immediately...",
        "\tthe actor's node was terminated unexpectedly: Raylet could not connect to Runtime Env Agent",
        "[2026-12-07 06:41:02,117 I 4410 4410] (raylet) runtime_env_agent_client.cc:395: Failed to create runtime env "
        "for job 01000000, status = IOError: protobuf parse error, maybe there are some network problems, will fail "
        "the request.",
    ):
        assert _id(line + "\n") == "ARL-E6067", line


def test_agent_died_is_not_e6067():
    # the raylet fate-sharing with a dead agent has its own entry
    line = ("[2026-12-07 06:42:18,909 E 4410 4410] (raylet) main.cc:301: The raylet exited immediately because one Ray "
            "agent failed, agent_name = dashboard_agent.\n")
    assert _id(line) != "ARL-E6067"


# ARL-E128, ARL-E121, ARL-E114 widened -----------------------------------------------------------------------------

def test_gcs_infeasible_warning_is_e128():
    line = ("(raylet) There are tasks with infeasible resource requests that cannot be scheduled. See "
            "https://docs.ray.io/en/latest/ray-core/scheduling/index.html#ray-scheduling-resources for more details. "
            "Possible solutions: 1. Updating the ray cluster to include nodes with all required resources 2. To cause "
            "the tasks with infeasible requests to raise an error instead of hanging, set the "
            "'RAY_enable_infeasible_task_early_exit=true'. This feature will be turned on by default in a future "
            "release of Ray.\n")
    assert _id(line) == "ARL-E128"


def test_infeasible_word_alone_is_not_e128():
    line = "Number of placement groups broken down by state in {Registered, Pending, Infeasible}: 0, 1, 0\n"
    assert _id(line) != "ARL-E128"


def test_leased_worker_failure_is_e121():
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "\tclass_name: create_colocated_worker_cls.<locals>.WorkerDict\n"
            "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
            "The leased worker has unrecoverable failure. Worker is requested to be destroyed when it is returned. "
            "RPC Error message: Socket closed; RPC Error details: \n")
    assert _id(text) == "ARL-E121"


def test_idle_worker_exit_is_not_e121():
    line = "Worker exited because it was idle for a long time\n"
    assert _id(line) != "ARL-E121"


def test_spill_dir_without_capacity_is_e114():
    line = ("[2026-12-07 09:00:01,551 E 3301 3340] (raylet) file_system_monitor.cc:116: /tmp/ray/session_2026-12-07_"
            "08-59-40_118806_3120 has no capacity, object creation will fail if spilling is required.\n")
    assert _id(line) == "ARL-E114"


def test_object_store_full_is_not_e114():
    text = (TB + "ray.exceptions.ObjectStoreFullError: Failed to put object 00ffffffffffffffffffffffffffffffffffffff"
            "0100000001000000 in object store because it is full. Object size is 2147483648 bytes.\n"
            "The local object store is full of objects that are still in scope and cannot be evicted. Tip: Use the "
            "`ray memory` command to list active objects in the cluster.\n")
    assert _id(text) != "ARL-E114"


def test_spilling_ranks_below_a_specific_finding():
    # dev blades-71's shape: the spill line first, the autoscaler's infeasible request after it
    text = ("Spilled 2098 MiB, 10 objects, write throughput 1389 MiB/s. Set RAY_verbose_spill_logs=0 to disable this "
            "message.\n"
            "(autoscaler +7s) Error: No available node types can fulfill resource request {'CPU': 1.0, 'NPU': 1.0}. "
            "Add suitable node types to this cluster to resolve this issue.\n")
    assert _id(text) == "ARL-E128"


def test_runtime_env_pip_and_upload_failures_are_e166():
    for text in (
        "[2026-12-07 07:12:01,441 E 5512 5512] pip.py:294 -- Failed to install pip packages.\n"
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.11/site-packages/ray/_private/runtime_env/pip.py\", line 273, in _run\n",
        "ray.exceptions.RuntimeEnvSetupError: Failed to upload working_dir /home/user/verl to the Ray cluster: "
        "Failed to store package in the GCS.\n",
    ):
        assert _id(text) == "ARL-E166", text


def test_upload_of_an_oversized_working_dir_is_not_e166():
    # the reason after the colon has its own, specific entry (ARL-E127)
    text = ("ray.exceptions.RuntimeEnvSetupError: Failed to upload working_dir /home/user/verl to the Ray cluster: "
            "Package size (612.00MiB) exceeds the maximum size of 512.00MiB. To exclude large files, add them to "
            "'.gitignore' or '.rayignore' files, or use the 'excludes' option in the runtime_env.\n")
    assert _id(text) == "ARL-E127"
    text = ("ray.exceptions.RuntimeEnvSetupError: Failed to upload working_dir /home/user/verl to the Ray cluster: "
            "Failed to connect to GCS at address 10.0.0.5:6379 within 5 seconds.\n")
    assert _id(text) == "ARL-E119"
