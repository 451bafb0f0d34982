"""Readings the lead added in the seventeenth stop (2026-12-06).

- ARL-E4170: torch.distributed's default process group initialized twice in one process (distributed_c10d.py's
  init_process_group: ValueError in torch 2.x, RuntimeError in 1.x, the same words).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)


def test_default_process_group_twice_is_e4170():
    for text in (
        "ValueError: trying to initialize the default process group twice!\n",
        "RuntimeError: trying to initialize the default process group twice!\n",
        "(WorkerDict pid=2231) [rank1]: ValueError: trying to initialize the default process group twice!\n",
    ):
        assert _id(text) == "ARL-E4170", text


def test_a_process_group_never_initialized_is_not_e4170():
    text = ("RuntimeError: Default process group has not been initialized, please make sure to call "
            "init_process_group.\n")
    assert _id(text) not in (None, "ARL-E4170")
