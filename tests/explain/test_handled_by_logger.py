"""Exceptions the code that met them logged and carried on after are not the run's failure.

Two forms: an exception's repr in a record at a quiet level (vLLM's Platform.import_kernels logs "Failed to import from
vllm._C: %r" at WARNING, vllm/platforms/interface.py at c77619938d1c), and a traceback printed under a named logger's
ERROR record (logger.exception) that the same logger's next record follows at INFO (gpustack/runtime#20, its detector
falling back to DCMI's V2 API). Each has a counterpart that stays fatal.
"""

from __future__ import annotations

import pytest

VLLM_C_NEW = "WARNING 11-02 10:00:00 [interface.py:171] Failed to import from vllm._C: ModuleNotFoundError(\"No module named 'vllm._C'\")"
START = "INFO 11-02 10:00:01 [api_server.py:1] vLLM API server version 0.11.1"


def test_vllms_newer_vllm_c_warning_is_the_harmless_entry(explain_text):
    result, top = explain_text(f"{VLLM_C_NEW}\n{START}\n")
    assert not result.fatal
    assert top is not None and top.entry.id == "ARL-E203" and not top.fatal


@pytest.mark.parametrize("level, fatal", [("WARNING", False), ("INFO", False), ("ERROR", True)])
def test_an_exception_repr_is_handled_only_at_a_quiet_level(explain_text, level, fatal):
    line = f"{level} 11-02 10:00:00 [loader.py:88] Failed to load reward module: ModuleNotFoundError(\"No module named 'my_reward'\")"
    result, _ = explain_text(f"{line}\n{START}\n")
    assert result.fatal is fatal


LOGGED = [
    "2026-08-27 15:14:40,139 - 1401 - gpustack_runtime.detector.ascend - ERROR - Failed to initialize DCMI, loaded from libdcmi.so",
    "Traceback (most recent call last):",
    '  File "/usr/local/lib/python3.11/dist-packages/gpustack_runtime/detector/ascend.py", line 77, in is_supported',
    "    pydcmi.dcmi_init()",
    '  File "/usr/local/lib/python3.11/dist-packages/gpustack_runtime/detector/pydcmi/__init__.py", line 280, in _dcmiCheckReturn',
    "    raise DCMIError(ret)",
    "gpustack_runtime.detector.pydcmi.DCMIError_NotSupport: Not Supported",
]


def test_a_traceback_logged_under_error_and_followed_by_the_same_loggers_info_was_survived(explain_text):
    after = "2026-08-27 15:14:40,265 - 1401 - gpustack_runtime.detector.ascend - INFO - Initialized DCMI through the V2 API"
    result, _ = explain_text("\n".join([*LOGGED, after]) + "\n")
    assert not result.fatal and result.unknown is None


@pytest.mark.parametrize("after", [
    None,  # the process printed nothing more: it died of it
    "2026-08-27 15:14:40,265 - 1401 - gpustack_runtime.detector.ascend - ERROR - Giving up",  # not a quiet record
    "2026-08-27 15:14:40,265 - 1402 - gpustack_runtime.server - INFO - Shutting down",  # another logger
    "Initialized DCMI through the V2 API",  # no logger record at all
])
def test_a_logged_traceback_stays_fatal_unless_its_logger_carries_on(explain_text, after):
    lines = [*LOGGED, after] if after else LOGGED
    result, _ = explain_text("\n".join(lines) + "\n")
    assert result.fatal and result.unknown is not None and result.unknown.type.endswith("DCMIError_NotSupport")


def test_an_unhandled_traceback_without_a_logger_record_above_stays_fatal(explain_text):
    after = "2026-08-27 15:14:40,265 - 1401 - gpustack_runtime.detector.ascend - INFO - Initialized DCMI through the V2 API"
    result, _ = explain_text("\n".join([*LOGGED[1:], after]) + "\n")
    assert result.fatal
