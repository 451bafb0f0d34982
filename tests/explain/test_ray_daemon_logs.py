"""What an analyzer reads in a Ray daemon's log is reported, never taken as what ended the run.

Found by the real verl e2e stall test: with another Ray cluster on the machine, the new run's
dashboard agent could not bind its port, logged the traceback and carried on (Ray runs without
it); `run` then reported "Address already in use" as the run's fatal diagnosis.
"""

from __future__ import annotations

from ascendrl.catalog import explain_paths, load_catalog

# asyncio's own bind error (base_events.create_server), as aiohttp's site start raises it in
# Ray's dashboard agent; the traceback shape is Python's.
BIND_TRACEBACK = """2026-11-30 23:43:16,648\tERROR agent.py:170 -- Failed to start the HTTP server
Traceback (most recent call last):
  File "/venv/lib/python3.11/site-packages/ray/dashboard/http_server_agent.py", line 58, in start
    await site.start()
  File "/venv/lib/python3.11/site-packages/aiohttp/web_runner.py", line 121, in start
    self._server = await loop.create_server(
  File "/usr/lib/python3.11/asyncio/base_events.py", line 1536, in create_server
    raise OSError(err.errno, msg) from None
OSError: [Errno 98] error while attempting to bind on address ('0.0.0.0', 52365): address already in use
"""


def _session(tmp_path, name):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / name).write_text(BIND_TRACEBACK)
    return explain_paths(load_catalog(user_dir=tmp_path / "none"), [logs])


def test_a_daemon_logs_bind_error_is_reported_not_fatal(tmp_path):
    result = _session(tmp_path, "dashboard_agent.log")
    found = [d for d in result.diagnoses if d.entry.id == "DRV-oserror"]
    assert found and not found[0].fatal and found[0].kind == "eaddrinuse"
    assert not any(d.fatal for d in result.diagnoses)


def test_the_same_error_in_a_workers_log_is_fatal(tmp_path):
    result = _session(tmp_path, "worker-5b1c3a-01000000-4711.err")
    top = result.diagnoses[0]
    assert top.entry.id == "DRV-oserror" and top.fatal
