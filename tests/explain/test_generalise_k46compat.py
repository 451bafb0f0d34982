"""Readings added by helper k46compat (2026-12-06) while probing public threads of package-version and interpreter
compatibility (vLLM's quantization loader, numba / NumPy, pydantic v1 under Python 3.12.4, urllib3 / OpenSSL, cloudpickle
across Python releases, packaging's strict versions, torchvision / torch) for failure classes explain did not name. Each
test input is a short excerpt in our own words around the exact emitted message; each class also has a near miss
(similar words, another failure).

- ARL-E4280: vLLM's own compressed-tensors loader found no scheme (the bare sentence; vllm-ascend's wording is E4046).
- ARL-E4281: numba refuses the installed NumPy (_ensure_critical_deps).
- ARL-E4282: pydantic v1's evaluate_forwardref under Python 3.12.4+ (recursive_guard keyword-only).
- ARL-E4283: urllib3 2.x refuses an ssl module linked against OpenSSL < 1.1.1 (the ImportError, not the LibreSSL warning).
- ARL-E4284: a cloudpickled function from Python <= 3.10 loaded by 3.11+ (code() argument 13).
- ARL-E4285: packaging >= 22 refuses a non-PEP 440 version string.
- ARL-E4286: torchvision's compiled ops did not load (_assert_has_ops), or were built for another CUDA than torch.
- ARL-E4287: a package's AutoConfig.register of a model_type transformers now defines ('aimv2', vLLM 0.9.x).
- ARL-E4288: transformers' chat templates refuse jinja2 < 3.1.
- ARL-E4289: two different copies of one .proto registered in protobuf's default pool (upb and C++ wordings).
- ARL-E4290: pip >= 24.1 skips a release with invalid (legacy) metadata; the resulting no-version error is its consequence.
- ARL-E4291: a bundled jemalloc built for smaller pages than the kernel's (aarch64 64 KiB / 16 KiB pages).
- ARL-E4292: glibc 2.41+ refuses to dlopen a library that asks for an executable stack.
- ARL-E4293: a pybind11 module built for another CPython minor release (both pybind11 wordings).
- ARL-E4294: transformers does not know the checkpoint's quant_method (the ValueError, not the skipping warning).
- ARL-E4295: a CUDA extension build whose nvcc is another CUDA major than torch's (not the minor-release warning).
- ARL-E244 widened: zip(strict=...) on Python <= 3.9 (zip() takes no keyword arguments).
- DRV-oserror kind efbig: [Errno 27] File too large (a file-size cap), no longer read as the open-file limit.
"""

from __future__ import annotations

import functools

import pytest

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id, top

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)
_top = functools.partial(top, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/opt/app/run.py\", line 3, in <module>\n    main()\n"


# Each class: the emitted line(s) in a short traceback or log excerpt, and the id explain must name first.
POSITIVES = [
    ("ARL-E4280", "ERROR 05-13 16:04:42 [core.py:387]   File \"/opt/venv/lib/python3.12/site-packages/vllm/model_executor/"
                  "layers/quantization/compressed_tensors/compressed_tensors.py\", line 375, in _get_scheme_from_parts\n"
                  "ERROR 05-13 16:04:42 [core.py:387]     raise NotImplementedError(\n"
                  "ERROR 05-13 16:04:42 [core.py:387] NotImplementedError: No compressed-tensors compatible scheme was found.\n"
                  "CRITICAL 05-13 16:04:42 [core_client.py:359] Got fatal signal from worker processes, shutting down.\n"),
    ("ARL-E4281", TB + "ImportError: Numba needs NumPy 2.0 or less. Got NumPy 2.1.\n"),
    ("ARL-E4281", TB + "ImportError: Numba needs NumPy 1.24 or greater. Got NumPy 1.23.\n"),
    ("ARL-E4281", TB + "ImportError: Numba needs NumPy 1.22 or less\n"),
    ("ARL-E4282", TB + "  File \"/app/.venv/lib/python3.12/site-packages/pydantic/v1/typing.py\", line 66, in "
                  "evaluate_forwardref\n    return cast(Any, type_)._evaluate(globalns, localns, set())\n"
                  "TypeError: ForwardRef._evaluate() missing 1 required keyword-only argument: 'recursive_guard'\n"),
    ("ARL-E4283", TB + "ImportError: urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled with "
                  "'OpenSSL 1.0.2k-fips  26 Jan 2017'. See: https://github.com/urllib3/urllib3/issues/2168\n"),
    ("ARL-E4283", TB + "ImportError: urllib3 v2.0 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled with "
                  "OpenSSL 1.0.2u  20 Dec 2019. See: https://github.com/urllib3/urllib3/issues/2168\n"),
    ("ARL-E4284", TB + "  File \"/opt/venv/lib/python3.11/site-packages/ray/rllib/connectors/agent/state_buffer.py\", line "
                  "41, in __init__\n    self._states = cloudpickle.loads(states)\n"
                  "TypeError: code() argument 13 must be str, not int\n"),
    ("ARL-E4285", TB + "packaging.version.InvalidVersion: Invalid version: '2.0.0.nv23.05'\n"),
    ("ARL-E4285", TB + "pkg_resources.extern.packaging.version.InvalidVersion: Invalid version: '0.23ubuntu1' (package: "
                  "distro-info)\n"),
    ("ARL-E4286", TB + "  File \"/usr/lib/python3.10/site-packages/torchvision/extension.py\", line 48, in _assert_has_ops\n"
                  "    raise RuntimeError(\nRuntimeError: Couldn't load custom C++ ops. This can happen if your PyTorch and "
                  "torchvision versions are incompatible, or if you had errors while compiling torchvision from source.\n"),
    ("ARL-E4286", TB + "RuntimeError: Detected that PyTorch and torchvision were compiled with different CUDA major "
                  "versions. PyTorch has CUDA Version=12.1 and torchvision has CUDA Version=11.8. Please reinstall the "
                  "torchvision that matches your PyTorch install.\n"),
    ("ARL-E4287", TB + "  File \"/opt/venv/lib/python3.12/site-packages/vllm/transformers_utils/configs/ovis.py\", line 75, "
                  "in <module>\n    AutoConfig.register(\"aimv2\", AIMv2Config)\n"
                  "ValueError: 'aimv2' is already used by a Transformers config, pick another name.\n"),
    ("ARL-E4290", "WARNING: Ignoring version 2.0.5 of omegaconf since it has invalid metadata:\n"
                  "Requested omegaconf<2.1 from https://files.pythonhosted.org/packages/e5/f6/omegaconf-2.0.5-py3-none-any.whl "
                  "(from fairseq==0.12.2) has invalid metadata: .* suffix can only be used with `==` or `!=` operators\n"
                  "    PyYAML (>=5.1.*)\n            ~~~~~~^\nPlease use pip<24.1 if you need to use this version.\n"
                  "ERROR: Cannot install -r requirements.txt and fairseq because these package versions have conflicting "
                  "dependencies.\nERROR: ResolutionImpossible: for help visit "
                  "https://pip.pypa.io/en/latest/topics/dependency-resolution/#dealing-with-dependency-conflicts\n"),
    ("ARL-E4291", "$ getconf PAGESIZE\n65536\n<jemalloc>: Unsupported system page size\n"
                  "<jemalloc>: Unsupported system page size\nmemory allocation of 2304 bytes failed\nAborted (core dumped)\n"),
    ("ARL-E4292", TB + "ImportError: /opt/venv/lib/python3.12/site-packages/torch/lib/libtorch_cpu.so: cannot enable "
                  "executable stack as shared object requires: Invalid argument\n"),
    ("ARL-E4293", TB + "ImportError: Python version mismatch: module was compiled for Python 3.10, but the interpreter "
                  "version is incompatible: 3.11.5 (main, Sep 11 2023, 13:54:46) [GCC 11.2.0].\n"),
    ("ARL-E4293", TB + "ImportError: Python version mismatch: module was compiled for version 3.6, while the interpreter "
                  "is running version 3.7.\n"),
    ("ARL-E4294", TB + "ValueError: Unknown quantization type, got mxfp4 - supported types are: ['awq', 'bitsandbytes_4bit', "
                  "'gptq', 'compressed-tensors', 'fp8']\n"),
    ("ARL-E4295", "      torch.__version__  = 2.4.0+cu118\n      RuntimeError:\n      The detected CUDA version (12.2) "
                  "mismatches the version that was used to compile\n      PyTorch (11.8). Please make sure to use the same "
                  "CUDA versions.\n      [end of output]\nerror: subprocess-exited-with-error\n"),
    ("ARL-E244", TB + "  File \"/opt/venv/lib/python3.9/site-packages/liger_kernel/chunked_loss/fused_linear_preference.py\", "
                 "line 217, in _compute_loss\n    for a, b in zip(xs, ys, strict=False):\n"
                 "TypeError: zip() takes no keyword arguments\n"),
    ("ARL-E4288", TB + "ImportError: apply_chat_template requires jinja2>=3.1.0 to be installed. Your version is 3.0.3.\n"),
    ("ARL-E4288", TB + "ImportError: apply_chat_template requires jinja2>=3.0.0 to be installed. Your version is 2.11.3.\n"),
    ("ARL-E4289", TB + "TypeError: Couldn't build proto file into descriptor pool: duplicate file name "
                  "sentencepiece_model.proto\n"),
    ("ARL-E4289", TB + "TypeError: Couldn't build proto file into descriptor pool!\n"
                  "Invalid proto descriptor for file \"sentencepiece_model.proto\":\n"
                  "  sentencepiece_model.proto: A file with this name is already in the pool.\n"),
]

# Each class's near miss: similar words, another failure; the id must not come first.
NEAR_MISSES = [
    # vllm-ascend's registry wording is ARL-E4046's
    ("ARL-E4280", TB + "NotImplementedError: No compressed-tensors compatible scheme was found for quant_type=W4A16, "
                  "layer_type=linear.\n"),
    ("ARL-E4281", TB + "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.0 as it may crash. To support "
                  "both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\n"
                  "ImportError: numpy.core.multiarray failed to import\n"),
    ("ARL-E4282", TB + "pydantic.errors.ConfigError: field \"reward\" not yet prepared so type is still a ForwardRef, you "
                  "might need to call Sample.update_forward_refs().\n"),
    # the LibreSSL warning of urllib3 >= 2.1 does not stop anything
    ("ARL-E4283", "/Users/me/.venv/lib/python3.9/site-packages/urllib3/__init__.py:35: NotOpenSSLWarning: urllib3 v2 only "
                  "supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled with 'LibreSSL 2.8.3'. See: "
                  "https://github.com/urllib3/urllib3/issues/3020\n  warnings.warn(\n"
                  + TB + "ModuleNotFoundError: No module named 'verl'\n"),
    ("ARL-E4284", TB + "TypeError: expected str, bytes or os.PathLike object, not int\n"),
    ("ARL-E4285", TB + "packaging.requirements.InvalidRequirement: Expected end or semicolon (after version specifier)\n"
                  "    torch>=2.1.0torchvision\n"),
    ("ARL-E4286", "/usr/lib/python3.10/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load image Python "
                  "extension: 'libjpeg.so.8: cannot open shared object file: No such file or directory'If you don't plan "
                  "on using image functionality from `torchvision.io`, you can ignore this warning.\n  warn(\n"
                  + TB + "KeyError: 'prompt'\n"),
    ("ARL-E4287", TB + "ValueError: The checkpoint you are trying to load has model type `aimv2` but Transformers does not "
                  "recognize this architecture. This could be because of an issue with the checkpoint, or because your "
                  "version of Transformers is out of date.\n"),
    ("ARL-E4288", TB + "ImportError: apply_chat_template requires jinja2 to be installed.\n"),
    ("ARL-E244", TB + "TypeError: zip() argument 2 is not iterable\n"),
    ("ARL-E4293", "2025-01-09 08:00:01,100\tWARNING worker.py:1 -- Python version mismatch between the driver (3.10.12) "
                  "and this worker\n" + TB + "KeyError: 'prompt'\n"),
    ("ARL-E4294", "WARNING: Unknown quantization type, got bf16 - supported types are: ['awq', 'gptq', 'fp8']. Hence, we "
                  "will skip the quantization. To remove the warning, you can delete the quantization_config attribute in "
                  "config.json\n" + TB + "KeyError: 'prompt'\n"),
    ("ARL-E4295", "UserWarning: The detected CUDA version (12.2) has a minor version mismatch with the version that was "
                  "used to compile PyTorch (12.1). Most likely this shouldn't be a problem.\n" + TB + "KeyError: 'prompt'\n"),
    ("ARL-E4291", "<jemalloc>: Error in malloc(): out of memory. Requested: 8589934592\nAborted (core dumped)\n"),
    ("ARL-E4292", TB + "ImportError: libtorch_cpu.so: cannot open shared object file: No such file or directory\n"),
    # pip 24.0's deprecation notice for the same metadata installs anyway
    ("ARL-E4290", "DEPRECATION: omegaconf 2.1.0 has a non-standard dependency specifier PyYAML>=5.1.*. pip 24.1 will "
                  "enforce this behaviour change.\nSuccessfully installed omegaconf-2.1.0\n" + TB + "KeyError: 'prompt'\n"),
    ("ARL-E4289", TB + "TypeError: Couldn't build proto file into descriptor pool: couldn't resolve name "
                  "'.computronium.p2p.TileActivationRequest'\n"),
]


@pytest.mark.parametrize("expected, text", POSITIVES)
def test_class_is_named(expected, text):
    assert _id(text) == expected


@pytest.mark.parametrize("not_expected, text", NEAR_MISSES)
def test_near_miss_is_not_named(not_expected, text):
    assert _id(text) != not_expected


def test_vllm_ascend_registry_refusal_stays_e4046():
    assert _id(NEAR_MISSES[0][1]) == "ARL-E4046"


# DRV-oserror efbig -------------------------------------------------------------------------------------------------

def test_errno_27_file_too_large_is_efbig():
    text = (TB + "  File \"/opt/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py\", line 200, in save_checkpoint\n"
            "    torch.save(model_state_dict, model_path)\n"
            "OSError: [Errno 27] File too large: '/mnt/usb/ckpt/global_step_40/actor/model_world_size_8_rank_0.pt'\n")
    assert _top(text) == ("DRV-oserror", "efbig")


def test_errno_24_is_still_emfile_not_efbig():
    text = TB + "OSError: [Errno 24] Too many open files: '/tmp/ray/session_latest/logs/worker.out'\n"
    found = _top(text)
    assert found is not None and found[1] == "emfile"  # ARL-E005 names it
