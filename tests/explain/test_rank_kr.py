"""Ranking principles, measured on the development corpus (session 17, helper kr).

Two alternatives to the ranking in Classifier.result were scored over all dev logs, plain and leave-thread-out:
- the last specific failure in time first (instead of the first): dev 665/794 and leave-thread-out 569/794, against
  669 and 573 — four logs lost each, every one a run whose first report is the cause and a later one its echo;
- a specific derived finding on a par with a catalog entry (ordered by time alone): dev 668, leave-thread-out 572 — the
  decoded code of the torch_npu head line outranked the entry naming the CANN report under it.
These tests pin the principle both measures kept, on those logs: the first specific report wins, and a catalog entry
naming a failure's report wins over a decoded code of the same failure.
"""

from __future__ import annotations

from pathlib import Path

import pytest

DEV = Path(__file__).parent / "realworld" / "dev"


def _paste(name: str) -> str:
    """A dev log without its header, as the user pasted it."""
    lines = (DEV / name).read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith(("# source:", "# expected:", "# family:", "# resolution:")))


@pytest.mark.parametrize("name,first,later", [
    # CANN's TBE compile step failed on a full disk (ENOSPC), then its fusion manager's knowledge-base init failed
    ("llamafactory-6309.log", "ARL-E003", "ARL-E346"),
    # ASCEND_RT_VISIBLE_DEVICES names a device the container lacks, then the driver cannot open it
    ("vllm-ascend-167.log", "ARL-E311", "ARL-E312"),
])
def test_the_first_specific_failure_in_time_ranks_first(explain_text, name, first, later):
    result, top = explain_text(_paste(name))
    ids = [d.entry.id for d in result.diagnoses]
    assert top is not None and top.entry.id == first
    assert later in ids and ids.index(later) > ids.index(first)  # the later report is still listed, below


def test_an_entry_naming_the_cann_report_outranks_the_decoded_code_of_the_same_failure(explain_text):
    result, top = explain_text(_paste("vllm-ascend-6636.log"))
    assert top is not None and top.entry.id == "ARL-E221" and top.basis == "catalog"
    assert any(d.entry.id == "DRV-code" for d in result.diagnoses[1:])


def test_a_decoded_code_alone_is_still_the_answer(explain_text):
    # near miss: the same torch_npu head line without the CANN report an entry names keeps the decoded code on top
    paste = _paste("vllm-ascend-6636.log").splitlines()[0] + "\n"
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "DRV-code"
