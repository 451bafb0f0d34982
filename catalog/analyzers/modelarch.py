"""A model whose architecture the installed vLLM (or verl) does not register, read against the list it prints.

vLLM refuses a model whose config.json architectures are not in its registry and prints the registry
with the refusal. An architecture missing from that list means the vLLM release predates the model
(on Ascend the vLLM pin moves with vllm-ascend); one that is listed but still refused failed to
import, which the error above it says.

verl keeps registries of its own and words their refusals the same way: its legacy Megatron model registry
(verl/utils/model.py, verl/models/registry.py _MODELS: Llama / Qwen2 / Mistral, Apertus from 0.7; the weight
loader / saver registries say "loader" / "saver"), and before 0.3 the remove-padding list
(check_model_support_rmpad: "RMPad supported architectures: …"). A model missing there is one that verl
release does not support on that path (VerlModelArchitecture).
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised, typed

VLLM_REGISTRY = "https://github.com/vllm-project/vllm/blob/v0.8.5/vllm/model_executor/models/registry.py"
VLLM_MODELS = "https://docs.vllm.ai/en/latest/models/supported_models.html"

VERL_REGISTRY = "https://github.com/verl-project/verl/blob/v0.4.0/verl/models/registry.py"
VERL_MODEL = "https://github.com/verl-project/verl/blob/v0.4.0/verl/utils/model.py"
VERL_LOADERS = "https://github.com/verl-project/verl/blob/v0.4.0/verl/models/weight_loader_registry.py"
VERL_RMPAD = "https://github.com/verl-project/verl/blob/v0.2.0.post2/verl/models/registry.py"
# verl < 0.3 check_model_support_rmpad: f"Model architecture {model_type} is not supported for now. RMPad supported
# architectures: {_REOVEPAD_MODELS.keys()}.Please set `use_remove_padding=False` in the model config."
RMPAD = lazy(r"Model architecture (\S+) is not supported for now\. RMPad supported architectures: (?:dict_keys\()?\[([^\]]*)\]")
# verl's Megatron weight loader / saver registries (weight_loader_registry.py): only verl words it with loader / saver
VERL_LOADER = lazy(r"Model architectures (\S+) (loader|saver) are not supported for now\. Supported architectures:")
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


class VerlModelArchitecture(Analyzer):
    """verl's own model registries (Megatron model classes, weight loaders, the old remove-padding list) lack the model."""

    id = "DRV-verl-model-arch"
    title = "The installed verl does not support the model's architecture on this path"
    family = "compat"
    stops_run = "the workers refuse the model while building it: a rerun fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("ValueError",)) or "not supported for now" not in link.message:
            return None
        msg = link.message
        verl = facts.versions.get("verl")
        shown = f" (the log shows verl {verl})" if verl else ""
        if (m := RMPAD.search(msg)) is not None:
            arch, listed = m.group(1), ", ".join(NAME.findall(m.group(2)))
            return Finding(
                f"verl{' ' + verl if verl else ''} has no remove-padding support for model type {arch}"[:160],
                f"ValueError: {msg[:200]}. verl releases before 0.3 apply remove-padding (use_remove_padding=True) only to "
                f"the model types in their own list ({listed}){shown}; {arch} is not among them, so this verl predates "
                "support for the model on that path (later releases enable remove-padding for any model with flash attention).",
                ("Upgrade verl to a release that supports the model (0.3 or later applies remove-padding to any model that "
                 "supports flash attention)",
                 "Or set actor_rollout_ref.model.use_remove_padding=False (and critic.model.use_remove_padding=False) to train "
                 "it without remove-padding on this verl"),
                evidence(link), (VERL_RMPAD,), key=f"verl-rmpad:{arch}", family="compat",
                kind="model-arch-unsupported-by-verl",
            )
        loader = VERL_LOADER.search(msg)
        m = UNSUPPORTED.search(msg)
        registered = NAME.findall(m.group(2) or "") if m is not None else []
        verl_list = m is not None and bool(registered) and set(registered) <= VERL_MEGATRON \
            and (m.group(2) or "").rstrip(" .)").endswith("]")
        if loader is None and not verl_list:
            return None
        asked = loader.group(1) if loader is not None else ", ".join(NAME.findall(m.group(1)) or [m.group(1).strip("' ")])
        where = f"Megatron weight {loader.group(2)} registry" if loader is not None else \
            f"Megatron model registry (it lists {', '.join(registered)})"
        return Finding(
            f"verl's {where.split(' (')[0]} does not know {asked}"[:160],
            f"ValueError: {msg[:200]}. The refusal comes from verl's own {where}{shown}, not from vLLM: verl's legacy "
            "Megatron workers build the model from verl's parallel model classes and support only the architectures "
            f"registered there, so {asked} cannot be trained on that path with this verl, whatever vLLM supports.",
            ("Train this model with the FSDP workers (actor strategy fsdp) instead of the Megatron ones",
             "Or upgrade verl to a release whose Megatron path loads it through mcore / mbridge (use_mbridge)"),
            evidence(link), (VERL_MODEL, VERL_REGISTRY, VERL_LOADERS), key=f"verl-arch:{asked}", family="compat",
            kind="model-arch-unsupported-by-verl",
        )
