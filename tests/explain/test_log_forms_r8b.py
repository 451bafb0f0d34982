"""Log forms from the round-8 dev misses (device, hccl, operator, verl-config share) that known classes now name (issue #10).

Each is a known class in a paste the engine or a signature did not read: a strerror quoted lower-case in prose,
torch's fixed CUDA message quoted in a title, triton-ascend's compile error summarised with its stage.
"""

from __future__ import annotations

import pytest
from test_log_forms_r7 import _top, catalog  # noqa: F401  (the module's catalog fixture, and its explain helper)


@pytest.mark.parametrize("text", [
    "the job that starts later reports an “address already in use” error.\n",
    "second server fails with 'address already in use'\n",
    'rollout: "too many open files" after a day\n',
])
def test_a_lower_cased_strerror_quoted_in_prose_is_the_os_error(catalog, tmp_path, text):
    _, top = _top(catalog, tmp_path, text)
    assert top is not None and top.entry.id == "DRV-oserror", text
    assert top.kind in ("eaddrinuse", "emfile")


def test_prose_that_names_a_strerror_unquoted_stays_quiet(catalog, tmp_path):
    result, _ = _top(catalog, tmp_path, "INFO tip: address already in use errors mean another job holds the port\n")
    assert not result.fatal


@pytest.mark.parametrize("text", [
    "Ascend 910B上GRPO + vLLM server报错：'Torch not compiled with CUDA enabled'\n",
    'vLLM server on 910B: "Torch not compiled with CUDA enabled"\n',
])
def test_torchs_cuda_message_quoted_in_a_title_is_a_cuda_call_on_npu(catalog, tmp_path, text):
    _, top = _top(catalog, tmp_path, text)
    assert top is not None and top.entry.id == "ARL-E012"


def test_triton_ascends_compile_error_summarised_with_its_stage(catalog, tmp_path):
    _, top = _top(catalog, tmp_path, "triton.compiler.errors.MLIRCompilationError  (stage ConvertTritonIRToLinalgIR)\n")
    assert top is not None and top.entry.id == "ARL-E403"
    result, _ = _top(catalog, tmp_path, "INFO triton.compiler.errors.MLIRCompilationError is exported by the package\n")
    assert not any(d.entry.id == "ARL-E403" for d in result.diagnoses)
