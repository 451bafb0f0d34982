"""Ranking fixes from the leave-thread-out misses whose top answer was wrong (session 21, helper kwrong): a reading of
the log's own report that names the class outranks a wrapper entry or a resemblance, each with a near miss that stays."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths

DEV = Path(__file__).parent / "realworld" / "dev"


def _paste(name: str) -> str:
    """A dev log without its header, as the user pasted it."""
    lines = (DEV / name).read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith(("# source:", "# expected:", "# family:", "# resolution:")))


@pytest.fixture
def explain_without(catalog, tmp_path):
    """explain on a paste with some entries left out (as leave-thread-out scores a log): (result, top)."""

    def run(text: str, *drop: str):
        kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in drop))
        log = tmp_path / "x.log"
        log.write_text(text, encoding="utf-8")
        result = explain_paths(kept, [log])
        return result, (result.diagnoses[0] if result.diagnoses else None)

    return run


# --- a catch-all code whose report's own words name the class is that class, not a bare code --------------------------

SOC = ('RuntimeError: call aclnnGroupedMatmulV4 failed, detail:EZ9999: Inner Error!\n'
       'EZ9999[PID: 1234] 2026-02-01-10:00:00.000.000 AclNN_Inner_Error(EZ9999):  Op GroupedMatmulV4 not support soc version ascend310p.\n'
       '        TraceBack (most recent call last):\n'
       '       Check soc version failed!\n')


def test_an_inner_error_whose_report_says_the_soc_lacks_the_op_outranks_the_call_wrapper(explain_without):
    # sglang#17222's shape without the entry its thread gave (ARL-E405): "call aclnnX failed, detail:EZ9999: Inner Error!"
    # (ARL-E331, the call) over nnopbase's "Op X not support soc version Y" (indv_executor.cpp): the report's class wins
    result, top = explain_without(_paste("sglang-17222.log"), "ARL-E405")
    assert top is not None and (top.entry.id, top.kind) == ("DRV-code", "op-unsupported-on-soc")
    assert "ARL-E331" in [d.entry.id for d in result.diagnoses[1:]]
    # another operator, another SoC: the same reading
    _, top = explain_without(SOC, "ARL-E405")
    assert top is not None and top.kind == "op-unsupported-on-soc"


def test_with_the_entry_the_soc_report_is_still_the_entry(explain_text):
    _, top = explain_text(SOC)
    assert top is not None and top.entry.id == "ARL-E405"


def test_an_inner_error_that_says_nothing_more_stays_below_the_call_entry(explain_text):
    # near miss: the catch-all alone (no class words in the report) is still a bare code under ARL-E331
    paste = SOC.replace("Op GroupedMatmulV4 not support soc version ascend310p.", "Some inner step failed.").replace(
        "Check soc version failed!", "Check NnopbaseRunForWorkspace failed")
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E331"


def test_a_wait_read_from_the_report_stays_weak():
    # near miss: a catch-all whose words say a wait ran out (stream sync timeout) is still a consequence (weak)
    from ascendrl.catalog.analyzers import Facts
    from ascendrl.catalog.analyzers.codes import ErrorCodes
    from ascendrl.catalog.chain import Chain, Link

    link = Link("cann", "EZ9999", "stream sync timeout on stream 3", "x.log", 2, codes=["EZ9999"])
    finding = ErrorCodes().analyze(link, Chain("x.log", [link]), Facts({}, {}))
    assert finding is not None and finding.kind == "stream-sync-timeout" and finding.weak


# --- CANN's own import report (E40020) is CANN's Python: a missing pip dependency there is CANN's ----------------------

def test_e40020_naming_a_cann_dependency_reads_as_cann_python_deps(explain_text):
    # the hiascend forum thread's ATC paste: E40020 "Failed to import Python module [ModuleNotFoundError: No module named
    # 'sympy'.]" with no frame in CANN's Python: CANN's report is the witness (the resemblance answered package-mismatch)
    _, top = explain_text(_paste("hiascend-forum-0221123417913615035.log"))
    assert top is not None and (top.entry.id, top.kind) == ("DRV-cann-python", "cann-python-deps-missing")
    # another dependency from CANN's list
    _, top = explain_text("E40020: Failed to import Python module [ModuleNotFoundError: No module named 'decorator'.].\n")
    assert top is not None and top.kind == "cann-python-deps-missing"


def test_e40020_naming_another_module_is_not_cann_deps(explain_text):
    # near miss: a module that is not one of CANN's pip dependencies is not read as one
    result, top = explain_text("E40020: Failed to import Python module [ModuleNotFoundError: No module named 'my_ops'.].\n")
    assert top is None or top.kind != "cann-python-deps-missing"
