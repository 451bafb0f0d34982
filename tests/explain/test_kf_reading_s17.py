"""Log forms that hid a fatal error from the engine (session 17, reading): each is read as the failure it is.

- c10::Error's what() pasted without the Python exception line that carries it: the message, then "Exception raised
  from <func> at <file>:<line> (most recent call first):" and the native frames (c10/util/Exception.cpp). The message above
  that line is the failure, whether a paste starts at it or torch_npu logged it as a glog ERROR record.
"""

from __future__ import annotations

FRAMES = (
    "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xb8 (0xffff7c20c908 in "
    "/usr/lib/python3.10/site-packages/torch/lib/libc10.so)\n"
    "frame #1: c10::detail::torchCheckFail(char const*, char const*, unsigned int, std::string const&) + 0x6c "
    "(0xffff7c1bb404 in /usr/lib/python3.10/site-packages/torch/lib/libc10.so)\n"
)
RAISED = "Exception raised from {} at build/CMakeFiles/torch_npu.dir/compiler_depend.ts:26 (most recent call first):\n"


def test_a_c10_message_pasted_without_its_exception_line_is_the_failure(explain_text):
    text = ("        launch failed for Cast, errno:361001.\n"
            "\n" + RAISED.format("operator()") + FRAMES)
    result, _ = explain_text(text)
    assert result.fatal and result.unknown is not None
    assert result.unknown.type == "RuntimeError" and result.unknown.message.startswith("launch failed for Cast, errno:361001.")


def test_a_glog_error_record_of_it_with_torch_npus_tag_below_a_blank_line(explain_text):
    # torch_npu logs the c10::Error at glog ERROR level and appends its ERR tag after a blank line
    text = ("[rank0]:[E1204 11:18:17.728425480 compiler_depend.ts:444] NPU out of memory. NPUWorkspaceAllocator tried to "
            "allocate 187.54 MiB(NPU 0; 60.96 GiB total capacity; 58.01 GiB already allocated)\n"
            "\n"
            "[ERROR] 2025-12-04-11:18:17 (PID:186138, Device:0, RankID:0) ERR00006 PTA memory error\n"
            + RAISED.format("malloc") + FRAMES)
    result, top = explain_text(text)
    assert result.fatal and top is not None and top.kind == "npu-oom", top


def test_the_exception_line_above_keeps_its_own_reading(explain_text):
    text = ("RuntimeError: launch failed for Cast, errno:361001.\n" + RAISED.format("operator()") + FRAMES)
    result, _ = explain_text(text)
    assert result.unknown is not None and result.unknown.line == 1
    assert result.unknown.message == "launch failed for Cast, errno:361001."


def test_a_warning_record_above_it_stays_a_warning(explain_text):
    text = ("[W1204 11:18:17.728425480 ProcessGroupHCCL.cpp:903] Warning: launch failed for Cast, retrying once\n"
            + RAISED.format("operator()") + FRAMES)
    result, _ = explain_text(text)
    assert not result.fatal

