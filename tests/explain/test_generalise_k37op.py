"""Readings added by helper k37op (2026-12-04), each written from the emitting project's source.

- aclnn's dtype checks that compare an input with the dtype the operator pairs it with (OP_CHECK_DTYPE_NOT_MATCH,
  OP_CHECK_DTYPE_NOT_SAME in hicann/ops-math common/inc/external/aclnn_kernels/common/op_error_check.h): under EZ1001
  the caller passed an input in the wrong dtype (op-input-dtype-mismatch), not a dtype the operator lacks.
- PyTorch's process-group watchdog exit line quotes the work's exception; one that starts with the work's log prefix
  and "Watchdog" is WorkNCCL::checkTimeout's collective timeout (ARL-E010), even where a paste cuts the line there.
- TRL's vllm-serve refuses a weight-sync communicator whose trainer client sits on the server's own GPU
  (trl/scripts/vllm_serve.py, init_communicator): the NCCL duplicate-GPU class, ARL-E2801.
- torch's "No CUDA GPUs are available" (a CUDA build that finds no device) raised inside a Ray task or actor: Ray empties
  CUDA_VISIBLE_DEVICES for a worker without num_gpus, so the code ran in a CPU-only actor (ray-cpu-only-actor).

Lines that only look alike stay with their own readings.
"""

from __future__ import annotations

import pytest


def _kind(result) -> str | None:
    data = result.to_json()
    diagnoses = data.get("diagnoses") or []
    return diagnoses[0].get("kind") if diagnoses else None


@pytest.mark.parametrize("text", [
    # older CANN wording of OP_CHECK_DTYPE_NOT_MATCH (aclnnInplaceMaskedFillScalar checks its mask against DT_BOOL)
    "RuntimeError: call aclnnInplaceMaskedFillScalar failed, detail:EZ1001: mask expected scalar type DT_BOOL but found DT_FLOAT.\n",
    # the current wording of the same macro, under torch_npu's error report
    ("RuntimeError: masked_fill_:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:59 NPU function error: call "
     "aclnnInplaceMaskedFillScalar failed, error code is 161002\n"
     "[ERROR] 2025-06-01-10:00:00 (PID:1234, Device:0, RankID:-1) ERR00100 PTA call acl api failed.\n"
     "EZ1001: [PID: 1234] 2025-06-01-10:00:00.000.000 Tensor mask expected dtype is DT_BOOL but found DT_FLOAT.\n"),
    # OP_CHECK_DTYPE_NOT_SAME
    ("RuntimeError: call aclnnMul failed, detail:EZ1001: Expected both tensors to have same dtype, but found self "
     "DT_FLOAT and other DT_BF16.\n"),
])
def test_an_aclnn_dtype_pairing_check_is_an_input_dtype_mismatch(explain_text, text):
    result, top = explain_text(text)
    assert top is not None and top.fatal
    assert _kind(result) == "op-input-dtype-mismatch"


def test_a_dtype_missing_from_the_support_list_is_not_a_mismatch(explain_text):
    text = ("RuntimeError: call aclnnRepeatInterleaveIntWithDim failed, detail:EZ1001: [PID: 23975] "
            "2025-01-02-11:00:00.313.502 self not implemented for DT_DOUBLE, should be in dtype support list "
            "[DT_UINT8,DT_INT8,DT_FLOAT16,DT_FLOAT,DT_BFLOAT16,].\n")
    result, top = explain_text(text)
    assert top is not None
    assert _kind(result) != "op-input-dtype-mismatch"


@pytest.mark.parametrize("line", [
    # cut after "Watchdog" (PyTorch 2.4+ prefix, the work's own older prefix)
    "[rank4]:[E602 11:18:52.536602063 ProcessGroupNCCL.cpp:1896] [PG ID 1 PG GUID 1 Rank 4] Process group watchdog "
    "thread terminated with exception: [Rank 4] Watchdog",
    "[rank0]:[E1003 18:37:01.838048403 ProcessGroupNCCL.cpp:1515] [PG 0 (default_pg) Rank 0] Process group watchdog "
    "thread terminated with exception: [PG ID 0 PG GUID 0(default_pg) Rank 0] Watchdog caught",
])
def test_a_watchdog_exit_quoting_the_timeout_is_the_collective_timeout(explain_text, line):
    text = ("[rank4]:[E602 11:18:52.531176265 ProcessGroupNCCL.cpp:684] [Rank 4] Some NCCL operations have failed or "
            "timed out. Due to the asynchronous nature of CUDA kernels, subsequent GPU operations might run on "
            "corrupted/incomplete data.\n" + line + "\n")
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E010"


def test_a_watchdog_exit_quoting_a_cuda_error_is_not_a_timeout(explain_text):
    text = ("[rank2]:[E323 21:33:26.170490902 ProcessGroupNCCL.cpp:1896] [PG ID 2 PG GUID 3 Rank 2] Process group "
            "watchdog thread terminated with exception: CUDA error: an illegal memory access was encountered\n")
    _, top = explain_text(text)
    assert top is None or top.entry.id != "ARL-E010"


def test_trl_vllm_serve_same_device_check(explain_text):
    # trl/scripts/vllm_serve.py raises this from the server's worker; the docs quote a longer wording of it
    for message in ("Attempting to use the same CUDA device for multiple distinct roles. Ensure that the trainer uses "
                    "different devices than the vLLM server.",
                    "Attempting to use the same CUDA device for multiple distinct roles/ranks within the same "
                    "communicator."):
        _, top = explain_text(f"RuntimeError: {message}\n")
        assert top is not None and top.entry.id == "ARL-E2801"


RAY_TASK = (
    "Traceback (most recent call last):\n"
    '  File "verl/trainer/main_ppo.py", line 76, in run_ppo\n'
    "    ray.get(runner.run.remote(config))\n"
    "ray.exceptions.RayTaskError(RuntimeError): ray::TaskRunner.run() (pid=4242, ip=10.0.0.1, actor_id=abc, "
    "repr=<main_ppo.TaskRunner object at 0x7f>)\n"
    '  File "reward/my_reward.py", line 12, in <module>\n'
    '    model = SentenceTransformer("bge-m3", device="cuda")\n'
    '  File "/usr/local/lib/python3.10/site-packages/torch/cuda/__init__.py", line 302, in _lazy_init\n'
    "    torch._C._cuda_init()\n"
    "RuntimeError: No CUDA GPUs are available\n"
)


def test_no_cuda_gpus_inside_a_ray_task_is_a_cpu_only_actor(explain_text):
    # torch's CUDA build finds no device where Ray set CUDA_VISIBLE_DEVICES='' for a worker without num_gpus
    result, top = explain_text(RAY_TASK)
    assert top is not None and top.entry.id == "DRV-cuda-call"
    assert _kind(result) == "ray-cpu-only-actor"


@pytest.mark.parametrize("text", [
    "RuntimeError: No CUDA GPUs are available\n",  # no Ray worker in the paste: the CUDA call itself is what it says
    RAY_TASK.replace("No CUDA GPUs are available", "Torch not compiled with CUDA enabled").replace(
        "RuntimeError: Torch", "AssertionError: Torch").replace("RayTaskError(RuntimeError)", "RayTaskError(AssertionError)"),
])
def test_other_cuda_refusals_stay_a_cuda_call(explain_text, text):
    result, top = explain_text(text)
    assert top is not None and top.entry.id in ("DRV-cuda-call", "ARL-E012")
    assert _kind(result) == "cuda-call-on-npu"
