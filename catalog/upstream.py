"""Known upstream bugs: match a pasted error line against fixes mined from upstream git history.

The data file (``data/upstream_fixes.json``) is written by ``tools/mine_upstream_fixes.py``
from the history of vllm-ascend, verl and Ascend/pytorch (torch_npu): one entry per fix
commit whose message quotes a concrete error line. This module turns a log line into the
same message *template* the miner stored (numbers, paths, addresses, quoted values masked
to ``<*>``), finds the entries whose template matches, ranks them by how specific the match
is, and says whether the user's version already contains the fix.

Both the miner and the matcher use :func:`extract_errors` and :func:`template_of` from here,
so a line is normalised the same way at build time and at match time. Light by design: only
``json``, ``re`` and ``packaging``; the data file loads on first use.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from itertools import islice
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping

from .logversions import LogVersions, Stated, import_name
from .normalize import strip_escapes_text
from ..lazyre import lazy

if TYPE_CHECKING:
    from packaging.version import Version

DATA_FILE = Path(__file__).with_name("data") / "upstream_fixes.json"
WILD = "<*>"

# ---------------------------------------------------------------- normalisation

# An exception line: an optionally dotted name ending in Error/Exception/... and ": message".
_EXC = lazy(
    r"(?<![\w.])((?:[A-Za-z_]\w*\.){0,6}[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failure))"
    r"(?:\([^)]{0,80}\))?: +(\S.*)")
# ACL return codes after "error code" (507035 ...).
_ACL = lazy(r"\b(?:error ?code|ret(?:urn)? ?code)\s*(?:is|=|:)?\s*(?:\[)?([1-5]\d{5})\b", re.I)

_QUOTED = lazy(r"(?<![\w])(?:'([^'\n]{0,200})'|\"([^\"\n]{0,200})\"|`([^`\n]{0,200})`)(?![\w])")
_URL = lazy(r"\b[a-z][a-z0-9+.-]*://[^\s'\"()<>\]`]+")
# Absolute paths, relative paths of 3+ parts or with a file extension; "sending/receiving" stays.
_PATH = lazy(r"(?:~|\.{1,2})?(?:/[\w.@+-]+){2,}/?|\b[\w.@+-]+(?:/[\w.@+-]+){2,}/?"
                   r"|\b[\w.@+-]+/[\w@+-]+\.[A-Za-z]\w{0,7}\b|[A-Za-z]:\\\S+")
_HEX = lazy(r"\b0x[0-9a-fA-F]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b")
# Numbers, except CANN/ACL codes right after "code" and DCMI / tiling return codes after "ret is", which are the stable
# part of the message.
_NUM = lazy(r"(?<!code )(?<!code: )(?<!code is )(?<!ret is )(?<!ret is -)(?<![\w.])[-+]?\d+(?:\.\d+)*(?:e[-+]?\d+)?")
_RUNS = lazy(r"<\*>(?:[\s,;:x*()\[\]./_=-]*<\*>)+")
_WS = lazy(r"\s+")
_CUT = lazy(r"[，。；）]|<br>|\s{2,}[#(]|\*\*")
_CLOSING = {'"': '"', "'": "'", "“": "”", "‘": "’"}
# A code that starts an error message: EZ9999: ..., EE9999[PID ...], ERR99999 UNKNOWN ...
_CODE_LINE = lazy(r"(?<![\w])(?:E[A-Z]\d{4}|ERR\d{5})(?=[:\[(]| [A-Z]{3,} )")  # where a message quoted inside prose or an HTML table ends
_WORD = lazy(r"[A-Za-z_][A-Za-z0-9_]{3,}")

MAX_TEMPLATE = 220


def strip_escapes(line: str) -> str:
    """Remove terminal colour escapes in every form logs carry them (raw, #033[, ^[[): explain's own normalisation."""
    return strip_escapes_text(line)


def template_of(message: str) -> tuple[str, list[str]]:
    """Mask the variable parts of one error message; return (template, masked quoted values).

    The quoted values (identifiers, keys, module names) are kept aside: they are not part of
    the template, but agreeing on them makes a match more specific.
    """
    args: list[str] = []

    def _q(m: re.Match[str]) -> str:
        args.append(next(g for g in m.groups() if g is not None))
        return WILD

    t = strip_escapes(message).strip()
    t = _QUOTED.sub(_q, t)
    t = _URL.sub(WILD, t)
    t = _PATH.sub(WILD, t)
    t = _HEX.sub(WILD, t)
    t = _NUM.sub(WILD, t)
    t = _RUNS.sub(WILD, t)
    t = _WS.sub(" ", t).strip()
    if len(t) > MAX_TEMPLATE:
        t = t[:MAX_TEMPLATE].rsplit(" ", 1)[0]
    return t, args


def literal_len(template: str) -> int:
    """Characters of stable text in a template (what makes a match specific)."""
    return sum(len(p.strip()) for p in template.split(WILD))


def extract_errors(line: str) -> list[str]:
    """The error messages one line carries, from the exception name (or code) on.

    ``ImportError: cannot import name 'x' from 'y'`` → itself; a prefixed log line
    (``(WorkerDict pid=12) [rank0]: RuntimeError: ...``) → the part from ``RuntimeError``.
    A CANN / ACL code line without an exception name counts too.
    """
    line = strip_escapes(line).rstrip()
    out: list[str] = []
    m = _EXC.search(line)
    if m:
        msg = line[m.start():].strip()
        before = line[:m.start()].rstrip()
        if line.count("`", 0, m.start()) % 2:      # quoted inline in markdown: stop at the closing `
            msg = msg.split("`", 1)[0]
        elif before[-1:] in _CLOSING:              # "ValueError: x" cause ...: stop at the closing quote
            msg = msg.split(_CLOSING[before[-1]], 1)[0]
        msg = _CUT.split(msg, 1)[0].rstrip(" .`*")
        for q in "\"'":                       # a quote left open by the surrounding prose
            if msg.endswith(q) and msg.count(q) % 2:
                msg = msg[:-1].rstrip(" .")
        out.append(msg)
    else:
        s = line.strip()
        c = _CODE_LINE.search(s) or _ACL.search(s)
        # Drop a leading log prefix ("[ERROR] 2025-01-01-12:00:00.123.456 " etc.) up to the code.
        if c and c.start() < 80:
            out.append(_CUT.split(s[c.start():], 1)[0].rstrip(" .*"))
    return out


def is_concrete(template: str) -> bool:
    """A template names a failure only if it has real words beyond the exception name."""
    head, _, rest = template.partition(": ")
    body = rest if rest else head
    words = [w for w in _WORD.findall(body) if w.lower() not in _FILLER]
    return literal_len(body) >= 12 and (len(words) >= 2 or any(len(w) >= 12 for w in words))


# Messages CPython / PyTorch raise for countless different bugs: alone they name no fix, so a
# match on one needs support (a traceback frame or changed file in common, or the same quoted
# values on an exact template).
_GENERIC = lazy(
    r"too many values to unpack|not enough values to unpack|is not subscriptable|is not iterable|"
    r"is not callable|is not an iterator|has no attribute|not supported between instances|"
    r"unsupported operand type|index out of range|must match the size of tensor|expanded size of the tensor|"
    r"is invalid for input of size|Sizes of tensors must match|could not broadcast|non-empty list of Tensors|"
    r"positional argument|unexpected keyword argument|substring not found|No module named|"
    r"cannot import name|object of type .* has no len|division by zero|Expected all tensors to be on the same device|"
    r"shape mismatch|size mismatch|dimension out of range|can't convert|received an invalid combination of arguments|"
    r"not JSON serializable|out of memory", re.I)


# Quoted values that say nothing about which code failed ('NoneType' object is not subscriptable).
_BUILTIN_TYPES = {"NoneType", "int", "str", "list", "dict", "tuple", "float", "bool", "object",
                  "function", "module", "bytes", "set", "type", "method", "builtin_function_or_method"}


def is_generic(template: str) -> bool:
    """A built-in-style message (unpack, subscript, shape mismatch ...) that many bugs raise."""
    return bool(_GENERIC.search(template))


_FILLER = {"error", "errors", "failed", "exception", "with", "from", "that", "this", "none",
           "true", "false", "result", "assert", "inner"}

# ---------------------------------------------------------------- versions

def _version(text: str | None) -> Version | None:
    if not text:
        return None
    from packaging.version import InvalidVersion, Version  # only for a verdict on a version that is known

    try:
        return Version(text.lstrip("vV"))
    except InvalidVersion:
        return None


def release_line(package: str, version: Version) -> str:
    """The release branch a version belongs to: 0.11 for vllm-ascend/verl, 2.5.1 for torch_npu."""
    n = 3 if package == "torch-npu" else 2
    return ".".join(str(x) for x in (version.release + (0, 0, 0))[:n])


def _line_key(line: str) -> tuple[int, ...]:
    return tuple(int(x) for x in line.split("."))

# ---------------------------------------------------------------- data


@dataclass
class UpstreamFix:
    """One mined upstream fix, and (after matching) why it matched and the version verdict."""

    repo: str
    package: str
    pr: int | None
    link: str
    commit: str
    date: str
    subject: str
    tag_first_fixed: str | None
    fixed_in: dict[str, list[str]]
    template: str
    raw_example: str
    args: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    workaround: str | None = None
    issues: list[int] = field(default_factory=list)
    # Filled by match():
    score: float = 0.0
    matched_line: str = ""
    evidence: list[str] = field(default_factory=list)
    user_version: str | None = None
    version_from: str = ""  # given (installed, passed in) | log (a version line the log prints) | "" (not known)
    version_line: str = ""  # with version_from "log": the line that states it
    verdict: str = "unknown"      # has-fix | lacks-fix | unknown | unreleased
    verdict_reason: str = ""

    def to_json(self) -> dict:
        return asdict(self)


@lru_cache(maxsize=4)
def _load(path: str) -> tuple[list[dict], dict[str, list[int]], dict[str, list[int]]]:
    """Entries, plus two indexes: exact template → entries; longest literal word → entries."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    entries = data["entries"]
    by_template: dict[str, list[int]] = {}
    by_word: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        by_template.setdefault(e["template"], []).append(i)
        by_word.setdefault(_anchor_word(e["template"]), []).append(i)
    return entries, by_template, by_word


def _anchor_word(template: str) -> str:
    """The longest literal word of a template: every matching line must contain it."""
    words = [w for part in template.split(WILD) for w in _WORD.findall(part)]
    return max(words, key=len).lower() if words else ""


def _glob_match(template: str, text: str) -> bool:
    """Match a template whose only operator is <*> (any text) against text, in linear time.

    Leftmost placement of each literal piece in order is a correct strategy for patterns made
    of literals and `.*` only, so no regex backtracking is needed. The template may start or
    end anywhere in the text (a log prefix before it, a truncated paste after it is handled
    by the caller).
    """
    pos = 0
    for piece in template.split(WILD):
        piece = piece.strip()
        if not piece:
            continue
        j = text.find(piece, pos)
        if j < 0:
            return False
        pos = j + len(piece)
    return True


_FRAME = lazy(r'File "([^"]+)", line \d+, in (\S+)')
_QUICK = lazy(r"Error|Exception|Exit|Interrupt|Failure|ERR\d|E[A-Z]\d{4}|error|code")
try:  # google-re2 (a core dependency) scans a block in linear time; `re` gives the same answer
    import re2 as _re2
    _ANY = _re2.compile(_QUICK.pattern + r"|ascend|verl|npu|File \"")
except ImportError:  # pragma: no cover
    _ANY = re.compile(_QUICK.pattern + r"|ascend|verl|npu|File \"")


def frame_key(path: str, func: str | None = None) -> str:
    """A frame as 'dir/file.py:func' (its last two path parts)."""
    p = path.replace("\\", "/")
    for marker in ("site-packages/", "dist-packages/"):
        if marker in p:
            p = p.split(marker, 1)[1]
            break
    p = "/".join(p.split("/")[-2:])   # dir/file.py: the same for a checkout and an install
    return f"{p}:{func}" if func else p


def _basename(p: str) -> str:
    return p.split(":")[0].rsplit("/", 1)[-1]


def match(lines: Iterable[str], versions: Mapping[str, str] | None = None,
          data_file: str | Path | None = None, limit: int = 5, log_versions: Mapping[str, str | Stated] | None = None) -> list[UpstreamFix]:
    """Upstream fixes whose error template matches a line of the log, best first.

    ``versions`` maps package → version ({"vllm-ascend": "0.11.0rc1"}): what is installed, when
    known. Versions the log shows fill the gaps — those in ``lines`` and ``log_versions`` (what the
    classifier read in the whole log, by the same reader: catalog/logversions.py) — and the verdict
    then says it read them from the log, and from which line.
    A single pasted line is enough; a log of any size streams.
    """
    if isinstance(lines, str):               # a paste handed over as one string
        lines = lines.splitlines()
    entries, by_template, by_word = _load(str(data_file or DATA_FILE))
    frames: set[str] = set()
    best: dict[int, tuple[float, str, list[str]]] = {}
    seen: set[str] = set()
    reader = LogVersions()
    for line in _interesting(lines):
        reader.read(line)
        if 'File "' in line:
            m = _FRAME.search(line)
            if m:
                frames.add(frame_key(m.group(1), m.group(2)))
        if not _QUICK.search(line):
            continue
        for msg in extract_errors(line):
            tmpl, args = template_of(msg)
            key = tmpl + "\0" + "\0".join(args)
            if key in seen:              # the same error repeated by every rank: read once
                continue
            seen.add(key)
            for i, score, ev in _candidates(entries, by_template, by_word, tmpl, args):
                if score > best.get(i, (-1.0,))[0]:
                    best[i] = (score, line.strip()[:300], ev)
    stated = dict(reader.stated)
    for k, v in (log_versions or {}).items():
        v = Stated(v, "") if isinstance(v, str) else v
        if v and v.version:
            stated.setdefault(import_name(k), v)
    given = {import_name(k): v for k, v in (versions or {}).items() if v}

    # Frames seen anywhere in the log raise the entries whose fix names them.
    frame_files = {_basename(f) for f in frames}
    for i, (score, line, ev) in list(best.items()):
        e = entries[i]
        ff = [f for f in e.get("frames", []) if f in frames] or \
             [f for f in e.get("frames", []) + e.get("files", []) if _basename(f) in frame_files]
        if ff:
            best[i] = (score + 15.0 + 5.0 * min(len(ff), 4), line,
                       [x for x in ev if x != "needs support"] + ["frames/files in common: " + ", ".join(ff[:3])])
        elif "needs support" in ev:
            del best[i]          # a generic message with nothing else in common: not this fix

    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:limit]
    out = []
    for i, (score, line, ev) in ranked:
        e = entries[i]
        fix = UpstreamFix(**{k: e.get(k) for k in _FIELDS if k in e})
        fix.score, fix.matched_line, fix.evidence = round(score, 1), line, ev
        name = import_name(fix.package)
        if name in given:
            fix.user_version, fix.version_from = given[name], "given"
        elif name in stated:
            fix.user_version, fix.version_line = stated[name]
            fix.version_from = "log"
        fix.verdict, fix.verdict_reason = verdict(fix.package, fix.fixed_in, fix.user_version)
        out.append(fix)
    return out


def _interesting(lines: Iterable[str], block: int = 4096) -> Iterator[str]:
    """Only the lines that may hold an error, a version or a frame.

    Blocks of lines are joined and scanned once (RE2 when installed: linear time); each hit
    yields its whole line, once. A log of healthy lines costs one scan.
    """
    it = iter(lines)
    while True:
        chunk = list(islice(it, block))
        if not chunk:
            return
        text = "\n".join(chunk)
        end = -1
        for m in _ANY.finditer(text):
            if m.start() <= end:
                continue                      # another hit in a line already given
            start = text.rfind("\n", 0, m.start()) + 1
            end = text.find("\n", m.start())
            end = len(text) if end < 0 else end
            yield text[start:end]


def _candidates(entries: list[dict], by_template: dict, by_word: dict, tmpl: str, args: list[str]):
    """(entry index, score, evidence) for every entry one error message matches."""
    cands = set(by_template.get(tmpl, ()))
    exact = set(cands)
    for w in {w.lower() for w in _WORD.findall(tmpl)}:
        cands.update(by_word.get(w, ()))
    qlit = literal_len(tmpl)
    if qlit >= 25:
        # A paste cut short: the first words of a known message, at least 25 characters.
        cands.update(i for i, e in enumerate(entries) if e["template"].startswith(tmpl))
    for i in cands:
        e = entries[i]
        if i in exact:
            lit, how = literal_len(e["template"]), "same template"
            score = lit + 25.0
        elif _glob_match(e["template"], tmpl):
            lit, how = literal_len(e["template"]), "template matches"
            score = float(lit)
        elif e["template"].startswith(tmpl):
            lit, how = qlit, "start of the template (the paste looks cut short)"
            score = lit - 5.0
        else:
            continue
        ev = [f"{how}: {e['template']}"]
        want = e.get("args") or []
        shared = [a for a in want if a in args]
        if not is_concrete(e["template"]) and i not in exact:
            continue            # "KeyError: <*>", "TypeError: <*> object": only the exact message
        if lit < 40 or not is_concrete(e["template"]):
            # Few words: only the same quoted values (module, key, attribute) make it this bug.
            if (want and len(set(shared)) < len(set(want))) or (not want and lit < 20):
                continue
        if shared:
            score += 10.0 * len(shared) + sum(len(a) for a in shared) / 4
            ev.append("same quoted value(s): " + ", ".join(shared[:3]))
        elif want and args:
            score -= 10.0
        specific = [a for a in want if a not in _BUILTIN_TYPES]
        if is_generic(e["template"]) and not (i in exact and specific and sorted(want) == sorted(args)):
            ev.append("needs support")   # dropped by match() unless frames/files agree
        yield i, score, ev


_FIELDS = ("repo", "package", "pr", "link", "commit", "date", "subject", "tag_first_fixed",
           "fixed_in", "template", "raw_example", "args", "frames", "files", "workaround", "issues")


def verdict(package: str, fixed_in: Mapping[str, list[str]], user: str | None) -> tuple[str, str]:
    """Does version `user` contain a fix released as `fixed_in` ({line: [tag, version]})?

    Same release line as a fixing tag → compare versions. A line newer than every line that
    got the fix → has it (lines branch from main after the fix). Older, or an in-between line
    the fix was not backported to → lacks it, as far as the tags show.
    """
    if not fixed_in:
        return "unreleased", "no release tag contained the fix when the index was built"
    uv = _version(user)
    if uv is None:
        return "unknown", f"{package} version not known (pass it, or paste `pip list`)"
    line = release_line(package, uv)
    if line in fixed_in:
        tag, ver = fixed_in[line]
        v = _version(ver)
        if v is not None and uv >= v:
            return "has-fix", f"{package} {user} >= {ver} ({tag})"
        return "lacks-fix", f"{package} {user} < {ver} ({tag})"
    keys = sorted(fixed_in, key=_line_key)
    first_tag, first_ver = fixed_in[keys[0]]
    if _line_key(line) > _line_key(keys[-1]):
        return "has-fix", f"{package} {line}.x is newer than every release line with the fix (first: {first_tag})"
    return "lacks-fix", (f"{package} {user}: release line {line} has no tag with the fix "
                         f"(first fixed in {first_tag}; lines with it: {', '.join(keys)})")


def render_lines(fix: UpstreamFix) -> list[str]:
    """Plain-text lines for one fix, for the plain renderer."""
    ref = f"PR #{fix.pr}" if fix.pr else f"commit {fix.commit[:10]}"
    where = f"fixed in {fix.tag_first_fixed}" if fix.tag_first_fixed else "fixed on main (not yet in a release tag)"
    head = f"Known upstream bug ({fix.repo}): {where} by {ref} — {fix.link}"
    out = [head, f"  fix: {fix.subject}", f"  matches: {fix.template}"]
    if fix.version_from == "log" and fix.verdict in ("has-fix", "lacks-fix"):
        shown = f"your log shows {fix.package} {fix.user_version}"
        v = f"{shown}: this fix is in it" if fix.verdict == "has-fix" else f"{shown}: this fix is not in it: upgrade"
    else:
        v = {"has-fix": "your version has the fix", "lacks-fix": "your version lacks the fix: upgrade",
             "unreleased": "not released yet: build from main or apply the workaround",
             "unknown": "version unknown"}[fix.verdict]
    out.append(f"  {v} — {fix.verdict_reason}")
    if fix.version_from == "log" and fix.version_line:
        out.append(f"  version read from: {fix.version_line}")
    if fix.workaround:
        out.append(f"  workaround (from the PR): {fix.workaround}")
    if fix.issues:
        base = fix.link.rsplit("/", 2)[0]
        out.append("  reported in: " + ", ".join(f"{base}/issues/{n}" for n in fix.issues))
    return out


def to_json(fixes: Iterable[UpstreamFix]) -> list[dict]:
    """JSON-ready list for `explain --json`."""
    return [f.to_json() for f in fixes]
