"""Shared helpers of the session-15 kdata form tests (test_kdata_*.py): a catalog without user entries, one pasted text
classified, and its top diagnosis as (id, kind)."""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return load_catalog(user_dir=tmp_path_factory.mktemp("no-user"))


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
