"""Readings generalised from the leave-thread-out misses of the ray / data-model / hccl / memory families (k34rt).

- vLLM says what it serves: its engine banner's ``quantization=<method>`` (VllmConfig.__str__), the model runners'
  ``Starting to load model <path>...`` and the platform plugin loader's ``Platform plugin ascend is activated``. A
  KeyError on a weight name while vllm-ascend loads a checkpoint vLLM states is quantized (by the banner, or a format in
  the model's name: …-AWQ, …-GPTQ-Int4) is the quantized-weights reading (analyzers/quantload.py), although the failing
  line names neither the quantization nor the NPU (the plugin line counts as the Ascend stack for every analyzer,
  Facts.npu). The same KeyError with neither stated stays unread.
- transformers' generic ``Can't load the configuration of '<path>'`` (PretrainedConfig._get_config_dict: a non-OSError
  from cached_file, HFValidationError for a path that is no local folder and no repo id) is ARL-E108's missing
  local model path, for path-shaped names only.
- Ray refusing a bundle index past a placement group's bundles (check_placement_group_index) is ARL-E2740: more
  workers placed into the group than it has bundles (vLLM's Ray executor in a caller's group, RL rollout engines).
- torch_npu's own data-type checks in its HCCL process group ("Unsupported data type for HCCL process group",
  "HCCL <function>: Unsupported data type at::…") are DRV-hccl-dtype's class, as CANN's EI0003 is one layer down.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.run_settings import RunSettings


def _explain(text: str):
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _top(text: str):
    explanation = _explain(text)
    return explanation.diagnoses[0] if explanation.diagnoses else None


def _top_id(text: str) -> str | None:
    top = _top(text)
    return top.entry.id if top is not None else None


# Lines as vLLM / vllm-ascend print them (vllm-ascend#1233's start-up, the V1 banner's fields).
PLUGIN = "INFO 06-13 06:58:51 [__init__.py:230] Platform plugin ascend is activated\n"
KEYERROR = "ERROR 06-13 06:59:07 [engine.py:448] 'model.layers.0.self_attn.q_proj.weight'\nKeyError: 'model.layers.0.self_attn.q_proj.weight'\n"


def test_settings_read_the_served_model_quantization_and_platform():
    settings = RunSettings()
    settings.feed("a.log", "INFO 06-13 06:58:51 [__init__.py:230] Platform plugin ascend is activated")
    settings.feed("a.log", "INFO 06-13 06:59:07 [model_runner.py:943] Starting to load model /models/Qwen3-14B-AWQ...")
    assert settings.served("a.log") == (None, "/models/Qwen3-14B-AWQ")
    assert settings.platforms() == {"ascend"}
    other = RunSettings()
    other.feed("b.log", "INFO 01-01 00:00:00 [core.py:1] Initializing a V1 LLM engine (v0.9.1) with config: model='/m/Qwen3-8B', "
                        "dtype=torch.bfloat16, max_seq_len=4096, quantization=gptq, enforce_eager=False")
    assert other.served("b.log")[0] == "gptq"
    none = RunSettings()
    none.feed("c.log", "INFO 01-01 00:00:00 [core.py:1] Initializing a V1 LLM engine (v0.9.1) with config: model='/m/Qwen3-8B', "
                       "quantization=None, enforce_eager=False")
    assert none.served("c.log")[0] is None


@pytest.mark.parametrize("loaded", ["/QwenQwen3-14B-AWQ", "Qwen/Qwen2.5-7B-Instruct-GPTQ-Int4", "/data/models/qwen2_w8a8/"])
def test_a_weight_keyerror_of_a_model_served_quantized_on_ascend_is_the_quantization(loaded):
    text = PLUGIN + f"INFO 06-13 06:59:07 [model_runner.py:943] Starting to load model {loaded}...\n" + KEYERROR
    top = _top(text)
    assert top is not None and top.kind == "quant-method-unsupported-on-npu"


def test_the_banner_quantization_counts_too():
    text = (PLUGIN + "INFO 01-01 00:00:00 [core.py:1] Initializing a V1 LLM engine (v0.9.1) with config: model='/m/Qwen3-8B', "
            "dtype=torch.bfloat16, max_seq_len=4096, quantization=awq, enforce_eager=False\n" + KEYERROR)
    top = _top(text)
    assert top is not None and top.kind == "quant-method-unsupported-on-npu"


@pytest.mark.parametrize("text", [
    # not quantized: a plain checkpoint's missing weight is an architecture / checkpoint question
    PLUGIN + "INFO 06-13 06:59:07 [model_runner.py:943] Starting to load model /models/Qwen3-14B...\n" + KEYERROR,
    # quantized, but nothing says the engine runs on Ascend
    "INFO 06-13 06:59:07 [model_runner.py:943] Starting to load model /models/Qwen3-14B-AWQ...\n" + KEYERROR,
])
def test_without_both_the_keyerror_is_not_the_quantization(text):
    top = _top(text)
    assert top is None or top.kind != "quant-method-unsupported-on-npu"


@pytest.mark.parametrize("path", ["/data/Qwen/Qwen3-0.6B", "./checkpoints/actor", "ckpt/global_step_10/hf", "C:\\models\\bert"])
def test_transformers_generic_config_error_on_a_path_is_the_missing_model_path(path):
    text = (f"OSError: Can't load the configuration of '{path}'. If you were trying to load it from "
            "'https://huggingface.co/models', make sure you don't have a local directory with the same name. Otherwise, "
            f"make sure '{path}' is the correct path to a directory containing a config.json file\n")
    assert _top_id(text) == "ARL-E108"


def test_a_repo_shaped_name_is_not_read_as_a_missing_path():
    text = ("OSError: Can't load the configuration of 'bert-base-uncased'. If you were trying to load it from "
            "'https://huggingface.co/models', make sure you don't have a local directory with the same name.\n")
    assert _top_id(text) != "ARL-E108"


# torch_npu's own data-type checks in its HCCL process group (HCCLUtils.cpp getHcclDataType, ProcessGroupHCCL.cpp
# checkSupportedDataType), read by DRV-hccl-dtype as the class CANN's EI0003 states at the HCCL layer.
def _hccl_dtype(line: str):
    """DRV-hccl-dtype's finding on a one-line exception link."""
    from ascendrl.catalog.analyzers import hccl
    from ascendrl.catalog.chain import Chain, Link

    exc_type, message = line.split(": ", 1)
    link = Link(kind="python", type=exc_type, message=message, line=1, file="paste.log", text=line)
    return hccl.HcclDataType().analyze(link, Chain("paste.log"), None)


@pytest.mark.parametrize("line, dtype", [
    ("RuntimeError: Unsupported data type for HCCL process group[ERROR] 2024-05-01-10:00:00 (PID:1, Device:0, RankID:0) "
     "ERR02007 DIST not support", ""),
    ("RuntimeError: HCCL AllReduce & Reduce: Unsupported data type at::kByte/at::kBool", "at::kByte/at::kBool"),
    ("RuntimeError: HCCL reduce_scatter: Unsupported data type at::kByte/at::kBool[ERROR] 2025-01-01-00:00:00 "
     "(PID:1, Device:0, RankID:0) ERR02007 DIST not support", "at::kByte/at::kBool"),
])
def test_torch_npu_hccl_dtype_checks_are_the_dtype_reading(line, dtype):
    finding = _hccl_dtype(line)
    assert finding is not None and finding.kind == "hccl-dtype-unsupported"
    assert dtype in finding.title


def test_other_unsupported_dtype_messages_are_not_hccl():
    assert _hccl_dtype("TypeError: Got unsupported ScalarType BFloat16") is None


# Ray's check_placement_group_index (python/ray/util/placement_group.py): older releases print "0-<count>", newer
# ones "0 to <count-1>."; the shape check beside it is another failure and stays unread by ARL-E2740.
@pytest.mark.parametrize("line", [
    "ValueError: placement group bundle index 6 is invalid. Valid placement group indexes: 0-4",
    "ValueError: placement group bundle index 8 is invalid. Valid placement group indexes: 0 to 7.",
])
def test_a_bundle_index_past_the_group_is_the_bundle_shortfall(line):
    assert _top_id(line + "\n") == "ARL-E2740"


def test_the_bundle_shape_check_is_not_the_index_check():
    line = ("ValueError: Cannot schedule Worker with the placement group because the resource request {'GPU': 2} cannot "
            "fit into any bundles for the placement group, [{'GPU': 1.0}].\n")
    assert _top_id(line) != "ARL-E2740"
