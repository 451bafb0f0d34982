"""Readings added by helper k45cann (2026-12-05/06) while probing CANN-environment and device-visibility failures that
explain did not name, each written for the class the emitting source prints rather than one paste's words:

- ARL-E4000: Docker refuses --runtime ascend because no runtime of that name is registered (moby 23+ "unknown or
  invalid runtime name: ascend", 20.10 and older "Unknown runtime specified ascend"); another runtime's name (nvidia,
  habana) is not this class.
- ARL-E4001: torch_npu 6.0.0+ intercepts INF_NAN_MODE_ENABLE=0 on A2 / A3 chips (NpuVariables.cpp IsSupportInfNan).
- ARL-E4002: torch_npu's OptionsManager refuses an out-of-range value of one of its own switches ("<VAR> should be 0 or
  1.", "... 0, 1 or 2", "HCCL_BUFFSIZE should be positive."); CANN's own EI0001 check of HCCL variables is ARL-E374.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_top_id = functools.partial(first_id, CATALOG)


# ARL-E4000 -------------------------------------------------------------------------------------------------------

def test_docker_unknown_runtime_ascend_new_wording_is_e4000():
    text = ("$ docker run -it --runtime ascend -e ASCEND_VISIBLE_DEVICES=0 --name npu-dev my-image:latest bash\n"
            "docker: Error response from daemon: unknown or invalid runtime name: ascend.\n"
            "See 'docker run --help'.\n")
    assert _top_id(text) == "ARL-E4000"


def test_docker_unknown_runtime_ascend_old_wording_is_e4000():
    text = ("+ docker run -d --runtime=ascend -e ASCEND_VISIBLE_DEVICES=0-7 train-image\n"
            "docker: Error response from daemon: Unknown runtime specified ascend.\n")
    assert _top_id(text) == "ARL-E4000"


def test_docker_unknown_runtime_nvidia_is_not_e4000():
    for text in ("docker: Error response from daemon: unknown or invalid runtime name: nvidia.\n",
                 "docker: Error response from daemon: Unknown runtime specified habana.\n"):
        assert _top_id(text) != "ARL-E4000", text


# ARL-E4001 -------------------------------------------------------------------------------------------------------

def test_inf_nan_mode_zero_on_a2_is_e4001():
    text = ("Traceback (most recent call last):\n"
            '  File "pretrain.py", line 41, in <module>\n'
            "    torch.npu.set_device(local_rank)\n"
            "RuntimeError: INF_NAN_MODE_ENABLE shouldn't be set to 0 on the current device. If you want to disable "
            "inf-nan mode, please export INF_NAN_MODE_FORCE_DISABLE=1\n")
    assert _top_id(text) == "ARL-E4001"


def test_inf_nan_mode_value_out_of_range_is_e4002_not_e4001():
    text = ("RuntimeError: INF_NAN_MODE_ENABLE should be 0 or 1.\n"
            "[ERROR] 2025-03-01-10:00:00 (PID:4242, Device:0, RankID:-1) ERR00003 PTA invalid value\n")
    assert _top_id(text) == "ARL-E4002"


# ARL-E4002 -------------------------------------------------------------------------------------------------------

def test_torch_npu_switch_values_are_e4002():
    for message in ("TASK_QUEUE_ENABLE should be 0, 1 or 2",
                    "ASCEND_LAUNCH_BLOCKING should be 0 or 1.",
                    "MULTI_STREAM_MEMORY_REUSE should be 0, 1 or 2",
                    "HCCL_ASYNC_ERROR_HANDLING should be 0,1,2,3.",
                    "TORCH_HCCL_ASYNC_ERROR_HANDLING should be 0, 1, 2, or 3.",
                    "ASCEND_GLOBAL_LOG_LEVEL should be 0, 1, 2, 3 or 4.",
                    "HCCL_BUFFSIZE should be positive.",
                    "ACL_DEVICE_SYNC_TIMEOUT must be positive."):
        text = (f"RuntimeError: {message}\n"
                "[ERROR] 2025-03-01-10:00:00 (PID:4242, Device:0, RankID:-1) ERR00003 PTA invalid value\n")
        assert _top_id(text) == "ARL-E4002", message


def test_cann_hccl_variable_check_is_not_e4002():
    # CANN's own check of an HCCL variable (EI0001) is another reading, with another fix.
    text = ("EI0001: [PID: 1234] 2025-03-01-10:00:00.000.000 Value [abc] for environment variable "
            "[HCCL_CONNECT_TIMEOUT] is invalid when HCCL is initialized.\n")
    assert _top_id(text) != "ARL-E4002"


# ARL-E4003 -------------------------------------------------------------------------------------------------------

def test_docker_missing_davinci_node_is_e4003():
    text = ("$ docker run -it --device=/dev/davinci0 --device=/dev/davinci4 --device=/dev/davinci_manager "
            "--device=/dev/devmm_svm --device=/dev/hisi_hdc quay.io/ascend/vllm-ascend:latest bash\n"
            "docker: Error response from daemon: error gathering device information while adding custom device "
            "\"/dev/davinci4\": no such file or directory.\n")
    assert _top_id(text) == "ARL-E4003"


def test_docker_missing_davinci_manager_is_e4003():
    text = ("Error response from daemon: error gathering device information while adding custom device "
            "\"/dev/davinci_manager\": no such file or directory\n")
    assert _top_id(text) == "ARL-E4003"


def test_docker_missing_other_device_is_not_e4003():
    text = ("docker: Error response from daemon: error gathering device information while adding custom device "
            "\"/dev/nvidia-uvm\": no such file or directory.\n")
    assert _top_id(text) != "ARL-E4003"


# ARL-E4004 -------------------------------------------------------------------------------------------------------

def test_k8s_insufficient_ascend_is_e4004():
    for resource in ("huawei.com/Ascend910", "huawei.com/Ascend910B4-memory", "huawei.com/ascend-1980"):
        text = ("Events:\n  Type     Reason            Age   From               Message\n"
                "  Warning  FailedScheduling  35s   default-scheduler  0/3 nodes are available: 1 node(s) had "
                "untolerated taint {node-role.kubernetes.io/control-plane: }, "
                f"2 Insufficient {resource}. preemption: 0/3 nodes are available: 3 No preemption victims found "
                "for incoming pod.\n")
        assert _top_id(text) == "ARL-E4004", resource


def test_k8s_insufficient_cpu_or_gpu_is_not_e4004():
    for text in ("  Warning  FailedScheduling  10s  default-scheduler  0/2 nodes are available: 2 Insufficient cpu.\n",
                 "  Warning  FailedScheduling  10s  default-scheduler  0/2 nodes are available: "
                 "2 Insufficient nvidia.com/gpu.\n"):
        assert _top_id(text) != "ARL-E4004", text


# ARL-E4005 -------------------------------------------------------------------------------------------------------

def test_kubelet_unhealthy_ascend_devices_is_e4005():
    for err in ("no healthy devices present; cannot allocate unhealthy devices huawei.com/Ascend910B4-1",
                "previously allocated devices are no longer healthy; cannot allocate unhealthy devices "
                "huawei.com/Ascend910",
                "cannot allocate unregistered device huawei.com/Ascend310P",
                "requested number of devices unavailable for huawei.com/Ascend910. Requested: 8, Available: 6"):
        text = ("  Warning  UnexpectedAdmissionError  12s  kubelet  "
                f"Allocate failed due to {err}, which is unexpected\n")
        assert _top_id(text) == "ARL-E4005", err


def test_kubelet_unhealthy_gpu_devices_is_not_e4005():
    text = ("  Warning  UnexpectedAdmissionError  12s  kubelet  Allocate failed due to no healthy devices present; "
            "cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected\n")
    assert _top_id(text) != "ARL-E4005"


def test_ascend_runtime_missing_visible_device_is_e4003():
    text = ("[ERROR]    2025/05/06 10:11:12.123456 1234    runtime/main.go:634    [root] docker runtime failed: "
            "failed to add device to env: failed to add davinci device to spec: failed to get /dev/davinci8 info : "
            "&fs.PathError{Op:\"stat\", Path:\"/dev/davinci8\", Err:0x2}\n")
    assert _top_id(text) == "ARL-E4003"


# ARL-E4006 -------------------------------------------------------------------------------------------------------

def test_accelerate_backend_refused_on_npu_is_e4006():
    for message in ("Your assigned backend nccl is not avaliable, please use hccl",
                    "Your assigned backend gloo is not available, please use hccl",
                    "Your assigned backend {original_backend} is not avaliable, please use {backend}"):
        text = ('  File "/opt/conda/lib/python3.10/site-packages/transformers/training_args.py", line 2026, '
                "in _setup_devices\n    self.distributed_state = PartialState(\n"
                '  File "/opt/conda/lib/python3.10/site-packages/accelerate/state.py", line 188, in __init__\n'
                f'    raise ValueError(f"Your assigned backend ...")\nValueError: {message}\n')
        assert _top_id(text) == "ARL-E4006", message


def test_accelerate_backend_refused_on_gpu_is_not_e4006():
    text = "ValueError: Your assigned backend hccl is not available, please use nccl\n"
    assert _top_id(text) != "ARL-E4006"
