"""Readings added by helper k48rl (2026-12-06) while probing public threads of the rollout engines and RL frameworks
around verl (vLLM / vllm-ascend's native RL weight-transfer API as TRL, SkyRL and slime/vime drive it) for failure
classes explain did not name. Each test input is a short excerpt in our own words around the exact emitted message;
each class also has a near miss (similar words, another failure).

- ARL-E4680: a weight-update call out of order in vLLM's / vllm-ascend's worker state machine (gpu_worker.py,
  worker.py: start_weight_update must be called before update_weights / already active / finish without start),
  and an earlier failure of the same sync still ranks above it.
- ARL-E4681: the engine was started without weight_transfer_config (_check_weight_transfer_engine).
- ARL-E4682: colocated IPC weight sync found no handle for the worker's own GPU / NPU (ipc_engine.py,
  npu_ipc_engine.py).
- ARL-E4683: vLLM's EngineCore died while serving (EngineDeadError, core_client.py's monitor lines): a generic
  wrapper that names the class when no cause is printed, and yields to any cause above it.
- DRV-package widened: the lazy-module wording without quotes ("module trl has no attribute GRPOConfig", raised by
  the _LazyModule.__getattr__ of trl / transformers) reads as the package being older than the code, like Python's
  quoted form and "cannot import name".
- ARL-E4685: weights pushed before the trainer-engine NCCL / HCCL group exists (nccl_engine.py, hccl_engine.py).
- ARL-E4684: TRL vllm-serve refusing a second weight-sync group (vllm_serve.py init_communicator).
- ARL-E2801 widened: TRL's own same-device check as it is really worded since v0.20.0 ("the same CUDA device
  (UUID: ...) for multiple distinct roles/ranks").
- ARL-E4169 widened: the worker-side data-parallel device overflow ("DP adjusted local rank N is out of bounds",
  gpu_worker.py / vllm-ascend worker.py, and vllm-ascend's assigned_physical_gpu_ids form).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

_CORE = "(VLLMEngine pid=81) (EngineCore_DP0 pid=95) ERROR 05-22 07:20:17 [core.py:1341] "


# ARL-E4680 ---------------------------------------------------------------------------------------------------------

def test_weight_update_out_of_order_is_e4680():
    for text in (
        _CORE + "RuntimeError: start_weight_update must be called before update_weights.\n",
        "RuntimeError: start_weight_update must be called before finish_weight_update.\n",
        "requests.exceptions.HTTPError: 500 Server Error for url: http://10.0.0.5:30001/start_weight_update\n"
        "RuntimeError: start_weight_update called while a weight update is already active. Call "
        "finish_weight_update first.\n",
        _CORE + "RuntimeError: finish_weight_update called without a matching start_weight_update.\n",
    ):
        assert _id(text) == "ARL-E4680", text


def test_earlier_failure_of_the_sync_ranks_above_e4680():
    # vLLM clears the session flag when a chunk raises, so the next chunk's lifecycle error follows the real one.
    text = (
        _CORE + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.50 GiB. GPU 0 has a total capacity "
        "of 79.19 GiB of which 312.00 MiB is free. Including non-PyTorch memory, this process has 78.87 GiB memory "
        "in use.\n"
        + _CORE + "RuntimeError: start_weight_update must be called before update_weights.\n"
    )
    assert _id(text) != "ARL-E4680"


def test_weight_update_routes_answering_200_are_not_e4680():
    text = (
        '(APIServer pid=120) INFO:     10.0.0.5:40238 - "POST /start_weight_update HTTP/1.1" 200 OK\n'
        '(APIServer pid=120) INFO:     10.0.0.5:40240 - "POST /update_weights HTTP/1.1" 200 OK\n'
        '(APIServer pid=120) INFO:     10.0.0.5:40242 - "POST /finish_weight_update HTTP/1.1" 200 OK\n'
        "RuntimeError: connect_engine() must be called before update_weights()\n"
    )
    assert _id(text) != "ARL-E4680"


# ARL-E4681 ---------------------------------------------------------------------------------------------------------

def test_weight_transfer_not_configured_is_e4681():
    for text in (
        _CORE + "RuntimeError: Weight transfer not configured. Please set weight_transfer_config to enable weight "
        "transfer.\n",
        "Exception: Call to collective_rpc method failed: Weight transfer not configured. Please set "
        "weight_transfer_config to enable weight transfer.\n",
    ):
        assert _id(text) == "ARL-E4681", text


def test_hccl_group_not_initialised_is_e4685_not_e4681():
    # The engine has a backend; the trainer skipped (or failed) init_weight_transfer_engine: another state.
    for text in (
        _CORE + "RuntimeError: HCCL weight transfer not initialized. Call init_transfer_engine() first.\n",
        _CORE + "RuntimeError: NCCL weight transfer not initialized. Call init_transfer_engine() first.\n",
        "RuntimeError: NCCL weight transfer not initialized. Call init_transfer() first.\n",
    ):
        assert _id(text) == "ARL-E4685", text


def test_delta_transport_not_initialised_is_not_e4685():
    text = "RuntimeError: Delta weight transfer not initialized. Call init_transfer_engine() first.\n"
    assert _id(text) != "ARL-E4685"


# ARL-E4682 ---------------------------------------------------------------------------------------------------------

def test_ipc_handle_for_another_device_is_e4682():
    for text in (
        "ValueError: IPC handle not found for GPU UUID 5f0c8e8a-1d7e-6b0f-9a4c-3e1f2b7d9c10. Available UUIDs: "
        "['0b6f1a57-4c2d-8e3a-7f19-2d5e6c8b1a04']\n",
        "ValueError: IPC handle not found for NPU UUID 10.0.0.7-3. Available UUIDs: ['10.0.0.8-3']. This may "
        "indicate that the trainer and worker are not co-located on the same physical NPU (node).\n",
        "Exception: Call to collective_rpc method failed: IPC handle not found for GPU UUID GPU-1a2b. Available "
        "UUIDs: []\n",
    ):
        assert _id(text) == "ARL-E4682", text


def test_invalid_ipc_resource_handle_is_not_e4682():
    text = "RuntimeError: CUDA error: invalid resource handle\nCUDA kernel errors might be asynchronously reported\n"
    assert _id(text) != "ARL-E4682"


# ARL-E4169 (widened) -----------------------------------------------------------------------------------------------

def test_dp_adjusted_local_rank_out_of_bounds_is_e4169():
    for text in (
        "(EngineCore_DP1 pid=311) AssertionError: DP adjusted local rank 1 is out of bounds. \n",
        "(Worker_DP1_TP0 pid=512) AssertionError: DP adjusted local rank 8 is out of bounds for 8 devices.\n",
        "AssertionError: local_rank 4 is out of bounds for assigned_physical_gpu_ids [0, 1, 2, 3]\n",
    ):
        assert _id(text) == "ARL-E4169", text


def test_no_visible_device_is_not_e4169():
    # Zero devices: nothing is visible (CPU-only wheel, a device held elsewhere), not a data-parallel overflow.
    text = "AssertionError: DP adjusted local rank 0 is out of bounds for 0 devices.\n"
    assert _id(text) != "ARL-E4169"


# ARL-E4683 ---------------------------------------------------------------------------------------------------------

def test_engine_dead_without_a_visible_cause_is_e4683():
    for text in (
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
        "root cause.\n",
        "(vLLMHttpServer pid=42511) WARNING 09-21 14:02:11 [core_client.py:803] [shutdown] MPClient: engine core "
        "exited unexpectedly; starting cleanup\n"
        "ray.exceptions.RayTaskError(EngineDeadError): ray::vLLMHttpServer.generate() (pid=42511, ip=10.0.0.3)\n"
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
        "root cause.\n",
    ):
        assert _id(text) == "ARL-E4683", text


def test_engine_core_exit_line_alone_is_not_fatal():
    # Printed too when a healthy program exits before shutting the engine down.
    found = _top("ERROR 01-04 21:58:22 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, "
                 "shutting down client.\n")
    assert found is None or not found.fatal


def test_engine_core_error_above_outranks_e4683():
    text = (
        "(EngineCore_DP0 pid=95) ERROR 05-22 07:20:17 [core.py:711] torch.OutOfMemoryError: NPU out of memory. Tried "
        "to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated; 1.02 GiB free)\n"
        "ERROR 05-22 07:20:18 [core_client.py:564] Engine core proc EngineCore_DP0 died unexpectedly, shutting down "
        "client.\n"
        "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the "
        "root cause.\n"
    )
    assert _id(text) != "ARL-E4683"
    segv = (
        "!!!!!!! Segfault encountered !!!!!!!\n"
        '  File "<unknown>", line 0, in cuMemcpyDtoDAsync_v2\n'
        "(APIServer) WARNING [core_client.py:803] [shutdown] MPClient: engine core exited unexpectedly; starting "
        "cleanup\n"
        "(APIServer) ERROR [async_llm.py:858] vllm.v1.engine.exceptions.EngineDeadError\n"
    )
    assert _id(segv) != "ARL-E4683"


# DRV-package (widened) ---------------------------------------------------------------------------------------------

def test_lazy_module_missing_attribute_is_package_too_old():
    for text, package in (
        ("AttributeError: module trl has no attribute GRPOConfig. Did you mean: 'ORPOConfig'?\n", "trl"),
        ("AttributeError: module transformers has no attribute Qwen3VLForConditionalGeneration\n", "transformers"),
        ("AttributeError: module 'trl' has no attribute 'GRPOConfig'\n", "trl"),
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "DRV-package", text
        assert package in found.entry.title, found.entry.title


def test_missing_module_is_not_read_as_missing_attribute():
    text = ("RuntimeError: Failed to import trl.trainer.grpo_trainer because of the following error (look up to see its "
            "traceback):\nNo module named 'vllm'\n")
    found = _top(text)
    assert found is not None and "has no attribute" not in found.entry.title


# ARL-E4684 ---------------------------------------------------------------------------------------------------------

def test_stale_weight_update_group_is_e4684():
    for text in (
        "ERROR 05-02 21:36:34 [core.py:459] RuntimeError: Weight update group already initialized. Call "
        "close_communicator first.\n",
        "(EngineCore_DP0 pid=771) ERROR 01-08 10:02:11 [core.py:1094] RuntimeError: Weight update group already "
        "initialized. Call close_communicator first.\n",
    ):
        assert _id(text) == "ARL-E4684", text


def test_communicator_not_initialised_is_not_e4684():
    text = "RuntimeError: Communicator not initialized. Call `init_communicator` first.\n"
    assert _id(text) != "ARL-E4684"


# ARL-E2801 (widened) -----------------------------------------------------------------------------------------------

def test_trl_same_device_check_with_uuid_is_e2801():
    for text in (
        "ERROR 08-01 09:14:02 [core.py:708] RuntimeError: Attempting to use the same CUDA device (UUID: "
        "GPU-5b1c2d3e-0f9a-4b8c-9d7e-6f5a4b3c2d1e) for multiple distinct roles/ranks within the same communicator. "
        "This setup is unsupported and will likely lead to program hangs or incorrect behavior. Ensure that trainer "
        "is using different devices than vLLM server.\n",
        "RuntimeError: Attempting to use the same CUDA device for multiple distinct roles/ranks within the same "
        "communicator.\n",
    ):
        assert _id(text) == "ARL-E2801", text


def test_tensors_on_two_devices_is_not_e2801():
    text = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 and "
            "cpu!\n")
    assert _id(text) != "ARL-E2801"
