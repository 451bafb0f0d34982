"""Readings widened by helper k41compat (2026-12-05) from vLLM's source, for a class of failure rather than one paste:

- A vision-language model's tower / projector name (visual., vision_tower., multi_modal_projector. …) in vLLM's
  params_dict[name] lookup (DRV-weight-name): vLLM's VL classes route names by prefix (hf_to_vllm_mapper), so such a name
  reaching the text model's loader carries transformers >= 4.52's VLM layout, which the installed vLLM release does not
  map: transformers newer than the vLLM (kind transformers-too-new), in a checkpoint load or an RL weight sync.
- The same KeyError wrapped by vLLM's engine core ("Call to collective_rpc method failed: '<name>'", the re-raised
  utility-call failure of an RL trainer's weight push) is read as the lookup it reports.
"""

from __future__ import annotations

import dataclasses
import io

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.analyzers import Facts
from ascendrl.catalog.analyzers.weightname import VllmWeightName
from ascendrl.catalog.chain import Chain, Frame, Link

CATALOG = load_catalog()


# the catalog without ARL-E033, the entry written from one thread's paste of the wrapped KeyError: the analyzer must
# read the class on its own
WITHOUT_E033 = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E033"))


def _result(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _link(kind: str, type_: str, message: str, frames=()) -> Link:
    return Link(kind, type_, message, "paste.log", 1, frames=list(frames), text=f"{type_}: {message}")


QWEN2 = "/usr/local/lib/python3.10/site-packages/vllm/model_executor/models/qwen2.py"
LLAMA = "/usr/local/lib/python3.10/site-packages/vllm/model_executor/models/llama.py"


def _frame(path: str) -> Frame:
    return Frame(path, 405, "load_weights")


def _analyze(link: Link):
    return VllmWeightName().analyze(link, Chain("paste.log"), Facts({}, {}))


def test_vision_tower_name_in_text_loader_is_transformers_newer_than_vllm():
    for name in ("visual.blocks.0.attn.qkv.weight", "vision_tower.vision_model.embeddings.patch_embedding.weight",
                 "multi_modal_projector.linear_1.bias", "model.visual.merger.mlp.0.weight"):
        found = _analyze(_link("python", "KeyError", f"'{name}'", [_frame(QWEN2)]))
        assert found is not None and found.kind == "transformers-too-new", name
        assert found.family == "compat"


def test_language_model_name_keeps_the_layout_reading():
    found = _analyze(_link("python", "KeyError", "'model.layers.0.self_attn.rotary_emb.inv_freq'", [_frame(LLAMA)]))
    assert found is not None and found.kind == "checkpoint-weight-name-mismatch"
    # a word merely containing "visual" is not the tower prefix
    found = _analyze(_link("python", "KeyError", "'visual_adapter.proj.weight'", [_frame(LLAMA)]))
    assert found is not None and found.kind == "checkpoint-weight-name-mismatch"


def test_collective_rpc_wrapped_keyerror_is_read_as_the_lookup():
    found = _analyze(_link("bare", "Exception", "Call to collective_rpc method failed: 'visual.patch_embed.proj.weight'"))
    assert found is not None and found.kind == "transformers-too-new"
    found = _analyze(_link("python", "Exception", "Call to collective_rpc method failed: 'lm_head.weight'"))
    assert found is not None and found.kind == "checkpoint-weight-name-mismatch"


def test_collective_rpc_other_failures_are_not_weight_names():
    # another utility call, or a failure whose text is not one quoted dotted name, is not this lookup
    assert _analyze(_link("bare", "Exception", "Call to collective_rpc method failed: 'NoneType' object is not callable")) is None
    assert _analyze(_link("bare", "Exception", "Call to get_supported_tasks method failed: 'visual.patch_embed.proj.weight'")) is None
    # a KeyError without vLLM's lookup in sight stays unread
    assert _analyze(_link("python", "KeyError", "'visual.patch_embed.proj.weight'")) is None


def test_pasted_sync_failure_names_the_transformers_vllm_pair():
    diagnoses = _result("(WorkerDict pid=1234) Traceback (most recent call last):\n"
                        "Exception: Call to collective_rpc method failed: 'visual.blocks.0.norm1.weight'\n",
                        WITHOUT_E033).to_json()["diagnoses"]
    assert diagnoses[0]["id"] == "DRV-weight-name" and diagnoses[0]["kind"] == "transformers-too-new"


def test_traceback_into_text_loader_tops_with_the_pair():
    top = _result("Traceback (most recent call last):\n"
                  f'  File "{QWEN2}", line 405, in load_weights\n'
                  "    param = params_dict[name]\n"
                  "KeyError: 'model.vision_tower.encoder.layers.0.mlp.fc1.weight'\n").to_json()["diagnoses"][0]
    assert top["id"] == "DRV-weight-name" and top["kind"] == "transformers-too-new"
