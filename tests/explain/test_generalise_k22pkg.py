"""A vllm-ascend class lacking an attribute that vLLM's own code reads (k22pkg): catalog/analyzers/package.py.

vLLM's model runner, worker and layers read attributes (mm_budget, packed_modules_mapping) that vLLM added after the
vllm-ascend release in use was cut; vllm-ascend releases each follow one vLLM release (its versioning policy), so the
finding names vllm-ascend older than the vLLM installed with it (kind vllm-ascend-too-old). vllm-ascend's own frame
reading an attribute its own class lacks is not that direction and stays package-mismatch. No catalog entry is taken
out: no entry states these lines (vllm-ascend#5571 and #312; the near miss is a public vllm-ascend worker traceback).
"""

from __future__ import annotations

import pytest


OWN = ()  # the whole catalog: these pastes are read by DRV-package, whatever entries cite their threads


@pytest.mark.parametrize("text", [
    # vllm-ascend#5571: vLLM's GPU model runner (profile_run) reads mm_budget, which vllm-ascend 0.13.0rc1's runner lacks
    ('File "/vllm-workspace/vllm/vllm/v1/worker/gpu_model_runner.py", line 4434, in profile_run\n'
     "(EngineCore_DP0 pid=445) ERROR 01-04 02:45:30 [core.py:866]     mm_budget = self.mm_budget\n"
     "(EngineCore_DP0 pid=445) ERROR 01-04 02:45:30 [core.py:866] AttributeError: 'NPUModelRunner' object has no attribute 'mm_budget'\n"),
    # vllm-ascend#312: only the exception line (vLLM's quantization code reads packed_modules_mapping)
    "AttributeError: 'AscendQuantConfig' object has no attribute 'packed_modules_mapping'\n",
])
def test_vllm_reading_a_vllm_ascend_attribute_names_vllm_ascend_too_old(explain_without, text):
    assert explain_without(text) == ("DRV-package", "vllm-ascend-too-old")


@pytest.mark.parametrize("text", [
    # vllm-ascend's own __init__ (model_runner_v1.py) reads kv_cache_config before setting it: not the pair's direction
    ('Traceback (most recent call last):\n'
     '  File "/vllm-workspace/vllm/vllm/v1/worker/worker_base.py", line 312, in init_device\n'
     '    self.worker.init_device()  # type: ignore\n'
     '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/worker.py", line 324, in init_device\n'
     '    self.model_runner = NPUModelRunner(self.vllm_config, self.device)\n'
     '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 419, in __init__\n'
     '    and len(self.kv_cache_config.kv_cache_groups) == 1\n'
     "AttributeError: 'NPUModelRunner' object has no attribute 'kv_cache_config'\n"),
    # a vLLM class (not vllm-ascend's) lacking an attribute
    "AttributeError: 'DPMetadata' object has no attribute 'cu_tokens_across_dp_cpu'\n",
])
def test_other_attribute_errors_do_not_name_vllm_ascend_too_old(explain_without, text):
    assert explain_without(text)[1] != "vllm-ascend-too-old"
