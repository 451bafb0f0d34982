"""The twenty-first stop's lead readings, from round 50's dev half (each confirmed in the emitting source).

- DRV-package, kind megatron-lm-source-not-on-pythonpath: "No module named 'megatron.<x>'" for any x but core / bridge /
  energon. The megatron-core wheel packages megatron.core alone (Megatron-LM's pyproject.toml), so Megatron-LM's training
  code is importable only from a source checkout on the path.
- DRV-verl, kind dataproto-union-batch-size-mismatch: verl's DataProto.union refusing two batches of different sizes
  (protocol.py union_tensor_dict, an assert; a ValueError in later rewrites); the two sizes say whether one side was
  repeated by another count or filtered.
- ARL-E4181: "Cannot prepare for replay during capturing stage": a captured graph replayed while another capture runs
  (torch_npu's NPUGeneratorState::replay_prologue, PyTorch's CUDAGeneratorState alike); other operations refused during
  capture stay ARL-E382's.
- ARL-E4182: "'Parameter' object has no attribute 'weight_loader'" (or a load_*_parallel_weight method): vLLM's loader
  missing from a parameter that was replaced after the first load, met by RL weight syncs.
"""

from __future__ import annotations

import pytest
from kdata_helpers import first, first_id, top


def _tb(frames: str, last: str) -> str:
    return "Traceback (most recent call last):\n" + frames + last + "\n"


MEGATRON_FRAME = '  File "/workspace/slime/slime/backends/megatron_utils/arguments.py", line 5, in <module>\n    from megatron.training import get_args\n'


@pytest.mark.parametrize("module", ["megatron.training", "megatron.training.tokenizer.tokenizer", "megatron.optimizer",
                                    "megatron.legacy.model", "megatron.mpu"])
def test_megatron_lm_modules_need_the_source_checkout(catalog, module):
    found = top(catalog, _tb(MEGATRON_FRAME, f"ModuleNotFoundError: No module named '{module}'"))
    assert found == ("DRV-package", "megatron-lm-source-not-on-pythonpath")


@pytest.mark.parametrize("module, kind", [
    ("megatron.bridge", "missing-dependency"),  # Megatron-Bridge, a distribution of its own
    ("megatron.energon", "missing-dependency"),  # Megatron-Energon likewise
    ("megatron", "missing-dependency"),  # nothing of Megatron installed
])
def test_other_megatron_packages_are_not_the_checkout(catalog, module, kind):
    found = top(catalog, _tb(MEGATRON_FRAME, f"ModuleNotFoundError: No module named '{module}'"))
    assert found is not None and found[1] == kind


def test_a_megatron_core_submodule_is_not_the_checkout(catalog):
    found = top(catalog, _tb(MEGATRON_FRAME, "ModuleNotFoundError: No module named 'megatron.core.optimizer'"))
    assert found is None or found[1] != "megatron-lm-source-not-on-pythonpath"


UNION_FRAMES = (
    '  File "/workspace/verl/verl/trainer/ppo/ray_trainer.py", line 1031, in fit\n    batch = batch.union(gen_batch_output)\n'
    '  File "/workspace/verl/verl/protocol.py", line 620, in union\n    self.batch = union_tensor_dict(self.batch, other.batch)\n'
    '  File "/workspace/verl/verl/protocol.py", line 107, in union_tensor_dict\n'
    '    assert tensor_dict1.batch_size == tensor_dict2.batch_size, (\n'
)


@pytest.mark.parametrize("last, words", [
    ("AssertionError: Two tensor dict must have identical batch size. Got torch.Size([2048]) and torch.Size([256])", "a factor of 8"),
    ("ValueError: Two tensor dict must have identical batch size. Got torch.Size([60]) and torch.Size([64])", "not multiples"),
])
def test_union_of_different_batch_sizes(catalog, last, words):

    found = first(catalog, _tb(UNION_FRAMES, last))
    assert (found.entry.id, found.kind) == ("DRV-verl", "dataproto-union-batch-size-mismatch")
    assert words in found.entry.cause


def test_other_verl_batch_asserts_are_not_the_union(catalog):
    found = top(catalog, _tb(UNION_FRAMES.replace("union_tensor_dict", "chunk"),
                             "AssertionError: only support equal chunk. Got size of DataProto 30 and chunk 8."))
    assert found is not None and found[1] != "dataproto-union-batch-size-mismatch"


@pytest.mark.parametrize("line", [
    "RuntimeError: Cannot prepare for replay during capturing stage. during NPU graph capture. If you need this call to be "
    "captured, please file an issue. Current npuStreamCaptureStatus: npuStreamCaptureStatusActive",
    "RuntimeError: Cannot prepare for replay during capturing stage. Current cudaStreamCaptureStatus: cudaStreamCaptureStatusActive",
])
def test_a_replay_inside_a_capture_is_the_nested_capture(catalog, line):

    assert first_id(catalog, line + "\n") == "ARL-E4181"


def test_other_operations_during_capture_are_not_the_nested_replay(catalog):

    line = ("RuntimeError: Cannot run aclop operators during NPU graph capture. Current working aclop is MatMul. "
            "Current npuStreamCaptureStatus: npuStreamCaptureStatusActive")
    assert first_id(catalog, line + "\n") not in (None, "ARL-E4181")


@pytest.mark.parametrize("attribute", ["weight_loader", "load_column_parallel_weight", "load_row_parallel_weight", "load_qkv_weight"])
def test_a_parameter_without_vllms_loader(catalog, attribute):
    line = f"AttributeError: 'Parameter' object has no attribute '{attribute}'"
    assert first_id(catalog, line + "\n") == "ARL-E4182"


@pytest.mark.parametrize("line", [
    "AttributeError: 'Parameter' object has no attribute 'main_grad'",  # Megatron's fused wgrad on a frozen weight
    "AttributeError: 'QKVParallelLinear' object has no attribute 'weight'",  # a layer, not a parameter
])
def test_other_missing_attributes_are_not_the_loader(catalog, line):
    assert first_id(catalog, line + "\n") != "ARL-E4182"
