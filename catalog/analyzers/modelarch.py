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
# A paste may end inside the sentence (an issue title cut at its length limit: "… are not supported for no"): the
# architecture list and "are not supported for" are already vLLM's refusal; nothing after them is read.
UNSUPPORTED = lazy(r"Model architectures \[([^\]]*)\] are not supported for (?:now\.(?: Supported architectures: (.*))?|(?:n(?:ow?)?)?$)")
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


# A serving backend's own code path reads a model object the way it reads the models it was written for, and the
# model at hand has another shape (k34pkg):
# - Text-model attributes every decoder config defines (transformers' PretrainedConfig subclasses, directly or through
#   their attribute_map), read at the top level of a config that lacks them: a composite (multimodal) config, which
#   keeps them in its text_config (Gemma3Config, Llama4Config, Qwen2_5OmniThinkerConfig; get_text_config() returns it).
#   Code that reads config.num_hidden_layers was written for text-only models: it has no path for this one
#   (vllm-ascend 0.9.0rc1's update_aclgraph_sizes on Gemma 3). Read only when an NPU plugin's frame reads it: another
#   caller's read can also be a pair that does not match (a transformers release that passed it through at the top).
# - vllm-ascend's ACL graph set-up reads aclgraph_support from each attention layer's metadata builder; only its own
#   Ascend builders (AscendAttentionMetadataBuilder, AscendMLA…, AscendSFA…) define it. A builder of vLLM's own
#   (GDNAttentionMetadataBuilder for Qwen3-Next's gated delta net, a Mamba / linear-attention builder) means the model's
#   attention type has no NPU implementation in that graph-mode path.
TEXT_CONFIG_ATTRS = frozenset(("num_hidden_layers", "hidden_size", "vocab_size", "num_attention_heads", "intermediate_size"))
OBJ_NO_ATTR = lazy(r"^'(\w+)' object has no attribute '(\w+)'")
CONFIG_GETATTR = lazy(r"[/\\]transformers[/\\]configuration_utils\.py$")
NPU_PLUGINS = {"vllm_ascend": "vllm-ascend"}
TF_COMPOSITE = "https://github.com/huggingface/transformers/blob/v4.50.0/src/transformers/models/gemma3/configuration_gemma3.py"
TF_TEXT_CONFIG = "https://github.com/huggingface/transformers/blob/v4.50.0/src/transformers/configuration_utils.py"
VA_ACLGRAPH_SIZES = "https://github.com/vllm-project/vllm-ascend/blob/v0.9.0rc1/vllm_ascend/utils.py"
VA_GRAPH_MODE = "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/docs/source/user_guide/feature_guide/graph_mode.md"
VA_RUNNER = "https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/worker/model_runner_v1.py"
VERL_MERGER = "https://github.com/verl-project/verl/blob/v0.6.1/verl/model_merger/megatron_model_merger.py"


class ModelPathMissing(Analyzer):
    """A backend's code path for text-only / its own attention types met a model of another shape."""

    id = "DRV-model-path"
    title = "The serving backend's code path does not support this model"
    family = "compat"
    stops_run = "the same model fails on the same code path at every start"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, ("AttributeError",)):
            return None
        m = OBJ_NO_ATTR.search(link.message.strip())
        if m is None:
            return None
        cls, attr = m.groups()
        # the reader: the innermost frame outside transformers' config __getattribute__ (which raises for it)
        frames = [f for f in link.frames if not CONFIG_GETATTR.search(f.path.replace("\\", "/"))]
        reader = frames[-1].package if frames else None
        if attr == "aclgraph_support":
            if cls.startswith("Ascend") or not cls.endswith("MetadataBuilder") or (frames and reader != "vllm_ascend"):
                return None
            return Finding(
                f"vllm-ascend's graph mode has no NPU attention backend for this model ({cls})"[:160],
                f"AttributeError: {link.message.strip()[:200]}. vllm-ascend's ACL graph set-up reads aclgraph_support from "
                "every attention layer's metadata builder, which only its own Ascend builders define; this model's layers use "
                f"vLLM's {cls}, an attention type (linear attention, gated delta net, Mamba-style state) the installed "
                "vllm-ascend has no NPU implementation of on that path, so the model is not supported there in graph mode.",
                ("Run the model in eager mode (vllm serve --enforce-eager, or LLM(..., enforce_eager=True)) on this vllm-ascend",
                 "Or upgrade to a vllm-ascend release whose supported-models list has the model in graph mode"),
                evidence(link), (VA_RUNNER, VA_GRAPH_MODE), key=f"aclgraph-builder:{cls}", family="compat",
                kind="model-unsupported-on-npu-backend",
            )
        if attr not in TEXT_CONFIG_ATTRS or not cls.endswith("Config"):
            return None
        from .package import transformers_family_class

        via_getattr = any(CONFIG_GETATTR.search(f.path.replace("\\", "/")) for f in link.frames)
        if not via_getattr and not transformers_family_class(cls):
            return None  # not shown to be a transformers model config (a framework's own XxxConfig)
        if reader == "verl" and any("model_merger" in f.path for f in frames):
            # verl's Megatron merger sizes its pipeline shards from config.num_hidden_layers (and reads the other text
            # attributes) at the top level: written for text-only decoders, it has no path for a VL model's config.
            return Finding(
                f"verl's model merger reads {attr} from {cls}, a composite (vision-language) config it has no path for"[:160],
                f"AttributeError: {link.message.strip()[:200]}. verl's Megatron model merger (python -m verl.model_merger "
                f"merge --backend megatron) reads {attr} at the top level of the model's config, as for a text-only "
                f"decoder; {cls} is a composite (multimodal) config that keeps its language model's settings in "
                "text_config, so this merger release cannot convert the checkpoint of this model.",
                ("Save Hugging Face weights during training instead: actor_rollout_ref.actor.megatron.use_mbridge=True with "
                 "actor_rollout_ref.actor.checkpoint.save_contents including 'hf_model', then use global_step_N/actor/huggingface",
                 "Or use a verl release whose merger supports the model, or convert with mbridge / Megatron-Bridge's export"),
                evidence(link), (VERL_MERGER, TF_TEXT_CONFIG), key=f"verl-merger-composite:{cls}:{attr}",
                family="compat", kind="model-arch-unsupported-by-verl",
            )
        if reader not in NPU_PLUGINS:
            # Another caller (vLLM, a trainer) reading it may be written for a transformers release that still passed the
            # attribute through at the top level (a pair that does not match, read by DRV-package), or may predate the
            # model: the frames do not tell which. An NPU plugin's own path is the one read here.
            return None
        who = NPU_PLUGINS[reader]
        return Finding(
            f"{who} reads {attr} from {cls}, a composite model config: its NPU path has no support for this model"[:160],
            f"AttributeError: {link.message.strip()[:200]}. Every text model's config defines {attr}; {cls} does not, because it "
            "is a composite (multimodal) config that keeps its language model's settings in text_config "
            f"(config.get_text_config().{attr}). {who} ({frames[-1].func or 'its code'}) reads it at the top level, as for a "
            "text-only model: the installed release's NPU path was not written for this model.",
            (f"Use a {who} release whose supported-models list has the model, or serve a text-only variant of it",
             "If the failing path is an optional feature (graph mode: --enforce-eager), turn it off until a release supports the model"),
            evidence(link), (TF_COMPOSITE, TF_TEXT_CONFIG, VA_ACLGRAPH_SIZES), key=f"composite-config:{cls}:{attr}",
            family="compat", kind="model-unsupported-on-npu-backend",
        )
