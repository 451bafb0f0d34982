"""Readings added by helper k46cann (2026-12-06) while probing public threads of the CANN environment and the NPU
devices for failure classes explain did not name. Each test input is a short excerpt in our own words around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4200: ld.so skipped a library named in LD_PRELOAD (glibc rtld.c do_preload), a warning, never a root cause.
- ARL-E4201: FSDP's flat parameter on another NPU / GPU than the rank's compute device (_check_on_compute_device).
- ARL-E4202: the same check finding the flat parameter on the CPU (offloaded and not brought back).
- ARL-E4203: npu-smi missing from PATH (CPython subprocess, bash, dash, vllm-ascend's own warnings).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4200 ---------------------------------------------------------------------------------------------------------

def test_jemalloc_preload_skipped_is_e4200_and_not_fatal():
    text = ("ERROR: ld.so: object '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2' from LD_PRELOAD cannot be preloaded "
            "(cannot open shared object file): ignored.\n"
            "INFO 06-18 10:59:31 [__init__.py:239] Platform plugin ascend is activated\n"
            "(WorkerDict pid=4411) step:1 - actor/pg_loss:0.012 - critic/score/mean:0.31\n")
    assert _id(text) == "ARL-E4200"
    assert not _top(text).fatal


def test_preload_file_and_old_glibc_wording_are_e4200():
    assert _id("ERROR: ld.so: object '/usr/lib64/libjemalloc.so.2' from /etc/ld.so.preload cannot be preloaded "
               "(cannot open shared object file): ignored.\n") == "ARL-E4200"
    assert _id("ERROR: ld.so: object '/opt/td-agent/embedded/lib/libjemalloc.so' from LD_PRELOAD cannot be "
               "preloaded: ignored.\n") == "ARL-E4200"


def test_preload_warning_does_not_hide_the_real_failure():
    text = ("ERROR: ld.so: object '/usr/lib/aarch64-linux-gnu/libjemalloc.so.2' from LD_PRELOAD cannot be preloaded "
            "(cannot open shared object file): ignored.\n"
            "Traceback (most recent call last):\n"
            "  File \"/usr/local/python3.11/lib/python3.11/site-packages/torch_npu/__init__.py\", line 40, in <module>\n"
            "    import torch_npu._C\n"
            "ImportError: libhccl.so: cannot open shared object file: No such file or directory\n")
    assert _id(text) != "ARL-E4200"


def test_library_missing_at_import_is_not_e4200():
    # A library the program itself needs (not a preload) stops it: another class.
    text = "ImportError: libatb.so: cannot open shared object file: No such file or directory\n"
    assert _id(text) != "ARL-E4200"


# ARL-E4201 ---------------------------------------------------------------------------------------------------------

def test_flat_param_on_device_zero_is_e4201():
    text = ("(WorkerDict pid=88213) Expects tensor to be on the compute device npu:5, was on npu:0\n"
            "(WorkerDict pid=88213)   File \"/usr/local/python3.11/lib/python3.11/site-packages/torch/distributed/fsdp/"
            "_flat_param.py\", line 1339, in pre_unshard\n"
            "ray.exceptions.RayTaskError(AssertionError): ray::WorkerDict.actor_rollout_compute_log_prob() "
            "(pid=88213, ip=10.0.0.3)\n"
            "AssertionError: Expects tensor to be on the compute device npu:5, was on npu:0\n")
    assert _id(text) == "ARL-E4201"


def test_old_torch_wording_is_e4201():
    assert _id("AssertionError: Expects tensor to be on the compute device cuda:1\n") == "ARL-E4201"


def test_tensors_on_two_devices_in_an_op_is_not_e4201():
    # An operator given tensors on two devices: torch's same-device check, not FSDP's compute-device one.
    text = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:1 and "
            "npu:0!\n")
    assert _id(text) != "ARL-E4201"


# ARL-E4202 ---------------------------------------------------------------------------------------------------------

def test_flat_param_on_cpu_is_e4202():
    text = ("ray.exceptions.RayTaskError(AssertionError): ray::WorkerDict.actor_rollout_compute_log_prob() "
            "(pid=618270, ip=10.6.67.152)\n"
            "AssertionError: Expects tensor to be on the compute device npu:0, was on cpu\n")
    assert _id(text) == "ARL-E4202"


def test_cpu_check_of_offload_is_not_e4202():
    # FSDP's other check (the parameter must be on the CPU with CPUOffload) says another thing.
    text = "AssertionError: Expects tensor to be on CPU but got npu:0\n"
    assert _id(text) not in {"ARL-E4202", "ARL-E4201"}


# ARL-E4203 ---------------------------------------------------------------------------------------------------------

def test_python_cannot_run_npu_smi_is_e4203():
    text = ("  File \"/usr/local/python3.11/lib/python3.11/subprocess.py\", line 1955, in _execute_child\n"
            "    raise child_exception_type(errno_num, err_msg, err_filename)\n"
            "FileNotFoundError: [Errno 2] No such file or directory: 'npu-smi'\n")
    assert _id(text) == "ARL-E4203"


def test_shell_without_npu_smi_is_e4203_warning():
    for line in ("bash: npu-smi: command not found\n", "start.sh: line 7: npu-smi: command not found\n",
                 "/bin/sh: 1: npu-smi: not found\n", "WARNING 03-02 10:00:01 [worker.py:1103] npu-smi tool not found.\n"):
        top = _top(line)
        assert top is not None and top.entry.id == "ARL-E4203" and not top.fatal, line


def test_npu_smi_running_but_dcmi_failing_is_not_e4203():
    # npu-smi is there but cannot talk to the driver: another class (the device is held, or dcmi is missing).
    text = ("DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n"
            "dcmi module initialize failed. ret is -8005\n")
    assert _id(text) != "ARL-E4203"


def test_other_tool_missing_is_not_e4203():
    assert _id("FileNotFoundError: [Errno 2] No such file or directory: 'hccn_tool'\n") != "ARL-E4203"
