"""Environment rules (ARL-V*): settings that vllm-ascend, torch_npu, HCCL and vLLM read at start."""

from __future__ import annotations

import ipaddress
import re

from packaging.version import Version

from .. import compat
from ..engine import Rule
from ..model import Area, Facts, Finding, Severity
from .stack import pkg

HCCL_ENVREF = "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1/maintenref/envvar/envref_07_0075.html"


def setting(facts: Facts, name: str) -> str | None:
    return facts.value("env.settings", {}).get(name)


# vllm-ascend reads additional_config weight_nz_mode first from v0.20.2rc1 (VLLM_ASCEND_ENABLE_NZ stays as a
# deprecated fallback); USE_OPTIMIZED_MODEL is read up to v0.14.0rc1 and gone from v0.15.0rc1.
NZ_CONFIG_FROM = Version("0.20.2rc1")
OPTIMIZED_MODEL_GONE_IN = Version("0.15.0rc1")
NZ_OVERRIDE = "+actor_rollout_ref.rollout.engine_kwargs.vllm.additional_config.weight_nz_mode=0"
_ADDITIONAL_CONFIG = re.compile(r"^\+*actor_rollout_ref\.rollout\.engine_kwargs\.vllm\.additional_config(?P<path>(?:\.\w+)*)=(?P<value>.*)$")


def additional_config(facts: Facts) -> dict[str, str]:
    """vLLM additional_config keys the recipe's overrides set (dotted keys, or a {k: v} literal), as text."""
    found: dict[str, str] = {}
    for override in (facts.value("lint.recipe") or {}).get("overrides", []):
        match = _ADDITIONAL_CONFIG.match(override.strip())
        if not match:
            continue
        path, value = match.group("path").lstrip("."), match.group("value").strip().strip("'\"")
        if path:
            found[path] = value
        else:  # additional_config={weight_nz_mode:0,rl_config:{enabled:true}}
            for key, val in re.findall(r"(\w+)['\"]?\s*[:=]\s*['\"]?(\w+)", value):
                found.setdefault(key, val)
    return found


class NzOff(Rule):
    id = "ARL-V001"
    title = "FRACTAL_NZ weights off for RL (weight_nz_mode=0 / VLLM_ASCEND_ENABLE_NZ=0)"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = (
        "Checks the NZ setting in the form the installed vllm-ascend reads: the VLLM_ASCEND_ENABLE_NZ env var up to v0.19.1rc1; "
        "from v0.20.2rc1 additional_config weight_nz_mode (from the recipe's engine_kwargs.vllm.additional_config), with the env var as a deprecated fallback."
    )
    why = "In RL the trainer pushes new weights into vLLM every step; with NZ on (the default), vllm-ascend's worker raises 'FRACTAL_NZ mode is enabled …' when verl first wakes the rollout engine — found only after minutes of start-up."
    fix = "vllm-ascend <= 0.19.1rc1: export VLLM_ASCEND_ENABLE_NZ=0; >= 0.20.2rc1: " + NZ_OVERRIDE
    fix_id = "nz-off"
    sources = (
        "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/envs.py",
        "https://github.com/vllm-project/vllm-ascend/blob/v0.20.2rc1/vllm_ascend/ascend_config.py",
        "https://github.com/vllm-project/vllm-ascend/blob/v0.20.2rc1/vllm_ascend/worker/worker.py",
        "https://github.com/vllm-project/vllm-ascend/issues/5747",
        "https://github.com/verl-project/verl/blob/v0.7.0/tests/special_npu/run_qwen2_5_vl_3b_npu.sh",
    )

    def evaluate(self, facts: Facts) -> Finding:
        va = pkg(facts, "vllm_ascend")
        if va is None:
            return self.skip("vllm-ascend is not installed")
        env = setting(facts, "VLLM_ASCEND_ENABLE_NZ")
        config = additional_config(facts)
        if va < NZ_CONFIG_FROM:
            ignored = " (additional_config weight_nz_mode is not read by this release)" if "weight_nz_mode" in config else ""
            fix = "export VLLM_ASCEND_ENABLE_NZ=0 in the launch script"
            if env is None:
                return self.fail(f"VLLM_ASCEND_ENABLE_NZ is unset (vllm-ascend {va}'s default turns NZ on){ignored}", fix=fix, form="env")
            if env.strip() != "0":
                return self.fail(f"VLLM_ASCEND_ENABLE_NZ={env}{ignored}", fix=fix, value=env, form="env")
            return self.passed("VLLM_ASCEND_ENABLE_NZ=0", form="env")
        fix = f"Add {NZ_OVERRIDE} to the training command (recipe overrides)"
        if config.get("rl_config.enabled", config.get("enabled", "")).lower() == "true" and va > compat.newest_vllm_ascend():
            return self.passed(f"additional_config.rl_config.enabled=true turns NZ off (vllm-ascend {va})", form="additional_config")
        if "weight_nz_mode" in config:
            value = config["weight_nz_mode"]
            if value != "0":
                return self.fail(f"additional_config weight_nz_mode={value} (vllm-ascend {va} reads it before VLLM_ASCEND_ENABLE_NZ)", fix=fix, value=value, form="additional_config")
            return self.passed("additional_config weight_nz_mode=0", form="additional_config")
        if env is None:
            return self.fail(f"weight_nz_mode is not set in additional_config and VLLM_ASCEND_ENABLE_NZ is unset (vllm-ascend {va} defaults to NZ on)", fix=fix, form="additional_config")
        if env.strip() != "0":
            return self.fail(f"VLLM_ASCEND_ENABLE_NZ={env} (vllm-ascend {va} falls back to it when additional_config has no weight_nz_mode)", fix=fix, value=env, form="additional_config")
        return self.warn(
            f"VLLM_ASCEND_ENABLE_NZ=0 works on vllm-ascend {va} only as a deprecated fallback for additional_config weight_nz_mode",
            fix=fix,
            value=env,
            form="additional_config",
        )


class OptimizedModelOff(Rule):
    id = "ARL-V002"
    title = "USE_OPTIMIZED_MODEL=0 for RL (vllm-ascend <= 0.14)"
    severity = Severity.ERROR
    area = Area.ENV
    what = "Checks USE_OPTIMIZED_MODEL on vllm-ascend releases that read it (up to 0.14.0rc1); on later releases it is obsolete."
    why = "On (the default) vllm-ascend swaps in its own Qwen2.5-VL/Omni model code, which its own comment says is not suitable for RLHF weight updates; verl's Qwen2.5-VL NPU example turns it off."
    fix = "export USE_OPTIMIZED_MODEL=0 on vllm-ascend <= 0.14.0rc1; drop it on later releases"
    fix_id = "nz-off"
    sources = (
        "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/envs.py",
        "https://github.com/vllm-project/vllm-ascend/blob/v0.14.0rc1/vllm_ascend/envs.py",
        "https://github.com/verl-project/verl/blob/v0.7.0/examples/grpo_trainer/run_qwen2_5_vl_7b_npu.sh",
    )

    def evaluate(self, facts: Facts) -> Finding:
        va = pkg(facts, "vllm_ascend")
        if va is None:
            return self.skip("vllm-ascend is not installed")
        value = setting(facts, "USE_OPTIMIZED_MODEL")
        if va >= OPTIMIZED_MODEL_GONE_IN:
            shown = "" if value is None else f" (USE_OPTIMIZED_MODEL={value} has no effect and can be dropped)"
            return self.skip(f"USE_OPTIMIZED_MODEL is obsolete: vllm-ascend {va} no longer reads it (gone since v0.15.0rc1){shown}", value=value)
        if value is not None and value.strip() == "0":
            return self.passed("USE_OPTIMIZED_MODEL=0")
        shown = "unset (default 1)" if value is None else f"={value}"
        verdict = self.fail if va >= Version("0.11.0rc0") else self.warn
        return verdict(f"USE_OPTIMIZED_MODEL {shown} with vllm-ascend {va}", value=value)


class NoExpandableSegmentsWithSleep(Rule):
    id = "ARL-V003"
    title = "No expandable_segments with vLLM sleep mode"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = "Looks for expandable_segments:True in PYTORCH_NPU_ALLOC_CONF (and PYTORCH_ALLOC_CONF)."
    why = "verl turns on vLLM sleep mode, whose NPU allocator (camem) asserts that expandable segments are off; the rollout worker dies at start."
    fix = "Remove expandable_segments:True from PYTORCH_NPU_ALLOC_CONF for RL runs."
    sources = ("https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/device_allocator/camem.py", "https://github.com/verl-project/verl/blob/v0.7.0/verl/workers/config/rollout.py")

    def evaluate(self, facts: Facts) -> Finding:
        if pkg(facts, "vllm_ascend") is None:
            return self.skip("vllm-ascend is not installed")
        for name in ("PYTORCH_NPU_ALLOC_CONF", "PYTORCH_ALLOC_CONF"):
            value = setting(facts, name) or ""
            if "expandable_segments:true" in value.replace(" ", "").lower():
                return self.fail(f"{name}={value}", value=value)
        return self.passed("expandable_segments not enabled")


def _int_setting(facts: Facts, name: str) -> tuple[str | None, int | None]:
    value = setting(facts, name)
    if value is None:
        return None, None
    try:
        return value, int(value.strip())
    except ValueError:
        return value, None


class HcclTimeouts(Rule):
    id = "ARL-V004"
    title = "HCCL timeouts within CANN's limits"
    severity = Severity.WARNING
    area = Area.ENV
    what = "Checks HCCL_CONNECT_TIMEOUT (integer 120-7200 s, default 120) and HCCL_EXEC_TIMEOUT (capped at 1091 s when HCCL_OP_EXPANSION_MODE=AIV)."
    why = "Values outside the documented range are rejected or silently capped, so a multi-minute first model load still times out with EI0006/EI0002."
    fix = "export HCCL_CONNECT_TIMEOUT=3600 HCCL_EXEC_TIMEOUT=3600 (as verl's multi-node guide does); keep AIV runs at <=1091."
    fix_id = "hccl-timeouts"
    sources = (
        "https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/maintenref/envvar/envref_07_0149.html",
        "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850/maintenref/envvar/envref_07_0078.html",
    )

    def evaluate(self, facts: Facts) -> Finding:
        problems = []
        raw, connect = _int_setting(facts, "HCCL_CONNECT_TIMEOUT")
        if raw is not None and (connect is None or not 120 <= connect <= 7200):
            problems.append(f"HCCL_CONNECT_TIMEOUT={raw} is outside 120-7200")
        raw_exec, exec_timeout = _int_setting(facts, "HCCL_EXEC_TIMEOUT")
        if raw_exec is not None and (exec_timeout is None or exec_timeout < 0):
            problems.append(f"HCCL_EXEC_TIMEOUT={raw_exec} is not a non-negative integer")
        elif exec_timeout is not None and (setting(facts, "HCCL_OP_EXPANSION_MODE") or "").upper() == "AIV" and (exec_timeout == 0 or exec_timeout > 1091):
            problems.append(f"HCCL_EXEC_TIMEOUT={raw_exec} is treated as 1091 with HCCL_OP_EXPANSION_MODE=AIV")
        if problems:
            return self.warn("; ".join(problems))
        shown = f"connect {connect if connect is not None else '120 (default)'} s, exec {exec_timeout if exec_timeout is not None else '1836 (default)'} s"
        return self.passed(shown)


class HcclInterface(Rule):
    id = "ARL-V005"
    title = "HCCL_IF_IP / HCCL_SOCKET_IFNAME name something on this host"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = "Compares HCCL_IF_IP with this host's addresses and HCCL_SOCKET_IFNAME (prefix list, ^exclude, =exact) with its interfaces."
    why = "HCCL binds its root socket to that NIC; a name or IP that is not on this host fails link setup (EI0001 / EI0006) after the model has loaded."
    fix = "Set HCCL_SOCKET_IFNAME (and GLOO_SOCKET_IFNAME) to the routable NIC of this node, e.g. =enp189s0f0, or unset them."
    sources = (HCCL_ENVREF,)

    def evaluate(self, facts: Facts) -> Finding:
        ip, ifname = setting(facts, "HCCL_IF_IP"), setting(facts, "HCCL_SOCKET_IFNAME")
        if ip is None and ifname is None:
            return self.passed("unset: HCCL picks the first non-docker, non-lo NIC")
        interfaces = facts.value("net.interfaces")
        if interfaces is None:
            return self.skip(facts.get_fact("net.interfaces").reason or "interfaces not read")
        if ip is not None:
            try:
                wanted = ipaddress.ip_address(ip.strip())
            except ValueError:
                return self.fail(f"HCCL_IF_IP={ip!r} is not an IP address")
            addresses = {a.split("%")[0] for addrs in interfaces.values() for a in addrs}
            if str(wanted) not in addresses:
                return self.fail(f"HCCL_IF_IP={ip} is not an address of this host ({', '.join(sorted(addresses))})")
            return self.passed(f"HCCL_IF_IP={ip} is on this host")
        assert ifname is not None
        matched = _ifname_matches(ifname, list(interfaces))
        if not matched:
            return self.fail(f"HCCL_SOCKET_IFNAME={ifname} matches no interface ({', '.join(sorted(interfaces))})")
        return self.passed(f"HCCL_SOCKET_IFNAME={ifname} matches {', '.join(matched)}")


def _ifname_matches(spec: str, names: list[str]) -> list[str]:
    """HCCL_SOCKET_IFNAME forms: 'eth,enp' prefixes, '^eth' exclude, '=eth0' exact, '^=eth0'."""
    spec = spec.strip()
    exclude = spec.startswith("^")
    body = spec[1:] if exclude else spec
    exact = body.startswith("=")
    body = body[1:] if exact else body
    items = [i.strip() for i in body.split(",") if i.strip()]

    def hit(name: str) -> bool:
        return any(name == i if exact else name.startswith(i) for i in items)

    return [n for n in names if hit(n) != exclude]


class QueueSettings(Rule):
    id = "ARL-V006"
    title = "torch_npu task-queue settings are valid"
    severity = Severity.WARNING
    area = Area.ENV
    what = "Checks TASK_QUEUE_ENABLE is 0, 1 or 2, and that ASCEND_LAUNCH_BLOCKING=1 (a debugging switch) is not left on."
    why = "ASCEND_LAUNCH_BLOCKING=1 disables the dispatch queue and makes every step much slower; level 2 conflicts with ACL graph (enforce_eager=False)."
    fix = "Unset ASCEND_LAUNCH_BLOCKING after debugging; use TASK_QUEUE_ENABLE=1 with ACL graph, 2 without."
    sources = ("https://github.com/Ascend/pytorch/blob/master/docs/zh/api/environment_variable/op_execution/TASK_QUEUE_ENABLE.md",)

    def evaluate(self, facts: Facts) -> Finding:
        problems = []
        queue = setting(facts, "TASK_QUEUE_ENABLE")
        if queue is not None and queue.strip() not in ("0", "1", "2"):
            problems.append(f"TASK_QUEUE_ENABLE={queue!r} is not 0, 1 or 2")
        if (setting(facts, "ASCEND_LAUNCH_BLOCKING") or "").strip() == "1":
            problems.append("ASCEND_LAUNCH_BLOCKING=1 serialises every operator launch")
        if problems:
            return self.warn("; ".join(problems))
        return self.passed(f"TASK_QUEUE_ENABLE={queue or '1 (default)'}")


class VllmV1(Rule):
    id = "ARL-V007"
    title = "VLLM_USE_V1 is not 0 on vllm-ascend >= 0.10"
    severity = Severity.CRITICAL
    area = Area.ENV
    what = "Checks VLLM_USE_V1 against the vllm-ascend release (V1 default since 0.9.2rc1, V0 removed in 0.10.0rc1)."
    why = "Asking for the removed V0 engine makes vLLM fail at start."
    fix = "unset VLLM_USE_V1 (or set it to 1)."
    sources = ("https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/user_guide/release_notes.md",)

    def evaluate(self, facts: Facts) -> Finding:
        va = pkg(facts, "vllm_ascend")
        if va is None:
            return self.skip("vllm-ascend is not installed")
        value = setting(facts, "VLLM_USE_V1")
        if value is not None and value.strip() == "0" and va >= Version("0.10.0rc1"):
            return self.fail(f"VLLM_USE_V1=0 but vllm-ascend {va} has no V0 engine")
        return self.passed(f"VLLM_USE_V1={value if value is not None else 'unset (V1)'}")


# Variables that look like they move a cache but that nothing reads. Checked by grepping the
# Python sources and the binaries (raylet, gcs_server, _raylet.so) of the ray 2.60.0 wheel and the
# datasets 5.2.0 wheel: no RAY_DISK_SPILLING_DIR or RAY_LOGDIR anywhere; datasets reads only
# HF_DATASETS_CACHE (datasets/config.py).
UNREAD_SETTINGS = {
    "RAY_DISK_SPILLING_DIR": "Ray spills under its session dir (RAY_TMPDIR) unless given object_spilling_directory / --object-spilling-directory",
    "RAY_LOGDIR": "Ray writes logs under <temp dir>/session_*/logs; move RAY_TMPDIR instead",
    "DATASETS_CACHE": "datasets reads HF_DATASETS_CACHE",
}


class UnreadSettings(Rule):
    id = "ARL-V008"
    title = "No cache settings that nothing reads"
    severity = Severity.WARNING
    area = Area.ENV
    what = "Flags RAY_DISK_SPILLING_DIR, RAY_LOGDIR and DATASETS_CACHE: common in field notes (the seed's among them) but read by neither Ray nor datasets."
    why = "They give a false sense that spill files, logs or the datasets cache moved off the small root disk; the run still fills it and dies with 'Not enough disk space' or Ray's 'over 95% full'."
    fix = "Remove those lines; use RAY_TMPDIR (Ray's temp, logs and default spill dir), HF_DATASETS_CACHE (datasets) and TMPDIR instead (`ascendrl fix` sets those when the disk checks fail)."
    sources = (
        "https://docs.ray.io/en/latest/ray-core/objects/object-spilling.html",
        "https://github.com/huggingface/datasets/blob/main/src/datasets/config.py",
    )

    def evaluate(self, facts: Facts) -> Finding:
        present = {name: hint for name, hint in UNREAD_SETTINGS.items() if setting(facts, name) is not None}
        if not present:
            return self.passed("none set")
        if "DATASETS_CACHE" in present and setting(facts, "HF_DATASETS_CACHE") == setting(facts, "DATASETS_CACHE"):
            present.pop("DATASETS_CACHE")
            if not present:
                return self.passed("DATASETS_CACHE is set alongside the HF_DATASETS_CACHE datasets reads")
        return self.warn("; ".join(f"{name} is read by nothing ({hint})" for name, hint in present.items()), names=sorted(present))


RULES: tuple[type[Rule], ...] = (NzOff, OptimizedModelOff, NoExpandableSegmentsWithSleep, HcclTimeouts, HcclInterface, QueueSettings, VllmV1, UnreadSettings)
