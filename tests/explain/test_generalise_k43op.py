"""Helper k43op (2026-12-05), operator / dtype / memory / nz families.

- vLLM's start-up guard ("Free memory on device [D] (F/T GiB) on startup is less than desired GPU memory utilization
  (U, R GiB)", vLLM's V1 worker and vllm-ascend's NPUWorker, with the device named from the releases whose
  request_memory prints it) is read by DRV-memory: what was free, what the utilization asked for, what was already
  held, and the largest gpu_memory_utilization that fits. Without ARL-E206 the analyzer names the class itself
  (npu-memory-occupied); with it, the numbers are the entry's notes.
- MindSpore's pool refusals (ARL-E652's signatures: the dynamic pool's "TotalUsedMemStatistics : U [plus
  TotalUsedByEventMemStatistics : E and] plus alloc size : A is more than total mem size : T", the adapter's "Out of
  Memory!!! Request memory size: R") are read by DRV-mindspore-memory for their numbers: the request and the shortfall.
- Host RAM in NumPy's words ("Unable to allocate <size> for an array with shape <shape> and data type <dtype>", every
  release since 1.17) and a bare MemoryError are read by DRV-memory as host-oom, with the size; a size past any host's
  RAM is a shape computed wrong (corrupted-allocation-size).
"""

from __future__ import annotations

import dataclasses

from ascendrl.catalog import load_catalog
from kdata_helpers import classify

CATALOG = load_catalog()
WITHOUT_E206 = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E206"))


def _top(text: str, catalog=CATALOG):
    result = classify(catalog, text, "paste.log")
    diagnoses = result.diagnoses
    return diagnoses[0] if diagnoses else None


def _text(d) -> str:
    return " ".join([d.entry.title, d.entry.cause, *d.entry.fix, *d.notes])


# vLLM <= 0.11 and vllm-ascend's NPUWorker (worker.py): no device in the message.
UNNAMED = ("ValueError: Free memory on device (20.12/61.27 GiB) on startup is less than desired GPU memory utilization "
           "(0.9, 55.14 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n")
# Later vLLM (vllm/v1/worker/utils.py request_memory) names the device.
NAMED = ("(EngineCore_DP0 pid=245) ValueError: Free memory on device cuda:0 (12.18/23.56 GiB) on startup is less than "
         "desired GPU memory utilization (0.92, 21.67 GiB). Decrease GPU memory utilization or reduce GPU memory used by "
         "other processes.\n")


def test_the_guard_without_its_entry_is_read_from_its_numbers():
    top = _top(UNNAMED, WITHOUT_E206)
    assert (top.entry.id, top.kind) == ("DRV-memory", "npu-memory-occupied")
    text = _text(top)
    assert "20.12 of 61.27 GiB free" in text and "41.15 GiB (67% of the card) was already held" in text
    assert "gpu_memory_utilization (vLLM's --gpu-memory-utilization) to at most 0.31" in text


def test_the_named_device_form_is_the_same_class():
    top = _top(NAMED, WITHOUT_E206)
    assert (top.entry.id, top.kind) == ("DRV-memory", "npu-memory-occupied")
    assert "cuda:0 had 12.18 of 23.56 GiB free" in _text(top) and "at most 0.50" in _text(top)


def test_with_the_entry_the_numbers_are_its_notes():
    top = _top(NAMED)
    assert top.entry.id == "ARL-E206" and top.kind == "npu-memory-occupied"
    assert any("at most 0.50" in n for n in top.notes), top.notes


def test_a_card_with_almost_nothing_free_gets_no_utilization_to_set():
    text = ("ValueError: Free memory on device (0.3/64.0 GiB) on startup is less than desired GPU memory utilization "
            "(0.9, 57.6 GiB). Decrease GPU memory utilization or reduce GPU memory used by other processes.\n")
    top = _top(text, WITHOUT_E206)
    assert top.entry.id == "DRV-memory"
    assert "no gpu_memory_utilization fits" in _text(top) and "at most" not in _text(top)


def test_the_info_line_after_warmup_is_not_a_failure():
    # vllm-ascend's / vLLM's informational summary uses the same opening words but reports no refusal.
    text = ("INFO 07-01 10:00:00 [worker.py:790] Free memory on device (60.1/64.0 GiB) on startup. Desired GPU memory "
            "utilization is (0.9, 57.6 GiB). Actual usage: 16.2 GiB for weights, 2.1 GiB for peak activation.\n")
    top = _top(text, WITHOUT_E206)
    assert top is None or top.entry.id != "DRV-memory"


# MindSpore's pool refusals (ARL-E652's signatures) read for their numbers by DRV-mindspore-memory. The dynamic pool's
# line as candle-org/MindAct#1761 (a dev thread) printed it; the adapter's, raised as MindSpore's RuntimeError with its
# "Framework Error Message" block (the numbers of MindSpore's r2.1 memory-offload tutorial).
WITHOUT_E652 = dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id != "ARL-E652"))
POOL_LINE = (
    "[ERROR] PRE_ACT(54175,fffdbcff91e0,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/backend/common/mem_reuse/"
    "mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus "
    "TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600.\n"
)
ADAPTER = """\
Traceback (most recent call last):
  File "cifa_resnet50.py", line 88, in <module>
    train_net()
RuntimeError: 
----------------------------------------------------
- Framework Error Message:
----------------------------------------------------
Out of Memory!!! Request memory size: 33100113920B, Memory Statistic:
Device HBM memory size: 32768M
MindSpore Used memory size: 30684M
"""


def test_the_dynamic_pool_refusal_without_its_entry_gives_the_shortfall():
    top = _top(POOL_LINE, WITHOUT_E652)
    assert (top.entry.id, top.kind) == ("DRV-mindspore-memory", "npu-oom")
    assert "27.34 GiB in use of its 27.44 GiB and was asked for 0.28 GiB more: short by 0.18 GiB" in _text(top)
    assert "max_device_memory" in _text(top)


def test_the_adapter_refusal_gives_the_request_and_is_the_entrys_note():
    alone = _top(ADAPTER, WITHOUT_E652)
    assert (alone.entry.id, alone.kind) == ("DRV-mindspore-memory", "npu-oom")
    assert "could not place a 30.83 GiB block" in _text(alone)
    full = _top(ADAPTER)
    assert full.entry.id == "ARL-E652" and full.kind == "npu-oom"
    assert any("30.83 GiB" in n for n in full.notes), full.notes


def test_the_event_memory_term_is_optional_and_counted():
    head = ("[ERROR] PRE_ACT(1,fffd,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/backend/common/mem_reuse/"
            "mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] ")
    line = ("TotalUsedMemStatistics : 30064771072 plus TotalUsedByEventMemStatistics : 1073741824 and plus alloc size : "
            "2147483648 is more than total mem size : 32212254720.\n")
    top = _top(head + line, WITHOUT_E652)
    assert "(and 1.00 GiB held by events)" in _text(top) and "short by 1.00 GiB" in _text(top)
    older = "TotalUsedMemStatistics : 30064771072 plus alloc size : 3221225472 is more than total mem size : 32212254720.\n"
    assert "short by 1.00 GiB" in _text(_top(head + older, WITHOUT_E652))


# Host RAM in NumPy's words (numpy._core._exceptions._ArrayMemoryError, a MemoryError): "Unable to allocate <size> for
# an array with shape <shape> and data type <dtype>" (numpy >= 1.18; '{:#.3g}' prints "201." for three digits), and
# numpy 1.17's form without the size. A size past any host's RAM is a shape computed wrong, not a shortage.
def test_numpy_allocation_is_host_ram_with_its_size():
    text = ("numpy._core._exceptions._ArrayMemoryError: Unable to allocate 32.0 GiB for an array with shape "
            "(2048, 2048, 2048, 4) and data type uint8\n")
    top = _top(text)
    assert (top.entry.id, top.kind) == ("DRV-memory", "host-oom")
    assert "NumPy could not allocate 32.0 GiB for an array of shape (2048, 2048, 2048, 4) (uint8)" in _text(top)


def test_three_digit_sizes_and_the_older_wording():
    three = "MemoryError: Unable to allocate 201. GiB for an array with shape (2999, 2999, 2999) and data type int64\n"
    assert "allocate 201. GiB" in _text(_top(three)) and _top(three).kind == "host-oom"
    older = "numpy.core._exceptions.MemoryError: Unable to allocate array with shape (9681, 9681) and data type float64\n"
    top = _top(older)
    assert top.kind == "host-oom" and "array of shape (9681, 9681) (float64)" in _text(top)


def test_a_size_past_any_host_is_a_wrong_shape():
    text = """\
Traceback (most recent call last):
  File "merge.py", line 12, in <module>
    buf = np.empty((n_tokens, vocab), dtype=np.float32)
numpy.core._exceptions._ArrayMemoryError: Unable to allocate 4.64 PiB for an array with shape (8589934592, 151936) and data type float32
"""
    top = _top(text)
    assert (top.entry.id, top.kind) == ("DRV-memory", "corrupted-allocation-size")
    assert "the shape itself is wrong" in _text(top)


def test_a_bare_memory_error_is_host_ram_and_other_messages_are_not_read():
    bare = 'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    x = foo()\nMemoryError\n'
    assert _top(bare).kind == "host-oom"
    # A MemoryError with words of its own is not claimed by the bare reading.
    other = "MemoryError: cannot allocate write+execute memory for ffi.callback()\n"
    top = _top(other)
    assert top is None or top.entry.id != "DRV-memory"
