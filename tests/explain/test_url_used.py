"""tools/url_used.py: the collectors' check that a thread is not used twice (a held-out thread never cited)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("url_used", REPO / "tools" / "url_used.py")
url_used = importlib.util.module_from_spec(spec)
spec.loader.exec_module(url_used)


def test_github_threads_compare_by_repo_and_number_whatever_the_form():
    assert url_used.key("https://github.com/volcengine/verl/issues/2706") == url_used.key("https://github.com/verl-project/verl/pull/2706#issuecomment-1")
    assert url_used.key("https://github.com/verl-project/verl/issues/2706") != url_used.key("https://github.com/verl-project/verl/issues/27060")


def test_a_golden_case_source_is_used_and_a_new_thread_is_not(tmp_path):
    case = tmp_path / "tests" / "explain" / "cases" / "ARL-E999"
    case.mkdir(parents=True)
    (case / "x.log").write_text("# source: https://github.com/vllm-project/vllm-ascend/issues/123\nRuntimeError: x\n")
    keys = url_used.used([tmp_path])
    assert url_used.key("https://github.com/vllm-project/vllm-ascend/issues/123") in keys
    assert url_used.key("https://github.com/vllm-project/vllm-ascend/issues/1234") not in keys
