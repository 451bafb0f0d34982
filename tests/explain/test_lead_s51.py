"""The twentieth stop's lead classes, from round 49's dev half (each confirmed in the emitting source).

- ARL-E4178: an RDMA verbs call failing with ENOMEM is the locked-memory limit (NCCL's ibvwrap.cc WARN, UCX's ucs_error);
  the same call failing with another errno (EINVAL: a GPUDirect / peer-memory problem) is not.
- ARL-E4179: HAMi-core's quota refusal ("Device N OOM used / limit"): the pod's vGPU memory quota, not the card.
- ARL-E4180: HAMi-core reading an illegal device id inside a hooked CUDA call (NCCL init's cuMemCreate): the interposer.
- DRV-package: "Trainer.__init__() got an unexpected keyword argument 'processing_class'": the class name is ambiguous, the
  keyword's recorded history names transformers (apihistory.class_param_owner).
"""

from __future__ import annotations

import pytest
from kdata_helpers import first, first_id


@pytest.mark.parametrize("line", [
    "node1:1458:1480 [0] misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory",
    "node1:1458:1480 [3] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory",
    "[1733 10:02:01.123] ib_device.c:1170 UCX ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory",
    "ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory.",
])
def test_verbs_enomem_is_the_memlock_limit(catalog, line):
    assert first_id(catalog, line + "\n") == "ARL-E4178"


@pytest.mark.parametrize("line", [
    "node1:1458:1480 [0] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (cannot allocate memory for the buffer)",
])
def test_other_errno_or_plain_oom_is_not(catalog, line):
    assert first_id(catalog, line + "\n") != "ARL-E4178"


# ARL-E4179 / E4180: HAMi-core (libvgpu.so) lines, with log_utils.h's prefix and without it (pasted trimmed).
@pytest.mark.parametrize("line, want", [
    ("[HAMI-core ERROR (pid:25 thread=139892685178688 allocator.c:53)]: Device 0 OOM 27147995136 / 25757220864", "ARL-E4179"),
    ("[HAMI-core ERROR]: Device 0 OOM 12889096192 / 12582912000", "ARL-E4179"),
    ("[HAMI-core ERROR (pid:565 thread=140267266266944 multiprocess_memory_limit.c:831)]: Illegal device id: 850725928", "ARL-E4180"),
])
def test_hami_core_lines(catalog, line, want):
    assert first_id(catalog, line + "\n") == want


@pytest.mark.parametrize("line", [
    "[HAMI-core Msg(30:140387636202368:libvgpu.c:855)]: Initialized",  # its start-up message: a healthy line
    "[HAMI-core Debug(30:140:allocator.c:60)]: Device 0 current memory 1024 / 3145728000",
    "ValueError: Illegal device id: 9 (only 8 devices)",
])
def test_hami_start_up_and_other_words_are_not(catalog, line):
    assert first_id(catalog, line + "\n") not in ("ARL-E4179", "ARL-E4180")


# DRV-package: a class name several packages define (Trainer), told apart by the keyword whose history the API table
# records: transformers' Trainer gained processing_class in 4.46.
def test_ambiguous_class_named_by_its_keyword_history(catalog):
    top = first(catalog, "TypeError: Trainer.__init__() got an unexpected keyword argument 'processing_class'\n")
    assert top is not None and top.entry.id == "DRV-package" and top.kind == "transformers-too-old"
    assert "4.46" in top.entry.cause


def test_ambiguous_class_with_an_unrecorded_keyword_names_no_package(catalog):
    top = first(catalog, "TypeError: Trainer.__init__() got an unexpected keyword argument 'my_own_option'\n")
    assert top is None or "transformers" not in top.entry.title


@pytest.mark.parametrize("module, pip", [("grpc", "grpcio"), ("cv2", "opencv-python"), ("torch_npu", "torch-npu")])
def test_a_missing_module_is_installed_by_its_distribution_name(catalog, module, pip):
    top = first(catalog, f"ModuleNotFoundError: No module named '{module}'\n")
    assert top is not None and any(f"pip install {pip}" in step for step in top.entry.fix), top.entry.fix


# similar.py: what a resemblance may rest on.
def test_a_quoted_sentence_is_a_template_of_its_own():
    from ascendrl.catalog.similar import templates

    out = templates(["RuntimeError: Worker failed with error 'rope_scaling must have a type field'", "KeyError: 'lm_head.weight'"])
    assert "rope_scaling must have a type field" in out and "KeyError: <*>" in out  # a quoted name stays masked


def test_a_wrapper_only_paste_resembles_nothing(catalog):
    from ascendrl.catalog import Classifier
    from ascendrl.catalog.similar import with_similar
    import io

    for text in ("RuntimeError: Worker failed with error 'Engine core initialization failed. See root cause above.'\n",
                 "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n"):
        classifier = Classifier(catalog)
        classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
        plain = classifier.result()
        assert plain.diagnoses and all(d.entry.generic for d in plain.diagnoses if d.fatal)
        answer = with_similar(plain, catalog, threshold=0.0)
        assert not any(d.basis == "similar" for d in answer.diagnoses), text

