"""triton on an Ascend host: it comes from triton-ascend, and a plain triton (or none) breaks imports.

vLLM, vllm-ascend and torch import ``triton`` on start-up; on an NPU host the package that provides
it is triton-ascend (the NPU backend). ``No module named 'triton'``, or a ``triton`` without its
``language`` / ``jit`` (an uninstall that left the namespace folder, a stub) means it is missing; a
missing *submodule* (``No module named 'triton.language.target_info'``) or name means the triton
installed is not the release the caller was written for. The fix names the triton-ascend version the
compatibility matrix pins for the logged vllm-ascend.
"""

from __future__ import annotations


from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
from ...lazyre import lazy

MISSING = lazy(r"No module named 'triton'|module 'triton' has no attribute '(?:language|jit|runtime|Config)'")
MISMATCH = lazy(
    r"No module named '(triton\.[\w.]+)'|cannot import name '(\w+)' from '(triton(?:\.[\w.]+)?)'"
    r"|module '(triton\.[\w.]+)' has no attribute '(\w+)'"
)
# triton-ascend's Ascend-only language operations are not in triton.language: they are exported by
# triton.language.extra.cann.extension (third_party/ascend/language/cann/extension/__init__.py: aux_ops, vec_ops,
# mem_ops, core), so `tl.compile_hint(...)` from an older doc or sample raises AttributeError on triton.language.
# Only names upstream triton.language does not also define (sort, flip, cast, debug_barrier are upstream ops).
EXTENSION_OPS = frozenset((
    "compile_hint", "multibuffer", "parallel", "insert_slice", "extract_slice", "get_element", "index_put",
    "gather_out_to_ub", "scatter_ub_to_out", "index_select_simd", "sync_block_all", "sync_block_set",
    "sync_block_wait", "sub_vec_id", "sub_vec_num", "copy_from_ub_to_l1", "fixpipe", "isfinited", "finitef",
))
EXTENSION = "https://github.com/triton-lang/triton-ascend/blob/a84b1eb52b6215e2c171632f2df0892f1003cfc8/third_party/ascend/language/cann/extension/__init__.py"
INSTALL = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/installation.md"
MATRIX = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/community/versioning_policy.md"


def pinned(facts: Facts) -> str:
    """The triton-ascend version the matrix documents with the logged vllm-ascend (or the newest row's)."""
    try:
        from ascendrl.preflight import compat
    except ImportError:  # pragma: no cover - the catalog used on its own
        return ""
    rows = [r for r in compat.matrices()["vllm_ascend"]["rows"] if r.get("triton_ascend")]
    have = facts.versions.get("vllm_ascend")
    row = next((r for r in rows if r["vllm_ascend"] == have), None)
    return f"triton-ascend=={row['triton_ascend']} (documented with vllm-ascend {have})" if row else ""


class TritonOnNpu(Analyzer):
    id = "DRV-triton"
    title = "triton is missing or not the triton-ascend the stack needs"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        msg = link.message
        missing = MISSING.search(msg)
        m = None if missing else MISMATCH.search(msg)
        if not missing and m is None:
            return None  # before the matrix is read: most links are not about triton
        pin = pinned(facts)
        install = f"pip install {pin.split(' ')[0]}" if pin else "pip install triton-ascend (the version your vllm-ascend release's installation guide names)"
        if missing:
            return Finding(
                "triton is missing on the Ascend host (triton-ascend not installed)",
                f"{link.short_type}: {msg[:160]}. On an NPU host triton is provided by triton-ascend; here it is not installed, or a "
                "plain `pip uninstall triton` left an empty triton folder behind, so `import triton` finds nothing usable."
                + (f" The matrix pins {pin}." if pin else ""),
                (f"{install}; do not install the plain (CUDA) triton next to it",
                 "If a triton folder without its files remains in site-packages, remove it and reinstall triton-ascend"),
                evidence(link), (INSTALL, MATRIX), key="triton:missing", family="compat", kind="triton-missing",
            )
        if m.group(4) == "triton.language" and m.group(5) in EXTENSION_OPS:
            op = m.group(5)
            return Finding(
                f"tl.{op} is a triton-ascend extension operation: it is not in triton.language",
                f"{link.short_type}: {msg[:160]}. triton-ascend exports its Ascend-only operations ({op}, multibuffer, "
                "insert_slice, sync_block_* …) from triton.language.extra.cann.extension, not from triton.language; code "
                "written from an older document or sample calls them as tl.<op>. The installed triton-ascend is fine.",
                (f"Import the extension and call it there: import triton.language.extra.cann.extension as extension; extension.{op}(...)",
                 "If that module is missing too, the installed triton-ascend predates the extension API: upgrade triton-ascend"),
                evidence(link), (EXTENSION,), key=f"triton:ext:{op}", family="operator", kind="triton-ascend-extension-op",
            )
        what = m.group(1) or (f"{m.group(3)}.{m.group(2)}" if m.group(2) else f"{m.group(4)}.{m.group(5)}")
        return Finding(
            f"The installed triton does not match what the caller imports ({what})",
            f"{link.short_type}: {msg[:160]}. The caller ({link.raiser or 'vLLM / vllm-ascend kernels'}) was written against another "
            "triton release than the one installed — a plain triton, or a triton-ascend of another version." + (f" The matrix pins {pin}." if pin else ""),
            (f"Uninstall plain triton and {install}",
             "Check with: pip list | grep -i triton  (exactly one triton-ascend, no plain triton)"),
            evidence(link), (INSTALL, MATRIX), key=f"triton:{what}", family="compat", kind="triton-ascend-mismatch",
        )


# Triton builds a small host-side launcher for each kernel with the host C/C++ compiler: upstream triton compiles
# /tmp/tmpXXXX/main.c (cuda_utils.c in later releases) with gcc/cc, or the bundled tcc on Windows builds
# (runtime/build.py, subprocess.check_call); triton-ascend a precompiled header
# (precompiled.h in the Triton cache, "-x c++-header") and launcher_cxx11abi*.cxx with $CC, else clang++, else g++,
# against the Python, CANN and torch_npu headers (backend/utils.py _precompile_npu_ext / _build_npu_ext). Older
# releases run it with check_call (a CalledProcessError quoting the command), newer ones raise "Failed to compile …".
LAUNCHER_CMD = lazy(
    r"Command '\[\s*'(?:[^']*[/\\])?(clang\+\+|g\+\+|gcc|clang|cc|c\+\+|tcc)(?:-\d+)?(?:\.[Ee][Xx][Ee])?',"
    r"(?=.*?(?:\.triton[/\\]+cache|precompiled\.h|launcher_cxx11abi|[/\\]main\.c'|cuda_utils\.c'|[/\\]cuda_utils\.|__triton_launcher))"
)
LAUNCHER_FAILED = lazy(r"Failed to compile \S*?(precompiled\.h\.gch|launcher_cxx11abi\w*\.cxx)")
LAUNCHER_SOURCES = (
    "https://github.com/triton-lang/triton-ascend/blob/a84b1eb52b6215e2c171632f2df0892f1003cfc8/third_party/ascend/backend/utils.py",
    "https://github.com/triton-lang/triton/blob/15484adca1549204a50906b54a89072e4a7d7362/python/triton/runtime/build.py",
    "https://github.com/vllm-project/vllm-ascend/issues/6242",
)


class TritonLauncherBuild(Analyzer):
    id = "DRV-triton-launcher"
    title = "Triton could not build a kernel's host launcher with the C/C++ compiler"
    family = "operator"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = " ".join([link.message, *link.detail])
        m = LAUNCHER_CMD.search(text)
        failed = None if m is not None else LAUNCHER_FAILED.search(text)
        if m is None and failed is None:
            return None
        compiler = m.group(1) if m is not None else "the host C++ compiler"
        pch = "c++-header" in text or "precompiled.h" in text
        what = "the precompiled launcher header (precompiled.h)" if pch else "the kernel launcher stub"
        return Finding(
            f"Triton could not compile {what} with {compiler}",
            f"{link.short_type}: {link.message[:200]}. Before a Triton kernel runs, Triton compiles a small host-side "
            f"launcher for it with the host compiler ({compiler} here), against the Python headers and, for triton-ascend, "
            "the CANN and torch_npu headers. That compile failed: the compiler is missing or cannot build this header "
            "(clang++ and g++ differ; $CC overrides both), Python's development headers are not installed, the CANN "
            "include folders belong to another toolkit than the one triton-ascend was built for, or the Triton cache holds "
            "a broken build.",
            ("Run the quoted command by hand to see the compiler's own error (the exception keeps only the command)",
             "Install the headers and a working compiler: python3-dev (Python.h) and g++; point triton-ascend at one with "
             "export CC=g++ (or CC=clang++)",
             "On triton-ascend releases that read it, export TRITON_DISABLE_PRECOMPILE=1 to skip the precompiled header",
             "Source the CANN set_env.sh of the toolkit that matches triton-ascend, clear ~/.triton/cache, and retry; "
             "if it persists, move to the triton-ascend / vllm-ascend release that fixes the launcher build"),
            evidence(link), LAUNCHER_SOURCES, key=f"triton-launcher:{compiler}:{pch}", family="operator",
            kind="triton-kernel-compile-failed",
        )
