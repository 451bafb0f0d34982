"""Readings added by helper k56acc (2026-12-07) for the launchers and wrappers RL stacks run under: DeepSpeed's engine,
launcher, accelerator choice and config schema (deepspeedai/DeepSpeed v0.18.0) and accelerate's DeepSpeed and
mixed-precision checks (huggingface/accelerate v1.10.0), confirmed in the emitters' source. Each test input is a short
excerpt around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5900: deepspeed.initialize without a launcher (no LOCAL_RANK), or --local_rank disagreeing with LOCAL_RANK;
  before, unknown.
- ARL-E5901: the `deepspeed` launcher counting no devices ("Unable to proceed, no GPU resources available") or
  DS_ACCELERATOR=npu without torch_npu; before, unknown.
- ARL-E5902: a ZeRO checkpoint resumed on another data-parallel size; before, unknown.
- ARL-E5903: ZeRO-Offload refusing a client optimizer (zero_force_ds_cpu_optimizer); before, unknown.
- ARL-E5904: a DeepSpeed config section refused by its pydantic schema ("N validation error for DeepSpeedZeroConfig");
  before, a resemblance to vLLM's gpu_memory_utilization check.
- ARL-E5905: accelerate + DeepSpeed without a dataloader batch size for train_micro_batch_size_per_gpu "auto"; before,
  unknown.
- ARL-E5906: accelerate refusing two models in one prepare() under DeepSpeed; before, unknown.
- ARL-E5907: accelerate + DeepSpeed with an optimizer / scheduler in both the JSON and the code (or a Dummy* with none);
  before, unknown.
- ARL-E5908: accelerate resolving its device to the CPU and refusing fp16 there; before, a resemblance to ARL-E337.
- ARL-E5909: a ZeRO-1/2 engine built without an optimizer (a frozen reference model given the training config); before,
  unknown.
- ARL-E337 widened: DeepSpeed's "Type bf16 is not supported on your device."; before, unknown.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

DS_ENGINE = '  File "/usr/local/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 1212, in _do_args_sanity_check\n'
ACC = '  File "/usr/local/lib/python3.10/site-packages/accelerate/accelerator.py", line 2110, in _prepare_deepspeed\n'


# ARL-E5900 -----------------------------------------------------------------------------------------------------------

def test_deepspeed_without_local_rank_is_e5900():
    for line in (
        "AssertionError: DeepSpeed requires the LOCAL_RANK environment variable, it is set by the deepspeed launcher, "
        "deepspeed.init_distributed, or the torch's launcher. If using a different launcher please ensure LOCAL_RANK is "
        "set prior to initializing deepspeed.",
        "AssertionError: Mismatch in local rank setting, args.local_rank=0 but env['LOCAL_RANK']=3.",
    ):
        assert _id(DS_ENGINE + line + "\n") == "ARL-E5900", line


def test_local_rank_key_error_elsewhere_is_not_e5900():
    text = '  File "/workspace/train.py", line 12, in <module>\n    local_rank = int(os.environ["LOCAL_RANK"])\nKeyError: \'LOCAL_RANK\'\n'
    assert _id(text) != "ARL-E5900"


# ARL-E5901 -----------------------------------------------------------------------------------------------------------

def test_deepspeed_without_devices_is_e5901():
    for line in (
        "RuntimeError: Unable to proceed, no GPU resources available",
        "ValueError: NPU_Accelerator requires torch_npu, which is not installed on this system.",
    ):
        assert _id(line + "\n") == "ARL-E5901", line


def test_deepspeed_hostfile_errors_are_not_e5901():
    assert _id("ValueError: Num nodes is >1 but no extra nodes available via hostfile\n") != "ARL-E5901"
    assert _id("ValueError: MLU_Accelerator requires torch_mlu, which is not installed on this system.\n") != "ARL-E5901"


# ARL-E5902 -----------------------------------------------------------------------------------------------------------

def test_zero_checkpoint_other_world_size_is_e5902():
    line = ("[rank5]: deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size "
            "of 8 but the current world size is 16. Automatic adjustment of ZeRO's optimizer state partitioning with a new "
            "world size is not currently supported.")
    assert _id(line + "\n") == "ARL-E5902"


def test_other_zero_runtime_exception_is_not_e5902():
    line = ("deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided "
            "optimizer (<class 'torch.optim.adamw.AdamW'>) which in most cases will yield poor performance.")
    assert _id(line + "\n") != "ARL-E5902"


# ARL-E5903 -----------------------------------------------------------------------------------------------------------

def test_zero_offload_client_optimizer_is_e5903():
    line = ("deepspeed.runtime.zero.utils.ZeRORuntimeException: You are using ZeRO-Offload with a client provided "
            "optimizer (<class 'bitsandbytes.optim.adamw.AdamW8bit'>) which in most cases will yield poor performance. "
            "Please either use deepspeed.ops.adam.DeepSpeedCPUAdam or set an optimizer in your ds-config")
    assert _id(line + "\n") == "ARL-E5903"


def test_cpu_adam_build_failure_is_not_e5903():
    line = "AttributeError: 'DeepSpeedCPUAdam' object has no attribute 'ds_opt_adam'"
    assert _id(line + "\n") != "ARL-E5903"


# ARL-E5904 -----------------------------------------------------------------------------------------------------------

def test_deepspeed_config_schema_refusal_is_e5904():
    for header, field, reason in (
        ("1 validation error for DeepSpeedZeroConfig", "stage3_gather_fp16_weights_on_save",
         "  Extra inputs are not permitted [type=extra_forbidden, input_value=True, input_type=bool]"),
        ("2 validation errors for DeepSpeedZeroOffloadOptimizerConfig", "pin_memory",
         "  Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='yes', input_type=str]"),
    ):
        text = f"pydantic_core._pydantic_core.ValidationError: {header}\n{field}\n{reason}\n"
        assert _id(text) == "ARL-E5904", header


def test_other_pydantic_models_are_not_e5904():
    text = ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n"
            "  Value error, Invalid repository ID or local directory specified [type=value_error]\n")
    assert _id(text) != "ARL-E5904"


# ARL-E5905 -----------------------------------------------------------------------------------------------------------

def test_accelerate_deepspeed_without_batch_size_is_e5905():
    for line in (
        "ValueError: When using DeepSpeed, `accelerate.prepare()` requires you to pass at least one of training or "
        "evaluation dataloaders with `batch_size` attribute returning an integer value or alternatively set an integer "
        "value in `train_micro_batch_size_per_gpu` in the deepspeed config file",
        "ValueError: When using DeepSpeed `accelerate.prepare()` requires you to pass at least one of training or "
        "evaluation dataloaders or alternatively set an integer value in `train_micro_batch_size_per_gpu` in the deepspeed "
        "config fileor assign integer value to `AcceleratorState().deepspeed_plugin.deepspeed_config['train_micro_batch_size_per_gpu']`.",
        "ValueError: At least one of the dataloaders passed to `accelerate.prepare()` has `None` as batch size. Please set "
        "an integer value in `train_micro_batch_size_per_gpu` in the deepspeed config file",
    ):
        assert _id(ACC + line + "\n") == "ARL-E5905", line[:60]


def test_deepspeed_batch_product_is_not_e5905():
    line = ("AssertionError: Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * "
            "gradient_acc_step * world_size 256 != 4 * 8 * 4")
    assert _id(line + "\n") != "ARL-E5905"


# ARL-E5906 -----------------------------------------------------------------------------------------------------------

def test_accelerate_two_models_under_deepspeed_is_e5906():
    line = "[rank0]: AssertionError: You can't use same `Accelerator()` instance with multiple models when using DeepSpeed"
    assert _id(line + "\n") == "ARL-E5906"


def test_fsdp2_single_model_check_is_not_e5906():
    assert _id(ACC + "ValueError: Only one model is supported when using FSDP2\n") != "ARL-E5906"


# ARL-E5907 -----------------------------------------------------------------------------------------------------------

def test_accelerate_optimizer_owner_conflict_is_e5907():
    for line in (
        "ValueError: You cannot specify an optimizer in the config file and in the code at the same time. Please remove "
        "the optimizer from the config file or create `accelerate.utils.DummyOptim` in the code.",
        "ValueError: You cannot specify a scheduler in the config file and in the code at the same time. Please remove "
        "the scheduler from the config file or create `accelerate.utils.DummyScheduler` in the code.",
        "ValueError: You cannot create a `DummyOptim` without specifying an optimizer in the config file.",
        "ValueError: Either specify a scheduler in the config file or pass in the `lr_scheduler_callable` parameter when "
        "using `accelerate.utils.DummyScheduler`.",
    ):
        assert _id(ACC + line + "\n") == "ARL-E5907", line[:60]


def test_accelerate_dummy_scheduler_pairing_is_not_e5907():
    line = ("ValueError: You can only specify `accelerate.utils.DummyScheduler` in the code when using "
            "`accelerate.utils.DummyOptim`.")
    assert _id(ACC + line + "\n") != "ARL-E5907"


# ARL-E5908 -----------------------------------------------------------------------------------------------------------

def test_accelerate_fp16_on_cpu_is_e5908():
    text = ('  File "/usr/local/lib/python3.10/site-packages/accelerate/accelerator.py", line 581, in __init__\n'
            "ValueError: fp16 mixed precision requires a GPU (not 'cpu').\n")
    assert _id(text) == "ARL-E5908"


def test_accelerate_fp16_on_mps_is_not_e5908():
    assert _id("ValueError: fp16 mixed precision requires a GPU (not 'mps').\n") != "ARL-E5908"


# ARL-E5909 -----------------------------------------------------------------------------------------------------------

def test_zero12_without_optimizer_is_e5909():
    for stage in (1, 2):
        text = (DS_ENGINE.replace("_do_args_sanity_check", "_configure_zero_optimizer")
                + f"AssertionError: zero stage {stage} requires an optimizer\n")
        assert _id(text) == "ARL-E5909", stage


def test_muon_zero3_refusal_is_not_e5909():
    assert _id(DS_ENGINE + "AssertionError: Muon optimizer is not yet compatible with ZeRO Stage 3\n") != "ARL-E5909"


# ARL-E337 (widened) --------------------------------------------------------------------------------------------------

def test_deepspeed_bf16_unsupported_is_e337():
    text = DS_ENGINE.replace("_do_args_sanity_check", "_do_sanity_check") + "ValueError: Type bf16 is not supported on your device.\n"
    assert _id(text) == "ARL-E337"


def test_deepspeed_fp16_unsupported_is_not_e337():
    text = DS_ENGINE.replace("_do_args_sanity_check", "_do_sanity_check") + "ValueError: Type fp16 is not supported on your device.\n"
    assert _id(text) != "ARL-E337"


# ARL-E5910 -----------------------------------------------------------------------------------------------------------

NPU_BUILDER = ('  File "/usr/local/lib/python3.10/site-packages/deepspeed/ops/op_builder/npu/builder.py", line 41, in '
               'installed_cann_path\n    if "ASCEND_HOME_PATH" in os.environ or os.path.exists(os.environ["ASCEND_HOME_PATH"]):\n')


def test_deepspeed_npu_builder_without_cann_env_is_e5910():
    for line in ("KeyError: 'ASCEND_HOME_PATH'", "AssertionError: CANN_HOME does not exist, unable to compile NPU op(s)"):
        assert _id(NPU_BUILDER + line + "\n") == "ARL-E5910", line
    assert _id("cpu_adam ascend_cann is missing, npu ops cannot be compiled!\n") == "ARL-E5910"


def test_other_env_key_errors_are_not_e5910():
    assert _id("KeyError: 'ASCEND_TOOLKIT_HOME'\n") != "ARL-E5910"
    assert _id("Warning : ASCEND_HOME_PATH environment variable is not set.\n") != "ARL-E5910"


# ARL-E1684 (widened) -------------------------------------------------------------------------------------------------

def test_deepspeed_jit_without_ninja_is_e1684():
    assert _id("RuntimeError: Unable to JIT load the cpu_adam op due to ninja not being installed.\n") == "ARL-E1684"


def test_deepspeed_jit_incompatible_op_is_not_e1684():
    line = ("RuntimeError: Unable to JIT load the fused_adam op due to it not being compatible due to hardware/software "
            "issue. None")
    assert _id(line + "\n") != "ARL-E1684"


# ARL-E5911 -----------------------------------------------------------------------------------------------------------

def test_accelerate_fsdp2_prepare_pairing_is_e5911():
    for line in (
        "ValueError: When using FSDP2, a model and optimizer must be passed together to `Accelerator.prepare()` as the "
        "optimizer needs to have its parameters modified after the model is converted.",
        "ValueError: Only one model is supported when using FSDP2",
        "ValueError: FSDP2 preparation should be done via `accelerate.prepare()`, as it requires a model and an optimizer.",
    ):
        assert _id(ACC.replace("_prepare_deepspeed", "prepare") + line + "\n") == "ARL-E5911", line[:50]


def test_fsdp2_torch_version_refusal_is_not_e5911():
    assert _id(ACC + "ValueError: FSDP2 requires PyTorch >= 2.6.0\n") != "ARL-E5911"


# ARL-E5912 -----------------------------------------------------------------------------------------------------------

def test_openrlhf_weight_sync_dtype_mismatch_is_e5912():
    for line in (
        "(LLMRayActor pid=47002) AssertionError: mismatch dtype: src torch.float16, dst torch.bfloat16",
        "AssertionError: mismatch dtype: src torch.float32, dst torch.bfloat16",
    ):
        assert _id(line + "\n") == "ARL-E5912", line


def test_other_dtype_mismatches_are_not_e5912():
    assert _id("RuntimeError: mat1 and mat2 must have the same dtype, but got Float and BFloat16\n") != "ARL-E5912"
