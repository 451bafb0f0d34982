"""Readings added by helper k47data (2026-12-06) while probing public threads of data and model files, verl / Hydra /
OmegaConf config, user code, Ray and memory failures for classes explain did not name. Each test input is a short
excerpt in our own words around the exact emitted message; each class also has a near miss (similar words, another
failure).

- ARL-E4560: Arrow's Parquet reader cannot rebuild a nested column from a chunked child (reader.cc NotImplemented).
- ARL-E4561: None into a non-Optional field of a typed OmegaConf config (nodes.py, dictconfig.py, listconfig.py).
- ARL-E4562: a DataLoader worker killed by a native crash (SIGSEGV / SIGFPE / abort; torch/csrc/DataLoader.cpp).
- ARL-E4563: transformers refusing to save a generation config with sampling flags and do_sample false.
- ARL-E4564: a ProcessPoolExecutor worker died abruptly (BrokenProcessPool; CPython concurrent/futures/process.py).
- ARL-E4565: a request to a local / in-cluster server routed through the environment's HTTP proxy (urllib3 MaxRetryError).
- ARL-E4566: asyncio.Condition given a Lock of another event loop (Lib/asyncio/locks.py, Python <= 3.10.0).
- ARL-E4567: an uncaught std::bad_alloc (libstdc++ vterminate.cc): host memory ran out in native code.
- ARL-E4568: a datasets map / filter worker died (py_utils.py iflatmap_unordered), e.g. verl's over-long prompt filter.
- ARL-E4569: verl's recipe/ submodule not fetched, or a recipe moved (No module named 'recipe...').
- ARL-E4570: a package module run as a plain script, so its relative imports fail (importlib _bootstrap.py).
- DRV-pickle-empty (analyzer, catalog/analyzers/data.py EmptyPickle): torch.load / pickle of an empty or truncated file.
- ARL-E1689 widened: pyarrow type inference over Python values mixing lists / dicts and scalars (inference.cc).
- ARL-E108 widened: the Hub's raw "Repository Not Found for url" for a model id (huggingface_hub _http.py).
- ARL-E162 widened: Arrow refusing to merge / concatenate differing schemas (type.cc Field::MergeWith, table.cc ConcatenateTables).
- ARL-E141 widened: transformers' "Unable to load weights from pytorch checkpoint file" (modeling_utils.py load_state_dict).
- ARL-E4130 widened: Ray 2.x's older NODE_DIED wording "Task failed due to the node dying" (direct_task_transport.cc).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)


# ARL-E4560 ---------------------------------------------------------------------------------------------------------

def test_parquet_nested_chunked_is_e4560():
    for text in (
        "pyarrow.lib.ArrowNotImplementedError: Nested data conversions not implemented for chunked array outputs\n",
        "(TaskRunner pid=812) Error reading parquet file /data/train.parquet: Nested data conversions not implemented "
        "for chunked array outputs\n",
        "terminate called after throwing an instance of 'parquet::ParquetStatusException'\n"
        "  what():  NotImplemented: Nested data conversions not implemented for chunked array outputs\n",
        "pyarrow.lib.ArrowNotImplementedError: Nested data conversions not implemented for chunked array outputs\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "datasets.exceptions.DatasetGenerationError: An error occurred while generating the dataset\n",
    ):
        assert _id(text) == "ARL-E4560", text


def test_other_arrow_not_implemented_is_not_e4560():
    # Another NotImplemented of the same reader (a nested type Arrow cannot read at all) is not a chunking problem.
    for text in (
        "pyarrow.lib.ArrowNotImplementedError: Lists of structs not yet supported\n",
        "pyarrow.lib.ArrowInvalid: Parquet magic bytes not found in footer. Either the file is corrupted or this is "
        "not a parquet file.\n",
    ):
        assert _id(text) != "ARL-E4560", text


# ARL-E4561 ---------------------------------------------------------------------------------------------------------

def test_none_into_non_optional_field_is_e4561():
    for text in (
        "omegaconf.errors.ValidationError: Incompatible value 'None' for field of type 'int'\n"
        "    full_key: ppo_mini_batch_size\n    object_type=FSDPActorConfig\n",
        "omegaconf.errors.ValidationError: Incompatible value 'None' for field of type 'str'\n"
        "    full_key: checkpointing.checkpoint_dir\n",
        "omegaconf.errors.InterpolationValidationError: Non optional field cannot be assigned None\n"
        "    full_key: y\n    object_type=Foo\n",
        "omegaconf.errors.ValidationError: field 'model' is not Optional\n    full_key: model\n",
        "omegaconf.errors.ValidationError: bar[1] is not optional and cannot be assigned None\n",
    ):
        assert _id(text) == "ARL-E4561", text


def test_wrong_type_value_is_not_e4561():
    # A value of the wrong type (not None) is ARL-E792; a missing mandatory value is ARL-E176.
    assert _id("omegaconf.errors.ValidationError: Value 'abc' of type 'str' could not be converted to Integer\n"
               "    full_key: data.train_batch_size\n") == "ARL-E792"
    assert _id("omegaconf.errors.ValidationError: Incompatible value 'abc' for field of type 'int'\n") != "ARL-E4561"


# ARL-E1689 widened -------------------------------------------------------------------------------------------------

def test_pyarrow_inference_mixing_lists_and_scalars_is_e1689():
    for text in (
        "pyarrow.lib.ArrowInvalid: cannot mix list and non-list, non-null values\n",
        "pyarrow.lib.ArrowInvalid: ('cannot mix struct and non-struct, non-null values', 'Conversion failed for "
        "column extra_info with type object')\n",
    ):
        assert _id(text) == "ARL-E1689", text


def test_mixed_scalar_types_unrelated_is_not_e1689():
    assert _id("pyarrow.lib.ArrowInvalid: Column 2 named answer expected length 1000 but got length 999\n") != "ARL-E1689"


# ARL-E4562 ---------------------------------------------------------------------------------------------------------

def test_dataloader_worker_native_crash_is_e4562():
    for text in (
        "ERROR: Unexpected segmentation fault encountered in worker.\n",
        "RuntimeError: DataLoader worker (pid 7699) is killed by signal: Segmentation fault. Details are lost due to "
        "multiprocessing. Rerunning with num_workers=0 may give better error trace.\n",
        "ERROR: Unexpected floating-point exception encountered in worker.\n",
        "RuntimeError: DataLoader worker (pid 1871778) is killed by signal: Aborted. \n",
        "ERROR: Unexpected segmentation fault encountered in worker.\n"
        "RuntimeError: DataLoader worker (pid 624) is killed by signal: Segmentation fault. \n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        "RuntimeError: DataLoader worker (pid(s) 624) exited unexpectedly\n",
    ):
        assert _id(text) == "ARL-E4562", text


def test_dataloader_worker_bus_error_or_kill_is_not_e4562():
    # SIGBUS is /dev/shm (ARL-E015); SIGKILL is host memory (ARL-E2772).
    assert _id("ERROR: Unexpected bus error encountered in worker. This might be caused by insufficient shared "
               "memory (shm).\n") == "ARL-E015"
    assert _id("RuntimeError: DataLoader worker (pid 25902) is killed by signal: Killed.\n") == "ARL-E2772"


# ARL-E4130 widened -------------------------------------------------------------------------------------------------

def test_older_ray_node_dying_wording_is_e4130():
    text = ("ray.exceptions.NodeDiedError: Task failed due to the node dying.\n\n"
            "The node (IP: 10.0.5.85, node ID: f6f412d7209f205c0204fe03268c0875dbe4a8545916d949ef67e6b1) where this task "
            "was running crashed unexpectedly. This can happen if: (1) the instance where the node was running failed, "
            "(2) raylet crashes unexpectedly (OOM, preempted node, etc).\n\n"
            "To see more information about the crash, use `ray logs raylet.out -ip 10.0.5.85`\n")
    assert _id(text) == "ARL-E4130"


def test_worker_crash_on_a_live_node_is_not_e4130():
    text = ("The worker died unexpectedly while executing this task. Check python-core-worker-*.log files for more "
            "information.\n")
    assert _id(text) != "ARL-E4130"


# ARL-E4563 ---------------------------------------------------------------------------------------------------------

def test_generation_config_refused_at_save_is_e4563():
    for text in (
        "ValueError: [UserWarning('`do_sample` is set to `False`. However, `temperature` is set to `0.9` -- this flag "
        "is only used in sample-based generation modes. You should set `do_sample=True` or unset `temperature`.')]\n\n"
        "During handling of the above exception, another exception occurred:\n\n"
        "ValueError: The generation config instance is invalid -- `.validate()` throws warnings and/or exceptions. "
        "Fix these issues to save the configuration.\n\nThrown during validation:\n[UserWarning('...')]\n",
        "ValueError: GenerationConfig is invalid: \n- `temperature`: `do_sample` is set to `False`. However, "
        "`temperature` is set to `0.6` -- this flag is only used in sample-based generation modes. You should set "
        "`do_sample=True` or unset `temperature`.\n\nFix these issues to save the configuration.\n",
    ):
        assert _id(text) == "ARL-E4563", text


def test_generation_flag_warnings_on_load_are_not_e4563():
    # Loading (or 4.32-4.33's save) only warns; a healthy run prints these.
    for text in (
        "UserWarning: `do_sample` is set to `False`. However, `temperature` is set to `0.6` -- this flag is only used "
        "in sample-based generation modes. You should set `do_sample=True` or unset `temperature`. This was detected "
        "when initializing the generation config instance, which means the corresponding file may hold incorrect "
        "parameterization and should be fixed.\n",
        "UserWarning: The generation config instance is invalid -- `.validate()` throws warnings and/or exceptions. "
        "Fix these issues to save the configuration. This warning will be raised to an exception in v4.34.\n",
        "The following generation flags are not valid and may be ignored: ['temperature', 'top_k'].\n",
    ):
        assert _id(text) != "ARL-E4563", text


# ARL-E108 widened --------------------------------------------------------------------------------------------------

def test_hub_repository_not_found_for_a_model_is_e108():
    for text in (
        "huggingface_hub.errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-68a1df1f-3274fba0)\n\n"
        "Repository Not Found for url: https://huggingface.co/api/models/xcodec_tps25_0215/revision/main.\n"
        "Please make sure you specified the correct `repo_id` and `repo_type`.\n",
        "huggingface_hub.utils._errors.RepositoryNotFoundError: 401 Client Error. (Request ID: Root=1-67ff8411)\n\n"
        "Repository Not Found for url: https://huggingface.co/vicuna-13b-v1.3/resolve/main/tokenizer.model.\n",
        "Repository Not Found for url: https://hf-mirror.com/Qwen/Qwen3.5-27B-AWQ/resolve/main/config.json.\n",
    ):
        assert _id(text) == "ARL-E108", text


def test_hub_entry_not_found_is_not_e108():
    # The repository exists; one file is missing from it (often looked up and handled).
    text = ("huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-6a)\n\n"
            "Entry Not Found for url: https://huggingface.co/Qwen/Qwen2.5-7B-Instruct/resolve/main/adapter_config.json.\n")
    assert _id(text) != "ARL-E108"


# ARL-E4564 ---------------------------------------------------------------------------------------------------------

def test_broken_process_pool_is_e4564():
    for text in (
        "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated abruptly while "
        "the future was running or pending.\n",
        "BrokenProcessPool: A child process terminated abruptly, the process pool is not usable anymore\n",
        "(TaskRunner pid=3312) Error in reward computation: A process in the process pool was terminated abruptly "
        "while the future was running or pending.\n",
    ):
        assert _id(text) == "ARL-E4564", text


def test_broken_thread_pool_is_not_e4564():
    # A thread pool whose initializer raised is another failure (its own error is above it).
    text = ("concurrent.futures.thread.BrokenThreadPool: A thread initializer failed, the thread pool is not usable "
            "anymore\n")
    assert _id(text) != "ARL-E4564"


# ARL-E4565 ---------------------------------------------------------------------------------------------------------

def test_local_server_request_through_proxy_is_e4565():
    for text in (
        "requests.exceptions.ProxyError: HTTPConnectionPool(host='10.1.2.3', port=3128): Max retries exceeded with "
        "url: http://0.0.0.0:8000/health/ (Caused by ProxyError('Unable to connect to proxy', "
        "NewConnectionError('<urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: "
        "[Errno 111] Connection refused')))\n",
        "urllib3.exceptions.MaxRetryError: HTTPConnectionPool(host='proxy.corp', port=8080): Max retries exceeded with "
        "url: http://127.0.0.1:30000/generate (Caused by ProxyError('Cannot connect to proxy.', "
        "RemoteDisconnected('Remote end closed connection without response')))\n",
    ):
        assert _id(text) == "ARL-E4565", text


def test_proxy_error_for_a_public_host_is_not_e4565():
    # A proxy that cannot reach the Hub is the Hub-unreachable class, not a local server routed through it.
    text = ("requests.exceptions.ProxyError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded "
            "with url: /api/models/Qwen/Qwen2.5-7B-Instruct (Caused by ProxyError('Unable to connect to proxy', "
            "OSError('Tunnel connection failed: 407 Proxy Authentication Required')))\n")
    assert _id(text) != "ARL-E4565"


# ARL-E4566 ---------------------------------------------------------------------------------------------------------

def test_condition_lock_loop_mismatch_is_e4566():
    for text in (
        "ValueError: loop argument must agree with lock\n",
        "ray.exceptions.RayTaskError(ValueError): ray::MessageQueue.__init__() (pid=77, ip=10.0.0.2)\n"
        "  File \"/home/user/verl/recipe/fully_async_policy/message_queue.py\", line 52, in __init__\n"
        "    self._consumer_condition = asyncio.Condition(self._lock)\n"
        "ValueError: loop argument must agree with lock\n",
    ):
        assert _id(text) == "ARL-E4566", text


def test_future_on_another_loop_is_not_e4566():
    # The same kind of mistake on a Future raises another RuntimeError, which this entry does not claim.
    text = ("RuntimeError: Task <Task pending name='Task-89' coro=<_run_task_with_lock()>> got Future <Future pending> "
            "attached to a different loop\n")
    assert _id(text) != "ARL-E4566"


# ARL-E162 widened --------------------------------------------------------------------------------------------------

def test_arrow_schema_merge_and_concat_mismatch_is_e162():
    for text in (
        "pyarrow.lib.ArrowInvalid: Unable to merge: Field M_SECTION_ID has incompatible types: int16 vs int64\n",
        "pyarrow.lib.ArrowTypeError: Unable to merge: Field prompt has incompatible types: "
        "list<element: struct<content: string, role: string>> vs string\n",
        "pyarrow.lib.ArrowInvalid: Schema at index 1 was different: \ncol1: int64\ncol2: string\nvs\ncol2: string\n"
        "col1: int64\n",
    ):
        assert _id(text) == "ARL-E162", text


def test_arrow_column_length_mismatch_is_not_e162():
    text = "pyarrow.lib.ArrowInvalid: Column 1 named a expected length 6 but got length 4\n"
    assert _id(text) != "ARL-E162"


# ARL-E4567 ---------------------------------------------------------------------------------------------------------

def test_cpp_bad_alloc_is_e4567():
    for text in (
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nAborted (core dumped)\n",
        "(WorkerDict pid=2262481) terminate called after throwing an instance of 'std::bad_alloc'\n"
        "(WorkerDict pid=2262481)   what():  std::bad_alloc\n",
    ):
        assert _id(text) == "ARL-E4567", text


def test_other_uncaught_cpp_exception_is_not_e4567():
    text = ("terminate called after throwing an instance of 'c10::Error'\n"
            "  what():  NPU error, error code is 507035\n")
    assert _id(text) != "ARL-E4567"


# ARL-E4568 ---------------------------------------------------------------------------------------------------------

def test_datasets_map_worker_died_is_e4568():
    for text in (
        "RuntimeError: One of the subprocesses has abruptly died during map operation.To debug the error, disable "
        "multiprocessing.\n",
        "(TaskRunner pid=9121) RuntimeError: One of the subprocesses has abruptly died during map operation.To debug "
        "the error, disable multiprocessing.\n",
        "RuntimeError: Unsloth: Process crashed: One of the subprocesses has abruptly died during map operation.To "
        "debug the error, disable multiprocessing.\nTry reducing num_proc (currently 16) to a lower value.\n",
    ):
        assert _id(text) == "ARL-E4568", text


def test_map_function_error_is_not_e4568():
    # An exception raised inside the mapped function is reported with its own traceback, not as a died worker.
    text = ("multiprocess.pool.RemoteTraceback: \nTraceback (most recent call last):\n"
            "KeyError: 'prompt'\n")
    assert _id(text) != "ARL-E4568"


# DRV-pickle-empty (analyzer) ---------------------------------------------------------------------------------------

def test_torch_load_of_an_empty_file_is_pickle_empty():
    text = ("Traceback (most recent call last):\n"
            "  File \"train.py\", line 56, in load_weight\n"
            "    model.load_state_dict(torch.load(weight_file)['model'])\n"
            "  File \"/opt/conda/lib/python3.10/site-packages/torch/serialization.py\", line 1040, in load\n"
            "    return _legacy_load(opened_file, map_location, pickle_module, **pickle_load_args)\n"
            "  File \"/opt/conda/lib/python3.10/site-packages/torch/serialization.py\", line 1258, in _legacy_load\n"
            "    magic_number = pickle_module.load(f, **pickle_load_args)\n"
            "EOFError: Ran out of input\n")
    top = _top(text)
    assert (top.entry.id, top.kind) == ("DRV-pickle-empty", "model-weights-corrupt")
    assert _id("_pickle.UnpicklingError: pickle data was truncated\n") == "DRV-pickle-empty"


def test_multiprocessing_eof_is_not_pickle_empty():
    # A spawned child whose parent went away reads an empty pipe: the same words, not a file.
    text = ("Traceback (most recent call last):\n"
            "  File \"/usr/lib/python3.10/multiprocessing/spawn.py\", line 126, in _main\n"
            "    self = reduction.pickle.load(from_parent)\n"
            "EOFError: Ran out of input\n")
    assert _id(text) != "DRV-pickle-empty"


# ARL-E4569 ---------------------------------------------------------------------------------------------------------

def test_verl_recipe_missing_is_e4569():
    for text in (
        "/usr/bin/python3: Error while finding module specification for 'recipe.dapo.main_dapo' "
        "(ModuleNotFoundError: No module named 'recipe.dapo')\n",
        "ModuleNotFoundError: No module named 'recipe'\n",
        "(TaskRunner pid=4112) ModuleNotFoundError: No module named 'recipe.fully_async_policy'\n",
    ):
        assert _id(text) == "ARL-E4569", text


def test_other_missing_module_is_not_e4569():
    assert _id("ModuleNotFoundError: No module named 'recipes'\n") != "ARL-E4569"
    assert _id("ModuleNotFoundError: No module named 'verl.recipe'\n") != "ARL-E4569"


# ARL-E4570 ---------------------------------------------------------------------------------------------------------

def test_relative_import_in_a_script_is_e4570():
    for text in (
        "Traceback (most recent call last):\n  File \"/workspace/verl/recipe/dapo/main_dapo.py\", line 26, in <module>\n"
        "    from .dapo_ray_trainer import RayDAPOTrainer\n"
        "ImportError: attempted relative import with no known parent package\n",
        "ImportError: attempted relative import with no known parent package\n",
    ):
        assert _id(text) == "ARL-E4570", text


def test_relative_import_beyond_top_level_is_not_e4570():
    # Going above the top-level package is a different mistake (too many dots / the wrong working directory).
    assert _id("ImportError: attempted relative import beyond top-level package\n") != "ARL-E4570"


# ARL-E141 widened --------------------------------------------------------------------------------------------------

def test_transformers_unable_to_load_bin_shard_is_e141():
    for text in (
        "OSError: Unable to load weights from pytorch checkpoint file for 'model_cache/models--x/snapshots/f99/"
        "pytorch_model-00039-of-00061.bin' at 'model_cache/models--x/snapshots/f99/pytorch_model-00039-of-00061.bin'. "
        "If you tried to load a PyTorch model from a TF 2.0 checkpoint, please set from_tf=True.\n",
        "OSError: Unable to load weights from pytorch checkpoint file. If you tried to load a PyTorch model from a TF 2.0 "
        "checkpoint, please set from_tf=True.\n",
    ):
        assert _id(text) == "ARL-E141", text


def test_missing_weight_file_is_not_e141():
    text = ("OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or "
            "flax_model.msgpack found in directory /home/user/model.\n")
    assert _id(text) != "ARL-E141"
