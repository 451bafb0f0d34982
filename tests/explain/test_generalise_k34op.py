"""Operator / device readings widened from the emitting sources (k34op).

- torch_npu's NPUGraph (torch_npu/csrc/core/npu/NPUGraph.cpp) runs the ACL graph API under NPU_CHECK_ERROR: replay()
  prints "AclmdlRIExecuteAsync(model_ri_, …)", capture_begin / capture_end "AclmdlRICaptureBegin(…)" /
  "AclmdlRICaptureEnd(…)". Under a catch-all code the failed call is the class (aclgraph-capture-failed); a code with a
  cause of its own keeps it. capture_begin's TORCH_INTERNAL_ASSERT that the stream is capturing is read by
  DRV-rt-capture-refused (with the runtime's refusals under capture).
- A torch_npu check's message cut after the place it fired ("replay:build/…/compiler_depend.ts:267" and nothing else),
  its call and code on the lines below, is joined into one message.
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog


def _explain(text: str, drop: tuple[str, ...] = ()):
    catalog = load_catalog()
    if drop:
        import dataclasses
        catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in drop))
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _top(text: str):
    result = _explain(text)
    assert result.diagnoses, result.to_json()
    return result.diagnoses[0].to_json()


# Two real pastes of torch_npu's NPUGraph::replay failing with the runtime's catch-all 507000: vllm-ascend PR 1653 (one
# line) and a verl-npu run report (the same message broken after the location).
REPLAY_ONE_LINE = (" RuntimeError: replay:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:201 NPU function error: "
                   "c10_npu::acl::AclmdlRIExecuteAsync(model_ri_, c10_npu::getCurrentNPUStream()), error code is 507000\n")
REPLAY_WRAPPED = ("RuntimeError: replay:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:267 \n"
                  "NPU function error: c10_npu::acl::AclmdlRIExecuteAsync(model_ri_, c10_npu::getCurrentNPUStream())\n"
                  "error code is 507000\n\n"
                  "rtModelExecute execution failed, reason=model execute error\n"
                  "execute rtModel failed, runtime result = 507000\n")


def test_a_graph_replay_under_a_catch_all_code_is_an_aclgraph_failure():
    for text in (REPLAY_ONE_LINE, REPLAY_WRAPPED):
        top = _top(text)
        assert (top["id"], top.get("kind")) == ("DRV-code", "aclgraph-capture-failed"), top
        assert "AclmdlRIExecuteAsync" in top["title"]
        assert any("enforce-eager" in step for step in top["fix"])


def test_the_wrapped_message_is_joined_with_its_call_and_code():
    result = _explain(REPLAY_WRAPPED)
    top = result.diagnoses[0].to_json()
    assert "AclmdlRIExecuteAsync" in top["evidence"][0] and "507000" in top["evidence"][0], top["evidence"]


def test_a_graph_call_under_a_code_with_its_own_cause_keeps_that_cause():
    # the same replay failing with the AI Core exception code: the fault is the operator's, not the graph's
    text = REPLAY_ONE_LINE.replace("507000", "507015")
    top = _top(text)
    assert top.get("kind") != "aclgraph-capture-failed", top


def test_a_plain_npu_function_error_is_not_a_graph_failure():
    text = ("RuntimeError: copy_d2d:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:104 NPU function error: "
            "c10_npu::acl::AclrtMemcpyAsync(dst, src), error code is 507000\n")
    top = _top(text)
    assert top.get("kind") != "aclgraph-capture-failed", top


CAPTURE_INACTIVE = (
    'ERROR 08-02 05:46:18 [core.py:586]   File "/usr/local/python3.10.17/lib/python3.10/site-packages/torch_npu/npu/graphs.py", '
    'line 210, in capture_begin\n'
    "ERROR 08-02 05:46:18 [core.py:586]     super().capture_begin(pool=pool, capture_error_mode=capture_error_mode)\n"
    "ERROR 08-02 05:46:18 [core.py:586] RuntimeError: status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE "
    'INTERNAL ASSERT FAILED at "build/CMakeFiles/torch_npu.dir/compiler_depend.ts":162, please report a bug to PyTorch.\n'
)


def test_capture_begin_finding_the_stream_not_capturing():
    top = _top(CAPTURE_INACTIVE)
    assert (top["id"], top.get("kind")) == ("DRV-rt-capture-refused", "aclgraph-capture-failed"), top


def test_another_internal_assert_is_not_read_as_capture():
    text = CAPTURE_INACTIVE.replace("status == aclmdlRICaptureStatus::ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE",
                                    "pending_event_queries > 0")
    result = _explain(text)
    assert not any(d.entry.id == "DRV-rt-capture-refused" for d in result.diagnoses)


# ARL-E1030: the AscPlugin host stub's launch report (asc-devkit ASC_PLUGIN_LAUNCH_LOGE) with the block count it asked for.
ASC_LAUNCH = ("[ERROR] [AscPlugin] AscendKernelLaunchWithFlagV2 ret 107000\n"
              "[ERROR] [AscPlugin] Kernel: [main_kernel] Stream: [0x5db14150] BlockDim: [{n}] kernel launch failure!\n")


def test_an_ascendc_launch_over_65535_blocks_is_the_grid_limit():
    for n in (65536, 70000, 131072, 1048576):
        top = _top(ASC_LAUNCH.format(n=n))
        assert top["id"] == "ARL-E1030", (n, top)


def test_an_ascendc_launch_within_the_limit_is_not():
    for n in (48, 65535, 20000):
        result = _explain(ASC_LAUNCH.format(n=n))
        assert not any(d.entry.id == "ARL-E1030" for d in result.diagnoses), n


# DRV-vllm-no-platform: a device method of vLLM's Platform base class raised (vllm/platforms/interface.py).
def _platform_paste(func: str, path: str = "/usr/lib/python3.10/site-packages/vllm/platforms/interface.py") -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.10/site-packages/vllm/config.py", line 684, in verify_async_output_proc\n'
            "    if not current_platform.is_async_output_supported(self.enforce_eager):\n"
            f'  File "{path}", line 204, in {func}\n'
            "    raise NotImplementedError\n"
            "NotImplementedError\n")


def test_a_platform_base_method_raising_is_no_platform():
    for func in ("is_async_output_supported", "get_device_total_memory", "get_device_name"):
        top = _top(_platform_paste(func))
        assert (top["id"], top.get("kind")) == ("DRV-vllm-no-platform", "vllm-device-unavailable"), top
        assert func in top["title"]


def test_a_not_implemented_error_elsewhere_is_not():
    text = _platform_paste("forward", "/usr/lib/python3.10/site-packages/vllm/model_executor/layers/linear.py")
    result = _explain(text)
    assert not any(d.entry.id == "DRV-vllm-no-platform" for d in result.diagnoses)


# ARL-E2720: Ascend Docker Runtime's prestart hook (ascend-docker-cli) refused or failed a mount; runc carries its stderr.
def test_the_ascend_hook_failure_as_a_platform_logs_it():
    text = ("2026-01-19 10:06:44.248620+08:00 - gpustack.worker.serve_manager - ERROR - Error provisioning model instance x: "
            "Failed to create workload x: Docker Server Error: failed to create task for container: failed to create shim task: "
            "OCI runtime create failed: runc create failed: unable to start container process: error during container init: "
            "error running prestart hook #0: exit status 255, stdout: , stderr: runc start prestart-hook ...verify parameters "
            "valid and parse runtime optionsdo mountingPlease check the folder owner!\n"
            "failed to mount src: /usr/local/Ascend/driver/lib64.failed to mount dir.failed to do directory mounting.: unknown\n")
    assert _top(text)["id"] == "ARL-E2720"


def test_another_runtimes_prestart_hook_is_not_the_ascend_one():
    text = ("docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime "
            "create failed: runc create failed: unable to start container process: error during container init: error running "
            "hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\n"
            "nvidia-container-cli: initialization error: nvml error: driver not loaded: unknown.\n")
    result = _explain(text)
    assert not any(d.entry.id == "ARL-E2720" for d in result.diagnoses)


# DRV-op-compile: TIK / TBE's own compile-time check raised as RuntimeError(dict) with a registered compile error code.
TIK_PASTE = (
    "    raise RuntimeError(dict_arg)\n"
    "RuntimeError: {'errCode': 'EA0000', 'message': 'src tensor overflow, src need 128 elements, but only 122\n"
    "File path: /usr/local/Ascend/ascend-toolkit/8.3.RC1/opp/built-in/op_impl/ai_core/tbe/impl/strided_slice_strides_larger_than_one.py, line 185\n"
)


def test_a_tik_compile_check_is_an_operator_compile_failure():
    result = _explain(TIK_PASTE, drop=("ARL-E339",))
    top = result.diagnoses[0].to_json()
    assert (top["id"], top.get("kind")) == ("DRV-op-compile", "op-compile-failed"), top
    assert "strided_slice_strides_larger_than_one" in top["title"]


def test_another_error_dict_is_not():
    text = TIK_PASTE.replace("'EA0000'", "'E19014'")  # a GE parameter error in the same dict form: not a compile failure
    result = _explain(text, drop=("ARL-E339",))
    assert not any(d.entry.id == "DRV-op-compile" for d in result.diagnoses)


# A traceback whose newlines were lost (a web page, a forum post, a collector that joins a record's lines) is read as the
# lines Python printed: its frames, the exception ending the last frame's source line, the chain markers.
def test_a_flattened_traceback_is_read_as_its_lines():
    from ascendrl.catalog.normalize import unfold_one_line_reports_mapped

    line = (b'Error in atexit._run_exitfuncs: Traceback (most recent call last): File "/x/torch/__init__.py", line 429, in '
            b'_npu_shutdown torch._C._npu_shutdown() RuntimeError\n')
    block, unfolded = unfold_one_line_reports_mapped(b"before\n" + line + b"after\n")
    assert block.decode().splitlines() == [
        "before", "Error in atexit._run_exitfuncs:", "Traceback (most recent call last):",
        '  File "/x/torch/__init__.py", line 429, in _npu_shutdown', "    torch._C._npu_shutdown()", "RuntimeError", "after"]
    assert [unfolded.original(i) for i in range(7)] == [0, 1, 1, 1, 1, 1, 2]  # every written-out line maps to the one input line


def test_the_flattened_exception_and_its_cause_are_the_chain():
    text = ('Reason: Traceback (most recent call last): File "/usr/lib/python3.10/site-packages/torch_npu/npu/utils.py", line 87, '
            'in current_device torch_npu.npu._lazy_init() RuntimeError: npuSetDevice failed, error code is 507033 '
            'The above exception was the direct cause of the following exception: Traceback (most recent call last): '
            'File "/app/run.py", line 3, in <module> main() ValueError: could not start\n')
    result = _explain(text)
    assert result.diagnoses and result.diagnoses[0].to_json().get("kind") == "device-setup-failed", result.to_json()


def test_a_raise_statement_in_the_source_line_is_not_the_exception():
    from ascendrl.catalog.normalize import unfold_one_line_reports_mapped

    line = (b'Traceback (most recent call last): File "/a.py", line 3, in f raise ValueError(x) ValueError: bad value\n')
    lines = unfold_one_line_reports_mapped(line)[0].decode().splitlines()
    assert lines[-2:] == ["    raise ValueError(x)", "ValueError: bad value"]


def test_a_traceback_printed_on_its_lines_is_left_as_it_is():
    from ascendrl.catalog.normalize import unfold_one_line_reports_mapped

    block = b'Traceback (most recent call last):\n  File "/a.py", line 3, in f\n    g()\nValueError: bad value\n'
    assert unfold_one_line_reports_mapped(block) == (block, None)
