"""Command-line flags the trainer's argument parser does not declare.

Trainers built on Hugging Face's HfArgumentParser (TRL, LlamaFactory and many RL scripts) and ms-swift
collect the flags no dataclass field takes and raise a ValueError listing them. The flags were written
for another program (MindSpeed's fused-kernel flags given to swift) or another release (an option a
newer TRL removed), so the fix is in the launch script, not in the code.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, lone, raised, typed

HF_ARGPARSER = "https://github.com/huggingface/transformers/blob/v5.25.0/src/transformers/hf_argparser.py"
SWIFT_ARGS = "https://github.com/modelscope/ms-swift/blob/v3.12.6/swift/llm/base.py"

UNUSED = lazy(r"Some specified arguments are not used by the HfArgumentParser: (\[.*\])|^remaining_argv: (\[.*\])")
FLAG = lazy(r"'(--?[\w.-]+)'")


class UnusedArguments(Analyzer):
    id = "DRV-cli-args"
    title = "Command-line flags the argument parser does not declare"
    family = "verl-config"
    stops_run = "the arguments do not parse: nothing runs"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("ValueError",)):
            return None
        m = UNUSED.search(link.message)
        if m is None:
            return None
        listed = m.group(1) or m.group(2)
        flags = FLAG.findall(listed) or [listed[:80]]
        swift = m.group(2) is not None
        return Finding(
            "Unrecognised command-line flags: " + ", ".join(flags[:4]) + (" …" if len(flags) > 4 else ""),
            f"ValueError: {link.message[:200]}. The trainer's argument parser "
            + ("(ms-swift)" if swift else "(Hugging Face HfArgumentParser)")
            + " took every flag its argument dataclasses declare and was left with these: they belong to another program "
            "or to another release of this one (a renamed or removed option), or a broken line continuation split a value.",
            ("Remove the flags from the launch script, or spell them as this release's options (see the trainer's --help)",
             "If a tutorial or recipe for another version wrote them, install that version, or port the options",
             *(("ms-swift only: --ignore_args_error true turns this into a warning (the flags are then ignored)",) if swift else ())),
            evidence(link), (SWIFT_ARGS if swift else HF_ARGPARSER,), key=f"flags:{','.join(flags[:4])}",
            family="verl-config", kind="unrecognized-cli-args",
        )


# A command-line parser refusing words it takes no place for, printed under the command's usage text (the classifier
# reads the refusal as the failure and keeps the usage line in its detail):
# - Click (src/click/core.py, Command.parse_args: ngettext("Got unexpected extra argument ({args})",
#   "Got unexpected extra arguments ({args})", len(args))) — ray start, ray job submit, any Click CLI;
# - argparse (Lib/argparse.py, parse_args: _('unrecognized arguments: %s')) — torchrun, vllm serve, a script's parser.
# The stray words are most often the tail of a value the shell, PowerShell or a YAML field (KubeRay's rayStartParams)
# split because it was not quoted as one word, e.g. ray start --resources={"NPU": 1} giving "1}".
CLICK_CORE = "https://github.com/pallets/click/blob/8.1.7/src/click/core.py"
ARGPARSE = "https://github.com/python/cpython/blob/v3.11.7/Lib/argparse.py"
RAY_SCRIPTS = "https://github.com/ray-project/ray/blob/ray-2.1.0/python/ray/scripts/scripts.py"
EXTRA = lazy(r"^Got unexpected extra arguments? \((.*)\)\s*$|^unrecognized arguments: (.+)$")
USAGE_CMD = lazy(r"^(?:usage|Usage): ((?:[\w.-]+/)*[\w.-]+(?: [a-z][\w-]*)?)")
JSONISH = lazy(r"[{}\[\]\"“”‘’:]")
# The catalog entry for ray start's refused --resources (its Click usage line "Try 'ray start --help' for help." is one of
# its signatures, so it names any ray start usage error); this analyzer reads the refusal under that usage text.
RAY_START_ENTRY = "ARL-E1764"


class ExtraArguments(Analyzer):
    id = "DRV-cli-extra"
    title = "The command line has words the command takes no place for (a value split by quoting)"
    family = "user"
    stops_run = "the command refuses its command line and exits: nothing starts"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not lone(link):
            return None
        m = EXTRA.match(link.message)
        if m is None:
            return None
        words = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        usage = next((u for d in link.detail if (u := USAGE_CMD.match(d))), None)
        if usage is None:
            return None  # the refusal is read only under its command's usage text
        command = usage.group(1).rsplit("/", 1)[-1]  # the program's name without its folder ("ray start", "torchrun")
        click = m.group(1) is not None
        split = JSONISH.search(words) is not None
        ray_start = command == "ray start"
        if ray_start and split:
            kind = "ray-start-resources-malformed"
        elif split:
            kind = "cli-value-split"
        else:
            kind = "cli-extra-arguments"
        why = ("they hold JSON punctuation: the tail of a JSON value (--resources / --labels / a runtime_env) that was not "
               "quoted as one word, so the shell, PowerShell or a YAML field (KubeRay's rayStartParams) split it"
               if split else
               "an option's value given twice, a flag missing its dashes, a value with spaces not quoted, or an option of "
               "another program or release")
        return Finding(
            f"{command} refused its command line: extra words {words[:80]!r}",
            f"{'Click' if click else 'argparse'} refused the command line of {command}: it was left with {words[:120]!r}, "
            f"words no option or argument takes; {why}. The command exits with a usage error before it does anything"
            + (" (a KubeRay worker pod crash-loops, the node never joins)" if ray_start else "") + ".",
            (("Pass the JSON as one argument with straight double quotes inside: ray start ... --resources='{\"NPU\": 8}' "
              "(KubeRay: quote the rayStartParams value so it stays one word; PowerShell: escape the inner quotes)",)
             if ray_start and split else
             ("Quote the value so it stays one word (single quotes around JSON, straight double quotes inside)",
              f"Compare the line with {command} --help: remove or rename the words it does not take")),
            evidence(link), (CLICK_CORE if click else ARGPARSE, *((RAY_SCRIPTS,) if ray_start else ())),
            key=f"cli-extra:{command}:{words[:40]}", family="ray" if ray_start else "user", kind=kind,
        )

    def settle(self, derived) -> None:
        """ray start's usage error is read twice: ARL-E1764 by Click's "Try 'ray start --help'" line, this analyzer by the
        refusal under it. Where the stray words are a split JSON value, the entry (ray start's --resources) is the narrower
        reading: this finding becomes its note. Where they are not, the entry's reading (a --resources value) is the
        broader one: this finding names the failure and the entry is its echo."""
        if RAY_START_ENTRY not in derived.matched:
            return
        for item in [i for i in derived.items if i.entry.id == self.id and i.entry.title.startswith("ray start ")]:
            if item.kind == "ray-start-resources-malformed":
                derived.items.remove(item)
                bucket = derived.notes.setdefault(RAY_START_ENTRY, [])
                note = f"{self.id}: {item.entry.title}"
                if note not in bucket:
                    bucket.append(note)
                derived.kinds.setdefault(RAY_START_ENTRY, item.kind)
                derived.evidence.setdefault(RAY_START_ENTRY, item.evidence)  # the refusal and the usage line it was read under
            elif item.demoted_by is None:
                derived.demoted.setdefault(RAY_START_ENTRY, self.id)


# argparse refusing an option's value that is not among its declared choices (Lib/argparse.py, _check_value: "invalid
# choice: %(value)r (choose from %(choices)s)", raised as ArgumentError "argument <option>: <message>", printed under the
# usage text as "<prog>: error: argument ...") — vllm serve's --scheduling-policy / --dtype / --load-format, torchrun's
# --rdzv-backend, a training script's own --mode. CPython 3.12.? on drops the repr quotes around the choices. The value is
# a typo, or a choice of another release of the program (added later, renamed, or removed). The plugin-supplied
# --quantization 'ascend' value has its own reading (pluginname.PluginNameUnknown) and is left to it.
INVALID_CHOICE = lazy(r"^argument ([^:]{1,80}): invalid choice: (.{1,200}?)(?: \(choose from (.{0,600})\))?\s*$")
PLUGIN_QUANT = lazy(r"^--quantization\b.*|(?i:ascend)")


class InvalidChoice(Analyzer):
    id = "DRV-cli-choice"
    title = "A command-line option got a value that is not one of its choices (argparse invalid choice)"
    family = "user"
    stops_run = "the command refuses its command line and exits: nothing starts"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not (lone(link) or typed(link, ("ArgumentError", "SystemExit"))):
            return None
        m = INVALID_CHOICE.match(link.message)
        if m is None:
            return None
        option, value, choices = m.group(1).strip(), m.group(2).strip(), (m.group(3) or "").strip()
        if option.startswith("--quantization") and PLUGIN_QUANT.search(value):
            return None  # vllm-ascend's 'ascend' quantization: pluginname reads it as a plugin / vLLM mismatch
        usage = next((u for d in link.detail if (u := USAGE_CMD.match(d))), None)
        command = usage.group(1).rsplit("/", 1)[-1] if usage else "the command"
        shown = f" (choose from {choices[:160]})" if choices else ""
        return Finding(
            f"{command} refused {option} {value[:60]}: not one of the option's choices",
            f"argparse refused the command line of {command}: {option} accepts only a fixed set of values{shown}, and "
            f"{value[:80]} is not among them. The value is misspelt (case counts), or it is a choice of another release "
            "of the program (added in a newer one, renamed or removed since), as tutorials and launch scripts written for "
            "another version often pass. The command exits with a usage error before it does anything.",
            (f"Use one of the values the message lists for {option}, spelt exactly so",
             f"If a recipe for another release gave the value, check {command} --help of the installed release (pip show "
             "the package) and either pick its equivalent or install the release the recipe was written for"),
            evidence(link), (ARGPARSE,), key=f"cli-choice:{command}:{option}:{value[:40]}", family="user",
            kind="cli-invalid-choice",
        )
