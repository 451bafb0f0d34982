"""Probes read facts from a :class:`~ascendrl.preflight.host.Host`; each is one small function.

A probe that crashes yields a ``probe.<name>`` fact with the reason, never a traceback.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from ..host import Host
from ..model import Fact, Facts, missing
from .cann import probe_cann
from .devices import probe_devices
from .disk import probe_disk
from .env import probe_env
from .npu_smi import probe_npu_smi
from .packages import probe_packages
from .recipe import probe_recipe
from .torch_npu_import import probe_torch_npu_import

Probe = Callable[[Host], dict[str, Fact]]

PROBES: dict[str, Probe] = {
    "packages": probe_packages,
    "cann": probe_cann,
    "npu_smi": probe_npu_smi,
    "devices": probe_devices,
    "disk": probe_disk,
    "env": probe_env,
    "torch_npu_import": probe_torch_npu_import,
    "recipe": probe_recipe,
}


def _safe(name: str, probe: Probe, host: Host) -> dict[str, Fact]:
    try:
        return probe(host)
    except Exception as exc:  # a probe bug must not hide every other fact
        import traceback  # only for a crash: linecache and tokenize come with it

        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return {f"probe.{name}": missing(f"probe {name}", f"crashed: {detail}")}


def collect(host: Host) -> Facts:
    """Run every probe; the slow ones (subprocesses) run concurrently, the facts keep the probes' order.

    Plain threads: concurrent.futures (and the logging it imports) cost more than the threads it manages.
    """
    results: dict[str, dict[str, Fact]] = {}

    def run(name: str, probe: Probe) -> None:
        results[name] = _safe(name, probe, host)

    threads = [threading.Thread(target=run, args=item, name=f"probe-{item[0]}") for item in PROBES.items()]
    for thread in threads:
        thread.start()
    facts: dict[str, Fact] = {}
    for thread, name in zip(threads, PROBES):
        thread.join()
        facts.update(results[name] if name in results else {f"probe.{name}": missing(f"probe {name}", "crashed: the probe's thread ended without a result")})
    return Facts(facts)
