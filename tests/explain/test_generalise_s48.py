"""Readings the lead added in the seventeenth stop (2026-12-06).

- ARL-E4170: torch.distributed's default process group initialized twice in one process (distributed_c10d.py's
  init_process_group: ValueError in torch 2.x, RuntimeError in 1.x, the same words).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)


def test_default_process_group_twice_is_e4170():
    for text in (
        "ValueError: trying to initialize the default process group twice!\n",
        "RuntimeError: trying to initialize the default process group twice!\n",
        "(WorkerDict pid=2231) [rank1]: ValueError: trying to initialize the default process group twice!\n",
    ):
        assert _id(text) == "ARL-E4170", text


def test_a_process_group_never_initialized_is_not_e4170():
    text = ("RuntimeError: Default process group has not been initialized, please make sure to call "
            "init_process_group.\n")
    assert _id(text) not in (None, "ARL-E4170")


def test_a_sentence_naming_an_unknown_data_source_is_read_as_that_class():
    from kdata_helpers import first

    for text in ("data_source countdown is not supported\n", "Reward fails: unknown data_source for my custom dataset\n",
                 "自定义数据集的data_source不支持\n"):
        d = first(CATALOG, text)
        assert d is not None and d.entry.id == "DRV-named-in-words" and d.kind == "reward-data-source-unknown", text
    for text in ("I added a data_source column to my parquet and training works\n",):
        d = first(CATALOG, text)
        assert d is None or d.kind != "reward-data-source-unknown", text


def test_a_package_library_missing_its_own_symbol_is_two_releases_mixed():
    # alpha-zero-gomoku#28 (dev): torch's libtorch_cpu.so needs a c10 symbol, torch's own: another libtorch's libc10 was
    # loaded first (the reporter's libtorch for the C++ extension on LD_LIBRARY_PATH).
    from kdata_helpers import first

    text = ("ImportError: /opt/conda/lib/python3.10/site-packages/torch/lib/libtorch_cpu.so: undefined symbol: "
            "_ZNK3c1010TensorImpl23shallow_copy_and_detachERKNS_15VariableVersionEb\n")
    d = first(CATALOG, text)
    assert d is not None and d.entry.id == "DRV-package" and d.kind == "package-mismatch"
    assert "two torch releases" in d.entry.title and "LD_LIBRARY_PATH" in " ".join(d.entry.fix)
    # an extension of another package needing torch's symbol stays the extension / torch pair
    other = first(CATALOG, text.replace("torch/lib/libtorch_cpu.so", "flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so"))
    assert other is not None and "two torch releases" not in other.entry.title and "flash_attn_2_cuda" in other.entry.title


def test_a_pydantic_2_name_under_pydantic_1_is_pydantic_too_old():
    # wizardlm-248 (dev): vLLM's code imports RootModel, a pydantic 2 class; api_history.json now reads pydantic's wheels
    from kdata_helpers import first

    for name in ("RootModel", "field_validator", "ConfigDict"):
        d = first(CATALOG, f"ImportError: cannot import name '{name}' from 'pydantic' "
                           "(/usr/lib/python3.9/site-packages/pydantic/__init__.cpython-39-x86_64-linux-gnu.so)\n")
        assert d is not None and d.kind == "pydantic-too-old", name
    # a name both major lines export says nothing about which side is behind
    d = first(CATALOG, "ImportError: cannot import name 'validator' from 'pydantic'\n")
    assert d is not None and d.kind != "pydantic-too-old"


def test_an_extension_needing_a_torch_symbol_is_extension_torch_abi_mismatch():
    # flownet2-pytorch#79, VLM-R1#308 (dev): an extension's .so built against another torch
    from kdata_helpers import first

    for text in ("ImportError: /envs/x/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: "
                 "undefined symbol: _ZNK3c105Error4whatEv\n",
                 "ImportError: /home/user/.conda/envs/py3/lib/python3.6/site-packages/correlation_cuda-0.0.0-py3.6-linux-x86_64.egg/"
                 "correlation_cuda.cpython-36m-x86_64-linux-gnu.so: undefined symbol: _ZN2at5ErrorC1ENS_14SourceLocationESs\n"):
        d = first(CATALOG, text)
        assert d is not None and d.entry.id == "DRV-package" and d.kind == "extension-torch-abi-mismatch", text
    # an extension missing a symbol of CANN is not a torch pair
    d = first(CATALOG, "ImportError: /usr/local/lib/python3.10/site-packages/mindspeed/ops/npu_ops.so: undefined symbol: aclnnFooGetWorkspaceSize\n")
    assert d is None or d.kind != "extension-torch-abi-mismatch"


def test_nccl_own_cuda_allocation_failing_is_e4171():
    for text in ("misc/nvmlwrap.cc:200 NCCL WARN Cuda failure 'out of memory'\n",
                 "node1:2048:2101 [0] include/alloc.h:103 NCCL WARN Cuda failure 2 'out of memory'\n"):
        assert _id(text) == "ARL-E4171", text
    # the framework's own allocator running out is another failure
    assert _id("torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total "
               "capacity; 75.10 GiB already allocated)\n") != "ARL-E4171"
    assert _id("NCCL WARN Cuda failure 'invalid device ordinal'\n") != "ARL-E4171"


def test_an_old_rays_bare_unpickling_failure_is_e931():
    # ray#17936 (round 46's dev half): before Ray 1.7, from_bytes called pickle.loads bare; the traceback ends in its line
    text = ("ray.exceptions.RaySystemError: System error: __init__() missing 1 required positional argument: 'lock_file'\n"
            "traceback: Traceback (most recent call last):\n"
            '  File "/opt/conda/lib/python3.7/site-packages/ray/exceptions.py", line 28, in from_bytes\n'
            "    return pickle.loads(ray_exception.serialized_exception)\n")
    assert _id(text) == "ARL-E931"
    # the words quoted in prose are not the traceback's line
    assert _id("We call return pickle.loads(ray_exception.serialized_exception) ourselves and it works.\n") != "ARL-E931"
