"""Readings added by helper k42dev (2026-12-05) from the emitting projects' sources, each for a class of failure rather
than one thread's paste:

- torch_npu's NPU_CHECK_ERROR (torch_npu/csrc/core/npu/NPUException.h) turns a runtime call's
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000) into a once-only warning ("Feature is not supported and the possible cause is
  that driver and firmware packages do not match.", ARL-E307) and carries on. A later failure printed after it that names
  no cause of its own, the aclnn engine's null executor (nnopbase NNOPBASE_ASSERT_NOTNULL_RETVAL(executor): "Assert
  ((executor) != nullptr) failed") or a TORCH_INTERNAL_ASSERT inside torch_npu, is that refusal's consequence
  (DRV-after-refused-feature, kind npu-driver-firmware-mismatch). Without the warning, before it, or for a failure with
  words of its own, the reading stays out.
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()

WARN = ("[WARN]operator(),build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77:Feature is not supported and the possible "
        "cause is that driver and firmware packages do not match.\n")
WARN_OLD = ("[WARN]operator(),build/CMakeFiles/torch_npu.dir/compiler_depend.ts:3663:Feature is not supportted and the "
            "possible cause is that driver and firmware packages do not match.\n")

NULL_EXECUTOR = (
    "Traceback (most recent call last):\n"
    '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2269, in profile_run\n'
    "    hidden_states = hidden_states[logit_indices]\n"
    "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the current worker "
    "fails to start.\n"
    "[ERROR] 2025-10-17-16:26:11 (PID:696, Device:0, RankID:-1) ERROR0100 PTA call acl api failed.\n"
    "EZ1001: (PID:696) 2025-10-17-16:26:11.426.903 Assert ((executor) != nullptr) failed\n"
    "        Check NnopbaseRunWithWorkspace(executor, stream, workspace, workspaceSize) failed\n"
)

INTERNAL_ASSERT = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.11/site-packages/torch_npu/multiprocessing/reductions.py", line 46, in rebuild_npu_tensor\n'
    "    storage = storage_cls._new_shared_npu(\n"
    '  File "/usr/local/lib/python3.11/site-packages/torch_npu/utils/storage.py", line 110, in _new_shared_npu\n'
    "    return torch_npu._C._new_shared_npu(*args, **kwargs)\n"
    'RuntimeError: devptr INTERNAL ASSERT FAILED at "build/CMakeFiles/torch_npu.dir/compiler_depend.ts":3721, please '
    "report a bug to PyTorch. entry in cache has missing shared_ptr\n"
)

OOM = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.11/site-packages/verl/workers/fsdp_workers.py", line 512, in init_model\n'
    "    model = model.to('npu')\n"
    "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already "
    "allocated; 58.10 GiB current active; 1.20 GiB free; 59.00 GiB reserved in total by PyTorch)\n"
)


def _top(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result, (result.diagnoses[0] if result.diagnoses else None)


def test_null_aclnn_executor_after_the_warning_is_its_consequence():
    result, top = _top(WARN + WARN + NULL_EXECUTOR)
    assert (top.entry.id, top.kind) == ("DRV-after-refused-feature", "npu-driver-firmware-mismatch"), top
    assert top.fatal
    assert "found no executor" in top.entry.cause
    assert any(d.entry.id == "ARL-E307" for d in result.diagnoses[1:])


def test_torch_npu_internal_assert_after_the_older_spelling_is_its_consequence():
    # torch_npu up to v7.2.x spelled it "supportted"; ARL-E307 reads both, and so does this reading
    _, top = _top(WARN_OLD + INTERNAL_ASSERT)
    assert (top.entry.id, top.kind) == ("DRV-after-refused-feature", "npu-driver-firmware-mismatch"), top
    assert "internal assertion inside torch_npu" in top.entry.cause


def test_without_the_warning_the_failures_keep_their_own_readings():
    _, top = _top(NULL_EXECUTOR)
    assert top is None or top.entry.id != "DRV-after-refused-feature"
    result, top = _top(INTERNAL_ASSERT)
    assert not any(d.entry.id == "DRV-after-refused-feature" for d in result.diagnoses)


def test_a_failure_printed_before_the_warning_is_not_its_consequence():
    result, _ = _top(NULL_EXECUTOR + WARN)
    assert not any(d.entry.id == "DRV-after-refused-feature" for d in result.diagnoses)


def test_a_failure_with_words_of_its_own_after_the_warning_keeps_them():
    result, top = _top(WARN + OOM)
    assert not any(d.entry.id == "DRV-after-refused-feature" for d in result.diagnoses)
    assert top is not None and top.entry.id != "ARL-E307"


# vLLM for Ascend is installed without its CUDA extension (VLLM_TARGET_DEVICE=empty); torch.ops._C then holds only the
# kernels vllm-ascend registered there itself (package.VLLM_ASCEND_C_OPS). Another op missing from it on an NPU run is
# one of vLLM's CUDA kernels: vLLM took its CUDA branch on the NPU (kind cuda-call-on-npu), not a build mismatch.
CUDA_OP = (
    "INFO 08-25 10:12:03 [__init__.py:235] Platform plugin ascend is activated\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.11/site-packages/vllm/_custom_ops.py", line 314, in apply_repetition_penalties\n'
    "    torch.ops._C.apply_repetition_penalties_(logits, prompt_mask, output_mask,\n"
    "AttributeError: '_OpNamespace' '_C' object has no attribute 'apply_repetition_penalties_'\n"
)


def test_a_vllm_cuda_kernel_missing_on_an_npu_run_is_the_cuda_path():
    _, top = _top(CUDA_OP)
    assert (top.entry.id, top.kind) == ("DRV-package", "cuda-call-on-npu"), top
    assert "apply_repetition_penalties_" in top.entry.title


def test_vllm_ascends_own_kernel_missing_is_not_the_cuda_path():
    # weak_ref_tensor is one of the kernels vllm-ascend registered under torch.ops._C: its absence is a build question
    _, top = _top(CUDA_OP.replace("apply_repetition_penalties_", "weak_ref_tensor"))
    assert top is not None and top.kind != "cuda-call-on-npu", top


def test_without_the_npu_stack_the_op_keeps_the_build_reading():
    _, top = _top(CUDA_OP.split("\n", 1)[1])  # the same failure without vLLM's line that the ascend plugin is active
    assert top is not None and top.kind != "cuda-call-on-npu", top


def test_an_operators_own_argument_check_after_the_warning_keeps_its_reading():
    checked = NULL_EXECUTOR.replace(
        "EZ1001: (PID:696) 2025-10-17-16:26:11.426.903 Assert",
        "EZ1001: (PID:696) 2025-10-17-16:26:11.426.900 The dtype of self must be in {FLOAT, FLOAT16, BFLOAT16}, but got "
        "DT_INT64.\n        Assert")
    result, _ = _top(WARN + checked)
    assert not any(d.entry.id == "DRV-after-refused-feature" for d in result.diagnoses)
