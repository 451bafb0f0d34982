"""Device rules (ARL-D*): NPUs visible, healthy, free, reachable from this container."""

from __future__ import annotations

from ..engine import Rule
from ..model import Area, Facts, Finding, Severity
from ..probes.devices import parse_visible_devices

NPU_SMI_DOC = "https://www.hiascend.com/document/detail/zh/Atlas%20200I%20A2/2520/re/npu/npusmi_007.html"
IDLE_HBM_MB = 4096  # 800T A2 reserves ~3.3-3.4 GB per chip with no process (HDK DCMI note; vllm-ascend#4376)


def _no_npu_host(facts: Facts) -> bool:
    return not facts.value("npu_smi.path") and not facts.value("hdk.driver") and not facts.value("devices.davinci")


class NpusVisible(Rule):
    id = "ARL-D001"
    title = "NPUs visible to npu-smi"
    severity = Severity.CRITICAL
    area = Area.DEVICES
    what = "Runs `npu-smi info` once (with a timeout) and parses its table: chips, names, health, HBM, processes."
    why = "If npu-smi cannot see the NPUs, neither can torch_npu: verl falls back to CUDA and fails with 'Total available GPUs 0'."
    fix = "On the host: check the driver (`npu-smi info`). In a container: mount /usr/local/Ascend/driver and /usr/local/sbin/npu-smi and pass the /dev/davinci* devices."
    sources = (NPU_SMI_DOC, "https://github.com/Ascend/mind-cluster")

    def evaluate(self, facts: Facts) -> Finding:
        info = facts.value("npu_smi.info")
        if info is not None:
            names = sorted({c.name for c in info.chips})
            return self.passed(f"{len(info.chips)} chip(s) ({', '.join(names)}), driver {info.version or '?'}", chips=len(info.chips), driver=info.version)
        if _no_npu_host(facts):
            return self.fail(
                "no Ascend NPU on this host: no npu-smi, no driver (/usr/local/Ascend/driver/version.info), no /dev/davinci*",
                fix="Run ascendrl check on an Atlas node or inside an Ascend container; use --root to audit a mounted image.",
            )
        reason = facts.get_fact("npu_smi.info").reason or ""
        fix = None
        if "-8005" in reason:
            # MindCluster FAQ: npu-smi's dcmi init fails with -8005 after a driver/firmware upgrade
            # without a reboot; it is also what a process without access to /dev/davinci* sees.
            fix = "Reboot the host if the driver or firmware was just upgraded (see /var/log/ascend_seclog/ascend_install.log); otherwise give this container the /dev/davinci* devices."
        return self.fail(f"npu-smi gave no device table: {reason}", fix=fix, path=facts.value("npu_smi.path"))


class NpusHealthy(Rule):
    id = "ARL-D002"
    title = "Every NPU reports Health OK"
    severity = Severity.CRITICAL
    area = Area.DEVICES
    what = "Reads the Health column of `npu-smi info` for every chip (OK, Warning, Alarm, Critical, UNKNOWN)."
    why = "A chip in Alarm/Critical fails HCCL link setup or dies mid-step; UNKNOWN means it is absent or did not start."
    fix = "Inspect it with `npu-smi info -t health -i <id>` (Error Code); reset or exclude it with ASCEND_RT_VISIBLE_DEVICES."
    sources = ("https://www.hiascend.com/document/detail/zh/Atlas%20200I%20A2/2520/re/npu/npusmi_028.html",)

    def evaluate(self, facts: Facts) -> Finding:
        info = facts.value("npu_smi.info")
        if info is None:
            return self.skip("no npu-smi table (see ARL-D001)")
        bad = [f"NPU {c.npu} chip {c.chip}: {c.health}" for c in info.chips if c.health != "OK"]
        if not bad:
            return self.passed(f"all {len(info.chips)} chip(s) OK")
        only_warning = all(c.health == "Warning" for c in info.chips if c.health != "OK")
        verdict = self.warn if only_warning else self.fail
        return verdict("; ".join(bad), unhealthy=bad)


class NpusFree(Rule):
    id = "ARL-D003"
    title = "No other process holds NPU memory"
    severity = Severity.CRITICAL
    area = Area.DEVICES
    what = "Lists the processes of npu-smi's process table, and chips whose HBM use is above the ~3.4 GB an idle 910B reserves."
    why = "A leftover vLLM worker or training process keeps its HBM; the new run's vLLM then sees less free memory than gpu_memory_utilization asks and fails, or OOMs later."
    fix = "Stop the listed PIDs (`ascendrl fix --unsafe` does it, or `kill <pid>`), and `ray stop --force` for leftover Ray workers."
    fix_id = "kill-npu-holders"
    sources = (NPU_SMI_DOC, "https://github.com/vllm-project/vllm-ascend/issues/4376")

    def evaluate(self, facts: Facts) -> Finding:
        info = facts.value("npu_smi.info")
        if info is None:
            return self.skip("no npu-smi table (see ARL-D001)")
        if info.processes:
            by_pid: dict[int, list[str]] = {}
            for p in info.processes:
                by_pid.setdefault(p.pid, []).append(f"NPU {p.npu} ({p.memory_mb} MB)")
            names = {p.pid: p.name for p in info.processes}
            held = "; ".join(f"PID {pid} {names[pid]} on {', '.join(where)}" for pid, where in sorted(by_pid.items()))
            return self.fail(f"{len(by_pid)} process(es) hold NPU memory: {held}", pids=sorted(by_pid))
        busy = [f"NPU {c.npu}: {c.hbm_used_mb}/{c.hbm_total_mb} MB" for c in info.chips if (c.hbm_used_mb or 0) > IDLE_HBM_MB]
        if busy:
            return self.warn(
                "HBM in use with no process listed (another container's process?): " + "; ".join(busy),
                fix="Find the owner from the host (`npu-smi info` outside the container) and stop it.",
            )
        return self.passed("no processes on any NPU")


class DeviceNodes(Rule):
    id = "ARL-D004"
    title = "NPU device nodes present and accessible"
    severity = Severity.CRITICAL
    area = Area.DEVICES
    what = "Looks for /dev/davinciN, /dev/davinci_manager, /dev/devmm_svm and /dev/hisi_hdc, readable and writable by this user."
    why = "A container started without `--device` for them cannot open any NPU, although npu-smi may be mounted and CANN installed."
    fix = "Add to docker run: --device /dev/davinci0 … --device /dev/davinci7 --device /dev/davinci_manager --device /dev/devmm_svm --device /dev/hisi_hdc (or --privileged)."
    fix_id = "container-setup"
    sources = ("https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/installation.md",)  # its docker run lines

    def evaluate(self, facts: Facts) -> Finding:
        if _no_npu_host(facts):
            return self.skip("no Ascend NPU on this host (see ARL-D001)")
        ids = facts.value("devices.davinci", [])
        control = facts.value("devices.control", {})
        problems = []
        if not ids:
            problems.append("no /dev/davinciN node")
        problems += [f"/dev/{name} {state}" for name, state in control.items() if state != "ok"]
        problems += [f"{node} not accessible" for node in facts.value("devices.inaccessible", [])]
        if problems:
            return self.fail("; ".join(problems), davinci=ids, control=control)
        info = facts.value("npu_smi.info")
        if info is not None and len(ids) < len(info.chips):
            return self.warn(f"{len(ids)} /dev/davinci node(s) for {len(info.chips)} chip(s) npu-smi shows", davinci=ids)
        return self.passed(f"/dev/davinci{{{','.join(map(str, ids))}}} and control nodes present", davinci=ids)


class VisibleDevices(Rule):
    id = "ARL-D005"
    title = "ASCEND_RT_VISIBLE_DEVICES is valid for this host"
    severity = Severity.ERROR
    area = Area.DEVICES
    what = "Parses ASCEND_RT_VISIBLE_DEVICES as the runtime does (ascending logical ids, no spaces; it stops at the first bad entry) and compares it with the chips present."
    why = "A bad entry silently truncates the list (`1, 2,3` means only NPU 1), so verl gets fewer NPUs than n_gpus_per_node and waits or fails."
    fix = "Write it as ascending ids without spaces, each below the chip count, e.g. 0,1,2,3,4,5,6,7."
    fix_id = "visible-devices"
    sources = ("https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1/maintenref/envvar/envref_07_0028.html",)

    def evaluate(self, facts: Facts) -> Finding:
        value = facts.value("devices.visible_env")
        if value is None:
            return self.passed("unset: every NPU is visible")
        used, stopped_at = parse_visible_devices(value)
        info = facts.value("npu_smi.info")
        count = len(info.chips) if info is not None else len(facts.value("devices.davinci", [])) or None
        if stopped_at is not None:
            return self.fail(f"ASCEND_RT_VISIBLE_DEVICES={value!r}: the runtime stops at {stopped_at!r} and uses only {used}", used=used)
        if count is not None and any(i >= count for i in used):
            return self.fail(f"ASCEND_RT_VISIBLE_DEVICES={value!r} names ids beyond the {count} NPU(s) present", used=used, count=count)
        return self.passed(f"ASCEND_RT_VISIBLE_DEVICES={value} ({len(used)} NPU(s))", used=used)


RULES: tuple[type[Rule], ...] = (NpusVisible, NpusHealthy, NpusFree, DeviceNodes, VisibleDevices)
