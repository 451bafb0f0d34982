"""Decode every error code a failure carries (ACL/runtime, CANN, HCCL, torch_npu, DCMI).

The tables are data (``catalog/codes/*.yaml``) with their sources. A finding names the most
specific code; a link with only catch-all codes (``EZ9999`` Inner Error, ``ERR99999``) still gets a
decoded diagnosis, but a weak one that anything specific outranks.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from ..codes import AICORE_TIMEOUT_WORDS, CAPTURE_CODES, CodeInfo, decode, tables
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

# The aclnn tiling step failed: nnopbase's individual-op check, an operator's own tiling line, and the composite-op
# engine's (opbase op_run_context.h: "Tiling failed" when the operator's tiling function returns an error; op_kernel.h:
# "Tiling Failed." when no tiling result came back, returned as ACLNN_ERR_INNER_NULLPTR 561103), each a TraceBack line
# of its own; or the same two lines as the device log (plog) writes them, behind OP_LOGE's "[file:line][NNOP][Tiling]
# errno[561000] OpName:[aclnnX_N_X] " prefix (opbase src/nnopbase/composite_op/aclnn_engine at v9.1.0.pre).
TILING_FAILED = lazy(r"Check NnopbaseExecutorDoTiling\(executor\) failed|\b\w+ do tiling failed, ret is -?\d+"
                     r"|^\s*Tiling (?:failed|Failed\.)\s*$|\]\[NNOP\]\[\w+\] errno\[\d+\] OpName:\[\w+\] Tiling (?:failed|Failed\.)\s*$", re.M)
# An operator's own check refusing something because of the chip it runs on, in the words the CANN ops and torch_npu's
# op-plugin use (hicann/ops-transformer op_host / op_api OP_LOGE, Ascend/op-plugin and torch_npu TORCH_CHECK with
# ErrCode::NOT_SUPPORT): "Current Soc do not support quantScaleOptional …", "current soc does not support non aligned
# calculations.", "The soc version does not support bf16 / fp32 …", "This socversion not support antiquant scale dtype …",
# "Weight NZ is unsupported by the current SOC version [%s].", "customize_dtype is not supported by the current soc
# version.", "SOC Version[%s] is not support.", "Unsupported SocVersion.", "aclnnFFN… are not supported on Ascend310P
# Soc.", "Only float16 is supported on Ascend310P platforms.", "Activation is not supported on Ascend310P platforms.",
# "does not support Atlas300I platform", "Not support 910B platform.", "ascend310p platform do not support batch size
# (%s) more than 128.", "soc version not supported in ATB.", op-plugin's "npu_mla_prolog not support on this soc version,
# please use npu_mla_prolog_v3". The argument is valid elsewhere; this chip lacks it.
SOC_REFUSAL = lazy(
    r"(?i:\b(?:current|this|the) soc ?(?:version)?\b[^.\n]{0,40}?\b(?:does not|do not|not|cannot|can not) support)"
    r"|(?i:\b(?:unsupported|not supported) by the current soc(?: ?version)?\b)"
    r"|(?i:\bnot support(?:ed)? (?:on|in|by) (?:this|the current|current) soc(?: ?version)?\b)"
    r"|(?i:\bSOC Version ?\[\w+\] is not support)|\bUnsupported SocVersion\b|\bsoc version not supported in ATB\b"
    r"|(?i:\b(?:not|only\b[^.\n]{0,40}?) supported on (?:Ascend|Atlas ?)\w+ (?:platforms?|socs?)\b)"
    r"|(?i:\b(?:does not|do not|not) support (?:Atlas ?\w+|Ascend\w+|910B\w*|310P\w*) (?:platforms?|socs?)\b)"
    r"|(?i:\b(?:ascend|atlas ?)\w+ platforms? (?:does not|do not) support\b)"
)
# The same refusal naming bf16: the chip has no bf16 path for the operator ("Bfloat16 is unsupported by the current SOC
# version [%s], self is %s …", ops-transformer's matmul checks; "The soc version does not support bf16 / fp32 …").
SOC_BF16 = lazy(r"(?is)(?=.*\b(?:bf16|bfloat16|DT_BF16)\b)(?=.*(?:" + SOC_REFUSAL.pattern + r"))")
SOC_SOURCES = ("https://github.com/hicann/ops-transformer/blob/c29bc1069d3252c641e2aa059ec88f392d3f05ac/ffn/ffn/op_host/op_api/aclnn_ffn.cpp",
               "https://github.com/hicann/ops-transformer/blob/c29bc1069d3252c641e2aa059ec88f392d3f05ac/mc2/3rd/mat_mul_v3/op_host/op_api/aclnn_matmul.cpp",
               "https://github.com/Ascend/op-plugin/blob/517f2e7d0f202f38b76310706cb977ca2388ad21/op_plugin/ops/opapi/MlaPrologV2KernelNpuOpApi.cpp")
SOC_FIXES = {
    "op-unsupported-on-soc": (
        "The check names what this chip lacks: turn that feature off for this chip (the framework's option for it: a "
        "quantization mode, a weight format such as NZ, a fused kernel or graph mode) or run the model on a chip the "
        "operator supports (Atlas A2 / A3 training series for most fused operators)",
        "Check the operator's aclnn API page for the products it supports, and upgrade CANN / torch_npu / the framework if "
        "a newer release adds the chip"),
    "bf16-unsupported-on-device": (
        "Run the model in float16: dtype=float16 (vLLM --dtype float16; verl actor_rollout_ref.rollout.dtype=float16 and "
        "the actor's mixed precision) — the chip has no bf16 kernel for this operator (Atlas 300I / 310P series)",),
}
# Codes that only say "something failed underneath": never the best explanation when another code is present.
AICORE = lazy(r"(?:ai ?core|aivec(?:tor)?|aic|aiv|vector core|cube core) (?:execution )?(?:error|exception)", re.I)
# The runtime's words for a kernel that ran past its time limit rather than faulted (catalog/codes, AICORE_TIMEOUT_WORDS).
AICORE_TIMEOUT = lazy(AICORE_TIMEOUT_WORDS)
# Codes whose meaning is a root-cause class of its own.
KINDS = {
    "507015": "aicore-exception", "507035": "aicore-exception", "507016": "aicore-exception", "507036": "aicore-exception",
    "507042": "aicore-exception", "507043": "aicore-exception", "507044": "aicore-exception", "507045": "aicore-exception",
    "507014": "aicore-timeout", "507034": "aicore-timeout", "507033": "device-setup-failed", "207001": "npu-oom", "207018": "npu-oom",
    "EL0004": "npu-oom",  # Memory_Allocation_Failure: the driver had no device memory left for the request
    "EI0002": "collective-timeout", "107020": "collective-timeout", "hccl:9": "collective-timeout",
    "EI0006": "hccl-connect-timeout",  # Communication_Error_Get_Socket: HCCL's own socket to a peer, not torch's rendezvous store
    "dcmi:-8020": "dcmi-device-occupied", "drv:87": "dcmi-device-occupied",
    "drv:6": "npu-oom",  # DRV_ERROR_OUT_OF_MEMORY: a driver allocation (halMemAlloc, devmm) found no device memory left
    "EI0019": "hccl-port-in-use", "EJ0003": "hccl-port-in-use", "EI0020": "hccl-port-in-use", "507053": "device-memory-fault",
    "507054": "hbm-ecc-fault",  # ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR
}
KINDS.update({"EZ3002": "op-no-binary", "EZ3003": "op-no-binary", "EZ0501": "op-no-binary", "507018": "aicpu-exception"})
# aclnn's ACLNN_ERR_INNER_* codes: the operator failed inside (shape inference, tiling), not on its arguments.
# 561002 is ACLNN_ERR_INNER_TILING_ERROR ("an error occurs when an API performs NPU kernel tiling", opbase
# docs/en/api/nnopbase/opdev/aclnn_return_code/aclnn_return_codes.md): an inner error of the tiling step.
KINDS.update({"561001": "aclnn-inner-error", "561002": "op-tiling-failed"})
# The rest of opbase's ACLNN_ERR_INNER_* table (aclnn_return_codes.md: "561xxx API internal error"): the executor, attribute,
# kernel-key and operator-information-JSON failures are inner errors of the operator API too; 561112
# (ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND: the operator's binary kernel library is not loaded) is a missing kernel binary.
KINDS.update(dict.fromkeys(("561101", "561102", "561104", "561105", "561106", "561108", "561109", "561110", "561111",
                            "561113", "561114", "561115", "561116", "561117", "561118", "561119"), "aclnn-inner-error"))
KINDS.update({"561112": "op-no-binary"})
# The driver's registered Invalid_Device_ID (EL0002, "The device ID is invalid.", cann_registry.yaml) is the driver's
# side of the runtime's 107001: a device id outside what the process may see; its Resource_Busy (EL0005, "The resources
# are busy.") is a device another process or container holds, as DCMI's -8005 / -8020 and the driver's 87 say.
KINDS.update({"EL0002": "invalid-visible-device", "EL0005": "dcmi-device-occupied"})
# DCMI's -8002 (DCMI_ERR_CODE_OPER_NOT_PERMITTED, catalog/codes/dcmi.yaml): the caller may not open or query the device (not
# root or in HwHiAiUser's group, device nodes mounted without access). A class of its own, not a bare code: a resemblance
# to -8005's "device occupied" (the same sentence, another number) must not be put above it (lead s47, k47cann's note).
KINDS.update({"dcmi:-8002": "npu-permission-denied"})
# aclnn's ACLNN_ERR_PARAM_* codes: the operator's argument check refused the call before any kernel ran (161001: an
# argument it needs is a null pointer, e.g. an optional tensor the caller left out; 161002: an argument invalid).
KINDS.update({"161001": "aclnn-param-unsupported"})
KINDS.update({"561003": "op-no-binary", "561107": "cann-env-not-sourced", "161002": "aclnn-param-unsupported",
              "EJ0001": "hccp-init-failed", "EI0008": "cann-version-mismatch",
              "507010": "device-lost-heartbeat", "107001": "invalid-visible-device", "dcmi:-8007": "invalid-visible-device",
              "EI0013": "roce-link-error", "hccl:12": "roce-link-error", "hccl:14": "roce-link-error", "hccl:21": "roce-link-error",
              # the runtime registry's Execution_Error_Stream_Synchronize_Timeout and its ACL return code
              "EE1002": "stream-sync-timeout", "507046": "stream-sync-timeout"})
# HCCL's and HCCP's registered errors whose title is a class of its own (cann_registry.yaml, hicann/runtime
# error_code.json): Resource_Error (EI0007) and Resource_Error_Insufficient_Device_Memory (EI0011), Transport init
# error (EI0009), the UB link's error CQE (EI0018, as EI0013 is RoCE's), the rank table's configuration, check and
# detection errors (EI0004, EI0014, EI0015, EI0017), and HCCP's "The network port is down" (EJ0002).
KINDS.update({"EI0007": "hccl-resource-exhausted", "EI0011": "hccl-resource-exhausted", "EI0009": "hccl-transport-init-failed",
              "EI0018": "hccl-error-cqe", "EI0004": "hccl-ranktable-invalid", "EI0014": "hccl-ranktable-invalid",
              "EI0015": "hccl-ranktable-invalid", "EI0017": "hccl-ranktable-invalid", "EJ0002": "hccl-nic-down"})
# The runtime's stream-capture codes: an ACL graph capture that failed, whatever the operation inside it.
KINDS.update(dict.fromkeys(CAPTURE_CODES, "aclgraph-capture-failed"))
# torch_npu's OPS NOT_SUPPORT: the script called an operator (or an operator feature) the NPU does not support;
# per Ascend/pytorch docs/zh/troubleshooting/unsupported_op_called.md it follows the CPU-fallback warning.
KINDS.update({"ERR01007": "op-unsupported-on-npu"})
# CANN's own registry titles an operator's argument checks (Invalid_Input_Dtype, Invalid_Argument_Tensor_Shape,
# AclNN_Parameter_Error, Not_Supported_Data_Type …): whatever the message, the operator refused an input.
PARAM_CLASSES = ("Operator Errors", "AclNN Errors", "Nnopbase Errors")
PARAM_TITLE = lazy(r"^(?:Invalid_(?:Input|Attr|Argument)|Not_Supported_Data_Type|AclNN_Parameter_Error)")


def registry_kind(code: str) -> str:
    """The class CANN's registry gives a code (cann_registry.yaml), where it is an operator argument check."""
    row = ((tables().get("cann_registry") or {}).get("codes") or {}).get(code)
    if not row or len(row) < 2:
        return ""
    return "aclnn-param-unsupported" if row[0] in PARAM_CLASSES and PARAM_TITLE.match(str(row[1])) else ""


# ACL's context-null code: the calling thread never selected a device (aclrtSetDevice / torch.npu.set_device).
KINDS.update({"107002": "npu-device-not-set"})
# torch_npu's NPUGraph calls of the ACL graph API as NPU_CHECK_ERROR prints them (CONTEXT_KINDS below).
NPU_GRAPH_CALL = lazy(r"\bAclmdlRI(?:ExecuteAsync|CaptureBegin|CaptureEnd)\(")
# What the lines around a code say narrows its class: (codes it refines — "hccl:" for every HcclResult — or
# None for any, the words, the class).
CONTEXT_KINDS = (
    (None, lazy(r"Memory async failed|MemcpyAsync ?[Cc]heck"), "memcpy-invalid-location"),
    # The runtime's own SDMA report under ACL_ERROR_RT_SYS_DMA (RT_ERROR_TSFW_SDMA_COPY_ERROR, "sdma copy error"): the
    # device's DMA engine failed a copy, e.g. its SMMU could not translate an address (hicann/runtime v9.1.0.pre,
    # errcode_manage.cc and device_error_proc.cc "there is a sdma error, sdma channel is …").
    (("507013",), lazy(r"there is a sdma error|reason=\[sdma copy error\]"), "sdma-copy-failed"),
    # CANN's own words that the operator has no implementation for the running SoC, under whatever code carries them
    # (EZ9999 AclNN_Inner_Error, EZ9903, EZ1001): nnopbase's "Op %s not support soc version %s." (indv_executor.cpp),
    # its regInfo check "The binary_info_config.json of socVersion [%s] does not support opType [%s]"
    # (indv_executor_ext.cpp), and the ops-nn aclnn APIs' "support for %s is not implemented" with the SoC's name
    # (ARL-E405 cites the three sources): the chip, not the installation, lacks the operator.
    # The regInfo check's message is the only one that opens "Get regInfo failed, The binary_info_config.json of
    # socVersion [": an issue title or a paste cut after that (GitHub cuts long titles) is still this message.
    (None, lazy(r"Op \w+ not support soc version \w+|socVersion \[\w+\] does not support opType \[\w+\]"
                r"|Get regInfo failed, The binary_info_config\.json of socVersion \["
                      r"|support for Ascend\w+ is not implemented"), "op-unsupported-on-soc"),
    # The operators' own argument checks that refuse a feature, dtype or shape because of the running chip (SOC_REFUSAL):
    # bf16 named with it is the device lacking bf16 for this operator, anything else the chip lacking that feature.
    (None, SOC_BF16, "bf16-unsupported-on-device"),
    (None, SOC_REFUSAL, "op-unsupported-on-soc"),
    # opapi's kernel lookup ("Cannot find bin of op X, integral key …" / "Cannot find binary for op X.", op_kernel.h)
    # under whatever code the call reports (EZ1001, EZ9999, 561000): no binary for these dtypes/formats on this SoC.
    (None, lazy(r"does not ha(?:s|ve) any binary|Parse dynamic kernel config fail|No supported Ops kernel and engine"
                      r"|Cannot find (?:and )?bin(?:ary)? (?:of|for) op \w+"
                      r"|read binary_info_config\.json failed|opp_kernel package"), "op-no-binary"),
    # The aclnn APIs' dtype checks that compare two tensors, or a tensor with the one dtype the operator takes, rather
    # than a dtype with the operator's support list: OP_CHECK_DTYPE_NOT_MATCH ("Tensor %s expected dtype is %s but found
    # %s.", older releases "%s expected scalar type %s but found %s") and OP_CHECK_DTYPE_NOT_SAME ("Expected both tensors
    # to have same dtype, but found …"), https://github.com/hicann/ops-math/blob/ee839ce2ab9632f88231eb3eb78a4bd8c0948eaa/
    # common/inc/external/aclnn_kernels/common/op_error_check.h (aclnnInplaceMaskedFillScalar checks its mask against
    # DT_BOOL so: conversion/masked_fill/op_api/aclnn_masked_fill_scalar.cpp). Under EZ1001 / 161002 the caller passed
    # an input in another dtype than the operator pairs it with (a float mask, mixed fp32/bf16 operands): cast it.
    (("EZ1001", "161002"), lazy(r"\bexpected (?:scalar type|dtype is) DT_\w+ but found DT_\w+"
                                 r"|Expected both tensors to have same dtype, but found"), "op-input-dtype-mismatch"),
    (("dcmi:-8005",), lazy(r"(?i)initiali[sz]\w* failed"), "dcmi-device-occupied"),
    (("hccl:", "EI9999", "EJ9999"), lazy(r"(?i)hccl\w*CommInit\w*\("), "hccl-init-failed"),
    # A synchronize or copy issued on a stream that ACL graph capture holds: whatever code the engine reports
    # first (507014, 507000 …), the runtime's own words say capture refused it.
    (None, lazy(r"captured-stream|\[stream is captured\]|capture mode does not support"), "aclgraph-capture-failed"),
    # torch_npu's NPUGraph (torch_npu/csrc/core/npu/NPUGraph.cpp) runs the ACL graph API under NPU_CHECK_ERROR, which prints
    # the failed call: replay() "AclmdlRIExecuteAsync(model_ri_, …)", capture_begin "AclmdlRICaptureBegin(…)", capture_end
    # "AclmdlRICaptureEnd(…)". Under a catch-all code (507000 model execute error, 500000, 507011, the runtime's Inner Error)
    # the failed call is the class: the captured ACL graph failed to begin, end or replay. A code with a cause of its own
    # (an AI Core exception, a memory fault inside the replayed graph) keeps its class.
    (("507000", "500000", "507011", "EE9999"), NPU_GRAPH_CALL, "aclgraph-capture-failed"),
    # The runtime's task timeout (107020) under a device synchronize: a collective waiting for a peer when HCCL's
    # Notify wait or an HCCL task timed out too, else the synchronize itself ran past the device timeout
    # (https://github.com/Ascend/pytorch/issues/72: raise the device sync timeout or find the rank that did not finish).
    (("107020",), lazy(r"\bEI0002\b|Notify register times out|hccl \w+ timeout"), "collective-timeout"),
    # torch_npu's own words for the same wait ("ACL stream synchronize failed, error code:107020", its host/device
    # copy after aclrtSynchronizeStreamWithTimeout): the task timeout came back from a stream synchronize.
    (("107020",), lazy(r"Synchroni[sz]e\w* execute failed, reason=\[task timeout\]|wait for compute device to finish failed"
                             r"|ACL stream synchronize failed"),
     "stream-sync-timeout"),
    # The runtime's Invalid_Argument (EE1003) for a kernel launched with 0 blocks: an empty grid (a rank or batch with
    # no work) reached rtKernelLaunch, which CANN rejects where CUDA skips the launch (triton-ascend PR 1221).
    (("EE1003",), lazy(r"value 0 for parameter (?:coreDim|blockDim|numBlocks|block_?num)\b"), "kernel-launch-empty-grid"),
    # Context null (107002, or the EE1001 printed with it) because the device could not be opened at all (set_device
    # itself failed), not because the thread never selected one.
    (("107002", "EE1001"), lazy(r"init soc version failed|New device failed|rtSetDevice\w* execut\w* failed"), "npu-set-device-failed"),
    # The runtime's Invalid_Argument (EE1001) for a call made with no current context ("rtGetDevMsg execute failed,
    # reason=[context pointer null]", CANN 8.5+ "… execution failed, the context is a null pointer", and the runtime's
    # context check "ctx is NULL!", context.hpp), printed with ACL's
    # context-null 107002: the thread never set a device (a thread that generation or a callback started), whichever
    # of the two codes the report carries first.
    (("EE1001",), lazy(r"reason=\[context pointer null\]|\bctx is NULL!|execution failed, the context is a null pointer"), "npu-device-not-set"),
    # E30008 AI CPU operator timeout on the GetNext (dataset iterator) operator: the input pipeline fed the device too slowly
    # (CANN's own E30008 text names GetNext preprocessing; troubleshooting_0145 of the CANN 8.0.RC3 maintenance guide).
    (("E30008",), lazy(r"GetNext"), "getnext-aicpu-timeout"),
    (("207005", "EE9999", "EE1001", "507000"), lazy(r"(?s)(?=.*Alloc sq cq fail|.*\b207005\b)(?=.*[Cc]apture)"), "aclgraph-stream-exhausted"),
    # The runtime's own EE1023 reasons for an ACL graph that ran out of streams or notifies (hicann/runtime
    # src/runtime/feature/aclgraph/capture_model.cc, context_aclgraph.cc: "Alloc Stream resource failed. Reason: Too many
    # streams are captured to the ACL Graph", "Alloc Notify resource failed. Reason: Too many ACL graphs are executed
    # concurrently"; the runtime FAQ docs/zh/FAQ/EE1023资源不足问题.md prints "ACL graph (model_id=N)")
    (("EE1023",), lazy(r"(?i)streams are captured to the ACL graph|ACL graphs are executed concurrently"), "aclgraph-stream-exhausted"),
    # The runtime's task timeout (507048) returned by a synchronize while HCCL's Notify wait timed out (EI0002):
    # a rank waited for a peer in a collective.
    (("507048",), lazy(r"\bEI0002\b|Notify register times out"), "collective-timeout"),
    # The runtime's STARS report of a NOTIFY_WAIT task that timed out ("notify wait timeout occurred during task execution,
    # … notify_id=N, timeout=Ns", hicann/runtime device_error_proc.cc ProcessStarsWaitTimeoutErrorInfo): a notify is how
    # HCCL ranks signal each other, so a rank waited past the execution timeout for a peer, whatever code carries it.
    (None, lazy(r"notify wait timeout occurred during task execution"), "collective-timeout"),
    # The runtime's own reason words, whichever code the chain carries first (EL0001, EE9999, EE1002 …).
    (None, lazy(r"(?i)lost heartbeat|loses the heartbeat"), "device-lost-heartbeat"),
    (None, lazy(r"(?i)stream sync(?:hroni[sz]e)? timeout"), "stream-sync-timeout"),
    (None, AICORE_TIMEOUT, "aicore-timeout"),
    # An Inner Error (EZ9999 …) whose TraceBack names the aclnn tiling step: opbase's nnopbase logs "Check
    # NnopbaseExecutorDoTiling(executor) failed" when the operator's tiling function failed (it returns
    # ACLNN_ERR_INNER_TILING_ERROR, 561002, indv_executor.cpp), the operator's own tiling says "<Op> do tiling failed".
    # The composite-op engine's "Tiling failed" / "Tiling Failed." (opbase op_run_context.h, op_kernel.h) say the same
    # under 561103 or 561000. The operator failed inside in its tiling step, one of the aclnn inner errors (561002
    # ACLNN_ERR_INNER_TILING_ERROR); an argument check it names first is read by DRV-op-params.
    (None, TILING_FAILED, "op-tiling-failed"),
    # PaddleCustomDevice runs every NPU operator through NpuOpRunner::Run, which calls aclopCompileAndExecute (CANN's
    # single-operator online compile, then run) under PADDLE_ENFORCE_NPU_SUCCESS ("ACL error, the error code is : N",
    # backends/npu/kernels/funcs/npu_op_runner.cc and npu_enforce.h). There a Graph Engine failure (500002, GE builds the
    # operator) or a catch-all 500001 from that call is the operator's online compile failing, not a bare code; the
    # same call in onnxruntime's CANN EP is ARL-E1561. 500002 in Paddle's form needs no place (GE is only reached through
    # that compile); 500001 needs the runner, the compile call or Paddle's "[operator < X > error]" beside it.
    (("500002",), lazy(r"ACL error, the error code is : 500002|aclopCompileAndExecute|npu_op_runner\.cc"), "op-compile-failed"),
    (("500001",), lazy(r"aclopCompileAndExecute|npu_op_runner\.cc|\[operator < \w+ > error\]"), "op-compile-failed"),
    # CANN's profiling codes EK0001 (Invalid_Argument, "Value %s for parameter %s is invalid. Reason: %s.") and EK0003
    # (Config_Error, "Value %s for %s is invalid. Reason: %s.") (cann_registry.yaml, the profiling module's EK class),
    # when the value refused is a path (older releases: "Path [<dir>] for [profilerResultPath] is invalid or does not
    # exist. The Path name can only contain A-Za-z0-9-_."): the profiler's output directory is missing or unwritable, or
    # its name has characters the profiler refuses.
    (("EK0001", "EK0003"), lazy(r"\bPath \[[^\]]*\] for \[|[Pp]ath name can only contain|"
                                r"(?:parameter|for) \[?\w*(?:[Pp]ath|[Dd]ir(?:ectory)?|output)\w*\]? is invalid"), "profiler-path-invalid"),
)
# What a context class is, in words, for the title of a code finding it refines.
CONTEXT_TITLES = {
    "op-no-binary": "No kernel binary for the operator (the CANN ops / kernels package is missing, incomplete or older)",
    "op-unsupported-on-soc": "The operator has no implementation for this SoC (the chip, not the installation, lacks it)",
    "bf16-unsupported-on-device": "The operator has no bfloat16 path on this chip (run the model in float16)",
    "device-lost-heartbeat": "The device stopped answering (task scheduler heartbeat lost)",
    "stream-sync-timeout": "A stream did not finish within the synchronize timeout",
    "aicore-timeout": "An AI Core / vector core kernel timed out",
    "aclgraph-capture-failed": "ACL graph capture refused an operation on a captured stream (synchronize or copy inside capture)",
    "aclgraph-stream-exhausted": "The ACL graph (NPU graph mode) ran out of device streams or notifies (too many streams captured, or too many graphs at once)",
    "kernel-launch-empty-grid": "A kernel was launched with an empty grid (0 blocks), which the NPU runtime rejects",
    "aclnn-inner-error": "The operator failed inside CANN (an aclnn inner error: its shape inference or tiling), not on a rejected argument",
    "op-tiling-failed": "The operator's tiling step failed inside CANN (an aclnn inner error), not on a rejected argument",
    "sdma-copy-failed": "A device DMA (SDMA) copy failed on the NPU (the copy engine could not read or write an address)",
    "getnext-aicpu-timeout": "The GetNext (dataset iterator) AI CPU operator timed out: input data reached the device too slowly",
    "op-compile-failed": "CANN could not compile the operator online (aclopCompileAndExecute: the single-op compile and run failed)",
    "op-input-dtype-mismatch": "An aclnn operator got an input in another dtype than the one it pairs it with (cast that input)",
    "profiler-path-invalid": "The profiler refused its output path (missing, unwritable, or a name with characters it does not accept)",
}
# Context classes that are a wait running out (one side waited for another, or for the device): like the timeout codes,
# the other side's failure is the cause, so a catch-all read as one of them stays weak.
WAIT_KINDS = frozenset({"collective-timeout", "stream-sync-timeout", "aicore-timeout", "getnext-aicpu-timeout", "hccl-init-failed"})
# Timeouts: one rank waited for another; the other rank's failure is the cause.
TIMEOUTS = {"107019", "107020", "507046", "507047", "507048", "EI0002", "EI0006", "hccl:9"}
CATCH_ALL = {"507011", "ERR99999", "500000", "500001", "500002", "500003", "500004", "507000"}
# Every CANN module's 9999 is its "Inner Error!" (EZ9999, E19999, EE9999, EI9999, EJ9999, E29999 the fusion engine's
# …): a catch-all like those above.
INNER_ERROR = lazy(r"^E[0-9A-Z]9999$")


def _weight(info: CodeInfo) -> int:
    if info.code in CATCH_ALL or INNER_ERROR.match(info.code):
        return 0
    # The driver's own code (drv.yaml lists only those that name a cause) is what the runtime / ACL code above it
    # wraps: "halGetDeviceInfo … failed, ret:87" (resource occupied) under "init soc version failed, ret = 507008".
    return {"drv": 5, "acl": 4, "hccl": 3, "dcmi": 3, "cann": 2, "torch_npu": 1}.get(info.family, 0)


def _tiling(link: Link, chain: Chain) -> bool:
    """The chain's report says the aclnn tiling step failed (nnopbase's check, the operator's own tiling line)."""
    return any(TILING_FAILED.search(t) for other in chain.links for t in (other.text, other.message, *other.detail))


# ACL's own initialisation failed, whatever code it returned (a SoC version the runtime cannot read, a driver it cannot
# open): PaddleCustomDevice's "Call aclInit(nullptr) failed : 507008" (RUNTIME_CHECK, backends/npu/runtime/runtime.cc),
# torch_npu's "NPU function error: aclInit, error code is N" (NpuSysCtrl::Initialize), a sample's "aclInit(nullptr) failed:
# 500000" (ARL-E1350 cites the first two). Read after KINDS: a code that is a class of its own (107001, an invalid device
# id) stays that class.
ACL_INIT_FAILED = lazy(r"\baclInit\b(?:\([^)]{0,20}\))?\s?:?,?\s?(?:execute )?failed\b|NPU function error: aclInit\b")


def _acl_init(link: Link, chain: Chain) -> str:
    """"acl-init-failed" when the chain's own words say aclInit failed."""
    return "acl-init-failed" if any(ACL_INIT_FAILED.search(t) for other in chain.links
                                    for t in (other.text, other.message, *other.detail)) else ""


def _context_kind(code: str, link: Link, chain: Chain) -> str:
    """The class the chain's own words give a code (a memcpy check, a stream allocation during graph capture)."""
    text = "\n".join(t for other in chain.links for t in (other.text, other.message, *other.detail))
    for codes, words, kind in CONTEXT_KINDS:
        if (codes is None or any(code == c or (c.endswith(":") and code.startswith(c)) for c in codes)) and words.search(text):
            return kind
    return ""


class ErrorCodes(Analyzer):
    id = "DRV-code"
    title = "Error code decoded from the official tables"
    family = "operator"

    def _decoded(self, link: Link) -> list[CodeInfo]:
        out = []
        for code in link.codes:
            info = decode(code)
            if info is not None:
                out.append(info)
        return out

    def _notes(self, link: Link) -> tuple[str, ...]:
        """The decoded codes, for a catalog entry naming this link (catch-alls and torch_npu tags left out)."""
        return tuple(f"code {i.summary()}" for i in self._decoded(link) if _weight(i) >= 2)[:4]

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        report = " ".join([link.message, *link.detail])
        if link.kind == "cann" and (core := AICORE.search(report)) and "operator" not in link.families:
            # The report's own words (or its code) may say the exception is a time-out: the kernel ran past its limit (a
            # hang, a wait on a peer that never came) rather than faulted.
            timed_out = bool(AICORE_TIMEOUT.search(report)) or any(KINDS.get(c) == "aicore-timeout" for c in link.codes)
            how = ("because the kernel timed out: it ran past the execution time limit instead of faulting" if timed_out else
                   "while running an operator: the kernel faulted (out-of-range address, bad input shape or dtype, or a bug "
                   "in the operator)")
            wait = ("If the kernel waits on another rank or core (a collective or point-to-point op), find the rank that "
                    "never arrived: its own error is the cause" if timed_out else
                    "If it happens during graph capture, try enforce_eager / disabling ACL graph to confirm")
            source = decode("507034" if timed_out else "507015")
            return Finding(
                CONTEXT_TITLES["aicore-timeout"] if timed_out else "AI Core / vector core exception on the device",
                f"The CANN report says the device raised an {core.group(0)} {how}. Any aclnn/stream error printed after it "
                "(507011, 507014, 507015, 507034, 507035, ERR00100) is its consequence.",
                ("Rerun with ASCEND_LAUNCH_BLOCKING=1 to find the operator (the report names it with its task and stream)",
                 "Read the device log (plog) for the operator name and the reason; try the newest CANN / vllm-ascend release that fixes the operator",
                 wait),
                evidence(link), (source.source if source else "",), key="aicore", family="operator",
                kind="aicore-timeout" if timed_out else "aicore-exception", notes=self._notes(link),
            )
        decoded = self._decoded(link)
        if not decoded:
            return None
        best = max(decoded, key=_weight)
        # Driver (EL), runtime (EE) and ACL (EH) codes are the device's; HCCL (EI) and HCCP (EJ) codes the collectives'.
        family = "device" if best.family in ("acl", "dcmi", "drv") or best.code[:2] in ("EL", "EE", "EH") else (
            "hccl" if best.family == "hccl" or best.code[:2] in ("EI", "EJ") else "operator")
        if family in link.families:
            return None  # a catalog entry of this family already explains the line; the code adds nothing
        others = [i.summary() for i in decoded if i is not best]
        cause = f"The failure carries {best.summary()}."
        if others:
            cause += " Also: " + "; ".join(others) + "."
        fix = [best.advice] if best.advice else []
        fix.append("Collect the device-side log for the failing time (ASCEND_PROCESS_LOG_PATH or ~/ascend/log/debug/plog) — it names the operator and the reason")
        sources = tuple(dict.fromkeys(i.source for i in decoded if i.source))
        context = _context_kind(best.code, link, chain)
        kind = (context or KINDS.get(best.code) or _acl_init(link, chain) or registry_kind(best.code)
                or f"code-{best.code}")
        title = f"{best.code} {best.name if best.name != best.code else ''}: {best.meaning}".replace("  ", " ")
        if kind in CONTEXT_TITLES:
            graph_call = kind == "aclgraph-capture-failed" and (call := NPU_GRAPH_CALL.search(
                "\n".join(t for other in chain.links for t in (other.text, other.message, *other.detail))))
            title = (f"The ACL graph (NPU graph mode) failed in torch_npu's {call.group(0).rstrip('(')} ({title})" if graph_call
                     else f"{CONTEXT_TITLES[kind]} ({title})")
            said = next((t for other in chain.links for t in (other.message, *other.detail) if SOC_REFUSAL.search(t)), "")
            if kind in SOC_FIXES and said:
                cause += (f" The operator's own check refuses it because of the chip: '{said.strip()[:200]}' — valid input "
                          "on other chips, a feature, dtype or shape this SoC has no kernel for.")
                fix[:0] = SOC_FIXES[kind]
                sources = (*sources, *SOC_SOURCES)
            if graph_call:
                fix.insert(0, "Run eager to confirm and to get going (vLLM / vLLM-Ascend: --enforce-eager, enforce_eager=True; "
                              "verl: actor_rollout_ref.rollout.enforce_eager=True): the captured graph, not the model, failed")
        return Finding(
            title[:160],
            cause, tuple(fix), evidence(link), sources, key=best.code, family=family, kind=kind,
            # An ACL code line read as a failure of its own (a torch_npu check or ReportCallError line whose CANN report,
            # if any, went to another writer's chain) ranks below what the report itself says.
            # A catch-all whose report names the failed tiling step stands as the 561002 it hides.
            # A catch-all whose report's own words name a class (CONTEXT_KINDS: "Op X not support soc version", "Cannot find
            # bin of op X", "captured-stream") is that class, not a bare code: it outranks a wrapper entry that names only
            # the call ("call aclnnX failed, detail:" ARL-E331) printed with it.
            weak=(_weight(best) <= 1 and not (kind in ("aclnn-inner-error", "op-tiling-failed") and _tiling(link, chain))
                  and not (context and context not in WAIT_KINDS and link.kind == "cann")) or best.code in TIMEOUTS
            or (link.kind == "code" and best.family == "acl"), notes=self._notes(link),
        )
