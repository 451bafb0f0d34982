"""A paste that is one sentence stating a failure, which no other reading took: the sentence is the error (session 18,
reading). Dev logs of this form from different threads: an issue title typed in lower case ("importerror: …so: undefined
symbol"), a title after a full-width colon ("… install failed：CUDA_HOME environment variable is not set"), a compiler's
message alone ("ub overflow, requires … bits while … bits available!"), a packaging check's sentence alone ("the socversion
… of bin package does not match the current device socverison …"). Read as ``Exception: <sentence>`` so the analyzers and
the similar-failure fallback see its words. Log records, multi-line pastes and sentences about handling or fixing stay as
they were.
"""

from __future__ import annotations

import pytest


def test_a_lone_untyped_sentence_is_the_failure(explain_text):
    # (This test's first sentence, MindIE's "device_ip is invalid in ranktable file", is an entry's signature since
    # session 20, ARL-E1600; a sentence no entry names stands in for it.)
    result, _ = explain_text("weight layout of the draft model cannot be mapped to NPU format\n")
    assert result.fatal and result.unknown is not None
    assert result.unknown.type == "Exception"
    assert result.unknown.message == "weight layout of the draft model cannot be mapped to NPU format"


def test_the_analyzers_read_its_words(explain_text):
    result, top = explain_text("LMcache install failed：CUDA_HOME environment variable is not set\n")
    assert result.fatal and top is not None and top.kind == "cuda-only-package-on-npu", top


def test_a_title_typed_in_lower_case(explain_text):
    result, top = explain_text("importerror: /flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol\n")
    assert result.fatal and top is not None and top.kind == "extension-torch-abi-mismatch", top


def test_an_issue_title_tag_comes_off(explain_text):
    result, _ = explain_text("[Bug]: weight layout of the draft model cannot be mapped to NPU format\n")
    assert result.unknown is not None and result.unknown.message == "weight layout of the draft model cannot be mapped to NPU format"


@pytest.mark.parametrize("text", [
    # a logger's record at ERROR level that the code carried on after (vllm-ascend's camem, a healthy start-up)
    "ERROR 04-28 16:10:09 camem.py:69] Failed to import vllm_ascend_C:No module named 'vllm_ascend.vllm_ascend_C'\n",
    "torch_npu.memory: [ERROR] [269128] Get a block from the existing pool failed. Try to free cached blocks and reallocate.\n",
    "WARNING: the socversion Ascend910B1 of bin package does not match the current device\n",
    "[W1204 11:18:17.728425480 ProcessGroupHCCL.cpp:903] launch failed for Cast\n",
    # a sentence that states no failure, or one about fixing or handling it
    "Available KV cache memory: 8.11 GiB\n",
    "fix ub overflow when BLOCK_SIZE is large\n",
    "Retrying: device_ip is invalid in ranktable file, ignored\n",
    # a line of code, and a sentence that names an exception class (the typed readers judge those)
    "assert isinstance(device, torch.device) failed\n",
    # two lines: not one sentence
    "Starting the rollout workers\ndevice_ip is invalid in ranktable file\n",
])
def test_records_code_other_words_and_longer_pastes_stay_as_they_were(explain_text, text):
    result, _ = explain_text(text)
    assert not (result.unknown is not None and result.unknown.type == "Exception"), result.unknown
