"""An issue title or one-line report whose words before the exception hold ``|`` separators or an ``=`` (s31).

Issue titles on vllm-ascend are often built as "[Bug]: <what> | <stack> | <Exception>: <message>", and a one-line report
may name a setting ("Doing ray.init with address = cluster ip results in ModuleNotFoundError: …"). Both were read as
nothing fatal: the title reading (chains.TITLE_EXC) took only words, commas, brackets and slashes before the type. The
lines are the pastes of vllm-project/vllm-ascend#1776 (title) and ray-project/ray#24823 (title), both dev logs.
"""

from __future__ import annotations

import pytest

from ascendrl.catalog import chain as chains


@pytest.mark.parametrize("line, exc", [
    ("Verl qwen2.5 grpo | vllm-ascend 091-dev | ValueError: infer_schema(func): Parameter block_size has unsupported type list[in",
     "ValueError: infer_schema(func): Parameter block_size has unsupported type list[in"),
    ("Doing ray.init with address = cluster ip results in ModuleNotFoundError: No module named 'ray.runtime_env'",
     "ModuleNotFoundError: No module named 'ray.runtime_env'"),
])
def test_a_title_with_separators_or_a_setting_is_read(line, exc):
    m = chains.TITLE_EXC.match(line)
    assert m is not None and m.group(1) == exc


@pytest.mark.parametrize("paste, said", [
    ("[Bug]: Verl qwen2.5 grpo | vllm-ascend 091-dev | ValueError: infer_schema(func): Parameter block_size has unsupported type list[in",
     "Parameter block_size has unsupported type"),
    ("Doing ray.init with address = cluster ip results in ModuleNotFoundError: No module named 'ray.runtime_env'",
     "No module named 'ray.runtime_env'"),
])
def test_the_title_is_the_diagnosed_line(explain_text, paste, said):
    result, top = explain_text(paste + "\n")
    assert result.fatal
    assert said in (top.excerpt if top is not None else result.unknown.message)  # an entry, an analyzer, or the unexplained error


@pytest.mark.parametrize("line", [
    # a program's record with a colon in its head is not a title (loguru: "time | LEVEL | module:function:line - message")
    "2024-05-01 10:00:00.123 | ERROR    | __main__:main:10 - ValueError: bad input",
    # words that say it was handled keep the line what it was
    "retrying | attempt=2 | ConnectionError: peer closed",
])
def test_what_a_title_is_not(line):
    m = chains.TITLE_EXC.match(line)
    assert m is None or chains.HANDLED.search(line[: m.start(1)])
