"""Readings added by helper k55dist (2026-12-07) for torch.distributed as verl's FSDP / FSDP2 backend uses it: DeviceMesh
creation, FSDP1's FlatParameter / device checks, FSDP2's fully_shard checks, distributed checkpoint loading (pytorch
v2.7.1 sources) and verl's FSDP LoRA weight sync (verl v0.6.0). Each test input is a short excerpt around the exact
emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5840: DeviceMesh creating the default group with a world size that is not a multiple of the host's devices
  ("DeviceMesh only support homogeneous hardware, but found 12 ranks and 8 npu devices!"); before, nothing.
- ARL-E5841: a mesh larger than the world ("Mesh should not be bigger than default world size 8, but found 16 ranks!",
  and the older form without the world size); before, nothing.
- ARL-E5843: FSDP1 with no accelerator ("FSDP needs a non-CPU accelerator device, but no accelerator device is
  detected."); before, nothing.
- ARL-E5844: FSDP2 parameters left on meta at the first forward; before, nothing.
- ARL-E5845: FSDP2 CPU offload with parameters on the device; before, nothing.
- ARL-E5846: FSDP2 child initialised before the root ("FSDP state has already been lazily initialized for X" / "FSDP
  requires running forward through the root module first"); before, nothing.
- ARL-E5847: scalar parameters under FSDP1 / FSDP2 (with FSDP2's "salar" spelling); before, nothing.
- ARL-E5848: fully_shard on a ModuleList; before, nothing.
- ARL-E5849: FSDP1 device_id against the module's device ("Inconsistent compute device and `device_id`"); before, nothing.
- ARL-E5850: FSDP1 module on several devices ("FSDP only supports single device modules" / "Must flatten tensors on
  the same device"); before, nothing.
- ARL-E5851: DCP load with another global shape ("Size mismatch between saved ... and current: ..."); before, nothing.
- ARL-E5852: verl LoRA layered_summon with load_format=dummy; before, nothing.
- ARL-E5853: verl TiledMLP with strategy=fsdp (FSDP1); before, nothing.
- ARL-E3700 widened: the uniform requires_grad message with its backticks lost (rendered pastes); before, nothing.
- ARL-E4723 widened: torch_npu v7.2.0's "Split sizes dosen't match total dim 0 size"; before, the bare ERR02002 code.
- ARL-E4202 widened: FullyShardedDataParallel.forward's "Expected `FlatParameter` to be on the compute device npu:0 but
  got cpu"; before, nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

SP = "/usr/local/python3.10.14/lib/python3.10/site-packages/torch/distributed"


def _tb(frame: str, line: str, prefix: str = "[rank0]: ") -> str:
    return (f"{prefix}Traceback (most recent call last):\n{prefix}  File \"{SP}/{frame}\", line 100, in f\n"
            f"{prefix}    raise RuntimeError(\n{prefix}{line}\n")


# ARL-E5840 -----------------------------------------------------------------------------------------------------------

def test_device_mesh_homogeneous_hardware_is_e5840():
    for line in (
        "RuntimeError: DeviceMesh only support homogeneous hardware, but found 12 ranks and 8 npu devices!",
        "RuntimeError: DeviceMesh only support homogeneous hardware, but found 6 ranks and 4 cuda devices!",
    ):
        assert _id(_tb("device_mesh.py", line)) == "ARL-E5840", line


def test_heterogeneous_question_is_not_e5840():
    assert _id("Does DeviceMesh support heterogeneous hardware (NPU and GPU in one job)?\n") != "ARL-E5840"


# ARL-E5841 -----------------------------------------------------------------------------------------------------------

def test_mesh_bigger_than_world_is_e5841():
    for line in (
        "RuntimeError: Mesh should not be bigger than default world size 8, but found 16 ranks!",
        "RuntimeError: Mesh should not be bigger than default world size, but found 32 ranks!",
    ):
        assert _id(_tb("device_mesh.py", line)) == "ARL-E5841", line


def test_mesh_shape_name_mismatch_is_not_e5841():
    line = "RuntimeError: ('mesh_shape and mesh_dim_names should have same length!', 'Found len(mesh_dim_names): 1 and len(mesh_shape):2.')"
    assert _id(_tb("device_mesh.py", line)) != "ARL-E5841"


# ARL-E5843 -----------------------------------------------------------------------------------------------------------

def test_fsdp1_without_accelerator_is_e5843():
    line = "RuntimeError: FSDP needs a non-CPU accelerator device, but no accelerator device is detected."
    assert _id(_tb("fsdp/_init_utils.py", line, prefix="")) == "ARL-E5843"


def test_fsdp_cpu_offload_note_is_not_e5843():
    assert _id("INFO: FSDP CPU offload enabled; parameters kept on the CPU device between steps\n") != "ARL-E5843"


# ARL-E5844 / ARL-E5845 -----------------------------------------------------------------------------------------------

def test_fsdp2_meta_params_are_e5844():
    text = (_tb("fsdp/_fully_shard/_fsdp_param_group.py",
                "RuntimeError: FSDP parameters should be materialized from meta device before training, but the "
                "following were still on meta device: ['lm_head.weight']")
            + "[rank0]: For example, call module.to_empty(device) to materialize to device and call "
              "module.reset_parameters() on each module to initialize values.\n")
    assert _id(text) == "ARL-E5844"


def test_fsdp2_offload_params_on_device_are_e5845():
    line = ("RuntimeError: FSDP parameters should be materialized on CPU when enabling CPU offloading. For example, "
            "load a CPU state dict or call module.to_empty(device=\"cpu\"). Found following parameters on non-CPU "
            "device: [('model.norm.weight', device(type='npu', index=3))]")
    assert _id(_tb("fsdp/_fully_shard/_fsdp_param_group.py", line)) == "ARL-E5845"


def test_meta_tensor_copy_is_neither_e5844_nor_e5845():
    line = "NotImplementedError: Cannot copy out of meta tensor; no data!"
    assert _id(_tb("nn/modules/module.py", line)) not in ("ARL-E5844", "ARL-E5845")


# ARL-E5846 -----------------------------------------------------------------------------------------------------------

def test_fsdp2_root_forward_first_is_e5846():
    text = ("[rank1]: RuntimeError: FSDP state has already been lazily initialized for model.layers.0\n"
            "[rank1]: FSDP requires running forward through the root module first\n")
    assert _id(_tb("fsdp/_fully_shard/_fsdp_state.py", "", prefix="[rank1]: ") + text) == "ARL-E5846"
    assert _id("RuntimeError: FSDP state has already been lazily initialized for 0.in_proj\n") == "ARL-E5846"


def test_fsdp1_is_root_assertion_is_not_e5846():
    line = "AssertionError: Non-root FSDP instance's `_is_root` should not have been set yet or should have been set to `False`"
    assert _id(_tb("fsdp/_runtime_utils.py", line)) != "ARL-E5846"


# ARL-E5847 -----------------------------------------------------------------------------------------------------------

def test_scalar_parameters_are_e5847():
    for line in (
        "ValueError: fully_shard doesn't support scalar parameters. Change logit_scale to a 1D tensor with numel equal to 1.",
        "ValueError: fully_shard doesn't support salar parameters. Change lambda_weight to a 1D tensor with numel equal to 1.",
        "ValueError: FSDP doesn't support scalar parameters. Change model.temperature to a 1D tensor with numel equal to 1.",
    ):
        assert _id(_tb("fsdp/_fully_shard/_fsdp_init.py", line)) == "ARL-E5847", line


def test_scalar_type_error_is_not_e5847():
    line = "RuntimeError: a Tensor with 2 elements cannot be converted to Scalar"
    assert _id(_tb("nn/modules/module.py", line)) != "ARL-E5847"


# ARL-E5848 -----------------------------------------------------------------------------------------------------------

def test_fully_shard_on_module_list_is_e5848():
    line = "ValueError: fully_shard does not support containers that do not implement forward: ModuleList("
    assert _id(_tb("fsdp/_fully_shard/_fully_shard.py", line) + "[rank0]:   (0-27): 28 x Qwen2DecoderLayer(\n") == "ARL-E5848"


def test_module_list_forward_not_implemented_is_not_e5848():
    line = 'NotImplementedError: Module [ModuleList] is missing the required "forward" function'
    assert _id(_tb("nn/modules/module.py", line)) != "ARL-E5848"


# ARL-E5849 / ARL-E5850 -----------------------------------------------------------------------------------------------

def test_fsdp1_device_id_mismatch_is_e5849():
    for line in (
        "ValueError: Inconsistent compute device and `device_id` on rank 1: npu:0 vs npu:1",
        "ValueError: Inconsistent compute device and device_id on rank 3: cuda:0 vs cuda:3",
    ):
        assert _id(_tb("fsdp/_init_utils.py", line)) == "ARL-E5849", line


def test_fsdp1_module_on_two_devices_is_e5850():
    for line in (
        "RuntimeError: FSDP only supports single device modules but got params on {device(type='cpu'), device(type='npu', index=0)}",
        "ValueError: Must flatten tensors on the same device but got both cpu and npu:0",
        "RuntimeError: FSDP does not support modules with different device types but got params on npu and cpu",
    ):
        assert _id(_tb("fsdp/_init_utils.py", line)) == "ARL-E5850", line


def test_tensors_on_two_devices_in_an_op_is_neither_e5849_nor_e5850():
    line = ("RuntimeError: Expected all tensors to be on the same device, but found at least two devices, npu:0 and "
            "cpu! (when checking argument for argument index in method wrapper_CUDA__index_select)")
    assert _id(_tb("nn/functional.py", line)) not in ("ARL-E5849", "ARL-E5850")


# ARL-E5851 -----------------------------------------------------------------------------------------------------------

def test_dcp_size_mismatch_is_e5851():
    for line in (
        "ValueError: Size mismatch between saved torch.Size([151936, 3584]) and current: torch.Size([152064, 3584]) "
        "for model.embed_tokens.weight",
        "ValueError: Size mismatch between saved [100352, 3840] and current: [100352, 4096]",
    ):
        assert _id(_tb("checkpoint/default_planner.py", line)) == "ARL-E5851", line


def test_load_state_dict_size_mismatch_is_not_e5851():
    line = ("RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n\tsize mismatch for lm_head.weight: "
            "copying a param with shape torch.Size([151936, 3584]) from checkpoint, the shape in current model is "
            "torch.Size([152064, 3584]).")
    assert _id(_tb("nn/modules/module.py", line)) != "ARL-E5851"


# ARL-E5852 -----------------------------------------------------------------------------------------------------------

def test_verl_layered_summon_dummy_is_e5852():
    line = ("(WorkerDict pid=1, ip=10.0.0.1) ValueError: To use layered_summon, you must make sure base-model is "
            "preloaded in vllm, e.g. let rollout.load_format=safetensors\n")
    assert _id(line) == "ARL-E5852"


def test_layered_summon_log_line_is_not_e5852():
    assert _id("(WorkerDict pid=1) [rank0] layered_summon enabled, base model preloaded by vllm\n") != "ARL-E5852"


# Widened: ARL-E3700, ARL-E4723 ---------------------------------------------------------------------------------------

def test_uniform_requires_grad_without_backticks_is_e3700():
    line = "ValueError: Must flatten tensors with uniform requires_grad when use_orig_params=False"
    assert _id(_tb("fsdp/_flat_param.py", line)) == "ARL-E3700"


def test_torch_npu_split_sizes_spelling_is_e4723():
    line = ("RuntimeError: Split sizes dosen't match total dim 0 size[ERROR] 2026-12-07-10:00:00 (PID:1234, Device:0, "
            "RankID:0) ERR02002 DIST invalid type")
    assert _id(line + "\n") == "ARL-E4723"


def test_fsdp1_forward_flat_param_on_cpu_is_e4202():
    line = "AssertionError: Expected `FlatParameter` to be on the compute device npu:0 but got cpu"
    assert _id(_tb("fsdp/fully_sharded_data_parallel.py", line)) == "ARL-E4202"


def test_flat_param_on_other_npu_is_not_e4202():
    line = "AssertionError: Expected `FlatParameter` to be on the compute device npu:0 but got npu:1"
    assert _id(_tb("fsdp/fully_sharded_data_parallel.py", line)) != "ARL-E4202"


# ARL-E5853 -----------------------------------------------------------------------------------------------------------

def test_verl_tiled_mlp_on_fsdp1_is_e5853():
    for line in (
        "ValueError: TiledMLP requires FSDP2. Set `actor_rollout_ref.actor.strategy=fsdp2`.",
        "ValueError: TiledMLP requires FSDP2. Set `critic.strategy=fsdp2`.",
    ):
        assert _id(f"(WorkerDict pid=1, ip=10.0.0.1) {line}\n") == "ARL-E5853", line


def test_fsdp2_torch_version_assert_is_not_e5853():
    line = "AssertionError: PyTorch version >= 2.4 is required for using fully_shard API (FSDP2)"
    assert _id(f"(WorkerDict pid=1, ip=10.0.0.1) {line}\n") != "ARL-E5853"
