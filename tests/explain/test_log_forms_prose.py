"""Errors a person writes about in a short paste (an issue title or body, a chat message), which the engine now reads.

A program prints an exception at the start of its line; a person quotes it after a lead-in ("The error message is:
RuntimeError: …"), in backticks or parentheses, names the class alone ("there are `PermissionError` when …") or in words
("a permission error"), or names a process death or a missing library inside a sentence, in English or Chinese. These
forms are read in short pastes only (classify.PASTE_BYTES / PASTE_LINES), and only when the sentence reports the error:
a quiet log level, words of handling it or changing code about it (a fix, a pull request's title) leave it unread.
Every text below is a real paste (its thread on the line above it), trimmed to the sentence.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, explain_paths

# ---- an exception after a lead-in, in backticks, in parentheses ------------------------------------------------------

LEAD_IN = [
    # source: https://github.com/romulus0914/NASBench-PyTorch/issues/3
    ("Got errors while I run `python main.py`, the program crashed and then threw the error "
     "`RuntimeError: expected device cpu but got device cuda:0`. The crash happened at [here]",
     "RuntimeError", "expected device cpu but got device cuda:0"),
    # source: https://github.com/romulus0914/NASBench-PyTorch/issues/3 (its title)
    ("Got RuntimeError while running the sample code. (RuntimeError: expected device cpu but got device cuda:0)",
     "RuntimeError", "expected device cpu but got device cuda:0"),
    # source: https://github.com/meta-pytorch/captum/issues/202 (its title, the quote left open)
    ("`RuntimeError: expected device cpu but got device cuda:0 {", "RuntimeError", "expected device cpu but got device cuda:0 {"),
]


@pytest.mark.parametrize("text,exc_type,message", LEAD_IN)
def test_an_exception_quoted_after_a_lead_in_is_the_failure(explain_text, text, exc_type, message):
    result, _ = explain_text(text + "\n")
    assert result.fatal and result.unknown is not None, result
    assert (result.unknown.type, result.unknown.message) == (exc_type, message)


def test_a_known_message_after_a_lead_in_names_its_entry(explain_text):
    # the lead-in ends in a colon and holds one ("[Bug]:"), the form of vLLM-Ascend's issue titles; the message is
    # torch_npu's own (catalog ARL-E204), so the entry is named, not an unknown RuntimeError
    _, top = explain_text("### [Bug]: The error message is: RuntimeError: NPU out of memory. Tried to allocate 52.00 MiB "
                          "(NPU 0; 60.96 GiB total capacity; 59.36 GiB already allocated;\n")
    assert top is not None and top.entry.id == "ARL-E204"


@pytest.mark.parametrize("line", [
    b"The error message is: RuntimeError: boom in the rollout worker\n",
    b"However, we're hitting `PermissionError` when one member of the team tries to reload a dataset.\n",
])
def test_a_persons_sentence_is_read_in_a_short_paste_only(catalog, line):
    # the same sentence in a long log (a run's output) is not a person's report: only a program's own lines count there
    filler = b"step:1 - actor/pg_loss:0.1 - critic/score/mean:0.5 - response_length/mean:512.0\n" * 80
    for text, fatal in ((line, True), (filler + line + filler, False)):
        classifier = Classifier(catalog)
        classifier.feed_stream(io.BytesIO(text), "x.log")
        assert classifier.result().fatal is fatal, len(text)


def test_a_running_jobs_output_is_never_a_paste(catalog):
    classifier = Classifier(catalog)
    classifier.feed_chunk(b"The error message is: RuntimeError: boom in the rollout worker\n", "live.log")
    assert not classifier.result().fatal


# ---- an exception class named alone, or spelled as words --------------------------------------------------------------

NAMED = [
    # source: https://github.com/huggingface/datasets/issues/2065 (a comment)
    "However, we're hitting `PermissionError` when one member of the team tries to reload a dataset that was downloaded "
    "by another team member (stack trace below).",
    # source: https://github.com/facebookresearch/CompilerGym/issues/300
    "The default locations of the CompilerGym caches are in shared folders. On multi-user machines this can cause "
    "permission errors as the directory may be created by one user without write permissions to other users.",
    # source: https://github.com/triton-lang/triton/issues/518 (its title)
    "Permissions errors when multiple users share a system",
    # source: https://github.com/conda/conda/issues/7227 (its title)
    "Write permission error with a shared package cache folder",
]


@pytest.mark.parametrize("text", NAMED)
def test_a_permission_error_named_in_a_sentence_is_an_eacces(explain_text, text):
    _, top = explain_text(text + "\n")
    assert top is not None and top.fatal and top.entry.id == "DRV-oserror" and top.kind == "eacces", top


# ---- a process death or a missing library inside a sentence (English, Chinese) -----------------------------------------

DEATHS = [
    # source: https://github.com/AliyunContainerService/gpushare-scheduler-extender/issues/124 (its title)
    "使用pytorch 出现 Segmentation fault (core dumped)",
    # source: https://github.com/InternLM/lmdeploy/issues/4337
    "Run this script cause Segmentation fault (core dumped)",
    # source: https://github.com/huggingface/nanotron/issues/391
    "`Segmentation fault ` on importing something from nanotron (say `from nanotron.config.config import PretrainDatasetsArgs`.)",
    # source: https://github.com/jwyang/faster-rcnn.pytorch/issues/309
    "When I try to run trainval_net.py using the default parameters, I get a Segmentation fault any pointers as to where "
    "the error could be.",
]


@pytest.mark.parametrize("text", DEATHS)
def test_a_segfault_named_in_a_sentence_is_the_process_death(explain_text, text):
    _, top = explain_text(text + "\n")
    assert top is not None and top.fatal and top.kind == "process-segfault", top


@pytest.mark.parametrize("text,kind", [
    # source: https://github.com/PaddlePaddle/FastDeploy/issues/2540 ("cannot find libhuawei_ascend_npu.so, libascendcl.so")
    ("跑官方例子的时候直接就报错了,华为昇腾的卡 找不到libhuawei_ascend_npu.so, libascendcl.so", "ld-library-path-missing"),
    # source: https://github.com/PaddlePaddle/Paddle/issues/71360 (a comment: the first screenshot cannot find libmsprofiler.so)
    ("上方说的是找不到libmsprofiler.so  下方说的是找不到libhccl_alg.so ; 看上去像是上方的错误被加入环境变量解决", "cann-env-not-sourced"),
])
def test_a_library_a_chinese_sentence_says_cannot_be_found_is_the_loaders_failure(explain_text, text, kind):
    _, top = explain_text(text + "\n")
    assert top is not None and top.fatal and top.entry.id == "DRV-library" and top.kind == kind, top


def test_the_loaders_own_message_in_a_chinese_locale_names_the_library(explain_text):
    # the loader's message as a zh_CN host prints it: glibc's translation of "cannot open shared object file"
    # (po/zh_CN.po, "无法打开共享对象文件") and of ENOENT, around ATB's library; read in a long log as well as in a paste
    line = "ImportError: libatb.so: 无法打开共享对象文件: 没有那个文件或目录\n"
    for text in (line, "step:0 - starting\n" * 300 + line):
        _, top = explain_text(text)
        assert top is not None and top.kind == "nnal-atb-not-found", top


def test_a_short_paste_of_a_healthy_run_stays_healthy(explain_text):
    # what a person pastes to show a run works: loss lines, a warning naming an exception class, a config key
    text = ("step:1 - actor/pg_loss:0.015 - actor/grad_norm:0.08\n"
            "UserWarning: The given NumPy array is not writable; a ValueError will be raised in a future release\n"
            "  trainer.ignore_errors: False\n"
            "0 errors, 0 failures\n")
    result, _ = explain_text(text)
    assert not result.fatal, (result.diagnoses, result.unknown)


def test_explain_paths_reads_a_paste_file_the_same(catalog, tmp_path):
    log = tmp_path / "title.log"
    log.write_text("Write permission error with a shared package cache folder\n", encoding="utf-8")
    result = explain_paths(catalog, [log])
    assert result.diagnoses and result.diagnoses[0].kind == "eacces"


# ---- a title that opens with a known message, then says where it happened ----------------------------------------------

def test_a_title_that_opens_with_a_known_message_names_its_entry(explain_text):
    # source: https://github.com/sgl-project/sglang/issues/9646 (its title; the template's "[Bug]" tag first)
    _, top = explain_text("[Bug] NPU out of memory when tp=2\n")
    assert top is not None and top.entry.id == "ARL-E204", top
    # source: https://github.com/astroufsc/chimera/issues/160 (its title: strerror's text, then where)
    _, top = explain_text("Too many open files on scheduler\n")
    assert top is not None and top.kind == "emfile", top


def test_a_title_in_lower_case_names_the_os_error(explain_text):
    # source: https://github.com/SkyAPM/SkyAPM-php-sdk/issues/219 (its title, strerror's text typed in lower case)
    _, top = explain_text("too many open files\n")
    assert top is not None and top.kind == "emfile", top


def test_the_opening_words_must_end_where_the_title_goes_on(explain_text):
    # "NPU out of memory" then words that continue no message and join none ("NPU out of memory usage is 61 GiB" is a
    # statement about memory use): only a joining word ("when", "on", "with" …) or the end of the title closes the message
    result, _ = explain_text("NPU out of memory usage is reported as 61 GiB by npu-smi\n")
    assert not result.fatal, (result.diagnoses, result.unknown)


# ---- an OS error in a zh_CN locale -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("line,kind", [
    # the shell's and coreutils' own format with glibc's zh_CN strerror texts (po/zh_CN.po: "设备上没有空间", "只读文件系统",
    # "地址已在使用"; bash's "权限不够" as Chinese hosts print it); built from those texts, not a thread's paste
    ("mkdir: 无法创建目录 “/ckpt/global_step_40”: 设备上没有空间", "enospc"),
    ("cp: 无法创建普通文件 '/data/ckpt/model.pt': 只读文件系统", "erofs"),
    ("IPC_OpenServer: bind: 地址已在使用", "eaddrinuse"),
    ("bash: ./run_grpo.sh: 权限不够", "eacces"),
])
def test_an_os_error_in_a_chinese_locale_is_read_as_its_errno(explain_text, line, kind):
    for text in (line + "\n", "step:0 - starting\n" * 300 + line + "\n"):  # a paste, and a long log: the program's own words
        _, top = explain_text(text)
        assert top is not None and top.fatal and top.kind == kind, top


# ---- sentences that name an error without reporting it -----------------------------------------------------------------

NOT_REPORTS = [
    # a log record at a quiet level quoting an exception it handled
    "INFO 2024-01-01 worker.py:12 -- request failed: RuntimeError: connection lost, resubmitting",
    "I0101 12:00:00.000000 1234 worker.cc:10] task failed: RuntimeError: connection lost",
    # words of handling it
    "Caught exception while loading shard: KeyError: 'lm_head.weight'",
    # a Python dict's repr holding an error string
    "{'status': 'failed', 'error': 'RuntimeError: connection lost'}",
    # source: https://github.com/huggingface/huggingface_hub/pull/3714 (a pull request that fixes it)
    "This PR fixes `PermissionError` when multiple Unix users share a single `HF_HUB_CACHE` dir.",
    # source: https://github.com/RosettaCommons/RoseTTAFold/pull/125 (its title)
    "fix permission errors on shared file systems",
    # source: https://github.com/BlueBrain/nexus-forge/pull/258 (its title)
    "Improve ValueError message",
    # source: https://github.com/keras-team/keras/pull/9073 (its title)
    "Update document for ValueError",
    # source: https://github.com/udacity/deep-learning/pull/47 (its title)
    "Fix ValueError",
    # a line of code quoting the class, not a sentence about a failure
    "        if isinstance(exc, PermissionError) and retries < 3:",
    "WARNING: `PermissionError` on the cache directory is retried with a per-user path",
    # source: https://github.com/sgl-project/sglang/pull/19781 (its title: a pull request fixing it)
    "[FIX] [Qwen3.5] Fix NPU out of memory when deploying Qwen3.5 122B on A2(910B3)",
    # source: https://github.com/quambene/bogrep/issues/13 (its title)
    'Fix "Too many open files"',
    # source: https://github.com/lanl/PyBNF/pull/76 (its title)
    'Documentation for "Too many open files"',
    # source: https://github.com/hpcugent/vsc_user_docs/pull/659 (its title)
    "added FAQ about 'No space left on device' error",
    # an exception a sentence says was retried, and strerror's text in a sentence about avoiding it
    "Retrying after error: ConnectionError: HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out.",
    "ulimit raised to avoid too many open files",
    # a process death named in a sentence about fixing or handling it
    "Fixed a Segmentation fault (core dumped) in the data loader when workers exit",
    "INFO: the handler prints Segmentation fault when a worker dies and restarts it",
    # a Chinese sentence that names a library without saying it is missing
    "安装 NNAL 后 libatb.so 位于 /usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_0/lib",
]


@pytest.mark.parametrize("text", NOT_REPORTS)
def test_a_sentence_that_does_not_report_an_error_leaves_it_unread(explain_text, text):
    result, _ = explain_text(text + "\n")
    assert not result.fatal, (result.diagnoses, result.unknown)
