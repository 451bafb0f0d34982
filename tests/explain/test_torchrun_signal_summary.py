"""torchrun's ChildFailedError summary names the signal a worker died of (stop 19, lead).

With no error file, torch/distributed/elastic/multiprocessing/errors/__init__.py (ProcessFailure) summarises a worker a
signal ended as "traceback : Signal 7 (SIGBUS) received by PID 1233" (read in the torch 2.13.0 wheel). Only SIGKILL had an
entry (ARL-E4366); the others left the ChildFailedError wrapper unexplained. The line is a process death now, read by its
signal (DRV-process), and each signal's reading says where to look (SIGBUS: /dev/shm).
"""

from __future__ import annotations

import pytest

SUMMARY = """\
[2025-03-01 10:00:01,000] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -{n}) local_rank: 0 (pid: 1233) of binary: /usr/bin/python
Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 263, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  time      : 2025-03-01_10:00:01
  host      : node1
  rank      : 0 (local_rank: 0)
  exitcode  : -{n} (pid: 1233)
  error_file: <N/A>
  traceback : Signal {n} ({name}) received by PID 1233
============================================================
"""


@pytest.mark.parametrize("n, name, kind", [(7, "SIGBUS", "process-bus-error"), (11, "SIGSEGV", "process-segfault"),
                                           (6, "SIGABRT", "process-aborted")])
def test_the_summary_names_the_signal_not_the_wrapper(explain_text, n, name, kind):
    result, top = explain_text(SUMMARY.format(n=n, name=name))
    assert result.fatal and result.unknown is None
    assert top is not None and top.entry.id == "DRV-process" and top.kind == kind and name in top.entry.title


def test_the_summary_cites_torch_elastic_and_a_handler_cites_glog(explain_text):
    """Who printed the death is its source: torchrun's summary is torch elastic's, glog's "*** SIGSEGV" is glog's."""
    _, top = explain_text(SUMMARY.format(n=11, name="SIGSEGV"))
    assert any("elastic/multiprocessing/errors" in s for s in top.entry.sources)
    _, top = explain_text("*** SIGSEGV (@0x0) received by PID 42 (TID 0x7f) from PID 0; stack trace: ***\n")
    assert top.entry.id == "DRV-process" and any("glog" in s for s in top.entry.sources)


def test_sigbus_points_at_shared_memory(explain_text):
    _, top = explain_text(SUMMARY.format(n=7, name="SIGBUS"))
    assert "/dev/shm" in top.entry.cause and any("--shm-size" in step for step in top.entry.fix)


def test_sigkill_stays_the_oom_entry(explain_text):
    _, top = explain_text(SUMMARY.format(n=9, name="SIGKILL"))
    assert top is not None and top.entry.id == "ARL-E4366"


@pytest.mark.parametrize("line", [
    "The signal 7 (SIGBUS) handler is installed by the DataLoader.",  # prose about a signal, no death
    "kill -s SIGBUS 1233",
])
def test_a_signal_named_without_the_summary_form_is_no_death(explain_text, line):
    result, top = explain_text(f"{line}\nstep:1 - actor/pg_loss:0.01\n")
    assert not result.fatal and (top is None or top.entry.id != "DRV-process")
