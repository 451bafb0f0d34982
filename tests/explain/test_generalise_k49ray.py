"""Readings added by helper k49ray (2026-12-06) while probing public threads of Ray clusters and actors, collective
hangs and host / NPU memory for failure classes explain did not name. Each test input is a short excerpt in our own
words around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4880: Ray's back-pressure limit, PendingCallsLimitExceeded (_raylet.pyx submit_actor_task, Python and Java
  wordings): the caller queued max_pending_calls calls on one actor.
- ARL-E4881: TaskCancelledError ("Task: TaskID(...) was cancelled.", exceptions.py): a ray.cancel'ed task awaited
  (verl fully_async partial_rollout interrupting rollouts at a parameter sync); generic, so the failure that made a
  framework cancel its work ranks first.
- ARL-E4882: a Ray worker / actor ended on SIGTERM (worker.py sigterm_handler + _raylet.pyx check_signals: "Worker
  exits unexpectedly by a signal. ... The process receives a SIGTERM."), in the raylet's worker-death line and in the
  ActorDiedError cause; before this entry the raylet line read as a SIGKILL / OOM kill (ARL-E121) and a bare
  ActorDiedError as a package mismatch by similarity.
- ARL-E4884: ray.init() joining the address a crashed / uncleanly stopped Ray left in /tmp/ray/ray_current_cluster
  (worker.py "Failed to connect to the default Ray cluster address ... previous Ray instance that has since crashed").
- ARL-E4885: a Ray worker ended by a SystemExit inside a task or from an application's signal handler (_raylet.pyx
  "Worker exits unexpectedly. Worker exits with an exit code N." / "... by a signal. SystemExit is raised ... Exit
  code: N."); before, the raylet line read as a SIGKILL / OOM kill (ARL-E121).
- ARL-E4886: a runtime_env pip / uv install that brings another Ray version into the worker virtualenv
  (dependency_utils.py check_ray "Changing the ray version is not allowed").
- ARL-E005 widened: the current raylet's EMFILE wording ("Too many workers, failed to create a file. Try setting
  `ulimit -n <num_files>` then restart Ray", worker_pool.cc).
- ARL-E4887: vLLM's EngineCore timing out on its TP / PP workers (multiproc_executor.py "RPC call to execute_model /
  sample_tokens timed out."); before, it read as a Ray node start-up timeout (ARL-E793).
- ARL-E4888: vLLM's front-end timing out on its engine cores' ready messages (core_client.py "Timed out waiting for
  engines to send initial message on input socket", both spellings); before, also read as ARL-E793.
- ARL-E502 widened: ray_utils._verify_bundles' "driver node id X is not included in a placement group" (later vLLM).
- ARL-E513 widened: vLLM's non-fatal "Waiting for creating a placement group of specs for N seconds" progress line.
- ARL-E4889: SGLang's launcher losing a scheduler process before ready (engine.py "Rank N scheduler is dead", "Received
  sigquit from a child process", "Initialization failed"); generic, the scheduler's own error ranks first.
- ARL-E4890: an actor whose node was shut down on purpose or preempted (gcs_actor_manager.cc GenNodeDiedCause "the
  actor's node was terminated expectedly: received SIGTERM" / "was preempted"); before, a package mismatch by similarity.
- ARL-E4891: vLLM's worker monitor seeing a TP / PP worker process (or Ray V2 worker actor) die ("Worker proc VllmWorker-N
  died unexpectedly, shutting down executor"); non-fatal, since a stop the caller sends prints it too.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4880 ---------------------------------------------------------------------------------------------------------

def test_pending_calls_limit_is_e4880():
    for text in (
        "ray.exceptions.PendingCallsLimitExceeded: The task RolloutWorker.generate could not be submitted to "
        "Actor(RolloutWorker, 7c1a9e) because more than 1000 tasks are queued on the actor. This limit can be adjusted "
        "with the `max_pending_calls` actor option.\n",
        # inside verl's TaskRunner, wrapped by RayTaskError
        "ray.exceptions.RayTaskError(PendingCallsLimitExceeded): ray::TaskRunner.run() (pid=1234, ip=10.0.0.1)\n"
        "ray.exceptions.PendingCallsLimitExceeded: The task RewardActor.score could not be submitted to "
        "Actor(RewardActor, 5c0a) because more than 64 tasks are queued on the actor. This limit can be adjusted with "
        "the `max_pending_calls` actor option.\n",
        # Java API
        "io.ray.api.exception.PendingCallsLimitExceededException: The task Counter.increment could not be submitted to "
        "ffffffff01000000 because more than 10 tasks are queued on the actor. This limit can be adjusted with the "
        "`setMaxPendingCalls` actor option.\n",
    ):
        assert _id(text) == "ARL-E4880", text


def test_raylet_queue_warning_is_not_e4880():
    # The raylet's own scheduling-queue warning: many tasks waiting for a node, no actor call refused.
    text = "(raylet) More than 1000 tasks are queued for scheduling on this node. This can slow down the raylet.\n"
    assert _id(text) != "ARL-E4880"


# ARL-E4881 ---------------------------------------------------------------------------------------------------------

def test_task_cancelled_is_e4881():
    for text in (
        "ray.exceptions.TaskCancelledError: Task: TaskID(16310a0f0a45af5cffffffffffffffffffffffff01000000) was "
        "cancelled. \n",
        "(FullyAsyncRollouter pid=88123)     result = await task\n"
        "(FullyAsyncRollouter pid=88123) ray.exceptions.TaskCancelledError: Task: "
        "TaskID(b2d4e0f7a9c1e3f5ffffffffffffffffffffffff02000000) was cancelled. \n",
    ):
        assert _id(text) == "ARL-E4881", text


def test_a_failure_that_triggers_the_cancellation_ranks_above_e4881():
    # A worker died of a host OOM kill and the framework cancelled the rest: the kill is the cause.
    text = ("(raylet) Task was killed due to the node running low on memory.\n"
            "Memory on the node (IP: 10.0.0.2, ID: abcd) where the lease was running was 480.12GB / 503.50GB "
            "(0.953573), which exceeds the memory usage threshold of 0.95. Ray killed this worker (ID: ffee) because "
            "it was the most recently scheduled task\n"
            "ray.exceptions.TaskCancelledError: Task: TaskID(16310a0f0a45af5cffffffffffffffffffffffff01000000) was "
            "cancelled. \n")
    assert _id(text) != "ARL-E4881"


def test_asyncio_cancelled_error_is_not_e4881():
    text = ("Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3.11/asyncio/tasks.py\", line 277, in __step\n"
            "asyncio.exceptions.CancelledError\n")
    assert _id(text) != "ARL-E4881"


# ARL-E4882 ---------------------------------------------------------------------------------------------------------

_SIGTERM = ("Worker exit type: SYSTEM_ERROR Worker exit detail: Worker exits unexpectedly by a signal. SystemExit is "
            "raised (sys.exit is called). Exit code: 1. The process receives a SIGTERM.")


def test_worker_sigterm_is_e4882():
    for text in (
        # the raylet's worker-death line (ranked above ARL-E121's reading of the same line as a SIGKILL)
        "(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot "
        "the problem, check the logs for the dead worker. RayTask ID: ffffffffffffffffc90bbe15 Worker ID: f7ea96b1 "
        f"Node ID: cc69c4cc Worker IP address: 192.168.100.8 Worker port: 41497 Worker PID: 269812 {_SIGTERM}\n",
        # a bare ActorDiedError with only the GCS's death cause
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: vLLMHttpServer\n\tactor_id: 1d5e9b8c\n\tpid: 2345\n"
        f"The actor is dead because its worker process has died. {_SIGTERM}\n",
    ):
        assert _id(text) == "ARL-E4882", text


def test_worker_sigkill_and_exit_code_are_not_e4882():
    # The connection-EOF form (SIGKILL, usually the kernel OOM killer) stays ARL-E121.
    text = ("(raylet) A worker died or was killed while executing a task by an unexpected system error. To "
            "troubleshoot the problem, check the logs for the dead worker. RayTask ID: ffff Worker ID: ab01 Node ID: "
            "45eb Worker IP address: 10.0.83.247 Worker port: 10525 Worker PID: 92026 Worker exit type: SYSTEM_ERROR "
            "Worker exit detail: Worker unexpectedly exits with a connection error code 2. End of file. There are some "
            "potential root causes. (1) The process is killed by SIGKILL by OOM killer due to high memory usage.\n")
    assert _id(text) == "ARL-E121"
    # Ray's memory monitor kill keeps its own entry.
    text = ("The actor is dead because its worker process has died. Worker exit type: NODE_OUT_OF_MEMORY Worker exit "
            "detail: Task was killed due to the node running low on memory.\n")
    assert _id(text) != "ARL-E4882"


# ARL-E4884 ---------------------------------------------------------------------------------------------------------

def test_stale_default_cluster_address_is_e4884():
    text = ("2025-08-20 02:28:57,027\tINFO worker.py:1853 -- Failed to connect to the default Ray cluster address at "
            "10.164.31.145:6379. This is most likely due to a previous Ray instance that has since crashed. To reset "
            "the default address to connect to, run `ray stop` or restart Ray with `ray start`.\n"
            "RuntimeError: b'RPC Error message: Deadline Exceeded; RPC Error details: '\n"
            "ConnectionError: Failed to connect to Ray cluster at 10.164.31.145:6379\n")
    assert _id(text) == "ARL-E4884"


def test_gcs_unreachable_at_an_explicit_address_is_not_e4884():
    text = ("[2025-02-16 16:05:55,537 E 350061 350061] gcs_rpc_client.h:179: Failed to connect to GCS at address "
            "172.23.15.13:20000 within 5 seconds.\n"
            "[2025-02-16 16:06:26,552 W 350061 350061] gcs_client.cc:178: Failed to get cluster ID from GCS server: "
            "TimedOut: Timed out while waiting for GCS to become available.\n")
    assert _id(text) == "ARL-E119"


# ARL-E4885 ---------------------------------------------------------------------------------------------------------

def test_system_exit_in_worker_is_e4885():
    for text in (
        "(raylet) A worker died or was killed while executing a task by an unexpected system error. To troubleshoot "
        "the problem, check the logs for the dead worker. RayTask ID: ffff Worker ID: 8c48 Node ID: 2b45 Worker IP "
        "address: 127.0.0.1 Worker port: 47591 Worker PID: 1075016 Worker exit type: SYSTEM_ERROR Worker exit detail: "
        "Worker exits unexpectedly. Worker exits with an exit code None. The worker may have exceeded K8s pod memory "
        "limits.\n",
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: WorkerDict\n\tactor_id: 1d5e\n"
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
        "Worker exits unexpectedly. Worker exits with an exit code 1.\n",
        # a SystemExit from a signal handler the application installed (no Ray SIGTERM sentence)
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
        "Worker exits unexpectedly by a signal. SystemExit is raised (sys.exit is called). Exit code: 1.\n",
    ):
        assert _id(text) == "ARL-E4885", text


def test_intended_exit_and_sigterm_are_not_e4885():
    # Ray's own SIGTERM handler: the SIGTERM entry, not this one.
    text = ("The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
            "Worker exits unexpectedly by a signal. SystemExit is raised (sys.exit is called). Exit code: 1. The "
            "process receives a SIGTERM.\n")
    assert _id(text) == "ARL-E4882"
    # exit_actor(): an intended exit (ARL-E4605)
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "The actor is dead because its worker process has died. Worker exit type: INTENDED_USER_EXIT Worker exit "
            "detail: Worker exits by an user request. exit_actor() is called.\n")
    assert _id(text) != "ARL-E4885"


# ARL-E4886 ---------------------------------------------------------------------------------------------------------

def test_runtime_env_changing_ray_version_is_e4886():
    for text in (
        "ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
        "Traceback (most recent call last):\n"
        "RuntimeError: Changing the ray version is not allowed: \n"
        "  current version: 2.48.0,   expect version: 2.45.0,   current path: /tmp/ray/pip/ray,   expect path: "
        "/usr/lib/python3/site-packages/ray, Please ensure the dependencies in the runtime_env pip field do not "
        "install a different version of Ray.\n",
        "(raylet, ip=10.130.1.228) Please ensure the dependencies in the runtime_env pip field do not install a "
        "different version of Ray.\n",
    ):
        assert _id(text) == "ARL-E4886", text


def test_runtime_env_pip_install_failure_is_not_e4886():
    text = ("ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
            "ERROR: Could not find a version that satisfies the requirement vllm-ascend==9.9.9 (from versions: none)\n"
            "ERROR: No matching distribution found for vllm-ascend==9.9.9\n")
    assert _id(text) != "ARL-E4886"


# ARL-E005 widened ---------------------------------------------------------------------------------------------------

def test_raylet_too_many_workers_file_limit_is_e005():
    text = ("[2026-11-30 10:00:00,000 E 123 123] worker_pool.cc:581: Too many workers, failed to create a file. Try "
            "setting `ulimit -n <num_files>` then restart Ray.\n")
    assert _id(text) == "ARL-E005"


def test_raylet_worker_registration_timeout_is_not_e005():
    text = ("(raylet) [2026-11-30 10:00:00,000 E 123 456] worker_pool.cc:581: Some workers of the worker process(12345) "
            "have not registered within the timeout. The process is still alive, probably it's hanging during start.\n")
    assert _id(text) != "ARL-E005"


# ARL-E4887 ---------------------------------------------------------------------------------------------------------

def test_vllm_worker_rpc_timeout_is_e4887():
    for text in (
        "ERROR 09-06 04:14:11 [core.py:640] TimeoutError: RPC call to execute_model timed out.\n"
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
        "root cause.\n",
        "(EngineCore) ERROR [core.py:1138] TimeoutError: RPC call to sample_tokens timed out.\n",
    ):
        assert _id(text) == "ARL-E4887", text


def test_ray_get_timeout_is_not_e4887():
    text = "ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.\n"
    assert _id(text) != "ARL-E4887"


# ARL-E4888 ---------------------------------------------------------------------------------------------------------

def test_vllm_engines_never_ready_is_e4888():
    for text in (
        "(ApiServer_0 pid=25528) TimeoutError: Timed out waiting for engines to sendinitial message on input socket.\n",
        "(ApiServer_5 pid=463645) TimeoutError: Timed out waiting for engines to send initial message on input socket.\n",
    ):
        assert _id(text) == "ARL-E4888", text


def test_ray_node_startup_timeout_is_not_e4888():
    text = ("Exception: The current node timed out during startup. This could happen because some of the Ray processes "
            "failed to startup.\n")
    assert _id(text) != "ARL-E4888"


# ARL-E502 / ARL-E513 widened ---------------------------------------------------------------------------------------

def test_vllm_driver_node_not_in_placement_group_is_e502():
    text = ("RuntimeError: driver node id 5c1f0e2d is not included in a placement group 0f3e9a. Node id -> bundles "
            "{'cd34ab': [{'NPU': 1.0}, {'NPU': 1.0}]}. You don't have enough GPUs available in a current node. Check "
            "`ray status` and `ray list nodes` to see if you have available GPUs in a node `{driver_node_id}` before "
            "starting an vLLM engine.\n")
    assert _id(text) == "ARL-E502"


def test_vllm_waiting_for_placement_group_is_e513():
    text = ("INFO 02-26 11:15:56 ray_utils.py:212] Waiting for creating a placement group of specs for 60 seconds. "
            "specs=[{'node:10.225.68.29': 0.001, 'NPU': 1.0}, {'NPU': 1.0}]. Check `ray status` and `ray list nodes` "
            "to see if you have enough resources, and make sure the IP addresses used by ray cluster are the same as "
            "VLLM_HOST_IP environment variable specified in each node if you are running on a multi-node.\n")
    top = _top(text)
    assert top is not None and top.entry.id == "ARL-E513" and not top.fatal


def test_vllm_removing_placement_group_wait_is_not_e513():
    text = "INFO 02-26 11:20:00 ray_utils.py:240] Waiting for removing a placement group of specs for 20 seconds.\n"
    assert _id(text) != "ARL-E513"


# ARL-E4889 ---------------------------------------------------------------------------------------------------------

def test_sglang_scheduler_dead_is_e4889():
    for text in (
        "[12-16 14:27:08] Rank 0 scheduler is dead. Please check if there are relevant logs.\n"
        "[12-16 14:27:10] Exit code: -9\n",
        "[2025-04-21 04:13:43] Received sigquit from a child process. It usually means the child failed.\n",
    ):
        assert _id(text) == "ARL-E4889", text


def test_scheduler_own_error_ranks_above_e4889():
    # The scheduler's own error (here an NPU OOM) is the cause; the launcher's wrapper follows it.
    text = ("[2026-11-30 10:00:00 TP1] Scheduler hit an exception: Traceback (most recent call last):\n"
            "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 1; 60.96 GiB total capacity; 57.10 GiB "
            "already allocated; 57.10 GiB current active; 1.20 GiB free; 58.40 GiB reserved in total by PyTorch)\n"
            "[2026-11-30 10:00:02] Rank 1 scheduler is dead. Please check if there are relevant logs.\n"
            "[2026-11-30 10:00:03] Exit code: 1\n")
    assert _id(text) != "ARL-E4889"


# ARL-E4890 ---------------------------------------------------------------------------------------------------------

def test_actor_node_stopped_on_purpose_is_e4890():
    for text in (
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: WorkerDict\n\tactor_id: 1d5e\n"
        "The actor died because its node has died. Node Id: 8f9e7d\n"
        "\tthe actor's node was terminated expectedly: received SIGTERM\n",
        "The actor died because its node has died. Node Id: 8f9e7d\n"
        "\tthe actor's node was preempted: The node was preempted by the cloud provider.\n",
    ):
        assert _id(text) == "ARL-E4890", text


def test_actor_node_lost_heartbeats_is_not_e4890():
    text = ("The actor died because its node has died. Node Id: 8f9e7d\n"
            "\tthe actor's node was terminated unexpectedly: health check failed due to missing too many heartbeats\n")
    assert _id(text) == "ARL-E139"


# ARL-E4891 ---------------------------------------------------------------------------------------------------------

def test_vllm_worker_proc_died_is_e4891():
    for text in (
        "(EngineCore_DP0 pid=265) ERROR 02-27 10:31:24 [multiproc_executor.py:231] Worker proc VllmWorker-0 died "
        "unexpectedly, shutting down executor.\n",
        "ERROR 11-30 10:00:00 [ray_executor_v2.py:464] RayWorkerProc rank=[3] died unexpectedly, shutting down "
        "executor.\n",
    ):
        top = _top(text)
        assert top is not None and top.entry.id == "ARL-E4891" and not top.fatal, text


def test_worker_error_above_ranks_above_e4891():
    # The dead worker's own fatal error is the cause; the monitor's line is not fatal on its own.
    text = ("(VllmWorker rank=3 pid=1842) RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 3; 60.96 GiB "
            "total capacity; 57.10 GiB already allocated; 57.10 GiB current active; 1.20 GiB free; 58.40 GiB reserved "
            "in total by PyTorch)\n"
            "ERROR 11-30 10:31:24 [multiproc_executor.py:231] Worker proc VllmWorker-3 died unexpectedly, shutting down "
            "executor.\n")
    assert _id(text) != "ARL-E4891"
