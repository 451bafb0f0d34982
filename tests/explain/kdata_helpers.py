"""Shared helpers of the tests that classify a pasted text (test_kdata_*.py, test_generalise_*.py): the text classified
by a catalog (the shared ``catalog`` fixture of tests/conftest.py, or a module's own), and its top diagnosis as (id, kind)."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier


def classify(catalog, text: str, name: str = "log"):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), name)
    return c.result()


def top(catalog, text: str) -> tuple[str, str] | None:
    result = classify(catalog, text)
    if not result.diagnoses:
        return None
    d = result.diagnoses[0]
    return d.entry.id, d.kind
