"""Normalise log text before matching: colour escapes in every spelling, and the prefixes log shippers add.

A pasted log has rarely been copied straight from the terminal. journald and syslog write the ESC
byte as ``#033``, ``cat -v`` and some pagers as ``^[``, JSON log drivers as ``\\u001b``; Docker,
kubectl, containerd, syslog and torch's launchers put timestamps, pod names and ``[rankN]:`` in
front of every line. Signatures are written against what the program printed, so all of that is
removed first. The ESC byte is removed from whole blocks (cheap when absent); spelled-out escapes and
prefixes only from the few candidate lines the classifier looks at.
"""

from __future__ import annotations

import re

# The escape sequence itself (CSI ... final byte) after the ESC byte, and after its printable spellings.
ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")  # a literal prefix: fast on the common case
SPELLED = re.compile(r"(?:#033|\^\[|\\x1[bB]|\\033|\\e|\\u001[bB])\[[0-9;?]*[ -/]*[@-~]")

_TS = r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
_SYSLOG_TS = r"[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?"
# One prefix at a time, tried repeatedly (a container timestamp before a syslog header, and so on).
PREFIX = re.compile(
    "|".join(
        (
            # syslog / journald / rsyslog: "<ts> <host> <program>[pid]: ". A host or program has no ':', and after an
            # ISO timestamp the [pid] is required, so a container timestamp before "ImportError: libx.so: …" or
            # "fatal error: …" is not read as one.
            rf"(?:<\d+>)?(?:{_SYSLOG_TS} [\w.-]+ [\w./@-]+(?:\[\d+\])?|{_TS} [\w.-]+ [\w./@-]+\[\d+\]): ",
            rf"{_TS} (?:stdout|stderr) [FP] ",  # containerd / CRI-O log files
            rf"\[?{_TS}\]?:? ",  # docker/kubectl --timestamps, bracketed timestamps
            r"\[pod/[^\]\s]+/[^\]\s]+\] ",  # kubectl logs --prefix
            r"[\w.-]+\s*\| ",  # docker compose service column
            # vLLM's logger, ERROR level only: an exception text in an INFO/WARNING line was handled
            # (older releases: "ERROR 03-18 09:23:40 config.py:102] "; 2026 builds: "ERROR 08-13 11:28:36 (multiproc_executor.py:1004) ",
            # vllm-ascend#14166; with the year and milliseconds: "ERROR 2025-10-25 15:32:13.272 [multiproc_executor.py:597] ",
            # vllm-ascend#3785)
            r"(?:ERROR|CRITICAL) (?:\d{4}-)?\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? (?:\[[^\]\s]+\]|[\w.]+:\d+\]|\([\w.]+:\d+\)) ",
            # vLLM's logger trimmed to its location tag ("[core.py:710] "), level and date cut off by the paster
            # (verl-project/verl#4504): only before a traceback's own lines, whose exception line ends the story. The
            # older unbracketed tag of vLLM <= 0.7's format ("worker_base.py:572] ", vllm-ascend#183: a Ray worker's
            # logger.exception lines, repeated across the cluster) also before the source lines and the exception line,
            # which would otherwise leave its traceback without an end
            r"\[[\w.]+\.py:\d+\] (?=Traceback \(most recent call last\)|\s+File \")",
            r"[a-z_][\w.]*\.py:\d+\] (?=Traceback \(most recent call last\)|\s+File \"|\s{4}\S|[A-Za-z_][\w.]*(?:Error|Exception): )",
            # Python logging's "%(asctime)s - %(name)s - %(levelname)s - " after its timestamp, ERROR level only, with
            # or without a "%(filename)s:%(lineno)d - " field (lmdeploy's logger: InternLM/lmdeploy#2722)
            r"- [\w.]+ - (?:ERROR|CRITICAL) - (?:[\w.]+:\d+ - )?",
            # a reply on GitHub quoting an earlier paste ("> Traceback …", "> > …"); not a REPL prompt (">>> ")
            r"(?:>(?: |$))+",
            # `cat -n` / `nl` / an editor's numbered copy: the line number, then a TAB
            r"\d{1,7}\t",
            # `grep -rn` over log files ("plog/plog-1.log:4567:", a context line "worker.err-12-")
            r"[\w./~-]+\.(?:log|txt|out|err)(?:\.\d+)?(?::\d+:|-\d+-)",
            # pytest's report of the exception that failed a test ("E           RuntimeError: …")
            r"E {3,}",
            # Markdown emphasis markers left in front of a pasted line ("**RuntimeError: …**", or "****" from an empty
            # bold pair in an issue body); not glog's "*** SIGSEGV …", whose stars are followed by a space
            r"\*{2,}(?=[^\s*])",
        )
    )
)
# torch's "[rankN]:", and vLLM-Omni's "[Stage-N] " in front of every line a pipeline stage's worker prints.
RANK = re.compile(r"\[(?:rank|default)\d+\]:\s?|\[Stage-\d+\] ")
# Ray's "(WorkerDict pid=N, ip=X)", vLLM's "(EngineCore_DP0 pid=N)", "(VllmWorker rank=0 pid=N)" and, in vLLM 0.10's
# multiproc executor, "(VllmWorker TP0 pid=N)" (the rank a word of its own, as vllm-ascend's and vLLM's threads of Aug-Oct 2025
# paste it; later releases write "(Worker_TP0 pid=N)"). A Ray task's
# own name may carry parentheses and slashes when a pid follows it ("(execute_after_dependencies(run_lm)::checkpoints/
# x-1T) pid=N, ip=X)", marin-community/marin#731).
RAY_PREFIX = re.compile(
    r"^(?:\((?:[\w.:<>-]+(?: (?:pid|rank|TP|DP|PP|EP)=\w+| (?:TP|DP|PP|EP)\d+)*|pid=\d+|[\w.:<>/()-]+? pid=\d+)(?:, ip=[0-9a-fA-F.:]+)?\)\s?)+"
)


ESC_PIECE = 256 << 10


def strip_escapes(block: bytes) -> bytes:
    """Remove colour/cursor escapes written as the ESC byte (whole blocks: cheap when there are none).

    A block is cleaned in pieces of about 256 KiB cut after a newline, then joined: twice as fast
    as one pass over 8 MiB (the output of each piece stays in cache), and the same bytes, because
    an escape sequence never holds a newline.
    """
    if b"\x1b" not in block:
        return block
    if len(block) <= ESC_PIECE:
        return b"".join(ANSI.split(block))  # = ANSI.sub(b"", block), a little faster (no capturing group)
    pieces, start, size = [], 0, len(block)
    while start < size:
        cut = block.find(b"\n", start + ESC_PIECE)
        end = size if cut == -1 else cut + 1
        pieces.append(b"".join(ANSI.split(block[start:end])))
        start = end
    return b"".join(pieces)


ANSI_TEXT = re.compile(ANSI.pattern.decode())


def strip_escapes_text(text: str) -> str:
    """One line as text, escapes removed in every form: the ESC byte and the spelled-out ones."""
    if "\x1b" in text:
        text = ANSI_TEXT.sub("", text)
    return strip_spelled(text)


def strip_spelled(text: str) -> str:
    """Remove escapes spelled out in printable characters (``#033[0m``, ``^[[0m``, ``\\x1b[0m``) from one line."""
    if "033[" in text or "^[[" in text or "\\" in text:
        return SPELLED.sub("", text)
    return text


def strip_prefixes(text: str) -> tuple[str, str]:
    """(the line as the program printed it, the prefix that tells concurrent writers apart).

    The second value keeps Ray's ``(WorkerDict pid=N, ip=X)`` and torch's ``[rankN]:`` so that
    interleaved tracebacks from different processes are not mixed up.
    """
    text = strip_spelled(text)
    key = ""
    if text[:1].isspace():  # a paste indented as a whole (a list item, a code block): the prefix after the indent
        bare = text.lstrip()
        if PREFIX.match(bare) or RAY_PREFIX.match(bare) or RANK.match(bare):
            text = bare
    for _ in range(6):  # prefixes nest: a container timestamp, then Ray's, then vLLM's logger, then [rankN]:
        m = PREFIX.match(text)
        if m is None:
            m = RAY_PREFIX.match(text) or RANK.match(text)
            if m is None:
                break
            key += m.group(0).strip()
        text = text[m.end():]
    return text, key


# A log copied as a string: a traceback or a CANN report inside a JSON value ({"detail":"…\n[Error]: …\n"}, an HTTP error
# body, a Ray/serving framework's JSON response) or a Python repr of captured output ('Traceback (most recent call
# last):\n  File …'): its newlines are the two characters backslash and n, so the whole report sits on one line that no
# reader takes apart. Such a line (two escaped newlines at least) is read as the lines it encodes. A JSON log driver's
# line ({"log":"…\n","stream":…}) has one, at its end, and stays as it is; so does a Windows path ("C:\new\node"), and
# a string that some sentence quotes rather than one the line opens with (then it is that sentence's detail).
ESCAPED_NL = re.compile(rb"(?<!\\)(?:\\r)?\\n")
ESCAPED_QUOTE = re.compile(rb"\\([\"'\\/])")
WINDOWS_PATH = re.compile(rb"(?<![\w])[A-Za-z]:\\[\w.$ -]")
# The opener of the string before the first encoded line ('{"detail":"', "b'", a quote), and its closer after the last.
STRING_OPEN = re.compile(rb"^\s*(?:\{\s*\"[\w.-]+\"\s*:\s*|\[\s*|\(\s*)?b?[\"']")
STRING_CLOSE = re.compile(rb"[\"']\s*[}\])]*,?\s*$")
MIN_ESCAPED = 2


def unfold_one_line_reports(block: bytes) -> bytes:
    """``block`` with each line that carries a whole report written out as its lines (unfold_one_line_reports_mapped)."""
    return unfold_one_line_reports_mapped(block)[0]


class UnfoldedLines:
    """Where an unfolded block's lines came from: each escaped line became ``added + 1`` lines from ``first`` on.

    A finding reports the line of the input it was read on, so a line of an unfolded report is reported at the one line
    that carried the whole string, and every line after it at its own number in the input.
    """

    __slots__ = ("groups", "added")

    def __init__(self, groups: list[tuple[int, int]]):
        self.groups = groups  # (index of the first written-out line in the new block, lines added), in order
        self.added = sum(added for _, added in groups)

    def original(self, index: int) -> int:
        """The input's 0-based line index for the new block's line ``index``."""
        shift = 0
        for first, added in self.groups:
            if index < first:
                break
            if index <= first + added:
                return first - shift
            shift += added
        return index - shift


def unfold_one_line_reports_mapped(block: bytes) -> tuple[bytes, UnfoldedLines | None]:
    """``block`` with each line that carries a whole report on one line written out as its lines.

    Two kinds of line: a string with MIN_ESCAPED escaped newlines at least (``\\n``; the quotes the string escaped,
    ``\\"``, ``\\'``, and an escaped backslash come back too, and the string's opener and closer come off), and a
    traceback whose newlines were lost (see FLAT_FRAME). Each then reads as the program printed it. Other lines are
    the same bytes. The map is None when nothing was unfolded (the block comes back as it is).
    """
    # (by line; on a line both readers take, the escaped string's reading comes first and stands)
    found = sorted(_escaped_lines(block) + _flattened_lines(block), key=lambda f: f[0])
    if not found:
        return block, None
    pieces: list[bytes] = []
    groups: list[tuple[int, int]] = []
    done = written = 0  # written: newlines in the pieces so far
    for start, end, unfolded in found:
        if start < done:
            continue
        first = written + block.count(b"\n", done, start)
        added = unfolded.count(b"\n")
        if added:
            groups.append((first, added))
        written = first + added
        pieces += [block[done:start], unfolded]
        done = end
    pieces.append(block[done:])
    return b"".join(pieces), (UnfoldedLines(groups) if groups else None)


def _line_at(block: bytes, hit: int) -> tuple[int, int]:
    """(start, end) of the line of ``block`` that holds offset ``hit``, its newline excluded."""
    start = block.rfind(b"\n", 0, hit) + 1
    end = block.find(b"\n", hit)
    return start, (len(block) if end == -1 else end)


def _escaped_lines(block: bytes) -> list[tuple[int, int, bytes]]:
    """(start, end, the lines it encodes) of each line that is an escaped string of MIN_ESCAPED lines at least."""
    if b"\\n" not in block:
        return []
    found = []
    pos = 0
    while (hit := block.find(b"\\n", pos)) != -1:
        start, end = _line_at(block, hit)
        line = block[start:end]
        pos = end
        if len(ESCAPED_NL.findall(line)) < MIN_ESCAPED or WINDOWS_PATH.search(line) or not STRING_OPEN.match(line):
            continue  # (a repr quoted inside another message, "… an exception occurred : ('…\\n…',)", is that message's detail)
        parts = ESCAPED_NL.split(line)
        parts[0] = STRING_OPEN.sub(b"", parts[0])
        parts[-1] = STRING_CLOSE.sub(b"", parts[-1])
        found.append((start, end, b"\n".join(ESCAPED_QUOTE.sub(rb"\1", p.replace(b"\\t", b"    ")) for p in parts if p.strip())))
    return found


# A traceback whose newlines were lost: an issue title, a web page or a forum post that kept the text but not the line
# breaks ("Traceback (most recent call last): File "/…/main_ppo.py", line 20, in <module> from verl … ImportError: …").
# A frame line as Python prints it ends after the function's name; here code follows on the same line. Such a line is
# read as the traceback's lines when it holds two frames, or the traceback's header and a frame.
FLAT_FRAME = re.compile(rb'File "[^"\n]+", line \d+, in [^\s"]+[ \t]+\S')
FLAT_MARK = re.compile(
    rb"(Traceback \(most recent call last\):"
    rb"|During handling of the above exception, another exception occurred:"
    rb"|The above exception was the direct cause of the following exception:"
    rb'|File "[^"\n]+", line \d+, in [^\s"]+)'
)
# Where the last frame's code ends and the exception line begins: the first exception type after it that is followed by
# its message's colon or ends the text (the type in "raise ValueError(msg)" is followed by its call, and is code).
FLAT_EXCEPTION = re.compile(
    rb"(?:^|\s)((?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt)(?:\([\w.]*\))?)(?=:\s|:$|\s*$)"
)
FLAT_HEAD = b"Traceback (most recent call last):"


def _flattened_lines(block: bytes) -> list[tuple[int, int, bytes]]:
    """(start, end, the traceback's lines) of each line that holds a traceback with its newlines lost."""
    found = []
    pos = 0
    while (m := FLAT_FRAME.search(block, pos)) is not None:
        start, end = _line_at(block, m.start())
        pos = end
        line = block[start:end]
        frames = line.count(b'", line ')
        if frames < 2 and FLAT_HEAD not in line:
            continue
        if (unfolded := _unflatten(line)) is not None:
            found.append((start, end, unfolded))
    return found


def _unflatten(line: bytes) -> bytes | None:
    """The lines a flattened traceback was printed as: any text before it, then each chain marker, frame (its source
    line under it) and exception line on a line of its own."""
    marks = list(FLAT_MARK.finditer(line))
    if not marks:
        return None
    out = [line[: marks[0].start()].rstrip()] if line[: marks[0].start()].strip() else []
    for i, mark in enumerate(marks):
        text = mark.group(1)
        after = line[mark.end(): marks[i + 1].start() if i + 1 < len(marks) else len(line)].strip()
        is_frame = text.startswith(b"File ")
        out.append(b"  " + text if is_frame else text)
        if not after:
            continue
        last_frame = is_frame and (i + 1 == len(marks) or not marks[i + 1].group(1).startswith(b"File "))
        exc = FLAT_EXCEPTION.search(after) if last_frame or not is_frame else None
        code, raised = (after[: exc.start(1)].strip(), after[exc.start(1):]) if exc else (after, b"")
        if code:
            out.append(b"    " + code if is_frame else code)
        if raised:
            out.append(raised)
    return b"\n".join(out)
