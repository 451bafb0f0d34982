"""MindSpore's device memory read in its allocator's own words (k35rt).

MindSpore raises its device-memory failures with its own texts, not torch_npu's or CANN's (mindspore/ccsrc:
AscendMemAdapter::Initialize / MallocFromRts in plugin/device/ascend/hal/device/ascend_memory_adapter.cc, the graph
scheduler's memory actors, DynamicMemPoolBestFit in backend/common/mem_reuse/mem_dynamic_allocator.cc). Two classes:
the card already held by another process when MindSpore reserves its pool (npu-memory-occupied), and this run's own
tensors past the pool MindSpore holds (npu-oom). The lines are the emitters' templates with numbers filled in; the
catalog entries that name some of these texts are taken out, so what is checked is the analyzer's reading.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from ascendrl.catalog import Classifier, load_catalog

# the entry written for one of the texts (E1765 the adapter's half-free check)
NAMED = {"ARL-E1765"}


def _top(text: str):
    catalog = load_catalog()
    catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in NAMED))
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    assert result.diagnoses, result.unknown
    return result.diagnoses[0]


@pytest.mark.parametrize("line, kind, words", [
    # graph scheduler actors (MS_LOG(EXCEPTION), raised to Python as RuntimeError)
    ("RuntimeError: Device(id:0) memory isn't enough and alloc failed, kernel name: Default/MatMul-op12, alloc size: "
     "2147483648B.", "npu-oom", "2.00 GiB"),
    ("RuntimeError: Device memory isn't enough and alloc failed, actor name: kernel_graph_0, alloc size: 1073741824",
     "npu-oom", "1.00 GiB"),
    # AscendMemAdapter::MallocFromRts: the pool's reservation itself failed, the card's free memory given
    ("RuntimeError: Malloc device memory failed, size[32212254720], ret[207001], Device 3 Available HBM size:34359738368 "
     "free size:1073741824 may be other processes occupying this card, check as: ps -ef|grep python",
     "npu-memory-occupied", "1.00 GiB free of 32.00 GiB"),
])
def test_mindspore_memory_texts_are_read(line, kind, words):
    top = _top(line + "\n")
    assert (top.entry.id, top.basis, top.kind) == ("DRV-mindspore-memory", "derived", kind)
    assert words in top.entry.title


def test_the_pool_texts_an_entry_names_are_left_to_it():
    """The pool's own refusals are ARL-E652's signatures: the analyzer does not read them a second time."""
    for line in ("RuntimeError: Out of Memory!!! Request memory size: 536870912, Memory Statistic:",
                 "RuntimeError: TotalUsedMemStatistics : 29356337664 plus TotalUsedByEventMemStatistics : 0 and plus alloc "
                 "size : 301990400 is more than total mem size : 29464985600."):
        classifier = Classifier(load_catalog())
        classifier.feed_stream(io.BytesIO((line + "\n").encode()), "paste.log")
        ids = [d.entry.id for d in classifier.result().diagnoses]
        assert ids[0] == "ARL-E652" and "DRV-mindspore-memory" not in ids


def test_the_reason_under_the_runtime_init_error_outranks_the_init_failure():
    # MindSpore's runtime-init error can carry the allocator's refusal under its "Framework Error Message" header (the
    # #umsg#Framework Error Message:#umsg# prefix of AscendMemAdapter's message): the reason is the diagnosis, not acl-init-failed
    text = ("RuntimeError: Ascend kernel runtime initialization failed. The details refer to 'Ascend Error Message'.\n\n"
            "----------------------------------------------------\n- Framework Error Message:\n"
            "----------------------------------------------------\n"
            "Malloc device memory failed, free memory size is less than half of total memory size.Device 5 Device HBM total "
            "size:68719476736 Device HBM free size:4294967296 may be other processes occupying this card, check as: ps -ef|grep python\n")
    top = _top(text)
    assert (top.entry.id, top.kind) == ("DRV-mindspore-memory", "npu-memory-occupied")
    assert "NPU 5" in top.entry.title


def test_other_out_of_memory_texts_are_not_mindspores():
    # torch_npu's allocator is DRV-memory's; a host allocation is not the device's
    for line in ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.00 GiB "
                 "already allocated; 1.00 GiB free; 59.00 GiB reserved in total by PyTorch)",
                 "RuntimeError: [enforce fail at alloc_cpu.cpp:73] . DefaultCPUAllocator: can't allocate memory: you tried to "
                 "allocate 116813856768 bytes. Error code 12 (Cannot allocate memory)"):
        classifier = Classifier(load_catalog())
        classifier.feed_stream(io.BytesIO((line + "\n").encode()), "paste.log")
        result = classifier.result()
        assert all(d.entry.id != "DRV-mindspore-memory" for d in result.diagnoses)


# ---- a C++ logger's fatal record (classify._native_reading) ----------------------------------------

def _explain_without(text: str, drop: set[str]):
    catalog = load_catalog()
    catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in drop))
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def test_a_logger_record_of_the_pool_is_named_by_its_entry():
    # MindSpore logs the dynamic pool's refusal at ERROR (MS_LOG(ERROR) in DynamicMemPoolBestFit) and the paste stops
    # in the traceback above the exception: the record is the failure, ARL-E652's (the analyzers' native-record reading,
    # classify._native_reading, is asserted in test_generalise_k35op.py)
    text = ("[ERROR] PRE_ACT(54175,fffdbcff91e0,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/backend/common/mem_reuse/"
            "mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus "
            "TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600.\n"
            "Traceback (most recent call last):\n"
            '  File "/data/run_gemma.py", line 17, in <module>\n'
            "    outputs = model.generate(**input_ids)\n")
    result = _explain_without(text, set())
    assert result.unknown is None
    assert [d.entry.id for d in result.diagnoses if d.fatal] == ["ARL-E652"]


def test_a_record_no_analyzer_reads_stays_unknown():
    text = ("[ERROR] DEVICE(1,ffff,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/x.cc:1 Run] the widget frobnicated "
            "unexpectedly\n")
    result = _explain_without(text, set())
    assert not result.diagnoses and result.unknown is not None and result.unknown.type == "Exception"


def test_a_record_is_not_read_as_a_persons_words():
    # Ray's raylet logs its OOM killer's summary at ERROR; with the entry for that text taken out, the words reading of
    # prose_words.yaml (meant for a person's issue title) does not stand in for it
    text = ("[2025-12-07 09:57:19,206 E 393463 393463] (raylet) node_manager.cc:3277: 2 Workers (tasks / actors) killed due "
            "to memory pressure (OOM), 0 Workers crashed due to other reasons at node\n")
    result = _explain_without(text, {"ARL-E117"})
    assert all(d.entry.id != "DRV-named-in-words" for d in result.diagnoses)


# ---- a division by zero batches per epoch (data.EmptyEpoch) ------------------------------------------------------------

def _tb(code: str, path: str = "/opt/verl/verl/trainer/fsdp_sft_trainer.py") -> str:
    return ("Traceback (most recent call last):\n"
            f'  File "{path}", line 716, in fit\n'
            f"    {code}\n"
            "ZeroDivisionError: integer division or modulo by zero\n")


@pytest.mark.parametrize("code", [
    "start_epoch = global_step // self.steps_per_epoch",  # verl's SFT trainer before its guard
    "epoch = self.global_step / len(self.train_dataloader)",
    "lr_step = step % num_batches",
])
def test_a_division_by_the_batches_per_epoch_is_an_empty_dataset(code):
    top = _explain_without(_tb(code), {"ARL-E611"}).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-empty-epoch", "dataset-too-small")


def test_other_divisions_by_zero_are_not():
    # a config size in verl's own assert is the config condition's (DRV-verl); a division by another count is not the data's
    result = _explain_without(
        "Traceback (most recent call last):\n"
        '  File "/opt/verl/verl/workers/critic/dp_critic.py", line 54, in __init__\n'
        "    assert self.config.ppo_mini_batch_size % self.config.ppo_micro_batch_size == 0\n"
        "ZeroDivisionError: integer division or modulo by zero\n", set())
    assert result.diagnoses[0].entry.id != "DRV-empty-epoch"
    result = _explain_without(_tb("loss = total_loss / num_tokens", "/home/user/train.py"), set())
    assert all(d.entry.id != "DRV-empty-epoch" for d in result.diagnoses)
