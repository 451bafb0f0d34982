"""Readings added by helper k49compat (2026-12-06) while probing public threads of package / version pairs, installs and
builds for failure classes explain did not name. Each test input is a short excerpt in our own words around the exact
emitted message; each class also has a near miss (similar words, another failure).

- DRV-package widened (kind missing-dependency): a library refusing a feature because the optional package it needs is
  not importable, naming the package in a pip command, a "Please install X" or a "`use_X` is set to True" (TRL's and
  ms-swift's "vLLM is not available and `use_vllm` is set to True", TRL's peft / liger-kernel / math_verify / serve
  script checks, vLLM's "Ray is not installed" and bitsandbytes quantizer, transformers' requires_backends "requires the
  protobuf library but it was not found in your environment").
- ARL-E4760: transformers' bitsandbytes quantizer refusing load_in_4bit / load_in_8bit where bitsandbytes is not usable
  (on an Ascend host: no CUDA), in its 4.2x-4.38 and 4.39+ wordings and the "No GPU found" check.
- ARL-E4761: DeepSpeed's precompiled ops refusing a torch / CUDA / HIP release other than the one they were built with
  (op_builder/builder.py validate_torch_version / validate_torch_op_version).
- DRV-package widened (kind <pkg>-too-old): a minimum stated as a clause of its own for any of the stack's packages
  ("sglang>=0.5.5 is required for FP8 quantization" and "Fused forward patching requires mecore >= 0.13.0" in verl,
  "Python 3.10 or newer is required"), and "requires <pkg> >= X" for sglang, megatron-core, tensordict, pydantic ...
- ARL-E4762: a program or container entrypoint built for another CPU architecture (ENOEXEC: Python's "[Errno 8] Exec
  format error", bash's "cannot execute binary file", runc's "exec /usr/bin/python3: exec format error").
- DRV-package widened (kind missing-dependency, refining ARL-E237): "Tokenizer class T5Tokenizer does not exist or is not
  currently imported" for a slow tokenizer transformers 4.x registers only with sentencepiece installed.
- ARL-E4763: torch.compile's inductor finding no working Triton (torch/_inductor/exc.py TritonMissing and the 2.1-2.5
  RuntimeError wordings).
- ARL-E4764 / E4765 / E4766: conda's PackagesNotFoundError (no build for this platform in the channels),
  UnsatisfiableError / LibMambaUnsatisfiableError (specs conflict), CondaHTTPError HTTP 000 (channel unreachable).
- DRV-pythonver widened (kind python-too-old): PEP 585 builtin generics (list[int], dict[str, X]) on Python 3.8 or older,
  "'type' object is not subscriptable" with the subscripting source line printed above it (threads such as
  Ajatt-Tools/AnkiNoteTypes#1, daniabib/csgo-aimbot#1).
- ARL-E4767: an extension module without the PyInit_<name> its import name needs (CPython importdl.c), and the
  Python 2 "init function" form.
- ARL-E4768: a CUDA torch whose pip nvidia-* libraries are missing at import (torch/__init__.py _preload_cuda_deps).
- ARL-E4769: xFormers without its CUDA kernels ("xFormers wasn't build with CUDA support" under "No operator found"),
  with the import-time "can't load C++/CUDA extensions" warning as a non-fatal signature.
- ARL-E4770: CMake 4 refusing a cmake_minimum_required below 3.5.
- ARL-E4771: torch's headers refusing an old GCC / Clang (C++17.h #error, GCC 5 and GCC 9 forms), and an old GCC
  rejecting the -std=c++14/17/20 flag torch's extension build passes.
- ARL-E4772: pip refusing an editable install of a pyproject.toml-only project (pip < 21.3's "Directory cannot be
  installed in editable mode", pip >= 21.3's "missing the 'build_editable' hook").
- ARL-E534 widened: transformers needing accelerate while loading a model (from_pretrained with low_cpu_mem_usage /
  device_map, both wordings) and in the bitsandbytes quantizers' accelerate check.
- ARL-E4773: NumPy refusing a CPU without its wheel's baseline (X86_V2 on old CPUs / generic-CPU VMs; ASIMD features).
- DRV-package widened (kind vllm-ascend-too-old / package-mismatch): a plugin's subclass missing a method the other
  package's base class now declares abstract ("Can't instantiate abstract class X with abstract method(s) …", the 3.12+
  "without an implementation for abstract method" form), e.g. vllm-ascend's PunicaWrapperNPU after vLLM added
  apply_lora_full_linear (vllm-project/vllm-ascend#17172).
- ARL-E4774: Python 3.14's pickle _batch_setitems(items, obj) against datasets' / joblib's old override.
- ARL-E4775: code calling NPU ops as torch.npu_xxx, which torch_npu replaced with a raising stub
  (torch_npu/__init__.py wrap_torch_error_func).
- ARL-E4776: MindSpeed's swap / compression features refusing a torch_npu ("PTA") without the APIs they need.
- ARL-E4295 widened: DeepSpeed's own nvcc-vs-torch CUDA check (assert_no_cuda_mismatch, CUDAMismatchException), not its
  printed minor-mismatch acceptance.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# DRV-package, optional dependency ------------------------------------------------------------------------------------

def _missing(text: str) -> str:
    found = _top(text)
    assert found is not None and found.entry.id == "DRV-package" and found.kind == "missing-dependency", (text, found)
    return found.entry.title


def test_optional_dependency_refusals_are_missing_dependency():
    for text, pkg in (
        ("  File \"/usr/lib/python3.10/site-packages/trl/trainer/grpo_trainer.py\", line 625, in __init__\n"
         "    raise ImportError(\n"
         "ImportError: vLLM is not available and `use_vllm` is set to True. Please install vLLM with `pip install vllm` to use it.\n",
         "vllm"),
        # ms-swift's copy
        ("ImportError: vLLM is not available and `use_vllm` is set to True. Please install vLLM with `pip install vllm -U` to use it.\n",
         "vllm"),
        ("ValueError: You passed `peft_config` but the `peft` library is not installed. Please install it with `pip install peft` "
         "to use the PEFT models\n", "peft"),
        ("ImportError: You set `use_liger_loss=True` but the liger kernel is not available. Please install liger-kernel first: "
         "`pip install liger-kernel`\n", "liger-kernel"),
        ("ImportError: Please install the `math_verify` package to use accuracy_reward\n", "math-verify"),
        ("ImportError: vLLM is required to run the vLLM serve script. Please install it using `pip install vllm`.\n", "vllm"),
        ("ImportError: Ray is not installed. Please install Ray to use distributed serving.\n", "ray"),
        ("ImportError: Please install bitsandbytes>=0.45.3 via `pip install bitsandbytes>=0.45.3` to use bitsandbytes quantizer.\n",
         "bitsandbytes"),
        ("ImportError: \nLlamaTokenizer requires the protobuf library but it was not found in your environment. Check out the "
         "instructions on the\n", "protobuf"),
    ):
        assert pkg in _missing(text), text


def test_too_old_and_unrelated_install_hints_are_not_optional_missing():
    # A version check that found the package (too old): the requirement reading, not "not installed".
    found = _top("ImportError: accelerate>=0.26.0 is required for a normal functioning of this module, but found accelerate==0.21.0.\n")
    assert found is not None and found.kind != "missing-dependency"
    # "Please install" of an editable checkout names no package.
    found = _top("RuntimeError: The extension is not built. Please install it with `pip install -e .` first\n")
    assert found is None or "not installed: -e" not in found.entry.title
    # A warning that says a package is not installed is not a failure.
    assert _id("UserWarning: wandb is not installed. Please install it with pip install wandb\n") != "DRV-package"


# ARL-E4760 -----------------------------------------------------------------------------------------------------------

def test_bnb_quantizer_refused_is_e4760():
    for text in (
        "ImportError: Using `bitsandbytes` 8-bit quantization requires the latest version of bitsandbytes: `pip install -U bitsandbytes`\n",
        "ImportError: Using `bitsandbytes` 4-bit quantization requires the latest version of bitsandbytes: `pip install -U bitsandbytes`\n",
        "ImportError: Using `bitsandbytes` 8-bit quantization requires Accelerate: `pip install accelerate` and the latest version of "
        "bitsandbytes: `pip install -i https://pypi.org/simple/ bitsandbytes`\n",
        "ImportError: Using `load_in_8bit=True` requires Accelerate: `pip install accelerate` and the latest version of bitsandbytes "
        "`pip install -i https://test.pypi.org/simple/ bitsandbytes` or pip install bitsandbytes` \n",
        "RuntimeError: No GPU found. A GPU is needed for quantization.\n",
    ):
        assert _id(text) == "ARL-E4760", text


def test_bnb_import_warning_and_accelerate_alone_are_not_e4760():
    # bitsandbytes' own import warning on a host without CUDA: a warning (ARL-E2763), not the quantizer's refusal.
    assert _id("UserWarning: The installed version of bitsandbytes was compiled without GPU support. 8-bit optimizers, "
               "8-bit multiplication, and GPU quantization are unavailable.\n") != "ARL-E4760"
    # The 4.39+ accelerate check names accelerate alone.
    assert _id("ImportError: Using `bitsandbytes` 4-bit quantization requires Accelerate: `pip install 'accelerate>=0.26.0'`\n") != "ARL-E4760"


# ARL-E4761 -----------------------------------------------------------------------------------------------------------

def test_deepspeed_prebuilt_ops_mismatch_is_e4761():
    for text in (
        "RuntimeError: PyTorch version mismatch! DeepSpeed ops were compiled and installed with a different version than what is "
        "being used at runtime. Please re-install DeepSpeed or switch torch versions. Install torch version=2.1, Runtime torch version=2.2\n",
        "RuntimeError: CUDA version mismatch! DeepSpeed ops were compiled and installed with a different version than what is "
        "being used at runtime. Please re-install DeepSpeed or switch torch versions. Install CUDA version=11.8, Runtime CUDA version=12.1\n",
    ):
        assert _id(text) == "ARL-E4761", text


def test_deepspeed_nvcc_mismatch_is_e4295_not_e4761():
    text = ("deepspeed.ops.op_builder.builder.CUDAMismatchException: >- DeepSpeed Op Builder: Installed CUDA version 12.2 does not "
            "match the version torch was compiled with 11.7, unable to compile cuda/cpp extensions without a matching cuda version.\n")
    assert _id(text) == "ARL-E4295"
    # The minor-release difference DeepSpeed accepts is only printed: not a failure.
    ok = ("Installed CUDA version 12.6 does not match the version torch was compiled with 12.4 but since the APIs are compatible, "
          "accepting this combination\n")
    assert _id(ok) not in ("ARL-E4295", "ARL-E4761")


# DRV-package, stated minimum -----------------------------------------------------------------------------------------

def test_stated_minimum_clause_is_too_old():
    for text, kind in (
        ("AssertionError: sglang>=0.5.5 is required for FP8 quantization\n", "sglang-too-old"),
        ("AssertionError: Fused forward patching requires mecore >= 0.13.0\n", "megatron-core-too-old"),
        ("ImportError: vllm >= 0.8.3 is required for this feature\n", "vllm-too-old"),
        ("RuntimeError: Python 3.10 or newer is required\n", "python-too-old"),
        ("AssertionError: DeepSpeed >= 0.14.4 is required\n", "deepspeed-too-old"),
        ("AssertionError: This feature requires tensordict >= 0.10\n", "tensordict-too-old"),
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "DRV-package" and found.kind == kind, (text, found and found.kind)


def test_exact_pin_or_range_is_not_a_stated_minimum():
    # A bare version without "or newer" states no minimum.
    found = _top("ValueError: torch 2.1.0 is required by the bundled kernels\n")
    assert found is None or not found.kind.endswith("-too-old")
    # The require_version range form keeps its own reading (installed version outside the range).
    found = _top("ImportError: transformers>=4.41.2,<=4.45.0 is required for a normal functioning of this module, but found "
                 "transformers==4.46.1.\n")
    assert found is not None and found.kind == "package-mismatch"


# ARL-E4762 -----------------------------------------------------------------------------------------------------------

def test_exec_format_error_is_e4762():
    for text in (
        "OSError: [Errno 8] Exec format error: '/usr/local/lib/python3.10/site-packages/grpc_tools/protoc'\n",
        "bash: /usr/local/bin/ninja: cannot execute binary file: Exec format error\n",
        "exec /usr/local/bin/python3: exec format error\n",
        'standard_init_linux.go:211: exec user process caused "exec format error"\n',
    ):
        assert _id(text) == "ARL-E4762", text


def test_other_errno_8_and_permission_are_not_e4762():
    # macOS getaddrinfo's errno 8 is a name-resolution failure.
    assert _id("socket.gaierror: [Errno 8] nodename nor servname provided, or not known\n") != "ARL-E4762"
    assert _id("bash: ./train.sh: Permission denied\n") != "ARL-E4762"


# DRV-package, sentencepiece-gated tokenizer class ----------------------------------------------------------------------

def test_sentencepiece_gated_tokenizer_class_is_missing_dependency():
    for name in ("T5Tokenizer", "XLMRobertaTokenizer", "AlbertTokenizer"):
        found = _top(f"ValueError: Tokenizer class {name} does not exist or is not currently imported.\n")
        assert found is not None and found.entry.id == "DRV-package" and found.kind == "missing-dependency", name
        assert "sentencepiece" in found.entry.title


def test_custom_or_misspelled_tokenizer_class_is_not_sentencepiece():
    # Remote-code and misspelled classes keep the catalog's reading (too old, or custom code not trusted).
    for name in ("QWenTokenizer", "LLaMATokenizer"):
        found = _top(f"ValueError: Tokenizer class {name} does not exist or is not currently imported.\n")
        assert found is not None and found.kind != "missing-dependency", name


# ARL-E4763 -----------------------------------------------------------------------------------------------------------

def test_inductor_triton_missing_is_e4763():
    for text in (
        "torch._inductor.exc.TritonMissing: Cannot find a working triton installation. Either the package is not installed or "
        "it is too old. More information on installing Triton can be found at: https://github.com/triton-lang/triton\n",
        "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: Cannot find a working triton "
        "installation. More information on installing Triton can be found at https://github.com/openai/triton\n",
    ):
        assert _id(text) == "ARL-E4763", text


def test_old_gpu_for_triton_is_not_e4763():
    text = ("torch._inductor.exc.GPUTooOldForTriton: Found Tesla P100 which is too old to be supported by the triton GPU "
            "compiler, which is used as the backend. Triton only supports devices of CUDA Capability >= 7.0, but your device "
            "is of CUDA capability 6.0\n")
    assert _id(text) != "ARL-E4763"


# ARL-E4764 / E4765 / E4766 (conda) -------------------------------------------------------------------------------------

def test_conda_failures():
    assert _id("PackagesNotFoundError: The following packages are not available from current channels:\n\n  - pytorch-cuda=12.1\n") == "ARL-E4764"
    for text in (
        "UnsatisfiableError: The following specifications were found\nto be incompatible with each other:\n",
        "UnsatisfiableError: The following specifications were found\nto be incompatible with the existing python installation in your environment:\n",
        "LibMambaUnsatisfiableError: Encountered problems while solving:\n  - nothing provides cuda-version >=12.1 needed by pytorch-cuda-12.1-ha16c6d3_6\n",
    ):
        assert _id(text) == "ARL-E4765", text
    assert _id("CondaHTTPError: HTTP 000 CONNECTION FAILED for url <https://repo.anaconda.com/pkgs/main/linux-aarch64/current_repodata.json>\n") == "ARL-E4766"


def test_conda_near_misses():
    # An HTTP status conda did get back (a 404 from a mirror) is not the no-connection case.
    assert _id("CondaHTTPError: HTTP 404 NOT FOUND for url <https://mirrors.example.com/anaconda/cloud/nvidia/linux-aarch64/repodata.json>\n") != "ARL-E4766"
    # pip's own resolver conflict stays pip's entry.
    assert _id("ERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/dependency-resolution/\n") not in ("ARL-E4764", "ARL-E4765")
    # A conda package missing from the target env (no channels) is not a channel search.
    assert _id("PackagesNotFoundError: The following packages are missing from the target environment:\n  - numpy\n") != "ARL-E4764"


# DRV-pythonver, PEP 585 generics on Python 3.8 -------------------------------------------------------------------------

def test_builtin_generic_on_old_python_is_python_too_old():
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/lib64/python3.8/runpy.py", line 194, in _run_module_as_main\n'
            "    return _run_code(code, main_globals, None,\n"
            '  File "/home/user/src/tool/common.py", line 23, in <module>\n'
            "    def select(items: list[str]) -> Optional[str]:\n"
            "TypeError: 'type' object is not subscriptable\n")
    found = _top(text)
    assert found is not None and found.entry.id == "DRV-pythonver" and found.kind == "python-too-old"


def test_subscripting_own_class_is_not_python_too_old():
    # The same words for a class of the code's own (no builtin subscripted on the line).
    text = ('  File "/home/user/train.py", line 12, in <module>\n'
            "    cfg = Config[0]\n"
            "TypeError: 'type' object is not subscriptable\n")
    found = _top(text)
    assert found is None or found.kind != "python-too-old"
    # A builtin subscripted under Python 3.10 (the log says so) is not this.
    text = ('  File "/usr/lib/python3.10/site-packages/pkg/x.py", line 3, in <module>\n'
            "    X = type[0]\n"
            "TypeError: 'type' object is not subscriptable\n")
    found = _top(text)
    assert found is None or found.kind != "python-too-old"


# ARL-E4767 -----------------------------------------------------------------------------------------------------------

def test_missing_module_init_is_e4767():
    for text in (
        "ImportError: dynamic module does not define module export function (PyInit__C)\n",
        "ImportError: dynamic module does not define init function (initctl)\n",
    ):
        assert _id(text) == "ARL-E4767", text


def test_other_extension_load_errors_are_not_e4767():
    assert _id("ImportError: /usr/local/lib/python3.10/site-packages/foo/_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n") != "ARL-E4767"
    assert _id("ImportError: Python version mismatch: module was compiled for Python 3.10, but the interpreter version is "
               "incompatible: 3.11.9 (main, Apr  6 2024, 17:59:24) [GCC 11.4.0].\n") != "ARL-E4767"


# ARL-E4768 -----------------------------------------------------------------------------------------------------------

def test_torch_cuda_preload_is_e4768():
    for lib in ("libcublas.so.*[0-9]", "libnvrtc.so.*[0-9].*[0-9]", "libcudnn.so.*[0-9]"):
        text = f"ValueError: {lib} not found in the system path ['/home/user', '/usr/lib/python310.zip']\n"
        assert _id(text) == "ARL-E4768", text


def test_plain_missing_cuda_library_is_not_e4768():
    # The loader's own words for a missing CUDA library stay the library reading.
    assert _id("OSError: libcudart.so.12: cannot open shared object file: No such file or directory\n") != "ARL-E4768"


# ARL-E4769 -----------------------------------------------------------------------------------------------------------

def test_xformers_without_cuda_is_e4769():
    text = ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
            "     query       : shape=(1, 2048, 32, 128) (torch.float16)\n"
            "`cutlassF` is not supported because:\n"
            "    xFormers wasn't build with CUDA support\n")
    assert _id(text) == "ARL-E4769"


def test_xformers_on_npu_and_import_warning_are_not_fatal_e4769():
    # Tensors on the NPU: the NPU entry.
    text = ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:\n"
            "`cutlassF` is not supported because:\n"
            "    device=npu (supported: {'cuda'})\n")
    assert _id(text) == "ARL-E3961"
    # The import warning alone is not a failure.
    found = _top("WARNING[XFORMERS]: xFormers can't load C++/CUDA extensions. xFormers was built for:\n"
                 "    PyTorch 2.1.0+cu121 with CUDA 1201 (you have 2.1.0)\n")
    assert found is None or not found.fatal


# ARL-E4770 / E4771 (native builds) -----------------------------------------------------------------------------------

def test_cmake4_policy_removal_is_e4770():
    text = ("CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n"
            "  Compatibility with CMake < 3.5 has been removed from CMake.\n\n"
            "  Or, add -DCMAKE_POLICY_VERSION_MINIMUM=3.5 to try configuring anyway.\n")
    assert _id(text) == "ARL-E4770"


def test_other_cmake_errors_are_not_e4770():
    text = ("CMake Error at CMakeLists.txt:40 (find_package):\n"
            '  By not providing "FindTorch.cmake" in CMAKE_MODULE_PATH this project has\n')
    assert _id(text) != "ARL-E4770"


def test_old_compiler_for_torch_is_e4771():
    for text in (
        '/usr/include/c10/util/C++17.h:13:2: error: #error "You\'re trying to build PyTorch with a too old version of GCC. We need GCC 9 or later."\n',
        'error: #error "You\'re trying to build PyTorch with a too old version of GCC. We need GCC 5 or later."\n',
        "c++: error: unrecognized command-line option '-std=c++17'\n",
        "gcc: error: unrecognized command line option '-std=c++14'\n",
    ):
        assert _id(text) == "ARL-E4771", text


def test_x86_flag_on_arm_stays_e4484():
    assert _id("gcc: error: unrecognized command-line option '-mavx2'\n") == "ARL-E4484"


# ARL-E4772 -----------------------------------------------------------------------------------------------------------

def test_editable_pyproject_is_e4772():
    for text in (
        'ERROR: File "setup.py" or "setup.cfg" not found. Directory cannot be installed in editable mode: /home/user/verl\n'
        '(A "pyproject.toml" file was found, but editable mode currently requires a setuptools-based build.)\n',
        "ERROR: Project file:///home/user/verl has a 'pyproject.toml' and its build backend is missing the 'build_editable' "
        "hook. Since it does not have a 'setup.py' nor a 'setup.cfg', it cannot be installed in editable mode. Consider "
        "using a build backend that supports PEP 660.\n",
    ):
        assert _id(text) == "ARL-E4772", text


def test_missing_project_dir_is_not_e4772():
    # pip pointed at a directory that is not a project at all: another message.
    assert _id("ERROR: Directory '.' is not installable. Neither 'setup.py' nor 'pyproject.toml' found.\n") != "ARL-E4772"


# ARL-E534 widened ----------------------------------------------------------------------------------------------------

def test_accelerate_needed_for_loading_is_e534():
    for text in (
        "ImportError: Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate: `pip install accelerate`\n",
        "ImportError: Using `low_cpu_mem_usage=True` or a `device_map` requires Accelerate: `pip install 'accelerate>=0.26.0'`\n",
        "ImportError: Using `bitsandbytes` 4-bit quantization requires Accelerate: `pip install 'accelerate>=0.26.0'`\n",
    ):
        assert _id(text) == "ARL-E534", text
    # The bitsandbytes half of the older joined message stays the quantizer entry.
    assert _id("ImportError: Using `bitsandbytes` 8-bit quantization requires Accelerate: `pip install accelerate` and the latest "
               "version of bitsandbytes: `pip install -i https://pypi.org/simple/ bitsandbytes`\n") == "ARL-E4760"


# ARL-E4773 -----------------------------------------------------------------------------------------------------------

def test_numpy_cpu_baseline_is_e4773():
    for text in (
        "RuntimeError: NumPy was built with baseline optimizations: \n(X86_V2) but your machine doesn't support:\n(X86_V2).\n",
        "RuntimeError: NumPy was built with baseline optimizations: \n(ASIMD ASIMDHP ASIMDDP) but your machine doesn't support:\n(ASIMDHP).\n",
    ):
        assert _id(text) == "ARL-E4773", text


def test_numpy_abi_errors_are_not_e4773():
    assert _id("RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xe\n") != "ARL-E4773"
    assert _id("Illegal instruction (core dumped)\n") != "ARL-E4773"


# DRV-package, abstract method across a package pair --------------------------------------------------------------------

def test_plugin_missing_abstract_method_is_a_pair_mismatch():
    for text in (
        "TypeError: Can't instantiate abstract class PunicaWrapperNPU with abstract method apply_lora_full_linear\n",
        "TypeError: Can't instantiate abstract class NPUWorker without an implementation for abstract method "
        "'get_kv_connector_handshake_metadata'\n",
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "DRV-package" and found.kind == "vllm-ascend-too-old", text


def test_own_abstract_class_is_not_a_pair_mismatch():
    found = _top("TypeError: Can't instantiate abstract class MyDataset with abstract method __len__\n")
    assert found is None or found.entry.id != "DRV-package"


# ARL-E4774 -----------------------------------------------------------------------------------------------------------

def test_py314_batch_setitems_is_e4774():
    for text in (
        "TypeError: Pickler._batch_setitems() takes 2 positional arguments but 3 were given\n",
        "TypeError: Hasher._batch_setitems() takes 2 positional arguments but 3 were given\n",
    ):
        assert _id(text) == "ARL-E4774", text


def test_other_argument_count_errors_are_not_e4774():
    assert _id("TypeError: Trainer.compute_loss() takes 3 positional arguments but 4 were given\n") != "ARL-E4774"


# ARL-E4775 -----------------------------------------------------------------------------------------------------------

def test_torch_namespace_npu_op_is_e4775():
    text = ("RuntimeError: torch.npu_fusion_attention is deprecated and will be removed in future version. "
            "Use torch_npu.npu_fusion_attention instead.\n")
    assert _id(text) == "ARL-E4775"


def test_missing_torch_npu_op_is_not_e4775():
    # The op missing from torch_npu itself (too old a torch_npu) is another reading.
    assert _id("AttributeError: module 'torch_npu' has no attribute 'npu_fused_infer_attention_score'\n") != "ARL-E4775"


# ARL-E4776 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_pta_too_old_is_e4776():
    for text in (
        "AssertionError: `--compress-optimizer` is invalid, please update the latest PTA version.\n",
        "ModuleNotFoundError: PTA dose not support this func, please update to latest version.\n",
    ):
        assert _id(text) == "ARL-E4776", text


def test_other_mindspeed_argument_errors_are_not_e4776():
    assert _id("AssertionError: `--use-fused-rmsnorm` requires `--normalization RMSNorm`\n") != "ARL-E4776"
