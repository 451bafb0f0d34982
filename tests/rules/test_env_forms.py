"""ARL-V001/V002 speak the form the installed vllm-ascend reads: env var or additional_config, or obsolete."""

from __future__ import annotations

import pytest

from ascendrl.preflight.model import Fact, Facts
from ascendrl.preflight.rules.env import NzOff, OptimizedModelOff

CONFIG = "actor_rollout_ref.rollout.engine_kwargs.vllm.additional_config"


def facts(vllm_ascend: str, env: dict[str, str] | None = None, overrides: list[str] | None = None) -> Facts:
    items = {"pkg.vllm_ascend": Fact(vllm_ascend, "test"), "env.settings": Fact(env or {}, "test")}
    if overrides is not None:
        items["lint.recipe"] = Fact({"overrides": overrides}, "test")
    return Facts(items)


@pytest.mark.parametrize(
    "va, env, overrides, status, form",
    [
        ("0.11.0rc1", {"VLLM_ASCEND_ENABLE_NZ": "0"}, None, "pass", "env"),
        ("0.19.1rc1", {}, [f"+{CONFIG}.weight_nz_mode=0"], "fail", "env"),  # not read before v0.20.2rc1
        ("0.20.2rc1", {}, [f"+{CONFIG}.weight_nz_mode=0"], "pass", "additional_config"),
        ("0.23.0", {}, [f"+{CONFIG}={{weight_nz_mode:0}}"], "pass", "additional_config"),
        ("0.23.0", {"VLLM_ASCEND_ENABLE_NZ": "0"}, [f"+{CONFIG}.weight_nz_mode=2"], "fail", "additional_config"),  # config wins
        ("0.23.0", {"VLLM_ASCEND_ENABLE_NZ": "0"}, [], "warn", "additional_config"),  # deprecated fallback
        ("0.23.0", {}, [], "fail", "additional_config"),
        ("0.23.0", {}, [f"+{CONFIG}.rl_config.enabled=true"], "fail", "additional_config"),  # rl_config is newer than 0.23.0
        ("0.30.0", {}, [f"+{CONFIG}.rl_config.enabled=true"], "pass", "additional_config"),
    ],
)
def test_nz_form(va, env, overrides, status, form):
    finding = NzOff().evaluate(facts(va, env, overrides))
    assert (finding.status.value, finding.facts.get("form")) == (status, form), finding.detail
    if status != "pass":
        wanted = "weight_nz_mode=0" if form == "additional_config" else "VLLM_ASCEND_ENABLE_NZ=0"
        assert wanted in finding.fix


@pytest.mark.parametrize(
    "va, env, status",
    [
        ("0.11.0rc1", {}, "fail"),
        ("0.14.0rc1", {"USE_OPTIMIZED_MODEL": "0"}, "pass"),
        ("0.15.0rc1", {}, "skip"),
        ("0.18.0", {"USE_OPTIMIZED_MODEL": "0"}, "skip"),
    ],
)
def test_use_optimized_model_is_obsolete_from_0_15(va, env, status):
    finding = OptimizedModelOff().evaluate(facts(va, env))
    assert finding.status.value == status, finding.detail
    if status == "skip":
        assert "obsolete" in finding.detail
