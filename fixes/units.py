"""The registered fixes: one small class each. A fix reads findings and facts and proposes actions."""

from __future__ import annotations

import os

from ascendrl.preflight.probes.devices import parse_visible_devices
from ascendrl.preflight.probes.disk import GIB
from ascendrl.preflight.rules.env import NZ_OVERRIDE
from ascendrl.preflight.rules.resources import AF_UNIX_MAX, SOCKET_SUFFIX_LEN

from .model import (
    Applicability,
    Fix,
    FixContext,
    Instruction,
    MakeDir,
    Proposal,
    SetEnv,
    SetOverride,
    SourceScript,
    StopProcess,
)


class NzOff(Fix):
    id = "nz-off"
    title = "Turn off FRACTAL_NZ weights and vllm-ascend's optimized model for RL"
    applicability = Applicability.SAFE
    description = "export VLLM_ASCEND_ENABLE_NZ=0 and USE_OPTIMIZED_MODEL=0, as the seed's script and verl's NPU CI do."

    def propose(self, ctx: FixContext) -> Proposal | None:
        if ctx.script and (ctx.launch is None or ctx.launch.rollout != "vllm"):
            return None  # the script starts no training, or its rollout is not vLLM: nothing here applies
        targets = ctx.targets(self.id)
        names = {"ARL-V001": "VLLM_ASCEND_ENABLE_NZ", "ARL-V002": "USE_OPTIMIZED_MODEL"}
        actions: list = []
        for f in targets:
            if f.rule_id == "ARL-V001" and f.facts.get("form") == "additional_config":
                # vllm-ascend >= 0.20.2rc1 reads weight_nz_mode first: set it where it is read
                key, value = NZ_OVERRIDE.lstrip("+").split("=", 1)
                if ctx.launch is not None:
                    actions.append(SetOverride(key, value))
                else:
                    actions.append(Instruction(f"Add {NZ_OVERRIDE} to the training command (or pass the launch script with --script)"))
            elif f.rule_id in names:
                actions.append(SetEnv(names[f.rule_id], "0"))
        if not targets and self.id in ctx.forced and ctx.launch is not None:
            # asked for by id where the rule cannot judge (no vllm-ascend here, e.g. a login node):
            # the env form is read by every vllm-ascend release (a deprecated fallback from 0.20.2rc1)
            actions = [SetEnv("VLLM_ASCEND_ENABLE_NZ", "0"), SetEnv("USE_OPTIMIZED_MODEL", "0")]
        return self._proposal(targets, actions)


class RelocateCaches(Fix):
    id = "relocate-caches"
    title = "Move Ray's temp dir, TMPDIR and the datasets cache to the disk with room"
    applicability = Applicability.SAFE
    description = "Create <data>/ascendrl/{ray,tmp,hf_datasets} on the mounted filesystem with the most free space (or --data-dir) and point RAY_TMPDIR, TMPDIR, HF_DATASETS_CACHE at them."

    def propose(self, ctx: FixContext) -> Proposal | None:
        targets = ctx.targets(self.id)
        if not targets:
            return None
        base = ctx.data_dir or largest_writable_mount(ctx)
        if base is None:
            return self._proposal(targets, [Instruction("No writable filesystem with more room was found; pass --data-dir DIR.")])
        root = os.path.join(base, "ascendrl")
        if len(os.path.join(root, "ray", "ray").encode()) + SOCKET_SUFFIX_LEN > AF_UNIX_MAX:  # ARL-R009
            hint = f"{base} is too deep for Ray's socket paths; pass a shorter --data-dir (or a symlink to it)"
            return self._proposal(targets, [Instruction(hint)])
        wanted = {
            "RAY_TMPDIR": os.path.join(root, "ray"),
            "TMPDIR": os.path.join(root, "tmp"),
            "HF_DATASETS_CACHE": os.path.join(root, "hf_datasets"),
        }
        actions: list = []
        for name, path in wanted.items():
            if ctx.host.getenv(name) == path and ctx.host.path(path).is_dir():
                continue
            actions += [MakeDir(path), SetEnv(name, path)]
        return self._proposal(targets, actions)


# Filesystems that never hold a run's data.
_PSEUDO = {"proc", "sysfs", "tmpfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "overlay_ro", "squashfs", "nsfs", "mqueue", "debugfs", "tracefs", "securityfs", "pstore", "bpf", "autofs", "configfs", "fusectl", "hugetlbfs", "rpc_pipefs", "binfmt_misc"}


def largest_writable_mount(ctx: FixContext) -> str | None:
    """The mount point (as the host sees it) with the most free space that we can write to."""
    import psutil

    if not ctx.host.live:
        return None
    best: tuple[int, str] | None = None
    for part in psutil.disk_partitions(all=False):
        if part.fstype in _PSEUDO or "ro" in part.opts.split(",") or part.mountpoint.startswith(("/proc", "/sys", "/dev", "/boot")):
            continue
        try:
            free = os.statvfs(part.mountpoint).f_bavail * os.statvfs(part.mountpoint).f_frsize
        except OSError:
            continue
        if os.access(part.mountpoint, os.W_OK) and free > 20 * GIB and (best is None or free > best[0]):
            best = (free, part.mountpoint)
    return best[1] if best else None


class SourceCannEnv(Fix):
    id = "cann-source-env"
    title = "Source the CANN toolkit and NNAL set_env.sh"
    applicability = Applicability.SAFE
    description = "Add `source …/set_env.sh` for the toolkit (and NNAL when installed) so torch_npu, HCCL and ATB libraries are found."

    def propose(self, ctx: FixContext) -> Proposal | None:
        targets = ctx.targets(self.id)
        if not targets:
            return None
        actions: list = []
        toolkit = ctx.facts.value("cann.set_env")
        if toolkit:
            actions.append(SourceScript(toolkit))
        nnal = ctx.facts.value("nnal.set_env")
        if nnal:
            actions.append(SourceScript(nnal))
        if not actions:
            actions.append(Instruction("No set_env.sh was found: install the CANN toolkit and NNAL first (ARL-A001, ARL-A003)."))
        return self._proposal(targets, actions)


class VisibleDevices(Fix):
    id = "visible-devices"
    title = "Make ASCEND_RT_VISIBLE_DEVICES list the NPUs that exist, in the runtime's format"
    applicability = Applicability.SAFE
    description = "Keep the valid ids (ascending, no spaces, below the NPU count), or all NPUs when none is valid."

    def propose(self, ctx: FixContext) -> Proposal | None:
        targets = ctx.targets(self.id)
        value = ctx.host.getenv("ASCEND_RT_VISIBLE_DEVICES")
        if not targets or value is None:
            return None
        info = ctx.facts.value("npu_smi.info")
        count = len(info.chips) if info is not None else len(ctx.facts.value("devices.davinci", []))
        wanted = sorted({int(p) for p in value.replace(" ", "").split(",") if p.isdigit() and int(p) < count})
        if not wanted:
            wanted = list(range(count))
        new = ",".join(map(str, wanted))
        if parse_visible_devices(new)[1] is not None or new == value:
            return None
        return self._proposal(targets, [SetEnv("ASCEND_RT_VISIBLE_DEVICES", new)])


class HcclTimeouts(Fix):
    id = "hccl-timeouts"
    title = "Set HCCL timeouts that survive a multi-minute first model load"
    applicability = Applicability.SAFE
    description = "HCCL_CONNECT_TIMEOUT=3600 and HCCL_EXEC_TIMEOUT=3600 as verl's multi-node guide does (1091 with HCCL_OP_EXPANSION_MODE=AIV)."

    def propose(self, ctx: FixContext) -> Proposal | None:
        targets = ctx.targets(self.id)
        if not targets:
            return None
        aiv = (ctx.host.getenv("HCCL_OP_EXPANSION_MODE") or "").upper() == "AIV"
        wanted = {"HCCL_CONNECT_TIMEOUT": "3600", "HCCL_EXEC_TIMEOUT": "1091" if aiv else "3600"}
        return self._proposal(targets, [SetEnv(k, v) for k, v in wanted.items() if ctx.host.getenv(k) != v])


class StopNpuHolders(Fix):
    id = "kill-npu-holders"
    title = "Stop the processes that hold NPU memory"
    applicability = Applicability.UNSAFE
    description = "SIGTERM, then SIGKILL after 10 s, to the PIDs npu-smi lists. Unsafe: it can end someone's work and cannot be undone."

    def propose(self, ctx: FixContext) -> Proposal | None:
        targets = [f for f in ctx.targets(self.id) if f.facts.get("pids")]
        if not targets:
            return None
        if not ctx.host.live:  # --root: the PIDs belong to the machine the image comes from
            pids = ", ".join(str(p) for p in sorted({p for f in targets for p in f.facts["pids"]}))
            return self._proposal(targets, [Instruction(f"Left out under --root (the processes are not this machine's): stop PIDs {pids} on the host itself.")])
        import psutil

        actions: list = []
        protected = protected_pids()
        for pid in sorted({p for f in targets for p in f.facts["pids"]}):
            if pid in protected:
                actions.append(Instruction(f"PID {pid} is listed by npu-smi but is {protected[pid]}: not stopped; stop the NPU work yourself."))
                continue
            try:
                proc = psutil.Process(pid)
                with proc.oneshot():
                    argv = tuple(proc.cmdline())
                    actions.append(StopProcess(pid, proc.name(), " ".join(argv)[:300], proc.create_time(), argv))
            except psutil.NoSuchProcess:
                continue
            except psutil.AccessDenied:
                actions.append(Instruction(f"PID {pid} holds an NPU but cannot be inspected from here (run as its owner or root)."))
        if not actions:
            actions.append(Instruction("The PIDs npu-smi lists are not visible from here (another container?): stop them from the host."))
        return self._proposal(targets, actions)


def protected_pids() -> dict[int, str]:
    """PIDs `fix` never stops, with why: init, ascendrl itself and every process above it."""
    import psutil

    out = {1: "PID 1 (the container's or host's init)", os.getpid(): "ascendrl itself"}
    try:
        for parent in psutil.Process().parents():
            out.setdefault(parent.pid, f"an ancestor of ascendrl ({parent.name()})")
    except psutil.Error:
        pass
    out.setdefault(os.getppid(), "ascendrl's parent")
    return out


class ContainerSetup(Fix):
    id = "container-setup"
    title = "Restart the container with the NPU devices and a large /dev/shm"
    applicability = Applicability.MANUAL
    description = "Device nodes and /dev/shm size are set by `docker run`; nothing inside the container can change them."

    def propose(self, ctx: FixContext) -> Proposal | None:
        targets = ctx.targets(self.id)
        if not targets:
            return None
        flags = []
        if any(f.rule_id == "ARL-D004" for f in targets):
            flags.append(" ".join(f"--device /dev/davinci{i}" for i in range(8)) + " --device /dev/davinci_manager --device /dev/devmm_svm --device /dev/hisi_hdc")
            flags.append("-v /usr/local/Ascend/driver:/usr/local/Ascend/driver -v /usr/local/sbin/npu-smi:/usr/local/sbin/npu-smi")
        if any(f.rule_id == "ARL-R006" for f in targets):
            flags.append("--ipc=host   (or --shm-size=64g)")
        return self._proposal(targets, [Instruction("Add to your `docker run` line: " + f) for f in flags])


REGISTERED: tuple[Fix, ...] = (NzOff(), RelocateCaches(), SourceCannEnv(), VisibleDevices(), HcclTimeouts(), StopNpuHolders(), ContainerSetup())
