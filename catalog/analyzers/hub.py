"""Model and checkpoint loading that fails before any weight is read: the Hub is unreachable, or torch refuses the pickle.

Hugging Face Hub downloads fail in many wordings — transformers' "We couldn't connect to
'https://huggingface.co'", huggingface_hub's OfflineModeIsEnabled / LocalEntryNotFoundError, urllib3's
MaxRetryError with a NameResolution or ConnectTimeout cause, against huggingface.co or a mirror set
in HF_ENDPOINT — and all mean one thing on an offline training host: download the model first and
load it from a local path. torch >= 2.6 loads checkpoints with ``weights_only=True`` and rejects
pickles holding other objects ("Weights only load failed", "Unsupported global").
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, raised
from ...lazyre import lazy

# datasets words it "Couldn't reach '<repo>' on the Hub (ConnectionError)" (datasets/load.py, 2.x), "Couldn't reach the
# Hugging Face Hub for dataset '<repo>'" (1.18 spells it "Couln't"), and datasets < 2.x fetch a canonical dataset's loading
# script from raw.githubusercontent.com/huggingface/datasets ("Couldn't reach <url> (...)", file_utils.get_from_cache).
HUB_HOST = lazy(r"huggingface\.co|hf-mirror\.com|HF_ENDPOINT|/resolve/main/|/api/models/|' on the Hub\b|the Hugging Face Hub for dataset|"
                r"raw\.githubusercontent\.com/huggingface/datasets/", re.I)
# huggingface_hub < 0.10 raised a plain ValueError (later LocalEntryNotFoundError) with this text.
OLD_HUB_TEXT = lazy(r"Connection error, and we cannot find the requested files in the (?:cached path|disk cache)")
UNREACHABLE = lazy(
    r"couldn't connect to|Cannot reach|Couldn't reach|Couln't reach|offline mode is enabled|Max retries exceeded|NameResolution|Failed to resolve|"
    r"Connect(?:ion)?Timeout|timed out|Connection (?:refused|reset|aborted)|Network is unreachable|outgoing traffic has been disabled|"
    # huggingface_hub file_download.py get_hf_file_metadata (FileMetadataError): the answer carried no Hub headers, i.e.
    # a proxy, captive portal or a wrong HF_ENDPOINT answered instead of the Hub (read in the huggingface_hub 0.30.2 wheel).
    r"Distant resource does not seem to be on huggingface\.co",
    re.I,
)
HUB_TYPES = lazy(r"LocalEntryNotFoundError|OfflineModeIsEnabled")
WEIGHTS_ONLY = lazy(r"Weights only load failed|WeightsUnpickler error|was not an allowed global by default|weights_only=True", re.I)
HF_OFFLINE = "https://huggingface.co/docs/transformers/installation#offline-mode"
HF_ENV = "https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables"
TORCH_LOAD = "https://docs.pytorch.org/docs/stable/notes/serialization.html#weights-only"
HF_VALIDATORS = "https://github.com/huggingface/huggingface_hub/blob/v1.28.0/src/huggingface_hub/utils/_validators.py"


class HubUnreachable(Analyzer):
    id = "DRV-hub"
    title = "Hugging Face Hub not reachable from this host"
    family = "data-model"
    stops_run = "the model cannot be loaded: the run cannot start"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = " ".join([link.type, link.message, *link.detail])
        hub_type = (HUB_TYPES.search(link.type) or (link.short_type == "OSError" and "couldn't connect to" in text)
                    or OLD_HUB_TEXT.search(link.message))
        if not hub_type and not (HUB_HOST.search(text) and UNREACHABLE.search(text)):
            return None
        host = re.search(r"host='([^']+)'|https?://([\w.-]+)", text)
        where = (host.group(1) or host.group(2)) if host else "huggingface.co"
        return Finding(
            f"Hugging Face Hub not reachable ({where})",
            f"{link.short_type}: {link.message[:200]}. The model/tokenizer/dataset was requested from the Hub ({where}) and this "
            "host cannot reach it (offline or firewalled cluster, a proxy, or a mirror in HF_ENDPOINT that is down), and the "
            "files are not in the local cache.",
            ("Download once where the network works (huggingface-cli download <repo> --local-dir /models/<name>) and point "
             "actor_rollout_ref.model.path (and the tokenizer) at that local folder",
             "On the offline host set HF_HUB_OFFLINE=1 (and TRANSFORMERS_OFFLINE=1) so nothing tries the network; "
             "for a mirror set HF_ENDPOINT before Python starts (for vLLM with ModelScope: VLLM_USE_MODELSCOPE=True before import)"),
            evidence(link), (HF_OFFLINE, HF_ENV), key=f"hub:{where}", family="data-model", kind="hf-hub-unreachable",
        )


class WeightsOnly(Analyzer):
    id = "DRV-weights-only"
    title = "torch.load refused a checkpoint under weights_only"
    family = "compat"
    stops_run = "torch refuses the checkpoint on every load"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        text = " ".join([link.message, *link.detail])
        if "Unpickl" not in link.type and not WEIGHTS_ONLY.search(text):
            return None
        if not WEIGHTS_ONLY.search(text):
            return None
        g = re.search(r"GLOBAL ([\w.]+)", text)
        what = f" (it holds {g.group(1)})" if g else ""
        return Finding(
            "torch >= 2.6 loads checkpoints with weights_only=True and refused this one" + what,
            f"{link.short_type}: {link.message[:200]}. Since torch 2.6 torch.load defaults to weights_only=True, which only "
            f"unpickles tensors and allow-listed types; this checkpoint{what} was saved with other Python objects.",
            ("If you trust the file: torch.load(path, weights_only=False) in the code that loads it (or upgrade the library "
             "that calls torch.load to a release that handles torch 2.6)",
             "Or allow the type: torch.serialization.add_safe_globals([<the class named in the error>])",
             "Or use the torch version the project pins (< 2.6)"),
            evidence(link), (TORCH_LOAD,), key=f"wo:{g.group(1) if g else ''}", family="compat", kind="torch-weights-only-load",
        )


class RepoIdInvalid(Analyzer):
    """huggingface_hub's HFValidationError in a wording no entry reads, or named alone (an issue title).

    huggingface_hub raises it from validate_repo_id only (utils/_validators.py): the string given as a repo id is none.
    transformers, PEFT and the trainers on them hand a model, tokenizer or adapter path to the Hub's loader when the path
    is not an existing local folder, so the class is the catalog's ARL-E108 (a model path that does not exist here),
    whose signatures read the messages themselves; this reads the type where they do not."""

    id = "DRV-repo-id"
    title = "A model path taken for a Hub repo id (HFValidationError)"
    family = "data-model"
    stops_run = "the model cannot be loaded from that path: the run cannot start"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type != "HFValidationError":
            return None
        quoted = re.findall(r"'([^']+)'", link.message)  # the repo id is the last quote (the rule's characters come first)
        path = quoted[-1] if quoted else ""
        where = f" ('{path[:120]}')" if path else ""
        return Finding(
            "A model, tokenizer or adapter path that is not a local folder was taken for a Hub repo id" + where,
            f"HFValidationError: {link.message[:200]}. huggingface_hub raises it only when a string given as a repo id is "
            "not one; transformers and the trainers built on it (verl, PEFT's merge, LLaMA-Factory, axolotl) pass a model, "
            "tokenizer or adapter path there when that path is not an existing local folder: it is wrong, relative to "
            "another working directory, on another node, or not written yet.",
            ("Check that the path the failing step was given exists on this host (on every node) and holds config.json, or "
             "adapter_config.json for a LoRA adapter: ls -l <path>; pass it as an absolute path",
             "For an adapter saved during training, point at the folder that holds it (often .../checkpoint-N), not the run's "
             "output folder"),
            evidence(link), (HF_VALIDATORS,), key=f"repo-id:{path[:80]}", family="data-model",
            kind="model-path-missing",
        )
