"""Readings added by helper k54hdk (2026-12-07) for the NPU driver's device tooling below CANN (npu-smi, DCMI, the device
plugins that run npu-smi), confirmed in the emitters' source (hicann/driver's npucli at ef377e9, HAMi's
ascend-device-plugin v1.4.0). Each test input is a short excerpt around the exact emitted message; each class also has
a near miss (similar words, another failure).

- ARL-E5780: npu-smi refusing a set / reset / clear / upgrade inside a container or VM ("This command cannot be executed
  on a VM or container."); before, nothing.
- ARL-E5781: npu-smi refusing a root-only command ("This command can be executed only by the root user."); before,
  nothing.
- ARL-E5782: the driver installer finding the installed firmware outside the driver's required range ("driver and
  firmware version relationship check fail"); ranks over torch_npu's ARL-E307 warning it leads to; before, nothing.
- ARL-E5783: containerd without an "ascend" runtime handler for a pod's runtime class ("no runtime for \"ascend\" is
  configured"); before, nothing.
- ARL-E5784: Ascend Docker Runtime's log that a container had no ASCEND_VISIBLE_DEVICES and got no NPU mounted; a
  warning that names the cause of the later "no NPU" (it lists ARL-E310 as its consequence); before, nothing.
- ARL-E4203 widened: HAMi ascend-device-plugin's "npu-smi not found in [...] or PATH" (and its callers' shorter "npu-smi
  not found"); before, unknown.
- ARL-E333 widened: npu-smi's "Failed to execute npu-smi <cmd>. ret is -8020." and MindCluster's / the Ascend Docker
  Runtime's "dcmi init failed, error code: -8020"; before, the console-log-level line's ARL-E4445, a bare code or nothing.
- Code tables: npu-smi's "Failed to execute npu-smi <cmd>. ret is <code>." and a DCMI call's "err is <code>" carry DCMI
  codes; dcmi.yaml gains -8014 and -8022 from the DCMI header.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from ascendrl.catalog.codes import decode, extract
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

PROMPT = "root@train-0:/workspace/verl# "


# ARL-E5780 -----------------------------------------------------------------------------------------------------------

def test_npu_smi_refusing_container_or_vm_is_e5780():
    for cmd, line in (
        ("npu-smi set -t reset -i 3 -c 0", "This command cannot be executed on a VM or container."),
        ("npu-smi clear -t ecc-info -i 0", "This command cannot be executed on a VM or container."),
        ("npu-smi set -t device-share -i 0 -c 0 -d 1", "This command cannot be executed on a container."),
        ("npu-smi info -t board -i 0", "\tMessage                        : This command cannot be executed on a VM or container."),
        ("npu-smi set -t hccs-bw -i 0 -c 0 -d 1", "Operation not permitted, only root user on physical machine or on physical "
         "privilege container can call this api."),
    ):
        assert _id(f"{PROMPT}{cmd}\n{line}\n") == "ARL-E5780", line


def test_other_npu_smi_refusals_are_not_e5780():
    assert _id(PROMPT + "npu-smi set -t reset -i 0 -c 0\nThis command can be executed only by the root user.\n") != "ARL-E5780"
    assert _id("docker: Error response from daemon: the command cannot be executed in this container state.\n") != "ARL-E5780"


# ARL-E5781 -----------------------------------------------------------------------------------------------------------

def test_npu_smi_root_only_is_e5781():
    assert _id("user@node:~$ npu-smi set -t reset -i 0 -c 0\nThis command can be executed only by the root user.\n") == "ARL-E5781"


def test_windows_administrator_wording_is_not_e5781():
    assert _id("C:\\> npu-smi set -t reset -i 0 -c 0\nThis command can be executed only by an administrator.\n") != "ARL-E5781"


# ARL-E4203 (widened) -------------------------------------------------------------------------------------------------

def test_hami_plugin_without_npu_smi_is_e4203():
    for line in (
        "E1207 10:00:00.000000       1 main.go:120] enable node device-share: npu-smi not found in "
        "[/usr/local/Ascend/driver/tools/npu-smi /usr/local/sbin/npu-smi /usr/local/bin/npu-smi] or PATH",
        'the device-share flip failed with "npu-smi not found"',
    ):
        assert _id(line + "\n") == "ARL-E4203", line


def test_npu_smi_output_without_the_tool_missing_is_not_e4203():
    assert _id("npu-smi info: no NPU device found on this node\n") != "ARL-E4203"


# ARL-E333 (widened) and the DCMI codes npu-smi prints ----------------------------------------------------------------

def test_npu_smi_execute_failure_with_8020_is_e333():
    text = PROMPT + "npu-smi info\nDrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\nFailed to execute npu-smi info. ret is -8020.\n"
    assert _id(text) == "ARL-E333"


def test_mindcluster_dcmi_init_with_8020_is_e333():
    line = ("[ERROR]    2026/11/28 08:50:46.650662 10      devmanager/devmanager.go:133    deviceManager init failed, prepare "
            "dcmi failed, err: dcmi init failed, error code: -8020")
    assert _id(line + "\n") == "ARL-E333"


def test_npu_smi_execute_failure_with_another_code_is_not_e333():
    assert _id(PROMPT + "npu-smi info -t usages -i 9\nFailed to execute npu-smi info. ret is -8007.\n") != "ARL-E333"


def test_npu_smi_and_dcmi_call_lines_carry_dcmi_codes():
    assert extract("Failed to execute npu-smi info. ret is -8007.") == ["dcmi:-8007"]
    assert extract("dcmi_get_card_list failed. err is -8005") == ["dcmi:-8005"]
    assert extract("npu-smi 24.1.rc2 Version: 24.1.rc2") == []
    for code, name in (("dcmi:-8014", "DCMI_ERR_CODE_FILE_OPERATE_FAIL"), ("dcmi:-8022", "DCMI_ERR_CODE_PARTITION_NOT_RIGHT")):
        info = decode(code)
        assert info is not None and info.name == name, code


# ARL-E5782 -----------------------------------------------------------------------------------------------------------

def test_driver_installer_firmware_pair_check_is_e5782():
    for line in (
        "[Driver] [2026-11-30 09:12:42] [WARNING]driver and firmware version relationship check fail",
        "[WARNING]driver required firmware version not match ,do you want to continue?  [y/n] ",
    ):
        assert _id(line + "\n") == "ARL-E5782", line


def test_driver_firmware_pair_check_success_is_not_e5782():
    assert _id("[Driver] [2026-11-30 09:12:42] [INFO]driver and firmware version relationship check success\n") != "ARL-E5782"


def test_e5782_ranks_over_torch_npu_mismatch_warning():
    text = ("[Driver] [2026-11-30 09:12:42] [WARNING]driver and firmware version relationship check fail\n"
            "[W compiler_depend.ts:51] Warning: Feature is not supportted and the possible cause is that driver and "
            "firmware packages do not match. (function operator())\n")
    assert _id(text) == "ARL-E5782"


# ARL-E5783 -----------------------------------------------------------------------------------------------------------

def test_containerd_without_ascend_handler_is_e5783():
    for line in (
        "  Warning  FailedCreatePodSandBox  2s (x15 over 3m)   kubelet            Failed to create pod sandbox: rpc error: "
        'code = Unknown desc = failed to get sandbox runtime: no runtime for "ascend" is configured',
        '{"reason":"FailedCreatePodSandBox","message":"Failed to create pod sandbox: rpc error: code = Unknown desc = '
        'failed to get sandbox runtime: no runtime for \\"ascend\\" is configured"}',
    ):
        assert _id(line + "\n") == "ARL-E5783", line


def test_other_runtime_handler_or_docker_is_not_e5783():
    assert _id("Failed to create pod sandbox: rpc error: code = Unknown desc = failed to get sandbox runtime: no runtime "
               'for "nvidia" is configured\n') != "ARL-E5783"
    assert _id("docker: Error response from daemon: unknown or invalid runtime name: ascend.\n") == "ARL-E4000"


# ARL-E5784 -----------------------------------------------------------------------------------------------------------

def test_ascend_runtime_without_visible_devices_is_e5784():
    line = ("[ERROR]    2026/12/01 10:21:05.419007 1       process/process.go:407    ASCEND_VISIBLE_DEVICES env variable is "
            "empty, will not mount any ascend device")
    assert _id(line + "\n") == "ARL-E5784"


def test_refused_visible_devices_value_is_not_e5784():
    assert _id("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI "
               "runtime create failed: failed to check ASCEND_VISIBLE_DEVICES parameter, err: failed to parse device : "
               "invalid single device parameter: all: unknown.\n") != "ARL-E5784"
