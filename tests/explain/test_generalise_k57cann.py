"""Readings added by helper k57cann (2026-12-07) for the CANN-environment and device messages torch_npu itself prints at
start-up and on its first NPU calls, confirmed in torch_npu's source (Ascend/pytorch at v7.3.0-pytorch2.7.1,
v7.3.1-pytorch2.7.1 and v6.0.0-pytorch2.1.0). Each test input is a short excerpt around the exact emitted message; each
class also has a near miss (similar words, another failure).

- ARL-E5980 (generic): "npu device N init failed." (DeviceUtils.h maybe_initialize_npu), the wrapper of a failed device
  initialisation; a specific cause printed before it (aclInit ...) ranks first. Before, nothing.
- ARL-E5981: "Expected NPU tensor, please check whether the input tensor device is correct." (torch_check_npu: format
  cast, get_storage_size, NPU-format factories given a CPU tensor); before, nothing.
- ARL-E5982 (warning): "torch_npu.amp.GradScaler is enabled, but NPU is not available.  Disabling."; before, nothing.
- ARL-E5983 (warning): "The ACL_DEVICE_SYNC_TIMEOUT does not take effect. If you want to enable this env, please
  upgrade CANN to the matching version."; before, nothing.
- (ARL-E5984, "The current version of CANN does not support the hcclCommName:NAME", was dropped at the merge: k57hccl's
  ARL-E6002 reads the same check; the tests below now expect E6002.)
- ARL-E5985: "Unsupported api when soc_version >= Ascend910B1, please use npu_check_overflow" (fatal) and "When
  soc_version >= Ascend910B1, clear_npu_overflow_flag is useless, please remove it." (warning); before, a derived
  DRV-code reading / nothing.
- ARL-E5986 (warning): "Failed to find this HcclSetConfig function, get real hccl config, need to upgrade hccl
  version!"; before, nothing.
- ARL-E5987 (warning): "Failed to find function halGetDeviceInfo." / "Failed to find function halGetAPIVersion.";
  before, nothing.
- ARL-E5988 (warning): "Warning : CANN package version X and PyTorch version Y is not matched, please check the README
  of the ascend pytorch repo."; before, nothing.
- ARL-E5989 (warning): "CANN version lower than 8.0.RC3 and currently does not support silent check 2.0 version [or
  later]. It will switch to 1.0 version."; before, nothing.
- ARL-E5990 (warning): "Stress detect with AmlP2PDetectOnline failed, CANN version lower than 8.3.RC1 and currently does
  not support AmlP2PDetectOnline"; before, nothing.
- ARL-E5991 (warning): "Warning: The <path> owner does not match the current owner." (collect_env.py, at import);
  before, nothing.
- ARL-E5992: "The path permission check failed: <CANN install path>" (collect_env.py, at import); the profiler's own
  check with the same words on another folder is not it. Before, the unexplained RuntimeError.
- ARL-E5993: "Acl op is disabled! Please check the environment variable ACL_OP_INIT_MODE." and "Jit compile set is
  disabled! If you want to set, please change the environment variable ACL_OP_INIT_MODE to 0 or 1."; before, the
  unexplained RuntimeError.
- ARL-E5994 (warning): "torch.npu.get_device_capability isn't implemented!"; before, nothing.
- ARL-E4920 widened (non-fatal signature): "dcmi_get_device_id_in_card is not supported. The npu_affine configuration of
  CPU_AFFINITY_CONF will be disabled." and its dcmi_get_affinity_cpu_info_by_device_id twin; before, nothing.
- ARL-E4002 widened (non-fatal signature): "Get env ACL_OP_INIT_MODE not in [0, 1, 2], so reset it to the default value
  N." and "STREAMS_PER_DEVICE only support 8 or 32, but get other value, so reset it to the default value 32"; before,
  nothing.
- ARL-E5124 widened: "Tensor list mustn't be larger than the number of available NPUs"; before, the unexplained
  RuntimeError.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import classify, first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)


def _fatal(text: str) -> bool:
    return classify(CATALOG, text).fatal


def _warning_of(text: str) -> str | None:
    """The top id of a text that must not end the run (a warning the run survives)."""
    assert not _fatal(text), text
    return _id(text)


W = "[W compiler_depend.ts:28] Warning: "
TB = ("Traceback (most recent call last):\n"
      "  File \"/home/user/verl/verl/workers/fsdp_workers.py\", line 152, in __init__\n")


# ARL-E5980 -----------------------------------------------------------------------------------------------------------

def test_npu_device_init_failed_is_e5980():
    text = (TB + "RuntimeError: npu device 5 init failed.\n"
            "[ERROR] 2026-12-02-08:14:41 (PID:40877, Device:-1, RankID:-1) ERR00100 PTA call acl api failed\n")
    assert _id(text) == "ARL-E5980"
    assert next(e for e in CATALOG.entries if e.id == "ARL-E5980").generic


def test_init_failed_after_aclinit_error_names_aclinit():
    # a specific cause printed before the wrapper ranks first
    text = ("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:135 NPU function error: aclInit, "
            "error code is 500001\n" + TB + "RuntimeError: npu device 0 init failed.\n")
    assert _id(text) == "ARL-E1350"


def test_device_not_inited_is_not_e5980():
    assert _id(TB + "RuntimeError: npu device has not been inited.\n") != "ARL-E5980"


# ARL-E5981 -----------------------------------------------------------------------------------------------------------

def test_expected_npu_tensor_is_e5981():
    text = (TB + "RuntimeError: Expected NPU tensor, please check whether the input tensor device is correct.\n"
            "[ERROR] 2026-12-02-11:20:21 (PID:9455, Device:0, RankID:0) ERR00001 PTA invalid parameter\n")
    assert _id(text) == "ARL-E5981"


def test_tensors_on_two_devices_is_not_e5981():
    line = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and npu:0! "
            "(when checking argument for argument index in method wrapper_NPU__index_select)")
    assert _id(TB + line + "\n") != "ARL-E5981"


# ARL-E5982 -----------------------------------------------------------------------------------------------------------

def test_grad_scaler_without_npu_is_e5982_and_not_fatal():
    text = ("/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/npu/amp/grad_scaler.py:102: UserWarning: "
            "torch_npu.amp.GradScaler is enabled, but NPU is not available.  Disabling.\n")
    assert _warning_of(text) == "ARL-E5982"


def test_cuda_grad_scaler_warning_is_not_e5982():
    text = "UserWarning: torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.\n"
    assert _id(text) != "ARL-E5982"


# ARL-E5983 -----------------------------------------------------------------------------------------------------------

def test_device_sync_timeout_not_effective_is_e5983():
    text = (W + "The ACL_DEVICE_SYNC_TIMEOUT does not take effect. If you want to enable this env, please upgrade CANN "
            "to the matching version. (function operator())\n")
    assert _warning_of(text) == "ARL-E5983"


def test_stream_sync_timeout_is_not_e5983():
    assert _id("EE1002: The stream sync timed out\n") != "ARL-E5983"


# ARL-E6002 (k57hccl; this helper's twin E5984 dropped at the merge) ---------------------------------------------

def test_hccl_comm_name_unsupported_is_e6002():
    text = (TB + "RuntimeError: The current version of CANN does not support the hcclCommName:tp_group_0\n"
            "[ERROR] 2026-12-03-09:11:52 (PID:5512, Device:0, RankID:0) ERR02007 DIST feature not supported\n")
    assert _id(text) == "ARL-E6002"


def test_hccl_comm_name_too_long_is_not_e6002():
    line = "RuntimeError: The length of the name must be between 1 and 127, Invalid hcclCommName:"
    assert _id(TB + line + "\n") != "ARL-E6002"


# ARL-E5985 -----------------------------------------------------------------------------------------------------------

def test_overflow_flag_api_on_a2_is_e5985():
    text = (TB + "RuntimeError: Unsupported api when soc_version >= Ascend910B1, please use npu_check_overflow\n"
            "[ERROR] 2026-12-03-14:03:02 (PID:7711, Device:0, RankID:0) ERR00007 PTA feature not supported\n")
    assert _id(text) == "ARL-E5985"
    assert _fatal(text)


def test_clear_overflow_flag_warning_is_e5985_and_not_fatal():
    text = ("/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/npu/utils.py:395: UserWarning: When "
            "soc_version >= Ascend910B1, clear_npu_overflow_flag is useless, please remove it.\n")
    assert _warning_of(text) == "ARL-E5985"


def test_check_overflow_unsupported_type_is_not_e5985():
    assert _id(TB + "RuntimeError: Unsupported type.\n") != "ARL-E5985"


# ARL-E5986 -----------------------------------------------------------------------------------------------------------

def test_hccl_set_config_missing_is_e5986():
    text = (W + "Failed to find this HcclSetConfig function, get real hccl config, need to upgrade hccl version! "
            "(function operator())\n")
    assert _warning_of(text) == "ARL-E5986"


def test_missing_hccl_comm_function_is_not_e5986():
    # another HCCL function missing from an old CANN: the CANN-too-old entry
    assert _id("RuntimeError: Failed to find function HcclCommInitRootInfoConfig\n") != "ARL-E5986"


# ARL-E5987 -----------------------------------------------------------------------------------------------------------

def test_hal_function_missing_is_e5987():
    for name in ("halGetDeviceInfo", "halGetAPIVersion"):
        text = W + f"Failed to find function {name}. (function operator())\n"
        assert _warning_of(text) == "ARL-E5987", name


def test_acl_function_missing_is_not_e5987():
    assert _id(W + "Failed to find function aclrtGetMemUceInfo (function operator())\n") != "ARL-E5987"


# ARL-E5988 -----------------------------------------------------------------------------------------------------------

def test_cann_pytorch_not_matched_is_e5988():
    text = ("Warning : CANN package version 6.3.RC2 and PyTorch version 1.11.0 is not matched, please check the README "
            "of the ascend pytorch repo.\n")
    assert _warning_of(text) == "ARL-E5988"


def test_ascend_home_path_unset_warning_is_not_e5988():
    assert _id("Warning : ASCEND_HOME_PATH environment variable is not set.\n") != "ARL-E5988"


# ARL-E5989 -----------------------------------------------------------------------------------------------------------

def test_silent_check_old_cann_is_e5989():
    for tail in ("silent check 2.0 version or later. It will switch to 1.0 version.",
                 "silent check 2.0 version. It will switch to 1.0 version."):
        text = ("/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/utils/_step.py:275: UserWarning: Warning: "
                "CANN version lower than 8.0.RC3 and currently does not support " + tail + "\n")
        assert _warning_of(text) == "ARL-E5989", tail


def test_silent_check_enabled_notice_is_not_e5989():
    text = "UserWarning: Warning: Silent check 2.0 version will be enabled. The asd_detect is 1.\n"
    assert _id(text) != "ARL-E5989"


# ARL-E5990 -----------------------------------------------------------------------------------------------------------

def test_stress_detect_p2p_old_cann_is_e5990():
    text = (W + "Stress detect with AmlP2PDetectOnline failed, CANN version lower than 8.3.RC1 and currently does not "
            "support AmlP2PDetectOnline. (function operator())\n")
    assert _warning_of(text) == "ARL-E5990"


def test_stress_detect_hardware_fault_is_not_e5990():
    text = "RuntimeError: Stress detect failed due to hardware malfunction, device id is 0, error code is 1\n"
    assert _id(text) == "ARL-E4921"


# ARL-E5991 / ARL-E5992 --------------------------------------------------------------------------------------------

def test_toolkit_owner_mismatch_is_e5991():
    text = ("/usr/local/python3.11.13/lib/python3.11/site-packages/torch_npu/utils/collect_env.py:58: UserWarning: "
            "Warning: The /usr/local/Ascend/ascend-toolkit/8.2.RC1 owner does not match the current owner.\n")
    assert _warning_of(text) == "ARL-E5991"


def test_toolkit_not_readable_is_e5992():
    for path in ("/usr/local/Ascend/ascend-toolkit/8.2.RC1",
                 "/usr/local/Ascend/ascend-toolkit/8.2.RC1/aarch64-linux/ascend_toolkit_install.info",
                 "/usr/local/Ascend/cann-8.5.0"):
        assert _id(TB + f"RuntimeError: The path permission check failed: {path}\n") == "ARL-E5992", path


def test_profiler_folder_permission_is_not_e5992():
    assert _id(TB + "RuntimeError: The path permission check failed: /home/user/prof_out\n") != "ARL-E5992"


# ARL-E5993 -----------------------------------------------------------------------------------------------------------

def test_aclop_disabled_is_e5993():
    for line in ("RuntimeError: Acl op is disabled! Please check the environment variable ACL_OP_INIT_MODE.",
                 "RuntimeError: Jit compile set is disabled! If you want to set, please change the environment variable "
                 "ACL_OP_INIT_MODE to 0 or 1."):
        assert _id(TB + line + "\n") == "ARL-E5993", line


def test_acl_op_init_mode_reset_warning_is_not_e5993():
    line = W + "Get env ACL_OP_INIT_MODE not in [0, 1, 2], so reset it to the default value 1. (function operator())"
    assert _id(line + "\n") != "ARL-E5993"


# ARL-E5994 -----------------------------------------------------------------------------------------------------------

def test_device_capability_not_implemented_is_e5994():
    text = ("/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/npu/__init__.py:488: UserWarning: "
            "torch.npu.get_device_capability isn't implemented!\n")
    assert _warning_of(text) == "ARL-E5994"


def test_preferred_linalg_not_implemented_is_not_e5994():
    assert _id("UserWarning: torch.npu.preferred_linalg_library isn't implemented!\n") != "ARL-E5994"


# ARL-E4920 widened ---------------------------------------------------------------------------------------------------

def test_dcmi_query_unsupported_warning_is_e4920_and_not_fatal():
    for fn in ("dcmi_get_device_id_in_card", "dcmi_get_affinity_cpu_info_by_device_id"):
        text = W + f"{fn} is not supported. The npu_affine configuration of CPU_AFFINITY_CONF will be disabled. (function operator())\n"
        assert _warning_of(text) == "ARL-E4920", fn


def test_dcmi_init_failure_stays_fatal_e4920():
    text = TB + "RuntimeError: Failed to init dcmi. Error code: -8005\n"
    assert _id(text) == "ARL-E4920"
    assert _fatal(text)


# ARL-E4002 widened ---------------------------------------------------------------------------------------------------

def test_reset_torch_npu_switches_are_e4002_warnings():
    for line in ("Get env ACL_OP_INIT_MODE not in [0, 1, 2], so reset it to the default value 1.",
                 "Get env ACL_OP_INIT_MODE not in [0, 1, 2], so reset it to the default value 0.",
                 "STREAMS_PER_DEVICE only support 8 or 32, but get other value, so reset it to the default value 32"):
        assert _warning_of(W + line + " (function operator())\n") == "ARL-E4002", line


def test_refused_torch_npu_switch_stays_fatal_e4002():
    text = TB + "RuntimeError: TASK_QUEUE_ENABLE should be 0, 1 or 2.\n"
    assert _id(text) == "ARL-E4002"
    assert _fatal(text)


# ARL-E5124 widened ---------------------------------------------------------------------------------------------------

def test_tensor_list_larger_than_npus_is_e5124():
    text = (TB + "RuntimeError: Tensor list mustn't be larger than the number of available NPUs\n"
            "[ERROR] 2026-12-03-10:00:00 (PID:1, Device:0, RankID:0) ERR02003 DIST invalid value\n")
    assert _id(text) == "ARL-E5124"


def test_empty_tensor_list_is_not_e5124():
    assert _id(TB + "RuntimeError: Tensor list must be nonempty\n") != "ARL-E5124"
