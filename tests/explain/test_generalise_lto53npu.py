"""Readings widened by helper lto53npu (2026-12-07) for NPU-area classes (CANN environment, devices, HCCL, operators)
whose knowledge did not reach other wordings of the same emitted message. Each test input is a short excerpt around the
exact emitted line; each widening also has a near miss (similar words, another failure) that must not take it.

- ARL-E383 widened (stream-sync-timeout): AscendCL's own error-log line when the runtime returns
  ACL_ERROR_RT_STREAM_SYNC_TIMEOUT to aclrtSynchronizeStreamWithTimeout / aclrtSynchronizeDeviceWithTimeout
  ("synchronize stream timeout, timeout = Nms", "synchronize device timeout, timeout = Nms"; hicann/runtime
  src/acl/aclrt_impl/stream.cpp and device.cpp). Before, a resemblance or a bare EE9999. The same calls' other failures
  ("synchronize stream with timeout failed, runtime result = N") are not timeouts and stay out.
- ARL-E375 widened (hccn-device-ip-missing): vllm-ascend's LLM-DataDist KV connector and its find_device_ips.py example
  looking the NPU device IPs up from hccn_tool / /etc/hccn.conf, every wording its releases had ("Failed to find
  information for rank_table, please check the existence of hccn_tool and hccn.conf", "Failed to extract device ip from
  hccn_tool output", "npu-smi or hccn_tool is not available. Please check your environment configuration.", "Failed to
  retrieve IP address for device N using hccn_tool.", "No npu-smi/hccn_tool tools provided for NPU.", "Cannot parse IP
  from hccn_tool for device N"); and Mooncake's own Ascend transport (HcclTransport::rankInfoParse, v0.3.5 ..) reading
  /etc/hccn.conf ("can't open conf 文件：/etc/hccn.conf", "HcclTransport: Invalid Device IP format"). Before, nothing
  specific (an unexplained RuntimeError, or nothing).
- ARL-E4444 widened (hccn-device-ip-missing): MindSpore models' rank-table generator utils/hccl_tools/hccl_tools.py when
  neither hccn_tool nor /etc/hccn.conf gives the device IPs ("Failed to read /etc/hccn.conf", "SystemError: Failed to
  find information for hccl"). Before, nothing.
- ARL-E012 widened (cuda-call-on-npu): the CPU build of torch that torch_npu runs on reached through a torch.cuda call
  that skips _lazy_init (torch.cuda.set_device -> torch._C._cuda_setDevice): a build without USE_CUDA registers no
  _cuda_* binding (torch/csrc/Module.cpp), so Python says "module 'torch._C' has no attribute '_cuda_setDevice'".
  Before, a resemblance to a package mismatch.
- ARL-E5680 (new, nccl-ib-transport-failed): NCCL's socketFinalizeAccept refusing a connection whose socket type is the
  other network transport's ("wrong type 4 != 3" / "3 != 4": ncclSocketTypeNetIb vs ncclSocketTypeNetSocket, socket.h
  2.16 .. 2.30; "socketFinalizeAccept from <addr>: wrong type" from 2.27): one node uses InfiniBand, its peer TCP
  sockets. Before, nothing (or NCCL's generic internal error).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E383 ------------------------------------------------------------------------------------------------------------

def test_acl_synchronize_timeout_log_lines_are_e383():
    for text in (
        "[ERROR] ASCENDCL(12345,python):2026-01-01-10:00:00.000.000 [stream.cpp:196]12345 "
        "aclrtSynchronizeStreamWithTimeoutImpl: synchronize stream timeout, timeout = 1800000ms\n"
        "RuntimeError: synchronize stream failed\n",
        "EE9999: Inner Error!\n"
        "        synchronize device timeout, timeout = 600000ms[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]\n",
    ):
        assert _id(text) == "ARL-E383", text


def test_synchronize_with_timeout_other_failure_is_not_e383():
    # the same API failing for another reason (a model stream execute failure, 507011): not a timeout
    text = ("EE9999: Inner Error!\n"
            "        rtStreamSynchronizeWithTimeout execute failed, reason=[the model stream execute failed]"
            "[FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
            "        synchronize stream with timeout failed, runtime result = 507011"
            "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:162]\n")
    assert _id(text) != "ARL-E383"


# ARL-E375 ------------------------------------------------------------------------------------------------------------

def test_vllm_ascend_device_ip_lookup_wordings_are_e375():
    for line in (
        "RuntimeError: Failed to find information for rank_table, please check the existence of hccn_tool and hccn.conf",
        "ValueError: Failed to extract device ip from hccn_tool output.",
        "RuntimeError: npu-smi or hccn_tool is not available. Please check your environment configuration.",
        "RuntimeError: Failed to retrieve IP address for device 3 using hccn_tool.",
        "RuntimeError: No npu-smi/hccn_tool tools provided for NPU.",
        "RuntimeError: Cannot parse IP from hccn_tool for device 5",
    ):
        assert _id(TB + line + "\n") == "ARL-E375", line


def test_mooncake_hccl_transport_hccn_conf_is_e375():
    for line in (
        "E0601 10:00:00.000000 12345 hccl_transport.cpp:330] can't open conf 文件：/etc/hccn.conf",
        "E0601 10:00:00.000000 12345 hccl_transport.cpp:375] HcclTransport: Invalid Device IP format: 29.0.0",
    ):
        assert _id(line + "\n") == "ARL-E375", line


def test_mooncake_host_ip_format_is_not_e375():
    # the host IP given to the transport, not the device NIC's address from hccn.conf
    assert _id("E0601 10:00:00.000000 12345 hccl_transport.cpp:360] HcclTransport: Invalid Host IP format: node-1\n") != "ARL-E375"


def test_npu_smi_device_id_parse_is_not_e375():
    # the same helper failing to read device ids from npu-smi: no device IP question yet
    text = TB + "RuntimeError: Failed to parse any valid device ID from npu-smi output.\n"
    assert _id(text) != "ARL-E375"


# ARL-E4444 -----------------------------------------------------------------------------------------------------------

def test_hccl_tools_without_hccn_tool_and_conf_is_e4444():
    text = ("Failed to call hccn_tool, try to read /etc/hccn.conf instead\n"
            "Failed to read /etc/hccn.conf\n" + TB + "SystemError: Failed to find information for hccl\n")
    assert _id(text) == "ARL-E4444"
    assert _id(TB + "SystemError: Failed to find information for hccl\n") == "ARL-E4444"


def test_hccn_conf_read_fallback_notice_alone_is_not_e4444():
    # hccl_tools falling back to the file is only a notice; the file then answering is a healthy run
    text = ("Failed to call hccn_tool, try to read /etc/hccn.conf instead\n"
            "rank_id:0, device_id:0, device_ip:192.168.100.101\n"
            "Completed: hccl file was save in : /home/user/hccl_8p_01234567_127.0.0.1.json\n")
    assert _id(text) != "ARL-E4444"


# ARL-E012 ------------------------------------------------------------------------------------------------------------

def test_torch_c_without_cuda_bindings_is_e012():
    text = ('Traceback (most recent call last):\n  File "train.py", line 62, in <module>\n'
            '    torch.cuda.set_device(args.local_rank)\n'
            '  File "/usr/local/lib/python3.10/site-packages/torch/cuda/__init__.py", line 404, in set_device\n'
            '    torch._C._cuda_setDevice(device)\n'
            "AttributeError: module 'torch._C' has no attribute '_cuda_setDevice'\n")
    assert _id(text) == "ARL-E012"
    assert _id(TB + "AttributeError: module 'torch._C' has no attribute '_cuda_getDevice'\n") == "ARL-E012"


def test_torch_c_other_missing_binding_is_not_e012():
    # a torch / torch_npu version mismatch (an extension asking torch._C for a binding this torch lacks): not CUDA
    text = TB + "AttributeError: module 'torch._C' has no attribute '_set_default_mobile_cpu_allocator'\n"
    assert _id(text) != "ARL-E012"


# ARL-E5680 -----------------------------------------------------------------------------------------------------------

def test_nccl_transport_type_mismatch_is_e5680():
    for line in (
        "node2:51873:51903 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3",
        "node1:2214:2360 [0] misc/socket.cc:533 NCCL WARN socketFinalizeAccept from 10.0.0.12<45678>: wrong type 3 != 4",
    ):
        text = line + "\nnode2: Test NCCL failure common.cu:961 'internal error - please report this issue to the NCCL developers / '\n"
        assert _id(text) == "ARL-E5680", line


def test_nccl_other_socket_type_or_magic_mismatch_is_not_e5680():
    for line in (
        # a bootstrap connection reaching a proxy listener: another port reuse, not the IB / socket transports
        "node1:2214:2360 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 1 != 2",
        "node1:2214:2360 [0] misc/socket.cc:431 NCCL WARN socketFinalizeAccept: wrong magic 3e2a1b0c != 5a4b3c2d",
    ):
        assert _id(line + "\n") != "ARL-E5680", line
