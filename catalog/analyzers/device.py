"""The process asked for a device it cannot have: an id outside the visible set, or a CUDA device.

- Visible devices: ``ASCEND_RT_VISIBLE_DEVICES`` (and the container's ``ASCEND_VISIBLE_DEVICES``)
  renumber the NPUs a process sees from 0. An id at or past the number visible fails as "Set visible
  device failed, invalid device=N", "Invalid device id", "invalid device ordinal", ``rtSetDevice …
  device id error`` or runtime code 107001, however the release words it. The ids the log names are
  compared with the visible set the log exports.
  torch_npu's device-property lookup words it "device=N, num_npus=M" (Module.cpp GetDeviceProperties,
  https://github.com/Ascend/pytorch/blob/v7.3.1-pytorch2.9.0/torch_npu/csrc/npu/Module.cpp) and vllm-ascend's
  endpoint setup "local_rank N is out of bounds for the available NPU devices: [ids]" (vllm_ascend/utils.py,
  https://github.com/vllm-project/vllm-ascend/blob/182b75ea84ff13ece27b57391331ef8935410aea/vllm_ascend/utils.py),
  verl's vLLM rollout "device_id N must less than [visible ids]" (get_device_uuid,
  https://github.com/verl-project/verl/blob/0a2e3b982d4f2496b0716d08a1adc2dca2894e80/verl/workers/rollout/vllm_rollout/utils.py).
- CUDA on an NPU host: torch's own CUDA checks ("Torch not compiled with CUDA enabled", "Found no
  NVIDIA driver", "No CUDA GPUs are available") mean code asked for ``cuda`` — the frame that did is
  the one to change (or torch_npu's transfer_to_npu maps it).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

# The runtime's own words for a device id past the visible set, as the CANN 8.x / 9.x runtime logs them
# (hicann/runtime 681ef76 src/runtime/core/src/runtime.cc GetDeviceIdByUserDevId): "input userDevId:%u is err,
# userDeviceCnt:%u, real deviceCnt:%u isSetVisibleDev:%d ASCEND_RT_VISIBLE_DEVICES:[%s], available visible devices:[%s]",
# and its user-facing EE1003 ("Obtaining the logical device ID based on the user device ID failed because value %u for
# parameter userDevId is invalid. Expected value: [0, N)."): groups 5-7 and 8-9.
INVALID = lazy(
    r"Set visible device failed, invalid device=(\d+), input visible devices:\s*([\d,]*)"
    r"|set ASCEND_RT_VISIBLE_DEVICES:(\S*) error"
    r"|\bInvalid device id\b|\binvalid device ordinal\b|reason=\[?device id error|open device (\d+) failed, runtime result = 107001"
    r"|input userDevId:(\d+) is err, userDeviceCnt:(\d+), real deviceCnt:\d+ isSetVisibleDev:\d+ ASCEND_RT_VISIBLE_DEVICES:\[([^\]]*)\]"
    r"|failed because value (\d+) for parameter userDevId is invalid\. Expected value: \[0, (\d+)\)"
    # torch_npu's caching allocator (NPUCachingAllocator.cpp assertValidDevice, behind torch.npu.memory_allocated(),
    # max_memory_allocated(), memory_stats(), empty_cache on a device): an index at or past the visible count (group 10).
    r"|Invalid device argument (\d+): did you call init\?"
    # torch_npu's GetDeviceProperties (torch_npu/csrc/npu/Module.cpp, behind torch.npu.get_device_properties(i) /
    # get_device_name(i) / get_device_capability(i)): TORCH_CHECK(deviceid >= 0 && deviceid < num_npus, "device=", id,
    # ", num_npus=", count) (groups 11-12); vllm-ascend's setup_ascend_local_comm_res (vllm_ascend/utils.py): "local_rank N
    # is out of bounds for the available NPU devices: [ids]" (groups 13-14).
    r"|\bdevice=(-?\d+), num_npus=(\d+)"
    r"|\blocal_rank (-?\d+) is out of bounds for the available NPU devices: \[([\d, ]*)\]"
    # verl's vLLM rollout get_device_uuid (verl/workers/rollout/vllm_rollout/utils.py): "device_id N must less than
    # ['0', '1']" (the visible list, group 16) or, in a platform plugin's form, "... must less than 2" (group 17).
    r"|\bdevice_id (\d+) must less than (?:\[([^\]]*)\]|(\d+)\b)"
    # torch_npu's caching allocator on a device index past its per-device allocators (NPUCachingAllocator.cpp malloc /
    # getMemoryFraction / setMemoryFraction, behind torch.npu.set_per_process_memory_fraction(f, device) and every
    # allocation on npu:N): TORCH_INTERNAL_ASSERT "Allocator not initialized for device N: did you call init?" (group 18;
    # PyTorch's CUDACachingAllocator words it the same); torch_npu's stream pool (NPUStream.cpp check_npu, behind
    # torch.npu.current_stream(N) / Stream(device=N)): "Invalid device_index : N, valid device_index range is [0, M)"
    # (groups 19-20); torch_npu.npu.can_device_access_peer: "Invalid peer device id".
    r"|Allocator not initialized for device (\d+): did you call init\?"
    r"|Invalid device_index ?: ?(-?\d+), valid device_index range is \[0, (\d+)\)"
    r"|\bInvalid peer device id\b"
    # the allocator's device check as torch_npu v2.1.0-5.0.0 (and torch 1.x's CUDA allocator) worded it:
    # AT_ASSERTM(0 <= device && device < device_num, "Invalid device argument.")
    r"|0 <= device && device < device_num INTERNAL ASSERT FAILED|\bInvalid device argument\.",
    re.I,
)
CUDA = lazy(
    r"Torch not compiled with CUDA enabled|Found no NVIDIA driver on your system|No CUDA GPUs are available"
    r"|(Distributed package doesn't have NCCL built in)|(Attempting to deserialize object on a CUDA device)"
    # torch_npu.npu's device-index helper (torch_npu/npu/utils.py _get_device_index, behind torch.npu.set_device,
    # memory_allocated, get_device_properties, Stream ...) handed a cuda device: code written for CUDA called the
    # torch.npu API (or transfer_to_npu mapped the call but not its device argument).
    r"|Expected a npu (?:or cpu )?device, but got: cuda"
    # ltonpu: the mirror in torch itself (torch/cuda/_utils.py _get_device_index, behind torch.cuda.set_device,
    # current_stream, get_device_properties, mem_get_info ...; the same text from torch 1.x's str.format to 2.x's
    # f-string) handed an npu device: code written for CUDA called torch.cuda.* with the NPU device it was given.
    r"|Expected a cuda (?:or cpu )?device, but got: npu"
)
TORCH_NPU_ENV = "https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/maintenref/envvar/envref_07_0149.html"
TRANSFER = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/torch_npu/contrib/transfer_to_npu.py"
TORCH_CUDA = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/cuda/__init__.py"
# torch_npu.npu._get_device_index ("Expected a npu device, but got: ...")
TORCH_NPU_UTILS = "https://github.com/Ascend/pytorch/blob/v7.3.1-pytorch2.7.1/torch_npu/npu/utils.py"
TORCH_CUDA_UTILS = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/cuda/_utils.py"
TORCH_DIST = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/distributed/distributed_c10d.py"
TORCH_LOAD = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/serialization.py"
# "No CUDA GPUs are available" is a CUDA build of torch finding no device (c10/cuda/CUDAFunctions.cpp,
# device_count_ensure_non_zero); the CPU build an Ascend host runs says "Torch not compiled with CUDA enabled" instead.
# Inside a Ray task or actor that asked for no GPU, Ray sets CUDA_VISIBLE_DEVICES='' for the worker, so torch sees none
# on a machine that has them (vllm-project/vllm PR 3198 on an engine built in a num_gpus=0 actor).
TORCH_NO_GPU = "https://github.com/pytorch/pytorch/blob/v2.1.0/c10/cuda/CUDAFunctions.cpp"
RAY_NO_GPU = "https://github.com/vllm-project/vllm/pull/3198"
RAY_ACCEL = "https://docs.ray.io/en/latest/ray-core/scheduling/accelerators.html"
# verl computes rewards in Ray workers that ask for a CPU only: the TaskRunner (main_ppo.py, @ray.remote(num_cpus=1)) that
# loads the reward manager and the custom reward function, compute_reward_async (ppo/reward.py, @ray.remote(num_cpus=1)),
# and from the reward loop on its RewardComputeWorker (experimental/reward_loop/reward_manager/remote.py, the same). Code
# in a reward function that asks for a device there gets none: "No CUDA GPUs are available" from a reward function is
# that CPU-only worker, whether or not the paste kept Ray's wrapper around it.
VERL_TASK_RUNNER = "https://github.com/verl-project/verl/blob/8fdc4d3f202f41461f4de9f42a637228e342668b/verl/trainer/main_ppo.py"
VERL_REWARD_ASYNC = "https://github.com/verl-project/verl/blob/8fdc4d3f202f41461f4de9f42a637228e342668b/verl/trainer/ppo/reward.py"
# A reward function named in the failure's own words (an issue title, a traceback's message) or a frame in a reward module.
# ASCII word boundaries ((?a)), so the name counts where a Chinese sentence runs into it ("在reward_function里面").
REWARD_CODE = lazy(r"(?ai)\breward[ _]?(?:function|fn|func|manager|model)s?\b|\bcompute_score\b|\bcustom_reward|奖励函数")


def _in_ray_worker(link: Link, chain: Chain) -> bool:
    """The exception was raised in a Ray task or actor: Ray's remote traceback, or a Ray error wrapping it."""
    return link.kind == "remote" or any(
        other.kind == "remote" or other.inner or other.short_type in ("RayTaskError", "ActorDiedError", "RayActorError")
        for other in chain.links)


def _in_reward_code(link: Link) -> bool:
    """The failure names a reward function (its message, or the words a paste puts before it on its line) or passes
    through a reward module (a frame's path)."""
    # ltonpu: also the person's words before the exception on its line in a paste ("在reward_function里面定义model，会报错
    # `RuntimeError: No CUDA GPUs are available`"), which name where the code ran as an issue title does
    return (bool(REWARD_CODE.search(link.message)) or bool(link.lead and REWARD_CODE.search(link.lead))
            or any("reward" in f.path.lower() for f in link.frames))


def visible(facts: Facts) -> tuple[str, str] | None:
    for name in ("ASCEND_RT_VISIBLE_DEVICES", "ASCEND_VISIBLE_DEVICES"):
        if (value := facts.versions.get(f"env:{name}")) is not None:
            return name, value
    return None


class DeviceVisibility(Analyzer):
    id = "DRV-device"
    title = "The process asked for an NPU outside its visible devices"
    family = "device"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare", "cann"):
            return None
        m = next((m for t in (link.message, *link.detail) if (m := INVALID.search(t))), None)
        if m is None:
            return None
        device = (m.group(1) or m.group(4) or m.group(5) or m.group(8) or m.group(10) or m.group(11) or m.group(13)
                  or m.group(15) or m.group(18) or m.group(19))
        shown = m.group(2) if m.group(2) is not None else (
            m.group(3) or m.group(7) or re.sub(r"[\s'\"]", "", m.group(14) or m.group(16) or ""))
        count = m.group(6) or m.group(9) or m.group(12) or m.group(17) or m.group(20)  # the number of devices the runtime left visible
        env = visible(facts)
        specifics = []
        if device is not None:
            specifics.append(f"device {device} was requested")
        if count is not None:
            specifics.append(f"the runtime sees {count} device(s) (ids 0..{max(int(count) - 1, 0)})")
        if shown:
            specifics.append(f"the runtime sees {len(shown.split(','))} visible device(s): {shown}")
        if env:
            ids = [x for x in env[1].split(",") if x.strip()]
            specifics.append(f"the log sets {env[0]}={env[1]} ({len(ids)} device(s), numbered 0..{max(len(ids) - 1, 0)} inside the process)")
        text = " ".join((link.message, *link.detail))
        if re.search(r"ascending order", text, re.I):
            return Finding(
                "ASCEND_RT_VISIBLE_DEVICES must list device ids in ascending order",
                f"{link.short_type or link.type}: {link.message[:200]}. The runtime rejects a visible-device list that is not "
                "sorted, so no NPU can be opened.",
                ("List the ids in ascending order (e.g. 0,1,2,3,4,5,6,7); to pin ranks to particular NPUs, map them in the "
                 "launcher, not by the order of the list",),
                evidence(link), (TORCH_NPU_ENV,), key=f"visible-order:{shown}", family="device", kind="invalid-visible-device",
            )
        gpu = facts.npu is False or "cuda" in text.lower()  # the same mistake on a GPU host ("CUDA error: invalid device ordinal")
        side = _GPU_SIDE if gpu else _NPU_SIDE
        cause = (f"A process asked for {side.article} {side.name} id outside the devices it can see. {side.variable} (or the "
                 f"container's {side.mounted}{side.launcher}) renumbers the visible {side.name}s from 0, so a physical id, or a "
                 "local rank / device id computed for more devices than are visible, points past the end.")
        if specifics:
            cause += " From the log: " + "; ".join(specifics) + "."
        title = f"{side.name} id outside the visible devices"
        return Finding(
            title, f"{link.short_type or link.type}: {link.message[:160]}. {cause}", side.fixes,
            evidence(link), (side.source,), key=f"visible:{device}", family="device", kind="invalid-visible-device",
            notes=(f"{self.id}: {title}", *specifics),
        )


class _Side(NamedTuple):
    """What differs between an NPU and a GPU host for the same out-of-range device id: names, variable, fixes, source."""
    name: str
    article: str
    variable: str
    mounted: str
    launcher: str
    fixes: tuple[str, ...]
    source: str


_NPU_SIDE = _Side(
    "NPU", "an", "ASCEND_RT_VISIBLE_DEVICES", "mounted devices", "",
    ("Use ids relative to the visible set (0..N-1), or widen ASCEND_RT_VISIBLE_DEVICES / the devices mounted into the "
     "container to include the ids the job uses",
     "Make trainer.n_gpus_per_node x nnodes (and tensor/data parallel sizes) match the number of visible NPUs; check with npu-smi info",
     "Set the variable before Ray starts (ray stop; export ASCEND_RT_VISIBLE_DEVICES=...; ray start) so every worker sees the same set"),
    TORCH_NPU_ENV)
_GPU_SIDE = _Side(
    "GPU", "a", "CUDA_VISIBLE_DEVICES", "devices", ", or the launcher giving each worker its own GPU",
    ("Use ids relative to the visible set (0..N-1): torch.cuda.device_count() inside the worker says how many it sees",
     "Make tensor / data parallel sizes and ranks per node match the visible GPUs (nvidia-smi -L), or widen "
     "CUDA_VISIBLE_DEVICES to include the ids the job uses"),
    TORCH_CUDA)


class CudaOnNpu(Analyzer):
    id = "DRV-cuda-call"
    title = "Code asked for a CUDA device on an Ascend host"
    family = "device"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        m = CUDA.search(link.message)
        if m is None:
            return None
        caller = next((f for f in reversed(link.frames) if f.package not in ("torch",) and "/torch/" not in f.path), None)
        where = f" The call comes from {caller}." if caller else ""
        if m.group(1):  # the NCCL backend asked for: the NPU's collective backend is HCCL
            return Finding(
                "The NCCL backend was requested on an NPU host (use HCCL)",
                f"{link.short_type}: {m.group(0)}. torch_npu provides the HCCL backend for collectives; NCCL is CUDA-only, so "
                f"init_process_group(backend='nccl') (often a framework default) fails on an Ascend host.{where}",
                ("Use backend='hccl' for NPU tensors (and 'gloo' for CPU ones), or the framework's NPU setting (DeepSpeed / accelerate / "
                 "transformers pick hccl when torch_npu is imported and the device is npu)",
                 "Import torch_npu (or torch_npu.contrib.transfer_to_npu) before the framework initialises distributed"),
                evidence(link), (TORCH_DIST, TRANSFER), key=f"nccl:{caller}", family="device", kind="cuda-call-on-npu",
            )
        in_reward = m.group(0) == "No CUDA GPUs are available" and _in_reward_code(link)
        if m.group(0) == "No CUDA GPUs are available" and (in_reward or _in_ray_worker(link, chain)):
            reward = (" The failure is in reward code: verl computes rewards in workers that ask for a CPU only (the TaskRunner, "
                      "compute_reward_async, the reward loop's RewardComputeWorker), so a model a reward function puts on the "
                      "device finds none." if in_reward else "")
            return Finding(
                "A Ray task or actor that was given no GPU asked for CUDA (Ray hid the GPUs from it)",
                f"{link.short_type}: {m.group(0)}. A CUDA build of torch found no device in a Ray worker: Ray sets "
                "CUDA_VISIBLE_DEVICES to empty for a task or actor scheduled without num_gpus, so torch sees no GPU there "
                f"even on a GPU node. Code that needs a device (a reward model, an embedding model, an engine) ran in a "
                f"CPU-only actor (a framework's driver / TaskRunner or reward worker).{reward}{where}",
                ("Run the device work in an actor that requests the device (num_gpus / resources={'NPU': n}), or on the "
                 "workers the framework gives devices to (verl: a reward model worker instead of code in the reward function)",
                 "Or keep that code on the CPU (device='cpu') where it runs in the driver / reward process"),
                evidence(link), (TORCH_NO_GPU, RAY_NO_GPU, RAY_ACCEL, VERL_TASK_RUNNER, VERL_REWARD_ASYNC), key=f"raycpu:{caller}", family="ray",
                kind="ray-cpu-only-actor",
            )
        if m.group(2):  # a checkpoint saved with CUDA tensors
            return Finding(
                "A checkpoint saved on a CUDA device is loaded without map_location",
                f"{link.short_type}: {m.group(0)}. The checkpoint's tensors are tagged with a cuda device; torch.load recreates them "
                f"there unless told otherwise, and this host has no CUDA.{where}",
                ("Load with torch.load(path, map_location='cpu') (then move to the NPU), or map_location='npu'",),
                evidence(link), (TORCH_LOAD,), key=f"cudaload:{caller}", family="device", kind="cuda-call-on-npu",
            )
        return Finding(
            "A CUDA call on an NPU host",
            f"{link.short_type}: {m.group(0)}. torch on an Ascend host is the CPU build plus torch_npu: any code path that asks "
            f"for a cuda device, calls torch.cuda.* or .cuda() fails this way.{where}",
            ("Change the call to the NPU (device='npu', .npu(), torch.npu.*), or import torch_npu.contrib.transfer_to_npu at the "
             "start of the entry point to map cuda calls to the NPU",
             "If a library hard-codes cuda (a trainer's FSDP/DeepSpeed path), upgrade it to a release with NPU support or select its NPU backend"),
            evidence(link), ((TORCH_NPU_UTILS, TRANSFER) if m.group(0).startswith("Expected a npu") else
                             (TORCH_CUDA_UTILS, TRANSFER) if m.group(0).startswith("Expected a cuda") else (TORCH_CUDA, TRANSFER)),
            key=f"cuda:{caller}", family="device", kind="cuda-call-on-npu",
        )
