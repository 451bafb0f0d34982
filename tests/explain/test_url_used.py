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


def test_a_hiascend_page_is_one_page_whatever_build_it_was_read_from():
    """Round 20's slip: the zh/latest build of a page the catalog cites under en/850 was checked as new."""
    cited = "https://www.hiascend.com/document/detail/en/canncommercial/850/commlib/hcclug/hcclug_000050.html"
    other_build = "https://hiascend.com/document/detail/zh/CANNCommunityEdition/latest/commlib/hcclug/hcclug_000050.html"
    assert url_used.key(cited) == url_used.key(other_build)
    assert url_used.key(cited) != url_used.key(cited.replace("hcclug_000050", "hcclug_000055"))
    assert url_used.key("https://hiascend.com/document/caselibrary/detail/topic_0000001324820153") == \
        url_used.key("https://hiascend.com/document/detail/caselibrary/detail/topic_0000001324820153")
    assert url_used.key("https://www.hiascend.com/doc_center/source/zh/Pytorch/600/comref/comaq/commonqa_0009.html") == \
        url_used.key("https://www.hiascend.com/document/detail/zh/Pytorch/60RC3/comref/comaq/commonqa_0009.html")


def test_a_file_on_github_is_one_file_whatever_branch_it_was_read_from(tmp_path):
    doc = tmp_path / "tests" / "explain" / "realworld" / "dev"
    doc.mkdir(parents=True)
    (doc / "faq.log").write_text("# source: https://github.com/Ascend/MindSpeed-RL/blob/master/docs/faq.md\nRuntimeError: x\n")
    keys = url_used.used([tmp_path])
    assert url_used.key("https://github.com/Ascend/MindSpeed-RL/blob/2.1.0/docs/faq.md") in keys
    assert url_used.key("https://github.com/Ascend/MindSpeed-RL/blob/master/docs/install.md") not in keys


def test_a_file_moved_to_another_folder_or_mirrored_on_another_forge_is_the_same_file(tmp_path):
    """2026-12-04's slip: a torch_npu troubleshooting page moved from docs/zh/troubleshooting/ to
    docs/zh/user_guide/troubleshooting/troubleshooting_cases/ read new under its new path."""
    doc = tmp_path / "tests" / "explain" / "realworld" / "dev"
    doc.mkdir(parents=True)
    (doc / "x.log").write_text("# source: https://gitcode.com/Ascend/pytorch/blob/master/docs/zh/troubleshooting/initialization_error.md\n")
    taken = url_used.used([tmp_path])
    moved = "https://github.com/Ascend/pytorch/blob/v2.7.1/docs/zh/user_guide/troubleshooting/troubleshooting_cases/initialization_error.md"
    assert url_used.keys(moved) & taken
    assert not url_used.keys(moved.replace("initialization_error", "other_error")) & taken
    # a file name every repository has is no page by itself
    (doc / "y.log").write_text("# source: https://github.com/Ascend/pytorch/blob/master/docs/README.md\n")
    assert not url_used.keys("https://github.com/Ascend/pytorch/blob/master/examples/README.md") & url_used.used([tmp_path])
