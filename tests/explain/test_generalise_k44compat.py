"""Readings widened by helper k44compat (2026-12-05) for a class of failure rather than one paste.

A name, submodule or keyword that came and went (api_history.json: absent from the package's early releases, present
for a span, absent again from a later one) refused with no release anywhere in the log: the installed release either
predates the first line that has it (too old) or is at or after the line that dropped it (too new). The table now
carries each release line's first upload day from PyPI's JSON metadata (tools/build_api_history.py --dates); where the
first line that has the thing came out two years or more before the line that dropped it, an install older than that
first line is not a plausible reading, and the too-new side is named with the dates. A release the log shows still
decides, and a thing that lived a shorter span stays unread.

transformers' Trainer is the base of the RL trainers (TRL's GRPOTrainer, applications' own subclasses), which read
state the Trainer sets. The table records, per transformers release, the attributes a Trainer instance has (methods,
class-level names, ``self.X = ...`` in its methods; tools/build_api_history.py --attrs). "'<X>Trainer' object has no
attribute 'a'" where Trainer has ``a`` only from some release on reads transformers-too-old with that release, and one
Trainer stopped having reads transformers-too-new; an attribute every release has, a release in the log that has it,
or an object that is not a trainer say nothing about transformers.

The same pass records the keyword arguments of those trainers' methods (transformers' Trainer, TRL's GRPO / SFT / DPO /
PPO / RLOO / Reward trainers). A keyword a method stopped taking, passed by a wrapper that calls the method (a DPO
recipe calling TRL's dpo_loss with the policy_chosen_logps TRL 0.12 renamed) reads as that package too new, also by
the bare method name that Python < 3.10 or an exec'd copy prints. A keyword a method gained is not read: a caller on an
older release and the class's own code calling a subclass's older override (compute_loss(num_items_in_batch=)) raise
the same words with opposite causes.

Ray joins the table (tools/build_api_history.py --only ray: the cp311 wheels of Ray 2.5 to 2.60, newest of each minor
line): a Ray submodule or name a later release added ("No module named 'ray.serve.llm'", Ray 2.43) reads ray-too-old
with the release, by the release the log shows.
"""

from __future__ import annotations

import datetime

from ascendrl.catalog import load_catalog
from ascendrl.catalog.analyzers import apihistory
from kdata_helpers import classify

CATALOG = load_catalog()


def _top(text: str) -> dict | None:
    result = classify(CATALOG, text, "paste.log")
    diagnoses = result.to_json()["diagnoses"]
    return diagnoses[0] if diagnoses else None


def _kw(callable_name: str, keyword: str, head: str = "") -> str:
    return (head + "Traceback (most recent call last):\n"
            '  File "/home/user/proj/train.py", line 41, in <module>\n'
            f"    obj = {callable_name}({keyword}=True)\n"
            f"TypeError: {callable_name}.__init__() got an unexpected keyword argument '{keyword}'\n")


def test_every_release_line_read_is_dated_in_order():
    for pip, pkg in apihistory.shipped_packages("api_history.json").items():
        dates = pkg["dates"]
        assert set(dates) == set(pkg["versions"]), pip
        days = [datetime.date.fromisoformat(dates[v]) for v in pkg["versions"]]
        assert days == sorted(days), pip


def test_long_lived_keyword_with_no_release_in_the_log_reads_too_new_with_the_dates():
    # accelerate's Accelerator(dispatch_batches=) from 0.5 (2021) to 0.34; transformers' TrainingArguments
    # (include_tokens_per_second=) from 4.34 (2023) to 4.57
    for callable_name, keyword, kind, pin in (("Accelerator", "dispatch_batches", "accelerate-too-new", "accelerate<1.0"),
                                               ("TrainingArguments", "include_tokens_per_second", "transformers-too-new",
                                                "transformers<5.0")):
        top = _top(_kw(callable_name, keyword))
        assert top is not None and top["id"] == "DRV-package", keyword
        assert top["kind"] == kind, (keyword, top["kind"])
        assert "PyPI upload dates" in top["cause"] and pin in " ".join(top["fix"]), keyword


def test_the_release_the_log_shows_still_decides():
    # accelerate 0.4.0 predates dispatch_batches (0.5.1): too old, whatever the dates say
    top = _top(_kw("Accelerator", "dispatch_batches", "accelerate==0.4.0\n"))
    assert top is not None and top["kind"] == "accelerate-too-old", top and top["kind"]


def test_a_short_lived_keyword_with_no_release_in_the_log_is_not_read_by_dates():
    # Accelerator(logging_dir=) lived from 0.7 (2022-04) until 0.20 (2023-06): either side is plausible
    assert apihistory.param_history("accelerate", "Accelerator", "logging_dir") is None
    top = _top(_kw("Accelerator", "logging_dir"))
    assert top is None or top.get("kind") not in ("accelerate-too-new", "accelerate-too-old")


def _obj(cls: str, attribute: str, head: str = "") -> str:
    return head + f"AttributeError: '{cls}' object has no attribute '{attribute}'\n"


def test_trainer_attribute_set_only_by_later_transformers_reads_transformers_too_old():
    history = apihistory.attr_history("transformers", "Trainer", "current_gradient_accumulation_steps")
    assert history is not None and history.direction == "too-old"
    for cls in ("GRPOTrainer", "CustomSeq2SeqTrainer"):
        top = _top(_obj(cls, "current_gradient_accumulation_steps"))
        assert top is not None and top["id"] == "DRV-package", cls
        assert top["kind"] == "transformers-too-old", (cls, top["kind"])
        assert history.since in top["cause"], (cls, top["cause"])


def test_trainer_method_later_transformers_dropped_reads_transformers_too_new():
    history = apihistory.attr_history("transformers", "Trainer", "_rotate_checkpoints")
    assert history is not None and history.direction == "too-new"
    top = _top(_obj("DPOTrainer", "_rotate_checkpoints"))
    assert top is not None and top["kind"] == "transformers-too-new", top and top["kind"]


def test_methods_a_later_trainer_binds_in_its_class_body_are_still_its_attributes():
    # 5.x moved helpers to trainer_pt_utils and imports them in Trainer's body: still methods of every Trainer
    assert apihistory.attr_history("transformers", "Trainer", "get_learning_rates") is None or \
        apihistory.attr_history("transformers", "Trainer", "get_learning_rates").direction != "too-new"


def test_trainer_attribute_readings_that_say_nothing_about_transformers():
    # every release's Trainer has args; the log's transformers already sets the attribute; not a trainer object
    assert apihistory.attr_history("transformers", "Trainer", "args") is None
    for text in (_obj("GRPOTrainer", "args"),
                 _obj("GRPOTrainer", "current_gradient_accumulation_steps", "transformers==4.56.2\n"),
                 _obj("GRPOConfig", "current_gradient_accumulation_steps"),
                 _obj("GRPOTrainer", "my_own_buffer")):
        top = _top(text)
        assert top is None or top.get("kind") not in ("transformers-too-old", "transformers-too-new"), text


def test_a_trainer_method_keyword_a_later_release_renamed_reads_too_new():
    # TRL's DPOTrainer.dpo_loss took policy_chosen_logps up to 0.11 (chosen_logps from 0.12 on)
    history = apihistory.param_history("trl", "dpo_loss", "policy_chosen_logps")
    assert history is not None and history.direction == "too-new" and "0.11" in history.sentence
    for name in ("dpo_loss", "DPOTrainer.dpo_loss"):
        top = _top(f"TypeError: {name}() got an unexpected keyword argument 'policy_chosen_logps'\n")
        assert top is not None and top["id"] == "DRV-package", name
        assert top["kind"] == "trl-too-new", (name, top["kind"])
        assert "trl<0.12" in " ".join(top["fix"]), (name, top["fix"])


def test_a_keyword_a_trainer_method_gained_is_not_read_either_way():
    # Trainer.compute_loss takes num_items_in_batch from 4.46: the error is most often transformers calling an older
    # override, so neither too-old nor too-new is claimed
    assert apihistory.param_history("transformers", "Trainer.compute_loss", "num_items_in_batch") is None
    assert apihistory.param_history("transformers", "compute_loss", "num_items_in_batch") is None
    top = _top("TypeError: compute_loss() got an unexpected keyword argument 'num_items_in_batch'\n")
    assert top is None or top.get("kind") not in ("transformers-too-old", "transformers-too-new")


def test_ray_submodule_a_later_release_added_reads_ray_too_old():
    history = apihistory.module_history("ray", "ray.serve.llm")
    assert history is not None and history.direction == "too-old" and history.since == "2.43.0"
    text = ("ray==2.42.1\n"
            "Traceback (most recent call last):\n"
            '  File "/home/user/serve_app.py", line 2, in <module>\n'
            "    from ray.serve.llm import LLMConfig\n"
            "ModuleNotFoundError: No module named 'ray.serve.llm'\n")
    top = _top(text)
    assert top is not None and top["id"] == "DRV-package" and top["kind"] == "ray-too-old", top and top["kind"]
    assert "2.43.0" in top["cause"]
    # the log's Ray already has it: not the release
    top = _top(text.replace("2.42.1", "2.44.0"))
    assert top is None or top.get("kind") != "ray-too-old"
