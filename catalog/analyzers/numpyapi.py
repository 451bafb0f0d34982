"""NumPy's own removals: which NumPy release took away the name a caller used, read from NumPy's own messages.

NumPy removes names on a schedule and says so in the error (numpy/__init__.py ``__getattr__``, numpy/lib/__init__.py
``__getattr__``, numpy/_expired_attrs_2_0.py). A caller that uses a removed name was written for an older NumPy than
the one installed (numpy-too-new); NumPy 2.0's removals are the NumPy-1-code-under-NumPy-2 class (numpy2-incompatible).
The reverse, a pickle or extension written under NumPy 2 read by NumPy 1 ("No module named 'numpy._core…'"), is
numpy-too-old: numpy/_core exists from 2.0 (1.26.1 to 1.26.x ship only a stub of eight modules for reading NumPy 2
pickles).
"""

from __future__ import annotations

from ..chain import Link
from . import Facts, Finding, evidence
from ...lazyre import lazy

NUMPY = "https://github.com/numpy/numpy/blob/v2.0.0/numpy/__init__.py"
NUMPY_125 = "https://github.com/numpy/numpy/blob/v1.25.0/numpy/__init__.py"
LIB_2_0 = "https://github.com/numpy/numpy/blob/v2.0.0/numpy/lib/__init__.py"
CORE_STUB = "https://github.com/numpy/numpy/tree/v1.26.4/numpy/_core"
MIGRATION = "https://numpy.org/doc/stable/numpy_2_0_migration_guide.html"

# The builtin aliases deprecated in 1.20 and removed in 1.24 (1.25 on: "`np.float` was a deprecated alias for the builtin
# `float`"); np.bool and np.long are NumPy scalars again from 2.0, so they are only missing on 1.24-1.26.
FORMER = {"object": None, "float": None, "complex": None, "str": None, "int": None, "bool": "2.0", "long": "2.0", "unicode": None}
# NumPy 2.0's expired attributes (numpy/_expired_attrs_2_0.py) raise "`np.X` was removed in the NumPy 2.0 release",
# which catalog entry ARL-E393 reads.
# numpy.lib's submodules NumPy 2.0 made private (numpy/lib/__init__.py __getattr__ at v2.0.0 names them; arrayterator too).
PRIVATE_LIB = frozenset((
    "histograms type_check nanfunctions function_base arraypad arraysetops ufunclike utils twodim_base shape_base "
    "polynomial index_tricks arrayterator").split())
# What numpy/_core holds in 1.26.1-1.26.x (the stub for reading NumPy 2 pickles).
CORE_STUB_MODULES = frozenset("_dtype _dtype_ctypes _internal _multiarray_umath multiarray umath".split())

NO_ATTR = lazy(r"module 'numpy' has no attribute '(\w+)'")
NO_LIB_ATTR = lazy(r"module 'numpy\.lib' has no attribute '(\w+)'|numpy\.lib\.(\w+) (?:submodule )?is now private"
                   r"|numpy\.lib\.(emath) was an alias for emath module that was removed in NumPy 2\.0")
NO_MODULE = lazy(r"No module named '(numpy\.lib\.\w+|numpy\._core(?:\.\w+)?)'")
# NumPy 1.20-1.24's shim for the financial functions NEP 32 moved to numpy-financial (RuntimeError when called).
NEP32 = lazy(r"In accordance with NEP 32, the function (\w+) was removed from NumPy version 1\.20")
FORMER_TEXT = lazy(r"`np\.(\w+)` was a deprecated alias for the builtin")


def _shown(facts: Facts) -> str:
    return f" (the log shows numpy {facts.versions['numpy']})" if "numpy" in facts.versions else ""


def _caller(link: Link) -> str:
    return next((f.package for f in reversed(link.frames) if f.package and f.package != "numpy"), None) or "the calling code"


def numpy_removed(link: Link, facts: Facts) -> Finding | None:
    """A name or module NumPy took away (too new for the caller) or one only NumPy 2 has (too old for the data)."""
    msg = link.message
    if "numpy" not in msg and "np." not in msg and "NEP 32" not in msg:
        return None
    caller = _caller(link)
    name, removed, kind, source = "", "", "", NUMPY
    if (m := NO_ATTR.search(msg) or FORMER_TEXT.search(msg)) and m.group(1) in FORMER:
        name, removed, kind, source = f"np.{m.group(1)}", "1.24", "numpy-too-new", NUMPY_125
        back = FORMER[m.group(1)]
    elif m := NO_LIB_ATTR.search(msg):
        sub = next(g for g in m.groups() if g)
        if sub not in PRIVATE_LIB and sub != "emath":
            return None
        name, removed, kind, source, back = f"numpy.lib.{sub}", "2.0", "numpy2-incompatible", LIB_2_0, None
    elif m := NEP32.search(msg):
        name, removed, kind, back = f"np.{m.group(1)}", "1.20", "numpy-too-new", None
        source = "https://github.com/numpy/numpy/blob/v1.20.0/numpy/__init__.py"
    elif m := NO_MODULE.search(msg):
        module = m.group(1)
        if module.startswith("numpy.lib."):
            if module.rsplit(".", 1)[1] not in PRIVATE_LIB:
                return None
            name, removed, kind, source, back = module, "2.0", "numpy2-incompatible", LIB_2_0, None
        else:
            sub = module.split(".")[2] if module.count(".") > 1 else ""
            need = "1.26.1" if not sub or sub in CORE_STUB_MODULES else "2.0"
            return Finding(
                f"numpy is older than the data or code needs: no module {module} (NumPy {need}+ has it)"[:160],
                f"{link.short_type}: No module named '{module}'. numpy._core is NumPy 2's name for numpy.core"
                + (" (NumPy 1.26.1-1.26.x carry a stub of it with only the modules that reading NumPy 2 pickles needs)" if sub else "")
                + f": what {caller} loaded (most often a pickle, joblib or .npy/.npz file with objects, or a model or "
                f"tokenizer cache, written under NumPy 2) or a package built for NumPy 2 names it, and the installed NumPy "
                f"is older than {need}{_shown(facts)}.",
                (f"Upgrade numpy to {need} or newer (pip install 'numpy>={need}') where the other packages allow it",
                 "Or re-create the file under the NumPy release this environment runs (save it again with numpy<2, "
                 "or convert it to a format without pickled NumPy objects)"),
                evidence(link), (CORE_STUB, MIGRATION), key=f"numpy-too-old:{module}", kind="numpy-too-old",
            )
    else:
        return None
    again = f" (NumPy {back} defines {name} again, as NumPy's own scalar type)" if back else ""
    verb = "made private (moved under an underscore name)" if name.startswith("numpy.lib.") and name != "numpy.lib.emath" else "removed"
    return Finding(
        f"numpy is newer than {caller} was written for: NumPy {removed} {verb.split(' (')[0]} {name}"[:160],
        f"{link.short_type}: {msg.splitlines()[0][:160].rstrip('.')}. NumPy {removed} {verb} {name}{again}; {caller} was "
        f"written for an older NumPy than the one installed{_shown(facts)}.",
        (f"Upgrade {caller} to a release written for this NumPy (or replace {name} in your own code as the message or "
         "NumPy's release notes say)",
         f"Or pin numpy below {removed}: pip install 'numpy<{removed}'"),
        evidence(link), (source, MIGRATION) if removed == "2.0" else (source,),
        key=f"{kind}:{name}", kind=kind,
    )
