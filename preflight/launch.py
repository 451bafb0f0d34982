"""Find the verl launch in a user's shell script, by reading it (never running it).

People arrive with ``train.sh``, not a recipe. This follows the script with
:mod:`ascendrl.preflight.shellenv`'s reader (assignments, exports, ``source`` inside the
project) up to the command that starts verl (``python3 -m verl.trainer.main_ppo``,
``python -m recipe.dapo.main_dapo``, ``torchrun … -m verl…``), and expands that command's
words as bash would: quotes removed, the script's own variables and ``$((…))`` arithmetic
filled in, unquoted expansions split on blanks. What it cannot know (``$(…)``, arrays, the
script's arguments, values only the environment has) is listed, never guessed.
"""

from __future__ import annotations

import ast
import dataclasses
import operator
import os
import re
from collections.abc import Mapping

from .host import Host
from .redact import redact_text, secret_name
from .shellenv import ASSIGN, Command, Unknown, Word, _Reader, _skip_balanced, expand, tokens

MAIN_PPO = "verl.trainer.main_ppo"
_ENTRY = re.compile(r"(?:verl|recipe)(?:\.\w+)+")
_LAUNCHERS = ("python", "python3", "torchrun", "accelerate", "deepspeed")
# ${1:-vllm}: the script's arguments are not known; bash run without arguments takes the default.
_POSITIONAL = re.compile(r"\$\{([0-9]+)(:?[-+=?])")
_REFERENCE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_ARRAY_ALL = re.compile(r'"?\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)\[[@*]\]\}"?')


class ShellError(Unknown):
    """An expansion bash itself fails on (division by zero, an unset variable under ``set -u``)."""


@dataclasses.dataclass(frozen=True)
class Launch:
    """The verl command a script runs, as bash would pass it."""

    path: str
    line: int
    entry: str  # the module after -m
    options: tuple[str, ...]  # words after the module that are not overrides (--config-name=…)
    overrides: tuple[str, ...]
    env: dict[str, str]  # the environment the command gets
    exports: dict[str, str]  # what the script itself exports (or changes) by then
    words: tuple[Word, ...]  # the override words as written, for value-only edits
    unresolved: tuple[str, ...]
    uncertain: tuple[str, ...] = ()  # override keys whose value needed something not known

    def value(self, key: str) -> str | None:
        """The value the last override of ``key`` gives (Hydra keeps the last)."""
        for o in reversed(self.overrides):
            if o.split("=", 1)[0].lstrip("+~") == key and "=" in o:
                return o.split("=", 1)[1]
        return None

    @property
    def rollout(self) -> str:
        """The rollout engine (verl's default is vllm)."""
        return self.value("actor_rollout_ref.rollout.name") or "vllm"


@dataclasses.dataclass(frozen=True)
class ScriptRead:
    """A script read statically: its verl launch (None when it launches none) and what was not known."""

    path: str
    launch: Launch | None
    env: dict[str, str]
    unresolved: tuple[str, ...]


def _arith(expr: str, env: Mapping[str, str], depth: int = 0, *, strict: bool = False) -> int:
    """bash integer arithmetic for + - * / % and parentheses over numbers and variables."""
    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}

    def name_value(name: str) -> int:
        if strict and name not in env:
            raise ShellError(f"${name} is not set (set -u)")
        text = env.get(name, "").strip() or "0"
        if depth > 8:
            raise Unknown("$((…)) nested too deep")
        return int(text) if re.fullmatch(r"-?\d+", text) else _arith(text, env, depth + 1)

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            return name_value(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mod)):
            a, b = ev(node.left), ev(node.right)
            if b == 0:
                raise ShellError(f"$(({expr})) divides by zero")
            return int(a / b) if isinstance(node.op, ast.Div) else a - b * int(a / b)  # bash truncates toward zero
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](ev(node.left), ev(node.right))
        raise Unknown(f"$(({expr})) arithmetic beyond + - * / %")

    text = re.sub(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?", r"\1", expr)
    try:
        tree = ast.parse(text.strip() or "0", mode="eval")
    except SyntaxError:
        raise Unknown(f"$(({expr})) arithmetic beyond + - * / %") from None
    return ev(tree.body)


def fill_arithmetic(raw: str, env: Mapping[str, str], *, strict: bool = False) -> str:
    """``raw`` with each ``$((…))`` replaced by its value (digits are literal in any quoting)."""
    out, i = [], 0
    while (j := raw.find("$((", i)) >= 0:
        end = _skip_balanced(raw, j + 2, "(", ")")
        if raw[end - 2 : end] != "))":
            raise Unknown("a $(…) command substitution (not run)")
        out += [raw[i:j], str(_arith(raw[j + 3 : end - 2], env, strict=strict))]
        i = end
    return "".join(out) + raw[i:]


def _positional(raw: str, notes: list[str]) -> str:
    """``${1:-w}`` → ``${__ascendrl_arg1:-w}`` (unset): read as if the script got no arguments."""
    def sub(m: re.Match) -> str:
        notes.append(f"${m.group(1)}: the script's arguments are not known; read as not given")
        return "${__ascendrl_arg" + m.group(1) + m.group(2)
    return _POSITIONAL.sub(sub, raw)


def command_words(
    words: tuple[Word, ...], env: Mapping[str, str], notes: list[str], here: str | None,
    arrays: Mapping[str, list[str | None]] | None = None, uncertain: set[str] | None = None,
    unsure_arrays: Mapping[str, set[str]] | None = None,
) -> list[str | None]:
    """Each word as bash passes it (unquoted expansions split on blanks, ``"${A[@]}"`` as its elements); None for one not known."""
    out: list[str | None] = []
    for w in words:
        raw = w.raw
        if m := _ARRAY_ALL.fullmatch(raw):
            if arrays is not None and m.group("name") in arrays:
                out += arrays[m.group("name")]
                if uncertain is not None and unsure_arrays:
                    uncertain |= unsure_arrays.get(m.group("name"), set())
            else:
                notes.append(f"{raw}: the array {m.group('name')} is not known here; read as empty")
            continue
        if raw in ("$@", '"$@"', "$*", '"$*"', "${@}", '"${@}"'):
            notes.append(f"{raw}: the script's arguments are added here; read as none")
            continue
        before = len(notes)
        try:
            value = expand(fill_arithmetic(_positional(raw, notes), env), env, notes, here=here)
        except Unknown as exc:
            notes.append(f"{raw}: {exc}")
            out.append(None)
            continue
        new: list[str] = []
        if "$" in raw and not any(q in raw for q in "\"'"):  # unquoted: split on blanks, empty vanishes
            new = value.split()
        elif value or any(q in raw for q in "\"'"):
            new = [value]
        out += new
        if uncertain is not None and len(notes) > before:
            uncertain.update(new)
    return out


# verl's config files that only select an engine: the override each stands for, so a script that
# names one is composed (and linted, and planned) as verl composes it. verl 0.9.1
# trainer/config/ppo_megatron_trainer.yaml: "defaults: [ppo_trainer, override model_engine: megatron]".
CONFIG_NAME_OVERRIDES = {"ppo_megatron_trainer": ("model_engine=megatron",)}


def config_name_overrides(words: list[str] | tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the overrides the ``--config-name`` among ``words`` stands for, the words it was given in)."""
    for i, word in enumerate(words):
        name, given = None, ()
        if word.startswith(("--config-name=", "-cn=")):
            name, given = word.split("=", 1)[1], (word,)
        elif word in ("--config-name", "-cn") and i + 1 < len(words):
            name, given = words[i + 1], (word, words[i + 1])
        if name is not None:
            stem = name.strip("'\"").removesuffix(".yaml")
            return (CONFIG_NAME_OVERRIDES[stem], given) if stem in CONFIG_NAME_OVERRIDES else ((), ())
    return (), ()


def entry_index(words: list[str | None]) -> int | None:
    """Index of the module after ``-m`` when the command starts verl (python/torchrun …)."""
    if not words or words[0] is None:
        return None
    first = os.path.basename(words[0])
    if not (first.startswith(_LAUNCHERS) or first.endswith("python")):
        return None
    for i, w in enumerate(words[1:-1], start=1):
        nxt = words[i + 1]
        if w == "-m" and nxt and _ENTRY.fullmatch(nxt):
            return i + 1
        if w and w.startswith("-m") and _ENTRY.fullmatch(w[2:]):
            return i
    return None


def is_launch(cmd: Command) -> bool:
    """Whether the command, as written, starts verl (its words read literally: quotes dropped, nothing expanded)."""
    return entry_index([w.raw.strip("\"'") for w in cmd.words]) is not None


class _LaunchReader(_Reader):
    def __init__(self, host: Host, project: str) -> None:
        super().__init__(host, project)
        self.host_env = dict(host.env)
        self.vars.setdefault("PWD", os.getcwd())  # bash always sets it: the folder the script is started from
        self.launch: Launch | None = None
        self.others: list[str] = []
        self.path = ""
        self.arrays: dict[str, list[str | None]] = {}
        self.unsure: dict[str, set[str]] = {}  # array -> its elements that needed something not known
        self.unsure_vars: set[str] = set()  # variables whose value needed something not known
        self.unknown_vars: set[str] = set()  # variables bash sets to a value not known here
        self.assigned: set[str] = set()  # variables the script itself sets
        self.from_env: set[str] = set()  # variables read from this shell's environment (said once each)
        self.errexit = self.nounset = False
        self.stopped: str | None = None

    def stop(self, where: str, why: str) -> None:
        if self.stopped is None:
            self.stopped = f"{where}: bash stops here ({why}); nothing after it is read"

    def command(self, cmd: Command, where: str, depth: int) -> str | None:
        if cmd.words[0].raw == "set":
            args = [w.raw for w in cmd.words[1:]]
            for a in args:
                if a.startswith(("-", "+")) and not a.startswith("--") and a != "-o":
                    on = a.startswith("-")
                    if "e" in a[1:]:
                        self.errexit = on
                    if "u" in a[1:]:
                        self.nounset = on
            for opt, flag in (("errexit", "errexit"), ("nounset", "nounset")):
                if opt in args and "-o" in args:
                    setattr(self, flag, True)
        return super().command(cmd, where, depth)

    def _env_reads(self, raw: str, where: str) -> None:
        """Say once for each variable a value takes from this shell's environment: the run's may differ."""
        for name in _REFERENCE.findall(raw):
            if name in self.assigned or name in self.from_env or name not in self.host_env or name == "PWD":
                continue
            self.from_env.add(name)
            shown = "***" if secret_name(name) else redact_text(self.host_env[name])
            self.note(where, f"${name} comes from this shell's environment ({shown!r}); where the script runs it may differ")

    def assign(self, word: Word, where: str, export: bool) -> None:
        m = ASSIGN.match(word.raw)
        if m and not self.stopped:
            self._env_reads(word.raw[m.end() :], where)
            self.assigned.add(m.group("name"))
        raw = word.raw[m.end() :] if m else ""
        if self.stopped or not (m and raw.startswith("(") and raw.endswith(")")):
            return None if self.stopped else super().assign(word, where, export)
        notes: list[str] = []  # NAME=( words … ): the elements, as a command's words would be
        elements = tuple(Word(t, s, e) for kind, t, s, e in tokens(raw[1:-1]) if kind == "word")
        unsure: set[str] = set()
        values = command_words(elements, self.vars, notes, self.here, self.arrays, unsure)
        name = m.group("name")
        self.arrays[name] = (self.arrays.get(name, []) if m.group("plus") else []) + values
        self.unsure[name] = self.unsure.get(name, set()) | unsure
        self._notes(where, name, notes)
        return None

    def _notes(self, where: str, name: str, notes: list[str]) -> None:
        for text in notes:
            unset = text.split(" is not set here")[0].lstrip("$") if "is not set here" in text else None
            if self.nounset and unset and unset not in self.unknown_vars:  # an unknown value is still set
                self.stop(where, f"{text.split(' is not set')[0]} is not set and the script has set -u")
            self.note(where, f"{name}: {text}")

    def value(self, raw: str, where: str, name: str) -> str | None:
        notes: list[str] = []
        try:
            out = expand(fill_arithmetic(_positional(raw, notes), self.vars, strict=self.nounset), self.vars, notes, here=self.here)
        except Unknown as exc:
            if isinstance(exc, ShellError) and self.errexit:
                self.stop(where, f"{exc}, and the script has set -e")
            self.note(where, f"{name}: {exc}; left as it was")
            self.unsure_vars.add(name)
            self.unknown_vars.add(name)
            return None
        if notes:
            self.unsure_vars.add(name)
        self._notes(where, name, notes)
        return out

    def on_command(self, cmd: Command, where: str, skipped: str | None) -> None:
        if self.stopped or not cmd.words or not any(_ENTRY.search(w.raw) for w in cmd.words):
            return
        notes: list[str] = []
        unsure: set[str] = set()
        words = command_words(cmd.words, self.vars, notes, self.here, self.arrays, unsure, self.unsure)
        at = entry_index(words)
        if at is None:
            return
        for w in cmd.words:
            self._env_reads(w.raw, where)
        if self.launch is not None:
            self.others.append(f"{where}: another launch of {words[at]}; only the first is read")
            return
        if skipped and not skipped.startswith(("in a pipeline", "in the background")):
            self.note(where, f"the launch runs only sometimes ({skipped})")
        self._notes(where, str(words[at]), notes)
        if self.stopped:
            return
        env = {k: v for k, v in self.vars.items() if k in self.exported}
        for w in cmd.assigns:  # A=1 python3 …: reaches the command only
            name, _, raw = w.raw.partition("=")
            value = self.value(raw, where, name)
            if value is not None:
                env[name] = value
        exports = {k: v for k, v in env.items() if self.host_env.get(k) != v}
        after = [w for w in words[at + 1 :] if w is not None]
        module = next((i for i, w in enumerate(cmd.words) if str(words[at]) in w.raw), 0)
        over = tuple(w for w in after if not w.startswith("-") and ("=" in w or w.startswith("~")))
        opts = tuple(w for w in after if w.startswith("-"))
        spans = tuple(w for w in cmd.words[module + 1 :] if "=" in w.raw and not w.raw.startswith("-"))
        # an override is uncertain when its word needed something not known (or a variable that did)
        refs = {w.raw: set(re.findall(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", w.raw)) for w in cmd.words}
        shaky = {v for v in unsure if v} | {
            v for w in cmd.words if refs[w.raw] & self.unsure_vars for v in command_words((w,), self.vars, [], self.here, self.arrays)
            if v is not None
        }
        uncertain = tuple(o.split("=", 1)[0] for o in over if o in shaky)
        self.launch = Launch(self.path, cmd.line, str(words[at]), opts, over, env, exports, spans, (), uncertain)


def read_script(host: Host, path: str) -> ScriptRead:
    """The verl launch in ``path`` with its overrides and env, read as text (nothing is run)."""
    path = os.path.abspath(path)
    reader = _LaunchReader(host, os.path.dirname(path))
    reader.path = path
    reader.run_file(path, path, 0)
    unresolved = tuple(reader.unresolved) + tuple(reader.others) + ((reader.stopped,) if reader.stopped else ())
    launch = dataclasses.replace(reader.launch, unresolved=unresolved) if reader.launch else None
    env = {k: v for k, v in reader.vars.items() if k in reader.exported}
    return ScriptRead(path, launch, launch.env if launch else env, unresolved)
