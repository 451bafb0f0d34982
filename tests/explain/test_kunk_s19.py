"""Unexplained exceptions whose class holds beyond their own thread (session 19, kunk).

- A lone sentence is its emitter's sentence with the type not pasted: the classifier reads a one-sentence paste as
  ``Exception: <sentence>`` (classify._lone_sentence), and analyzers that recognise an emitter's exact sentence but
  checked the exception type first (ValueError for vLLM's length check, HfArgumentParser's leftover flags, datasets'
  columns) turned it away. ``analyzers.typed`` takes a lone sentence as any of the types: the person never pasted one.
  Dev logs that paste a sentence alone: verl-673 (vLLM's prompt-length check), and the lone-sentence class of the
  leave-thread-out misses.
"""

from __future__ import annotations

import dataclasses

import pytest

from conftest import top_of


def _without(catalog, ids):
    return dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in ids))


def _explain(catalog, tmp_path, text, drop=()):
    from ascendrl.catalog import explain_paths

    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    result = explain_paths(_without(catalog, set(drop)), [log])
    return result, [(d.entry.id, d.kind) for d in result.diagnoses]


def test_a_lone_prompt_length_sentence_is_read_without_its_entry(catalog, tmp_path):
    """vLLM's prompt check pasted alone (verl-673's form): ARL-E218 names it; without it, DRV-prompt-length does."""
    text = "Input prompt (6768 tokens) is too long and exceeds limit of 4096\n"
    result, seen = _explain(catalog, tmp_path, text, drop=["ARL-E218"])
    assert seen and seen[0] == ("DRV-prompt-length", "prompt-exceeds-max-model-len"), seen
    assert result.fatal


def test_the_same_sentence_with_its_entry_stays_the_entry(explain_text):
    top, seen = top_of(explain_text, "Input prompt (6768 tokens) is too long and exceeds limit of 4096\n")
    assert top == "ARL-E218", seen


def test_a_lone_unused_arguments_sentence(explain_text):
    """HfArgumentParser's leftover-flags sentence without its ValueError: the flags are still read."""
    top, seen = top_of(explain_text, "Some specified arguments are not used by the HfArgumentParser: ['--foo', '1']\n")
    assert (top, seen[0][1]) == ("DRV-cli-args", "unrecognized-cli-args"), seen


def test_a_lone_dataset_columns_sentence(explain_text):
    top, seen = top_of(explain_text, "Columns ['prompt'] not in the dataset. Current columns in the dataset: ['text', 'label']\n")
    assert (top, seen[0][1]) == ("DRV-dataset-columns", "data-missing-field"), seen


@pytest.mark.parametrize("text", [
    # transformers' tokenizer warning: a sequence longer than the model's length, no prompt refused (near miss)
    "Token indices sequence length is longer than the specified maximum sequence length for this model (6000 > 4096). "
    "Running this sequence through the model will result in indexing errors\n",
    # a sentence about a fix, not a failure
    "Fixed by raising max_model_len: Input prompt (6768 tokens) is too long and exceeds limit of 4096\n",
])
def test_near_misses_stay_unnamed(catalog, tmp_path, text):
    result, seen = _explain(catalog, tmp_path, text, drop=["ARL-E218"])
    assert all(i != "DRV-prompt-length" for i, _ in seen), seen


def test_a_typed_exception_with_frames_is_not_a_lone_sentence(catalog, tmp_path):
    """A program that raised the base Exception with that sentence in a traceback: typed() does not widen it."""
    from ascendrl.catalog.analyzers import lone
    from ascendrl.catalog.chain import Frame, Link

    frame = Frame(path="/x/site-packages/app/run.py", line=3, func="main")
    assert lone(Link("bare", "Exception", "Input prompt (6768 tokens) is too long", "x.log", 1))
    assert not lone(Link("python", "Exception", "Input prompt (6768 tokens) is too long", "x.log", 1, frames=[frame]))
    assert not lone(Link("bare", "RuntimeError", "Input prompt (6768 tokens) is too long", "x.log", 1))


# --- DRV-native-build: the NPU packages' setup.py wrapper "CMake configuration failed: <CalledProcessError>" (vllm-ascend
# setup.py since v0.7.3, LMCache-Ascend's copy): the package's custom-op build, even when the failed command is the pybind11
# lookup and no NPU word is pasted (dev verl-2706).
def test_the_npu_setup_cmake_wrapper_is_the_custom_ops_build(catalog, tmp_path):
    """ARL-E272 (vllm-ascend's build failing) names it with the finding folded in; without it the finding is the diagnosis."""
    text = ("RuntimeError: CMake configuration failed: Command '['/home/user/envs/py310/bin/python', '-m', 'pybind11', "
            "'--cmakedir']' returned non-zero exit status 2.\n")
    _, seen = _explain(catalog, tmp_path, text)
    assert seen and seen[0][1] == "custom-ops-build-failed", seen
    _, seen = _explain(catalog, tmp_path, text, drop=["ARL-E272"])
    assert seen and seen[0] == ("DRV-native-build", "custom-ops-build-failed"), seen


def test_a_plain_subprocess_failure_is_not_a_native_build(explain_text):
    text = "subprocess.CalledProcessError: Command '['git', 'clone', 'https://x/y']' returned non-zero exit status 128.\n"
    _, seen = top_of(explain_text, text)
    assert all(i != "DRV-native-build" for i, _ in seen), seen
