"""Wordings of a known failure class that other releases (or sibling checks of the same condition) print.

Each line is the text the emitting source builds, filled in as a user would see it (checked in the release's wheel or
source copy named in the signature's `confirmed` or its `# unconfirmed:` comment): a log of the same class printed
another way must name the same entry, and near-miss lines of other conditions must not.
"""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("entry_id, text", [
    # Ray raylet, ray 1.13+: the unschedulable warning breaks its line after "if this " (the driver echoes it as is)
    ("ARL-E128", "2024-05-01 10:00:00,000\tWARNING worker.py:1034 -- The actor or task with ID "
                 "cb230a572350ff44ffffffff01000000 cannot be scheduled right now. You can ignore this message if this \n"
                 "Ray cluster is expected to auto-scale or if you specified a \n"
                 "runtime_env for this actor or task, which may take time to install.  \n"
                 "Required resources for this actor or task: {NPU: 1.000000}\n"),
    # Ray raylet: infeasible request (no node has the resource at all)
    ("ARL-E128", "The actor or task with ID cb230a572350ff44ffffffff01000000 cannot be scheduled right now. It requires "
                 "{CPU: 1.000000}, {NPU: 8.000000} for placement, however the cluster currently cannot provide the requested "
                 "resources. The required resources may be added as autoscaling takes place or placement groups are "
                 "scheduled. Otherwise, consider reducing the resource requirements of the task.\n"),
    # Ray autoscaler v1 (autoscaler.py) and v2 (event_logger.py) infeasible-request events, as the driver shows them
    ("ARL-E128", "(autoscaler +12s) Error: No available node types can fulfill resource request {'CPU': 1.0, 'NPU': 1.0}. "
                 "Add suitable node types to this cluster to resolve this issue.\n"),
    ("ARL-E128", "(autoscaler +1m3s) No available node types can fulfill resource requests {'NPU': 1.0}*8. "
                 "Add suitable node types to this cluster to resolve this issue.\n"),
    # Ray compiled graph (compiled_dag_node.py, ray 2.4x): the submit side, and the channel read under it
    ("ARL-E129", "ray.exceptions.RayChannelTimeoutError: System error: If the execution is expected to take a long time, "
                 "increase RAY_CGRAPH_submit_timeout which is currently 10 seconds. Otherwise, this may indicate that "
                 "execution is hanging.\n"),
    ("ARL-E129", "ray.exceptions.RayChannelTimeoutError: System error: Timed out waiting for object available to read. "
                 "ObjectID: 00a71ac3b2e5b6ae8ae05bbc8a6b2c9bc1f6d7cd0100000002e1f505\n"),
    # torch MapAllocator: the DataLoader's shared-memory tensor file cannot be grown in a full /dev/shm
    ("ARL-E015", "RuntimeError: unable to write to file </torch_2076_1889657183_0>: No space left on device (28)\n"),
    # Python older than the code: a typing name from a later release (typeshed's version gates), dataclass(kw_only=)
    ("ARL-E244", "Traceback (most recent call last):\n  File \"/home/user/ws/verl/verl/utils/py_functional.py\", line 20, in <module>\n"
                 "    from typing import Self\nImportError: cannot import name 'Self' from 'typing' (/usr/lib/python3.10/typing.py)\n"),
    ("ARL-E244", "ImportError: cannot import name 'TypeAlias' from 'typing' (/opt/conda/envs/rl/lib/python3.9/typing.py)\n"),
    ("ARL-E244", "TypeError: dataclass() got an unexpected keyword argument 'kw_only'\n"),
    # uv's resolver report for two pins on one package (the wording of uv's own pip_install tests)
    ("ARL-E270", "  × No solution found when resolving dependencies:\n"
                 "  ╰─▶ Because torch-npu==2.1.0.post3 depends on torch==2.1.0+cpu and you require torch==2.1.0, we can "
                 "conclude that your requirements and torch-npu==2.1.0.post3 are incompatible.\n"),
    ("ARL-E270", "  × No solution found when resolving dependencies:\n"
                 "  ╰─▶ Because only flask<=3.0.2 is available and flask==3.0.2 depends on werkzeug>=3.0.0, we can conclude "
                 "that flask>=3.0.2 depends on werkzeug>=3.0.0.\n"
                 "      And because you require flask>=3.0.2 and werkzeug<1.0.0, we can conclude that your requirements are "
                 "unsatisfiable.\n"),
    # verl platform detection (platform_manager.py): nothing registered reports a device in this process
    ("ARL-E425", "(TaskRunner pid=3021) No supported accelerator detected. Registered: ('nvidia', 'huawei', 'amd'). "
                 "Falling back to 'nvidia'.\n"),
    # CANN runtime reason strings for a refused device allocation (errcode_manage.cc), old and CANN 8.5+ forms
    ("ARL-E400", "rtMalloc execute failed, reason=[driver error:out of memory][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"),
    ("ARL-E400", "rtMalloc execution failed, reason=driver error:out of memory\n"),
    # CANN runtime STARS wait-timeout report, NOTIFY_WAIT branch (device_error_proc.cc)
    ("ARL-E428", "EE9999: Inner Error!\n"
                 "EE9999: [PID: 4121] 2025-06-01-10:00:00.000.000 The error from device(chipId:1, dieId:0), serial number is 7, "
                 "notify wait timeout occurred during task execution, stream_id:12, sq_id:12, task_id:801, notify_id=33, "
                 "timeout=1836s.[FUNC:ProcessStarsWaitTimeoutErrorInfo][FILE:device_error_proc.cc][LINE:1290]\n"),
    # Ray >= 2.40: the GCS's death reason for a node that stopped answering, carried in the actor's death cause
    ("ARL-E139", "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
                 "\tclass_name: WorkerDict\n\tactor_id: 8e5a1c4f2b0f7b8d3c9a6e4d01000000\n"
                 "The actor died because its node has died. Node Id: 1f0b0cd6a3c54c4d9a9f4c1f2e8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c\n"
                 "\tthe actor's node was terminated unexpectedly: health check failed due to missing too many heartbeats\n"),
    # a public torch_npu operator the installed torch_npu lacks (vllm-ascend's rope calls torch_npu.npu_mrope)
    ("ARL-E313", "  File \"/usr/local/python3.11/site-packages/vllm_ascend/ops/rotary_embedding.py\", line 301, in rope_forward_oot\n"
                 "    query, key = torch_npu.npu_mrope(\n"
                 "AttributeError: module 'torch_npu' has no attribute 'npu_mrope'\n"),
])
def test_a_sibling_wording_names_the_class(explain_text, entry_id, text):
    _, top = explain_text(text)
    assert top is not None and top.entry.id == entry_id, (top and top.entry.id, text)


def test_an_unwritable_file_that_is_not_torch_shared_memory_is_not_shm(explain_text):
    _, top = explain_text("RuntimeError: unable to write to file </data/ckpt/model.bin>: No space left on device (28)\n")
    assert top is None or top.entry.id != "ARL-E015"


def test_a_feasible_scheduling_info_line_is_not_unschedulable(explain_text):
    # The autoscaler's ordinary resize plan is not an infeasible request.
    _, top = explain_text("(autoscaler +5s) Adding 1 node(s) of type npu_worker.\n")
    assert top is None or top.entry.id != "ARL-E128"


def test_an_ordinary_missing_typing_name_is_not_a_python_version(explain_text):
    # A name typing never had is a package's bug or a typo, not an old interpreter.
    _, top = explain_text("ImportError: cannot import name 'Sequnce' from 'typing' (/usr/lib/python3.11/typing.py)\n")
    assert top is None or top.entry.id != "ARL-E244"


def test_uv_with_no_version_of_a_package_is_not_a_pin_conflict(explain_text):
    _, top = explain_text(
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because there is no version of foo-bar==9.9.9 and you require foo-bar==9.9.9, we can conclude that your "
        "requirements are unsatisfiable.\n")
    assert top is None or top.entry.id != "ARL-E270"


def test_a_runtime_reason_that_is_not_memory_is_not_an_npu_oom(explain_text):
    _, top = explain_text("rtMalloc execution failed, reason=driver error:resource alloc fail\n")
    assert top is None or top.entry.id != "ARL-E400"


def test_an_actor_on_a_node_stopped_on_purpose_is_not_a_dead_node(explain_text):
    _, top = explain_text("The actor died because its node has died. Node Id: 1f0b0cd6a3c54c4d\n"
                          "\tthe actor's node was terminated expectedly: received SIGTERM\n")
    assert top is None or top.entry.id != "ARL-E139"


def test_a_custom_op_namespace_without_the_op_is_not_torch_npu_too_old(explain_text):
    # vllm-ascend's own kernels (torch.ops._C_ascend) missing is a build problem, not an old torch_npu.
    _, top = explain_text("AttributeError: '_OpNamespace' '_C_ascend' object has no attribute 'npu_apply_top_k_top_p'\n")
    assert top is None or top.entry.id != "ARL-E313"
