"""Two packages that do not fit together: a failed import, a missing attribute, an undefined symbol.

``cannot import name X from M``, ``No module named M.sub``, ``module M has no attribute X``,
``undefined symbol`` in a ``.so``, and across a package boundary a call's arguments the callee does not
take (``unexpected keyword argument``, ``got multiple values``, ``takes N positional arguments``,
``missing N required``) or an attribute another package's object lacks, all mean the caller was written
against another release of the module it calls. The caller is the package of the innermost frame (or of
the ``.so``); the owner is the module's top-level package or, where the paste has no frame of it, the
package that defines the class the message names (``class_owners.yaml``).
The answer names both, their versions where the log states them, and the supported pair from the
compatibility matrices that ``ascendrl check`` uses (preflight/data/compat.yaml).
"""

from __future__ import annotations

import dataclasses
import functools
import re

from ..chain import Chain, Link, package_of
from . import Analyzer, Facts, Finding, evidence
from .apihistory import NameHistory, attr_history, class_param_owner, method_owner, module_history, name_history, param_history, top_level_owner
from .numpyapi import numpy_removed
from .stdlibapi import stdlib_added, stdlib_removed
from ...lazyre import lazy

# The module is quoted in Python's message; a paste rewrapped by hand may have lost the quotes, and one cut
# short (an issue title at GitHub's length limit, a screenshot's line) ends inside the last quoted name.
# CPython's import_from says "from partially initialized module 'M' (most likely due to a circular import) (path)" when M
# is still being imported (Python/ceval.c).
CANNOT_IMPORT = lazy(r"cannot import name '([\w.]+)(?:'(?: from (?:partially initialized module )?'?([\w.]*\w)'?"
                     r"(?: \(most likely due to a circular import\))?(?: \(([^)]*)\))?)?|$)")
# Python 3.13 words the same import of a module that shadows a library as "cannot import name 'X' from 'M' (consider
# renaming '<path>' if it has the same name as a library you intended to import)" (Python/ceval.c, _PyEval_ImportFrom).
CIRCULAR = lazy(r"cannot import name '(\w+)' from (?:partially initialized module '([\w.]+)' \(most likely due to a circular import\)(?: \(([^)]*)\))?"
                r"|'([\w.]+)' \(consider renaming '([^']+)' if it has the same name as a library you intended to import\))"
                # the attribute form of the same (Objects/moduleobject.c; 3.13 adds "from '<path>'")
                r"|partially initialized module '([\w.]+)' (?:from '([^']+)' )?has no attribute '(\w+)' \(most likely due to a circular import\)")
INSTALLED = lazy(r"[/\\](?:site|dist)-packages[/\\]")
CEVAL = "https://github.com/python/cpython/blob/7be4e350aadf93c4be5c97b7291d0db2b6bc1dc4/Python/ceval.c"
NO_MODULE = lazy(r"No module named '?([\w.]+)(?:'|\s*$)")  # quoted (Python 3), or bare at the line's end (Python 2: "No module named numpy")
# Ray Client / a driver attaching to a running cluster: Ray's docs require the client's Ray (and Python minor) release
# to be the cluster's; a ray.* module one side lacks is the other side's release naming it.
RAY_CLIENT_DOC = "https://docs.ray.io/en/latest/cluster/running-applications/job-submission/ray-client.html#versioning-requirements"
RAY_CONNECT = lazy(r"ray://|\bray\.init\b[^\n]{0,60}\baddress\b|\bRay [Cc]lient\b")


def connects_to_cluster(link: Link) -> bool:
    """The exception came while attaching to a running Ray cluster: Ray Client's frames, or the words around it say so."""
    if any(re.search(r"[/\\]ray[/\\]util[/\\]client[/\\]", f.path) for f in link.frames):
        return True
    return RAY_CONNECT.search(f"{link.lead}\n{link.text}") is not None
# Python words it "module 'M' has no attribute 'X'"; the lazy modules of transformers, trl, diffusers and peft
# (_LazyModule.__getattr__, e.g. trl/_lazy_module.py) raise it unquoted: "module trl has no attribute GRPOConfig".
NO_ATTR = lazy(r"\bmodule '?([A-Za-z_][\w.]*?)'? has no attribute '?(\w+)(?:'|\b)")
# The symbol may be missing (an issue title cut at its length limit), or the library (the symbol alone, when it is torch's).
UNDEFINED = lazy(r"([^\s`'\"“”]+\.so[\w.]*): undefined symbol(?:: ([^\s`'\"“”]+))?")  # a quoted paste's quote marks are not the name
BARE_SYMBOL = lazy(r"(?:^|\s)undefined symbol: (_Z\S+)")
# A CPython extension module (flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so, vllm/_C.abi3.so): built against torch's C++ API.
PY_EXTENSION = lazy(r"\.cpython-[\w-]+\.so|\.abi3\.so|(?:^|/)_C\.so")
# A version check that names the requirement and what it found. transformers' require_version (utils/versions.py, which
# LLaMA-Factory, trl and others call for their own pins) raises ImportError "<req> is required for a normal functioning of
# this module, but found <pkg>==<ver>." (its first releases: pkg_resources.VersionConflict with the same text, and "…, but
# it is not installed." for a missing one); setuptools' pkg_resources prints a VersionConflict as its args
# "(<dist> <ver> (<path>), Requirement.parse('<req>'))" or, reported, "<dist> <ver> is installed but <req> is required".
REQUIRED = lazy(r"([A-Za-z][\w.\-]*)\s*((?:[<>=!~]=?|===?)\s*[\w.*+\-]+(?:\s*,\s*(?:[<>=!~]=?)\s*[\w.*+\-]+)*) is required for a normal "
                r"functioning of this module, but (?:found ([\w.\-]+)==([\w.+\-]*\w)|it is not installed)")
VERSION_CONFLICT = lazy(r"\(([A-Za-z][\w.\-]*) ([\w.+\-]+) \([^)]*\), Requirement\.parse\('([A-Za-z][\w.\-]*)([^']*)'\)"
                        r"|\b([A-Za-z][\w.\-]*) ([\w.+\-]*\d[\w.+\-]*) is installed but ([A-Za-z][\w.\-]*)([<>=!~][^ ]*) is required\b")
# A check that states the minimum release in a sentence of its own, without the installed version: accelerate's
# Accelerator ("FSDP requires PyTorch >= 1.12.0", later "… >= {FSDP_PYTORCH_VERSION}", ValueError), transformers' Trainer
# ("FSDP requires PyTorch >= 1.12.0"), and the same wording in trainers built on them (text read in stored copies of those
# files; the release is not pinned). The package is named as its project spells it.
_STATED_PKGS = (r"PyTorch|torch|transformers|Transformers|accelerate|Accelerate|Python|vLLM|vllm|DeepSpeed|deepspeed|peft|PEFT|trl|TRL"
                r"|datasets|Ray|ray|numpy|NumPy|torch_npu|torch-npu|triton|flash[-_]attn|tokenizers|safetensors|sglang|SGLang|mcore"
                r"|mecore|megatron-core|megatron\.core|Megatron-Core|tensordict|pydantic|protobuf|bitsandbytes|xformers"
                r"|huggingface[-_]hub|mindspeed|MindSpeed|triton[-_]ascend|torchvision|torchaudio|liger[-_]kernel|vllm[-_]ascend|setuptools")
STATED = lazy(r"\brequires? (" + _STATED_PKGS + r")\s*(?:version\s*)?(>=|>)\s*v?(\d+(?:\.\d+)+[\w.+]*)")
# The same minimum stated as its own clause: verl's asserts ("sglang>=0.5.5 is required for FP8 quantization",
# verl/workers/rollout/sglang_rollout/sglang_rollout.py; "Fused forward patching requires mecore >= 0.13.0",
# verl/models/mcore/model_forward_fused.py, read above), and "Python 3.10 or newer is required".
STATED_IS = lazy(r"(?:^|[^\w.\-])(" + _STATED_PKGS + r")\s*(?:version\s*)?(>=|>)?\s*v?(\d+(?:\.\d+)+[\w+]*)"
                 r"(\s+or (?:newer|later|higher|above))?\s+is (?:required|needed)\b")


def _stated_is(msg: str) -> re.Match[str] | None:
    """STATED_IS where it states a minimum: an operator, or "or newer" after a bare version."""
    m = STATED_IS.search(msg)
    return m if m is not None and (m.group(2) or m.group(4)) else None


STATED_NAMES = {"pytorch": "torch", "python": "python", "vllm": "vllm", "ray": "ray", "deepspeed": "deepspeed",
                "torch-npu": "torch_npu", "flash-attn": "flash_attn", "mcore": "megatron_core", "mecore": "megatron_core",
                "megatron-core": "megatron_core", "megatron.core": "megatron_core", "huggingface-hub": "huggingface_hub",
                "triton-ascend": "triton_ascend", "liger-kernel": "liger_kernel", "vllm-ascend": "vllm_ascend"}
VERL_STATED = "https://github.com/verl-project/verl/blob/v0.8.0/verl/workers/rollout/sglang_rollout/sglang_rollout.py"
STATED_SRC = "https://github.com/huggingface/accelerate/blob/v1.14.0/src/accelerate/accelerator.py"
# The distribution is absent altogether: transformers' require_version ("The '<req>' distribution was not found and is
# required by this application."), pkg_resources ("… is required by the application" / by <requirers>), and
# importlib.metadata's PackageNotFoundError ("No package metadata was found for <name>": a version() lookup of a package
# the interpreter does not have installed, or has only as a source folder on sys.path).
NOT_DISTRIBUTED = lazy(r"The '([A-Za-z][\w.\-]*)([^']*)' distribution was not found and is required by |No package metadata was found for ([A-Za-z][\w.\-]*)")
# torch's dispatcher asked about an operator that no loaded library defined (torch/csrc/utils/python_dispatch.cpp,
# "operator torchvision::nms does not exist", when a package registers Python meta kernels for ops its compiled library
# should have defined), and torch's JIT lookup of torch.ops.<ns>.<op> (torch/csrc/jit/python/init.cpp _jit_get_operation,
# "No such operator torchvision::nms", which torch releases before the _OpNamespace AttributeError let through).
NO_SUCH_OP = lazy(r"\b(?:operator (\w+)::(\w+) does not exist|No such operator (\w+)::(\w+))")
# Who defines the compiled ops of such a namespace, beyond OP_OWNERS: torch's sibling packages build their C++ ops against
# one torch release each.
OP_NAMESPACE_OWNERS = {"torchvision": "torchvision", "torchaudio": "torchaudio", "image": "torchvision"}
# The version-labelled root causes the corpus and the catalog name a too-old package by (labels.yaml), by pip name.
TOO_OLD_KINDS = {"transformers": "transformers-too-old", "torch-npu": "torch-npu-too-old", "vllm-ascend": "vllm-ascend-too-old",
                 "ray": "ray-too-old", "python": "python-too-old", "torch": "torch-too-old"}


def too_old_kind(pip: str) -> str:
    """The kind of a finding that knows the installed release is below what the caller needs: "<distribution>-too-old"
    (peft-too-old, accelerate-too-old), which says the direction "package-mismatch" does not."""
    return TOO_OLD_KINDS.get(pip) or f"{pip}-too-old"
VERSIONS = "https://github.com/huggingface/transformers/blob/d9547809bb9fc45c7e30914827081214956981c5/src/transformers/utils/versions.py"
METADATA = "https://github.com/python/cpython/blob/39c253627a96f858781400948ecbdab34221d0f0/Lib/importlib/metadata/__init__.py"
PKG_RESOURCES = "https://github.com/pypa/setuptools/blob/b4d976862320c6ae5f5888ae20b22092098095ca/pkg_resources/__init__.py"
DISPATCH = "https://github.com/pytorch/pytorch/blob/eaf5a352f7bc11fda8f9f9e4f4ba2441a1cc147a/torch/csrc/utils/python_dispatch.cpp"
# A transformers model-family class by its name (Qwen2_5_VLForConditionalGeneration, Qwen3MoeConfig, Gemma3Processor).
MODEL_CLASS = lazy(r"[A-Z]\w*?(?:For[A-Z]\w*|Model|Config|Processor|ImageProcessor|Tokenizer|TokenizerFast)$")
# A library the classifier's UNLOADED noted as refused by the loader's version check: "x.so (GLIBC_2.32)".
LOADER_VERSION = lazy(r"\(((?:GLIBC(?:XX)?|CXXABI)_[\d.]+)\)$")
LOADER_SRC = "https://github.com/bminor/glibc/blob/glibc-2.35/elf/dl-version.c"
# torch.ops.<namespace>.<op>: a custom-op library built from other sources than the Python code calling it.
NO_OP = lazy(r"'_OpNamespace' '(\w+)' object has no attribute '(\w+)(?:'|$)")
NO_OBJ_ATTR = lazy(r"'((?:Ascend|NPU)[A-Z]\w*)' object has no attribute '(\w+)(?:'|$)")
# The parameters vllm-ascend's quantization methods give a layer (quantization/w8a8.py at the commit below: the W8A8 linear
# method's input_scale / input_offset, quant_bias, deq_scale, weight_scale / weight_offset, and the aclnn_input_scale,
# aclnn_input_scale_reciprocal, aclnn_input_offset its process_weights_after_loading derives; the fused-MoE method's w13_ /
# w2_ forms). A layer built by another scheme (W8A8_DYNAMIC, W4A8, W4A4) or left unquantized has not got them.
QUANT_PARAM = lazy(r"^(?:w13_|w2_)?(?:aclnn_input_(?:scale|scale_reciprocal|offset)|input_(?:scale|offset)|weight_(?:scale|offset)"
                   r"|deq_scale|quant_bias)$")
QUANT_LAYER = lazy(r"(?:Linear|MoE|Experts)\w*$")
ASCEND_W8A8 = "https://github.com/vllm-project/vllm-ascend/blob/00a69bff4efda1f988cf5c5a6a20ed740beeb597/vllm_ascend/quantization/w8a8.py"
UNEXPECTED_KW = lazy(r"([\w.]+)\(\) got (?:an )?unexpected keyword(?: argument)? '(\w+)'")
# CPython's other argument-binding TypeErrors ("%U() got multiple values for argument '%S'", "%U() takes %U positional
# argument%s but %zd%U %s given", "%U() missing %i required %s argument%s: %U"); Python 3.10+ prints the qualified name.
CALL_ARGS = lazy(
    r"([\w.]+)\(\) (got multiple values for argument '\w+'|takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:was|were) given"
    r"|missing \d+ required (?:positional|keyword-only) arguments?: '\w+'(?:(?:, '\w+')*,? and '\w+')?)"
)
CPYTHON_ARGS = "https://github.com/python/cpython/blob/v3.10.0/Python/ceval.c"
# A call in a source line: "uvicorn.Config(", "AsyncEngineArgs(" (module path, then the callable's name).
CALL = lazy(r"\b((?:[A-Za-z_]\w*\.)*?)([A-Za-z_]\w*)\(")
# Top-level modules a call may be written through ("uvicorn.Config(…)"): the packages ascendrl's users run alongside.
KNOWN_MODULES = frozenset((
    "vllm", "vllm_ascend", "verl", "torch", "torch_npu", "transformers", "trl", "peft", "accelerate", "deepspeed",
    "ray", "uvicorn", "fastapi", "datasets", "megatron", "mindspeed", "hydra", "omegaconf", "tensordict", "flash_attn",
))
# vLLM's general-plugin loader calls every plugin's register function without catching what it raises: an
# AttributeError / TypeError out of it is a plugin's registration code meeting another vLLM's API.
PLUGIN_LOADERS = frozenset(("load_general_plugins", "load_plugins_by_group"))
PLUGIN_LOADER = lazy(r"\bload_general_plugins\(")
PLUGINS = "https://github.com/vllm-project/vllm/blob/v0.10.2/vllm/plugins/__init__.py"
# "'DPMetadata' object has no attribute 'cu_tokens_across_dp_cpu'": any class; whose it is comes from class_owners.yaml.
OBJ_ATTR = lazy(r"'(\w+)' object has no attribute '(\w+)(?:'|$)")
# torch's c10d base classes for a collective a backend does not implement ("ProcessGroup nccl does not support
# _reduce_scatter_base", "Backend hccl does not support allgather_into_tensor_coalesced"; releases before 1.13 printed
# no space after the backend's name): the caller uses a collective this torch / torch_npu release does not have.
BACKEND_OP = lazy(r"\b(?:ProcessGroup|Backend) (\w+?) ?does not support (\w+)")
C10D = "https://github.com/pytorch/pytorch/blob/v2.1.0/torch/csrc/distributed/c10d/Backend.hpp"
DIST = {  # import name -> pip name
    "torch_npu": "torch-npu", "vllm_ascend": "vllm-ascend", "triton_ascend": "triton-ascend", "flash_attn": "flash-attn",
    "sklearn": "scikit-learn", "yaml": "pyyaml", "PIL": "pillow", "google": "protobuf", "msprobe": "mindstudio-probe",
    # import names whose distribution is called otherwise (each distribution's PyPI page): a "pip install grpc" is wrong
    "grpc": "grpcio", "cv2": "opencv-python", "attr": "attrs", "dateutil": "python-dateutil", "bs4": "beautifulsoup4",
    "Crypto": "pycryptodome", "OpenSSL": "pyopenssl", "zmq": "pyzmq", "dotenv": "python-dotenv", "jwt": "pyjwt",
    "serial": "pyserial", "skimage": "scikit-image", "fitz": "pymupdf", "magic": "python-magic",
}
# Op namespaces (torch.ops.X) and the package whose compiled library registers them.
OP_OWNERS = {"_C_ascend": "vllm_ascend", "npu": "torch_npu", "_C": "vllm", "atb": "torch_npu", "mindspeed": "mindspeed"}
# Subpackages that are distributions of their own (a namespace shared with another package):
# "No module named 'megatron.bridge'" means Megatron-Bridge is not installed, not that megatron-core is wrong. Megatron-Energon's
# data loaders are imported as megatron.energon (its README's `from megatron.energon import get_train_dataset`).
SEPARATE = {"megatron.bridge": "megatron-bridge", "megatron.core": "megatron-core", "megatron.energon": "megatron-energon",
            "google.protobuf": "protobuf",
            "mindspeed_llm": "mindspeed-llm", "vllm_ascend.vllm_ascend_C": "vllm-ascend (its compiled ops)"}
# Modules a distribution once shipped and removed in a release: module -> (distribution, the release that removed it, the
# last release line with it, source). "No module named" for one of them is that distribution too new for the caller.
# setuptools v82.0.0 (NEWS.rst, "Deprecations and Removals"): pkg_resources removed (#3085).
# A dotted key is a submodule its package dropped: torch 2.0 removed torch._six (pytorch#94709, "Remove torch._six"; the file
# is in v1.13.1 and not in v2.0.0), which DeepSpeed before 0.8.2, old apex, Megatron-DeepSpeed and model repos still import.
REMOVED_MODULES = {"pkg_resources": ("setuptools", "82.0.0", "setuptools<82",
                                     "https://raw.githubusercontent.com/pypa/setuptools/refs/tags/v82.0.1/NEWS.rst"),
                   "torch._six": ("torch", "2.0.0", "torch<2", "https://github.com/pytorch/pytorch/pull/94709")}
# A symbol missing from the library that owns it, needed by another package's library (one missing its own package's
# symbol is read above): NNAL's ATB is not the one torch_npu / vllm-ascend were built against; a compiled extension
# (flash_attn_2_cuda, a project's CUDA / NPU op) was built against another torch release or C++ ABI.
SYMBOL_KINDS = {"atb": "atb-version-mismatch", "torch": "extension-torch-abi-mismatch"}
# Compiled extension modules: "No module named 'torch_npu._C'" from a source tree means the checkout shadows the wheel.
EXTENSION = lazy(r"\.(?:_C\w*|\w+_C|_ext|_kernels|lib\w*)$")
MATRIX = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/community/versioning_policy.md"
TORCH_NPU = "https://github.com/Ascend/pytorch/blob/9e73e708ab9350d203475609f36f8a43f6a0c2ab/COMPATIBILITY.en.md"
INSTALL = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/installation.md"


def dist(module: str) -> str:
    top = module.split(".")[0]
    return DIST.get(top, top.replace("_", "-"))


@functools.cache
def _owners_data() -> dict:
    """class_owners.yaml as read."""
    from importlib import resources  # here, not at import: a one-line explain never needs it (nor its tempfile, zipfile)

    import yaml

    return yaml.safe_load(resources.files(__package__).joinpath("class_owners.yaml").read_text(encoding="utf-8")) or {}


@functools.cache
def class_owners() -> dict[str, str]:
    """{class name: import name of the package that defines it}, from class_owners.yaml."""
    return {name: package for package, row in _owners_data().items() for name in row.get("names", ())}


def _transformers_rows() -> dict:
    return _owners_data().get("transformers") or {}


def transformers_family_class(name: str) -> str:
    """The suffix (Config, Processor, …) of a model family's configuration or processor class transformers defines, or ''."""
    row = _transformers_rows()
    families = set(row.get("families", ()))
    for suffix in sorted(row.get("family_suffixes", ()), key=len, reverse=True):
        if name.endswith(suffix) and name[: -len(suffix)] in families:
            return suffix
    return ""


# Attributes a processor object has as its parts: reading one from a processor class that lacks it means another object
# (an image processor or a bare tokenizer) was handed over, not that the release lacks it.
# The same for a tokenizer's own attributes read from a processor (a processor passed where a tokenizer is expected).
PROCESSOR_PARTS = frozenset(("tokenizer", "image_processor", "video_processor", "feature_extractor", "processor",
                             "eos_token_id", "pad_token_id", "bos_token_id", "eos_token", "pad_token", "bos_token", "vocab_size"))
REMOTE_CODE = lazy(r"[/\\]transformers_modules[/\\]")


def transformers_class_attribute(link: Link, facts: Facts, name: str, attribute: str) -> Finding | None:
    """A transformers model family's config / processor object lacks an attribute another package reads."""
    suffix = transformers_family_class(name)
    if not suffix or attribute in PROCESSOR_PARTS or any(REMOTE_CODE.search(f.path) for f in link.frames):
        return None
    caller = link.raiser
    if caller == "transformers":
        return None  # transformers' own code reading it: a bug or a model folder's config, not a pair
    have = facts.versions.get("transformers", "")
    major = re.match(r"(\d+)\.", have)
    added = set(_transformers_rows().get("processor_attributes_added", ()))
    too_old = "Processor" in suffix and attribute in added and not (major and int(major.group(1)) >= 5)
    who = caller or "the calling code (vLLM, sglang, lmdeploy, a trainer)"
    shown = f" (the log shows transformers {have})" if have else ""
    if too_old:
        cause = (f"{link.short_type}: '{name}' object has no attribute '{attribute}'. {who} reads the processor's special-token "
                 f"attribute {attribute}, which transformers' processors set from release 4.47 on; the installed transformers{shown} "
                 "is older than the release the caller was written for.")
        fix = ("Upgrade transformers to the release the caller documents (at least 4.47 for image_token / video_token): "
               "python -m pip install -U 'transformers>=4.47' (keep inside the caller's pin: pip check)",
               "Check which transformers the job imports: python -c \"import transformers; print(transformers.__version__)\"")
        kind, title = "transformers-too-old", f"transformers is older than its caller expects ({name} has no {attribute})"
    else:
        cause = (f"{link.short_type}: '{name}' object has no attribute '{attribute}'. {who} reads {attribute} from the {name} "
                 f"that transformers{shown} built, and this release's class has no such attribute: the caller was written for "
                 "another transformers release. Configuration attributes are renamed across releases as well as added (5.0 "
                 "moved rope_theta / rope_scaling into rope_parameters), so compare the caller's transformers pin with the installed one.")
        fix = ("Install the transformers release the caller pins (its requirements or setup.py; pip show transformers), "
               "or the caller's release written for the installed transformers",
               "If the attribute comes from the model folder (config.json), re-download the model files for that release")
        kind, title = "package-mismatch", f"transformers and its caller do not match ({name} has no {attribute})"
    return Finding(title[:160], cause, fix, evidence(link), (TRANSFORMERS_AUTO,), key=f"transformers-attr:{name}:{attribute}", kind=kind)


TRANSFORMERS_AUTO = "https://github.com/huggingface/transformers/blob/001002320fa01a489bb9b93976a7e4cd1a46291c/src/transformers/models/auto/configuration_auto.py"


def config_attribute_dropped_in_5(link: Link, facts: Facts, name: str, attribute: str) -> Finding | None:
    """A configuration object lacks an attribute every config had by default up to transformers 4.x: code written for
    4.x (remote model code, an older library) runs on transformers 5."""
    row = _transformers_rows()
    if not name.endswith("Config") or attribute not in set(row.get("config_attributes_dropped_in_5", ())):
        return None
    if class_owners().get(name, "transformers") != "transformers" or name in set(row.get("config_lookalikes", ())):
        return None  # another package's own config class (vLLM's ModelConfig, TRL's GRPOConfig)
    have = facts.versions.get("transformers", "")
    major = re.match(r"(\d+)\.", have)
    if major and int(major.group(1)) < 5:
        return None  # the log shows a 4.x transformers: not the 5.0 change
    remote = any(REMOTE_CODE.search(f.path) for f in link.frames)
    shown = f" (the log shows transformers {have})" if have else ""
    return Finding(
        f"Code written for transformers 4.x runs on transformers 5 ({name} has no {attribute})"[:160],
        (f"{link.short_type}: '{name}' object has no attribute '{attribute}'. Up to 4.x every transformers configuration had "
         f"{attribute} by default (PretrainedConfig set the token ids, encoder-decoder fields and generation parameters on "
         "every config); from 5.0 on no configuration has it unless its own class or config.json sets it, and generation "
         "parameters are moved to model.generation_config. The code that reads it"
         + (" (the model's remote code, under transformers_modules)" if remote else "")
         + f" was written for transformers 4.x, and the installed transformers{shown} is 5.x: transformers is too new for it."),
        ("Use a release of the model code / caller written for transformers 5 (update the model repository's remote code or "
         "the library that reads the config), or pin transformers below 5: python -m pip install 'transformers<5'",
         f"As a stopgap for a token id, set {attribute} in the model's config.json (5.x still loads extra keys as attributes; "
         "generation parameters are read from generation_config.json instead)"),
        evidence(link), tuple(row.get("config_attributes_sources", ())), key=f"transformers5-config:{attribute}",
        kind="transformers-too-new",
    )


def owner_of_name(name: str) -> str:
    """The package a bare class or function name belongs to, where its prefix or class_owners.yaml says so."""
    if re.match(r"(?:Ascend|NPU)[A-Z]", name):
        return "vllm_ascend"
    if name.startswith(("npu_", "Npu")):
        return "torch_npu"
    return class_owners().get(name, "")


def owner_in_call(code: str, name: str) -> str:
    """The package a call in a printed source line belongs to: ``uvicorn.Config(`` or a class class_owners.yaml knows.

    ``name`` is the callable Python named (``Config.__init__``; before Python 3.10 only ``__init__``).
    """
    cls = name.split(".")[0] if "." in name else ""
    # a plain function's name must be the call's (torch.tensor(reward_func(…)) does not make torch the callee); before
    # Python 3.10 a constructor's TypeError names only __init__, and the class is whichever call the line makes
    func = name if not cls and not name.startswith("__") else ""
    for module, called in CALL.findall(code):
        if (cls and called != cls) or (func and called != func):
            continue
        top = module.split(".")[0]
        if top and top not in ("self", "cls", "super") and top in KNOWN_MODULES:
            return top
        if called[:1].isupper() and (owner := owner_of_name(called)):
            return owner
    return ""


def outer_package(link: Link, inner: str | None) -> str | None:
    """The first package outward from the innermost frame that is not ``inner``: who called into it."""
    return next((f.package for f in reversed(link.frames) if f.package and f.package != inner), None)


# The Itanium C++ ABI's mangled name of a function: _Z, then N (and cv / ref qualifiers) for a nested name, an
# optional St (std::), then the first name component as <length><identifier>. That component (a namespace or a class)
# says whose code the function is; the parameter types that follow (at::Tensor const&, ...) do not.
MANGLED_HEAD = re.compile(r"_Z(?:N[rVKRO]*)?(?:St)?(\d+)")
TORCH_NAMESPACES = frozenset({"c10", "at", "torch", "caffe2", "aten"})
STD_HEAD = re.compile(r"_?_Z(?:N[rVKRO]*)?St")


def _first_component(symbol: str) -> str | None:
    text = symbol[1:] if symbol.startswith("__Z") else symbol  # Mach-O adds an underscore
    m = MANGLED_HEAD.match(text)
    if m is None:
        return None
    length = int(m.group(1))
    name = text[m.end():m.end() + length]
    return name if len(name) == length else None


# A torch extension's function takes or returns torch's types: at::Tensor (N2at6Tensor), c10 types (N3c10), as mangled.
TORCH_TYPES = re.compile(r"N2at\d|N3c10\d")
BUILD_OPS = "https://pytorch.org/tutorials/advanced/cpp_extension.html"


def _extension_own_function(symbol: str) -> str | None:
    """The first name component of a missing symbol that is a torch extension's own code: a function or class of no
    known dependency (not torch's, CANN's, ATB's, Python's or the C++ library's) whose signature carries torch's types."""
    head = _first_component(symbol)
    if head is None or head.startswith("_") or STD_HEAD.match(symbol) or not TORCH_TYPES.search(symbol):
        return None  # std:: (std::vector<at::Tensor>) is the C++ library's, an ABI matter
    return head


def _unbuilt_own_function(link: Link, lib: str, own: str, symbol: str) -> Finding:
    """An extension that lacks its own function: its build compiled the declaration but not the definition."""
    return Finding(
        f"{lib} lacks its own code ({own}): the compiled extension was built without it"[:160],
        f"{link.short_type}: {lib} needs symbol {symbol[:80]}, a function of {own}, which is the extension's own code "
        "(its signature takes torch's types, and its name is none of torch's, CANN's or Python's). The loader found no "
        "definition: the build compiled a caller of it but not the source file that defines it (a source list that "
        "leaves files out for this device or platform, a partial or stale build, a prebuilt .so from other sources).",
        (f"Rebuild the extension from a clean tree (remove its build / JIT cache folder, e.g. ~/.cache/torch_extensions, "
         "and the stale .so) with all its sources; for an op a framework builds on the fly (DeepSpeed's op_builder), "
         "upgrade to a release whose builder lists every source for your device",
         f"Check which file should define it: c++filt {symbol[:80]}; nm -D --defined-only {lib}"),
        evidence(link), (BUILD_OPS,), key=f"unbuilt:{lib}:{own}", kind="custom-ops-build-failed",
    )


# ld.so searches LD_LIBRARY_PATH before a library's own RUNPATH: a directory there holding another release's copy of a
# package's shared libraries (a standalone libtorch for C++ builds, another environment's site-packages/torch/lib) is
# loaded in place of the package's own.
LD_SO = "https://man7.org/linux/man-pages/man8/ld.so.8.html"
OWN_LIBS_MIXED_THREAD = "https://github.com/hijkzzz/alpha-zero-gomoku/issues/28"


def _own_libraries_mixed(link: Link, pkg: str, lib: str, symbol: str) -> Finding:
    """A package's own shared library lacks a symbol of that same package (torch's libtorch_cpu.so needing a c10 symbol):
    the libraries loaded together come from two releases of it."""
    name = dist(pkg)
    return Finding(
        f"{name}'s own library {lib} is missing one of {name}'s symbols: libraries of two {name} releases are loaded together"[:160],
        f"{link.short_type}: {lib} needs symbol {symbol[:80]}, which {name}'s own libraries define, and the loader found none. "
        f"{lib} ships inside {name}, so the copy of its sibling libraries that was loaded with it is another release's: a "
        f"directory on LD_LIBRARY_PATH (or LD_PRELOAD) holding another {name} build (a standalone libtorch downloaded for C++ "
        f"builds, another environment's {pkg}/lib), or an upgrade that left files of the old release beside the new.",
        (f"See which copies are loaded: ldd $(python -c \"import os, {pkg}; print(os.path.dirname({pkg}.__file__))\" 2>/dev/null)/lib/{lib} "
         f"(or ldd on the path in the error); every {name} library it lists must be under that same {pkg}/lib",
         f"Remove the foreign directory from LD_LIBRARY_PATH / LD_PRELOAD (echo $LD_LIBRARY_PATH; a libtorch/lib or another "
         f"environment's path), or make the C++ distribution the same release as the Python {name}",
         f"If nothing foreign is loaded, reinstall cleanly: pip uninstall -y {name} (repeat until none is left), then pip install "
         f"the release you need"),
        evidence(link), (LD_SO, OWN_LIBS_MIXED_THREAD), key=f"own-libs-mixed:{pkg}:{lib}", kind="package-mismatch",
    )


# NCCL's API grows by release (ncclCommRegister first in nccl.h of 2.19): a library built against a newer NCCL that finds
# one of those functions missing has an older libnccl.so.2 loaded in its place.
NCCL_H = "https://github.com/NVIDIA/nccl/blob/v2.19.3-1/src/nccl.h.in"
NCCL_OLDER_THREAD = "https://github.com/pytorch/pytorch/issues/119072"


def _nccl_older(link: Link, lib: str, symbol: str) -> Finding:
    """A library (torch's libtorch_cuda.so, an extension) needs an NCCL function the libnccl.so.2 loaded does not define."""
    return Finding(
        f"An older NCCL is loaded than {lib} was built with ({symbol[:60]} is missing)"[:160],
        f"{link.short_type}: {lib} needs symbol {symbol[:80]}, one of NCCL's API functions, and the libnccl.so.2 the loader "
        f"found does not define it. {lib} was built against a newer NCCL (torch's wheels pin theirs, nvidia-nccl-cu*), and "
        "another, older copy is loaded first: a directory on LD_LIBRARY_PATH holding the system's or a CUDA toolkit's NCCL, "
        "another package that ships its own NCCL (MSCCL / msccl-executor, an old nvidia-nccl wheel, a conda nccl package), or "
        "a downgrade of the nvidia-nccl wheel by pip.",
        ("See which libnccl is loaded: ldd <the library in the error> | grep nccl (and echo $LD_LIBRARY_PATH); it should be "
         "the site-packages/nvidia/nccl/lib copy of the NCCL torch pins (pip show nvidia-nccl-cu12 or -cu11; torch's "
         "requirements name the version)",
         "Remove the older copy from the loader's path (the LD_LIBRARY_PATH entry, the package that ships it), or reinstall "
         "the pinned NCCL: pip install --force-reinstall nvidia-nccl-cu12==<the version torch requires>",
         "Or use a torch release built for the NCCL you must keep"),
        evidence(link), (NCCL_H, NCCL_OLDER_THREAD, LD_SO), key=f"nccl-older:{lib}:{symbol[:40]}", kind="nccl-too-old",
    )


def owner_of_symbol(symbol: str) -> str:
    """Whose library defines a missing symbol, from its (mangled) name: the first component of a mangled name (the
    function's namespace or class), not the types of its parameters (an extension's own function taking an at::Tensor
    is the extension's)."""
    if re.search(r"\b_ZN\d*3atb|\batb::", symbol):
        return "atb"  # CANN NNAL's ATB library
    if re.match(r"_?(?:aclnn|aclrt|acl[A-Z]|Hccl|hccl)", symbol):
        return "cann"  # CANN's operator / runtime / HCCL API
    if re.match(r"_?(?:nccl|pnccl)[A-Z]", symbol):
        return "nccl"  # NCCL's C API (nccl.h: ncclCommInitRank, ncclCommRegister, …; pnccl* its profiling aliases)
    head = _first_component(symbol)
    if head is not None:
        if head in TORCH_NAMESPACES or head.startswith(("THP", "at_", "torch_")):
            return "torch"
        if head.startswith("Py"):
            return "python"
        return ""
    if any(s in symbol for s in ("c10", "at6native", "2at", "torch")):
        return "torch"
    if "Py" in symbol[:4]:
        return "python"
    return ""


def pins(a: str, b: str, versions: dict[str, str]) -> list[str]:
    """Supported pairs for two import names, from the compatibility matrices."""
    try:
        from ascendrl.preflight import compat
        from ascendrl.preflight.versions import parse_python_pkg
    except ImportError:  # pragma: no cover - the catalog used on its own
        return []
    pair = {a, b}
    out: list[str] = []
    rows = compat.matrices()["vllm_ascend"]["rows"]
    if "vllm_ascend" in pair and (pair & {"vllm", "torch", "torch_npu", "transformers"}):
        other = next(iter(pair - {"vllm_ascend"}))
        have = versions.get("vllm_ascend")
        chosen = [r for r in rows if have and r["vllm_ascend"] == have] or rows[:3]
        for r in chosen:
            value = r.get(other)
            if value:
                out.append(f"vllm-ascend {r['vllm_ascend']} pairs with {dist(other)} {', '.join(value) if isinstance(value, list) else value}")
    elif pair == {"torch", "torch_npu"}:
        have = versions.get("torch") or versions.get("torch_npu")
        out.append("torch_npu's version must start with torch's (torch 2.7.1 <-> torch-npu 2.7.1.postN)"
                   + (f"; the log shows {have}" if have else ""))
    elif "verl" in pair:
        other = next(iter(pair - {"verl"}), "")
        have = parse_python_pkg(versions.get("verl"))
        verl_rows = [r for r in compat.matrices()["verl"]["rows"] if have is None or r["verl"] == str(have)] or compat.matrices()["verl"]["rows"][-2:]
        for r in verl_rows[-2:]:
            ascend = r.get("ascend") or {}
            value = r.get(other) or ascend.get(other)
            if value:
                out.append(f"verl {r['verl']} supports {dist(other)} {value}")
    return out[:4]


def _older(found: str, spec: str) -> bool:
    """Whether ``found`` is below a lower bound (``>=``, ``>``, ``~=``) of the requirement ``spec``."""
    try:
        from packaging.specifiers import SpecifierSet
        from packaging.version import Version

        have = Version(found)
        return any(s.operator in (">=", ">", "~=", "==") and have < Version(s.version.rstrip(".*"))
                   for s in SpecifierSet(spec.replace(" ", "")))
    except Exception:  # an unparsable version or spec: say nothing about its direction
        return False


def transformers_model_class(msg: str) -> str:
    """A model / config / processor class that transformers' top level lacks: one a newer transformers release added.

    transformers adds each architecture's classes in the release that supports it and keeps them ("cannot import name
    'Qwen2_5_VLForConditionalGeneration' from 'transformers'" under 4.48). Not the Auto* factories and TF / Flax classes,
    which releases have renamed or dropped, nor names from a submodule (internal classes move between releases).
    """
    if (m := CANNOT_IMPORT.search(msg)) and (m.group(2) or "") == "transformers":
        name = m.group(1)
    elif (m := NO_ATTR.search(msg)) and m.group(1) == "transformers":
        name = m.group(2)
    else:
        return ""
    if name.startswith(("Auto", "TF", "Flax")) or not MODEL_CLASS.match(name):
        return ""
    return name


def import_history(msg: str, owner: str, facts: Facts) -> NameHistory | None:
    """What the released wheels say about the name (or submodule) a failed import asked of ``owner`` (apihistory.py)."""
    if "partially initialized" in msg:
        return None  # a circular import: the release has the name, the module was still being imported
    if (m := CANNOT_IMPORT.search(msg)) and m.group(2):
        module, name = m.group(2), m.group(1)
    elif m and not m.group(3) and (held := top_level_owner(m.group(1))) is not None and held[1].split(".")[0] == owner:
        module, name = held[1], m.group(1)  # quoted without its module: the one package whose top level had the name
    elif m := NO_ATTR.search(msg):
        module, name = m.group(1), m.group(2)
    elif (m := NO_MODULE.search(msg)) and "." in m.group(1) and m.group(1).split(".")[0] == owner:
        return module_history(dist(owner), m.group(1), facts.versions.get(owner))  # a submodule added or removed
    elif m := UNEXPECTED_KW.search(msg):
        return param_history(dist(owner), m.group(1), m.group(2), facts.versions.get(owner))  # a keyword added or removed
    elif (m := OBJ_ATTR.search(msg)) and owner == "transformers":
        return trainer_attribute(m.group(1), m.group(2), facts)
    else:
        return None
    if "." in name or module.split(".")[0] != owner:
        return None
    return name_history(dist(owner), module, name, facts.versions.get(owner))


def trainer_attribute(cls: str, attribute: str, facts: Facts) -> NameHistory | None:
    """A trainer object (its class named ``*Trainer``: TRL's GRPOTrainer, an application's Seq2SeqTrainer subclass) lacking
    an attribute transformers' Trainer has only in some releases (api_history.json's attrs): the subclass was written
    for a transformers release that has it. None where the attribute is Trainer's in every release read, or not Trainer's."""
    if not cls.endswith("Trainer") or class_owners().get(cls, "") not in ("", "trl", "transformers"):
        return None
    history = attr_history("transformers", "Trainer", attribute, facts.versions.get("transformers"))
    return history if history is not None and history.direction in ("too-old", "too-new") else None


def required_version(link: Link, facts: Facts) -> Finding | None:
    """A version check that states the requirement and the installed version (or its absence), in any of its wordings."""
    msg = link.message
    if m := REQUIRED.search(msg):
        pkg, spec, found_pkg, found = m.group(1), m.group(2).replace(" ", ""), m.group(3), m.group(4)
        said = m.group(0)
        source = VERSIONS
    elif m := VERSION_CONFLICT.search(msg):
        if m.group(1):
            found_pkg, found, pkg, spec = m.group(1), m.group(2), m.group(3), m.group(4)
        else:
            found_pkg, found, pkg, spec = m.group(5), m.group(6), m.group(7), m.group(8)
        said = m.group(0)
        source = PKG_RESOURCES
    elif m := STATED.search(msg) or _stated_is(msg):
        return stated_minimum(link, facts, m)
    elif m := NOT_DISTRIBUTED.search(msg):
        name, spec = m.group(1) or m.group(3), (m.group(2) or "").strip()
        if spec:  # pkg_resources found no installed distribution inside the range: installed at another version, or absent
            return Finding(
                f"No installed {dist(name)} satisfies {name}{spec}"[:160],
                f"{link.short_type}: {m.group(0).rstrip(' ')}. A package's requirement {name}{spec} is checked at import, and no "
                f"installed {dist(name)} release is inside that range (installed at another version, or not installed).",
                (f"Install a release inside the range: python -m pip install '{name}{spec}' (pip show {dist(name)} shows what is there)",
                 "Or upgrade the package that declares the requirement to one that accepts the installed release"),
                evidence(link), (PKG_RESOURCES, VERSIONS), key=f"required:{name}:{spec}", kind="package-mismatch",
            )
        return Finding(
            f"Python package not installed: {name}",
            f"{link.short_type}: {m.group(0).rstrip(' ')}. The code asked the installed distributions for {name} (its version or "
            f"its metadata) and the interpreter that ran it has none: {name} is not installed there, or only as a source folder "
            "on sys.path that was never pip-installed (no .dist-info).",
            (f"Install it into the environment that runs the job: python -m pip install '{name}' (a source checkout: pip install -e <checkout>)",
             "Check it is the same interpreter (and, under Ray, the workers' environment): python -m pip show " + name),
            evidence(link), (METADATA, VERSIONS), key=f"missing-dist:{name}", kind="missing-dependency",
        )
    else:
        return None
    pip = dist(pkg)
    if not found:  # "… is required …, but it is not installed."
        return Finding(
            f"Python package not installed: {pip} ({pkg}{spec} required)",
            f"{link.short_type}: {said}. A version check requires {pkg}{spec}, and the interpreter that ran it does not have {pip} installed.",
            (f"Install it: python -m pip install '{pkg}{spec}'",),
            evidence(link), (source,), key=f"required:{pkg}", kind="missing-dependency",
        )
    older = _older(found, spec)
    kind = too_old_kind(pip) if older else "package-mismatch"
    caller = link.raiser if link.raiser and link.raiser != pkg else None  # the package whose import ran the check
    return Finding(
        f"Installed {pip} {found} does not meet the requirement {pkg}{spec}"[:160],
        f"{link.short_type}: {said}. A version check at import"
        + (f" (in {caller})" if caller else "")
        + f" requires {pkg}{spec}, and the environment has {found_pkg} {found}, "
        + ("older than that: it was installed or pinned by an earlier step, or another package's pin holds it back."
           if older else "outside that range: another package installed or upgraded it past the pin."),
        (f"Install a release inside the range: python -m pip install '{pkg}{spec}' (then pip check, and ascendrl check for the NPU stack)",
         f"If another package needs the {found} release, upgrade the package that made the check to one that accepts it"),
        evidence(link), (source,), key=f"required:{pkg}:{spec}:{found}", kind=kind,
    )


# Ray deserializes what another process pickled (a task's arguments, an actor's class, a returned object) in
# ray/_private/serialization.py (deserialize_objects -> pickle.loads); an import that fails there is the receiving
# process's environment lacking the module the sender's object refers to, reported on the ray.get side as RaySystemError
# ("System error: " + the import error; ray/exceptions.py, RaySystemError.__str__). Text read in the ray 2.60.0 wheel.
RAY_SERIALIZATION = lazy(r"[/\\]ray[/\\]_private[/\\]serialization\.py$")
RAY_SYSTEM_ERROR = lazy(r"^System error: ")
RAY_ENV_DOC = "https://docs.ray.io/en/latest/ray-core/handling-dependencies.html"


def unpickled_by_ray(link: Link) -> bool:
    """The import failed while Ray unpickled an object another process sent (its serialization frames, or RaySystemError)."""
    if link.short_type == "RaySystemError" and RAY_SYSTEM_ERROR.search(link.message):
        return True
    return any(RAY_SERIALIZATION.search(f.path) for f in link.frames)


# A Ray worker's own start-up script (python/ray/_private/workers/default_worker.py; python/ray/workers/ before Ray 1.x's
# move): the raylet launches Python workers with the command `ray start` built from its own interpreter (services.py
# start_raylet, --python_worker_command), so an import failing at the worker's first lines is that interpreter lacking
# what the driver's has (a.k.a. another Python or environment than the driver's).
RAY_DEFAULT_WORKER = lazy(r"[/\\]ray[/\\](?:_private[/\\])?workers[/\\]default_worker\.py$")
RAY_SERVICES = "https://github.com/ray-project/ray/blob/003280cbe0d09f1c4cd6a482363fbefff4f613c5/python/ray/_private/services.py"
RAY_WORKER_PYTHON = "https://github.com/ray-project/ray/issues/759"


def ray_worker_interpreter(link: Link, module: str, name: str) -> Finding | None:
    """"No module named X" raised by Ray's worker start-up script itself: the worker runs another Python than the driver."""
    if not link.frames or not RAY_DEFAULT_WORKER.search(link.frames[-1].path):
        return None
    return Finding(
        f"Ray started its workers with a Python that lacks {module}",
        f"{link.short_type}: No module named '{module}', raised by Ray's worker start-up script (default_worker.py) "
        f"itself. The raylet starts every Python worker with the interpreter `ray start` ran under (or the job's "
        f"runtime_env), not the driver's: that interpreter has no {name}, so the workers die as they start and tasks "
        "or actors never run. Usually `ray start` came from another venv / conda env (or the system Python), or the "
        "cluster was started before the package was installed into the environment it runs.",
        ("Start Ray from the job's environment on every node: activate it, check `which python` and `which ray` point "
         "into it, then `ray stop --force; ray start ...`",
         f"Or install {name} into the environment Ray runs (the interpreter in the worker log's traceback path), then "
         "restart Ray; a job can also carry it in runtime_env (pip / conda)",
         "The workers' own logs name the interpreter: /tmp/ray/session_latest/logs/worker-*.err and python-core-worker-*.log"),
        evidence(link), (RAY_SERVICES, RAY_WORKER_PYTHON, RAY_ENV_DOC), key=f"ray-worker-python:{module}",
        kind="ray-worker-python-mismatch",
    )


def ray_unpickle_import(link: Link, module: str, name: str) -> Finding:
    """"No module named X" while Ray unpickled: pickle imports the module an object was defined in, by name, in the
    process that receives it; the sender had it, the receiver (a worker on another node, or one started without the
    driver's working directory on sys.path) does not. Same root cause as any missing module, so the same kind."""
    return Finding(
        f"Python module not importable where Ray unpickled an object: {module}",
        f"{link.short_type}: No module named '{module}'. Ray pickles a function, class or object by reference to the "
        f"module that defines it, and the process that received it (a Ray worker, or the driver on ray.get) could not "
        f"import {module}: it is installed or on sys.path where the object was made, not there. Either {name} is missing "
        "from that node's environment, or it is a module of your project that Ray's workers do not see (a worker does not "
        "start in the driver's directory, and other nodes do not have your files).",
        (f"If {module} is your own code (a reward function, a dataset or model class): ship it with the job, "
         "ray.init(runtime_env={'working_dir': '.'}) or runtime_env py_modules, or put its folder on PYTHONPATH before "
         "ray start on every node",
         f"If it is a package: install {name} in the environment Ray's workers run on every node (the same venv or image), "
         "then restart Ray (ray stop; ray start)",
         "The worker's own log says which node failed: /tmp/ray/session_latest/logs/worker-*.err"),
        evidence(link), (RAY_ENV_DOC,), key=f"missing:{module}", kind="missing-dependency",
    )


# The megatron-core wheel packages megatron.core alone (Megatron-LM's pyproject.toml: [tool.setuptools.packages.find]
# include = ["megatron.core", "megatron.core.*"]); Megatron-Bridge and Megatron-Energon ship megatron.bridge and
# megatron.energon. Every other megatron.<x> (training, legacy, inference, post_training, rl, and the pre-2024 layout's
# optimizer, model, mpu, tokenizer ...) lives only in a Megatron-LM source checkout.
MEGATRON_WHEEL = "https://github.com/NVIDIA/Megatron-LM/blob/000c4ac24f61159c138b0975def722c65245983c/pyproject.toml"


def megatron_lm_source_missing(link: Link, module: str, caller: str | None) -> Finding | None:
    """`No module named 'megatron.training'`: only a Megatron-LM checkout has it, pip's megatron-core never does."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "megatron" or ".".join(parts[:2]) in SEPARATE:
        return None
    sub = ".".join(parts[:2])
    who = caller or "the code that imports it"
    return Finding(
        f"Megatron-LM's own modules are not importable: no {module} (megatron-core ships megatron.core only)"[:160],
        f"{link.short_type}: No module named '{module}'. {who} uses Megatron-LM's training code ({sub}), which is not part "
        "of the megatron-core package: that wheel contains megatron.core alone. The rest of Megatron-LM (megatron.training, "
        "megatron.legacy, ... ; before 2024 megatron.optimizer, megatron.model, megatron.mpu at the top level) is importable "
        "only from a Megatron-LM source checkout on the path. Either none is on PYTHONPATH, or the one found is a release "
        f"whose layout has no {sub} (the modules moved between releases).",
        (f"Clone Megatron-LM at the release {who} was written for (its docs or Dockerfile name the tag) and put it on the "
         "path of every process, Ray workers included: export PYTHONPATH=/path/to/Megatron-LM:$PYTHONPATH (or pip install -e "
         "it from that checkout)",
         "Check what is found: python -c 'import megatron, sys; print(megatron.__path__)'; a checkout of another release "
         f"than the one {who} expects lacks {sub}: switch the tag"),
        evidence(link), (MEGATRON_WHEEL,), key=f"megatron-lm:{sub}", kind="megatron-lm-source-not-on-pythonpath",
    )


def removed_module(link: Link, module: str, removed: tuple[str, str, str, str], caller: str | None) -> Finding:
    """A module its distribution no longer ships: the installed release is newer than the code that imports it."""
    owner, release, pin, source = removed
    who = caller or "the code that imports it"
    if module.startswith(owner + "."):
        # a submodule of a package that is installed (torch._six): the installed release is past the removal, and the
        # framework it carries (torch_npu pins torch) is what the caller must catch up with
        return Finding(
            (f"{module} is gone from {owner} {release} and later" + (f": {caller} still imports it" if caller else ""))[:160],
            f"{link.short_type}: No module named '{module}'. {owner} removed {module} in release {release}; {who} was written "
            f"for an older {owner} and still imports it, and the installed {owner} is {release} or newer. Installing "
            f"{module} on its own does not bring it back: it is not a separate package.",
            (f"Upgrade {who} to a release written for {owner} {release} or later (pip install -U {dist(caller) if caller else '<package>'}), "
             f"or change its import (for torch._six: from torch import inf; string_classes -> str)",
             f"Only where nothing else needs the newer {owner} (on Ascend torch_npu pins torch): python -m pip install '{pin}'"),
            evidence(link), (source,), key=f"removed:{module}", kind="package-mismatch",
        )
    return Finding(
        (f"{module} is gone from {owner} {release} and later" + (f": {caller} still imports it" if caller else ""))[:160],
        f"{link.short_type}: No module named '{module}'. {module} came with {owner}, which removed it in release {release}; "
        f"{who} was written for an older {owner}, and the environment has none that provides it: {owner} {release} or newer "
        f"(a fresh install or an upgrade pulled it in), or no {owner} at all (virtual environments of recent Pythons start "
        f"without it). Installing {module} on its own does not bring it back: it is not a separate package.",
        (f"Pin the older release line in the environment that runs it: python -m pip install '{pin}' (then re-run)",
         f"Or upgrade {who} to a release that no longer imports {module}"),
        evidence(link), (source,), key=f"removed:{module.split('.')[0]}", kind="package-mismatch",
    )


# A library that refuses a feature because an optional dependency it needs is not importable, and says which package to
# install. The wordings share a structure: a clause saying the package is missing, and the package named in a pip command,
# a "Please install X", or a "<flag> is set to True". Read in the emitting projects' source:
#  - TRL's trainers (trl/trainer/grpo_trainer.py, rloo / online_dpo / gkd ...; ms-swift copies it in swift/trainers/rlhf_trainer):
#    "vLLM is not available and `use_vllm` is set to True. Please install vLLM with `pip install vllm` to use it.",
#    "You passed `peft_config` but the `peft` library is not installed. ...", "You set `use_liger_kernel=True` but the liger
#    kernel is not available. Please install liger-kernel first: `pip install liger-kernel`", "vLLM is required to run the
#    vLLM serve script. Please install it using `pip install vllm`.", "Please install the `math_verify` package to use ...";
#  - vLLM's quantizers ("Please install bitsandbytes>=0.45.3 via `pip install bitsandbytes>=0.45.3` to use bitsandbytes
#    quantizer.", model_executor/layers/quantization/bitsandbytes.py);
#  - transformers' requires_backends (utils/import_utils.py BACKENDS_MAPPING): "X requires the protobuf library but it was
#    not found in your environment."
OPT_FLAG = lazy(r"\b([A-Za-z][\w\-.]*?) is not available and `?(\w+)`? is set to True")
OPT_MISSING = lazy(r"\b(?:is|are) not (?:installed|available)\b|\bnot installed\b|\bwas not found in your environment\b"
                   r"|^(?:[\w`'.=\- ]+: )?[Pp]lease install\b|\. [Pp]lease install\b|\bis required to (?:run|use)\b|\brequires? the `?[\w\-]+`? (?:library|package)\b")
OPT_PIP = lazy(r"\bpip3? install\s+(?:(?:-U|--upgrade|--user|-q|(?:-i|--index-url|--extra-index-url) \S+)\s+)*['\"`]?"
               r"([A-Za-z][\w.\-]*(?:\[[\w,\-]+\])?)((?:\s*[<>=!~]=?\s*[\w.*+\-]*\d[\w.*+]*)(?:,\s*(?:[<>=!~]=?)\s*[\w.*+\-]*\d[\w.*+]*)*)?")
OPT_PLEASE = lazy(r"\b[Pp]lease install (?:the )?`?([A-Za-z][\w.\-]*)`?(?: (?:package|library))?\b")
OPT_BACKEND = lazy(r"\brequires the `?([\w\-]+)`? (?:library|package)\b")
# Words after "Please install" that are not a package name.
OPT_NOT_NAMES = frozenset(("it", "them", "the", "a", "an", "latest", "version", "from", "using", "with", "via", "one", "this",
                           "that", "correct", "compatible", "proper", "required", "dependencies", "requirements", "missing",
                           "all", "first", "manually", "and", "or", "following", "these", "those", "by", "in", "to"))
OPT_NAMES = {"pytorch": "torch", "sentencepiece": "sentencepiece", "pil": "pillow", "vision": "pillow", "scipy": "scipy",
             "sklearn": "scikit-learn", "scikit-learn": "scikit-learn", "liger": "liger-kernel", "deepspeed": "deepspeed",
             "flash_attn": "flash-attn", "flashattention": "flash-attn", "math_verify": "math-verify", "yaml": "pyyaml"}
# Wordings that say the package is there but too old, or that name a device rather than a package: not this reading.
OPT_TOO_OLD = lazy(r"\blatest version\b|\bupgrade\b|\bnewer\b|\bYour version is\b|\bbut found\b|\bversion (?:is )?too old\b")
TRL_GRPO = "https://github.com/huggingface/trl/blob/v0.19.0/trl/trainer/grpo_trainer.py"
HF_BACKENDS = "https://github.com/huggingface/transformers/blob/v4.46.0/src/transformers/utils/import_utils.py"


def optional_dependency_missing(link: Link) -> Finding | None:
    """A feature refused because the optional package it needs is not importable, with the package named in the message."""
    msg = link.message
    if link.short_type.endswith("Warning") or OPT_TOO_OLD.search(msg):
        return None
    spec = ""
    if m := OPT_FLAG.search(msg):
        flag = m.group(2)
        pip = (OPT_PIP.search(msg).group(1) if OPT_PIP.search(msg) else m.group(1)).lower()
        said = f"{m.group(0)}"
    elif OPT_MISSING.search(msg):
        flag = None
        if (p := OPT_PIP.search(msg)) is not None:
            pip, spec = p.group(1), (p.group(2) or "").replace(" ", "")
        elif (p := OPT_PLEASE.search(msg)) is not None and p.group(1).lower() not in OPT_NOT_NAMES:
            pip = p.group(1)
        elif (p := OPT_BACKEND.search(msg)) is not None and p.group(1).lower() not in OPT_NOT_NAMES:
            pip = p.group(1)
        else:
            return None
        said = msg[:200].rstrip(" .")
    else:
        return None
    pip = pip.strip("`'\". ")
    key_name = pip.split("[")[0].lower()
    if key_name in ("pip", "-r", "-e", ".", "git") or len(key_name) < 2:
        return None
    pip = OPT_NAMES.get(key_name, pip if "[" in pip else dist(key_name.replace("-", "_")))
    caller = link.raiser or "the code that raised it"
    fix = [f"Install it into the environment that runs the job (on every node, and in the Ray workers' environment): "
           f"python -m pip install '{pip}{spec}'"]
    if key_name in ("vllm", "flash-attn", "flash_attn", "bitsandbytes", "deepspeed", "xformers", "liger-kernel", "liger_kernel", "apex"):
        fix.append(f"On an Ascend NPU host install the NPU build where one exists (vllm with vllm-ascend of the matching release; "
                   f"deepspeed with torch_npu; liger-kernel, flash-attn, xformers and bitsandbytes' CUDA kernels have none) "
                   f"or turn the feature off")
    if flag:
        fix.append(f"Or turn the feature off: {flag}=False in the trainer's arguments / config")
    else:
        fix.append("Or turn off the option that asked for it")
    fix.append(f"Check it imports in that interpreter: python -c 'import {key_name.replace('-', '_')}' (pip show {pip.split('[')[0]})")
    return Finding(
        f"Python package not installed: {pip} (needed by a feature the run asked for)"[:160],
        f"{link.short_type}: {said}. {caller} checked for {pip} before using the feature it was configured to use"
        + (f" ({flag}=True)" if flag else "") + f", and the interpreter that ran it cannot import {pip}: it is not installed "
        "there (another virtual environment, a node or container without it), or it is installed but fails to import "
        "(its own ImportError, e.g. a CUDA-only build on an NPU host, is hidden by the availability check).",
        tuple(fix), evidence(link), (TRL_GRPO, HF_BACKENDS), key=f"optional:{pip}", kind="missing-dependency",
    )


# CPython's object_new (Objects/typeobject.c): instantiating a class that still has abstract methods raises
# "Can't instantiate abstract class X with abstract method(s) a, b" (3.11 and older) or "Can't instantiate abstract class
# X without an implementation for abstract method(s) 'a', 'b'" (3.12+). Across a package boundary (a plugin's subclass of
# another package's base class: vllm-ascend's worker / model runner / attention backend under vLLM's, a trainer
# subclassing transformers' or trl's) the base class gained an abstract method in a newer release than the subclass
# was written for.
ABSTRACT = lazy(r"Can't instantiate abstract class (\w+) (?:with abstract methods? ([\w, ]+)|without an implementation for "
                r"abstract methods? ('[\w']+(?:, '\w+')*))")
TYPEOBJECT = "https://github.com/python/cpython/blob/v3.12.4/Objects/typeobject.c"


def abstract_not_implemented(link: Link, facts: Facts) -> Finding | None:
    """A subclass from one package missing a method the base class of another package's release declares abstract."""
    m = ABSTRACT.search(link.message)
    if m is None:
        return None
    cls = m.group(1)
    methods = (m.group(2) or m.group(3) or "").replace("'", "").strip()
    owner = (owner_of_name(cls) or ("vllm_ascend" if re.search(r"[a-z](?:NPU|Ascend)$", cls) else "")
             or (link.frames[-1].package if link.frames else None) or "")
    if not owner:
        return None  # the code's own class, nothing says which package pair
    pip = dist(owner)
    shown = f" (the log shows {pip} {facts.versions[owner]})" if owner in facts.versions else ""
    partner = "vllm" if owner == "vllm_ascend" else "the package that defines its base class"
    kind = "vllm-ascend-too-old" if owner == "vllm_ascend" else "package-mismatch"
    return Finding(
        f"{pip}'s {cls} does not implement {methods}, which its base class now declares abstract"[:160],
        f"{link.short_type}: {m.group(0)}. {cls} (from {pip}{shown}) subclasses a base class of {partner}, and the installed "
        f"release of that base class declares {methods} abstract; {cls} was written for a release without it, so Python "
        f"refuses to create it. The two packages are not the pair each was released for.",
        (f"Install the release pair the packages document (vllm-ascend follows one vLLM release: pip install vllm==<X> "
         f"vllm-ascend==<X matching>; ascendrl check shows the matrix)" if owner == "vllm_ascend" else
         f"Upgrade {pip} to a release written for the installed base package, or pin the base package back to the "
         f"release {pip} supports (pip show {pip} lists its requirement)",
         "Check the installed versions: pip list | grep -i -E 'vllm|torch|transformers|trl'"),
        evidence(link), (TYPEOBJECT, MATRIX), key=f"abstract:{cls}:{methods}", kind=kind,
    )


def stated_minimum(link: Link, facts: Facts, m: re.Match[str]) -> Finding:
    """A check that refused to run below a minimum release it names (the installed one is older)."""
    name = STATED_NAMES.get(m.group(1).lower(), m.group(1).lower().replace("-", "_"))
    pip, spec = ("python" if name == "python" else dist(name)), f"{m.group(2) or '>='}{m.group(3)}"
    have = facts.versions.get(name)
    shown = f" (the log shows {pip} {have})" if have else ""
    caller = link.raiser if link.raiser and link.raiser != name else None
    return Finding(
        f"The installed {pip} is older than {pip}{spec}, which {caller or 'the code'} requires"[:160],
        f"{link.short_type}: {link.message[:160].rstrip('.')}. A check in {caller or 'the code that raised it'} refuses to run on a {pip} release below "
        f"{m.group(3)}{shown}: the environment holds an older {pip} than the feature needs (a pre-release such as 2.1.0a0 counts "
        "as older than 2.1.0).",
        (f"Install a {pip} release that meets it: python -m pip install '{'python' if name == 'python' else pip}{spec}' "
         "(for torch on an NPU host: the torch release your torch_npu pairs with, per the torch_npu compatibility table)"
         if name != "python" else f"Run it with a Python interpreter of version {spec} (a new virtual environment or conda env)",
         f"Or turn the feature off, or pin {caller or 'the package'} to a release that supports the installed {pip}"),
        evidence(link), (STATED_SRC, VERL_STATED), key=f"stated:{name}:{spec}", kind=too_old_kind(pip),
    )


def shadowed_by_local_file(link: Link) -> Finding | None:
    """A circular import of a package through a file or folder of the same name outside the installed packages."""
    m = CIRCULAR.search(link.message)
    if m is None:
        return None
    name = m.group(1) or m.group(8)
    module, path = m.group(2) or m.group(4) or m.group(6), m.group(3) or m.group(5) or m.group(7)
    top = module.split(".")[0]
    named = re.compile(rf"(?:^|[/\\]){re.escape(top)}(?:\.py|[/\\]__init__\.py)$")
    # the message's own path first, then the innermost frame (where the import ran), then the others
    local = next((p for p in (path, *(f.path for f in reversed(link.frames))) if p and named.search(p) and not INSTALLED.search(p)), None)
    if local is None:
        return None  # the module is the installed one: read as the import it is (the pair below)
    # A cycle among one's own modules reads the same. Shadowing shows as the file importing its own name (the innermost
    # frame is that file: a.py's "from a import X"; in a cycle it is the other module's file), or, with no frames pasted,
    # as a library's name this tool knows (a script named trl.py).
    inner = link.frames[-1].path if link.frames else ""
    self_import = bool(named.search(inner)) and not INSTALLED.search(inner)
    if not self_import and (link.frames or not (top in KNOWN_MODULES or top in DIST or top in class_owners().values())):
        return None
    return Finding(
        f"A local {local.rsplit('/', 1)[-1]} shadows the package {top} (circular import)",
        f"{link.short_type}: {m.group(0)[:200]}. '{module}' was still being imported when '{name}' was asked of it. Python took {top} from "
        f"{local}, a file or folder of the same name outside the installed packages (the working directory or a path on "
        f"sys.path), not the installed {dist(top)}: importing it ran into itself, so '{name}' was not defined yet.",
        (f"Rename {local} (and delete the __pycache__ next to it) or run from another directory, so that import {top} finds the installed package",
         f"Check what Python imports: python -c \"import {top}; print({top}.__file__)\""),
        evidence(link), (CEVAL,), key=f"shadow:{top}", kind="local-dir-shadows-package",
    )


# kbr3 s21: packages that are never namespace packages when installed, and the names every release of one of them has
# defined at its top level. A module of that name without one of them is not the installed package: Python took a
# folder of that name (a source checkout in the working directory, a leftover folder; one without __init__.py is an
# empty namespace package, whose from-imports CPython reports as "(unknown location)") or a script of that name (a
# user's vllm.py) first. vllm's top level has exported LLM, SamplingParams, LLMEngine, RequestOutput and
# CompletionOutput since v0.1.0 (vllm/__init__.py then, and its lazy MODULE_ATTRS now); ray's init/remote/get/put are
# its core API since its first releases; every release of these packages defines __version__.
NEVER_NAMESPACE = frozenset(("vllm", "vllm_ascend", "torch", "torch_npu", "transformers", "verl", "ray", "triton", "deepspeed",
                             "accelerate", "peft", "trl", "numpy", "datasets", "tokenizers", "safetensors", "hydra",
                             "tensordict", "mindspeed"))
ALWAYS_DEFINED = {"vllm": frozenset(("LLM", "SamplingParams", "LLMEngine", "RequestOutput", "CompletionOutput")),
                  "ray": frozenset(("init", "remote", "get", "put", "shutdown"))}
VLLM_INIT = "https://github.com/vllm-project/vllm/blob/00bf0c8ffad9dfcfe10153622419faf406195636/vllm/__init__.py"
PEP420 = "https://peps.python.org/pep-0420/"


# Functions whose only way to fail is a version check: a traceback that ends (the paste cut off) inside one of them was
# raised by the check, whose exception line (the requirement and the installed version) the paste lost. By file and
# function: transformers' utils/versions.py (require_version raises ImportError "<req> is required for a normal
# functioning of this module, but found <pkg>==<ver>." or PackageNotFoundError "The '<req>' distribution was not found
# …"; require_version_core and _compare_versions under it), transformers' dependency_versions_check.py (its import-time
# require_version_core of python / tqdm / requests / filelock / numpy / tokenizers …), and LLaMA-Factory's extras/misc.py
# (check_dependencies runs check_version on each pinned dependency, which calls require_version).
VERSION_CHECKS = (
    ("transformers/utils/versions.py", frozenset(("require_version", "require_version_core", "_compare_versions")), VERSIONS),
    ("transformers/dependency_versions_check.py", frozenset(("<module>",)),
     "https://github.com/huggingface/transformers/blob/cfe00c58a8b2fe4432ead113a60414d19897b7e0/src/transformers/dependency_versions_check.py"),
    ("llamafactory/extras/misc.py", frozenset(("check_dependencies", "check_version")),
     "https://github.com/hiyouga/LLaMA-Factory/blob/00577a85775a2a78b14641ff8f68c58c6f46b027/src/llamafactory/extras/misc.py"),
)


def cut_in_version_check(link: Link) -> Finding | None:
    """A traceback cut off (no exception line) whose innermost frame is a version check: the check failed."""
    if link.kind != "cut" or link.message or not link.frames:
        return None
    frame = link.frames[-1]
    path = frame.path.replace("\\", "/")
    check = next((c for c in VERSION_CHECKS if path.endswith(c[0]) and frame.func in c[1]), None)
    if check is None:
        return None
    owner = check[0].split("/")[0]
    return Finding(
        f"A version check failed at import ({owner}'s {frame.func}); the paste ends before its message"[:160],
        f"The traceback ends inside {frame.func} ({frame}), a function that only checks installed package versions: "
        f"it raised because an installed dependency is outside the range {owner} requires (ImportError \"<requirement> is "
        "required for a normal functioning of this module, but found <package>==<version>\"), or is not installed at all. "
        "The exception line that names the package was not pasted.",
        ("Read the exception line under this traceback (or run the command again) for the requirement and the installed version, "
         "then install a release inside the range: python -m pip install '<requirement>' (pip check lists other conflicts)",
         f"Or install {owner}'s own pinned set again (pip install -e . in its checkout, or its requirements file) so every "
         "dependency is in range" + ("; LLaMA-Factory skips its optional checks with DISABLE_VERSION_CHECK=1, at your own risk"
                                     if owner == "llamafactory" else "")),
        evidence(link), (check[2],), key=f"version-check:{owner}:{frame.func}", kind="package-mismatch",
    )


# torch infers a custom op's schema from the Python annotations of the function a package registers (torch.library
# custom_op / infer_schema, which vLLM's direct_register_custom_op and its plugins call at import) and raises
# ValueError "infer_schema(func): Parameter <name> has unsupported type <annotation>. The valid types are: …" for an
# annotation its table lacks. torch releases whose table holds only typing.List / typing.Sequence / typing.Optional forms
# (torch/_library/infer_schema.py, derived_types) refuse the builtin generics (list[int], PEP 585) and "X | None" (PEP 604)
# that packages written for later torch releases use (later infer_schema.py adds GenericAlias(list, …) and
# collections.abc.Sequence forms to derived_seq_types): the package is newer than the installed torch.
INFER_SCHEMA = lazy(r"infer_schema\(func\): Parameter (\w+) has unsupported type ((?:list|dict|tuple)\[[\w.\[\]]*(?:, ?[\w.\[\]]+)*|[\w.\[\]]+ \| None)")
INFER_SCHEMA_SRC = "https://github.com/pytorch/pytorch/blob/06af808ba1e448dd16ec94e0275f16ed99c1e545/torch/_library/infer_schema.py"


def op_schema_annotation(link: Link, facts: Facts) -> Finding | None:
    """torch's schema inference refused a builtin-generic annotation: the registering package expects a newer torch."""
    m = INFER_SCHEMA.search(link.message)
    if m is None:
        return None
    param, annotation = m.group(1), m.group(2).rstrip(".")
    caller = next((f.package for f in reversed(link.frames) if f.package and f.package != "torch"), None) or \
        next((p for p in ("vllm_ascend", "vllm") if p in facts.versions), None)
    who = dist(caller) if caller else "the package registering the op (vLLM or its plugin, on Ascend)"
    versions = [f"{dist(p)} {facts.versions[p]}" for p in ("torch", "torch_npu", caller) if p and p in facts.versions]
    return Finding(
        f"torch's custom-op schema inference does not accept {annotation}: {who} expects a newer torch"[:160],
        f"{link.short_type}: infer_schema(func): Parameter {param} has unsupported type {annotation}. torch infers a custom op's "
        f"schema from the annotations of the function {who} registers; this torch release knows only the typing.List / "
        "typing.Optional spellings, not the builtin generics (list[int]) or 'X | None' that later torch releases accept, so "
        f"{who} was written for a newer torch than the one installed" + (f" (the log shows {', '.join(versions)})" if versions else "") + ".",
        (f"Install the torch (and torch_npu) release {who} is built for: its requirements pin it (vllm-ascend's versioning policy "
         "lists the torch / torch-npu of each release); pip show torch torch_npu",
         "Or install the release of the package that matches the installed torch"),
        evidence(link), (INFER_SCHEMA_SRC, MATRIX), key=f"infer-schema:{param}:{annotation}", kind="package-mismatch",
    )


def not_the_installed_package(link: Link) -> Finding | None:
    """A package without a name every release of it defines: a local folder or script of that name was imported instead."""
    msg = link.message
    path = ""
    if m := CANNOT_IMPORT.search(msg):
        name, module, path = m.group(1), m.group(2) or "", m.group(3) or ""
        if not module:
            return None
    elif m := NO_ATTR.search(msg):
        module, name = m.group(1), m.group(2)
    else:
        return None
    top = module.split(".")[0]
    if module != top or top not in NEVER_NAMESPACE:
        return None
    namespace = path == "unknown location"
    if not namespace and name != "__version__" and name not in ALWAYS_DEFINED.get(top, ()):
        return None
    if path and not namespace and INSTALLED.search(path):
        return None  # the installed package's own __init__.py without it: a broken or foreign install, not shadowing
    where = ("a folder of that name without __init__.py, imported as an empty namespace package (\"unknown location\")" if namespace
             else f"{path}" if path else "a folder or script of that name found first on sys.path")
    return Finding(
        f"A local {top} folder or script shadows the installed {dist(top)} (its {name} is missing)"[:160],
        f"{link.short_type}: {msg[:200]}. Every release of {dist(top)} defines {name} at its top level"
        + (" (and a from-import of the installed package names its file)" if namespace else "")
        + f", so the module Python imported as {top} is not the installed package: it took {where}: a source checkout "
        "in the working directory (vllm serve run from the folder holding the vllm clone), a PYTHONPATH entry, a user's "
        f"script named {top}.py, or a leftover folder after a broken install.",
        (f"Run from another directory (cd ~) and take source checkouts off PYTHONPATH; rename a script or folder named {top} "
         "(and delete its __pycache__)",
         f"Check what is imported: python -c \"import {top}; print({top}.__file__, {top}.__path__)\" must point into site-packages"),
        evidence(link), (VLLM_INIT, PEP420, CEVAL), key=f"shadow:{top}", kind="local-dir-shadows-package",
    )


def missing_operator(link: Link, facts: Facts) -> Finding | None:
    """torch's dispatcher found no operator a package's compiled library should have registered."""
    m = NO_SUCH_OP.search(link.message)
    if m is None:
        return None
    namespace, op = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    owner = OP_NAMESPACE_OWNERS.get(namespace) or OP_OWNERS.get(namespace)
    if not owner:
        return None
    versions = [f"{dist(p)} {facts.versions[p]}" for p in ("torch", owner) if p in facts.versions]
    return Finding(
        f"{dist(owner)}'s compiled operators are not registered ({namespace}::{op}): {dist(owner)} and torch do not match",
        f"{link.short_type}: {m.group(0)}. torch knows no operator {namespace}::{op}: the compiled library of {dist(owner)} "
        f"that defines it was not loaded, because that {dist(owner)} build is for another torch release (or another "
        "device build: a CUDA or CPU wheel of one and not the other)"
        + (f"; the log shows {', '.join(versions)}" if versions else "") + ".",
        (f"Install the {dist(owner)} release built for the installed torch (torchvision 0.16 with torch 2.1, 0.19 with 2.4, 0.20 "
         "with 2.5, 0.21 with 2.6, …), from the same index as torch: pip install torch==<ver> torchvision==<pair> --index-url <same index>",
         f"Check the pair: python -c \"import torch, {owner}; print(torch.__version__, {owner}.__version__)\" (on Ascend keep torch_npu at torch's version too)"),
        evidence(link), (DISPATCH,), key=f"op-missing:{namespace}", kind="package-mismatch",
    )


# transformers looks a checkpoint's model_type up in CONFIG_MAPPING (_LazyConfigMapping.__getitem__ raises KeyError(key)
# for a type it does not define); releases before ~4.40 let that KeyError out of AutoConfig.from_pretrained ("KeyError:
# 'qwen2'" under 4.32, 'mistral' before 4.34), later ones wrap it in the ValueError "… has model type `x` but Transformers
# does not recognize this architecture" (ARL-E144), which a cut paste may not reach.
AUTO_CONFIG = lazy(r"transformers[/\\]models[/\\]auto[/\\]configuration_auto\.py$")
CONFIG_LOOKUP = lazy(r"\bCONFIG_MAPPING\[")
KEYERROR_NAME = lazy(r"^'([\w.\-]+)'$")
# A paste cut above transformers' own frames ends at the caller's line "processor = AutoProcessor.from_pretrained(":
# a KeyError there whose key has a model_type's shape (lower case, with a digit or an underscore: 'qwen3_next',
# 'gemma3n', 'qwen2_5_vl') is the same registry lookup.
AUTO_LOAD = lazy(r"\bAuto(?:Config|Processor|Tokenizer|ImageProcessor|FeatureExtractor|Model\w*)\.from_pretrained\(")
MODEL_TYPE_WORD = lazy(r"^(?=[a-z]{2})(?=[a-z]*[\d_])[a-z\d]+(?:_[a-z\d]+)*$")
# Field names a config or a batch is read by, which take the same shape as a model_type.
FIELD_WORD = lazy(r"(?:^|_)(?:type|ids?|proj|mask|weight|bias|config|name|path|size|dim|len|key|token|tokens|scaling|head|embed|embeds|norm|layer|layers)(?:_|$)")
AUTO_CONFIG_SRC = "https://github.com/huggingface/transformers/blob/001002320fa01a489bb9b93976a7e4cd1a46291c/src/transformers/models/auto/configuration_auto.py"


def model_type_arrival(model_type: str) -> str | None:
    """The first transformers release read (api_history.json) that has the model family ``transformers.models.<model_type>``,
    where that is after the oldest release read; None for a key that is no model_type transformers defines, or one every
    release read has (then a bare KeyError of it says nothing about the release)."""
    from .emitted import transformers_model_types

    if model_type not in transformers_model_types()[0]:
        return None
    history = module_history("transformers", f"transformers.models.{model_type.replace('-', '_')}")
    return history.since if history is not None and history.direction == "too-old" else None


# AutoTokenizer.from_pretrained found tokenizer_config.json's tokenizer_class in no module it knows
# (models/auto/tokenization_auto.py, ValueError; ARL-E237 names both causes). A class some transformers release has at its
# top level is the installed release being older than the model; one no release has is the model's own code (E237's
# trust_remote_code reading).
TOKENIZER_CLASS = lazy(r"Tokenizer class (\w+) does not exist or is not currently imported")
TOKENIZER_AUTO_SRC = "https://github.com/huggingface/transformers/blob/v4.36.0/src/transformers/models/auto/tokenization_auto.py"
# The slow tokenizers transformers 4.x registers only with sentencepiece installed (TOKENIZER_MAPPING_NAMES entries
# "X if is_sentencepiece_available() else None" in models/auto/tokenization_auto.py at the tag above).
SENTENCEPIECE_SLOW = frozenset((
    "T5Tokenizer", "LlamaTokenizer", "CodeLlamaTokenizer", "GemmaTokenizer", "XLMRobertaTokenizer", "AlbertTokenizer",
    "CamembertTokenizer", "MBartTokenizer", "MBart50Tokenizer", "BarthezTokenizer", "PegasusTokenizer", "MarianTokenizer",
    "ReformerTokenizer", "XLNetTokenizer", "BigBirdTokenizer", "DebertaV2Tokenizer", "NllbTokenizer", "M2M100Tokenizer",
    "FNetTokenizer", "RemBertTokenizer", "PLBartTokenizer", "CpmTokenizer", "BertGenerationTokenizer", "GPTSw3Tokenizer",
    "LayoutXLMTokenizer", "XGLMTokenizer", "SpeechT5Tokenizer", "MLukeTokenizer", "BartphoTokenizer",
))
SENTENCEPIECE_GATE = "https://github.com/huggingface/transformers/pull/22232"


def tokenizer_class_too_new(link: Link, facts: Facts) -> Finding | None:
    """The checkpoint's tokenizer class is one a later transformers release added (api_history.json), not custom code."""
    if (m := TOKENIZER_CLASS.search(link.message)) is None:
        return None
    name = m.group(1)
    history = name_history("transformers", "transformers", name, facts.versions.get("transformers"))
    if (history is None or history.direction != "too-old") and name in SENTENCEPIECE_SLOW:
        # transformers 4.x lists these slow classes in TOKENIZER_MAPPING_NAMES only "if is_sentencepiece_available()"
        # (models/auto/tokenization_auto.py; a maintainer on the gating: transformers PR 22232), so without sentencepiece
        # the lookup finds no such class and raises the same words as for an unknown class.
        return Finding(
            f"sentencepiece is not installed: transformers leaves out {name} without it",
            f"{link.short_type}: Tokenizer class {name} does not exist or is not currently imported. {name} is a "
            "SentencePiece-based tokenizer transformers has shipped for many releases, but it registers the slow class only "
            "when the sentencepiece package is importable; the slow class was asked for (use_fast=False, or the model has "
            "no fast tokenizer.json and tokenizers could not convert it) and sentencepiece is missing from this environment.",
            ("Install it where the job runs (and in the Ray workers' environment): python -m pip install sentencepiece "
             "(protobuf too for some conversions), then restart the process",
             "Or load the fast tokenizer (use_fast=True, the default) when the checkpoint ships tokenizer.json"),
            evidence(link), (TOKENIZER_AUTO_SRC, SENTENCEPIECE_GATE), key=f"tokenizer-sentencepiece:{name}", kind="missing-dependency",
        )
    if history is None or history.direction != "too-old":
        return None  # in every release read, or in none (the model's own tokenizer code: trust_remote_code)
    since = f"transformers>={history.since}" if history.since else "transformers"
    return Finding(
        f"transformers is older than the model's tokenizer ({name} is in later releases)"[:160],
        f"{link.short_type}: Tokenizer class {name} does not exist or is not currently imported. The checkpoint's "
        f"tokenizer_config.json names {name}, a class transformers ships itself, and the installed transformers predates it. "
        f"{history.sentence}",
        (f"Upgrade transformers to a release that has {name}: python -m pip install -U '{since}', within what the trainer "
         "and vLLM / vllm-ascend pin (pip check)",
         "Check which transformers the job imports: python -c \"import transformers; print(transformers.__version__)\" "
         "(and the Ray workers' environment)"),
        evidence(link), (TOKENIZER_AUTO_SRC, history.source), key=f"tokenizer-class:{name}", kind="transformers-too-old",
    )


def unknown_model_type(link: Link, facts: Facts) -> Finding | None:
    """A KeyError out of transformers' config registry: the installed transformers does not define the checkpoint's model_type."""
    if link.short_type != "KeyError" or not (m := KEYERROR_NAME.match(link.message.strip())):
        return None
    inner = link.frames[-1] if link.frames else None
    model_type = m.group(1)
    arrived = None  # a paste of the error line alone: the key names the registry only if it is a model_type a later release added
    if not ((inner is not None and AUTO_CONFIG.search(inner.path.replace("\\", "/"))) or CONFIG_LOOKUP.search(link.source)
            or (AUTO_LOAD.search(link.source) and MODEL_TYPE_WORD.match(model_type) and not FIELD_WORD.search(model_type))):
        if link.frames or link.source or (arrived := model_type_arrival(model_type)) is None:
            return None
    from .emitted import custom_model_type

    if custom_model_type(model_type):
        return None  # no release defines it: a custom architecture (emitted.CustomModelType), not an old transformers
    have = facts.versions.get("transformers", "")
    shown = f" (the log shows transformers {have})" if have else ""
    if arrived is None:
        arrived = model_type_arrival(model_type)
    since = (f" transformers {arrived} is the first release read whose transformers.models has {model_type} (the newest "
             "release of each minor line read, from the PyPI wheels).") if arrived else ""
    return Finding(
        f"The installed transformers does not know the model_type '{model_type}' (transformers older than the checkpoint)"[:160],
        f"KeyError: '{model_type}'. transformers' AutoConfig looked the checkpoint's config.json model_type up in its registry "
        f"(CONFIG_MAPPING) and the installed transformers{shown} defines no '{model_type}': the release predates the model "
        f"family (each architecture's config class arrives in the release that supports it).{since} Newer releases word the same "
        "refusal as 'Transformers does not recognize this architecture'. A model_type of a custom architecture that no "
        "transformers release defines needs the model's own code (trust_remote_code with its auto_map) instead.",
        (f"Upgrade transformers to a release that supports '{model_type}' (the model card names the minimum), within what the "
         "trainer and vLLM / vllm-ascend pin: python -m pip install -U 'transformers>=<that release>' && pip check",
         "Check which transformers the job imports: python -c \"import transformers; print(transformers.__version__)\" "
         "(and the Ray workers' environment)"),
        evidence(link), (AUTO_CONFIG_SRC,), key=f"model-type:{model_type}", kind="transformers-too-old",
    )


def quant_param_missing(link: Link, facts: Facts, cls: str, attribute: str) -> Finding:
    """A vllm-ascend layer lacks a parameter only one quantization scheme creates: the code path reading it does not support
    the scheme (or the unquantized layer) the checkpoint gave this layer."""
    have = facts.versions.get("vllm_ascend", "")
    shown = f" (the log shows vllm-ascend {have})" if have else ""
    return Finding(
        f"vllm-ascend's {cls} has no quantization parameter {attribute}: the layer's quantization scheme is not the one this path supports"[:160],
        f"{link.short_type}: '{cls}' object has no attribute '{attribute}'. vllm-ascend creates {attribute} on a layer only "
        "when the layer is built by the quantization method that uses it (the msModelSlim W8A8 static method creates "
        "input_scale / input_offset, deq_scale, quant_bias, weight_scale / weight_offset, and derives aclnn_input_scale, "
        "aclnn_input_scale_reciprocal and aclnn_input_offset after loading). The code that read it met a layer the checkpoint "
        "quantized with another scheme (W8A8_DYNAMIC, W4A8, W4A4), or left unquantized (FLOAT in quant_model_description.json): "
        f"that code path (often an optional feature such as flashcomm's quantized communication, or a device-specific kernel) "
        f"does not support this scheme for this layer in the installed release{shown}. The versions of vllm and vllm-ascend "
        "need not be wrong.",
        ("Turn off the optional feature whose path reads it (the VLLM_ASCEND_ENABLE_* switch or additional_config option the "
         "frames name, e.g. flashcomm), or serve a checkpoint quantized with the scheme that feature supports (W8A8 static) "
         "or the bf16 model",
         "Check quant_model_description.json for the layer's scheme and the vllm-ascend quantization guide of your release for "
         "the schemes and features it supports together; a later vllm-ascend release may support the combination"),
        evidence(link), (ASCEND_W8A8,), key=f"quant-param:{cls}:{attribute}", kind="quant-method-unsupported-on-npu",
    )


# A decorator's wrapper that forwards its arguments unchanged: "return func(*args, **kwargs)" (pandas/util/_decorators.py
# deprecate_kwarg, doc and rewrite_axis_style_signature define "wrapper"; transformers' utils/deprecation.py
# deprecate_kwarg "wrapped_func"; read at the commits below).
PANDAS_DECORATORS = "https://github.com/pandas-dev/pandas/blob/b82aaffb32e4a06e74aa8c0c2b3f51b8a7c9e42e/pandas/util/_decorators.py"
TF_DEPRECATION = "https://github.com/huggingface/transformers/blob/4e7bd11fa959587a64a649050c30c999afae66c8/src/transformers/utils/deprecation.py"
FORWARD_LINE = lazy(r"^(?:return\s+)?[A-Za-z_]\w*\(\s*\*\w+\s*,\s*\*\*\w+\s*\)$")
WRAPPER_FUNCS = frozenset(("wrapper", "wrapped", "wrapped_func", "decorated", "_wrapper", "new_func"))


def forwarding_wrapper(link: Link) -> str | None:
    """The package of a decorator wrapper that raised a call's TypeError while forwarding its own arguments, where a
    package further out made the call (so the call crossed from that package into the wrapper's)."""
    inner = link.frames[-1] if link.frames else None
    if (inner is None or inner.func not in WRAPPER_FUNCS or not inner.package or not INSTALLED.search(inner.path)
            or not FORWARD_LINE.match(link.source.strip())):
        return None
    outer = outer_package(link, inner.package)
    return inner.package if outer and outer != inner.package else None


def callback_arguments(link: Link, name: str, what: str, facts: Facts) -> Finding | None:
    """An installed trainer calls a function the user passed in (a reward function, a callback) with its own arguments.

    CPython raises an argument-binding TypeError in the caller's frame, before the callee runs. When that frame is an
    installed package's and its source line calls the function through another name (``reward_func(prompts,
    completions)`` raising "format_reward_func() takes 1 positional argument but 2 were given"), the callee is a callable
    handed in from outside: written for another release's calling convention of the package that calls it.
    """
    inner = link.frames[-1] if link.frames else None
    if inner is None or not inner.package or not INSTALLED.search(inner.path) or not link.source:
        return None
    called = name.rsplit(".", 1)[-1]
    if called.startswith("__") or re.search(rf"\b{re.escape(called)}\s*\(", link.source):
        return None  # the package calls it by its own name: a direct call, not a callable handed in
    if not CALL.search(link.source):
        return None
    pkg = inner.package
    have = facts.versions.get(pkg, "")
    shown = f" (the log shows {dist(pkg)} {have})" if have else ""
    return Finding(
        f"{dist(pkg)} calls your {called}() with arguments it does not take: written for another {dist(pkg)} release's interface"[:160],
        f"{link.short_type}: {what}. {dist(pkg)}{shown} called {called}, a function handed to it from outside (a reward "
        f"function, callback or hook passed in by the training script), as '{link.source.strip()[:120]}', and the function's "
        f"signature does not accept those arguments. The calling convention changes between {dist(pkg)} releases (positional "
        "arguments become keyword arguments, new ones are added), so the function was written for another release than "
        "the installed one, or for another trainer.",
        (f"Make {called} take what this {dist(pkg)} passes (see the call in {inner.path.rsplit('/', 1)[-1]}: accept **kwargs "
         "and the named arguments it gives), or install the release the script was written for (its requirements pin)",
         f"Check the installed release: pip show {dist(pkg)}; compare with the version the example or recipe names"),
        evidence(link), (CPYTHON_ARGS,), key=f"callback:{pkg}:{called}", kind="package-mismatch",
    )


# An error listed under another one's message, as a bullet or an ExceptionGroup's bar: "- ImportError: <msg>", "| OSError: <msg>".
LISTED_ERROR = lazy(r"^\s*[-*|]\s+((?:ImportError|ModuleNotFoundError|OSError|AttributeError)): (.+)$")
LISTING_TYPES = frozenset(("ImportError", "ModuleNotFoundError", "RuntimeError", "OSError", "Exception", "ExceptionGroup", "BaseExceptionGroup"))


# Python's Enum up to 3.11 looks a member up in EnumMeta.__getattr__ and raises AttributeError(name) for one it does not
# have (Lib/enum.py: "raise AttributeError(name) from None"), so the message is the bare member name
# ("AttributeError: WAITING_FOR_FSM"); 3.12 words it as any class attribute. Code naming a member the installed
# release's enum lacks was written for another release: a member renamed or removed (vllm-ascend still naming vLLM's
# RequestStatus.WAITING_FOR_FSM after vLLM renamed it, vllm-ascend PR 8355) or added later (k34pkg).
ENUM_MEMBER = lazy(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$|^[A-Z]{3,}[0-9]*$")
ENUM_FILE = lazy(r"[/\\]enum\.py$")
ENUM_READ = lazy(r"\b([A-Z]\w*)\.([A-Z][A-Z0-9_]*)\b")
CPY_ENUM = "https://github.com/python/cpython/blob/v3.11.0/Lib/enum.py"


def enum_member_missing(link: Link, facts: Facts) -> Finding | None:
    """A bare member name as an AttributeError: an Enum (Python <= 3.11) lacks the member the code names."""
    name = link.message.strip()
    if link.short_type != "AttributeError" or not ENUM_MEMBER.match(name):
        return None
    if link.frames and not ENUM_FILE.search(link.frames[-1].path):
        return None  # raised elsewhere: a class's own __getattr__ (not Enum's lookup)
    readers = [f for f in link.frames if not ENUM_FILE.search(f.path)]
    caller = readers[-1].package if readers else None
    read = next((m for m in ENUM_READ.finditer(link.source) if m.group(2) == name), None)
    enum = read.group(1) if read else ""
    owner = class_owners().get(enum, "") if enum else ""
    named = f"{enum}.{name}" if enum else name
    who = dist(caller) if caller else "the calling code"
    return Finding(
        f"{who} names {named}, a member the installed release's enum does not define"[:160],
        f"AttributeError: {name}. Python's Enum (3.11 and earlier) raises the bare member name when asked for a member it "
        f"does not have: {who} refers to {named}, which the installed {dist(owner) if owner else 'package that defines the enum'} "
        "does not define. The member was renamed or removed in that release (or added in a later one): the caller and "
        "the package were written for different releases.",
        (f"Install the release pair that goes together: {who}'s requirements name the release of "
         f"{dist(owner) if owner else 'the package that owns the enum'} it was written for (pip show both)",
         "Find the enum and list its members to see the new name: python -c \"import <module>; print(list(<Enum>.__members__))\""),
        evidence(link), (CPY_ENUM,), key=f"enum:{named}", kind="package-mismatch",
    )


# vLLM installed for Ascend is built without its CUDA extension (VLLM_TARGET_DEVICE=empty, vllm-ascend's installation guide),
# so on an NPU run torch.ops._C holds only what vllm-ascend registered there itself (csrc/torch_binding.cpp,
# TORCH_LIBRARY_EXPAND(_C, ops) before its ops moved to _C_ascend): these names, every ops.def in csrc/ of the v0.7.x to
# v0.2x tags and main (read 2026-12-05). Any other torch.ops._C op called there is one of vLLM's CUDA kernels: vLLM took
# its CUDA branch on the NPU (NPU tensors report is_cuda=True: vllm-ascend's patch_logits.py), not a build mismatch.
VLLM_ASCEND_C_OPS = frozenset((
    "advance_step_flashattn_ascendc", "batch_matmul_transpose", "bgmv_expand", "bgmv_shrink", "causal_conv1d_fn",
    "chunk_fwd_o", "chunk_gated_delta_rule_fwd_h", "combine_prefill", "compressor", "compressor_metadata",
    "compressor_metadata_out", "device_print", "device_print_tensor", "dispatch_ffn_combine",
    "dispatch_gmm_combine_decode", "dispatch_prefill", "get_dispatch_layout", "get_masked_input_and_mask",
    "get_npu_storage_shape", "grouped_matmul_swiglu_quant", "grouped_matmul_swiglu_quant_v2",
    "grouped_matmul_swiglu_quant_weight_nz", "grouped_matmul_swiglu_quant_weight_nz_tensor_list",
    "indexer_compress_epilog", "indexer_compress_epilog_v2", "inplace_partial_rotary_mul", "kv_compress_epilog",
    "matmul_allreduce_add_rmsnorm", "mla_preprocess", "moe_gating_top_k", "moe_gating_top_k_hash",
    "moe_grouped_matmul", "npu_add_rms_norm_bias", "npu_apply_top_k_top_p", "npu_causal_conv1d_310",
    "npu_causal_conv1d_custom", "npu_copy_and_expand_eagle_inputs", "npu_dequant_swiglu_quant",
    "npu_fused_gdn_gating", "npu_gemma_rms_norm", "npu_hamming_dist_top_k", "npu_hc_post", "npu_hc_pre",
    "npu_hc_pre_inv_rms", "npu_hc_pre_sinkhorn", "npu_hc_pre_v2", "npu_k2q_csr",
    "npu_kv_quant_sparse_attn_sharedkv", "npu_kv_quant_sparse_attn_sharedkv_metadata",
    "npu_kv_quant_sparse_flash_attention", "npu_lightning_indexer", "npu_lightning_indexer_custom",
    "npu_lightning_indexer_quant", "npu_load_index_kv_cache", "npu_moe_init_routing_custom",
    "npu_ngram_spec_decode", "npu_quant_lightning_indexer", "npu_quant_lightning_indexer_metadata",
    "npu_recurrent_gated_delta_rule", "npu_recurrent_gated_delta_rule_310", "npu_reshape_and_cache_bnsd",
    "npu_rms_norm_dynamic_quant", "npu_scatter_nd_update_v2", "npu_sign_bits_pack", "npu_sparse_attention_score",
    "npu_sparse_attention_score_prefill", "npu_sparse_attn_sharedkv", "npu_sparse_attn_sharedkv_metadata",
    "npu_sparse_flash_attention", "npu_sparse_flash_attention_custom", "npu_swiglu_group_quant",
    "npu_vllm_quant_lightning_indexer", "npu_vllm_quant_lightning_indexer_metadata", "rotary_embedding",
    "sgmv_expand", "sgmv_shrink", "store_kv_block", "store_kv_block_metadata", "store_kv_block_pre", "swap_blocks",
    "swap_blocks_batch", "transpose_kv_cache_by_block", "weak_ref_tensor",
))
VLLM_ASCEND_INSTALL = "https://github.com/vllm-project/vllm-ascend/blob/v0.10.1rc1/docs/source/installation.md"
VLLM_ASCEND_PATCH_LOGITS = "https://github.com/vllm-project/vllm-ascend/blob/v0.10.1rc1/vllm_ascend/patch/worker/patch_common/patch_logits.py"
VLLM_ASCEND_BINDING = "https://github.com/vllm-project/vllm-ascend/blob/v0.10.1rc1/csrc/torch_binding.cpp"


def vllm_cuda_op_on_npu(link: Link, op: str) -> Finding:
    """torch.ops._C.<op> missing on an NPU run where <op> is none of vllm-ascend's: vLLM called its CUDA kernel."""
    return Finding(
        f"vLLM called its CUDA kernel {op} on the NPU (torch.ops._C has no {op})",
        (f"{link.short_type}: torch.ops._C has no {op}. On Ascend, vLLM is installed without its CUDA extension "
         "(VLLM_TARGET_DEVICE=empty) and vllm-ascend registers its own kernels instead; "
         f"{op} is none of vllm-ascend's, so the code took vLLM's CUDA-only path on the NPU: a platform check that let the NPU "
         "through (NPU tensors report is_cuda=True), or a vLLM feature / model path vllm-ascend has not replaced for this "
         "vLLM release."),
        ("Use the vllm-ascend release made for this vLLM release (it patches vLLM's CUDA-only calls); upgrade vllm-ascend "
         "if a newer one patches this op's caller",
         "Otherwise turn off the feature that reaches the op (the sampling parameter, quantization method or model option "
         "on the call path in the traceback), or patch that call to vLLM's PyTorch fallback"),
        evidence(link), (VLLM_ASCEND_INSTALL, VLLM_ASCEND_PATCH_LOGITS, VLLM_ASCEND_BINDING), key=f"cuda-op:{op}",
        kind="cuda-call-on-npu",
    )


# pip's (and uv's) isolated build: a PEP 517 build runs in a fresh environment that holds only the build-system.requires
# of the package being built (pip: /tmp/pip-build-env-XXXX/overlay, its hooks in pyproject_hooks/_in_process.py or
# pep517/in_process; uv: <cache>/builds-v0/.tmpXXXX), so a setup.py that imports the environment's torch / torch_npu /
# numpy to configure its extension finds none there, however installed they are (pip's build isolation docs).
BUILD_ENV = lazy(r"[/\\]pip-build-env-\w+[/\\]|[/\\]builds-v\d+[/\\]\.tmp\w+[/\\]|[/\\]_?in_process[/\\]_in_process\.py$|[/\\]pep517[/\\]_?in_process\.py$")
BUILD_TIME_IMPORTS = frozenset(("torch", "torch_npu", "numpy", "tensorflow", "jax", "paddle", "mindspore", "triton"))
BUILD_ISOLATION_DOC = "https://pip.pypa.io/en/stable/reference/build-system/pyproject-toml/#build-isolation"


def build_isolation_hides(link: Link, module: str) -> Finding | None:
    """A package's build script imported the environment's framework inside pip's isolated build environment."""
    top = module.split(".")[0]
    if top not in BUILD_TIME_IMPORTS or not any(BUILD_ENV.search(f.path) for f in link.frames):
        return None
    name = dist(top)
    return Finding(
        f"pip's isolated build environment has no {name}: the package's build script imports it (build with --no-build-isolation)",
        f"{link.short_type}: No module named '{module}', raised while pip (or uv) was preparing a source build: the "
        f"build runs in an isolated environment that holds only the package's declared build requirements, not the "
        f"{name} installed in this environment, and the package's setup.py imports {name} to configure its extension "
        "(flash-attn, apex, DeepSpeed ops, vllm / vllm-ascend and other torch extensions do).",
        (f"Install {name} (and the package's other build requirements: setuptools, wheel, ninja, packaging) into the "
         f"environment first, then build against it: pip install --no-build-isolation <package> (uv: uv pip install "
         "--no-build-isolation, or [tool.uv] no-build-isolation-package)",
         "Or install a prebuilt wheel of the package for your torch / Python instead of building it"),
        evidence(link), (BUILD_ISOLATION_DOC,), key=f"build-isolation:{top}", kind="missing-dependency",
    )


class PackageMismatch(Analyzer):
    id = "DRV-package"
    title = "Package versions that do not fit together"
    family = "compat"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind in ("cann", "process", "hydra"):
            return None
        if link.detail and link.short_type in LISTING_TYPES:
            # A loader that tried several ways and lists each attempt's error under its own ("Error details from previous
            # import attempts:\n- ImportError: …so: undefined symbol …", an ExceptionGroup's "| ImportError: …"): the
            # first listed error this analyzer reads is the cause (the outer message joins them all, the later attempts'
            # fallbacks too: "No module named 'common_ops'").
            for line in link.detail:
                m = LISTED_ERROR.match(line)
                if m and m.group(2) != link.message:
                    inner = dataclasses.replace(link, type=m.group(1), message=m.group(2)[:300])
                    if (found := self._analyze(inner, chain, facts)) is not None:
                        return found
        if link.message.rstrip().endswith(":") and link.detail:
            # A message that goes on over the next lines (Paddle's custom-device loader: "Fail to open library: <so>\n
            # with error: <dlerror()>", dlerror's "<lib>: undefined symbol: <sym>" wrapped onto lines of its own): the
            # continued line that names a missing symbol is the message's substance.
            line = next((d for d in link.detail if UNDEFINED.search(d) or BARE_SYMBOL.search(d)), None)
            if line is not None:
                inner = dataclasses.replace(link, message=f"{link.message.rstrip()} {line.strip()}"[:300])
                if (found := self._analyze(inner, chain, facts)) is not None:
                    return found
        return self._analyze(link, chain, facts)

    def _analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        msg = link.message
        if (found := stdlib_removed(link, facts) or stdlib_added(link, facts) or numpy_removed(link, facts) or required_version(link, facts) or optional_dependency_missing(link) or abstract_not_implemented(link, facts) or cut_in_version_check(link) or op_schema_annotation(link, facts) or missing_operator(link, facts) or shadowed_by_local_file(link)
                or not_the_installed_package(link)
                or unknown_model_type(link, facts) or tokenizer_class_too_new(link, facts) or enum_member_missing(link, facts)) is not None:
            return found
        wrapped = False  # the call's TypeError was raised in a decorator's forwarding wrapper (forwarding_wrapper)
        caller = link.raiser
        what, owner = "", ""
        if m := CANNOT_IMPORT.search(msg):
            module = m.group(2) or ""
            owner = module.split(".")[0] or owner_of_name(m.group(1))
            if not owner and not m.group(3) and (held := top_level_owner(m.group(1))) is not None:
                module, owner = held[1], held[1].split(".")[0]  # quoted without "from 'M'": the one package that had the name
            if m.group(3) and (pkg := package_of(m.group(3))):
                owner = pkg
            if not owner:
                return None  # neither the module nor the name says whose it is
            what = f"{module or dist(owner)} has no {m.group(1)}"
        elif m := NO_MODULE.search(msg):
            module = m.group(1)
            owner = module.split(".")[0]
            what = f"no module {module}" if "." in module else f"{module} is not installed"
            shadow = next((f for f in link.frames if f.package == owner and not re.search(r"[/\\](?:site|dist)-packages[/\\]", f.path)), None)
            if EXTENSION.search(module) and shadow is not None:
                folder = shadow.path.split(f"/{owner}/")[0] or "."
                return Finding(
                    f"{owner} imported from a source folder, not the installed package",
                    f"{link.short_type}: No module named '{module}'. Python imported {owner} from {folder}/{owner} (a source or "
                    f"build checkout on sys.path, e.g. the current directory), which has no compiled {module.rsplit('.', 1)[-1]}; "
                    "the installed wheel with it is shadowed.",
                    (f"Run from another directory (not {folder}), or take {folder} off PYTHONPATH",
                     f"If you meant to use the checkout, build it in place: cd {folder} && pip install -e ."),
                    evidence(link), (TORCH_NPU,), key=f"shadow:{owner}", kind="local-dir-shadows-package",
                )
            if owner == "ray" and "." in module and connects_to_cluster(link):
                return Finding(
                    f"Ray client and cluster run different Ray releases (no module {module})"[:160],
                    f"{link.short_type}: No module named '{module}'. The failure came while this process attached to a "
                    f"running Ray cluster (ray.init with an address, ray:// or Ray Client): the objects and functions one "
                    f"side pickles name Ray modules of its own release, and the other side's Ray has no {module}, so the "
                    "driver's Ray and the cluster's Ray are different releases (Ray requires the same Ray, and the same "
                    "Python minor version, on the client and the cluster).",
                    ("Compare the versions: python -c 'import ray; print(ray.__version__)' on this machine and on the head "
                     "node (or the cluster image's tag)",
                     "Install the cluster's Ray release here (pip install 'ray[default]==<cluster version>'), or upgrade the "
                     "cluster to the client's"),
                    evidence(link), (RAY_CLIENT_DOC,), key=f"ray-versions:{module}", kind="ray-version-mismatch",
                )
            if (megatron := megatron_lm_source_missing(link, module, caller)) is not None:
                return megatron
            if (removed := next((REMOVED_MODULES[k] for k in (module, ".".join(module.split(".")[:2]), module.split(".")[0])
                                 if k in REMOVED_MODULES), None)) is not None:
                return removed_module(link, module, removed, caller)
            separate = next((SEPARATE[k] for k in SEPARATE if module == k or module.startswith(k + ".")), None)
            if "." not in module or separate:  # a top-level module: not installed, whoever imports it
                name = separate or dist(module)
                if (worker := ray_worker_interpreter(link, module, name)) is not None:
                    return worker
                if unpickled_by_ray(link):
                    return ray_unpickle_import(link, module, name)
                if (isolated := build_isolation_hides(link, module)) is not None:
                    return isolated
                return Finding(
                    f"Python module not installed: {module}",
                    f"{link.short_type}: No module named '{module}'. The interpreter that ran this does not have {name} installed"
                    + (f" (imported from {caller})." if caller else "."),
                    (f"Install it into the training environment: python -m pip install {name} (matching versions: ascendrl check)",
                     "Make sure the interpreter that runs the job (and Ray's workers) is the one you installed into: which python; ray's runtime_env"),
                    evidence(link), (MATRIX,), key=f"missing:{module}", kind="missing-dependency",
                )
        elif m := NO_OP.search(msg):
            owner = OP_OWNERS.get(m.group(1), "")
            if not owner:
                return None
            # On an NPU host vLLM's CUDA extension vllm._C is never built (ARL-E203: its import warning is harmless there), so its
            # absence explains nothing; vllm-ascend's own library (vllm_ascend_C) still does, and an op neither registers is
            # vLLM's CUDA kernel reached on the NPU (below).
            lib = next((u for u in facts.unloaded if owner in u and not (facts.npu and u == "vllm._C")), None)
            if lib is not None and (old := LOADER_VERSION.search(lib)):
                need, so = old.group(1), lib.split(" (")[0]
                glibc = need.startswith("GLIBC_")
                stem = so.split(".")[0]  # the extension's module (vllm_ascend_C), whose package the op namespace may not name
                package = dist(stem[:-2]) if stem.endswith("_C") else dist(owner)
                return Finding(
                    f"{stem} (compiled ops) needs a newer {'glibc' if glibc else 'libstdc++'} than the one loaded ({need})",
                    f"{link.short_type}: torch.ops.{m.group(1)} has no {m.group(2)}. Earlier the log says {so} could "
                    f"not be loaded: it was built against {need}, which the {'host glibc' if glibc else 'libstdc++ the loader found first'} "
                    "does not provide, so none of its custom ops were registered.",
                    (("Run in an environment with a newer glibc: the project's container image (quay.io/ascend/vllm-ascend, "
                      "verl's Ascend image) or a newer base OS; ldd --version shows the host's" if glibc else
                      "Put a newer libstdc++ first: the conda env's (export LD_LIBRARY_PATH=$CONDA_PREFIX/lib:$LD_LIBRARY_PATH) "
                      "or conda install -c conda-forge libstdcxx-ng; strings $(g++ -print-file-name=libstdc++.so.6) | grep GLIBCXX lists what it has"),
                     f"Or build {package} from source on this host, so it links against the libraries found here"),
                    evidence(link), (LOADER_SRC, INSTALL), key=f"ops-loader:{owner}:{need}",
                    kind="glibc-too-old" if glibc else "libstdcxx-too-old",
                    notes=(f"{self.id}: {lib} was not loaded earlier in the log",),
                )
            if lib is not None:
                return Finding(
                    f"{dist(owner)}'s compiled ops were never loaded ({lib})",
                    f"{link.short_type}: torch.ops.{m.group(1)} has no {m.group(2)}. Earlier the log says {lib} could not be "
                    f"loaded, so none of {dist(owner)}'s custom ops were registered: the package was installed without building "
                    "its kernels (an editable or source install that skipped the compile step, a build that failed) or "
                    + ("Python imported the source checkout instead of the installed package (a run from inside vLLM's source folder)."
                       if owner == "vllm" else "the library cannot find its CANN dependencies."),
                    ((f"Reinstall {dist(owner)} as its installation guide says (the released wheel, or a source build that compiles "
                      "its extension, after removing the stale build/ folder), and run from outside its source folder"
                      if owner == "vllm" else
                      f"Reinstall {dist(owner)} as its installation guide says (the released wheel or image, or a source build with "
                      "the CANN toolkit sourced so the custom ops compile), and check the .so exists in the installed package"),
                     f"If the .so exists, load it by hand to see what it lacks: python -c \"import {lib if '.so' not in lib else f'{owner}.{owner}_C'}\" (and ldd on it)"),
                    evidence(link), (INSTALL,), key=f"ops-unloaded:{owner}", kind=f"{dist(owner)}-kernels-not-built",
                    notes=(f"{self.id}: {lib} was not loaded earlier in the log",),
                )
            if m.group(1) == "_C" and facts.npu and m.group(2) not in VLLM_ASCEND_C_OPS:
                return vllm_cuda_op_on_npu(link, m.group(2))
            caller = caller if caller and caller != owner else f"{owner} (Python sources)"
            what = f"torch.ops.{m.group(1)} has no {m.group(2)}: the compiled {dist(owner)} ops are from another build"
        elif m := NO_OBJ_ATTR.search(msg):
            if QUANT_PARAM.match(m.group(2)) and QUANT_LAYER.search(m.group(1)):
                return quant_param_missing(link, facts, m.group(1), m.group(2))
            owner = owner_of_name(m.group(1))
            caller = caller if caller and caller != owner else "vllm"
            what = f"{m.group(1)} has no attribute {m.group(2)}"
        elif (m := OBJ_ATTR.search(msg)) and (dropped := config_attribute_dropped_in_5(link, facts, m.group(1), m.group(2))):
            return dropped
        elif (m := OBJ_ATTR.search(msg)) and not class_owners().get(m.group(1)) and transformers_family_class(m.group(1)):
            return transformers_class_attribute(link, facts, m.group(1), m.group(2))
        elif (m := OBJ_ATTR.search(msg)) and trainer_attribute(m.group(1), m.group(2), facts) is not None:
            # the subclass (TRL's, the application's) reads state transformers' Trainer sets only in some releases
            owner = "transformers"
            caller = class_owners().get(m.group(1)) or (caller if caller not in (None, "transformers") else "your code")
            what = f"{m.group(1)} has no attribute {m.group(2)}"
        elif (m := OBJ_ATTR.search(msg)) and (owner := class_owners().get(m.group(1), "")):
            if caller == owner:
                return None  # the class's own package reads an attribute it lacks: a bug there, not a pair
            what = f"{m.group(1)} has no attribute {m.group(2)}"
        elif m := NO_ATTR.search(msg):
            owner = m.group(1).split(".")[0]
            what = f"{m.group(1)} has no attribute {m.group(2)}"
            if caller == owner and any(f.func == "__getattr__" and f.package == owner for f in link.frames):
                # The module's own __getattr__ (PEP 562: lazy exports, deprecation shims) raised it on behalf of the code
                # that asked: the caller is the first frame outside the module's package (None: the user's own code).
                outside = next((f for f in reversed(link.frames) if f.package != owner), None)
                caller = outside.package if outside is not None else None
        elif m := UNDEFINED.search(msg):
            lib = m.group(1).rsplit('/', 1)[-1]
            # without its site-packages path, an extension module's own name says whose it is (flash_attn_2_cuda)
            caller = package_of(m.group(1)) or (lib.split(".")[0] if PY_EXTENSION.search(m.group(1)) else None) or caller
            if m.group(2):
                owner = owner_of_symbol(m.group(2))
                what = f"{lib} needs symbol {m.group(2)[:60]}"
                if owner == "nccl":
                    return _nccl_older(link, lib, m.group(2))
                if not owner and (own := _extension_own_function(m.group(2))):
                    return _unbuilt_own_function(link, lib, own, m.group(2))
                if owner and owner == package_of(m.group(1)):
                    return _own_libraries_mixed(link, owner, lib, m.group(2))
            elif PY_EXTENSION.search(m.group(1)):
                owner = "torch"  # the symbol was not pasted: a Python C++ extension's missing symbols are, most often, torch's
                what = f"{lib} has an undefined symbol (the symbol was not pasted; most often one of torch's)"
            else:
                return None
        elif m := BARE_SYMBOL.search(msg):
            caller = caller or "a compiled extension"
            owner = owner_of_symbol(m.group(1))
            what = f"needs symbol {m.group(1)[:60]}"
        elif m := BACKEND_OP.search(msg):
            backend, op = m.groups()
            owner = "torch_npu" if backend == "hccl" else "torch"  # torch_npu implements the HCCL backend
            caller = next((f.package for f in reversed(link.frames) if f.package and f.package not in ("torch", "torch_npu")), None)
            return Finding(
                f"The {backend} backend of this {dist(owner)} does not implement {op}",
                f"{link.short_type}: {m.group(0)}. The caller ({caller or 'the training framework'}) uses the collective {op}, which the "
                f"{backend} process group of the installed {dist(owner)} does not provide: the caller was written for another "
                f"(usually newer) {dist(owner)} release" + (f" (the log shows {dist(owner)} {facts.versions[owner]})" if owner in facts.versions else "") + ".",
                (f"Upgrade {dist(owner)} to the release the caller supports (or pin the caller to one that supports your {dist(owner)}): "
                 "check both against their compatibility tables",
                 f"If the caller can be told to avoid {op} (an option for the older collective), use it until the pair matches"),
                evidence(link), (C10D, TORCH_NPU), key=f"c10d:{backend}:{op}", kind="package-mismatch",
            )
        elif (m := (kw := UNEXPECTED_KW.search(msg)) or CALL_ARGS.search(msg)):
            what = f"{m.group(1)}() does not take {m.group(2)}=" if kw else f"{m.group(1)}() {m.group(2)}"
            owner = owner_of_name(m.group(1).split(".")[0]) if "." in m.group(1) else ""
            if not owner and "." not in m.group(1) and caller in KNOWN_MODULES:
                # a module-level function class_owners.yaml names (vLLM's init_app_state), called from a known framework's
                # frame: an application's own function of the same name is called from the application's code
                owner = class_owners().get(m.group(1), "")
            if not owner and link.source:  # the call as printed above the error: "uvicorn.Config(app, …)", "EngineArgs("
                owner = owner_in_call(link.source, m.group(1))
            if not owner and kw and m.group(1).endswith(".__init__"):
                # a class name several packages define (Trainer), told apart by the keyword whose history one records
                owner = class_param_owner(m.group(1)[: -len(".__init__")], m.group(2))
            if not owner and kw and "." not in m.group(1):
                # a trainer method by its bare name (GRPOTrainer.get_off_policy_mask) whose keyword one release renamed
                owner = method_owner(m.group(1), m.group(2))
            if not owner and (inner := forwarding_wrapper(link)) is not None:
                wrapped = True
                # A decorator's wrapper passing on what it was given ("return func(*args, **kwargs)", pandas'
                # deprecate_kwarg, transformers' deprecate_kwarg): the package of the wrapper defines the decorated
                # function, and the arguments were chosen further out; CPython raises in the wrapper's frame.
                owner, caller = inner, outer_package(link, inner)
            elif not owner and (found := callback_arguments(link, m.group(1), what, facts)) is not None:
                return found
            if owner:
                # A TypeError on a call is raised in the caller's frame; when that frame is the callee's own package
                # (LLM(**kwargs) passing them on to EngineArgs), the arguments came from the package further out.
                caller = outer_package(link, owner) if caller in (None, owner) else caller
            elif kw:
                owner = next((f.package for f in reversed(link.frames[:-1]) if f.package and f.package != caller), None) or ""
                if not caller or not owner or caller == owner:
                    return None
            else:
                return None
        elif link.short_type in ("AttributeError", "TypeError") and (
                PLUGIN_LOADER.search(link.source) or any(f.func in PLUGIN_LOADERS for f in link.frames)):
            plugin = next((f.package for f in reversed(link.frames) if f.package and f.package != "vllm"), None)
            return Finding(
                f"A vLLM plugin's registration does not fit this vLLM ({link.short_type} while vLLM ran its general plugins)"[:160],
                f"{link.short_type}: {msg[:160].rstrip('.?!')}. vLLM raised it while calling the register functions of the installed plugins "
                f"(load_general_plugins runs each one without catching), so {dist(plugin) if plugin else 'a plugin (vllm-ascend on Ascend)'} "
                "was written for another vLLM release than the one installed"
                + (f" (the log shows vllm {facts.versions['vllm']})" if "vllm" in facts.versions else "")
                + ", or a setting tells it to take another release's code path (a VLLM_VERSION override).",
                ("Install the vLLM release your vllm-ascend (or other plugin) release is built for (vllm-ascend's versioning policy; "
                 "pip show vllm vllm-ascend), and unset a VLLM_VERSION override that names another release",
                 "To find the plugin: python -c \"from importlib.metadata import entry_points; print(entry_points(group='vllm.general_plugins'))\"; "
                 "VLLM_PLUGINS=<names> loads only those"),
                evidence(link), (PLUGINS, MATRIX), key=f"plugin:{msg[:80]}", kind="package-mismatch",
            )
        else:
            return None
        if not owner or owner == caller:
            caller = caller or "your code"
            if owner == caller:
                return None
        caller = caller or "your code"
        if not owner:
            # An undefined symbol no name-based rule assigns to a package: say so instead of naming an empty package.
            return Finding(
                f"{caller}'s compiled library does not fit what it links ({what})"[:160],
                f"{link.short_type}: {what}. No library loaded with it defines that symbol: {caller} was built against "
                "another release of one of its dependencies (a framework, a plugin SDK, CANN), or its own build left the "
                "symbol's code out (a partial or failed source build).",
                (f"Reinstall {caller} as the release built for the installed framework and CANN (pip show it and its framework), "
                 "or rebuild it from a clean tree with its documented build options",
                 "See which library should define it: c++filt the symbol; nm -D --defined-only on the candidate libraries"),
                evidence(link), (MATRIX,), key=f"{caller}::{what}", kind="package-mismatch",
            )
        # torch_npu lacking an API its caller uses: the caller was written for a newer torch_npu (APIs are added, rarely removed).
        kind = "torch-npu-too-old" if owner == "torch_npu" and (NO_ATTR.search(msg) or CANNOT_IMPORT.search(msg)) else "package-mismatch"
        if owner == "transformers" and transformers_model_class(msg):
            kind = "transformers-too-old"
        if owner in SYMBOL_KINDS and (UNDEFINED.search(msg) or BARE_SYMBOL.search(msg)):
            kind = SYMBOL_KINDS[owner]
        if owner == "vllm_ascend" and caller == "vllm" and link.raiser in (None, "vllm") and OBJ_ATTR.search(msg):
            # vLLM's own code (its GPU model runner, worker, layers) reads an attribute a vllm-ascend subclass does not set:
            # vLLM added it after the vllm-ascend release was cut, and each vllm-ascend release follows one vLLM release
            # (versioning policy), so the vllm-ascend is older than the vLLM installed with it. A paste with no frames (only
            # the exception line) is read the same way as the branch above reads it: vLLM is the caller.
            kind = "vllm-ascend-too-old"
        history = import_history(msg, owner, facts)
        if history is not None and history.direction in ("too-old", "too-new"):
            kind = too_old_kind(history.pip) if history.direction == "too-old" else f"{history.pip}-too-new"
        versions = [f"{dist(p)} {facts.versions[p]}" for p in (caller, owner) if p in facts.versions]
        supported = pins(caller, owner, facts.versions)
        # protobuf's modules live in the "google" namespace (google.protobuf.*): name the distribution, not the namespace
        named = "protobuf" if owner == "google" and "google.protobuf" in msg else owner
        cause = (
            f"{link.short_type}: {what}. {caller} calls into {named}, but the installed {dist(owner)} is not the release "
            f"{caller} was written for" + (f" (the log shows {', '.join(versions)})" if versions else "") + "."
        )
        fix = []
        if history is not None:
            cause += " " + history.sentence
            if history.fix:
                fix.append(history.fix)
        if supported:
            fix.append("Install a supported pair: " + "; ".join(supported))
        fix.append(f"Check the installed versions against the matrix: ascendrl check --python $(which python)  (pip show {dist(caller) if caller != 'your code' else ''} {dist(owner)})".replace("  ", " "))
        if history is None or not history.fix:
            fix.append(f"Upgrade or pin {dist(owner)} to the version {caller} supports (or {caller} to one that supports your {dist(owner)})")
        title = f"{caller} and {named} versions do not match ({what})"
        if history is not None and history.direction in ("too-old", "too-new"):
            title = (f"{dist(owner)} is older than {caller} needs ({what})" if history.direction == "too-old"
                     else f"{dist(owner)} is newer than {caller} was written for ({what})")
        return Finding(
            title[:160], cause, tuple(fix), evidence(link),
            ((MATRIX, TORCH_NPU) if "torch" in (caller, owner) or "torch_npu" in (caller, owner) else (MATRIX,))
            + ((PANDAS_DECORATORS, TF_DEPRECATION) if wrapped else ()) + ((history.source,) if history is not None else ()),
            key=f"{caller}:{owner}:{what}", kind=kind,
        )
