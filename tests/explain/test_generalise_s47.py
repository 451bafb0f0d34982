"""Readings the lead added in the sixteenth stop (2026-12-06) from round 44's development half.

- ARL-E4168: an FP8 block-quantized checkpoint whose tensor-parallel shard is not a whole number of blocks (vLLM's
  fp8.py Fp8LinearMethod / Fp8MoEMethod create_weights; SGLang's copy words it the same).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)


def test_fp8_block_shard_misaligned_is_e4168():
    for text in (
        "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128.\n",
        "ValueError: The input_size of down's weight = 320 is not divisible by weight quantization block_k = 128.\n",
        "ValueError: Weight output_partition_size = 8 is not divisible by weight quantization block_n = 128.\n",
        "[rank2]: ValueError: Weight input_size_per_partition = 576 is not divisible by weight quantization block_k = 128.\n",
    ):
        assert _id(text) == "ARL-E4168", text


def test_group_quantization_misalignment_stays_e4164():
    # AWQ / GPTQ group sizes are another check (and entry); the FP8 block wording must not take it.
    assert _id("ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too "
               "large tensor parallel size.\n") == "ARL-E4164"
    assert _id("ValueError: Weight output_partition_size = 8 is not divisible by weight quantization block_n = 128.\n") != "ARL-E4164"


def test_torchrun_sigkill_summary_forms_are_e4366():
    # torch elastic's ChildFailedError table ("exitcode  : -9 (pid: N)", "traceback : Signal 9 (SIGKILL) received by
    # PID N"), also as chat tools paste it: the first letter lowered, the padding collapsed, lines run together.
    for text in (
        "Root Cause (first observed failure):\n[0]:\n  time      : 2023-09-14_01:45:50\n  host      : node-1\n"
        "  rank      : 2 (local_rank: 2)\n  exitcode  : -9 (pid: 36071)\n  error_file: <N/A>\n"
        "  traceback : Signal 9 (SIGKILL) received by PID 36071\n",
        "rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>\ntraceback : signal 9 (SIGKILL) received by PID 36071\n",
    ):
        assert _id(text) == "ARL-E4366", text


def test_other_exit_codes_in_the_summary_are_not_e4366():
    text = ("Root Cause (first observed failure):\n[0]:\n  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 812)\n"
            "  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n")
    assert _id(text) != "ARL-E4366"
    assert _id("  exitcode  : -6 (pid: 812)\n  traceback : Signal 6 (SIGABRT) received by PID 812\n") != "ARL-E4366"


def test_dcmi_permission_error_is_its_own_class_not_a_resemblance_to_occupied():
    from kdata_helpers import first

    from ascendrl.catalog import Classifier
    from ascendrl.catalog.similar import with_similar
    import io

    text = "root@node:~# npu-smi info\ndcmi module initialize failed. ret is -8002\n"
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    top = with_similar(classifier.result(), CATALOG).diagnoses[0]
    assert (top.entry.id, top.kind, top.basis) == ("DRV-code", "npu-permission-denied", "derived")
    occupied = first(CATALOG, "dcmi module initialize failed. ret is -8005\n")
    assert occupied is not None and occupied.kind == "dcmi-device-occupied"


def test_dp_engine_device_range_past_the_visible_list_is_e4169():
    for text in (
        'Exception: Error computing assigned_physical_gpu_ids: local range: [8, 16) base value: "0,1,2,3,4,5,6,7"\n',
        'Exception: Error setting ASCEND_RT_VISIBLE_DEVICES: local range: [4, 8) base value: "0,1,2,3"\n',
        'Exception: Error setting CUDA_VISIBLE_DEVICES: local range: [0, 16) base value: "0,1,2,3,4,5,6,7"\n',
    ):
        assert _id(text) == "ARL-E4169", text


def test_a_visible_device_id_that_does_not_exist_is_not_e4169():
    assert _id("RuntimeError: ASCEND_RT_VISIBLE_DEVICES=0,1,9 contains an invalid device id\n") != "ARL-E4169"


def test_a_dotted_module_path_is_not_a_sentence_about_a_fix():
    # chain.NOT_A_REPORT marks a paste's sentence about a fix ("resolved by", "fixed in"); a module path that merely
    # contains such a word (pip._vendor.resolvelib) is code, not that sentence (k47compat's note).
    from ascendrl.catalog import chain

    assert not chain.NOT_A_REPORT.search("pip._vendor.resolvelib.resolvers.ResolutionTooDeep: 200000")
    assert not chain.NOT_A_REPORT.search("see docs.python.org for the removal")
    assert chain.NOT_A_REPORT.search("resolved by upgrading pip")
    assert chain.NOT_A_REPORT.search("I fixed it by pinning the docs build")


def test_an_npu_only_operator_given_cpu_tensors_is_its_own_class():
    from kdata_helpers import first

    for text in ("NotImplementedError: Could not run 'npu::npu_rms_norm' with arguments from the 'CPU' backend. This could be "
                 "because the operator doesn't exist for this backend.\n",
                 "NotImplementedError: Could not run 'npu::npu_fusion_attention' with arguments from the 'CPU' backend.\n"):
        d = first(CATALOG, text)
        assert (d.entry.id, d.kind) == ("DRV-npu-op-cpu-tensors", "npu-op-cpu-tensors"), text
    # an aten operator with no NPU kernel is the other class; an npu operator without a meta kernel is neither
    other = first(CATALOG, "NotImplementedError: Could not run 'aten::_fft_r2c' with arguments from the 'npu' backend.\n")
    assert other is not None and other.entry.id != "DRV-npu-op-cpu-tensors"
    meta = first(CATALOG, "NotImplementedError: Could not run 'npu::npu_rms_norm' with arguments from the 'Meta' backend.\n")
    assert meta is None or meta.entry.id != "DRV-npu-op-cpu-tensors"


def test_a_worker_force_killed_at_teardown_does_not_hide_the_failure_that_caused_it():
    # Ray's core worker logs its own force kill at INFO level with the ActorDiedError words (core_worker.cc); verl tears
    # its actors down after the real failure, so E4605 (generic) must rank below it (the clean-clone CI's e2e run, s47).
    text = ("(TaskRunner pid=10362) ValueError: Total available GPUs 0 is less than total desired GPUs 2.\n"
            "[2026-12-06 10:24:58,101 I 10955 10970] core_worker.cc:4630: Force kill actor request has received. exiting "
            "immediately... The actor is dead because it was killed by `ray.kill`.\n")
    assert _id(text) == "ARL-E106"
    assert _id("The actor is dead because it was killed by `ray.kill`.\n") == "ARL-E4605"  # alone, it is still the answer
