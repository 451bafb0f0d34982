"""Signatures follow the wording their emitters print, old and new releases alike (filled-in source templates)."""

from __future__ import annotations

import io
import re

import pytest

from ascendrl.catalog import Classifier, load_catalog


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return load_catalog(user_dir=tmp_path_factory.mktemp("no-user"))


def matching(catalog, entry_id: str, line: str):
    entry = catalog.by_id(entry_id)
    return [sig for sig in entry.signatures if re.search(sig.regex, line)]


@pytest.mark.parametrize("entry_id, line", [
    # hicann/runtime error_message_manage.cc: "%s execution failed, reason=%s" (CANN 8.5+); older "execute ... [%s]"
    ("ARL-E310", "rtGetDeviceCount execution failed, reason=driver error:no valid device"),
    ("ARL-E310", "rtGetDeviceCount execute failed, reason=[driver error:no valid device]"),
    ("ARL-E344", "rtGetDeviceIndexByPhyId execution failed, reason=device id error"),
    ("ARL-E314", "rtStreamSynchronize execution failed, reason=lost heartbeat"),
    ("ARL-E383", "rtStreamSynchronizeWithTimeout execution failed, reason=stream sync timeout"),
    ("ARL-E381", "rtStreamSynchronizeWithTimeout execution failed, reason=aicpu exception"),
    # device_error_proc.cc: the STARS line starts lower case after "serial number is N, "
    ("ARL-E381", "The error from device(chipId:0, dieId:0), serial number is 3, an exception occurred during AICPU "
                 "execution, stream_id:6, task_id:2895, errcode:11002, msg:open so failed."),
    # api_error.cc EE1003: "SetDevice" in 8.5/9.0, a described stage on master
    ("ARL-E311", "SetDevice failed because value 8 for parameter drv devId is invalid. Expected value: [0, 8)."),
    ("ARL-E311", "Specifying the device used for computation by the current thread failed because value 8 for "
                 "parameter drv devId is invalid. Expected value: [0, 8)."),
    # device_error_core_proc.cc (master) rewords MTE_BIU_RDWR_RESP
    ("ARL-E330", "MTE accesses an invalid GM address or the cross-device memory access times out."),
    # E40021 / E20001 templates in error_code.json (CANN 8.5+)
    ("ARL-E339", "Failed to compile Op QuantBatchMatmulV3. oppath is /usr/local/Ascend/cann/opp and optype is QuantBatchMatmulV3."),
    ("ARL-E339", "Operator MatMul_1 compilation failed. Optype is MatMul."),
    ("ARL-E346", "Call CannKbInit failed. Result = [1]. Init parameters: [a, b, c]"),
    ("ARL-E350", "[Parse][ClusterInfo]ranktable config devId[1],but local devId[3]"),
    # hicann/opbase indv_executor.cpp, old and master wording
    ("ARL-E337", "Io input dtype or format is not supported, get io input info is x(DT_BFLOAT16, ND) gamma(DT_BFLOAT16, ND) "
                 "but supported list is:"),
    ("ARL-E337", "The dtype or format of the actual input or output parameter of the operator is inconsistent with that "
                 "defined in the operator prototype OpDef, details of parameter are x(DT_BFLOAT16, ND) , y(DT_BFLOAT16, ND) "),
    # hicann/ops-nn aclnn_quant_matmul_v4.cpp (the older "should also be bfloat16" wording stays matched too)
    ("ARL-E221", "When scale dtype is BFLOAT16, out dtype should be BFLOAT16 or INT32, actual dtype is DT_FLOAT16"),
    ("ARL-E221", "When scale dtype is bfloat16, out dtype should also be bfloat16 but it is DT_INT32"),
])
def test_each_release_wording_matches_its_entry(catalog, entry_id, line):
    assert matching(catalog, entry_id, line), line


def test_runtime_reason_forms_keep_their_meaning_apart(catalog):
    # Widening to both bracket forms must not let one runtime reason match another entry's reason.
    assert not matching(catalog, "ARL-E383", "rtStreamSynchronize execution failed, reason=aicpu exception")
    assert not matching(catalog, "ARL-E310", "rtGetDeviceCount execution failed, reason=device id error")


def test_a_new_release_line_is_diagnosed_in_a_log(catalog):
    log = ("EE9999: Inner Error!\n"
           "        TraceBack (most recent call last):\n"
           "        rtStreamSynchronizeWithTimeout execution failed, reason=stream sync timeout\n")
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(log.encode()), "log")
    assert "ARL-E383" in [d.entry.id for d in c.result().diagnoses]
