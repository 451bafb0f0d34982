"""Package-pair readings that need no catalog entry of the thread (k25pkg).

1. A traceback cut off inside a version check (no exception line): transformers' ``require_version`` /
   ``require_version_core`` / ``_compare_versions`` (utils/versions.py), the import-time check of
   dependency_versions_check.py and LLaMA-Factory's ``check_dependencies`` / ``check_version`` (extras/misc.py) can
   only raise because an installed dependency is outside the pinned range, so the cut paste is read as a package
   mismatch. The paste is LlamaFactory#7827's.
2. torch's custom-op schema inference refusing a builtin-generic annotation ("infer_schema(func): Parameter block_size
   has unsupported type list[int]", torch/_library/infer_schema.py): torch releases whose table has only the typing.List /
   typing.Optional forms refuse list[int] and "X | None", so the package registering the op (vLLM, its plugins) was
   written for a newer torch. The title is vllm-ascend#1776's; its " | " separators are read as a lead-in, as a colon is.
3. An exception message that ends in a colon and goes on over the next lines, one of which is dlerror's "undefined symbol:
   <mangled>" (Paddle's custom-device loader, "Fail to open library: <so> with error: <dlerror()>"): the symbol line is
   read as the message's substance, a compiled library built against another release. The paste is
   PaddleCustomDevice#2452's.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog


def _top(text: str) -> dict:
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    return (data.get("diagnoses") or [{}])[0]


# source: https://github.com/hiyouga/LlamaFactory/issues/7827 (the paste ends at the check's frame)
CUT_CHECK = """Traceback (most recent call last):
  File "/envs/llama_factory/bin/llamafactory-cli", line 8, in <module>
    sys.exit(main())
  File "/data/LLaMA-Factory/src/llamafactory/cli.py", line 39, in main
    from . import launcher
  File "/data/LLaMA-Factory/src/llamafactory/hparams/parser.py", line 47, in <module>
    check_dependencies()
  File "/data/LLaMA-Factory/src/llamafactory/extras/misc.py", line 92, in check_dependencies
"""


def test_a_cut_inside_transformers_require_version_is_read_the_same():
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.10/site-packages/transformers/dependency_versions_check.py", line 41, in <module>\n'
            "    require_version_core(deps[pkg])\n"
            '  File "/opt/conda/lib/python3.10/site-packages/transformers/utils/versions.py", line 111, in require_version\n')
    top = _top(text)
    assert top.get("kind") == "package-mismatch" and "require_version" in top.get("title", "")


def test_a_cut_inside_another_function_is_not_a_version_check():
    text = CUT_CHECK.replace("extras/misc.py\", line 92, in check_dependencies", "extras/misc.py\", line 120, in count_parameters")
    assert "version check" not in _top(text).get("title", "")


# source: https://github.com/vllm-project/vllm-ascend/issues/1776 (the issue title, cut at GitHub's length limit)
SCHEMA_TITLE = ("[Bug]: Verl qwen2.5 grpo | vllm-ascend 091-dev | ValueError: infer_schema(func): Parameter block_size has "
                "unsupported type list[in\n")


def test_a_registered_op_with_a_builtin_generic_names_the_registering_package():
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.10/site-packages/vllm/utils.py", line 2200, in direct_register_custom_op\n'
            "    schema_str = torch.library.infer_schema(op_func, mutates_args=mutates_args)\n"
            '  File "/usr/local/lib/python3.10/site-packages/torch/_library/infer_schema.py", line 106, in infer_schema\n'
            "    error_fn(\n"
            "ValueError: infer_schema(func): Parameter block_size has unsupported type list[int]. The valid types are: "
            "dict_keys([<class 'torch.Tensor'>]). Got func with signature (x: torch.Tensor, block_size: list[int]) -> torch.Tensor)\n")
    top = _top(text)
    assert top.get("kind") == "package-mismatch"
    assert top.get("title", "").startswith("torch's custom-op schema inference does not accept list[int]: vllm")


def test_an_unsupported_class_annotation_is_not_a_torch_too_old():
    text = ("ValueError: infer_schema(func): Parameter x has unsupported type <class 'numpy.ndarray'>. "
            "The valid types are: dict_keys([]).\n")
    assert "newer torch" not in _top(text).get("title", "")


# source: https://github.com/PaddlePaddle/PaddleCustomDevice/issues/2452
FAIL_TO_OPEN = """ValueError: (InvalidArgument) Fail to open library: 
/usr/local/lib/python3.10/dist-packages/paddle_custom_device/libpaddle-custom-npu.so 
with error: /usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib/libtbe_adapter.so: 
undefined symbol: _ZN3Mki2DlC1ERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEb
"""


def test_a_complete_message_does_not_take_a_later_symbol_line():
    text = FAIL_TO_OPEN.replace("Fail to open library: ", "Fail to open library.", 1)
    assert _top(text).get("id") != "DRV-package"


@pytest.mark.parametrize("paste, words", [
    (CUT_CHECK, "check_dependencies"),  # a cut traceback
    (SCHEMA_TITLE, "newer torch"),  # an issue title with " | " separators
    (FAIL_TO_OPEN, "_ZN3Mki2Dl"),  # a message continued over the next lines
], ids=["llamafactory-7827", "vllm-ascend-1776", "paddlecustomdevice-2452"])
def test_each_real_paste_is_read_as_a_package_mismatch(paste, words):
    top = _top(paste)
    assert (top.get("id"), top.get("kind")) == ("DRV-package", "package-mismatch")
    assert words in top.get("title", "")
