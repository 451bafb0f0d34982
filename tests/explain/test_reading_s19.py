"""Session 19 (kfat): forms of a pasted log that no reader took apart, read generally.

- A report copied as a string (a JSON value, a Python repr): its newlines are escaped, the whole report is one line.
- A built-in exception class spelled as words at the head of a paste's line ("Import error x.so undefined symbol: …").
- A paste line typed in lower case ("npu out of memory"): read as the catalog spells its words, when that is a known message.
"""

from __future__ import annotations

from pathlib import Path

from ascendrl.catalog import explain_paths, load_catalog
from ascendrl.catalog.normalize import unfold_one_line_reports

HERE = Path(__file__).parent
CATALOG = load_catalog(user_dir=HERE / "no-user-catalog")


def _explain(tmp_path, text: str):
    log = tmp_path / "paste.log"
    log.write_text(text, encoding="utf-8")
    return explain_paths(CATALOG, [log])


# torch_npu's report of a copy on a thread without an NPU context, returned by a serving API as a JSON error body
# (hiascend forum thread-02111170493922838094, a dev log: the words below are the runtime's and torch_npu's own).
JSON_BODY = (
    "用torch_npu进行模型推理报错:\n"
    '{"detail":"[address=172.16.1.149:45389, pid=157774] getDevice:torch_npu/csrc/aten/common/CopyKernel.cpp:41 NPU error, '
    "error code is 107002\\n[Error]: The context is empty.\\n Check whether acl.rt.set_context or acl.rt.set_device is called."
    "\\nEE1001: [PID: 157774] 2024-12-25-14:26:03.031.522 The argument is invalid.Reason: rtGetDevMsg execute failed, "
    'reason=[context pointer null]\\n"}\n'
)


def test_a_report_inside_a_json_string_is_read_line_by_line(tmp_path):
    result = _explain(tmp_path, JSON_BODY)
    top = result.diagnoses[0] if result.diagnoses else None
    assert top is not None and top.fatal and top.kind == "npu-device-not-set", (result.diagnoses, result.unknown)


def test_a_traceback_in_a_python_repr_is_read(tmp_path):
    text = ("'Traceback (most recent call last):\\n  File \"/srv/app/run.py\", line 12, in <module>\\n"
            "    x = torch.ones(1 << 34).npu()\\nRuntimeError: NPU out of memory. Tried to allocate 64.00 GiB "
            "(NPU 0; 60.97 GiB total capacity; 1.20 GiB already allocated)\\n'\n")
    result = _explain(tmp_path, text)
    assert result.diagnoses and result.diagnoses[0].entry.id == "ARL-E204", (result.diagnoses, result.unknown)


def test_the_unfolded_lines_lose_the_strings_quotes_and_escapes():
    out = unfold_one_line_reports(b'{"detail":"first line\\nKeyError: \\"model.layers.0\\"\\n"}\n')
    assert out == b'first line\nKeyError: "model.layers.0"\n'


def test_lines_with_one_escaped_newline_a_windows_path_or_a_quoted_repr_stay_as_they_are():
    docker = b'{"log":"RuntimeError: boom\\n","stream":"stderr","time":"2025-01-01T00:00:00Z"}\n'
    windows = b"saved to C:\\new\\nodes\\net\\nn.log\n"
    plain = b"no escapes here\nat all\n"
    # torch's load_state_dict message quoting the copy's exception as a tuple repr (ms-swift#975): that message's detail
    quoted = (b"While copying the parameter named \"w\", an exception occurred : ('get_p2p_access:NPUPeerToPeerAccess.cpp:80 "
              b"NPU error, error code is 107000\\n[Error]: Parameter verification failed.\\n',).\n")
    for block in (docker, windows, plain, quoted):
        assert unfold_one_line_reports(block) is block or unfold_one_line_reports(block) == block


def test_a_harmless_json_string_with_escaped_newlines_is_no_failure(tmp_path):
    text = ('INFO 03-04 12:57:08 [serving_chat.py:120] response: {"text":"Hello\\nThe answer is 4.\\nDone."}\n'
            'INFO 03-04 12:57:09 [loggers.py:257] Engine 000: Avg prompt throughput: 12.0 tokens/s\n')
    result = _explain(tmp_path, text)
    assert not result.fatal, (result.diagnoses, result.unknown)


# sglang#9173's title, the error line its paste ends before: an import that failed on a torch symbol, the class in words.
def test_an_import_error_spelled_as_words_is_the_import_error(tmp_path):
    text = ("Traceback (most recent call last):\n"
            '  File "/sgl-workspace/sglang/python/sglang/launch_server.py", line 6, in <module>\n'
            "    from sglang.srt.entrypoints.http_server import launch_server\n"
            "Import error sgl_kernel undefined symbol: _ZN3c104cuda9SetDeviceEab\n")
    result = _explain(tmp_path, text)
    top = result.diagnoses[0] if result.diagnoses else None
    assert top is not None and top.fatal and top.kind == "extension-torch-abi-mismatch", (result.diagnoses, result.unknown)


def test_a_class_spelled_as_words_after_chinese_prose_is_that_class(tmp_path):
    result = _explain(tmp_path, "启动报错：value error, tp_size (3) must divide num_attention_heads (32)\n")
    assert result.unknown is not None and result.unknown.type == "ValueError", (result.diagnoses, result.unknown)


def test_words_about_an_error_class_are_not_an_exception(tmp_path):
    for text in ("Type errors are reported in the docs for this release\n",
                 "warning: value error in the optional metrics plugin, skipped\n",
                 "import error handling added to the loader\n"):
        result = _explain(tmp_path, text)
        assert not result.fatal and result.unknown is None, (text, result.diagnoses, result.unknown)


# vllm-ascend#8817: the reporter typed torch_npu's allocator message in lower case under the serve command.
def test_a_lower_case_known_message_is_read_as_printed(tmp_path):
    text = ("vllm serve /home/user/models/GLM-5.1-w8a8 --host 0.0.0.0 --port 8077 --trust-remote-code\n"
            "进行最基础的功能验证\n"
            "npu out of memory\n")
    result = _explain(tmp_path, text)
    assert result.diagnoses and result.diagnoses[0].entry.id == "ARL-E204" and result.diagnoses[0].fatal, result.diagnoses


def test_lower_case_lines_that_are_no_known_message_stay_unread(tmp_path):
    for text in ("pip install torch-npu==2.5.1 --extra-index-url https://mirrors.example.org/ascend\nthe install worked fine\n",
                 "warning: npu out of memory earlier, retried with a smaller batch\n"):
        result = _explain(tmp_path, text)
        assert not result.fatal, (text, result.diagnoses, result.unknown)


# ARL-E1370 (pip found no distribution on its index): a successful install whose resolver backtracked says no such thing.
def test_a_pip_install_that_backtracked_and_succeeded_is_no_failure(tmp_path):
    text = ("Looking in indexes: https://pypi.org/simple, https://download.pytorch.org/whl/cpu\n"
            "INFO: pip is looking at multiple versions of torch-npu to determine which version is compatible with other requirements. "
            "This could take a while.\n"
            "Collecting torch-npu==2.5.1\n"
            "Successfully installed torch-2.5.1+cpu torch-npu-2.5.1\n")
    result = _explain(tmp_path, text)
    assert not result.fatal, (result.diagnoses, result.unknown)


def test_a_vendor_package_missing_from_the_index_keeps_its_specific_entry(tmp_path):
    text = "ERROR: Could not find a version that satisfies the requirement triton-ascend==3.2.0rc4 (from versions: none)\n"
    result = _explain(tmp_path, text)
    assert [d.entry.id for d in result.diagnoses][:1] == ["ARL-E246"], result.diagnoses



def test_a_program_noting_an_import_error_it_handled_is_no_failure(tmp_path):
    text = ("INFO: starting the rollout workers\n"
            "Import error: optional module fused_rmsnorm not found, the reference kernel is used\n"
            "INFO: step 1 finished\n")
    result = _explain(tmp_path, text)
    assert not result.fatal, (result.diagnoses, result.unknown)


# vLLM 0.10's multiproc executor names its workers "(VllmWorker TP0 pid=N)" (vllm-ascend#2754, #2763, #2800 paste it): the
# prefix comes off like Ray's and vLLM's other process prefixes, so the worker's traceback is read as one.
def test_a_vllm_worker_prefix_with_its_rank_as_a_word_comes_off():
    from ascendrl.catalog.normalize import strip_prefixes

    line = "(EngineCore_0 pid=715) (VllmWorker TP0 pid=720) ERROR 10-04 05:07:25 [multiproc_executor.py:596] Traceback (most recent call last):"
    text, key = strip_prefixes(line)
    assert text == "Traceback (most recent call last):" and "VllmWorker TP0 pid=720" in key, (text, key)


def test_a_vllm_worker_traceback_under_that_prefix_is_read(tmp_path):
    head = "(VllmWorker TP1 pid=406) ERROR 08-25 12:24:17 [multiproc_executor.py:596] "
    text = "".join(head + line + "\n" for line in (
        "WorkerProc hit an exception.",
        "Traceback (most recent call last):",
        '  File "/usr/local/lib/python3.11/site-packages/vllm/v1/executor/multiproc_executor.py", line 591, in worker_busy_loop',
        "    output = func(*args, **kwargs)",
        "ValueError: the sampler got an empty batch of logits for request 7"))
    result = _explain(tmp_path, text)
    assert result.unknown is not None and result.unknown.type == "ValueError", (result.diagnoses, result.unknown)


def test_an_info_record_under_that_prefix_stays_quiet(tmp_path):
    text = ("(VllmWorker TP0 pid=720) INFO 10-04 05:07:25 [gpu_model_runner.py:1892] Model loading took 15.3 GiB\n"
            "(VllmWorker TP0 pid=720) WARNING 10-04 05:07:26 [fused_moe.py:727] Using default MoE config. ValueError: none\n")
    result = _explain(tmp_path, text)
    assert not result.fatal, (result.diagnoses, result.unknown)
