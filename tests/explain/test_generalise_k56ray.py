"""Readings added by helper k56ray (2026-12-07) for Ray's own start-up and option checks as a verl run meets them,
confirmed in Ray's Python source (the ray 2.58.0 wheel, and the code index's stored copy of the 2.4x
python/ray/_private/ray_option_utils.py). Each test input is a short excerpt around the exact emitted message; each class
also has a near miss (similar words, another failure).

- ARL-E5920: 'CPU' / 'GPU' (or 'memory') inside a task's / actor's resources={...} ("Use the 'num_cpus' and 'num_gpus'
  keyword instead of 'CPU' and 'GPU' in 'resources' keyword"); before, nothing.
- ARL-E5921: an object store larger than the node's or container's memory ("After taking into account object store and
  redis memory usage ..." / "The requested object store memory size is greater than the total available memory.");
  before, nothing.
- ARL-E5922: an object store under the 75 MiB minimum ("Attempting to cap object store memory usage at N bytes, but the
  minimum allowed is M bytes."); before, nothing.
- ARL-E5923: ray.init() given a keyword it does not accept ("Unknown keyword argument(s): X", storage= removed after
  2.47, local_mode removed); before, nothing.
- ARL-E5924: a task / actor option keyword Ray does not have, e.g. num_npus ("Invalid option keyword num_npus for
  actors. Valid ones are [...]"); before, nothing.
- ARL-E5925: ray start on a worker node without --address or with a head-only flag ("`--address` is a required
  flag unless starting a head node with `--head`." / "`--port` should only be specified when starting head node with
  `--head`."); before, nothing.
- ARL-E118 widened: the raylet's plasma store shrinking itself to /dev/shm ("System memory request exceeds memory
  available in /dev/shm. ..."); before, nothing.
- ARL-E1643 widened: a worker exiting because its raylet is gone ("Exiting because the Raylet IPC connection failed
  and the local Raylet is dead"); before, nothing.
- ARL-E140 / ARL-E166 widened: the GCS's "Could not create the actor because worker startup repeatedly failed." /
  "... because its associated runtime env failed to be created." (E166 now lists E111 as its consequence); before, the
  generic ARL-E111.
- ARL-E146 widened: the ray CLI's "Ray version mismatch: cluster has Ray version X but local Ray version is Y"; before,
  nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/home/user/verl/verl/trainer/main_ppo.py\", line 65, in run_ppo\n"


# ARL-E5920 -----------------------------------------------------------------------------------------------------------

def test_cpu_or_gpu_inside_resources_is_e5920():
    for line in (
        "ValueError: Use the 'num_cpus' and 'num_gpus' keyword instead of 'CPU' and 'GPU' in 'resources' keyword",
        "ValueError: The resources dictionary must not contain the key 'CPU' or 'GPU'",
        "ValueError: The resources dictionary must not contain the key 'memory' or 'object_store_memory'",
    ):
        assert _id(TB + line + "\n") == "ARL-E5920", line


def test_bundle_keyword_in_resources_is_not_e5920():
    line = "ValueError: The resource should not include `bundle` which is reserved for Ray. resources: {'bundle': 1}"
    assert _id(TB + line + "\n") != "ARL-E5920"


# ARL-E5921 -----------------------------------------------------------------------------------------------------------

def test_object_store_larger_than_memory_is_e5921():
    for line in (
        "ValueError: After taking into account object store and redis memory usage, the amount of memory on this node "
        "available for tasks and actors (-2.42 GB) is less than -112% of total. You can adjust these settings with "
        "ray.init(memory=<bytes>, object_store_memory=<bytes>).",
        "ValueError: After taking into account object store and redis memory usage, the amount of memory on this node "
        "available for tasks and actors (0.08 GB) is less than 3% of total. You can adjust these settings with "
        "ray.init(memory=<bytes>, object_store_memory=<bytes>).",
        "ValueError: The requested object store memory size is greater than the total available memory.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5921", line


def test_object_store_over_dev_shm_is_not_e5921():
    # the /dev/shm check has its own entry (ARL-E118): a small /dev/shm, not a large object store
    line = ("ValueError: The configured object store size (400.0 GB) exceeds /dev/shm size (64.0 GB). This will harm "
            "performance. Consider deleting files in /dev/shm or increasing its size with --shm-size in Docker. To "
            "ignore this warning, set RAY_OBJECT_STORE_ALLOW_SLOW_STORAGE=1.")
    assert _id(TB + line + "\n") != "ARL-E5921"


# ARL-E5922 -----------------------------------------------------------------------------------------------------------

def test_object_store_under_minimum_is_e5922():
    line = "ValueError: Attempting to cap object store memory usage at 200 bytes, but the minimum allowed is 78643200 bytes."
    assert _id(TB + line + "\n") == "ARL-E5922"


def test_object_store_full_is_not_e5922():
    line = ("ray.exceptions.ObjectStoreFullError: Failed to put object 00ff in object store because it is full. "
            "Object size is 2147483648 bytes.")
    assert _id(line + "\n") != "ARL-E5922"


# ARL-E5923 -----------------------------------------------------------------------------------------------------------

def test_ray_init_unknown_or_removed_keyword_is_e5923():
    for line in (
        "RuntimeError: Unknown keyword argument(s): env_vars",
        "RuntimeError: Unknown keyword argument(s): wait_timeout, log_to_driver_",
        "RuntimeError: Cluster-wide storage configuration has been removed. The last Ray version supporting the "
        "`storage` argument is `ray==2.47`.",
        "RuntimeError: `local_mode` is no longer supported. For interactive debugging consider using the Ray "
        "distributed debugger.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5923", line


def test_python_unexpected_keyword_is_not_e5923():
    line = "TypeError: init() got an unexpected keyword argument 'include_webui'"
    assert _id(TB + line + "\n") != "ARL-E5923"


# ARL-E5924 -----------------------------------------------------------------------------------------------------------

def test_invalid_option_keyword_is_e5924():
    for line in (
        "ValueError: Invalid option keyword num_npus for actors. Valid ones are ['accelerator_type', 'memory', 'name', "
        "'num_cpus', 'num_gpus'].",
        "ValueError: Invalid option keyword npus for remote functions. Valid ones are ['accelerator_type', 'memory'].",
    ):
        assert _id(TB + line + "\n") == "ARL-E5924", line


def test_max_calls_in_options_is_not_e5924():
    assert _id(TB + "ValueError: Setting 'max_calls' is not supported in '.options()'.\n") != "ARL-E5924"


# ARL-E146 (widened) --------------------------------------------------------------------------------------------------

def test_ray_cli_version_mismatch_is_e146():
    text = ("$ ray status\nTraceback (most recent call last):\n  File \"/usr/local/bin/ray\", line 8, in <module>\n"
            "RuntimeError: Ray version mismatch: cluster has Ray version 2.44.1 but local Ray version is 2.49.1\n")
    assert _id(text) == "ARL-E146"


def test_ray_version_printout_is_not_e146():
    assert _id("ray, version 2.49.1\nLocal Ray version is 2.49.1, matching the cluster.\n") != "ARL-E146"


# ARL-E118 (widened) --------------------------------------------------------------------------------------------------

def test_raylet_shrinking_store_to_dev_shm_is_e118():
    line = ("[2025-06-03 10:12:41,118 W 2211 2211] store_runner.cc:48: System memory request exceeds memory available in "
            "/dev/shm. The request is for 68719476736 bytes, and the amount available is 60397977 bytes. You may be able "
            "to free up space by deleting files in /dev/shm. If you are inside a Docker container, you may need to pass "
            "an argument with the flag '--shm-size' to 'docker run'.")
    assert _id(line + "\n") == "ARL-E118"


def test_host_memory_request_is_not_e118():
    assert _id("WARNING: System memory request exceeds the container limit; swap is disabled.\n") != "ARL-E118"


# ARL-E1643 (widened) -------------------------------------------------------------------------------------------------

def test_worker_exiting_on_dead_raylet_is_e1643():
    line = ("[2025-06-03 10:12:41,118 W 4102 4180] raylet_ipc_client.cc:52: Exiting because the Raylet IPC connection "
            "failed and the local Raylet is dead. Status: IOError: Broken pipe")
    assert _id(line + "\n") == "ARL-E1643"


def test_gcs_ipc_message_is_not_e1643():
    assert _id("Exiting because the GCS connection failed; retrying in 5 seconds.\n") != "ARL-E1643"


# ARL-E5925 -----------------------------------------------------------------------------------------------------------

def test_ray_start_worker_without_address_or_with_head_flag_is_e5925():
    for text in (
        "+ ray start --num-cpus=96 --resources='{\"NPU\": 8}' --block\n"
        "`--address` is a required flag unless starting a head node with `--head`.\n"
        "Error: Exiting due to cli_logger.abort()\n",
        "Exception: `--address` is a required flag unless starting a head node with `--head`.\n",
        "+ ray start --address=10.0.0.11:6379 --port=6379\n"
        "`--port` should only be specified when starting head node with `--head`.\n",
        "ValueError: --include-dashboard should only be specified when starting head node with `--head`.\n",
    ):
        assert _id(text) == "ARL-E5925", text


def test_head_already_running_is_not_e5925():
    text = ("ConnectionError: Ray is trying to start at 10.0.0.11:6379, but is already running at 10.0.0.11:6379. "
            "Please specify a different port using the `--port` flag of `ray start` command.\n")
    assert _id(text) != "ARL-E5925"


# ARL-E140 and ARL-E166 (widened): the GCS's reasons an actor could not be created ------------------------------------

ACTOR_DIED = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
              "\tclass_name: WorkerDict\n\tactor_id: 8f0c1d2e3a4b5c6d7e8f901201000000\n")


def test_worker_startup_repeatedly_failed_is_e140():
    for text in (
        ACTOR_DIED + "Could not create the actor because worker startup repeatedly failed.\n",
        "ray.exceptions.ActorUnschedulableError: The actor is not schedulable: Could not create the actor because "
        "worker startup repeatedly failed.\n",
    ):
        assert _id(text) == "ARL-E140", text


def test_actor_runtime_env_failed_is_e166():
    text = ACTOR_DIED + "Could not create the actor because its associated runtime env failed to be created.\n"
    assert _id(text) == "ARL-E166"


def test_actor_placement_group_removed_is_neither_e140_nor_e166():
    text = ACTOR_DIED + "Could not create the actor because its associated placement group was removed.\n"
    assert _id(text) not in ("ARL-E140", "ARL-E166")
