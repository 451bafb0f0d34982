"""Readings added by helper k52cn (2026-12-07) for failures printed in Chinese (a zh_CN host) and for Ascend-community
classes explain did not name. Each test input is a short excerpt around the exact emitted message; each class also has a
near miss (similar words, another failure) that must not give it.

- glibc's zh_CN strerror texts widened (catalog/glibc_zh.py): ENOENT 没有那个文件或目录, EPERM, EIO, EBUSY, EPIPE, EAGAIN,
  EADDRNOTAVAIL, ENETUNREACH, ECONNRESET, ETIMEDOUT, ECONNREFUSED, EHOSTUNREACH, ESTALE, EHWPOISON, ENFILE and
  gai_strerror's EAI_AGAIN / EAI_NONAME, read as their C-locale text; and now on an exception's own line too
  ("socket.gaierror: [Errno -2] 未知的名称或服务"), so each Chinese twin reaches the id its English text reaches.
- the loader's zh_CN texts (无法打开共享对象文件, 载入共享库时出错: elf/dl-load.c, dl-catch.c) read the same way, so
  "libhccl.so: 无法打开共享对象文件: ..." reaches ARL-E300 as its English twin does (before: DRV-library).
- bash's zh_CN texts (po/zh_CN.po: 未找到命令, 错误的解释器, 无法执行二进制文件) and glibc's ENOEXEC
  (可执行文件格式错误) read as their C-locale twins the same way.
- ARL-E026 widened: the GBK / GB18030 / cp936 twins of the ASCII-locale codec errors ("'gbk' codec can't decode
  byte ...: illegal multibyte sequence"), before a resemblance.
- Typographic quotes (‘ ’ “ ”) and non-breaking / ideographic spaces (U+00A0, U+3000) an editor put in a pasted
  message read as the ASCII quotes and spaces the program printed; a byte-order mark (U+FEFF, a log saved by a
  Windows editor: a one-line paste with one read as nothing before) and zero-width characters dropped
  (classify.Classifier._line), so "No module named ‘torch_npu’" reaches the reading "No module named 'torch_npu'" does.
- ARL-E018 widened: SIGILL as a zh_CN shell reports it ("行 5: 4242 非法指令 (核心已转储)").
- ARL-E5540: the Ascend .run installers (driver, firmware, CANN) refusing the run user / group: ERR_NO:0x0091 (HwHiAiUser
  not exists, root not permitted), 0x0095 (not the same as the last installation), 0x0096, 0x0093 (not root).
- ARL-E5544: an Ascend package installer's version relation check ("Relationship of X with Y in path ... check
  failed", a warning; ERR_NO:0x0092 "Check the compatibility of X package fail", fatal).
- ARL-E5543: the driver installer finding an all-in-one package or another running .run (ERR_NO:0x0094).
- ARL-E5541: the NPU driver installer's kernel-module steps (Drv_dkms_env_check / Driver_ko_install failed, "driver
  vermagic check failed."): no dkms / gcc / kernel headers for the running kernel, or modules that would not load.
- ARL-E5542: the driver installer refusing a package older than the device flash (firmware) version.
- ARL-E312 widened: HCCL's "[Open][Tsd]Open TsdClient failed, tsd error code[N]" (kg AISW_CANN_HCCL_011; source not pinned).
- analyzers/hccl_classes.yaml hccl-link-failed widened: the RDMA QP "[Connect][Qp]get qp status timeout_=..." (kg
  AISW_CANN_HCCL_024, hcomm roce channel).
- analyzers/prose_words.yaml: cann-env-not-sourced, the users' words (English and Chinese) for an unsourced set_env.sh.
- analyzers/codes.py: the runtime's EE1023 reasons of an ACL graph ("Too many streams are captured to the ACL Graph",
  "Too many ACL graphs are executed concurrently") read as aclgraph-stream-exhausted (with its title).
- analyzers/data.py RewardNone widened: a None used by a helper in the reward-score folder (verl's
  reward_score/math_dapo.py remove_boxed on a ground truth with no \\boxed{}), before read as a TRL resemblance.
- ARL-E5402 widened: the runtime's plog "Alloc sq cq failed, stream_id=N, retCode=0x7020023" (and the SQ/CQ pool-full
  0x701002e) of a new stream (stream.cc Stream::Setup): the stream pool is empty; the capture path's "[SqCqManage]Alloc
  sq cq fail" stays the code analyzer's aclgraph-stream-exhausted.
- SIGFPE in a zh_CN locale (浮点数例外) read as a process death like "Floating point exception" (chain.PROCESS_DEATH,
  analyzers/process.SHELL_DEATHS).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# glibc zh_CN strerror --------------------------------------------------------------------------------------------------

ZH_TWINS = (
    ("OSError: [Errno 28] {}", "No space left on device", "设备上没有空间"),
    ("FileNotFoundError: [Errno 2] {}: '/data/train.parquet'", "No such file or directory", "没有那个文件或目录"),
    ("socket.gaierror: [Errno -2] {}", "Name or service not known", "未知的名称或服务"),
    ("OSError: [Errno 116] {}", "Stale file handle", "过旧的文件控柄"),
    ("OSError: [Errno 24] {}", "Too many open files", "打开的文件过多"),
    ("PermissionError: [Errno 13] {}: '/ckpt'", "Permission denied", "权限不够"),
    ("TimeoutError: [Errno 110] {}", "Connection timed out", "连接超时"),
    ("OSError: [Errno 113] {}", "No route to host", "没有到主机的路由"),
    ("OSError: [Errno 5] {}", "Input/output error", "输入/输出错误"),
)


def test_zh_strerror_reaches_the_english_id():
    for fmt, en, zh in ZH_TWINS:
        english = _id(TB + fmt.format(en) + "\n")
        assert english is not None, en
        assert _id(TB + fmt.format(zh) + "\n") == english, zh


def test_zh_enoent_outside_an_exception_line():
    # python3's own refusal (Modules/main.c) in a zh_CN locale: read as the English line ARL-E4094 names
    text = "python3: can't open file '/home/user/train.py': [Errno 2] 没有那个文件或目录\n"
    assert _id(text) == "ARL-E4094"


def test_chinese_prose_about_a_timeout_is_not_an_oserror():
    assert _id("训练过程中偶尔网络抖动，但是最后完成了\nstep:100 - loss:0.1\n") is None


# ARL-E018 -------------------------------------------------------------------------------------------------------------

def test_zh_sigill_is_e018():
    for line in ("./run.sh: 行 5: 4242 非法指令               (核心已转储) python3 train.py",
                 "非法指令 (核心已转储)", "run.sh: 行 5: 4242 非法指令 python3 train.py"):
        assert _id(line + "\n") == "ARL-E018", line


def test_sigill_words_in_a_question_are_not_e018():
    assert _id("这个模型在昇腾上会报非法指令吗\n") != "ARL-E018"


# SIGFPE zh ------------------------------------------------------------------------------------------------------------

def test_zh_sigfpe_reads_as_the_english_death():
    en = _top("run.sh: line 5: 4242 Floating point exception (core dumped) python3 train.py\n")
    zh = _top("run.sh: 行 5: 4242 浮点数例外               (核心已转储) python3 train.py\n")
    assert en is not None and zh is not None
    assert (zh.entry.id, zh.kind) == (en.entry.id, en.kind)


# ARL-E5402 widened ----------------------------------------------------------------------------------------------------

def test_alloc_sq_cq_with_an_empty_pool_is_e5402():
    for line in (
        "[ERROR] RUNTIME(11803,python3):2026-07-09-21:52:24.482.342 [stream.cc:728]11803 Setup:Alloc sq cq failed, stream_id=2047, retCode=0x7020023.",
        "[ERROR] RUNTIME(4127,python3):2025-07-21-10:02:13.100.000 [stream.cc:735]4127 Setup:Alloc sq cq failed, stream_id=61, retCode=0x701002e.",
    ):
        assert _id(line + "\n") == "ARL-E5402", line


def test_alloc_sq_cq_with_another_driver_code_is_not_e5402():
    for line in (
        "[ERROR] RUNTIME(4127,python3):2025-07-21-10:02:13.100.000 [stream.cc:728]4127 Setup:Alloc sq cq failed, stream_id=61, retCode=0x7020016.",
        # the capture / auto-split path's wording is the code analyzer's aclgraph-stream-exhausted, not this entry's
        "[ERROR] RUNTIME(4127,python3):2025-07-21-10:02:13.100.000 [stream.cc:1022]4127 AllocSqCq:[SqCqManage]Alloc sq cq fail, stream_id=61, retCode=0x7020023.",
    ):
        assert _id(line + "\n") != "ARL-E5402", line


# bash's zh_CN texts ---------------------------------------------------------------------------------------------------

def test_zh_bash_texts_reach_the_english_id():
    for en, zh in (
        ("bash: ./msprof: cannot execute binary file: Exec format error", "bash: ./msprof: 无法执行二进制文件: 可执行文件格式错误"),
        ("bash: ./run.sh: /bin/bash^M: bad interpreter: No such file or directory",
         "bash: ./run.sh: /bin/bash^M: 错误的解释器: 没有那个文件或目录"),
        ("bash: npu-smi: command not found", "bash: npu-smi: 未找到命令"),
    ):
        english = _top(en + "\n")
        chinese = _top(zh + "\n")
        assert english is not None and chinese is not None, en
        assert chinese.entry.id == english.entry.id, zh


# ARL-E5540 ------------------------------------------------------------------------------------------------------------

def test_run_package_user_and_group_refusals_are_e5540():
    for line in (
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0091;ERR_DES:HwHiAiUser not exists! Please add HwHiAiUser",
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0091;ERR_DES:HwHiAiUser group not exists! Please add HwHiAiUser group",
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0091;ERR_DES:username not permission for root (except install-for-all scene), check /etc/ascend_install.info",
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0095;ERR_DES:The user and group are not same with last installation,do not support overwriting installation",
        "[Toolkit] [20250814-10:21:07] [ERROR]: ERR_NO:0x0095;ERR_DES:The user and group are not same with last installation,do not support overwriting installation!",
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0096;ERR_DES:HwHiAiUser not right! Please check the relatianship of HwHiAiUser and HwHiAiUser",
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0093;ERR_DES:do not have root permission, operation failed, please use root permission!",
    ):
        assert _id(line + "\n") == "ARL-E5540", line


def test_other_installer_errors_are_not_e5540():
    for line in (
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0094;ERR_DES:There is already a process being executed,please do not execute multiple tasks at the same time",
        "useradd: user 'HwHiAiUser' already exists",
    ):
        assert _id(line + "\n") != "ARL-E5540", line


# ARL-E312 widened (HCCL's TSD open) and the HCCL link class (RDMA QP timeout) ----------------------------------------

def test_hccl_tsd_open_failure_is_e312():
    line = "[ERROR] HCCL(4021,python3):2026-03-01-10:11:12.345.678 [hccl_impl.cc:900] [4021][Open][Tsd]Open TsdClient failed, tsd error code[31]\n"
    assert _id(line) == "ARL-E312"


def test_ge_plugin_tsd_wording_is_not_hccl_e312_signature():
    # TF adapter's GePlugin words its own TSD failure differently; it must not be read through the HCCL signature
    line = "[GePlugin] Open TsdClient success and tdt host init success.\n"
    assert _id(line) != "ARL-E312"


def test_hccl_qp_status_timeout_is_a_link_failure():
    for line in (
        "[ERROR] HCCL(4021,python3):2026-03-01-10:11:12.345.678 [transport_ibverbs.cc:321] [4021][Connect][Qp]get qp status timeout_=120 s, qp_status=0",
        "[ERROR] HCCL(4021,python3):2026-03-01-10:11:12.345.678 [host_cpu_roce_channel.cc:1702] [4021][Connect][Qp]get qp status timeout_=[120 s], qp_status=[0]",
    ):
        top = _top(line + "\n")
        assert top is not None and top.kind == "hccl-link-failed", line


def test_qp_create_oom_is_not_a_link_failure():
    line = "[ERROR] HCCL(4021,python3):2026-03-01-10:11:12.345.678 [adapter_hccp.cc:120] [4021][HrtRaQpCreate] ra qp create fail, reason: out of memory. qpInfo:[x], return: ret[328100]\n"
    top = _top(line)
    assert top is None or top.kind != "hccl-link-failed"


# prose row cann-env-not-sourced ---------------------------------------------------------------------------------------

def test_cann_env_not_sourced_named_in_words():
    for line in ("CANN 环境变量没有设置导致报错", "忘记 source set_env.sh 导致 import torch_npu 失败",
                 "CANN environment variables are not set (forgot to source set_env.sh)"):
        top = _top(line + "\n")
        assert top is not None and top.kind == "cann-env-not-sourced", line


def test_cann_env_set_but_failing_is_not_named_unsourced():
    top = _top("CANN 环境变量已经设置好了，但是还是报错\n")
    assert top is None or top.kind != "cann-env-not-sourced"


# ARL-E5541 / ARL-E5542 ------------------------------------------------------------------------------------------------

def test_driver_kernel_module_setup_failures_are_e5541():
    for line in (
        "[Driver] [2025-08-14 10:21:10] [ERROR]\x1b[31mDrv_dkms_env_check failed, details in : /var/log/ascend_seclog/ascend_install.log \x1b[0m",
        "[Driver] [2025-08-14 10:21:10] [ERROR]Driver_ko_install failed, details in : /var/log/ascend_seclog/ascend_install.log",
        "[Driver] [2025-08-14 10:21:10] [ERROR]driver vermagic check failed.",
    ):
        assert _id(line + "\n") == "ARL-E5541", line


def test_other_driver_steps_are_not_e5541():
    line = "[Driver] [2025-08-14 10:21:10] [ERROR]Pcie_load_path_set failed, details in : /var/log/ascend_seclog/ascend_install.log\n"
    assert _id(line) != "ARL-E5541"


def test_driver_older_than_flash_is_e5542():
    line = "[Driver] [2025-08-14 10:21:08] [ERROR]Installation failed, the driver package version=24010202 is earlier than the device flash hardware version=25020000.\n"
    assert _id(line) == "ARL-E5542"


def test_driver_flash_warning_is_not_e5542():
    assert _id("[Driver] [2025-08-14 10:21:08] [WARNING]The device flash version could not be obtained.\n") != "ARL-E5542"


# EE1023 in an ACL graph (analyzers/codes.py aclgraph-stream-exhausted) ------------------------------------------------

def test_ee1023_graph_reasons_are_aclgraph_stream_exhausted():
    for line in (
        "Resource_Error(EE1023): Alloc Stream resource failed. Reason: Too many streams are captured to the ACL graph (model_id=49).",
        "Resource_Error(EE1023): Alloc Notify resource failed. Reason: Too many ACL graphs are executed concurrently.",
    ):
        top = _top(line + "\n        Solution: For details about the troubleshooting method, search for the keyword \"EE1023\" on https://www.hiascend.com/document/.\n")
        assert top is not None and top.kind == "aclgraph-stream-exhausted", line


def test_ee1023_too_many_streams_created_stays_e5402():
    line = "Resource_Error(EE1023): Alloc Stream resource failed. Reason: Too many streams are created.\n"
    assert _id(line) == "ARL-E5402"


# DRV-reward-none widened: a helper inside the reward-score folder --------------------------------------------------

MATH_DAPO_TB = (
    'Traceback (most recent call last):\n'
    '  File "/home/user/verl/verl/utils/reward_score/__init__.py", line 60, in default_compute_score\n'
    '    res = math_dapo.compute_score(solution_str, ground_truth)\n'
    '  File "/home/user/verl/verl/utils/reward_score/math_dapo.py", line 186, in is_correct_minerva\n'
    '    gt = normalize_final_answer(remove_boxed(last_boxed_only_string(gt)))\n'
    '  File "/home/user/verl/verl/utils/reward_score/math_dapo.py", line 60, in remove_boxed\n'
    '    assert s[: len(left)] == left, f"box error: {s}"\n'
    "TypeError: 'NoneType' object is not subscriptable\n"
)


def test_reward_score_helper_none_is_reward_none():
    top = _top(MATH_DAPO_TB)
    assert top is not None and top.entry.id == "DRV-reward-none" and top.kind == "reward-fn-none-input"


def test_none_outside_the_reward_folder_is_not_reward_none():
    text = MATH_DAPO_TB.replace("verl/utils/reward_score/", "verl/workers/rollout/").replace("default_compute_score", "generate_sequences")
    top = _top(text)
    assert top is None or top.entry.id != "DRV-reward-none"


def test_same_module_helper_of_a_reward_function_is_reward_none():
    text = (
        'Traceback (most recent call last):\n'
        '  File "/home/user/MindSpeed-RL/mindspeed_rl/models/math_dapo.py", line 270, in compute_score\n'
        '    correct, pred = verify(solution_str, ground_truth, strict_box_verify, pause_tokens_index)\n'
        '  File "/home/user/MindSpeed-RL/mindspeed_rl/models/math_dapo.py", line 245, in verify\n'
        '    correct, pred = is_correct_minerva(solution_str, gt)\n'
        '  File "/home/user/MindSpeed-RL/mindspeed_rl/models/math_dapo.py", line 193, in is_correct_minerva\n'
        '    gt = normalize_final_answer(remove_boxed(last_boxed_only_string(gt)))\n'
        '  File "/home/user/MindSpeed-RL/mindspeed_rl/models/math_dapo.py", line 47, in remove_boxed\n'
        '    if s[:len(left)] != left:\n'
        "TypeError: 'NoneType' object is not subscriptable\n"
    )
    top = _top(text)
    assert top is not None and top.kind == "reward-fn-none-input"


# ARL-E5543 ------------------------------------------------------------------------------------------------------------

def test_driver_installer_conflicts_are_e5543():
    for line in (
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0094;ERR_DES:Operation failed, An all-in-one RUN package is found, which needs to be uninstalled before proceeding.",
        "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0094;ERR_DES:There is already a process being executed,please do not execute multiple tasks at the same time",
    ):
        assert _id(line + "\n") == "ARL-E5543", line


def test_installer_uninstall_failure_is_not_e5543():
    line = "[Driver] [2025-08-14 10:21:07] [ERROR]ERR_NO:0x0090;ERR_DES:uninstall driver failed, details in : /var/log/ascend_seclog/ascend_install.log\n"
    assert _id(line) != "ARL-E5543"


# ARL-E5544 ------------------------------------------------------------------------------------------------------------

def test_package_version_relation_failures_are_e5544():
    fatal = _top("[OpsBase] [2026-05-14 10:21:09] [ERROR]: ERR_NO:0x0092;ERR_DES:Check the compatibility of opbase package fail,please confirm the true version package.\n")
    assert fatal is not None and fatal.entry.id == "ARL-E5544"
    warned = _top("[Toolkit] [2026-05-14 10:21:07] [WARNING]: Relationship of toolkit with driver in path /usr/local/Ascend check failed. do you want to continue.  [y/n] \n")
    assert warned is not None and warned.entry.id == "ARL-E5544"


def test_package_version_relation_success_is_not_e5544():
    line = "[OpsBase] [2026-05-14 10:21:07] [INFO]: Relationship of opbase with runtime in path /usr/local/Ascend check successfully\n"
    assert _id(line) != "ARL-E5544"


# ARL-E026 widened: a GBK default encoding ----------------------------------------------------------------------------

def test_gbk_codec_errors_are_e026():
    for line in (
        "UnicodeDecodeError: 'gbk' codec can't decode byte 0x80 in position 12: illegal multibyte sequence",
        "UnicodeEncodeError: 'gbk' codec can't encode character '\\U0001f4dd' in position 0: illegal multibyte sequence",
        "UnicodeDecodeError: 'gb18030' codec can't decode byte 0xff in position 3: illegal multibyte sequence",
    ):
        assert _id(TB + line + "\n") == "ARL-E026", line


def test_utf8_decode_error_is_not_e026():
    line = "UnicodeDecodeError: 'utf-8' codec can't decode byte 0x80 in position 0: invalid start byte"
    assert _id(TB + line + "\n") != "ARL-E026"


# typographic quotes an editor put in ------------------------------------------------------------------------------------

def test_curly_quotes_read_as_the_programs_ascii_quotes():
    for curly, plain in (
        ("ModuleNotFoundError: No module named ‘torch_npu’", "ModuleNotFoundError: No module named 'torch_npu'"),
        ("FileNotFoundError: [Errno 2] No such file or directory: ‘/data/train.parquet’",
         "FileNotFoundError: [Errno 2] No such file or directory: '/data/train.parquet'"),
    ):
        a, b = _top(curly + "\n"), _top(plain + "\n")
        assert a is not None and b is not None
        assert (a.entry.id, a.kind) == (b.entry.id, b.kind), curly


def test_chinese_quotes_in_a_healthy_line_stay_quiet():
    assert _id("INFO 数据集“gsm8k”加载完成，共 7473 条\nstep:1 - loss:0.5\n") is None


def test_non_breaking_and_ideographic_spaces_read_as_spaces():
    plain = _top("ModuleNotFoundError: No module named 'torch_npu'\n")
    for text in ("ModuleNotFoundError:\u00a0No\u00a0module\u00a0named\u00a0'torch_npu'\n",
                 "ModuleNotFoundError:\u3000No module named 'torch_npu'\n"):
        top = _top(text)
        assert top is not None and (top.entry.id, top.kind) == (plain.entry.id, plain.kind), text


def test_zh_loader_texts_reach_the_english_id():
    for en, zh in (
        ("ImportError: libhccl.so: cannot open shared object file: No such file or directory",
         "ImportError: libhccl.so: 无法打开共享对象文件: 没有那个文件或目录"),
        ("npu-smi: error while loading shared libraries: libdrvdsmi_host.so: cannot open shared object file: No such file or directory",
         "npu-smi: 载入共享库时出错: libdrvdsmi_host.so: 无法打开共享对象文件: 没有那个文件或目录"),
    ):
        a, b = _top(en + "\n"), _top(zh + "\n")
        assert a is not None and b is not None and (b.entry.id, b.kind) == (a.entry.id, a.kind), zh


def test_byte_order_mark_and_zero_width_characters_are_dropped():
    plain = _top("ModuleNotFoundError: No module named 'torch_npu'\n")
    for text in ("\ufeffModuleNotFoundError: No module named 'torch_npu'\n",
                 "\u200bModuleNotFoundError: No module named 'torch_npu'\n"):
        top = _top(text)
        assert top is not None and (top.entry.id, top.kind) == (plain.entry.id, plain.kind), repr(text)
