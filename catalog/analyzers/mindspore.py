"""MindSpore's own device checks: the backend a script asks for against the package and chip it runs on.

MindSpore states these in its own words, not CANN's, so no code table reads them:

- ``For 'set_context', package type mindspore-gpu support 'device_target' type gpu or cpu, but got Ascend.`` — the
  installed MindSpore wheel is built for other backends than the ``device_target`` the script sets (MindSpore's
  error-analysis guide, "context配置问题").
- ``The device address type is wrong: type name in address:CPU, type name in context:Ascend`` — the Ascend device
  context was handed memory of another device type (GeDeviceResManager::AllocateMemory); MindOCR's FAQ meets it on
  Ascend 310 / 310P, where MindSpore's Ascend mode does not run the computation (CPU mode or MindSpore Lite there).
- ``Ascend kernel runtime initialization failed[, device id: N]. The details refer to 'Ascend Error Message'.`` —
  AscendKernelRuntime::Init caught an error while opening the device; the reason is in the message blocks printed
  under it (a device id past the device count, device memory already taken, a driver / CANN / MindSpore mismatch).
"""

from __future__ import annotations

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

PACKAGE_TARGET = lazy(r"package type (\S+?) support 'device_target' type (.+?), but got (\w+)")
ADDRESS_TYPE = lazy(r"The device address type is wrong: type name in address:\s*(\w+), type name in context:\s*(\w+)")
RUNTIME_INIT = lazy(r"Ascend kernel runtime initialization failed(?:, device id: (\d+))?")

GUIDE = "https://github.com/mindspore-ai/docs/blob/7043271ae11fd774b0dbfb177a6257ba3afbefbf/tutorials/source_en/debug/error_analysis/mindrt_debug.md"
GE_RES = ("https://github.com/mindspore-ai/mindspore/blob/a735c3cecec02fd176aa185cb4aa3c350f42347f/mindspore/ccsrc/plugin/device/"
          "ascend/hal/hardware/ge_device_res_manager.cc")
MINDOCR_FAQ = "https://github.com/mindspore-lab/mindocr/blob/6279c79153844437aa9da88d4c93b0a1f3b60b3a/docs/en/tutorials/frequently_asked_questions.md"
RUNTIME = ("https://github.com/mindspore-ai/mindspore/blob/0436af2b0fa83a82b10ad7af2d6c9c2557eda85b/mindspore/ccsrc/plugin/device/"
           "ascend/hal/device/ascend_kernel_runtime.cc")
INSTALL = "https://www.mindspore.cn/install/en"
DIST_FAQ = "https://github.com/mindspore-ai/docs/blob/a4940d41230c500ae7721cd0c870e157d724c4f0/docs/mindspore/source_zh_cn/faq/distributed_parallel.md"


class MindSporeDevice(Analyzer):
    id = "DRV-mindspore-device"
    title = "MindSpore cannot run on the device it was set to"
    family = "device"
    stops_run = "MindSpore cannot use the device the script sets; every rerun fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        text = " ".join([link.message, *link.detail])
        if m := PACKAGE_TARGET.search(text):
            package, supported, target = m.groups()
            return Finding(
                f"The installed {package} does not run device_target={target}",
                f"{link.short_type}: {m.group(0)}. The MindSpore wheel installed ({package}) is built for {supported} only, and "
                f"the script sets device_target={target}: the backend set in the script must match the package and the "
                "hardware it runs on.",
                (f"On an Ascend machine install the MindSpore wheel built for Ascend (with the CANN it is documented with) in place "
                 f"of {package}: see MindSpore's installation page",
                 f"Or set device_target to a backend the installed package supports ({supported})"),
                evidence(link), (GUIDE, INSTALL), key=f"ms-target:{package}:{target}", family="device",
                kind="device-target-mismatch",
            )
        if m := ADDRESS_TYPE.search(text):
            address, context = m.groups()
            return Finding(
                f"MindSpore's {context} context was handed {address} memory",
                f"{link.short_type}: {m.group(0)}. The {context} device context allocates only its own device's memory and "
                f"was given a tensor address of type {address}: the device target does not fit this chip or package. On Ascend "
                "310 / 310P inference cards MindSpore's Ascend mode does not run such computation.",
                ("Check that the installed MindSpore package and version are the ones for this platform (chip and CANN)",
                 f"On Ascend 310 / 310P run the computation with device_target='CPU', or deploy with MindSpore Lite; export "
                 "MindIR files on an Ascend training device"),
                evidence(link), (GE_RES, MINDOCR_FAQ), key=f"ms-address:{address}:{context}", family="device",
                kind="device-target-mismatch",
            )
        if m := RUNTIME_INIT.search(text):
            device = m.group(1)
            on = f" on device {device}" if device else ""
            return Finding(
                f"MindSpore could not initialise the Ascend runtime{on}",
                f"{link.short_type}: {m.group(0)}. MindSpore's AscendKernelRuntime failed while opening the device{on}; the "
                "reason is in the 'Ascend Error Message' / 'Framework Error Message' blocks printed under it: a device id past "
                "the node's device count, device memory another process holds, or a driver / CANN / MindSpore set that does "
                "not match.",
                ("Read the 'Ascend Error Message' and 'Framework Error Message' blocks under the error: their code and text "
                 "say which call failed",
                 "Check with npu-smi info that the device exists, is healthy and is not used by another process; over several "
                 "nodes (msrun, dynamic networking) give each node its own hostname, or device ids are counted past the node's cards",
                 "Check that the driver / firmware, CANN and MindSpore versions are a documented set (MindSpore's installation page)"),
                evidence(link), (RUNTIME, DIST_FAQ, INSTALL), key=f"ms-runtime:{device}", family="device",
                kind="acl-init-failed",
            )
        return None
