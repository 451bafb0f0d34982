"""Readings added in the 2026-12-04 stop (s32), from round 22's dev half and the dev misses where nothing was read.

An issue title that quotes a known message, or its first words, in Markdown backticks or quotes inside the sentence
(huggingface/diffusers#13015, a dev log: "[Bug] QwenImageEditPlus series error `Expected all tensors to be on the same
device` on NPU") was read as nothing fatal: only a title that opens with the message was taken (_opening_words).
A tool's own lower-case "error: <message>" line (git, uv, cargo, an MLIR pass manager) pasted alone was read as nothing
fatal too (chains.TOOL_ERROR).
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog import chain as chains
from ascendrl.catalog.classify import PASTE_LINES


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


@pytest.mark.parametrize("paste, said", [
    # triton-ascend's MLIR pass manager, pasted alone (triton-ascend#448, a dev log)
    ("error: Failed to run buildFinalHIVMPipelines pipeline\n", "Failed to run buildFinalHIVMPipelines pipeline"),
    # git's error() (usage.c)
    ("error: pathspec 'v0.9.1' did not match any file(s) known to git\n", "pathspec 'v0.9.1' did not match"),
])
def test_a_tools_lower_case_error_line_in_a_paste_is_the_failure(explain_text, paste, said):
    result, top = explain_text(paste)
    assert result.fatal
    assert said in (top.excerpt if top is not None else result.unknown.message)


def test_a_tools_error_line_in_a_long_log_is_not_read_so():
    # outside a short paste such a line may be one a program handled and went on after: not read as the failure
    assert chains.TOOL_ERROR.match("error: Failed to run buildFinalHIVMPipelines pipeline") is not None
    assert chains.TOOL_ERROR.match("error: the following files have changes:") is None  # a heading over its detail
    lines = "".join(f"step:{i} - actor/loss:0.1\n" for i in range(PASTE_LINES + 50))
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO((lines + "error: could not lock config file .git/config\n").encode()), "train.log")
    assert not classifier.result().fatal
