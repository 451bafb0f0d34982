"""Session 12 (d9): wordings and log forms read from the round-9 development misses, each checked both ways."""

from __future__ import annotations

import io
import re

import pytest

from ascendrl.catalog import Classifier


def matching(catalog, entry_id: str, line: str):
    return [sig for sig in catalog.by_id(entry_id).signatures if re.search(sig.regex, line)]


def top(catalog, text: str) -> dict:
    clf = Classifier(catalog)
    clf.feed_log(io.BytesIO(text.encode()), "paste.log")
    diagnoses = clf.result().to_json()["diagnoses"]
    return diagnoses[0] if diagnoses else {}


@pytest.mark.parametrize("entry_id, line", [
    # vllm/model_executor/model_loader/utils.py (0.8.x): the Transformers fallback cannot take the architecture either
    ("ARL-E228", "BertForMaskedLM has no vLLM implementation and the Transformers implementation is not compatible with vLLM. "
                 "Try setting VLLM_USE_V1=0."),
    ("ARL-E228", "ValueError: Qwen2_5_VLForSequenceClassification has no vLLM implementation and the Transformers implementation "
                 "is not compatible with vLLM."),
    # default_loader.py / loader.py
    ("ARL-E560", "ValueError: Following weights were not initialized from checkpoint: {'visual.blocks.12.norm2.bias'}"),
    # hicann/runtime raw_device.cc, 8.5 / 9.0 and 9.1+ wordings
    ("ARL-E364", "Fail to init MemoryPoolManager, retCode=0x711000e.[FUNC:Init][FILE:raw_device.cc][LINE:670]"),
    ("ARL-E364", "Failed to init MemoryPoolManager, retCode=0x711000e."),
])
def test_wording_matches_its_entry(catalog, entry_id, line):
    assert matching(catalog, entry_id, line), line


@pytest.mark.parametrize("entry_id, line", [
    # the fallback working, a warning: not the failure
    ("ARL-E228", "WARNING 04-07 10:34:56 [utils.py:79] BertModel has no vLLM implementation, falling back to Transformers "
                 "implementation. Some features may not be supported and performance may not be optimal."),
    # vllm-ascend's quantized-model patch logs expected gaps at WARNING, with other words before the colon
    ("ARL-E560", "Following weights were not initialized from checkpoint (expected for quantized models): {'a.weight_scale'}"),
    # EL0004 alone is any refused device allocation, not the device open this entry is about
    ("ARL-E364", "Memory_Allocation_Failure(EL0004): Failed to allocate memory."),
])
def test_neighbouring_wording_does_not_match(catalog, entry_id, line):
    assert not matching(catalog, entry_id, line), line


def test_el0004_while_an_operator_runs_is_an_out_of_memory(catalog):
    diagnosis = top(catalog, (
        "[PID: 5393] 2026-01-16-10:20:15.729.456 Memory_Allocation_Failure(EL0004): Failed to allocate memory.\n"
        "        Possible Cause: Available memory is insufficient.\n"
        "        TraceBack (most recent call last):\n"
        "        Call rtMalloc fail, purpose: page caching, type = 2, size:402718720, device_id:0[FUNC:Alloc][FILE:device_allocator.cc][LINE:72]\n"
    ))
    assert diagnosis.get("id") == "DRV-code" and diagnosis.get("kind") == "npu-oom", diagnosis


@pytest.mark.parametrize("line", [
    "antiquantGroupSize should be 128 or 64, but actual antiquantGroupSize is [256].",
    "In the per-group scenario, antiquantGroupSize should be in range [32, 256], Actual is 16",
])
def test_camelcase_argument_check_pasted_alone_is_read(catalog, line):
    diagnosis = top(catalog, line + "\n")
    assert diagnosis.get("id") == "DRV-op-params" and diagnosis.get("kind") == "aclnn-param-unsupported", diagnosis


@pytest.mark.parametrize("line", [
    "the learningRate should be small, but actual runs differ",  # no camelCase name opens the check
    "INFO maxTokens should be 128 for this demo",  # no 'actual'
])
def test_prose_with_should_be_stays_quiet(catalog, line):
    assert top(catalog, line + "\n").get("id") != "DRV-op-params"


@pytest.mark.parametrize("raw, printed", [
    ("****(EngineCore_DP0 pid=1804) RuntimeError: Worker failed", "RuntimeError: Worker failed"),
    ("**RuntimeError: NPU out of memory.**", "RuntimeError: NPU out of memory.**"),
    # glog's failure-signal line keeps its stars: a space follows them
    ("*** SIGSEGV (@0x0) received by PID 4242 (TID 0x7f) from PID 0; stack trace: ***",
     "*** SIGSEGV (@0x0) received by PID 4242 (TID 0x7f) from PID 0; stack trace: ***"),
])
def test_markdown_emphasis_in_front_of_a_pasted_line_is_removed(raw, printed):
    from ascendrl.catalog.normalize import strip_prefixes

    assert strip_prefixes(raw)[0] == printed


@pytest.mark.parametrize("line", [
    # a compile of the user's own project, not a Triton launcher
    "subprocess.CalledProcessError: Command '['/usr/bin/gcc', 'src/foo.c', '-o', 'build/foo.o']' returned non-zero exit status 1.",
    "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit status 1.",
])
def test_other_compiles_are_not_a_triton_launcher(catalog, line):
    assert top(catalog, line + "\n").get("id") != "DRV-triton-launcher"


@pytest.mark.parametrize("line, code", [
    ("[drv api] halGetDeviceInfo failed, device_id=0, drv_ret=87", "drv:87"),  # hicann/runtime v8.5.0 runtime.cc
    ("Call halGetDeviceInfo failed: drvRet=87, module type=0, info type=1.", "drv:87"),  # runtime_keeper.cc
    ("halGetDeviceInfo get device type version failed , ret:87[FUNC:Init][FILE:config_manager.cpp][LINE:61]", "drv:87"),
])
def test_driver_return_codes_in_the_runtime_wordings(line, code):
    from ascendrl.catalog.codes import extract

    assert code in extract(line)


@pytest.mark.parametrize("line", ["a half of it failed, ret=87", "halt: the job failed, return 87"])
def test_a_ret_without_a_driver_call_is_no_driver_code(line):
    from ascendrl.catalog.codes import extract

    assert not any(c.startswith("drv:") for c in extract(line))


@pytest.mark.parametrize("line", [
    "RuntimeError in rollout worker on NPU: No CUDA GPUs are available",
    "No CUDA GPUs are available",
    "Torch not compiled with CUDA enabled",
])
def test_torch_cuda_refusals_without_their_type_are_read(catalog, line):
    assert top(catalog, line + "\n").get("kind") == "cuda-call-on-npu"


@pytest.mark.parametrize("line, kind", [
    ("main.cpp:25:19: fatal error: cstdint: No such file or directory", "gcc-too-old"),
    ("foo.c:1:10: fatal error: 'stdint.h' file not found", "gcc-too-old"),
    # a library's own header is that library's development files, not the toolchain
    ("op.cpp:3:10: fatal error: 'nlohmann/json.hpp' file not found", "build-header-missing"),
    ("/tmp/tmpx/main.c:5:10: fatal error: Python.h: No such file or directory", "python-dev-headers-missing"),
])
def test_missing_header_names_whose_files_are_missing(catalog, line, kind):
    assert top(catalog, line + "\n").get("kind") == kind


def test_tvm_ffi_segfault_banner_behind_a_worker_prefix_is_a_crash(catalog):
    diagnosis = top(catalog, "(EngineCore_DP0 pid=4242) !!!!!!! Segfault encountered !!!!!!!\n"
                             '  File "<unknown>", line 0, in ucs_topo_cleanup\n')
    assert diagnosis.get("id") == "DRV-process" and diagnosis.get("kind") == "process-segfault", diagnosis


def test_the_banner_quoted_inside_a_sentence_is_not_a_crash(catalog):
    assert top(catalog, "Note the `!!!!!!! Segfault encountered !!!!!!!` banner is tvm_ffi's signal handler\n").get("id") != "DRV-process"


@pytest.mark.parametrize("line", [
    "启动失败 详情: AttributeError: type object 'AscendMLABackend' has no attribute 'get_required_kv_cache_layout'。",
    "启动失败 详情：AttributeError: type object 'AscendMLABackend' has no attribute 'get_required_kv_cache_layout'。",
])
def test_exception_after_cjk_prose_and_either_colon(catalog, line):
    clf = Classifier(catalog)
    clf.feed_log(io.BytesIO((line + "\n").encode()), "paste.log")
    out = clf.result().to_json()
    assert out["diagnoses"] or (out["unknown"] or {}).get("type") == "AttributeError", out
