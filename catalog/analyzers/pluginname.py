"""vLLM refuses a name only the Ascend platform plugin supplies: the plugin and vLLM are out of step.

vLLM knows nothing of the NPU by itself; vllm-ascend (an out-of-tree platform plugin) adds its names to vLLM's
registries at start-up, and vLLM looks them up by name. When the installed vLLM does not know the name, the
plugin that should have supplied it is a release written for another vLLM (or is not loaded at all). Two
lookups state it in their own words:

- ``argument --quantization/-q: invalid choice: 'ascend' (choose from …)`` — CPython's argparse
  (``ArgumentParser._check_value``) refuses a value not among the option's choices. vLLM's own quantization
  choices never hold 'ascend': vllm-ascend's ``NPUPlatform.pre_register_and_update`` appends it to the parser's
  ``--quantization`` choices, from vllm-ascend v0.9.0rc1 on (vllm-ascend PR #877). The refusal means the active
  platform did not run that hook: a vllm-ascend older than that, or the plugin did not load.
- ``Unknown attention backend: 'ASCEND'. Valid options are: …`` — vLLM's ``AttentionBackendEnum`` lookup by
  name (``_AttentionBackendEnumMeta.__getitem__``, vllm/v1/attention/backends/registry.py) when the plugin's
  backend names a member the enum does not have. vllm-ascend's backend called itself 'ASCEND' until its
  "upgrade to vllm 0.11.2" change (v0.12.0rc1), which renamed it to vLLM's 'CUSTOM' registration slot: an
  'ASCEND' (or 'ASCEND_*', another NPU plugin's 'ASCEND_FL') name refused by the enum is a plugin release
  older than the vLLM installed with it.

Either way nothing is wrong with the model or the arguments: the fix is the vLLM / vllm-ascend pair of one
release line (vllm-ascend's versioning policy).
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised, typed

ARGPARSE = "https://github.com/python/cpython/blob/v3.11.9/Lib/argparse.py"
ASCEND_QUANT_CHOICE = "https://github.com/vllm-project/vllm-ascend/pull/877"
ASCEND_PLATFORM = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/vllm_ascend/platform.py"
VLLM_BACKEND_ENUM = "https://github.com/vllm-project/vllm/blob/v0.34.0/vllm/v1/attention/backends/registry.py"
ASCEND_CUSTOM_SLOT = "https://github.com/vllm-project/vllm-ascend/commit/bc69d7cfe1beb68f262a515e97175dcfa1e0baab"
MATRIX = "https://github.com/vllm-project/vllm-ascend/blob/v0.23.0/docs/source/community/versioning_policy.md"

# argparse's refusal (ArgumentParser._check_value, raised as ArgumentError): "invalid choice: %(value)r (choose from …)" under
# "argument --quantization/-q: ". Only a value an NPU plugin supplies is read here.
INVALID_QUANT = lazy(r"argument --quantization(?:/-q)?: invalid choice: '?(\w*(?i:ascend)\w*)'?(?: \(choose from |$|\s)")
# vLLM's AttentionBackendEnum lookup by name (registry.py, _AttentionBackendEnumMeta.__getitem__)
UNKNOWN_BACKEND = lazy(r"Unknown attention backend: '(\w*(?:ASCEND|NPU)\w*)'")

PAIR_FIX = ("Install the vLLM release your vllm-ascend release is built for (or the vllm-ascend release for your vLLM): take "
            "the pair from vllm-ascend's versioning policy; pip show vllm vllm-ascend, and ascendrl check shows the installed pair")


class PluginNameUnknown(Analyzer):
    """A name vllm-ascend adds to vLLM ('ascend' quantization, the 'ASCEND' attention backend) that vLLM does not know."""

    id = "DRV-plugin-name"
    title = "vLLM does not know a name the Ascend platform plugin supplies"
    family = "compat"
    stops_run = "vLLM refuses the name at start-up: every start fails the same way until the pair matches"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        msg = link.message
        if m := INVALID_QUANT.search(msg):
            return self._quantization(link, facts, m.group(1))
        if typed(link, ("ValueError",)) and (m := UNKNOWN_BACKEND.search(msg)):
            return self._backend(link, facts, m.group(1))
        return None

    def _quantization(self, link: Link, facts: Facts, value: str) -> Finding:
        activated = facts.settings is not None and "ascend" in facts.settings.platforms()
        shown = f" (the log shows vllm-ascend {facts.versions['vllm_ascend']})" if "vllm_ascend" in facts.versions else ""
        return Finding(
            f"vLLM's --quantization does not offer '{value}': the vllm-ascend that adds it is too old or not loaded",
            f"{link.message[:200]}. vLLM's own --quantization choices never include '{value}': vllm-ascend's platform "
            "(NPUPlatform.pre_register_and_update) appends it to the parser's choices when the plugin is active, from "
            f"vllm-ascend v0.9.0rc1 on. Here the choices lack it, so the active platform did not run that hook{shown}: "
            + ("the plugin was activated, so the installed vllm-ascend is a release from before the hook."
               if activated else
               "the installed vllm-ascend is a release from before it, or the plugin did not load at all (not installed in "
               "this Python, or its import failed: the log then lacks 'Platform plugin ascend is activated')."),
            (f"Install a vllm-ascend release that offers --quantization {value} (v0.9.0rc1 or later) together with the vLLM it is "
             "built for, the pair from vllm-ascend's versioning policy (pip show vllm vllm-ascend)",
             "Check that the plugin loads: python -c \"import vllm_ascend\" and look for 'Platform plugin ascend is activated' "
             "at vLLM's start"),
            evidence(link), (ARGPARSE, ASCEND_QUANT_CHOICE, ASCEND_PLATFORM, MATRIX), key=f"plugin-name:quantization:{value}",
            family="compat", kind="vllm-ascend-too-old",
        )

    def _backend(self, link: Link, facts: Facts, name: str) -> Finding:
        versions = [f"{p.replace('_', '-')} {facts.versions[p]}" for p in ("vllm", "vllm_ascend") if p in facts.versions]
        shown = f" (the log shows {', '.join(versions)})" if versions else ""
        # 'ASCEND' is vllm-ascend's own name before v0.12.0rc1; another NPU plugin's name ('ASCEND_FL') says only that the pair
        # does not match, not which of the two is behind.
        own = name == "ASCEND"
        plugin = "vllm-ascend" if own else "the NPU platform plugin"
        return Finding(
            f"vLLM's attention-backend registry does not know the plugin's backend '{name}': "
            + ("vllm-ascend older than vLLM" if own else "the plugin and vLLM are out of step"),
            f"ValueError: {link.message[:160].rstrip('.')}. vLLM looks the platform's attention backend up by name in its "
            f"AttentionBackendEnum, and '{name}' is not a member: out-of-tree platforms register their backend in vLLM's "
            "'CUSTOM' slot in the vLLM releases that have the enum (vllm-ascend renamed its backend from 'ASCEND' to 'CUSTOM' "
            f"when it moved to vLLM 0.11.2, release v0.12.0rc1). {plugin[0].upper() + plugin[1:]} still names '{name}': it was "
            f"written for {'an older' if own else 'another'} vLLM than the one installed{shown}.",
            (PAIR_FIX,
             "When building from main branches, take both from the same day, or pin vLLM to the commit vllm-ascend's CI names",
             f"If you set VLLM_ATTENTION_BACKEND (or --attention-backend) to {name} yourself, unset it: the platform chooses its backend"),
            evidence(link), (VLLM_BACKEND_ENUM, ASCEND_CUSTOM_SLOT, MATRIX), key=f"plugin-name:backend:{name}",
            family="compat", kind="vllm-ascend-too-old" if own else "package-mismatch",
        )
