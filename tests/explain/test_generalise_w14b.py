"""Round-14 dev misses, generalised (session 16, helper w14b): the wordings of each class, on pastes written here."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("line", [
    # torch_npu's workspace allocator (aclnn/ATB op workspaces) after emptying both caches
    "[rank0]:[E1204 11:18:17.728425480 compiler_depend.ts:444] NPU out of memory. NPUWorkspaceAllocator tried to allocate 1.89 GiB"
    "(NPU 7; 60.96 GiB total capacity; 1.82 GiB free). If you want to reduce memory usage, take a try to set the environment "
    "variable TASK_QUEUE_ENABLE=1.",
    # the caching allocator's wording, unchanged
    "RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB (NPU 3; 60.96 GiB total capacity; 60.34 GiB already allocated)",
])
def test_both_torch_npu_allocators_oom_is_npu_oom(explain_text, line):
    _, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == "ARL-E204"


def test_the_caching_allocator_size_error_is_not_an_oom(explain_text):
    _, top = explain_text("RuntimeError: The allocated memory 2097152 bytes is smaller than the required memory 2097184 bytes.\n")
    assert top is None or top.entry.id != "ARL-E204"


GCS_DOWN = (
    "[2026-04-20 17:24:52,119 W 1 1] rpc_client.h:153: Failed to connect to GCS at address 10.0.0.2:41000 within 5 seconds.\n"
    "[2026-04-20 17:25:22,120 W 1 1] gcs_client.cc:205: Failed to get cluster ID from GCS server: TimedOut: Timed out while "
    "waiting for GCS to become available.\n"
)
PG_SHORT = (
    "No current placement group found. Creating a new placement group.\n"
    "ValueError: The number of required NPUs exceeds the total number of available NPUs in the placement group.\n"
)


def test_a_node_that_cannot_reach_the_gcs_explains_the_placement_group_shortfall(explain_text):
    result, top = explain_text(PG_SHORT + GCS_DOWN)
    assert top is not None and top.entry.id == "ARL-E119"
    assert "ARL-E513" in {d.entry.id for d in result.diagnoses}


def test_a_placement_group_shortfall_alone_stays_the_shortfall(explain_text):
    _, top = explain_text(PG_SHORT)
    assert top is not None and top.entry.id == "ARL-E513"


def test_the_cluster_id_timeout_alone_is_the_unreachable_gcs(explain_text):
    _, top = explain_text(GCS_DOWN.splitlines(keepends=True)[1])
    assert top is not None and top.entry.id == "ARL-E119"


def _split(tail: str, n: int, size: int) -> str:
    return (
        "Traceback (most recent call last):\n"
        + tail
        + '  File "/usr/local/lib/python3.11/site-packages/vllm/distributed/utils.py", line 57, in divide\n'
        + "    ensure_divisibility(numerator, denominator)\n"
        + '  File "/usr/local/lib/python3.11/site-packages/vllm/distributed/utils.py", line 50, in ensure_divisibility\n'
        + '    assert numerator % denominator == 0, "{} is not divisible by {}".format(numerator, denominator)\n'
        + f"AssertionError: {n} is not divisible by {size}\n"
    )


EMBED = ('  File "/usr/local/lib/python3.11/site-packages/vllm/model_executor/layers/vocab_parallel_embedding.py", line 270, '
         "in __init__\n    self.num_embeddings_per_partition = divide(self.num_embeddings_padded, self.tp_size)\n")
ATTN = ('  File "/usr/local/lib/python3.11/site-packages/vllm/attention/layer.py", line 120, in __init__\n'
        "    self.num_heads = divide(num_heads, tp_size)\n")


@pytest.mark.parametrize("paste", [
    _split(EMBED, 32000, 3),  # a small vocabulary, named by the embedding's frame
    "AssertionError: 151552 is not divisible by 6\n",  # a frameless paste: no head or expert count is this large
])
def test_a_vocabulary_split_is_named_as_the_vocabulary(explain_text, paste):
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "DRV-parallel-split" and top.kind == "tp-size-not-divisor-of-vocab"


@pytest.mark.parametrize("paste", [_split(ATTN, 28, 8), "AssertionError: 40 is not divisible by 6\n"])
def test_a_head_split_stays_a_head_split(explain_text, paste):
    _, top = explain_text(paste)
    assert top is not None and top.kind == "tp-size-not-divisor-of-heads"


@pytest.mark.parametrize("key", ["__RAY_WORKER_PROCESS_SETUP_HOOK_ENV_VAR", "__RAY_WORKER_SETUP_FUNC_KEY"])
def test_the_reserved_setup_hook_var_outranks_the_engine_wrapper(explain_text, key):
    result, top = explain_text(
        f"(EngineCore_DP0 pid=11) ERROR 03-18 23:23:32 [core.py:1006] AssertionError: The env var, {key}, is not permitted "
        "because it is reserved for the internal use.\n"
        "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n")
    assert top is not None and top.entry.id == "ARL-E1110"


def test_another_runtime_env_assertion_is_not_the_reserved_var(explain_text):
    _, top = explain_text("AssertionError: The env var, RAY_ADDRESS, must be a string.\n")
    assert top is None or top.entry.id != "ARL-E1110"


def test_the_runtimes_e39009_device_connect_failure_is_the_lost_device(explain_text):
    """E39009's text and its possible-cause line as CANN's error table (hicann/runtime error_code.json) words them."""
    text = ("[ERROR] RecentErrMsg: Inner_Error_Device_Status_Abnormal(E39009): Failed to connect the device.\n"
            "        Possible Cause: 1. Heartbeats are missing on the device. 2. The underlying channel is disconnected.\n")
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E314"

