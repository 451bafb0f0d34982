"""Readings added by helper kg2rt (2026-12-06, fifth wave) from the runtime / driver / AI CPU / TSD entries of the
MindCluster fault knowledge base (Ascend/mind-cluster kg-config.json, kg codes in brackets), with the wording checked in
the emitting source (hicann/runtime, hicann/driver). Each test input is a short plog (or kernel log) excerpt around the
exact emitted message; each class also has a near miss that must not give it.

- ARL-E5400 (AISW_CANN_Runtime_040 .. _049): the runtime's SDMA error report ("there is a sdma error, sdma channel is",
  STARS "... cqeStatus=0x3", older "... the value of CQE status is 2", FFTS+ "there is a fftsplus sdma error") and the
  memcpy task's "mem async copy error, retCode=0x217, [sdma copy error]" (not "[memcpy timeout]"); under
  507013 the code analyzer's sdma-copy-failed finding stays first (refined_by).
- ARL-E5401 (AISW_CANN_Runtime_063): an AI Core / vector core kernel timeout printed without an ACL code ("Kernel task
  happen error, retCode=0x25, [aicore timeout]", 0x30 [vector core timeout], v100 "AICORE Kernel task happen error,
  retCode=0x25." / "AIV Kernel happen error, retCode=0x30."); with 507014 in the log the aicore-timeout finding stays
  first.
- ARL-E5402 (AISW_CANN_DRV_TS_001 / 002 / 006): the driver's ID allocator with an empty pool ("No res. (devid=0; tsid=0;
  type=StreamId; allocatable_num=...; alloc_num=...)") and the runtime's EE1023 "Alloc Stream resource failed. Reason: Too
  many streams are created." (events, notifies alike); under ACL graph capture ARL-E212 / aclgraph-stream-exhausted first.
- ARL-E5403 (AISW_CANN_DRV_SVM_003): halMemFree of an address the driver holds no allocation for ("Virtual address is
  not alloced, please check. (va=0x...)").
- ARL-E5404 (AISW_CANN_DRV_SVM_006): halMemCreate (aclrtMallocPhysical) with a size not a multiple of the granularity
  ("Size should aligned by granularity_size. (size=...; granularity_size=...)").
- ARL-E5405 (AISW_CANN_DRV_HDC_031): the HDC driver with no free session for a service ("No session resources
  available. (dev_id=3; service_type=\"service_framework\")").
- ARL-E5406 (AISW_CANN_DRV_SVM_012): a synchronous copy whose range the driver could not translate ("Vaddress to palist
  add pgtable fail. (va=...; size=...; blks_num=...)").
- ARL-E5407 (AISW_CANN_PROF_005): a profiler data channel the driver would not start ("Failed to start channel
  profiling, profDeviceId=0, profChannel=45, ret=-1"), non-fatal: a later fatal error outranks it.
- ARL-E323 widened (AISW_CANN_Runtime_021): the runtime's "Notify wait execute failed, device_id=..." (CANN 7-8.5) and
  "Notify wait execution failed, ..." (9.x).
- ARL-E428 widened (AISW_CANN_Runtime_059): "event wait error, retCode=0x105, [task timeout]" (other return codes not).
- ARL-E381 widened (AISW_CANN_AICPU_12): aicpu-sd's "Aicpu engine process failed, result[11004], opName[...]" (the
  engine's failure results only, not the silent-fault / stress-detect results 7, 9..12).
- ARL-E330 / ARL-E381 / ARL-E428 widened (AISW_CANN_Runtime_053): the FFTS+ task's "fftsplus task execute failed, ...
  err_type=N[fftsplus aicore error]" (aivector: E330), "[fftsplus aicpu error]" (E381), "[hccl fftsplus timeout]" (E428).
- ARL-E312 widened (AISW_CANN_TSD_05): the TSD client's "TsdOpen failed, deviceId[0]."
- ARL-E331 widened (AISW_CANN_Runtime_027): the runtime's "Can not find kernel by function[0x...], tilingKey=N."
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

RT = "[ERROR] RUNTIME(27514,python):2026-03-16-15:52:17.572.654 [x.cc:100]28555 "
AICPU = "[ERROR] AICPU(1823,aicpu_scheduler):2026-03-16-15:52:17.572.654 [aicpusd_event_process.cpp:810][tid:1830] "
TSD = "[ERROR] TSDUMPER(27514,python):2026-03-16-15:52:17.572.654 [tsd_client.cpp:27]28555 "
KMSG = "[Sun Mar  1 10:22:41 2026] [ascend] [ERROR] [trs] [trs_id_print_isolated_res_detail 810] <python:70211> "


# ARL-E5400 (SDMA error report) ----------------------------------------------------------------------------------------

def test_sdma_error_report_is_e5400():
    for line in (
        "RecordSdmaErrorInfo:The error from device(chipId:0, dieId:0), serial number is 12. there is a sdma error, "
        "sdma channel is 3, sdmaBlkFsmState=0x0, dfxSdmaBlkFsmOstCnt=0x0, sdmaChFree=0x1, irqStatus=0x1, cqeStatus=0x3 ",
        "RecordSdmaErrorInfo:The error from device(chipId:1, dieId:0), serial number is 4.there is a sdma error, "
        "sdma channel is 0, sdmaBlkFsmState=0x0, dfxSdmaBlkFsmOstCnt=0x0, sdmaChFree=0x1, irqStatus=0x1, cqeStatus=0x2 ",
        "ProcessSdmaErrorInfo:The error from device(0), serial number is 3. there is a sdma error, sdma channel is 0x5, "
        "the channel exist the following problems: The SMMU returns a Terminate error during page table translation.. "
        "the value of CQE status is 2. the description of CQE status: When the SQE translates a page table, the SMMU "
        "returns a Terminate error.it's config include: setting1=0x0, setting2=0x0, setting3=0x0, sq base addr=0x1200",
        "ProcessCoreErrors:The error from device(chipId:0, dieId:0), serial number is 9. there is a fftsplus sdma error, "
        "sdma channel is 1, sdmaState=0x0, sdmaTslotid=0x0, sdmaCxtid=0x2, sdmaThreadid=0x0, irqStatus=0x1, cqeStatus=0x60000.",
    ):
        assert _id(RT + line + "\n") == "ARL-E5400", line


def test_sdma_under_507013_keeps_the_code_finding():
    text = (RT + "RecordSdmaErrorInfo:The error from device(chipId:0, dieId:0), serial number is 12. there is a sdma "
            "error, sdma channel is 3, sdmaBlkFsmState=0x0, dfxSdmaBlkFsmOstCnt=0x0, sdmaChFree=0x1, irqStatus=0x1, "
            "cqeStatus=0x3 \n"
            + RT + "rtStreamSynchronize:[EXEC][DEFAULT]ErrCode=507013, desc=[sdma copy error], InnerCode=0x7150050\n")
    top = _top(text)
    assert top is not None and top.kind == "sdma-copy-failed", top


def test_sdma_near_misses_are_not_e5400():
    for line in (
        "Get sdma mte error, stream_id=5, task_id=120, errorCode=0.",
        "SdmaCopy:sdma copy finished, channel is 3, cqeStatus=0x0",
    ):
        assert _id(RT + line + "\n") != "ARL-E5400", line


# ARL-E5401 (AI Core / vector core timeout without an ACL code) --------------------------------------------------------

def test_aicore_timeout_task_report_is_e5401():
    for line in (
        "ProcessTaskFail:Kernel task happen error, retCode=0x25, [aicore timeout].",
        "ProcessTaskFail:Kernel task happen error, retCode=0x30, [vector core timeout].",
        "AICORE Kernel task happen error, retCode=0x25.",
        "AIV Kernel happen error, retCode=0x30.",
    ):
        assert _id(RT + line + "\n") == "ARL-E5401", line


def test_aicore_timeout_with_507014_keeps_the_code_finding():
    # the shape an application's error report has: the failed synchronize with its code, CANN's Inner Error block
    text = ("[ERROR] aclrtSynchronizeStream(stream) failed: 507014 (/home/user/app/main.cpp:84)\n"
            "[ERROR] RecentErrMsg: EZ9999: Inner Error!\n"
            "EZ9999[PID: 1693560] 2026-05-28-15:01:08.714.167 (EZ9999):  The error from device(chipId:2, dieId:0), "
            "serial number is 284, there is an exception of aicore error, core id is 6, error code = 0\n"
            "       Kernel task happen error, retCode=0x25, [aicore timeout].[FUNC:PreCheckTaskErr]"
            "[FILE:davinci_kernel_task.cc][LINE:1729]\n")
    top = _top(text)
    assert top is not None and top.kind == "aicore-timeout", top


def test_aicore_exception_is_not_e5401():
    for line in (
        "ProcessTaskFail:Kernel task happen error, retCode=0x28, [aicore exception].",
        "AICORE Kernel task happen error, retCode=0x28.",
        "Kernel task happen error, retCode=0x2a, [aicpu exception].",
    ):
        assert _id(RT + line + "\n") != "ARL-E5401", line
    assert _id(RT + "ProcessTaskFail:Kernel task happen error, retCode=0x28, [aicore exception].\n") == "ARL-E330"


# ARL-E5402 (driver ID pool exhausted) ---------------------------------------------------------------------------------

def test_driver_id_pool_empty_is_e5402():
    for kind in ("StreamId", "EventId", "ModelId", "HwSqId"):
        line = f"No res. (devid=0; tsid=0; type={kind}; allocatable_num=1984; alloc_num=1984)\n"
        assert _id(KMSG + line) == "ARL-E5402", line


def test_driver_id_near_misses_are_not_e5402():
    for line in (
        "No resource. (dev_id=0; ts_id=0; id_type=3)",  # trs_sqcq.c, an INFO-level probe
        "Not proc res. (devid=0; tsid=0; res_type=1; id=12)",  # trs_proc.c, a free of an id not held
    ):
        assert _id(KMSG + line + "\n") != "ARL-E5402", line


# Widened: ARL-E323, ARL-E428, ARL-E381, ARL-E312, ARL-E331 ------------------------------------------------------------

def test_runtime_notify_wait_failed_is_e323():
    for line in (
        "PrintErrorInfoForNotifyWaitTask:[COMP][DEFAULT]Notify wait execute failed, device_id=1, stream_id=20, "
        "task_id=6, flip_num=0, notify_id=3",
        "PrintErrorInfoForNotifyWaitTask:Notify wait execution failed, device_id=1, stream_id=20, task_id=6, "
        "flip_num=0, notify_id=3, isCountNotify=0.",
    ):
        assert _id(RT + line + "\n") == "ARL-E323", line
    assert _id(RT + "Notify wait execute begin, device_id=1, stream_id=20\n") != "ARL-E323"


def test_event_wait_task_timeout_is_e428():
    assert _id(RT + "EventWaitTaskDoComplete:event wait error, retCode=0x105, [task timeout].\n") == "ARL-E428"
    assert _id(RT + "EventWaitTaskDoComplete:event wait error, retCode=0x91, [aicore exception].\n") != "ARL-E428"


def test_aicpu_engine_failure_is_e381():
    for result in ("1", "11004", "11006"):
        line = f"Aicpu engine process failed, result[{result}], opName[Unique], streamId[12], taskId[4].\n"
        assert _id(AICPU + line) == "ARL-E381", line
    # the silent-fault / stress-detect results are a hardware check, not an operator exception
    assert _id(AICPU + "Aicpu engine process failed, result[9], opName[StressDetect], streamId[1], taskId[2].\n") != "ARL-E381"


def test_tsd_open_failed_is_e312():
    assert _id(TSD + "TsdOpen:TsdOpen failed, deviceId[0].\n") == "ARL-E312"
    assert _id(TSD + "TsdClose:TsdClose failed, deviceId[0].\n") != "ARL-E312"


def test_kernel_not_found_by_function_is_e331():
    assert _id(RT + "LaunchKernel:Can not find kernel by function[0x7f2a3c001000], tilingKey=1001.\n") == "ARL-E331"
    assert _id(RT + "LaunchKernel:Can not find kernel by name[add_custom], tilingKey=1001.\n") != "ARL-E331"


# ARL-E5403 (free of an address not allocated) / ARL-E5404 (physical allocation size not aligned) ---------------------

DRV = "[ERROR] DRV(4021,python3):2026-03-01-10:11:12.345.678 [devmm_virt_com_heap.c:1363]4021 devmm_free_mem: "


def test_free_of_unallocated_va_is_e5403():
    assert _id(DRV + "<errno:0, 0> Virtual address is not alloced, please check. (va=0x12c0c0000000)\n") == "ARL-E5403"
    assert _id(DRV + "Virtual address is not alloced, please check. (va=0x7ffe1000)\n") == "ARL-E5403"


def test_free_near_misses_are_not_e5403():
    for line in ("<errno:0, 0> Heap is destroy, is error.", "Virtual address is alloced. (va=0x12c0c0000000)"):
        assert _id(DRV + line + "\n") != "ARL-E5403", line


def test_mem_create_unaligned_is_e5404():
    line = "Size should aligned by granularity_size. (size=3145729; granularity_size=2097152)\n"
    assert _id("[Sun Mar  1 10:22:41 2026] [ascend] [ERROR] [devmm] [devmm_ioctl_mem_create_para_check 316] <python:1> " + line) == "ARL-E5404"
    assert _id(DRV + line) == "ARL-E5404"


def test_mem_create_near_miss_is_not_e5404():
    assert _id(DRV + "Size is zero.\n") != "ARL-E5404"
    assert _id(DRV + "Size should be aligned by page size. (size=4097)\n") != "ARL-E5404"


# FFTS+ task report by its failed context's type (AISW_CANN_Runtime_053): E330 / E381 / E428 widened ------------------

FFTS = ("PrintErrorInfo:fftsplus task execute failed, dev_id=0, stream_id=2, task_id=3, context_id=1, thread_id=0, "
        "err_type={}, error_code=0.\n")


def test_fftsplus_err_type_reads_the_context():
    for err_type, expected in (("1[fftsplus aicore error]", "ARL-E330"), ("2[fftsplus aivector error]", "ARL-E330"),
                               ("5[fftsplus aicpu error]", "ARL-E381"), ("7[hccl fftsplus timeout]", "ARL-E428"),
                               ("4[fftsplus sdma error]", "ARL-E373")):
        assert _id(RT + FFTS.format(err_type)) == expected, err_type


def test_fftsplus_other_err_type_is_none_of_them():
    got = _id(RT + FFTS.format("6[fftsplus dsa error]"))
    assert got not in ("ARL-E330", "ARL-E381", "ARL-E428", "ARL-E373"), got


# ARL-E5405 (HDC sessions exhausted) -----------------------------------------------------------------------------------

HDC = "[Sun Mar  1 11:02:10 2026] [ascend] [ERROR] [hdcdrv] [hdcdrv_connect 4972] <python:91522> "


def test_hdc_no_session_is_e5405():
    for service in ("service_framework", "service_log", "service_profiling"):
        line = f'No session resources available. (dev_id=3; service_type="{service}")\n'
        assert _id(HDC + line) == "ARL-E5405", line


def test_hdc_near_misses_are_not_e5405():
    for line in ('Calling session_resouce_check failed. (dev_id=3; fid=0; service_type="service_log"; ret=-12)',
                 "No session available for the remote peer."):
        assert _id(HDC + line + "\n") != "ARL-E5405", line


# ARL-E5406 (synchronous copy over unmapped addresses) ----------------------------------------------------------------

DEVMM = "[Sun Mar  1 12:01:44 2026] [ascend] [ERROR] [devmm] [devmm_svm_addr_pa_list_get 1248] <python3:81822> "


def test_copy_range_not_mapped_is_e5406():
    line = "Vaddress to palist add pgtable fail. (va=0x12c041000000; size=0x1000000; blks_num=4096)\n"
    assert _id(DEVMM + line) == "ARL-E5406"


def test_copy_near_misses_are_not_e5406():
    for line in ("Get pages details. (va=0x12c041000000; size=0x1000000; blks_num=4096; num=4096)",
                 "Vaddress to palist add pgtable succ. (va=0x12c041000000)"):
        assert _id(DEVMM + line + "\n") != "ARL-E5406", line


def test_memcpy_task_sdma_failure_is_e5400():
    for line in ("MemcpyAsyncTaskDoComplete:mem async copy error, retCode=0x217, [sdma copy error].",
                 "MemcpyAsyncTaskDoComplete:mem async copy error, retCode=0x218, [sdma poison error].",
                 "MemcpyAsyncTaskDoComplete:mem async copy error, mte_err=0x0, retCode=0x217, [sdma copy error]."):
        assert _id(RT + line + "\n") == "ARL-E5400", line
    assert _id(RT + "MemcpyAsyncTaskDoComplete:mem async copy error, retCode=0x216, [memcpy timeout].\n") != "ARL-E5400"


# ARL-E5407 (a profiler channel that did not start: non-fatal) ---------------------------------------------------------

PROF = "[ERROR] PROFILING(61211,python):2026-03-01-13:10:02.118.204 [channel_job.cpp:38] >>> (tid:61390) "


def test_profiler_channel_start_failed_is_e5407_and_not_fatal():
    top = _top(PROF + "Failed to start channel profiling, profDeviceId=0, profChannel=45, ret=-1\n")
    assert top is not None and top.entry.id == "ARL-E5407" and not top.fatal, top
    # a real failure later in the same log is the root cause, not the profiler's channel
    text = (PROF + "Failed to start channel profiling, profDeviceId=0, profChannel=45, ret=-1\n"
            + RT + "ProcessTaskFail:Kernel task happen error, retCode=0x25, [aicore timeout].\n")
    assert _id(text) == "ARL-E5401"


def test_profiler_near_miss_is_not_e5407():
    assert _id(PROF + "Begin to start channel profiling, profDeviceId=0, profChannel=45\n") != "ARL-E5407"


def test_runtime_too_many_streams_is_e5402():
    for line in ("EE1023: [PID: 1162] 2026-02-20-02:16:03.427.598 Alloc Stream resource failed. Reason: Too many streams are created.",
                 RT + "EventCreate:Alloc Event resource failed. Reason: Too many events are created. ErrorCode=EE1023.",
                 RT + "NotifyCreate:Alloc Notify resource failed. Reason: Too many Notify objects are created. ErrorCode=EE1023."):
        assert _id(line + "\n") == "ARL-E5402", line
    assert _id("EE1023: [PID: 1162] 2026-02-20-02:16:03.427.598 Alloc Stream resource failed. Reason: Stream is busy.\n") != "ARL-E5402"
