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


def test_a_sentence_naming_an_unknown_data_source_is_read_as_that_class():
    from kdata_helpers import first

    for text in ("data_source countdown is not supported\n", "Reward fails: unknown data_source for my custom dataset\n",
                 "自定义数据集的data_source不支持\n"):
        d = first(CATALOG, text)
        assert d is not None and d.entry.id == "DRV-named-in-words" and d.kind == "reward-data-source-unknown", text
    for text in ("I added a data_source column to my parquet and training works\n",):
        d = first(CATALOG, text)
        assert d is None or d.kind != "reward-data-source-unknown", text
