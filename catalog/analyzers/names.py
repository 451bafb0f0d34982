"""A module used where it was never imported: ``NameError: name 'os' is not defined``.

Python raises NameError for a name no scope defines. When that name is a module (``os``, ``json``, ``time``) or the
alias a module is always imported as (``np``, ``F``, ``dist``), the file in the innermost frame uses it without its
``import`` line: a launch patch or reward function edited in a hurry, or a release of a package that shipped the bug.
CPython 3.12 says so itself ("Did you forget to import 'os'?", Python/errors.c / traceback.py's suggestion for standard
library modules). Other undefined names (a typo, a variable set in one branch) are left to the person reading the code.
"""

from __future__ import annotations

import sys

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised

PY_NAMEERROR = "https://docs.python.org/3/library/exceptions.html#NameError"
PY_312_HINT = "https://docs.python.org/3/whatsnew/3.12.html#improved-error-messages"

# "name 'os' is not defined" (Python 3), "global name 'os' is not defined" (Python 2), and the same pasted without
# "name" ("NameError 'os' is not defined"), with 3.10+'s ". Did you mean: …?" or 3.12's ". Did you forget to import …?".
UNDEFINED = lazy(r"^(?:(?:global )?name )?'([A-Za-z_]\w*)' is not defined\b(?:.*?Did you forget to import '([\w.]+)')?")
# The aliases the Python ML world imports modules as, by convention (numpy's, pandas', PyTorch's own docs use them).
ALIASES = {
    "np": "numpy", "pd": "pandas", "plt": "matplotlib.pyplot", "F": "torch.nn.functional", "nn": "torch.nn",
    "dist": "torch.distributed", "mp": "multiprocessing", "torch": "torch", "torch_npu": "torch_npu", "ray": "ray",
    "transformers": "transformers", "datasets": "datasets", "yaml": "yaml", "tqdm": "tqdm", "requests": "requests",
}


def module_named(name: str, hint: str | None) -> str | None:
    """The module ``name`` stands for when it is one (standard library, a conventional alias, CPython's own hint)."""
    if hint:
        return hint
    if name in ALIASES:
        return ALIASES[name]
    if name in getattr(sys, "stdlib_module_names", ()) and not name.startswith("_"):
        return name
    return None


class MissingImport(Analyzer):
    id = "DRV-missing-import"
    title = "A module used without being imported (NameError)"
    family = "user"
    stops_run = "the code that uses the module fails every time it runs"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type != "NameError":
            return None
        m = UNDEFINED.search(link.message)
        if m is None:
            return None
        name = m.group(1)
        module = module_named(name, m.group(2))
        if module is None:
            return None
        frame = link.frames[-1] if link.frames else None
        where = str(frame) if frame else "the file that raised it"
        # an installed package's file (not a source checkout or a script that only lives under a package's folder name)
        package = frame.package if frame and ("site-packages/" in frame.path or "dist-packages/" in frame.path) else None
        statement = f"import {module}" if module == name else f"import {module} as {name}"
        if package:
            fix = (f"{package}'s code at {where} uses {name} without importing it: a bug of this {package} release. Upgrade "
                   f"{package} to a release that fixed it (its changelog / issues), or add `{statement}` at the top of that file",)
        else:
            fix = (f"Add `{statement}` at the top of {frame.path if frame else 'the file'} (with the other imports), and "
                   "the same in every copy of that file the run uses (each node of a cluster has its own)",)
        return Finding(
            f"{name} used without `{statement}`" + (f" in {package}" if package else ""),
            f"NameError: {link.message[:200]}. {name} is "
            + (f"the usual name of the module {module}" if module != name else f"the module {module}")
            + f", and the code at {where} uses it without importing it: nothing defined {name} in that file's scope.",
            (*fix, "Then rerun: the error is raised where the name is first used, so a second missing import can follow"),
            evidence(link), (PY_NAMEERROR, PY_312_HINT), key=f"name:{name}:{where}", family="user",
            kind="python-missing-import",
        )
