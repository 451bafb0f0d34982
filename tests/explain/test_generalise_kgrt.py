"""Readings added by helper kgrt (2026-12-06, fourth wave) from the MindCluster fault knowledge base (Ascend/mind-cluster
kg-config.json): the CANN runtime / driver / AI CPU entries explain missed, each confirmed in the emitting project's
source. Each test input is a short excerpt around the exact emitted message; each class also has a near miss.

- ARL-E381 widened (kg AISW_CANN_Runtime_033 / _062): the runtime's per-task report of a failed AI CPU kernel with the
  exception code 0x2a ("Aicpu kernel execute failed, device_id=..., errorCode=2a." in CANN 7/8, "AI CPU kernel execution
  failed, ..." in hicann/runtime davinci_kernel_task.cc); before, nothing was named. The timeout form (no errorCode)
  and a GetNext timeout ("fault op_name=aicpu_getnext_...") stay out.
- ARL-E314 widened (kg AISW_CANN_Runtime_055): the runtime's plog line "Device[N] lost heartbeat." (engine.hpp,
  stars_engine.cc) and the older "Device lost heartbeat"; before, nothing.
- ARL-E341 widened (kg AISW_CANN_ERRMSG_Custom_06): HCCP's "ra hdc message process failed ret(-67)" (ra_hdc_rdma.c):
  -ENOLINK from the device, the NIC's link is down; before, nothing when the EJ0002 line is not in the paste.
- ARL-E5320 (kg AISW_CANN_AICPU_07 / _13): the device AI CPU scheduler's watchdog ("Send timeout to tsdaemon, tsdaemon
  will kill aicpu-sd process, thread index[..]", "Send model timeout, ...", aicpusd_monitor.cpp).
- ARL-E5321 (kg AISW_PyTorch_Train_05): a list collective whose list length is not the group size ("Tensor list input
  to scatter/gather must match number of collective participants", torch_npu ProcessGroupHCCL / LCCLUtils, PyTorch NCCL).
- ARL-E5322 (kg AISW_PyTorch_Train_03): torch.distributed's dtype check of a multi-tensor collective ("Invalid usage of
  tensors with different dtypesFound X and  Y", distributed_c10d.py).
- ARL-E5323 (kg AISW_PyTorch_Train_04): torch.distributed's argument type check ("Invalid function argument. Expected
  parameter `x` (to be) of type torch.Tensor / List[torch.Tensor]", 1.x and 2.x wordings).
- ARL-E5324 (kg AISW_VLLM_ASCEND_QUANTIZATION_ASCEND_001): vllm-ascend's --quantization ascend on a model without
  quant_model_description.json ("ERROR: ModelSlim Quantization Config Not Found", modelslim_config.py, v0.15+).
- ARL-E5325 (kg AISW_PyTorch_Train_38): torch_npu's unsafe-tensor check after restart_device(rebuild_all_resources)
  ("There is unsafe data in the input tensor.", NPURecovery.cpp).
- ARL-E5326 (kg AISW_PyTorch_Model_04): torch.distributed's non-member warning ("Running broadcast on global rank N
  which does not belong to the given group."), a non-fatal finding: the run goes on, a later fatal error ranks first.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E381 (AI CPU kernel exception) -------------------------------------------------------------------------------

AICPU_EXCEPTIONS = (
    # CANN 7.x / 8.0 TraceBack lines under torch_npu's error block
    "        Aicpu kernel execute failed, device_id=0, stream_id=28, task_id=1726, errorCode=2a."
    "[FUNC:PrintAicpuErrorInfo][FILE:task_info.cc][LINE:1522]\n",
    # the davinci_kernel_task.cc form with the kernel named (%#x code)
    "[ERROR] RUNTIME(901649,python3):2026-04-13-17:00:33.666.070 [davinci_kernel_task.cc:989]902058 "
    "PrintAicpuErrorInfo:Aicpu kernel execute failed, device_id=0, stream_id=45, task_id=0, soName=libcpu_kernels.so, "
    "funcName=RunCpuKernel, kernelName=Unique, errorCode=0x2a.\n",
    # hicann/runtime 2026-05+ wording
    "[ERROR] RUNTIME(4021,python3):2026-06-01-10:11:12.345.678 [davinci_kernel_task.cc:700]4030 "
    "PrintAicpuErrorInfo:AI CPU kernel execution failed, device_id=1, stream_id=3, task_id=5, soName=libcpu_kernels.so, "
    "funcName=RunCpuKernel, kernelName=GatherV2, errorCode=0x2a, paramAddr=0x12c0, argsSize=96, soNameDevAddr=0x0, "
    "funcNameDevAddr=0x0, headParamOffset=0, aicpuKernelType=1.\n",
)


def test_aicpu_kernel_exception_report_is_e381():
    for text in AICPU_EXCEPTIONS:
        assert _id(text) == "ARL-E381", text


def test_aicpu_timeout_and_getnext_forms_are_not_e381():
    # the timeout form carries no errorCode; the GetNext op is the input pipeline's own class
    timeout = (
        "[ERROR] RUNTIME(4021,python3):2026-04-13-17:00:33.666.070 [davinci_kernel_task.cc:985]4030 "
        "PrintAicpuErrorInfo:Aicpu kernel execute failed, device_id=0, stream_id=45, task_id=0, soName=libcpu_kernels.so, "
        "funcName=RunCpuKernel, kernelName=Unique.\n"
    )
    getnext = (
        "        Aicpu kernel execute failed, device_id=0, stream_id=2, task_id=2, fault op_name=aicpu_getnext_"
        "IteratorGetNext[FUNC:GetError][FILE:stream.cc][LINE:1041]\n"
    )
    assert _id(timeout) != "ARL-E381"
    assert _id(getnext) != "ARL-E381"


# ARL-E314 (device lost heartbeat) ---------------------------------------------------------------------------------

HEARTBEAT = (
    "[ERROR] RUNTIME(4021,python3):2026-03-01-10:11:12.345.678 [stars_engine.cc:686]4130 "
    "ReportHeartBreakProcV2:Device[3] lost heartbeat.\n",
    "[ERROR] RUNTIME(4021,python3):2026-03-01-10:11:12.345.678 [engine.hpp:31]4130 Device[0] lost heartbeat.\n",
    "[ERROR] RUNTIME(1502,python):2023-05-01-10:11:12.345.678 [device.cc:900]1502 Device lost heartbeat, device_id=0\n",
)


def test_device_lost_heartbeat_plog_line_is_e314():
    for text in HEARTBEAT:
        assert _id(text) == "ARL-E314", text


def test_ray_node_heartbeat_is_not_e314():
    # Ray's GCS marking a node dead for missed heartbeats is a host / Ray problem, not the NPU's task scheduler
    text = (
        "ray.exceptions.NodeDiedError: The node with node id: 3f1c and address: 10.0.0.2 and node name: 10.0.0.2 has "
        "been marked dead because the detector has missed too many heartbeats from it.\n"
    )
    assert _id(text) != "ARL-E314"


# ARL-E341 (device NIC link down, -ENOLINK) ------------------------------------------------------------------------

NIC_DOWN = (
    "[ERROR] HCCP(46430,python3):2023-09-21-03:43:49.546.469 [ra_hdc.c:1270]tid:46430,ra_hdc_rdev_init(1270) : "
    "[init][ra_hdc_rdev]ra hdc message process failed ret(-67) phy_id(3)\n",
    "[ERROR] HCCP(5120,python3):2026-03-01-08:00:00.000.001 [ra_hdc_rdma.c:1410]tid:5120,RaHdcRdevInit(1410) : "
    "[init][ra_hdc_rdev]ra hdc message process failed ret(-67) phyId(0)\n",
)


def test_ra_hdc_enolink_is_e341():
    for text in NIC_DOWN:
        assert _id(text) == "ARL-E341", text


def test_ra_hdc_other_error_is_not_e341():
    # another errno from the same call (here -EPERM) does not say the link is down
    text = (
        "[ERROR] HCCP(46430,python3):2023-09-21-03:43:49.546.469 [ra_hdc.c:1270]tid:46430,ra_hdc_rdev_init(1270) : "
        "[init][ra_hdc_rdev]ra hdc message process failed ret(-1) phy_id(3)\n"
    )
    assert _id(text) != "ARL-E341"


# ARL-E5320 (aicpu-sd watchdog) ------------------------------------------------------------------------------------

AICPU_SD_WATCHDOG = (
    "[ERROR] AICPU(3312,aicpu_scheduler):2026-03-01-10:16:02.100.531 [aicpusd_monitor.cpp:470][tid:3320] Send timeout "
    "to tsdaemon, tsdaemon will kill aicpu-sd process, thread index[2], op name[Unique], nowTick:30010053100, "
    "startTick:1005310, timeOut:30000000000, tickFreq:100000000.\n",
    "[ERROR] AICPU(210,aicpu_scheduler):2026-03-01-10:11:12.345.678 [aicpusd_monitor.cpp:539][tid:211] Send model "
    "timeout, tsdaemon will kill aicpu-sd process, model id[1].\n",
    "[ERROR] AICPU(210,aicpu_scheduler):2026-03-01-10:11:12.345.678 [aicpusd_monitor.cpp:485][tid:211] Send stream "
    "task timeout, tsdaemon will kill aicpu-sd process, model id[0].\n",
    "[ERROR] CCECPU(310,aicpu_custom_scheduler):2026-03-01-10:11:12.345.678 [aicpusd_monitor.cpp:236][tid:311] Send "
    "timeout to tsdaemon, tsdaemon will kill aicpu-custom-sd process, thread index[0], op name[MyCustomOp]\n",
)


def test_aicpu_sd_watchdog_is_e5320():
    for text in AICPU_SD_WATCHDOG:
        assert _id(text) == "ARL-E5320", text


def test_aicpu_op_timer_line_is_not_e5320():
    # the per-op timer of AicpuMonitor::HandleOpTimeout only calls the op's own callback; nothing is killed
    text = (
        "[ERROR] AICPU(210,aicpu_scheduler):2026-03-01-10:11:12.345.678 [aicpusd_monitor.cpp:510][tid:211] Op timeout "
        "occurred, timer id[4], nowTick:1, startTick:0, timeOut:1, tickFreq:1.\n"
    )
    assert _id(text) != "ARL-E5320"


# ARL-E5321 / E5322 / E5323 (torch.distributed argument checks) -----------------------------------------------------

def test_list_collective_wrong_length_is_e5321():
    for text in (
        "RuntimeError: Tensor list input to scatter/gather must match number of collective participants"
        "[ERROR] 2026-03-01-10:11:05 (PID:40211, Device:0, RankID:0) ERR02002 DIST invalid type\n",
        "ValueError: Tensor list input to scatter/gather must match number of collective participants but got 3 "
        "inputs with world_size 2 and 1 devices.\n",
    ):
        assert _id(text) == "ARL-E5321", text


def test_list_operand_size_mismatch_is_not_e5321():
    # the same check's neighbour: list elements of another size than the input (not a count problem)
    text = "RuntimeError: All tensor operands to scatter/gather must have the same size\n"
    assert _id(text) != "ARL-E5321"


def test_collective_dtype_mismatch_is_e5322():
    for text in (
        "ValueError: Invalid usage of tensors with different dtypesFound torch.float32 and  torch.bfloat16\n",
        "RuntimeError: Invalid usage of tensors with different dtypesFound torch.float32 and  torch.int64\n",
    ):
        assert _id(text) == "ARL-E5322", text


def test_flat_collective_dtype_mismatch_stays_e2873():
    # the flat-buffer twin (all_gather_into_tensor) keeps its own entry
    assert _id("RuntimeError: output tensor must have the same type as input tensor\n") != "ARL-E5322"


def test_collective_non_tensor_argument_is_e5323():
    for text in (
        "TypeError: Invalid function argument. Expected parameter `output` of type torch.Tensor\n"
        "             but got <class 'list'> instead.\n",
        "RuntimeError: Invalid function argument. Expected parameter `tensor_list` to be of type List[torch.Tensor].\n",
        "TypeError: Invalid function argument. Expected parameter `tensor` to be of type torch.Tensor.\n",
    ):
        assert _id(text) == "ARL-E5323", text


def test_other_invalid_argument_is_not_e5323():
    text = "ValueError: Invalid function argument: src_tensor must be smaller than the length of tensor_list\n"
    assert _id(text) != "ARL-E5323"


# ARL-E5324 (vllm-ascend ModelSlim quantization) ---------------------------------------------------------

def test_modelslim_config_missing_is_e5324():
    for text in (
        "ERROR 03-01 10:11:12 [modelslim_config.py:905] ModelSlim quantization config not found for model "
        "'/home/user/models/Qwen3-8B'. Searched path: /home/user/models/Qwen3-8B. Found JSON files: ['config.json'].\n",
        "ValueError: \n" + "=" * 80 + "\nERROR: ModelSlim Quantization Config Not Found\n" + "=" * 80 + "\n",
    ):
        assert _id(text) == "ARL-E5324", text


def test_quant_type_without_scheme_is_not_e5324():
    text = (
        "NotImplementedError: Currently, vLLM Ascend doesn't support quant_type=W4A16 for layer_type=linear. Please use "
        "a supported quantization format or load the model with its original float weights.\n"
    )
    # a ModelSlim checkpoint whose quant type has no scheme: ARL-E4041's (the v0.23+ wording), not a missing config
    assert _id(text) == "ARL-E4041"


# ARL-E5325 (unsafe tensor after in-process recovery) ---------------------------------------------------------------

def test_unsafe_tensor_after_recovery_is_e5325():
    for text in (
        "RuntimeError: There is unsafe data in the input tensor.\n",
        "RuntimeError: There is unsafe data in the input tensor.[ERROR] 2026-03-01-10:11:05 (PID:5120, Device:3, "
        "RankID:3) ERR00002 PTA invalid value\n",
    ):
        assert _id(text) == "ARL-E5325", text


def test_uce_fault_itself_is_not_e5325():
    # the memory fault that precedes a recovery is its own class (507053)
    text = "RuntimeError: NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout, error code is 507053\n"
    assert _id(text) != "ARL-E5325"


# ARL-E5326 (collective skipped on a non-member rank, non-fatal) -----------------------------------------------------

NON_MEMBER = (
    "/usr/local/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py:1170: UserWarning: Running broadcast "
    "on global rank 1 which does not belong to the given group.\n"
)


def test_non_member_collective_warning_is_e5326_and_not_fatal():
    found = _top(NON_MEMBER)
    assert found is not None and found.entry.id == "ARL-E5326"
    assert found.entry.fatal is False


def test_a_later_fatal_error_outranks_e5326():
    text = NON_MEMBER + "RuntimeError: Tensor list input to scatter/gather must match number of collective participants\n"
    assert _id(text) == "ARL-E5321"
