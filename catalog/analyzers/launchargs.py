"""Megatron-style launch arguments refused by their own validation (Megatron-LM, MindSpeed, MindSpeed-LLM / -RL / -MM).

Megatron-LM checks the parsed command line in ``validate_args`` (megatron/training/arguments.py; megatron/arguments.py
before core 0.6, also ``parse_args``) with dozens of ``assert`` statements, and Megatron-core's config dataclasses
check theirs in ``__post_init__``. MindSpeed wraps ``validate_args`` and adds its own checks (mindspeed/arguments.py,
the ``validate_args`` of each feature under mindspeed/features_manager/), MindSpeed-LLM adds ``_validate_*`` /
``_valid_*`` functions that ``raise AssertionError`` (mindspeed_llm/training/arguments.py), and MindSpeed-RL's
``validate_rl_args`` raises ValueError for its YAML config (mindspeed_rl/config_cls/validate_config.py). Each message
is one rule among hundreds, but the class is one: the options given together do not fit (parallel sizes against the
world size or layer count, a fused kernel without the option it needs, two options that exclude each other), so the
run stops before any model is built, and the fix is in the launch script or YAML. Read from the innermost frame (a
validation function in one of these packages), or, for a message pasted alone, from the Megatron flags it names.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised

MEGATRON_ARGS = "https://github.com/NVIDIA/Megatron-LM/blob/core_r0.11.0/megatron/training/arguments.py"
MEGATRON_OLD_ARGS = "https://github.com/NVIDIA/Megatron-LM/blob/v2.5/megatron/arguments.py"
MINDSPEED_LLM_ARGS = ("https://github.com/Ascend/MindSpeed-LLM/blob/501538c609cbb916720154e72ab57c6cbae0e6aa/"
                      "mindspeed_llm/training/arguments.py")
MINDSPEED_RL_VALIDATE = ("https://github.com/Ascend/MindSpeed-RL/blob/5fa95148a66a3c0dc28b0748cca83b23242ab7bf/"
                         "mindspeed_rl/config_cls/validate_config.py")

# The innermost frame: a file of Megatron-LM / Megatron-core or a MindSpeed package ...
PACKAGE_PATH = lazy(r"(?:^|[/\\])(?:megatron|mindspeed(?:_llm|_rl|_mm)?)[/\\](?:[\w.-]+[/\\])*[\w.-]+\.py$")
# ... and in it, a validation function.
VALIDATOR = lazy(r"^(?:_?valid(?:ate)?(?:_\w+)?|\w*validate_\w*args\w*|pre_validate_args|post_validate_args|__post_init__)$")
# Megatron before core 0.6 asserted in parse_args itself (megatron/arguments.py).
OLD_PARSE = lazy(r"(?:^|[/\\])megatron[/\\]arguments\.py$")
FLAG = lazy(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)+")
ARGS_ATTR = lazy(r"\bargs\.([a-z_][a-z0-9_]*)")
SNAKE = lazy(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
# A message pasted alone: Megatron's own words for a parallel layout that does not fit.
MEGATRON_WORDS = lazy(r"^world size \(?\d+\)? is not divisible by |must be divisible (?:by )?pipeline model parallel size|"
                      r"^global batch size \(\d+\) is not divisible by micro batch size")


def _innermost(link: Link):
    return link.frames[-1] if link.frames else None


class LaunchArguments(Analyzer):
    id = "DRV-launch-args"
    title = "Megatron / MindSpeed refused the combination of launch arguments"
    family = "verl-config"
    stops_run = "the launch arguments fail their own validation: nothing is built, a rerun fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type not in ("AssertionError", "ValueError"):
            return None
        frame = _innermost(link)
        msg = link.message.strip()
        if frame is not None:
            path = frame.path
            if not PACKAGE_PATH.search(path):
                return None
            if not (VALIDATOR.match(frame.func) or frame.func == "parse_args" and OLD_PARSE.search(path)):
                return None
        elif not (link.short_type == "AssertionError" and (FLAG.search(msg) or MEGATRON_WORDS.search(msg))):
            return None
        rl = frame is not None and "mindspeed_rl" in frame.path
        text = f"{msg} {link.statement}"
        names: list[str] = []
        for flag in FLAG.findall(text):
            if flag not in names:
                names.append(flag)
        for attr in ARGS_ATTR.findall(text):
            name = attr if rl else "--" + attr.replace("_", "-")
            if name not in names:
                names.append(name)
        if rl:
            for word in SNAKE.findall(msg):
                if word not in names:
                    names.append(word)
        where = f" ({frame.path.rsplit('/', 1)[-1]}:{frame.line} in {frame.func})" if frame is not None else ""
        shown = msg or link.statement or "(an assert without a message)"
        owner = ("MindSpeed-RL's validate_rl_args" if rl else
                 "MindSpeed" if frame is not None and "mindspeed" in frame.path else "Megatron's argument validation")
        named = (" It names " + ", ".join(names[:6]) + ".") if names else ""
        cause = (
            f"{link.short_type}{where}: {shown[:240]}. {owner} checks the launch options against each other before any "
            "model is built, and this combination broke one rule: parallel sizes that do not divide the world size, the "
            "layer count or the batch, a fused kernel or feature switched on without the option it needs, or two options "
            f"that exclude each other.{named} Nothing ran; the same arguments fail the same way on every rerun."
        )
        fix = [
            ("Change the YAML keys it names in the MindSpeed-RL config (megatron_training / actor_config, rl_config, "
             "generate_config) so the rule holds" if rl else
             "Change the options it names in the launch script so the rule holds") + (f": {', '.join(names[:6])}" if names else ""),
            "Check the parallel layout: world size = TP x PP x CP x DP (x EP inside DP for MoE), the layer count divisible by PP "
            "(and by the virtual stages), the global batch size divisible by micro batch size x DP",
            "Start from the model's shipped example script for this release (examples/ of MindSpeed-LLM / MindSpeed-RL, "
            "Megatron-LM's examples/) and change one option at a time; options copied from another release may have "
            "changed meaning or been removed",
        ]
        sources = [MINDSPEED_RL_VALIDATE] if rl else [MEGATRON_ARGS, MINDSPEED_LLM_ARGS]
        if frame is not None and frame.func == "parse_args":
            sources.insert(0, MEGATRON_OLD_ARGS)
        return Finding(
            f"Launch arguments refused by {owner}: {shown[:100]}", cause, tuple(fix), evidence(link), tuple(sources),
            key=f"launch-args:{shown[:80]}", family="verl-config", kind="launch-args-invalid",
        )
