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


# The probes that may wait on a command, and when they do (--deep and the recipe query take seconds,
# npu-smi up to its timeout). Two or more of them run in threads, the others meanwhile in this one;
# a lone one runs here too. A thread for a probe that only reads files cost more than the probe, and
# a thread's hand-over of the interpreter lock can cost a switch interval (5 ms) on a busy machine.
WAITS: dict[str, Callable[[Host], bool]] = {
    "packages": lambda host: bool(host.python),
    "npu_smi": lambda host: True,
    "torch_npu_import": lambda host: host.deep,
    "recipe": lambda host: host.recipe is not None,
}


def collect(host: Host) -> Facts:
    """Run every probe, the ones that wait on commands concurrently; the facts keep the probes' order.

    Plain threads: concurrent.futures (and the logging it imports) cost more than the threads it manages.
    """
    results: dict[str, dict[str, Fact]] = {}

    def run(name: str, probe: Probe) -> None:
        results[name] = _safe(name, probe, host)

    waiting = {name for name, waits in WAITS.items() if waits(host)}
    if len(waiting) < 2:
        waiting = set()
    threads = [threading.Thread(target=run, args=item, name=f"probe-{item[0]}") for item in PROBES.items() if item[0] in waiting]
    for thread in threads:
        thread.start()
    for name, probe in PROBES.items():
        if name not in waiting:
            run(name, probe)
    for thread in threads:
        thread.join()
    facts: dict[str, Fact] = {}
    for name in PROBES:
        facts.update(results[name] if name in results else {f"probe.{name}": missing(f"probe {name}", "crashed: the probe's thread ended without a result")})
    return Facts(facts)
