"""Lead, 2026-12-04 eighth stop: a version check that states both the requirement and the installed release says which
side is behind, for any distribution, not only the six the analyzer had names for (transformers' require_version,
utils/versions.py, raises "<req> is required for a normal functioning of this module, but found <pkg>==<v>")."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    assert result.diagnoses, text
    return result.diagnoses[0]


def test_found_below_the_requirement_names_the_package_too_old():
    top = _top("ImportError: accelerate>=0.26.0 is required for a normal functioning of this module, but found accelerate==0.21.0.\n")
    assert top.entry.id == "DRV-package"
    assert top.kind == "accelerate-too-old"


def test_found_above_a_ceiling_is_not_called_too_old():
    top = _top("ImportError: peft<0.14.0 is required for a normal functioning of this module, but found peft==0.15.2.\n")
    assert top.entry.id == "DRV-package"
    assert top.kind == "package-mismatch"


def test_the_named_packages_keep_their_kinds():
    top = _top("ImportError: transformers>=4.51.0 is required for a normal functioning of this module, but found transformers==4.46.3.\n")
    assert top.kind == "transformers-too-old"
