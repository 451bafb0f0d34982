"""Log forms from the round-8 dev misses (compat / data-model share) that the engine reads generally (issue #10).

Python logging formats that add ``%(filename)s:%(lineno)d - `` after the level (lmdeploy's logger) put the exception
text one field further right; an ERROR record there is still the failure. The same words at INFO level are not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths, load_catalog
from ascendrl.catalog.normalize import strip_prefixes

HERE = Path(__file__).parent


@pytest.mark.parametrize("line", [
    "2024-11-07 12:55:24,870 - lmdeploy - ERROR - __init__.py:17 - ModuleNotFoundError: No module named 'dlinfer'",
    "2024-11-07 12:55:24,870 - lmdeploy - ERROR - ModuleNotFoundError: No module named 'dlinfer'",
    "2024-11-07 12:55:24,870 - my.app - CRITICAL - loader.py:3 - ModuleNotFoundError: No module named 'dlinfer'",
])
def test_a_logging_error_record_with_or_without_file_and_line_is_read(line):
    assert strip_prefixes(line)[0] == "ModuleNotFoundError: No module named 'dlinfer'"


def test_an_info_record_keeps_its_prefix():
    line = "2024-11-07 12:55:24,870 - lmdeploy - INFO - __init__.py:17 - ModuleNotFoundError: No module named 'dlinfer'"
    assert strip_prefixes(line)[0] != "ModuleNotFoundError: No module named 'dlinfer'"


def test_a_missing_backend_module_in_such_a_record_is_named(tmp_path):
    log = tmp_path / "lmdeploy.log"
    log.write_text(
        "2024-11-07 12:55:24,870 - lmdeploy - ERROR - __init__.py:17 - ModuleNotFoundError: No module named 'dlinfer'\n"
        "2024-11-07 12:55:24,870 - lmdeploy - ERROR - __init__.py:18 - <PyTorch> test failed!\n",
        encoding="utf-8",
    )
    result = explain_paths(load_catalog(user_dir=HERE / "no-user-catalog"), [log])
    top = result.diagnoses[0] if result.diagnoses else None
    assert top is not None and top.kind == "missing-dependency" and "dlinfer" in top.entry.title, (result.diagnoses, result.unknown)
