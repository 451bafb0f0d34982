"""tools/audit_signatures.py: the literal a signature is checked by, and the reading of split string literals.

Offline only: these check the tool's text handling, not any download (no wheel is guaranteed in pip's find-links
here, so the wheel path is exercised by running the tool, not by this test).
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("audit_signatures", ROOT / "tools" / "audit_signatures.py")
audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(audit)


def test_longest_literal_strips_regex_syntax():
    assert audit.longest_literal(r"Cannot install .+ because these package versions have conflicting dependencies") == (
        "because these package versions have conflicting dependencies")
    assert audit.longest_literal(r"'Unable to parse the --resources argument using json\.loads'") == (
        "'Unable to parse the --resources argument using json.loads'")
    # a character made optional by ? or a class / group ends the run and is not part of it
    assert audit.longest_literal(r"execut(?:e|ion) failed, reason=\[?lost heartbeat") == "failed, reason="
    assert audit.longest_literal(r"aclnn\w+ or aclnn\w+GetWorkspaceSize not in libopapi\.so") == (
        "GetWorkspaceSize not in libopapi.so")


def test_joined_reads_a_message_split_over_literals():
    cpp = 'TORCH_CHECK(ok, "Watchdog caught collective operation timeout: ", "Work")'
    assert "timeout: Work" not in cpp and "timeout: Work" in audit.joined(cpp)
    py = 'raise ValueError(\n    "ResolutionImpossible: for help visit "\n    "https://pip.pypa.io")'
    assert "for help visit https://pip.pypa.io" in audit.joined(py)
    assert audit.joined("x = 1") == "x = 1"


def test_candidates_drop_a_log_label_only():
    assert audit.candidates("ERROR: ResolutionImpossible: for help visit")[-1] == "for help visit"
    assert "ResolutionImpossible: for help visit" in audit.candidates("ERROR: ResolutionImpossible: for help visit")
    assert audit.candidates("[Error]: The task scheduler loses the heartbeat.")[-1] == (
        "The task scheduler loses the heartbeat.")
    assert audit.candidates("Device not found or invalid.") == ["Device not found or invalid."]
