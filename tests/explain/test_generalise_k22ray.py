"""k22ray: a Ray object that cannot be pickled because it holds a process-local handle (catalog/analyzers/emitted.py).

CPython's own refusal (Lib/copyreg.py _reduce_ex: "cannot pickle %r object"; before 3.8 "can't pickle %s objects")
names the type; for thread locks, open files, sockets and SSL contexts that type is the mechanism Ray's serialization
troubleshooting documents. Each paste is scored without ARL-E1960 (written from the same threads), so DRV-ray-mechanism
alone must answer; other unpicklable types stay something else. Also: the rank-table labels (ARL-E367 / ARL-E368).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

OWN = ("ARL-E1960",)
LABELS = Path(__file__).parent / "realworld" / "labels.yaml"


@pytest.mark.parametrize("text", [
    # ray-project/ray#30972 (ray.cloudpickle on a cachetools cache)
    "TypeError: cannot pickle '_thread.RLock' object\n",
    # ray-project/ray#1321 (Python 3.6 wording)
    '  File "/home/user/anaconda3/envs/bmxnet/lib/python3.6/pickle.py", line 496, in save\n'
    "    rv = reduce(self.proto)\n"
    "TypeError: can't pickle _thread.RLock objects\n",
    # ray-project/ray#8516 (a lock captured by an actor)
    "TypeError: cannot pickle '_thread.lock' object\n",
    "TypeError: cannot pickle '_io.TextIOWrapper' object\n",
])
def test_a_process_local_handle_names_the_mechanism(explain_without, text):
    assert explain_without(text) == ("DRV-ray-mechanism", "ray-object-not-serializable")


@pytest.mark.parametrize("text", [
    "TypeError: cannot pickle 'generator' object\n",  # not a process-local handle the analyzer knows
    "ValueError: cannot pickle '_thread.RLock' object while tracing\n",  # not pickle's TypeError
    "TypeError: 'RLock' object is not callable\n",
])
def test_near_misses_stay_something_else(explain_without, text):
    assert explain_without(text)[1] != "ray-object-not-serializable"


def test_rank_table_entries_state_the_rank_table_label():
    labels = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    assert {"ARL-E367", "ARL-E368"} <= set(labels["hccl-ranktable-invalid"])


def test_the_super_device_id_check_is_read_as_an_invalid_rank_table(catalog, tmp_path):
    from ascendrl.catalog import explain_paths

    log = tmp_path / "x.log"
    log.write_text("[ERROR] HCCL(1265,):2025-10-21 07:56:47.198.454 [topoinfo_ranktableParser.cc:350][15326]"
                   "[InitGroupStage][RanktableCheck]errNo[0x0000000005010001] super_device_id[] is invalid\n", encoding="utf-8")
    labels = yaml.safe_load(LABELS.read_text(encoding="utf-8"))
    top = explain_paths(catalog, [log]).diagnoses[0]
    assert top.entry.id in labels["hccl-ranktable-invalid"]
