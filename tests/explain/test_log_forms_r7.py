"""Log forms from the round-7 dev misses that the engine reads generally (issue #10).

ACL's own samples and CANN's API examples print a failed ACL call as a log line of their own with the return
code ("acl set device 0 failed, errorCode = 507033", "aclrtSetDevice failed. ERROR: 507033"), with no traceback
and no CANN report: the code is the failure, whichever call failed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths, load_catalog

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def catalog():
    return load_catalog(user_dir=HERE / "no-user-catalog")


def _top(catalog, tmp_path, text: str):
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    result = explain_paths(catalog, [log])
    return result, (result.diagnoses[0] if result.diagnoses else None)


@pytest.mark.parametrize("text, kind", [
    # Ascend/samples' ERROR_LOG, the sample's own INFO lines around it
    ("[INFO]  acl init success\n[ERROR]  acl set device 0 failed, errorCode = 507033\n[ERROR]  sample init resource failed\n",
     "device-setup-failed"),
    # CANN's documented aclnn/HCCL examples (CHECK_RET with LOG_PRINT)
    ("aclrtSetDevice failed. ERROR: 507033\n", "device-setup-failed"),
    ("[ERROR]  aclrtCreateContext failed, errorCode = 107001\n", "invalid-visible-device"),
])
def test_an_acl_sample_failure_line_is_a_failure_of_its_own(catalog, tmp_path, text, kind):
    result, top = _top(catalog, tmp_path, text)
    assert top is not None and top.kind == kind and top.fatal, (result.diagnoses, result.unknown)


def test_the_same_words_without_a_code_stay_quiet(catalog, tmp_path):
    result, top = _top(catalog, tmp_path, "[INFO]  acl init success\n[INFO]  end to finalize acl\n")
    assert top is None and result.unknown is None
