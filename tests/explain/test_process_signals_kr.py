"""A process death's class comes from its signal (session 17, helper kr).

DRV-process named every death that was not SIGSEGV "process-killed", a kill from outside. SIGABRT is the process aborting
itself, SIGBUS a bad access, SIGFPE an arithmetic trap. SIGFPE in a torch process on an NVIDIA GPU is, in every thread
the catalog and the dev corpus hold (ARL-E1090's four sources; dev logs from four threads, two of them with only the
bare signal), cuBLASLt's divide by zero on H20; on an Ascend run it is named only as the signal.
Measured with bench/score_realworld.py --dev-only (and --leave-thread-out): dev 669 -> 671, leave-thread-out 573 -> 575,
no other log changed.
"""

from __future__ import annotations

import pytest

FPE_GPU = [
    # bash's report of a job SIGFPE ended (glibc strsignal text), pasted alone
    "Floating point exception (core dumped)\n",
    # the same quoted in an issue title
    "Train ControlNet Error: `Floating point exception (core dumped)`\n",
    # bash's job report from a script
    "./train.sh: line 7: 4242 Floating point exception (core dumped) python3 train.py\n",
    # faulthandler in a vLLM worker (no NPU anywhere)
    "(WorkerDict pid=358504) Fatal Python error: Floating point exception\n(WorkerDict pid=358504) \n"
    "(WorkerDict pid=358504) Stack (most recent call first):\n"
    '(WorkerDict pid=358504)   File "/opt/conda/lib/python3.9/site-packages/vllm/model_executor/layers/logits_processor.py", line 83 in _get_logits\n',
]


@pytest.mark.parametrize("paste", FPE_GPU)
def test_sigfpe_without_the_npu_stack_is_the_h20_cublas_class(explain_text, paste):
    result, top = explain_text(paste)
    assert top is not None and top.fatal and top.entry.id == "DRV-process" and top.kind == "cublas-h20-fpe", result.diagnoses
    assert "H20" in top.entry.cause and "nvidia-cublas-cu12" in " ".join(top.entry.fix)


@pytest.mark.parametrize("paste", [
    # near misses: the same signal in a run that shows the Ascend stack (a version line, a torch_npu frame)
    "[pip3] torch_npu==2.5.1\nFloating point exception (core dumped)\n",
    "Fatal Python error: Floating point exception\n\nStack (most recent call first):\n"
    '  File "/usr/local/lib/python3.10/site-packages/torch_npu/npu/utils.py", line 40 in synchronize\n',
])
def test_sigfpe_on_an_npu_run_is_only_the_signal(explain_text, paste):
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "DRV-process" and top.kind == "process-fpe"


@pytest.mark.parametrize("paste,kind", [
    ("terminate called without an active exception\nAborted (core dumped)\n", "process-aborted"),
    ("Bus error (core dumped)\n", "process-bus-error"),
    ("Segmentation fault (core dumped)\n", "process-segfault"),
    # bash's report of a SIGKILL: since the twenty-sixth stop ARL-E4366 (k57mem) names it, DRV-process's kind folded in
    ("./run.sh: line 12:  4242 Killed                  python3 -m verl.trainer.main_ppo\n", "process-killed"),
])
def test_each_signal_keeps_its_own_class(explain_text, paste, kind):
    _, top = explain_text(paste)
    entry = "ARL-E4366" if " Killed " in paste else "DRV-process"
    assert top is not None and top.entry.id == entry and top.kind == kind


@pytest.mark.parametrize("paste", [
    "Enable the floating point exception trap with feenableexcept before running.\n",
    "2025-01-01 INFO checking Floating point exception handling: ok\nstep:1 loss 0.3\n",
])
def test_words_about_the_signal_are_no_death(explain_text, paste):
    result, _ = explain_text(paste)
    assert not result.fatal, result.diagnoses
