"""Session 15, helper kcompat: compat / cann-env classes read in the other wordings and forms their emitters print."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("paste", [
    # NumPy 1.x headers' import_array() after "_ARRAY_API not found" (NumPy 2 running a NumPy-1 build), in a traceback
    "Traceback (most recent call last):\n  File \"/home/user/x.py\", line 1, in <module>\n    import cv2\n"
    "ImportError: numpy.core.multiarray failed to import\n",
    # NumPy 2.x headers (a package built for NumPy 2 on numpy 1.x), and the ufunc API's wording (import_umath)
    "ImportError: numpy._core.multiarray failed to import\n",
    "ImportError: numpy.core.umath failed to import\n",
    "ImportError: numpy._core.umath failed to import\n",
])
def test_the_importerror_a_failed_numpy_c_api_check_leaves_is_named(explain_text, paste):
    result, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E700" and result.fatal, top


def test_torchs_numpy_bridge_warning_stays_not_fatal(explain_text):
    # torch < 2.3 catches the failed check and warns; the run goes on (ARL-E385 names it, not fatal)
    result, top = explain_text("/usr/local/lib/python3.10/site-packages/torch/nn/modules/transformer.py:20: UserWarning: "
                               "Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at "
                               "../torch/csrc/utils/tensor_numpy.cpp:84.)\n")
    assert not result.fatal and (top is None or top.entry.id != "ARL-E700")


@pytest.mark.parametrize("paste,lib", [
    # MindSpore's device-plugin loader quotes dlerror() after its lead-in (PluginLoader::LoadDynamicLib)
    ("RuntimeError: Unsupported device target Ascend. This process only supports one of the ['CPU']. Please check whether the "
     "Ascend environment is installed and configured correctly.\n\n"
     "----------------------------------------------------\n- Device load error message:\n"
     "----------------------------------------------------\n"
     "Load dynamic library: libmindspore_ascend.so.2 failed. liboptiling.so: cannot open shared object file: No such file or directory\n",
     "liboptiling.so"),
    ("Load dynamic library: libmindspore_ascend.so.2 failed. libaicpu_ascend_engine.so: cannot open shared object file: No such file or directory\n",
     "libaicpu_ascend_engine.so"),
    # Paddle-Lite's NNAdapter, under its glog-style prefix
    ("[F 10/28 12:31:52. 73 ...nadapter/nnadapter/src/runtime/device.cc:529 Find] Failed to load the nnadapter device HAL library "
     "for 'huawei_ascend_npu' from libhuawei_ascend_npu.so, libge_runner.so: cannot open shared object file: No such file or directory\n",
     "libge_runner.so"),
])
def test_a_cann_library_quoted_by_a_framework_loader_is_the_unsourced_environment(explain_text, paste, lib):
    result, top = explain_text(paste)
    assert top is not None and top.entry.id == "DRV-library" and top.kind == "cann-env-not-sourced" and lib in top.entry.title, top
    assert result.fatal


def test_a_framework_loader_line_for_a_loaded_library_is_not_a_failure(explain_text):
    # MindSpore logs the success of the same load at INFO: no library is missing
    result, top = explain_text("Load dynamic library: libmindspore_ascend.so.2 successfully.\n")
    assert not result.fatal and top is None
