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

MindSpore's device memory, in its allocator's own words (MindSporeDeviceMemory, read before the runtime check above,
whose message often carries one of them under "Framework Error Message"):

- ``Malloc device memory failed, free memory size is less than half of total memory size.Device N Device HBM total
  size:T Device HBM free size:F may be other processes occupying this card`` (AscendMemAdapter::Initialize: MindSpore
  takes most of the card at start-up and refuses when less than half of it is free) and ``Malloc device memory failed,
  size[S], ret[R], Device N Available HBM size:T free size:F may be other processes …`` (MallocFromRts): the card's
  memory is held by another process before this one allocated anything.
- ``Device(id:N) memory isn't enough and alloc failed, kernel name: K, alloc size: SB.`` (the graph scheduler's actors,
  ``Device memory isn't enough and alloc failed, actor name: …`` in older releases): this run's own tensors need more
  than the memory MindSpore holds on the card. The pool's own refusals, ``Out of Memory!!! Request memory size: R`` and ``TotalUsedMemStatistics : U … plus alloc size : A is more than
  total mem size : T``, are named by ARL-E652; their numbers are read here (the request, and how far past the pool).
"""

from __future__ import annotations

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
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
MEM_ADAPTER = ("https://github.com/mindspore-ai/mindspore/blob/2151611a3215715a2eec1179467da13773e81f76/mindspore/ccsrc/plugin/"
               "device/ascend/hal/device/ascend_memory_adapter.cc")
MEM_POOL = ("https://github.com/mindspore-ai/mindspore/blob/fcb5c0ac5e4bd17260163154aad0fb0a9fa45df0/mindspore/ccsrc/backend/"
            "common/mem_reuse/mem_dynamic_allocator.cc")
# pin39: not pinned: mindspore is too large to fetch here; the stored copy (f8e17f56) has the words only behind a header macro
MEM_ACTOR = "https://github.com/mindspore-ai/mindspore/blob/master/mindspore/ccsrc/runtime/graph_scheduler/actor/memory_manager_actor.cc"
# AscendMemAdapter::Initialize ("HBM", "MOC" on later chips) and MallocFromRts: the card is short before this run allocated.
CARD_HELD = lazy(r"Malloc device memory failed, (?:free memory size is less than half of total memory size\.?\s*Device (\d+) "
                 r"Device \w+ total size: ?(\d+) Device \w+ free size: ?(\d+)|size\[(\d+)\], ret\[\d+\], Device (\d+) "
                 r"Available \w+ size: ?(\d+) free size: ?(\d+))")
# The run's own allocations past what MindSpore holds, in the graph scheduler's actors' words (any release).
POOL_SHORT = lazy(r"Device(?:\(id: ?(\d+)\))? memory isn't enough and alloc failed.*?alloc size: ?(\d+)")
# The pool's own refusals, with their numbers (ARL-E652 names them; here they are read): the dynamic pool's
# "TotalUsedMemStatistics : U [plus TotalUsedByEventMemStatistics : E and ]plus alloc size : A is more than total mem size
# : T" (bytes; DynamicMemPoolBestFit::AddMemBlockAndMemBufByEagerFree) and the adapter's "Out of Memory!!! Request memory
# size: R[B], Memory Statistic: …" (AscendMemAdapter::MallocStaticDevMem / MallocDynamicDevMem).
POOL_TOTAL = lazy(r"TotalUsedMemStatistics : (\d+) (?:plus TotalUsedByEventMemStatistics : (\d+) and )?plus alloc size : (\d+) "
                  r"is more than total mem size : (\d+)")
ADAPTER_OOM = lazy(r"Out of Memory!!! Request memory size: (\d+)B?")
POOL_SOURCES = ("https://github.com/mindspore-ai/mindspore/blob/01ee00b57d0ba3d540d4b0e53d24f087626a4887/mindspore/ccsrc/"
                "backend/common/mem_reuse/mem_dynamic_allocator.cc",
                "https://github.com/mindspore-ai/mindspore/blob/01062fb3f2b85215b8acffc65b4cfe90a8cf8290/mindspore/ccsrc/"
                "plugin/device/ascend/hal/device/ascend_memory_adapter.cc")
POOL_FIXES = (
    "Lower what one card holds: a smaller batch size or sequence length, recomputation, more model / data parallel "
    "devices, or a smaller model / lower precision",
    "If max_device_memory is set in set_context (or mindspore.runtime.set_memory), raise it towards the card's size; check "
    "with npu-smi info that no other process shares the card",
)
DIST_FAQ = "https://github.com/mindspore-ai/docs/blob/a4940d41230c500ae7721cd0c870e157d724c4f0/docs/mindspore/source_zh_cn/faq/distributed_parallel.md"


def _gib(value: str | None) -> str:
    return f"{int(value) / 1024**3:.2f} GiB" if value else "?"


class MindSporeDeviceMemory(Analyzer):
    """MindSpore's device memory: the card held by another process, or this run's tensors past MindSpore's pool."""

    id = "DRV-mindspore-memory"
    title = "MindSpore is out of device memory"
    family = "memory"
    stops_run = "MindSpore raises when its device memory cannot be allocated; the step does not go on"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = " ".join([link.message, *link.detail])
        if m := CARD_HELD.search(text):
            device = m.group(1) or m.group(5)
            total, free = (m.group(2), m.group(3)) if m.group(1) is not None else (m.group(6), m.group(7))
            return Finding(
                f"NPU {device}'s memory is held by another process (MindSpore found {_gib(free)} free of {_gib(total)})",
                f"{link.short_type}: {m.group(0)[:220]}. When MindSpore opens the card it reserves most of its memory for its "
                f"own pool, and refuses when less than half of the card is free (or the reservation itself fails): only "
                f"{_gib(free)} of device {device}'s {_gib(total)} was free before this run allocated anything, so another "
                "process (a leftover or concurrent training / inference job, or a second process of this job on the same "
                "device) holds the card.",
                (f"Check the card with npu-smi info: stop the process that holds device {device}, or run on an idle device "
                 "(DEVICE_ID / device_id in set_context, ASCEND_RT_VISIBLE_DEVICES)",
                 "If several processes of one job share a card (data-processing workers running Ascend operators, two "
                 "launches with the same device id), give each its own device or run those operators on the CPU"),
                evidence(link), (MEM_ADAPTER, GUIDE), key=f"ms-card-held:{device}", family="memory",
                kind="npu-memory-occupied",
            )
        if finding := self._pool_numbers(link, text):
            return finding
        if m := POOL_SHORT.search(text):
            size = m.group(2)
            return Finding(
                f"MindSpore's device memory pool is exhausted (an allocation of {_gib(size)} failed)",
                f"{link.short_type}: {m.group(0)[:220]}. MindSpore could not place a {_gib(size)} tensor in the device memory it "
                f"holds on the card: this run's weights, activations and workspaces need more device memory than "
                "the card (or max_device_memory) gives it.",
                POOL_FIXES, evidence(link), (MEM_ACTOR, MEM_POOL, MEM_ADAPTER), key=f"ms-pool:{size}", family="memory",
                kind="npu-oom",
            )
        return None

    @staticmethod
    def _pool_numbers(link: Link, text: str) -> Finding | None:
        """The pool's refusal with its numbers: how far past the pool the request went."""
        if m := POOL_TOTAL.search(text):
            used, events, alloc, total = (int(g or 0) for g in m.groups())
            short = used + events + alloc - total
            said = (f"MindSpore's dynamic pool had {used / 1024**3:.2f} GiB in use"
                    + (f" (and {events / 1024**3:.2f} GiB held by events)" if events else "")
                    + f" of its {total / 1024**3:.2f} GiB and was asked for {alloc / 1024**3:.2f} GiB more: "
                    f"short by {short / 1024**3:.2f} GiB")
            key = f"ms-pool-total:{total}"
        elif m := ADAPTER_OOM.search(text):
            # The card's size and the pool's follow on lines of their own (DevMemStatistics), not part of the message.
            said = f"MindSpore's memory adapter could not place a {int(m.group(1)) / 1024**3:.2f} GiB block in its pool"
            key = f"ms-adapter:{m.group(1)}"
        else:
            return None
        return Finding(
            "MindSpore's device memory pool is exhausted",
            f"{link.short_type}: {m.group(0)[:220]}. {said}: this run's weights, activations and workspaces need more device "
            "memory than the pool MindSpore holds on the card.",
            POOL_FIXES, evidence(link), (*POOL_SOURCES, MEM_ACTOR), key=key, family="memory", kind="npu-oom",
            notes=(said,),
        )


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
