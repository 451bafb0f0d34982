"""Shared helpers of the kdata form tests (test_kdata_*.py): one pasted text classified by the shared ``catalog``
fixture (tests/conftest.py), and its top diagnosis as (id, kind)."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier


def classify(catalog, text: str):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "log")
    return c.result()


def top(catalog, text: str) -> tuple[str, str] | None:
    result = classify(catalog, text)
    if not result.diagnoses:
        return None
    d = result.diagnoses[0]
    return d.entry.id, d.kind
