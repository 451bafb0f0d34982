"""Readings widened by helper k38gen (2026-12-04) from the emitting projects' sources, each for a class of failure rather
than one thread's paste:

- MindIE's record of an exception it caught ("[Model]\\t>>> Exception:<message>", mindie_llm's request router and model
  wrapper log str(e) without its type): read as the failure, so its message is explained even when the traceback under
  it is cut before its last line.
- MindIE's ATB model library asking for a tensor the checkpoint lacks (atb_llm/utils/weights.py Weights.get_filename:
  AssertionError "weight <name> does not exist", DRV-mindie-weight): a quantization tensor (weight_scale, deq_scale …)
  is a float checkpoint under a quantized configuration; a tensor that differs between members of one family (an
  attention bias, a q/k norm, a shared expert) is a variant the chosen model class was not written for.
- A traceback frame line wrapped at a fixed width ("File" alone, then '"/path.py", line ' and '369, in f'): joined as
  Python printed it, so the frames are read.
- verl's FSDP checkpoint merger (verl/model_merger/fsdp_model_merger.py, and copies of it in trainers built on verl)
  concatenating every non-DTensor on dim 0: a 0-dim tensor stops torch.cat (ATen's check_cat_no_zero_dim), read as the
  merger's assumption, not the checkpoint (DRV-model-merger).
- CANN's profiling codes EK0001 / EK0003 (Invalid_Argument / Config_Error, cann_registry.yaml) refusing a path: the
  profiler's output directory (DRV-code kind profiler-path-invalid).
- A ray.* module missing while the process attaches to a running cluster (Ray Client's frames, ray.init with an
  address, ray://): the client's and the cluster's Ray releases differ (Ray Client's versioning requirements), not a
  package too old for the code (DRV-package kind ray-version-mismatch).
"""

from __future__ import annotations

import dataclasses
import io

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.analyzers import Facts
from ascendrl.catalog.analyzers.verl import MergerConcat
from ascendrl.catalog.analyzers.weightname import MindieWeightMissing
from ascendrl.catalog.chain import Chain, Frame, Link

CATALOG = load_catalog()


def _result(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _chains(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    classifier.result()
    return list(classifier.chains.values())


def _link(kind: str, type_: str, message: str, frames=()) -> Link:
    return Link(kind, type_, message, "paste.log", 1, frames=list(frames), text=f"{type_}: {message}")


MINDIE_HEAD = ("[2025-08-07 15:43:01.007+0800] [391] [281473500311904] [batchscheduler] [ERROR] [model.py:61] : "
               "[Model]\t>>> Exception:")


def test_mindie_caught_exception_record_is_the_failure():
    chains = _chains(MINDIE_HEAD + "weight model.layers.0.mlp.gate.bias does not exist\n"
                     "Traceback (most recent call last):\n"
                     '  File "/usr/local/lib/python3.11/site-packages/model_wrapper/model.py", line 59, in initialize\n'
                     "    return self.python_model.initialize(config)\n")
    messages = [link.message for chain in chains for link in chain.links]
    assert "weight model.layers.0.mlp.gate.bias does not exist" in messages


def test_mindie_record_needs_its_marker():
    # the same words in an ordinary INFO record are not MindIE's caught-exception record
    chains = _chains("[2025-08-07 15:43:01] [INFO] checking: weight model.layers.0.mlp.gate.bias does not exist\n")
    assert not any("does not exist" in link.message for chain in chains for link in chain.links)


def test_atb_missing_variant_tensor_is_an_unsupported_variant():
    found = MindieWeightMissing().analyze(
        _link("bare", "Exception", "weight model.layers.0.self_attn.k_proj.bias does not exist"), Chain("paste.log"), Facts({}, {}))
    assert found is not None and found.kind == "model-arch-unsupported-by-mindie"
    found = MindieWeightMissing().analyze(
        _link("python", "AssertionError", "weight model.layers.3.self_attn.q_norm.weight does not exist"), Chain("paste.log"), Facts({}, {}))
    assert found is not None and found.kind == "model-arch-unsupported-by-mindie"


def test_atb_missing_quant_tensor_is_a_quantization_mismatch():
    found = MindieWeightMissing().analyze(
        _link("bare", "Exception", "weight model.layers.0.mlp.down_proj.deq_scale does not exist"), Chain("paste.log"), Facts({}, {}))
    assert found is not None and found.kind == "mindie-quant-weights-mismatch"


def test_atb_missing_plain_weight_is_layout_or_incomplete():
    found = MindieWeightMissing().analyze(
        _link("bare", "Exception", "weight model.embed_tokens.weight does not exist"), Chain("paste.log"), Facts({}, {}))
    assert found is not None and found.kind == "mindie-checkpoint-tensor-missing"
    # another type with the same words (a KeyError's repr) is not atb_llm's check
    assert MindieWeightMissing().analyze(
        _link("python", "KeyError", "weight model.embed_tokens.weight does not exist"), Chain("paste.log"), Facts({}, {})) is None


def test_mindie_paste_end_to_end():
    data = _result(MINDIE_HEAD + "weight model.layers.0.self_attn.v_proj.bias does not exist\n").to_json()
    top = data["diagnoses"][0]
    assert top["id"] == "DRV-mindie-weight" and top["kind"] == "model-arch-unsupported-by-mindie"


WRAPPED = (
    "Traceback (most recent call last):\n"
    "  File \n"
    '"/usr/local/lib/python3.11/site-packages/pkg/core/trainers/some_trainer_module.py\n'
    '", line 621, in save_model\n'
    "    self._export_hf_model()\n"
    "  File \n"
    '"/usr/local/lib/python3.11/site-packages/pkg/utils/verl_model_merger.py", line \n'
    "349, in _load_and_merge_state_dicts\n"
    "    state_dict = torch.cat(state_dict, dim=0)\n"
    "RuntimeError: zero-dimensional tensor (at position 0) cannot be concatenated\n"
)


def test_wrapped_frame_lines_are_joined():
    links = [link for chain in _chains(WRAPPED) for link in chain.links if link.type == "RuntimeError"]
    assert links
    frames = [(f.path.rsplit("/", 1)[-1], f.line, f.func) for f in links[0].frames]
    assert ("some_trainer_module.py", 621, "save_model") in frames
    assert ("verl_model_merger.py", 349, "_load_and_merge_state_dicts") in frames


def test_wrapped_frame_needs_the_quoted_path():
    # a line "File" followed by prose is not a frame
    links = [link for chain in _chains("File\nnot found, so the run stopped\nRuntimeError: boom here\n") for link in chain.links]
    assert all(not link.frames for link in links)


def test_merger_zero_dim_concat_end_to_end():
    top = _result(WRAPPED).to_json()["diagnoses"][0]
    assert top["id"] == "DRV-model-merger" and top["kind"] == "model-merger-replicated-tensor-concat"


def test_zero_dim_concat_outside_a_merger_is_not_the_merger():
    message = "zero-dimensional tensor (at position 1) cannot be concatenated"
    user = [Frame("/home/me/train.py", 10, "main")]
    assert MergerConcat().analyze(_link("python", "RuntimeError", message, user), Chain("paste.log"), Facts({}, {})) is None
    merger = [Frame("/opt/verl/verl/model_merger/fsdp_model_merger.py", 202, "_load_and_merge_state_dicts")]
    found = MergerConcat().analyze(_link("python", "RuntimeError", message, merger), Chain("paste.log"), Facts({}, {}))
    assert found is not None and found.kind == "model-merger-replicated-tensor-concat"


def test_profiling_code_on_a_path_is_the_profiler_path():
    top = _result("EK0001: Value [/data/prof out] for parameter [output] is invalid. Reason: path does not exist.\n").to_json()["diagnoses"][0]
    assert top["id"] == "DRV-code" and top["kind"] == "profiler-path-invalid"


def test_profiling_code_on_another_value_is_not_a_path():
    top = _result("EK0001: Value [abc] for parameter [aic_metrics] is invalid. Reason: not in the supported list.\n").to_json()["diagnoses"][0]
    assert top["kind"] != "profiler-path-invalid"


def test_ray_module_missing_attaching_to_a_cluster_is_a_version_mismatch():
    text = ("ray.init(address='ray://10.0.0.1:10001')\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/site-packages/ray/util/client/worker.py", line 120, in __init__\n'
            "    self._connect_channel()\n"
            "ModuleNotFoundError: No module named 'ray.util.tracing'\n")
    top = _result(text).to_json()["diagnoses"][0]
    assert top["id"] == "DRV-package" and top["kind"] == "ray-version-mismatch"


def test_ray_module_missing_in_a_local_script_is_not_a_cluster_mismatch():
    text = ("Traceback (most recent call last):\n"
            '  File "/home/me/train.py", line 3, in <module>\n'
            "    from ray.train.torch import TorchTrainer\n"
            "ModuleNotFoundError: No module named 'ray.train.torch'\n")
    data = _result(text).to_json()
    assert all(d.get("kind") != "ray-version-mismatch" for d in data.get("diagnoses") or [])
