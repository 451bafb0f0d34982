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
