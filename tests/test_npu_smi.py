"""The npu-smi parser on real layouts, and on what is not the table."""

from __future__ import annotations

import pytest

from ascendrl.preflight.probes.npu_smi import NpuSmiFormatError, parse_npu_smi_info
from conftest import NPU_SMI

# Atlas A3 layout as pasted in github.com/vllm-project/vllm-ascend/issues/2534 (two chips per
# NPU, "Chip Phy-ID", "-" for the second chip's power); the process row shape as pasted in
# public 910B reports ("VLLMWorker_TP").
A3 = """\
+------------------------------------------------------------------------------------------------+
| npu-smi 25.2.0                   Version: 25.2.0                                               |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip  Phy-ID              | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     Ascend910           | OK            | 178.5       36                0    / 0             |
| 0     0                   | 0000:9D:00.0  | 0           0    / 0          3416 / 65536         |
+------------------------------------------------------------------------------------------------+
| 0     Ascend910           | OK            | -           36                0    / 0             |
| 1     1                   | 0000:9F:00.0  | 12          0    / 0          62498/ 65536         |
+===========================+===============+====================================================+
+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| 0       1                 | 845053        | VLLMWorker_TP            | 59656                   |
+===========================+===============+====================================================+
"""


def test_a2_table_recorded_fixture():
    info = parse_npu_smi_info((NPU_SMI / "occupied.txt").read_text())
    assert info.version == "25.2.0"
    assert len(info.chips) == 8
    assert [c.npu for c in info.chips] == list(range(8))
    assert {c.name for c in info.chips} == {"910B3"}
    assert info.chips[0].hbm_used_mb == 61623 and info.chips[0].hbm_total_mb == 65536  # "61623/ 65536"
    assert info.chips[0].bus_id == "0000:C1:00.0"
    assert [(p.npu, p.pid, p.name, p.memory_mb) for p in info.processes] == [
        (0, 214587, "python", 58210),
        (1, 19341, "VLLMWorker_TP", 55062),
    ]


def test_a3_two_chips_per_npu():
    info = parse_npu_smi_info(A3)
    assert [(c.npu, c.chip, c.phy_id) for c in info.chips] == [(0, 0, 0), (0, 1, 1)]
    assert info.chips[1].aicore_pct == 12
    assert info.chips[1].hbm_used_mb == 62498
    assert [(p.npu, p.chip, p.pid) for p in info.processes] == [(0, 1, 845053)]


def test_health_column_is_read():
    info = parse_npu_smi_info((NPU_SMI / "unhealthy.txt").read_text())
    assert {c.npu: c.health for c in info.chips if c.health != "OK"} == {3: "Critical", 5: "Warning"}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "dcmi module initialize failed. ret is -8005\n",
        (NPU_SMI / "garbage.txt").read_text(),
        "| NPU   Name | Health |\n",  # a header with no rows
        "\x00\xff" * 100,
    ],
)
def test_not_the_table_raises_a_format_error(text):
    with pytest.raises(NpuSmiFormatError) as err:
        parse_npu_smi_info(text)
    assert "not the documented" in str(err.value)
