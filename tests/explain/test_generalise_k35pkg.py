"""Readings added by the knowledge helper k35pkg (2026-12-04), each written from the emitting project's source.

ARL-E2780: an inference runtime whose installed build lacks the backend / execution provider the program asked for.
FastDeploy's RuntimeOption::Use<X>Backend is an FDASSERT(false, "The FastDeploy didn't compile with <X>.") when the
backend was not compiled in (fastdeploy/runtime/runtime_option.cc; PaddleX's ultra_infer fork prints "UltraInfer");
sherpa-onnx's StringToProvider logs "Unsupported string: <s>. Fallback to cpu" for a provider its build does not know
(sherpa-onnx/csrc/provider.cc; the Ascend NPU / RKNN back ends need their own build option). Golden cases come from
FastDeploy#2140 and sherpa-onnx#2113; the lines below are other wordings of the same templates.
"""

from __future__ import annotations

import pytest
from kdata_helpers import classify


def _top(catalog, text: str):
    """The explanation of a pasted text and its top diagnosis as JSON (None when nothing was found)."""
    explanation = classify(catalog, text)
    data = explanation.to_json()
    return explanation, (data["diagnoses"][0] if data["diagnoses"] else None)


@pytest.mark.parametrize("line", [
    "[ERROR] fastdeploy/runtime/runtime_option.cc(181)::UsePaddleBackend\tThe FastDeploy didn't compile with Paddle Inference.",
    "[ERROR] fastdeploy/runtime.cc(271)::UseOrtBackend The FastDeploy didn't compile with OrtBackend.",
    "UseLiteBackend The FastDeploy didn't compile with Paddle Lite.",
    "[ERROR] ultra_infer/runtime/runtime_option.cc(197)::UseOpenVINOBackend\tThe UltraInfer didn't compile with OpenVINO.",
])
def test_a_backend_the_fastdeploy_build_lacks_is_fatal(catalog, line):
    explanation, top = _top(catalog, line + "\nAborted (core dumped)\n")
    assert top is not None and top["id"] == "ARL-E2780"
    assert explanation.fatal


def test_fastdeploys_device_fallback_warning_is_not_read(catalog):
    # "didn't compile with GPU, will force to use CPU" is an FDWARNING: the run goes on with the CPU
    _, top = _top(catalog, "[WARNING] fastdeploy/runtime/runtime_option.cc(42)::UseGpu\t"
                  "The FastDeploy didn't compile with GPU, will force to use CPU.\n")
    assert top is None or top["id"] != "ARL-E2780"


@pytest.mark.parametrize("provider", ["ascend", "rknn", "axcl"])
def test_a_provider_string_sherpa_onnx_does_not_know_is_a_warning(catalog, provider):
    explanation, top = _top(catalog, f"/project/sherpa-onnx/csrc/provider.cc:StringToProvider:32 Unsupported string: {provider}. "
                            "Fallback to cpu\n")
    assert top is not None and top["id"] == "ARL-E2780"
    assert not explanation.fatal  # sherpa-onnx goes on with the CPU


# msprobe's PrecisionDebugger (class_owners.yaml): a framework driving Ascend's precision tool with the keywords of
# another msprobe release is the pair, read by DRV-package whatever keyword or framework (the line alone, or under
# the caller's frame).
@pytest.mark.parametrize("text", [
    "TypeError: PrecisionDebugger.start() got an unexpected keyword argument 'token_range'\n",
    ('  File "/opt/venv/lib/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", line 2100, in execute_model\n'
     "    self.debugger.start(model=self.model, scheduled_tokens=num_scheduled_tokens)\n"
     "TypeError: PrecisionDebugger.start() got an unexpected keyword argument 'scheduled_tokens'\n"),
])
def test_msprobe_precision_debugger_keyword_is_a_package_pair(catalog, text):
    _, top = _top(catalog, text)
    assert top is not None and top["id"] == "DRV-package" and top["kind"] == "package-mismatch"
    assert "msprobe" in top["title"]


def test_an_application_class_of_another_name_is_not_assigned_to_msprobe(catalog):
    _, top = _top(catalog, "TypeError: PrecisionRecorder.start() got an unexpected keyword argument 'token_range'\n")
    assert top is None or "msprobe" not in top.get("title", "")


@pytest.mark.parametrize("provider", ["CANNExecutionProvider", "CUDAExecutionProvider", "VitisAIExecutionProvider"])
def test_an_execution_provider_the_onnxruntime_build_lacks_is_a_warning(catalog, provider):
    explanation, top = _top(
        catalog,
        "/usr/local/lib/python3.11/site-packages/onnxruntime/capi/onnxruntime_inference_collection.py:115: UserWarning: "
        f"Specified provider '{provider}' is not in available provider names.Available providers: "
        "'AzureExecutionProvider, CPUExecutionProvider'\n  warnings.warn(\n")
    assert top is not None and top["id"] == "ARL-E2780"
    assert not explanation.fatal  # ONNX Runtime runs the session on the providers it has


def test_a_later_fatal_failure_outranks_the_provider_warning(catalog):
    _, top = _top(
        catalog,
        "UserWarning: Specified provider 'CUDAExecutionProvider' is not in available provider names.Available providers: "
        "'CPUExecutionProvider'\n"
        "Traceback (most recent call last):\n"
        '  File "/home/user/train.py", line 3, in <module>\n'
        "    import sentencepiece\n"
        "ModuleNotFoundError: No module named 'sentencepiece'\n")
    assert top is not None and top["id"] != "ARL-E2780" and top["fatal"]


# ARL-E2781: ONNX Runtime's logged failure to load an execution provider's library (it then runs on the CPU).
def test_an_execution_provider_library_onnxruntime_could_not_load_is_a_warning(catalog):
    explanation, top = _top(
        catalog,
        "2025-09-29 06:21:38.967642262 [E:onnxruntime:Default, provider_bridge_ort.cc:2223 TryGetProviderInfo_CANN] "
        "/onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1778 onnxruntime::Provider& "
        "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
        "libonnxruntime_providers_cann.so with error: libruntime.so: cannot open shared object file: No such file or directory\n"
        "Falling back to ['CPUExecutionProvider'] and retrying.\n")
    assert top is not None and top["id"] == "ARL-E2781"
    assert not explanation.fatal


def test_the_raised_provider_load_failure_stays_with_the_analyzers(catalog):
    # raised (no fallback): a Python exception, fatal, judged by DRV-library (a CUDA library on the host)
    explanation, top = _top(
        catalog,
        "Traceback (most recent call last):\n"
        '  File "/home/user/infer.py", line 5, in <module>\n'
        "    sess = ort.InferenceSession('m.onnx', providers=['CUDAExecutionProvider'])\n"
        "RuntimeError: /onnxruntime_src/onnxruntime/core/session/provider_bridge_ort.cc:1193 onnxruntime::Provider& "
        "onnxruntime::ProviderLibrary::Get() [ONNXRuntimeError] : 1 : FAIL : Failed to load library "
        "libonnxruntime_providers_cuda.so with error: libcudart.so.11.0: cannot open shared object file: No such file or directory\n")
    assert explanation.fatal
    assert top is not None and top["id"] != "ARL-E2781"


# ARL-E2782: SGLang's PD decode-side bootstrap_room check (disaggregation/decode.py), and what follows it.
def test_the_pd_metadata_collision_outranks_the_abort_it_leads_to(catalog):
    _, top = _top(
        catalog,
        "[2026-05-01 10:00:00 DP2 TP2] Context corruption detected: Request 0f3c2a (bootstrap_room=123456789) received "
        "metadata from bootstrap_room=987654321. Metadata buffer index: 7. This indicates metadata buffer index collision.\n"
        "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
        "  what():  [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 4 vs 3\n"
        "Fatal Python error: Aborted\n")
    assert top is not None and top["id"] == "ARL-E2782"


def test_a_gloo_abort_alone_is_not_read_as_the_collision(catalog):
    _, top = _top(catalog, "terminate called after throwing an instance of 'gloo::EnforceNotMet'\n"
                  "  what():  [enforce fail at /pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:456] op.preamble.length <= op.nbytes. 4 vs 3\n")
    assert top is not None and top["id"] != "ARL-E2782"
