"""The rollout engine's length checks, read back to the numbers and the verl keys that set them.

vLLM refuses an engine config whose lengths do not fit together, and says so with both numbers:
without chunked prefill one scheduler step must hold a whole sequence (max_num_batched_tokens >=
max_model_len), and max_model_len may not exceed what the model's config.json declares. verl checks
the same before it builds the engine, in its own words. verl sets max_model_len from
data.max_prompt_length + data.max_response_length unless rollout.max_model_len is given, so the fix
is a verl key, whichever side printed the message. EasyR1 and its forks compare the budget with the prompt and response
lengths themselves, in their own words.
"""

from __future__ import annotations

from ..chain import Chain, Link
from ...lazyre import lazy
from . import Analyzer, Facts, Finding, evidence, raised, typed

VLLM_SCHEDULER = "https://github.com/vllm-project/vllm/blob/v0.8.5/vllm/config.py"
VLLM_MODEL_LEN = "https://github.com/vllm-project/vllm/blob/v0.34.0/vllm/config/model.py"
VERL_ROLLOUT = ("https://github.com/verl-project/verl/blob/9b250f14006c3ca4fd5b5ad356646084e5fe3375/"
                "verl/workers/rollout/vllm_rollout/vllm_rollout_spmd.py")
VERL_CONFIG = "https://verl.readthedocs.io/en/latest/examples/config.html"

# vLLM's SchedulerConfig ("max_num_batched_tokens (8192) is smaller than max_model_len (9216).") and verl's
# older check, without numbers ("Enable chunked prefill, max_num_batched_tokens is smaller than max_model_len").
BATCHED = lazy(r"max_num_batched_tokens (?:\((\d+)\) )?is smaller than max_model_len(?: \((\d+)\))?")
# EasyR1's vLLMRollout (and the forks that copied it, for vLLM and SGLang rollouts) checks the same before it builds the
# engine, against the config's own lengths: "max_num_batched_tokens should be greater than prompt_length +
# response_length." (a paste may cut it after "p").
EASYR1_BATCHED = lazy(r"max_num_batched_tokens should be greater than p(?:rompt_length \+ response_length)?")
EASYR1_ROLLOUT = ("https://github.com/hiyouga/EasyR1/blob/d37f6e08a472fa1020c41b62fe61ae39c878286c/"
                  "verl/workers/rollout/vllm_rollout_spmd.py")
# vLLM's ModelConfig: "User-specified max_model_len (131072) is greater than the derived max_model_len
# (max_position_embeddings=8192 or model_max_length=None in model's config.json)"; verl's own assert before it.
OVER_MODEL = lazy(r"max_model_len \((\d+)\) is greater than the derived max_model_len \(([^)]*)\)"
                  r"|model context length should be greater than total sequence length")
DERIVED = lazy(r"(\w+)=(\d+)")
TYPES = ("ValueError", "ValidationError", "AssertionError")
ROLLOUT = "actor_rollout_ref.rollout"


class EngineLengths(Analyzer):
    id = "DRV-engine-lengths"
    title = "The rollout engine's lengths do not fit together"
    family = "verl-config"
    stops_run = "the rollout engine refuses its config at start-up: a rerun fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or not typed(link, TYPES):
            return None
        if (m := BATCHED.search(link.message)) is not None:
            return self._batched(link, m.group(1), m.group(2))
        if EASYR1_BATCHED.search(link.message) is not None:
            return self._batched_easyr1(link)
        if (m := OVER_MODEL.search(link.message)) is not None:
            return self._over_model(link, m.group(1), m.group(2))
        return None

    @staticmethod
    def _batched(link: Link, tokens: str | None, model_len: str | None) -> Finding:
        numbers = f" ({tokens} < {model_len})" if tokens and model_len else ""
        at_least = model_len or "max_model_len"
        return Finding(
            f"max_num_batched_tokens is below max_model_len{numbers}",
            f"{link.short_type}: {link.message[:200]}. Without chunked prefill one scheduler step must hold a whole "
            "sequence, so the engine refuses a token budget per step smaller than max_model_len. verl passes "
            f"{ROLLOUT}.max_num_batched_tokens as set (8192 by default) while max_model_len follows "
            "data.max_prompt_length + data.max_response_length (or the model's context when verl lets vLLM derive it).",
            (f"Set {ROLLOUT}.max_num_batched_tokens={at_least} (at least max_model_len)",
             f"Or set {ROLLOUT}.enable_chunked_prefill=True, or lower {ROLLOUT}.max_model_len / the prompt and response lengths"),
            evidence(link), (VLLM_SCHEDULER, VERL_ROLLOUT, VERL_CONFIG), key=f"batched:{tokens}:{model_len}",
            kind="max-num-batched-tokens-below-max-model-len",
        )

    @staticmethod
    def _batched_easyr1(link: Link) -> Finding:
        return Finding(
            "max_num_batched_tokens is below prompt_length + response_length",
            f"{link.short_type}: {link.message[:200]}. EasyR1's rollout (and the verl forks built on it) refuses a token "
            "budget per engine step smaller than one whole sequence, the prompt length plus the response length it was "
            "configured with, before it builds the vLLM / SGLang engine.",
            ("Set worker.rollout.max_num_batched_tokens to at least data.max_prompt_length + data.max_response_length",
             "Or shorten data.max_prompt_length / data.max_response_length"),
            evidence(link), (EASYR1_ROLLOUT, VLLM_SCHEDULER), key="batched:easyr1",
            kind="max-num-batched-tokens-below-max-model-len",
        )

    @staticmethod
    def _over_model(link: Link, asked: str | None, derived: str | None) -> Finding:
        declared = DERIVED.findall(derived or "")
        limit = declared[0][1] if declared else ""
        where = f"{declared[0][0]}={limit} in config.json" if declared else "max_position_embeddings in config.json"
        return Finding(
            "max_model_len is longer than the model's context" + (f" ({asked} > {limit})" if asked and limit else ""),
            f"{link.short_type}: {link.message[:200]}. The engine reads the longest sequence the model supports from "
            f"its config ({where}) and refuses a longer max_model_len; verl asks for data.max_prompt_length + "
            "data.max_response_length unless rollout.max_model_len is set.",
            (f"Make data.max_prompt_length + data.max_response_length (or {ROLLOUT}.max_model_len) at most "
             + (limit or "the model's max_position_embeddings"),
             "Only if the model really supports a longer context (rope scaling): set it in the model's config.json, or "
             "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 for vLLM"),
            evidence(link), (VLLM_MODEL_LEN, VERL_ROLLOUT, VERL_CONFIG), key=f"over-model:{asked}:{limit}",
            family="data-model", kind="max-model-len-exceeds-model",
        )
