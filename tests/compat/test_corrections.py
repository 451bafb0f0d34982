"""The corrections of issue 11's audit, each pinned: catalog wording, signatures against the exact upstream text, data rows."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths, load_catalog
from ascendrl.preflight import check, compat
from ascendrl.preflight.versions import parse_ascend, parse_python_pkg

HERE = Path(__file__).parent
CASES = HERE.parent / "explain" / "cases"


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(user_dir=HERE / "no-user-catalog")


def entry(catalog, entry_id):
    return next(e for e in catalog.entries if e.id == entry_id)


def top(catalog, tmp_path, text):
    log = tmp_path / "run.log"
    log.write_text(text)
    return [(d.entry.id, d.fatal) for d in explain_paths(catalog, [log]).diagnoses]


def test_lora_model_import_is_the_handled_first_link_not_the_cause(catalog):
    e201 = entry(catalog, "ARL-E201")
    assert e201.fatal is False and "unconfirmed" in e201.cause
    ranked = [(d.entry.id, d.fatal) for d in explain_paths(catalog, [CASES / "ARL-E201" / "verl_main_on_v070_stack.log"]).diagnoses]
    assert ranked[0] == ("ARL-E202", True)
    assert ("ARL-E201", False) in ranked


def test_verl_0_8_broken_with_names_the_report_not_a_cause():
    row = compat.verl_row(parse_python_pkg("0.8.0.dev0"))
    assert "unconfirmed" in row["broken_with"]["reason"] and "caught by verl" in row["broken_with"]["reason"]
    assert "broken_with" not in compat.verl_row(parse_python_pkg("0.9.0"))  # its vllm>=0.18.0 range already excludes the 0.11 stack


def test_transfer_queue_fix_fits_verl_0_9_0(catalog):
    fixes = " ".join(entry(catalog, "ARL-E110").fix)
    pin = compat.verl_row(parse_python_pkg("0.9.0"))["requirements"]["TransferQueue"]
    assert f"TransferQueue{pin}" in fixes  # verl v0.9.0 has no verl-core extra
    assert "verl-core" in fixes and "0.9.1" in fixes and "#7127" in fixes


@pytest.mark.parametrize(
    "line, version",
    [
        # vllm_ascend/worker/worker.py@v0.19.1rc1 lines 216-217 (the env-var hint, emitted through v0.19.1rc1)
        ("ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. Please set VLLM_ASCEND_ENABLE_NZ=0.", "v0.19.1rc1"),
        # vllm_ascend/worker/worker.py@v0.20.2rc1 lines 218-219 (the hint names weight_nz_mode)
        ("ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. Please set weight_nz_mode=0 via --additional-config.", "v0.20.2rc1"),
    ],
)
def test_nz_wake_up_error_in_both_wordings(catalog, tmp_path, line, version):
    e002 = entry(catalog, "ARL-E002")
    assert any(version in (s.confirmed or "") for s in e002.signatures)
    assert top(catalog, tmp_path, f"(WorkerDict pid=5120, ip=10.0.0.3) {line}\n")[0] == ("ARL-E002", True)


def test_hccl_port_bind_is_ej0003(catalog, tmp_path):
    # hcclug_000035 (CANN 8.5.0 HCCL guide), the service-log line of a port already bound
    line = "[PID: 2267203] 2025-11-21-11:38:29.575.404 Bind_Failed(EJ0003): Failed to bind the IP port. Reason: The IP address and port have been bound already."
    assert top(catalog, tmp_path, line + "\n")[0][0] == "ARL-E322"
    assert "EJ0003" in entry(catalog, "ARL-E322").cause


def test_vllm_ascend_rows_as_the_sources_write_them():
    assert compat.vllm_ascend_row(parse_python_pkg("0.18.0"))["torch_npu"] == "2.9.0.post1+git4c901a4"
    row = compat.vllm_ascend_row(parse_python_pkg("0.11.0"))
    assert row["torch_npu"] == "2.7.1.post1" and "release_notes.md" in row["source"]


@pytest.mark.parametrize("vllm, status", [("0.7.3", "pass"), ("0.9.1", "pass"), ("0.7.2", "fail"), ("0.10.0", "fail")])
def test_verl_0_6_0_vllm_range(host_factory, vllm, status):
    report = check(host_factory(packages={"verl": "0.6.0", "vllm": vllm, "vllm-ascend": None}))
    assert next(f for f in report.findings if f.rule_id == "ARL-C009").status.value == status


def test_hdk_rows():
    assert compat.cann_hdk_row(parse_ascend("8.5.2"))["max_driver"] == "26.2.99"
    assert compat.cann_hdk_row(parse_ascend("8.5.0"))["max_driver"] == "25.5.99"
    assert compat.cann_hdk_row(parse_ascend("9.2.0"))["paired"] == "26.2.rc1"
    for line in ("8.1", "8.2", "8.3"):
        assert compat.cann_hdk_row(parse_ascend(f"{line}.RC1"))["range_confirmed"] is False


def test_unsourced_hdk_range_says_so(host_factory):
    cann = "package_name=Ascend-cann-toolkit\nversion=8.2.RC1\narch=aarch64\nos=linux\n"
    report = check(host_factory(files={
        "usr/local/Ascend/ascend-toolkit/8.3.RC1/aarch64-linux/ascend_toolkit_install.info": cann,
        "usr/local/Ascend/driver/version.info": "Version=24.1.0\ncompatible_version_fw=[7.0.0,7.8.99]\n",
    }))
    c007 = next(f for f in report.findings if f.rule_id == "ARL-C007")
    assert c007.status.value == "warn" and "has no source" in c007.detail


def test_every_torch_npu_release_row_is_sourced_and_every_build_parses():
    data = compat.matrices()
    for row in data["torchnpu_releases"]["rows"]:
        assert row["source"].startswith("https://") and row["cann"]
        assert all(c.endswith(".X") or parse_ascend(c) for c in row["cann"])
    for build in data["torch_npu_builds"]["builds"]:
        assert parse_python_pkg(build) is not None


@pytest.mark.parametrize(
    "build, cann, says",
    [
        ("2.10.0", "9.0.0", "compatibility table"),  # README@554f7cd pairs it with CANN 9.0.0
        ("2.10.0.post2", "9.0.1", "TorchNPU 26.0.X release notes"),
        ("2.7.1.dev20250724", "8.2.RC1", "vllm-ascend"),
        ("2.5.1", "8.0.0", "TorchNPU 7.0.0 release notes"),
        ("2.7.1", "8.1.RC1", "TorchNPU 7.2.0 release notes"),
    ],
)
def test_documented_pairs(build, cann, says):
    evidence = compat.torch_npu_supports(parse_python_pkg(build), parse_ascend(cann))
    assert evidence is not None and says in evidence.says, evidence


def test_unknown_pair_has_no_evidence_and_names_a_documented_build():
    assert compat.torch_npu_supports(parse_python_pkg("2.7.1"), parse_ascend("9.1.0")) is None
    assert compat.torch_npu_builds_for(parse_ascend("9.1.0"), "2.7.1")[0] == "2.7.1.post8"
