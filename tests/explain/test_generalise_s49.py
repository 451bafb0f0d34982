"""Entries the lead wrote at the eighteenth stop (2026-12-06, second session) from probing pastes a user would bring.
Each test input is a short excerpt around the exact emitted message; each class also has a near miss.

- ARL-E4172: Python's unpickler at the end of an empty or cut-off stream (_pickle.c "Ran out of input" / "pickle data
  was truncated"): a checkpoint, cached dataset or .pkl never written whole; torch.load of a non-zip file reads it so.
- ARL-E4173: SQLite's SQLITE_FULL ("database or disk is full", main.c): the database's disk or SQLite's temp folder
  is full (Optuna / MLflow stores).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)


def test_empty_or_cut_pickle_is_e4172():
    for text in (
        "EOFError: Ran out of input\n",
        "Traceback (most recent call last):\n"
        '  File "prepare.py", line 12, in <module>\n'
        "    rows = pickle.load(f)\n"
        "EOFError: Ran out of input\n",
        "Traceback (most recent call last):\n"
        '  File "train.py", line 40, in <module>\n'
        "    state = torch.load(path, weights_only=False)\n"
        '  File "/usr/lib/python3.11/site-packages/torch/serialization.py", line 1114, in load\n'
        "    return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)\n"
        '  File "/usr/lib/python3.11/site-packages/torch/serialization.py", line 1338, in _legacy_load\n'
        "    magic_number = pickle_module.load(f, **pickle_load_args)\n"
        "EOFError: Ran out of input\n",
        "_pickle.UnpicklingError: pickle data was truncated\n",
    ):
        assert _id(text) == "ARL-E4172", text


def test_other_eof_errors_are_not_e4172():
    for text in (
        "Traceback (most recent call last):\n"
        '  File "ask.py", line 3, in <module>\n'
        "    name = input('model? ')\n"
        "EOFError: EOF when reading a line\n",
        "_pickle.UnpicklingError: invalid load key, 'v'.\n",
    ):
        assert _id(text) != "ARL-E4172", text


def test_sqlite_full_is_e4173():
    for text in (
        "sqlite3.OperationalError: database or disk is full\n",
        "sqlalchemy.exc.OperationalError: (sqlite3.OperationalError) database or disk is full\n"
        "[SQL: INSERT INTO trial_values (trial_id, objective, value, value_type) VALUES (?, ?, ?, ?)]\n",
        "apsw.FullError: FullError: database or disk is full\n",
    ):
        assert _id(text) == "ARL-E4173", text


def test_other_sqlite_errors_are_not_e4173():
    for text in (
        "sqlite3.DatabaseError: database disk image is malformed\n",
        "sqlite3.OperationalError: database is locked\n",
    ):
        assert _id(text) != "ARL-E4173", text
