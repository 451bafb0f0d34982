"""Session 19, lead: a known message quoted by its first words at the end of a line (an issue title) is read; the
same words inside advice are not."""

import io

from ascendrl.catalog import Classifier, load_catalog


def _top(text: str) -> list[str]:
    c = Classifier(load_catalog())
    c.feed_stream(io.BytesIO(text.encode()), "paste")
    return [d.entry.id for d in c.result().diagnoses]


def test_npu_oom_quoted_by_its_first_words_at_a_line_end_is_the_allocator_failure():
    assert _top("0.11.0rc0 OOM! Failed run Qwen3-Next with RuntimeError: Worker with error 'NPU out of memory.\n")[:1] == ["ARL-E204"]
    assert _top("部署报错NPU out of memory\n")[:1] == ["ARL-E204"]


def test_the_same_words_inside_advice_are_not_a_failure():
    assert _top("To avoid NPU out of memory, lower gpu_memory_utilization to 0.7\n") == []
