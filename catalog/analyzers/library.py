"""A shared library the process could not load: whose library it is says what is missing.

``libX.so: cannot open shared object file`` (and pydcmi's ``DCMIError_LibraryNotFound``) name the
library, not the cause. CANN's own libraries (libascendcl, libhccl, libopapi, …) are found only
after CANN's ``set_env.sh`` is sourced in the process that loads them; the NPU driver's
(libascend_hal, libdcmi) only where the driver is installed or mounted into the container; CUDA's
(libcudart, libcudnn, …) never on an Ascend host — a CUDA-only package is installed. Anything else
is a library outside the loader's search path (``LD_LIBRARY_PATH``).
"""

from __future__ import annotations

import re

from .. import glibc_zh
from ..chain import LINKER_LIB_MESSAGE, Chain, Link
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

# In a zh_CN locale the loader prints its message translated (glibc_zh.CANNOT_OPEN_SHARED).
CANNOT_OPEN = lazy(r"(\S*?([\w.+-]+\.so)[0-9.]*)\s?[:：]\s?(?:cannot open shared object file|" + glibc_zh.CANNOT_OPEN_SHARED + ")")
# The same failure in a program's or a person's words, inside an exception message ("ImportError: cannot find
# libascendcl.so when importing torch_npu"): groups as CANNOT_OPEN's.
CANNOT_FIND = lazy(r"(?:cannot|can't|can not|could not|couldn't|unable to) (?:find|locate) (?:the )?(?:library |file )?[`'\"]?(\S*?(lib[\w+-]+\.so)[0-9.]*)")
DCMI_LIB = lazy(r"DCMIError_LibraryNotFound|DCMI.{0,40}Library Not Found|libdcmi\.so", re.I)
# Libraries of the CANN toolkit / NNAL (sourced by set_env.sh) and of the NPU driver (mounted from the host). The
# operator API is libopapi.so, or split by feature into libaclnn_<feature>.so (ops_infer, ops_train, math, sparse, fft, rand:
# op-plugin's GetOpApiFuncAddrFromFeatureLib, OP_PLUGIN_FEATURE_LIBS below) and libopapi_<feature>.so in later toolkits.
OP_PLUGIN_FEATURE_LIBS = "https://github.com/Ascend/op-plugin/blob/acd824ef89ddd38c25d0ca845888ef4087aae5c3/op_plugin/utils/op_api_common.cpp"
CANN_LIBS = lazy(
    r"^lib(?:ascendcl|ascend_dump|acl_\w+|aclnn_\w+|hccl\w*|opapi(?:_\w+)?|cust_opapi|nnopbase|ge_\w+|graph|register|runtime\w*|platform|c_sec|"
    r"error_manager|msprof\w*|tiling_api|ascend_protobuf|aicpu_\w+|ascendalog|mmpa|tsdclient|fmk_\w+|op_\w+|optiling)\.so"
)
# liboptiling.so is the opp's tiling library (opp/built-in/op_impl/ai_core/tbe/op_tiling/lib/linux/<arch>), which the toolkit's
# set_env.sh puts on LD_LIBRARY_PATH next to lib64 and lib64/plugin/opskernel (libaicpu_ascend_engine.so); MindSpore's Ascend
# plugin (libmindspore_ascend.so) links it.
# Libraries of the NNAL package's ATB (Ascend Transformer Boost), in $ATB_HOME_PATH/lib: on the loader's path only after
# nnal/atb/set_env.sh, and absent when NNAL (a separate package from the toolkit) is not installed. torch_atb loads exactly
# these (ascend-transformer-boost torch_atb/__init__.py); torch_npu's op-plugin reaches libatb.so the same way.
NNAL_LIBS = lazy(r"^lib(?:atb|atb_train|atb_mixops|asdops|mki|lcal)\.so")
ATB_LIBS = "https://github.com/hicann/ascend-transformer-boost/blob/5051d20f12f37a799ae1241506206550349bf1d4/torch_atb/__init__.py"
VLLM_ASCEND_NNAL = "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/docs/source/faqs.md"
DRIVER_LIBS = lazy(r"^lib(?:ascend_hal|drvdsmi_host|dcmi|c_sec_drv|mmpa_drv)\.so")
# FFmpeg's shared libraries (libavutil.so.56, libavcodec.so.60, …): a system package pip never installs, which TorchCodec's
# libtorchcodec_core<N> (and torchaudio's FFmpeg backend) link against.
FFMPEG_LIBS = lazy(r"^lib(?:avutil|avcodec|avformat|avdevice|avfilter|swscale|swresample|postproc)\.so")
TORCHCODEC = "https://github.com/meta-pytorch/torchcodec/blob/v0.16.0/src/torchcodec/_internally_replaced_utils.py"
# Libraries a Linux distribution's packages install, never pip: the Python package that loads them cannot bring them, so
# a slim container image or a minimal host lacks them. The loader's name (group 2 of CANNOT_OPEN) -> (who loads it, the
# Debian / Ubuntu package, the RHEL / openEuler package).
SYSTEM_LIBS = {
    "libGL.so": ("opencv-python's cv2 (the opencv-python-headless wheel needs no libGL)", "libgl1", "libglvnd-glx (or mesa-libGL)"),
    "libgthread-2.0.so": ("opencv-python's cv2", "libglib2.0-0", "glib2"),
    "libglib-2.0.so": ("opencv-python's cv2", "libglib2.0-0", "glib2"),
    "libsndfile.so": ("soundfile (audio decoding in datasets and reward code)", "libsndfile1", "libsndfile"),
    "libaio.so": ("DeepSpeed's async_io op (NVMe offload)", "libaio1", "libaio"),
    "libquadmath.so": ("gfortran-built code (libgfortran: SciPy / OpenBLAS builds, common on aarch64)", "libquadmath0", "libquadmath"),
    "libgomp.so": ("OpenMP-parallel native code (onnxruntime, CPU kernels of compiled extensions)", "libgomp1", "libgomp"),
}
SYSTEM_LIB_SOURCES = ("https://github.com/containers/ramalama/pull/2031", "https://github.com/libsndfile/libsndfile/issues/297",
                      "https://github.com/deepspeedai/DeepSpeed/issues/6972", "https://github.com/AnacondaRecipes/aggregate/issues/32",
                      "https://github.com/microsoft/onnxruntime/issues/6020")
CUDA_LIBS = lazy(r"^lib(?:cuda|cudart|cudnn\w*|cublas\w*|nvrtc\w*|nccl|nvToolsExt|cufft|curand|cusparse\w*|nvidia-ml)\.so")
# torch_npu's CANN check at import: a CANN variable unset or pointing at a missing folder ("… please run 'source set_env.sh'").
CANN_VARS = lazy(r"ASCEND_(?:HOME|OPP|RUNTIME|COMPILER|TOOLKIT_HOME|AICPU)_PATH\b.{0,120}?(?:not set|does not exist|not exist)|run '?source [\w/.-]*set_env\.sh", re.I)
# A library a Python package keeps in its own folder, found through that package's import (torch_npu/_C's RPATH is
# $ORIGIN/lib, setup.py), never through LD_LIBRARY_PATH: "not found" means nothing imported the package yet. torch's
# own libraries are left out: libtorch_cpu.so / libtorch_cuda_cu.so missing there mostly means an extension built
# against another torch release (the names changed between releases), not the import order.
PACKAGE_LIBS = {"libtorch_npu.so": "torch_npu"}
TORCH_NPU_LIBS = "https://github.com/Ascend/pytorch/blob/v7.2.0-pytorch2.7.1/setup.py"
NPU_INTERCEPT = "https://github.com/Ascend/pytorch/blob/v7.2.0-pytorch2.7.1/torch_npu/utils/npu_intercept.py"
LDSO = "https://man7.org/linux/man-pages/man8/ld.so.8.html"
CANN_ENV = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/installation.md"
ASCEND_DOCKER = "https://github.com/Ascend/ascend-docker-runtime"
# The linker's "-l<name>" not found (GNU ld "cannot find -lX", lld "unable to find library -lX": ARL-E2614's reading): for a
# library of CANN, NNAL or the NPU driver, where that library lives says which -L the build lacks. The linker searches -L,
# LIBRARY_PATH and the system folders, never LD_LIBRARY_PATH, so a sourced set_env.sh does not make a link find it.
LINK_LIB = lazy(LINKER_LIB_MESSAGE)
# The driver's libraries are in /usr/local/Ascend/driver/lib64/driver (libascend_hal, libdrvdsmi_host) and lib64/common,
# outside the toolkit: torch_npu's container instructions list these folders, and vllm-ascend's ai_qos build searches
# driver/lib64/driver for libdrvdsmi_host.
DRIVER_DIRS = ("https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/docker/devel/README.md",
               "https://github.com/vllm-project/vllm-ascend/blob/182b75ea84ff13ece27b57391331ef8935410aea/tools/ai_qos/CMakeLists.txt")
LINKER = "https://github.com/bminor/binutils-gdb/blob/0381901e629115f5f0d92a27fe74b1814f6f389a/ld/ldfile.c"


# A CANN custom operator package (OPP): a vendors/<vendor_name> folder (op_impl, op_proto, op_api/lib/libcust_opapi.so)
# installed by the package's .run under $ASCEND_OPP_PATH/vendors or an --install-path, or embedded in a wheel. CANN and
# the programs that load it find it only through $ASCEND_OPP_PATH/vendors/config.ini or ASCEND_CUSTOM_OPP_PATH, which
# the package's own bin/set_env.bash exports (CANN's environment-variable reference, ASCEND_CUSTOM_OPP_PATH).
CUSTOM_OPP_ENV = "https://www.hiascend.com/document/detail/en/canncommercial/850/maintenref/envvar/envref_07_0147.html"
# Its op API library named as not found, in the loader's, the linker's or a person's words ("libcust_opapi.so: cannot open
# shared object file", "cannot find -lcust_opapi", "libcust_opapi.so cannot be found", "libcust_opapi.so not found").
CUST_OPAPI = lazy(r"libcust_opapi\.so\S*?\s?[:：]\s?cannot open shared object file|cannot find -lcust_opapi\b"
                  r"|libcust_opapi\.so\S*? (?:cannot be found|could not be found|is not found|not found)"
                  r"|(?:cannot|can't|could not|unable to) (?:find|locate|load|open) \S*libcust_opapi\.so")
# A program's own lookup of the package, failing: the words custom OPP / ASCEND_CUSTOM_OPP_PATH, or a vendors/<name> path,
# next to a not-found statement (fla_npu's _resolve_vendor_dir: "Unable to find FLA NPU custom OPP. Expected …/opp/vendors/…").
OPP_WORDS = lazy(r"\bcustom OPP\b|\bASCEND_CUSTOM_OPP_PATH\b|/opp/vendors/\w|/vendors/\w+/op_(?:api|impl|proto)\b", re.I)
NOT_FOUND = lazy(r"(?:unable to|cannot|can't|could not|failed to) (?:find|locate|load)|not found|no such file|does not exist|not exist", re.I)


def _loader_text(link: Link) -> str | None:
    """The link's type and message, where a library lookup can be worded (not a CANN report, a process death, Hydra)."""
    return None if link.kind in ("cann", "process", "hydra") else f"{link.type}: {link.message}"


class CustomOpp(Analyzer):
    """A CANN custom operator package that the process cannot find (its OPP folder or libcust_opapi.so)."""

    id = "DRV-custom-opp"
    title = "A CANN custom operator package is not where the process looks for it"
    family = "cann-env"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        text = _loader_text(link)
        if text is None:
            return None
        lib = CUST_OPAPI.search(text)
        if lib is None and not (OPP_WORDS.search(text) and (NOT_FOUND.search(text) or link.short_type == "FileNotFoundError")):
            return None
        what = "its op API library libcust_opapi.so" if lib else "its OPP folder (vendors/<vendor_name>)"
        return Finding(
            f"A CANN custom operator package is not found: {what}"[:160],
            f"{link.short_type}: {link.message[:200].rstrip('.')}. The code calls operators of a CANN custom operator package "
            "(a vendors/<vendor_name> folder with op_impl, op_proto and op_api/lib/libcust_opapi.so, installed by the package's "
            ".run file or embedded in a wheel). CANN and the programs that link or load it find such a package only under "
            "$ASCEND_OPP_PATH/vendors (listed in its config.ini) or through ASCEND_CUSTOM_OPP_PATH, which the package's own "
            "bin/set_env.bash exports: in a new shell, another conda env or a container where that script was not sourced, or "
            "with the package installed into another CANN tree or path, the package is not found. It is not CANN's own "
            "set_env.sh that is missing, and the operator itself is not at fault.",
            ("Source the custom package's environment script in the shell that builds or launches the job: "
             "source <install_path>/vendors/<vendor_name>/bin/set_env.bash (it prepends ASCEND_CUSTOM_OPP_PATH)",
             "Or export ASCEND_CUSTOM_OPP_PATH=<install_path>/vendors/<vendor_name>:$ASCEND_CUSTOM_OPP_PATH, and for a link "
             "or load of libcust_opapi.so put <install_path>/vendors/<vendor_name>/op_api/lib on LD_LIBRARY_PATH (the "
             "linker: -L that folder)",
             "Check that it is installed where you think: ls $ASCEND_OPP_PATH/vendors/*/op_api/lib/libcust_opapi.so; "
             "echo $ASCEND_CUSTOM_OPP_PATH; reinstall the package (its custom_opp_*.run, or the project's wheel with the OPP) "
             "if the folder is missing"),
            evidence(link), (CUSTOM_OPP_ENV, LDSO), key=f"custom-opp:{'lib' if lib else 'opp'}", family="cann-env",
            kind="custom-opp-path-not-set",
        )


class SharedLibrary(Analyzer):
    id = "DRV-library"
    title = "A shared library could not be loaded"
    family = "cann-env"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        text = _loader_text(link)
        if text is None:
            return None
        if DCMI_LIB.search(text):
            return Finding(
                "The NPU driver's DCMI library (libdcmi.so) is not available in this environment",
                f"{link.short_type}: {link.message[:160]}. libdcmi.so ships with the NPU driver on the host (/usr/local/dcmi, "
                "/usr/local/Ascend/driver); a container sees it only when it is mounted in.",
                ("Mount the driver into the container: -v /usr/local/dcmi:/usr/local/dcmi -v /usr/local/Ascend/driver:/usr/local/Ascend/driver "
                 "(or use Ascend Docker Runtime, which mounts them)",
                 "On the host, check the driver: ls /usr/local/dcmi/libdcmi.so; npu-smi info"),
                evidence(link), (ASCEND_DOCKER, LDSO), key="lib:dcmi", family="device", kind="dcmi-library-missing",
            )
        if (link_lib := LINK_LIB.search(text)) is not None:
            return self._link_step(link, f"lib{link_lib.group('lib')}.so")
        m = CANNOT_OPEN.search(text) or CANNOT_FIND.search(text)
        if m is None and (env := CANN_VARS.search(text)) is not None:
            return Finding(
                "CANN environment not set up in this process (ASCEND_* variables unset or stale)",
                f"{link.short_type}: {link.message[:200]}. torch_npu checks at import that CANN's variables point at installed "
                "folders; here one is unset or points at a folder that does not exist: CANN's set_env.sh was not sourced in the "
                "process that imports torch_npu (a Ray worker, a docker exec shell), or it still points at a removed CANN version.",
                ("source /usr/local/Ascend/ascend-toolkit/set_env.sh (CANN >= 8.5: /usr/local/Ascend/cann/set_env.sh) in a fresh shell, "
                 "then `ray stop --force` and start Ray again so its workers inherit it",
                 "Check: echo $ASCEND_HOME_PATH $ASCEND_OPP_PATH; ls the folders; install the missing CANN package (kernels/ops) of the same version"),
                evidence(link), (NPU_INTERCEPT, CANN_ENV), key=f"cannvars:{env.group(0)[:40]}", family="cann-env", kind="cann-env-not-sourced",
            )
        if m is None:
            return None
        path, lib = m.group(1), m.group(2)
        if NNAL_LIBS.match(lib):
            return Finding(
                f"CANN's NNAL (ATB) package not installed or not sourced: {lib} not found",
                f"{lib} belongs to ATB, which ships in CANN's separate NNAL package (Ascend-cann-nnal), not in the toolkit; the "
                "loader finds it only after nnal/atb/set_env.sh has put $ATB_HOME_PATH/lib on LD_LIBRARY_PATH. Either NNAL is not "
                "installed (install guides that list only the toolkit and kernels miss it) or the process that loads it (a Ray "
                "worker, a docker exec shell) did not source its set_env.sh.",
                ("Install Ascend-cann-nnal of the same version as the CANN toolkit, then source /usr/local/Ascend/nnal/atb/set_env.sh "
                 "(after the toolkit's set_env.sh) in the script that starts the job, before `ray start`",
                 f"Check: echo $ATB_HOME_PATH; ls $ATB_HOME_PATH/lib/{lib}"),
                evidence(link), (ATB_LIBS, VLLM_ASCEND_NNAL, LDSO), key=f"lib:{lib}", family="cann-env", kind="nnal-atb-not-found",
            )
        if CANN_LIBS.match(lib):
            return Finding(
                f"CANN environment not set up in this process: {lib} not found",
                f"{lib} belongs to the CANN toolkit (or NNAL); the dynamic loader finds it only after CANN's set_env.sh has put "
                "its lib64 folders on LD_LIBRARY_PATH. The shell, container or Ray worker that ran this did not source it "
                "(or CANN is not installed there).",
                ("source /usr/local/Ascend/ascend-toolkit/set_env.sh (CANN >= 8.5: /usr/local/Ascend/cann/set_env.sh) in the "
                 "script that starts the job, before `ray start`",
                 "Check: echo $ASCEND_HOME_PATH; ls $ASCEND_HOME_PATH/lib64/" + lib),
                evidence(link), (CANN_ENV, LDSO) + ((OP_PLUGIN_FEATURE_LIBS,) if lib.startswith(("libaclnn_", "libopapi_")) else ()),
                key=f"lib:{lib}", family="cann-env", kind="cann-env-not-sourced",
            )
        if DRIVER_LIBS.match(lib):
            return Finding(
                f"NPU driver library not found: {lib}",
                f"{lib} belongs to the NPU driver on the host; it is missing from this environment (a container without the "
                "driver mounted, or a host without the driver).",
                ("Mount /usr/local/Ascend/driver into the container (or use Ascend Docker Runtime)",
                 "Put /usr/local/Ascend/driver/lib64/common and lib64/driver on LD_LIBRARY_PATH (CANN's set_env.sh does)"),
                evidence(link), (ASCEND_DOCKER, LDSO), key=f"lib:{lib}", family="device", kind="driver-library-missing",
            )
        if (owner := PACKAGE_LIBS.get(lib)) is not None:
            return Finding(
                f"{lib} not loaded: a module linked against {owner} was loaded before `import {owner}`",
                f"{lib} ships inside the {owner} package (site-packages/{owner}/lib) and is never on the loader's search path: "
                f"it is found only because `import {owner}` loads it into the process first. A compiled module linked against "
                f"it was loaded in a process that had not imported {owner} yet (triton-ascend's ascend backend, which probes the "
                "device at import through its npu_utils.so; a custom operator or vllm_ascend_C imported first), or "
                f"{owner} is not installed in this environment.",
                (f"Import {owner} first: put `import torch` / `import {owner}` before the import that failed (or in the "
                 "entry script / sitecustomize of the process that failed)",
                 f"Check it is installed here: python -c 'import {owner}; print({owner}.__file__)'"),
                evidence(link), (LDSO, TORCH_NPU_LIBS), key=f"lib:{lib}", family="cann-env", kind="torch-npu-not-imported-first",
            )
        if FFMPEG_LIBS.match(lib):
            return Finding(
                f"FFmpeg's shared libraries are not installed: {lib} not found",
                f"{lib} is one of FFmpeg's shared libraries, which pip does not install; a package that decodes audio or video "
                "through FFmpeg (TorchCodec's libtorchcodec_core<N>, torchaudio's FFmpeg backend) links it and cannot load "
                "in an image or env without a system FFmpeg of that major version.",
                ("Install a shared-library FFmpeg of a major version the package supports (apt-get install ffmpeg, or "
                 "conda install -c conda-forge 'ffmpeg<8') in the image or env that runs the job",
                 "Check: ffmpeg -version; ldconfig -p | grep " + lib.split(".")[0]),
                evidence(link), (TORCHCODEC, LDSO), key=f"lib:{lib}", family="compat", kind="missing-dependency",
            )
        if (row := SYSTEM_LIBS.get(lib)) is not None:
            user, deb, rpm = row
            return Finding(
                f"A system library is not installed: {path.rsplit('/', 1)[-1]} (OS package {deb} / {rpm})",
                f"The dynamic loader could not find {path}. It is a library of the operating system's packages, which pip never "
                f"installs (its usual user: {user}), and the image or host that ran this does not have the package (slim "
                "container images and minimal server installs leave it out).",
                (f"Install the OS package into the image or host that runs the job: apt-get install -y {deb} (Debian / Ubuntu); "
                 f"yum install -y {rpm} (RHEL, CentOS, openEuler)",
                 f"Check: ldconfig -p | grep {lib.split('.')[0]}; in a Dockerfile, add it to the image's package list"),
                evidence(link), SYSTEM_LIB_SOURCES + (LDSO,), key=f"lib:{lib}", family="compat", kind="missing-dependency",
            )
        if CUDA_LIBS.match(lib):
            return Finding(
                f"A CUDA-only package is installed on the Ascend host: {lib} not found",
                f"Something imported a package built for NVIDIA GPUs, which loads {lib}; there is no CUDA on an Ascend host.",
                ("Find the package from the traceback's frames and uninstall it, or install its NPU build / disable the feature",
                 "pip list | grep -i -E 'cuda|nvidia|cupy|xformers|flash.attn|transformer.engine|bitsandbytes'"),
                evidence(link), (LDSO,), key=f"lib:{lib}", family="compat", kind="cuda-only-package-on-npu",
            )
        return Finding(
            f"Shared library not on the loader's search path: {lib}",
            f"The dynamic loader could not find {path}: it is not installed, or installed in a folder that is not on "
            "LD_LIBRARY_PATH (or in ld.so.conf) in the process that loads it.",
            (f"Find it: find / -name '{lib}*' 2>/dev/null; then export LD_LIBRARY_PATH=<its folder>:$LD_LIBRARY_PATH in the launch script",
             "If it is not installed, install the package that provides it (the one whose import failed)"),
            evidence(link), (LDSO,), key=f"lib:{lib}", family="cann-env", kind="ld-library-path-missing",
        )

    def _link_step(self, link: Link, lib: str) -> Finding | None:
        """A build's link step lacks an Ascend library's folder (ARL-E2614 reads any library; this names the folder)."""
        if DRIVER_LIBS.match(lib):
            where, dirs, kind = ("the NPU driver, outside the CANN toolkit",
                                 "/usr/local/Ascend/driver/lib64/driver (and lib64/common)", "driver-library-not-on-link-path")
            sources = DRIVER_DIRS + (LINKER,)
        elif NNAL_LIBS.match(lib):
            where, dirs, kind = "CANN's NNAL package (ATB)", "$ATB_HOME_PATH/lib", "cann-library-not-on-link-path"
            sources = (ATB_LIBS, LINKER)
        elif CANN_LIBS.match(lib):
            where, dirs, kind = "the CANN toolkit", "$ASCEND_HOME_PATH/lib64", "cann-library-not-on-link-path"
            sources = (CANN_ENV, LINKER)
        else:
            return None
        name, folder = lib[3:-3], dirs.split(" ")[0]
        return Finding(
            f"A build's link step cannot find {lib}: the folder of {where} is not on its link path",
            f"{link.short_type + ': ' if link.short_type else ''}{link.message[:200]}. The linker looks for -l{name} in the -L "
            f"folders of the command line, LIBRARY_PATH and the system folders, never in LD_LIBRARY_PATH (that is the "
            f"loader's, at run time; sourcing set_env.sh does not help a link). {lib} belongs to {where} and is installed "
            f"in {dirs}: the build's link flags (its Makefile, CMakeLists.txt or setup.py) do not name that folder, or the "
            "package that provides it is not installed or not mounted where the build runs.",
            (f"Add the folder to the link: -L{folder} in the build's link flags (CMake: target_link_directories "
             f"or find_library with that PATHS), or export LIBRARY_PATH={folder}:$LIBRARY_PATH before building",
             f"Check it is there: ls {folder}/{lib}"
             + ("; in a container, mount /usr/local/Ascend/driver from the host (or use Ascend Docker Runtime)"
                if kind.startswith("driver") else "; install or source the package if it is not")),
            evidence(link), sources, key=f"link:{lib}", family="cann-env", kind=kind,
        )


# Packages built only for NVIDIA GPUs: their code running at all on an Ascend host is the failure.
CUDA_ONLY = frozenset((
    "transformer_engine", "flash_attn", "flash_attn_2_cuda", "xformers", "bitsandbytes", "cupy", "mamba_ssm",
    "causal_conv1d", "deep_gemm", "flashinfer", "vllm_flash_attn", "nvidia",
))


FLASH_STUB = "https://github.com/vllm-project/vllm-ascend/pull/7277"
# "No module named 'flash_attn.ops'" raised in other code: that code reached for a CUDA-only package.
MISSING_CUDA_MODULE = lazy(r"No module named '((\w+)[\w.]*)'")
NO_METADATA = lazy(r"No package metadata was found for ([\w.-]+)")
# torch.utils.cpp_extension._join_cuda_home: a CUDAExtension (a package's CUDA kernels) is being built with no CUDA toolkit
# (OSError / EnvironmentError, same text in torch 1.x and 2.x).
CUDA_HOME_UNSET = lazy(r"CUDA_HOME environment variable is not set")
CPP_EXTENSION = "https://github.com/pytorch/pytorch/blob/v2.5.1/torch/utils/cpp_extension.py"
# The loader's "undefined symbol" (glibc dl-lookup) comes after every library the extension needs (DT_NEEDED: libc10_cuda,
# libcudart, …) was found and loaded: the package's CUDA build is loadable here, so the symbol it lacks is a build against
# another torch (package.PackageMismatch reads it), not a CUDA-only package on a host without CUDA (that fails with
# "libcudart.so…: cannot open shared object file" or "libc10_cuda.so: cannot open…" first).
UNDEFINED_SYMBOL = lazy(r"\.so[\w.]*\s?: undefined symbol\b")


# What says the host is an NVIDIA GPU machine: its driver / toolkit / GPU names, or a torch or CUDA wheel built for CUDA
# ("2.1.0+cu121", nvidia-cublas-cu12, cudatoolkit=11.8). Without such words (or with NPU words) the CUDA_HOME error
# reads as a CUDA build on the Ascend host, the question this tool is usually asked.
GPU_WORDS = lazy(r"(?i)\bnvidia\b|\bnvcc\b|\bnvidia-smi\b|\bgeforce\b|\brtx ?\d{3,4}|\btesla [vtpak]\d+|\b[ah]100\b"
                 r"|\bcudatoolkit\b|\bcuda[ -]toolkit\b|\+cu1\d\d\b|-cu1[12]\b|/usr/local/cuda")


def gpu_host(chain: Chain, facts: Facts) -> bool:
    """Whether the failure's chain or the versions the log printed show an NVIDIA GPU host."""
    if any("+cu" in str(v) for v in facts.versions.values()):
        return True
    return any(GPU_WORDS.search(text) for link in chain.links
               for text in (link.text, link.lead, link.message, *link.detail, *(f.path for f in link.frames)) if text)


class CudaOnlyPackage(Analyzer):
    id = "DRV-cuda-only"
    title = "A CUDA-only package runs on the Ascend host"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare", "cut"):
            return None
        if CUDA_HOME_UNSET.search(link.message):
            return self._no_toolkit(link) if not facts.npu and gpu_host(chain, facts) else self._cuda_build(link)
        if (missing := MISSING_CUDA_MODULE.search(link.message)) and missing.group(2) in CUDA_ONLY:
            return self._imported(link, missing.group(1), missing.group(2))
        if UNDEFINED_SYMBOL.search(link.message):
            return None
        package = link.raiser if link.kind != "cut" else next((f.package for f in reversed(link.frames) if f.package in CUDA_ONLY), None)
        wanted = NO_METADATA.search(link.message)  # a library checking for the package's distribution before using it
        if wanted is not None and wanted.group(1).replace("-", "_") in CUDA_ONLY:
            package = wanted.group(1).replace("-", "_")
        if package not in CUDA_ONLY:
            return None
        frame = next((f for f in reversed(link.frames) if f.package == package), link.frames[-1] if link.frames else None)
        if frame is None and not link.type:
            return None
        flash = package.startswith("flash_attn")
        what = f"{link.short_type}: {link.message[:160]}" if link.type else f"a traceback cut off inside {frame}"
        return Finding(
            f"{package} (a CUDA-only package) is imported on the Ascend host",
            f"{what}. {package} is built for NVIDIA GPUs (it loads CUDA/cuDNN libraries or kernels at import); on an NPU host "
            "it fails as soon as something imports it"
            + (" — here because the model asks for flash_attention_2." if flash else " — here a patch/plugin imports it because it is installed.")
            + (f" The code asked for {package}'s installed distribution, which cannot be installed on an NPU host." if wanted else ""),
            (("Use an attention implementation the NPU has: attn_implementation='sdpa' (or 'eager'); torch_npu provides its own fused attention",
              "pip uninstall flash-attn if it was installed by accident") if flash else
             (f"pip uninstall {package.replace('_', '-')} from the NPU environment (code that finds it installed tries to use it)",
              "If the framework needs it, use its NPU build or disable the feature that imports it")),
            evidence(link) if link.type else (f'File "{frame.path}", line {frame.line}, in {frame.func}',), (LDSO,), key=f"cuda:{package}", family="compat",
            kind="flash-attn-on-npu" if flash else "cuda-only-package-on-npu",
        )

    def _cuda_build(self, link: Link) -> Finding:
        """A package's install builds CUDA kernels (torch's CUDAExtension) on the NPU host, which has no CUDA toolkit."""
        package = next((f.package for f in reversed(link.frames) if f.package and f.package not in ("torch", "setuptools")), None)
        return Finding(
            f"The CUDA build of {package or 'a package'} is being compiled on the Ascend host (no CUDA toolkit)",
            f"{link.short_type or 'Error'}: {link.message[:160]}. torch's C++-extension builder raises this when a package's "
            "setup builds CUDA kernels (CUDAExtension) and finds no CUDA toolkit. On an Ascend host that is the package's "
            "GPU build being installed (flash-attn, an LMCache or vLLM source build without its NPU target, a CUDA op "
            "extension): setting CUDA_HOME cannot help, there is no CUDA to build for.",
            ("Install the package's Ascend build instead (its NPU fork or wheel: LMCache-Ascend, vllm-ascend with vllm "
             "built for an empty target, torch_npu's fused attention instead of flash-attn), or drop it from the requirements",
             "If a requirements file pulls it in (flash-attn, deepspeed ops), install the rest with that line removed"),
            evidence(link), (CPP_EXTENSION,), key="cuda-build", family="compat", kind="cuda-only-package-on-npu",
        )

    def _no_toolkit(self, link: Link) -> Finding:
        """The same CUDA extension build on a host the log shows no Ascend stack on: the CUDA toolkit (nvcc) is missing.

        torch.utils.cpp_extension._join_cuda_home raises it when neither CUDA_HOME / CUDA_PATH is set nor nvcc is on PATH
        nor /usr/local/cuda exists: a conda / pip torch brings the CUDA runtime libraries, not the compiler."""
        package = next((f.package for f in reversed(link.frames) if f.package and f.package not in ("torch", "setuptools")), None)
        return Finding(
            f"No CUDA toolkit found to build the CUDA extension of {package or 'a package'} (CUDA_HOME not set, no nvcc)",
            f"{link.short_type or 'Error'}: {link.message[:160]}. torch's C++-extension builder looks for the CUDA toolkit "
            "(CUDA_HOME / CUDA_PATH, then nvcc on PATH, then /usr/local/cuda) to compile the package's CUDA kernels and found "
            "none: the CUDA that comes with a conda / pip torch (cudatoolkit, nvidia-* wheels) is the runtime only, without nvcc.",
            ("Install the CUDA toolkit whose major.minor matches torch.version.cuda (NVIDIA's installer, or conda's "
             "cuda-toolkit / cuda-nvcc package) and export CUDA_HOME at its root (the folder holding bin/nvcc)",
             "Then rebuild the extension (pip install --no-build-isolation ... / python setup.py build_ext)"),
            evidence(link), (CPP_EXTENSION,), key="cuda-build", family="compat", kind="cuda-toolkit-missing",
        )

    def _imported(self, link: Link, module: str, package: str) -> Finding:
        """Code on the NPU host imports a CUDA-only package (absent, or a stub that is not the real one)."""
        caller = next((f.package for f in reversed(link.frames) if f.package), None) or "the code"
        flash = package.startswith("flash_attn")
        return Finding(
            f"{caller} imports {module}, from a CUDA-only package, on the Ascend host",
            f"{link.short_type}: {link.message[:160]}. {package} is built for NVIDIA GPUs and has no Ascend build; the code path "
            "that imports it (an attention, loss or kernel option meant for GPUs) is switched on in an NPU run"
            + (" — flash-attention on NPU comes from torch_npu's fused attention, not from this package." if flash else "."),
            (("Switch the option off: attn_implementation='sdpa' (or 'eager') and any use_flash_attn / flash-attn based fused kernels "
              "or losses in the config; torch_npu provides the fused attention on NPU",
              "Remove what Python finds as flash_attn (pip uninstall flash-attn; a stray flash_attn.py or stub on sys.path): vLLM's rotary "
              "embedding imports flash_attn.ops whenever find_spec('flash_attn') finds something (vllm-ascend PR #7277)") if flash else
             (f"Turn off the feature that imports {package}, or use its NPU counterpart",
              f"Check which option enables it from the traceback's frames ({caller})")),
            evidence(link), (FLASH_STUB, LDSO) if flash else (LDSO,), key=f"cuda-import:{package}", family="compat",
            kind="flash-attn-on-npu" if flash else "cuda-only-package-on-npu",
        )

