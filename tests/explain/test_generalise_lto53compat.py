"""Readings widened by helper lto53compat (2026-12-07) so that a package / version / dtype class the catalog already knows
reaches other users' wordings, other releases' messages and other log shapes (leave-thread-out misses of the compat and
dtype families). Each test input is a short excerpt around the emitted message; each has a near miss that must not
give the same answer.

- DRV-cuda-only: torch's cpp_extension "CUDA_HOME environment variable is not set" on a host the log shows as an NVIDIA
  GPU machine (a +cuXXX torch, nvidia / nvcc / GeForce words) and no Ascend stack: cuda-toolkit-missing (the toolkit,
  nvcc, is absent), not a CUDA build on the Ascend host. Without GPU words the Ascend reading stays.
- DRV-package: CPython's "X() got an unexpected keyword argument 'k'" also as issue titles paraphrase it ("got unexpected
  keyword 'k'"), so the release table names the side that is behind (vLLM's EngineArgs(worker_extension_cls=) < 0.8.5).
- Facts.npu: torch_npu's own error tag ("[ERROR] <time> (PID:n, Device:n, RankID:n) ERR99999 ...", ARL-E332) counts as
  the Ascend stack, so DRV-quant-load reads a Ray worker's KeyError on a quantized tensor (weight_scale_inv) as the
  NPU's unsupported quantization, not a weight-name mismatch.
- normalize: vLLM's older logger tag without brackets ("worker_base.py:572] "), level and date cut off, before a
  traceback's lines and its exception line (as Ray's repeated worker lines are pasted).
- ARL-E601: vLLM 0.8-0.10's fall-back forms of its V1 device check ("npu is experimental on VLLM_USE_V1=1. Falling back
  to V0 Engine.", "device type=npu is not supported by the V1 Engine. Falling back to V0."), non-fatal.
- ARL-E387: ATen's "expected scalar type X but found Y" without its "RuntimeError: " prefix (a lower-cased paste) and
  with Double; addmm's "self and mat2 must have the same dtype, but got X and Y" (ADDMM_META); dot's "dot : expected
  both vectors to have same dtype, but found X and Y" for floating operands.
- DRV-torch-dtype: native ops' own half-precision refusals, isin's "Unsupported input type encountered for isin():
  BFloat16" and linalg's "<op>: Low precision dtypes not supported. Got Half": torch-op-dtype-unsupported.
- ARL-E501: sglang ModelSlim's other scheme refusals ("No ModelSlim MoE scheme found for layer X", "ModelSlim linear
  quantization scheme is missing. Check quant_model_description.json ...").
- ARL-E4166: the CUDA runtime's own text for cudaErrorInsufficientDriver ("CUDA driver version is insufficient for CUDA
  runtime version"), as older torch, C10_CUDA_CHECK, JAX and CuPy print it.
- ARL-E4093: the missing nvcc met by a shell or make running it directly ("/bin/sh: 1: nvcc: not found", "bash: nvcc:
  command not found", "make: nvcc: No such file or directory").
"""

from __future__ import annotations

import dataclasses
import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'
CUDA_HOME = "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n"
BUILD_TB = ('Traceback (most recent call last):\n  File "/tmp/pip-req-build/setup.py", line 9, in <module>\n    ext()\n'
            '  File "/usr/lib/python3.10/site-packages/torch/utils/cpp_extension.py", line 2000, in _join_cuda_home\n'
            '    raise OSError(\n')


def _kind(text: str) -> tuple[str | None, str | None]:
    found = _top(text)
    return (found.entry.id, found.kind) if found is not None else (None, None)


# DRV-cuda-only --------------------------------------------------------------------------------------------------------

def test_cuda_home_unset_on_a_gpu_host_is_toolkit_missing():
    pip_list = "Package                  Version\ntorch                    2.3.0+cu121\n"
    assert _kind(pip_list + BUILD_TB + CUDA_HOME) == ("DRV-cuda-only", "cuda-toolkit-missing")
    assert _kind("On my NVIDIA GeForce RTX 3090 box the build says: " + CUDA_HOME)[1] == "cuda-toolkit-missing"


def test_cuda_home_unset_on_the_npu_host_or_unknown_host_stays_cuda_build_on_npu():
    npu = "torch_npu                2.1.0.post3\n"
    assert _kind(npu + BUILD_TB + CUDA_HOME) == ("DRV-cuda-only", "cuda-only-package-on-npu")
    assert _kind("LMcache install failed：CUDA_HOME environment variable is not set\n")[1] != "cuda-toolkit-missing"


# DRV-package: the paraphrased unexpected-keyword form -------------------------------------------------------------------

def test_paraphrased_unexpected_keyword_reads_the_release_table():
    text = "TypeError in rollout_server.sh: EngineArgs.__init__() got unexpected keyword 'worker_extension_cls'\n"
    assert _kind(text) == ("DRV-package", "vllm-too-old")


def test_unexpected_keyword_no_release_ever_took_is_not_vllm_too_old():
    text = "TypeError: EngineArgs.__init__() got an unexpected keyword argument 'no_such_option_anywhere'\n"
    assert _kind(text)[1] != "vllm-too-old"


# Facts.npu from torch_npu's tag + vLLM's unbracketed logger tag -------------------------------------------------------

RAY_KEYERROR = (
    '(RayWorkerWrapper pid=193386) worker_base.py:572]   File "/home/user/vllm/vllm/model_executor/models/deepseek_v3.py", '
    'line 782, in load_weights [repeated 30x across cluster]\n'
    "(RayWorkerWrapper pid=193386) worker_base.py:572]     param = params_dict[name] [repeated 30x across cluster]\n"
    "(RayWorkerWrapper pid=193386) worker_base.py:572] KeyError: 'model.layers.27.mlp.experts.w2_weight_scale_inv' "
    "[repeated 30x across cluster]\n"
)
NPU_TAG = "[ERROR] 2025-02-26-20:38:15 (PID:211548, Device:0, RankID:-1) ERR99999 UNKNOWN applicaiton exception\n"


# ARL-E1991 names a scale tensor with no parameter by its text; the analyzer must reach it without that entry
NO_E1991 = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E1991"))


def test_quantized_tensor_keyerror_with_torch_npu_tag_is_quant_unsupported_on_npu():
    found = first(NO_E1991, RAY_KEYERROR + NPU_TAG)
    assert found is not None and (found.entry.id, found.kind) == ("DRV-quant-load", "quant-method-unsupported-on-npu")


def test_same_keyerror_without_any_ascend_word_is_not_the_npu_reading():
    found = first(NO_E1991, RAY_KEYERROR)
    assert found is None or found.entry.id != "DRV-quant-load"


def test_unbracketed_logger_tag_is_not_stripped_from_plain_info_lines():
    from ascendrl.catalog.normalize import strip_prefixes

    assert strip_prefixes("worker_base.py:572] KeyError: 'a.b'")[0] == "KeyError: 'a.b'"
    assert strip_prefixes("worker_base.py:572] Loading weights took 8.76 seconds")[0].startswith("worker_base.py:572]")
    # the bracketed tag keeps an exception line (its level is unknown: test_derived's rule stands)
    assert strip_prefixes("[core.py:710] RuntimeError: x")[0] == "[core.py:710] RuntimeError: x"


# ARL-E601 ------------------------------------------------------------------------------------------------------------

def test_v1_fallback_for_the_device_is_e601_non_fatal():
    for line in (
        "INFO 05-26 03:28:34 [arg_utils.py:1669] npu is experimental on VLLM_USE_V1=1. Falling back to V0 Engine.",
        "WARNING 05-26 03:28:34 [arg_utils.py:1500] device type=npu is not supported by the V1 Engine. Falling back to V0. ",
    ):
        found = _top(line + "\n")
        assert found is not None and found.entry.id == "ARL-E601", line
        assert not found.fatal, line


def test_v1_fallback_for_a_model_feature_is_not_e601():
    for line in (
        "INFO 08-01 10:00:00 [arg_utils.py:1594] Mamba is experimental on VLLM_USE_V1=1. Falling back to V0 Engine.",
        "WARNING 08-01 10:00:00 [arg_utils.py:1500] --kv-cache-dtype is not supported by the V1 Engine. Falling back to V0. ",
    ):
        assert _id(line + "\n") != "ARL-E601", line


# ARL-E387 ------------------------------------------------------------------------------------------------------------

def test_scalar_type_check_without_prefix_and_addmm_self_check_are_e387():
    for line in (
        " runtimeerror: expected scalar type BFloat16 but found Float",
        "RuntimeError: expected scalar type Double but found Float",
        "RuntimeError: self and mat2 must have the same dtype, but got Float and BFloat16",
        "RuntimeError: dot : expected both vectors to have same dtype, but found Float and BFloat16",
    ):
        assert _id(TB + line + "\n") == "ARL-E387", line


def test_index_scalar_type_is_not_e387():
    assert _id(TB + "RuntimeError: expected scalar type Long but found Int\n") != "ARL-E387"
    assert _id(TB + "RuntimeError: dot : expected both vectors to have same dtype, but found Long and Double\n") != "ARL-E387"


# DRV-torch-dtype -----------------------------------------------------------------------------------------------------

def test_linalg_and_isin_half_refusals_are_torch_op_dtype_unsupported():
    assert _kind(TB + "RuntimeError: linalg.inv: Low precision dtypes not supported. Got Half\n") == (
        "DRV-torch-dtype", "torch-op-dtype-unsupported")
    # isin's own check (ARL-E1993 names it in the full catalog): the analyzer reads it where that entry is absent
    without = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E1993"))
    found = first(without, TB + "RuntimeError: Unsupported input type encountered for isin(): BFloat16\n")
    assert found is not None and (found.entry.id, found.kind) == ("DRV-torch-dtype", "torch-op-dtype-unsupported")


def test_linalg_integer_input_is_not_torch_op_dtype_unsupported():
    text = TB + "RuntimeError: linalg.inv: Expected a floating point or complex tensor as input. Got Long\n"
    assert _kind(text)[1] != "torch-op-dtype-unsupported"


# ARL-E501 ------------------------------------------------------------------------------------------------------------

def test_sglang_modelslim_scheme_refusals_are_e501():
    for line in (
        "ValueError: No ModelSlim MoE scheme found for layer model.layers.3.mlp.experts",
        "ValueError: ModelSlim linear quantization scheme is missing. Check quant_model_description.json and "
        "packed_modules_mapping for this layer prefix.",
    ):
        assert _id(TB + line + "\n") == "ARL-E501", line


def test_sglang_modelslim_mismatched_w13_is_not_e501():
    text = TB + "ValueError: Mismatched ModelSlim quantization for W13 in layer model.layers.3.mlp.experts: {}\n"
    assert _id(text) != "ARL-E501"


# ARL-E4166 -----------------------------------------------------------------------------------------------------------

def test_cuda_runtime_insufficient_driver_is_e4166():
    for line in (
        "RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at "
        "/pytorch/aten/src/THC/THCGeneral.cpp:74",
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
    ):
        assert _id(TB + line + "\n") == "ARL-E4166", line


def test_driver_library_mismatch_is_not_e4166():
    text = TB + "RuntimeError: CUDA error: system has unsupported display driver / cuda driver combination\n"
    assert _id(text) != "ARL-E4166"


# ARL-E4093 -----------------------------------------------------------------------------------------------------------

def test_shell_or_make_without_nvcc_is_e4093():
    for line in ("/bin/sh: 1: nvcc: not found", "bash: nvcc: command not found", "make: nvcc: No such file or directory",
                 "make: nvcc: Command not found"):
        assert _id(line + "\n") == "ARL-E4093", line


def test_nvcc_that_ran_and_failed_is_not_e4093():
    assert _id("nvcc fatal   : Unsupported gpu architecture 'compute_90'\n") != "ARL-E4093"
