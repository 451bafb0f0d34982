"""Command-line flags the trainer's argument parser does not declare.

Trainers built on Hugging Face's HfArgumentParser (TRL, LlamaFactory and many RL scripts) and ms-swift
collect the flags no dataclass field takes and raise a ValueError listing them. The flags were written
for another program (MindSpeed's fused-kernel flags given to swift) or another release (an option a
newer TRL removed), so the fix is in the launch script, not in the code.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised, typed

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
