"""Registry-wide properties: every rule documented and sourced, every fix id and matrix row valid."""

from __future__ import annotations

import re

import pytest

from ascendrl.fixes import FIXES
from ascendrl.preflight import compat
from ascendrl.preflight.model import Area, Severity
from ascendrl.preflight.rules import RULE_CLASSES, all_rules
from ascendrl.preflight.versions import parse_ascend, parse_python_pkg

URL = re.compile(r"^https://\S+$")


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_rule_metadata(rule):
    assert re.match(r"^ARL-[CADRVL]\d{3}$", rule.id)
    assert isinstance(rule.severity, Severity) and isinstance(rule.area, Area)
    for field in ("title", "what", "why", "fix"):
        assert len(getattr(rule, field)) > 10, field
    assert rule.sources and all(URL.match(s) for s in rule.sources)
    assert rule.fix_id is None or rule.fix_id in FIXES


def test_ids_unique():
    ids = [cls.id for cls in RULE_CLASSES]
    assert len(ids) == len(set(ids))


def test_every_matrix_table_and_row_is_sourced_and_parses():
    data = compat.matrices()
    for table in ("vllm_ascend", "torch_npu_cann"):
        assert URL.match(data[table]["source"])
    for row in data["vllm_ascend"]["rows"]:
        assert parse_python_pkg(row["vllm_ascend"]) is not None
        assert all(parse_python_pkg(v) for v in row["vllm"])
        assert parse_ascend(row["cann"]) is not None
        assert parse_python_pkg(row["torch_npu"]) is not None
    for row in data["torch_npu_cann"]["rows"]:
        assert parse_ascend(row["cann"]) is not None
        assert all(parse_python_pkg(v) for v in row["torch_npu"])
    for row in data["cann_hdk"]["rows"]:
        assert URL.match(row["source"]) and isinstance(row["confirmed"], bool)
        assert parse_ascend(row["min_driver"]) < parse_ascend(row["max_driver"])
    for row in data["verl"]["rows"]:
        assert URL.match(row["source"])


def test_matrix_covers_every_vllm_ascend_release_from_0_9_and_the_seed():
    releases = {row["vllm_ascend"] for row in compat.matrices()["vllm_ascend"]["rows"]}
    assert {"0.9.0rc1", "0.9.1", "0.11.0rc1", "0.13.0", "0.18.0", "0.23.0"} <= releases
    seed = compat.vllm_ascend_row(parse_python_pkg("0.11.0.rc1"))  # as the seed spells it
    assert seed and seed["cann"] == "8.3.RC1" and seed["vllm"] == ["0.11.0"] and seed["torch_npu"] == "2.7.1"
