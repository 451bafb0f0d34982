"""Readings added by helper k46mem (2026-12-06) while probing public threads of memory, Ray, disk and dtype failures for
failure classes explain did not name. Each test input is a short excerpt in our own words around the exact emitted
message; each class also has a near miss (similar words, another failure).

- ARL-E4360: Megatron's NaN/Inf check of the local grad norm / loss (param_and_grad_buffer.py, pretrain_gpt.py).
- ARL-E4361: a Ray actor destroyed because its handle went out of scope (GenActorOutOfScopeCause, "Lost reference").
- ARL-E4362: a Ray actor killed because its owner died (GenOwnerDiedCause).
- ARL-E4363: the DataLoader's pin-memory thread died (dataloader.py _get_data).
- ARL-E4364: verl skipped an optimizer step on a non-finite grad norm (dp_actor.py _optimizer_step).
- ARL-E4365: a Ray API used where Ray is not connected (worker.py check_connected).
- ARL-E4366: a torchrun / mp.spawn worker killed by SIGKILL (elastic api.py, errors/__init__.py, spawn.py).
- ARL-E4367: EBUSY on an NFS silly-renamed .nfsXXXX file while removing a folder (fs/nfs/unlink.c).
- ARL-E4368: ray job submit cannot reach the dashboard job server (dashboard_sdk.py).
- ARL-E4369: a Ray Job whose supervisor actor was not scheduled in time (job_manager.py).
- ARL-E4370: "CUDA error: out of memory" from a CUDA runtime call outside the caching allocator (CUDAException.cpp).
- ARL-E387 widened: scaled_dot_product_attention's q/k/v and attn_mask dtype checks (attention.cpp).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4360 ---------------------------------------------------------------------------------------------------------

def test_megatron_nan_grad_norm_is_e4360():
    for text in (
        "[rank3]: RuntimeError: Rank 3, node node-2, device 3, iteration 57: Unexpected result nan (message='found NaN "
        "in local grad norm for bucket #1 in backward pass before data-parallel communication collective')\n",
        "[rank0]: RuntimeError: Rank 0, node n1, device 0, iteration 9: Unexpected result inf (message='found Inf in "
        "local grad norm for bucket #0 in backward pass before data-parallel communication collective')\n",
        "AssertionError: Rank 11: found NaN in local grad norm in backward pass before data-parallel communication "
        "collective. Device: 3, node: worker-4\n",
        "RuntimeError: Rank 255, node n9, device 7, iteration 2: Unexpected result nan (message='found NaN in local "
        "forward loss calculation')\n",
    ):
        assert _id(text) == "ARL-E4360", text


def test_megatron_large_grads_warning_is_not_e4360():
    # The non-fatal "unexpected large grads" check of the same machine is not a NaN / Inf stop.
    text = ("Unexpected result 8123.5 at /opt/megatron/core/distributed/param_and_grad_buffer.py line 160, invokation #3 "
            "at iteration #400 (message='found unexpected large grads in bucket #0 in backward pass before data-parallel "
            "communication collective')\n")
    assert _id(text) != "ARL-E4360"


# ARL-E4361 ---------------------------------------------------------------------------------------------------------

def test_actor_out_of_scope_is_e4361():
    for text in (
        "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: Worker\n\tactor_id: 56f541b178ff78470f79c3b601000000\n"
        "The actor is dead because all references to the actor were removed.\n",
        "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task. The actor is dead "
        "because because all references to the actor were removed.\n",
        "RuntimeError: Lost reference to actor. Actor handles must be stored as variables, e.g. `actor = "
        "MyActor.remote()` before calling methods.\n",
    ):
        assert _id(text) == "ARL-E4361", text


def test_worker_shutdown_line_is_not_e4361():
    # A healthy worker's exit line carries the same sentence after its own words: no actor call failed.
    text = ("[2025-12-10 04:56:33,094 I 1569 1801] raylet_client.cc:162: RayletClient::Disconnect, "
            "exit_type=INTENDED_SYSTEM_EXIT, exit_detail=Worker exits because the actor is killed. The actor is dead "
            "because all references to the actor were removed., has creation_task_exception_pb_bytes=0\n")
    assert _id(text) != "ARL-E4361"


# ARL-E4362 ---------------------------------------------------------------------------------------------------------

def test_actor_owner_died_is_e4362():
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "\tclass_name: WorkerDict\n"
            "The actor is dead because its owner has died. Owner Id: 05000000ffffffffffffffffffffffffffffffffffffffff"
            "ffffffff Owner Ip address: 10.208.0.212 Owner worker exit type: INTENDED_USER_EXIT Worker exit detail: "
            "Owner's worker process has exited.\n")
    assert _id(text) == "ARL-E4362"


def test_actor_worker_process_died_is_not_e4362():
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR Worker exit detail: "
            "Worker unexpectedly exits with a connection error code 2. End of file.\n")
    assert _id(text) != "ARL-E4362"


# ARL-E4363 ---------------------------------------------------------------------------------------------------------

def test_pin_memory_thread_death_is_e4363():
    text = ("  File \"/usr/local/lib/python3.10/dist-packages/torch/utils/data/dataloader.py\", line 1133, in _get_data\n"
            "    raise RuntimeError('Pin memory thread exited unexpectedly')\n"
            "RuntimeError: Pin memory thread exited unexpectedly\n")
    assert _id(text) == "ARL-E4363"


def test_pin_memory_thread_with_its_own_cause_names_the_cause():
    # The thread's own exception (the open-file limit hit passing worker tensors) is the cause, not the wrapper.
    text = ("Exception in thread Thread-3 (_pin_memory_loop):\n"
            "Traceback (most recent call last):\n"
            "  File \"/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/reductions.py\", line 355, in "
            "rebuild_storage_fd\n"
            "    fd = df.detach()\n"
            "RuntimeError: received 0 items of ancdata\n"
            "Traceback (most recent call last):\n"
            "  File \"train.py\", line 10, in <module>\n"
            "    for batch in loader:\n"
            "RuntimeError: Pin memory thread exited unexpectedly\n")
    assert _id(text) != "ARL-E4363"


def test_dataloader_worker_exit_is_not_e4363():
    text = "RuntimeError: DataLoader worker (pid(s) 1234) exited unexpectedly\n"
    assert _id(text) != "ARL-E4363"


# ARL-E4364 ---------------------------------------------------------------------------------------------------------

def test_verl_grad_norm_not_finite_is_e4364():
    for text in ("(WorkerDict pid=9092) WARN: rank 3 grad_norm is not finite: inf\n",
                 "(WorkerDict pid=9209) WARN: grad_norm is not finite: nan\n"):
        found = _top(text)
        assert found is not None and found.entry.id == "ARL-E4364", text
        assert not found.fatal


def test_finite_grad_norm_metric_is_not_e4364():
    text = "(main_task pid=1) step:3 - actor/grad_norm:0.512 - critic/grad_norm:1.204 - actor/pg_loss:0.01\n"
    assert _id(text) != "ARL-E4364"


# ARL-E4365 ---------------------------------------------------------------------------------------------------------

def test_ray_not_started_is_e4365():
    for text in (
        "ray.exceptions.RaySystemError: System error: Ray has not been started yet. You can start Ray with "
        "'ray.init()'.\n",
        "RaySystemError: System error: Ray has not been started yet. Trying to use state API before ray.init() has "
        "been called.\n",
    ):
        assert _id(text) == "ARL-E4365", text


def test_no_running_cluster_is_not_e4365():
    # ray.init(address="auto") with no cluster to join is another failure (no instance to connect to).
    text = ("ConnectionError: Could not find any running Ray instance. Please specify the one to connect to by setting "
            "`--address` flag or `RAY_ADDRESS` environment variable.\n")
    assert _id(text) != "ARL-E4365"


# ARL-E387 (widened) ------------------------------------------------------------------------------------------------

def test_sdpa_mixed_dtypes_is_e387():
    for text in (
        "RuntimeError: Expected query, key, and value to have the same dtype, but got query.dtype: float key.dtype: "
        "c10::BFloat16 and value.dtype: c10::BFloat16 instead.\n",
        "RuntimeError: Expected attn_mask dtype to be bool or float or to match query dtype, but got attn_mask.dtype: "
        "long int and  query.dtype: c10::BFloat16 instead.\n",
    ):
        assert _id(text) == "ARL-E387", text


def test_sdpa_mixed_devices_is_not_e387():
    text = ("RuntimeError: Expected query, key, and value to have the same device type, but got query.device: npu:0 "
            "key.device: cpu and value.device: cpu instead.\n")
    assert _id(text) != "ARL-E387"


# ARL-E4366 ---------------------------------------------------------------------------------------------------------

def test_torchrun_sigkill_is_e4366():
    for text in (
        "[2025-03-01 10:00:00,000] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) "
        "local_rank: 3 (pid: 812917) of binary: /usr/bin/python3\n",
        "  exitcode  : -9 (pid: 3012)\n  error_file: <N/A>\n  traceback : Signal 9 (SIGKILL) received by PID 3012\n",
        "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL\n",
    ):
        assert _id(text) == "ARL-E4366", text


def test_torchrun_segfault_is_not_e4366():
    text = ("[2025-03-01 10:00:00,000] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -11) "
            "local_rank: 0 (pid: 3012) of binary: /usr/bin/python3\n"
            "  exitcode  : -11 (pid: 3012)\n  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID 3012\n")
    assert _id(text) != "ARL-E4366"


# ARL-E4367 ---------------------------------------------------------------------------------------------------------

def test_nfs_silly_renamed_file_busy_is_e4367():
    for text in ("OSError: [Errno 16] Device or resource busy: '.nfs000000009886bd5100000235'\n",
                 "OSError: [Errno 16] Device or resource busy: '/projects/data/working_dir/slq_outwX0Ut_/"
                 ".nfs00000000000000ce00000005'\n"):
        assert _id(text) == "ARL-E4367", text


def test_busy_mount_point_is_not_e4367():
    text = "OSError: [Errno 16] Device or resource busy: '/mnt/data'\n"
    assert _id(text) != "ARL-E4367"


# ARL-E4368 ---------------------------------------------------------------------------------------------------------

def test_job_submit_cannot_reach_dashboard_is_e4368():
    text = ("  File \"/usr/local/lib/python3.10/dist-packages/ray/dashboard/modules/dashboard_sdk.py\", line 301, in "
            "_check_connection_and_version_with_url\n"
            "    raise ConnectionError(\n"
            "ConnectionError: Failed to connect to Ray at address: http://10.0.0.5:8265.\n")
    assert _id(text) == "ARL-E4368"


def test_driver_cannot_reach_gcs_is_not_e4368():
    text = ("ConnectionError: Could not find any running Ray instance. Please specify the one to connect to by setting "
            "`--address` flag or `RAY_ADDRESS` environment variable.\n")
    assert _id(text) != "ARL-E4368"


# ARL-E4369 ---------------------------------------------------------------------------------------------------------

def test_job_supervisor_start_timeout_is_e4369():
    text = ("Status for job 'raysubmit_abc': FAILED\n"
            "Status message: Job supervisor actor failed to start within 900.0 seconds. This timeout can be configured "
            "by setting the environment variable RAY_JOB_START_TIMEOUT_SECONDS.\n")
    assert _id(text) == "ARL-E4369"


def test_job_entrypoint_nonzero_exit_is_not_e4369():
    text = ("Status for job 'raysubmit_abc': FAILED\n"
            "Status message: Job entrypoint command failed with exit code 1, last available logs (truncated to 20,000 "
            "chars):\n")
    assert _id(text) != "ARL-E4369"


# ARL-E4370 ---------------------------------------------------------------------------------------------------------

def test_cuda_runtime_out_of_memory_is_e4370():
    for text in (
        "RuntimeError: CUDA error: out of memory\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be "
        "incorrect.\n",
        "torch.AcceleratorError: CUDA error: out of memory\n"
        "Search for `cudaErrorMemoryAllocation' in https://docs.nvidia.com/cuda/cuda-runtime-api/group__CUDART__TYPES.html "
        "for more information.\n",
    ):
        assert _id(text) == "ARL-E4370", text


def test_caching_allocator_oom_is_not_e4370():
    text = ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "
            "79.15 GiB of which 1.20 GiB is free.\n")
    assert _id(text) != "ARL-E4370"
