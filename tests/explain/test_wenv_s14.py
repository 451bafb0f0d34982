"""Session 14, helper wenv (cann-env, hccl, memory, disk): the forms each widening reads, and what it must not read."""

from __future__ import annotations

import pytest


def _kinds(result):
    return [d.kind for d in result.diagnoses]


# Paddle's custom-device loader (paddle/fluid/platform/init.cc LoadCustomDevice) raises InvalidArgument("Fail to open
# library: %s with error: %s", path, dlerror()); pasted without its ValueError the dlerror() still names the library.
@pytest.mark.parametrize("lib,kind", [
    ("libmsprofiler.so", "cann-env-not-sourced"),
    ("libascendcl.so", "cann-env-not-sourced"),
    ("libatb.so", "nnal-atb-not-found"),
    ("libfoo_vendor.so.3", "ld-library-path-missing"),
])
def test_paddles_plugin_load_refusal_without_its_type_names_the_library(explain_text, lib, kind):
    line = (f"(InvalidArgument) Fail to open library: /usr/local/lib/python3.10/dist-packages/paddle_custom_device/"
            f"libpaddle-custom-npu.so with error: {lib}: cannot open shared object file: No such file or directory\n"
            "  [Hint: dso_handle should not be null.] (at /paddle/paddle/fluid/platform/init.cc:153)\n")
    _, top = explain_text(line)
    assert top is not None and top.kind == kind and top.fatal


@pytest.mark.parametrize("paste", [
    # the library path alone (the DynLoad form without dlerror): no library the loader missed is named
    "(InvalidArgument) Fail to open library: /usr/local/lib/libfoo.so\n",
    # a sentence about the error, not the error
    "I see Fail to open library: /x/libpaddle-custom-npu.so with error: libatb.so: cannot open shared object file in the docs\n",
])
def test_other_fail_to_open_lines_are_not_a_loader_failure(explain_text, paste):
    result, _ = explain_text(paste)
    assert "cann-env-not-sourced" not in _kinds(result) and "nnal-atb-not-found" not in _kinds(result)


# op-plugin looks an aclnn API up in libopapi.so, then in the toolkit's per-feature libraries libaclnn_<feature>.so
# (GetOpApiFuncAddrFromFeatureLib): they live in the toolkit's lib64 like libopapi.so.
@pytest.mark.parametrize("lib", ["libaclnn_ops_infer.so", "libaclnn_math.so", "libopapi_math.so", "libopapi.so"])
def test_cann_operator_api_libraries_are_the_toolkits(explain_text, lib):
    _, top = explain_text(f"ImportError: {lib}: cannot open shared object file: No such file or directory\n")
    assert top is not None and top.entry.id == "DRV-library" and top.kind == "cann-env-not-sourced"


def test_op_plugins_warning_for_an_absent_feature_library_is_not_fatal(explain_text):
    # ASCEND_LOGW("dlopen %s failed, error:%s.") while op-plugin probes the feature libraries: handled, the run goes on
    line = ("[WARNING] OP(1234,python):2025-01-01-00:00:00.000.000 [op_api_common.h:120] dlopen libaclnn_fft.so failed, "
            "error:libaclnn_fft.so: cannot open shared object file: No such file or directory.\n")
    result, top = explain_text(line)
    assert top is None or not top.fatal


# aclSetCompileopt returns ACL_ERROR_FAILURE (500001) only when the op compiler's init failed ("[Init][Env]init env
# failed!", hicann/ge op_compile_processor.cpp); torch_npu sets a compile option first thing at NPU init.
@pytest.mark.parametrize("line", [
    "RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
    "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001",
    "RuntimeError: Initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: "
    "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001",
    "RuntimeError: Failed to set compile option ACL_ALLOW_HF32, result = 500001, set value disable",
])
def test_torch_npus_compile_option_refused_at_init_is_the_op_compiler_env(explain_text, line):
    paste = line + ("\n[ERROR] 2025-01-01-00:00:00 (PID:1, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
                    "[Error]: The internal ACL of the system is incorrect.\n"
                    "        Rectify the fault based on the error information in the ascend log.\n")
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E336" and top.fatal


@pytest.mark.parametrize("line", [
    # another code from the same call is another condition (an option the CANN does not know, an invalid value)
    "RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
    "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500000",
    # another call with 500001
    "RuntimeError: call aclnnAdd failed, detail:EZ9999: Inner Error! error code is 500001",
])
def test_other_codes_or_calls_are_not_the_op_compiler_env(explain_text, line):
    result, _ = explain_text(line + "\n")
    assert "ARL-E336" not in [d.entry.id for d in result.diagnoses]


def test_the_ge_lines_under_it_still_name_the_compiler_init(explain_text):
    # with the CANN report pasted under it, the report's own lines are the deeper link (ARL-E454 reads them)
    paste = ("RuntimeError: SetPrecisionMode:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:155 NPU function error: "
             "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001\n"
             "[ERROR] 2025-01-01-00:00:00 (PID:1, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
             "EH9999: Inner Error!\n"
             "        TraceBack (most recent call last):\n"
             "       [Initialize][Ge]GEInitialize failed. ge result = 4294967295[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n"
             "       [Init][Compiler]Init compiler failed[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n"
             "       [Set][Options]OpCompileProcessor init failed![FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n")
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E454"


# HCCL's registry messages (hicann/runtime error_code.json) quoted without the code in front: a title, or a paste of the
# message alone. The fixed head up to "Reason: " is only ever that error's.
@pytest.mark.parametrize("line,entry", [
    ("Getting socket times out. Reason: 1. The remote does not initiate a connect request. some NPUs in the cluster are abnormal.",
     "ARL-E320"),
    ('报错 "Getting socket times out. Reason: 1. The remote does not initiate a connect request."', "ARL-E320"),
    ("The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record "
     "from remote rank: [1].", "ARL-E323"),
])
def test_hccl_registry_messages_without_their_code(explain_text, line, entry):
    _, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == entry


def test_a_sentence_naming_the_socket_timeout_is_not_one(explain_text):
    result, _ = explain_text("We raised HCCL_CONNECT_TIMEOUT after reading about Getting socket times out errors.\n")
    assert "ARL-E320" not in [d.entry.id for d in result.diagnoses]


# torch_npu's HcclInterface (v6.0.0 .. v26.0.0) and GetCANNInfo checks for an API the installed CANN lacks.
@pytest.mark.parametrize("line", [
    "RuntimeError: Failed to find function HcclCommResume, maybe you cann version is too low, please upgrade it",
    "maybe you cann version is too low, please upgrade it",
    'RuntimeError: When the cann version is less than "8.1.RC1", this function is not supported.',
])
def test_torch_npus_cann_too_old_checks(explain_text, line):
    _, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == "ARL-E348"


def test_the_harmless_warning_of_a_missing_acl_function_stays_harmless(explain_text):
    # torch_npu falls back when an optional ACL function is absent: a warning, no CANN-too-old failure
    result, top = explain_text("[W AclInterface.cpp:357] Warning: 0Failed to find function aclrtMallocAlign32 (function operator())\n")
    assert "ARL-E348" not in [d.entry.id for d in result.diagnoses if d.fatal]


# A C++ symbol of CANN's graph-engine API (namespace ge / gert) missing: a plugin built against another CANN's GE.
@pytest.mark.parametrize("symbol,entry", [
    ("_ZN2ge8Operator7SetAttrEPKcb", "ARL-E349"),
    ("_ZNK2ge8Operator7GetNameEv", "ARL-E349"),
    ("_ZN4gert13KernelContext9GetOutputEm", "ARL-E349"),
])
def test_ge_cpp_symbols_are_a_cann_mismatch(explain_text, symbol, entry):
    _, top = explain_text(f"OSError: /opt/plugin/libnpu_plugin.so: undefined symbol: {symbol}\n")
    assert top is not None and top.entry.id == entry


def test_other_cpp_symbols_are_not_cann_ones(explain_text):
    # a torch symbol (namespace torch, 5torch) and a namespace whose name merely starts with "ge" (3geo) are not GE's
    for symbol in ("_ZN5torch3jit4loadERKSs", "_ZN3geo5Point4moveEv"):
        result, _ = explain_text(f"OSError: /x/libfoo.so: undefined symbol: {symbol}\n")
        assert "ARL-E349" not in [d.entry.id for d in result.diagnoses]


# The launch script sourcing a set_env.sh that is not there: the shell's file_error (bash builtins/evalfile.c), then the
# shell goes on. A finding, not the end of the run by itself; what the missing environment breaks later is.
@pytest.mark.parametrize("line,entry", [
    ("bash: /usr/local/Ascend/ascend-toolkit/set_env.sh: No such file or directory", "ARL-E300"),
    ("./run_grpo.sh: line 3: /usr/local/Ascend/cann/set_env.sh: No such file or directory", "ARL-E300"),
    ("source: no such file or directory: /usr/local/Ascend/ascend-toolkit/latest/set_env.sh", "ARL-E300"),
    ("./run_grpo.sh: line 4: /usr/local/Ascend/nnal/atb/set_env.sh: No such file or directory", "ARL-E211"),
])
def test_a_missing_set_env_is_named_but_not_fatal_alone(explain_text, line, entry):
    result, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == entry and not top.fatal


def test_a_missing_set_env_before_a_healthy_run_leaves_it_healthy(explain_text):
    paste = ("bash: /usr/local/Ascend/nnal/atb/set_env.sh: No such file or directory\n"
             "(TaskRunner pid=1234) step:1 - actor/pg_loss:0.012 - critic/score/mean:0.41\n"
             "(TaskRunner pid=1234) step:2 - actor/pg_loss:0.010 - critic/score/mean:0.44\n")
    result, _ = explain_text(paste)
    assert not any(d.fatal for d in result.diagnoses)


def test_sourcing_a_set_env_that_exists_or_another_missing_file_is_no_cann_finding(explain_text):
    result, _ = explain_text("source /usr/local/Ascend/ascend-toolkit/set_env.sh\n"
                             "bash: /opt/my_env/set_env.sh: No such file or directory\n")
    assert not {"ARL-E300", "ARL-E211"} & {d.entry.id for d in result.diagnoses}


# A short paste that says in English words that a shared library is missing, or ldd's "=> not found" line: the loader's
# failure, read as the Chinese "找不到 libX.so" already is.
@pytest.mark.parametrize("paste,kind", [
    ("[Bug]: libhccl.so not found when starting vllm serve\n", "cann-env-not-sourced"),
    ("\tlinux-vdso.so.1 (0x0000ffff9b7f0000)\n\tlibhccl.so => not found\n\tlibc.so.6 => /lib/aarch64-linux-gnu/libc.so.6 (0x0000ffff9b400000)\n",
     "cann-env-not-sourced"),
    ("import torch_npu fails: could not find libatb.so after installing the toolkit\n", "nnal-atb-not-found"),
])
def test_a_library_said_missing_in_english_is_the_loaders_failure(explain_text, paste, kind):
    _, top = explain_text(paste)
    assert top is not None and top.kind == kind


@pytest.mark.parametrize("paste", [
    "Fixed: libhccl.so not found when starting vllm serve\n",  # a fix, not a report
    "[W 2025-01-01] libhccl.so not found, falling back to gloo\n",  # a record at a quiet level
    "libc.so.6 => /lib/aarch64-linux-gnu/libc.so.6 (0x0000ffff9b400000)\n",  # ldd resolving a library
])
def test_other_mentions_of_a_library_are_not_a_loader_failure(explain_text, paste):
    result, _ = explain_text(paste)
    assert not any(d.entry.id == "DRV-library" for d in result.diagnoses)


# The driver's DRV_ERROR_OUT_OF_MEMORY (6, hicann/driver ascend_hal_error.h) behind a failed device allocation: NPU
# memory ran out, whatever the runtime line around it, even with no catalog entry for the runtime's wording.
def test_the_drivers_out_of_memory_code_is_npu_oom_without_an_entry(catalog, tmp_path):
    import dataclasses

    from ascendrl.catalog import explain_paths

    log = tmp_path / "x.log"
    log.write_text("[ERROR] RUNTIME(4185,python3):2021-11-11-11:19:04.908.481 [npu_driver.cc:691]50983 DevMemAllocHugePageManaged:"
                   "[driver interface] halMemAlloc failed: device_id=7, size=15069901824, type=2, env_type=3, drvRetCode=6!\n")
    bare = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E400"))
    top = explain_paths(bare, [log]).diagnoses[0]
    assert top.entry.id == "DRV-code" and top.kind == "npu-oom"
    log.write_text("[ERROR] RUNTIME(4185,python3):2021-11-11-11:19:04.908.481 [npu_driver.cc:691]50983 halMemAlloc failed: "
                   "device_id=7, size=1024, type=2, env_type=3, drvRetCode=87!\n")
    assert explain_paths(bare, [log]).diagnoses[0].kind != "npu-oom"  # another driver code is another class


def test_a_notify_wait_timeout_is_a_collective_timeout_without_an_entry(catalog, tmp_path):
    # the runtime's STARS report of a NOTIFY_WAIT task past its timeout (hicann/runtime device_error_proc.cc): HCCL's notify
    import dataclasses

    from ascendrl.catalog import explain_paths

    report = ("EE9999: Inner Error!\n"
              "EE9999: [PID: 1] 2025-01-01-00:00:00.000.000 The error from device(chipId:3, dieId:0), serial number is 1, "
              "{kind} wait timeout occurred during task execution, stream_id:122, sq_id:122, task_id:790, {kind}_id=73, timeout=1836s."
              "[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1180]\n"
              "        TraceBack (most recent call last):\n"
              "        synchronize stream failed, runtime result = 507011[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n")
    bare = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E428"))
    log = tmp_path / "x.log"
    log.write_text(report.format(kind="notify"))
    assert explain_paths(bare, [log]).diagnoses[0].kind == "collective-timeout"
    log.write_text(report.format(kind="event"))  # an event wait is a stream waiting on another stream: not read as one
    assert explain_paths(bare, [log]).diagnoses[0].kind != "collective-timeout"


def test_the_stores_own_wait_timeout_is_ranks_that_never_met(explain_text):
    # TCPStore::wait's DistStoreError (torch/csrc/distributed/c10d/TCPStore.cpp): a peer never wrote the key
    _, top = explain_text("torch.distributed.DistStoreError: wait timeout after 300000ms, keys: /default_pg/0//hccl//0\n")
    assert top is not None and top.kind == "rendezvous-socket-timeout" and "/default_pg/0//hccl//0" in top.entry.cause
    # a generic wait timeout with no store keys is not the store's
    result, _ = explain_text("RuntimeError: wait timeout after 300000ms while loading the model\n")
    assert "rendezvous-socket-timeout" not in [d.kind for d in result.diagnoses]


def test_an_exception_saying_it_cannot_find_a_library_names_it(explain_text):
    _, top = explain_text("ImportError: cannot find libascendcl.so when importing torch_npu\n")
    assert top is not None and top.entry.id == "DRV-library" and top.kind == "cann-env-not-sourced"
    result, _ = explain_text("ImportError: cannot find module foo.so.bar in the archive\n")  # no library named
    assert not any(d.entry.id == "DRV-library" for d in result.diagnoses)


# EIO: the storage failed the call itself. Raised by a lock file's flock it stays DRV-filelock's (read first).
def test_an_input_output_error_is_the_storage_failing(explain_text):
    _, top = explain_text("OSError: [Errno 5] Input/output error: '/mnt/nfs/ckpt/global_step_100'\n")
    assert top is not None and top.entry.id == "DRV-oserror" and top.kind == "eio" and "verl's checkpoint" in top.entry.cause
    flock = ('Traceback (most recent call last):\n  File "/opt/conda/lib/python3.10/site-packages/filelock/_unix.py", line 43, in _acquire\n'
             "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nOSError: [Errno 5] Input/output error\n")
    _, top = explain_text(flock)
    assert top is not None and top.kind == "filelock-unsupported-fs"


# A library's log record that ends by quoting the OS error it met: the OS error, at an error level only.
@pytest.mark.parametrize("paste,kind", [
    ("ERROR: megatron.core.dist_checkpointing.strategies.filesystem_async: Local process 0 encountered an error: "
     "[Errno 5] Input/output error\n", "eio"),
    ("ERROR 01-01 00:00:00 [saver.py:12] Saving shard 3 failed with error: [Errno 13] Permission denied: '/ckpt/global_step_9'\n",
     "eacces"),
])
def test_an_os_error_quoted_at_the_end_of_a_logged_error(explain_text, paste, kind):
    _, top = explain_text(paste)
    assert top is not None and top.kind == kind and top.fatal


@pytest.mark.parametrize("paste", [
    "WARNING: megatron.core.dist_checkpointing.strategies.filesystem_async: Local process 0 encountered an error: "
    "[Errno 5] Input/output error\n",  # logged as handled
    "INFO: retrying the upload after an error: [Errno 104] Connection reset by peer\n",
])
def test_an_os_error_quoted_in_a_quiet_record_is_not_fatal(explain_text, paste):
    result, _ = explain_text(paste)
    assert not any(d.fatal for d in result.diagnoses)
