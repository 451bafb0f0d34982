"""Readings added by helper k45rt (2026-12-05/06) while probing public threads of the distributed runtime (Ray, HCCL,
memory, verl config, data) for failure classes explain did not name. Each test input is a short excerpt in our own
words around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E4120: the driver's node IP matches no raylet (GlobalStateAccessor::GetNodeToConnectForDriver's NotFound).
- ARL-E4121: the raylet exited because one of its agents died (agent_manager.cc, both releases' wordings).
- ARL-E4122: two Ray components given the same port (RayParams.update_pre_selected_port).
- ARL-E4123: unpickling a name saved from the saving script's __main__ (CPython's unpickler).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id, top

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4120 ---------------------------------------------------------------------------------------------------------

def test_driver_ip_matching_no_raylet_is_e4120():
    text = ("2025-03-02 10:11:12,345\tINFO worker.py:1654 -- Connecting to existing Ray cluster at address: 10.8.0.1:6379...\n"
            "Traceback (most recent call last):\n"
            "  File \"main_ppo.py\", line 40, in main\n"
            "    ray.init(address=\"10.8.0.1:6379\")\n"
            "RuntimeError: This node has an IP address of 172.18.0.5, and Ray expects this IP address to be either the "
            "GCS address or one of the Raylet addresses. Connected to GCS at 10.8.0.1 and found raylets at 10.8.0.1, "
            "10.8.0.2 but none of these match this node's IP 172.18.0.5. Are any of these actually a different IP "
            "address for the same node?You might need to provide --node-ip-address to specify the IP address that the "
            "head should use when sending to this node.\n")
    assert _id(text) == "ARL-E4120"


def test_driver_ip_info_fallback_line_is_not_e4120():
    # The other branch: Ray falls back to the head's raylet and carries on (INFO), then something else fails.
    text = ("[2025-03-02 10:11:12,261 I 7271 7271] global_state_accessor.cc:432: This node has an IP address of "
            "10.6.0.55, but we cannot find a local Raylet with the same address. This can happen when you connect to "
            "the Ray cluster with a different IP address or when connecting to a container.\n"
            "ValueError: Total available GPUs 0 is less than total desired GPUs 8\n")
    assert _id(text) != "ARL-E4120"


# ARL-E4121 ---------------------------------------------------------------------------------------------------------

def test_raylet_exits_with_named_agent_is_e4121():
    text = ("(raylet, ip=10.0.3.7) [2025-01-09 08:00:01,100 E 211 250] (raylet) agent_manager.cc:83: The raylet exited "
            "immediately because one Ray agent failed, agent_name = runtime_env_agent.\n"
            "(raylet, ip=10.0.3.7) The raylet fate shares with the agent. This can happen because\n"
            "(raylet, ip=10.0.3.7) - The version of `grpcio` doesn't follow Ray's requirement. Agent can segfault with "
            "the incorrect `grpcio` version. Check the grpcio version `pip freeze | grep grpcio`.\n"
            "(raylet, ip=10.0.3.7) - The agent is killed by the OS (e.g., out of memory).\n"
            "ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n")
    assert _id(text) == "ARL-E4121"


def test_raylet_exits_older_wording_is_e4121():
    text = ("[2022-05-17 11:03:58,975 E 14628 12592] (raylet) agent_manager.cc:107: The raylet exited immediately "
            "because the Ray agent failed. The raylet fate shares with the agent. This can happen because the Ray "
            "agent was unexpectedly killed or failed. See `dashboard_agent.log` for the root cause.\n")
    assert _id(text) == "ARL-E4121"


def test_raylet_killed_without_agent_is_not_e4121():
    text = ("(raylet) [2025-01-09 08:00:01,100 E 1 1] (raylet) main.cc:100: Raylet is terminated. Termination is "
            "unexpected. Possible reasons include: (1) SIGKILL by the user or system OOM killer, (2) Invalid memory "
            "access from Raylet causing SIGSEGV or SIGBUS, (3) Other termination signals.\n")
    assert _id(text) != "ARL-E4121"


# ARL-E4122 ---------------------------------------------------------------------------------------------------------

def test_ray_component_port_collision_is_e4122():
    for comp, port in (("worker_ports", 18203), ("dashboard_agent_http", 52365), ("metrics_export", 60096)):
        text = ("  File \"/opt/venv/lib/python3.10/site-packages/ray/_private/parameter.py\", line 351, in "
                "update_pre_selected_port\n"
                f"ValueError: Ray component {comp} is trying to use a port number {port} that is used by other "
                "components.\n"
                f"Port information: {{'gcs': 'random', 'dashboard_agent_grpc': {port}, 'dashboard_agent_http': 52365, "
                "'worker_ports': '9998 ports from 10002 to 19999'}\n"
                "If you allocate ports, please make sure the same port is not used by multiple components.\n")
        assert _id(text) == "ARL-E4122", comp


def test_plain_address_in_use_is_not_e4122():
    text = ("Traceback (most recent call last):\n"
            "  File \"serve.py\", line 9, in <module>\n"
            "    sock.bind((\"0.0.0.0\", 52365))\n"
            "OSError: [Errno 98] Address already in use\n")
    assert _id(text) != "ARL-E4122"


# ARL-E4123 ---------------------------------------------------------------------------------------------------------

def test_unpickle_main_class_is_e4123():
    for where in ("from 'eval_ckpt.py'>", "(built-in)>"):
        text = ("Traceback (most recent call last):\n"
                "  File \"eval_ckpt.py\", line 12, in <module>\n"
                "    state = torch.load(path, weights_only=False)\n"
                "  File \"/usr/lib/python3.10/site-packages/torch/serialization.py\", line 1360, in _load\n"
                "    result = unpickler.load()\n"
                f"AttributeError: Can't get attribute 'AverageMeter' on <module '__main__' {where}\n")
        assert _id(text) == "ARL-E4123", where


def test_unpickle_name_missing_from_library_module_is_not_e4123():
    # A name missing from an installed package's module is a version mismatch of that package, not the __main__ case.
    text = ("Traceback (most recent call last):\n"
            "  File \"load.py\", line 3, in <module>\n"
            "    obj = pickle.load(f)\n"
            "AttributeError: Can't get attribute 'Qwen2TokenizerFast' on <module 'transformers.models.qwen2' from "
            "'/opt/venv/lib/python3.10/site-packages/transformers/models/qwen2/__init__.py'>\n")
    assert _id(text) != "ARL-E4123"


# ARL-E4124 ---------------------------------------------------------------------------------------------------------

def test_job_and_driver_runtime_env_conflict_is_e4124():
    text = ("2025-06-01 12:00:00,000\tINFO worker.py:1554 -- Using address 10.1.0.4:6379 set in the environment variable RAY_ADDRESS\n"
            "Traceback (most recent call last):\n"
            "  File \"verl/trainer/main_ppo.py\", line 60, in run_ppo\n"
            "    ray.init(runtime_env=get_ppo_ray_runtime_env(), num_cpus=None)\n"
            "ValueError: Failed to merge the Job's runtime env {'env_vars': {'NCCL_DEBUG': 'INFO'}} with a ray.init's "
            "runtime env {'env_vars': {'NCCL_DEBUG': 'WARN'}} because of a conflict. Specifying the same runtime_env "
            "fields or the same environment variable keys is not allowed. Use RAY_OVERRIDE_JOB_RUNTIME_ENV=1 to instruct "
            "Ray to combine Job and Driver's runtime environment in the event of a conflict.\n")
    assert _id(text) == "ARL-E4124"


def test_runtime_env_setup_failure_is_not_e4124():
    # The runtime env was merged fine; installing it on a worker failed (another class).
    text = ("ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
            "Could not create the actor because its associated runtime env failed to be created.\n"
            "RuntimeError: Failed to install pip requirements:\n"
            "ERROR: Could not find a version that satisfies the requirement verl==99.0\n")
    assert _id(text) != "ARL-E4124"


# ARL-E4125 ---------------------------------------------------------------------------------------------------------

def test_dashboard_port_taken_is_e4125():
    texts = (
        "  File \"/opt/venv/lib/python3.10/site-packages/ray/_private/services.py\", line 1243, in start_api_server\n"
        "ValueError: Failed to bind to 0.0.0.0:8265 because it's already occupied. You can use `ray start "
        "--dashboard-port ...` or `ray.init(dashboard_port=...)` to select a different port.\n",
        "Exception: Failed to find a valid port for dashboard after 0 retries: [Errno 98] error while attempting to "
        "bind on address ('0.0.0.0', 8265): address already in use\n",
    )
    for text in texts:
        assert _id(text) == "ARL-E4125", text[:60]


def test_gcs_port_taken_is_not_e4125():
    text = ("[2025-06-01 12:00:00,000 E 10 10] grpc_server.cc:120: Failed to start the grpc server. The specified port "
            "is 6379. This means that Ray's core components will not be able to function correctly. If the server "
            "startup error message is `Address already in use`, it indicates the server fails to start because the "
            "port is already used by other processes (such as --node-manager-port, --object-manager-port, --gcs-server-port, "
            "and ports between --min-worker-port, --max-worker-port). Try running sudo lsof -i :6379 to check if there "
            "are other processes listening to the port.\n")
    assert _id(text) != "ARL-E4125"


# ARL-E4126 ---------------------------------------------------------------------------------------------------------

def test_runtime_env_package_gone_from_gcs_is_e4126():
    texts = (
        "ray.exceptions.RuntimeEnvSetupError: Failed to set up runtime environment.\n"
        "Traceback (most recent call last):\n"
        "  File \"/opt/conda/lib/python3.10/site-packages/ray/_private/runtime_env/packaging.py\", line 742, in "
        "download_and_unpack_package\n"
        "    raise IOError(\n"
        "OSError: Failed to download runtime_env file package gcs://_ray_pkg_62304e6af9aab441.zip from the GCS to the "
        "Ray worker node. The package may have prematurely been deleted from the GCS due to a long upload time or a "
        "problem with Ray. Try setting the environment variable RAY_RUNTIME_ENV_TEMPORARY_REFERENCE_EXPIRATION_S  to a "
        "value larger than the upload time in seconds (the default is 600). If this fails, try re-running after making "
        "any change to a file in the file package.\n",
        "OSError: Failed to fetch URI gcs://_ray_pkg_23ac9932199ad6d4.zip from GCS.\n",
    )
    for text in texts:
        assert _id(text) == "ARL-E4126", text[:80]


def test_working_dir_over_size_limit_is_not_e4126():
    text = ("ValueError: Package size (612.33MiB) exceeds the maximum size of 512.00MiB. You can exclude large files "
            "using the 'excludes' option to the runtime_env or provide a remote URI of a zip file using protocols such "
            "as 's3://', 'https://' and so on.\n")
    assert _id(text) != "ARL-E4126"


# ARL-E4127 ---------------------------------------------------------------------------------------------------------

def test_dashboard_on_minimal_ray_is_e4127():
    text = ("2025-02-03 09:00:00,000\tERROR services.py:1257 -- --include-dashboard is not supported when minimal ray "
            "is used. Download ray[default] to use the dashboard.\n"
            "Traceback (most recent call last):\n"
            "  File \"/opt/venv/lib/python3.10/site-packages/ray/_private/services.py\", line 1260, in start_api_server\n"
            "Exception: Cannot include dashboard with missing packages.\n")
    assert _id(text) == "ARL-E4127"


def test_dashboard_head_crash_is_not_e4127():
    # The dashboard was installed and started, then died: the agent / raylet class, not the missing extra.
    text = ("(raylet) [2025-02-03 09:00:00,000 E 12 40] (raylet) agent_manager.cc:83: The raylet exited immediately "
            "because one Ray agent failed, agent_name = dashboard_agent/424238335.\n")
    assert _id(text) != "ARL-E4127"


# verl's checkpoint-resume checks (analyzers/own_checks.yaml) -------------------------------------------------------

_kind = functools.partial(top, CATALOG)


def test_sft_resume_path_without_global_step_is_the_resume_check():
    text = ("  File \"verl/utils/checkpoint/checkpoint_handler.py\", line 216, in _determine_resume_path\n"
            "    assert \"global_step_\" in resume_from_path, \"resume_from_path must specify the global_steps\"\n"
            "AssertionError: resume_from_path must specify the global_steps\n")
    assert _kind(text) == ("DRV-own-check", "verl-resume-path-not-global-step")


def test_resume_path_that_does_not_exist_is_read():
    for mode, words in (("resume_path", "must be an existing path"), ("auto", "must be null or an existing path")):
        text = f"AssertionError: resume_from_path {words} when resume_mode is '{mode}'\n"
        assert _kind(text) == ("DRV-own-check", "verl-resume-path-missing"), mode


def test_unknown_resume_mode_is_read():
    text = "ValueError: Invalid resume_mode: latest. Must be 'auto', 'disable', or 'resume_path'\n"
    assert _kind(text) == ("DRV-own-check", "verl-resume-mode-unknown")


def test_checkpoint_folder_missing_on_load_is_not_the_resume_mode_check():
    text = "AssertionError: Checkpoint path /ckpt/global_step_50/actor does not exist.\n"
    assert _kind(text) not in (("DRV-own-check", "verl-resume-mode-unknown"), ("DRV-own-check", "verl-resume-path-missing"))


# ARL-E4128 ---------------------------------------------------------------------------------------------------------

def test_grpc_message_over_cap_is_e4128():
    texts = (
        "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
        "\tstatus = StatusCode.RESOURCE_EXHAUSTED\n"
        "\tdetails = \"Received message larger than max (218771147 vs. 104857600)\"\n",
        "F0220 22:58:56.524958 230891520 direct_task_transport.cc:154] Lost connection with local raylet. Error: "
        "IOError: 8: Received message larger than max (10899141 vs. 4194304)\n",
        "\tdetails = \"Sent message larger than max (124329006 vs. 104857600)\"\n",
    )
    for text in texts:
        assert _id(text) == "ARL-E4128", text[:70]


def test_grpc_unavailable_is_not_e4128():
    text = ("grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n"
            "\tstatus = StatusCode.UNAVAILABLE\n"
            "\tdetails = \"failed to connect to all addresses\"\n")
    assert _id(text) != "ARL-E4128"


# ARL-E4129 ---------------------------------------------------------------------------------------------------------

def test_runtime_env_env_var_not_string_is_e4129():
    texts = (
        "  File \"/opt/venv/lib/python3.10/site-packages/ray/_private/runtime_env/validation.py\", line 343, in "
        "parse_and_validate_env_vars\n"
        "TypeError: runtime_env['env_vars'] must be of type Dict[str, str], but the value 1800 is of type <class 'int'>\n",
        "TypeError: runtime_env['env_vars'] must be of type Dict[str, str], but the value None is of type <class "
        "'NoneType'>\n",
        "TypeError: runtime_env['env_vars'] must be of type Dict[str, str]\n",
    )
    for text in texts:
        assert _id(text) == "ARL-E4129", text[-60:]


def test_runtime_env_pip_field_type_is_not_e4129():
    text = "TypeError: runtime_env['pip'] must be of type str or List[str], got <class 'dict'>\n"
    assert _id(text) != "ARL-E4129"


# ARL-E4130 ---------------------------------------------------------------------------------------------------------

def test_task_on_dead_node_is_e4130():
    texts = (
        "ray.exceptions.NodeDiedError: Task failed due to the node (where this task was running)  was dead or "
        "unavailable.\n\nThe node IP: 10.0.2.9, node ID: 74673a353f8e0caba3dc\n\nThis can happen if the instance where "
        "the node was running failed, the node was preempted, or raylet crashed unexpectedly (e.g., due to OOM) etc.\n",
        "ray.exceptions.NodeDiedError: Task failed because the node it was running on is dead or unavailable. Node IP: "
        "10.0.2.9, node ID: e55b8ca03ebf. This can happen if the node was preempted, had a hardware failure, or its "
        "raylet crashed unexpectedly.\n",
    )
    for text in texts:
        assert _id(text) == "ARL-E4130", text[:60]


def test_actor_whose_owner_died_is_not_e4130():
    text = ("ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.\n"
            "The actor is dead because its owner has died. Owner Id: 01000000ffff Owner Ip address: 10.0.2.9 Owner "
            "worker exit type: SYSTEM_ERROR Worker exit detail: Owner's node has crashed.\n")
    assert _id(text) != "ARL-E4130"


# verl's loader of user code named in the config (analyzers/own_checks.yaml) ----------------------------------------

def test_custom_reward_file_missing_is_read_in_both_wordings():
    for line in ("FileNotFoundError: Reward function file '/home/user/rl/my_reward.py' not found.",
                 "FileNotFoundError: Custom module file not found: module_path='/home/user/rl/my_reward.py'"):
        text = ("  File \"verl/trainer/ppo/reward.py\", line 62, in get_custom_reward_fn\n" + line + "\n")
        assert _kind(text) == ("DRV-own-check", "verl-custom-code-file-missing"), line


def test_custom_reward_name_missing_is_read_in_both_wordings():
    for line in ("AttributeError: Reward function 'compute_score' not found in '/home/user/rl/my_reward.py'.",
                 "AttributeError: Object not found in module: object_name='compute_score', "
                 "module_path='/home/user/rl/my_reward.py'."):
        assert _kind(line + "\n") == ("DRV-own-check", "verl-custom-code-name-missing"), line


def test_builtin_reward_for_unknown_data_source_is_not_the_custom_code_check():
    text = "NotImplementedError: Reward function is not implemented for data_source='my_data'\n"
    assert _kind(text) not in (("DRV-own-check", "verl-custom-code-file-missing"),
                               ("DRV-own-check", "verl-custom-code-name-missing"))
