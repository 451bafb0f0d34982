"""README's verb table states how many known failures `explain` ships, so the figure cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path

from ascendrl.catalog import load_catalog

ROOT = Path(__file__).resolve().parents[2]


def test_readme_states_the_catalog_as_shipped():
    row = next(line for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines() if line.startswith("| `ascendrl explain` |"))
    stated = re.search(r"from (\d+) researched known failures", row)
    assert stated, "the explain row no longer states the catalog's size"
    assert int(stated.group(1)) == len(load_catalog().entries)
