"""Code reading a model config's rope_scaling by a key the config does not carry (KeyError: 'type' / 'rope_type').

transformers renamed rope_scaling's "type" to "rope_type" (4.43, PR #32182 keeps reading both) and transformers 5
moved RoPE settings to rope_parameters; code written against one convention — a checkpoint's remote modeling code
(trust_remote_code), an inference server (TGI, an older SGLang / vLLM), a research repo's own attention class —
indexes ``config.rope_scaling["type"]`` (or ``["rope_type"]``, ``["factor"]``) and meets a config written in the
other, so it raises a bare KeyError naming the key. The exception alone says nothing; the source line Python prints
above it does: it indexes rope_scaling.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence

ROPE_UTILS = "https://github.com/huggingface/transformers/blob/v4.51.3/src/transformers/modeling_rope_utils.py"
RENAME_PR = "https://github.com/huggingface/transformers/pull/32182"
READS_ROPE = lazy(r"rope_(?:scaling|parameters)\s*\[\s*['\"](\w+)['\"]\s*\]")


class RopeScalingKey(Analyzer):
    id = "DRV-rope-scaling-key"
    title = "Code indexes rope_scaling by a key the model config does not carry"
    family = "data-model"
    stops_run = "the model cannot be built from this config by this code: it fails the same way on a rerun"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote") or link.short_type != "KeyError":
            return None
        key = link.message.strip().strip("'\"")
        m = READS_ROPE.search(link.source or "")
        if m is None or m.group(1) != key:
            return None
        where = f" ({link.frames[-1]})" if link.frames else ""
        legacy = key in ("type", "rope_type")
        cause = (
            f"KeyError: '{key}' raised by `{link.source.strip()[:160]}`{where}: the code reads the model config's RoPE "
            f"settings by the key '{key}' and the config's rope_scaling has no such key. "
            + ("transformers renamed rope_scaling's 'type' to 'rope_type' (4.43) and transformers 5 moved the settings to "
               "rope_parameters; this code and the config (or the transformers that rewrote it when loading) follow "
               "different conventions: remote modeling code or a serving framework older or newer than the installed "
               "transformers." if legacy else
               "The config was written without it (a hand-edited, converted or merged checkpoint), or for another "
               "rope_type than this code assumes.")
        )
        fix = [
            ("Install the transformers release this code was written for (the model card's or framework's pin: e.g. "
             "transformers<4.43 for code reading rope_scaling['type'], transformers<5 for code reading rope_scaling "
             "rather than rope_parameters), or update the code / framework (newer remote code, TGI / SGLang / vLLM "
             "release) to one that reads both keys" if legacy else
             f"Add '{key}' to rope_scaling in the model's config.json with the original model's value (see its Hub page)"),
            f"Or make the config carry the key it reads: in config.json, rope_scaling should hold \"{key}\" next to the "
            "other key (e.g. both \"type\" and \"rope_type\" with the same value); keep the other entries as the model ships them",
        ]
        return Finding(
            f"Code reads rope_scaling['{key}'], which the model config lacks", cause, tuple(fix), evidence(link),
            (ROPE_UTILS, RENAME_PR), key=f"rope-key:{key}", family="data-model", kind="rope-scaling-key-mismatch",
        )
