"""Pastes where explain found nothing (session 28, k20none): an exception named mid-sentence with its module path
("… faced with error: json.decoder.JSONDecodeError: …", "`socket.gaierror: [Errno -2] …`"), and three classes whose
exception states the mechanism (catalog/analyzers/wire.py); and a Chinese lead-in ending in 报错/错误/失败 before the
English message it introduces (the message is the failure, read as a lone sentence). Each test runs without the
entries that cite the threads the lines come from, so the reading and the analyzer are what answers.
"""

from __future__ import annotations

import dataclasses

import pytest

ENTRIES = ("ARL-E1961", "ARL-E1962", "ARL-E1964")


def _explain(catalog, tmp_path, text: str, keep_entries: bool = False):
    from ascendrl.catalog import explain_paths

    if not keep_entries:
        catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in ENTRIES))
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    result = explain_paths(catalog, [log])
    return result, (result.diagnoses[0] if result.diagnoses else None)


@pytest.mark.parametrize("text, kind", [
    # module-qualified exceptions after a lead-in (RossiyaSegodnya/ria_news_dataset#4, TencentCloudADP/youtu-agent#195)
    ("And faced with error: json.decoder.JSONDecodeError: Extra data: line 2 column 1 (char 3164)\n", "jsonl-read-as-json"),
    (' show json.decoder.JSONDecodeError: Extra data: line 2 column 1 (char 694)\n', "jsonl-read-as-json"),
    # Python 2 / old json's ValueError with a range (the wording cpython's errmsg printed)
    ("ValueError: Extra data: line 2 column 1 - line 991 column 1 (char 700 - 901156)\n", "jsonl-read-as-json"),
    # huggingface/huggingface_hub#2936; requests' own class (huggingface/datasets#6488)
    ("The following error was encountered: huggingface_hub.errors.HfHubHTTPError: 429 Client Error: Too Many Requests for url.\n",
     "hf-hub-rate-limited"),
    ("`requests.exceptions.HTTPError: 429 Client Error: Too Many Requests for url: https://huggingface.co/datasets/x/y/resolve/"
     "abc/train/chunk1/a.jsonl.zst`\n", "hf-hub-rate-limited"),
    # vllm-project/vllm#2407: the socket module's lower-case class, in backticks inside a sentence
    ("Getting error `socket.gaierror: [Errno -2] Name or service not known` from `get_ip()` function in utils.py\n",
     "hostname-unresolvable"),
    ("socket.gaierror: [Errno -3] Temporary failure in name resolution\n", "hostname-unresolvable"),
])
def test_the_mechanism_is_named_without_the_threads_entries(catalog, tmp_path, text, kind):
    result, top = _explain(catalog, tmp_path, text)
    assert top is not None and top.kind == kind and top.basis == "derived", [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("text", [
    # extra text on the same first line: a malformed document, not a second JSON Lines record
    "json.decoder.JSONDecodeError: Extra data: line 1 column 5 (char 4)\n",
    # another HTTP error from the Hub is not a rate limit
    "huggingface_hub.errors.HfHubHTTPError: 500 Server Error: Internal Server Error for url: https://huggingface.co/api/models/x\n",
    # another getaddrinfo code (a bad service/port name) is not an unknown host
    "socket.gaierror: [Errno -8] Servname not supported for ai_socktype\n",
])
def test_other_messages_of_the_same_types_are_not_these_classes(catalog, tmp_path, text):
    result, top = _explain(catalog, tmp_path, text)
    assert top is None or top.kind not in ("jsonl-read-as-json", "hf-hub-rate-limited", "hostname-unresolvable"), top.kind


def test_the_entry_still_names_it_when_present(catalog, tmp_path):
    result, top = _explain(catalog, tmp_path, "socket.gaierror: [Errno -2] Name or service not known\n", keep_entries=True)
    assert top is not None and top.entry.id == "ARL-E1964", [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("text, kind", [
    # hiyouga/EasyR1#338's title: Python's TypeError sentence after "…时报错：" (the type was not pasted)
    ("GRPO训练时报错：format_reward() takes 1 positional argument but 2 were given\n", "reward-fn-signature-mismatch"),
    # vllm-project/vllm-ascend#7123's title, without the entry that cites it: the memory analyzer reads the message
    ("kimi2.5部署，A2多机，报错NPU out of memory\n", "npu-oom"),
])
def test_a_chinese_error_lead_in_makes_the_message_the_failure(catalog, tmp_path, text, kind):
    catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E204"))
    result, top = _explain(catalog, tmp_path, text)
    assert top is not None and top.kind == kind and top.basis == "derived", [(d.entry.id, d.kind) for d in result.diagnoses]


@pytest.mark.parametrize("text", [
    "部署失败 see the log below\n",  # English words after the lead-in that state no failure
    "训练时报错，请帮忙看看 thanks a lot\n",  # the lead-in's 报错 is not the last CJK run before the English
])
def test_a_lead_in_before_words_that_state_nothing_reads_nothing(catalog, tmp_path, text):
    result, top = _explain(catalog, tmp_path, text)
    assert top is None and not result.fatal, (top, result.fatal)
