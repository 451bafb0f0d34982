"""A size that must divide another did not: a batch over the devices, a batch over its mini-batches, heads over TP ranks.

Trainers and engines outside verl and Megatron (their own checks are read by DRV-verl and DRV-launch-args) check the
same arithmetic in their own words: "rollout_steps (250) must be divisible by
num_mini_batches (4)" (a robotics trainer's spec check), a bare ``assert args.batch_size % len(devices) == 0`` (MatchSum);
YOLOv5's own wording has its own row (DRV-own-check). The names of the two
quantities say which pair failed; the numbers, where printed, give the nearest values that fit.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from ...lazyre import lazy

# The failures this reading was written from (the two forms above), each a public thread.
SPEC_CHECK = "https://github.com/strands-labs/robots/issues/988"
BARE_ASSERT = "https://github.com/maszhongming/MatchSum/issues/11"

_NAME = r"[A-Za-z_][\w.\-\[\]()]*(?: [A-Za-z_][\w\-]*){0,5}?"
_NAME_WHOLE = r"[A-Za-z_][\w.\-\[\]()]*(?: [A-Za-z_][\w\-]*){0,5}"
# "<a> (250) must be [evenly] divisible by <b> (4)", "<a>=60 should be divisible by <b>=8", "<a> 64 not multiple of <b> 3",
# "<a> (7) is not divisible by <b> (2)", "<a> must be a multiple of <b>".
SAID = lazy(
    rf"(?P<a>{_NAME})\s*(?:\(|=|:)?\s*(?P<an>\d+)?\)?,?\s+(?:must|should|has to|needs? to|is not|isn't|are not)?\s*(?:be )?"
    rf"(?:(?:evenly |exactly )?divisible by|not (?:a )?multiple of|a multiple of)\s+(?:the )?"
    rf"(?:(?P<b>{_NAME})\s*(?:\(|=|:)?\s*(?P<bn>\d+)\)?|(?P<b2>{_NAME_WHOLE}))",
    re.I)
# The printed assert statement: "assert args.batch_size % len(devices) == 0".
STATEMENT = lazy(r"assert\s+(?P<a>[\w.\[\]()'\"]+)\s*%\s*(?P<b>[\w.\[\]()'\"]+)\s*==\s*0")

WORLD = lazy(r"world[_ ]?size|gpu[_ ]?count|\bgpus\b|num_gpus|n_gpus?|devices|device[_ ]count|\branks\b|nprocs|num_processes|"
             r"process(?:es)?\b|data[_ ]parallel|\bdp(?:_size)?\b|\bworkers?\b|cpu places", re.I)
MINI = lazy(r"mini[_ ]?batch|minibatch|num_mini_batches|nminibatches|grad(?:ient)?_accum|micro[_ ]?batch", re.I)
BATCH = lazy(r"batch|rollout_steps|n_steps|\bsteps\b|buffer_size", re.I)
HEADS = lazy(r"heads?\b", re.I)
# DeepSpeed's inference engine calls its tensor-parallel degree mp_size ("num_heads (52) must be divisible by mp_size (8)",
# deepspeed/module_inject), as Megatron's older releases called it the model-parallel size.
TP = lazy(r"tensor[_ ]?(?:model[_ ])?parallel|\btp(?:_size)?\b|\bmp(?:_size)?\b|model[_ ]parallel", re.I)
LAYERS = lazy(r"layers?\b", re.I)
PP = lazy(r"pipeline|\bpp(?:_size)?\b", re.I)
# GRPO's group: a batch of completions split into groups of num_generations per prompt. TRL's wordings across releases
# (trl/trainer/grpo_trainer.py v0.14-v0.17, grpo_config.py v0.18-v1.x; ms-swift and open-r1 copy them): "The global
# train batch size (N x B) must be evenly divisible by the number of generations per prompt (G)", "The effective train
# batch size (N x B x S) ...", "generation_batch_size (X) must be divisible by num_generations (G)", "The global eval
# batch size (a * b) must be divisible by num_generations (G)" / "by the number of generations used for evaluation (G)".
GENERATIONS = lazy(r"\bgenerations\b|num_generations", re.I)
# A quantized layer's tensor-parallel shard that is not a whole number of quantization blocks / groups / kernel tiles:
# vLLM and SGLang fp8.py "Weight output_partition_size = 8 is not divisible by weight quantization block_n = 128",
# "The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128" (Fp8MoEMethod),
# marlin_utils.py "Weight input_size_per_partition = 1408 is not divisible by min_thread_k = 128" / "by group_size = 128".
QUANT_UNIT = lazy(r"quantiz|\bblock_[nk]\b|min_thread_[nk]|min_[nk]_threads|pack_factor|group_size|\bgroup size", re.I)
QUANT_PART = lazy(r"weight|partition|(?:input|output)_size|in_features|out_features", re.I)

# (dividend words, divisor words) -> the class, its reading and what to change
CLASSES = (
    (HEADS, TP, "tp-size-not-divisor-of-heads", "the attention heads are split evenly over the tensor-parallel ranks",
     "a tensor-parallel size that divides the head count (and the KV-head count)"),
    (LAYERS, PP, "pp-size-not-divisor-of-layers", "the layers are split evenly over the pipeline stages",
     "a pipeline-parallel size that divides the layer count (or uneven first / last stages where the framework allows)"),
    (MINI, WORLD, "batch-size-not-divisible-by-world-size", "each device gets an equal share of every mini-batch",
     "a mini-batch size that is a multiple of the device (data-parallel) count, or a device count that divides it"),
    (BATCH, MINI, "batch-size-not-divisible-by-minibatches", "each update splits the batch into equal mini-batches",
     "a batch (steps x environments, or the batch size) that is a multiple of the number of mini-batches, or a "
     "mini-batch count that divides it"),
    (BATCH, WORLD, "batch-size-not-divisible-by-world-size", "each device (process) gets an equal share of the batch",
     "a batch size that is a multiple of the device count (the GPUs / NPUs / processes the run was launched with), or "
     "launch on a device count that divides it"),
)


def _nearest(a: int, b: int) -> str:
    """The multiples of b around a, and the largest divisor of a not above b."""
    if b <= 0:
        return ""
    lower, upper = (a // b) * b, ((a + b - 1) // b) * b
    divisor = next((d for d in range(b, 0, -1) if a % d == 0), 1)
    out = f"{a} is not a multiple of {b}: {upper}" + (f" or {lower}" if lower and lower != upper else "") + " would fit"
    return out + (f", or {divisor} instead of {b}" if divisor != b else "")


class SizeDivisibility(Analyzer):
    id = "DRV-divisible"
    title = "A size that must divide another does not"
    family = "verl-config"
    stops_run = "a configuration check failed: it fails the same way on a rerun"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        said = SAID.search(link.message)
        stated = None if said else STATEMENT.search(link.statement or link.source or link.message)
        m = said or stated
        if m is None:
            return None
        if said and not any(c.isdigit() for c in link.message) and link.short_type not in ("AssertionError", "ValueError"):
            return None  # words without numbers in another exception: prose about a size, not the check that failed
        a, b = m.group("a").strip(), (m.group("b") or m.group("b2") if said else m.group("b")).strip()
        numbers = (int(m.group("an")), int(m.group("bn"))) if said and m.group("an") and m.group("bn") else None
        found = next((c for c in CLASSES if c[0].search(a) and c[1].search(b)), None)
        head = link.message[:m.start("b") if said and m.group("b") else len(link.message)]
        if said and GENERATIONS.search(b) and BATCH.search(head):
            if not BATCH.search(a):  # "The global train batch size (7 x 1) must ...": the name is before the product
                a, numbers = "the global batch size", None
            found = (None, None, "grpo-num-generations-batch-mismatch",
                     "GRPO scores each prompt's completions as one group, so every batch of completions must hold whole "
                     "groups of num_generations", "a global batch (per-device batch x processes, x steps per generation "
                     "where the release multiplies it) that is a multiple of num_generations, or a num_generations that "
                     "divides it")
        elif said and QUANT_UNIT.search(b) and QUANT_PART.search(a):
            found = (None, None, "quant-tp-size-misaligned",
                     "each tensor-parallel rank holds a slice of the quantized weight, and a slice must be a whole number "
                     "of quantization blocks / groups (the checkpoint's weight_block_size or group_size)",
                     "a tensor-parallel size whose shards are whole blocks (a smaller TP, or expert parallelism for MoE "
                     "experts so they stay whole), or the unquantized checkpoint")
        if found is None:
            if not said:
                return None
            kind, why, change = "size-not-divisible", "the code splits the first evenly by the second", \
                "values where the first is a multiple of the second"
        else:
            _, _, kind, why, change = found
        shown = m.group(0) if said else f"assert {a} % {b} == 0"
        cause = (f"{link.short_type or 'The check'}: {link.message[:200] or shown}. The check requires {a} to be a multiple "
                 f"of {b}: {why}.")
        if numbers:
            cause += " " + _nearest(*numbers) + "."
        fix = [f"Set {change}", "Set the two values together (the batch and the device count move together when the "
               "number of GPUs / NPUs or processes per node changes)"]
        return Finding(
            f"{a} is not divisible by {b}"[:160], cause, tuple(fix), evidence(link), (SPEC_CHECK, BARE_ASSERT),
            key=f"divisible:{a}:{b}", family="verl-config", kind=kind, weak=found is None,
        )
