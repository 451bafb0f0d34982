"""triton on an Ascend host: it comes from triton-ascend, and a plain triton (or none) breaks imports.

vLLM, vllm-ascend and torch import ``triton`` on start-up; on an NPU host the package that provides
it is triton-ascend (the NPU backend). ``No module named 'triton'``, or a ``triton`` without its
``language`` / ``jit`` (an uninstall that left the namespace folder, a stub) means it is missing; a
missing *submodule* (``No module named 'triton.language.target_info'``) or name means the triton
installed is not the release the caller was written for. The fix names the triton-ascend version the
compatibility matrix pins for the logged vllm-ascend.
"""

from __future__ import annotations

import math

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


# Triton's OutOfResources (python/triton/runtime/errors.py; compiler.py's CompiledKernel._init_handles raises it at the
# kernel's first launch): f"out of resource: {name}, Required: {required}, Hardware limit: {limit}" and, since 2.1,
# ". Reducing block sizes or `num_stages` may help." The names: "shared memory" (bytes the kernel's tiles and pipeline
# stages need per block, against the device's per-block limit), "threads" (num_warps x warp size, against what the
# loaded binary allows: 3.x) and "tensor memory" (Blackwell TMEM columns, 512). triton-ascend reports no such limit: its
# driver's max_shared_mem is a placeholder 1 and every kernel's metadata "shared" is 1, so the check never fires on an NPU;
# the NPU's on-chip limit is BiShengIR's "ub overflow" at compile time (ARL-E231).
OUT_OF_RESOURCES = lazy(r"out of resource: (shared memory|threads|tensor memory), Required: (\d+), Hardware limit: (\d+)")
# The NPU's form of the same limit: BiShengIR refuses, at compile time, a kernel whose buffers need more of the AI Core's
# Unified Buffer than it has ("ub overflow, requires R bits while L bits available!", "avaliable" in some releases; 192 KB =
# 1572864 bits on A2/A3), raised through triton-ascend's MLIRCompilationError.
UB_OVERFLOW = lazy(r"ub overflow, requires (\d+) bits while (\d+) bits avai?l\w*able")
UB_SOURCE = "https://github.com/Ascend/triton-ascend/blob/eeb030e7bb71f8a251c5d378dbe2977e8b8dbb83/docs/en/programming_guide.md"
OUT_OF_RESOURCES_SOURCES = (
    "https://github.com/triton-lang/triton/blob/0b057fca1b9988afcfecd535b67d36ce92c0a5e9/python/triton/runtime/errors.py",
    "https://github.com/triton-lang/triton-ascend/blob/a84b1eb52b6215e2c171632f2df0892f1003cfc8/python/triton/compiler/compiler.py",
    "https://github.com/triton-lang/triton-ascend/blob/a84b1eb52b6215e2c171632f2df0892f1003cfc8/third_party/ascend/backend/driver.py",
)


class TritonOutOfResources(Analyzer):
    id = "DRV-triton-resources"
    title = "A Triton kernel's configuration needs more of a per-block resource than the device has"
    family = "operator"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind in ("cann", "process", "hydra"):
            return None
        text = " ".join([link.message, *link.detail])
        m = OUT_OF_RESOURCES.search(text)
        if m is None:
            return self._ub(link, text)
        name, required, limit = m.group(1), int(m.group(2)), int(m.group(3))
        if limit <= 0:
            return None
        ratio = required / limit
        if name == "shared memory":
            what = (f"the kernel's tiles and pipeline stages need {required} bytes ({required / 1024:.0f} KiB) of shared "
                    f"memory per block, {ratio:.1f}x the {limit} bytes ({limit / 1024:.0f} KiB) this GPU gives a block: its "
                    "BLOCK_* sizes and num_stages were tuned for a GPU with more shared memory")
            fix = (f"Lower num_stages and the BLOCK_* sizes of that kernel's config until it needs at most {limit} bytes "
                   "(each pipeline stage holds one more copy of the input tiles), or pick the package's config for this GPU "
                   "or a release whose configs cover it",
                   "Under torch.compile max-autotune, drop the mode or narrow the search so that configs that do not fit are "
                   "not chosen; or run on a GPU with more shared memory per block")
            kind = "triton-shared-memory-exceeded"
        elif name == "tensor memory":
            what = (f"the kernel needs {required} columns of tensor memory, the device has {limit}: the config's MMA tiles "
                    "are too large for it")
            fix = ("Lower the BLOCK_M / BLOCK_N sizes (or num_stages) of that kernel's config", )
            kind = "triton-shared-memory-exceeded"
        else:
            what = (f"the kernel is launched with {required} threads per block (num_warps x warp size), the loaded binary "
                    f"allows {limit}: its register use per thread caps the block below num_warps")
            fix = (f"Lower num_warps in that kernel's config (to at most {limit} threads per block), or simplify the kernel "
                   "so that it uses fewer registers", )
            kind = "triton-out-of-resources"
        return Finding(
            f"Triton kernel out of {name}: needs {required}, the device has {limit}"[:160],
            f"{link.short_type}: {m.group(0)}. Triton checks, when a compiled kernel is first launched, that its {name} fits "
            f"the device's per-block limit; here {what}. (On an Ascend NPU triton-ascend reports no such limit: the on-chip "
            "buffer's limit shows as BiShengIR's 'ub overflow' at compile time.)",
            fix, evidence(link), OUT_OF_RESOURCES_SOURCES, key=f"triton-resources:{name}:{required}:{limit}",
            family="operator", kind=kind, notes=(f"Triton {name}: {what}", fix[0]),
        )

    @staticmethod
    def _ub(link: Link, text: str) -> Finding | None:
        """BiShengIR's ub overflow: the kernel's on-chip buffers, in bits, against the Unified Buffer's size."""
        m = UB_OVERFLOW.search(text)
        if m is None:
            return None
        required, limit = int(m.group(1)), int(m.group(2))
        if limit <= 0:
            return None
        ratio = required / limit
        shrink = 2 ** math.ceil(math.log2(ratio)) if ratio > 1 else 1
        what = (f"the kernel's buffers need {required // 8} bytes ({required / 8 / 1024:.0f} KiB) of the AI Core's Unified "
                f"Buffer, {ratio:.1f}x the {limit // 8} bytes ({limit / 8 / 1024:.0f} KiB) it has")
        fix = (f"Make the kernel's BLOCK_SIZE / tile about {ratio:.1f}x smaller (with power-of-two sizes: {shrink}x), or split "
               "its loop; let triton.autotune choose among sizes that fit, and turn multi-buffering off for that kernel if "
               "it doubles the buffers",
               "For a kernel you did not write (torch.compile's, a library's), use the release whose configs cover this chip "
               "(A2/A3's Unified Buffer is smaller than A5's) or turn that path off")
        return Finding(
            f"triton-ascend kernel too large for the Unified Buffer: needs {required // 8} bytes, the core has {limit // 8}"[:160],
            f"{link.short_type}: {m.group(0)}. BiShengIR lays a Triton kernel's blocks out in the AI Core's on-chip Unified "
            f"Buffer when it compiles it for the NPU; here {what}, so the kernel never compiled (the NPU's form of a GPU "
            "kernel's shared-memory limit).",
            fix, evidence(link), (UB_SOURCE,), key=f"triton-ub:{required}:{limit}", family="operator",
            kind="triton-kernel-compile-failed", notes=(f"Unified Buffer: {what}", fix[0]),
        )
