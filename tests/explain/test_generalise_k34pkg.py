"""Readings from the k34pkg leave-thread-out misses (compat / user families), each written from the emitter's source.

- vLLM's multiprocess executor re-raises a worker's failure as text ("Worker failed with error '<str(e)>', please check
  the stack trace above for the root cause", vllm/v1/executor/multiproc_executor.py): the quoted text is read as the
  cause under the wrapper, with the type its form states.
- A serving backend's NPU path that has no support for the model (DRV-model-path): vllm-ascend reading a text-model
  attribute from a composite (multimodal) transformers config (vllm-ascend#1183, Gemma 3), and vllm-ascend's ACL
  graph set-up meeting an attention builder of vLLM's own that has no aclgraph_support (vllm-ascend#5005, Qwen3-Next).
- vLLM's refusal of an architecture read when the paste ends inside the sentence (an issue title cut at its limit).

The golden pastes are tests/explain/derived/npu_path_composite_config_gemma3.log and npu_graph_builder_gdn_worker_quoted.log;
the tests here check the edges: what must not be read so.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog import chain as chains
from ascendrl.catalog.analyzers.modelarch import UNSUPPORTED


def _top(text: str):
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    return (data.get("diagnoses") or [None])[0], data.get("unknown")


@pytest.mark.parametrize("quoted, kind", [
    ("'GDNAttentionMetadataBuilder' object has no attribute 'aclgraph_support'", "AttributeError"),
    ("type object 'AscendMLABackend' has no attribute 'get_required_kv_cache_layout'", "AttributeError"),
    ("'model.layers.0.mlp.gate_up_proj.weight_scale'", "KeyError"),
    ("No module named 'vllm_ascend.compilation'", "ModuleNotFoundError"),
    ("start (0) + length (1024) exceeds dimension size (768).", "Exception"),
])
def test_the_worker_failure_a_vllm_executor_quotes_is_read_with_its_type(quoted, kind):
    message = f"Worker failed with error '{quoted}', please check the stack trace above for the root cause"
    assert chains.quoted_cause(message) == (kind, quoted)


@pytest.mark.parametrize("message", [
    "Worker failed with error '', please check the stack trace above for the root cause",  # the worker sent nothing
    "Worker failed with error 'x'",  # not the executor's sentence
    "Engine core initialization failed. See root cause above.",
])
def test_no_quoted_cause(message):
    assert chains.quoted_cause(message) is None


def test_the_quoted_cause_is_the_root_under_the_wrapper():
    text = ("Traceback (most recent call last):\n"
            '  File "/x/site-packages/vllm/v1/executor/multiproc_executor.py", line 248, in get_response\n'
            "    raise RuntimeError(\n"
            "RuntimeError: Worker failed with error ''GDNAttentionMetadataBuilder' object has no attribute "
            "'aclgraph_support'', please check the stack trace above for the root cause\n")
    top, _ = _top(text)
    assert top is not None and top["id"] == "DRV-model-path" and top["kind"] == "model-unsupported-on-npu-backend"


def test_an_empty_quote_leaves_the_wrapper_unexplained():
    text = ("RuntimeError: Worker failed with error '', please check the stack trace above for the root cause\n")
    top, unknown = _top(text)
    assert top is None and unknown is not None and unknown["type"] == "RuntimeError"


COMPOSITE = (
    "Traceback (most recent call last):\n"
    '  File "/w/{pkg}/{file}", line 307, in {func}\n'
    "    num_hidden_layers = vllm_config.model_config.hf_config.num_hidden_layers\n"
    '  File "/usr/lib/python3.10/site-packages/transformers/configuration_utils.py", line 211, in __getattribute__\n'
    "    return super().__getattribute__(key)\n"
    "AttributeError: '{cls}' object has no attribute 'num_hidden_layers'\n"
)


def test_an_npu_plugin_reading_a_composite_config_has_no_path_for_the_model():
    top, _ = _top(COMPOSITE.format(pkg="vllm_ascend", file="utils.py", func="update_aclgraph_sizes", cls="Gemma3Config"))
    assert top["id"] == "DRV-model-path" and top["kind"] == "model-unsupported-on-npu-backend"
    assert "text_config" in top["cause"]


@pytest.mark.parametrize("pkg, cls", [
    ("vllm", "Gemma3Config"),  # vLLM's read: a pair that does not match or a release before the model; frames don't say
    ("vllm_ascend", "AscendQuantConfig"),  # no transformers __getattribute__ frame below it: the NPU plugin's own config
])
def test_other_readers_and_configs_are_not_read_so(pkg, cls):
    text = COMPOSITE.format(pkg=pkg, file="config.py", func="f", cls=cls)
    if cls == "AscendQuantConfig":
        text = text.replace('  File "/usr/lib/python3.10/site-packages/transformers/configuration_utils.py", line 211, '
                            'in __getattribute__\n    return super().__getattribute__(key)\n', "")
    top, _ = _top(text)
    assert top is None or top["id"] != "DRV-model-path"


def test_an_ascend_builder_without_the_flag_is_not_a_model_without_a_path():
    text = ("AttributeError: 'AscendAttentionMetadataBuilder' object has no attribute 'aclgraph_support'\n")
    top, _ = _top(text)
    assert top is None or top["id"] != "DRV-model-path"


@pytest.mark.parametrize("message, read", [
    ("Model architectures ['Qwen2ForSequenceClassification'] are not supported for no", True),
    ("Model architectures ['Qwen2ForSequenceClassification'] are not supported for now", True),
    ("Model architectures ['Qwen2ForSequenceClassification'] are not supported for now. Supported architectures: ['A']", True),
    ("Model architectures ['Qwen2ForSequenceClassification'] are not supported for nothing", False),
])
def test_vllm_refusal_cut_inside_its_sentence(message, read):
    assert (UNSUPPORTED.search(message) is not None) is read


def test_a_cut_refusal_names_the_architecture():
    top, _ = _top("ValueError: Model architectures ['Qwen2ForSequenceClassification'] are not supported for no\n")
    assert top["id"] in ("DRV-model-arch", "ARL-E228") and "Qwen2ForSequenceClassification" in top["title"]


@pytest.mark.parametrize("prefix", [
    "/usr/local/Ascend/ascend-toolkit/latest/tools/tikcpp/tikcfw/impl/dav_c100/kernel_operator_vec_vconv_impl.h:450:5",
    "/usr/local/Ascend/cann-8.2.RC1/compiler/tikcpp/tikcfw/impl/dav_c220/kernel_operator_vec_vconv_impl.h:402:9",
])
def test_a_compile_error_inside_ascendc_headers_is_a_custom_op_build_failure(prefix):
    top, _ = _top(f"{prefix}: error: no matching function for call to 'CastIntrinsicsImpl'\n")
    assert top["id"] == "DRV-ascendc-compile" and top["kind"] == "custom-ops-build-failed"
    assert "dav_c" in top["title"]


@pytest.mark.parametrize("line", [
    "/home/user/csrc/kernels/get_row_q4_0.cpp:450:5: error: no matching function for call to 'CastIntrinsicsImpl'",
    # a sanitizer's frame in the same headers is not a compile error
    "======    #0 /usr/local/Ascend/ascend-toolkit/8.3.RC2/aarch64-linux/tikcpp/tikcfw/impl/dav_c220/kernel_operator_data_copy_impl.h:77:9",
    "/usr/local/Ascend/ascend-toolkit/latest/tools/tikcpp/tikcfw/impl/dav_c100/kernel_operator_vec_vconv_impl.h:402:9: note: in instantiation",
])
def test_other_lines_are_not_an_ascendc_build_failure(line):
    top, _ = _top(line + "\n")
    assert top is None or top["id"] != "DRV-ascendc-compile"


ROPE = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.10/site-packages/vllm/config.py", line 1746, in _get_and_verify_max_len\n'
    "    assert {cond}\n"
    "AssertionError\n"
)


def test_an_assert_that_opens_with_a_string_literal_is_read_as_the_condition():
    # vllm#8281 / #8388: the bare assert under vLLM's max-length check, its condition opening with a quoted key
    top, _ = _top(ROPE.format(cond='"factor" in rope_scaling'))
    assert top["id"] == "DRV-own-check" and top["kind"] == "package-mismatch"
    assert "rope_scaling" in top["title"]


def test_another_assert_on_rope_scaling_is_not_this_check():
    top, _ = _top(ROPE.format(cond='"type" in rope_scaling'))
    assert top is None or "factor" not in (top.get("title") or "")


ENUM = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.11/site-packages/vllm_ascend/core/scheduler.py", line 88, in schedule\n'
    "    if request.status == RequestStatus.WAITING_FOR_FSM:\n"
    '  File "/usr/local/lib/python3.11/enum.py", line 786, in __getattr__\n'
    "    raise AttributeError(name) from None\n"
    "AttributeError: WAITING_FOR_FSM\n"
)


def test_a_bare_member_name_from_enum_lookup_is_a_release_mismatch():
    # CPython 3.11 Lib/enum.py EnumMeta.__getattr__: raise AttributeError(name) from None
    top, _ = _top(ENUM)
    assert top["id"] == "DRV-package" and top["kind"] == "package-mismatch"
    assert "WAITING_FOR_FSM" in top["title"] and top["title"].startswith("vllm-ascend")


@pytest.mark.parametrize("text", [
    ENUM.replace('  File "/usr/local/lib/python3.11/enum.py", line 786, in __getattr__\n'
                 "    raise AttributeError(name) from None\n", ""),  # raised by the caller's own code, not Enum's lookup
    "AttributeError: waiting_for_fsm\n",  # not a member name's shape
    "AttributeError: OK\n",
])
def test_other_attribute_errors_are_not_an_enum_member(text):
    top, _ = _top(text)
    assert top is None or "member the installed release's enum" not in (top.get("title") or "")
