"""Entries written from the error lines the projects' own troubleshooting and FAQ pages quote (kdoc, ARL-E2610..E2659).

Each case below is another emitted form of the same failure (another release's exception type, another linker, another
process prefix), or a near miss the signature must not take. The forms come from the emitters' source: tensordict's
TensorDictBase.__contains__ (0.1-0.3), torch_npu's ProcessGroupHCCL and PyTorch's ProcessGroupNCCL device check,
prometheus_client's Counter.inc as vLLM's metrics loggers reach it, GNU ld's ldfile.c and LLVM lld's Driver.cpp.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("paste, entry", [
    # tensordict < 0.4 reached from verl's DataProto code inside a Ray worker
    ("(WorkerDict pid=2817, ip=10.0.0.3) NotImplementedError: TensorDict does not support membership checks with the "
     "`in` keyword. If you want to check if a particular key is in your TensorDict, please use `key in "
     "tensordict.keys()` instead.\n", "ARL-E2610"),
    # torch_npu's form with its DIST tag under it; PyTorch's NCCL form, old (RuntimeError) and new (ValueError)
    ("RuntimeError: Tensors must be NPU and dense\n"
     "[ERROR] 2025-03-01-10:00:00 (PID:4242, Device:0, RankID:1) ERR02002 DIST invalid type\n", "ARL-E2612"),
    ("ValueError: Tensors must be CUDA and dense\n", "ARL-E2612"),
    # vLLM V0's engine loop (vllm#6642's form) and V1's API server
    ("ERROR 07-22 09:54:47 async_llm_engine.py:52] ValueError: Counters can only be incremented by non-negative amounts.\n",
     "ARL-E2613"),
    ("(APIServer pid=1) ERROR 10-07 11:17:01 [async_llm.py:480] ValueError: Counters can only be incremented by "
     "non-negative amounts.\n", "ARL-E2613"),
    # GNU ld, old and new wording, a conda compiler_compat ld, a cross ld; lld's wording (a CANN library's: DRV-library
    # names its folder, the narrower reading E2614 lists in refined_by, test_lead_s53.py)
    ("/usr/bin/ld: cannot find -lascendcl\ncollect2: error: ld returned 1 exit status\n", "DRV-library"),
    ("/usr/bin/ld: cannot find -lstdc++fs: No such file or directory\n", "ARL-E2614"),
    ("instal from sourece error: compiler_compat/ld: cannot find -lcuda\n", "ARL-E2614"),  # vllm-project/vllm#2720's title
    ("aarch64-linux-gnu-ld: cannot find -lrt\n", "ARL-E2614"),
    ("ld.lld: error: unable to find library -lhccl\n", "DRV-library"),
    # GNU ld's message pasted without its program-name prefix, above gcc's collect2 line
    ("cannot find -lnpu_hccl\ncollect2: error: ld returned 1 exit status\n", "ARL-E2614"),
    # CPython's spawn check, printed across lines (as Python prints it) and joined on one line (as pasted into a title)
    ("Traceback (most recent call last):\n"
     "  File \"/usr/lib/python3.10/multiprocessing/spawn.py\", line 134, in _check_not_importing_main\n"
     "    raise RuntimeError('''\n"
     "RuntimeError: \n"
     "        An attempt has been made to start a new process before the\n"
     "        current process has finished its bootstrapping phase.\n", "ARL-E2615"),
    ("RuntimeError: An attempt has been made to start a new process before the current process has finished its "
     "bootstrapping phase.\n", "ARL-E2615"),
    # MindSpeed-LLM's converter, the DeepSeek-V3 example's form inside its traceback
    ("    raise ValueError(\"number of layers should be divisible by the pipeline parallel size\")\n"
     "ValueError: number of layers should be divisible by the pipeline parallel size\n", "ARL-E2616"),
])
def test_other_emitted_forms_are_named(explain_text, paste, entry):
    result, top = explain_text(paste)
    assert top is not None and top.entry.id == entry, [d.entry.id for d in result.diagnoses]
    assert result.fatal


@pytest.mark.parametrize("paste, entry", [
    # another tensordict error
    ("RuntimeError: TensorDict batch size mismatch\n", "ARL-E2610"),
    # a missing start file or object is not a -l library
    ("/usr/bin/ld: cannot find crt1.o: No such file or directory\n", "ARL-E2614"),
    # prose that names the linker message without a linker printing it
    ("if the linker says it cannot find -lfoo, install libfoo-dev\n", "ARL-E2614"),
    ("The build could not find -lfoo anywhere\n", "ARL-E2614"),
    # the source line that raises it is not the exception
    ("    if self.quitting: raise BdbQuit\n", "ARL-E2617"),
    # the same function's other check (a copy between two NPU tensors) is not the CPU-fallback size check
    ("RuntimeError: _copy_from_and_resize now only support copy from cpu tensor to npu tensor, but got src tensor device "
     "is npu:0 and dst device is npu:0\n", "ARL-E2618"),
    # vLLM's prompt-length check is another limit (max_model_len), not the encoder cache
    ("ValueError: The decoder prompt (length 40000) is longer than the maximum model length of 32768. Make sure that "
     "`max_model_len` is no smaller than the number of text tokens.\n", "ARL-E2620"),
    # Megatron's own check for virtual-pipeline layers is another message
    ("ValueError: Num of layers in vpp stage should be less than pp stage, please turn down "
     "args.num_layers_per_virtual_pipeline_stage.\n", "ARL-E2616"),
])
def test_near_misses_are_not_these_entries(explain_text, paste, entry):
    result, _ = explain_text(paste)
    assert entry not in [d.entry.id for d in result.diagnoses]
