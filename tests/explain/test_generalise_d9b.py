"""Round-9 dev misses (second collector) named by general readings: the boundaries of those readings.

The positive forms are golden derived cases (tests/explain/derived/); these check what the readings must not take.
"""

from __future__ import annotations


def test_a_cmake_build_with_nothing_of_the_npu_is_not_an_npu_extension(explain_text):
    text = ("Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3.11/subprocess.py\", line 413, in check_call\n"
            "    raise CalledProcessError(retcode, cmd)\n"
            "subprocess.CalledProcessError: Command '['cmake', '--build', '.', '--target=_C']' returned non-zero exit status 2.\n")
    _, top = explain_text(text)
    assert top is None or top.entry.id != "DRV-native-build"


def test_a_failed_command_that_builds_nothing_is_not_a_build(explain_text):
    text = "subprocess.CalledProcessError: Command '['npu-smi', 'info', '-t', 'board', '-i', '1']' returned non-zero exit status 215.\n"
    _, top = explain_text(text)
    assert top is None or top.entry.id != "DRV-native-build"


def test_an_operator_el0004_is_an_oom_and_only_the_device_open_pool_is_e364(explain_text):
    oom = "[PID: 1] 2026-04-09-21:56:40.384.694 Memory_Allocation_Failure(EL0004): Failed to allocate memory requested by GE module.\n"
    _, top = explain_text(oom)
    assert top is not None and top.entry.id != "ARL-E364" and top.kind == "npu-oom"


def test_107020_with_hccls_notify_timeout_stays_a_collective_timeout(explain_text):
    text = ("RuntimeError: ACL stream synchronize failed, error code:107020\n"
            "EI0002: The wait execution of the Notify register times out. Reason: The Notify register has not received the "
            "Notify record from remote rank [1].\n")
    _, top = explain_text(text)
    assert top is not None and top.kind == "collective-timeout"
