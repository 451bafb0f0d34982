"""Session 15 (kdata): ARL-E880, TRL GRPO in vLLM server mode with no reachable `trl vllm-serve` server (TRL's
health-check forms, its requests cause, and the retry line), checked both ways."""

from __future__ import annotations

import pytest

from kdata_helpers import classify, top


@pytest.mark.parametrize("entry_id, text", [
    # TRL GRPO server mode: the health check's final error (0.16-0.18 host:port, 0.19+ base_url) and its requests cause
    ("ARL-E880", "ConnectionError: The vLLM server can't be reached at 0.0.0.0:8000 after 240.0 seconds. Make sure the server "
                 "is running by running `trl vllm-serve`.\n"),
    ("ARL-E880", "ConnectionError: The vLLM server can't be reached at http://10.0.0.2:8000 after 240.0 seconds. Make sure the "
                 "server is running by running `trl vllm-serve`.\n"),
    ("ARL-E880", "requests.exceptions.ConnectionError: HTTPConnectionPool(host='0.0.0.0', port=8000): Max retries exceeded with "
                 "url: /health/ (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to "
                 "establish a new connection: [Errno 111] Connection refused'))\n"),
])
def test_entry_sibling_forms_are_named(catalog, entry_id, text):
    assert top(catalog, text)[0] == entry_id


@pytest.mark.parametrize("entry_id, text", [
    # vLLM's own OpenAI server health route has no trailing slash: a client polling it is not TRL's GRPO client
    ("ARL-E880", "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded "
                 "with url: /health (Caused by NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: "
                 "Failed to establish a new connection: [Errno 111] Connection refused'))\n"),
])
def test_entry_look_alikes_are_not_named(catalog, entry_id, text):
    result = classify(catalog, text)
    assert entry_id not in [d.entry.id for d in result.diagnoses]


def test_trl_server_retry_line_alone_is_not_fatal(catalog):
    # the server may still be loading: the retry line names the class but does not end the run by itself
    result = classify(catalog, "INFO:trl.extras.vllm_client:Server is not up yet. Retrying in 2.0 seconds...\n")
    assert [d.entry.id for d in result.diagnoses][:1] == ["ARL-E880"] and not result.fatal
