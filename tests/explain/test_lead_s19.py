"""Session 19, lead: a known message quoted by its first words at the end of a line (an issue title) is read; the
same words inside advice are not."""

import pytest

from conftest import top_of


@pytest.mark.parametrize("text", [
    "0.11.0rc0 OOM! Failed run Qwen3-Next with RuntimeError: Worker with error 'NPU out of memory.",
    "部署报错NPU out of memory",
])
def test_npu_oom_quoted_by_its_first_words_at_a_line_end_is_the_allocator_failure(explain_text, text):
    top, seen = top_of(explain_text, text + "\n")
    assert top == "ARL-E204", seen


def test_the_same_words_inside_advice_are_not_a_failure(explain_text):
    top, seen = top_of(explain_text, "To avoid NPU out of memory, lower gpu_memory_utilization to 0.7\n")
    assert top is None and not seen, seen
