"""``--deep``: does ``import torch_npu`` (and plain ``import torch``) work in the checked Python?

Only a real import answers this: with CANN absent or not sourced, torch_npu raises
``ImportError: libhccl.so: cannot open shared object file``, and because torch autoloads
device backends, even ``import torch`` then fails with ``RuntimeError: Failed to load the
backend extension: torch_npu``. The import runs in a subprocess with a timeout, never here.
"""

from __future__ import annotations

import dataclasses
import sys

from ..host import Host
from ..model import Fact, missing

IMPORT_TIMEOUT = 180.0


@dataclasses.dataclass(frozen=True)
class ImportOutcome:
    module: str
    ok: bool
    rc: int
    error: str | None  # last exception line, e.g. "ImportError: libhccl.so: ..."
    timed_out: bool = False


def _last_error_line(text: str) -> str | None:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        head = line.split(":", 1)[0]
        if head.endswith(("Error", "Exception", "Interrupt")) or head.startswith(("ImportError", "RuntimeError")):
            return line[:500]
    return lines[-1][:500] if lines else None


def import_outcome(host: Host, python: str, module: str) -> ImportOutcome:
    result = host.run([python, "-c", f"import {module}"], timeout=max(host.timeout, IMPORT_TIMEOUT))
    return ImportOutcome(
        module=module,
        ok=result.rc == 0,
        rc=result.rc,
        error=None if result.rc == 0 else (_last_error_line(result.stderr) or result.describe()),
        timed_out=result.timed_out,
    )


def probe_torch_npu_import(host: Host) -> dict[str, Fact]:
    if not host.deep:
        reason = "not run (add --deep to import torch_npu in a subprocess)"
        return {"import.torch_npu": missing("--deep", reason), "import.torch": missing("--deep", reason)}
    if not host.live and not host.python:
        reason = "cannot import inside a --root image; pass --python to name an interpreter"
        return {"import.torch_npu": missing("--deep", reason), "import.torch": missing("--deep", reason)}
    from concurrent.futures import ThreadPoolExecutor

    python = host.python or sys.executable
    with ThreadPoolExecutor(max_workers=2) as pool:
        npu = pool.submit(import_outcome, host, python, "torch_npu")
        torch = pool.submit(import_outcome, host, python, "torch")
        outcomes = {"torch_npu": npu.result(), "torch": torch.result()}
    return {
        f"import.{name}": Fact(outcome, f"{python} -c 'import {name}'") for name, outcome in outcomes.items()
    }
