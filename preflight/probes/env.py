"""Environment settings that change how verl, vllm-ascend, torch_npu, HCCL and Ray behave.

Only allow-listed names and prefixes are recorded, and secrets are redacted by the one
redaction `run` uses too (the idea of vllm's collect_env get_env_vars).
"""

from __future__ import annotations

from ..host import Host
from ..model import Fact, missing
from ..redact import MASK, redact_text, secret_name

PREFIXES = ("ASCEND_", "HCCL_", "VLLM_", "RAY_", "PYTORCH_", "TORCH_", "ATB_", "HF_", "VERL_", "GLOO_")
NAMES = (
    "USE_OPTIMIZED_MODEL",
    "TASK_QUEUE_ENABLE",
    "CPU_AFFINITY_CONF",
    "LD_PRELOAD",
    "TMPDIR",
    "TOKENIZERS_PARALLELISM",
    "HYDRA_FULL_ERROR",
    "DATASETS_CACHE",
    "TEMP",
    "TMP",
)


def probe_env(host: Host) -> dict[str, Fact]:
    settings = {}
    for name, value in host.env.items():
        if name in NAMES or name.startswith(PREFIXES):
            settings[name] = MASK if secret_name(name) else redact_text(value)
    facts = {"env.settings": Fact(dict(sorted(settings.items())), "process environment (allow-listed)")}
    if host.live:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        facts["env.nofile"] = Fact({"soft": soft, "hard": hard}, "getrlimit(RLIMIT_NOFILE)")
        facts["net.interfaces"] = _interfaces()
    else:
        reason = "only read on the live host (--root given)"
        facts["env.nofile"] = missing("getrlimit", reason)
        facts["net.interfaces"] = missing("psutil.net_if_addrs", reason)
    return facts


def _interfaces() -> Fact:
    """Each interface's IP addresses, from psutil (imported here: only a live host's check needs it)."""
    import socket

    import psutil

    found = {}
    for name, addrs in psutil.net_if_addrs().items():
        found[name] = sorted(a.address for a in addrs if a.family in (socket.AF_INET, socket.AF_INET6))
    return Fact(found, "psutil.net_if_addrs()")
