"""Readings added by helper k51compat (2026-12-06) while probing public threads and the emitting projects' source for
package / version pairs, installs and builds explain did not name. Each test input is a short excerpt around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5200: a c10d C++ binding (the ProcessGroup constructor, a backend creator) called by torch.distributed's Python
  code, vLLM or Megatron with arguments the compiled torch._C does not take (pybind11's overload list naming
  torch._C._distributed_c10d.ProcessGroup(arg0: ...) / "(arg0: c10d::Store, ...) -> c10d::Backend"): mixed torch
  releases. Before, it resembled xgrammar's bitmask entry (ARL-E4522).
- ARL-E5201: the compiler killed during a source build (GCC's "fatal error: Killed signal terminated program cc1plus",
  the pre-9 "internal compiler error: Killed (program cc1plus)"): host memory, too many parallel jobs.
- ARL-E452 widened: "error: invalid command 'bdist_wheel'" indented, as pip prints setup.py's output (its signature
  was anchored at the line start); before, unknown.
- ARL-E5203: setuptools 71+ with packaging < 22 ("canonicalize_version() got an unexpected keyword argument
  'strip_trailing_zero'").
- ARL-E5204: a setup.py that needs cmake ("RuntimeError: Cannot find CMake executable", vllm-ascend's and vLLM's
  setup.py); it narrows the chained FileNotFoundError for 'cmake' (DRV-oserror enoent).
- ARL-E5205: pybind11's duplicate type registration ('generic_type: type "X" is already registered!', '... cannot
  initialize type "X": an object with that name is already defined'): two copies of torch, torch + paddle, two builds.
- ARL-E5206: torch.utils.cpp_extension's JIT build failure ("RuntimeError: Error building extension 'fused_adam'"),
  generic: the compiler error inside it ranks first where an entry names it.
- ARL-E5207: cffi's package and _cffi_backend from two installs ("Version mismatch: this is the 'cffi' package version
  ...", the pre-1.10 "AssertionError: version mismatch, 1.5.2 != 1.9.1").
- ARL-E5208: typing_extensions < 4.2 under pydantic / marshmallow_dataclass ("dataclass_transform() got an unexpected
  keyword argument 'field_specifiers'"); before, only a resemblance.
- ARL-E5209 (generic): pybind11's "X(): incompatible function / constructor arguments. The following argument types
  are supported:" for any binding; the specific readings (E5200 for c10d, E4522 for xgrammar) rank first.
- ARL-E5210 (generic): pybind11's cast errors ("Unable to cast Python instance [of type X] to C++ type", "Unable to
  cast from non-held to held instance", "Unable to convert function return value to a Python type!").
- ARL-E396 widened: "module 'torch' has no attribute 'npu'" (torch.npu.* called without torch_npu loaded); before,
  it read as a torch version mismatch (DRV-package).
- ARL-E5211: pyOpenSSL older than cryptography ("module 'lib' has no attribute 'X509_V_FLAG_CB_ISSUER_CHECK'" and the
  other OpenSSL symbols of cryptography's cffi 'lib'); before, a version mismatch of a package named 'lib'.
- ARL-E5212: a SOCKS proxy without PySocks ("Missing dependencies for SOCKS support", pip and requests).
- ARL-E5213: PyPI backports shadowing the standard library: typing ("type object 'Callable' has no attribute
  '_abc_registry'"), enum34 ("module 'enum' has no attribute 'IntFlag'"), dataclasses ("module 'typing' has no
  attribute '_ClassVar'").
- ARL-E5214: pip refusing a file that is not a valid wheel ("Wheel 'X' located at ... is invalid.", "X has an invalid
  wheel, .dist-info directory not found / could not read ...").
- ARL-E5215: a --user install inside a virtualenv ("Can not perform a '--user' install. User site-packages are not
  visible in this virtualenv.").
- ARL-E161 widened: "ProcessGroupNCCL is only supported with GPUs, no GPUs found!" (a CUDA torch asked for NCCL on
  the NPU host); before, only a resemblance.
- ARL-E146 widened: the version check's message inside a RaySystemError ("System error: Version mismatch: The cluster
  was started with: ..."), Ray Client's connect checks ("Python minor versions differ between client and server: client
  is X, server is Y", "Client Ray installation incompatible with server: ...").
- ARL-E5216: python -m pip on an interpreter without pip ("/usr/bin/python3: No module named pip").
- ARL-E5217: pip's TLS failure against its index ("Could not fetch URL ...: There was a problem confirming the ssl
  certificate ... - skipping"); before, the Hugging Face Hub TLS entry (ARL-E164), which it now lists as a consequence.
- ARL-E5204 widened: cmake missing in other build steps ("error: command 'cmake' failed: No such file or directory",
  "cmake: command not found", "[Errno 2] No such file or directory: 'cmake'"); before, a resemblance to nvcc's entry.
- ARL-E5206 widened: setup.py's ahead-of-time form "RuntimeError: Error compiling objects for extension".
- ARL-E5219: pip cloning a git+https requirement without git ("Cannot find command 'git' - do you have 'git'
  installed and in your PATH?").
- ARL-E5220: NumPy's own core failing to import ("Importing the numpy C-extensions failed. ...", "Error importing
  numpy: you should not try to import numpy from its source directory"); it narrows the inner "No module named
  'numpy.core._multiarray_umath'", which read as a package mismatch (DRV-package).
- ARL-E5221: torch headers refusing an old C++ language mode ("#error C++17 or later compatible compiler is required to
  use ATen." / "... PyTorch.", "#error You need C++17 to compile PyTorch"); before, unknown.
- ARL-E026 widened: Click's locale check ("Click will abort further execution because Python was configured to use
  ASCII as encoding for the environment").
- ARL-E5222: a locale the image has not generated ("locale.Error: unsupported locale setting").
- ARL-E5218: conda's EnvironmentNotWritableError ("The current user does not have write permissions to the target
  environment.").
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E5200 ---------------------------------------------------------------------------------------------------------

PG_CTOR = (
    "  File \"/usr/local/lib/python3.10/site-packages/vllm/distributed/utils.py\", line 321, in "
    "stateless_init_torch_distributed_process_group\n"
    "    pg: ProcessGroup = ProcessGroup(\n"
    "TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:\n"
    "    1. torch._C._distributed_c10d.ProcessGroup(arg0: int, arg1: int)\n"
    "    2. torch._C._distributed_c10d.ProcessGroup(arg0: torch._C._distributed_c10d.Store, arg1: int, arg2: int, "
    "arg3: c10d::ProcessGroup::Options)\n"
    "\n"
    "Invoked with: <torch.distributed.distributed_c10d.PrefixStore object at 0xfffd1c2b3af0>, 0, 2\n"
)


def test_c10d_binding_signature_mismatch_is_e5200():
    assert _id(PG_CTOR) == "ARL-E5200"
    # vLLM's engine-core log prefix
    prefixed = "".join(
        "(EngineCore_1 pid=382) ERROR 05-22 11:41:54 [core.py:396] " + line + "\n" for line in PG_CTOR.splitlines()
    )
    assert _id(prefixed) == "ARL-E5200"
    # Megatron under torchrun, the torch 2.6 binding and the 2.5 caller
    assert _id(
        "0: [rank1]:     pg: ProcessGroup = ProcessGroup(prefix_store, group_rank, group_size, base_pg_options)\n"
        "0: [rank1]: TypeError: __init__(): incompatible constructor arguments. The following argument types are "
        "supported:\n"
        "0: [rank1]:     1. torch._C._distributed_c10d.ProcessGroup(arg0: int, arg1: int)\n"
        "0: [rank1]:     2. torch._C._distributed_c10d.ProcessGroup(arg0: torch._C._distributed_c10d.Store, arg1: int, "
        "arg2: int)\n"
    ) == "ARL-E5200"
    # a backend creator compiled against another torch
    assert _id(
        "torch/distributed/distributed_c10d.py\", line 2006, in _new_process_group_helper\n"
        "    backend_class = creator_fn(\n"
        "TypeError: (): incompatible function arguments. The following argument types are supported:\n"
        "    1. (arg0: c10d::Store, arg1: int, arg2: int, arg3: datetime.timedelta) -> c10d::Backend\n"
        "\n"
        "Invoked with: <torch.distributed.distributed_c10d.PrefixStore object at 0x7569cbee9230>, 0, 1, "
        "datetime.timedelta(seconds=1800)\n"
    ) == "ARL-E5200"


def test_other_binding_type_errors_are_not_e5200():
    # xgrammar's CPU kernel refusing a tensor: its own entry
    text = (
        "TypeError: apply_token_bitmask_inplace_cpu(): incompatible function arguments. The following argument types "
        "are supported:\n"
        "    1. (arg0: int, arg1: tuple[int, int], arg2: int, arg3: int, arg4: int, arg5: int, arg6: "
        "Optional[list[int]]) -> None\n"
    )
    assert _id(text) != "ARL-E5200"
    # a TensorRT binding handed a name instead of an index
    assert _id(
        "TypeError: get_binding_shape(): incompatible function arguments. The following argument types are "
        "supported:\n"
        "    1. (self: tensorrt.tensorrt.IExecutionContext, binding: int) -> tensorrt.tensorrt.Dims\n"
    ) != "ARL-E5200"


# ARL-E5201 ---------------------------------------------------------------------------------------------------------

def test_compiler_killed_during_build_is_e5201():
    for line in (
        "      c++: fatal error: Killed signal terminated program cc1plus\n      compilation terminated.\n",
        "g++: fatal error: Killed signal terminated program cc1plus\n",
        "gcc: fatal error: Killed signal terminated program cc1\n",
        "x86_64-linux-gnu-gcc: fatal error: Killed signal terminated program as\n",
        "c++: internal compiler error: Killed (program cc1plus)\n"
        "Please submit a full bug report,\n",
    ):
        assert _id("  Building wheel for flash_attn (setup.py) ... error\n" + line
                   + "  ERROR: Failed building wheel for flash_attn\n") == "ARL-E5201", line


def test_compiler_crash_or_error_is_not_e5201():
    # a real internal compiler error (segfault) is a compiler bug, not the OOM killer
    assert _id("c++: internal compiler error: Segmentation fault signal terminated program cc1plus\n") != "ARL-E5201"
    assert _id("csrc/ops.cpp:12:10: fatal error: torch/extension.h: No such file or directory\n") != "ARL-E5201"


# ARL-E452 (widened) ------------------------------------------------------------------------------------------------

def test_invalid_command_bdist_wheel_is_e452():
    assert _id(
        "  Running command python setup.py bdist_wheel\n"
        "  usage: setup.py [global_opts] cmd1 [cmd1_opts] [cmd2 [cmd2_opts] ...]\n"
        "  error: invalid command 'bdist_wheel'\n"
        "  ERROR: Failed building wheel for apex\n"
    ) == "ARL-E452"
    assert _id("error: invalid command 'bdist_wheel'\n") == "ARL-E452"


def test_other_invalid_command_is_not_e452():
    assert _id("error: invalid command 'develop'\n") != "ARL-E452"


# ARL-E5203 ---------------------------------------------------------------------------------------------------------

def test_canonicalize_version_keyword_is_e5203():
    assert _id(
        "        File \"/usr/local/lib/python3.10/site-packages/setuptools/_core_metadata.py\", line 285, in "
        "_distribution_fullname\n"
        "          canonicalize_version(version, strip_trailing_zero=False),\n"
        "      TypeError: canonicalize_version() got an unexpected keyword argument 'strip_trailing_zero'\n"
        "      [end of output]\n"
        "error: metadata-generation-failed\n"
    ) == "ARL-E5203"


def test_other_unexpected_keyword_is_not_e5203():
    assert _id("TypeError: canonicalize_name() got an unexpected keyword argument 'validate'\n") != "ARL-E5203"


# ARL-E5204 ---------------------------------------------------------------------------------------------------------

def test_cannot_find_cmake_is_e5204():
    assert _id("    RuntimeError: Cannot find CMake executable\n") == "ARL-E5204"
    chained = (
        "    FileNotFoundError: [Errno 2] No such file or directory: 'cmake'\n"
        "\n"
        "    The above exception was the direct cause of the following exception:\n"
        "\n"
        "    Traceback (most recent call last):\n"
        "      File \"/home/user/vllm-ascend/setup.py\", line 243, in build_extensions\n"
        "        raise RuntimeError(f\"Cannot find CMake executable: {e}\")\n"
        "    RuntimeError: Cannot find CMake executable: [Errno 2] No such file or directory: 'cmake'\n"
    )
    assert _id(chained) == "ARL-E5204"


def test_cmake_configure_failure_is_not_e5204():
    assert _id("CMake Error at CMakeLists.txt:1 (cmake_minimum_required):\n  CMake 3.26 or higher is required.  You "
               "are running version 3.22.1\n") != "ARL-E5204"


# ARL-E5205 ---------------------------------------------------------------------------------------------------------

def test_pybind11_duplicate_type_is_e5205():
    for line in (
        'ImportError: generic_type: type "_gpuDeviceProperties" is already registered!\n',
        'ImportError: generic_type: type "QuantType" is already registered!\n',
        "[531]  what(): generic_type: cannot initialize type \"WorkerId\": an object with that name is already "
        "defined\n",
        'RuntimeError: generic_type: cannot initialize type "TensorProtoDataType": an object with that name is already '
        "defined\n",
    ):
        assert _id("  File \"/usr/lib/python3.10/site-packages/torch/__init__.py\", line 79, in <module>\n"
                   "    from torch._C import *\n" + line) == "ARL-E5205", line


def test_other_registration_conflicts_are_not_e5205():
    # vLLM's model registry overwriting an architecture is a warning of its own
    assert _id("WARNING 06-03 14:53:54 registry.py:351] Model architecture DeepSeekMTPModel is already registered, and "
               "will be overwritten by the new model class vllm_ascend.models.deepseek_mtp:CustomDeepSeekMTP.\n"
               ) != "ARL-E5205"
    assert _id('ImportError: generic_type: type "Foo" referenced unknown base type "Bar"\n') != "ARL-E5205"


# ARL-E5206 ---------------------------------------------------------------------------------------------------------

def test_jit_extension_build_failure_is_e5206():
    assert _id(
        "  File \"/usr/local/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 2132, in "
        "_run_ninja_build\n"
        "    raise RuntimeError(message) from e\n"
        "RuntimeError: Error building extension 'fused_adam'\n"
    ) == "ARL-E5206"
    assert _id("RuntimeError: Error building extension 'cpu_adam': [1/3] c++ -MMD -MF cpu_adam.o.d\n") == "ARL-E5206"


def test_named_compile_error_ranks_before_e5206():
    # the compiler killed inside the JIT build: the specific cause first
    text = (
        "[1/3] /usr/bin/c++ -c fused_adam_frontend.cpp -o fused_adam_frontend.o\n"
        "c++: fatal error: Killed signal terminated program cc1plus\n"
        "ninja: build stopped: subcommand failed.\n"
        "RuntimeError: Error building extension 'fused_adam'\n"
    )
    assert _id(text) == "ARL-E5201"


# ARL-E5207 ---------------------------------------------------------------------------------------------------------

def test_cffi_backend_mismatch_is_e5207():
    assert _id(
        "  File \"/home/user/.local/lib/python3.10/site-packages/cffi/api.py\", line 48, in __init__\n"
        "Exception: Version mismatch: this is the 'cffi' package version 1.17.1, located in "
        "'/home/user/.local/lib/python3.10/site-packages/cffi/api.py'.  When we import the top-level '_cffi_backend' "
        "extension module, we get version 1.15.0, located in "
        "'/usr/lib/python3/dist-packages/_cffi_backend.cpython-310-aarch64-linux-gnu.so'.  The two versions should be "
        "equal; check your installation.\n"
    ) == "ARL-E5207"
    assert _id(
        "  File \"/home/user/.local/lib/python2.7/site-packages/cffi/api.py\", line 59, in __init__\n"
        "    \"version mismatch, %s != %s\" % (backend.__version__, __version__)\n"
        "AssertionError: version mismatch, 1.5.2 != 1.9.1\n"
    ) == "ARL-E5207"


def test_missing_cffi_backend_is_not_e5207():
    assert _id("ModuleNotFoundError: No module named '_cffi_backend'\n") != "ARL-E5207"


# ARL-E5208 ---------------------------------------------------------------------------------------------------------

def test_dataclass_transform_field_specifiers_is_e5208():
    assert _id(
        "  File \"/usr/local/lib/python3.9/site-packages/pydantic/main.py\", line 120, in <module>\n"
        "    @dataclass_transform(kw_only_default=True, field_specifiers=(Field,))\n"
        "TypeError: dataclass_transform() got an unexpected keyword argument 'field_specifiers'\n"
    ) == "ARL-E5208"
    # a compiled pydantic 1.10 wheel shows its Cython frames
    assert _id(
        "  File \"pydantic\\main.py\", line 121, in init pydantic.main\n"
        "TypeError: dataclass_transform() got an unexpected keyword argument 'field_specifiers'\n"
    ) == "ARL-E5208"


def test_other_dataclass_keyword_errors_are_not_e5208():
    assert _id("TypeError: dataclass() got an unexpected keyword argument 'slots'\n") != "ARL-E5208"


# ARL-E5209 / ARL-E5210 ---------------------------------------------------------------------------------------------

def test_pybind11_incompatible_arguments_is_e5209():
    for text in (
        "TypeError: get_binding_shape(): incompatible function arguments. The following argument types are "
        "supported:\n"
        "    1. (self: tensorrt.tensorrt.IExecutionContext, binding: int) -> tensorrt.tensorrt.Dims\n"
        "\n"
        "Invoked with: <tensorrt.tensorrt.IExecutionContext object at 0x7fce27c259b0>, 'images'\n",
        "TypeError: __init__(): incompatible constructor arguments. The following argument types are supported:\n"
        "    1. pyspiel.GameInfo(num_distinct_actions: int, max_chance_outcomes: int, num_players: int)\n"
        "\n"
        "Invoked with: kwargs: min_utility=0.0, max_utility=1.0\n",
    ):
        assert _id(text) == "ARL-E5209", text


def test_specific_binding_readings_rank_before_e5209():
    assert _id(PG_CTOR) == "ARL-E5200"
    assert _id(
        "TypeError: apply_token_bitmask_inplace_cpu(): incompatible function arguments. The following argument types "
        "are supported:\n"
        "    1. (arg0: int, arg1: tuple[int, int], arg2: int) -> None\n"
    ) == "ARL-E4522"


def test_pybind11_cast_errors_are_e5210():
    for line in (
        "RuntimeError: Unable to cast Python instance of type <class 'numpy.ndarray'> to C++ type "
        "'std::vector<int, std::allocator<int> >'\n",
        "RuntimeError: Unable to cast Python instance to C++ type (#define PYBIND11_DETAILED_ERROR_MESSAGES or compile "
        "in debug mode for details)\n",
        "ValueError: Unable to cast Python instance to C++ type (compile in debug mode for details)\n",
        "TypeError: Unable to convert function return value to a Python type! The signature was\n"
        "\t(self: foo.Bar) -> std::unique_ptr<Baz>\n",
        "RuntimeError: Unable to cast from non-held to held instance (T& to Holder<T>) (#define "
        "PYBIND11_DETAILED_ERROR_MESSAGES or compile in debug mode for type information)\n",
    ):
        assert _id("  File \"/home/user/run.py\", line 9, in <module>\n    out = ext.run(x)\n" + line) == "ARL-E5210", line


def test_other_cast_errors_are_not_e5210():
    # torch's own dtype cast refusal is an operator / dtype failure
    assert _id("RuntimeError: result type Float can't be cast to the desired output type Long\n") != "ARL-E5210"


# ARL-E396 (widened) ------------------------------------------------------------------------------------------------

def test_torch_npu_namespace_missing_is_e396():
    for line in ("AttributeError: module 'torch' has no attribute 'npu'\n",
                 "AttributeError: module 'torch' has no attribute 'npu'. Did you mean: 'nn'?\n"):
        assert _id("  File \"/home/user/train.py\", line 5, in <module>\n    torch.npu.set_device(local_rank)\n"
                   + line) == "ARL-E396", line


def test_other_torch_attributes_are_not_e396():
    assert _id("AttributeError: module 'torch' has no attribute 'compiler'\n") != "ARL-E396"
    assert _id("AttributeError: module 'torch_npu' has no attribute 'npu_rotary_mul'\n") != "ARL-E396"


# ARL-E5211 ---------------------------------------------------------------------------------------------------------

def test_old_pyopenssl_with_new_cryptography_is_e5211():
    for line in ("AttributeError: module 'lib' has no attribute 'X509_V_FLAG_CB_ISSUER_CHECK'\n",
                 "AttributeError: module 'lib' has no attribute 'OpenSSL_add_all_algorithms'\n",
                 "AttributeError: module 'lib' has no attribute 'SSL_CTX_set_ecdh_auto'\n"):
        assert _id("  File \"/usr/lib/python3/dist-packages/OpenSSL/crypto.py\", line 1573, in X509StoreFlags\n"
                   "    CB_ISSUER_CHECK = _lib.X509_V_FLAG_CB_ISSUER_CHECK\n" + line) == "ARL-E5211", line


def test_other_lib_attributes_are_not_e5211():
    assert _id("AttributeError: module 'lib' has no attribute 'helper'\n") != "ARL-E5211"


# ARL-E5212 ---------------------------------------------------------------------------------------------------------

def test_socks_proxy_without_pysocks_is_e5212():
    assert _id("ERROR: Could not install packages due to an OSError: Missing dependencies for SOCKS support.\n"
               ) == "ARL-E5212"
    assert _id(
        "  File \"/usr/local/lib/python3.10/site-packages/requests/adapters.py\", line 58, in SOCKSProxyManager\n"
        "    raise InvalidSchema(\"Missing dependencies for SOCKS support.\")\n"
        "requests.exceptions.InvalidSchema: Missing dependencies for SOCKS support.\n"
    ) == "ARL-E5212"


def test_proxy_connection_errors_are_not_e5212():
    assert _id("requests.exceptions.ProxyError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries "
               "exceeded with url: /api/models (Caused by ProxyError('Unable to connect to proxy'))\n") != "ARL-E5212"


# ARL-E5213 ---------------------------------------------------------------------------------------------------------

def test_typing_backport_is_e5213():
    assert _id(
        "  File \"/home/user/.venvs/rl/lib/python3.8/site-packages/typing.py\", line 1005, in __new__\n"
        "    self._abc_registry = extra._abc_registry\n"
        "AttributeError: type object 'Callable' has no attribute '_abc_registry'\n"
    ) == "ARL-E5213"


def test_other_typing_errors_are_not_e5213():
    assert _id("ImportError: cannot import name 'Literal' from 'typing' (/usr/lib/python3.7/typing.py)\n") != "ARL-E5213"


# ARL-E5214 / E5215 / E5216 -----------------------------------------------------------------------------------------

def test_invalid_wheel_is_e5214():
    for line in (
        "ERROR: Wheel 'torch-npu' located at /home/user/torch_npu-2.1.0-cp310-cp310-linux_aarch64.whl is invalid.\n",
        "ERROR: torch has an invalid wheel, .dist-info directory not found\n",
        "ERROR: os-sys has an invalid wheel, could not read 'os_sys-1.9.3.dist-info/WHEEL' file: KeyError(\"There is no "
        "item named 'os_sys-1.9.3.dist-info/WHEEL' in the archive\")\n",
    ):
        assert _id("Processing ./pkg.whl\n" + line) == "ARL-E5214", line


def test_unsupported_platform_wheel_is_not_e5214():
    assert _id("ERROR: torch_npu-2.5.1-cp310-cp310-manylinux_2_17_aarch64.manylinux2014_aarch64.whl is not a supported "
               "wheel on this platform.\n") != "ARL-E5214"


def test_user_install_in_venv_is_e5215():
    assert _id("ERROR: Can not perform a '--user' install. User site-packages are not visible in this virtualenv.\n"
               ) == "ARL-E5215"


def test_permission_denied_install_is_not_e5215():
    assert _id("ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: "
               "'/usr/local/lib/python3.10/site-packages/torch'\nConsider using the `--user` option or check the "
               "permissions.\n") != "ARL-E5215"


def test_python_without_pip_is_e5216():
    for line in ("/usr/bin/python3: No module named pip\n", "/home/user/venv/bin/python3.10: No module named pip\n"):
        assert _id("+ python3 -m pip install -r requirements.txt\n" + line) == "ARL-E5216", line


def test_other_missing_module_is_not_e5216():
    assert _id("/usr/bin/python3: No module named verl.trainer.main_ppo\n") != "ARL-E5216"


def test_nccl_without_gpus_is_e161():
    for line in ("ValueError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!\n",
                 "RuntimeError: ProcessGroupNCCL is only supported with GPUs, no GPUs found!\n"):
        assert _id("  File \"/usr/local/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py\", line 1525, "
                   "in _new_process_group_helper\n    backend_class = ProcessGroupNCCL(\n" + line) == "ARL-E161", line


def test_nccl_runtime_error_is_not_e161():
    assert _id("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:219, "
               "unhandled system error, NCCL version 2.19.3\n") != "ARL-E161"


def test_ray_version_mismatch_wordings_are_e146():
    for line in (
        "ray.exceptions.RaySystemError: System error: Version mismatch: The cluster was started with: Ray: 2.40.0 "
        "Python: 3.10.12 This process on node 10.0.0.2 was started with: Ray: 2.43.0 Python: 3.10.12\n",
        "RuntimeError: Python minor versions differ between client and server: client is 3.10.6, server is 3.8.13\n",
        "RuntimeError: Client Ray installation incompatible with server: client is 2021-05-20, server is 2021-12-07\n",
    ):
        assert _id("  File \"/usr/local/lib/python3.10/site-packages/ray/_private/worker.py\", line 1518, in init\n"
                   + line) == "ARL-E146", line


def test_ray_connection_failure_is_not_e146():
    assert _id("ConnectionError: ray client connection timeout\n") != "ARL-E146"


# ARL-E5217 / ARL-E5218 ---------------------------------------------------------------------------------------------

def test_pip_index_tls_failure_is_e5217():
    for reason in (
        "(Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: "
        "self signed certificate in certificate chain (_ssl.c:1007)')))",
        "(Caused by SSLError(SSLEOFError(8, 'EOF occurred in violation of protocol (_ssl.c:997)')))",
    ):
        text = ("Could not fetch URL https://pypi.tuna.tsinghua.edu.cn/simple/torch/: There was a problem confirming the "
                "ssl certificate: HTTPSConnectionPool(host='pypi.tuna.tsinghua.edu.cn', port=443): Max retries exceeded "
                "with url: /simple/torch/ " + reason + " - skipping\n"
                "ERROR: Could not find a version that satisfies the requirement torch==2.5.1 (from versions: none)\n")
        assert _id(text) == "ARL-E5217", reason


def test_python_without_ssl_stays_e024():
    # the reason names a Python built without _ssl: that entry's specific reading ranks first
    assert _id("Could not fetch URL https://pypi.org/simple/pip/: There was a problem confirming the ssl certificate: "
               "HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/pip/ (Caused by "
               "SSLError(\"Can't connect to HTTPS URL because the SSL module is not available.\")) - skipping\n"
               ) == "ARL-E024"


def test_hub_tls_failure_is_not_e5217():
    assert _id(
        "requests.exceptions.SSLError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max "
        "retries exceeded with url: /Qwen/Qwen2.5-7B-Instruct/resolve/main/config.json (Caused by "
        "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to get "
        "local issuer certificate (_ssl.c:1007)')))\"), '(Request ID: 1)')\n") != "ARL-E5217"


def test_conda_env_not_writable_is_e5218():
    assert _id("Verifying transaction: failed\n\nEnvironmentNotWritableError: The current user does not have write "
               "permissions to the target environment.\n  environment location: /opt/anaconda/anaconda3\n") == "ARL-E5218"


def test_pip_permission_error_is_not_e5218():
    assert _id("ERROR: Could not install packages due to an OSError: [Errno 13] Permission denied: "
               "'/opt/conda/lib/python3.10/site-packages/numpy'\n") != "ARL-E5218"


def test_cmake_missing_in_build_steps_is_e5204():
    for line in ("      error: command 'cmake' failed: No such file or directory\n",
                 "      ./build_bundled.sh: line 21: cmake: command not found\n",
                 "/bin/sh: 1: cmake: not found\n",
                 "    FileNotFoundError: [Errno 2] No such file or directory: 'cmake'\n"):
        assert _id("  Building wheel for sentencepiece (setup.py) ... error\n" + line) == "ARL-E5204", line


def test_nvcc_missing_is_not_e5204():
    assert _id("      error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory\n") != "ARL-E5204"


def test_setup_py_compile_failure_is_e5206():
    assert _id("      File \"/usr/local/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 2116, in "
               "_run_ninja_build\n        raise RuntimeError(message) from e\n"
               "      RuntimeError: Error compiling objects for extension\n"
               "  ERROR: Failed building wheel for flash-attn\n") == "ARL-E5206"


def test_pip_vcs_without_git_is_e5219():
    assert _id("ERROR: Cannot find command 'git' - do you have 'git' installed and in your PATH?\n") == "ARL-E5219"


def test_git_clone_network_failure_is_not_e5219():
    assert _id("fatal: unable to access 'https://github.com/huggingface/trl.git/': Failed to connect to github.com port "
               "443 after 130996 ms: Connection timed out\n") != "ARL-E5219"


def test_numpy_core_import_failure_is_e5220():
    inner = (
        "  File \"/usr/local/lib/python3.10/site-packages/numpy/core/overrides.py\", line 8, in <module>\n"
        "    from numpy.core._multiarray_umath import (\n"
        "ModuleNotFoundError: No module named 'numpy.core._multiarray_umath'\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.10/site-packages/numpy/core/__init__.py\", line 50, in <module>\n"
        "    raise ImportError(msg)\n"
        "ImportError: \n\nIMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!\n\n"
        "Importing the numpy C-extensions failed. This error can happen for\n"
        "many reasons, often due to issues with your setup or how NumPy was\ninstalled.\n"
    )
    assert _id(inner) == "ARL-E5220"
    assert _id("  File \"/usr/lib/python3/dist-packages/numpy/__init__.py\", line 130, in <module>\n"
               "    raise ImportError(msg) from e\n"
               "ImportError: Error importing numpy: you should not try to import numpy from\n"
               "        its source directory; please exit the numpy source tree, and relaunch\n") == "ARL-E5220"


def test_numpy_abi_errors_are_not_e5220():
    assert _id("ImportError: numpy.core.multiarray failed to import\n") != "ARL-E5220"
    assert _id("A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. To support both "
               "1.x and 2.x\n") != "ARL-E5220"


def test_old_cxx_standard_for_torch_headers_is_e5221():
    for line in (
        "torch/include/ATen/ATen.h:4:2: error: #error C++17 or later compatible compiler is required to use ATen.\n",
        "torch/include/torch/csrc/api/include/torch/all.h:4:2: error: #error C++17 or later compatible compiler is "
        "required to use PyTorch.\n",
        "torch/include/c10/util/C++17.h:27:2: error: #error You need C++17 to compile PyTorch\n",
        "torch/include/ATen/ATen.h:4:2: error: #error C++20 or later compatible compiler is required to use ATen.\n",
    ):
        assert _id("      gcc -c ops.cpp -o ops.o -std=c++14\n      /usr/local/lib/python3.10/site-packages/" + line
                   ) == "ARL-E5221", line


def test_old_gcc_version_is_not_e5221():
    assert _id("torch/include/c10/util/C++17.h:13:2: error: #error \"You're trying to build PyTorch with a too old version "
               "of GCC. We need GCC 9 or later.\"\n") == "ARL-E4771"


def test_click_ascii_locale_is_e026():
    for line in ("RuntimeError: Click will abort further execution because Python was configured to use ASCII as encoding "
                 "for the environment. Consult https://click.palletsprojects.com/unicode-support/ for mitigation steps.\n",
                 "RuntimeError: Click will abort further execution because Python 3 was configured to use ASCII as "
                 "encoding for the environment. Consult https://click.palletsprojects.com/python3/ for mitigation steps.\n"):
        assert _id("  File \"/usr/local/bin/ray\", line 8, in <module>\n    sys.exit(main())\n" + line) == "ARL-E026", line


def test_other_click_errors_are_not_e026():
    assert _id("click.exceptions.UsageError: No such option: --foo\n") != "ARL-E026"


def test_unsupported_locale_is_e5222():
    assert _id("  File \"/usr/lib/python3.10/locale.py\", line 620, in setlocale\n    return _setlocale(category, locale)\n"
               "locale.Error: unsupported locale setting\n") == "ARL-E5222"


def test_ascii_locale_is_not_e5222():
    assert _id("UnicodeEncodeError: 'ascii' codec can't encode characters in position 0-3: ordinal not in range(128)\n"
               ) == "ARL-E026"


def test_enum34_and_dataclasses_backports_are_e5213():
    assert _id("  File \"/usr/lib/python3.8/re.py\", line 143, in <module>\n    class RegexFlag(enum.IntFlag):\n"
               "AttributeError: module 'enum' has no attribute 'IntFlag'\n") == "ARL-E5213"
    assert _id("  File \"/usr/local/lib/python3.8/site-packages/dataclasses.py\", line 550, in _is_classvar\n"
               "    return type(a_type) is typing._ClassVar\n"
               "AttributeError: module 'typing' has no attribute '_ClassVar'\n") == "ARL-E5213"
