"""Readings added by helper k47compat (2026-12-06) while probing public threads of package / Python version pairs,
installs and builds for failure classes that explain did not name. Each test input is a short excerpt in our own words
around the exact emitted message; each class also has a near miss (similar words, another failure).

- DRV-package (catalog/analyzers/stdlibapi.py): a standard-library name or module the running Python removed, used by
  code written for an older Python (collections' ABC aliases 3.10, asyncio.coroutine / inspect.getargspec 3.11,
  distutils / imp / pkgutil.ImpImporter / asynchat 3.12, PEP 594's modules / lib2to3 3.13, ast.Num 3.14, ...), one row
  per name with its "What's New" page; read as the caller being older than the interpreter instead of "collections and
  foo versions do not match" (the standard library is no package to upgrade) or "pip install imp"; and the other way
  (names a newer Python added: tomllib, enum.StrEnum, itertools.batched, PEP 585 generics under 3.8) as python-too-old.
  Every row up to 3.13 checked against the CPython 3.7-3.13 interpreters themselves. Also syntax a newer Python added,
  read from the source line Python prints above "SyntaxError: invalid syntax" (:= 3.8, match 3.10, except* 3.11,
  PEP 695 def f[T] / type X = 3.12, PEP 701 f-strings reusing quotes 3.12; each refused by the older interpreter with
  these words and parsed by the newer); mentat#10, Katalina#2.
- DRV-package (stdlibapi.distutils_submodule): "module 'distutils' has no attribute 'version'" read as a caller (torch's
  tensorboard before pytorch#69894) that uses distutils.version without importing it under setuptools' distutils copy
  (setuptools >= 59.6), fix setuptools==59.5.0 or a newer caller; kind package-mismatch as before.
- ARL-E4480: a Rust-extension package built from source without a Rust toolchain (setuptools-rust command.py "can't
  find Rust compiler", maturin/__init__.py "Cargo, the Rust package manager, is not installed or is not on PATH").
- ARL-E4481: a C / C++ extension built from source without a C compiler (setuptools/_distutils/spawn.py "command 'gcc'
  failed: No such file or directory", CPython distutils' "unable to execute 'gcc'", the FileNotFoundError form).
- ARL-E4482: a pinned Rust-extension release whose PyO3 refuses the newer interpreter (pyo3-ffi/build.rs "the configured
  Python interpreter version (3.13) is newer than PyO3's maximum supported version (3.12)").
- DRV-package (package.py build_isolation_hides): "No module named 'torch'" raised inside pip's / uv's isolated build
  environment (pip-build-env-*/overlay, pyproject_hooks' _in_process.py, uv's builds-v0) read as the build isolation
  hiding the environment's torch / torch_npu / numpy (fix: --no-build-isolation), not as torch missing (flash-attn#1421).
- ARL-E024 widened: an interpreter built without _ssl ("No module named '_ssl'", pip's search_scope.py warning "pip is
  configured with locations that require TLS/SSL, however the ssl module in Python is not available" (non-fatal) and
  urllib3's "Can't connect to HTTPS URL because the SSL module is not available"); pip#8472, pip#5776.
- ARL-E4484: x86-only compiler flags on an aarch64 host (gcc/opts-common.cc "unrecognized command-line option '-mavx2'",
  GCC < 8's "command line", clang's "unsupported option"); vllm#20523, qwen2.cpp#5, pillow-simd#123.
- ARL-E4485: pip's HashMismatch (exceptions.py "THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE"):
  a truncated / corrupt download or cache of a big wheel; pytorch#110847, pytorch#78420.
- ARL-E4486: vLLM built from source without a CUDA torch and without VLLM_TARGET_DEVICE (setup.py "Unknown runtime
  environment", "Unsupported platform, please use CUDA, ROCm, or CPU."); vllm#15450, open-r1#510.
- ARL-E4487: a newer setuptools refusing the package's metadata (setuptools/dist.py: 78.0.0-78.0.1 InvalidConfigError
  "Invalid dash-separated key ... (setup.cfg)", 77+ "License classifiers have been superseded by license expressions");
  Drain3#106, django-log-viewer#42.
- ARL-E4483: pip's resolver gave up (resolvelib's "ResolutionTooDeep: 200000", pip 25.1's "error: resolution-too-deep").
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# DRV-package: standard-library removals ----------------------------------------------------------------------------

def _stdlib(text: str):
    d = _top(text)
    assert d is not None and d.entry.id == "DRV-package", text
    return d


def test_stdlib_removed_names_name_the_python_release():
    for text, removed, name in (
        ('Traceback (most recent call last):\n  File "/usr/local/lib/python3.10/site-packages/attrdict/mapping.py", '
         'line 4, in <module>\n    from collections import Mapping\nImportError: cannot import name \'Mapping\' from '
         '\'collections\' (/usr/local/lib/python3.10/collections/__init__.py)\n', "3.10", "collections.Mapping"),
        ("AttributeError: module 'collections' has no attribute 'MutableMapping'\n", "3.10", "collections.MutableMapping"),
        ('  File "/opt/conda/lib/python3.11/site-packages/foo/x.py", line 9, in <module>\n    @asyncio.coroutine\n'
         "AttributeError: module 'asyncio' has no attribute 'coroutine'\n", "3.11", "asyncio.coroutine"),
        ("AttributeError: module 'inspect' has no attribute 'getargspec'\n", "3.11", "inspect.getargspec"),
        ('  File "/home/user/.venv/lib/python3.12/site-packages/pkg_resources/__init__.py", line 2191, in <module>\n'
         "    register_finder(pkgutil.ImpImporter, find_on_path)\n"
         "AttributeError: module 'pkgutil' has no attribute 'ImpImporter'. Did you mean: 'zipimporter'?\n",
         "3.12", "pkgutil.ImpImporter"),
        ("AttributeError: module 'configparser' has no attribute 'SafeConfigParser'. Did you mean: 'RawConfigParser'?\n",
         "3.12", "configparser.SafeConfigParser"),
        ('  File "/usr/lib/python3.12/site-packages/foo/x.py", line 9, in <module>\n    import imp\n'
         "ModuleNotFoundError: No module named 'imp'\n", "3.12", "imp"),
        ("ModuleNotFoundError: No module named 'pipes'\n", "3.13", "pipes"),
        ("ModuleNotFoundError: No module named 'lib2to3'\n", "3.13", "lib2to3"),
        ("AttributeError: module 'ast' has no attribute 'Num'\n", "3.14", "ast.Num"),
        ("AttributeError: 'Thread' object has no attribute 'isAlive'\n", "3.9", "Thread.isAlive"),
        ("AttributeError: 'MyCase' object has no attribute 'assertEquals'. Did you mean: 'assertEqual'?\n", "3.12",
         "MyCase.assertEquals"),
        ("TypeError: Queue.__init__() got an unexpected keyword argument 'loop'\n", "3.10", "asyncio.Queue"),
        ("TypeError: As of 3.10, the *loop* parameter was removed from Lock() since it is no longer necessary\n", "3.10",
         "asyncio.Lock"),
        ("TypeError: Population must be a sequence.  For dicts or sets, use sorted(d).\n", "3.11", "random.sample"),
    ):
        d = _stdlib(text)
        assert d.kind == "package-mismatch", text
        assert f"Python {removed} removed" in d.entry.title and name in d.entry.title, d.entry.title
        assert f"whatsnew/{removed}.html" in " ".join(d.entry.sources), d.entry.sources


def test_distutils_removed_is_setuptools_missing():
    d = _stdlib('  File "/opt/conda/lib/python3.12/site-packages/foo/setup_utils.py", line 3, in <module>\n'
                "    from distutils.version import LooseVersion\nModuleNotFoundError: No module named 'distutils'\n")
    assert d.kind == "missing-dependency"
    assert "Python 3.12 removed distutils" in d.entry.title
    assert any("pip install setuptools" in step for step in d.entry.fix)


def test_stdlib_near_misses_are_not_python_removals():
    for text in (
        # the interpreter still has the name: not the removal (a shadowing file or a broken install)
        ('  File "/usr/lib/python3.8/site-packages/foo/x.py", line 9, in <module>\n    import imp\n'
         "ModuleNotFoundError: No module named 'imp'\n"),
        # NumPy's ndarray.tostring, not array.array's
        "AttributeError: 'numpy.ndarray' object has no attribute 'tostring'\n",
        # setuptools' own distutils copy dropped msvccompiler: not Python 3.12's removal
        "ModuleNotFoundError: No module named 'distutils.msvccompiler'\n",
        # a third-party module of the same leaf name
        "AttributeError: module 'foo.collections' has no attribute 'Mapping'\n",
    ):
        d = _top(text)
        assert d is None or "older Python" not in d.entry.title, (text, d and d.entry.title)


def test_stdlib_added_names_are_python_too_old():
    for text, added in (
        ("ImportError: cannot import name 'PickleBuffer' from 'pickle' (/usr/lib/python3.7/pickle.py)\n", "3.8"),
        ("ModuleNotFoundError: No module named 'tomllib'\n", "3.11"),
        ("AttributeError: module 'itertools' has no attribute 'batched'\n", "3.12"),
        ("AttributeError: 'str' object has no attribute 'removeprefix'\n", "3.9"),
        ("ImportError: cannot import name 'StrEnum' from 'enum' (/usr/lib/python3.10/enum.py)\n", "3.11"),
        ("ImportError: cannot import name 'UTC' from 'datetime' (/usr/lib/python3.10/datetime.py)\n", "3.11"),
        ("ImportError: cannot import name 'cache' from 'functools' (/usr/lib/python3.8/functools.py)\n", "3.9"),
        ("NameError: name 'ExceptionGroup' is not defined\n", "3.11"),
        ("ImportError: cannot import name 'Literal' from 'typing' (/usr/lib/python3.7/typing.py)\n", "3.8"),
        ('  File "/opt/conda/lib/python3.8/site-packages/foo/config.py", line 12, in <module>\n'
         "    def f(x: list[int]) -> dict[str, int]:\nTypeError: 'type' object is not subscriptable\n", "3.9"),
    ):
        d = _top(text)
        # builtin generics (PEP 585) are also DRV-pythonver's reading since k49compat (s48): the same kind, either reader
        assert d is not None and d.entry.id in ("DRV-package", "DRV-pythonver") and d.kind == "python-too-old", (text, d and d.entry.id)
        assert f"Python {added} or newer" in d.entry.title, d.entry.title


def test_stdlib_added_near_misses():
    for text in (
        # the interpreter has the name: shadowed or broken, not too old
        "ImportError: cannot import name 'cache' from 'functools' (/usr/lib/python3.11/functools.py)\n",
        # a class of the user's own that is not generic, on a Python with PEP 585
        ('  File "/opt/conda/lib/python3.11/site-packages/foo/config.py", line 12, in <module>\n'
         "TypeError: 'type' object is not subscriptable\n"),
        # a package's own tomllib-free name
        "ModuleNotFoundError: No module named 'tomli'\n",
    ):
        d = _top(text)
        assert d is None or d.kind != "python-too-old", (text, d and d.entry.title)


# ARL-E4480 ---------------------------------------------------------------------------------------------------------

def test_rust_toolchain_missing_is_e4480():
    for text in (
        "      running build_rust\n      error: can't find Rust compiler\n      \n      If you are using an outdated pip "
        "version, it is possible a prebuilt wheel is available for this package but pip is not able to install from it.\n"
        "  ERROR: Failed building wheel for tokenizers\n",
        "\nCargo, the Rust package manager, is not installed or is not on PATH.\nThis package requires Rust and Cargo to "
        "compile extensions. Install it through\nthe system's package manager or via https://rustup.rs/\n\n"
        "      Checking for Rust toolchain....\n      [end of output]\n",
    ):
        assert _id(text) == "ARL-E4480", text


def test_rust_compile_error_is_not_e4480():
    # rustc ran and failed on the code (a Rust compile error): not a missing toolchain
    text = ("      error[E0425]: cannot find function `PyUnicode_FromKindAndData` in module `pyo3::ffi`\n"
            "      error: could not compile `tokenizers-python` (lib) due to 1 previous error\n")
    assert _id(text) != "ARL-E4480"


# ARL-E4481 ---------------------------------------------------------------------------------------------------------

def test_c_compiler_missing_is_e4481():
    for text in (
        "      error: command 'gcc' failed: No such file or directory\n      [end of output]\n"
        "  ERROR: Failed building wheel for deepspeed\n",
        "    unable to execute 'gcc': No such file or directory\n    error: command 'gcc' failed with exit status 1\n",
        "  unable to execute 'cc': No such file or directory\n  running bdist_wheel\n",
        "      error: command 'x86_64-linux-gnu-g++' failed: No such file or directory\n",
        "      FileNotFoundError: [Errno 2] No such file or directory: 'gcc'\n",
        "unable to execute gcc: No such file or directory\nerror: command 'gcc' failed with exit status 1\n",
    ):
        assert _id(text) == "ARL-E4481", text


def test_compiler_ran_and_failed_is_not_e4481():
    for text in (
        # the compiler ran: a missing header, another entry or analyzer
        "      src/ffi.c:1:10: fatal error: Python.h: No such file or directory\n"
        "      error: command '/usr/bin/gcc' failed with exit code 1\n",
        # nvcc missing is ARL-E4093
        "      error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory\n",
    ):
        assert _id(text) != "ARL-E4481", text


# ARL-E4482 ---------------------------------------------------------------------------------------------------------

def test_pyo3_max_python_is_e4482():
    for text in (
        "        error: the configured Python interpreter version (3.13) is newer than PyO3's maximum supported version "
        "(3.12)\n        = help: please check if an updated version of PyO3 is available. Current version: 0.21.2\n",
        "error: the configured Python interpreter version (3.14) is newer than PyO3's maximum supported version (3.13)\n"
        "  = help: please check if an updated version of PyO3 is available. Current version: 0.22.5\n",
        "error: the configured PyPy interpreter version (3.11) is newer than PyO3's maximum supported version (3.10)\n",
        "  error: the configured Python version (3.15) is newer than PyO3's maximum supported version (3.14)\n",
    ):
        assert _id(text) == "ARL-E4482", text


def test_pyo3_min_python_is_not_e4482():
    text = "error: the configured Python interpreter version (3.6) is lower than PyO3's minimum supported version (3.7)\n"
    assert _id(text) != "ARL-E4482"


# ARL-E4483 ---------------------------------------------------------------------------------------------------------

def test_resolution_too_deep_is_e4483():
    for text in (
        '  File "/opt/conda/lib/python3.8/site-packages/pip/_vendor/resolvelib/resolvers.py", line 457, in resolve\n'
        "    raise ResolutionTooDeep(max_rounds)\npip._vendor.resolvelib.resolvers.ResolutionTooDeep: 200000\n",
        "pip._vendor.resolvelib.resolvers.ResolutionTooDeep: 100\n",
        "error: resolution-too-deep\n\n\u00d7 Dependency resolution exceeded maximum depth\n\u2570\u2500> Pip cannot resolve "
        "the current dependencies as the dependency graph is too complex for pip to solve efficiently.\n",
    ):
        assert _id(text) == "ARL-E4483", text


def test_resolution_impossible_is_not_e4483():
    text = ("ERROR: Cannot install torch-npu==2.5.1rc1 and torch>=2.5.1 because these package versions have conflicting "
            "dependencies.\nERROR: ResolutionImpossible: for help visit https://pip.pypa.io/en/latest/topics/"
            "dependency-resolution/#dealing-with-dependency-conflicts\n")
    assert _id(text) not in (None, "ARL-E4483")


# DRV-package: build isolation hides the environment's torch -------------------------------------------------------

def test_build_isolation_hides_torch():
    text = (
        "  Getting requirements to build wheel ... error\n  error: subprocess-exited-with-error\n\n"
        "  \u00d7 Getting requirements to build wheel did not run successfully.\n  \u2502 exit code: 1\n"
        "  \u2570\u2500> [17 lines of output]\n      Traceback (most recent call last):\n"
        '        File "/home/user/.venv/lib/python3.10/site-packages/pip/_vendor/pyproject_hooks/_in_process/_in_process.py",'
        " line 353, in <module>\n          main()\n"
        '        File "/tmp/pip-build-env-gwmgwy1l/overlay/lib/python3.10/site-packages/setuptools/build_meta.py", line 331,'
        " in get_requires_for_build_wheel\n          return self._get_build_requires(config_settings, requirements=[])\n"
        '        File "<string>", line 22, in <module>\n'
        "      ModuleNotFoundError: No module named 'torch'\n      [end of output]\n"
    )
    d = _top(text)
    assert d is not None and d.entry.id == "DRV-package" and d.kind == "missing-dependency"
    assert "isolated build environment" in d.entry.title
    assert any("--no-build-isolation" in step for step in d.entry.fix)


def test_torch_missing_at_run_time_is_not_build_isolation():
    text = ('Traceback (most recent call last):\n  File "/home/user/train.py", line 3, in <module>\n    import torch\n'
            "ModuleNotFoundError: No module named 'torch'\n")
    d = _top(text)
    assert d is not None and "isolated build" not in d.entry.title


# DRV-package: syntax a newer Python added ----------------------------------------------------------------------------

def test_new_syntax_under_old_python_is_python_too_old():
    for code, message, python, added in (
        ("    match user_response.lower():", "invalid syntax", "3.9", "3.10"),
        ("    if (n := len(a)) > 10:", "invalid syntax", "3.7", "3.8"),
        ("except* ValueError:", "invalid syntax", "3.10", "3.11"),
        ("def f[T](x: T) -> T:", "expected '('", "3.11", "3.12"),
        ("type Point = tuple[float, float]", "invalid syntax", "3.11", "3.12"),
        ('    y = f"{x["a"]}"', "f-string: unmatched '['", "3.11", "3.12"),
    ):
        text = (f'  File "/opt/conda/lib/python{python}/site-packages/foo/x.py", line 9\n    {code.strip()}\n'
                f"          ^\nSyntaxError: {message}\n")
        d = _top(text)
        assert d is not None and d.entry.id == "DRV-package" and d.kind == "python-too-old", (text, d and d.entry.title)
        assert f"needs Python {added} or newer" in d.entry.title, d.entry.title


def test_syntax_error_of_a_typo_is_not_python_too_old():
    for text in (
        # a real typo: no newer syntax on the line
        '  File "/home/user/train.py", line 9\n    print("a" "b" +)\n                 ^\nSyntaxError: invalid syntax\n',
        # match statement under a Python that has it: a different error
        '  File "/opt/conda/lib/python3.11/site-packages/foo/x.py", line 9\n    match x:\n          ^\n'
        "SyntaxError: invalid syntax\n",
    ):
        d = _top(text)
        assert d is None or d.kind != "python-too-old", (text, d and d.entry.title)


# ARL-E024 widened: Python built without _ssl ---------------------------------------------------------------------

def test_python_without_ssl_is_e024():
    for text in (
        "ModuleNotFoundError: No module named '_ssl'\n",
        "WARNING: pip is configured with locations that require TLS/SSL, however the ssl module in Python is not available.\n"
        "  WARNING: Retrying (Retry(total=4, connect=None, read=None, redirect=None, status=None)) after connection broken "
        "by 'SSLError(\"Can't connect to HTTPS URL because the SSL module is not available.\")': /simple/scrapy/\n",
        "pip is configured with locations that require TLS/SSL, however the ssl module in Python is not available.\n"
        "Collecting numpy\n  Could not fetch URL https://pypi.python.org/simple/numpy/: There was a problem confirming the "
        "ssl certificate: Can't connect to HTTPS URL because the SSL module is not available. - skipping\n"
        "  Could not find a version that satisfies the requirement numpy (from versions: )\nNo matching distribution found for numpy\n",
    ):
        assert _id(text) == "ARL-E024", text


def test_ssl_certificate_failure_is_not_e024():
    # ssl works; the certificate chain is refused (a proxy / an old CA bundle): another failure
    text = ("Could not fetch URL https://pypi.org/simple/torch/: There was a problem confirming the ssl certificate: "
            "HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded with url: /simple/torch/ (Caused by "
            "SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: unable to "
            "get local issuer certificate (_ssl.c:1006)'))) - skipping\n")
    assert _id(text) != "ARL-E024"


# ARL-E4484 ---------------------------------------------------------------------------------------------------------

def test_x86_flags_on_arm_are_e4484():
    for text in (
        "c++: error: unrecognized command-line option \u2018-mavx2\u2019\n",
        "  cc: error: unrecognized command line option \u2018-mavx2\u2019\n  error: command '/usr/bin/cc' failed with exit code 1\n",
        "gcc: error: unrecognized command-line option '-msse4.2'\n",
        "aarch64-linux-gnu-gcc: \u9519\u8bef\uff1a unrecognized command line option \u2018-mfma\u2019\n",
        "clang: error: unsupported option '-mavx2' for target 'aarch64-unknown-linux-gnu'\n",
    ):
        assert _id(text) == "ARL-E4484", text


def test_other_unrecognized_options_are_not_e4484():
    for text in (
        # a GCC too old for a C++ standard flag: not an architecture mismatch
        "g++: error: unrecognized command-line option '-std=c++20'; did you mean '-std=c++2a'?\n",
        # an ARM flag on x86
        "gcc: error: unrecognized command-line option '-mcpu=neoverse-n1'\n",
    ):
        assert _id(text) != "ARL-E4484", text


# ARL-E4485 ---------------------------------------------------------------------------------------------------------

def test_hash_mismatch_is_e4485():
    text = ("#10 98.65 ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the "
            "package versions, please update the hashes. Otherwise, examine the package contents carefully; someone may "
            "have tampered with them.\n#10 98.65     torch==1.6.0 from https://files.pythonhosted.org/packages/5d/5e/"
            "torch-1.6.0-cp37-cp37m-manylinux1_x86_64.whl#sha256=87d6 (from -r requirements.txt (line 12)):\n"
            "#10 98.65         Expected sha256 87d65c01\n#10 98.65              Got        98d755d3\n")
    assert _id(text) == "ARL-E4485"


def test_hashes_required_is_not_e4485():
    # --require-hashes without a hash for a requirement: a requirements-file problem, not a bad download
    text = ("ERROR: Hashes are required in --require-hashes mode, but they are missing from some requirements. Here is a "
            "list of those requirements along with the hashes their downloaded archives actually had.\n")
    assert _id(text) != "ARL-E4485"


# ARL-E4486 ---------------------------------------------------------------------------------------------------------

def test_vllm_build_without_device_is_e4486():
    for text in (
        '        File "<string>", line 523, in get_vllm_version\n      RuntimeError: Unknown runtime environment\n'
        "      [end of output]\n",
        "      ValueError: Unsupported platform, please use CUDA, ROCm, or CPU.\n",
        "      ValueError: Unsupported platform, please use CUDA, ROCm, Neuron, HPU, or CPU.\n",
    ):
        assert _id(text) == "ARL-E4486", text


def test_vllm_runtime_platform_errors_are_not_e4486():
    # vLLM at run time failing to infer its platform: another failure (a plugin not loaded)
    text = "RuntimeError: Failed to infer device type\n"
    assert _id(text) != "ARL-E4486"



def test_stdlib_added_arguments_and_operators_are_python_too_old():
    for text, added in (
        ("TypeError: copytree() got an unexpected keyword argument 'dirs_exist_ok'\n", "3.8"),
        ("TypeError: unlink() got an unexpected keyword argument 'missing_ok'\n", "3.8"),
        ("TypeError: glob() got an unexpected keyword argument 'root_dir'\n", "3.10"),
        ("TypeError: unsupported operand type(s) for |: 'dict' and 'dict'\n", "3.9"),
        ("TypeError: Expected maxsize to be an integer or None\n", "3.8"),
        ("TypeError: 'key' is an invalid keyword argument for bisect_right()\n", "3.10"),
        ("AttributeError: 'ValueError' object has no attribute 'add_note'\n", "3.11"),
        ("AttributeError: 'PosixPath' object has no attribute 'is_relative_to'\n", "3.9"),
        ("AttributeError: module 'argparse' has no attribute 'BooleanOptionalAction'\n", "3.9"),
    ):
        d = _top(text)
        assert d is not None and d.entry.id == "DRV-package" and d.kind == "python-too-old", (text, d and d.entry.title)
        assert f"needs Python {added} or newer" in d.entry.title, d.entry.title


def test_same_keyword_on_another_function_is_not_python_too_old():
    d = _top("TypeError: LLM.__init__() got an unexpected keyword argument 'dirs_exist_ok'\n")
    assert d is None or d.kind != "python-too-old"



def test_distutils_version_attribute_is_setuptools_distutils():
    text = ('  File "/usr/local/lib/python3.8/dist-packages/torch/utils/tensorboard/__init__.py", line 4, in <module>\n'
            "    LooseVersion = distutils.version.LooseVersion\nAttributeError: module 'distutils' has no attribute 'version'\n")
    d = _top(text)
    assert d is not None and d.entry.id == "DRV-package" and d.kind == "package-mismatch"
    assert "setuptools" in d.entry.title and any("setuptools==59.5.0" in step for step in d.entry.fix)
    # another module of that name with no such attribute is not this
    d = _top("AttributeError: module 'mydistutils' has no attribute 'version'\n")
    assert d is None or "setuptools' own distutils" not in d.entry.title


# ARL-E4487 ---------------------------------------------------------------------------------------------------------

def test_setuptools_refuses_metadata_is_e4487():
    for text in (
        "      setuptools.errors.InvalidConfigError: Invalid dash-separated key 'description-file' in 'metadata' (setup.cfg), "
        "please use the underscore name 'description_file' instead.\n      [end of output]\n",
        "setuptools.errors.InvalidConfigError: Invalid uppercase key 'Name' in 'metadata' (setup.cfg), please use lowercase 'name' instead.\n",
        "setuptools.errors.InvalidConfigError: License classifiers have been superseded by license expressions (see "
        "https://peps.python.org/pep-0639/). Please remove:\n",
    ):
        assert _id(text) == "ARL-E4487", text


def test_setuptools_deprecation_warning_is_not_e4487():
    # 78.0.2+: the same sentence as a warning; the build goes on
    text = ("  SetuptoolsDeprecationWarning: Invalid dash-separated key 'description-file' in 'metadata' (setup.cfg), please "
            "use the underscore name 'description_file' instead.\n")
    assert _id(text) != "ARL-E4487"
