"""Session 16 (kdata): classes that recur in several dev threads and had no entry (MindSpore GetNext timeout, SGLang
online weight update mismatch), each read in its emitting source and checked both ways: the emitted forms are named,
a look-alike or a warning training survives is not."""

from __future__ import annotations

import pytest

from kdata_helpers import classify, top


@pytest.mark.parametrize("entry_id, text", [
    # MindSpore on Ascend: the failed task's node is GetNext (1.x / 2.0 dump line), and the diagnosis printed after it
    ("ARL-E1060", "[ERROR] DEVICE(45501,fff2ab7fe1f0,python):2023-08-21-08:15:14.246.400 [mindspore/ccsrc/plugin/device/ascend/"
                  "hal/device/ascend_kernel_runtime.cc:770] DumpTaskExceptionInfo] Dump node (Default/GetNext-op1) task error "
                  "input/output data to: ./rank_0/node_dump\n"),
    ("ARL-E1060", "[WARNING] DEVICE(45501,fff2ab7fe1f0,python):2023-08-21-08:15:14.246.438 [mindspore/ccsrc/plugin/device/ascend/"
                  "hal/device/ascend_kernel_runtime.cc:776] DumpTaskExceptionInfo] GetNext error may be caused by slow data "
                  "processing (bigger than 20s / batch) or transfer data to device error.\n"),
    # the GPU data-queue kernel's timeout (raised as RuntimeError)
    ("ARL-E1060", "RuntimeError: For 'GetNext', get data timeout. Queue name: 4c8d0410-8075-11ed-ac18-0242ac110006\n"),
    # SGLang's online update: torch narrow's shape errors and an unknown parameter name
    ("ARL-E1061", "[2026-05-21 16:07:41 DP6 TP6] Failed to update parameter online: start out of range (expected to be in range "
                  "of [-256, 256], but got 512). The full weights of the ModelRunner are partially updated. Please discard the "
                  "whole weights.\n"),
    ("ARL-E1061", "Failed to update parameter online: 'model.visual.blocks.0.mlp.gate_up_proj.weight'. The full weights of the "
                  "ModelRunner are partially updated. Please discard the whole weights.\n"),
    # ARL-E218: the V1 processor's encoder form (the same f-string as the decoder one, read in the vllm 0.11.0 wheel)
    ("ARL-E218", "ValueError: The encoder prompt (length 3100) is longer than the maximum model length of 448. Make sure that "
                 "`max_model_len` is no smaller than the number of text tokens.\n"),
    # ARL-E650: the GCS's named-actor clash in releases before namespaces (sentence ends after "exists")
    ("ARL-E650", "(pid=gcs_server) [2021-11-20 01:52:06,726 E 259 259] gcs_actor_manager.cc:161: Failed to register actor: "
                 "Invalid: Actor with name 'some_name' already exists., job id = 35000000\n"),
    # ARL-E117: Ray 1.x's raising memory monitor (module ray._private.memory_monitor from 1.x, top-5 list in 0.6-0.8)
    ("ARL-E117", "ray._private.memory_monitor.RayOutOfMemoryError: More than 95% of the memory on node gpu-node-3 is used "
                 "(250.31 / 251.54 GB). The top 10 memory consumers are:\n"),
    # ARL-E128: Ray cancelling an infeasible request (raylet message inside ActorUnschedulableError / TaskUnschedulableError)
    ("ARL-E128", "ray.exceptions.TaskUnschedulableError: The task is not schedulable: Tasks or actors with resource shapes "
                 "[{CPU: 10}] failed to schedule because there are not enough resources for the tasks or actors on the whole cluster.\n"),
])
def test_new_class_forms_are_named(catalog, entry_id, text):
    assert top(catalog, text)[0] == entry_id


def test_getnext_slow_batch_warning_alone_is_not_fatal(catalog):
    # DetectPerBatchTime warns while training goes on (model zoo logs show epochs after it): no failure by itself
    text = ("epoch: 1 step: 342, loss is 0.8634778261184692\n"
            "[WARNING] MD(2637547,7f5fbdffb700,python):2023-06-01-09:14:29.052.845 [mindspore/ccsrc/minddata/dataset/engine/"
            "datasetops/data_queue_op.cc:809] DetectPerBatchTime] Bad performance attention, it takes more than 25 seconds to "
            "fetch a batch of data from dataset pipeline, which might result `GetNext` timeout problem. You may test dataset "
            "processing performance(with creating dataset iterator) and optimize it.\n"
            "epoch: 2 step: 342, loss is 0.47610682249069214\n")
    result = classify(catalog, text)
    assert not result.fatal
    assert "ARL-E1060" in [d.entry.id for d in result.diagnoses]


@pytest.mark.parametrize("entry_id, text", [
    # a failed task on another node is not a GetNext timeout
    ("ARL-E1060", "[ERROR] DEVICE(1,2,python):2023-11-20-15:34:32.887.652 [ascend_kernel_runtime.cc:770] DumpTaskExceptionInfo] "
                  "Dump node (Default/network-TrainOneStepCell/MatMul-op18) task error input/output data to: ./rank_0/node_dump\n"),
    # a request whose max_tokens does not fit beside the prompt is a request setting, not a prompt longer than the limit
    ("ARL-E218", "ValueError: 'max_tokens' or 'max_completion_tokens' is too large: 4096. This model's maximum context length "
                 "is 8192 tokens and your request has 5000 input tokens (4096 > 8192 - 5000).\n"),
    # Tune's status table line about low memory is a note, not the monitor raising
    ("ARL-E117", "Memory usage on this node: 31.0/31.3 GiB: ***LOW MEMORY*** less than 10% of the memory on this node is "
                 "available for use. This can cause unexpected crashes.\n"),
    # a failed online update whose cause is not a name / shape mismatch (the process group broke) is not this class
    ("ARL-E1061", "Failed to update parameter online: NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:275, "
                  "unhandled system error. The full weights of the ModelRunner are partially updated.\n"),
])
def test_look_alikes_are_not_named(catalog, entry_id, text):
    result = classify(catalog, text)
    assert entry_id not in [d.entry.id for d in result.diagnoses]


def test_ray_infeasible_cancellation_is_fatal_but_the_waiting_warning_is_not(catalog):
    cancelled = classify(catalog, "ray.exceptions.ActorUnschedulableError: The actor is not schedulable: Tasks or actors with "
                                  "resource shapes [{NPU: 8, CPU: 1}] failed to schedule because there are not enough resources "
                                  "for the tasks or actors on the whole cluster.\n")
    assert cancelled.fatal and cancelled.diagnoses[0].entry.id == "ARL-E128"
    waiting = classify(catalog, "(autoscaler +1m2s) Warning: The following resource request cannot be scheduled right now: "
                                "{'CPU': 1.0, 'NPU': 8.0}. This is likely due to all cluster resources being claimed by actors.\n")
    assert not waiting.fatal
