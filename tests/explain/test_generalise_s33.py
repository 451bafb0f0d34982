"""A failure named in words (the 2026-12-04 second stop, s33): analyzers/prose.py and prose_words.yaml.

A paste that is only an issue title or a sentence, in English or Chinese, stating the class of the failure without the
program's message ("910B4部署Qwen3 Next出现NPU OOM问题", "Cann软件与Ascend驱动版本不匹配", a title under a log that
stops before the error) was read as nothing fatal. Such a sentence is now a lone sentence and DRV-named-in-words names
the class; a setting, a command, a program's record or a paste where something else was read is not.
"""

from __future__ import annotations

import re

import pytest

from ascendrl.catalog.analyzers import prose
from ascendrl.catalog.classify import PASTE_LINES


@pytest.mark.parametrize("paste, kind", [
    ("训练时显存不足\n", "npu-oom"),
    ("[Bug]: NPU OOM when running GRPO with Qwen2.5-7B on 910B\n", "npu-oom"),
    ("[Bug]: HCCL timeout when training Qwen3 with verl on 910B\n", "collective-timeout"),
    ("多机训练时HCCL建链超时\n", "hccl-connect-timeout"),
    ("两个服务共用HCCL_IF_BASE_PORT导致端口冲突\n", "hccl-port-in-use"),
    ("Ray worker killed due to memory pressure (OOM) on the head node\n", "host-oom"),  # the host's RAM, not the NPU's
    ("保存checkpoint时磁盘空间不足\n", "enospc"),
    ("docker容器共享内存不足\n", "shm-too-small"),
    ("vllm-ascend 0.9.1 与 torch_npu 2.5.1 版本不兼容\n", "package-mismatch"),  # a version statement is a sentence too
    ("310P不支持bf16\n", "bf16-unsupported-on-device"),
    ("910卡被占用\n", "dcmi-device-occupied"),
    ("显存被其他进程占用\n", "npu-memory-occupied"),
    ("推理时出现AI Core异常\n", "aicore-exception"),
    ("服务器无法连接huggingface下载模型\n", "hf-hub-unreachable"),
    # a title above the command that failed: the title is the sentence
    ("910B4部署Qwen3出现NPU OOM问题\nvllm serve /data/models/Qwen3 --tensor-parallel-size 4 --gpu-memory-utilization 0.85\n",
     "npu-oom"),
])
def test_a_class_named_in_words_is_the_failure(explain_text, paste, kind):
    result, top = explain_text(paste)
    assert result.fatal
    assert top is not None and (top.entry.id, top.basis, top.kind) == ("DRV-named-in-words", "derived", kind)
    assert any("ascendrl explain names it exactly" in step or "Paste the whole" in step for step in top.entry.fix)


@pytest.mark.parametrize("paste", [
    "export HCCL_CONNECT_TIMEOUT=1200\n",  # a setting
    "HCCL_EXEC_TIMEOUT=1800 HCCL_CONNECT_TIMEOUT=1200 python train.py\n",
    "collective_timeout: 600\nhccl_timeout: 1800\n",  # config keys
    "$ npu-smi info\nexport PYTORCH_NPU_ALLOC_CONF=expandable_segments:True\n",  # commands
    "INFO 10-29 16:38:44 [worker.py:12] KV cache memory is not enough for 4 sequences, lowering max_num_seqs\n",  # a record
    "[Usage]: how to fix hccl connect timeout in multi-node\n",  # a question about fixing it (_a_report)
    "Training Qwen2.5-7B with GRPO on 910B, 8 cards\n",  # a sentence naming no failure
])
def test_words_that_name_no_failure_name_nothing(explain_text, paste):
    result, top = explain_text(paste)
    assert top is None or top.entry.id != "DRV-named-in-words"


def test_a_read_failure_wins_over_a_title_naming_another_class(explain_text):
    # the traceback names the failure; the title's words are the person's guess
    paste = ("[Bug]: NPU OOM during rollout\n"
             "Traceback (most recent call last):\n"
             "  File \"/usr/local/lib/python3.11/site-packages/verl/utils/reward_score/__init__.py\", line 98, in default_compute_score\n"
             "    raise NotImplementedError(f\"Reward function is not implemented for {data_source=}\")\n"
             "NotImplementedError: Reward function is not implemented for data_source='my_math'\n")
    result, top = explain_text(paste)
    assert top is not None and top.entry.id != "DRV-named-in-words"


def test_a_long_log_is_not_read_for_words(explain_text):
    # only a short paste is a person's text: a program's long output that mentions OOM in passing is not
    lines = "".join(f"step:{i} - actor/loss:0.1\n" for i in range(PASTE_LINES + 10))
    result, top = explain_text("NPU OOM seen last week, fixed by a smaller batch\n" + lines)
    assert top is None or top.entry.id != "DRV-named-in-words"


@pytest.mark.parametrize("sentence", ["Training runs fine, no OOM so far", "没有显存不足的问题", "未出现显存不足",
                                      "without HCCL timeout after the fix", "it is not an OOM"])
def test_words_a_negation_stands_before_name_nothing(sentence):
    assert prose.named_in_words(sentence) is None


@pytest.mark.parametrize("sentence, kind", [
    ("NPU无法分配显存，显存不足", "npu-oom"),  # 无法 ("cannot") further back is no negation of the class's words
    ("there is no space left on device", "enospc"),  # the class's own words may hold a "no"
    ("[Bug]: NPU OOM during rollout, no idea why", "npu-oom"),  # a negation after the words
])
def test_a_negation_elsewhere_does_not_hide_the_class(sentence, kind):
    assert prose.named_in_words(sentence)["kind"] == kind


def test_settings_are_masked_before_the_words_are_read():
    assert prose.named_in_words("export HCCL_CONNECT_TIMEOUT=1200") is None
    assert prose.named_in_words("--kv-cache-memory-not-enough") is None
    assert prose.named_in_words("HCCL connect timeout after setting HCCL_CONNECT_TIMEOUT=1200")["kind"] == "hccl-connect-timeout"


def test_the_narrower_class_is_tried_first():
    assert prose.named_in_words("HCCL_NPU_SOCKET_PORT卡间通信默认使用同一端口")["kind"] == "hccl-port-in-use"
    assert prose.named_in_words("Address already in use on port 29500")["kind"] == "eaddrinuse"
    assert prose.named_in_words("host memory OOM while loading the dataset")["kind"] == "host-oom"
    assert prose.named_in_words("CANN 8.2 与驱动版本不匹配")["kind"] == "cann-driver-version-mismatch"
    assert prose.named_in_words("transformers 与 vllm 版本不匹配")["kind"] == "package-mismatch"


def test_every_row_is_complete_and_cites_a_public_source():
    rows = prose.rows()
    assert len(rows) >= 20
    kinds = [r["kind"] for r in rows]
    assert len(kinds) == len(set(kinds))
    for row in rows:
        assert isinstance(row["words"], re.Pattern)
        assert row["cause"].strip() and row["fix"] and row["family"]
        assert all(s.startswith("https://") for s in row["sources"]), row["kind"]


@pytest.mark.parametrize("question", ['用户问："No space left" 是什么意思', "What does 'NPU out of memory' mean in the plog?"])
def test_a_question_about_what_words_mean_names_nothing(question):
    assert prose.named_in_words(question) is None


# ---- round 23's dev half: readings of a class from its numbers, its code's words, or a warning above it ----------------

OOM_LINE = ("RuntimeError: NPU out of memory. Tried to allocate 88.00 MiB (NPU 0; 60.96 GiB total capacity; {alloc} GiB already "
            "allocated; {alloc} GiB current active; {free} free; {res} GiB reserved in total by PyTorch)\n")


def test_an_oom_with_most_of_the_card_held_elsewhere_says_so(explain_text):
    # torch_npu's numbers (vllm-ascend#1670, a dev log): 4.37 GiB reserved here, 7.47 MiB free of 60.96 GiB
    _, top = explain_text(OOM_LINE.format(alloc="4.24", free="7.47 MiB", res="4.37"))
    assert (top.entry.id, top.kind) == ("DRV-memory", "npu-memory-occupied")
    assert "56.58 GiB" in top.entry.cause and "npu-smi info" in top.entry.fix[0]


def test_an_oom_of_this_process_stays_an_oom(explain_text):
    # the same card with the memory reserved by this process's allocator (vllm-ascend#1127's numbers): a plain OOM
    _, top = explain_text(OOM_LINE.format(alloc="58.10", free="20.00 MiB", res="60.60"))
    assert top.entry.id == "ARL-E204"


def test_torchs_oom_type_is_an_oom_when_its_message_is_not(explain_text):
    # torch_npu puts "The Inner error is reported as above" under torch.OutOfMemoryError; MindIE words it "Device out of memory"
    for line in ("torch.OutOfMemoryError: The Inner error is reported as above. The process exits for this inner error.\n",
                 "RuntimeError: Device out of memory (OOM) reported by PyTorch, but it can possibly triggered by HCCL.\n"):
        _, top = explain_text(line)
        assert top is not None and top.kind == "npu-oom", line


@pytest.mark.parametrize("dtype, kind", [("bfloat16", "bf16-unsupported-on-device"), ("bool", "hccl-dtype-unsupported")])
def test_hccl_refusing_a_collectives_data_type(explain_text, dtype, kind):
    # EI0003's registry template: "In [%s], value [%s] for parameter [%s] is invalid. Reason: ..."
    line = (f"EI0003: [PID: 143] 2025-04-24-03:40:28.975.025 In [CheckDataType], value [{dtype}] for parameter [dataType] is "
            "invalid. Reason: The collective communication operator has an invalid argument. Reason[x]\n")
    _, top = explain_text("RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the "
                          "current working operator name is HcclAllreduce.\n" + line)
    assert (top.entry.id, top.kind) == ("DRV-hccl-dtype", kind)


@pytest.mark.parametrize("need, kind", [("GLIBC_2.32", "glibc-too-old"), ("GLIBCXX_3.4.30", "libstdcxx-too-old")])
def test_ops_missing_after_their_library_failed_the_loaders_version_check(explain_text, need, kind):
    so = "/site-packages/vllm_ascend/vllm_ascend_C.cpython-310-aarch64-linux-gnu.so"
    lib = "/usr/lib64/libc.so.6" if need.startswith("GLIBC_") else "/usr/lib64/libstdc++.so.6"
    text = (f"WARNING 06-30 19:22:09 [camem.py:63] Failed to import vllm_ascend_C:{lib}: version `{need}' not found (required by "
            f"{so}). Sleep mode will be disabled.\n"
            "Traceback (most recent call last):\n"
            "  File \"/site-packages/vllm/utils.py\", line 1908, in weak_ref_tensor\n"
            "    return torch.ops._C.weak_ref_tensor(tensor)\n"
            "AttributeError: '_OpNamespace' '_C' object has no attribute 'weak_ref_tensor'\n")
    _, top = explain_text(text)
    assert (top.entry.id, top.kind) == ("DRV-package", kind)
    assert need in top.entry.title and top.entry.title.startswith("vllm_ascend_C")
    assert "build vllm-ascend from source" in top.entry.fix[1]  # the library's package, not the op namespace's (vllm)


def test_a_warning_that_causes_a_fatal_failure_is_its_root_cause(explain_text):
    # the raylet's disk-full warning (ARL-E114, not fatal by itself) above a runtime_env set-up failure (ARL-E166), as
    # TracecatHQ/tracecat#1361 (a dev log) shows it: the consequence entry lists it, so the warning ranks first
    text = ("(raylet) [2025-08-21 06:51:00,280 E 100 119] (raylet) file_system_monitor.cc:116: /tmp/ray/session_1 is over 95% "
            "full, available space: 1.19653 GB; capacity: 29.3612 GB. Object creation will fail if spilling is required.\n"
            "RuntimeEnvSetupError: Failed to set up runtime environment.\n")
    result, top = explain_text(text)
    assert top.entry.id == "ARL-E114" and top.fatal
    assert [d.entry.id for d in result.diagnoses][:2] == ["ARL-E114", "ARL-E166"]
    # alone, the warning stays a warning
    result, top = explain_text(text.splitlines(keepends=True)[0])
    assert top.entry.id == "ARL-E114" and not result.fatal


# ---- round 24's dev half ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("line", [
    "ModuleNotFoundError: No module named 'pkg_resources'",
    "ImportError: No module named pkg_resources",  # Python 2-style wording older tools print
])
def test_pkg_resources_gone_with_setuptools_82(explain_text, line):
    _, top = explain_text(line + "\n")
    assert top.entry.id == "ARL-E2690" and "setuptools<82" in top.entry.fix[0]


def test_a_module_merely_named_like_pkg_resources_is_not_it(explain_text):
    _, top = explain_text("ModuleNotFoundError: No module named 'pkg_resources_extra'\n")
    assert top is None or top.entry.id != "ARL-E2690"


@pytest.mark.parametrize("line, kind", [
    ("IsADirectoryError: [Errno 21] Is a directory: '/ckpt/global_step_40'", "eisdir"),
    ("NotADirectoryError: [Errno 20] Not a directory: '/data/train.parquet/part-0'", "enotdir"),
    ("IsADirectoryError: For 'save_checkpoint', the parameter `ckpt_file_name`: /data/model_new is a directory, it must be a file name.",
     "eisdir"),
])
def test_a_path_of_the_other_kind(explain_text, line, kind):
    _, top = explain_text(line + "\n")
    assert (top.entry.id, top.kind) == ("DRV-oserror", kind)
    assert "/" in top.entry.title


def test_pips_download_timeout(explain_text):
    text = ("    raise ReadTimeoutError(self._pool, None, \"Read timed out.\")\n"
            "pip._vendor.urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='pypi.tuna.tsinghua.edu.cn', port=443): Read timed out.\n")
    _, top = explain_text(text)
    assert top.entry.id == "ARL-E2691" and "--no-index --find-links" in top.entry.fix[0]
    # urllib3's own class from another client (huggingface_hub, requests) is not pip's download
    _, top = explain_text("urllib3.exceptions.ReadTimeoutError: HTTPSConnectionPool(host='huggingface.co', port=443): Read timed out.\n")
    assert top is None or top.entry.id != "ARL-E2691"
