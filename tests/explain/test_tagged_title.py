"""An issue title in its template's tags, over start-up lines that hold no error, is the error (stop 19, lead).

People paste the lines before the failure and put the failure in the title ("[Usage]: CUDA error: invalid device ordinal
When Run on 2*H200 with -tp 4", vllm-project/vllm#16456, a dev log). A one-line paste was already read as a lone
sentence; with the start-up lines under it nothing was. Only the first line, only with a tag, only when its words state a
failure, and only when nothing else in the paste was read.
"""

from __future__ import annotations

import pytest

START = ("INFO 04-10 22:30:31 [__init__.py:239] Automatically detected platform cuda.\n"
         "INFO 04-10 22:30:34 [api_server.py:1034] vLLM API server version 0.8.3\n")


def test_a_tagged_title_over_start_up_lines_is_read(explain_text):
    result, top = explain_text("[Usage]: CUDA error: invalid device ordinal When Run on 2*H200 with -tp 4\n" + START)
    assert result.fatal and top is not None and top.entry.id == "DRV-device" and top.kind == "invalid-visible-device"
    assert top.entry.title.startswith("GPU id")  # a CUDA host: its own variable, not ASCEND_RT_VISIBLE_DEVICES
    assert "CUDA_VISIBLE_DEVICES" in top.entry.cause


def test_the_npu_form_keeps_the_npu_reading(explain_text):
    _, top = explain_text("[Bug]: RuntimeError: Set visible device failed, invalid device=3, input visible devices:0,1\n"
                          "INFO 04-10 22:30:31 [__init__.py:239] Automatically detected platform npu.\n")
    assert top is not None and top.kind == "invalid-visible-device" and "GPU" not in top.entry.title
    assert "ASCEND_RT_VISIBLE_DEVICES" in top.entry.title + top.entry.cause


@pytest.mark.parametrize("first", [
    "[Usage]: How to run Qwen2.5-VL with tensor parallel 4 on two nodes",  # a question, no failure stated
    "CUDA error: invalid device ordinal When Run on 2*H200 with -tp 4",  # no tag: a person's sentence, not the title form
    "[Feature]: support tensor parallel 4 when not enough GPUs",  # a request: its "not" states no failure
    "[RFC]: fail fast when the visible devices are fewer than tensor parallel",
])
def test_untagged_or_failure_free_titles_stay_unread(explain_text, first):
    result, top = explain_text(first + "\n" + START)
    assert not result.fatal and top is None


def test_a_title_is_not_read_when_the_log_below_has_the_error(explain_text):
    result, top = explain_text("[Bug]: training crashed after a few steps\n"
                               "Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n"
                               "    import acl\nModuleNotFoundError: No module named 'acl'\n")
    assert top is not None and top.entry.id == "ARL-E300"


@pytest.mark.parametrize("paste", ["\n\n\n", "   \n\t\n"])
def test_a_paste_of_blank_lines_reads_nothing(explain_text, paste):
    result, top = explain_text(paste)
    assert not result.fatal and top is None
