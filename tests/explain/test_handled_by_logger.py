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


# Ray's own records name the file that logged (ray_constants.LOGGER_FORMAT "%(asctime)s\t%(levelname)s
# %(filename)s:%(lineno)s -- %(message)s"). Its NPU accelerator probe logs a failed `import acl` with logger.exception and
# goes on (ray/_private/accelerators/npu.py, get_current_node_accelerator_type, read in the Ray 2.60.0 wheel).
RAY_PROBE = [
    "2025-08-04 10:00:01,234\tERROR npu.py:82 -- Failed to detect NPU type.",
    "Traceback (most recent call last):",
    '  File "/usr/local/python3.10/lib/python3.10/site-packages/ray/_private/accelerators/npu.py", line 78, in get_current_node_accelerator_type',
    "    import acl",
    "ModuleNotFoundError: No module named 'acl'",
]
RAY_STARTED = "2025-08-04 10:00:03,512\tINFO worker.py:1879 -- Started a local Ray instance. View the dashboard at 127.0.0.1:8265"


def test_rays_logged_npu_probe_that_ray_carries_on_after_is_not_fatal(explain_text):
    result, top = explain_text("\n".join([*RAY_PROBE, RAY_STARTED]) + "\n")
    assert not result.fatal and result.unknown is None
    assert top is not None and top.entry.id == "ARL-E300" and not top.fatal  # still said: acl is not importable


@pytest.mark.parametrize("lines", [
    RAY_PROBE,  # nothing after: the process died of it
    [*RAY_PROBE, RAY_STARTED.replace("\tINFO ", "\tERROR ")],  # Ray's next record is an error
    [*RAY_PROBE, "Started a local Ray instance."],  # not a Ray record
    [RAY_PROBE[0].replace("npu.py:82", "worker.py:409"), *RAY_PROBE[1:], RAY_STARTED],  # logged by another file than the one that caught it
    [*RAY_PROBE[:2], RAY_PROBE[2].replace("site-packages/ray/_private/accelerators/", "my_project/"), *RAY_PROBE[3:], RAY_STARTED],
], ids=["nothing-after", "error-after", "no-record-after", "other-file-logged", "not-rays-frame"])
def test_a_ray_logged_traceback_stays_fatal_unless_ray_caught_it_and_carried_on(explain_text, lines):
    result, top = explain_text("\n".join(lines) + "\n")
    assert result.fatal and top is not None and top.entry.id == "ARL-E300" and top.fatal


def test_an_entry_matched_on_a_survived_line_is_fatal_again_where_it_recurs_unhandled(explain_text):
    named = ["2025-08-04 10:00:01,234 - ray._private.accelerators.npu - ERROR - Failed to detect NPU type.", *RAY_PROBE[1:],
             "2025-08-04 10:00:03,512 - ray._private.accelerators.npu - INFO - carrying on"]
    result, top = explain_text("\n".join(named) + "\n")
    assert not result.fatal and top.entry.id == "ARL-E300" and not top.fatal
    unhandled = ["Traceback (most recent call last):", '  File "train.py", line 3, in <module>', "    import acl",
                 "ModuleNotFoundError: No module named 'acl'"]
    result, top = explain_text("\n".join([*named, *unhandled]) + "\n")
    assert result.fatal and top.entry.id == "ARL-E300" and top.fatal
