"""Read a shell file's effect on the environment without running it.

`fix --script train.sh`, `check --env-file` and `run` need the environment a launch
script or ``.ascendrl/env.sh`` leaves behind. Running the file would start the training
it launches, so it is only read: a small scanner follows bash's grammar for words
(quotes, escapes, ``$(…)``, ``${…}``, comments, heredocs) and commands (``;``, ``&&``,
``||``, ``|``, ``&``, ``if``/loops/``case``/functions/subshells), and an interpreter
applies what it can know for sure: ``export``/``declare -x``/plain assignments at the top
level, ``unset``, ``set -a``, and ``source``/``.`` of files inside the project (the
script's folder tree) or the CANN/NNAL ``set_env.sh`` files under the host root, read as
text too. Prefix assignments (``A=1 cmd``) reach only that command, as in bash.

Whatever it cannot know (``$(…)``, backticks, positional parameters, unset variables,
blocks it does not enter, sources outside the project) comes back in
:attr:`ShellEnv.unresolved` so callers can say so. Offsets are byte offsets into the file,
so :mod:`ascendrl.fixes.shellfile` edits exactly the bytes of a value and nothing else.
"""

from __future__ import annotations

import bisect
import dataclasses
import os
import re
import stat
from collections.abc import Iterator, Mapping
from pathlib import Path

from .host import Host

MAX_FILE_BYTES = 4 << 20
MAX_DEPTH = 8
ASCEND_BASE = "/usr/local/Ascend"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ASSIGN = re.compile(r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<plus>\+?)=")
_META = " \t\n;&|()<>"
_OPS = ("&&", "||", ";;", "|&", ";", "&", "|", "(", ")", "\n")
_REDIRS = ("<<<", "<<-", "<<", ">>", "&>>", "&>", ">&", "<&", "<>", ">|", "<", ">")
_OPENERS = {"if": "if", "while": "loop", "until": "loop", "for": "loop", "select": "loop", "case": "case"}
_CLOSERS = {"fi": "if", "done": "loop", "esac": "case"}
DECLARE = ("export", "declare", "typeset", "readonly")
# Commands that succeed for any sane input, so `cmd && export A=1` is followed.
_SURE = {*DECLARE, "unset", "set", "source", ".", "true", ":", "echo", "printf", "cd", "mkdir", "ulimit", "umask"}
_FOLLOWERS = {"then", "else", "elif", "do", "!", "time"}


@dataclasses.dataclass(frozen=True)
class Word:
    """One shell word as written: ``raw`` is the file's text (bytes decoded as latin-1)."""

    raw: str
    start: int
    end: int


@dataclasses.dataclass(frozen=True)
class Command:
    """A simple command: leading assignments, then the words (``words[0]`` is the name)."""

    assigns: tuple[Word, ...]
    words: tuple[Word, ...]
    line: int
    after: str  # the operator before it: "\n", ";", "&&", "||", "|"…
    skipped: str | None  # why its effects do not reach the shell ("inside if … fi"), None when they do


def _skip_quoted(text: str, i: int, *, single: bool = True) -> int | None:
    """Index just past the escape, quote, `…`, $(…) or ${…} starting at ``i``; None when none starts there."""
    c = text[i]
    if c == "\\":
        return i + 2
    if c == "'" and single:
        j = text.find("'", i + 1)
        return len(text) if j < 0 else j + 1
    if c == '"':
        return _skip_double(text, i + 1)
    if c == "`":
        return _skip_backtick(text, i + 1)
    if c == "$" and text[i + 1 : i + 2] in ("(", "{"):
        return _skip_balanced(text, i + 2, text[i + 1], ")" if text[i + 1] == "(" else "}")
    return None


def _skip_balanced(text: str, i: int, open_: str, close: str) -> int:
    """Index just past the ``close`` matching the ``open_`` before ``i``; quotes and nesting respected."""
    depth = 1
    while i < len(text):
        nxt = _skip_quoted(text, i)
        if nxt is not None:
            i = nxt
            continue
        if text[i] == open_:
            depth += 1
        elif text[i] == close:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def _skip_double(text: str, i: int) -> int:
    while i < len(text):
        if text[i] == '"':
            return i + 1
        nxt = _skip_quoted(text, i, single=False)
        i = nxt if nxt is not None else i + 1
    return len(text)


def _skip_backtick(text: str, i: int) -> int:
    n = len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == "`":
            return i + 1
        else:
            i += 1
    return n


def _scan_word(text: str, i: int) -> int:
    """End of the word starting at ``i``."""
    n = len(text)
    start = i
    while i < n:
        c = text[i]
        if c == "\r" and text[i + 1 : i + 2] == "\n":
            return i  # CRLF ends the line (bash would keep the CR in the word; the author meant a newline)
        if c in _META:
            if c == "(" and ASSIGN.fullmatch(text[start:i]):  # NAME=( array )
                i = _skip_balanced(text, i + 1, "(", ")")
                continue
            return i
        nxt = _skip_quoted(text, i)
        i = nxt if nxt is not None else i + 1
    return min(i, n)


def tokens(text: str) -> Iterator[tuple[str, str, int, int]]:
    """("word" | "op" | "redir", text, start, end); comments, line continuations and heredoc bodies dropped."""
    i, n = 0, len(text)
    heredocs: list[tuple[str, bool]] = []
    expect_delim: bool | None = None  # the next word is a heredoc delimiter (True: <<-)
    while i < n:
        c = text[i]
        if c in " \t" or text.startswith("\\\n", i) or text.startswith("\\\r\n", i):
            i += 1 if c in " \t" else (2 if text[i + 1] == "\n" else 3)
            continue
        if c == "\r" and text[i + 1 : i + 2] == "\n":
            i += 1
            continue
        if c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c == "\n":
            yield ("op", "\n", i, i + 1)
            i += 1
            for delim, strip in heredocs:  # skip each pending heredoc body, line by line
                while i < n:
                    j = text.find("\n", i)
                    end = n if j < 0 else j + 1
                    line = text[i:end].rstrip("\r\n")
                    i = end
                    if (line.lstrip("\t") if strip else line) == delim:
                        break
            heredocs.clear()
            continue
        redir = next((r for r in _REDIRS if text.startswith(r, i)), None)
        if redir:
            yield ("redir", redir, i, i + len(redir))
            i += len(redir)
            if redir in ("<<", "<<-"):
                expect_delim = redir == "<<-"
            continue
        op = next((o for o in _OPS if text.startswith(o, i)), None)
        if op:
            yield ("op", op, i, i + len(op))
            i += len(op)
            continue
        end = _scan_word(text, i)
        word = text[i:end]
        if expect_delim is not None:
            heredocs.append((re.sub(r"[\"'\\]", "", word), expect_delim))
            expect_delim = None
        yield ("word", word, i, end)
        i = end


def parse(data: bytes) -> list[Command]:
    """The file's simple commands in order, each marked with why it is skipped (if it is)."""
    text = data.decode("latin-1")
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    frames: list[str] = []  # open blocks: if, loop, case, brace, function, subshell, test
    commands: list[Command] = []
    assigns: list[Word] = []
    words: list[Word] = []
    prev_op = "\n"
    pending_function = False
    skip_redir_target = False

    def context(next_op: str) -> str | None:
        for frame in frames:
            if frame != "brace":
                return {"if": "inside if … fi", "loop": "inside a loop", "case": "inside case … esac", "function": "inside a function", "subshell": "inside ( … )"}.get(frame, f"inside {frame}")
        if prev_op == "||":
            return "after ||"
        if next_op in ("|", "|&") or prev_op in ("|", "|&"):
            return "in a pipeline"
        if next_op == "&":
            return "in the background"
        return None

    def finish(next_op: str) -> None:
        nonlocal assigns, words, prev_op
        if assigns or words:
            first = (assigns or words)[0]
            commands.append(Command(tuple(assigns), tuple(words), bisect.bisect_right(line_starts, first.start), prev_op, context(next_op)))
        assigns, words = [], []
        prev_op = next_op

    for kind, value, start, end in tokens(text):
        if frames and frames[-1] == "test":  # [[ … ]]: its && || ( ) are not commands
            if kind == "word" and value == "]]":
                frames.pop()
                words.append(Word(value, start, end))
            continue
        if kind == "redir":
            skip_redir_target = True
            if words and words[-1].raw.isdigit() and words[-1].end == start:
                words.pop()  # 2>file: the fd number is not an argument
            continue
        if kind == "word":
            if skip_redir_target:
                skip_redir_target = False
                continue
            at_start = not assigns and not words
            if at_start and frames and frames[-1] == "case" and value != "esac":
                continue  # patterns and case bodies are never entered
            if at_start and value in _FOLLOWERS:
                continue
            if at_start and value in _OPENERS:
                frames.append(_OPENERS[value])
                continue
            if at_start and value in _CLOSERS:
                if frames and frames[-1] == _CLOSERS[value]:
                    frames.pop()
                continue
            if at_start and value == "{":
                frames.append("function" if pending_function else "brace")
                pending_function = False
                continue
            if at_start and value == "}":
                if frames:
                    frames.pop()
                continue
            if at_start and value == "[[":
                frames.append("test")
                words.append(Word(value, start, end))
                continue
            if at_start and value == "function":
                pending_function = True
                continue
            if at_start and pending_function:
                continue  # the name after `function`
            w = Word(value, start, end)
            if not words and ASSIGN.match(value):
                assigns.append(w)
            else:
                words.append(w)
            continue
        # operators
        if value == "(":
            if words and not assigns and len(words) == 1:  # name ( ) { … }: a function definition
                pending_function = True
                words = []
                continue
            if not words and not assigns and not (frames and frames[-1] == "case"):
                frames.append("subshell")
            continue
        if value == ")":
            if pending_function:
                continue
            if frames and frames[-1] == "subshell":
                finish(";")
                frames.pop()
            continue
        finish(value)
    finish("\n")
    return commands


# ---- values ----------------------------------------------------------------------------------
# `$(…)` bodies that only compute the folder of the file being sourced (CANN/NNAL and project scripts use them).
_SELF = r'"?\$\{?BASH_SOURCE(?:\[0\])?\}?"?'
_HERE = re.compile(
    rf'dirname\s+{_SELF}'
    rf'|cd\s+"?\$\(\s*dirname\s+{_SELF}\s*\)"?\s*(?:[&>]+\s*/dev/null(?:\s+2>&1)?\s*)?(?:&&|;)\s*pwd'
    rf'|dirname\s+"?\$\(\s*(?:readlink\s+-f|realpath)\s+{_SELF}\s*\)"?'
    rf'|(?:realpath|readlink\s+-f)\s+"?\$\(\s*dirname\s+{_SELF}\s*\)"?'
)


class Unknown(Exception):
    """A value that cannot be known without running something; the message says what."""


_PARAM = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-+=])(.*))?", re.S)


def _literal(piece: str) -> str:
    """File text (latin-1) back to real text: the file's bytes as UTF-8."""
    return piece.encode("latin-1").decode("utf-8", "replace")


def expand(raw: str, env: Mapping[str, str], notes: list[str] | None = None, *, tilde: bool = True, here: str | None = None) -> str:
    """The value bash gives the word ``raw`` in an assignment (no splitting, no globbing).

    Raises :class:`Unknown` for command substitution, arithmetic, positional parameters and
    expansions beyond ``$V``, ``${V}``, ``${V:-w}``/``${V-w}``/``${V:+w}``/``${V+w}``. A variable
    that is not set expands to "" (as in bash) and is noted in ``notes``. With ``here`` (the
    folder of the file being read), the "my own folder" idioms (``$(cd "$(dirname
    "${BASH_SOURCE[0]}")" && pwd)``, ``$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")``…) are that folder.
    """
    out: list[str] = []
    i, n = 0, len(raw)
    if tilde and raw.startswith("~") and (n == 1 or raw[1] in "/:"):
        if "HOME" not in env:
            raise Unknown("~ with HOME unset")
        out.append(env["HOME"])
        i = 1
    quoted = False
    while i < n:
        c = raw[i]
        if c == "\\":
            if quoted:
                nxt = raw[i + 1 : i + 2]
                if nxt in ('"', "\\", "$", "`"):
                    out.append(nxt)
                elif nxt != "\n":
                    out.append("\\" + nxt)
            elif raw[i + 1 : i + 2] not in ("\n", ""):
                out.append(_literal(raw[i + 1]))
            i += 2
        elif c == "'" and not quoted:
            j = raw.find("'", i + 1)
            if j < 0:
                raise Unknown("an unterminated ' quote")
            out.append(_literal(raw[i + 1 : j]))
            i = j + 1
        elif c == "$" and raw[i + 1 : i + 2] == "'" and not quoted:
            j = raw.find("'", i + 2)
            body = raw[i + 2 : j if j >= 0 else n]
            if j < 0 or "\\" in body:
                raise Unknown("a $'…' string with escapes")
            out.append(_literal(body))
            i = j + 1
        elif c == '"':
            quoted = not quoted
            i += 1
        elif c == "`":
            j = _skip_backtick(raw, i + 1)
            if here is None or not _HERE.fullmatch(raw[i + 1 : j - 1].strip()):
                raise Unknown("a `…` command substitution (not run)")
            out.append(here)
            i = j
        elif c == "$":
            nxt = raw[i + 1 : i + 2]
            if nxt == "(" and here is not None and raw[i + 2 : i + 3] != "(":
                j = _skip_balanced(raw, i + 2, "(", ")")
                if _HERE.fullmatch(raw[i + 2 : j - 1].strip()):
                    out.append(here)
                    i = j
                    continue
            if nxt == "(":
                raise Unknown("a $(…) command substitution (not run)" if raw[i + 2 : i + 3] != "(" else "$((…)) arithmetic")
            if nxt == "{":
                j = _skip_balanced(raw, i + 2, "{", "}")
                out.append(_braced(raw[i + 2 : j - 1], env, notes))
                i = j
            elif nxt and (nxt.isalpha() or nxt == "_"):
                m = _NAME.match(raw, i + 1)
                assert m is not None
                out.append(_lookup(m.group(), env, notes))
                i = m.end()
            elif nxt and nxt in "0123456789@*#?$!-":
                raise Unknown(f"${nxt} (a shell parameter only known when it runs)")
            else:
                out.append("$")
                i += 1
        else:
            j = i + 1
            while j < n and raw[j] not in ("\\\"`$" if quoted else "\\'\"`$"):
                j += 1
            out.append(_literal(raw[i:j]))
            i = j
    if quoted:
        raise Unknown('an unterminated " quote')
    return "".join(out)


def _lookup(name: str, env: Mapping[str, str], notes: list[str] | None) -> str:
    if name not in env:
        if notes is not None:
            notes.append(f"${name} is not set here; read as empty")
        return ""
    return env[name]


def _braced(body: str, env: Mapping[str, str], notes: list[str] | None) -> str:
    m = _PARAM.fullmatch(body)
    if not m and body[:1] and body[0] in "0123456789@*#?$!-":
        raise Unknown(f"${{{body}}} (a shell parameter only known when it runs)")
    if not m:
        raise Unknown(f"${{{body}}} (only ${{V}}, ${{V:-w}} and ${{V:+w}} are read)")
    name, op, word = m.groups()
    if op is None:
        return _lookup(name, env, notes)
    value = env.get(name)
    is_set = value is not None and (value != "" or ":" not in op)
    if op.endswith("-"):
        return value if is_set else expand(word, env, notes)  # type: ignore[return-value]
    if op.endswith("+"):
        return expand(word, env, notes) if is_set else ""
    raise Unknown(f"${{{body}}} assigns while expanding")


# ---- the environment after sourcing ----------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class ShellEnv:
    """The exported environment after ``source FILE``, what was read, and what could not be known."""

    env: dict[str, str]
    read: tuple[str, ...]
    unresolved: tuple[str, ...]


def known_set_env(host: Host) -> set[str]:
    """The CANN/NNAL set_env.sh locations (as the host sees them) a read may follow outside the project."""
    base = Path(ASCEND_BASE)
    out = {f"{ASCEND_BASE}/{sub}/set_env.sh" for sub in ("cann", "ascend-toolkit", "ascend-toolkit/latest", "nnal/atb")}
    out |= {f"{host.home()}/Ascend/{sub}/set_env.sh" for sub in ("cann", "ascend-toolkit")}
    try:
        out |= {str(base / p.name / "set_env.sh") for p in host.path(ASCEND_BASE).glob("cann-*")}
    except OSError:
        pass
    return out


def read_text_file(path: str) -> bytes:
    """A regular file's bytes, bounded; a FIFO, device or huge file is an OSError, never a hang."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise OSError(f"{path}: not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise OSError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB")
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


class _Reader:
    def __init__(self, host: Host, project: str, *, follow: bool = True) -> None:
        self.host = host
        self.follow = follow
        self.project = os.path.realpath(project)
        self.known = known_set_env(host)
        self.vars: dict[str, str] = dict(host.env)
        self.exported: set[str] = set(host.env)
        self.allexport = False
        self.here: str | None = None  # the folder of the file being read
        self.read: list[str] = []
        self.unresolved: list[str] = []

    def note(self, where: str, what: str) -> None:
        if f"{where}: {what}" not in self.unresolved:
            self.unresolved.append(f"{where}: {what}")

    def value(self, raw: str, where: str, name: str) -> str | None:
        notes: list[str] = []
        try:
            out = expand(raw, self.vars, notes, here=self.here)
        except Unknown as exc:
            self.note(where, f"{name}: {exc}; left as it was")
            return None
        for text in notes:
            self.note(where, f"{name}: {text}")
        return out

    def assign(self, word: Word, where: str, export: bool) -> None:
        m = ASSIGN.match(word.raw)
        if not m:
            return
        name = m.group("name")
        raw = word.raw[m.end() :]
        if raw.startswith("("):
            self.note(where, f"{name}: an array; left as it was")
            return
        value = self.value(raw, where, name)
        if value is not None:
            self.vars[name] = (self.vars.get(name, "") + value) if m.group("plus") else value
        if export or self.allexport:
            self.exported.add(name)

    def run_file(self, display: str, real: str, depth: int) -> None:
        try:
            data = read_text_file(real)
        except OSError as exc:
            self.note(display, f"not read ({exc.strerror or exc})")
            return
        self.read.append(display)
        outer, self.here = self.here, os.path.dirname(display)
        try:
            self.run(parse(data), display, depth)
        finally:
            self.here = outer

    def run(self, commands: list[Command], display: str, depth: int) -> None:
        sure = True  # the previous command is one whose success is known (so `&& next` runs)
        for cmd in commands:
            where = f"{display}:{cmd.line}"
            declaring = bool(cmd.words) and cmd.words[0].raw in DECLARE
            skipped = cmd.skipped or (None if sure or cmd.after != "&&" else "after && behind a command that may fail")
            sure = not cmd.words or cmd.words[0].raw in _SURE
            self.on_command(cmd, where, skipped)
            if skipped:
                for w in (*cmd.assigns, *(cmd.words if declaring else ())):
                    if m := ASSIGN.match(w.raw):
                        self.note(where, f"{m.group('name')}: set {skipped}; not followed")
                if cmd.words and cmd.words[0].raw in ("source", "."):
                    self.note(where, f"source {skipped}; not followed")
                continue
            if not cmd.words:
                for w in cmd.assigns:
                    self.assign(w, where, export=False)
            elif cmd.assigns and not declaring:
                continue  # A=1 cmd: the assignment reaches cmd only
            elif self.command(cmd, where, depth) == "stop":
                return

    def on_command(self, cmd: Command, where: str, skipped: str | None) -> None:
        """Called for every command before its effect is applied; launch-script readers look here."""

    def command(self, cmd: Command, where: str, depth: int) -> str | None:
        name, args = cmd.words[0].raw, [w.raw for w in cmd.words[1:]]
        if name in DECLARE:
            opts = "".join(a[1:] for a in args if a.startswith("-") and not ASSIGN.match(a))
            plus = "".join(a[1:] for a in args if a.startswith("+") and not ASSIGN.match(a))
            if "f" in opts or "p" in opts:
                return None
            export = name == "export" or "x" in opts
            for w in cmd.words[1:]:
                if w.raw.startswith(("-", "+")):
                    continue
                if ASSIGN.match(w.raw):
                    self.assign(w, where, export)
                elif _NAME.fullmatch(w.raw):
                    if name == "export" and "n" in opts or "x" in plus:
                        self.exported.discard(w.raw)
                    elif export:
                        self.exported.add(w.raw)
                else:
                    self.note(where, f"{name} {w.raw}: not a plain NAME=value; not read")
        elif name == "unset":
            for a in args:
                if not a.startswith("-"):
                    self.vars.pop(a, None)
                    self.exported.discard(a)
        elif name == "set":
            for a in args:
                if a.startswith(("-", "+")) and "a" in a[1:] and not a.startswith("--"):
                    self.allexport = a.startswith("-")
            if "allexport" in args and "-o" in args:
                self.allexport = True
        elif name in ("source", "."):
            if args:
                if self.follow:
                    self.source(args[0], where, depth)
        elif name in ("exit", "exec", "return") and (name != "exec" or args):
            return "stop"
        elif name in ("eval", "cd", "pushd", "popd", "shopt", "alias", "conda", "module", "local"):
            self.note(where, f"`{name}` is not evaluated; what it changes is not known")
        return None

    def source(self, raw: str, where: str, depth: int) -> None:
        try:
            path = expand(raw, self.vars)
        except Unknown as exc:
            self.note(where, f"source {raw}: {exc}; not followed")
            return
        if depth >= MAX_DEPTH:
            self.note(where, f"source {path}: nested more than {MAX_DEPTH} deep; not followed")
            return
        if path in self.known:
            real = str(self.host.path(path))
        else:
            real = os.path.realpath(os.path.join(self.project, path))  # relative: to the project folder
            if os.path.commonpath([real, self.project]) != self.project:
                self.note(where, f"source {path}: outside the project ({self.project}) and not a CANN/NNAL set_env.sh; not followed")
                return
        self.run_file(path if path in self.known else real, real, depth + 1)


def read_environment(host: Host, path: str) -> ShellEnv:
    """``host.env`` as it is after ``source path``, found by reading (never running) the file.

    ``path`` is a file on this machine; its folder is the project whose files it may source.
    """
    reader = _Reader(host, os.path.dirname(os.path.abspath(path)))
    reader.run_file(os.path.abspath(path), os.path.abspath(path), 0)
    env = {k: v for k, v in reader.vars.items() if k in reader.exported}
    return ShellEnv(env, tuple(reader.read), tuple(reader.unresolved))


def environment_after(host: Host, path: str) -> dict[str, str]:
    """The exported environment after ``source path``; :func:`read_environment` also says what is unknown."""
    return read_environment(host, path).env


def read_sources(data: bytes) -> list[str]:
    """The literal paths of every `source`/`.` command, wherever it is."""
    out = []
    for cmd in parse(data):
        if len(cmd.words) >= 2 and cmd.words[0].raw in ("source", "."):
            try:
                out.append(expand(cmd.words[1].raw, {}, tilde=False))
            except Unknown:
                continue
    return out


def read_exports(data: bytes) -> dict[str, str]:
    """NAME -> value of every variable the file exports at its top level (no sources followed, empty env)."""
    reader = _Reader(Host(env={}), os.curdir, follow=False)
    reader.run(parse(data), "<data>", 0)
    return {k: v for k, v in reader.vars.items() if k in reader.exported}
