"""Operators that could not be found or built: the op library, the op compiler and CANN's own Python.

Three failures that name an operator but are about the installation, not the model:

- ``aclnnX or aclnnXGetWorkspaceSize not in libopapi.so, or libopapi.so not found`` — torch_npu /
  vllm-ascend looked the operator up in CANN's op-API library (and the custom-op packages) and it is
  not there: the CANN ops are older than the caller, a custom-op package the model needs is not
  installed, or CANN's environment is not loaded in this process.
- ``Failed to compile Op [X]`` (E40021 / E20001, TEFUSION's ``Compile op[X] failed``) — CANN builds
  some operators at first use with its TBE compiler; the build failed. The compiler's own message
  says why: a header or Python module of the toolkit is missing (an incomplete or unsourced CANN), or
  the operator rejects the shape.
- ``No module named 'tbe…'`` / ``'te'`` and CANN's Python dependencies (decorator, attrs, psutil,
  cloudpickle, sympy, scipy) raised from CANN's own Python — the CANN Python packages are not on the
  path of this interpreter (set_env.sh not sourced) or their pip dependencies are missing.
"""

from __future__ import annotations

import re

from .. import chain as chains
from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

NOT_IN_OPAPI = lazy(r"\b(aclnn\w+?) or \1GetWorkspaceSize not in (lib\w+\.so)")
COMPILE = lazy(r"Failed to compile Op \[([^\]]*?),?\]|Compile op\[([^\]]*?),?\] failed")
MISSING_HEADER = lazy(r"fatal error: '([^']+)' file not found")
# TIK / TBE raise their own compile-time checks as RuntimeError(dict) (tbe/tik/tik_lib/tik_check_util.py print_error_msg,
# TBE's dsl checks): "{'errCode': 'EA0000', 'message': 'src tensor overflow, …'}", the code one of CANN's registered
# compile errors (EA0000 Inner_Error_Compile_Fail "Compile operator failed", EBxxxx "TBE Pass Compiler Errors" —
# hicann/runtime error_code.json). The operator's implementation file is named under it ("File path: …/tbe/impl/x.py").
TIK_ERROR = lazy(r"\{'errCode': '(E[AB]\d{4})', 'message': '([^']{0,200})")
TBE_IMPL = lazy(r"/op_impl/\w+/tbe/impl/(?:dynamic/)?(\w+)\.py")
CANN_ERROR_CODES = "https://github.com/hicann/runtime/blob/681ef7610df13c8128982901142a2c869ddbb53e/src/dfx/error_manager/error_code.json"
TOOLKIT = lazy(r"/(?:ascend-toolkit|cann)[-/]([\d]+\.\d+\.[\w.]+?)/(?:opp|python|lib64)\b", re.I)
# CANN's own Python packages (pyACL is the module acl, under the toolkit's python/site-packages that set_env.sh puts on
# PYTHONPATH) and the pip packages they need (CANN's installation guide lists them).
# te_fusion: the fusion manager shipped in CANN's te wheel (older toolkits, MindSpore's graph compiler imports it); some
# tracebacks quote the module with double quotes.
CANN_MODULES = lazy(r"No module named ['\"]((?:te|te_fusion|tbe|op_gen|op_compile_tool|schedule_search|auto_tune|repository_manager|opc_tool|acl)(?:\.[\w.]+)?)['\"]")
CANN_DEPS = lazy(r"No module named '(decorator|attrs?|psutil|cloudpickle|sympy|scipy|synr|tornado|absl|ml_dtypes|cffi)'")
CANN_FRAME = lazy(r"/Ascend/|/(?:site|dist)-packages/(?:te|tbe|op_gen|auto_tune|schedule_search)/")
OP_API_DOC = "https://www.hiascend.com/document/detail/en/canncommercial/850/API/aolapi/atlasascendc_api_07_1205.html"
MATRIX = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/community/versioning_policy.md"
CANN_INSTALL = "https://www.hiascend.com/document/detail/zh/canncommercial/850/softwareinst/instg/instg_0044.html"
CANN_DEPS_THREAD = "https://github.com/Ascend/pytorch/issues/7"
CANN_ERRORS = "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/900beta2/maintenref/troubleshooting/troubleshooting_0225.html"


def _texts(link: Link, chain: Chain) -> list[str]:
    return [link.message, link.text, *link.detail]


def cann_for(facts: Facts) -> str:
    """What the compatibility matrix says about the CANN the logged vllm-ascend release needs."""
    have = facts.versions.get("vllm_ascend")
    if not have:
        return ""
    try:
        from ascendrl.preflight import compat
    except ImportError:  # pragma: no cover - the catalog used on its own
        return ""
    row = next((r for r in compat.matrices()["vllm_ascend"]["rows"] if r["vllm_ascend"] == have), None)
    return f"vllm-ascend {have} is documented with CANN {row['cann']}" if row and row.get("cann") else ""


class OpMissing(Analyzer):
    id = "DRV-op-missing"
    title = "An aclnn operator is missing from the installed CANN op library"
    family = "operator"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare", "cann"):
            return None
        m = next((m for t in _texts(link, chain) if (m := NOT_IN_OPAPI.search(t))), None)
        if m is None:
            return None
        op, lib = m.group(1), m.group(2)
        pair = cann_for(facts)
        cause = (f"The caller looked up {op} in CANN's operator API library ({lib}) and in the custom-op packages on "
                 f"ASCEND_CUSTOM_OPP_PATH, and found it in none: the CANN operator packages installed are older than the "
                 f"release that calls {op} needs, the custom-op package that provides it (vllm-ascend's own ops) is not "
                 f"installed, or CANN's environment is not loaded in this process." + (f" {pair}." if pair else ""))
        return Finding(
            f"{op} is not in the installed CANN ({lib})", cause,
            (f"Check: nm -D $ASCEND_HOME_PATH/lib64/{lib} | grep {op}  (and the custom-op packages under $ASCEND_CUSTOM_OPP_PATH)",
             "Install the CANN release (toolkit and ops/kernels of the same version) that your vllm-ascend / torch_npu release "
             "is documented with" + (f" ({pair})" if pair else "") + "; or use the vllm-ascend release that matches your CANN",
             "Source CANN's set_env.sh (and the custom-op package's set_env.bash) in the shell that starts the job, then restart Ray"),
            evidence(link), (MATRIX, OP_API_DOC), key=f"opapi:{op}", family="operator", kind="op-missing-in-opapi",
        )


# Headers of CANN's AscendC / ACL / HCCL SDK as kernels and extensions include them (vllm-ascend's csrc/kernels include
# kernel_operator.h, kernel_tpipe_impl.h … and inner_interface/inner_kernel_operator_intf.h).
CANN_HEADER = lazy(r"^(?:kernel_\w+\.h|inner_interface/|lib/matmul_intf|kernel_tiling/|acl/|aclnn\w*[/.]|hccl/|graph/|ge/|register/"
                   r"|tiling/|tikcfw/|__clang_cce\w*\.h|platform/)")
PY_HEADER = lazy(r"^(?:Python|pyconfig|longintrepr)\.h$")
# torch_npu's C++ headers as an extension includes them (<torch_npu/csrc/core/npu/NPUStream.h>, torch_npu/csrc/aten/…);
# torch_npu ships them under its package's include/ folder.
TORCH_NPU_HEADER = lazy(r"^torch_npu/(?:csrc|inc)/")
TORCH_NPU_INCLUDE = "https://github.com/vllm-project/vllm-ascend/pull/661"
HEADER_NAME = lazy(r"'([^']+)' file not found|: ([^\s:']+): No such file or directory|include file: '([^']+)'")
ASCENDC_KERNEL = "https://github.com/vllm-project/vllm-ascend/blob/v0.13.0/csrc/kernels/pos_encoding_kernels.cpp"
PY_DEV = "https://docs.python.org/3/extending/extending.html"
# The compiler's own standard library headers (C++ <cstdint>, <vector> …, C <stdint.h> …): no package provides them but
# the toolchain itself, so not finding one means the compiler in use has no usable standard library: g++ / libstdc++'s
# development headers not installed, a gcc older than the build needs, or a clang-based compiler (clang++, CANN's
# bisheng) that picked a GCC installation without them.
STD_HEADER = lazy(
    r"^(?:c(?:stdint|stddef|stdlib|stdio|string|math|limits|assert|errno|float|ctype|time)|string|vector|map|unordered_map|set"
    r"|memory|iostream|ostream|sstream|fstream|type_traits|utility|algorithm|functional|atomic|mutex|thread|array|tuple"
    r"|optional|variant|cassert|initializer_list|new|limits|numeric|chrono|exception|stdexcept|cstdarg"
    r"|(?:stdint|stddef|stdlib|stdio|string|math|limits|stdarg|stdbool|assert|errno|float|ctype|time|wchar)\.h)$"
)
TOOLCHAIN_SOURCES = (
    "https://gcc.gnu.org/onlinedocs/libstdc++/manual/using_headers.html",
    "https://github.com/Ascend/MindSpeed-MM/blob/v26.1.0/examples/verl_examples/qwen3vl/README.md",
    "https://github.com/Ascend/pytorch/issues/74",
)


class BuildHeader(Analyzer):
    id = "DRV-build-header"
    title = "A source build or a JIT-compiled launcher could not find a header"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind != "cann" or link.type != "compiler" or (m := HEADER_NAME.search(link.message)) is None:
            return None
        header = m.group(1) or m.group(2) or m.group(3)
        toolkit = next((k.group(1) for t in _texts(link, chain) if (k := TOOLKIT.search(t))), "")
        if CANN_HEADER.search(header):
            return Finding(
                f"Building custom NPU operators failed: CANN header {header} not found",
                f"The compiler stopped on {header}, a header of CANN's AscendC / ACL SDK that the custom operators (vllm-ascend's "
                f"kernels, a custom-op package) include. The CANN toolkit{f' {toolkit}' if toolkit else ''} is not loaded in the build's "
                "environment, is incomplete, or is not the release these sources were written for (headers move between CANN releases).",
                ("Load the toolkit before building: source /usr/local/Ascend/ascend-toolkit/set_env.sh (ASCEND_HOME_PATH, the compiler's include paths), then rebuild from a clean build folder",
                 f"Check the header exists: find /usr/local/Ascend -name '{header.rsplit('/', 1)[-1]}'; if not, install the CANN release the package documents (toolkit and kernels of one version)",
                 "Or avoid the build: install the prebuilt wheel / image of the package for your CANN"),
                evidence(link), (ASCENDC_KERNEL, MATRIX), key=f"header:{header}", family="compat", kind="custom-ops-build-failed",
            )
        if STD_HEADER.search(header):
            return Finding(
                f"The compiler cannot find its own standard header <{header}>: the gcc/g++ toolchain is too old or incomplete",
                f"The compiler stopped on {header}, a header of the C/C++ standard library, which comes with the compiler "
                "toolchain itself (libstdc++ for gcc, used by clang and CANN's bisheng too). The compiler in use has no usable "
                "standard library: g++ and its libstdc++ development headers are not installed next to gcc, the gcc is older "
                "than the build needs, or a clang-based compiler picked an old GCC installation.",
                ("Check the toolchain: gcc --version and g++ --version (both present, same version); with clang, clang++ -v shows "
                 "the 'Selected GCC installation' whose headers it uses",
                 "Install a gcc/g++ of the version the CANN / vllm-ascend install guide names (with libstdc++ development "
                 "headers: g++ / gcc-c++ / libstdc++-devel), make it the default (update-alternatives, CC/CXX), then rebuild "
                 "from a clean build folder"),
                evidence(link), TOOLCHAIN_SOURCES, key=f"header:{header}", family="compat", kind="gcc-too-old",
            )
        if TORCH_NPU_HEADER.search(header):
            return Finding(
                f"Building the NPU extension failed: torch_npu header {header} not found",
                f"The compiler stopped on {header}, a header of torch_npu that the package's NPU extension (custom operators, "
                "a C++ binding on torch_npu's streams or allocator) includes. The build does not see torch_npu's headers: "
                "torch_npu is not installed in the build's Python (pip build isolation hides it), or it is another torch_npu "
                "release than the one the package pins, whose headers moved or were not shipped.",
                ("Install the torch_npu release the package pins into the same environment, then build without isolation: pip install --no-build-isolation -e .",
                 f"Check the header is there: find $(python -c 'import torch_npu, os; print(os.path.dirname(torch_npu.__file__))') -name '{header.rsplit('/', 1)[-1]}'",
                 "Or avoid the build: install the prebuilt wheel / image of the package for your torch_npu and CANN"),
                evidence(link), (TORCH_NPU_INCLUDE, MATRIX), key=f"header:{header}", family="compat", kind="custom-ops-build-failed",
            )
        if PY_HEADER.search(header):
            return Finding(
                f"Python development headers are missing ({header})",
                f"The compiler stopped on {header}: a C extension or a launcher compiled at run time (triton / triton-ascend build "
                "one for each kernel) includes Python's C API, which comes with the Python development package, not with the "
                "interpreter itself.",
                ("Install the headers of the interpreter that runs the job: apt-get install python3.X-dev, or yum/dnf install python3-devel (the same X as python --version)",
                 "In a conda env or a python.org build, point the compiler at its include dir: export CPATH=$(python -c 'import sysconfig; print(sysconfig.get_paths()[\"include\"])')"),
                evidence(link), (PY_DEV,), key=f"header:{header}", family="compat", kind="python-dev-headers-missing",
            )
        return Finding(
            f"A build could not find header {header}",
            f"The compiler stopped on {header}: the library or SDK that provides it is not installed, or not on the include path of this build.",
            (f"Find which package provides {header} and install its development files, or add its include dir to CPATH / the build's include paths",),
            evidence(link), (PY_DEV,), key=f"header:{header}", family="compat", kind="build-header-missing",
        )


class OpCompile(Analyzer):
    id = "DRV-op-compile"
    title = "CANN could not compile an operator at first use"
    family = "operator"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare", "cann"):
            return None
        texts = [t for other in chain.links for t in (other.message, other.text, *other.detail)]
        m = next((m for t in _texts(link, chain) if (m := COMPILE.search(t))), None)
        tik = None if m is not None else next((k for t in _texts(link, chain) if (k := TIK_ERROR.search(t))), None)
        if m is None and tik is None:
            return None
        if m is not None:
            op = (m.group(1) or m.group(2) or "").strip(", ")
        else:
            impl = next((i for t in (*texts, *(str(f) for f in link.frames)) if (i := TBE_IMPL.search(t))), None)
            op = f"{impl.group(1)} (TBE implementation)" if impl else ""
        header = next((h for t in texts if (h := MISSING_HEADER.search(t))), None)
        toolkit = next((k.group(1) for t in texts if (k := TOOLKIT.search(t))), "")
        on = f" (CANN {toolkit})" if toolkit else ""
        if header:
            reason = (f"The compiler could not find {header.group(1)}: the CANN toolkit{on} is incomplete (the compiler package "
                      "was not installed or was removed) or the toolkit's environment is not loaded, so the compiler runs without its headers.")
            fix = ("Source the toolkit's set_env.sh in the process that runs the model (ASCEND_HOME_PATH, the compiler's include paths)",
                   f"Reinstall the CANN toolkit{on} completely (toolkit and ops/kernels of one version) if the header is missing on disk: find / -name '{header.group(1)}' 2>/dev/null")
        elif tik is not None:
            reason = (f"CANN's TBE / TIK compiler stopped building {op or 'the operator'}{on} with its own check, "
                      f"{tik.group(1)}: {tik.group(2).strip()} — one of CANN's registered operator compile errors (EA0000 "
                      "'Compile operator failed', EBxxxx 'TBE Pass Compiler Errors'). The built-in operator's implementation "
                      "cannot be compiled for the shapes and dtypes of this call in this CANN release (a kernel bug for that "
                      "shape, or a shape the operator does not support).")
            fix = ("Note the operator, the input shapes and dtypes of the call (the model code above the error) and try the "
                   "newest CANN release of the same line, whose operator package may fix it; report it to the CANN ops with the shapes",
                   "Work around it in the caller: give the operator other shapes (pad or reshape, a contiguous tensor, another "
                   "slice form) or run that step another way (eager vs graph mode, a different kernel path)",
                   "Clear the operator compile cache (kernel_meta / ~/atc_data) after changing CANN")
        else:
            reason = (f"CANN's TBE compiler failed to build {op or 'the operator'}{on} for the shapes and dtypes of this call; the "
                      "compiler's message under the error (errormsg/stack) says why — an unsupported shape or dtype, a pre-release "
                      "(alpha) CANN regression, or a broken toolkit.")
            fix = ("Read the compile error under the E40021 line (or the device log) for the reason; retry with the operator's inputs cast or reshaped if it rejects them",
                   "Use a released (not alpha) CANN that your torch_npu / vllm-ascend release is documented with; reinstall the toolkit and ops of one version",
                   "Clear the operator compile cache (kernel_meta / ~/atc_data) after changing CANN")
        return Finding(
            f"CANN failed to compile operator {op or '(unnamed)'}"[:160], f"{reason}", fix, evidence(link),
            (CANN_ERRORS, CANN_ERROR_CODES) if tik else (CANN_ERRORS,), key=f"compile:{op}:{bool(header)}", family="operator",
            kind="op-compile-failed",
        )


class CannPython(Analyzer):
    id = "DRV-cann-python"
    title = "CANN's own Python packages or their dependencies are missing"
    family = "cann-env"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        text = "\n".join(_texts(link, chain))
        if m := CANN_MODULES.search(text):
            module = m.group(1)
            return Finding(
                f"CANN's Python package {module.split('.')[0]} is not importable",
                f"No module named '{module}': {module.split('.')[0]} is CANN's own Python package (the operator compiler and "
                "tuning tools under the toolkit's python/site-packages). This interpreter does not have it on its path: CANN's "
                "set_env.sh was not sourced for this process (it adds the toolkit's python/site-packages to PYTHONPATH), or "
                "the toolkit installed lacks it.",
                ("source /usr/local/Ascend/ascend-toolkit/set_env.sh (CANN >= 8.5: /usr/local/Ascend/cann/set_env.sh) in the shell "
                 "that starts the job, and restart Ray so its workers inherit PYTHONPATH",
                 "Check: python -c 'import tbe, te' in that environment; ls $ASCEND_HOME_PATH/python/site-packages"),
                evidence(link), (CANN_INSTALL,), key=f"cannpy:{module}", family="cann-env", kind="cann-python-path-missing",
            )
        m = CANN_DEPS.search(text)
        # CANN's own report of the import (E40020, Environment_Error_Import_Python_Module_Failed: "Failed to import Python
        # module %s. Reason: %s.", cann_registry.yaml) says the same as a frame in its Python: its operator compiler did it.
        if m is None or not (CANN_FRAME.search(text) or any(CANN_FRAME.search(f.path) for f in link.frames)
                             or "E40020" in link.codes):
            return None
        return Finding(
            f"A Python dependency of CANN is not installed: {m.group(1)}",
            f"No module named '{m.group(1)}', raised inside CANN's own Python (the operator compiler): CANN needs pip packages "
            "of its own in the interpreter that runs the model (its installation guide lists numpy, decorator, sympy, cffi, "
            "protobuf, attrs, psutil, scipy, cloudpickle, ...), and this one is missing.",
            (f"pip install {m.group(1).replace('attr', 'attrs').replace('attrss', 'attrs')} (and the rest of CANN's list) in the environment that runs the job",
             "A new virtualenv/conda env does not inherit them: install CANN's Python dependencies there too"),
            evidence(link), (CANN_INSTALL, CANN_DEPS_THREAD), key=f"canndep:{m.group(1)}", family="cann-env", kind="cann-python-deps-missing",
        )


# A build step that setup.py / a build backend ran as a shell command and that returned non-zero:
# subprocess's "Command '…' returned non-zero exit status N" (CalledProcessError, or a RuntimeError that quotes it),
# where the command is a native build (cmake, make, ninja, a compiler). The marker says it builds for the NPU
# (CANN's set_env.sh or toolkit, torch_npu, an Ascend SoC, the AscendC compilers, a *_ascend* target).
# (The command is often longer than what a chain keeps of a message: its tail may be cut.)
BUILD_COMMAND = lazy(r"Command '(.+?)(?:'\s*returned non-zero exit status (-?\d+)|$)")
BUILD_TOOL = lazy(r"(?<![\w/.-])(?:[\w/.-]*/)?(cmake|ninja|bisheng|ccec|g\+\+|gcc|g?make)(?![\w.-])")
NPU_BUILD = lazy(r"(?i)ascend|torch_npu|\bcann\b|SOC_VERSION|\bbisheng\b|\bccec\b|\bnpu\b")
EXIT_STATUS = lazy(r"returned non-zero exit status (-?\d+)")
# The NPU packages' setup.py wrapper around their CMake step (vllm-ascend setup.py since v0.7.3, LMCache-Ascend's copy): it
# wraps the cmake run and the pybind11 lookup before it ('python -m pybind11 --cmakedir'), so the command it quotes need
# not name a build tool nor the NPU: the wrapper says both.
SETUP_CMAKE = lazy(r"CMake configuration failed: ")
SETUP_SOURCES = ("https://github.com/vllm-project/vllm-ascend/blob/v0.9.1/setup.py",
                 "https://github.com/LMCache/LMCache-Ascend/blob/169ee7283de1f8ce3b26149f5bc1399fc45b2373/setup.py")
SUBPROCESS_DOC = "https://docs.python.org/3/library/subprocess.html#subprocess.CalledProcessError"


class NativeBuild(Analyzer):
    id = "DRV-native-build"
    title = "A package's NPU extension (custom operators) failed to build"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        text = " ".join([link.message, *link.detail])
        m = BUILD_COMMAND.search(link.message)
        if m is None:
            return None
        found = BUILD_TOOL.search(m.group(1))
        if not SETUP_CMAKE.search(link.message) and (found is None or not NPU_BUILD.search(text)):
            return None
        status = m.group(2) or next((e.group(1) for t in (link.message, link.text, *link.detail) if (e := EXIT_STATUS.search(t))), "")
        tool = found.group(1) if found else "cmake"
        why = ("Exit status 127 is the shell's 'command not found': a program the command runs (cmake, a compiler, "
               "or a tool CANN's set_env.sh should have put on PATH) is not installed or not on PATH. " if status == "127" else "")
        return Finding(
            f"Building the package's NPU extension failed ({tool} " + (f"exited with status {status})" if status else "failed)"),
            "The package's setup compiles its NPU extension (custom AscendC operators, a C++ binding on torch_npu) by running "
            f"{tool} against the installed CANN and torch_npu, and that command failed, so no wheel was built. {why}The build "
            "output above this line (the first 'error:' of the compiler, CMake's error, a missing header) says which step "
            "and why: often CANN's environment not loaded, a CANN / torch_npu release other than the package supports, or a "
            "host toolchain (cmake, gcc) missing or too old.",
            ("Rerun the install with the build log visible (pip install -v --no-build-isolation -e .) and read the first error above this line",
             "source the CANN set_env.sh in the same shell, check cmake --version and gcc --version against the package's build "
             "requirements, and use the CANN and torch_npu releases it documents",
             "Or avoid the build: use the package's prebuilt wheel or image for your CANN, or its switch that skips the custom kernels if it has one"),
            evidence(link), (SUBPROCESS_DOC, MATRIX, *(SETUP_SOURCES if found is None else ())), key=f"build:{tool}:{status}",
            family="compat", kind="custom-ops-build-failed",
            notes=(f"{tool} exited with status {status}",) if status else None,
        )



# A compiler error located in CANN's AscendC kernel API (k34pkg): the headers a kernel source includes live under the
# toolkit's tikcpp/tikcfw (tools/tikcpp in older toolkits, compiler/tikcpp in newer ones, which the AscendC kernel CMake
# of vllm-ascend / llama.cpp's CANN backend points at), with one implementation folder per core architecture
# (impl/dav_c100, impl/dav_c220, impl/dav_m200 ...). An error there, reached from a template the package's kernel
# instantiates ("in instantiation of ... requested here"), means the package's AscendC kernels do not compile against this
# CANN for the core the build targets (SOC_VERSION / SOC_TYPE): an API or data-type combination that core's AscendC does
# not provide (llama.cpp#10556: a 4-bit Cast on dav_c100), or a CANN release other than the one the kernels were written for.
ASCENDC_DIAG = lazy(r"^([^\s:]{0,300}/tikcpp/tikcfw/[^\s:]+):\d+:\d+: error: ")
ASCENDC_CORE = lazy(r"/impl/(dav_\w+)/")
ASCENDC_EXAMPLE = "https://github.com/ggml-org/llama.cpp/issues/10556"


class AscendCKernelCompile(Analyzer):
    id = "DRV-ascendc-compile"
    title = "A package's AscendC kernels do not compile against this CANN for the target core"
    family = "compat"
    stops_run = "the build fails the same way until the SoC target or the CANN release changes"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind != "bare" or (m := ASCENDC_DIAG.match(link.text)) is None:
            return None
        header = m.group(1).split("/tikcfw/", 1)[-1]
        core = (c.group(1) if (c := ASCENDC_CORE.search(m.group(1))) else "")
        return Finding(
            f"Building custom NPU operators failed: the AscendC kernel does not compile{f' for {core}' if core else ''}"[:160],
            f"error: {link.message[:200]}. The compiler stopped inside CANN's AscendC kernel API ({header}), reached from a "
            "kernel the package builds (its custom operators): the kernel uses an AscendC call or data-type combination that "
            + (f"the {core} implementation of " if core else "")
            + "this CANN does not provide for the core the build targets. The SoC target given to the build (SOC_VERSION / "
            "SOC_TYPE) is not one the kernels support, or the installed CANN is not the release they were written for.",
            ("Build for the SoC you run on and the package supports: leave SOC_VERSION / SOC_TYPE to the package's detection "
             "or set it to the chip npu-smi info shows (the package's build docs list the supported ones)",
             "Install the CANN release the package documents for its kernels (toolkit and kernels of one version), then rebuild "
             "from a clean build folder",
             "Or avoid the build: the package's prebuilt wheel or image for your chip and CANN, or its switch that skips the custom kernels"),
            evidence(link), (ASCENDC_KERNEL, ASCENDC_EXAMPLE), key=f"ascendc:{core}:{header}", family="compat",
            kind="custom-ops-build-failed", notes=(f"AscendC header {header}",),
        )


# CMake's own error report (Source/cmMessenger.cxx: "CMake Error at <file>:<line> (<command>):", the message indented below,
# cmSystemTools::SetErrorOccured): the configure of a package's native code stopped, so nothing of it was built. Read by the
# classifier as a bare "Exception: <message>" (chains.CMAKE_ERROR). The message is the package's own check (a find module's
# "Could NOT find X (missing: …)", a message(FATAL_ERROR …) of its CMakeLists) or CMake's; the package named in the file
# path (its CMakeLists / cmake/Find*.cmake) is the one whose extension did not configure.
CMAKE_MESSENGER = "https://github.com/Kitware/CMake/blob/01e768850a4b250c5775e95c1568d59de07105de/Source/cmMessenger.cxx"
CMAKE_AT = lazy(r"^CMake Error (?:at|in) (\S+?)(?::\d+)? \(\w+\):")


class CMakeConfigure(Analyzer):
    id = "DRV-cmake-configure"
    title = "CMake stopped configuring a package's native extension (custom operators, a C++ binding)"
    family = "compat"
    stops_run = "the build fails the same way until what the message names is installed or pointed at"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind != "bare" or chains.CMAKE_ERROR.match(link.text) is None:
            return None
        at = CMAKE_AT.match(link.text)
        where = f" ({at.group(1)})" if at else ""
        return Finding(
            "Building the package's native extension failed: CMake stopped at configure"[:160],
            f"CMake Error{where}: {link.message[:240].rstrip('.')}. The package compiles native code (custom NPU operators, a C++ "
            "binding on torch / torch_npu, a CANN backend) with CMake, and the configure step stopped on this error, so "
            "nothing of the extension was built. The message names what the package's CMake looked for and did not find or "
            "did not accept: a library or its headers (torch_npu, CANN, a compiler), a variable the build needs set (a CANN "
            "path or version, the SoC), or a release it does not support.",
            ("Do what the message asks: install or point at what it names (source CANN's set_env.sh so ASCEND_HOME_PATH / "
             "ASCEND_TOOLKIT_HOME are set; install torch_npu with its headers in the same Python; pass the -D variable it names)",
             "Use the CANN, torch / torch_npu and compiler releases the package documents, then rebuild from a clean build folder "
             "(delete CMakeCache.txt: CMake keeps a failed lookup's -NOTFOUND value)",
             "Or avoid the build: the package's prebuilt wheel or image for your chip and CANN"),
            evidence(link), (CMAKE_MESSENGER, MATRIX), key=f"cmake:{where}", family="compat", kind="custom-ops-build-failed",
        )
