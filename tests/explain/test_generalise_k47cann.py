"""Readings added by helper k47cann (2026-12-06) while probing public threads of the CANN environment, the NPU devices and
HCCL for failure classes explain did not name. Each test input is a short excerpt in our own words around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4440: MindSpore could not read the chip name from the CANN runtime (SetContextSocVersion "Get soc name failed.").
- ARL-E4441: MindSpore has no TBE operator-info table for the SoC (op_info_utils.cc, 310P / 310B): non-fatal.
- ARL-E4442: MindSpore's CANN version check (run_check/_check_version.py: toolkit, te and hccl wheels): non-fatal.
- ARL-E4443: the driver's HDC channel found no /dev/hisi_hdc (hicann/driver hdc_core.c): non-fatal.
- ARL-E4444: HCCL rank table without device IPs in a multi-server / intra-RoCE job (RanktablCheck; hccn.conf not mounted).
- ARL-E4445: libascend_hal could not open /dev/davinci_manager at load (drv_log_user.c DrvMngGetConsoleLogLevel): non-fatal.
- widened: the HcclResult of torch_npu's OPS-layer wording ("OPS function error: HcclAllGather, error code is 6") is
  read as an HCCL code (catalog/codes/__init__.py HINT), not only the ERR01100 under it.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import codes, load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4440 ---------------------------------------------------------------------------------------------------------

def test_mindspore_soc_name_is_e4440():
    for text in (
        "[ERROR] DEVICE(384,ffffb37b1010,python):2025-10-20-09:54:58.317.312 [mindspore/ccsrc/plugin/device/ascend/hal/"
        "hardware/ge_device_context.cc:557] SetContextSocVersion] Get soc name failed.\n",
        "[ERROR] DEVICE(91,fffe,python):2026-01-02-03:04:05.000.001 [mindspore/ccsrc/plugin/res_manager/ascend/"
        "ascend_res_manager.cc:120] SetContextSocVersion] Get soc name failed.\nMindSpore version:  2.6.0\n",
    ):
        assert _id(text) == "ARL-E4440", text


def test_torch_npu_unsupported_soc_is_not_e4440():
    # torch_npu's own refusal of an unknown chip is ARL-E271, not MindSpore's empty soc name.
    text = "RuntimeError: Unsupported soc version: Ascend910_9579\n"
    assert _id(text) != "ARL-E4440"


# ARL-E4441 ---------------------------------------------------------------------------------------------------------

def test_mindspore_op_info_table_is_e4441():
    for text in (
        "[ERROR] KERNEL(90948,fffdbae749f0,python):2024-03-19-17:40:09.790.450 [mindspore/ccsrc/kernel/oplib/"
        "op_info_utils.cc:172] LoadOpInfoJson] Get op info json suffix path failed, soc_version: Ascend310P3\n",
        "[ERROR] KERNEL(7,ffff,python):2024-03-19-17:40:09.790.546 [mindspore/ccsrc/kernel/oplib/op_info_utils.cc:111] "
        "GenerateOpInfos] Load op info json failed, version: Ascend310B4\n",
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "ARL-E4441", text
        assert not found.entry.fatal


def test_opp_soc_mismatch_is_not_e4441():
    # The custom-op package built for another chip is ARL-E450's failure, not MindSpore's op-info table.
    text = ("[ERROR] the socversion Ascend910B1 of bin package does not match the current device socverison "
            "Ascend310P3. Please modify default socversion in run.sh or execute run.sh with socversion parameter.\n")
    assert _id(text) != "ARL-E4441"


# ARL-E4442 ---------------------------------------------------------------------------------------------------------

def test_mindspore_cann_version_check_is_e4442():
    for text in (
        "[WARNING] ME(16848:281469675719664,MainProcess):2023-10-12-09:19:19.764.384 [mindspore/run_check/"
        "_check_version.py:357] MindSpore version 2.1.1 and Ascend AI software package (Ascend Data Center "
        "Solution)version 6.3 does not match, the version of software package expect one of ['6.4']. Please refer to "
        "the match info on: https://www.mindspore.cn/install\n",
        "[WARNING] ME(1:2,MainProcess):2024 [mindspore/run_check/_check_version.py:397] MindSpore version 2.3.0 and "
        "\"te\" wheel package version 7.1 does not match. For details, refer to the installation guidelines: "
        "https://www.mindspore.cn/install\n",
        "[WARNING] ME(1:2,MainProcess):2024 [mindspore/run_check/_check_version.py:404] MindSpore version 2.3.0 and "
        "\"hccl\" wheel package version 7.1 does not match, refer to the match info on: https://www.mindspore.cn/install\n",
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "ARL-E4442", text
        assert not found.entry.fatal


def test_mindspore_libgomp_preload_is_not_e4442():
    text = ("[WARNING] ME(1:2,MainProcess):2024 [mindspore/run_check/_check_version.py:520] Pre-Load Library "
            "libgomp.so.1 failed, which might cause TLS memory allocation failure. If the failure occurs, please refer "
            "to the FAQ for a solution: https://www.mindspore.cn/docs/en/master/faq/installation.html.\n")
    assert _id(text) != "ARL-E4442"


# ARL-E4443 ---------------------------------------------------------------------------------------------------------

def test_hdc_node_missing_is_e4443():
    for text in (
        "[ERROR] DRV(2059,atc.bin):2025-09-02-21:07:20.698.597 [hdc_core.c:396][hdc] [hdcPcieInit 396] HDC init "
        "failed, driver may not load.\n",
        "[ERROR] HDC(811,python):2026-02-03-04:05:06.007.008 [hdc_core.c:476][hdc] [hdc_pcie_init 476] HDC init "
        "failed, driver may not load.\n",
        "[ERROR] HDC(811,npu-smi):2026 [hdc_core.c:459][hdc] [hdc_phandle_get 459] Open pcie device failed. "
        "(strerror=\"No such file or directory\")\n",
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "ARL-E4443", text
        assert not found.entry.fatal


def test_hdc_other_open_failure_is_not_e4443():
    # Another errno on the same open says the node is there: not the missing-node reading.
    text = ("[ERROR] HDC(811,python):2026 [hdc_core.c:459][hdc] [hdc_phandle_get 459] Open pcie device failed. "
            "(strerror=\"Device or resource busy\")\n")
    assert _id(text) != "ARL-E4443"


# HCCL code in torch_npu's OPS-layer wording ------------------------------------------------------------------------

def test_ops_layer_hccl_code_is_read():
    assert codes.extract("RuntimeError: InnerRunOpApi:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:281 OPS "
                         "function error: HcclAllGather, error code is 6") == ["hccl:6"]
    text = ("RuntimeError: InnerRunOpApi:torch_npu/csrc/framework/OpParamMaker.cpp:281 OPS function error: "
            "HcclAllreduce, error code is 19\n"
            "[ERROR] 2025-04-08-18:07:20 (PID:1, Device:1, RankID:1) ERR01100 OPS call acl api failed.\n")
    found = _top(text)
    assert found is not None and found.entry.id == "DRV-code"
    assert "hccl:19" in found.entry.title


def test_ops_layer_aclnn_code_is_not_hccl():
    # An aclnn call in the same wording carries an ACL / aclnn code, not an HcclResult.
    assert not any(c.startswith("hccl:") for c in codes.extract(
        "RuntimeError: call aclnnMatmul failed, detail:EZ9999 OPS function error: aclnnMatmul, error code is 561103"))


# ARL-E4444 ---------------------------------------------------------------------------------------------------------

def test_ranktable_without_device_ip_is_e4444():
    for text in (
        "[ERROR] HCCL(2817,python):2026-03-27-14:02:11.409.530 [2817][RanktablCheck] 'device ip' is not set correctly, "
        "must be set when multi Server or HCCL INTRA ROCE ENABLE enabled\n",
        "[ERROR] HCCL(55,python):2026 [RanktablCheck] 'device ip' is not set correctly, must be set when multiServer "
        "or HCCL INTRA ROCE ENABLE enabled\n",
    ):
        assert _id(text) == "ARL-E4444", text


def test_device_ip_mismatch_is_not_e4444():
    # A device_ip that is set but differs from the NIC's address is ARL-E368's failure (EI0014), not a missing one.
    text = ("EI0014: 2025-01-01-00:00:00 The value [192.168.1.8] of device_ip in the rank table does not match the "
            "device's ip. ra_rdev_init_check_ip failed\n")
    assert _id(text) != "ARL-E4444"


# ARL-E4445 ---------------------------------------------------------------------------------------------------------

def test_davinci_manager_unopened_is_e4445():
    for text in (
        "DrvMngGetConsoleLogLevel failed. (ret=4)\n",
        "root@NPU:/workspace# python collect_env.py\nDrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n",
    ):
        found = _top(text)
        assert found is not None and found.entry.id == "ARL-E4445", text
        assert not found.entry.fatal


def test_dcmi_failure_after_it_stays_first():
    # npu-smi's own DCMI failure, printed after the library's line, is the fatal reading (ARL-E333), not E4445.
    text = ("DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n"
            "dcmi model initialized failed, because the device is used. ret is -8020\n")
    assert _id(text) == "ARL-E333"


def test_dcmi_log_level_ok_is_not_e4445():
    text = "[INFO] DRV(1,npu-smi):2026 [drv_log_user.c:20] console log level is 3.\n"
    assert _id(text) != "ARL-E4445"
