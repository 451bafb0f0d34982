"""Exception chains: what caused what, read from the lines of one process's output.

A failure rarely prints one exception. Python prints the cause first and the wrapper after
("The above exception was the direct cause…", "During handling…"); Ray prints its
``RayTaskError(X)`` wrapper first and the remote traceback after; torch_npu prints a RuntimeError
and, under it, its ``ERRxxyyy`` tag and the CANN lines (``EZ9999: …``) that say what the device did;
Hydra prints "Error executing job" before the traceback it wraps. A :class:`Chain` keeps the links
of one such failure in *cause order* — the root cause first, each wrapper after what it wraps — so
the diagnosis can name the most specific link rather than the last line.

Built incrementally from candidate lines only (the classifier never shows us ordinary lines), one
:class:`ChainTracker` per writer (file + Ray/rank prefix), with every list bounded.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import deque

from ..lazyre import lazy
from .codes import ERRNO_NAMES

MAX_FRAMES = 40  # innermost frames kept per link
MAX_LINKS = 12
MAX_DETAIL = 16
MAX_CODES = 16
JOIN_GAP = 6  # a process death this close to a link belongs to the same failure
CANN_GAP = 60  # CANN lines this close after an exception belong to it

TRACEBACK = "Traceback (most recent call last)"
CAUSE = "The above exception was the direct cause of the following exception"
CONTEXT = "During handling of the above exception, another exception occurred"
# IPython / Jupyter head their tracebacks with the type: "PermissionError    Traceback (most recent call last)".
# Ray's wrapper names the remote type in parentheses there ("RayTaskError(PermissionError)   Traceback …").
IPYTHON_HEAD = lazy(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt))(?:\(([A-Za-z_][\w.]*)\))?\s+Traceback \(most recent call last\)")
# The source line Python shows under the innermost frame when it is the raise itself: a paste cut before its
# exception line still says what was raised (raise ValueError(f"Unsupported soc_version: {soc_version}")).
RAISE_LINE = lazy(r"""^raise ([A-Za-z_][\w.]*(?:Error|Exception))\((?:[fFrR]{1,2})?(["'])(.*?)\2?\)?\s*$""")
# The assert statement Python shows under the innermost frame: a bare "AssertionError" (an assert without a message)
# says nothing, the condition above it says what failed (and a ZeroDivisionError or TypeError raised while evaluating
# it says which config value was 0 or None). The condition only; a message after the comma is dropped.
ASSERT_LINE = lazy(r"""^assert (.+?)(?:,\s*[fFrR]{0,2}["'].*)?\s*$""")
FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?')
# A frame line whose head was cut off when the traceback was copied (the selection began inside it): the absolute path
# of a Python file, its closing quote, then the line and the function, as Python prints them.
CUT_FRAME = lazy(r'^((?:/|[A-Za-z]:\\)[^"\s]*\.py)", line (\d+), in (\S+)\s*$')
# The type may carry a suffix after an underscore (pydcmi's DCMIError_LibraryNotFound), or be plain
# Exception (torch_npu's CANN check raises Exception(...)). A class named otherwise (pyarrow's ArrowInvalid,
# huggingface_hub's OfflineModeIsEnabled, aiohttp's HTTPRequestEntityTooLarge) counts when Python prints it
# qualified by its module and followed by its message: a lower-case dotted path, then a capitalised name
# that is not a warning category.
QUALIFIED = r"(?:[a-z_]\w*\.)+[A-Z]\w*(?<!Warning)(?=:)"
# the socket module's lower-case classes: getaddrinfo's and gethostbyaddr's failures ("socket.gaierror: [Errno -2] …")
SOCKET_ERRORS = r"socket\.(?:gaierror|herror)(?=:)"
# The class name is ASCII: Python's \w also takes CJK letters, and a question's prose run into the type ("在megatron中出现
# AttributeError: …") must not make one class of "megatron中出现AttributeError" (the reader then finds it after the prose).
EXCEPTION = re.compile(
    rf"^([A-Za-z_][A-Za-z0-9_.]*(?:Error|Exception|Exit|Interrupt)(?:_[A-Z]\w*)?|Exception|{QUALIFIED}|{SOCKET_ERRORS})(?:\(([\w.]*)\))?(?::\s?(.*))?$"
)
HYDRA = lazy(r"^Error executing job with overrides: ")
ERR_TAG = lazy(r"\bERR(\d\d)(\d{3}) ([A-Z]+) ")
CANN_LINE = lazy(r"^.*?\b(E[A-Z]\d{4}|E\d{5})\)?: ?(.*)$")
# CANN 8.x heads its reports "<Category>_Error(<code>): …" (AclNN_Parameter_Error(EZ1001), Execution_Error(EZ1009)),
# a shape that parses as a Python exception with an inner type; a code there makes it a CANN line (classify.py).
CANN_CODE = lazy(r"E[A-Z]\d{4}|E\d{5}")
PROCESS_DEATH = lazy(
    r"(terminate called after throwing an instance of '([^']+)'"
    r"|Fatal Python error: (\w[\w ]*)"
    r"|\*\*\* (SIG[A-Z]+) \(@?[^)]*\) received by PID"
    r"|^(Segmentation fault|Aborted|Bus error|Killed|Floating point exception|段错误|已放弃|总线错误|已杀死|浮点数例外)(?: ?\((?:core dumped|核心已转储|吐核)\))?\s*$"
    r"|Watchdog caught collective operation timeout: (Work\w+)\((.*)"
    # (glibc's strsignal texts, sysdeps/generic/siglist.h: SIGFPE's is "Floating point exception", which bash prints for a
    # job that died of it, "Floating point exception (core dumped)"; po/zh_CN.po's 浮点数例外 in a Chinese locale)
    # bash reporting a job of a script it ran: "./run.sh: line 12: 4242 Segmentation fault (core dumped) python3 …",
    # in a Chinese locale "./run.sh: 行 12: 4242 段错误 (核心已转储) python3 …"
    r"|^\S+: (?:line \d+|行 ?\d+|第 ?\d+ ?行)[:：] +\d+ (Segmentation fault|Aborted|Bus error|Killed|Floating point exception|段错误|已放弃|总线错误|已杀死|浮点数例外)\b"
    # tvm-ffi's SIGSEGV handler (src/ffi/backtrace.cc), installed in every process that imports it (vLLM through
    # flashinfer / tvm_ffi): its banner, then a native backtrace, then the signal re-raised
    r"|^!{7} (Segfault) encountered !{7}\s*$"
    # The heartbeat monitor's and the watchdog's exit messages of the c10d process groups (torch ProcessGroupNCCL.cpp,
    # torch_npu ProcessGroupHCCL.cpp and the out-of-tree backends built from them): "ProcessGroupNCCL's watchdog got
    # stuck for 480 seconds …", "… watchdog detected an exception from the local rank" / "… a collective timeout from
    # the local rank" / "… a dump signal from rank N", "Terminating the process after attempting to dump debug info, due
    # to collective timeout or exception." / "… due to ProcessGroupNCCL watchdog hang.", "Heartbeat monitor timed out!"
    # (torch_npu's, v7.0.0 to v26.x: https://github.com/Ascend/pytorch/blob/v7.2.0-pytorch2.7.1/torch_npu/csrc/distributed/ProcessGroupHCCL.cpp;
    # PyTorch's "detected a collective timeout and notified current rank" and the out-of-tree ProcessGroupECCL's /
    # ProcessGroupCNCL's "detected a collective timeout from the local rank" were read in stored copies of those files
    # whose revisions the store does not name: not pinned)
    r"|(ProcessGroup\w*(?:'s)? watchdog (?:got stuck for \d+ seconds|detected (?:an exception|a collective timeout|a dump signal)|hang\b)"
    r"|Terminating the process after attempting to dump debug info, due to collective timeout"
    r"|Heartbeat monitor timed out! Process will be terminated)"
    # torchrun's ChildFailedError summary of a worker a signal ended with no error file: "traceback : Signal 11
    # (SIGSEGV) received by PID 1233" (torch/distributed/elastic/multiprocessing/errors/__init__.py, ProcessFailure,
    # read in the torch 2.13.0 wheel); chat tools lower the first letter
    r"|\b[Ss]ignal \d+ \((SIG[A-Z]+)\) received by PID \d+)"
)
# The C library's strerror texts of the OS errors a training run meets (errno 28, 122, 24, 98, 13, 30): quoted in
# prose they still say which error it was.
OS_STRERRORS = ("No space left on device", "Disk quota exceeded", "Too many open files", "Address already in use",
                "Permission denied", "Read-only file system")
# errno classes an OS error is recognised by when neither its type nor "[Errno N]" was pasted (analyzers/oserror.py
# reads the class from the name or the text): symbolic names, and strerror's text standing alone (not "Permission
# denied", which ends too many lines that are no OS error of the run's own).
ERRNO_SYMBOLS = "|".join(ERRNO_NAMES)  # the names codes.extract and analyzers/oserror.py know
ERRNO_TEXTS = "|".join(text for text in OS_STRERRORS if text != "Permission denied")
# An exception message pasted without its type: the type it always comes with.
# (Types listed in REASON_BELOW carry their reason on the lines that follow: classify.py reads those as its detail.)
# A short context in front is allowed ("Error retrieving file list: cannot import name …"), a logged sentence that
# ends by quoting the caught exception ("Failed to import Triton kernels. Please make sure … compatible. Error: %s",
# vLLM's logger.error), the dynamic loader's "<program>: error while loading shared libraries: " (a binary that
# cannot start, exit code 127), and a sentence that opens a quote around the message ('… in nemo i get """cannot
# import name …"""', NVIDIA-NeMo/Speech#13520), and Paddle's refusal of a plugin library whose dependency the loader did
# not find, dlerror() after "with error: " (PADDLE_ENFORCE_NOT_NULL's InvalidArgument "Fail to open library: %s with error:
# %s", LoadCustomDevice in paddle/fluid/platform/init.cc; libpaddle-custom-npu.so links CANN's and NNAL's libraries).
# The loader's undefined-symbol line also comes after a few words of an issue title ("[Bug] can not run x.so: undefined
# symbol", "flash-attn error x.so: undefined symbol: …", the symbol cut off at the title's end), or as the symbol alone when
# it is torch's (a mangled c10 / at / torch name: "undefined symbol: _ZN3c105ErrorC2…").
PHRASE = lazy(
    r"^(?:[A-Z][\w ,'-]{0,60}: {1,4}(?:`{1,3})?|[A-Z][^:]{0,200}?[.!;] (?:Error|error): |\S+: error while loading shared libraries: "
    r"|(?:\(\w+\) )?Fail to open library: \S+ with error: "
    # MindSpore's device-plugin loader ("Load dynamic library: libmindspore_ascend.so.2 failed. <dlerror>", PluginLoader::
    # LoadDynamicLib in runtime/hardware/device_context_manager.cc) and Paddle-Lite's NNAdapter ("Failed to load the nnadapter
    # device HAL library for 'huawei_ascend_npu' from libhuawei_ascend_npu.so, <dlerror>", DeviceManager::Find in
    # nnadapter/src/runtime/device.cc, under its glog-style "[F … device.cc:529 Find] " prefix): dlerror() after a lead-in
    r"|Load dynamic library: \S+ failed\. |(?:\[[^\]]{0,120}\] )?Failed to load the nnadapter device HAL library for '[^']*' from \S+, "
    # a library's log record that ends by quoting the OS error it met ("ERROR: megatron.core.dist_checkpointing.strategies.
    # filesystem_async: Local process 0 encountered an error: [Errno 5] Input/output error", THUDM/slime#326)
    r"|[A-Z][^\[]{0,200}?\b(?:encountered an|an|with) error: (?=\[Errno -?\d+\] )"
    r"|[A-Z][^\"“:]{0,200}? [\"“`]{1,3})?(?:([Nn]o module named ')|(cannot import name ')|(module '[\w.]+' has no attribute ')|((?:\[\w+\]:? )?(?:[\w-]+ ){0,5}\S+\.so[\w.]*: undefined symbol(?:: |\s*$)|undefined symbol: _Z\w*?(?:3c10|2at|5torch)\w*)"
    r"|(.*\(\) got an unexpected keyword argument ')"
    r"|(The model's max seq len \(\d+\) is larger than the maximum number of tokens)"
    r"|('_OpNamespace' '\w+' object has no attribute ')|(No available memory for the cache blocks)"
    r"|(\S+\.so[\w.]*: cannot open shared object file)"
    # asyncio's bind failure as uvicorn logs it ("ERROR:    [Errno 98] error while attempting to bind on address …")
    r"|(\[Errno \d+\] error while attempting to bind on address )"
    # pyzmq's ZMQError text logged without its type ("… exception: Address already in use (addr='tcp://…')")
    r"|(.*\bAddress (?:already )?in use \(addr=')"
    r"|((?:NPU|CUDA) out of memory\. Tried to allocate )"  # the allocator's message pasted without torch.OutOfMemoryError
    # torch's own refusals of a CUDA call on a build or host without CUDA, quoted without their type (an issue title, a
    # sentence in another language): torch/cuda/__init__.py raises AssertionError("Torch not compiled with CUDA enabled"),
    # and the CUDA runtime check "No CUDA GPUs are available" is a RuntimeError
    r"|(Torch not compiled with CUDA enabled)|(No CUDA GPUs are available)"
    # Hydra without HYDRA_FULL_ERROR prints a ConfigCompositionException as its message alone, OmegaConf's reason on
    # the lines below ("Error merging override +a.j=2" / "Key 'j' not in 'A'" / "    full_key: a.j"; hydra tests/test_hydra.py)
    r"|(Error merging override \S)"
    r"|(unsupported operand type\(s\) for \S+: ')"  # Python's TypeError for arithmetic on None or a str ("… for %: 'int' and 'NoneType'")
    # A trainer's batch-size check quoted without its type, as verl words its ValueErrors ("train_batch_size (16) must be >=
    # actor.ppo_mini_batch_size (32)") or as a report restates one ("training_batch_size must be greater than
    # ppo_mini_batch", sunnweiwei/FoldAgent#13): the batch key opens the line, a comparison follows.
    r"|((?:\w*train(?:ing)?_batch_size|\w*(?:mini|micro)_batch\w*)\b[^:]{0,40}? (?:must|should) be (?:greater|less|larger|smaller|>=|<=|divisible|a multiple)\b)"
    # An errno by its symbolic name and (negated) number, as C code and issue titles write a failed syscall's
    # return ("EADDRINUSE (-98) error when setting up NCCL communicator"), on a line that says it failed.
    rf"|((?=.*(?i:error|fail)).*?\b(?:{ERRNO_SYMBOLS}) ?\(-?\d{{1,3}}\))"
    # strerror's text alone, the whole message of an OS error pasted without its type or number: it ends the line,
    # or a path or closing quote follows ("Too many open files: '/…'", 「Disk quota exceeded」); prose that merely
    # names the error ("Tip: Too many open files errors mean …") is not one
    rf"|((?:{ERRNO_TEXTS})(?=\s*$|:\s|[\"'”」）)]))"
    # an OS error logged without its type ("ERROR: [Errno 98] error while attempting to bind …"), its strerror quoted
    # in a sentence or title (ZMQ bind "Address already in use", or lower-cased in prose: an “address already in use”
    # error), not as a JSON value (gRPC's report: its errno says it),
    # or ending a shell / coreutils error line ("mkdir: cannot create directory ‘/tmp/ray’: Permission denied"); keep last
    r"|(\s*\[Errno -?\d+\] |.*?(?<![:\"'])[\"'“](?i:" + "|".join(OS_STRERRORS) + r")[\"'”]"
    r"|[\w./-]+:(?: [^:]+:)+ (?:" + "|".join(OS_STRERRORS) + r")\s*$))"
)
REASON_BELOW = frozenset(("hydra.errors.ConfigCompositionException",))
# pydantic's ValidationError says only how many errors and for which class on its own line; each error's text follows,
# indented, as "Value error, <the ValueError's message> [type=value_error, …]" (vLLM >= 0.10 validates its engine
# configs this way, so its ValueErrors reach the log wrapped so). pydantic-core, src/errors/validation_exception.rs.
PYDANTIC_HEAD = lazy(r"^\d+ validation errors? for [\w.]+\s*$")
PYDANTIC_REASON = lazy(r"^(?:Value error|Assertion failed), (.*)$")
PYDANTIC_TAIL = lazy(r"\s*\[type=\w+.*$")


def pydantic_reason(lines: list[str]) -> str:
    """The first error's message under a pydantic ValidationError head (its wrapped lines joined), or ''."""
    parts: list[str] = []
    for line in lines:
        if not parts:
            m = PYDANTIC_REASON.match(line)
            if m is not None:
                parts.append(m.group(1))
        elif line.startswith(("For further information", "[type=")) or PYDANTIC_REASON.match(line):
            break
        else:
            parts.append(line)
        if parts and PYDANTIC_TAIL.search(parts[-1]):
            parts[-1] = PYDANTIC_TAIL.sub("", parts[-1])
            break
    return " ".join(parts)
# An exception quoted at the end of an English sentence that introduces it ("trl == 0.14.0 would get error:
# ImportError: cannot import name …"): the sentence starts lower-case or with a version pin and ends in "error:";
# an issue title may quote it ('… serve Error :"ModuleNotFoundError: No module named …"').
SENTENCE_EXC = lazy(r"^[\w][\w .=<>,'()-]{0,80}?\b(?:[Ee]rror|raises?|got|fails? with)\s*:\s*(?:\s|[\"“])((?:[a-z_]\w*\.)*[A-Z]\w*(?:Error|Exception): .+?)[\"”]?$")
# An issue title or a one-line report: a few words, then the exception as Python prints it ("DeepSpeed during backward()
# RuntimeError: ProcessGroup …", "train RuntimeError: No backend type associated with device type npu"). Words that say
# the exception was handled (retried, ignored, caught) keep the line what it was. The words may be cut by "|" (vllm-ascend's
# titles: "[Bug]: <what> | <stack> | ValueError: …") or name a setting ("… with address = cluster ip results in …").
TITLE_EXC = lazy(r"^[\w\[][\w .,()\[\]/'|=-]{0,80}? ((?:[a-z_]\w*\.)*[A-Z][\w.]*(?:Error|Exception): \S.*)$")
HANDLED = lazy(r"(?i)\b(?:retr(?:y|ying|ied)|ignor\w*|skip\w*|caught|catch\w*|except|warn\w*|fall(?:ing)? ?back|raise)\b")
# Short pastes only (an issue body or title, a chat message: classify.py decides what is short). The forms a person writes
# around an error, which a program's own output does not have:
# - an exception after a prose lead-in that ends in a colon or opens a quote ("The error message is: RuntimeError: …",
#   "### [Bug]: RuntimeError: …", "I get `KeyError: 'x'` when …", "… the sample code. (RuntimeError: …)", "… crashes the
#   run (`AssertionError: 206 % 4 != 0`)."),
#   or an exception that a line opens in quotes ("`RuntimeError: expected device cpu but got device cuda:0"); the lead-in may
#   hold colons, `code spans` and short quoted names ('when I try the demo in the "X.ipynb" file, I get "ValueError: …"'),
#   not braces; an issue title's " | " separators count as a lead-in's colon
#   ("[Bug]: Verl qwen2.5 grpo | vllm-ascend 091-dev | ValueError: …");
LEAD_EXC = lazy(r"^(?:#{1,6}\s+)?(?:(?P<pre>[^\s`\"“#](?:[^`\"“{}=|<>]|`[^`\n]{1,80}`|\"[^\"\n]{1,80}\"|“[^”\n]{1,80}”| \| ){0,160}?)(?P<open>:\s*[`\"“]?|\s+[`\"“]|\s*\([`\"“]?| \| )|(?P<quote>[`\"“]))"
                r"(?P<exc>(?:(?:[a-z_]\w*\.)*[A-Z][\w.]*(?:Error|Exception)|socket\.(?:gaierror|herror)): \S.*)$")
# - an exception class named alone in a sentence, in backticks or quotes or as a word ("there are `PermissionError` when
#   users use shared cache_dir"): the class is all the paste says of the failure;
BARE_TYPE = lazy(r"(?:^|[\s(])[`\"“']?([A-Z][A-Za-z]*(?:Error|Exception))[`\"”']?(?=[\s,.;!?)]|$)")
# - one of the OS errors whose class names its cause, spelled as words ("I run into a permission error when trying to access
#   `/tmp/ray`"); the Python class it is written for. Not "runtime error", "value error": those say nothing of a cause.
WORDED_EXC = lazy(r"\b(?i:(permissions?|permission denied|file ?not ?found|file exists|is a directory|not a directory|connection refused"
                  r"|connection reset|broken pipe|module ?not ?found) errors?)\b")
# Words that make a sentence about an error something other than a report of it: a change to the code (a fix, a pull
# request's title: "fix permission errors on shared file systems", "Improve ValueError message"), handling or avoiding it.
# ("resolve" after a negation is the resolver failing, "Could not resolve hostname", not a question of resolving an error;
# "resolves to" names where a lookup lands, "the builder resolves to the NPU NotImplementedBuilder", not a fix)
# Not inside a dotted name: "pip._vendor.resolvelib.resolvers.ResolutionTooDeep" is a module path, not "resolved".
NOT_A_REPORT = lazy(r"(?i)(?<![.\w])(?:fix\w*|(?<!not )(?<!failed to )(?<!unable to )(?<!cannot )resolv\w*(?! (?:to|into)\b)|avoid\w*|instead|handl\w*|improv\w*|updat\w*|add|adds|added|refactor\w*|document\w*|docs?|faq"
                    r"|should (?:raise|be raised))\b(?!\.\w)")
# A line of code rather than a sentence (a paste often quotes the code around the error): a call, an assignment, a block
# opener; an exception class named there is code, not a report.
CODE_LINE = lazy(r"\w\(|[=;{}]|:\s*$|^\s*(?:def|class|if|elif|for|while|with|return|from|import|assert|try|except)\b")
# A log record's level, anywhere in the lead-in: a record at a quiet level quotes an exception it handled.
QUIET_ANYWHERE = lazy(r"\b(?:INFO|WARN(?:ING)?|DEBUG|NOTICE|TRACE)\b|\b[IWD]\d{4} \d\d:\d\d|Warning\b")
PHRASE_TYPES = ("ModuleNotFoundError", "ImportError", "AttributeError", "ImportError", "TypeError", "ValueError", "AttributeError", "ValueError", "ImportError",
                "OSError", "ZMQError", "torch.OutOfMemoryError", "AssertionError", "RuntimeError", "hydra.errors.ConfigCompositionException", "TypeError", "ValueError",
                "OSError", "OSError", "OSError")
# The OS-error phrases (the last three): a log level that does not report a failure makes them a handled condition (classify.py).
QUIET_PHRASES = frozenset(range(len(PHRASE_TYPES) - 2, len(PHRASE_TYPES) + 1))
# torch's own messages quoted inside prose (a question in another language, a sentence around the error).
PROSE = lazy(
    r"(Attempted to set the storage of a tensor on device \S+ to a storage on different device \S+"
    r"|Expected all tensors to be on the same device, but found at least two devices, \S+ and \S+"
    # an aclnn argument check pasted without its CANN code line (and the line naming the operator)
    r"|^the \w+'s (?:dtype|shape|format) should be .*|^Error is in the aclnn\w+"
    # the same check on a camelCase argument or attribute (CANN's op-api names: antiquantGroupSize, innerPrecise),
    # with the value it got ("antiquantGroupSize should be 128 or 64, but actual antiquantGroupSize is [256]."),
    # maybe after the condition that makes it apply ("when weight's dtype is [int4], …, antiquantGroupSize should be …")
    r"|^(?:[^.]{0,160}?, )?[a-z]+[A-Z]\w* should be [^.]{1,80}?,? (?:but )?[Aa]ctual\b.*"
    # torch_npu's failed aclnn call quoted in a sentence (an issue title: Encountered "call aclnnX failed, error code is N"),
    # or ending a title after a full-width comma or colon ("… tiling error，call aclnnX failed, error code is N")
    r'|(?:(?<=")|(?<=\uff0c)|(?<=\uff1a))call aclnn\w+ failed, error code is \d+(?="|\s*$))'
)
# A compiler's error diagnostic, "<location>: error: <message>": MLIR's default diagnostic handler (DiagnosticEngineImpl::
# emit in mlir/lib/IR/Diagnostics.cpp, https://github.com/llvm/llvm-project/blob/2dd10bbc7de4f00aea28d7a5d0b1987357450abf/mlir/lib/IR/Diagnostics.cpp: the location, ": ", "error: ", the message) as the MLIR-based kernel compilers print a
# rejected kernel ('loc("/tmp/…/kernel.ttadapter.mlir":17:10): error: …' from BiShengIR / triton-ascend), and GCC's / clang's
# "file:line:column: error: message". The message is the failure; no exception type comes with it.
DIAG_ERROR = lazy(r"^(?:loc\((?:[^()]|\([^()]*\)){1,300}\)|[^\s:]{1,300}:\d+:\d+): error: (\S.{7,})$")
# CMake's error report (cmMessenger / cmake::IssueMessage, Source/cmMessenger.cxx): "CMake Error at <file>:<line>
# (<command>):" with the message on the lines below, each indented by two spaces, then "Call Stack (most recent call
# first):"; or "CMake Error: <message>" on one line (no backtrace). A CMake error stops the configure ("-- Configuring
# incomplete, errors occurred!"): the build of a package's native extension fails there, whatever the message. Group 1 is
# a one-line message, empty when it is below.
CMAKE_ERROR = lazy(r"^CMake Error(?: (?:at|in) \S+? \(\w+\))?: ?(.*)$")
# A native logger's error or fatal record, which carries a message but no exception type. Four record forms:
# - glog (LogMessage's prefix, https://github.com/google/glog/pull/530): "[IWEF][yyyy]mmdd hh:mm:ss.uuuuuu threadid
#   file:line] msg"; E = ERROR, F = FATAL (Ray's C++ core before spdlog, Mooncake's transfer engine);
# - Ray's C++ logger (kLogFormatTextPattern in src/ray/util/logging.cc, https://github.com/ray-project/ray/blob/master/src/ray/util/logging.cc):  # pin39: not pinned: ray is too large to fetch here and the stored logging.cc (eab697db) is an old glog one without kLogFormatTextPattern
#   "[%Y-%m-%d %H:%M:%S,%e %L %P %t] %v", %L = E (error) or C (critical: RAY_LOG(FATAL)), the message led by
#   "(component) file:line: " (read with or without the timestamp, which normalize strips as a prefix);
# - PyTorch's c10 logger (MessageLogger in c10/util/Logging.cpp, https://github.com/pytorch/pytorch/blob/main/c10/util/Logging.cpp):  # pin39: not pinned: pytorch is too large to fetch here and the stored Logging.cpp (178be9b4) is an old one with the timestamp commented out
#   "[rankN]:" (normalize strips it), then "[" severity letter, month*100+day " hh:mm:ss.nnnnnnnnn" (older torch: none),
#   " file:line] " — "[E ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed …"; E = ERROR, F = FATAL;
# - CANN's log records (https://www.hiascend.com/document/detail/en/canncommercial/800/maintenref/logreference/logreference_0001.html):
#   "[Level] ModuleName(PID,PName):DateTimeMS [FileName:LineNumber]LogContent", Level ERROR (MindSpore prints the same
#   record with a thread id and the function: "[ERROR] PRE_ACT(pid,tid,python):… [file.cc:392] Func] message").
# The last group is the message; the glog / ray / c10 groups the level letter (F and C are fatal). A record alone does not say
# the run stopped, and a CANN report's records belong to the coded lines around them: the classifier reads them only when
# nothing else in the log is fatal (Classifier._native_unknown).
NATIVE_ERROR = lazy(
    r"^(?:(?P<glog>[EF])(?:\d{4})?\d{4} \d\d:\d\d:\d\d\.\d{6}\s+\d+(?:\s+\d+)? [\w.+-]+:\d+\]\s*"
    r"|(?:\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} )?(?P<ray>[EC]) \d+ \d+\] (?:\([\w-]+\) )?[\w.+-]+:\d+:\s*"
    r"|\[(?P<c10>[EF])(?:\d{3,4} \d\d:\d\d:\d\d\.\d{1,9})? [\w.+-]+:\d+\]\s*"
    r"|\[ERROR\] [A-Z][A-Z0-9_]*\([^()]{1,80}\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}(?:\.\d{3})? (?:\[[^\]\s]{1,300}:\d+\]\s*(?:\d+ )?(?:\w+\]\s*)?)?)"
    r"(?P<message>\S.{7,})$"
)
# A command-line parser's refusal of its arguments, printed under the command's usage text (the process then exits 2).
# No exception type is printed; the message is the failure. Two parsers' forms:
# - argparse (CPython Lib/argparse.py, ArgumentParser.error: print_usage() writes "usage: …", then
#   "%(prog)s: error: %(message)s", https://github.com/python/cpython/blob/v3.13.0/Lib/argparse.py) — vllm serve, torchrun,
#   any Python script's parser: "vllm serve: error: argument --quantization/-q: invalid choice: 'ascend' (…)";
# - Click (click/exceptions.py, UsageError.show: the usage "Usage: …", "Try '<command> --help' for help.", then
#   "Error: <message>", https://github.com/pallets/click/blob/8.5.0/src/click/exceptions.py) — ray start, ray job submit:
#   "Error: Got unexpected extra argument (1})".
# Group 1 is the message. The usage head (USAGE_HEAD) must be printed above it: a program's own "Error: …" or a
# "name: error: …" line with no usage above is not read this way.
USAGE_ERROR = lazy(r"^(?:[\w.][\w./ -]{0,100}: error|Error): (\S.{3,})$")
USAGE_HEAD = re.compile(rb"(?:^|\n)(?:usage|Usage): \S")
USAGE_LOOKBACK = 65536  # bytes above the refusal searched for its usage text (a large parser's usage runs to many lines)
# pip's own error line: its log formatter (IndentingFormatter.get_message_start, src/pip/_internal/utils/logging.py,
# https://github.com/pypa/pip/blob/26.2.1/src/pip/_internal/utils/logging.py) heads every ERROR / CRITICAL record with
# "ERROR: ", and pip's command runner logs the InstallationError that stops it so (base_command.py, logger.critical):
# "ERROR: file:///… does not appear to be a Python project: neither 'setup.py' nor 'pyproject.toml' found.".
# Not the resolver's notice it goes on after ("ERROR: pip's dependency resolver does not currently take into account
# all the packages that are installed…", commands/install.py _warn_about_conflicts), nor a heading that ends in ":" with
# the detail on the lines below ("ERROR: Exception:" over pip's own traceback). Group 1 is the message.
PIP_ERROR = lazy(r"^ERROR: (?!pip's dependency resolver )(\S.{6,}[^:\s])\s*$")
# The linker's missing -l library (GNU ld, ld/ldfile.c: "%P: cannot find %s", newer releases adding ": No such file or
# directory"; LLVM lld, lld/ELF/Driver.cpp: "unable to find library -l" + name), after the linker's own name or (a paste)
# without it. The build stops at its link step: read as the failure whether or not an entry names it (ARL-E2614 does), so
# an analyzer's reading of the library (catalog/analyzers/library.py) folds into the entry. Group 1 is the message;
# LINKER_LIB_MESSAGE is the message's head, its group "lib" the name after -l (ld's "-l:<file>" form too).
LINKER_LIB_MESSAGE = r"(?:cannot find|unable to find library) -l:?(?P<lib>[\w+.-]+)"
LINKER_MISSING_LIB = lazy(r"^(?:\S*?(?:\bld|ld\.\w+|-ld|rust-lld|ld64\.lld): (?:error: )?)?(" + LINKER_LIB_MESSAGE + r".*)$")
# A command-line tool's own error line, lower case, with no location and no exception type: git (usage.c, error_builtin:
# vreportf("error: ", …), https://github.com/git/git/blob/v2.55.0/usage.c), uv and cargo (their top-level handlers print
# "error: <message>", e.g. uv's crates/uv/src/lib.rs), MLIR-based compilers' pass-manager failures printed without a
# location (triton-ascend: "error: Failed to run … pipeline"). Read in a short paste only, as PIP_ERROR is: in a long
# log such a line can be a handled one. Group 1 is the message; not a heading that ends in ":".
TOOL_ERROR = lazy(r"^error: (\S.{6,}[^:\s])\s*$")
# MindIE's own record of an exception it caught while building or running the model: its model wrapper and request
# router log the exception's text, without its type, as "[Model]\t>>> Exception:<str(e)>" at ERROR
# (mindie_llm/connector/request_router/router_impl.py: logger.exception(f"[Model]\t>>> Exception:{e}"); older releases'
# model_wrapper/model.py the same words), and the traceback that follows is often cut before its last line. Group 1 is
# the message.
MINDIE_CAUGHT = lazy(r"\[Model\]\s*>>>\s?Exception:\s?(\S.{5,}?)\s*$")
# A question written in Chinese (or Japanese) with the error quoted inline: "执行中报错：RuntimeError: …".
# The exception starts right after a CJK character or full-width punctuation.
CJK = lazy(r"[\u3000-\u303f\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]\s*")
# Two processes writing the same exception line at once: "KeyErrorKeyError: : 'x'".
DOUBLED = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception))\1: : ?")
# A CANN report without an E-code: HCCL's / HCCP's own "[ERROR] HCCL(pid,proc):time [file.cc:N] …" lines,
# the device's error report ("The error from device(chipId:…) … aivector error"), and HCCP's bind /
# port-down messages pasted without their EJ code, the runtime refusing a device id, torch.distributed's C++ error lines
# (``[E… socket.cpp:N] [c10d] …``), and a CANN component (TUNE, TEFUSION …) quoting
# the Python import error it hit; pip's resolver conflict line ("… requires torch==2.7.1, but you have
# torch 2.8.0 which is incompatible"). (type, message) for :meth:`ChainTracker.cann`.
@functools.cache
def _component() -> re.Pattern[str]:
    """Compiled on first use: most pastes never reach it."""
    return re.compile(COMPONENT)


COMPONENT = (
    r"\[ERROR\]\s?(HCC[LP])\([^)]*\):\s*\S+\s*(?:\[[\w.]+:\d+\])?\s*(.*)$"
    r"|(?:^|\W)The error from device(\(.*)$"
    r"|((?:Failed to bind the IP port|The network port is down)\b.*)$"
    r"|\[ERROR\]\s?([A-Z]+)\([^)]*\):.*?\"?((?:ModuleNotFoundError|ImportError): .*?)\"?$"
    r"|(Set visible device failed, invalid device=\d+.*)$"
    r"|\[E\d{3,4} [\d:.]+ \S+\.cpp:\d+\] \[c10d\] (.*)$"
)


# A C/C++ compiler stopping on a header it cannot find: gcc ("x.c:5:10: fatal error: Python.h: No such file or directory"),
# clang and CANN's bisheng/ccec ("fatal error: 'kernel_operator.h' file not found"), MSVC ("fatal error C1083: Cannot open
# include file: 'Python.h'"). A source build or a JIT-compiled launcher failed; the header says what is missing.
COMPILER = lazy(r"fatal error(?: C1083)?: (?:'[^']+' file not found|[^\s:']+: No such file or directory|Cannot open include file: '[^']+')")


def component(text: str) -> tuple[str, str] | None:
    if ", but you have " in text:  # pip's resolver stating a version conflict
        from .logversions import pip_conflict

        if pip_conflict(text) is not None:
            return "pip", text.strip()
    if "fatal error" in text and (compiled := COMPILER.search(text)) is not None:
        return "compiler", compiled.group(0)
    m = _component().search(text)
    if m is None:
        return None
    if m.group(1):
        return m.group(1), m.group(2).strip()
    if m.group(3) is not None:
        return "device", f"The error from device{m.group(3)}"
    if m.group(4) is not None:
        return "HCCP", m.group(4).strip()
    if m.group(8) is not None:
        return "c10d", m.group(8).strip()  # torch.distributed's C++ side logging an error (glog "E" level)
    if m.group(7) is not None:
        return "device", m.group(7).strip()  # the runtime refusing a device id
    return m.group(5), m.group(6).strip()  # a CANN component quoting the Python import error it hit


WHAT = lazy(r"^\s*what\(\):\s*(.*)$")
PACKAGE = lazy(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_]\w*)")

# vLLM's multiprocess executor re-raises a worker's failure as text: the worker sends str(e) back and the executor raises
# RuntimeError(f"Worker failed with error '{result}', please check the stack trace above for the root cause")
# (vllm/v1/executor/multiproc_executor.py, get_response). The worker's own traceback is in its process's log, which a
# paste often lacks: the quoted text is then all that says what failed, so it is read as the cause under the wrapper
# (k34pkg). Its type is lost; the forms whose text says it (str() of an AttributeError, a KeyError's quoted key, an import
# failure) get that type back, any other is read as a pasted sentence (Exception).
WORKER_QUOTED = lazy(r"^Worker failed with error '(.+)', please check the stack trace above for the root cause")
QUOTED_TYPES = (
    (lazy(r"^(?:'[\w.]+' object|type object '[\w.]+'|module '[\w.]+') has no attribute '\w+'"), "AttributeError"),
    (lazy(r"^No module named '[\w.]+'"), "ModuleNotFoundError"),
    (lazy(r"^cannot import name '\w+' from '[\w.]+'"), "ImportError"),
    (lazy(r"^'[^'\s]+'$"), "KeyError"),
)


def quoted_cause(message: str) -> tuple[str, str] | None:
    """(type, message) of the worker failure a vLLM executor wrapper quotes, or None (no quote, or an empty one)."""
    m = WORKER_QUOTED.match(message)
    if m is None or not m.group(1).strip():
        return None
    inner = m.group(1).strip()
    return next((t for pattern, t in QUOTED_TYPES if pattern.match(inner)), "Exception"), inner


# torch's BackendCompilerFailed prints the backend's own exception on the line under it: f"backend={name!r} raised:\n
# {type(inner).__name__}: {inner}" (torch/_dynamo/exc.py); that next line is the cause it wraps, not an exception raised
# while handling it.
RAISED_BELOW = lazy(r"^backend='[^']*' raised:$")

# Exceptions that wrap or end a failure rather than cause it.
WRAPPER_TYPES = frozenset((
    "RayTaskError", "RayActorError", "ActorDiedError", "ActorUnavailableError", "WorkerCrashedError",
    "TaskCancelledError", "SystemExit", "KeyboardInterrupt", "InstantiationException", "ConfigCompositionException",
    "EngineDeadError", "EngineGenerateError",
))
# Messages that only report that something underneath failed.
WRAPPER_MESSAGES = lazy(
    r"Failed to load the backend extension|The Inner error is reported as above|Engine core initialization failed"
    r"|EngineCore encountered an issue|Worker failed with error|Error executing job"
    # transformers' lazy import re-raising what an import under it raised (utils/import_utils.py _get_module)
    r"|Failed to import transformers\.[\w.]+ because of the following error"
)


@dataclasses.dataclass(frozen=True)
class Frame:
    path: str
    line: int
    func: str

    @property
    def package(self) -> str | None:
        return package_of(self.path)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" + (f" in {self.func}" if self.func else "")


@dataclasses.dataclass
class Link:
    """One exception (or CANN report, or process death) and where it was printed."""

    kind: str  # python | remote | bare | cann | process | hydra | code | cut (frames whose exception line was cut off)
    type: str
    message: str
    file: str
    line: int
    frames: list[Frame] = dataclasses.field(default_factory=list)
    detail: list[str] = dataclasses.field(default_factory=list)
    codes: list[str] = dataclasses.field(default_factory=list)
    hits: list[str] = dataclasses.field(default_factory=list)  # catalog ids matched on its lines
    text: str = ""  # the line as printed (normalised)
    families: tuple[str, ...] = ()  # families of the catalog entries matched on it (set by the analyzers' driver)
    seq: int = 0  # when the classifier saw it, comparable with catalog hits' order
    inner: str = ""  # for RayTaskError(X): X, the type of the remote exception it carries
    statement: str = ""  # the assert statement printed just above the exception ("assert a % b == 0"), if any
    source: str = ""  # the source line Python printed just above a TypeError / AttributeError / KeyError / ZeroDivisionError / EOFError ("config = uvicorn.Config(app, **kw)")
    lead: str = ""  # in a paste, the person's words before the exception on its own line ("qwen2.5 量化模型，用vllm-ascend跑报错")
    joined: str = ""  # how its traceback followed the one before: "cause" (raise … from) or "context" (raised in a handler)

    @property
    def short_type(self) -> str:
        return self.type.rsplit(".", 1)[-1]

    @property
    def wrapper(self) -> bool:
        if self.kind == "hydra" or self.short_type in WRAPPER_TYPES:
            return True
        return self.kind != "cann" and bool(WRAPPER_MESSAGES.search(self.message))

    @property
    def raiser(self) -> str | None:
        """The package whose code raised: the innermost frame in a package (standard library skipped)."""
        for frame in reversed(self.frames):
            if frame.package:
                return frame.package
            if "/lib/python3" not in frame.path and not frame.path.startswith("<"):
                return None  # user code
        return None

    def add_detail(self, text: str) -> None:
        if len(self.detail) < MAX_DETAIL:
            self.detail.append(text[:300])


@dataclasses.dataclass
class Chain:
    """Links in cause order: ``links[0]`` is the deepest cause printed, wrappers come after."""

    file: str
    links: list[Link] = dataclasses.field(default_factory=list)
    count: int = 1
    tail: int = 0  # last line of its last occurrence

    @property
    def first_line(self) -> int:
        return min(link.line for link in self.links)

    @property
    def last_line(self) -> int:
        return max(link.line for link in self.links)

    def root(self) -> Link:
        """The most specific link: the first that is not a wrapper (CANN reports count)."""
        return next((link for link in self.links if not link.wrapper), self.links[0])

    def key(self) -> tuple:
        root = self.root()
        return (root.type, re.sub(r"\d+", "N", root.message[:160]), str(root.frames[-1]) if root.frames else "")


def package_of(path: str) -> str | None:
    """Top-level package of a frame's file: the folder under site-packages, or verl for a source checkout."""
    m = PACKAGE.search(path)
    if m:
        return m.group(1)
    for name in ("verl", "vllm_ascend", "vllm", "torch_npu"):
        if f"/{name}/" in path:
            return name
    return None


class ChainTracker:
    """The chain being printed by one writer; hands back each chain once it is complete."""

    def __init__(self, file: str):
        self.file = file
        self.chain: Chain | None = None
        self.frames: deque[Frame] | None = None  # inside a traceback: its frames so far
        self.join: str | None = None  # how the next traceback relates: cause | context | hydra | remote
        self.last = -(10**9)  # line number of the last chain event
        self.current: Link | None = None  # the link later lines (CANN, ERR tag, what()) attach to
        self.anchor: Link | None = None  # the exception CANN lines explain
        self.named = ""  # the type an IPython traceback header named, until its exception line comes
        self.raising: tuple[str, str, list[str]] | None = None  # a raise statement shown under the last frame
        self.seq = 0  # the classifier's order at this writer's last traceback line: where a cut traceback ranks
        self.asserting: tuple[int, str, list[str]] | None = None  # an assert statement just printed: (line, condition, hits)
        # Lines with codes (or ACL's "[Error]: …" description) printed before any link opened — torch_npu's
        # "NPU warning, error code is 507010[Error]:" then "[Error]: The task scheduler loses the heartbeat."
        # above the CANN report they belong to. The next CANN link within JOIN_GAP lines takes them.
        self.pending: deque[tuple[int, str, list[str]]] = deque(maxlen=4)
        self.joined = ""  # the cause / context marker the traceback being printed followed

    # Each method returns a finished chain when the line starts a new one.
    def traceback(self, number: int, named: str = "") -> Chain | None:
        done = None
        if self.chain is None or not self.join:
            done = self._close()
            self.chain = Chain(self.file)
        self.named, self.raising, self.asserting = named, None, None
        self.frames = deque(maxlen=MAX_FRAMES)
        self.joined = self.join if self.join in ("cause", "context") else ""
        self.join = self.join if self.join in ("hydra", "remote") else None
        self.last = number
        return done

    def frame(self, m: re.Match, number: int) -> Chain | None:
        done = None
        if self.frames is None and self.join != "remote":
            done = self.traceback(number)  # a paste that starts mid-traceback: the header was cut off
        if self.frames is None:
            self.frames = deque(maxlen=MAX_FRAMES)
        if self.frames is not None:
            self.frames.append(Frame(m.group(1), int(m.group(2)), m.group(3) or ""))
            self.last = number
        return done

    def raise_statement(self, m: re.Match, number: int, hits: list[str]) -> None:
        """``raise X("…")`` under a frame: what the exception will be, should the paste stop before it."""
        if self.frames is not None:
            self.raising = (m.group(1), m.group(3), hits)
            self.last = number

    def assert_statement(self, m: re.Match, number: int, hits: list[str]) -> None:
        """``assert cond`` under a frame (or pasted above a bare AssertionError): the condition the exception is about."""
        self.asserting = (number, m.group(1).strip(), hits)
        if self.frames is not None:
            self.last = number

    def marker(self, how: str, number: int) -> None:
        if self.chain is not None:
            self.join = how
            self.last = number

    def exception(self, m: re.Match, text: str, number: int, hits: list[str]) -> Chain | None:
        exc_type, inner, message = m.group(1), m.group(2), (m.group(3) or "").strip()
        frames = list(self.frames) if self.frames is not None else []
        done = None
        if self.frames is None and not (self.chain is not None and number - self.last <= 2):
            done = self._close()
            self.chain = Chain(self.file)
        kind = "python" if self.frames is not None else "bare"
        if self.join == "remote" and self.frames is not None:
            kind = "remote"
        link = Link(kind, exc_type, message[:300], self.file, number, frames, text=text[:300], inner=inner or "",
                    joined=self.joined if self.frames is not None else "")
        link.hits.extend(hits)
        if self.asserting is not None and 0 < number - self.asserting[0] <= 2:
            link.statement = f"assert {self.asserting[1]}"[:300]
            link.hits.extend(h for h in self.asserting[2] if h not in link.hits)
            if link.short_type == "AssertionError" and not link.message:
                link.message = link.statement  # what Python would have printed had the assert carried a message
        self.asserting = None
        outer = self.chain.links[-1] if self.chain is not None and self.chain.links else None
        if outer is not None and number == self.last + 1 and not frames and RAISED_BELOW.search(outer.message):
            self._under_last(link)  # the backend's own error, printed on the line under the wrapper that names it
        else:
            self._place(link)
        if (quoted := quoted_cause(link.message)) is not None:
            self._under_last(Link("bare", quoted[0], quoted[1][:300], self.file, number, text=text[:300]))  # the worker's failure it quotes
        self.frames, self.named, self.raising, self.joined = None, "", None, ""
        # Ray's wrapper carries the remote traceback in the lines that follow it.
        self.join = "remote" if inner is not None and link.short_type == "RayTaskError" else None
        self.current = self.anchor = link
        self.last = number
        return done

    def hydra(self, text: str, number: int, hits: list[str]) -> Chain | None:
        done = self._close()
        self.chain = Chain(self.file)
        link = Link("hydra", "hydra.errors.JobFailure", text[:300], self.file, number, text=text[:300])
        link.hits.extend(hits)
        self.chain.links.append(link)
        self.join, self.last, self.current, self.anchor = "hydra", number, link, None
        return done

    def cann(self, code: str, message: str, text: str, number: int, hits: list[str]) -> Chain | None:
        """An ``EZ9999: …`` style line: a CANN report explaining the exception printed just above it."""
        done = None
        current = self.current
        fresh = [h for h in hits if current is None or h not in current.hits]
        if current is not None and current.kind == "cann" and number - self.last <= CANN_GAP and fresh and current.hits and self.chain is not None:
            # A later CANN line that a catalog entry recognises explains the head line above it
            # ("call aclnnX failed, detail: EZ9999" then "… there is an aicore error exception").
            link = Link("cann", code, message[:300], self.file, number, codes=[code], text=text[:300])
            link.hits.extend(hits)
            links = self.chain.links
            links.insert(links.index(current) if current in links else 0, link)
            self.current, self.last = link, number
            return None
        if current is not None and current.kind == "cann" and number - self.last <= CANN_GAP:
            current.add_detail(text)
            if code not in current.codes and len(current.codes) < MAX_CODES:
                current.codes.append(code)
            current.hits.extend(h for h in hits if h not in current.hits)
            if current.message.rstrip("!. ").endswith("Inner Error") and message and code == current.type:
                current.message = message[:300]  # "EZ9999: Inner Error!" is followed by the real text
            self.last = number
            return None
        if current is not None and current.kind == "code" and self.chain is not None and self.chain.links == [current] and number - self.last <= JOIN_GAP:
            # An ACL code line taken for a failure of its own ("… NPU function error: …, error code is 107000") opened the
            # CANN report that follows: it becomes that report's first lines, as a code line printed before any link does.
            self.pending.extend((number - 1, line, list(current.codes)) for line in (current.text, *current.detail))
            self.chain.links.clear()
            self.current = self.anchor = None
        if self.chain is None or number - self.last > CANN_GAP:
            done = self._close()
            self.chain = Chain(self.file)
            self.anchor = None
        link = Link("cann", code, message[:300], self.file, number, codes=[code], text=text[:300])
        link.hits.extend(hits)
        for at, before, codes in self.pending:
            if 0 < number - at <= JOIN_GAP:
                link.add_detail(before)
                link.codes.extend(c for c in codes if c not in link.codes)
        del link.codes[MAX_CODES:]
        self.pending.clear()
        anchor = self.anchor if self.anchor is not None and self.anchor in self.chain.links else None
        if anchor is not None:
            self.chain.links.insert(self.chain.links.index(anchor), link)  # the cause of the exception above
        elif len(self.chain.links) < MAX_LINKS:
            self.chain.links.append(link)
        self.current = link
        self.last = number
        return done

    def process(self, kind_text: str, message: str, text: str, number: int, hits: list[str]) -> Chain | None:
        """A process-level death (C++ terminate, fatal signal, HCCL watchdog): fatal without a traceback."""
        done = None
        if self.chain is None or number - self.last > JOIN_GAP:
            done = self._close()
            self.chain = Chain(self.file)
        link = Link("process", kind_text, message[:300], self.file, number, text=text[:300])
        link.hits.extend(hits)
        self._place(link)
        self.current, self.anchor, self.last = link, link, number
        return done

    def near(self, number: int) -> bool:
        """Is a link open that a line this close belongs to?"""
        return self.current is not None and number - self.last <= CANN_GAP

    def coded(self, code: str, text: str, number: int, hits: list[str]) -> Chain | None:
        """A line that reports a failure by its code only (``dcmi … failed. ret is -8005``)."""
        done = self._close()
        self.chain = Chain(self.file)
        link = Link("code", code, text[:300], self.file, number, codes=[code], text=text[:300])
        link.hits.extend(hits)
        # The coded lines just above it, held back for want of a link (the runtime's own EE line before its ACL code:
        # "BinaryGetFunctionByEntry: … ErrorCode=EE1011." then "rtsFuncGetByEntry:ErrCode=107000"), are its report too.
        for at, before, codes in self.pending:
            if 0 < number - at <= JOIN_GAP:
                link.add_detail(before)
                link.codes.extend(c for c in codes if c not in link.codes)
        del link.codes[MAX_CODES:]
        self.pending.clear()
        self.chain.links.append(link)
        self.current, self.anchor, self.last = link, link, number
        return done

    def attach(self, text: str, number: int, hits: list[str], codes: list[str]) -> None:
        """A line inside a failure's output (ERR tag, ``what():``, error codes): add it to the current link."""
        link = self.current
        if link is None or number - self.last > CANN_GAP:
            if codes or text.startswith("[Error]:"):
                self.pending.append((number, text, list(codes)))
            return
        if link.kind == "process" and not link.message:
            what = WHAT.match(text)
            if what:
                link.message = what.group(1)[:300]
        link.add_detail(text)
        link.hits.extend(h for h in hits if h not in link.hits)
        for code in codes:
            if code not in link.codes and len(link.codes) < MAX_CODES:
                link.codes.append(code)
        self.last = number

    def close(self) -> Chain | None:
        return self._close()

    # ---- internals ---------------------------------------------------------------------
    def _under_last(self, cause: Link) -> None:
        """Place ``cause`` as the cause of the chain's last link (a wrapper that carries it; Python's order: causes first)."""
        assert self.chain is not None
        self.chain.links.insert(len(self.chain.links) - 1, cause)

    def _place(self, link: Link) -> None:
        assert self.chain is not None
        links = self.chain.links
        if len(links) >= MAX_LINKS:
            links.pop(len(links) // 2)  # keep the deepest cause and the outermost wrappers
        if link.kind == "remote":
            wrapper = next((i for i in range(len(links) - 1, -1, -1) if links[i].short_type == "RayTaskError"), None)
            if wrapper is not None:
                links.insert(wrapper, link)
                return
        # Python prints causes first: a new exception wraps what came before, but stays inside Hydra's wrapper.
        if links and links[-1].kind == "hydra":
            links.insert(len(links) - 1, link)
        else:
            links.append(link)

    def _close(self) -> Chain | None:
        if self.chain is not None and self.join == "remote" and self.frames:
            # A Ray wrapper whose remote traceback was cut off before its last line: the frames and
            # the type in RayTaskError(X) still say what raised where.
            wrapper = next((link for link in reversed(self.chain.links) if link.inner), None)
            if wrapper is not None:
                frames = list(self.frames)
                self._place(Link("remote", wrapper.inner, "", self.file, wrapper.line, frames, text=wrapper.text, seq=wrapper.seq))
        elif self.chain is not None and (self.frames or self.named) and self.join != "remote":
            # A paste that ends (or moves on) inside a traceback: no exception line, but the frames say
            # which package was running — enough for an analyzer that reads frames — and an IPython
            # header may have named the type.
            frames = list(self.frames or ())
            text = f'File "{frames[-1].path}", line {frames[-1].line}' if frames else f"{self.named}  {TRACEBACK}"
            exc_type, message, hits = self.raising or (self.named, "", [])
            link = Link("cut", exc_type, message[:300], self.file, self.last, frames, text=text, seq=self.seq)
            link.hits.extend(hits)
            self._place(link)
        chain, self.chain = self.chain, None
        self.frames, self.join, self.current, self.anchor, self.named, self.raising = None, None, None, None, "", None
        return chain if chain is not None and chain.links else None
