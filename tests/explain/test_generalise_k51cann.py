"""Readings added by helper k51cann (2026-12-06) while probing public threads and the emitting projects' source for
CANN environment, device visibility and device health failures explain did not name. Each test input is a short
excerpt around the exact emitted message; each class also has a near miss (similar words, another failure).

- DRV-device widened: torch_npu's caching allocator on a device index past its allocators ("Allocator not initialized
  for device N: did you call init?", NPUCachingAllocator.cpp malloc / set/getMemoryFraction, PyTorch's CUDA allocator
  words it the same), the stream pool's "Invalid device_index : N, valid device_index range is [0, M)" (NPUStream.cpp)
  and "Invalid peer device id" (torch_npu.npu.can_device_access_peer), and v2.1.0-5.0.0's allocator assert ("0 <= device
  && device < device_num INTERNAL ASSERT FAILED ... Invalid device argument."). Before, the first read as a bare
  ERR00001 PTA parameter error (DRV-code).
- ARL-E5120: torch_npu's "Get ACL JitCompile default value failed." (LazyInitAclops.cpp GetJitCompileMode): CANN 8.5's
  ACL could not load the chip's platform info (op_compiler.cpp QueryPlatformInfoValue). Before, a bare ERR00100 reading
  (DRV-code). GE's "[Init][PlatformInfo]init runtime platform info failed" stays ARL-E454's (a near-miss test).
- ARL-E5121: Ray's node start refusing more NPUs / GPUs than the visible-devices variable lists ("Attempting to start
  raylet with N NPU, but ASCEND_RT_VISIBLE_DEVICES contains [...]", resource_and_label_spec.py; the 1.x "GPUs" and the
  custom-accelerator "f<VAR>" wordings). Before, unknown.
- ARL-E5122: Megatron's "expected local-rank to be the same as rank % device-count." (initialize.py; MindSpeed-RL
  cli/train_*.py raise it as ValueError): ranks per node, visible devices and rank order disagree. Before, unknown.
- ARL-E390 widened: the split-package CANN wording of the kernel lookup ("... please make sure that opp_kernel or ops
  package is properly installed!") and the operator base's "Not supported socVersion X." (hicann/opbase
  indv_collecter.cpp). ARL-E304 widened: the same file's "May not set ASCEND_OPP_PATH or ASCEND_CUSTOM_OPP_PATH in env!".
  Before, nothing was reported.
- DRV-cuda-call widened: torch_npu.npu's device-index helper handed a cuda device ("Expected a npu [or cpu] device,
  but got: cuda...", torch_npu/npu/utils.py _get_device_index). Before, a bare ERR00003 reading.
- ARL-E5123: Ascend Docker Runtime refusing the container's ASCEND_VISIBLE_DEVICES ("failed to check
  ASCEND_VISIBLE_DEVICES parameter, err: failed to parse [ascend ]device : ...", and v5.0.0-RC3.2's "failed to parse
  device : <%#v of the error>"), runtime/main.go. Before, unknown.
- ARL-E5124: torch_npu's ProcessGroupHCCL refusing tensors on several NPUs in one process ("ProcessGroupHCCL support
  one device per process only", initWork). Before, a bare ERR02007 reading (DRV-code).
- ARL-E4724 widened: torch_npu's newer allocator-config wordings ("Unrecognized key 'k' in NPU allocator config",
  "torch_npu not support key 'k' ...", "page_size requires format 'page_size:1g'", "Unsupported page_size value: v").
  Before, unknown.
- ARL-E4003 widened: Ascend Docker Runtime's management-node step ("failed to add Manager device to spec: failed to get
  davinci manager", "add davinci_manager to spec error: "), runtime/main.go. Before, nothing was reported.
- ARL-E5125: Ascend Docker Runtime registered but incomplete ("cannot find ascend-docker-hook / ascend-docker-cli
  executable file at ...", "failed to find the path of runc"), runtime/main.go and hook/main.go. Before, unknown.
- ARL-E314 widened: the runtime's "TsdOpen failed:Device is disconnected." (runtime.cc PrintfTsdError), and E314 now
  lists ARL-E312 as its consequence (the 507033 of the same open). ARL-E4729 widened: the same table's "TsdOpen
  failed:The number of started NN processes exceeds the limit.". Before, both read as ARL-E312 (507033).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# DRV-device (index past the visible devices) ------------------------------------------------------------------------

ALLOCATOR_PAST_END = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/train.py", line 20, in <module>\n'
    "    torch.npu.set_per_process_memory_fraction(0.9, device=local_rank)\n"
    "RuntimeError: 0 <= device && static_cast<size_t>(device) < device_allocator.size() INTERNAL ASSERT FAILED at "
    '"/usr1/02/workspace/j_vqN6BFvg/pytorch/torch_npu/csrc/core/npu/NPUCachingAllocator.cpp":3151, please report a bug '
    "to PyTorch. Allocator not initialized for device 3: did you call init?\n"
    "[ERROR] 2025-03-01-10:00:00 (PID:1234, Device:0, RankID:-1) ERR00001 PTA invalid parameter\n",
    "Traceback (most recent call last):\n"
    '  File "/home/user/infer.py", line 12, in <module>\n'
    "    s = torch.npu.current_stream(5)\n"
    "RuntimeError: device_index >= 0 && device_index < num_npus INTERNAL ASSERT FAILED at "
    '"torch_npu/csrc/core/npu/NPUStream.cpp":301, please report a bug to PyTorch. Invalid device_index : 5, valid '
    "device_index range is [0, 2)\n"
    "[ERROR] 2025-03-01-10:00:00 (PID:1234, Device:0, RankID:-1) ERR00003 PTA invalid value\n",
    "Traceback (most recent call last):\n"
    '  File "/home/user/p2p.py", line 7, in <module>\n'
    "    torch.npu.can_device_access_peer(0, 4)\n"
    "AssertionError: Invalid peer device id\n"
    "[ERROR] 2025-03-01-10:00:00 (PID:1234, Device:0, RankID:-1) ERR00003 PTA invalid value\n",
    "RuntimeError: 0 <= device && device < device_num INTERNAL ASSERT FAILED at "
    '"/usr1/workspace/torch_npu/csrc/core/npu/NPUCachingAllocator.cpp":2110, please report a bug to PyTorch. Invalid '
    "device argument.\n",
)


def test_device_index_past_the_allocators_is_drv_device():
    for text in ALLOCATOR_PAST_END:
        d = _top(text)
        assert d is not None and d.entry.id == "DRV-device", text
        assert d.kind == "invalid-visible-device"


def test_allocator_oom_is_not_drv_device():
    text = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity; 58.10 GiB "
            "already allocated; 58.10 GiB current active; 120.00 MiB free; 59.50 GiB reserved in total by PyTorch)\n")
    assert _id(text) != "DRV-device"


# ARL-E5120 (JIT-compile default unreadable) -------------------------------------------------------------------------

JIT_DEFAULT = (
    "RuntimeError: Get ACL JitCompile default value failed.\n"
    "[ERROR] 2026-01-28-10:12:40 (PID:1301, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n",
    "[ERROR] ASCENDCL(1301,python):2026-01-28-10:12:40.111.222 [op_compiler.cpp:131]1301 QueryPlatformInfoValue: "
    "get platform info failed, SocVersion = Ascend910_9391\n"
    "RuntimeError: Get ACL JitCompile default value failed.\n"
    "[ERROR] 2026-01-28-10:12:40 (PID:1301, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n",
)


def test_jit_compile_default_unreadable_is_e5120():
    for text in JIT_DEFAULT:
        assert _id(text) == "ARL-E5120", text


def test_jit_compile_size_warning_and_500001_are_not_e5120():
    # the size lookup's warning is harmless (torch_npu falls back to its default); a refused compile option is E336
    assert _id("[W] Get ACL JitCompile default value size failed, use PTA default value: True\n") != "ARL-E5120"
    text = ("RuntimeError: SetPrecisionMode:torch_npu/csrc/framework/LazyInitAclops.cpp:80 NPU function error: "
            "AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001\n")
    assert _id(text) == "ARL-E336"


def test_ge_platform_info_init_stays_e454():
    text = ("RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
            "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001\n"
            "EH9999: [PID: 1439] 2025-04-28-02:50:24.965.356 [Init][PlatformInfo]init runtime platform info failed, "
            "SocVersion = Ascend910B2[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n"
            "       [Set][Options]OpCompileProcessor init failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n")
    assert _id(text) != "ARL-E5120"


# ARL-E5121 (raylet asked for more devices than visible) -------------------------------------------------------------

RAYLET_OVER = (
    "ValueError: Attempting to start raylet with 8 NPU, but ASCEND_RT_VISIBLE_DEVICES contains ['0', '1', '2', '3'].\n",
    "ValueError: Attempting to start raylet with 4.0 GPU, but CUDA_VISIBLE_DEVICES contains ['2', '3'].\n",
    "Exception: Attempting to start raylet with 4 GPUs, but CUDA_VISIBLE_DEVICES contains [0, 1].\n",
    "ValueError: Attempting to start raylet with 8 TPU, but fTPU_VISIBLE_CHIPS contains ['0'].\n",
)


def test_raylet_over_visible_devices_is_e5121():
    for text in RAYLET_OVER:
        assert _id(text) == "ARL-E5121", text


def test_verl_resource_shortfall_is_not_e5121():
    assert _id("ValueError: Total available GPUs 7.0 is less than total desired GPUs 8\n") != "ARL-E5121"


# ARL-E5122 (Megatron local rank vs rank % device count) -------------------------------------------------------------

def test_megatron_local_rank_check_is_e5122():
    for text in (
        "AssertionError: expected local-rank to be the same as rank % device-count.\n",
        "ValueError: expected local-rank to be the same as rank % device-count.\n",
    ):
        assert _id(text) == "ARL-E5122", text


def test_other_local_rank_errors_are_not_e5122():
    text = ("(Worker pid=1676) ERROR 07-10 09:16:57 [multiproc_executor.py:898] AssertionError: DP adjusted local rank 3 "
            "is out of bounds for 1 devices.\n")
    assert _id(text) != "ARL-E5122"
    assert _id("RuntimeError: device id must be positive![ERROR] 2025-06-01-10:00:00 (PID:1, Device:-1, RankID:-1) "
               "ERR00003 PTA invalid value\n") != "ARL-E5122"


# ARL-E390 / ARL-E304 widened (aclnn operator base: kernels / env) ----------------------------------------------------

def test_split_package_kernel_lookup_and_unknown_soc_are_e390():
    for text in (
        "RuntimeError: call aclnnSwiGlu failed, detail:EZ1001: [PID: 426] 2026-04-18-08:22:17.195.330 Get path and read "
        "binary_info_config.json failed, please make sure that opp_kernel or ops package is properly installed!\n",
        "RuntimeError: call aclnnSwiGlu failed, detail:EZ1001: [PID: 426] 2025-03-04-15:41:40.695.851 Get path and read "
        "binary_info_config.json failed, please check if the opp_kernel package is installed!\n",
        "RuntimeError: call aclnnMatmul failed, detail:EZ1001: [PID: 426] 2026-04-18-08:22:17.195.330 Not supported "
        "socVersion Ascend910_9391.\n",
    ):
        assert _id(text) == "ARL-E390", text


def test_aclnn_without_any_opp_path_is_e304():
    text = ("RuntimeError: call aclnnMatmul failed, detail:EZ1001: [PID: 426] 2026-04-18-08:22:17.195.330 May not set "
            "ASCEND_OPP_PATH or ASCEND_CUSTOM_OPP_PATH in env!\n")
    assert _id(text) == "ARL-E304"


def test_torch_npu_unknown_soc_is_not_e390():
    assert _id("RuntimeError: Unsupported soc version: Ascend910_9391\n") != "ARL-E390"


# DRV-cuda-call widened (a cuda device handed to the torch.npu API) ---------------------------------------------------

def test_cuda_device_given_to_torch_npu_api_is_cuda_call():
    for text in (
        "ValueError: Expected a npu device, but got: cuda:0\n"
        "[ERROR] 2025-06-01-10:00:00 (PID:1, Device:-1, RankID:-1) ERR00003 PTA invalid value\n",
        "ValueError: Expected a npu or cpu device, but got: cuda\n",
    ):
        d = _top(text)
        assert d is not None and d.entry.id == "DRV-cuda-call" and d.kind == "cuda-call-on-npu", text


def test_other_device_type_given_to_torch_npu_api_is_not_cuda_call():
    assert _id("ValueError: Expected a npu device, but got: meta\n") != "DRV-cuda-call"


# ARL-E5123 (Ascend Docker Runtime: ASCEND_VISIBLE_DEVICES unreadable) ------------------------------------------------

def test_docker_runtime_visible_devices_refused_is_e5123():
    for text in (
        "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: 2025/06/01 10:00:00 "
        "failed to modify spec file /run/x/config.json: failed to check ASCEND_VISIBLE_DEVICES parameter, err: failed to "
        "parse ascend device : chip type not match really: 910: unknown.\n",
        "2023/11/01 10:00:00 failed to modify spec file /run/x/config.json: failed to parse device : "
        "&errors.errorString{s:\"invalid device range: 0-3-5\"}\n",
    ):
        assert _id(text) == "ARL-E5123", text


def test_docker_runtime_missing_device_node_is_not_e5123():
    text = ("failed to modify spec file /run/x/config.json: failed to add device to env: failed to add davinci device to "
            "spec: failed to get /dev/davinci4 info : &fs.PathError{Op:\"stat\", Path:\"/dev/davinci4\"}\n")
    assert _id(text) != "ARL-E5123"


# ARL-E5124 (HCCL process group: one device per process) -------------------------------------------------------------

def test_hccl_one_device_per_process_is_e5124():
    for text in (
        "RuntimeError: ProcessGroupHCCL support one device per process only\n"
        "[ERROR] 2025-06-01-10:00:00 (PID:4182, Device:0, RankID:0) ERR02007 DIST feature not supported\n",
        "RuntimeError: ProcessGroupHCCL support one device per process only\n",
    ):
        assert _id(text) == "ARL-E5124", text


def test_other_dist_not_supported_is_not_e5124():
    text = ("RuntimeError: ProcessGroupHCCL does not support recv_anysource\n"
            "[ERROR] 2025-06-01-10:00:00 (PID:4182, Device:0, RankID:0) ERR02007 DIST feature not supported\n")
    assert _id(text) != "ARL-E5124"


# ARL-E4724 widened (torch_npu's newer allocator-config wordings) ----------------------------------------------------

def test_newer_allocator_config_refusals_are_e4724():
    for text in (
        "ValueError: Unrecognized key 'garbage_collection_threshhold' in NPU allocator config, \n"
        "[ERROR] 2025-06-01-10:00:00 (PID:1, Device:0, RankID:-1) ERR01003 OPS invalid value\n",
        "ValueError: torch_npu not support key 'pinned_use_cuda_host_register' in NPU allocator config, \n",
        "RuntimeError: page_size requires format 'page_size:1g'\n",
        "RuntimeError: Unsupported page_size value: 4k\n",
    ):
        assert _id(text) == "ARL-E4724", text


def test_allocator_oom_is_not_e4724():
    assert _id("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.96 GiB total capacity)\n") != "ARL-E4724"


# ARL-E4003 widened (Ascend Docker Runtime: the management node is missing on the host) -------------------------------

def test_docker_runtime_missing_davinci_manager_is_e4003():
    for text in (
        "docker: Error response from daemon: failed to create shim task: OCI runtime create failed: 2025/06/01 10:00:00 "
        "failed to modify spec file /run/x/config.json: failed to add device to env: failed to add Manager device to "
        "spec: failed to get davinci manager, err: &fs.PathError{Op:\"stat\", Path:\"/dev/davinci_manager\"}: unknown.\n",
        "2025/06/01 10:00:00 failed to modify spec file /run/x/config.json: failed to add device to env: add "
        "davinci_manager to spec error: &fs.PathError{Op:\"stat\", Path:\"/dev/davinci_manager\"}\n",
    ):
        assert _id(text) == "ARL-E4003", text


def test_docker_runtime_missing_hook_binary_is_not_e4003():
    text = ("OCI runtime create failed: failed to modify spec file /run/x/config.json: failed to inject hook, err: cannot "
            "find ascend-docker-hook executable file at /usr/local/Ascend/Ascend-Docker-Runtime/ascend-docker-hook\n")
    assert _id(text) != "ARL-E4003"


# ARL-E5125 (Ascend Docker Runtime installed incompletely) -----------------------------------------------------------

def test_docker_runtime_pieces_missing_is_e5125():
    for text in (
        "OCI runtime create failed: failed to modify spec file /run/x/config.json: failed to inject hook, err: cannot "
        "find ascend-docker-hook executable file at /usr/local/Ascend/Ascend-Docker-Runtime/ascend-docker-hook: stat: "
        "no such file or directory: unknown.\n",
        "stderr: cannot find ascend-docker-cli executable file at /usr/local/bin/ascend-docker-cli: &fs.PathError{}\n",
        "OCI runtime create failed: 2025/06/01 10:00:00 failed to find the path of runc: exec: \"runc\": executable file "
        "not found in $PATH: unknown.\n",
    ):
        assert _id(text) == "ARL-E5125", text


def test_unregistered_ascend_runtime_is_not_e5125():
    assert _id("docker: Error response from daemon: unknown or invalid runtime name: ascend.\n") != "ARL-E5125"


# ARL-E314 / ARL-E4729 widened (the runtime's TsdOpen status lines under a failed open) -------------------------------

_OPEN = ("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:123 NPU function error: "
         "c10_npu::SetDevice(device_id_), error code is 507033\n"
         "        TraceBack (most recent call last):\n"
         "        {}[FUNC:PrintfTsdError][FILE:runtime.cc][LINE:2638]\n"
         "        open device 0 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n")


def test_tsd_device_disconnected_is_e314():
    assert _id(_OPEN.format("TsdOpen failed:Device is disconnected.")) == "ARL-E314"


def test_tsd_too_many_processes_is_e4729():
    assert _id(_OPEN.format("TsdOpen failed:The number of started NN processes exceeds the limit.")) == "ARL-E4729"


def test_plain_507033_stays_e312():
    assert _id(_OPEN.format("TsdOpen failed. devId=0, tdt error=1.")) == "ARL-E312"
