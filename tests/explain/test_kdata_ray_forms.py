"""Session 15 (kdata): sibling wordings of Ray / verl resource-pool and wandb classes read in the emitting source,
each checked both ways."""

from __future__ import annotations

import pytest

from kdata_helpers import classify, top


@pytest.mark.parametrize("entry_id, text", [
    # verl 0.3 / 0.4-0.5 per-pool resource check (the sibling raise site of 'Total available GPUs ... less than ...')
    ("ARL-E106", "ValueError: Resource pool global_pool: 16*1 cannot be satisfied in this ray cluster\n"),
    ("ARL-E106", "ValueError: Resource pool global_pool: 8*2cannot be satisfied in this ray cluster\n"),
    # Ray's driver-side exception for a task whose worker process vanished (2.x, and 0.7-0.8 RayWorkerError)
    ("ARL-E121", "ray.exceptions.WorkerCrashedError: The worker died unexpectedly while executing this task. Check "
                 "python-core-worker-*.log files for more information.\n"),
    ("ARL-E121", "ray.exceptions.RayWorkerError: The worker died unexpectedly while executing this task.\n"),
    # wandb >= 0.23.1's wording of a missing key in a run with no terminal
    ("ARL-E150", "wandb.errors.errors.UsageError: No API key configured. Use `wandb login` to log in.\n"),
])
def test_entry_sibling_forms_are_named(catalog, entry_id, text):
    assert top(catalog, text)[0] == entry_id


@pytest.mark.parametrize("entry_id, text", [
    # the actor form is a separate class (the actor may have died of an exception in its creation task)
    ("ARL-E121", "ray.exceptions.RayActorError: The actor died because of an error raised in its creation task, "
                 "ray::Worker.__init__() (pid=1, ip=10.0.0.1)\n"),
    # a different Ray pool error (a placement group that was removed) is not the resource check
    ("ARL-E106", "ray.exceptions.ActorPlacementGroupRemoved: The placement group corresponding to this Actor has been removed.\n"),
])
def test_entry_look_alikes_are_not_named(catalog, entry_id, text):
    result = classify(catalog, text)
    assert entry_id not in [d.entry.id for d in result.diagnoses]
