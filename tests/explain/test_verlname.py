"""DRV-verl-name: a config value verl looks up in a registry by name, not registered (catalog/analyzers/verlname.py).

The messages are verl 0.9.1's own (verl_registries.yaml names each source file); the lines around them are ours.
"""

from __future__ import annotations

import re

import yaml

from ascendrl.catalog import load_catalog
from ascendrl.catalog.analyzers import verlname
from kdata_helpers import first

CATALOG = load_catalog()


def _top(text: str):
    d = first(CATALOG, text)
    return None if d is None else (d.entry.id, d.kind)


def test_each_registry_lookup_names_its_config_key():
    cases = {
        "ValueError: Unknown advantage estimator simply: grpoo\n": "algorithm.adv_estimator",
        "ValueError: Unsupported loss mode: vanila. Supported modes are: ['vanilla', 'gspo', 'clip_cov']\n":
            "actor_rollout_ref.actor.policy_loss.loss_mode",
        "ValueError: Unknown reward manager: prime\n": "reward.reward_manager.name",
        "ValueError: Unknown reward manager source: registry\n": "reward.reward_manager.source",
        "AssertionError: Agent loop tool_agnt not registered, registered agent loops: dict_keys(['single_turn_agent', "
        "'tool_agent'])\n": "actor_rollout_ref.rollout.agent.default_agent_loop",
        "ValueError: Unknown tool parser: hermes2\n": "actor_rollout_ref.rollout.multi_turn.format",
    }
    for text, key in cases.items():
        d = first(CATALOG, text)
        assert d is not None and (d.entry.id, d.kind) == ("DRV-verl-name", "verl-config-unknown-name"), text
        assert key in d.entry.title or key in " ".join(d.entry.fix), (text, d.entry.title)


def test_a_typo_gets_the_nearest_registered_name_and_the_listed_names_win():
    d = first(CATALOG, "ValueError: Unknown advantage estimator simply: grpoo\n")
    assert "probably 'grpo'" in d.entry.fix[0]
    d = first(CATALOG, "ValueError: Unsupported loss mode: vanila. Supported modes are: ['vanilla', 'my_loss']\n")
    assert "vanilla, my_loss" in d.entry.fix[0] and "probably 'vanilla'" in d.entry.fix[0]  # the message's list, not the table's
    d = first(CATALOG, "ValueError: Unknown advantage estimator simply: my_custom_estimator\n")
    assert "probably" not in d.entry.fix[0] and "gae, grpo" in d.entry.fix[0]  # no near name: the names, no guess


def test_the_distillation_registry_is_told_apart_by_its_frame():
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/verl/verl/trainer/distillation/losses.py", line 94, in get_distillation_loss_fn\n'
            "    raise ValueError(\n"
            "ValueError: Unsupported loss mode: k4. Supported modes are: ['kl', 'k1', 'k3']\n")
    assert "distillation.distillation_loss.loss_mode" in first(CATALOG, text).entry.title


def test_other_libraries_unknown_names_are_not_verls():
    for text in ("ValueError: Unknown attention backend: 'XFORMERS'. Valid options are: FLASH_ATTN\n",
                 "ValueError: Unknown quantization method: awq_marlinn\n",
                 "KeyError: 'Unknown advantage'\n"):
        assert _top(text) is None or _top(text)[0] != "DRV-verl-name", text


def test_the_registry_table_is_well_formed():
    from pathlib import Path

    data = yaml.safe_load((Path(verlname.__file__).parent / "verl_registries.yaml").read_text(encoding="utf-8"))
    rows = data["lookups"]
    assert len(rows) >= 7
    for row in rows:
        assert "(?P<name>" in row["message"] and re.compile(row["message"])
        assert row["names"] and all(isinstance(n, str) for n in row["names"])
        assert row["source"].startswith("https://github.com/verl-project/verl/blob/")
        assert re.fullmatch(r"\d+\.\d+\.\d+", row["names_in"])


def test_listed_names_reads_python_reprs():
    assert verlname.listed_names("['a', 'b']") == ["a", "b"]
    assert verlname.listed_names("dict_keys(['single_turn_agent', 'tool_agent'])") == ["single_turn_agent", "tool_agent"]
    assert verlname.listed_names("[broken") == []
    assert verlname.listed_names(None) == []
