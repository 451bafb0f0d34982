"""The error-code tables (catalog/codes/*.yaml): decoded across CANN's families, every row sourced."""

from __future__ import annotations

import re
from importlib import resources

import pytest
import yaml

from ascendrl.catalog.codes import decode, tables

REGISTRY_SOURCE = re.compile(r"^https://github\.com/hicann/(runtime|ge|opbase)/blob/[0-9a-f]{40}/\S+$")


@pytest.mark.parametrize("code, name, words", [
    ("E10001", "Invalid Argument", "for parameter"),  # GE
    ("E20001", "Compilation Error", "compilation failed"),  # FE
    ("E30003", "Not Supported Specification", "user processes"),  # AI CPU
    ("EB0000", "Compilation Error", "compile the operator"),  # TBE pass compiler
    ("EE1009", "Execution Error Model", "failed to execute model"),  # runtime
    ("EE1002", "Stream synchronize timeout", "synchronize timeout"),  # curated, in our words
    ("EH0001", "", ""),  # ACL
    ("EK0001", "Invalid Argument", "is invalid"),  # profiling
    ("EL0002", "Invalid Device ID", "device ID is invalid"),  # driver
    ("EL0001", "Device absent or abnormal", "unhealthy"),  # curated, in our words
    ("EP0001", "Config Error", "configuration"),  # dump
    ("EZ0001", "", ""),  # operator
    ("W40010", "Config Error Invalid Environment Variable", "environment variable"),  # a warning
    ("EI0002", "Communication operation timeout", "collective"),  # curated row wins over the registry
    ("EJ0003", "Bind failed", "bind"),  # curated (HCCP)
])
def test_codes_of_each_family_decode_from_the_official_registries(code, name, words):
    info = decode(code)
    assert info is not None and info.family == "cann" and info.code == code
    assert info.meaning and "%s" not in info.meaning
    if name:
        assert info.name == name
    if words:
        assert words.lower() in info.meaning.lower()
    assert info.source.startswith("https://")


def test_a_code_no_table_names_falls_back_to_its_module_or_nothing():
    assert decode("EZ8888").meaning.startswith("operator")  # module Z, code not documented
    assert decode("EX0001") is None  # no module X


def test_every_row_has_a_source():
    t = tables()
    registry = t["cann_registry"]
    assert all(REGISTRY_SOURCE.match(url) for url in registry["sources"].values())
    for code, row in registry["codes"].items():
        assert re.fullmatch(r"[EW][0-9A-Z]\d{4}", code) and len(row) == 4, code
        assert row[3] in registry["sources"], code
        assert row[1] or row[2], code  # a title or a message
    for name, table in t.items():
        if name == "cann_registry":
            continue
        for code, row in (table.get("codes") or {}).items():
            if name == "cann":  # [title, meaning, advice, source]: a comma outside quotes would split a field
                assert len(row) == 4 and all(isinstance(f, str) for f in row), code
            own = row[3] if name == "cann" and len(row) > 3 else ""
            assert (own or table.get("source", "")).startswith("https://"), (name, code)


def test_the_registry_is_complete_for_the_families_verl_runs_hit():
    codes = tables()["cann_registry"]["codes"]
    count = {fam: sum(1 for c in codes if c[:2] == fam) for fam in ("E1", "EE", "EH", "EI", "EJ", "EK", "EL", "EZ")}
    assert count["E1"] >= 100 and count["EZ"] >= 50 and count["EE"] >= 20 and count["EL"] >= 10
    assert all(n > 0 for n in count.values()), count
    assert len(codes) >= 550


def test_tables_from_the_cache_equal_the_yaml(tmp_path, monkeypatch):
    """Decoding must not notice whether the tables came from the YAML or from the cache."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    tables.cache_clear()
    try:
        fresh = {c: decode(c) for c in ("507015", "hccl:9", "dcmi:-8005", "ERR00100", "E10001", "EI0002")}
        tables.cache_clear()
        assert list((tmp_path / "ascendrl").glob("codes-*.bin"))
        assert {c: decode(c) for c in fresh} == fresh and all(fresh.values())
    finally:
        tables.cache_clear()
    text = resources.files("ascendrl.catalog.codes").joinpath("cann_registry.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(text)["codes"].keys() == tables()["cann_registry"]["codes"].keys()


@pytest.mark.parametrize("code, nic, variable", [
    ("EI0019", "host NIC", "HCCL_IF_BASE_PORT"),  # hcomm docs/en/error_codes/EI0019-…: host network adapter socket
    ("EI0020", "NPU NIC", "HCCL_NPU_SOCKET_PORT_RANGE"),  # …/EI0020-…: NPU network adapter socket, port 16666
])
def test_hccl_bind_codes_name_the_nic_hcomm_documents(code, nic, variable):
    info = decode(code)
    assert nic in info.meaning and variable in info.advice
    assert "/hicann/hcomm/blob/" in info.source and code in info.source


def test_107027_is_a_stream_capture_code_also_returned_by_a_synchronize():
    from ascendrl.catalog.codes import CAPTURE_CODES

    info = decode("107027")
    assert "107027" in CAPTURE_CODES and info.name == "ACL_ERROR_RT_STREAM_CAPTURED"
    assert "captur" in info.meaning and "synchronize" in info.meaning and "aclError" in info.source


def test_curated_rows_do_not_contradict_cann_registries():
    # E13002/E13003 were filed as "unsupported operator" from an old atc page; CANN's registries say otherwise.
    assert "E13002" not in tables()["cann"]["codes"] and decode("E13002").name == "Directory Operation Error Name Too Long"
    assert "rootInfo" in decode("EI0015").meaning


def test_acl_names_are_the_headers_spelling():
    assert decode("207018").name == "ACL_ERROR_RT_DEVICE_OOM"  # the aclError page misspells it DEVIDE
    assert decode("245002").name == "ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED"


def test_code_kinds_keep_every_code_beside_a_commented_one():
    """A comment added inside the KINDS literal once swallowed the codes after it on the same line (EI0019 …)."""
    from ascendrl.catalog.analyzers.codes import KINDS

    assert KINDS["drv:6"] == "npu-oom"
    assert {KINDS[c] for c in ("EI0019", "EJ0003", "EI0020")} == {"hccl-port-in-use"}
    assert KINDS["507053"] == "device-memory-fault"
