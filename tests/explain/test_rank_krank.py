"""Ranking fixes from the leave-thread-out misses (session 18, helper krank): a too-broad reading that named the wrong
entry over the reading the log's own report gives, each with a near miss that must stay as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEV = Path(__file__).parent / "realworld" / "dev"


def _paste(name: str) -> str:
    """A dev log without its header, as the user pasted it."""
    lines = (DEV / name).read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith(("# source:", "# expected:", "# family:", "# resolution:")))


# --- CANN's suggestion block is template text, not a title's opening words -------------------------------------------

def test_a_suggestion_line_under_another_error_does_not_read_as_the_heartbeat_entry(explain_text):
    # E30008 on the GetNext operator (CANN maintenance guide troubleshooting_0145): its "Possible Cause: 1. For the GetNext
    # operator, …" line opened like ARL-E314's suggestion line ("Possible Cause: 1. Heartbeats are missing …") and named
    # a lost device; the code's own report is the answer
    result, top = explain_text(_paste("hiascend-troubleshooting-0145-80rc3.log"))
    assert top is not None and top.entry.id == "DRV-code" and top.kind == "getnext-aicpu-timeout"
    assert "ARL-E314" not in [d.entry.id for d in result.diagnoses]


def test_the_heartbeat_suggestion_line_itself_still_reads_as_its_entry(explain_text):
    # near miss: E39009's own suggestion line, pasted alone, is ARL-E314's signature (matched whole, not by opening words)
    _, top = explain_text("Possible Cause: 1. Heartbeats are missing on the device. 2. The underlying channel is disconnected.\n")
    assert top is not None and top.entry.id == "ARL-E314"


def test_a_title_opening_with_a_known_message_is_still_read(explain_text):
    # near miss: the opening-words reading itself stays for titles ("<message's first words> when …")
    _, top = explain_text("Communication_Error_Bind_IP_Port(EJ0003): Failed to bind the IP port. when starting two servers\n")
    assert top is not None and top.entry.id == "ARL-E322"


# --- an entry that reads a link more broadly than an analyzer's class yields to it (refined_by) ------------------------

@pytest.mark.parametrize("name", ["ptoas-pr467.log", "ptoas-pr720.log"])
def test_an_ai_core_report_that_says_timed_out_is_the_time_out_not_the_fault_entry(explain_text, name):
    # the EZ9999 report names an AI Core / vector core exception (ARL-E330: a kernel that faulted) and its TraceBack says
    # the kernel timed out ("[aicore timeout]", "[vector core timeout]"): the code analyzer's time-out finding is the
    # answer, the entry is listed below it
    result, top = explain_text(_paste(name))
    assert top is not None and (top.entry.id, top.basis, top.kind) == ("DRV-code", "derived", "aicore-timeout")
    assert "ARL-E330" in [d.entry.id for d in result.diagnoses[1:]]


def test_an_ai_core_fault_still_reads_as_the_entry(explain_text):
    # near miss: the same report whose TraceBack names a fault, not a time-out, stays ARL-E330
    paste = _paste("ptoas-pr467.log").replace("retCode=0x30, [vector core timeout]", "retCode=0x31, [vector core exception]")
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E330" and top.kind == "aicore-exception"


def test_refined_by_is_read_from_the_yaml_and_kept_by_the_cache():
    from ascendrl.catalog.entries import _from_data, _to_data, parse_catalog_text

    text = (ROOT / "catalog" / "known_failures" / "torch_npu_cann_hccl.yaml").read_text(encoding="utf-8")
    entries, problems = parse_catalog_text(text, "torch_npu_cann_hccl.yaml")
    e330 = next(e for e in entries if e.id == "ARL-E330")
    assert e330.refined_by == ("aicore-timeout",)
    refined = {"ARL-E330": ("aicore-timeout",), "ARL-E331": ("aclnn-inner-error", "op-unsupported-on-soc", "kernel-launch-empty-grid", "aclnn-param-unsupported"), "ARL-E332": ("op-no-binary",)}  # k22op: cannrt; k33: the SoC lacks the op; k39op: an empty launch grid; k47op: the argument check under torch_npu 2.1's OpParamMaker form
    assert all(e.refined_by == refined.get(e.id, ()) for e in entries)  # optional: absent means none
    again, _ = _from_data(_to_data((entries, problems)))
    assert next(e for e in again if e.id == "ARL-E330") == e330
