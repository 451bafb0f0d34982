"""Log forms from the round-7 dev misses that the engine reads generally (issue #10).

ACL's own samples and CANN's API examples print a failed ACL call as a log line of their own with the return
code ("acl set device 0 failed, errorCode = 507033", "aclrtSetDevice failed. ERROR: 507033"), with no traceback
and no CANN report: the code is the failure, whichever call failed.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("text, kind", [
    # Ascend/samples' ERROR_LOG, the sample's own INFO lines around it
    ("[INFO]  acl init success\n[ERROR]  acl set device 0 failed, errorCode = 507033\n[ERROR]  sample init resource failed\n",
     "device-setup-failed"),
    # CANN's documented aclnn/HCCL examples (CHECK_RET with LOG_PRINT)
    ("aclrtSetDevice failed. ERROR: 507033\n", "device-setup-failed"),
    ("[ERROR]  aclrtCreateContext failed, errorCode = 107001\n", "invalid-visible-device"),
])
def test_an_acl_sample_failure_line_is_a_failure_of_its_own(explain_text, text, kind):
    result, top = explain_text(text)
    assert top is not None and top.kind == kind and top.fatal, (result.diagnoses, result.unknown)


def test_the_same_words_without_a_code_stay_quiet(explain_text):
    result, top = explain_text("[INFO]  acl init success\n[INFO]  end to finalize acl\n")
    assert top is None and result.unknown is None
