"""Round-10 dev misses, generalised (session 13, helper w10): the boundaries of each mechanism on pastes written here."""

from __future__ import annotations

import pytest


def _kinds(result):
    return [d.kind for d in result.diagnoses]


@pytest.mark.parametrize("errno,text", [(5, "Input/output error"), (37, "No locks available"), (95, "Operation not supported")])
def test_an_os_error_from_filelocks_flock_is_a_filesystem_without_locks(explain_text, errno, text):
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/huggingface_hub/file_download.py", line 1010, in hf_hub_download\n'
        "    with WeakFileLock(lock_path):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/filelock/_unix.py", line 43, in _acquire\n'
        "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
        f"OSError: [Errno {errno}] {text}\n"
    )
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "DRV-filelock" and top.kind == "filelock-unsupported-fs"
    assert "file_download.py" in top.entry.cause  # where the lock was taken


def test_filelocks_own_flock_refusal_is_named_without_frames(explain_text):
    _, top = explain_text("NotImplementedError: FileSystem does not appear to support flock; use SoftFileLock instead\n")
    assert top is not None and top.kind == "filelock-unsupported-fs"


@pytest.mark.parametrize("paste", [
    # the same errno raised elsewhere: not a lock
    'Traceback (most recent call last):\n  File "/opt/conda/lib/python3.10/site-packages/torch/serialization.py", line 440, in save\n'
    "    f.write(data)\nOSError: [Errno 5] Input/output error\n",
    # a lock the filesystem supports but another process holds is contention, which filelock retries; EBADF is not in the set
    'Traceback (most recent call last):\n  File "/opt/conda/lib/python3.10/site-packages/filelock/_unix.py", line 43, in _acquire\n'
    "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nOSError: [Errno 9] Bad file descriptor\n",
])
def test_other_os_errors_are_not_a_lock_refusal(explain_text, paste):
    result, _ = explain_text(paste)
    assert "filelock-unsupported-fs" not in _kinds(result)


def test_a_frame_line_copied_without_its_head_still_gives_the_frame(explain_text):
    # the selection began inside the frame line: path", line N, in func
    paste = ('/usr/lib/python3.10/site-packages/filelock/_unix.py", line 43, in _acquire\n'
             "    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\nOSError: [Errno 37] No locks available\n")
    _, top = explain_text(paste)
    assert top is not None and top.kind == "filelock-unsupported-fs"
    # prose that merely mentions a file and a line is no frame
    result, _ = explain_text('see "/tmp/x.py", line 3, in the docs\nOSError: [Errno 37] No locks available\n')
    assert "filelock-unsupported-fs" not in _kinds(result)


@pytest.mark.parametrize("lines,kind", [
    # the composite-op engine's tiling lines under a null-pointer code (opbase op_run_context.h / op_kernel.h)
    (["EZ9999: Inner Error!", "EZ9999: [PID: 1] 2025-01-01-00:00:00.000.000 op[Range], calculate output fail[FUNC:Tiling4Range]",
      "        TraceBack (most recent call last):", "       Tiling failed", "       Tiling Failed.",
      "       launch failed for Range, errno:561103."], "op-tiling-failed"),
    # the same code without any tiling words stays the decoded null pointer
    (["EZ9999: Inner Error!", "EZ9999: [PID: 1] 2025-01-01-00:00:00.000.000 executor is nullptr",
      "       launch failed for Range, errno:561103."], "code-561103"),
])
def test_tiling_lines_under_an_aclnn_code_name_the_tiling_step(explain_text, lines, kind):
    _, top = explain_text("\n".join(lines) + "\n")
    assert top is not None and top.kind == kind, (top.entry.id, top.kind) if top else None


def test_num_generations_one_is_its_own_cause_but_other_counts_stay_a_batch_mismatch(explain_text):
    one = ("ValueError: The global train batch size (2 x 4) must be evenly divisible by the number of generations per "
           "prompt (1). Given the current train batch size, the valid values for the number of generations are: [2, 4, 8].\n")
    _, top = explain_text(one)
    assert top is not None and top.entry.id == "ARL-E603"
    three = one.replace("prompt (1)", "prompt (3)")
    _, top = explain_text(three)
    assert top is not None and top.entry.id == "ARL-E421"
    _, top = explain_text("ValueError: GRPO requires at least 2 generations per prompt to calculate the advantages. You provided 1, "
                          "which is less than the minimum required.\n")
    assert top is not None and top.entry.id == "ARL-E603"


def test_a_same_device_refusal_outranks_the_connect_failure_that_carries_it(explain_text):
    paste = ("E0603 01:57:09.375787 3741063 transfer_executor_base.cpp:293] Failed to connect to target: 10.0.0.1:20429, "
             "status: 103900, errmsg: E19999: Inner Error!\n"
             "E19999[PID: 1] 2026-06-03-01:57:09.375.671 (E19999):  Failed to get peer rank id, please check rank table, "
             "not support connect with self device.[FUNC:ConnectInfoProcess][FILE:channel_msg_handler.cc][LINE:356]\n")
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E602"
    _, top = explain_text(paste.splitlines()[0] + "\n")
    assert top is not None and top.entry.id == "ARL-E426"


@pytest.mark.parametrize("line", [
    "NotImplementedError: VLLM_USE_V1=1 is not supported with Compute Capability < 8.0.",
    "NotImplementedError: VLLM_USE_V1=1 is not supported with device type=cpu.",
])
def test_the_v1_oracles_refusals_name_the_v1_engine(explain_text, line):
    _, top = explain_text(line + "\n")
    assert top is not None and top.entry.id == "ARL-E601"


def test_the_runtimes_context_null_wording_names_a_thread_without_a_device(explain_text):
    _, top = explain_text("aclrtGetDevice failed\nrtGetDevMsg execution failed, the context is a null pointer\n")
    assert top is not None and top.entry.id == "ARL-E470"


def test_atbs_rope_coefficient_check_names_the_partial_rotary_model_over_the_setup_wrapper(explain_text):
    _, top = explain_text("RopeOperation setup failed!\nRopeOperation_0 Wrong rotaryCoeff: 128\n")
    assert top is not None and top.entry.id == "ARL-E604"
    _, top = explain_text("RopeOperation setup failed!\n")  # the wrapper alone names no model
    assert top is not None and top.entry.id == "ARL-E451"


def test_the_value_head_wrapper_is_named_only_for_pretrained_model_attributes(explain_text):
    _, top = explain_text("AttributeError: 'AutoModelForCausalLMWithValueHead' object has no attribute 'base_model_prefix'\n")
    assert top is not None and top.entry.id == "ARL-E605"
    # a model-specific sub-module name (ms-swift's GLM patch) is not the wrapper-for-the-wrong-trainer class
    result, _ = explain_text("AttributeError: 'AutoModelForCausalLMWithValueHead' object has no attribute 'transformer'\n")
    assert all(d.entry.id != "ARL-E605" for d in result.diagnoses)


def test_transformers_lazy_import_wrapper_yields_to_what_the_original_error_says(explain_text):
    wrapper = ("RuntimeError: Failed to import transformers.trainer because of the following error (look up to see its traceback):\n"
               "module 'torch.library' has no attribute 'register_fake'\n")
    _, top = explain_text("Failed to import transformers.models.bloom.modeling_bloom because of the following error\n")
    assert top is not None and top.entry.id == "ARL-E606"
    # a TLS-block failure named by its own entry outranks the generic wrapper
    tls = ("RuntimeError: Failed to import transformers.data.data_collator because of the following error (look up to see its traceback):\n"
           "/usr/lib/python3.10/site-packages/scikit_learn.libs/libgomp-947d5fa1.so.1.0.0: cannot allocate memory in static TLS block\n")
    _, top = explain_text(tls)
    assert top is not None and top.entry.id != "ARL-E606"
    result, _ = explain_text(wrapper)
    assert result.diagnoses and result.fatal
