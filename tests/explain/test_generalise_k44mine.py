"""Readings added by helper k44mine (2026-12-05) while probing public threads of the Ascend stack for failure classes
no development log has, each written for the class the emitting source prints rather than one paste's words:

- ARL-E1350 (aclInit failed) reads torch_npu's older wordings of the same failure: 'NPU function error:
  aclInit(json_path_ptr), error code is N' (v6.0.rc2-pytorch1.11.0, where NPU_CHECK_ERROR prints the whole expression)
  and, for code 100002 only, 'Initialize:<file>npu_sys_ctrl.cpp:<line> NPU error, error code is 100002' (v3.0 to v6.0.rc1,
  where the message names only function, file and line; in NpuSysCtrl::Initialize only aclInit / aclmdlInitDump return
  ACL_ERROR_REPEAT_INITIALIZE). Before v6.0.rc1 torch_npu treats an ACL another component initialised as fatal.
- ARL-E3880 reads a link step that cannot resolve the CANN API: GNU ld's "undefined reference to `aclX'" wordings
  (binutils ld/ldmain.c undefined_symbol, with "more undefined references to `X' follow") for acl* / aclrt* / aclmdl* /
  aclnn* / Hccl* symbols, driver symbols (drv* / hal* / ProfMgr*) left unresolved inside libascendcl.so / libruntime.so,
  and LLVM lld's "error: undefined symbol: aclX" (lld/ELF/Relocations.cpp). POSIX ACL's snake_case acl_* symbols and a
  loader's run-time "undefined symbol" are other failures.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)


REPEAT = ("[Error]: Repeated initialization or repeated loading.\n"
          "        Check whether the corresponding interface is repeatedly invoked for initialization or loading.\n")


def test_old_torch_npu_repeat_aclinit_is_e1350():
    top = _top("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:135 NPU error, "
               "error code is 100002\n" + REPEAT)
    assert top is not None and top.entry.id == "ARL-E1350"


def test_old_torch_npu_other_code_on_initialize_line_is_not_read_as_aclinit():
    # Another code from Initialize could be aclrtSetDevice or the dump calls: the line alone does not say aclInit.
    top = _top("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:149 NPU error, "
               "error code is 507033\n[Error]: Failed to start the device.\n")
    assert top is None or top.entry.id != "ARL-E1350"


def test_expression_wording_of_aclinit_is_e1350():
    for expr in ("aclInit(json_path_ptr)", "aclInit(nullptr)"):
        top = _top("RuntimeError: Initialize:torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp:180 NPU function "
                   f"error: {expr}, error code is 507008\n[ERROR] 2024-05-10-10:00:00 (PID:1, Device:0, RankID:-1) "
                   "ERR00100 PTA call acl api failed\n")
        assert top is not None and top.entry.id == "ARL-E1350", expr


# ARL-E3880: GNU ld's undefined-reference wordings (ld/ldmain.c undefined_symbol) for CANN API symbols.

def test_object_file_undefined_acl_runtime_call_is_e3880():
    top = _top("/usr/bin/ld: CMakeFiles/demo.dir/demo.cc.o: in function `Init(int, void**)':\n"
               "/home/user/demo/demo.cc:33: undefined reference to `aclInit'\n"
               "/home/user/demo/demo.cc:37: undefined reference to `aclrtSetDevice'\n"
               "collect2: error: ld returned 1 exit status\n")
    assert top is not None and top.entry.id == "ARL-E3880"


def test_more_references_and_hccl_symbols_are_e3880():
    assert _top("build/ops.o:(.text+0x1a4): more undefined references to `aclnnMatmulGetWorkspaceSize' follow\n"
                "collect2: error: ld returned 1 exit status\n").entry.id == "ARL-E3880"
    assert _top("/usr/bin/ld: libcomm.so: undefined reference to `HcclCommInitRootInfo'\n"
                "collect2: error: ld returned 1 exit status\n").entry.id == "ARL-E3880"


def test_driver_symbols_from_cann_runtime_library_are_e3880():
    top = _top("/usr/bin/ld: warning: libascend_hal.so, needed by /usr/local/Ascend/ascend-toolkit/latest/lib64/"
               "libruntime.so, not found (try using -rpath or -rpath-link)\n"
               "/usr/local/Ascend/ascend-toolkit/latest/lib64/libruntime.so: undefined reference to `halMemAlloc'\n"
               "collect2: error: ld returned 1 exit status\n")
    assert top is not None and top.entry.id == "ARL-E3880"


def test_posix_acl_and_runtime_undefined_symbol_are_not_e3880():
    # libacl's POSIX ACL functions are snake_case: not the CANN API.
    top = _top("/usr/bin/ld: src/copy.o: in function `copy_acl':\ncopy.c:(.text+0x2b): undefined reference to "
               "`acl_get_file'\ncollect2: error: ld returned 1 exit status\n")
    assert top is None or top.entry.id != "ARL-E3880"
    # dlopen's run-time refusal of a library is a different failure (a binary built against another release).
    top = _top("ImportError: /usr/local/lib/python3.10/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: "
               "aclrtSetStreamFailureMode\n")
    assert top is None or top.entry.id != "ARL-E3880"


def test_lld_undefined_symbol_wording_is_e3880():
    top = _top("ld.lld: error: undefined symbol: aclrtMallocHost\n>>> referenced by kernel_launch.cpp:41\n"
               ">>>               CMakeFiles/ops.dir/kernel_launch.cpp.o:(launch_add)\n"
               "bisheng: error: linker command failed with exit code 1 (use -v to see invocation)\n")
    assert top is not None and top.entry.id == "ARL-E3880"
