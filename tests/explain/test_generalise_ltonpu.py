"""Readings added by helper ltonpu (2026-12-06) while generalising the leave-thread-out misses of the operator / device /
dtype / HCCL / CANN-environment classes (the lead's list of them). Each test input is a short excerpt around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5520 (new): NCCL found no network interface to bootstrap over: "Bootstrap : no socket interface found"
  (src/bootstrap.cc, unchanged from NCCL 2.4.8 to master, also after torch's "Last error:"), "NET/Socket : No usable
  listening interface found" (NCCL_COMM_ID given) and "NET/Socket : no interface found" (net_socket.cc). Before, no
  entry read them: the class (NCCL_SOCKET_IFNAME naming no interface) was left to a resemblance or nothing.
- DRV-op-params: nnopbase's support-list refusal ("get io input info is ..." / "details of parameter are ..." with its
  "SupportInfo[n]" rows, hicann/opbase indv_executor.cpp, old and master wordings) where one row matches every
  parameter but one input's dtype now reads op-input-dtype-mismatch (that input passed in another dtype than the one it
  pairs with the rest, e.g. a quantized matmul's uint8 scale beside a bf16 activation); before, aclnn-param-unsupported.
  ARL-E337 (bf16 not on this device) lists op-input-dtype-mismatch in refined_by, so that reading ranks over its own on
  the same line.
- DRV-op-params: opbase's 2026-06 ("The dtype or format of the actual input or output parameter is not supported,
  details of parameter are ...") and master ("... of the operator is inconsistent with that defined in the operator
  prototype OpDef, ...") wordings of the support-list refusal read as aclnn-param-unsupported; before, code-EZ9999.
- ARL-E2801 widened: NCCL 2.30's rewording of the duplicate-GPU check ("Multiple Ranks are using the same
  GPU/Partition. Set NCCL_MULTI_RANK_GPU_ENABLE=1 ..."); the 2.7 .. 2.29 "Duplicate GPU detected" wording stays.
- DRV-cuda-call widened: torch's own _get_device_index (torch/cuda/_utils.py) handed an NPU device ("Expected a cuda
  [or cpu] device, but got: npu:0", torch.cuda.set_device(npu device) in CUDA-written code), the mirror of torch_npu's
  "Expected a npu device, but got: cuda" it already read; before, unknown.
- ARL-E405 widened: opbase's SoC support-list check as worded from 2026-05 ("SoC version X verification failed. This
  SoC is not configured through the AddConfig API of the OpDef class") and before it ("Check soc version failed!").
- ARL-E331 / DRV-code op-no-binary widened: opbase SelectBin's "Cannot find and bin for op X." (v9.0.1 .. master).
- DRV-cuda-call: "No CUDA GPUs are available" reads ray-cpu-only-actor also where the paste's own words before it on its
  line name the reward function (Link.lead), and the reward-code words match with ASCII word boundaries, so a Chinese
  sentence running into "reward_function" counts; before, cuda-call-on-npu.
- ARL-E2720 widened: ascend-docker-cli's bind mount refused by mount(2) ("failed to mount src." with no path, "failed to
  re-mount. dst.", then "failed to mount dev." / "failed to mount dir", cli/src/u_mount.c v3.0.0 .. v5.0.0-RC3.2); the
  directory form has no full stop, so "failed to mount dir" now matches when the next message follows it at once.
- ARL-E051: its signatures now confirmed in verl's verl/utils/device.py (get_npu_versions) rather than the issue; the
  master plugin's re-raise ("Failed to execute npu-smi command: Command ...") carries the same text.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E5520 -----------------------------------------------------------------------------------------------------------

def test_nccl_no_socket_interface_is_e5520():
    for text in (
        "host-1:2204:2204 [0] bootstrap.cc:45 NCCL WARN Bootstrap : no socket interface found\n"
        "RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)\n",
        TB + "RuntimeError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1201, internal error, "
        "NCCL version 2.14.3\nncclInternalError: Internal check failed.\nLast error:\nBootstrap : no socket interface found\n",
        "node0:881:881 [0] bootstrap.cc:41 NCCL WARN NET/Socket : No usable listening interface found\n",
        "node0:881:905 [0] transport/net_socket.cc:46 NCCL WARN NET/Socket : no interface found\n",
    ):
        assert _id(text) == "ARL-E5520", text


def test_nccl_socket_connect_refused_is_not_e5520():
    text = ("node0:881:905 [0] misc/socket.cc:484 NCCL WARN socketStartConnect: Connect to 10.0.0.2<45069> failed : "
            "Connection refused\n" + TB + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1331, "
            "unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.5\n")
    assert _id(text) != "ARL-E5520"
    # NCCL's INFO line naming the interface it did find is not the failure
    assert _id("node0:881:881 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>\n") != "ARL-E5520"


# DRV-op-params: one input off the support row -------------------------------------------------------------------------

_OLD = ("[ERROR] OP(301,python3.10):2025-08-13-02:23:08.912.908 [nnopbase_executor.cpp:1006][NNOP]"
        "[NnopbasePrintSupportInfo][301] errno[161002] OpName:[GroupedMatmul_0] Io input dtype or format not support, "
        "get io input info is {io} but support list is:\n")
_OLD_ROW = ("[ERROR] OP(301,python3.10):2025-08-13-02:23:08.913.014 [nnopbase_executor.cpp:1026][NNOP]"
            "[NnopbasePrintSupportInfo][301] errno[161002] OpName:[GroupedMatmul_0] SupportInfo[{i}] {row}\n")
_NEW = ("EZ9999: [PID: 301] 2026-07-01-10:00:00.000.000 The dtype or format of the actual input or output parameter of "
        "the operator is inconsistent with that defined in the operator prototype OpDef, details of parameter are {io}\n")
_NEW_ROW = "EZ9999: [PID: 301] 2026-07-01-10:00:00.000.001 SupportInfo[{i}]: {row}\n"


def _kind(text):
    found = _top(text)
    return (found.entry.id, found.kind) if found is not None else None


def test_support_row_off_by_one_input_dtype_is_input_dtype_mismatch():
    io = "x(DT_BFLOAT16, ND) weight(DT_INT4, ND) scale(DT_UINT8, ND) out(DT_BFLOAT16, ND)"
    rows = ("x(DT_FLOAT16, ND) weight(DT_INT4, ND) scale(DT_FLOAT16, ND) out(DT_FLOAT16, ND)",
            "x(DT_BFLOAT16, ND) weight(DT_INT4, ND) scale(DT_BFLOAT16, ND) out(DT_BFLOAT16, ND)")
    old = _OLD.format(io=io) + "".join(_OLD_ROW.format(i=i, row=r) for i, r in enumerate(rows))
    assert _kind(old) == ("DRV-op-params", "op-input-dtype-mismatch")
    new = (_NEW.format(io=io.replace(") ", "), ")) +
           "".join(_NEW_ROW.format(i=i, row=r.replace(") ", "), ")) for i, r in enumerate(rows)))
    assert _kind(new) == ("DRV-op-params", "op-input-dtype-mismatch")


def test_support_rows_without_bf16_are_not_input_dtype_mismatch():
    # every input in bf16 where the rows list only fp16: the device / kernel has no bf16 path, not one input off
    io = "x(DT_BFLOAT16, ND) weight(DT_BFLOAT16, ND) out(DT_BFLOAT16, ND)"
    rows = ("x(DT_FLOAT16, ND) weight(DT_FLOAT16, ND) out(DT_FLOAT16, ND)",
            "x(DT_FLOAT, ND) weight(DT_FLOAT, ND) out(DT_FLOAT, ND)")
    text = _OLD.format(io=io) + "".join(_OLD_ROW.format(i=i, row=r) for i, r in enumerate(rows))
    assert _kind(text) != ("DRV-op-params", "op-input-dtype-mismatch")
    # one parameter off in format (ND vs FRACTAL_NZ) as well as dtype: not a dtype pairing
    io = "x(DT_BFLOAT16, ND) weight(DT_INT8, ND) out(DT_BFLOAT16, ND)"
    rows = ("x(DT_BFLOAT16, ND) weight(DT_INT4, FRACTAL_NZ) out(DT_BFLOAT16, ND)",)
    text = _OLD.format(io=io) + "".join(_OLD_ROW.format(i=i, row=r) for i, r in enumerate(rows))
    assert _kind(text) != ("DRV-op-params", "op-input-dtype-mismatch")


# ARL-E2801: NCCL 2.30's wording of the duplicate-GPU check ------------------------------------------------------------

def test_nccl_230_same_gpu_wording_is_e2801():
    text = ("trainer:3011:3140 [0] init.cc:1057 NCCL WARN Multiple Ranks are using the same GPU/Partition. Set "
            "NCCL_MULTI_RANK_GPU_ENABLE=1 to enable this configuration.\n"
            + TB + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3690, invalid usage (run "
            "with NCCL_DEBUG=WARN for details), NCCL version 2.30.4\n")
    assert _id(text) == "ARL-E2801"
    # the older wording still reads the same
    assert _id("NCCL WARN Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 40\n") == "ARL-E2801"


def test_nccl_multi_rank_env_info_is_not_e2801():
    # NCCL's INFO echo of the variable, or ranks on distinct GPUs, is not the refusal
    assert _id("host:3011:3011 [0] NCCL INFO NCCL_MULTI_RANK_GPU_ENABLE set by environment to 1.\n") != "ARL-E2801"
    text = TB + "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:3690, invalid usage, NCCL version 2.30.4\n"
    assert _id(text) != "ARL-E2801"


# DRV-cuda-call: torch.cuda's device-index check handed an NPU device ---------------------------------------------------

def test_torch_cuda_api_given_npu_device_is_cuda_call_on_npu():
    for line in ("ValueError: Expected a cuda device, but got: npu:0",
                 "ValueError: Expected a cuda or cpu device, but got: npu"):
        text = (TB + '  File "/usr/local/lib/python3.10/site-packages/torch/cuda/__init__.py", line 476, in set_device\n'
                "    device = _get_device_index(device)\n" + line + "\n")
        found = _top(text)
        assert (found.entry.id, found.kind) == ("DRV-cuda-call", "cuda-call-on-npu"), line


def test_torch_cuda_api_given_cpu_device_is_not_cuda_call_on_npu():
    # a CPU device handed to torch.cuda (no NPU in the sentence) is another mistake
    text = TB + "ValueError: Expected a cuda device, but got: cpu\n"
    found = _top(text)
    assert found is None or found.kind != "cuda-call-on-npu"


# ARL-E405: nnopbase's SoC support-list check, its 2026 and pre-2026 wordings --------------------------------------------

def test_opbase_soc_not_configured_is_e405():
    for line in (
        "EZ9999: [PID: 4410] 2026-07-02-11:20:01.101.202 SoC version Ascend910_9392 verification failed. This SoC is not "
        "configured through the AddConfig API of the OpDef class",
        "[ERROR] OP(4410,python):2025-11-02-11:20:01.101.202 [indv_executor.cpp:917][NNOP][NnopbaseExecutorCheckSocVersionAndParam]"
        "[4410] errno[561003] Check soc version failed!",
    ):
        assert _id(line + "\n") == "ARL-E405", line


def test_opbase_hccl_server_type_or_binary_missing_is_not_e405():
    # the HCCL server-type check and a missing binary are other failures
    assert _id("EZ9999: SoC version Ascend910B verification failed. This SoC is not configured through the "
               "HcclServerType API of the OpDef class\n") != "ARL-E405"
    assert _id("EZ9999: [PID: 4410] Op AddCustom does not has any binary.\n") != "ARL-E405"


# DRV-op-params: opbase's 2026 wordings of the support-list refusal ----------------------------------------------------

def test_opbase_2026_support_list_refusal_is_param_unsupported():
    for head in ("The dtype or format of the actual input or output parameter is not supported, details of parameter are "
                 "x(DT_FLOAT, ND) y(DT_FLOAT, ND) but supported list is:",
                 "The dtype or format of the actual input or output parameter of the operator is inconsistent with that "
                 "defined in the operator prototype OpDef, details of parameter are x(DT_FLOAT, ND), y(DT_FLOAT, ND)"):
        text = (f"EZ9999: [PID: 301] 2026-07-01-10:00:00.000.000 {head}\n"
                "EZ9999: [PID: 301] 2026-07-01-10:00:00.000.001 SupportInfo[0]: x(DT_FLOAT16, ND), y(DT_FLOAT16, ND)\n")
        assert _kind(text) == ("DRV-op-params", "aclnn-param-unsupported"), head
    # bf16 inputs in that sentence stay the catalog's device-without-bf16 reading
    text = ("EZ9999: [PID: 301] The dtype or format of the actual input or output parameter is not supported, details of "
            "parameter are x(DT_BFLOAT16, ND) y(DT_BFLOAT16, ND) but supported list is:\n")
    assert _id(text) == "ARL-E337"


def test_other_ez9999_is_not_op_params():
    text = "EZ9999: [PID: 301] 2026-07-01-10:00:00.000.000 Parse dynamic kernel config fail.\n"
    assert _kind(text) != ("DRV-op-params", "aclnn-param-unsupported")


# ARL-E331 / DRV-code op-no-binary: opbase SelectBin's "Cannot find and bin for op" --------------------------------------

def test_opbase_select_bin_wording_is_e331():
    text = ("EZ9999: Inner Error!\nEZ9999: [PID: 7781] 2026-03-02-10:00:00.000.000 Cannot find and bin for op ZerosLike.\n"
            "        TraceBack (most recent call last):\n")
    assert _id(text) == "ARL-E331"


def test_opbase_static_bin_info_is_not_e331():
    # the INFO line of the static-binary lookup that falls back to the dynamic one is no failure
    assert _id("[INFO] OP(7781,python):2026-03-02 Cannot find static bin of op ZerosLike, simplified key 0/1.\n") != "ARL-E331"


# ARL-E051: verl's npu-smi board query, also as verl master's platform plugin re-raises it --------------------------------

def test_verl_npu_smi_board_query_forms_are_e051():
    for line in (
        "subprocess.CalledProcessError: Command '['npu-smi', 'info', '-t', 'board', '-i', '1']' returned non-zero exit status 215.",
        "RuntimeError: Failed to execute npu-smi command: Command '['npu-smi', 'info', '-t', 'board', '-i', '3']' returned "
        "non-zero exit status 215.",
    ):
        assert _id(TB + line + "\n") == "ARL-E051", line


def test_verl_npu_smi_other_failures_are_not_e051():
    assert _id(TB + "RuntimeError: Could not find Software Version in npu-smi output\n") != "ARL-E051"
    assert _id(TB + "subprocess.CalledProcessError: Command '['npu-smi', 'info', '-m']' returned non-zero exit status 1.\n") != "ARL-E051"


# DRV-cuda-call: a paste's own words before "No CUDA GPUs are available" that name the reward function --------------------

def test_no_cuda_gpus_with_reward_function_in_the_lead_is_ray_cpu_only_actor():
    for text in ("我发现简单地在reward_function里面定义model，会报错`RuntimeError: No CUDA GPUs are available`\n",
                 "Loading a reward model inside compute_score fails: RuntimeError: No CUDA GPUs are available\n"):
        found = _top(text)
        assert (found.entry.id, found.kind) == ("DRV-cuda-call", "ray-cpu-only-actor"), text


def test_no_cuda_gpus_without_reward_words_is_not_ray_cpu_only_actor():
    found = _top("我在训练的时候会报错`RuntimeError: No CUDA GPUs are available`\n")
    assert found is not None and found.kind != "ray-cpu-only-actor"
    # "rewarding" is not a reward function's name
    found = _top("A rewarding_model_test run fails: RuntimeError: No CUDA GPUs are available\n")
    assert found is not None and found.kind != "ray-cpu-only-actor"


# ARL-E2720: ascend-docker-cli's bind mount refused (no source path in the message) ---------------------------------------

def test_ascend_docker_runtime_mount_refused_is_e2720():
    for tail in ("failed to mount src.failed to mount dev.failed to do file mounting for.failed to mount files.",
                 "failed to re-mount. dst.failed to mount dev.failed to mount device.failed to mount devices.",
                 "failed to mount src.failed to mount dirfailed to do directory mounting"):
        text = ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create "
                "failed: unable to start container process: error during container init: " + tail
                + "failed to do mounting.failed to setup container.: unknown.\n")
        assert _id(text) == "ARL-E2720", tail


def test_other_container_mount_errors_are_not_e2720():
    text = ("docker: Error response from daemon: failed to create shim task: OCI runtime create failed: runc create failed: "
            "unable to start container process: error during container init: error mounting \"/data\" to rootfs at "
            "\"/data\": mount /data:/data (via /proc/self/fd/6), flags: 0x5000: no such file or directory: unknown.\n")
    assert _id(text) != "ARL-E2720"
