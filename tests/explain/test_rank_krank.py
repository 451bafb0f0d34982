"""Ranking fixes from the leave-thread-out misses (session 18, helper krank): a too-broad reading that named the wrong
entry over the reading the log's own report gives, each with a near miss that must stay as it is."""

from __future__ import annotations

from pathlib import Path

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
