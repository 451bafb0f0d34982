"""Readings added by helper k40cann (2026-12-05) from the emitting projects' sources, each for a class of failure:

- A build that cannot determine the installed CANN version (ARL-E3100): Paddle-Lite's NNAdapter CMake when the SDK
  root's path carries no version, vllm-ascend's kernel build when the toolkit's version.info is missing or has no
  version line. Every wording those emitters have, through the real classifier.
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str) -> str | None:
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result.diagnoses[0].entry.id if result.diagnoses else None


PADDLE_LITE = (
    "-- NNADAPTER_HUAWEI_ASCEND_NPU_SDK_ROOT: /opt/cann\n"
    "CMake Error at lite/backends/nnadapter/nnadapter/src/driver/huawei_ascend_npu/dependencies.cmake:60 (message):\n"
    "  Failed to extract the CANN version, please set the correct\n"
    "  NNADAPTER_HUAWEI_ASCEND_NPU_SDK_ROOT or manually set\n"
    "  NNADAPTER_HUAWEI_ASCEND_NPU_SDK_VERSION as\n"
    "  NNADAPTER_HUAWEI_ASCEND_NPU_SDK_VERSION=3.3.0\n"
    "-- Configuring incomplete, errors occurred!\n"
)


def _vllm_ascend(message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/user/vllm-ascend/csrc/cmake/scripts/check_version_compatible.py", line 103, in <module>\n'
        "    VersionChecker.main()\n"
        '  File "/home/user/vllm-ascend/csrc/cmake/scripts/check_version_compatible.py", line 48, in main\n'
        "    raise ValueError(message)\n"
        f"ValueError: {message}\n"
    )


def test_paddle_lite_cann_version_not_extracted():
    assert _top(PADDLE_LITE) == "ARL-E3100"


def test_vllm_ascend_version_info_missing_or_unversioned():
    missing = _vllm_ascend("CANN version info file(/usr/local/Ascend/cann/toolkit/version.info) not exist.")
    unversioned = _vllm_ascend("Can't get version from CANN version info file(/usr/local/Ascend/ascend-toolkit/latest/toolkit/version.info).")
    assert _top(missing) == "ARL-E3100"
    assert _top(unversioned) == "ARL-E3100"


def test_code_version_file_is_not_the_cann_version():
    # the same script's check of the code's own version file is another failure (the checkout, not CANN)
    other = _vllm_ascend("Code version info file(/home/user/vllm-ascend/version.info) not exist.")
    assert _top(other) != "ARL-E3100"
