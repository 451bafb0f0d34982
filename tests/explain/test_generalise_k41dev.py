"""Readings widened by helper k41dev (2026-12-05) from the emitting projects' sources:

- The exit messages of a c10d process group's watchdog and heartbeat monitor (torch_npu ProcessGroupHCCL.cpp from
  v7.0.0 to v26.x, PyTorch ProcessGroupNCCL.cpp, and the backends built from it): "ProcessGroupHCCL's watchdog got stuck
  for N seconds …", "… watchdog detected an exception from the local rank", "… detected a dump signal from rank N",
  "Terminating the process after attempting to dump debug info, due to collective timeout or exception.",
  "… due to ProcessGroupNCCL watchdog hang.", "Heartbeat monitor timed out!": read as the collective timeout
  (DRV-process kind collective-timeout) when no catalog entry names the line.
- The SIGABRT that follows (terminateProcess ends the process with LOG(FATAL) / std::abort) is the watchdog's own exit,
  not a second crash that outranks it.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result.diagnoses[0] if result.diagnoses else None


ABORT = "*** SIGABRT received at time=1733000000 on cpu 12 ***\nFatal Python error: Aborted\n"


@pytest.mark.parametrize("line", [
    "[PG ID 0 PG GUID 0(default_pg) Rank 3] ProcessGroupHCCL's watchdog detected an exception from the local rank. "
    "This is most likely caused by incorrect usages of collectives, e.g., wrong sizes used across ranks",
    "[PG ID 1 PG GUID 1 Rank 0] ProcessGroupHCCL's watchdog detected a dump signal from rank 5 and notified the current rank.",
    "[rank0]:[F725 02:47:41.268394894 ProcessGroupNCCL.cpp:1653] [PG ID 0 PG GUID 0(default_pg) Rank 0] "
    "Terminating the process after attempting to dump debug info, due to collective timeout or exception.",
    "[rank1]:[F1111 17:10:53 ProcessGroupNCCL.cpp:1671] [PG ID 0 PG GUID 0(default_pg) Rank 1] "
    "Terminating the process after attempting to dump debug info, due to ProcessGroupNCCL watchdog hang.",
])
def test_watchdog_exit_messages_are_the_collective_timeout(line):
    top = _top(line + "\n" + ABORT)
    assert top is not None
    assert top.kind == "collective-timeout", (top.entry.id, top.kind, top.entry.title)
    assert "SIGABRT" not in top.entry.title and "Aborted" not in top.entry.title


def test_abort_without_a_watchdog_stays_an_abort():
    top = _top("[rank0]: step 12 loss 0.31\n" + ABORT)
    assert top is not None
    assert top.kind != "collective-timeout"


def test_watchdog_words_in_prose_are_no_exit_message():
    # a line that names the watchdog without its exit wording is not the timeout
    top = _top("INFO: ProcessGroupHCCL watchdog thread started\n" + ABORT)
    assert top is None or top.kind != "collective-timeout"
