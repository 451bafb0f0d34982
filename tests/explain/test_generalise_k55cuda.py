"""Readings added by helper k55cuda (2026-12-07) for the GPU side of the stack, confirmed in the emitters' source (moby's
device-driver selection, NVIDIA/libnvidia-container's nvidia-container-cli, PyTorch's c10/cuda and ATen/cuda checks,
Triton's libcuda lookup; the CUDA runtime's own strings are closed source). Each test input is a short excerpt around
the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5880: docker --gpus without the NVIDIA Container Toolkit ("could not select device driver "" with capabilities:
  [[gpu]]", "unknown or invalid runtime name: nvidia"); before, nothing (the runtime line: Ascend's ARL-E4000 by
  resemblance).
- ARL-E5881: nvidia-container-cli finding no libnvidia-ml.so.1 on the host; before, nothing.
- ARL-E5882: NVML's "Driver/library version mismatch" (nvidia-smi and nvidia-container-cli); before, the derived
  named-in-words kind only.
- ARL-E5883: nvidia-container-cli's "requirement error: unsatisfied condition: cuda>=X"; before, nothing.
- ARL-E5884: "Failed to initialize NVML: Unknown Error" (a container's lost device access); before, unknown.
- ARL-E5885: torch's "CUDA unknown error - this may be due to an incorrectly set up environment"; before, unknown or
  nothing (the warning form).
- ARL-E5886 / ARL-E5887: cudaGetDeviceCount's Error 804 (forward compatibility on unsupported hardware) and Error 803
  (user-mode / kernel driver mismatch); before, unknown or nothing.
- ARL-E5888: "the provided PTX was compiled with an unsupported toolchain" (222); before, unknown.
- ARL-E5889: Triton's "libcuda.so cannot found!"; before, unknown.
- ARL-E5890: cuBLAS / cuDNN handle creation failing (CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`,
  CUDNN_STATUS_NOT_INITIALIZED); before, unknown.
- ARL-E5891: nvidia-container-cli's "device error: N: unknown device" (a GPU index / UUID the host lacks); before,
  unknown.
- ARL-E5892: PyTorch's "NVML_SUCCESS == r INTERNAL ASSERT FAILED at ... CUDACachingAllocator.cpp" (an OOM whose report
  could not query NVML); before, ARL-E1812 by resemblance.
- ARL-E363 widened: NCCL's "NET/Socket : peer X message truncated : receiving N bytes instead of M" (ranks issuing
  different collective sizes); before, nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

PROMPT = "user@gpu-node:~$ "
HOOK = ("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime "
        "create failed: runc create failed: unable to start container process: error during container init: error "
        "running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n")
WARN = ("/opt/conda/lib/python3.10/site-packages/torch/cuda/__init__.py:141: UserWarning: CUDA initialization: "
        "Unexpected error from cudaGetDeviceCount(). Did you run some cuda functions before calling NumCudaDevices() that "
        "might have already set an error? Error {}: {} (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:109.)\n")


# ARL-E5880 -----------------------------------------------------------------------------------------------------------

def test_docker_gpu_request_without_nvidia_runtime_is_e5880():
    for line in (
        'docker: Error response from daemon: could not select device driver "" with capabilities: [[gpu]].',
        'Error response from daemon: could not select device driver "nvidia" with capabilities: [[gpu]]',
        "docker: Error response from daemon: unknown or invalid runtime name: nvidia.",
        "docker: Error response from daemon: Unknown runtime specified nvidia.",
    ):
        assert _id(f"{PROMPT}docker run --rm --gpus all verlai/verl:latest nvidia-smi\n{line}\n") == "ARL-E5880", line


def test_other_docker_refusals_are_not_e5880():
    assert _id("docker: Error response from daemon: unknown or invalid runtime name: ascend.\n") != "ARL-E5880"
    assert _id('docker: Error response from daemon: could not select device driver "amd" with capabilities: '
               "[[amd]].\n") != "ARL-E5880"


# ARL-E5881 -----------------------------------------------------------------------------------------------------------

def test_container_cli_without_nvml_library_is_e5881():
    text = HOOK + ("nvidia-container-cli: initialization error: load library failed: libnvidia-ml.so.1: cannot open "
                   "shared object file: no such file or directory: unknown.\n")
    assert _id(text) == "ARL-E5881"
    assert _id("$ nvidia-container-cli list\nnvidia-container-cli: initialization error: load library failed: "
               "libnvidia-ml.so.1: cannot open shared object file: no such file or directory\n") == "ARL-E5881"


def test_other_container_cli_errors_are_not_e5881():
    assert _id(HOOK + "nvidia-container-cli: mount error: file creation failed: /var/lib/docker/overlay2/x/merged/"
               "usr/bin/nvidia-smi: file exists: unknown.\n") != "ARL-E5881"


# ARL-E5882 -----------------------------------------------------------------------------------------------------------

def test_nvml_driver_library_mismatch_is_e5882():
    assert _id("$ nvidia-smi\nFailed to initialize NVML: Driver/library version mismatch\n") == "ARL-E5882"
    assert _id(HOOK + "nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: "
               "unknown.\n") == "ARL-E5882"


def test_nvml_unknown_error_is_not_e5882():
    assert _id("$ nvidia-smi\nFailed to initialize NVML: Unknown Error\n") != "ARL-E5882"


# ARL-E5883 -----------------------------------------------------------------------------------------------------------

def test_image_cuda_newer_than_driver_is_e5883():
    for line in (
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=12.8, please update your driver to a "
        "newer version, or use an earlier cuda container: unknown",
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda >= 9.0",
        "nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.8",
    ):
        assert _id(HOOK + line + "\n") == "ARL-E5883", line


def test_other_unsatisfied_conditions_are_not_e5883():
    assert _id("ERROR: Package requirement error: unsatisfied condition: python>=3.10\n") != "ARL-E5883"


# ARL-E5884 -----------------------------------------------------------------------------------------------------------

def test_container_lost_gpu_access_is_e5884():
    assert _id("root@verl-worker-0:/workspace# nvidia-smi -L\nFailed to initialize NVML: Unknown Error\n") == "ARL-E5884"


def test_nvml_insufficient_permissions_is_not_e5884():
    assert _id("$ nvidia-smi\nFailed to initialize NVML: Insufficient Permissions\n") != "ARL-E5884"


# ARL-E5885 -----------------------------------------------------------------------------------------------------------

def test_cuda_unknown_error_at_init_is_e5885():
    line = ("CUDA unknown error - this may be due to an incorrectly set up environment, e.g. changing env variable "
            "CUDA_VISIBLE_DEVICES after program start. Setting the available devices to be zero.")
    assert _id(f"RuntimeError: {line}\n") == "ARL-E5885"
    assert _id(f"/x/torch/cuda/__init__.py:174: UserWarning: CUDA initialization: {line} (Triggered internally at "
               "/pytorch/c10/cuda/CUDAFunctions.cpp:109.)\n  return torch._C._cuda_getDeviceCount() > 0\n") == "ARL-E5885"


def test_cuda_driver_initialization_failed_is_not_e5885():
    assert _id("RuntimeError: CUDA driver initialization failed, you might not have a CUDA gpu.\n") != "ARL-E5885"


# ARL-E5886 / ARL-E5887 -----------------------------------------------------------------------------------------------

def test_cuda_forward_compat_on_unsupported_hw_is_e5886():
    assert _id(WARN.format(804, "forward compatibility was attempted on non supported HW")) == "ARL-E5886"
    assert _id("E tensorflow/compiler/xla/stream_executor/cuda/cuda_driver.cc:266] failed call to cuInit: "
               "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE: forward compatibility was attempted on non supported HW\n"
               ) == "ARL-E5886"


def test_cuda_user_mode_kernel_driver_mismatch_is_e5887():
    assert _id(WARN.format(803, "system has unsupported display driver / cuda driver combination")) == "ARL-E5887"
    assert _id("ggml_cuda_init: failed to initialize CUDA: system has unsupported display driver / cuda driver "
               "combination\n") == "ARL-E5887"


def test_other_cuda_init_errors_are_not_e5886_or_e5887():
    # Error 802 is the Fabric Manager entry's (ARL-E5593)
    assert _id(WARN.format(802, "system not yet initialized")) not in ("ARL-E5886", "ARL-E5887")
    assert _id("RuntimeError: The NVIDIA driver on your system is too old (found version 11040).\n") not in (
        "ARL-E5886", "ARL-E5887")


# ARL-E5888 -----------------------------------------------------------------------------------------------------------

def test_ptx_from_newer_toolchain_is_e5888():
    for line in (
        "torch.AcceleratorError: CUDA error: the provided PTX was compiled with an unsupported toolchain.",
        "CUDA error 222 at /home/runner/ctransformers/models/ggml/ggml-cuda.cu:5141: the provided PTX was compiled with an "
        "unsupported toolchain.",
        "RuntimeError: Triton Error [CUDA]: the provided PTX was compiled with an unsupported toolchain.",
    ):
        assert _id(line + "\n") == "ARL-E5888", line


def test_no_kernel_image_is_not_e5888():
    assert _id("RuntimeError: CUDA error: no kernel image is available for execution on the device\n") != "ARL-E5888"


# ARL-E5889 -----------------------------------------------------------------------------------------------------------

def test_triton_without_libcuda_in_ldcache_is_e5889():
    assert _id("AssertionError: libcuda.so cannot found!\nPossible files are located at "
               "['/usr/lib64-nvidia/libcuda.so.1'].Please create a symlink of libcuda.so to any of the files.\n"
               ) == "ARL-E5889"


def test_missing_libcudart_is_not_e5889():
    assert _id("OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n") != "ARL-E5889"


# ARL-E5890 -----------------------------------------------------------------------------------------------------------

def test_cublas_or_cudnn_handle_creation_failing_is_e5890():
    for line in (
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`",
        "RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling `cublasCreate(handle)`",
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasLtCreate(&handle)`",
        "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED",
    ):
        assert _id(line + "\n") == "ARL-E5890", line


def test_cublas_gemm_failures_are_not_e5890():
    assert _id("RuntimeError: CUDA error: CUBLAS_STATUS_EXECUTION_FAILED when calling `cublasGemmEx( handle, opa, opb, "
               "m, n, k, &falpha, a, CUDA_R_16BF, lda, b, CUDA_R_16BF, ldb, &fbeta, c, CUDA_R_16BF, ldc, CUDA_R_32F, "
               "CUBLAS_GEMM_DEFAULT_TENSOR_OP)`\n") != "ARL-E5890"


# ARL-E5891 -----------------------------------------------------------------------------------------------------------

def test_container_asking_for_a_gpu_the_host_lacks_is_e5891():
    for dev in ("1", "4", "GPU-932bfb2c-849a-2a22-1e84-9eff6bc02b39", "MIG-GPU-932bfb2c-849a-2a22-1e84-9eff6bc02b39/1/0"):
        assert _id(HOOK + f"nvidia-container-cli: device error: {dev}: unknown device: unknown.\n") == "ARL-E5891", dev


def test_volume_mount_device_list_is_not_e5891():
    assert _id(HOOK + "nvidia-container-cli: device error: /var/run/nvidia-container-devices: unknown device: "
               "unknown\n") != "ARL-E5891"


# ARL-E5892 -----------------------------------------------------------------------------------------------------------

def test_nvml_assert_in_the_oom_report_is_e5892():
    for where in ('"../c10/cuda/CUDACachingAllocator.cpp":830', '"/pytorch/c10/cuda/CUDACachingAllocator.cpp":1154'):
        assert _id(f"RuntimeError: NVML_SUCCESS == r INTERNAL ASSERT FAILED at {where}, please report a bug to "
                   "PyTorch.\n") == "ARL-E5892", where


def test_other_allocator_asserts_are_not_e5892():
    assert _id('RuntimeError: captures_underway.empty() INTERNAL ASSERT FAILED at "../c10/cuda/CUDACachingAllocator.cpp"'
               ':2967, please report a bug to PyTorch.\n') != "ARL-E5892"


# ARL-E363 (widened) --------------------------------------------------------------------------------------------------

def test_nccl_socket_message_truncated_is_e363():
    for line in (
        "node1:123:456 [0] NCCL WARN NET/Socket : peer 10.0.0.2<41234> message truncated : receiving 1048576 bytes "
        "instead of 65536. If you believe your socket network is in healthy state, there may be a mismatch in "
        "collective sizes or environment settings (e.g. NCCL_PROTO, NCCL_ALGO) between ranks",
        "node1:123:456 [0] NCCL WARN NET/Socket : message truncated : receiving 4194304 bytes instead of 2097152",
    ):
        assert _id(line + "\n") == "ARL-E363", line


def test_other_socket_warnings_are_not_e363():
    assert _id("node1:123:456 [0] NCCL WARN NET/Socket : socket progress error\n") != "ARL-E363"
