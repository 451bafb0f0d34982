"""Readings the lead changed in the fifteenth stop (2026-12-06, issue #10).

- vLLM's CUDA extension that was never built or never imported (`No module named 'vllm._C'` earlier in the log) is why
  torch.ops._C lacks an op on a GPU host; on an NPU host the same warning is harmless (ARL-E203) and the op missing
  from torch.ops._C is vLLM's CUDA branch taken on the NPU.
"""

from __future__ import annotations

from ascendrl.catalog import load_catalog
from kdata_helpers import classify, top

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


def test_vllm_ascend_library_refused_by_glibc_still_explains_a_missing_op_beside_the_vllm_c_warning():
    # vllm-ascend registers weak_ref_tensor in torch.ops._C from vllm_ascend_C; the loader refused that library.
    text = ("WARNING 06-30 19:21:40 [_custom_ops.py:22] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")\n"
            "WARNING 06-30 19:22:09 [camem.py:63] Failed to import vllm_ascend_C:/usr/lib64/libc.so.6: version `GLIBC_2.32' not "
            "found (required by /usr/local/lib/python3.10/site-packages/vllm_ascend/vllm_ascend_C.cpython-310-aarch64-linux-gnu.so). Sleep mode will be disabled.\n"
            "INFO 06-30 19:22:08 [platform.py:177] PIECEWISE compilation enabled on NPU. use_inductor not supported - using only ACL Graph mode\n"
            "Traceback (most recent call last):\n"
            "  File \"/usr/local/lib/python3.10/site-packages/vllm_ascend/compilation/piecewise_backend.py\", line 205, in __call__\n"
            "    entry.output = weak_ref_tensors(output)\n"
            "  File \"/usr/local/lib/python3.10/site-packages/vllm/utils.py\", line 1908, in weak_ref_tensor\n"
            "    return torch.ops._C.weak_ref_tensor(tensor)\n"
            "AttributeError: '_OpNamespace' '_C' object has no attribute 'weak_ref_tensor'\n")
    assert top(CATALOG, text) == ("DRV-package", "glibc-too-old")


# Round 43's development half ------------------------------------------------------------------------------------------

def test_old_nvidia_driver_error_and_warning_are_e4166():
    error = ("RuntimeError: The NVIDIA driver on your system is too old (found version 11060). Please update your GPU driver "
             "by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, "
             "go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.\n")
    warning = ("/usr/lib/python3/dist-packages/torch/cuda/__init__.py:124: UserWarning: CUDA initialization: The NVIDIA driver "
               "on your system is too old (found version 11000). Please update your GPU driver by downloading and installing a "
               "new version from the URL: http://www.nvidia.com/Download/index.aspx\n")
    assert top(CATALOG, error)[0] == "ARL-E4166"
    assert top(CATALOG, warning)[0] == "ARL-E4166"


def test_no_nvidia_driver_at_all_is_not_e4166():
    # The other branch of the same check: no driver (version <= 0), a machine without an NVIDIA GPU.
    text = ("RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a "
            "driver from http://www.nvidia.com/Download/index.aspx\n")
    found = top(CATALOG, text)
    assert found is None or found[0] != "ARL-E4166"


def test_lfs_pointer_text_under_a_parse_error_is_e4167():
    text = ("Traceback (most recent call last):\n"
            "  File \"/opt/app/load.py\", line 12, in load_config\n"
            "    cfg = json.load(f)\n"
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
            "$ cat models/adapter_config.json\n"
            "version https://git-lfs.github.com/spec/v1\n"
            "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
            "size 1203\n")
    assert top(CATALOG, text)[0] == "ARL-E4167"


def test_a_parse_error_without_the_pointer_is_not_e4167():
    text = ("Traceback (most recent call last):\n"
            "  File \"/opt/app/load.py\", line 12, in load_config\n"
            "    cfg = json.load(f)\n"
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n")
    found = top(CATALOG, text)
    assert found is None or found[0] != "ARL-E4167"


def test_file_name_too_long_names_the_longest_component():
    name = "_home_user_.cache_huggingface_datasets_csv_test-" + "7c856aea" * 16  # over eCryptfs' 143 bytes
    text = ("Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3.10/site-packages/datasets/utils/filelock.py\", line 272, in acquire\n"
            "    self._acquire()\n"
            f"OSError: [Errno 36] File name too long: '/data/cache/{name}.lock'\n")
    result = classify(CATALOG, text)
    d = result.diagnoses[0]
    assert (d.entry.id, d.kind) == ("DRV-oserror", "enametoolong")
    assert f"{len(name) + 5} bytes" in d.entry.cause
    assert any(step.endswith("getconf NAME_MAX /data/cache") for step in d.entry.fix)  # the folder, not the file


def test_other_oserrors_are_not_enametoolong():
    text = "OSError: [Errno 2] No such file or directory: '/data/cache/short.lock'\n"
    found = top(CATALOG, text)
    assert found is None or found[1] != "enametoolong"
