"""Session 36 (lead): torch's embedding / index_select index check (ARL-E2776), from a round-31 development log
(realworld/dev/hf-nucleotide-transformer-500m-disc2.log; the wording confirmed in ATen's index_select_out_cpu_)."""

from __future__ import annotations

import pytest


EMBEDDING_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/train.py", line 40, in <module>\n'
    "    out = model(input_ids=batch[\"input_ids\"])\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/sparse.py", line 190, in forward\n'
    "    return F.embedding(\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py", line 2551, in embedding\n'
    "    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
    "IndexError: index out of range in self\n"
)


@pytest.mark.parametrize("text, expected", [
    (EMBEDDING_TRACEBACK, "ARL-E2776"),
    ("IndexError: index out of range in self\n", "ARL-E2776"),  # the line alone, as an issue title quotes it
])
def test_an_index_past_the_embedding_table_is_named(explain_text, text, expected):
    _, top = explain_text(text)
    assert top is not None and top.fatal and top.entry.id == expected


def test_a_python_list_index_error_is_not_the_embedding_check(explain_text):
    text = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    y = xs[9]\nIndexError: list index out of range\n"
    result, top = explain_text(text)
    assert result.fatal and (top is None or top.entry.id != "ARL-E2776")


@pytest.mark.parametrize("symbol, owner", [
    ("_ZN3c104cuda9SetDeviceEi", "torch"),  # c10::cuda::SetDevice(int)
    ("_ZNK3c1010TensorImpl27throw_data_ptr_access_errorEv", "torch"),
    ("_Z16THPVariable_WrapN2at10TensorBaseE", "torch"),  # torch's Python binding
    ("_ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE", "torch"),
    # an extension's own member function that takes an at::Tensor: its parameters are torch's, the function is not
    ("_ZN21deepspeed_io_handle_t18_create_io_op_descEbRKN2at6TensorEiPKcbl", ""),
    ("_ZN3atb9OperationD2Ev", "atb"),
])
def test_a_missing_symbol_belongs_to_its_first_name_component(symbol, owner):
    from ascendrl.catalog.analyzers.package import owner_of_symbol

    assert owner_of_symbol(symbol) == owner


def test_an_extension_lacking_its_own_function_is_a_build_defect_not_a_torch_pair(explain_text):
    own = "ImportError: /x/async_io.so: undefined symbol: _ZN21deepspeed_io_handle_t18_create_io_op_descEbRKN2at6TensorEiPKcbl\n"
    _, top = explain_text(own)
    assert top.entry.id == "DRV-package" and top.kind == "custom-ops-build-failed"
    torchs = "ImportError: /x/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
    _, top = explain_text(torchs)
    assert top.entry.id == "DRV-package" and top.kind != "custom-ops-build-failed"


@pytest.mark.parametrize("line, kind", [
    ("ValueError: FSDP requires PyTorch >= 2.1.0", "torch-too-old"),  # accelerate's Accelerator (FastChat#2809)
    ("ValueError: FSDP requires PyTorch >= 1.12.0", "torch-too-old"),  # transformers' Trainer
    ("RuntimeError: this feature requires transformers >= 4.45.0", "transformers-too-old"),
    ("ImportError: requires Python>=3.10", "python-too-old"),
])
def test_a_check_naming_its_minimum_release_says_the_installed_one_is_older(explain_text, line, kind):
    result, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == "DRV-package" and top.kind == kind, result


def test_a_requirement_without_a_lower_bound_is_not_read_as_too_old(explain_text):
    _, top = explain_text("ValueError: requires torch == 2.1.0 exactly\n")
    assert top is None or top.kind != "torch-too-old"


@pytest.mark.parametrize("text, fatal", [
    # Ray 2.x (as SkyRL's and other threads quote it)
    ("ValueError: Can't find a `node_ip_address.json` file from /tmp/ray/session_2026-01-27_23-34-45_963846_7. for 60 "
     "seconds. A ray instance hasn't started. Did you do `ray start` or `ray.init` on this host?\n", True),
    # the line Ray logs every 10 s while it waits (ray#47925 quotes it; node.py): the file may still appear
    ("Can't find a `node_ip_address.json` file from /tmp/ray/session_2024-10-07_21-57-36_582530_3941. Have you started "
     "Ray instance using `ray start` or `ray.init`?\n", False),
    # the GCS client's retry line alone: the driver waits, nothing has failed yet
    ("[2023-03-03 07:49:06,910 W 1731 1732] global_state_accessor.cc:390: Some processes that the driver needs to connect "
     "to have not registered with GCS, so retrying. Have you run 'ray start' on this node?\n", False),
])
def test_a_driver_on_a_machine_outside_the_cluster_is_named(explain_text, text, fatal):
    result, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E2770" and top.fatal == fatal and result.fatal == fatal


def test_swift_rollout_server_unreachable(explain_text):
    _, top = explain_text("requests.exceptions.ConnectionError: Servers not reachable after 240.0s: ['http://10.0.0.5:8000']\n")
    assert top is not None and top.entry.id == "ARL-E2802" and top.fatal


def test_a_std_function_over_torch_types_is_not_the_extensions_own_code():
    from ascendrl.catalog.analyzers.package import _extension_own_function

    assert _extension_own_function("_ZNSt6vectorIN2at6TensorESaIS1_EE17_M_realloc_insertIJRKS1_EEEvN9__gnu_cxx17__normal_iteratorIPS1_S3_EEDpOT_") is None
    assert _extension_own_function("_ZN21deepspeed_io_handle_t18_create_io_op_descEbRKN2at6TensorEiPKcbl") == "deepspeed_io_handle_t"
