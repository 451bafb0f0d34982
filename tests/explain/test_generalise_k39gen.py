"""Readings widened by helper k39gen (2026-12-04) from the emitting projects' sources, each for a class of failure rather
than one thread's paste:

- Ray's runtime_env set-up failure as its job manager, its exception text and its uv plugin print it (ARL-E166): the
  job status message "runtime_env setup failed: <str(RuntimeEnvSetupError)>" and the manager's log record
  (python/ray/dashboard/modules/job/job_manager.py), str(RuntimeEnvSetupError) on a line of its own ("Failed to set up
  runtime environment." / older "Failed to setup runtime environment.", python/ray/exceptions.py), and the uv plugin's
  record of a failed install (python/ray/_private/runtime_env/uv.py).
- Ray refusing a task or actor whose resource request fits no bundle of the placement group it is scheduled into
  (python/ray/util/placement_group.py _validate_resource_shape, ARL-E3010): both wordings (the request; an actor's
  creation CPU), whole or wrapped after "with the placement group".
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str):
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    diagnoses = data.get("diagnoses") or []
    return diagnoses[0]["id"] if diagnoses else None


def test_ray_job_status_message_names_runtime_env_failure():
    assert _top("---------------------------------------\nJob 'raysubmit_Ab12Cd34' failed\n"
                "---------------------------------------\n\n"
                "Status message: runtime_env setup failed: Failed to set up runtime environment.\n"
                "Could not create the actor because its associated runtime env failed to be created.\n") == "ARL-E166"


def test_ray_job_manager_log_record():
    assert _top("2025-03-02 10:11:12,345\tERROR job_manager.py:248 -- Failed to set up runtime_env for job "
                "raysubmit_Ab12Cd34.\n") == "ARL-E166"


def test_exception_text_alone_in_both_spellings():
    for head in ("Failed to set up runtime environment.", "Failed to setup runtime environment."):
        assert _top(f"{head}\nCould not create the actor because its associated runtime env failed to be created.\n") == "ARL-E166"


def test_exception_text_inside_a_sentence_is_not_the_whole_line():
    # the anchored form reads the exception's own line; a record that goes on after it is some program's prose
    assert _top("INFO retry.py:12 -- Failed to set up runtime environment. Retrying in 5 seconds (attempt 1 of 3)\n") != "ARL-E166"


def test_uv_plugin_install_failure():
    assert _top("2025-06-30 08:00:01,000\tERROR uv.py:260 -- Failed to install uv packages.\n"
                "Traceback (most recent call last):\n"
                '  File "/usr/lib/python3.11/site-packages/ray/_private/runtime_env/uv.py", line 252, in _run\n'
                "    await self._install_uv_packages(\n") == "ARL-E166"
    assert _top("ValueError: Local directory /tmp/ray/session_latest/runtime_resources/uv/8f1c for URI uv://8f1c does not "
                "exist on the cluster. Something may have gone wrong while installing the runtime_env `uv` packages.\n") == "ARL-E166"


def test_a_specific_cause_stays_first():
    # the wrapper is generic: the working_dir size refusal under it is the cause (ARL-E127)
    assert _top("Failed to set up runtime environment.\n"
                "Failed to upload working_dir /home/user/proj to the Ray cluster: Package size (1765.45MiB) exceeds the "
                "maximum size of 512.00MiB. You can exclude large files using the 'excludes' option to the runtime_env\n") == "ARL-E127"


NPU_INTO_GPU_BUNDLES = ("ValueError: Cannot schedule WorkerDict with the placement group because the resource request "
                        "{'CPU': 1, 'GPU': 1} cannot fit into any bundles for the placement group, "
                        "[{'CPU': 1.0, 'NPU': 1.0}, {'CPU': 1.0, 'NPU': 1.0}].\n")


def test_request_that_fits_no_bundle():
    assert _top(NPU_INTO_GPU_BUNDLES) == "ARL-E3010"
    assert _top("ValueError: Cannot schedule Counter with the placement group because the actor requires 1 CPU for creation, "
                "but it cannot fit into any bundles for the placement group, [{'custom': 1.0}]. Consider creating a "
                "placement group with CPU resources.\n") == "ARL-E3010"


def test_request_wrapped_after_its_first_line():
    assert _top("ValueError: Cannot schedule create_task.<locals>.sample_task with the placement group\n"
                "because the resource request {'CPU': 10} cannot fit into any bundles for the placement group, [{'CPU': 1.0}].\n"
                ) == "ARL-E3010"


def test_under_ray_task_error_the_refusal_is_the_cause():
    text = ("ray.exceptions.RayTaskError(ValueError): ray::TaskRunner.run() (pid=4711, ip=10.0.0.1, actor_id=ab12)\n"
            + NPU_INTO_GPU_BUNDLES)
    assert _top(text) == "ARL-E3010"


def test_bundle_index_refusal_stays_its_own_entry():
    # the other check of the same function (bundle index past the group's end) is ARL-E2740, not this reading
    assert _top("ValueError: placement group bundle index 8 is invalid. Valid placement group indexes: 0-8\n") == "ARL-E2740"
