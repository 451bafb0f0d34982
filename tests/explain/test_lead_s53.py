"""The twenty-second stop's lead readings, from round 51's dev half (each confirmed in the emitting source).

- DRV-library reads the linker's missing -l library (GNU ld "cannot find -lX", lld "unable to find library -lX"; the
  chain now takes that line as the failure, as it does pip's and CMake's errors) for CANN's, NNAL's and the NPU driver's
  libraries: the folder the build's link path lacks (driver-library-not-on-link-path, cann-library-not-on-link-path).
  ARL-E2614, which reads any -l library, lists both kinds as narrower.
- ARL-E4183: torch_npu's "Two accelerators … npu and npu": the NPU backend set up before torch_npu's own init (a
  device-backend extension torch auto-loaded). ARL-E305 keeps the other device types (a CUDA torch).
- DRV-package: an NCCL function (nccl*) missing from the loaded libnccl.so.2 that torch's library needs: an older NCCL
  loaded in place of the one torch was built with (kind nccl-too-old).
- ARL-E451 reads op-plugin's "<Name>Operation CreateOperation failed!" (ATB refusing to create the operation), the step
  before its setup.
- DRV-named-in-words, kind ub-overflow: a person's sentence naming a kernel's UB overflow (ARL-E231's class).
- A title is a line at the margin: an indented line (a CMake warning report's message, a traceback's source line) is not read
  as a title quoting a known message.
"""

from __future__ import annotations

import pytest
from kdata_helpers import first, first_id, top


@pytest.mark.parametrize("line, kind", [
    ("/usr/bin/ld: cannot find -lascend_hal", "driver-library-not-on-link-path"),
    ("cannot find -lascend_hal", "driver-library-not-on-link-path"),  # a paste without the linker's name
    ("/usr/bin/ld: cannot find -ldrvdsmi_host: No such file or directory", "driver-library-not-on-link-path"),
    ("ld.lld: error: unable to find library -lascendcl", "cann-library-not-on-link-path"),
    ("/usr/bin/ld: cannot find -lhccl", "cann-library-not-on-link-path"),
    ("/usr/bin/ld: cannot find -latb", "cann-library-not-on-link-path"),
])
def test_the_linker_missing_an_ascend_library_names_its_folder(catalog, line, kind):
    found = first(catalog, line + "\n")
    assert (found.entry.id, found.kind) == ("DRV-library", kind)
    folder = "/usr/local/Ascend/driver/lib64/driver" if kind.startswith("driver") else "lib"
    assert any(folder in step for step in found.entry.fix)


@pytest.mark.parametrize("line", [
    "/usr/bin/ld: cannot find -lstdc++fs",  # a toolchain library: E2614's own reading
    "ld.lld: error: unable to find library -lcuda",
])
def test_other_libraries_stay_the_link_step_entry(catalog, line):
    assert first_id(catalog, line + "\n") == "ARL-E2614"


def test_the_loader_missing_a_driver_library_is_not_the_link_step(catalog):
    line = "ImportError: libascend_hal.so: cannot open shared object file: No such file or directory"
    found = top(catalog, line + "\n")
    assert found is not None and found[1] not in ("driver-library-not-on-link-path", "cann-library-not-on-link-path")


def test_npu_already_the_accelerator(catalog):
    line = ("RuntimeError: Two accelerators cannot be used at the same time in PyTorch: npu and npu. You can install the cpu "
            "version of PyTorch to use your npu device, or use the npu device with 'export TORCH_DEVICE_BACKEND_AUTOLOAD=0'.")
    assert first_id(catalog, line + "\n") == "ARL-E4183"


@pytest.mark.parametrize("device", ["cuda", "xpu", "npux", "np"])
def test_another_accelerator_stays_the_cuda_torch_entry(catalog, device):
    line = f"RuntimeError: Two accelerators cannot be used at the same time in PyTorch: npu and {device}. You can install"
    assert first_id(catalog, line + "\n") == "ARL-E305"


@pytest.mark.parametrize("symbol", ["ncclCommRegister", "ncclCommInitRankConfig", "ncclGroupSimulateEnd"])
def test_torch_needing_a_newer_nccl(catalog, symbol):
    line = f"ImportError: /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: {symbol}"
    found = first(catalog, line + "\n")
    assert (found.entry.id, found.kind) == ("DRV-package", "nccl-too-old")
    assert "libnccl" in found.entry.cause


def test_a_torch_symbol_missing_is_not_nccl(catalog):
    line = "ImportError: /usr/lib/python3/site-packages/vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEi"
    found = top(catalog, line + "\n")
    assert found is not None and found[1] != "nccl-too-old"


@pytest.mark.parametrize("line", [
    "LinearOperation CreateOperation failed!",
    "RuntimeError: SelfAttentionOperation CreateOperation failed!",
])
def test_atb_refusing_to_create_an_operation(catalog, line):
    assert first_id(catalog, line + "\n") == "ARL-E451"


@pytest.mark.parametrize("line", [
    "[Bug]: online softmax kernel fails to compile with UB overflow on A5",
    "triton kernel 编译报错 UB溢出",
])
def test_ub_overflow_named_in_words(catalog, line):
    assert top(catalog, line + "\n") == ("DRV-named-in-words", "ub-overflow")


def test_ub_overflow_words_without_a_kernel_are_not_it(catalog):
    found = top(catalog, "[Bug]: the UB overflow counter in the dashboard is wrong\n")
    assert found is None or found[1] != "ub-overflow"


@pytest.mark.parametrize("heading", ["CMake Warning at CMakeLists.txt:12 (message):",
                                     "CMake Deprecation Warning at cmake/ascend.cmake:3 (cmake_policy):"])
def test_a_cmake_warnings_message_is_not_a_title(catalog, heading):
    # the indented message of a CMake warning opens with the first words of triton-ascend's ARL-E5724: a warning the
    # configure goes on after, not a person's title quoting that error
    text = f"{heading}\n  ASCEND_HOME_PATH is not set, using the default\n\n-- Configuring done\n-- Generating done\n"
    assert first(catalog, text) is None


def test_the_same_words_as_a_title_are_still_read(catalog):
    assert first_id(catalog, "ASCEND_HOME_PATH is not set, using the default\n") == "ARL-E5724"
