"""The lead's readings of the twenty-sixth stop (2026-12-07), from round 55's dev half.

- DRV-repo-id: huggingface_hub's HFValidationError (raised only by validate_repo_id, utils/_validators.py) in a wording
  ARL-E108's signatures do not read (huggingface_hub's newer "Repo id must use alphanumeric chars, '-', '_' or '.'"), or
  named alone in an issue title (round 55's axolotl-1391, "Fail to merge LoRA (HFValidationError)"): a model, tokenizer
  or adapter path that is not a local folder; before, the unexplained HFValidationError.
- ARL-E4187: transformers' FlashAttention-2 refusal of a right-padded batch with a KV cache ("You are attempting to perform
  batched generation with padding_side='right'", read in the 4.57.6 wheel; round 55's qwen3-468 and deepseekrl-extended-4);
  before, the unexplained ValueError.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)


def test_hf_validation_error_in_a_newer_wording_is_a_missing_model_path():
    top = _top("huggingface_hub.errors.HFValidationError: Repo id must use alphanumeric chars, '-', '_' or '.'. The name "
               "cannot start or end with '-' or '.' and the maximum length is 96: '../ckpt/global_step_40/actor'.\n")
    assert (top.entry.id, top.kind, top.basis) == ("DRV-repo-id", "model-path-missing", "derived")
    assert "../ckpt/global_step_40/actor" in top.entry.title


def test_hf_validation_error_named_in_a_title_is_a_missing_model_path():
    top = _top("Fail to merge LoRA (HFValidationError)\n")
    assert top is not None and (top.entry.id, top.kind) == ("DRV-repo-id", "model-path-missing")


def test_the_catalog_entry_keeps_the_wording_it_reads():
    top = _top("huggingface_hub.errors.HFValidationError: Repo id must be in the form 'repo_name' or "
               "'namespace/repo_name': '/data/models/Qwen2.5-7B-Instruct'. Use `repo_type` argument if needed.\n")
    assert top.entry.id == "ARL-E108"


def test_another_validation_error_is_not_a_repo_id():
    top = _top("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
               "model\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n")
    assert top is None or top.entry.id != "DRV-repo-id"


def test_right_padding_under_flash_attention_2_is_e4187():
    for model in ("Qwen2", "Qwen2Moe", "Mistral"):
        top = _top(f"ValueError: You are attempting to perform batched generation with padding_side='right' this may lead "
                   f"to unexpected behaviour for Flash Attention version of {model}. Make sure to  call "
                   "`tokenizer.padding_side  = 'left'` before tokenizing the input. \n")
        assert top.entry.id == "ARL-E4187", model


def test_the_padding_side_warning_of_the_tokenizer_is_not_e4187():
    # transformers' generation warning for decoder-only models (no exception): another message, and not fatal
    top = _top("A decoder-only architecture is being used, but right-padding was detected! For correct generation results, "
               "please set `padding_side='left'` when initializing the tokenizer.\n")
    assert top is None or top.entry.id != "ARL-E4187"
