"""CANN runtime reports whose own words name the mechanism, whatever code (107000, 207000, EE1001, 361001) carries them.

- The kernel binary has no function for the entry asked for: the runtime's ``BinaryGetFunctionByEntry failed,
  funcEntry=<n>`` (hicann/runtime api_impl.cc, ``ApiImpl::BinaryGetFunctionByEntry``: the program holds no kernel for
  that tiling key, RT_ERROR_INVALID_VALUE, i.e. 107000 / EE1001) and the aclnn engine's line over it,
  ``aclrtBinaryGetFunctionByEntry failed, kernel name: <op>, tiling key: <n>`` (hicann/opbase op_kernel.cpp, errno
  361001). The installed operator binary (the CANN ops package, or a custom op's build) lacks the kernel variant the
  op's tiling chose: a kernel-binary problem (op-no-binary), not a rejected argument, whatever the aclnn call's
  generic code (ERR00100, 107000) says.
- The runtime refusing a feature (RT_ERROR_FEATURE_NOT_SUPPORT, ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000):
  FuncErrorReason's ``<rtApi> execution failed, the feature is not supported.`` (older releases ``<rtApi> execute
  failed, reason=[feature not support]``, hicann/runtime error_message_manage.cc). Which call was refused decides the
  cause: the device-message query the runtime makes to read the SoC version (``rtGetDevMsg``, with ``chipType=<t> does
  not support get device msg feature`` and ``init soc version failed``) means the runtime could not identify the chip
  (soc-version-undetected); any other runtime feature (a stream mode, stream flags) is one the installed driver does not
  provide to this CANN release (npu-driver-too-old).
- An aclnn call whose whole detail is a module's catch-all ``Inner Error!`` (op-plugin's ``call aclnnX failed,
  detail:EZ9999: Inner Error!`` with no report under it): the operator failed inside CANN (aclnn-inner-error); a report
  that says more (a missing binary, the SoC, the tiling step) is read by the entries and DRV-code instead.
"""

from __future__ import annotations

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from .codes import KINDS
from ...lazyre import lazy

RT_API_IMPL = "https://github.com/hicann/runtime/blob/bebebfae909b83521327d0eab194a58e5dd8af79/src/runtime/api/impl/api_impl.cc"
OPBASE_KERNEL = "https://github.com/hicann/opbase/blob/v9.1.0.pre/src/nnopbase/composite_op/aclnn_engine/op_kernel.cpp"
RT_ERROR_REASON = "https://github.com/hicann/runtime/blob/v9.1.0/src/runtime/core/src/common/error_message_manage.cc"
RT_ERROR_CODES = "https://github.com/hicann/runtime/blob/v9.0.1/docs/api_docs/aclError.md"
RT_API_ERROR = "https://github.com/hicann/runtime/blob/v8.5.0/src/runtime/feature/src/api_impl/api_error.cc"

# The runtime's and the aclnn engine's words for a kernel function the loaded binary does not hold.
# Newer runtimes word the first as the registry's EE1011 template ("%s failed. Value %s for parameter %s is invalid.
# Reason: %s.", cann_registry.yaml) behind the function's name: "BinaryGetFunctionByEntry:… failed. Value N for parameter
# funcEntry is invalid."
FUNC_MISSING = lazy(r"\bBinaryGetFunctionByEntry failed, funcEntry=(\d+)"
                    r"|aclrtBinaryGetFunctionByEntry failed, kernel name: (\w+), tiling key: (\d+)"
                    r"|\bBinaryGetFunctionByEntry\b.{0,160}? failed\. Value (\d+) for parameter funcEntry is invalid")
# FuncErrorReason for RT_ERROR_FEATURE_NOT_SUPPORT, both wordings; the runtime's chip-feature check under it.
FEATURE = lazy(r"\b(rt\w+) (?:execution failed, the feature is not supported|execute failed, reason=\[feature not support\])")
CHIP_FEATURE = lazy(r"\bchipType=(\w+) does not support ([\w ]+?) feature")
SOC_QUERY = lazy(r"\brtGetDevMsg\b|init soc version failed|get device msg")

# The links a runtime report can reach the analyzers through: its own CANN lines, a coded line, or the Python exception
# (local, remote, bare) that carries it.
REPORTING_KINDS = ("cann", "code", "python", "remote", "bare")


def _texts(chain: Chain) -> list[str]:
    return [t for other in chain.links for t in (other.text, other.message, *other.detail) if t]


class KernelFunctionMissing(Analyzer):
    """The operator's kernel binary has no function for the entry (tiling key) its tiling selected."""

    id = "DRV-op-kernel-function-missing"
    title = "The operator's kernel binary has no function for the selected tiling key"
    family = "operator"
    stops_run = "the operator's kernel is missing from the installed binary; every call that selects it fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in REPORTING_KINDS:
            return None
        matches = [m for t in _texts(chain) if (m := FUNC_MISSING.search(t))]
        if not matches:
            return None
        found = next((m for m in matches if m.group(2)), matches[0])  # the aclnn engine's line names the kernel
        kernel = found.group(2) or ""
        entry = found.group(1) or found.group(3) or found.group(4)
        what = f"kernel {kernel}, tiling key {entry}" if kernel else f"funcEntry {entry}"
        return Finding(
            f"No kernel function in the operator binary for {what}"[:160],
            (f"The CANN runtime could not get the kernel function for {what}: the operator's loaded binary holds no kernel "
             "for the entry (tiling key) its tiling chose (BinaryGetFunctionByEntry, RT_ERROR_INVALID_VALUE 107000; the aclnn "
             "engine reports it as errno 361001). The installed kernel binary lacks this variant: the CANN ops/kernels package "
             "does not ship it for this chip, dtype or shape, is older than the toolkit, or a custom operator was built (or "
             "installed over an older build) without the kernel its tiling selects. The aclnn call's own code (ERR00100, "
             "107000, 'parameter verification failed') is its consequence, not a rejected argument."),
            ("Install the CANN ops/kernels package built for this chip and of exactly the toolkit's version, then source set_env.sh again",
             "For a custom operator: rebuild it cleanly for this SoC with every tiling key its tiling can select, remove older installed "
             "copies (opp/vendors) and reinstall",
             "If the op is a built-in aclnn operator on a new chip, check the CANN release notes for its support there; cast to a "
             "supported dtype meanwhile"),
            evidence(link), (RT_API_IMPL, OPBASE_KERNEL), key=f"func:{kernel or entry}", family="operator",
            kind="op-no-binary",
        )


class RuntimeFeatureUnsupported(Analyzer):
    """A runtime call refused with "feature not supported" (207000): the call names what the driver or chip lacks."""

    id = "DRV-rt-feature"
    title = "The CANN runtime refused a feature the driver or chip does not provide"
    family = "device"
    stops_run = "the runtime refuses the feature at initialisation, the same way on every retry"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in REPORTING_KINDS:
            return None
        if any(code in KINDS for other in chain.links for code in other.codes):
            # a code with a class of its own names why the query failed (the driver's EL0005: the device is busy, so it
            # answered no SoC version): the refusal is its consequence, DRV-code reads it
            return None
        texts = _texts(chain)
        feature = next((m for t in texts if (m := FEATURE.search(t))), None)
        chip = next((m for t in texts if (m := CHIP_FEATURE.search(t))), None)
        if feature is None and chip is None:
            return None
        api = feature.group(1) if feature else ""
        soc = (chip is not None and "device msg" in chip.group(2)) or (api and SOC_QUERY.search(api)) or (
            feature is not None and any("init soc version failed" in t for t in texts))
        if soc:
            chip_type = chip.group(1) if chip else "unknown"
            return Finding(
                "The CANN runtime could not read the SoC version (device-message query not supported)",
                (f"The runtime's query of the device for its SoC version ({api or 'rtGetDevMsg'}) was refused as an unsupported "
                 f"feature (chipType={chip_type}): the runtime could not identify the chip it runs on, so aclInit / set_device "
                 "fails (207000 feature not supported, reported as EE1001; aclInit returns it as 500000). chipType 0 is "
                 "what the runtime has when the driver's library (libascend_hal.so) answered no SoC version: no NPU driver on "
                 "this machine or container (only the toolkit's stub library on the path), a driver too old for this CANN "
                 "release, or a chip this CANN release does not know."),
                ("Run npu-smi info where the program runs (inside the container too): it must list the chip; mount the driver "
                 "(/usr/local/Ascend/driver, the davinci devices) into the container and keep the toolkit's stub libraries off "
                 "LD_LIBRARY_PATH at run time",
                 "Install a CANN toolkit built for this chip and an NPU driver/firmware at least as new as that CANN release needs"),
                evidence(link), (RT_ERROR_REASON, RT_ERROR_CODES), key=f"soc:{chip_type}", family="device",
                kind="soc-version-undetected",
            )
        return Finding(
            f"The NPU driver does not support {api or 'a runtime feature'} that this CANN release uses",
            (f"The CANN runtime refused {api or 'a call'} as a feature not supported (ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000): "
             "the runtime of this CANN release asked the driver for a capability (a stream mode, stream flags) that the "
             "installed NPU driver does not provide. The driver is older than this CANN / framework release requires."),
            ("Upgrade the NPU driver and firmware to the version the CANN release notes pair with this toolkit (or install the "
             "CANN / framework release that matches the installed driver)",
             "Compare the versions: npu-smi info (driver) against cat /usr/local/Ascend/ascend-toolkit/latest/*/ascend_toolkit_install.info"),
            evidence(link), (RT_ERROR_REASON, RT_ERROR_CODES), key=f"feature:{api}", family="device",
            kind="npu-driver-too-old",
        )


# op-plugin's EXEC_NPU_CMD message (op_plugin/utils/op_api_common.h, "call " #aclnn_api " failed, detail:%s" with CANN's
# recent error message) when that message is only a module's catch-all "Inner Error!" (EZ9999, cann_registry.yaml): the
# operator failed inside CANN and the report says nothing more (no missing binary, no SoC, no argument check).
OP_API_COMMON = "https://github.com/Ascend/op-plugin/blob/v5.0.0/op_plugin/utils/op_api_common.h"
INNER_ONLY = lazy(r"\bcall (aclnn\w+) failed, detail:\s*(E[0-9A-Z]9999): Inner Error!?\s*$")


class AclnnInnerErrorOnly(Analyzer):
    """An aclnn call whose whole detail is CANN's catch-all Inner Error, with no report under it."""

    id = "DRV-aclnn-inner-error"
    title = "An aclnn operator failed inside CANN (Inner Error, no further report)"
    family = "operator"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare") or len(chain.links) != 1 or link.detail:
            return None
        found = INNER_ONLY.search(link.message)
        if found is None:
            return None
        op, code = found.groups()
        return Finding(
            f"{op} failed inside CANN ({code} Inner Error)",
            (f"torch_npu's call to {op} failed and CANN's message for it is only {code} 'Inner Error!': the operator failed "
             "inside CANN (its shape inference, tiling or launch), not on an argument check that would name the input, and "
             "not for a missing kernel binary, which CANN reports in words ('Cannot find binary', 'does not has any binary'). "
             "The device log (plog) of that moment has the operator's own error lines."),
            ("Collect the plog for the failing time (ASCEND_PROCESS_LOG_PATH, or rerun with ASCEND_SLOG_PRINT_TO_STDOUT=1 "
             "ASCEND_GLOBAL_LOG_LEVEL=3) and read the operator's error lines under the Inner Error",
             "Check that the operator supports this model's shapes, dtypes and quantisation on this chip in the installed CANN / "
             "vllm-ascend release; try the newest release that fixes the operator"),
            evidence(link), (OP_API_COMMON,), key=f"inner:{op}", family="operator", kind="aclnn-inner-error",
        )


# torch_npu's NPU_CHECK_ERROR (torch_npu/csrc/core/npu/NPUException.h) does not raise when a runtime call returns
# ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) with no device error message: it prints, once per process, "Feature is not
# supported and the possible cause is that driver and firmware packages do not match." (ARL-E307) and goes on as if the call
# had worked. What the refused call should have set up is then missing, and a later step fails on a broken invariant whose
# words name no cause of their own: the aclnn engine's second phase finding no executor (nnopbase's
# NNOPBASE_ASSERT_NOTNULL_RETVAL(executor), "Assert ((executor) != nullptr) failed", EZ1001 / 161001: the first phase made
# none), or a TORCH_INTERNAL_ASSERT inside torch_npu ("... INTERNAL ASSERT FAILED at \"build/CMakeFiles/torch_npu.dir/
# compiler_depend.ts\":N, please report a bug to PyTorch"). Printed after that warning, in the same file, those are its
# consequence. A failure with words of its own (an argument check, out of memory, a code with a class) is left to its readers.
NPU_EXCEPTION = "https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/torch_npu/csrc/core/npu/NPUException.h"
NNOPBASE_API = "https://github.com/hicann/opbase/blob/v9.0.1/src/nnopbase/individual_op/api/individual_op_api.cpp"
NNOPBASE_ASSERT = "https://github.com/hicann/opbase/blob/v9.0.1/src/nnopbase/individual_op/utils/indv_debug_assert.h"
NULL_EXECUTOR = lazy(r"Assert \(\(executor\) != nullptr\) failed")
PARAM_CHECK = lazy(r"\bEZ1001\b|\b161001\b")
NPU_INTERNAL_ASSERT = lazy(r"INTERNAL ASSERT FAILED at \"?[^\"\n]*(?:torch_npu|compiler_depend\.ts)")


class AfterRefusedFeature(Analyzer):
    """A null aclnn executor or a torch_npu internal assert after torch_npu's warning that a runtime call was refused as
    unsupported (driver and firmware not matching the CANN / torch_npu release)."""

    id = "DRV-after-refused-feature"
    title = "A runtime feature refused earlier (driver and firmware packages do not match) made a later NPU call fail"
    family = "cann-env"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if facts.feature_refused is None or link.kind not in REPORTING_KINDS:
            return None
        file, line = facts.feature_refused
        if link.file != file or link.line <= line:
            return None
        texts = _texts(chain)
        if any(CAPTURE_NOT_ACTIVE.search(t) for t in texts):
            return None  # the capture-begin assert has its own reading (CaptureRefused)
        found = next((m for t in texts if (m := NULL_EXECUTOR.search(t) or NPU_INTERNAL_ASSERT.search(t))), None)
        if found is None:
            return None
        if any(PARAM_CHECK.search(t) and not NULL_EXECUTOR.search(t) for t in texts):
            return None  # an operator's own argument check (EZ1001 / 161001 with its words) states the cause itself
        what = ("the aclnn engine found no executor for the operator ('Assert ((executor) != nullptr) failed': its first "
                "phase made none)" if "executor" in found.group(0) else
                "an internal assertion inside torch_npu failed")
        return Finding(
            "A runtime call refused as unsupported (driver and firmware packages do not match) broke a later NPU call",
            ("torch_npu warned earlier in this log that a runtime call was refused as a feature not supported, the possible "
             "cause being driver and firmware packages that do not match (ACL_ERROR_RT_FEATURE_NOT_SUPPORT 207000, which "
             "torch_npu reports once and then goes on as if the call had worked). What that call should have set up is "
             f"missing, and a later step failed on it: {what}. The failure names no cause of its own; the refused feature is "
             "it: the installed NPU driver / firmware do not provide what this CANN and torch_npu release use."),
            ("Check the driver and firmware pair: npu-smi info -t board -i 0 (or /usr/local/Ascend/driver/version.info and "
             "/usr/local/Ascend/firmware/version.info), and upgrade both together to the HDK release that this CANN release's "
             "notes pair with it",
             "Or install the CANN / torch_npu (vllm-ascend image) release that matches the installed driver and firmware"),
            evidence(link), (NPU_EXCEPTION, NNOPBASE_API, NNOPBASE_ASSERT), key=f"refused:{found.group(0)[:24]}",
            family="cann-env", kind="npu-driver-firmware-mismatch",
        )


# The runtime's own words for a call refused because its stream is being captured (ACL graph capture), as a paste carries
# them without the code under which the runtime returned them (107027 ACL_ERROR_RT_STREAM_CAPTURED, 107030): the
# StreamSynchronize check's "Not allow to synchronize captured-stream, stream_id=N." (api_error.cc) and FuncErrorReason's
# "reason=[stream is captured]" / "the current capture mode does not support this operation" (error_message_manage.cc).
# With a code in the chain DRV-code reads the same words (codes.CONTEXT_KINDS); this reads the sentence pasted alone.
CAPTURE_REFUSED = lazy(r"Not allow to synchronize captured-stream|reason=\[stream is captured\]|the current capture mode does not support this operation")


# torch_npu's NPUGraph::capture_begin (torch_npu/csrc/core/npu/NPUGraph.cpp) calls AclmdlRICaptureBegin, reads the stream's
# capture status back with AclmdlRICaptureGetInfo and asserts it is ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
# (TORCH_INTERNAL_ASSERT, printed as "status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE INTERNAL ASSERT
# FAILED at …"): the runtime accepted the capture begin but the stream is not capturing, so ACL graph capture (vLLM-Ascend's
# default ACLGraph mode, torch.npu.graph) cannot work with this runtime and device.
CAPTURE_NOT_ACTIVE = lazy(r"ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE INTERNAL ASSERT FAILED")
NPU_GRAPH = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/torch_npu/csrc/core/npu/NPUGraph.cpp"
GRAPH_MODE = "https://docs.vllm.ai/projects/ascend/en/v0.11.0/user_guide/feature_guide/graph_mode.html"


class CaptureRefused(Analyzer):
    """The runtime refused a synchronize or a blocking copy on a stream under ACL graph capture, pasted without its code;
    or torch_npu's capture begin found the stream not capturing (the capture never started)."""

    id = "DRV-rt-capture-refused"
    title = "ACL graph capture failed: the runtime refused a synchronize or copy on a captured stream, or capture did not start"
    family = "operator"
    stops_run = "the captured forward issues the same synchronize on every capture; the run cannot finish start-up"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in REPORTING_KINDS:
            return None
        if any(CAPTURE_NOT_ACTIVE.search(t) for t in _texts(chain)):
            return _capture_not_active(link)
        if any(other.codes for other in chain.links):
            return None  # with a code, DRV-code reads these words as the code's class
        found = next((m for t in _texts(chain) if (m := CAPTURE_REFUSED.search(t))), None)
        if found is None:
            return None
        return Finding(
            "ACL graph capture refused a synchronize or blocking copy inside the captured region",
            (f"The CANN runtime says '{found.group(0)}': while a stream is being captured into an ACL graph (vLLM-Ascend / "
             "torch_npu graph mode, aclmdlRICaptureBegin), the code being captured asked for a stream or device "
             "synchronize, or a blocking host/device copy (a .cpu(), .item(), .tolist(), torch.all() on a device tensor, a "
             "non-pinned copy), which the runtime refuses during capture (107027 stream captured, 107030 capture mode does "
             "not support the operation). The operation sits in the model's captured forward: a custom op, a mask or "
             "metadata builder, or a patch that reads a device value on the host."),
            ("Run eager to confirm (vLLM: --enforce-eager) and find the operation from the traceback above the error",
             "Move the host read or synchronize out of the captured forward (compute it in the metadata / input "
             "preparation step), or use the release of the framework that made that path capture-safe"),
            evidence(link), (RT_API_ERROR, RT_ERROR_REASON), key=f"capture:{found.group(0)[:20]}", family="operator",
            kind="aclgraph-capture-failed",
        )


def _capture_not_active(link: Link) -> Finding:
    """torch_npu's capture begin found the stream not capturing after the runtime accepted aclmdlRICaptureBegin."""
    return Finding(
        "ACL graph capture did not start on this NPU stream (torch_npu capture_begin: status not ACTIVE)",
        ("torch_npu's NPUGraph.capture_begin asked the CANN runtime to begin capturing the stream into an ACL graph "
         "(aclmdlRICaptureBegin), then read the capture status back and found it not ACTIVE: the runtime returned "
         "success but is not capturing. ACL graph capture (vLLM-Ascend's default ACLGraph mode, torch.npu.graph) does "
         "not work with the installed CANN runtime / driver on this device, so the first graph capture at start-up "
         "fails; the model itself is not at fault."),
        ("Run eager to confirm and to get going: vLLM / vLLM-Ascend --enforce-eager (enforce_eager=True), or drop "
         "torch.npu.graph capture from the script",
         "Check that the CANN toolkit and the NPU driver are releases the vLLM-Ascend / torch_npu in use documents for "
         "this chip with graph mode; upgrade the pair, or keep the chip in eager mode where graph mode is not offered"),
        evidence(link), (NPU_GRAPH, GRAPH_MODE), key="capture-not-active", family="operator",
        kind="aclgraph-capture-failed",
    )
