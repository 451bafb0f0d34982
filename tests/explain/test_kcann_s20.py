"""Device / CANN-environment / HCCL classes named or widened in session 20 (kcann).

- ARL-E1600: MindIE's rank-table check rejects a device_ip that is not an IP ("Parameter device_ip is invalid in
  ranktable file."): the NPUs' device NIC addresses were never configured or not found when the table was generated.
  Its device_id / rankId checks are other classes and are not read by it.
- ARL-E1601: the MindX DL / MindCluster start scripts' NPU check (npu-smi reports -8020): "npu is busy, check again"
  (a retry, not fatal by itself) and "npu is occupied by others too long, please release it" (the job stops).
- ARL-E271 (widened): torch_npu's "Unsupported soc version: <chip>" also where an application caught the RuntimeError
  and printed only its text.
- ARL-E312 (widened): torch_npu's SetDevice NPU function error with 507033 whatever call site printed it
  (SetDevice(device_id_), c10_npu::SetDevice(device), SetDevice(device_idx) ...).
- ARL-E336 (widened): torch_npu's SetPrecisionMode NPU function error (its one check is AclSetCompileopt), also cut
  before the call text.
- ARL-E307 (widened): torch_npu's driver/firmware warning in both spellings, "supportted" up to v7.2.x and
  "supported" from v7.3.0.
"""

from __future__ import annotations

import pytest

from conftest import top_of


@pytest.mark.parametrize("text, entry_id", [
    ("Parameter device_ip is invalid in ranktable file.", "ARL-E1600"),
    ("Start to parse ranktable file\nFinished parsing ranktable file.\nParameter device_ip is invalid in ranktable file.",
     "ARL-E1600"),
    # quoted without "Parameter" in an issue title
    ("deploy deepseek on 2 910B machines, always device_ip is invalid in ranktable file", "ARL-E1600"),
    ("npu is occupied by others too long, please release it", "ARL-E1601"),
    ("npu is busy, check again\nnpu is busy, check again", "ARL-E1601"),
    ("[WARN]operator(),build/CMakeFiles/torch_npu.dir/compiler_depend.ts:77:Feature is not supported and the possible "
     "cause is that driver and firmware packages do not match.", "ARL-E307"),
    ("[WARN]operator(),build/CMakeFiles/torch_npu.dir/compiler_depend.ts:3663:Feature is not supportted and the possible "
     "cause is that driver and firmware packages do not match.", "ARL-E307"),
    ("RuntimeError: Unsupported soc version: Ascend910_9391", "ARL-E271"),
    ("RuntimeError: ExchangeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:253 NPU function error: "
     "c10_npu::SetDevice(device), error code is 507033", "ARL-E312"),
    ("RuntimeError: SetDevice:torch_npu/csrc/core/npu/NPUFunctions.cpp:142 NPU function error: SetDevice(device), "
     "error code is 507033", "ARL-E312"),
    ("RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error", "ARL-E336"),
    ("PytorchPaddleOCR init failed: Unsupported soc version: Ascend310", "ARL-E271"),
])
def test_named(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text)
    assert top == entry_id, seen


@pytest.mark.parametrize("text", [
    # MindIE's other rank-table checks name other mistakes (ids, ranks), not the device IP
    "Parameter device_id is invalid in ranktable file.",
    "Parameter rankId is invalid in ranktable file.",
])
def test_not_named(explain_text, text):
    _, seen = top_of(explain_text, text)
    assert "ARL-E1600" not in [i for i, _ in seen], seen


def test_busy_retry_alone_is_not_fatal(explain_text):
    """A retry line the job got past (training went on) is a warning, not the run's failure."""
    result, _ = explain_text("npu is busy, check again\nstep:1 - actor/pg_loss:0.12\nstep:2 - actor/pg_loss:0.10")
    assert not any(d.fatal for d in result.diagnoses if d.entry.id == "ARL-E1601")
