"""An experiment tracker's server that the training host cannot reach: wandb (api.wandb.ai) or SwanLab (api.swanlab.cn).

verl starts the loggers named in ``trainer.logger`` before the first step (verl/utils/tracking.py): ``wandb.init`` and
``swanlab.init`` / ``swanlab.login`` talk to their servers first, and on an air-gapped or firewalled cluster the
request fails in requests / urllib3 words (Max retries exceeded, NameResolutionError, timed out) naming the tracker's
host. The run itself is fine: the fix is an offline mode, a reachable server, or no such logger. Hosts as the SDKs
default them: wandb's Settings.base_url "https://api.wandb.ai" (WANDB_BASE_URL), SwanLab's get_host_api
"https://api.swanlab.cn/api" (SWANLAB_API_HOST). verl's rollout tracing (actor_rollout_ref.rollout.trace.backend=weave,
verl/utils/rollout_trace.py) calls weave.init, which contacts the wandb server the same way.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
from .hub import UNREACHABLE
from ...lazyre import lazy

WANDB_HOST = lazy(r"\bapi\.wandb\.ai\b")
SWANLAB_HOST = lazy(r"\bapi\.swanlab\.cn\b")
VERL_TRACKING = "https://github.com/verl-project/verl/blob/v0.9.0/verl/utils/tracking.py"
VERL_TRACE = "https://github.com/verl-project/verl/blob/v0.9.0/verl/trainer/config/rollout/rollout.yaml"
WANDB_SETTINGS = "https://github.com/wandb/wandb/blob/9071a671918091897daadefc10904c6330740634/wandb/sdk/wandb_settings.py"
SWANLAB_HOSTS = "https://github.com/SwanHubX/SwanLab/blob/022294f0f1b1796a5ad788bb498c2c1fe22f28dc/swanlab/package.py"


class TrackerUnreachable(Analyzer):
    id = "DRV-tracker"
    title = "The experiment tracker's server (wandb, SwanLab) is not reachable from this host"
    family = "user"
    stops_run = "the logger cannot start: the trainer stops before the first step"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = " ".join([link.type, link.message, *link.detail])
        if not UNREACHABLE.search(text):
            return None
        if WANDB_HOST.search(text):
            name, kind, sources = "wandb", "wandb-api-unreachable", (WANDB_SETTINGS, VERL_TRACKING, VERL_TRACE)
            fix = ("On a host without internet run wandb offline: WANDB_MODE=offline (upload later with wandb sync), or leave "
                   "wandb out of trainer.logger (e.g. trainer.logger=['console']); verl's rollout tracing with "
                   "actor_rollout_ref.rollout.trace.backend=weave contacts it too (mlflow traces to a local file)",
                   "Or make the server reachable: HTTPS_PROXY for a proxy, WANDB_BASE_URL for a self-hosted W&B server")
        elif SWANLAB_HOST.search(text):
            name, kind, sources = "SwanLab", "swanlab-api-unreachable", (SWANLAB_HOSTS, VERL_TRACKING)
            fix = ("On a host without internet log locally: SWANLAB_MODE=local (or offline / disabled; verl passes it to "
                   "swanlab.init), or leave swanlab out of trainer.logger (e.g. trainer.logger=['console'])",
                   "Or make the server reachable: DNS / HTTPS_PROXY for api.swanlab.cn, or a private deployment's host "
                   "(swanlab login --host <url>, SWANLAB_API_HOST)")
        else:
            return None
        host = re.search(r"host='([^']+)'|https?://([\w.-]+)", text)
        where = (host.group(1) or host.group(2)) if host else ("api.wandb.ai" if name == "wandb" else "api.swanlab.cn")
        return Finding(
            f"{name}'s server is not reachable from this host ({where})",
            f"{link.short_type}: {link.message[:200]}. The {name} logger (verl's trainer.logger, or the program's own "
            f"{name.lower()}.init / login) contacts {where} before training starts, and this host cannot reach it: no "
            "outbound internet (an air-gapped or firewalled cluster), a DNS failure, or a proxy the process was not given. "
            "The training itself is not at fault.",
            fix, evidence(link), sources, key=f"tracker:{name}", family="user", kind=kind,
        )
