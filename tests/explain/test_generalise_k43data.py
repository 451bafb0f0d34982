"""Readings added by helper k43data (2026-12-05) for the data-model / ray / verl-config / user / disk families:

- ray start's usage error is read once: ARL-E1764 (Click's "Try 'ray start --help' for help." line) and DRV-cli-extra
  (the "Got unexpected extra argument(s)" refusal under it) no longer give two diagnoses. Stray words with JSON
  punctuation are the split --resources value, the entry's own class: the analyzer's reading becomes its note. Other
  stray words are not a --resources value: the analyzer names them and the entry is its echo.
"""

from __future__ import annotations

from ascendrl.catalog import load_catalog
from kdata_helpers import classify

CATALOG = load_catalog()


def _diagnoses(text: str, catalog=CATALOG):
    result = classify(catalog, text, "paste.log")
    return result.to_json().get("diagnoses") or []


RAY_START = "Usage: ray start [OPTIONS]\nTry 'ray start --help' for help.\n\nError: Got unexpected extra argument{s} ({words})\n"


def test_ray_start_split_json_is_one_diagnosis():
    for words, s in (("1})", ""), ("8} --block", "s"), ('"NPU": 2}', "")):
        found = _diagnoses(RAY_START.format(s=s, words=words))
        assert [d["id"] for d in found] == ["ARL-E1764"], (words, found)
        assert any("DRV-cli-extra" in note for note in found[0].get("notes", [])), found[0]


def test_ray_start_other_extra_word_names_the_words_first():
    found = _diagnoses(RAY_START.format(s="", words="head"))
    assert found[0]["id"] == "DRV-cli-extra" and found[0].get("kind") == "cli-extra-arguments", found
    echo = [d for d in found if d["id"] == "ARL-E1764"]
    assert echo and echo[0].get("consequence_of") == "DRV-cli-extra", found


# DRV-weight-shape: torch narrow()'s bound check (aten TensorShape.cpp) raised in an inference engine's weight loader.
NARROW_LOAD = (
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3.10/site-packages/vllm/model_executor/models/qwen2.py", line 428, in load_weights\n'
    "    weight_loader(param, loaded_weight, shard_id)\n"
    '  File "/usr/lib/python3.10/site-packages/vllm/model_executor/layers/linear.py", line 956, in weight_loader\n'
    "    loaded_weight = loaded_weight.narrow(output_dim, start_idx, shard_size)\n"
    "RuntimeError: {message}\n"
)


def _weight_shape(text: str):
    found = [d for d in _diagnoses(text) if d["id"] == "DRV-weight-shape"]
    return found[0] if found else None


def test_narrow_in_vllm_rpc_after_start_is_a_rollout_weight_update():
    for message in ("start (0) + length (1024) exceeds dimension size (768).",
                    "start out of range (expected to be in range of [-256, 256], but got 512)"):
        text = f"RuntimeError: Worker failed with error '{message}', please check the stack trace above for the root cause\n"
        found = _diagnoses(text)
        assert found and found[0]["id"] == "DRV-weight-shape", (message, found)
        assert found[0].get("kind") == "rollout-weight-update-shape-mismatch"


def test_narrow_in_a_trainer_update_frame_is_a_rollout_weight_update():
    text = ('Traceback (most recent call last):\n'
            '  File "/home/user/verl/verl/workers/sharding_manager/fsdp_vllm.py", line 190, in update_params\n'
            '    model.load_weights(updated_params.items())\n' + NARROW_LOAD.split("\n", 1)[1]).format(
        message="start (256) + length (256) exceeds dimension size (256).")
    d = _weight_shape(text)
    assert d is not None and d.get("kind") == "rollout-weight-update-shape-mismatch", d


def test_narrow_in_a_start_up_loader_is_the_checkpoint_and_size_zero_is_a_zero3_placeholder():
    d = _weight_shape(NARROW_LOAD.format(message="start (0) + length (6144) exceeds dimension size (3072)."))
    assert d is not None and d.get("kind") == "checkpoint-shape-mismatch" and "3072" in d["title"], d
    d = _weight_shape(NARROW_LOAD.format(message="start (0) + length (512) exceeds dimension size (0)."))
    assert d is not None and d.get("kind") == "zero3-saved-empty-weights", d


def test_narrow_outside_a_weight_loader_is_not_read():
    text = ('Traceback (most recent call last):\n'
            '  File "/home/user/train.py", line 12, in collate\n'
            "    x = batch.narrow(1, 0, 4096)\n"
            "RuntimeError: start (0) + length (4096) exceeds dimension size (2048).\n")
    assert _weight_shape(text) is None
    assert _weight_shape("RuntimeError: start (0) + length (4096) exceeds dimension size (2048).\n") is None


def test_vllm_default_loader_shape_assert():
    load = ('Traceback (most recent call last):\n'
            '  File "/usr/lib/python3.10/site-packages/vllm/model_executor/model_loader/weight_utils.py", line 533, in default_weight_loader\n'
            '    assert param.size() == loaded_weight.size(), (\n'
            "AssertionError: Attempted to load weight ({given}) into parameter (torch.Size([3584]))\n")
    d = _weight_shape(load.format(given="torch.Size([3600])"))
    assert d is not None and d.get("kind") == "checkpoint-shape-mismatch" and "[3600]" in d["title"], d
    d = _weight_shape(load.format(given="torch.Size([0])"))
    assert d is not None and d.get("kind") == "zero3-saved-empty-weights", d
    update = ('Traceback (most recent call last):\n'
              '  File "/home/user/verl/verl/workers/sharding_manager/fsdp_vllm.py", line 120, in __enter__\n'
              '    self.inference_engine.sync_model_weights(params, load_format=load_format)\n'
              "AssertionError: Attempted to load weight (torch.Size([3600])) into parameter (torch.Size([3584]))\n")
    d = _weight_shape(update)
    assert d is not None and d.get("kind") == "rollout-weight-update-shape-mismatch", d


def test_roll_free_device_assert_names_roll_resource_entry():
    text = ('Traceback (most recent call last):\n'
            '  File "/home/user/ROLL/roll/distributed/scheduler/resource_manager.py", line 41, in __init__\n'
            '    assert self.num_gpus <= available_gpu, f"num_gpus {self.num_gpus} > available_gpu {available_gpu}"\n'
            "AssertionError: num_gpus 16 > available_gpu 8.0\n")
    found = _diagnoses(text)
    assert found and found[0]["id"] == "ARL-E2773", found


def test_ray_placement_group_empty_bundles_every_release_wording():
    for message in ("The placement group `bundles` argument cannot contain an empty list",
                    "Bundles cannot be an empty dictionary or resources with only 0 values. Bundles: [{'NPU': 0}]",
                    "Bundles must be a non-empty list of resource dictionaries. For example: `[{\"CPU\": 1.0}, "
                    "{\"GPU\": 1.0}]`. Got empty list instead."):
        text = ('Traceback (most recent call last):\n'
                '  File "/usr/lib/python3.10/site-packages/ray/util/placement_group.py", line 189, in placement_group\n'
                '    raise ValueError(\n'
                f"ValueError: {message}\n")
        found = _diagnoses(text)
        assert found and found[0]["id"] == "ARL-E1352", (message, found)


def test_weight_name_keyerror_through_vllm_multiproc_rpc():
    text = ("RuntimeError: Worker failed with error ''model.visual.blocks.0.attn.qkv.weight'', please check the stack "
            "trace above for the root cause\n")
    found = _diagnoses(text)
    assert found and found[0]["id"] == "DRV-weight-name" and found[0].get("kind") == "transformers-too-new", found
