"""A model whose architecture the installed vLLM does not register, read against the list vLLM prints.

vLLM refuses a model whose config.json architectures are not in its registry and prints the registry
with the refusal. An architecture missing from that list means the vLLM release predates the model
(on Ascend the vLLM pin moves with vllm-ascend); one that is listed but still refused failed to
import, which the error above it says.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised, typed

VLLM_REGISTRY = "https://github.com/vllm-project/vllm/blob/v0.8.5/vllm/model_executor/models/registry.py"
VLLM_MODELS = "https://docs.vllm.ai/en/latest/models/supported_models.html"

UNSUPPORTED = lazy(r"Model architectures \[([^\]]*)\] are not supported for now\.(?: Supported architectures: (.*))?")
NAME = re.compile(r"'(\w+)'")
# verl's Megatron registry (verl/models/registry.py _MODELS, v0.2-v0.9) raises the same sentence from verl/utils/model.py;
# a printed list of only these is verl's, not vLLM's (ARL-E614 names it).
VERL_MEGATRON = frozenset(("LlamaForCausalLM", "Qwen2ForCausalLM", "MistralForCausalLM", "ApertusForCausalLM"))


class ModelArchitecture(Analyzer):
    id = "DRV-model-arch"
    title = "The installed vLLM does not register the model's architecture"
    family = "compat"
    stops_run = "the engine refuses the model at start-up: a rerun fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("ValueError",)):
            return None
        m = UNSUPPORTED.search(link.message)
        if m is None:
            return None
        asked = NAME.findall(m.group(1)) or [m.group(1).strip("' ")]
        registered = NAME.findall(m.group(2) or "")
        if registered and set(registered) <= VERL_MEGATRON and (m.group(2) or "").rstrip(" .)").endswith("]"):
            return None  # verl's own Megatron registry refused it, not vLLM
        if registered and all(a in registered for a in asked):
            return None  # registered but refused: its code failed to import, and that error is the one to read
        missing = [a for a in asked if a not in registered]
        import difflib  # only when an architecture is missing: a one-line paste never needs it

        near = difflib.get_close_matches(missing[0], registered, n=2, cutoff=0.8) if registered else []
        vllm = facts.versions.get("vllm")
        complete = (m.group(2) or "").rstrip(" .)").endswith("]")  # the log keeps only the head of a long list
        listed = (f" The registry this vLLM printed has {len(registered)} architectures" if complete else "") + (
            f"{'; the' if complete else ' The'} nearest it lists: {', '.join(near)}" if near else "") + ("." if complete or near else "")
        return Finding(
            f"vLLM{' ' + vllm if vllm else ''} does not know {', '.join(missing)}",
            f"ValueError: vLLM refused the model: its architecture {', '.join(missing)} is not in the installed vLLM's "
            f"model registry, so that release predates the model.{listed}",
            (f"Upgrade vLLM to a release whose supported-models list has {missing[0]} (on Ascend, the vllm-ascend release "
             "that pins that vLLM: the two move together)",
             "Or use a model of an architecture this vLLM lists (an earlier generation of the same family)"),
            evidence(link), (VLLM_REGISTRY, VLLM_MODELS), key=f"arch:{','.join(missing)}",
            family="compat", kind="model-arch-unsupported-by-vllm",
        )
