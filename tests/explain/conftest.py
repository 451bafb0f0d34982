"""Fixtures shared by the explain tests: the shipped catalog alone (no user catalog), and explain on a pasted text."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths, load_catalog

HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def catalog():
    return load_catalog(user_dir=HERE / "no-user-catalog")


@pytest.fixture
def explain_text(catalog, tmp_path):
    """explain on ``text`` written to a file, as a user's paste: (the result, its top diagnosis or None)."""
    def run(text: str):
        log = tmp_path / "x.log"
        log.write_text(text, encoding="utf-8")
        result = explain_paths(catalog, [log])
        return result, (result.diagnoses[0] if result.diagnoses else None)
    return run
