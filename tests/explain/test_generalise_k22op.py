"""CANN runtime reports whose own words name the class (k22op): catalog/analyzers/cannrt.py.

Each paste is scored without the catalog entries written from the threads these lines come from, so only the
analyzers can name them: the runtime's / aclnn engine's BinaryGetFunctionByEntry lines (no kernel function for the
tiling key: op-no-binary, whatever the aclnn call's generic code says) and the runtime's "feature not supported"
(207000) for the SoC-version query (soc-version-undetected) or another runtime feature (npu-driver-too-old). Near misses
stay something else.
"""

from __future__ import annotations

import pytest

# entries written from the threads these lines come from (taken out so the analyzer alone must answer)
OWN = ("ARL-E331",)
INNER = "DRV-aclnn-inner-error"


FUNC = "DRV-op-kernel-function-missing"
FEATURE = "DRV-rt-feature"


@pytest.mark.parametrize("text, analyzer, kind", [
    # gitcode cann/ops-nn#387: torch_npu's ERR00100 tag over the runtime's EE1001 reason
    ('[ERROR] APP(1069425,python3):2026-01-12-18:51:58.395.123 [log_inner.cpp:78]1069567 build/CMakeFiles/torch_npu.dir/'
     'compiler_depend.ts:ExecFuncOpApi:445: "[PTA]:"Custom hand error:operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:'
     '1896 NPU function error: call aclnnInplaceLeakyRelu failed, error code is 107000 [ERROR] 2026-01-12-18:51:58 (PID:1069425, '
     'Device:0, RankID:-1) ERR00100 PTA call acl api failed [Error]: Parameter verification failed. Check whether the input '
     'parameters of the interface are correct. [PID: 1069425] 2026-01-12-18:51:58.393.769 Invalid_Argument(EE1001): The argument '
     'is invalid.Reason: BinaryGetFunctionByEntry failed, funcEntry=1 Solutio""\n', FUNC, "op-no-binary"),
    # flash-linear-attention-npu#285: the plog's runtime (EE1011 wording) and aclnn-engine lines around the 107000 line
    ("[ERROR] RUNTIME(2283153,python3.11):2026-08-08-15:58:51.329.973 [api_impl.cc:979]2305764 BinaryGetFunctionByEntry:Obtaining "
     "the kernel function handle based on the function entry failed. Value 15380 for parameter funcEntry is invalid. Reason: The "
     "funcHandle cannot be found through funcEntry. ErrorCode=EE1011.\n"
     "[ERROR] RUNTIME(2283153,python3.11):2026-08-08-15:58:51.330.034 [api_c_kernel.cc:412]2305764 rtsFuncGetByEntry:ErrCode=107000, "
     "desc=[invalid value], InnerCode=0x7110001\n"
     "[ERROR] RUNTIME(2283153,python3.11):2026-08-08-15:58:51.330.037 [error_message_manage.cc:51]2305764 FuncErrorReason:"
     "rtsFuncGetByEntry execution failed.\n"
     "[ERROR] OP(2283153,python3.11):2026-08-08-15:58:51.330.183 [op_kernel.cpp:424][NNOP][operator()][2305764] errno[361001] "
     "OpName:[aclnnChunkBwdDqkwg_2461_ChunkBwdDqkwg] aclrtBinaryGetFunctionByEntry failed, kernel name: ChunkBwdDqkwg, tiling key: 15380\n",
     FUNC, "op-no-binary"),
    # hiascend forum thread 0280167557932978058: MindSpore's run_check on a 310 whose driver lacks the stream failure mode
    ("Ascend kernel runtime initialization failed, device id: 0The details refer to 'Ascend Error Message'.\n"
     "----------------------------------------------------\n"
     "- Framework Error Message: (For framework developers)\n"
     "----------------------------------------------------\n"
     "aclrtSetStreamFailureMode failed, ret:207000\n"
     "----------------------------------------------------\n"
     "- Ascend Error Message:\n"
     "----------------------------------------------------\n"
     "EE1001: [PID: 137926] 2024-11-21-07:33:39.067.797 The argument is invalid.Reason: rtStreamSetMode execute failed, "
     "reason=[feature not support]\n"
     "Solution: 1.Check the input parameter range of the function. 2.Check the function invocation relationship.\n"
     "TraceBack (most recent call last):\n"
     "rtSetStreamFailureMode failed, runtime result = 207000.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n",
     FEATURE, "npu-driver-too-old"),
    # modelbox#357: MindSpore 1.9's stream creation with flags the installed driver does not know (older wording, EE8888)
    ("Ascend kernel runtime initialization failed.\n\n"
     "----------------------------------------------------\n"
     "- Ascend Error Message:\n"
     "----------------------------------------------------\n"
     "EE8888: Inner Error!\n"
     "        Unsupport flags, flags=4[FUNC:StreamCreate][FILE:api_error.cc][LINE:300]\n"
     "        rtStreamCreateWithFlags execute failed, reason=[feature not support][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:49]\n"
     "        Solution: Please contact support engineer.\n\n"
     "----------------------------------------------------\n"
     "- Framework Error Message: (For framework developers)\n"
     "----------------------------------------------------\n"
     "Create stream failed, ret:207000\n",
     FEATURE, "npu-driver-too-old"),
    # PTOAS#836: aclInit on a board whose runtime cannot read the SoC version (CANN 8.5+ wording)
    ("[ERROR] aclInit(nullptr) failed: 500000 (main.cpp:71)\n"
     "[ERROR] RecentErrMsg: [PID: 1293981] 2026-06-18-14:35:54.265.804 Invalid_Argument(EE1001): The argument is invalid.Reason: "
     "rtGetDevMsg execution failed, the feature is not supported.\n"
     "        Solution: 1.Check the input parameter range of the function. 2.Check the function invocation relationship.\n"
     "        TraceBack (most recent call last):\n"
     "        [Init][Version]init soc version failed.[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:132]\n"
     "        chipType=0 does not support get device msg feature.[FUNC:GetDevMsg][FILE:api_impl.cc][LINE:6193]\n",
     FEATURE, "soc-version-undetected"),
    # Ascend/sglang#629: the aclnn call's whole detail is CANN's catch-all Inner Error
    ('Service startup failed for GLM5.1 model test cases: "RuntimeError: call aclnnFusedDeepMoe failed, detail:EZ9999: Inner Error!"\n',
     INNER, "aclnn-inner-error"),
])
def test_the_runtimes_words_name_the_class(explain_without, text, analyzer, kind):
    top, top_kind = explain_without(text)
    assert (top, top_kind) == (analyzer, kind)


@pytest.mark.parametrize("text, not_kind", [
    # the same function lookup by name (aclrtBinaryGetFunction), or 107000 with no word about the kernel function
    ("[ERROR] RUNTIME(1,python3):2026-03-02-10:11:12.000.002 [api_c_kernel.cc:408]2 rtsFuncGetByEntry:ErrCode=107000, "
     "desc=[invalid value], InnerCode=0x7110001\n", "op-no-binary"),
    # a null context is a thread with no device set, not a feature the driver lacks
    ("EE1001: [PID: 1] 2026-01-01-00:00:00.000.000 The argument is invalid.Reason: rtGetDevMsg execution failed, the context "
     "is a null pointer\n", "soc-version-undetected"),
    ("EE1001: [PID: 1] 2026-01-01-00:00:00.000.000 The argument is invalid.Reason: rtGetDevMsg execution failed, the context "
     "is a null pointer\n", "npu-driver-too-old"),
    # the 207000 code alone names no feature
    ("aclrtSetStreamFailureMode failed, ret:207000\n", "npu-driver-too-old"),
    # the Inner Error with CANN's report under it naming a missing binary (Ascend/pytorch troubleshooting doc's paste)
    ("RuntimeError: call aclnnArange failed, detail:EZ9999: Inner Error!\n"
     "EZ9999: [PID: 775] 2025-02-16-12:18:25.258.321 Cannot find bin of op Range, integral key 0/1/|int64/ND/int64/ND/int64/ND/int64/ND/.\n"
     "        TraceBack (most recent call last):\n"
     "       Cannot find binary for op Range.\n", "aclnn-inner-error"),
    # PTOAS#765: the same SoC-query refusal under the driver's EL0005 (the device is busy): the busy device is the cause
    ("[ERROR] aclInit(nullptr) failed: 500000 (main.cpp:93)\n"
     "[ERROR] RecentErrMsg: [PID: 3698671] 2026-06-24-16:04:09.980.816 Resource_Busy(EL0005): The resources are busy.\n"
     "        Possible Cause: 1. The resources have been occupied. 2. The device is being reset. 3. Software is not ready.\n"
     "        Solution: 1. Close applications not in use. 2. Wait for a while and try again.\n"
     "        TraceBack (most recent call last):\n"
     "        [Init][Version]init soc version failed.[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:132]\n"
     "        chipType=0 does not support get device msg feature.[FUNC:GetDevMsg][FILE:api_impl.cc][LINE:6181]\n"
     "        The argument is invalid.Reason: rtGetDevMsg execution failed, the feature is not supported.\n",
     "soc-version-undetected"),
])
def test_near_misses_are_not_named_so(explain_without, text, not_kind):
    _, kind = explain_without(text)
    assert kind != not_kind
