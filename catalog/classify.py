"""Stream a log (or a Ray session folder) through the catalog and rank what it finds.

How it stays fast and bounded on multi-GB logs:
- the input is read in large binary chunks split at newlines, never as a whole;
- one combined pattern (RE2 when the google-re2 wheel is present: linear time) finds the few
  candidate lines — catalog signatures, traceback headers, frames and exception lines — so
  ordinary lines are never decoded or looked at one by one;
- each candidate line is normalised (ANSI codes, CR, Ray's ``(Actor pid=N, ip=X)`` prefix and
  ``[repeated Nx across cluster]`` suffix removed) and matched against every signature at once
  (an RE2 set), then folded into per-entry counters. Memory is the chunk plus bounded tables.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import stat
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from . import chain as chains
from . import glibc_zh
from . import logversions
from ..lazyre import lazy, top_level_branches
from .chain import Chain, ChainTracker, Link
from .codes import AICORE_TIMEOUT_WORDS, CAPTURE_CODES, ERRNO_NAME_SOURCE
from .codes import described as described_codes
from .codes import reasoned as reasoned_codes
from .codes import extract as _extract_codes
from .entries import Catalog, KnownFailure, Signature
from .gatedset import GatedSet, literal_row
from .inputs import BINARY_SNIFF, Prefixed, decompressing, log_files, os_reason
from .normalize import (UnfoldedLines, strip_escapes, strip_escapes_text, strip_prefixes,
                        unfold_one_line_reports_mapped)
from .run_settings import DUMP_SCAN, MAX_DUMP_LINES, RunSettings
from .run_settings import GUARD as SETTINGS_LINE
from .run_settings import PREFILTER as SETTINGS_PREFILTER
from .. import cache

cache.imported(__file__)  # own_source keys by the text this process runs

try:  # google-re2: linear-time matching; only without the wheel do we use Python's re (documented in README)
    import re2 as _re2
except ImportError:  # pragma: no cover - exercised where the wheel is missing
    _re2 = None
RE2_MAX_MEM = 256 << 20  # the combined scan of a large user catalog outgrows RE2's 8 MiB default

CHUNK = 8 << 20
MIN_MAX_LINE = 64 << 10  # lines up to this long are always judged whole, whatever the chunk size
SMALL_BLOCK = 16 << 10  # a block up to this size (a paste) is scanned line by line: see _Matcher.candidate_lines
MAX_EXCERPT = 300
MAX_UNKNOWN = 64
MAX_TRACEBACKS = 64
MAX_CHAINS = 256
MAX_TRACKERS = 256
MAX_HEAD_MEMO = 1024
# The last bytes of each input (of the last TAIL_FILES inputs) are kept: when nothing fatal is read anywhere, their
# error-worded lines (QUIET_ERROR) are what the similar-failure fallback compares (similar.with_similar's quiet path).
TAIL_BYTES = 64 << 10
TAIL_FILES = 32
QUIET_LINES = 8
QUIET_ERROR = lazy(  # compiled only when a log has nothing else read
    r"(?i)\b(?:errors?|fail(?:ed|ure|s)?|exception|fatal|invalid|cannot|can't|could not|couldn't|not found|"
    r"not supported|unsupported|timed? ?out|refused|denied|abort(?:ed)?|killed|exceed(?:s|ed)?|mismatch|missing)\b"
)

REPEATED = re.compile(r"\s*\[repeated (\d+)x across cluster\]\s*$")
TRACEBACK = chains.TRACEBACK
FRAME = chains.FRAME
EXCEPTION = chains.EXCEPTION
# An exception logged by its repr after a failure message: "reward_fn failed on row 127: KeyError('question')".
# Also in double quotes (requests' errors print their args so). At a quiet log level (vLLM's "WARNING … Failed to import
# from vllm._C: ModuleNotFoundError(…)", which it carries on after) the code that logged it handled it.
# A KeyError logged by logger.exception(e) / logger.error(e) instead of raised: str(KeyError) is the repr of the key, so the
# logger line's whole message is a quoted dotted name (vLLM's MQLLMEngine, vllm/engine/multiprocessing/engine.py
# run_mp_engine: "except BaseException as e: logger.exception(e)" -> "ERROR 06-13 06:59:07 [engine.py:448]
# 'model.layers.0.self_attn.q_proj.weight'", https://github.com/vllm-project/vllm/blob/v0.9.1/vllm/engine/multiprocessing/engine.py).
# Only at ERROR level and only a module path (two dots or more): a parameter or checkpoint tensor name.
LOGGED_KEY = lazy(r"^'(?:\w+\.){2,}\w+'$")
LOGGED_AT_ERROR = re.compile(rb"(?:^|[\s)\]|])ERROR\b")
REPR = lazy(r"(?i:\bfail\w*|\berror)\b[^:]*: ([A-Za-z_][\w.]*(?:Error|Exception))\((['\"])(.*?)\2\)\s*$")
# An exception's repr alone on a line of a short paste ("NameError('loop_x0 is not defined')"): what print(repr(e)) and
# "%r" write (BaseException.__repr__, CPython Objects/exceptions.c: the class name and the repr of its one argument,
# https://github.com/python/cpython/blob/main/Objects/exceptions.c). Read as Python prints the exception: "Type: message".  # pin39: not pinned: cpython is too large to fetch here and the stored exceptions.c (98297ee7) is an old one without the one-argument repr
REPR_ALONE = lazy(r"^([A-Za-z_][\w.]*(?:Error|Exception))\((['\"])(.+?)\2\)\s*$")
# A torch_npu check's message cut after the place it fired: "<function>:<source file>:<line>" and nothing else
# (torch_npu prints the function and file ahead of the reason, the build's "compiler_depend.ts" for its own sources).
NPU_CHECK_AT = lazy(r"^\w+:(?:[\w.\-]+/)*[\w.\-]+\.(?:cpp|cc|ts|h|hpp):\d+\s*$")
# A quoted name opening a line: the value a hand-wrapped exception message ends with ("'max_seq_length'. Did you mean …").
QUOTED_VALUE = lazy(r"^'[^'\s]{1,120}'(?:$|[.,;:)?!\s])")
# The same inside a tuple, with the retry's words after it (vLLM: "Error retrieving safetensors: (MaxRetryError(\"…\"), …),
# retrying 1 of 2"); at a quiet log level it was handled.
REPR_IN_TUPLE = lazy(r"(?i:\bfail\w*|\berror)\b[^:(]*: \(([A-Za-z_][\w.]*(?:Error|Exception))\(([\"'])(.+?)\2\)")
# Python's warnings.warn(f"...:\n{e}") prints "file:line: SomeWarning: text:" and then the caught exception's
# message on its own line ("No module named 'vllm._version'" under vLLM's "Failed to read commit hash:"):
# that line was handled by the code that warned, so it is no exception of its own.
WARNING_OPEN = re.compile(r"\b[A-Z]\w*Warning: .*:\s*$")
# Lines the chain builder needs besides the catalog's own: tracebacks, chain markers, torch_npu's ERR
# tags and CANN codes, process deaths, error codes, and the versions a log states. A pattern that must open the
# message may follow a prefix (container timestamp, Ray's "(pid=N)", vLLM's logger, a spelled-out colour escape): these are only
# candidates, the prefix is stripped before the chain builder reads them.
# glibc's zh_CN strerror texts (glibc_zh.STRERROR) are read as the English text the rest of the engine knows.
ZH_STRERROR = {**glibc_zh.STRERROR, **glibc_zh.BASH, **glibc_zh.LOADER}  # and bash's zh_CN texts (command not found, bad interpreter)
GENERIC_PREFILTER = (
    r"Traceback \(most recent call last\)",
    r'File "[^"\n]+", line \d+',
    r'^(?:/|[A-Za-z]:\\)[^"\s]*\.py", line \d+, in \S+\s*$',  # chains.CUT_FRAME: a frame line copied without its head
    r"""\braise [A-Za-z_][\w.]*(?:Error|Exception)\([fFrR]{0,2}["']""",
    r"(?:^|[\s)\]:])assert [\w(\"'\[]",  # chains.ASSERT_LINE: a condition may open with a literal (assert "factor" in d)
    r"[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)(?:\([\w.]*\))?(?::|\r?$)|(?:^|[\s\]>)])Exception: ",
    r"(?:^|[\s\]>)])(?:[a-z_]\w*\.)+[A-Z]\w*:",  # a module-qualified exception class of any name (chains.QUALIFIED)
    "(?:Error|Exception) ?\uff1a",
    r"The above exception was the direct cause|During handling of the above exception",
    r"Error executing job with overrides",
    r"(?i:dcmi)|Failed to execute npu-smi \S+\. ret is -\d|The error from device\(|\[ERROR\] ?HCC[LP]\(|Failed to bind the IP port|The network port is down|Set visible device failed|runtime result = [125]\d{5}|\bErrCode=\d|[Kk]ernel execute failed, device_id=\d|init soc version failed|\] \[c10d\] |ERR\d{5} [A-Z]|\bE[A-Z]\d{4}\)?:|\bE\d{5}:|[A-Za-z]\(E\d{5}\):|\[Error\]: |error code(?: is|:|=) ?-?\d|failed(?:, errorCode =|\. ERROR:) [125]\d{5}|\bdrv_?(?:Err|RetCode|Ret|ret) ?[=:] ?\d|\bhal[A-Z]\w* [^\n]{0,60}?failed[ ,]{0,4}ret ?[=:] ?\d",
    r"terminate called after throwing|Fatal Python error: |\*\*\* SIG[A-Z]+ |what\(\): |Watchdog caught collective|!!!!!!! Segfault encountered !!!!!!!|ProcessGroup\w*(?:'s)? watchdog |dump debug info, due to collective|Heartbeat monitor timed out!|[Ss]ignal \d+ \(SIG[A-Z]+\) received by PID",
    r"(?:^|[ \t\]|)>:]|\[[\d;]*m)(?:Segmentation fault|Aborted|Bus error|Floating point exception)|段错误|已放弃|总线错误|已杀死|浮点数例外|\d Killed\b|full_key: ",
    r"(?:^|[ \t\]|)>:]|\[[\d;]*m)(?:[Nn]o module named '|module '[\w.]+' has no attribute |The model's max seq len \()|cannot import name '|undefined symbol: |\.so[\w.]*: undefined symbol\s*$|got an unexpected keyword argument '",
    r"'_OpNamespace' '|No available memory for the cache blocks|[Nn]o module named '|cannot open shared object file|" + glibc_zh.CANNOT_OPEN_SHARED + r"|Attempted to set the storage of a tensor|Expected all tensors to be on the same device|(?:^|[ \t\]|)>:]|\[[\d;]*m)(?:the \w+'s (?:dtype|shape|format) should be |Error is in the aclnn)",
    r"\b[a-z]+[A-Z]\w* should be [^.\n]{1,80}?,? (?:but )?[Aa]ctual\b",  # chains.PROSE: a camelCase argument's check
    r"\[Errno \d+\] error while attempting to bind|Address (?:already )?in use \(addr='|Error merging override \S|unsupported operand type\(s\) for ",
    r"^(?:[\w.][\w./ -]{0,100}: error|Error|ERROR|error): \S",  # chains.USAGE_ERROR (a command-line parser's refusal, read under its usage), chains.PIP_ERROR, chains.TOOL_ERROR
    r"^\s*File\s*$",  # a frame line a terminal wrapped at its width (_wrapped_frame)
    r"\[Model\]\s*>>>\s?Exception:",  # chains.MINDIE_CAUGHT: MindIE's record of an exception it caught
    r"Torch not compiled with CUDA enabled|No CUDA GPUs are available",  # chains.PHRASE: torch's CUDA refusals without their type
    r"(?:train(?:ing)?_batch_size|(?:mini|micro)_batch\w*)\b[^:]{0,40}? (?:must|should) be ",  # chains.PHRASE: a batch-size check without its type
    r"fatal error(?: C1083)?: (?:'[^'\n]+' file not found|[^\s:']+: No such file or directory|Cannot open include file: ')",
    rf"\b(?:{chains.ERRNO_SYMBOLS}) ?\(-?\d{{1,3}}\)|(?:{chains.ERRNO_TEXTS})\b",
    r"[\"'“](?i:" + "|".join(chains.OS_STRERRORS) + r")[\"'”]|: (?:" + "|".join(chains.OS_STRERRORS) + r")\s*$",  # chains.PHRASE
    r"\(errno: \d+ - |\"errno\":\d|[{,] ?errno:\d|" + ERRNO_NAME_SOURCE + r"|\[Errno -?\d+\] |which exceeds the memory usage threshold|reserved in total by PyTorch",
    # the runtime's TraceBack line under an AI Core / vector core exception that says the kernel timed out ("Kernel task
    # happen error, retCode=0x30, [vector core timeout]"): it joins the CANN report above it (analyzers/codes.AICORE_TIMEOUT)
    AICORE_TIMEOUT_WORDS,
    # MindSpore's device-memory words under its "Framework Error Message" header, below the exception they explain
    # (analyzers/mindspore.py MindSporeDeviceMemory: AscendMemAdapter, the graph scheduler's actors, the dynamic pool)
    r"Malloc device memory failed, |memory isn't enough and alloc failed|Out of Memory!!! Request memory size|is more than total mem size",
    # the aclnn composite-op engine's TraceBack lines for a failed tiling step (opbase op_run_context.h "Tiling failed",
    # op_kernel.h "Tiling Failed."): they join the CANN report above them, whose code they explain (analyzers/codes.py)
    r"(?:^|\s)Tiling (?:failed|Failed\.)\s*$",
    # the runtime's and the aclnn engine's lines for a kernel function the operator binary lacks (hicann/runtime api_impl.cc
    # "BinaryGetFunctionByEntry failed, funcEntry=N", opbase op_kernel.cpp "aclrtBinaryGetFunctionByEntry failed, kernel
    # name: X, tiling key: N"): they join the code line they are printed with (analyzers/cannrt.py)
    r"BinaryGetFunctionByEntry\b",
    # the runtime's FuncErrorReason line for a call refused as an unsupported feature (hicann/runtime error_message_manage.cc,
    # "%s execution failed, %s." / older "%s execute failed, reason=[feature not support]"): a TraceBack line of the
    # report above it, which names the refused call (analyzers/cannrt.py)
    r"\brt\w+ execut(?:e|ion) failed, (?:reason=\[feature not support\]|the feature is not supported)",
    # c10::Error's what() (c10/util/Exception.cpp): the message, then "Exception raised from <func> at <file>:<line> (most
    # recent call first):" and the C++ frames; pasted without the Python exception line that would carry the message
    # (classify.RAISED_FROM reads the message above it)
    r"Exception raised from \S.* \(most recent call first\):",
    r"\.\s+(?:\(1\))?(?:Check|Rectify) (?:whether|the) ",  # torch_npu's code description and advice on one line (codes.described)
    "|".join(ZH_STRERROR),  # glibc's zh_CN strerror texts
    r"(?:Error|Exception)\('[^']*'\)\r?$|[:(] ?\(?[A-Za-z_][\w.]*(?:Error|Exception)\([\"']",
    r"^CMake Error\b",  # chains.CMAKE_ERROR: CMake's error report, its message on the indented lines below
    logversions.PREFILTER,
)
GENERIC_LINE = lazy("|".join(f"(?:{p})" for p in GENERIC_PREFILTER), re.MULTILINE)  # per line only for config lines
# The runtime's FuncErrorReason line with any reason (codes.reasoned, rt_reasons.yaml): a paste that kept the reason for a
# failed call but not its number ("rtGetDevMsg execution failed, the context is a null pointer") still reports it. A
# candidate of its own, not one of GENERIC_LINE's, and read only where no report is open (Classifier._track).
RT_REASON_PREFILTER = r"\b\w+ execut(?:e|ion) failed, (?:reason=|the context is a null pointer)"


def _native_scan_source(fatal_only: bool) -> str:
    """Where a C++ logger's record at the given levels may start (chains.NATIVE_ERROR confirms it): glog's and c10's
    letter (E / F), Ray's (E / C), and CANN's "[ERROR] MODULE(" (no fatal level of its own, so only when every error
    record is looked for).

    Not a candidate pattern: a CANN log holds thousands of ERROR records, and reading each as a candidate line cost a
    10,000-line log seven times its scan. Classifier._scan_native looks for them in a pass of their own, and only for
    the first ones after the last progress line.
    """
    glog, ray = ("F", "C") if fatal_only else ("[EF]", "[EC]")
    forms = [rf"(?:^|[\s\]>)]){glog}(?:\d{{4}})?\d{{4}} \d\d:\d\d:\d\d\.\d{{6}}\s", rf"(?:^|\s){ray} \d+ \d+\] ",
             rf"\[{glog}(?:\d{{3,4}} \d\d:\d\d:\d\d\.\d{{1,9}})? [\w.+-]+:\d+\] "]
    return "(?m)" + "|".join(forms + ([] if fatal_only else [r"\[ERROR\] [A-Z][A-Z0-9_]*\("]))


# Every record form above has "] " after its head: a block without it (a one-line paste) holds none, and the pass
# compiles nothing for it.
NATIVE_MARK = b"] "
FAILED = re.compile(r"(?i)\bfail|\berror\b")
# Codes that report a failure on their own line. ACL return codes are not among them: plog and
# vLLM print them for handled conditions too (rtMemcpy 107030 during graph capture).
STANDALONE_CODES = ("dcmi:", "drv:", "errno:", "hccl:")
# A compiled library or extension module that could not be loaded, whatever the level of the line that says so
# ("WARNING … Failed to import vllm_ascend_C:libvllm_ascend_kernels.so: cannot open shared object file", "ERROR … Failed to
# import vllm_ascend_C:No module named 'vllm_ascend.vllm_ascend_C'"): what a later call into its ops needs to know.
UNLOADED = lazy(r"(?:^|[\s:/'\"(])(lib[\w+-]+\.so)[0-9.]*\s?[:：]\s?(?:cannot open shared object file|" + glibc_zh.CANNOT_OPEN_SHARED + r")|No module named '(\w+\.\w*_C)'"
                # the loader's version check (glibc elf/dl-version.c): "version `GLIBC_2.32' not found (required by …/x.so)"
                r"|version [`']?((?:GLIBC(?:XX)?|CXXABI)_[\d.]+)'? not found \(required by [^)]*?([\w.+-]+\.so)[\w.]*\)")
MAX_UNLOADED = 16
# An ACL code in the two forms that only a failed call prints: ACL's ReportCallError ("open device 3 failed, runtime
# result = 107001") and torch_npu's checks ("NPU function error: …, error code is 107002"; OPS_CHECK_ERROR's "OPS function
# error: aclnnX, error code is 561000", torch_npu/csrc/core/npu/NPUException.h at v7.2.0-pytorch2.7.1). Pasted alone (a FAQ, a PR
# description), such a line is the failure; inside a CANN report it stays one of its lines, and quoted inside another
# message's repr (a literal "\n" in the line) it is that message's detail. Ascend's ACL samples and AclLite report a
# failed ACL call as "acl set device 0 failed, errorCode = 507033" (ERROR_LOG in Ascend/samples' utils.h callers), and
# CANN's documented API examples as "aclrtSetDevice failed. ERROR: 507033" (their CHECK_RET / LOG_PRINT macro).
REPORTED_CODE = re.compile(r"\bfailed(?:, (?:runtime result|errorCode) =|\. ERROR:) [125]\d{5}\b|\b(?:NPU (?:function )?|OPS function )error\b.*?error code is [125]\d{5}\b")
# The CANN runtime's own report of an rt call that returned an error, at ERROR level: "[ERROR] RUNTIME(…) … rtStreamSynchronize:
# [EXEC][DEFAULT]ErrCode=507017, desc=[aicpu timeout], InnerCode=0x715002a" (REPORT_FUNC_ERROR_REASON and the
# COND_RETURN_EXT_ERRCODE_* macros log ErrorcodeManage::GetErrorDesc's "ErrCode=%d, desc=[%s], InnerCode=0x%x" before
# returning the code; hicann/runtime src/runtime/api/api_c.h, src/runtime/core/src/common/errcode_manage.cc). Its WARNING
# form (WE0001) is a condition the caller handles, and so are the capture-mode codes (CAPTURE_CODES) in a run's log.
RT_ERRDESC = lazy(r"\[ERROR\] RUNTIME\([^)\n]*\):.*?\w: ?(?:\[\w+\])*ErrCode=[125]\d{5}, desc=\[")
# The same report with the plog head cut off, as pastes and CANN's Inner Error blocks carry it: the rt API's own name first
# (RT_LOG prefixes __func__: rtStreamSynchronize, rtMemcpy, rtsFuncGetByEntry …).
RT_CALL = lazy(r"(?:^|[\s\]:|])rts?[A-Z]\w*: ?(?:\[\w+\])*ErrCode=[125]\d{5}, desc=\[")
RT_QUIET = lazy(r"\[(?:WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\]|\b(?:WARNING|INFO|DEBUG) ")
# An issue title that states a failure with the ACL / runtime return code it got ("All TBE kernels fail with 507015 aicore
# exception", "vector-core crash (acl error 507035)"): the code as the runtime returned it, read as that code's failure
# (short pastes only, and only a code the tables know, of the runtime's (107xxx, 207xxx, 507xxx) and aclnn's (161xxx,
# 361xxx, 561xxx) ranges, not a round ACL parameter code a count may look like). The words must say it failed: a bare
# number in a title is not a code.
TITLE_CODE = lazy(r"(?i:\bfail(?:s|ed|ing|ure)?\b|\berror\b|报错|错误|失败)[^\d\n]{0,30}?(?<![A-Za-z0-9_.:/-])([25]07\d{3}|107\d{3}|[135]61\d{3})(?![A-Za-z0-9_.:/-])"
                  r"(?!\s*(?i:steps?|tokens?|samples?|iter\w*|epochs?|rows?|items?|bytes?|records?|times|seconds?|ms|s)\b)"
                  r"|(?<![A-Za-z0-9_.:/-])([25]07\d{3}|107\d{3}|[135]61\d{3})(?![A-Za-z0-9_.:/-])\s{0,2}(?i:\(?\w+ )?(?:ai ?core |aicpu |vector core )?(?i:error|exception|报错|错误|异常)")
SOURCE_PLACE = lazy(r"\S\.(?:cpp|cc|cxx|c|h|hpp|py)(?:[:(]| line )\d+|(?:^|\s)/[\w.-]+/\S")
# c10::Error::what() as torch and torch_npu print it: the message, then this line, then the native frames ("frame #0:
# c10::Error::Error(…)"). c10/util/Exception.cpp (pytorch v2.5.1): Error(SourceLocation, msg) appends "Exception raised from
# " << source_location << " (most recent call first):\n" << backtrace. Python raises it as RuntimeError with the whole what()
# as its message; a paste that starts at the message (or torch_npu's glog-style "[E1204 … compiler_depend.ts:444] <msg>"
# record of it) has no exception line, and the message above this line is then the failure (Classifier._raised_from).
RAISED_FROM = lazy(r"^Exception raised from \S.* \(most recent call first\):\s*$")
# glog's record head in torch's C++ logging ("[E1204 11:18:17.728425480 compiler_depend.ts:444] "): level, date, time, file.
GLOG_RECORD = lazy(r"\[([IWEF])\d{3,4} [\d:.]+ (?:\d+ )?[\w./-]+:\d+\] ?(.*)$")
# A native frame line of c10's backtrace, or the frame list's end: the message above them is not one of them.
NATIVE_FRAME = lazy(r"^frame #\d+: ")
# torch_npu's error tag, which it appends to a c10::Error's message after a blank line ("[ERROR] 2025-12-04-11:18:17 (PID:186138,
# Device:0, RankID:0) ERR00006 PTA memory error"; torch_npu/csrc/core/npu/NPUException.h, PTA_ERROR / OPS_ERROR).
ERR_TAG_LINE = lazy(r"^\[ERROR\] [\d:-]+ \(PID:\d+, Device:-?\d+, RankID:-?\d+\) ERR\d{5} ")
MAX_RAISED_ABOVE = 6  # lines looked at above RAISED_FROM for its message

# An exception type typed with a full-width colon (a Chinese input method): "RuntimeError：NPU function error: …".
FULLWIDTH_COLON = re.compile(r"(?<=[A-Za-z_])((?:Error|Exception))\s*\uff1a\s*")


# A short paste: the whole input is one block of at most this many bytes and lines, read from a file or a stream (never a
# running job's output, fed by feed_chunk). A larger file's first block is the first read (8 KiB, inputs.BINARY_SNIFF) cut
# at its last newline, so a block this small is a whole input unless one of its lines is longer than 4 KiB.
PASTE_BYTES = 4 << 10
PASTE_LINES = 40
# The lines of a short paste where a person names an error in words: an exception class alone (in backticks, quotes or
# as a word), an OS error's class spelled out, a process death or a missing shared library in a Chinese sentence. A
# program's output does not say it so; they are candidates in short pastes only (Classifier._paste_lines).
PASTE_ONLY = lazy(
    r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b|" + chains.WORDED_EXC.pattern
    + r"|段错误|核心已转储|总线错误|浮点数例外|Segmentation fault|Bus error|Floating point exception|" + glibc_zh.CANNOT_OPEN_SHARED + r"|(?:找不到|未找到|无法找到|缺少|缺失)\s*lib[A-Za-z0-9_+-]+\.so[0-9.]*|(?<![A-Za-z0-9_])lib[A-Za-z0-9_+-]+\.so[0-9.]*\s*(?:找不到|未找到|无法找到|不存在)"
)
# Chinese words for "cannot find" around a shared library's name ("导致报错libatb.so找不到"), and the loader's own
# "cannot open shared object file" in a zh_CN locale (glibc_zh.CANNOT_OPEN_SHARED): the loader's failure in Chinese.
CJK_SO_MISSING = lazy(
    r"(?<![A-Za-z0-9_])(lib[A-Za-z0-9_+-]+\.so[0-9.]*)\s*(?::\s*)?(?:找不到|未找到|无法找到|不存在|" + glibc_zh.CANNOT_OPEN_SHARED + r")|(?:找不到|未找到|无法找到|缺少|缺失)\s*(lib[A-Za-z0-9_+-]+\.so[0-9.]*)"
)
# The same in English words of a short paste: a title or sentence that says a shared library is "not found" or that it
# "cannot find" one ("libhccl.so not found when starting vllm serve"), and ldd's line for a dependency the loader cannot
# resolve ("libhccl.so => not found", glibc elf/ldd.bash.in / rtld's trace): read as the loader's own failure. Also a
# tool's own sentence for a library its dlopen could not load, the loader's reason left out ("Failed to load the
# libdcmi.so dynamic library.", Ascend DMI, MindCluster ToolBox): group 3.
EN_SO_MISSING = lazy(
    r"(?<![\w/.-])(lib[A-Za-z0-9_+-]+\.so[0-9.]*)(?:\s*=>)?\s+(?:was |is )?not found\b"
    r"|\b(?:cannot|can't|can not|could not|couldn't|unable to) (?:find|locate) (?:the )?(?:library |file )?[`'\"]?(lib[A-Za-z0-9_+-]+\.so[0-9.]*)"
    r"|\b(?:[Ff]ailed to|cannot|can't|can not|could not|couldn't|unable to) (?:load|open) (?:the )?(?:dynamic |shared )?(?:library )?"
    r"[`'\"]?(lib[A-Za-z0-9_+-]+\.so[0-9.]*)[`'\"]?(?: (?:dynamic |shared )?(?:library|object))?(?:[.,;]|\s*$)"
)
# A process death named in a sentence of a short paste ("910B3 import torch_npu 出现段错误", "import torch_npu gives
# Segmentation fault (core dumped)"): the death itself, as the shell prints it on its own line.
SENTENCE_DEATH = lazy(r"(段错误|总线错误|浮点数例外|Segmentation fault|Bus error|Floating point exception)(?:\s*\(?(?:core dumped|核心已转储|吐核)\)?)?")
WORDED_TYPES = {"permission": "PermissionError", "permissions": "PermissionError", "permissiondenied": "PermissionError", "filenotfound": "FileNotFoundError", "fileexists": "FileExistsError",
                "isadirectory": "IsADirectoryError", "notadirectory": "NotADirectoryError", "connectionrefused": "ConnectionRefusedError",
                "connectionreset": "ConnectionResetError", "brokenpipe": "BrokenPipeError", "modulenotfound": "ModuleNotFoundError"}
# A paste's note of where a lone exception was raised, quoting the code: a Python file, its line ("line 881", "881行",
# ":881"), then the statement (an assignment or a call), as a person copies it from the traceback they did not paste.
PASTED_LOCATION = lazy(r"[\w/.-]+\.py\b\W{0,3}(?:line\s*)?\d+\s*(?:行|lines?)?\W{0,3}?\s*([A-Za-z_][\w.\[\]:, ]*(?:=|\()[^\n]*)$")
# A sentence that quotes, in a code span, the assert statement whose AssertionError it reports ("… trips the assertion
# `assert len(seqlen_list) % k_partitions == 0` in … (`AssertionError: 206 % 4 != 0`)"): the condition, as Python would
# print it above the exception.
QUOTED_ASSERT = lazy(r"`assert ([^`,]+?)(?:,[^`]*)?`")
CLOSERS = {"`": "`", '"': '"', "“": "”", "(": ")"}
# A title's opening words: the tags an issue template puts first ("[Bug]:", "### "), and the words that join the message
# to where it happened ("NPU out of memory when tp=2", "… on 910B", "… with vLLM 0.9", "… after upgrading").
MAX_TITLE = 300
# A program's own report line, not a title: a log level in brackets first ("[Error]: Failed to apply for memory." is
# torch_npu's report, its text wrapped onto the next line).
LEVEL_TAG = lazy(r"^\[(?i:error|err|warn\w*|info|debug|fatal|critical|notice)\]")
MAX_TITLE_WORDS = 16
MD_HEADING = lazy(r"^#{1,6}[ \t]+")
TITLE_TAG = lazy(r"^(?:#{1,6}\s+)?(?:\[(?!(?i:error|err|warn\w*|info|debug|fatal|critical|notice)\])[A-Za-z][\w .+/-]{0,29}\]\s*:?\s*)+")
# Template tags of titles that ask for something rather than report a failure: a feature request's "when not …" is no error.
REQUEST_TAG = lazy(r"(?i)\[(?:feature[\w ]*|rfc|docs?|documentation|roadmap|proposal|enhancement|new model)\]")
TAG_TYPE = lazy(r"\[([A-Za-z_][\w.]*(?:Error|Exception))\]\s*:?\s*$")
TITLE_JOINS = frozenset(("when", "while", "with", "on", "in", "at", "after", "during", "for", "using", "if", "because", "since", "via",
                         "from", "under", "and", "but", "whenever", "-", "—", "(", "，"))
# The labels of the suggestion block CANN prints under every registered error ("suggestion": {"Possible Cause", "Solution"}
# in the runtime's error_code.json): template words any error's block opens with, never a title's opening words.
SUGGESTION_LABEL = lazy(r"^(?:Possible Cause|Solution)\s*:")


ZH_STRERROR_TEXT = lazy("|".join(ZH_STRERROR))
# Typographic quotes an editor puts in place of a program's ASCII ones (‘ ’ “ ”) and the non-breaking / ideographic
# spaces it puts in place of its spaces, read back as ASCII; a byte-order mark (a log saved by a Windows editor) and
# zero-width characters (a web page's copy) dropped (Classifier._line).
TYPOGRAPHIC = re.compile("[\u2018\u2019\u201c\u201d\u00a0\u3000\ufeff\u200b\u200c\u200d\u2060]")
ASCII_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " ", "\u3000": " ",
                              "\ufeff": None, "\u200b": None, "\u200c": None, "\u200d": None, "\u2060": None})
# A one-sentence paste read as the error message it states (Classifier._lone_sentence): words that state a failure, and the
# heads that make a line a log record rather than a message (a level word or tag, glog's "E1204 11:18:17" head).
MAX_LONE = 400
# Values a program's message prints inside a sentence, which look like code to CODE_LINE: a number in parentheses after a
# name ("the worker process(67215)", "clusters(ray_num_nodes: 1)" is not one: a colon and words) and a setting written
# key=value or key>=value ("with use_vllm=True", "need python>=3.10"). Masked before CODE_LINE judges a sentence of at least
# PROSE_WORDS words; a line of code keeps its calls, braces and assignments with spaces.
PRINTED_VALUE = lazy(r"(?<=\w)\(\d[\d.,]*\)|(?<![\w=<>!])([A-Za-z_][\w.]*)(?:==|>=|<=|=)[\w.'\"/+-]+(?=[\s,.;:!?)]|$)")
PROSE_WORDS = 5
# A short paste of consecutive sentences, one message over several lines (Ray's "Failed to set up runtime environment." with
# its reason on the next line): at most this many lines are joined into one lone sentence.
LONE_LINES = 3
# Python's built-in exception classes a title may type in lower case ("importerror: …so: undefined symbol").
LOWER_TYPES = {t.lower(): t for t in (
    "ImportError", "ModuleNotFoundError", "RuntimeError", "ValueError", "TypeError", "KeyError", "AttributeError",
    "OSError", "FileNotFoundError", "PermissionError", "AssertionError", "IndexError", "MemoryError", "NotImplementedError",
    "ConnectionError", "ConnectionRefusedError", "TimeoutError", "NameError", "ZeroDivisionError", "RecursionError")}
# A line that opens with a name and a colon ("ArrowInvalid: …", "Tip: …", "pip: …"): a type, a program or a label of its own,
# which the typed readers judge; a person's sentence does not open so.
# A built-in exception class spelled as words at the head of a paste's line, run into its message or followed by a comma
# ("Import error sgl_kernel undefined symbol: …", "value error, the checkpoint …"): the class, and its message after it, as
# Python prints them. Not with a colon: "Import error: …" is how a program prints a condition it handled and went on after.
SPELLED_TYPE = lazy(r"^(?i:(import|module ?not ?found|value|runtime|type|key|attribute|assertion|index|name|os|file ?not ?found|permission"
                    r"|memory|not ?implemented|timeout|connection(?: ?refused)?|recursion|zero ?division) ?error)(?:\s*,\s*|\s+)(?=[^\s:：])")
NAME_HEAD = lazy(r"^[A-Za-z_][\w.]*\s?:")
# A paste typed (or lower-cased by a chat tool) in lower case ("npu out of memory"): its words spelled as the catalog's
# signatures spell them ("NPU out of memory"), used only when the line so spelled reads as a known message. A word is a
# letter run not inside a path, a file name or a snake_case name ("torch_npu" stays as it is).
CASED_WORD = lazy(r"(?<![\w./\\-])[A-Za-z][A-Za-z0-9]*(?![\w/-])")
REGEX_ESCAPE = lazy(r"\\[A-Za-z]")
MIN_CASED_LINE = 12


def _cased_words(entries: Iterable[KnownFailure]) -> dict[str, str]:
    """{a word in lower case: its spelling most signatures use}, for the words signatures mostly spell otherwise."""
    forms: dict[str, dict[str, int]] = {}
    for entry in entries:
        for sig in entry.signatures:
            for word in CASED_WORD.findall(REGEX_ESCAPE.sub(" ", sig.regex)):
                if len(word) >= 2:
                    seen = forms.setdefault(word.lower(), {})
                    seen[word] = seen.get(word, 0) + 1
    cased = {}
    for lower, seen in forms.items():
        best = max(seen, key=lambda w: (seen[w], w == lower))
        if best != lower:
            cased[lower] = best
    return cased


# A quiet level typed in lower case ("warning: value error in …"): a line that says so reports no failure.
LOWER_QUIET = lazy(r"(?i)\b(?:warn(?:ing)?|info|debug|notice)\b")
LOWER_TYPE = lazy(r"^(" + "|".join(LOWER_TYPES) + r")\s*:")
LONE_FAILURE = lazy(r"(?i)error|fail|\b(?:not|cannot|can't|unable|invalid|exceed\w*|overflow\w*|too (?:long|large|big|many|small|few)"
                    r"|mismatch\w*|unsupported|missing|undefined|denied|refused|timed? ?out)\b")
LONE_RECORD = lazy(r"^\W{0,3}(?:ERROR|ERR|WARN(?:ING)?|INFO|DEBUG|NOTICE|CRITICAL|FATAL|TRACE)\b|\[(?i:error|err|warn\w*|info|debug|fatal|critical|notice)\]"
                   r"|^\[?[EFWI]\d{4} \d\d:\d\d|" + chains.QUIET_ANYWHERE.pattern)


# Code a person's sentence quotes in backticks (Markdown's inline code span).
INLINE_CODE = lazy(r"`[^`\n]*`")
# A shell line in a paste (a prompt, a command the person ran): what they did, not what failed.
COMMAND_LINE = lazy(r"^(?:[$#>]\s|\S+@\S+[:#$]|(?:export|set|source|sudo|python3?|bash|sh|pip3?|vllm|torchrun|ray|docker|npu-smi|cd)\s)")


# A paste that is one message quoted whole ("Unable to register worker with raylet" in double quotes, a FAQ or an issue's
# prose quoting the program): the quotes are the person's, the message inside is the program's (templated with the quotes,
# similar.templates masks it whole, and the resemblance compares nothing but the placeholder type).
QUOTED_WHOLE = lazy(r'["\u201c`]([^"\u201c\u201d`]{8,})["\u201d`]')  # not single quotes: a KeyError prints its key so


def _persons_sentence(raw: bytes) -> str | None:
    """A paste's line as a person's sentence (an issue title's template tags off), or None: a program's record (a
    logger's or a shipper's head came off, a level named), too long for a sentence, or one about handling or fixing an
    error rather than reporting it (_a_report)."""
    line = strip_escapes_text(raw.decode("utf-8", "replace")).strip()
    text, prefix = strip_prefixes(line)
    if prefix or text.strip() != line:
        return None
    text = text.strip()
    if (tag := TITLE_TAG.match(text)) is not None and tag.end() < len(text):
        text = text[tag.end():].strip()
    if (quoted := QUOTED_WHOLE.fullmatch(text)) is not None:
        text = quoted.group(1).strip()
    if len(_without_urls(text)) > MAX_LONE or LONE_RECORD.search(text) is not None or not _a_report(text):
        return None
    return text


def _looks_like_code(text: str) -> bool:
    """CODE_LINE on a person's sentence, with the values a message prints in prose masked (PRINTED_VALUE)."""
    if len(text.split()) >= PROSE_WORDS:
        text = PRINTED_VALUE.sub(lambda m: m.group(1) or "", text)
    return chains.CODE_LINE.search(text) is not None


def _names_a_class(text: str) -> bool:
    """Whether a person's sentence names a failure's class in words (analyzers/prose_words.yaml)."""
    from .analyzers.prose import named_in_words

    return named_in_words(text) is not None


def _english_strerror(text: str) -> str:
    """A line with glibc's zh_CN strerror text in it, that text in English (the line itself when there is none)."""
    return ZH_STRERROR_TEXT.sub(lambda m: ZH_STRERROR[m.group(0)], text) if ZH_STRERROR_TEXT.search(text) else text


def _a_report(words: str) -> bool:
    """Whether a person's sentence around an error reports it: not a log record at a quiet level, not a sentence about
    handling, fixing or avoiding it. The words of a link in it are not its words ("refer to https://docs.ray.io/…")."""
    words = _without_urls(words)
    return (chains.QUIET_ANYWHERE.search(words) is None and chains.HANDLED.search(words) is None
            and chains.NOT_A_REPORT.search(words) is None)


# A link a message or a sentence quotes (a program's "refer to https://docs…/handling-dependencies.html"): its path's words
# say nothing about the sentence, and it does not make a message longer than a sentence.
URL_IN_TEXT = lazy(r"\b(?:https?|s3|gs|hdfs|obs|ftp)://\S+")


def _without_urls(text: str) -> str:
    return URL_IN_TEXT.sub("<url>", text) if "://" in text else text


# Words before a quoted exception that say the code went on past it (chains.HANDLED without "raise", which a sentence
# reporting an error uses: "trl raises: ImportError: …").
RETRIED = lazy(r"(?i)\b(?:retr(?:y|ying|ied)|ignor\w*|skip\w*|caught|catch\w*|fall(?:ing)? ?back)\b")


def _phrase_start(text: str, phrase: re.Match) -> int:
    """Where the message a PHRASE match reads begins: its group, or for an OS error's text quoted in a sentence, the text."""
    start = phrase.start(phrase.lastindex)
    if phrase.lastindex in chains.QUIET_PHRASES and (said := STRERROR_TEXT.search(text, start)) is not None:
        start = said.start()
    return start


STRERROR_TEXT = lazy(r"(?i:" + "|".join(chains.OS_STRERRORS) + r")")


def _changed_before(regex: str, text: str) -> bool:
    """Whether the words before a signature's match in a title are about changing code for it ("added FAQ about 'No
    space left on device' error", "Fix …"): the title names the message, it does not report it."""
    try:
        m = re.search(regex, text)
    except re.error:
        return False
    return m is not None and chains.NOT_A_REPORT.search(text[: m.start()]) is not None


def _reported(line: str, code: str) -> bool:
    return code not in CAPTURE_CODES and "\\n" not in line and REPORTED_CODE.search(line) is not None


def _rt_report(line: str, code: str, paste: bool) -> bool:
    """The runtime's report of an rt call that returned ``code`` (RT_ERRDESC, RT_CALL), not at a quiet level.

    A graph-capture code is a condition capture probes and handles in a run's log; a short paste that shows it is the
    failure its author reports.
    """
    if "\\n" in line or RT_QUIET.search(line) is not None or (code in CAPTURE_CODES and not paste):
        return False
    return RT_ERRDESC.search(line) is not None or RT_CALL.search(line) is not None


# A log level that does not report a failure: an OS error logged at it ("WARNING: [Errno 111] … retrying") was handled.
_QUIET_LEVEL = re.compile(r"(?:WARN(?:ING)?|INFO|DEBUG|NOTICE)\b")
# A named logger's record: a lead-in that names the logger (letters, not only a timestamp) and then the level
# ("2026-08-27 15:14:40,139 - 1401 - gpustack_runtime.detector.ascend - ERROR - Failed to initialize DCMI"). A traceback
# under such a record at ERROR (logger.exception) followed at once by the same logger's next record at a quiet level was
# caught and logged by code that carried on: the process survived it (Classifier._logged_and_survived). Found by the
# level word within the line's first MAX_RECORD_HEAD characters, a logger name before it.
LOG_LEVEL = lazy(r"\b(ERROR|CRITICAL|WARNING|WARN|INFO|DEBUG)\b")
LOGGER_NAME = lazy(r"[A-Za-z_]{3,}")
# Ray's own records name the file that logged, not the logger ("2025-08-04 10:00:01,234\tERROR npu.py:82 -- Failed to
# detect NPU type.", ray_constants.LOGGER_FORMAT). A traceback under such an ERROR record whose first frame is that file
# inside Ray was caught where it was logged (logger.exception in Ray's own handler: its accelerator probes, for one); a
# Ray record at a quiet level right after the exception line says the process carried on.
RAY_RECORD = lazy(r"\b(ERROR|CRITICAL|WARNING|WARN|INFO|DEBUG) ([\w.-]+\.py):\d+ -- ")
RAY_LOGGED = "\0ray:"  # the marker a Ray-format record leaves in _logged_tracebacks, before the file it names
MAX_RECORD_HEAD = 200
MAX_SURVIVED = 4096  # exceptions remembered as survived: a long run's handled, logged retries stay bounded
PROGRESS = b"step:"


@dataclasses.dataclass
class Hit:
    """Where an entry first matched, and how often it matched in all."""

    entry: KnownFailure
    file: str
    line: int
    excerpt: str
    order: int
    fatal: bool
    count: int = 0
    basis: str = "catalog"


@dataclasses.dataclass(frozen=True)
class UnknownError:
    """The most relevant exception that no catalog entry explains."""

    type: str
    message: str
    file: str
    line: int
    frame: str | None  # innermost frame of user/verl code: "path:line in func"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    entry: KnownFailure
    file: str
    line: int
    excerpt: str
    count: int
    fatal: bool  # the entry's, or a matched signature's override
    demoted_by: str | None  # the entry this one is a consequence of, if any
    basis: str = "catalog"  # catalog: a known-failure entry matched; derived: an analyzer reasoned it from the failure
    evidence: tuple[str, ...] = ()  # the log lines the diagnosis rests on
    notes: tuple[str, ...] = ()  # what the analyzers read from this failure's own lines (path and writer, numbers, keys, packages, codes)
    kind: str = ""  # the root-cause label an analyzer recognised (a derived diagnosis', or one folded into a catalog entry)
    handled: bool = False  # its exception was caught, and the handler's own failure (demoted_by) ended the run

    def to_json(self) -> dict[str, Any]:
        e = self.entry
        return {
            "id": e.id,
            "basis": self.basis,
            **({"kind": self.kind} if self.kind else {}),
            "title": e.title,
            "family": e.family,
            "severity": e.severity,
            "fatal": self.fatal,
            "cause": e.cause,
            "fix": list(e.fix),
            "source": e.sources[0] if e.sources else None,
            "sources": list(e.sources),
            "fix_id": e.fix_id,
            "file": self.file,
            "line": self.line,
            "excerpt": self.excerpt,
            "count": self.count,
            "consequence_of": self.demoted_by,
            **({"handled_before": self.demoted_by} if self.handled else {}),
            "evidence": list(self.evidence),
            "notes": list(self.notes),
        }


@dataclasses.dataclass(frozen=True)
class Explanation:
    diagnoses: tuple[Diagnosis, ...]
    unknown: UnknownError | None
    bytes_read: int
    lines_read: int
    files: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...] = ()  # (path, why) of every input not read, or read only in part
    upstream: tuple[Any, ...] = ()  # upstream.UpstreamFix: known upstream bugs whose error the diagnosed lines carry
    versions: tuple[tuple[str, logversions.Stated], ...] = ()  # (package, (version, line)) as the log states them: the upstream verdict reads them
    quiet: tuple[tuple[str, int, str], ...] = ()  # nothing at all read: the inputs' last error-worded lines (Classifier.quiet_lines)

    def error_lines(self) -> list[str]:
        """The lines the diagnoses and the unknown error rest on: what a known-upstream-bug lookup reads."""
        lines = [line for d in self.diagnoses if d.fatal for line in (d.excerpt, *d.evidence)]
        if self.unknown is not None:
            lines.append(f"{self.unknown.type}: {self.unknown.message}")
        return list(dict.fromkeys(lines))

    @property
    def fatal(self) -> bool:
        return any(d.fatal for d in self.diagnoses) or self.unknown is not None

    @property
    def read_nothing(self) -> bool:
        """Every input was skipped: "no known failure" would be a claim about nothing."""
        return not self.files and bool(self.skipped)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": 1,
            "diagnoses": [d.to_json() for d in self.diagnoses],
            "unknown": self.unknown.to_json() if self.unknown else None,
            "input": {
                "files": list(self.files),
                "bytes": self.bytes_read,
                "lines": self.lines_read,
                "skipped": [{"path": path, "reason": why} for path, why in self.skipped],
            },
            "upstream": [fix.to_json() for fix in self.upstream],
        }


def _prefilter_source(regex: str) -> str:
    """A signature as a line-unanchored alternative for the chunk scan (the per-line check keeps anchors)."""
    body = regex[1:] if regex.startswith("^") else regex
    if body.endswith("$") and not body.endswith("\\$"):
        body = body[:-1]
    return body


class _Matcher:
    """All signatures at once: a chunk scanner and a per-line set matcher."""

    def __init__(self, entries: tuple[KnownFailure, ...]):
        self.owners: list[tuple[KnownFailure, Signature]] = []
        patterns: list[str] = []
        for entry in entries:
            for sig in entry.signatures:
                self.owners.append((entry, sig))
                patterns.append(sig.regex)
        alternatives = [_prefilter_source(p) for p in patterns] + list(GENERIC_PREFILTER) + [RT_REASON_PREFILTER] + list(SETTINGS_PREFILTER)
        combined = "(?m)" + "|".join(f"(?:{a})" for a in alternatives)
        self._set = None
        self._native_scans: dict[bool, Any] = {}
        if _re2 is None:
            self.dump_scan = re.compile(("(?m)" + DUMP_SCAN).encode())
            self.engine = "re"
            self._py_lines = [re.compile(p) for p in patterns]
            self.scan = re.compile(combined.encode())
            return
        # Signatures RE2 cannot take were rejected when the catalog loaded (entries.regex_problem);
        # one built by hand that slips through raises here, loudly, never by switching engines.
        options = _re2.Options()
        options.log_errors = False
        options.max_mem = RE2_MAX_MEM
        self.engine = "re2"
        self.dump_scan = _re2.compile(DUMP_SCAN.encode(), options)
        self._py_lines = []
        # The chunk scan must not match across a newline: a signature's \s or [^…] would carry a match into the
        # next line, which is then judged as part of this one and its own match skipped.
        scan_options = _re2.Options()
        scan_options.log_errors = False
        scan_options.max_mem = RE2_MAX_MEM
        scan_options.never_nl = True
        self.scan: Any = None  # compiled when first needed
        self._scan_source = (combined.encode(), scan_options)
        # One per-line set serves both the signature look-up (the first len(patterns) members: a hit is its owner)
        # and a paste's candidate test (any member): the unanchored prefilter form of an anchored signature and the
        # generic / settings patterns follow. Compiling the same ~800 signatures twice was a fifth of a one-line explain;
        # compiling all of them once, a third: the set is gated by the members' required literals (gatedset.py).
        members = list(patterns) + [a for p, a in zip(patterns, alternatives) if a != p] + alternatives[len(patterns):]
        self._set = GatedSet(members, options, _re2)
        self._signatures = len(patterns)

    def native_scan(self, fatal_only: bool) -> Any:
        """_native_scan_source(fatal_only) compiled in this matcher's engine, once."""
        rx = self._native_scans.get(fatal_only)
        if rx is None:
            source = _native_scan_source(fatal_only).encode()
            if self.engine == "re2":
                options = _re2.Options()
                options.log_errors = False
                options.never_nl = True
                rx = _re2.compile(source, options)
            else:
                rx = re.compile(source)
            self._native_scans[fatal_only] = rx
        return rx

    def candidate_lines(self, block: bytes, by_line: bool | None = None) -> Iterator[tuple[int, int]]:
        """(start, end) of every line of ``block`` that a signature or a prefilter pattern matches, in order.

        A block of a few lines (a paste) is tested line by line against an RE2 set of the same
        patterns: the combined scan's compile and the reverse program RE2 builds to report where a
        match starts cost a one-line explain a fifth of its time. A line is a candidate either way
        exactly when one pattern matches inside it (the scan never matches across a newline).
        ``by_line`` forces one way or the other (the test that both agree); by default the block's size decides.
        """
        if by_line is None:
            by_line = len(block) <= SMALL_BLOCK
        if self.engine == "re2" and by_line:
            lines = self._set
            lines.cover(block)
            start, size = 0, len(block)
            while True:
                end = block.find(b"\n", start)
                end = size if end == -1 else end
                if lines.match_covered(block[start:end]):
                    yield start, end
                if end >= size:
                    return
                start = end + 1
        if self._set is not None:
            self._set.compile_whole()  # a large input: its candidate lines will ask the set one by one
        if self.scan is None:  # a larger input's first block: one pass over each block finds its lines
            source, options = self._scan_source
            self.scan = _re2.compile(source, options)
        last_start = -1
        for m in self.scan.finditer(block):
            start = block.rfind(b"\n", 0, m.start()) + 1
            if start == last_start:
                continue  # already judged this line
            last_start = start
            end = block.find(b"\n", m.end())
            yield start, len(block) if end == -1 else end

    def entries_in(self, line: str) -> list[tuple[KnownFailure, Signature]]:
        if self._set is not None:
            hits = self._set.match(line.encode("utf-8", "replace"))
            return [self.owners[i] for i in sorted(hits) if i < self._signatures]
        return [self.owners[i] for i, rx in enumerate(self._py_lines) if rx.search(line)]


@functools.lru_cache(maxsize=4)
def extract_codes(text: str) -> tuple[str, ...]:
    """codes.extract, remembered for the last few lines: one candidate line asks it up to three times."""
    return tuple(_extract_codes(text))


def _native_fatal(record: re.Match[str]) -> bool:
    """Whether a chains.NATIVE_ERROR record is at a fatal level (glog / c10 F, Ray's C); CANN's ERROR is not."""
    return (record.group("glog") or record.group("ray") or record.group("c10")) in ("F", "C")


def _lines_below(block: bytes, end: int, limit: int) -> Iterator[str]:
    """The text of up to ``limit`` lines after the line that ends at ``end`` (each cut at MAX_EXCERPT bytes)."""
    for _ in range(limit):
        if not block or end >= len(block):
            return
        nxt_end = block.find(b"\n", end + 1)
        nxt_end = nxt_end if nxt_end != -1 else len(block)
        yield block[end + 1 : nxt_end][:MAX_EXCERPT].decode("utf-8", "replace").rstrip("\r\n")
        end = nxt_end


def _wrapped_frame(block: bytes, end: int) -> str | None:
    """A traceback frame line that a terminal or issue viewer wrapped at its width, joined as Python printed it.

    Python prints 'File "<path>", line <n>, in <function>' on one line; a fixed-width wrap (80 columns) leaves "File"
    alone and cuts the rest after the path or after "line " ('"/…/verl_model_merger.py", line ' / '369, in merge_and_save').
    ``end`` is where the "File" line ends; its next one or two lines are joined while the first opens the quoted path.
    """
    joined = 'File '
    for raw in _lines_below(block, end, 2):
        part = strip_prefixes(raw)[0].lstrip()
        if joined == 'File ' and not part.startswith('"'):
            return None
        joined += part
        if (frame := FRAME.match(joined)) is not None and frame.group(3):
            return joined.rstrip()
    return None


def _usage_above(block: bytes, start: int) -> str:
    """The nearest command usage line ("usage: …" from argparse, "Usage: …" from Click) printed above ``start``, or ""."""
    if not block:
        return ""
    heads = list(chains.USAGE_HEAD.finditer(block, max(0, start - chains.USAGE_LOOKBACK), start))
    if not heads:
        return ""
    at = heads[-1].start() + (block[heads[-1].start():heads[-1].start() + 1] == b"\n")
    stop = block.find(b"\n", at, start)
    return block[at:stop if stop >= 0 else start].decode("utf-8", "replace").strip()[:300] or "usage:"


class Classifier:
    """Feed it files, streams or folders; then ask for the ranked explanation."""

    def __init__(self, catalog: Catalog, *, chunk_size: int = CHUNK, max_line: int | None = None, analyzers: tuple | None = None):
        self.catalog = catalog
        self.analyzers = analyzers  # None: the registered ones (catalog/analyzers/__init__.py registry)
        self.matcher = _Matcher(catalog.entries)
        self.chunk_size = chunk_size
        self.max_line = max_line if max_line is not None else max(2 * chunk_size, MIN_MAX_LINE)
        self.hits: dict[str, Hit] = {}
        self.trackers: OrderedDict[tuple[str, str], ChainTracker] = OrderedDict()
        self.chains: OrderedDict[tuple, Chain] = OrderedDict()  # finished chains, one per distinct failure
        self.log_versions = logversions.LogVersions()  # package (or cann, env:NAME) -> version / value and its line
        self.unloaded: dict[str, None] = {}  # libraries / extension modules the log says could not be loaded (UNLOADED)
        self.settings = RunSettings()  # the run's config lines, per input, for the analyzers (memory plan)
        self.deaths: list[Hit] = []  # process-level deaths, for a supervisor that stops on them
        self._live_checked: set[tuple] = set()  # chains first_derived_fatal has already judged
        self._live_derived: Hit | None = None
        self._live_open: dict[tuple[str, str], tuple[tuple[int, int], float | None]] = {}  # writer -> (its open chain, quiet since)
        self.last_progress: dict[str, int] = {}
        self.order = 0
        self.bytes_read = 0
        self.lines_read = 0
        self.files: list[str] = []
        self.skipped: list[tuple[str, str]] = []
        self._streams: dict[str, tuple[bytes, int]] = {}
        self._heads: tuple[list[tuple[str, KnownFailure, Signature]], _WordHeads] | None = None  # _head_index
        self._cased: dict[str, str] | None = None  # the catalog's spelling of words (_spelled_as_known)
        self._head_memo: dict[str, list[tuple[KnownFailure, Signature]]] = {}  # a failing run repeats its lines
        self._live = False  # fed by feed_chunk: a running job's output, never a paste
        self._paste = False  # the block being scanned is a whole short paste (an issue body, a title): see PASTE_BYTES
        self._titled: str | None = None  # the code a paste's title line says the failure returned (_title_code)
        self._quoted_assert: tuple[int, str] | None = None  # (line, condition) of an assert a paste's sentence quotes
        self._paste_only: set[int] = set()  # ends of the paste's lines that only PASTE_ONLY made candidates
        self._logged_tracebacks: dict[tuple[str, str], str] = {}  # writer -> the logger record a traceback was printed under
        self._survived: set[tuple[str, int]] = set()  # (file, line) of exceptions a logger caught and carried on after
        # per file, a C++ logger's first error record and first fatal record no other reader took, after the file's last
        # progress line (chains.NATIVE_ERROR; _note_native, _scan_native): (line, message) or None
        self._native: dict[str, list[tuple[int, str] | None]] = {}
        self._native_under: dict[tuple[str, int], list[str]] = {}  # the lines under a kept native record
        self._tails: OrderedDict[str, tuple[bytes, int]] = OrderedDict()  # input -> its last TAIL_BYTES, line at their end

    @property
    def versions(self) -> dict[str, str]:
        """Package (or cann, env:NAME) → version / value as the log states them: what the analyzers compare."""
        return self.log_versions.versions()

    # ---- input -------------------------------------------------------------------------
    def feed_path(self, path: str | os.PathLike[str]) -> None:
        """A log file (plain, .gz, .xz, .bz2; .zst when a zstd module is present) or a folder of them.

        What cannot be read is recorded in ``skipped`` with the reason, never dropped silently.
        A file named directly is read even when it is a pipe (``explain <(cmd)``); inside a folder
        only regular files are, and text-looking ones (no NUL byte in the first 8 KiB).
        """
        try:
            is_dir = stat.S_ISDIR(os.stat(path).st_mode)
        except OSError as exc:
            self.skipped.append((str(path), os_reason(exc)))
            return
        if is_dir:
            self._feed_folder(Path(path))
            return
        try:
            fh = open(path, "rb")
        except OSError as exc:
            self.skipped.append((str(path), os_reason(exc)))
            return
        with fh:
            self._feed_file(fh, str(path), str(path), text_only=False)

    def feed_log(self, stream: IO[bytes], name: str) -> None:
        """A stream that may be compressed (stdin): decompressed by its magic bytes, then fed."""
        self._feed_file(stream, name, name, text_only=False)

    def _feed_folder(self, folder: Path) -> None:
        fed = len(self.files) + len(self.skipped)
        for child, problem in log_files(folder):
            shown = str(folder / child)
            if problem is not None:
                self.skipped.append((shown, problem))
                continue
            try:
                fd = os.open(folder / child, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
            except OSError as exc:
                self.skipped.append((shown, os_reason(exc)))
                continue
            with os.fdopen(fd, "rb") as fh:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    self.skipped.append((shown, "not a regular file"))
                    continue
                self._feed_file(fh, str(child), shown, text_only=True)
        if len(self.files) + len(self.skipped) == fed:
            self.skipped.append((str(folder), "no files in this folder"))

    def _feed_file(self, raw: IO[bytes], name: str, shown: str, *, text_only: bool) -> None:
        stream, kind = decompressing(raw)
        if stream is None:
            self.skipped.append((shown, kind))
            return
        reader = Prefixed(b"", stream)
        head = reader.read(BINARY_SNIFF)
        if reader.error is not None and not head:
            self.skipped.append((shown, f"not readable as {kind}: {os_reason(reader.error)}" if kind else os_reason(reader.error)))
            return
        if text_only and b"\x00" in head:
            self.skipped.append((shown, "binary (a NUL byte in the first 8 KiB)" + (f" after {kind} decompression" if kind else "")))
            return
        before = self.bytes_read
        reader.head = head
        self.feed_stream(reader, name)
        if reader.error is not None:
            self.skipped.append((shown, f"read only the first {self.bytes_read - before:,} bytes: {os_reason(reader.error)}"))

    def feed_stream(self, stream: IO[bytes], name: str) -> None:
        self.files.append(name)
        pending: list[bytes] = []  # pieces of a line that has not ended yet
        pending_len = 0
        line_no = 0
        while True:
            chunk = stream.read(self.chunk_size)
            if not chunk:
                break
            self.bytes_read += len(chunk)
            cut = chunk.rfind(b"\n")
            if cut == -1:
                pending.append(chunk)
                pending_len += len(chunk)
                if pending_len >= self.max_line:  # one enormous line: judge it in pieces, keep memory flat
                    line_no = self._scan(b"".join(pending), name, line_no)
                    pending, pending_len = [], 0
                continue
            if pending:  # one copy: the chunk's head joins the carried line through a view
                block = b"".join([*pending, memoryview(chunk)[: cut + 1]])
            else:
                block = chunk if cut + 1 == len(chunk) else chunk[: cut + 1]
            rest = chunk[cut + 1 :]
            pending, pending_len = ([rest], len(rest)) if rest else ([], 0)
            line_no = self._scan(block, name, line_no)
        if pending:
            line_no = self._scan(b"".join(pending) + b"\n", name, line_no)
        self.lines_read += line_no

    def feed_chunk(self, chunk: bytes, name: str) -> None:
        """Live input: any piece of a stream; a line cut at the chunk's end waits for its rest."""
        self._live = True
        carry, line_no = self._streams.get(name, (b"", 0))
        if name not in self._streams:
            self.files.append(name)
        self.bytes_read += len(chunk)
        data = carry + chunk if carry else chunk
        cut = data.rfind(b"\n")
        if cut == -1:
            if len(data) < self.max_line:
                self._streams[name] = (data, line_no)
                return
            block, carry = data, b""
        else:
            block, carry = data[: cut + 1], data[cut + 1 :]
        new_line_no = self._scan(block, name, line_no)
        self.lines_read += new_line_no - line_no
        self._streams[name] = (carry, new_line_no)

    def first_specific_fatal(self) -> Hit | None:
        """The earliest fatal, non-generic match so far: what a supervisor stops a run for."""
        found = [h for h in self.hits.values() if h.fatal and not h.entry.generic] + self.deaths
        return min(found, key=lambda h: h.order) if found else None

    def first_derived_fatal(self, settle: float = 1.0) -> Hit | None:
        """The first derived diagnosis that stops a run: a fatal, specific finding of an analyzer whose
        ``stops_run`` says why its findings end runs, on a chain no catalog entry names better.

        A supervisor calls this on every event, so only chains not judged yet are analysed: finished
        ones, and a writer's open chain once it has printed nothing more for ``settle`` seconds (a
        worker that prints its traceback and hangs never starts the next chain that would close it).
        """
        if self._live_derived is not None:
            return self._live_derived
        fresh = [c for k, c in self.chains.items() if k not in self._live_checked]
        now = time.monotonic()
        for key, tracker in self.trackers.items():
            chain = tracker.chain
            if chain is None or not chain.links or tracker.frames is not None or tracker.join:
                continue  # inside a traceback, or waiting for the exception it chains to
            mark = (id(chain), tracker.last)
            seen = self._live_open.get(key)
            if seen is None or seen[0] != mark:
                self._live_open[key] = (mark, now)
            elif seen[1] is not None and now - seen[1] >= settle:
                self._live_open[key] = (mark, None)  # judged as it stands
                fresh.append(chain)
        if not fresh:
            return None
        from .analyzers import derive, registry

        if len(self._live_checked) > 4 * MAX_CHAINS:  # keys of chains the classifier has since forgotten
            self._live_checked &= set(self.chains)
        if len(self._live_open) > 4 * MAX_TRACKERS:
            self._live_open = {k: v for k, v in self._live_open.items() if k in self.trackers}
        self._live_checked.update(c.key() for c in fresh)
        analyzers = self.analyzers if self.analyzers is not None else registry()
        stops = {a.id for a in analyzers if getattr(a, "stops_run", "")}
        entries = {e.id: e for e in self.catalog.entries}
        positions = {h.entry.id: (h.file, h.line) for h in self.hits.values()}
        derived = derive(fresh, {id(c): True for c in fresh}, self.versions, entries, positions, analyzers)
        for item in sorted(derived.items, key=lambda i: i.order):
            if item.entry.id in stops and item.fatal and not item.weak and item.demoted_by is None:
                self._live_derived = Hit(item.entry, item.file, item.line, item.excerpt, self.order, True, item.count, "derived")
                return self._live_derived
        return None

    # ---- scanning ----------------------------------------------------------------------
    def _scan(self, block: bytes, name: str, base: int) -> int:
        # A report copied as a JSON / repr string, or a traceback whose newlines were lost: its lines, one each;
        # `unfolded` maps them back to the input's lines.
        block, unfolded = unfold_one_line_reports_mapped(strip_escapes(block))
        self._keep_tail(block, name, base)
        if self.settings.scanning_dump(name):
            self._dump_lines(block, name)
        counted_to, line_no = 0, base
        self._paste = not self._live and base == 0 and len(block) <= PASTE_BYTES and block.count(b"\n") <= PASTE_LINES
        candidates: set[int] = set()  # ends of the lines _line read: _scan_native leaves those to it
        for start, end in (self._paste_lines(block) if self._paste else self.matcher.candidate_lines(block)):
            candidates.add(end)
            line_no += block.count(b"\n", counted_to, start)
            counted_to = start
            at = line_no if unfolded is None else base + unfolded.original(line_no - base)
            self._line(block[start:end], name, at + 1, block, end)
        if self._paste and not self._read_anything():
            self._lone_sentence(block, name, base, unfolded)
        if self._paste and not self._read_anything():
            self._broken_line(block, name, base, unfolded)
        # Newlines are counted once per block: up to the last candidate above, then on to the end.
        pos = block.rfind(PROGRESS)
        if pos != -1 and (self.trackers or self.hits or self._native):
            if pos < counted_to:  # the last progress line is above the last candidate: count back
                at = line_no - block.count(b"\n", pos, counted_to)
            else:
                line_no += block.count(b"\n", counted_to, pos)
                counted_to = pos
                at = line_no
            self.last_progress[name] = (at if unfolded is None else base + unfolded.original(at - base)) + 1
        self._scan_native(block, name, base, unfolded, candidates, pos)
        return line_no + block.count(b"\n", counted_to) - (0 if unfolded is None else unfolded.added)

    def _keep_tail(self, block: bytes, name: str, base: int) -> None:
        tail, _ = self._tails.pop(name, (b"", 0))
        tail = block[-TAIL_BYTES:] if len(block) >= TAIL_BYTES else (tail + block)[-TAIL_BYTES:]
        self._tails[name] = (tail, base + block.count(b"\n"))
        if len(self._tails) > TAIL_FILES:
            self._tails.popitem(last=False)

    def quiet_lines(self) -> tuple[tuple[str, int, str], ...]:
        """(input, line number, text) of the last error-worded lines of the inputs' tails (a failure no reader took: a
        hang's timeout, a tool's refusal in prose), as printed, prefixes removed."""
        found: dict[str, tuple[str, int, str]] = {}
        for name, (tail, end_line) in self._tails.items():
            lines = tail.decode("utf-8", "replace").split("\n")
            first = end_line - (len(lines) - 1) + 1  # the line number of the tail's first (possibly partial) line
            for i, raw in enumerate(lines):
                if QUIET_ERROR.search(raw):
                    text = strip_prefixes(strip_escapes_text(raw).strip())[0].strip()
                    if text:
                        found.pop(text, None)
                        found[text] = (name, first + i, text)
        return tuple(found.values())[-QUIET_LINES:]

    def _scan_native(self, block: bytes, name: str, base: int, unfolded: UnfoldedLines | None, candidates: set[int],
                     progress: int) -> None:
        """A C++ logger's first error record and first fatal record after the file's last progress line (for
        _native_unknown), among the block's lines no other reader took (those _line judged itself: _note_native).

        Only the first ones count, so once a file has its first error record only fatal-level records are looked for,
        and once it has a fatal one, none until the next progress line: a CANN log's thousands of ERROR records cost
        one scan of the block, not one reading each.
        """
        kept = self._native.get(name)
        if progress != -1:
            after = self.last_progress.get(name, 0)
            if kept is not None:  # records above the progress line: the run went on after them
                kept = [r if r is not None and r[0] > after else None for r in kept]
                self._native[name] = kept
            start = block.find(b"\n", progress)
            start = len(block) if start == -1 else start + 1
        else:
            start = 0
        if (kept is not None and kept[1] is not None) or NATIVE_MARK not in block:
            return
        # an error record from an earlier block comes first; one _line noted in this block may have a non-candidate above it
        fatal_only = kept is not None and kept[0] is not None and kept[0][0] <= base
        while start < len(block):
            m = self.matcher.native_scan(fatal_only).search(block, start)
            if m is None:
                return
            line_start = block.rfind(b"\n", 0, m.start()) + 1
            line_end = block.find(b"\n", m.end())
            line_end = len(block) if line_end == -1 else line_end
            start = line_end + 1
            if line_end in candidates:
                continue  # _line read it, and noted it if it was such a record
            text = strip_prefixes(block[line_start:line_end].decode("utf-8", "replace").rstrip("\r"))[0].strip()
            record = chains.NATIVE_ERROR.match(text)
            if record is None:
                continue
            number = block.count(b"\n", 0, line_start)
            number = (base + number if unfolded is None else base + unfolded.original(number)) + 1
            fatal = _native_fatal(record)
            self._note_native(name, number, fatal, record.group("message")[:MAX_EXCERPT], lambda: self._continued(block, line_end))
            if fatal:
                return  # the first fatal one: nothing after it can come first
            fatal_only = True  # the block's first error record no other reader took: only a fatal one can still count

    def _paste_lines(self, block: bytes) -> Iterator[tuple[int, int]]:
        """A short paste's candidate lines, and the lines where a person names an error in words (PASTE_ONLY)."""
        found = dict.fromkeys(self.matcher.candidate_lines(block))
        self._paste_only = set()
        start, size = 0, len(block)
        while start < size:
            end = block.find(b"\n", start)
            end = size if end == -1 else end
            line = block[start:end].decode("utf-8", "replace")
            if (start, end) not in found and (PASTE_ONLY.search(line) or (len(line) <= MAX_TITLE and line.count(" ") >= 2)):
                found[(start, end)] = None
                self._paste_only.add(end)
            start = end + 1
        return iter(sorted(found))

    def _broken_line(self, block: bytes, name: str, base: int, unfolded: UnfoldedLines | None) -> None:
        """A short paste nothing read in which a person broke a message across two lines ("`flash_attn_2_cuda….so:
        undefined" / " symbol: _ZN3c104impl3cow11cow_deleterEPv`", Dao-AILab/flash-attention#950): two neighbouring lines
        that neither alone but joined hold a line the engine reads (GENERIC_LINE) are read as that one line, at the first."""
        lines = block.split(b"\n")
        for index in range(len(lines) - 1):
            first, second = lines[index].rstrip(), lines[index + 1].strip()
            if not first.strip() or not second or GENERIC_LINE.search(first.decode("utf-8", "replace")) is not None \
                    or GENERIC_LINE.search(second.decode("utf-8", "replace")) is not None:
                continue
            joined = first + b" " + second
            if GENERIC_LINE.search(joined.decode("utf-8", "replace")) is None:
                continue
            at = index if unfolded is None else unfolded.original(index)
            self._line(joined, name, base + at + 1)
            if self._read_anything():
                return

    def _read_anything(self) -> bool:
        """Whether any line so far was read as something: a catalog match, a chain link, a process death."""
        return bool(self.hits or self.deaths or self.chains) or any(
            t.chain is not None and t.chain.links for t in self.trackers.values())

    def _lone_sentence(self, block: bytes, name: str, base: int, unfolded: UnfoldedLines | None = None) -> None:
        """A paste that is one sentence stating a failure, and nothing else read it: the sentence is the error.

        A person who pastes a single line ("Input prompt (6768 tokens) is too long and exceeds limit of 4096", "the
        socversion Ascend910B1 of bin package does not match the current device socverison Ascend310P3", an issue title
        "LMcache install failed：CUDA_HOME environment variable is not set") pastes the error message without the type
        the program raised it with. Read as ``Exception: <sentence>`` (the base class: the type was not pasted), so the
        analyzers and the similar-failure fallback see its words. Not a log record (a level word or tag opens it, or a
        quiet level is named), not a sentence naming an exception class or quoting code (the typed readers judged those),
        not one about handling or fixing an error (_a_report), and only when it states a failure (LONE_FAILURE).
        """
        lines = [(i, raw) for i, raw in enumerate(block.split(b"\n")) if raw.strip()]
        if len(lines) != 1:
            self._named_sentence(lines, name, base, unfolded)
            if not self._read_anything():
                self._sentences(lines, name, base, unfolded)
            if not self._read_anything():
                self._tagged_title(lines, name, base, unfolded)
            return
        index, raw = lines[0]
        index = index if unfolded is None else unfolded.original(index)
        text = _persons_sentence(raw)
        if text is None:
            return
        # a sentence that names a failure's class in words (analyzers/prose_words.yaml) is read whatever its word count
        # (a Chinese sentence has no spaces to count words by) or its other words; asked once, and only when it matters
        named = None if len(text.split()) >= 3 else _names_a_class(text)
        if named is False:
            return
        if (lower := LOWER_TYPE.match(text)) is not None:  # a title typed in lower case: the type as Python prints it
            self._line(f"{LOWER_TYPES[lower.group(1)]}: {text[lower.end():].lstrip()}".encode(), name, base + index + 1)
            return
        if chains.BARE_TYPE.search(text) is not None or _looks_like_code(text) or NAME_HEAD.match(text) is not None:
            return  # an exception class or code the typed readers judged
        if (GENERIC_LINE.search(text) is not None or LONE_FAILURE.search(text) is None) and not (named or _names_a_class(text)):
            return  # words one of the engine's readers looked at and declined (a version statement), or no failure
        self._line(f"Exception: {text}".encode(), name, base + index + 1)

    def _named_sentence(self, lines: list[tuple[int, bytes]], name: str, base: int, unfolded: UnfoldedLines | None) -> None:
        """A short paste of several lines nothing read, one a person's sentence that names a failure's class in words (an
        issue title above the command that failed: "910B4部署Qwen3 Next出现NPU OOM问题"): that sentence is the error, read
        as a lone sentence for analyzers.prose. Not a program's record, a setting, a command or a line of code."""
        for index, raw in lines:
            text = _persons_sentence(raw)
            # code a sentence quotes in backticks ("a loop written with `tl.static_range(0, N)` fails with UB overflow")
            # does not make the sentence a line of code: judged on its words outside the quotes
            prose = INLINE_CODE.sub(" ", text) if text is not None else None
            if (text is None or NAME_HEAD.match(text) is not None or COMMAND_LINE.match(text) is not None
                    or len(prose.split()) < 3 and prose.strip() != text.strip()
                    or chains.CODE_LINE.search(prose) is not None or not _names_a_class(text)):
                continue
            at = index if unfolded is None else unfolded.original(index)
            self._line(f"Exception: {text}".encode(), name, base + at + 1)
            return

    def _tagged_title(self, lines: list[tuple[int, bytes]], name: str, base: int, unfolded: UnfoldedLines | None) -> None:
        """A short paste nothing read whose first line is an issue title in its template's tags, stating a failure
        ("[Usage]: CUDA error: invalid device ordinal When Run on 2*H200 with -tp 4" over the start-up lines the person
        pasted before the error): the title is the error the thread is about, read as a lone sentence. Only the first
        line, only with a tag (a person's sentence further down may be anything), only when its words state a failure."""
        if not lines:
            return
        index, raw = lines[0]
        tag = TITLE_TAG.match(strip_escapes_text(raw.decode("utf-8", "replace")).strip())
        if tag is None or REQUEST_TAG.search(tag.group(0)) is not None:
            return
        text = _persons_sentence(raw)
        if (text is None or len(text.split()) < 3 or LONE_FAILURE.search(text) is None or NAME_HEAD.match(text) is not None
                or COMMAND_LINE.match(text) is not None or _looks_like_code(text)):
            return
        at = index if unfolded is None else unfolded.original(index)
        self._line(f"Exception: {text}".encode(), name, base + at + 1)

    def _sentences(self, lines: list[tuple[int, bytes]], name: str, base: int, unfolded: UnfoldedLines | None) -> None:
        """A short paste of two or three lines nothing read, each a sentence of a message (no record, command, code or
        label), the first stating a failure: one message printed over several lines, read as a lone sentence with its
        lines joined, at the first line (Ray's "Failed to set up runtime environment." over the reason it gives)."""
        if not 2 <= len(lines) <= LONE_LINES:
            return
        texts = []
        for _, raw in lines:
            text = _persons_sentence(raw)
            if (text is None or NAME_HEAD.match(text) is not None or COMMAND_LINE.match(text) is not None
                    or chains.BARE_TYPE.search(text) is not None or chains.FRAME.match(text) is not None
                    or _looks_like_code(text)):
                return
            texts.append(text)
        joined = " ".join(texts)
        if (len(_without_urls(joined)) > MAX_LONE or len(texts[0].split()) < 3 or LONE_FAILURE.search(texts[0]) is None or GENERIC_LINE.search(joined) is not None
                or not _a_report(joined)):
            return
        at = lines[0][0] if unfolded is None else unfolded.original(lines[0][0])
        self._line(f"Exception: {joined}".encode(), name, base + at + 1)

    def _dump_lines(self, block: bytes, name: str) -> None:
        """verl's config dump in this block, for the run's settings (until the input's first dump is over)."""
        lines: list[str] = []
        end = 0
        for m in self.matcher.dump_scan.finditer(block):
            if m.start() < end:
                continue  # a line already taken
            if len(lines) >= MAX_DUMP_LINES:
                break
            start = block.rfind(b"\n", 0, m.start()) + 1
            end = block.find(b"\n", m.end())
            end = len(block) if end == -1 else end
            lines.append(strip_prefixes(block[start:end].decode("utf-8", "replace"))[0])
        self.settings.dump_block(name, lines, len(block) - end, len(block))

    def _line(self, raw: bytes, name: str, number: int, block: bytes = b"", end: int = 0) -> None:
        text = raw.decode("utf-8", "replace").rstrip("\r\n")
        text, prefix = strip_prefixes(text)
        if not text.isascii() and TYPOGRAPHIC.search(text) is not None:
            # a message a blog or chat editor retyped with typographic quotes ("No module named ‘torch_npu’") or whose
            # spaces it made non-breaking (U+00A0; U+3000 in Chinese posts): read with the ASCII quotes and spaces the
            # program printed, for the catalog's signatures too
            text = text.translate(ASCII_QUOTES)
        settings_line = SETTINGS_LINE.search(text) is not None
        if settings_line:
            self.settings.feed(name, text)
        repeats = 1
        rep = REPEATED.search(text)
        if rep:
            repeats += int(rep.group(1))
            text = text[: rep.start()]
        stripped = text.strip()
        if self._paste and not prefix and (tag := TITLE_TAG.match(stripped)) is not None and tag.end() < len(stripped):
            # an issue title's template tags ("[Bug]: ", "### [Usage] "): the title is what follows; a last tag that is an
            # exception class ("[RuntimeError]: msg") is the type the person put in brackets, kept as Python prints it
            typed = TAG_TYPE.search(tag.group(0))
            stripped = (f"{typed.group(1)}: " if typed else "") + stripped[tag.end():]
        elif self._paste and not prefix and (heading := MD_HEADING.match(stripped)) is not None \
                and EXCEPTION.match(stripped[heading.end():]) is not None:
            stripped = stripped[heading.end():]  # an issue title pasted as a markdown heading ("# AssertionError: …")
        if self._paste and not prefix and len(stripped) >= MIN_CASED_LINE and stripped.islower() and stripped.isascii() \
                and (cased := self._spelled_as_known(stripped)) is not None:
            stripped = text = cased  # a lower-cased paste line, as the program printed it
        if self._paste and (said := STRERROR_TEXT.search(stripped)) is not None and said.group(0) not in chains.OS_STRERRORS:
            # strerror's text typed in another case in a title ("too many open files"): as the C library prints it
            canonical = {t.lower(): t for t in chains.OS_STRERRORS}
            stripped = STRERROR_TEXT.sub(lambda m: canonical[m.group(0).lower()], stripped)
            text = STRERROR_TEXT.sub(lambda m: canonical[m.group(0).lower()], text)
        if (doubled := chains.DOUBLED.match(stripped)) is not None:
            stripped = f"{doubled.group(1)}: {stripped[doubled.end():]}"
        if stripped == "File" and block and (frame_line := _wrapped_frame(block, end)) is not None:
            stripped = text = frame_line
        exc = EXCEPTION.match(stripped)
        continued: list[str] = []
        if exc is not None and exc.group(2) and chains.CANN_CODE.fullmatch(exc.group(2)):
            # "AclNN_Parameter_Error(EZ1001): …", "Communication_Error_Get_Socket(EI0006): …": CANN's error title
            # and code (with its text on this line or the lines below), read below as a CANN line, not Ray's RayTaskError(X)
            exc = None
        if exc is not None and not stripped.isascii() and (english := _english_strerror(stripped)) is not stripped:
            # an exception whose message holds glibc's zh_CN strerror text ("socket.gaierror: [Errno -2] 未知的名称或服务"):
            # read as its C-locale twin, so the catalog's signatures for the English text find it
            stripped, text = english, _english_strerror(text)
            exc = EXCEPTION.match(stripped)
        if exc is None and not stripped.isascii():
            if (english := _english_strerror(stripped)) is not stripped:
                stripped, text = english, _english_strerror(text)  # also for the catalog's signatures
            stripped = _after_cjk(FULLWIDTH_COLON.sub(r"\1: ", stripped, count=1))
            exc = EXCEPTION.match(stripped)
            if exc is None and self._paste and (missing := CJK_SO_MISSING.search(stripped)) is not None:
                stripped = f"{missing.group(1) or missing.group(2)}: cannot open shared object file"  # read as PHRASE reads it below
        if (exc is None and self._paste and (missing := EN_SO_MISSING.search(stripped)) is not None
                and "cannot open shared object file" not in stripped and _a_report(stripped)):
            stripped = f"{missing.group(1) or missing.group(2) or missing.group(3)}: cannot open shared object file"  # read as PHRASE reads it below
        if exc is None and self._paste and (death := SENTENCE_DEATH.search(stripped)) is not None and chains.PROCESS_DEATH.search(stripped) is None \
                and _a_report(stripped):
            stripped = death.group(1)  # the shell's own line for it (chains.PROCESS_DEATH)
        if (exc is None and (phrase := chains.PHRASE.match(stripped)) is not None and not _after_warning(block, end - len(raw))
                and not (phrase.lastindex in chains.QUIET_PHRASES and _QUIET_LEVEL.match(stripped))  # an OS error logged as handled
                # a title about fixing or documenting it ('Fix "Too many open files"'): words of the lead-in, not of the message
                and not (self._paste and chains.NOT_A_REPORT.search(stripped[: _phrase_start(stripped, phrase)]))):
            exc_type = chains.PHRASE_TYPES[next(i for i, g in enumerate(phrase.groups()) if g)]
            if phrase.group(1) and phrase.group(1)[0] == "n":  # typed in lower case in a title: the message as Python prints it
                stripped = stripped[: phrase.start(1)] + "N" + stripped[phrase.start(1) + 1 :]
            exc = EXCEPTION.match(f"{exc_type}: {stripped}")
            if exc_type in chains.REASON_BELOW:
                continued = self._continued(block, end)  # the reason, printed under the message: the link's detail
        if (exc is None and (said := chains.SENTENCE_EXC.match(stripped)) is not None and not _after_warning(block, end - len(raw))
                and not RETRIED.search(stripped[: said.start(1)])):  # "Retrying after error: ConnectionError: …" was handled
            exc = EXCEPTION.match(said.group(1))
            stripped = said.group(1) if exc is not None else stripped
        if (exc is None and (title := chains.TITLE_EXC.match(stripped)) is not None and not _QUIET_LEVEL.match(stripped)
                and not chains.HANDLED.search(stripped[: title.start(1)]) and not _after_warning(block, end - len(raw))):
            exc = EXCEPTION.match(title.group(1))
            stripped = title.group(1) if exc is not None else stripped
        # IPython's traceback head ("IndexError      Traceback (most recent call last)") names the type of the exception
        # printed at the traceback's end: the chain reader takes it (chains.IPYTHON_HEAD), it is no sentence naming a failure
        ipython_head = exc is None and self._paste and chains.IPYTHON_HEAD.match(stripped) is not None
        if exc is None and self._paste and not ipython_head and (spelled := SPELLED_TYPE.match(stripped)) is not None \
                and _a_report(stripped) and not LOWER_QUIET.search(stripped):
            said = f"{LOWER_TYPES[re.sub(' ', '', spelled.group(1)).lower() + 'error']}: {stripped[spelled.end():]}"
            exc, stripped = EXCEPTION.match(said), said
        if exc is None and self._paste and not ipython_head:
            exc, said = self._paste_reading(stripped)
            if exc is not None and exc.group(1).endswith("AssertionError") and (quoted := QUOTED_ASSERT.search(stripped)) is not None:
                self._quoted_assert = (number, quoted.group(1).strip())  # "… trips `assert n % k == 0` … (`AssertionError: …`)"
            if exc is None and (opening := self._opening_phrase(stripped)) is not None:
                exc, said = opening
            if exc is not None:
                stripped = said
        if exc is None and not _QUIET_LEVEL.match(stripped) and (  # a repr logged at a quiet level was handled
                (logged := REPR.search(stripped)) is not None or (logged := REPR_IN_TUPLE.search(stripped)) is not None):
            kind, quote, said = logged.groups()
            exc = EXCEPTION.match(f"{kind}: {quote + said + quote if kind.endswith('KeyError') else said}")
        if exc is None and self._paste and (alone := REPR_ALONE.match(stripped)) is not None:
            kind, quote, said = alone.groups()  # a repr pasted alone: the failure the paste is about
            exc = EXCEPTION.match(f"{kind}: {quote + said + quote if kind.endswith('KeyError') else said}")
        if exc is None and LOGGED_KEY.match(stripped) is not None and LOGGED_AT_ERROR.search(raw) is not None:
            exc = EXCEPTION.match(f"KeyError: {stripped}")  # logger.exception(e) of a KeyError: its str() is the quoted key
        if exc is None and (prose := chains.PROSE.search(stripped)) is not None:
            exc = EXCEPTION.match(f"RuntimeError: {prose.group(1)}")
        raised_from = False
        if exc is None and block and RAISED_FROM.match(stripped) is not None \
                and (said := self._raised_from(block, end - len(raw), name, number)) is not None:
            stripped = f"RuntimeError: {said}"[:MAX_EXCERPT]  # what Python prints for a c10::Error
            exc = EXCEPTION.match(stripped)
            raised_from = True
        if exc is not None and chains.PYDANTIC_HEAD.match(exc.group(3) or ""):
            # "ValidationError: 1 validation error for SchedulerConfig": the ValueError it carries is on the lines below
            continued = self._continued(block, end, limit=8)
            if reason := chains.pydantic_reason(continued):
                stripped = text = f"{exc.group(1)}: {reason}"[:MAX_EXCERPT]
                exc = EXCEPTION.match(stripped)
        elif exc is not None and not exc.group(2) and not (exc.group(3) or "").strip():
            # "ImportError:" alone, its message on the lines below (numpy's multi-line ImportError, a paste wrapped by hand)
            continued = self._continued(block, end)
            if continued:
                stripped = text = f"{stripped.rstrip(': ')}: {' '.join(continued)}"[:MAX_EXCERPT]
                exc = EXCEPTION.match(stripped)
        elif exc is not None and NPU_CHECK_AT.match(exc.group(3) or "") and (rest := self._continued(block, end)):
            # torch_npu's checks open their message with where they fired ("replay:build/CMakeFiles/torch_npu.dir/
            # compiler_depend.ts:267", TORCH_CHECK / NPU_CHECK_ERROR) and go on with "NPU function error: <the call>, error
            # code is N": a log that breaks the line after the location carries the call and the code on the lines below
            stripped = text = f"{stripped.rstrip()} {' '.join(rest)}"[:MAX_EXCERPT]  # the lines stay lines of their own too
            exc = EXCEPTION.match(stripped)
        elif exc is not None and (exc.group(3) or "")[-1:].isalnum() and (value := self._quoted_below(block, end)):
            # "TypeError: X() got an unexpected keyword argument" / "'max_seq_length'. Did you mean …": a paste wrapped by
            # hand before the quoted value Python's message ends with (Algorineko/AgenticArXiv-RL#11)
            stripped = text = f"{stripped.rstrip()} {value}"[:MAX_EXCERPT]
            exc = EXCEPTION.match(stripped)
        if exc is None and (head := chains.CANN_LINE.match(stripped)) is not None and not head.group(2).strip():
            continued = self._continued(block, end)
            stripped = " ".join([stripped, *continued])[:MAX_EXCERPT]
        raising = chains.RAISE_LINE.match(stripped) if exc is None else None
        if raising is not None and _next_is_exception(block, end):
            raising = None  # the exception line itself follows: it is matched there, once
        # A raise statement is matched as the exception it raises: the paste may stop before that line.
        entries = self.matcher.entries_in(f"{raising.group(1)}: {raising.group(3)}" if raising else text)
        if entries and self._paste and raising is None and chains.NOT_A_REPORT.search(text):
            entries = [(e, sig) for e, sig in entries if not _changed_before(sig.regex, text)]
        if not entries and raised_from:
            entries = self.matcher.entries_in(stripped)  # the message above, as Python would print it
        if not entries and exc is not None and self._paste and stripped != text.strip():
            entries = self.matcher.entries_in(stripped)  # the exception a sentence quoted, for signatures that open its line
        tail = None
        if not entries and self._paste and not prefix and raising is None and (tail := _cjk_tail(stripped)) is not None \
                and (entries := self.matcher.entries_in(tail)):
            text = stripped = tail  # the program's message after a Chinese lead-in ("训练场景报错 assert isinstance(device, …)")
            exc = EXCEPTION.match(tail)
        elif (not entries and exc is None and self._paste and not prefix and raising is None and tail is not None
                and ZH_REPORTED.search(stripped[: stripped.rfind(tail)]) is not None and _a_report(tail)
                and (LONE_FAILURE.search(tail) is not None or ZH_TAIL_FAILURE.search(tail) is not None)
                and TITLE_CODE.search(stripped) is None and not extract_codes(tail)):  # a code the title reader reads below
            # "…训练时报错：format_reward() takes 1 positional argument but 2 were given": the lead-in says "error:", so the
            # message after it is the failure, read as a lone sentence is (Exception: the type was not pasted)
            stripped = f"Exception: {tail}"[:MAX_EXCERPT]
            exc = EXCEPTION.match(stripped)
        if not entries and exc is None and self._paste and not prefix and raising is None and len(stripped) <= MAX_TITLE \
                and _a_report(stripped) and not LEVEL_TAG.match(stripped) and raw[:1] not in (b" ", b"\t"):
            # a title is a line of its own at the margin: an indented line is a message's continuation (a CMake warning's
            # text under its heading, a traceback's source line), not a person's words
            entries = self._opening_words(stripped) or self._quoted_head(stripped)
        if not entries and exc is not None:
            for joined in self._wrapped(text, block, end):
                tail = {e.id for e, _ in self.matcher.entries_in(joined[len(text):])}
                entries = [(e, s) for e, s in self.matcher.entries_in(joined) if e.id not in tail]  # matched across the cut only
                if entries:
                    text = stripped = joined.strip()
                    break
            if not entries:
                entries = self._known_head(stripped)
        if not entries and exc is None and (diag := chains.DIAG_ERROR.match(stripped)) is not None:
            # a compiler's "<location>: error: <message>" no entry names: the failure, though no type is printed
            exc = EXCEPTION.match(f"Exception: {diag.group(1)}")
        if not entries and exc is None and (cmake := chains.CMAKE_ERROR.match(stripped)) is not None \
                and (message := cmake.group(1).strip() or " ".join(self._indented_below(block, end))):
            # CMake's error report no entry names: the configure stopped there; the message (below the heading) is the failure,
            # shown after the heading so the excerpt (and the similar index) carries it
            if not cmake.group(1).strip():
                text = stripped = f"{stripped} {message}"[:MAX_EXCERPT]
            exc = EXCEPTION.match(f"Exception: {message}"[:MAX_EXCERPT])
        usage = ""
        if exc is None and (refusal := chains.USAGE_ERROR.match(stripped)) is not None \
                and (usage := _usage_above(block, end - len(raw))):
            # argparse's "prog: error: …" / Click's "Error: …" under the command's usage text: the command line was refused.
            # Read as the failure whether or not an entry names it, so an analyzer's reading of the refusal folds into the entry.
            exc = EXCEPTION.match(f"Exception: {refusal.group(1)}")
        if exc is None and self._paste and (caught := chains.MINDIE_CAUGHT.search(stripped)) is not None:
            # MindIE's "[Model] >>> Exception:<message>" record in a short paste: the exception it caught, printed without its
            # type (in a long service log such a record can be one request's failure the service went on after)
            exc = EXCEPTION.match(f"Exception: {caught.group(1)}")
        if exc is None and self._paste and (pip := chains.PIP_ERROR.match(stripped)) is not None:
            # pip's "ERROR: <message>" in a short paste: the install stopped there (no exception type is printed). Read as
            # the failure whether or not an entry names it, so an analyzer's reading of it folds into the entry.
            exc = EXCEPTION.match(f"Exception: {pip.group(1)}")
        if exc is None and " -l" in stripped and (linker := chains.LINKER_MISSING_LIB.match(stripped)) is not None:
            # the linker's missing -l library: the link step stopped there, whether or not an entry names it
            exc = EXCEPTION.match(f"Exception: {linker.group(1)}"[:MAX_EXCERPT])
        if not entries and exc is None and self._paste and (tool := chains.TOOL_ERROR.match(stripped)) is not None:
            # a tool's "error: <message>" (git, uv, cargo, an MLIR pass manager) in a short paste: the message is the failure
            exc = EXCEPTION.match(f"Exception: {tool.group(1)}")
        if not entries and exc is None and raising is None and (record := chains.NATIVE_ERROR.match(stripped)) is not None \
                and not extract_codes(stripped):
            # a C++ logger's error / fatal record (glog, Ray's logger, c10, CANN's log) no entry names: the failure only if
            # nothing else in the log is (result, _native_unknown); a record carrying a code is the code readers' to judge
            # (a graph-capture code is logged at ERROR and handled)
            self._note_native(name, number, _native_fatal(record), record.group("message")[:MAX_EXCERPT], lambda: self._continued(block, end))
        self._titled = None
        if self._paste and not prefix and exc is None and not entries and raising is None:
            self._titled = self._title_code(stripped, TITLE_TAG.match(text.strip()) is not None)
            self._pasted_location(stripped, name, number)
        if (settings_line or (self._paste and end in self._paste_only)) and not entries and exc is None and GENERIC_LINE.search(text) is None \
                and self._titled is None \
                and (stripped == text.strip() or GENERIC_LINE.search(stripped) is None):
            return  # a config line, or a paste's sentence that names no error after all: the chains never see it
        self.order += 1
        seen: set[str] = set()
        if len(entries) > 1:
            entries = _most_specific(entries, text)
        for entry, sig in entries:
            fatal = entry.fatal if sig.fatal is None else sig.fatal
            hit = self.hits.get(entry.id)
            if hit is None:
                hit = self.hits[entry.id] = Hit(entry, name, number, text.strip()[:MAX_EXCERPT], self.order, fatal)
            elif fatal and not hit.fatal:
                hit.fatal = True
            if entry.id not in seen:
                seen.add(entry.id)
                hit.count += repeats
        if len(self.unloaded) < MAX_UNLOADED and ("shared object" in text or "共享对象" in text or "_C'" in text or "(required by" in text) \
                and (lib := UNLOADED.search(text)):
            # a library the loader refused for a version it lacks is named with that version: "x.so (GLIBC_2.32)"
            self.unloaded[lib.group(1) or lib.group(2) or f"{lib.group(4)} ({lib.group(3)})"] = None
        self.log_versions.read(text)
        self._track(stripped, exc, name, number, prefix, list(seen))
        if usage and (tracker := self.trackers.get((name, prefix))) is not None and tracker.current is not None \
                and tracker.current.line == number:
            tracker.current.add_detail(usage)  # the refusing command's usage line ("Usage: ray start [OPTIONS]"): which command
        if exc is not None and self._paste and (at := text.find(stripped[:40])) > 0:
            tracker = self.trackers.get((name, prefix))
            if tracker is not None and tracker.current is not None and tracker.current.line == number:
                tracker.current.lead = text[:at].strip()[:MAX_EXCERPT]  # what the sentence says about the exception it quotes
        if block and (stripped.startswith(TRACEBACK) or (exc is not None and (name, prefix) in self._logged_tracebacks)):
            self._logged_and_survived(stripped, exc, name, prefix, number, block, end - len(raw), end)
        if exc is not None and exc.group(1).endswith(("TypeError", "AttributeError", "KeyError", "ZeroDivisionError", "SyntaxError", "EOFError")) and (tracker := self.trackers.get((name, prefix))) is not None \
                and tracker.current is not None and tracker.current.line == number:
            tracker.current.source = self._code_above(block, end - len(raw))  # the call whose arguments did not fit, the lookup that missed, the division by zero, the line Python could not parse, the load that found nothing
        if continued and (tracker := self.trackers.get((name, prefix))) is not None and tracker.current is not None:
            for line in continued:  # the report's lines as printed, for its evidence
                tracker.current.add_detail(line)

    def _pasted_location(self, stripped: str, name: str, number: int) -> None:
        """A paste's line right under a lone TypeError / KeyError / AttributeError that says where it was raised and quotes
        the code ("error location: swift/trainers/…/grpo_trainer.py, line 881: rewards_per_func[:, i] = torch.tensor(…)"):
        the code is the source line Python would have printed above the exception."""
        link = (tracker := self.trackers.get((name, ""))) and tracker.current
        if not link or link.kind != "bare" or link.frames or link.source or not 0 < number - link.line <= 2 \
                or not link.short_type.endswith(("TypeError", "KeyError", "AttributeError")):
            return
        if (where := PASTED_LOCATION.search(stripped)) is not None:
            link.source = where.group(1).strip()[:MAX_EXCERPT]

    def _title_code(self, stripped: str, tagged: bool) -> str | None:
        """The ACL / runtime code a title or sentence of a short paste says the failure returned (TITLE_CODE), or None.

        A line whose code the extractor already reads ("acl Error, code: 207001 at …camem_allocator.cpp:63") is a program's
        own record, judged as such, unless an issue template's tag opens it ("[Bug] … crash (acl error 507035)"); so is a line
        that names the source file and line it was printed from ("acl Error, code: 207001 at …/camem_allocator.cpp:63").
        """
        if len(stripped) > MAX_TITLE or LEVEL_TAG.match(stripped) or LONE_RECORD.search(stripped) or not _a_report(stripped) \
                or (not tagged and (extract_codes(stripped) or SOURCE_PLACE.search(stripped))):
            return None
        m = TITLE_CODE.search(stripped)
        if m is None:
            return None
        code = m.group(1) or m.group(2)
        from .codes import decode

        return code if code not in CAPTURE_CODES and decode(code) is not None else None

    def _paste_reading(self, stripped: str) -> tuple[re.Match | None, str]:
        """The exception a person's sentence in a short paste reports, and its line as Python would print it.

        An exception after a lead-in ("The error message is: RuntimeError: …", cut at the quote that closes it), an
        exception class named alone (the sentence is its message), an OS error's class spelled as words. (None, the
        line) when the sentence reports none: a quiet log level or words of handling or fixing it (_a_report).
        """
        lead = chains.LEAD_EXC.match(stripped)
        if lead is not None and _a_report(lead.group("pre") or ""):
            said = lead.group("exc")
            closer = CLOSERS.get((lead.group("quote") or lead.group("open")).strip(": \t")[-1:])
            if closer and (cut := said.rfind(closer) if closer == ")" else said.find(closer, said.find(": ") + 2)) > 0:
                said = said[:cut]
            said = said.rstrip()
            return EXCEPTION.match(said), said
        if not _a_report(stripped) or len(stripped.split()) < 3:
            return None, stripped
        named = {m.group(1) for m in chains.BARE_TYPE.finditer(stripped)}
        if len(named) == 1 and chains.CODE_LINE.search(stripped) is None:
            said = f"{named.pop()}: {stripped}"
            return EXCEPTION.match(said), said
        if not named and (worded := chains.WORDED_EXC.search(stripped)) is not None:
            said = f"{WORDED_TYPES[worded.group(1).lower().replace(' ', '')]}: {stripped}"
            return EXCEPTION.match(said), said
        return None, stripped

    def _raised_from(self, block: bytes, start: int, name: str, number: int) -> str | None:
        """The message of a c10::Error whose what() was pasted without the Python exception line (RAISED_FROM at ``start``).

        The message is the first of the few lines just above (blank lines skipped, native frames and tracebacks end the
        look), or the text of a glog ERROR record among them (torch_npu's "[E1204 … compiler_depend.ts:444] <msg>"). None
        when an exception, a C++ terminate's ``what():`` or a process death was read just above (that link carries the
        message), or when the record is at a quiet level (glog W / I, a logger's WARNING): logged and carried on after.
        """
        for (file, _), tracker in self.trackers.items():
            link = tracker.current
            if file == name and link is not None and link.kind not in ("cann", "code") and 0 <= number - link.line <= MAX_RAISED_ABOVE:
                return None
        lines: list[str] = []
        pos = start - 1
        for _ in range(MAX_RAISED_ABOVE):
            if pos <= 0:
                break
            top = block.rfind(b"\n", 0, pos) + 1
            line = strip_prefixes(block[top:pos][-MAX_EXCERPT:].decode("utf-8", "replace").rstrip("\r"))[0].strip()
            pos = top - 1
            if not line:
                if lines and not ERR_TAG_LINE.match(lines[-1]):
                    break  # a blank line above the message: the record before it is another one
                continue
            if NATIVE_FRAME.match(line) or FRAME.match(line) or RAISED_FROM.match(line) or line.startswith((TRACEBACK, "what():")):
                break
            lines.append(line)
        lines = [line for line in lines if not ERR_TAG_LINE.match(line)] or lines  # torch_npu's tag ends the message, under a blank line
        lines.reverse()  # top first: the message's first line, or a glog record that opens it
        for n, line in enumerate(lines):
            if (record := GLOG_RECORD.search(line)) is not None:
                if record.group(1) not in "EF":
                    return None
                lines = [record.group(2).strip(), *lines[n + 1:]]
                break
        else:
            if not lines or _QUIET_LEVEL.match(lines[0]) or chains.QUIET_ANYWHERE.search(lines[0][:40]):
                return None
        return " ".join(line for line in lines if line)[:MAX_EXCERPT] or None

    def _logged_and_survived(self, stripped: str, exc: re.Match | None, name: str, prefix: str, number: int,
                             block: bytes, start: int, end: int) -> None:
        """A traceback printed under a named logger's ERROR record, whose exception line the same logger's next record
        follows at a quiet level: caught, logged and carried on after (LOG_LEVEL). Remembered for result()."""
        key = (name, prefix)
        if exc is None:  # the Traceback line: the record just above it
            above = block[block.rfind(b"\n", 0, max(start - 1, 0)) + 1 : max(start - 1, 0)][:MAX_RECORD_HEAD + 10]
            head = None
            if b"ERROR" in above or b"CRITICAL" in above:
                text = above.decode("utf-8", "replace")
                if (ray := RAY_RECORD.search(text, 0, MAX_RECORD_HEAD)) is not None:
                    head = RAY_LOGGED + ray.group(2) if ray.group(1) in ("ERROR", "CRITICAL") else None
                elif (record := _logger_record(text)) is not None and record[1] in ("ERROR", "CRITICAL"):
                    head = record[0]
            if head is not None:
                if len(self._logged_tracebacks) >= MAX_TRACKERS:  # writers whose exception line never came
                    self._logged_tracebacks.clear()
                self._logged_tracebacks[key] = head
            else:
                self._logged_tracebacks.pop(key, None)
            return
        head = self._logged_tracebacks.pop(key)
        tracker = self.trackers.get(key)
        if tracker is None or tracker.current is None or tracker.current.line != number:
            return
        stop = block.find(b"\n", end + 1)
        below = block[end + 1 : len(block) if stop == -1 else stop][:MAX_RECORD_HEAD + 10].decode("utf-8", "replace")
        if head.startswith(RAY_LOGGED):
            frames = tracker.current.frames
            caught_there = bool(frames) and "/ray/" in frames[0].path and os.path.basename(frames[0].path) == head[len(RAY_LOGGED):]
            ray = RAY_RECORD.search(below, 0, MAX_RECORD_HEAD)
            survived = caught_there and ray is not None and _QUIET_LEVEL.match(ray.group(1)) is not None
        else:
            record = _logger_record(below)
            survived = record is not None and _QUIET_LEVEL.match(record[1]) is not None and record[0] == head
        if survived and len(self._survived) < MAX_SURVIVED:
            self._survived.add((name, number))
            for hit in self.hits.values():  # an entry first matched on this exception line: matched on a handled error
                if hit.file == name and hit.line == number:
                    hit.fatal = False

    def _indented_below(self, block: bytes, end: int, limit: int = 6) -> list[str]:
        """The indented lines right below ``end`` (CMake's message under its "CMake Error at …:" heading), up to ``limit``."""
        parts: list[str] = []
        for raw in _lines_below(block, end, limit):
            if not raw[:1].isspace() or not raw.strip():
                break
            parts.append(raw.strip())
        return parts

    def _continued(self, block: bytes, end: int, limit: int = 4) -> list[str]:
        """The lines after a CANN code line with nothing after the code: its message (up to ``limit`` lines)."""
        parts: list[str] = []
        for raw in _lines_below(block, end, limit):
            nxt_text, _ = strip_prefixes(raw)
            head = nxt_text.strip()
            if not head or FRAME.match(nxt_text) or EXCEPTION.match(head) or chains.CANN_LINE.match(head) or head.startswith(("Traceback", "TraceBack")):
                break
            parts.append(head)
        return parts

    def _code_above(self, block: bytes, start: int) -> str:
        """The line above ``start`` when it is a source line of a traceback (indented code, not a frame or carets)."""
        if not block or start <= 1:
            return ""
        for _ in range(2):  # Python 3.11+ prints a line of carets under the source line: the code is one further up
            begin = block.rfind(b"\n", 0, start - 1) + 1
            above = block[begin : start - 1][:MAX_EXCERPT]
            line = strip_prefixes(above.decode("utf-8", "replace").rstrip("\r\n"))[0]
            code = line.strip()
            if code and not code.strip("^~ ") and begin > 1:
                start = begin
                continue
            break
        if not line[:1].isspace() or not code or FRAME.match(code) or not code.strip("^~ "):
            return ""
        return code

    def _quoted_below(self, block: bytes, end: int) -> str | None:
        """The next line when it is the quoted value a wrapped exception message goes on with ("'name'. Did you mean …")."""
        if not block or end >= len(block):
            return None
        nxt_end = block.find(b"\n", end + 1)
        nxt = block[end + 1 : nxt_end if nxt_end != -1 else len(block)][:MAX_EXCERPT]
        head = strip_prefixes(nxt.decode("utf-8", "replace").rstrip("\r\n"))[0].strip()
        return head if QUOTED_VALUE.match(head) else None

    def _wrapped(self, text: str, block: bytes, end: int) -> list[str]:
        """An exception line whose message continues on the next line (terminal or log-driver wrapping): the joined line.

        A terminal's hard wrap cuts at its width, often inside a word ("… the maximum number o" / "f tokens …"): where the
        cut falls between two letters or digits the line is tried joined as it was cut, then with a space.
        """
        if not block or end >= len(block) or len(text) < 40:
            return []
        nxt_end = block.find(b"\n", end + 1)
        nxt = block[end + 1 : nxt_end if nxt_end != -1 else len(block)][:MAX_EXCERPT]
        nxt_text, _ = strip_prefixes(nxt.decode("utf-8", "replace").rstrip("\r\n"))
        head = nxt_text.strip()
        if not head or FRAME.match(nxt_text) or EXCEPTION.match(head) or head.startswith(("Traceback", "[", "(")):
            return []
        if text.endswith("-"):
            return [text + head]
        spaced = f"{text.rstrip()} {head}"
        return [text + head, spaced] if text[-1:].isalnum() and head[:1].isalnum() else [spaced]

    def _spelled_as_known(self, stripped: str) -> str | None:
        """A lower-case line spelled as the catalog spells its words, when that reads as a known message (else None)."""
        if self._cased is None:
            self._cased = _cased_words(self.catalog.entries)
        cased = CASED_WORD.sub(lambda m: self._cased.get(m.group(0), m.group(0)), stripped)
        if cased == stripped or not _a_report(cased) or LOWER_QUIET.search(stripped):
            return None
        if self.matcher.entries_in(cased) or (len(cased) <= MAX_TITLE and self._opening_words(cased)):
            return cased
        return None

    def _opening_phrase(self, stripped: str) -> tuple[re.Match, str] | None:
        """A title that opens with a message the engine reads without its type (chains.PHRASE: an OS error's strerror, a
        missing module), then says where it happened ("Too many open files on scheduler"): that message, typed."""
        if not _a_report(stripped):
            return None
        words = stripped.split()
        for k in range(min(len(words) - 1, MAX_TITLE_WORDS), 2, -1):
            if words[k].lower() not in TITLE_JOINS:
                continue
            head = " ".join(words[:k]).rstrip(" .:,;")
            if (phrase := chains.PHRASE.match(head)) is not None and phrase.lastindex in chains.QUIET_PHRASES | {1, 2}:
                said = f"{chains.PHRASE_TYPES[phrase.lastindex - 1]}: {head}"
                if (exc := EXCEPTION.match(said)) is not None:
                    return exc, said
        return None

    def _quoted_head(self, stripped: str) -> list[tuple[KnownFailure, Signature]]:
        """A title that quotes a known message, or its first words, inside the sentence ("[Bug] QwenImageEditPlus series
        error `Expected all tensors to be on the same device` on NPU"): the message the quote is or begins. Markdown's
        backticks and the quotes of QUOTED; three words at least, as _known_head."""
        for n, m in enumerate(TITLE_QUOTE.finditer(stripped)):
            if n >= 4:
                break
            said = (m.group(1) or m.group(2)).strip().rstrip(" .:,;")
            if len(said.split()) < 3:
                continue
            if known := (self.matcher.entries_in(said) or self._known_head(said)):
                return known
        return []

    def _opening_words(self, stripped: str) -> list[tuple[KnownFailure, Signature]]:
        """A title that opens with the first words of a known message, then says where it happened ("[Bug] NPU out of
        memory when tp=2"): the message those words begin (three words and 16 characters at least, as _known_head).
        A line of CANN's suggestion block ("Possible Cause: 1. For the GetNext operator, …") opens with template words."""
        if SUGGESTION_LABEL.match(stripped):
            return []
        words = stripped.split()
        for k in range(min(len(words), MAX_TITLE_WORDS), 2, -1):
            if k < len(words) and words[k].lower() not in TITLE_JOINS:
                continue  # the message goes on past the cut: not its opening words
            head = " ".join(words[:k]).rstrip(" .:,;")
            if len(head) >= 16 and (known := self._find_head(head)):
                return known
        return []

    def _known_head(self, stripped: str) -> list[tuple[KnownFailure, Signature]]:
        """A pasted exception line that is the first words of a known message (its tail cut off)."""
        if len(stripped) < 20:
            return []
        known = self._head_memo.get(stripped)
        if known is None:
            if len(self._head_memo) >= MAX_HEAD_MEMO:
                self._head_memo.clear()
            known = self._head_memo[stripped] = self._find_head(stripped)
        return list(known)

    def _find_head(self, stripped: str) -> list[tuple[KnownFailure, Signature]]:
        if self._heads is None:
            self._heads = _head_index(self.catalog.entries)
        heads, word_heads = self._heads
        candidates = [stripped.rstrip(" .:")]
        if ": " in stripped:
            candidates.append(stripped.split(": ", 1)[1].rstrip(" .:"))
        for head, entry, sig in heads:
            if any(len(c) >= 20 and head.startswith(c) and len(c) < len(head) for c in candidates):
                return [(entry, sig)]
        for c in candidates:  # the same, for signatures with regex parts early on
            if len(c) >= 16 and (owner := word_heads.first_full_match(c)) is not None:
                return [owner]
        return []

    def _track(self, stripped: str, exc: re.Match | None, name: str, number: int, prefix: str, hits: list[str]) -> None:
        """Feed one candidate line to the chain of the process that printed it."""
        key = (name, prefix)
        tracker = self.trackers.get(key)
        if tracker is None:
            tracker = self.trackers[key] = ChainTracker(name)
            if len(self.trackers) > MAX_TRACKERS:
                _, old = self.trackers.popitem(last=False)
                self._store(old.close())
        else:
            self.trackers.move_to_end(key)
        codes = extract_codes(stripped)
        described = [] if codes else described_codes(stripped)  # torch_npu's description of a code, its number lost
        codes = codes or described
        # the runtime's reason for a failed call, its number lost: a report of its own only where no report is open
        # (inside one, e.g. a TraceBack line under E30008 / EE9999, the report's own codes say more)
        reasoned = [] if codes else reasoned_codes(stripped)
        done = None
        if (split := self._aclnn_detail(stripped, exc, hits)) is not None:
            exc, head_hits, (code, message, detail, detail_hits) = split
            done = tracker.exception(exc, stripped, number, head_hits)
            if tracker.current is not None:
                tracker.current.seq = self.order
            self._store(done)
            done = tracker.cann(code, message, detail, number, detail_hits)
        elif stripped.startswith(TRACEBACK):
            done = tracker.traceback(number)
        elif (ipython := chains.IPYTHON_HEAD.match(stripped)) is not None:
            done = tracker.traceback(number, ipython.group(2) or ipython.group(1))  # RayTaskError(X): X is what raised
        elif ((frame := FRAME.match(stripped)) is not None and stripped.startswith("File ")) or (frame := chains.CUT_FRAME.match(stripped)) is not None:
            self._store(tracker.frame(frame, number))
            tracker.seq = self.order
            return
        elif (raising := chains.RAISE_LINE.match(stripped)) is not None:
            tracker.raise_statement(raising, number, hits)
            return
        elif (asserting := chains.ASSERT_LINE.match(stripped)) is not None:
            tracker.assert_statement(asserting, number, hits)
            return
        elif stripped.startswith(chains.CAUSE):
            tracker.marker("cause", number)
        elif stripped.startswith(chains.CONTEXT):
            tracker.marker("context", number)
        elif exc is not None:
            done = tracker.exception(exc, stripped, number, hits)
            if self._quoted_assert is not None and self._quoted_assert[0] == number and tracker.current is not None \
                    and not tracker.current.statement:
                tracker.current.statement = f"assert {self._quoted_assert[1]}"[:300]  # as Python prints it above the exception
        elif chains.HYDRA.match(stripped):
            done = tracker.hydra(stripped, number, hits)
        elif (death := chains.PROCESS_DEATH.search(stripped)) is not None:
            done = self._death(tracker, death, stripped, name, number, hits)
        elif (cann := chains.CANN_LINE.match(stripped)) is not None:
            done = tracker.cann(cann.group(1), cann.group(2).strip(), stripped, number, hits)
        elif (comp := chains.component(stripped)) is not None:
            done = tracker.cann(comp[0], comp[1], stripped, number, hits)
        elif self._titled is not None and not tracker.near(number):
            codes = [self._titled, *(c for c in codes if c != self._titled)]
            done = tracker.coded(self._titled, stripped, number, hits)  # "… kernels fail with 507015 …": the code's failure
        elif (codes and (described and "[Error]:" not in stripped  # torch_npu's "[Error]: …" line joins the report it precedes (ChainTracker.pending)
                         or (codes[0].startswith(STANDALONE_CODES) or _reported(stripped, codes[0])) and FAILED.search(stripped)
                         or _rt_report(stripped, codes[0], self._paste))
              and not tracker.near(number)
              and not (codes[0].startswith("errno:") and _QUIET_LEVEL.match(stripped))):  # an OS error at WARNING was handled
            done = tracker.coded(codes[0], stripped, number, hits)  # "dcmi … failed. ret is -8005": a failure of its own
        elif reasoned and not tracker.near(number):
            codes = reasoned
            done = tracker.coded(codes[0], stripped, number, hits)  # "rtGetDevMsg execution failed, the context is a null pointer"
        elif reasoned and not hits and GENERIC_LINE.search(stripped) is None:
            return  # a TraceBack line of the open report, a candidate only as RT_REASON_PREFILTER's: left as before it was one
        else:
            tracker.attach(stripped, number, hits, codes)
            codes = []
        if codes and tracker.current is not None:
            link = tracker.current
            link.codes.extend(c for c in codes if c not in link.codes)
            del link.codes[chains.MAX_CODES:]
        if tracker.current is not None and tracker.current.line == number:
            tracker.current.seq = self.order
        self._store(done)

    def _aclnn_detail(self, stripped: str, exc: re.Match | None, hits: list[str]) -> tuple | None:
        """torch_npu's "call aclnnX failed, detail:EZ1001: <CANN's message>" on one line: the op call and its cause.

        op-plugin prints the CANN report after "detail:"; when that report's text is on the same line (not
        "Inner Error!" with the text below), it is read as a CANN line of its own under the failed call, as it is
        when printed below it, so what it says (a rejected argument, a missing kernel) is the diagnosis and the call
        its consequence. A logger that quotes the error without its type (xinference) gets torch_npu's RuntimeError.
        """
        m = ACLNN_DETAIL.search(stripped)
        if m is None or INNER_ERROR.match(m.group(3)):
            return None
        if exc is None:
            exc = EXCEPTION.match(f"RuntimeError: {stripped[m.start():m.start(2)].rstrip()}")
            if exc is None:
                return None
        detail = stripped[m.start(2):]
        detail_ids = {e.id for e, _ in self.matcher.entries_in(detail)}
        head = [h for h in hits if h not in detail_ids]
        return exc, head, (m.group(2), m.group(3).strip(), detail, [h for h in hits if h in detail_ids])

    def _death(self, tracker: ChainTracker, m: re.Match, text: str, name: str, number: int, hits: list[str]) -> Chain | None:
        from .analyzers.process import death_kind

        kind, message = death_kind(m)
        done = tracker.process(kind, message, text, number, hits)
        if len(self.deaths) < MAX_UNKNOWN:
            from .analyzers import entry_for
            from .analyzers.process import ProcessDeath

            entry = entry_for(ProcessDeath, ProcessDeath.finding(kind, message, (text,)))
            self.deaths.append(Hit(entry, name, number, text[:MAX_EXCERPT], self.order, True, 1, "derived"))
        return done

    def _store(self, chain: Chain | None) -> None:
        if chain is None:
            return
        key = chain.key()
        known = self.chains.get(key)
        if known is not None:
            known.count += chain.count
            known.tail = max(known.tail, chain.last_line)
            return
        chain.tail = chain.last_line
        self.chains[key] = chain
        if len(self.chains) > MAX_CHAINS:  # forget the oldest failure nothing in the catalog recognised
            drop = next((k for k, c in self.chains.items() if not any(link.hits for link in c.links)), next(iter(self.chains)))
            del self.chains[drop]

    # ---- ranking -----------------------------------------------------------------------
    def result(self) -> Explanation:
        from .analyzers import derive

        for tracker in self.trackers.values():  # chains still open at the end of the input are complete now
            self._store(tracker.close())
        self.trackers.clear()
        all_chains = list(self.chains.values())
        for c in all_chains:
            c.tail = max(c.tail, c.last_line)
        fatal_chain = {id(c): self.last_progress.get(c.file, 0) < c.tail
                       and not any((c.file, link.line) in self._survived for link in c.links) for c in all_chains}
        entries = {e.id: e for e in self.catalog.entries}
        derived = derive(all_chains, fatal_chain, self.versions, entries, {h.entry.id: (h.file, h.line) for h in self.hits.values()},
                         self.analyzers, self.settings, tuple(self.unloaded))

        hits = sorted(self.hits.values(), key=lambda h: h.order)
        matched = {h.entry.id for h in hits}
        cause_of: dict[str, str] = {}
        for h in hits:
            for consequence in h.entry.consequences:
                if consequence in matched and consequence != h.entry.id:
                    cause_of.setdefault(consequence, h.entry.id)
        for entry_id, cause in derived.demoted.items():
            # k52dist: an entry the catalog itself names as this one's consequence (NCCL's bare result code, e.g.
            # "unhandled system error", under the WARN / "Last error:" line that says why) is not its cause, wherever
            # the chain placed the two lines
            if entry_id not in derived.roots and cause_of.get(cause) != entry_id:
                cause_of.setdefault(entry_id, cause)

        candidates: list[tuple[tuple, Diagnosis]] = []
        causes = {c for k, c in cause_of.items() if k in entries and not entries[k].generic}
        causes |= {item.demoted_by for item in derived.items if item.demoted_by}
        # A warning whose entry names a fatal wrapper of this log as its consequence caused that failure (the raylet's
        # disk-full warning before Ray's generic runtime_env set-up error): it is fatal in effect, and ranks as the cause.
        # A specific fatal consequence (Ray's OutOfDiskError) stays first: it states the failure, the warning its cause.
        fatal_causes = {cause for consequence, cause in cause_of.items()
                        if (hit := self.hits.get(consequence)) is not None and hit.fatal and hit.entry.generic}
        for h in hits:
            fatal = h.fatal or h.entry.id in fatal_causes
            d = Diagnosis(h.entry, h.file, h.line, h.excerpt, h.count, fatal, cause_of.get(h.entry.id),
                          evidence=derived.evidence.get(h.entry.id, ()), notes=tuple(derived.notes.get(h.entry.id, ())),
                          kind=derived.kinds.get(h.entry.id, ""), handled=h.entry.id in derived.handled)
            # a wrapper (generic) that causes nothing here ranks after every specific diagnosis, a demoted one too
            # (that one is the consequence of something else, not of the wrapper)
            generic = (1 if h.entry.id in causes else 2) if h.entry.generic else 0
            candidates.append(((0 if fatal else 1, generic + int(h.entry.id in cause_of), 0, h.order), d))
        for item in derived.items:
            d = Diagnosis(item.entry, item.file, item.line, item.excerpt, item.count, item.fatal, item.demoted_by,
                          basis="derived", evidence=item.evidence, kind=item.kind,
                          handled=item.demoted_by is not None and item.entry.id in derived.handled)
            candidates.append(((0 if item.fatal else 1, int(item.demoted_by is not None), 1 + int(item.weak or _bare_code(item)), item.order), d))
        diagnoses = tuple(d for _, d in sorted(candidates, key=lambda c: c[0]))
        specific_fatal = any(d.fatal and not d.entry.generic and d.demoted_by is None for d in diagnoses) or any(
            d.fatal and not d.entry.generic for d in diagnoses if d.basis == "catalog"
        )
        unknown = None if specific_fatal else self._relevant_unknown(all_chains, fatal_chain, derived.explained)
        if unknown is None and not any(d.fatal for d in diagnoses):
            unknown = self._native_unknown()
            if unknown is not None and (read := self._native_reading(unknown, entries)) is not None:
                diagnoses, unknown = (read, *diagnoses), None
        quiet = self.quiet_lines() if not diagnoses and unknown is None else ()
        return Explanation(diagnoses, unknown, self.bytes_read, self.lines_read, tuple(self.files), tuple(self.skipped),
                           versions=tuple(self.log_versions.stated.items()), quiet=quiet)

    def _native_reading(self, unknown: UnknownError, entries: dict[str, KnownFailure]) -> Diagnosis | None:
        """The analyzers' reading of the native record _native_unknown chose (a log with nothing else fatal): its message
        as a bare exception's, the lines printed under it as its detail (MindSpore's "[ERROR] DEVICE(…) [file:line] Func] The
        current [X] operator did not match any operator prototype library. The reason is:" and the reason below it name the
        failure in the program's own words), or None when no analyzer reads it. No codes: a record carrying one is the code
        readers' to judge (_line), and they did."""
        from .analyzers import derive, registry

        link = Link("bare", "Exception", unknown.message, unknown.file, unknown.line, text=unknown.message,
                    detail=list(self._native_under.get((unknown.file, unknown.line), ())))
        native = Chain(unknown.file, [link], tail=unknown.line)
        # not analyzers.prose's reading of a person's words: a program's record is not a sentence someone typed
        readers = tuple(a for a in (self.analyzers or registry()) if a.id != "DRV-named-in-words")
        derived = derive([native], {id(native): True}, self.versions, entries, {}, readers, self.settings, tuple(self.unloaded))
        item = next((i for i in derived.items if i.fatal and not i.weak and not _bare_code(i)), None)  # a decoded code alone names no class
        if item is None:
            return None
        return Diagnosis(item.entry, item.file, item.line, item.excerpt, item.count, True, None, basis="derived",
                         evidence=item.evidence, kind=item.kind)

    def _note_native(self, name: str, number: int, fatal: bool, message: str,
                     under: Callable[[], list[str]] | None = None) -> None:
        """Keep a C++ logger's record if it is the file's first error record, or its first fatal one, read so far (with the
        lines printed under it, its message's continuation, read only for a record kept: _native_reading's detail)."""
        kept = self._native.setdefault(name, [None, None])
        for slot, wanted in ((0, True), (1, fatal)):
            if wanted and (kept[slot] is None or number < kept[slot][0]):
                kept[slot] = (number, message)
                if (name, number) not in self._native_under:
                    self._native_under[(name, number)] = under() if under is not None else []

    def _native_unknown(self) -> UnknownError | None:
        """A log with nothing fatal but a C++ logger's error records after its last progress line: the first fatal-level
        record (glog F, Ray C, c10 F), else the first error record, as an unexplained error with no type (``Exception``)."""
        after = self.last_progress
        for slot in (1, 0):
            for file, kept in self._native.items():
                if kept[slot] is not None and kept[slot][0] > after.get(file, 0):
                    return UnknownError("Exception", kept[slot][1], file, kept[slot][0], None)
        return None

    def _relevant_unknown(self, all_chains: list[Chain], fatal_chain: dict[int, bool], explained: set[int]) -> UnknownError | None:
        """The earliest unexplained exception the run did not survive; wrappers and bare lines only as a last resort."""
        options: list[tuple[tuple, Link]] = []
        for c in all_chains:
            if not fatal_chain[id(c)]:
                continue
            for link in c.links:
                if id(link) in explained or link.kind in ("cann", "hydra", "process", "code") or (link.kind == "cut" and not link.type):
                    continue  # a cut traceback counts once its type is known (an IPython header, a raise statement)
                if link.hits and all(self.hits[i].entry.generic is False for i in link.hits if i in self.hits):
                    continue
                options.append(((int(link.wrapper), int(link.kind in ("bare", "cut")), link.seq), link))
        if not options:
            return None
        chosen = min(options, key=lambda o: o[0])[1]
        return UnknownError(chosen.type, chosen.message[:MAX_EXCERPT], chosen.file, chosen.line, _innermost_user_frame(chosen.frames))


def _bare_code(item: Any) -> bool:
    """A derived finding that only decodes a code (kind 'code-XXXX'): any finding naming a root-cause class outranks it."""
    return item.kind.startswith("code-")


def _logger_record(line: str) -> tuple[str, str] | None:
    """(the lead-in before the level, digits masked; the level) of a named logger's record (see LOG_LEVEL), else None."""
    level = LOG_LEVEL.search(line, 0, MAX_RECORD_HEAD)
    if level is None or LOGGER_NAME.search(line, 0, level.start()) is None:
        return None
    return re.sub(r"\d", "0", line[: level.start()]), level.group(1)


def _next_is_exception(block: bytes, end: int) -> bool:
    """Whether the line after ``end`` in ``block`` is an exception line (of any writer's prefix)."""
    if not block or end >= len(block):
        return False
    nxt_end = block.find(b"\n", end + 1)
    nxt = block[end + 1 : nxt_end if nxt_end != -1 else len(block)][:MAX_EXCERPT]
    return EXCEPTION.match(strip_prefixes(nxt.decode("utf-8", "replace").rstrip("\r"))[0].strip()) is not None


def _after_warning(block: bytes, start: int) -> bool:
    """Whether the line before ``start`` in ``block`` opens a warning whose message is the next line."""
    if start <= 0:
        return False
    prev = block[block.rfind(b"\n", 0, start - 1) + 1 : start - 1][-MAX_EXCERPT:]
    return WARNING_OPEN.search(strip_prefixes(prev.decode("utf-8", "replace").rstrip("\r"))[0]) is not None


def _after_cjk(text: str) -> str:
    """The exception or known phrase quoted after CJK prose on one line (the line itself when there is none).

    The error may also sit in quotes inside the sentence ("… ZMQ bind "Address already in use"（…）"): the first
    quoted part that is an exception or a known phrase.
    """
    tried = 0  # positions followed by ASCII text, each tried against the patterns: a long sentence has many CJK characters
    for m in chains.CJK.finditer(text):
        # the message after the prose, after an ASCII colon too ("详情: AttributeError: …"), or quoted ("报错：'Torch not …'")
        opened = text[m.end():].lstrip(": \t")
        rest = opened.lstrip("'`")
        if not rest:
            break
        if opened[0] == "`" and "`" in rest:
            rest = rest[:rest.index("`")]  # the quote closes: the prose goes on after it
        if not rest[0].isascii():
            continue
        tried += 1
        if tried > 32:
            break
        if EXCEPTION.match(rest) or chains.PHRASE.match(rest) or SPELLED_TYPE.match(rest):
            return rest  # (a class spelled as words, "报错：value error, …", is read as the class by _line)
    for n, m in enumerate(QUOTED.finditer(text)):
        if n >= 8:
            break
        said = m.group(1).strip()
        if said.isascii() and (EXCEPTION.match(said) or chains.PHRASE.match(said)):
            return said
    return text


# A Chinese lead-in that ends in "error" / "failed" (报错, 错误, 出错, 失败, 报错如下), before the English message it introduces.
ZH_REPORTED = re.compile(r"(?:报错|错误|出错|失败)(?:如下|信息|为|是)?[\s:：'`\"“”]*$")
# What such a message says beyond LONE_FAILURE's words: memory running out, Python's wrong-arguments sentence.
ZH_TAIL_FAILURE = re.compile(r"(?i)out of memory|\bOOM\b|\w\(\) (?:takes|missing|got)\b")


def _cjk_tail(text: str) -> str | None:
    """The English text after a short paste line's last CJK prose ("…，报错NPU out of memory" -> "NPU out of memory"), or None.

    A person's Chinese lead-in ("训练场景报错", "启动报错") run into the message the program printed: signatures that open
    the message (an assert statement, "^…") or that need a word boundary before it match the message on its own.
    """
    if text.isascii():
        return None
    last = None
    for n, m in enumerate(chains.CJK.finditer(text)):
        if n >= 32:
            return None
        last = m
    if last is None:
        return None
    rest = text[last.end():].strip(" \t:'`\"")
    return rest if len(rest) >= MIN_CASED_LINE and rest.isascii() and " " in rest else None


# op-plugin's failed aclnn call with CANN's report after "detail:" (op_plugin/utils/op_api_common.h).
ACLNN_DETAIL = re.compile(r"\bcall (aclnn\w+) failed, detail: ?(E[A-Z]\d{4}|E\d{5}): ?(.*)$")
INNER_ERROR = re.compile(r"\s*(?:Inner Error!?)?\s*$")
# A quoted part of a sentence: ASCII or full-width / typographic quotes, or Chinese corner brackets.
QUOTED = re.compile(r"[\"“「『]([^\"”」』]{8,300})[\"”」』]")
# A title's quoted message: in Markdown backticks, or in QUOTED's quotes.
TITLE_QUOTE = re.compile(r"`([^`]{16,300})`|[\"“「『]([^\"”」』]{16,300})[\"”」』]")


def _most_specific(entries: list[tuple[KnownFailure, Signature]], line: str) -> list[tuple[KnownFailure, Signature]]:
    """The line's readings without those that are a less specific reading of the same words.

    Two entries match one line, every match of one lies inside a match of the other, and the outer signature spells
    more literal text (verl's Megatron registry refusal names verl's own short list of architectures; vLLM's registry
    refusal is the same sentence with any list): the same words read twice, so the narrower reading is dropped.
    A wider match made only of wildcards (a greedy ``.*`` tail) spells no more and wins nothing; wrappers stay (they
    rank last anyway).
    """
    reads: list[tuple[str, int, int, int]] = []  # entry id, match start, end, literal weight of the signature
    for entry, sig in entries:
        if entry.generic:
            continue
        try:
            m = re.search(sig.regex, line)
        except re.error:
            continue
        if m is not None:
            reads.append((entry.id, m.start(), m.end(), _literal_weight(sig.regex)))

    def inside(read: tuple[str, int, int, int]) -> bool:
        eid, start, end, weight = read
        return any(o_id != eid and o_start <= start and end <= o_end and o_weight > weight for o_id, o_start, o_end, o_weight in reads)

    narrower = {read[0] for read in reads if inside(read)} - {read[0] for read in reads if not inside(read)}
    return [(e, s) for e, s in entries if e.id not in narrower] if narrower else entries


def _literal_weight(regex: str) -> int:
    """How many characters of literal text a signature spells (classes, quantifiers, groups and anchors not counted)."""
    return sum(1 for m in REGEX_TOKEN.finditer(regex) if m.lastgroup in ("char", "escaped"))


# A signature's tokens, in order: classes, quantifiers, group openers and metacharacters spell nothing; an escaped
# punctuation mark or any other character spells itself.
REGEX_TOKEN = lazy(r"(?P<cls>\[(?:\\.|[^\]\\])*\])|(?P<quant>\{\d*,?\d*\})|(?P<group>\(\?(?:[:=!]|<[=!]|P<\w+>))"
                   r"|(?P<class_escape>\\[A-Za-z])|(?P<escaped>\\.)|(?P<meta>[()?*+|^$.])|(?P<char>.)", re.DOTALL)


def _literal_head(regex: str) -> str:
    """The literal text a signature starts with (escapes resolved), up to its first regex construct."""
    out = []
    i = 1 if regex.startswith("^") else 0
    while i < len(regex):
        ch = regex[i]
        if ch == "\\" and i + 1 < len(regex):
            nxt = regex[i + 1]
            if nxt.isalnum():
                break
            out.append(nxt)
            i += 2
            continue
        if ch in ".^$*+?{}[]|()":
            if ch in "?*{" and out:
                out.pop()  # the previous character is optional
            break
        out.append(ch)
        i += 1
    return "".join(out)


def _word_prefixes(regex: str) -> list[str]:
    """The signature cut after each of its words (3 words or more), as patterns for a whole pasted message."""
    body = regex[1:] if regex.startswith("^") else regex
    words = body.split(" ")
    out = []
    for k in range(len(words) - 1, 2, -1):
        if UNBOUNDED.search(words[k - 1]):
            continue  # a cut ending in ".*" would take any continuation for the cut-off tail ("[.*] failed to be …")
        head = " ".join(words[:k]).rstrip(",.:;\\")
        if top_level_branches(head) is None:
            continue  # cut inside a group or class (a signature wrapped in one alternation): not a pattern, never matches
        out.append(head + r"[\s.,:;]*")
    return out


UNBOUNDED = re.compile(r"(?<!\\)\.[*+]")


class _WordHeads:
    """Signature prefixes as RE2 full-match sets: linear time, whatever the catalog.

    Prefixes are grouped by their first word when it is plain text (a full match must start with
    it), so a paste compiles only its own word's group and the group of prefixes that start with a
    regex construct, once each, not the whole catalog's (most of a one-line explain's time before).
    A prefix whose first word has a regex construct after some literal text (``RuntimeError\\(``,
    ``\\[Error\\]:``) and no alternation is grouped by the first characters of that literal text,
    which a full match must start with too. A cut that does not parse (a group opened before the
    cut) is simply left out. Only without the google-re2 wheel are the prefixes compiled with
    Python's re, as the signatures are.
    """

    def __init__(self, items: list[tuple[str, KnownFailure, Signature]], groups: dict[Any, list[int]] | None = None,
                 literals: list[Any] | None = None):
        self._items = items
        self._groups: dict[str | tuple[str, str] | None, list[int]] = groups if groups is not None else _word_groups([p for p, _, _ in items])
        self._literals = literals  # per prefix, gatedset.member_literals' answer (kept with the index), or None: work them out
        self._compiled: dict[str | tuple[str, str] | None, Any] = {}

    def _keys(self, text: str) -> list[str | tuple[str, str] | None]:
        """The groups whose prefixes may match all of ``text``: every other group's cannot."""
        word = text.split(" ", 1)[0]
        starts = [key for k in range(1, _HEAD_KEY + 1) if (key := ("starts", text[:k])) in self._groups]
        return [None, *starts, *([word] if word in self._groups else [])]

    def _group(self, word: str | tuple[str, str] | None) -> Any:
        """The matcher of one group: a literal-gated RE2 full-match set (gatedset.py), or a list of (Python pattern, index)."""
        if word in self._compiled:
            return self._compiled[word]
        indices = self._groups.get(word, [])
        if _re2 is None:
            compiled: Any = []
            for index in indices:
                try:
                    compiled.append((re.compile(self._items[index][0]), index))
                except re.error:
                    continue
        else:
            options = _re2.Options()
            options.log_errors = False
            options.max_mem = RE2_MAX_MEM
            patterns = [self._items[index][0] for index in indices]
            literals = None if self._literals is None else [self._literals[index] for index in indices]
            compiled = GatedSet(patterns, options, _re2, literals, full_match=True)
        self._compiled[word] = compiled
        return compiled

    def first_full_match(self, text: str) -> tuple[KnownFailure, Signature] | None:
        """The catalog-order first signature whose prefix matches all of ``text``."""
        found: list[int] = []
        for group in self._keys(text):
            compiled = self._group(group)
            if _re2 is None:
                found += [index for rx, index in compiled if rx.fullmatch(text)][:1]
            else:
                indices = self._groups.get(group, [])
                found += [indices[i] for i in compiled.match(text.encode())]
        if not found:
            return None
        _, entry, sig = self._items[min(found)]
        return entry, sig


def _word_groups(prefixes: list[str]) -> dict[Any, list[int]]:
    """_WordHeads' groups: prefix indices by their plain first word, their literal start, or None (see its docstring)."""
    groups: dict[Any, list[int]] = {}
    for index, pattern in enumerate(prefixes):
        word = pattern.split(" ", 1)[0]
        if _PLAIN_WORD.fullmatch(word):
            key: str | tuple[str, str] | None = word
        else:  # "|" anywhere (even escaped) may be an alternation: then no literal text is certain
            head = _literal_head(pattern) if "|" not in pattern else ""
            key = ("starts", head[:_HEAD_KEY]) if head else None
        groups.setdefault(key, []).append(index)
    return groups


_HEAD_INDEXES: dict[str, tuple[list[tuple[str, int]], list[tuple[str, int]], dict[Any, list[int]], list[Any]]] = {}


def _head_index(entries: tuple[KnownFailure, ...]) -> tuple[list[tuple[str, KnownFailure, Signature]], _WordHeads]:
    """The "first words of a known message" look-ups: literal heads (24+ characters) and word-prefix groups.

    They depend only on the signatures, yet deriving them took a one-line explain about 30 ms, so they
    are kept with the parsed catalog (catalog/cache.py, keyed by every signature and this module's
    text) and, within a process, per catalog.
    """
    owners = [(e, s) for e in entries for s in e.signatures]
    from .. import cache, lazyre
    from . import gatedset

    # the literals kept with the prefixes come from lazyre and gatedset: their texts are part of the key too
    key = cache.content_key("heads", cache.own_source(__file__), cache.own_source(lazyre.__file__), cache.own_source(gatedset.__file__),
                            [(str(i), s.regex) for i, (_, s) in enumerate(owners)])
    index = _HEAD_INDEXES.get(key)
    if index is None:
        def build() -> dict[str, Any]:
            heads = [[head, i] for i, (_, s) in enumerate(owners) if len(head := _literal_head(s.regex)) >= 24]
            prefixes = [[rx, i] for i, (_, s) in enumerate(owners) for rx in _word_prefixes(s.regex)]
            groups = _word_groups([rx for rx, _ in prefixes])
            rows = [[None if k is None else ("s" if isinstance(k, tuple) else "w"),
                     k[1] if isinstance(k, tuple) else k, v] for k, v in groups.items()]
            literals = [literal_row(rx) for rx, _ in prefixes]
            return {"heads": heads, "prefixes": prefixes, "groups": rows, "literals": literals}

        def load(data: dict[str, Any]) -> tuple[list[tuple[str, int]], list[tuple[str, int]], dict[Any, list[int]], list[Any]]:
            heads = [(str(h), int(i)) for h, i in data["heads"]]
            prefixes = [(str(rx), int(i)) for rx, i in data["prefixes"]]
            groups = {(None if tag is None else ("starts", value) if tag == "s" else value): [int(i) for i in members]
                      for tag, value, members in data["groups"]}
            literals = data["literals"]
            if (any(i >= len(owners) for _, i in heads + prefixes) or any(i >= len(prefixes) for v in groups.values() for i in v)
                    or len(literals) != len(prefixes) or not all(row is None or isinstance(row, str) for row in literals)):
                raise ValueError("head index does not fit the catalog")
            return heads, prefixes, groups, literals

        if len(_HEAD_INDEXES) >= 4:  # a scorer builds catalogs without some entries, one after another
            _HEAD_INDEXES.clear()
        index = _HEAD_INDEXES[key] = cache.cached("heads", key, build, load)
    heads, prefixes, groups, literals = index
    return ([(head, *owners[i]) for head, i in heads],
            _WordHeads([(rx, *owners[i]) for rx, i in prefixes], groups, literals))


# A first word with no regex construct in it: a full match of the prefix starts with exactly this word.
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_'<>=,-]+")
_HEAD_KEY = 4  # characters of a prefix's literal start that group it


def _innermost_user_frame(frames: list) -> str | None:
    """The deepest frame outside the standard library and third-party packages (verl counts as user code)."""
    for frame in reversed(frames):
        path = frame.path
        if "/verl/" in path or ("site-packages" not in path and "/lib/python3" not in path and not path.startswith("<")):
            return str(frame)
    return str(frames[-1]) if frames else None


def explain_paths(catalog: Catalog, paths: Iterable[str | os.PathLike[str]]) -> Explanation:
    classifier = Classifier(catalog)
    for path in paths:
        classifier.feed_path(path)
    return classifier.result()
