"""Session 37 (lead), from round 33's development half: a KeyError read from a dataset row by the source line Python
prints (DRV-dataset-columns), the assert statement of the sleep-mode allocators (ARL-E207), FSDP2's uniform-dtype check
(ARL-E2874) and NCCL's shared-memory segment failure (ARL-E2875)."""

from __future__ import annotations

import pytest


def _keyerror(source_line: str, key: str, func: str = "able_to_extract") -> str:
    return ("Traceback (most recent call last):\n"
            f'  File "/home/user/proj/data_process/reformat.py", line 68, in {func}\n'
            f"    {source_line}\n"
            f"KeyError: '{key}'\n")


@pytest.mark.parametrize("line", [
    'if len(tokenizer.encode(example["problem"])) > 700:',
    "answer = row['problem'].strip()",
    'text = sample[ "problem" ]',
])
def test_a_row_subscripted_with_the_missing_key_is_a_dataset_without_that_field(explain_text, line):
    _, top = explain_text(_keyerror(line, "problem"))
    assert top is not None and top.entry.id == "DRV-dataset-columns" and top.kind == "data-missing-field"
    assert "'problem'" in top.entry.title


@pytest.mark.parametrize("line, key", [
    ('lr = config["problem"]', "problem"),  # a configuration, not a row
    ('x = example["answer"]', "problem"),  # the line reads another key than the one missing
    ("value = cache[key]", "problem"),
])
def test_a_keyerror_that_reads_no_row_field_is_not_called_a_dataset_column(explain_text, line, key):
    _, top = explain_text(_keyerror(line, key, func="load"))
    assert top is None or top.entry.id != "DRV-dataset-columns"


@pytest.mark.parametrize("text, expected", [
    ('  File "/usr/local/lib/python3.10/site-packages/vllm/device_allocator/cumem.py", line 150, in __init__\n'
     '    assert "expandable_segments:True" not in conf, \\\nAssertionError\n', "ARL-E207"),
    ("AssertionError: FSDP expects uniform original parameter dtype but got {torch.float32, torch.bfloat16}\n", "ARL-E2874"),
    ("misc/shmutils.cc:132 NCCL WARN Error while creating shared memory segment /dev/shm/nccl-AbCdEf (size 9637888), "
     "error: No space left on device (28)\n"
     "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled system error\n", "ARL-E2875"),
])
def test_round_33_classes_are_named_from_the_emitters_wording(explain_text, text, expected):
    _, top = explain_text(text)
    assert top is not None and top.fatal and top.entry.id == expected


def test_the_fsdp1_flatten_check_keeps_its_own_entry(explain_text):
    _, top = explain_text("ValueError: Must flatten tensors with uniform dtype but got torch.bfloat16 and torch.float32\n")
    assert top is not None and top.entry.id == "ARL-E1760"


def _cut_at_auto(key: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/user/LLaMA-Factory/src/llamafactory/model/loader.py", line 104, in load_tokenizer\n'
            "    processor = AutoProcessor.from_pretrained(\n"
            f"KeyError: '{key}'\n")


@pytest.mark.parametrize("key", ["qwen3_next", "gemma3n", "qwen2_5_vl"])
def test_a_model_type_keyerror_cut_at_the_auto_class_call_is_an_old_transformers(explain_text, key):
    _, top = explain_text(_cut_at_auto(key))
    assert top is not None and top.entry.id == "DRV-package" and top.kind == "transformers-too-old"
    assert key in top.entry.title


@pytest.mark.parametrize("key", ["lm_head", "rope_type", "input_ids", "pad_token_id"])
def test_a_field_keyerror_at_the_auto_class_call_is_not_read_as_a_model_type(explain_text, key):
    _, top = explain_text(_cut_at_auto(key))
    assert top is None or top.kind != "transformers-too-old"


LAZY_EXPORT = (
    "Traceback (most recent call last):\n"
    '  File "/opt/conda/lib/python3.12/site-packages/torch_npu/_init/core/_exports.py", line 76, in _lazy_import_api\n'
    "    import_path, attr_name = _LAZY_PYTHON_SYMBOLS[name]\n"
    "KeyError: 'ops'\n\n"
    "The above exception was the direct cause of the following exception:\n\n"
    "Traceback (most recent call last):\n"
    '  File "{caller}", line 1, in <module>\n'
    '  File "/opt/conda/lib/python3.12/site-packages/torch_npu/_init/core/_exports.py", line 88, in __getattr__\n'
    "    return _lazy_import_api(name)\n"
    '  File "/opt/conda/lib/python3.12/site-packages/torch_npu/_init/core/_exports.py", line 78, in _lazy_import_api\n'
    "    raise AttributeError(\n"
    "AttributeError: module 'torch_npu' has no attribute 'ops'\n"
)


@pytest.mark.parametrize("caller, who", [
    ("<string>", "your code"),
    ("/opt/conda/lib/python3.12/site-packages/fla_npu/ops/loader.py", "fla"),
])
def test_a_modules_own_getattr_raises_for_its_caller(explain_text, caller, who):
    _, top = explain_text(LAZY_EXPORT.replace("{caller}", caller))
    assert top is not None and top.entry.id == "DRV-package"
    assert who in top.entry.title and "torch_npu" in top.entry.title


def test_an_attribute_error_inside_a_package_not_raised_by_getattr_stays_unpaired(explain_text):
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.12/site-packages/torch_npu/utils/x.py", line 3, in f\n'
            "    torch_npu.foo\n"
            "AttributeError: module 'torch_npu' has no attribute 'foo'\n")
    _, top = explain_text(text)
    assert top is None or top.entry.id != "DRV-package"


@pytest.mark.parametrize("line", [
    "RuntimeError: npu.npu_fusion_attention.default: got mixed torch.Tensor and DTensor, need to convert all torch.Tensor "
    "to DTensor before calling distributed operators!",
    "NotImplementedError: Operator npu.npu_rms_norm.default does not have a sharding strategy registered.",
])
def test_an_op_dtensor_cannot_shard_is_named(explain_text, line):
    _, top = explain_text(line + "\n")
    assert top is not None and top.fatal and top.entry.id == "ARL-E2876"
