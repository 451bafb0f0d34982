"""Readings the lead changed in the fifteenth stop (2026-12-06, issue #10).

- vLLM's CUDA extension that was never built or never imported (`No module named 'vllm._C'` earlier in the log) is why
  torch.ops._C lacks an op on a GPU host; on an NPU host the same warning is harmless (ARL-E203) and the op missing
  from torch.ops._C is vLLM's CUDA branch taken on the NPU.
"""

from __future__ import annotations

from ascendrl.catalog import load_catalog
from kdata_helpers import top

CATALOG = load_catalog()

# vllm/_custom_ops.py logs the first line (logger.warning("Failed to import from vllm._C with %r", e)) when importing its
# compiled extension fails; the call into the op then raises torch's _OpNamespace AttributeError.
OP_MISSING = (
    "  File \"/opt/conda/lib/python3.10/site-packages/vllm/model_executor/layers/activation.py\", line 91, in forward_cuda\n"
    "    ops.gelu_quick(out, x)\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/vllm/_custom_ops.py\", line 60, in gelu_quick\n"
    "    torch.ops._C.gelu_quick(out, x)\n"
    "  File \"/opt/conda/lib/python3.10/site-packages/torch/_ops.py\", line 1170, in __getattr__\n"
    "    raise AttributeError(\n"
    "AttributeError: '_OpNamespace' '_C' object has no attribute 'gelu_quick'\n"
)


def test_vllm_op_missing_after_vllm_c_failed_to_import_is_an_unbuilt_extension():
    text = "WARNING 08-31 15:52:40 _custom_ops.py:19] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")\n" + OP_MISSING
    assert top(CATALOG, text) == ("DRV-package", "vllm-kernels-not-built")


def test_vllm_op_missing_without_the_import_warning_stays_a_build_mismatch():
    found = top(CATALOG, OP_MISSING)
    assert found is not None and found[1] != "vllm-kernels-not-built"


def test_vllm_c_warning_on_an_npu_host_does_not_make_it_an_unbuilt_extension():
    text = ("INFO 08-25 10:12:03 [__init__.py:235] Platform plugin ascend is activated\n"
            "WARNING 08-25 10:12:03 [_custom_ops.py:20] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")\n"
            + OP_MISSING)
    found = top(CATALOG, text)
    assert found is not None and found[1] == "cuda-call-on-npu"
