"""Readings added in the 2026-12-04 stop (s32), from round 22's dev half.

An issue title that quotes a known message, or its first words, in Markdown backticks or quotes inside the sentence
(huggingface/diffusers#13015, a dev log: "[Bug] QwenImageEditPlus series error `Expected all tensors to be on the same
device` on NPU") was read as nothing fatal: only a title that opens with the message was taken (_opening_words).
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("paste, entry", [
    ("[Bug] QwenImageEditPlus series error `Expected all tensors to be on the same device` on NPU", "ARL-E135"),
    # the whole message quoted, typographic quotes
    ("Training stops with “Expected all tensors to be on the same device, but found at least two devices, cpu and npu:0” in reward",
     "ARL-E135"),
])
def test_a_title_quoting_a_known_message_names_it(explain_text, paste, entry):
    result, top = explain_text(paste + "\n")
    assert top is not None and top.entry.id == entry
    assert result.fatal


@pytest.mark.parametrize("paste", [
    "[Docs] the guide for `torch_npu.npu.set_device` on multi-node runs needs an example",  # a quoted name, not a message
    "How do I set `max_num_batched_tokens` for long prompts?",  # a question quoting a setting
    "[Usage] what does `Expected all` mean",  # fewer than three words quoted
])
def test_a_quote_that_is_no_known_message_names_nothing(explain_text, paste):
    result, top = explain_text(paste + "\n")
    assert top is None or top.entry.id != "ARL-E135"
    assert not result.fatal
