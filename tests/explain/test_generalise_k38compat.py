"""k38compat: readings of whole log forms and exception types in the compat / cann-env families.

An exception class named in a Chinese question with a Latin word run into the prose before it ("在megatron中出现
AttributeError: …", ms-swift#7085): Python's ``\\w`` takes CJK letters, so the reader made one class of
"megatron中出现AttributeError" and no analyzer or entry could read it. Class names are ASCII; the exception is found
after the prose, as it is when the prose ends in CJK.
"""

from __future__ import annotations

from ascendrl.catalog import chain as chains

# ms-swift#7085 (a real paste): the sentence with the error inline.
MS_SWIFT_7085 = ("上述启动命令tp1pp1，在megatron中出现AttributeError: 'Parameter' object has no attribute 'main_grad'的报错，"
                 "tp2pp1亦是如此。在tp1pp2的情况下，进入train后直接卡住。\n")
# The entry written from that thread (and its fix PR), left out as leave-thread-out leaves it out.
OWN = frozenset({"ARL-E085"})


def test_a_class_name_is_ascii():
    assert chains.EXCEPTION.match("megatron中出现AttributeError: 'Parameter' object has no attribute 'main_grad'") is None
    m = chains.EXCEPTION.match("AttributeError: 'Parameter' object has no attribute 'main_grad'")
    assert m is not None and m.group(1) == "AttributeError"
    m = chains.EXCEPTION.match("torch._dynamo.exc.Unsupported: Attempted to call function marked as skipped")
    assert m is not None and m.group(1) == "torch._dynamo.exc.Unsupported"


def test_the_exception_after_latin_and_cjk_prose_is_read(explain_text):
    result, top = explain_text(MS_SWIFT_7085)
    assert top is not None and top.entry.id == "ARL-E085"


def test_without_its_entry_the_class_is_attributeerror(catalog, tmp_path):
    import dataclasses

    from ascendrl.catalog import explain_paths

    kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in OWN))
    log = tmp_path / "x.log"
    log.write_text(MS_SWIFT_7085, encoding="utf-8")
    result = explain_paths(kept, [log])
    assert result.unknown is not None and result.unknown.type == "AttributeError"
    assert result.unknown.message.startswith("'Parameter' object has no attribute 'main_grad'")


# ARL-E2880: the permission walk of Ascend's install / environment scripts, in each emitter's own format (the echo /
# log() lines of ascend-deployer install.sh, MindCluster ToolBox set_env.sh, Index SDK install.sh).
import pytest  # noqa: E402


@pytest.mark.parametrize("text", [
    # ascend-deployer install.sh is_safe_owned_dir: echo "${path} does not comply with security rules."
    "/opt/ascend-deployer does not comply with security rules.\n",
    # Index SDK install.sh error_exit -> log "ERROR" "run failed on $1"
    "[mxIndex] [20250312-10:21:05] [user: root] [localhost] [ERROR] run failed on file /home/work does not meet with "
    "security rules group write, group has write permission. exiting\n",
    "[mxIndex] [20250312-10:21:05] [user: root] [localhost] [ERROR] run failed on file /data does not meet with "
    "security rules other write, other users have write permission. exiting\n",
    # the ownership check of the same walk
    "[mxIndex] [20250312-10:21:05] [user: root] [localhost] [ERROR] run failed on The /data/pkgs is not owned by root "
    "or current user, exiting\n",
])
def test_an_ascend_script_refusing_a_writable_path(explain_text, text):
    result, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E2880"


@pytest.mark.parametrize("text", [
    "INFO: checking the bucket's security rules group write permissions\n",
    "The password provided does not comply with the security policy.\n",
])
def test_other_security_wording_is_not_the_script_check(explain_text, text):
    result, top = explain_text(text)
    assert top is None or top.entry.id != "ARL-E2880"


# CMake's error report (Source/cmMessenger.cxx): "CMake Error at <file>:<line> (<command>):", the message indented below.
# dlinfer#104 (a real paste, trimmed to the report): the package's find module refused torch_npu's headers.
DLINFER_104 = """-- Found Torch_npu: TORCH_NPU_LIBRARY: /home/user/miniconda3/envs/test/lib/python3.8/site-packages/torch_npu/lib/libtorch_npu.so, TORCH_NPU_INCLUDE_DIRS: TORCH_NPU_INCLUDE_DIRS-NOTFOUND
CMake Error at /home/user/miniconda3/envs/test/lib/python3.8/site-packages/cmake/data/share/cmake-3.31/Modules/FindPackageHandleStandardArgs.cmake:233 (message):
  Could NOT find Torch_npu (missing: TORCH_NPU_INCLUDE_DIRS)
Call Stack (most recent call first):
  /home/user/miniconda3/envs/test/lib/python3.8/site-packages/cmake/data/share/cmake-3.31/Modules/FindPackageHandleStandardArgs.cmake:603 (_FPHSA_FAILURE_MESSAGE)
  cmake/FindTorch_npu.cmake:20 (find_package_handle_standard_args)
  dlinfer/vendor/ascend/CMakeLists.txt:23 (find_package)

-- Configuring incomplete, errors occurred!
"""


@pytest.mark.parametrize("line, message", [
    ("CMake Error at CMakeLists.txt:23 (find_package):", ""),
    ("CMake Error in CMakeLists.txt (target_link_libraries):", ""),
    ('CMake Error: The source directory "/home/user/pkg" does not exist.', 'The source directory "/home/user/pkg" does not exist.'),
])
def test_cmake_error_heading_is_read(line, message):
    m = chains.CMAKE_ERROR.match(line)
    assert m is not None and m.group(1) == message


@pytest.mark.parametrize("line", [
    "CMake Warning at CMakeLists.txt:12 (message):",
    "CMake Deprecation Warning at CMakeLists.txt:1 (cmake_minimum_required):",
])
def test_cmake_warnings_are_not_errors(line):
    assert chains.CMAKE_ERROR.match(line) is None


def test_a_cmake_configure_error_no_entry_names_is_a_failed_extension_build(catalog, tmp_path):
    import dataclasses

    from ascendrl.catalog import explain_paths

    # ARL-E2572 names this find-module refusal (written from that thread): without it the report itself is read
    kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E2572"))
    log = tmp_path / "x.log"
    log.write_text(DLINFER_104, encoding="utf-8")
    result = explain_paths(kept, [log])
    top = result.diagnoses[0]
    assert top.entry.id == "DRV-cmake-configure" and top.kind == "custom-ops-build-failed"
    assert "Could NOT find Torch_npu (missing: TORCH_NPU_INCLUDE_DIRS)" in top.entry.cause


def test_a_cmake_warning_alone_is_not_a_failure(explain_text):
    result, top = explain_text("CMake Warning at CMakeLists.txt:12 (message):\n  ASCEND_HOME_PATH is not set, using the default\n\n"
                               "-- Configuring done\n-- Generating done\n")
    assert top is None and not result.fatal
