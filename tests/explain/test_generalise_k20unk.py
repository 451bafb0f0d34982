"""Exceptions whose emitter's text or class states the mechanism (stop 28, k20unk): catalog/analyzers/emitted.py.

Each paste is scored without the catalog entries written from the threads these lines come from, so only the
analyzer can name them: vLLM's forced V1 engine refusing a feature (arg_utils._raise_or_fallback) or the device (the
V1 FlashAttention backend's assert), torch_npu's stream lookup on device -1 (NPUStream.cpp), Ray's taken actor name
(python/ray/actor.py), OwnerDiedError (python/ray/exceptions.py) and the GCS connection timeout. Near misses stay
something else.
"""

from __future__ import annotations

import pytest

# entries written from the threads these lines come from (taken out so the analyzer alone must answer)
OWN = ("ARL-E601", "ARL-E470", "ARL-E650", "ARL-E1641", "ARL-E119", "ARL-E613", "ARL-E611", "ARL-E050")


@pytest.mark.parametrize("text, analyzer, kind", [
    ('Traceback (most recent call last):\n'
     '  File "/opt/venv/lib/python3.12/site-packages/vllm/engine/arg_utils.py", line 1768, in _raise_or_fallback\n'
     '    raise NotImplementedError(\n'
     'NotImplementedError: VLLM_USE_V1=1 is not supported with VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1.\n',
     "DRV-vllm-v1-unsupported", "vllm-v1-unsupported-on-device"),
    # the same template with another feature name (arg_utils.py's _is_v1_supported_oracle passes the feature)
    ("NotImplementedError: VLLM_USE_V1=1 is not supported with --num-scheduler-steps.\n",
     "DRV-vllm-v1-unsupported", "vllm-v1-unsupported-on-device"),
    ('Traceback (most recent call last):\n'
     '  File "/home/user/miniconda3/lib/python3.12/site-packages/vllm/v1/attention/backends/flash_attn.py", line 156, in __init__\n'
     '    assert is_fa_version_supported(self.fa_version)\n'
     '           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
     'AssertionError\n',
     "DRV-vllm-v1-unsupported", "vllm-v1-unsupported-on-device"),
    ("RuntimeError: Could not compute stream ID for 0xaaab0c1e2f40 on device -1 (something has gone horribly wrong!)\n",
     "DRV-npu-stream-no-device", "npu-device-not-set"),
    ('Traceback (most recent call last):\n'
     '  File "/usr/local/lib/python3.10/dist-packages/ray/actor.py", line 1105, in _remote\n'
     '    raise ValueError(\n'
     "ValueError: The name ZChSMX_register_center (namespace=None) is already taken. Please use a different name or get "
     "the existing actor using ray.get_actor('ZChSMX_register_center', namespace='None')\n",
     "DRV-ray-mechanism", "ray-named-actor-exists"),
    ("ray.exceptions.OwnerDiedError: Failed to retrieve object 00ffffffffffffffffffffffffffffffffffffff1300000001e1f505. "
     "To see information about where this ObjectRef was created in Python, set the environment variable "
     "RAY_record_ref_creation_sites=1 during `ray start` and `ray.init()`.\n",
     "DRV-ray-mechanism", "ray-object-owner-died"),
    ("ray.exceptions.RpcError: Timed out while waiting for GCS to become available.\n",
     "DRV-ray-mechanism", "ray-gcs-unreachable"),
    # libraries' own checks (catalog/analyzers/own_checks.yaml): verl's ray_trainer.py, DeepSpeed's runtime/config.py
    ("AssertionError: only GRPO is tested for multi-turn with tool\n", "DRV-own-check", "verl-multiturn-tool-requires-grpo"),
    ('Traceback (most recent call last):\n'
     '  File "/data/ViLaSR/verl/trainer/ray_trainer.py", line 313, in _create_dataloader\n'
     '    assert len(self.train_dataloader) >= 1\n'
     'AssertionError\n', "DRV-own-check", "dataset-too-small"),
    ("AssertionError: Train dataloader is empty!\n", "DRV-own-check", "dataset-too-small"),
    ("[rank0]: AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
     "gradient_acc_step * world_size 8 != 2 * 1 * 1\n", "DRV-own-check", "deepspeed-batch-config"),
])
def test_the_emitters_text_names_the_mechanism(explain_without, text, analyzer, kind):
    top, top_kind = explain_without(text)
    assert (top, top_kind) == (analyzer, kind)


@pytest.mark.parametrize("text, not_kind", [
    # a real device index is a torch_npu bug, not a missing set_device
    ("RuntimeError: Could not compute stream ID for 0xaaab0c1e2f40 on device 3 (something has gone horribly wrong!)\n",
     "npu-device-not-set"),
    # V1 falling back by itself is a warning, not the failure
    ("WARNING 03-01 10:00:00 arg_utils.py:1600] --num-scheduler-steps is not supported by the V1 Engine. Falling back to V0.\n"
     "ValueError: something else\n", "vllm-v1-unsupported-on-device"),
    # an AssertionError elsewhere in vLLM
    ('Traceback (most recent call last):\n'
     '  File "/x/site-packages/vllm/v1/worker/gpu_model_runner.py", line 10, in f\n'
     '    assert num_blocks > 0\n'
     'AssertionError\n', "vllm-v1-unsupported-on-device"),
    ("ValueError: The name is already taken, pick another one\n", "ray-named-actor-exists"),
    ("AssertionError: Validation dataloader is empty!\n", "dataset-too-small"),
])
def test_near_misses_are_not_named_so(explain_without, text, not_kind):
    _, kind = explain_without(text)
    assert kind != not_kind
