"""Recurring classes from 2025-2026 threads (session 18, kbrd): wordings of the new entries and the widened one, and
the class-owner rows, read as the failure each names."""

from __future__ import annotations

import io
import re

import pytest

from ascendrl.catalog import Classifier


def top(catalog, text):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "paste")
    return c.result().diagnoses[0]


@pytest.mark.parametrize("entry_id, line", [
    # verl seqlen_balancing.rearrange_micro_batches (f-string "{max_token_len=}")
    ("ARL-E1290", "AssertionError: max_token_len must be greater than the sequence length. Got max_token_len=8192 and max_seq_len=10240"),
    # verl monkey_patch.apply_monkey_patch, both asserts (the second keeps verl's missing space before "or")
    ("ARL-E1291", "AssertionError: num_attention_heads 28 must be divisible by ulysses_sp_size 8"),
    ("ARL-E1291", "AssertionError: num_key_value_heads 8 must be divisible by ulysses_sp_size 6or vise versa. Upon "
                  "ulysses_sp_size % num_key_value_heads == 0,kv heads are repeated to ensure correctness."),
    # vllm-ascend platform.check_and_update_config (v0.11.0rc1+)
    ("ARL-E1292", "ValueError: ACL graph is incompatible with ASCEND_LAUNCH_BLOCKING=1. Please unset ASCEND_LAUNCH_BLOCKING or set it to 0."),
    # verl megatron_utils.get_model before v0.9.0 (verl PR #6927) on Megatron-Core 0.18+, no "Did you mean" on Python < 3.10
    ("ARL-E1293", "AttributeError: type object 'ModelType' has no attribute 'encoder_and_decoder'"),
    # verl 0.7+ batch generate_sequences() on the async-only rollout (issue #4682)
    ("ARL-E1173", "NotImplementedError: vLLMAsyncRollout does not support synchronous generate_sequences(). The vLLM SPMD "
                  "mode was retired in PR #4411."),
    # verl 0.7 async rollout servers (vLLM and SGLang): the prompt grown past rollout.max_model_len
    ("ARL-E218", "ValueError: Prompt length (9017) exceeds the model's maximum context length (8192)."),
])
def test_each_wording_names_its_entry(catalog, entry_id, line):
    assert top(catalog, line + "\n").entry.id == entry_id


def test_the_token_budget_entry_is_not_the_unset_budget_assert(catalog):
    # "max_token_len must be set when use_dynamic_bsz is True" (Megatron actor, budget None) is another condition
    entry = catalog.by_id("ARL-E1290")
    assert not any(re.search(s.regex, "AssertionError: max_token_len must be set when use_dynamic_bsz is True") for s in entry.signatures)


@pytest.mark.parametrize("owner, text", [
    # vLLM 0.20 passes hash_block_size to a vllm-ascend scheduler written for the release before (vllm-ascend #9056)
    ("vllm", "TypeError: BalanceScheduler.__init__() got an unexpected keyword argument 'hash_block_size'\n"),
    # vllm-ascend's model runner reading a field of vLLM's scheduler output that this vLLM does not have
    ("vllm", 'Traceback (most recent call last):\n'
             '  File "/usr/local/lib/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", line 812, in _update_states\n'
             '    for req_id in scheduler_output.scheduled_cached_reqs.resumed_from_preemption:\n'
             "AttributeError: 'CachedRequestData' object has no attribute 'resumed_from_preemption'\n"),
    # a trust_remote_code modeling file written for transformers < 4.48 (Emu3 #74, OS-Atlas #57, LLaMA-Factory #8048)
    ("transformers", '  File "/home/user/.cache/huggingface/modules/transformers_modules/OS-Atlas-Base-4B/modeling_internvl_chat.py", '
                     'line 1330, in prepare_inputs_for_generation\n'
                     '    max_cache_length = past_key_values.get_max_length()\n'
                     "AttributeError: 'DynamicCache' object has no attribute 'get_max_length'\n"),
])
def test_a_class_the_owner_rows_name_is_a_package_pair(catalog, owner, text):
    d = top(catalog, text)
    assert (d.entry.id, d.kind) == ("DRV-package", "package-mismatch") and owner in d.entry.title, d.entry.title
