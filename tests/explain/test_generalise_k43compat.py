"""Readings widened by helper k43compat (2026-12-05) for a class of failure rather than one paste.

transformers' config registry (models/auto/configuration_auto.py, ``_LazyConfigMapping.__getitem__`` raising
``KeyError(key)``) is how releases before the "does not recognize this architecture" wording refuse a model_type they
do not define. A report that quotes only that error line ("KeyError: 'qwen2'") names the registry when the key is a
model_type transformers defines and that arrived after the oldest release read in api_history.json (the models/<type>
package of the wheels): the installed transformers is older than the model family, and the first release that has it
is named. A key every release read has ('llama'), or no model_type at all, says nothing about the release.
"""

from __future__ import annotations

from ascendrl.catalog import load_catalog
from kdata_helpers import classify

CATALOG = load_catalog()


def _top(text: str) -> dict | None:
    result = classify(CATALOG, text, "paste.log")
    diagnoses = result.to_json()["diagnoses"]
    return diagnoses[0] if diagnoses else None


def test_bare_keyerror_of_a_later_model_type_is_transformers_too_old_with_its_release():
    for model_type, release in (("qwen2", "4.37.2"), ("mistral", "4.34.1"), ("qwen2_moe", "4.40.2"), ("gemma3", "4.50.3")):
        top = _top(f"KeyError: '{model_type}'\n")
        assert top is not None and top["id"] == "DRV-package", model_type
        assert top["kind"] == "transformers-too-old", model_type
        assert release in top["cause"], (model_type, top["cause"])


def test_bare_keyerror_of_a_model_type_every_release_has_is_not_read_as_old_transformers():
    for key in ("llama", "bert", "input_ids", "prompt_mask"):
        top = _top(f"KeyError: '{key}'\n")
        assert top is None or top.get("kind") != "transformers-too-old", key


def test_keyerror_of_a_model_type_raised_in_other_code_is_not_the_registry():
    text = ("Traceback (most recent call last):\n"
            '  File "/home/user/proj/train.py", line 10, in main\n'
            "    handler = HANDLERS[name]\n"
            "KeyError: 'qwen2'\n")
    top = _top(text)
    assert top is None or top.get("kind") != "transformers-too-old"
