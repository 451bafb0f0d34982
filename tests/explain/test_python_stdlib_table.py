"""catalog/analyzers/python_stdlib.yaml, the data behind DRV-package's standard-library readings (stdlibapi.py).

The rows are checked against the interpreter that runs the tests: a name the table says this Python removed must be
absent from it, and a name it says this Python (or an older one) added must be present. The tests' Python is one
point of the history; the file's header names the interpreters the whole table was checked against.
"""

from __future__ import annotations

import builtins
import importlib
import re
import sys
from pathlib import Path

import pytest
import yaml

from ascendrl.catalog.analyzers import stdlibapi

DATA = Path(stdlibapi.__file__).with_name("python_stdlib.yaml")
RUNNING = sys.version_info[:2]


def rows() -> list[dict]:
    return yaml.safe_load(DATA.read_text(encoding="utf-8"))["rows"]


def release(row: dict) -> tuple[int, int]:
    major, minor = row["release"].split(".")
    return int(major), int(minor)


def module_or_none(name: str):
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def test_every_row_has_its_kind_columns_and_no_key_twice():
    seen = set()
    for row in rows():
        field, key, value = stdlibapi.KINDS[row["kind"]]
        assert set(row) == {"kind", *key, *value}, row
        if "release" in row:
            assert re.fullmatch(r"3\.\d{1,2}", row["release"]), row
        ident = (row["kind"], *(row[c] for c in key))
        assert ident not in seen, f"twice: {ident}"
        seen.add(ident)


def test_tables_hold_every_row():
    t = stdlibapi.tables()
    assert sum(len(getattr(t, f)) for f in t._fields) == len(rows())
    assert t.names[("collections", "Mapping")] == ("3.10", "collections.abc.Mapping")
    assert t.added_modules["tomllib"] == "3.11"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("row", [r for r in rows() if r["kind"] == "removed-name"], ids=lambda r: f"{r['module']}.{r['name']}")
def test_removed_name_is_absent_from_a_python_that_removed_it(row):
    module = module_or_none(row["module"])
    if release(row) <= RUNNING:
        assert module is None or not hasattr(module, row["name"]), f"{row} but this Python has it"
    elif module is not None:
        assert hasattr(module, row["name"]), f"{row}: this older Python should still have it"


@pytest.mark.parametrize("row", [r for r in rows() if r["kind"] == "removed-module"], ids=lambda r: r["module"])
def test_removed_module_is_absent_from_a_python_that_removed_it(row):
    if release(row) <= RUNNING:
        assert module_or_none(row["module"]) is None, f"{row} but this Python imports it"


@pytest.mark.parametrize("row", [r for r in rows() if r["kind"] in ("added-name", "added-module", "added-builtin")],
                         ids=lambda r: f"{r['kind']}:{r.get('module', '')}.{r['name'] if 'name' in r else ''}")
def test_added_name_is_present_in_a_python_that_added_it(row):
    if row["kind"] == "added-module":
        present = module_or_none(row["module"]) is not None
    elif row["kind"] == "added-builtin":
        present = hasattr(builtins, row["name"])
    else:
        module = module_or_none(row["module"])
        present = module is not None and hasattr(module, row["name"])
    assert present == (release(row) <= RUNNING), f"{row}: present={present} under {RUNNING}"


def test_reading_from_the_data_file_keeps_the_answer(catalog):
    """The analyzer reads the moved table: a removed alias under the Python that removed it, and not under an older one."""
    from kdata_helpers import first

    log = ("Traceback (most recent call last):\n"
           '  File "/usr/lib/python3.12/site-packages/oldpkg/util.py", line 3, in <module>\n'
           "    from collections import Mapping\n"
           "ImportError: cannot import name 'Mapping' from 'collections' (/usr/lib/python3.12/collections/__init__.py)\n")
    d = first(catalog, log)
    assert d is not None and d.entry.id == "DRV-package" and "3.10 removed collections.Mapping" in d.entry.title
    older = first(catalog, log.replace("python3.12", "python3.9"))
    assert older is None or "removed collections.Mapping" not in older.entry.title
