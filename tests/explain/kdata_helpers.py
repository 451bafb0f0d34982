"""Shared helpers of the tests that classify a pasted text (test_kdata_*.py, test_generalise_*.py): the text classified
by a catalog (the shared ``catalog`` fixture of tests/conftest.py, or a module's own), and its top diagnosis as (id, kind)."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier


def classify(catalog, text: str, name: str = "log"):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), name)
    return c.result()


def first(catalog, text: str, name: str = "paste.log"):
    """The top diagnosis of a paste, or None."""
    result = classify(catalog, text, name)
    return result.diagnoses[0] if result.diagnoses else None


def first_id(catalog, text: str, name: str = "paste.log") -> str | None:
    """The id of a paste's top diagnosis (a catalog entry or an analyzer), or None."""
    found = first(catalog, text, name)
    return found.entry.id if found is not None else None


def top(catalog, text: str, name: str = "log") -> tuple[str, str] | None:
    result = classify(catalog, text, name)
    if not result.diagnoses:
        return None
    d = result.diagnoses[0]
    return d.entry.id, d.kind
