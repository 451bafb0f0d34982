"""Readings added by helper k51data (2026-12-06) while probing public threads and the emitting projects' source for
data / model file, verl / Hydra config and user-code failure classes explain did not name. Each test input is a short
excerpt around the exact emitted message; each class also has a near miss (similar words, another failure).

- ARL-E5280: MindSpeed-LLM / MindSpeed-RL data preprocessing paths (preprocess_data.py / validate_config.py "X is not a
  directory or does not exist", ".bin file not provided for", data_handler.py "unknown local data!"); before, the
  first read as a file where a folder should be (DRV-oserror).
- ARL-E5281: MindSpeed-LLM / MindSpeed-RL prompt templates ("Template X does not exist.", "Can't find the template ...",
  "Invalid Path: ..., please provide a valid custom template path.", "If specify prompt_type , handler name must be
  in:"); before, a resemblance or nothing.
- ARL-E5282: transformers' sequence-classification models with no config.pad_token_id ("Cannot handle batch sizes > 1
  if no padding token is defined", ValueError and the older AssertionError); before, nothing.
- ARL-E5283 / ARL-E5284: verl's model merger refusing a layout it cannot merge (FSDP: mesh_dim_names, FSDP + TP, partial
  / unknown placements, no world_size; Megatron: layer names it cannot map, keys the HF model lacks, layers < PP
  stages, a shard folder without model.pt).
- ARL-E5285: a verl config key that the installed release's config dataclass does not declare ("FSDPActorConfig /
  RolloutConfig ... .__init__() got an unexpected keyword argument", plain and as Hydra's InstantiationException repr).
- ARL-E5286: code assigning to a frozen verl config field (base_config.py "Field 'x' is frozen and cannot be modified").
- DRV-own-check rows: verl's lr_scheduler_type / warmup_style, use_legacy_worker_impl and multi-turn SFT
  system-message checks.
- ARL-E165 widened: datasets' verify_splits split-set errors (ExpectedMoreSplits(Error) / UnexpectedSplits(Error)).
- ARL-E5287: an Arrow type datasets cannot map ("Arrow type X does not have a datasets dtype equivalent": string_view
  from polars / new pyarrow, pickled py_extension_type).
- ARL-E5080 widened: math-verify's builtin TimeoutError wording (0.4.1 .. 0.6.0 and 1.0.0); before, read as a Ray node
  start-up timeout.
- ARL-E5289: sympy refusing comparisons while a reward grades math answers ("Can only compare inequalities with Expr",
  "Invalid comparison of non-real", "Invalid NaN comparison").
- ARL-E5290: CPython's int / str digit limit in reward code ("Exceeds the limit (4300 digits) for integer string
  conversion", and the older "(4300)" wording).
- ARL-E422 widened: PEFT target selection ending with nothing to adapt ("Please specify `target_modules` in
  `peft_config`", "All modules were excluded", "No `target_modules` passed but also no `target_parameters` found").
- ARL-E4328 widened: a PEFT adapter folder with a config but no weights ("Can't find weights for X in X or in the
  Hugging Face Hub.").
- ARL-E5291: a fast tokenizer's decode given a batch or float ids ("argument 'ids': 'list' / 'float' object cannot be
  interpreted as an integer").
- ARL-E421 widened: TRL GRPOConfig's newer divisibility wordings ("generation_batch_size (N) must be divisible by
  num_generations (G)", "The global eval batch size (...) must be divisible by ...").
- DRV-trl-check: TRL's own argument / dataset checks (trl/trainer/*_trainer.py, *_config.py, data_utils.py) and
  OpenRLHF's launcher asserts (openrlhf/cli/train_*.py), read by the raising frame rather than each text.
- ARL-E162 widened: Arrow's cast kernel refusing a column's type pair ("Unsupported cast from X to Y using function
  cast_Z").
- ARL-E2616 widened: MindSpeed-LLM converters' other layer-split checks (layer_list sums, vpp / noop combinations).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E5280 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_preprocess_paths_are_e5280():
    for line in (
        "ValueError: ./dataset/qwen25 is not a directory or does not exist",
        "ValueError: /home/user/data/merged is not a directory or does not exist",
        "FileNotFoundError: .idx file not provided for /home/user/data/alpaca_packed_input_ids_document",
        "Exception: unknown local data!",
    ):
        assert _id(TB + line + "\n") == "ARL-E5280", line


def test_not_a_directory_errno_is_not_e5280():
    text = TB + "NotADirectoryError: [Errno 20] Not a directory: '/home/user/data/train.parquet/x'\n"
    assert _id(text) != "ARL-E5280"


# ARL-E5281 -----------------------------------------------------------------------------------------------------------

def test_mindspeed_template_and_handler_are_e5281():
    for line in (
        "ValueError: Template qwen3 does not exist.",
        "ValueError: Can't find the template. Please provide a valid prompt type template in the "
        "./configs/finetune/templates.json.",
        "ValueError: Invalid Path: ::, please provide a valid custom template path.",
        "AssertionError: If specify prompt_type , handler name must be in:",
        "ValueError: If specify prompt_type , handler name must be in:",
    ):
        assert _id(TB + line + "\n") == "ARL-E5281", line


def test_chat_template_missing_is_not_e5281():
    text = TB + (
        "ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template "
        "argument was passed!\n"
    )
    assert _id(text) != "ARL-E5281"


# ARL-E5282 -----------------------------------------------------------------------------------------------------------

def test_sequence_classification_without_pad_token_is_e5282():
    for line in (
        "ValueError: Cannot handle batch sizes > 1 if no padding token is defined.",
        "AssertionError: Cannot handle batch sizes > 1 if no padding token is defined.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5282", line


def test_tokenizer_without_pad_token_is_not_e5282():
    text = TB + (
        "ValueError: Asking to pad but the tokenizer does not have a padding token. Please select a token to use as "
        "`pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)` or add a new pad token via "
        "`tokenizer.add_special_tokens({'pad_token': '[PAD]'})`.\n"
    )
    assert _id(text) != "ARL-E5282"


# ARL-E5283 -----------------------------------------------------------------------------------------------------------

def test_fsdp_merger_layouts_are_e5283():
    for line in (
        "AssertionError: Unsupported mesh_dim_names ('dp', 'sp')",
        "NotImplementedError: FSDP + TP is not supported yet",
        "NotImplementedError: Partial placement is not supported yet",
        "NotImplementedError: Unsupported placement: _StridedShard(dim=0, sf=2)",
        "ValueError: World size not found in the config file.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5283", line


def test_merger_without_fsdp_config_is_not_e5283():
    text = TB + (
        "FileNotFoundError: Config file /home/user/ckpt/global_step_100/actor/fsdp_config.json does not exist.\n"
    )
    assert _id(text) != "ARL-E5283"


# ARL-E5284 -----------------------------------------------------------------------------------------------------------

def test_megatron_merger_mapping_is_e5284():
    for line in (
        "AssertionError: Failed to convert layer name [decoder.layers.0.mlp.router.weight] from megatron to "
        "huggingface.",
        "RuntimeError: key: model.layers.0.mlp.gate.weight not exist in state_dict",
        "ValueError: layer_num 28 must be greater than pp_size 32.",
        "AssertionError: model.pt not found in mp_rank_00_000",
    ):
        assert _id(TB + line + "\n") == "ARL-E5284", line


def test_load_state_dict_missing_keys_is_not_e5284():
    text = TB + (
        "RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n"
        '\tMissing key(s) in state_dict: "lm_head.weight".\n'
    )
    assert _id(text) != "ARL-E5284"


# ARL-E5285 -----------------------------------------------------------------------------------------------------------

def test_verl_config_dataclass_unknown_key_is_e5285():
    for text in (
        TB + "TypeError: FSDPActorConfig.__init__() got an unexpected keyword argument 'use_torch_compile'\n",
        TB + "hydra.errors.InstantiationException: Error in call to target 'verl.workers.config.rollout.RolloutConfig':\n"
        "TypeError(\"RolloutConfig.__init__() got an unexpected keyword argument 'enable_sleep_mode'\")\n"
        "full_key: actor_rollout_ref.rollout\n",
        TB + "TypeError: McoreEngineConfig.__init__() got an unexpected keyword argument 'use_mbridge'\n",
    ):
        assert _id(text) == "ARL-E5285", text


def test_peft_lora_config_unknown_key_is_not_e5285():
    text = TB + "TypeError: LoraConfig.__init__() got an unexpected keyword argument 'use_dora'\n"
    assert _id(text) != "ARL-E5285"


# ARL-E5286 -----------------------------------------------------------------------------------------------------------

def test_verl_frozen_config_field_is_e5286():
    text = TB + "dataclasses.FrozenInstanceError: Field 'ppo_mini_batch_size' is frozen and cannot be modified\n"
    assert _id(text) == "ARL-E5286"


def test_plain_frozen_dataclass_is_not_e5286():
    text = TB + "dataclasses.FrozenInstanceError: cannot assign to field 'ppo_mini_batch_size'\n"
    assert _id(text) != "ARL-E5286"


# DRV-own-check rows (own_checks.yaml) -------------------------------------------------------------------------------

def test_verl_own_checks_added_by_k51data():
    for line, kind in (
        ("NotImplementedError: LR scheduler type linear is not supported", "verl-lr-scheduler-unknown"),
        ("NotImplementedError: Warmup style linear is not supported", "verl-lr-scheduler-unknown"),
        ("ValueError: Invalid use_legacy_worker_impl: True", "verl-legacy-worker-impl-invalid"),
        ("ValueError: System message should be the first message", "verl-sft-system-message-not-first"),
    ):
        found = _top(TB + line + "\n")
        assert found is not None and found.entry.id == "DRV-own-check" and found.kind == kind, line


def test_other_not_supported_is_not_the_scheduler_check():
    found = _top(TB + "NotImplementedError: Padding dim 3 is not supported\n")
    assert found is None or found.kind != "verl-lr-scheduler-unknown"


# ARL-E165 widened ---------------------------------------------------------------------------------------------------

def test_datasets_split_set_mismatch_is_e165():
    for line in (
        "datasets.exceptions.ExpectedMoreSplitsError: {'validation'}",
        "datasets.utils.info_utils.ExpectedMoreSplits: {'test'}",
        "datasets.exceptions.UnexpectedSplitsError: {'test', 'validation'}",
        "datasets.utils.info_utils.UnexpectedSplits: {'test'}",
    ):
        assert _id(TB + line + "\n") == "ARL-E165", line


def test_unknown_split_is_not_e165():
    text = TB + "ValueError: Unknown split \"validation\". Should be one of ['train'].\n"
    assert _id(text) != "ARL-E165"


# ARL-E5287 -----------------------------------------------------------------------------------------------------------

def test_arrow_type_without_datasets_dtype_is_e5287():
    for line in (
        "ValueError: Arrow type string_view does not have a datasets dtype equivalent.",
        "ValueError: Arrow type extension<arrow.py_extension_type<pyarrow.lib.UnknownExtensionType>> does not have a "
        "datasets dtype equivalent.",
    ):
        assert _id(TB + line + "\n") == "ARL-E5287", line


def test_arrow_cast_error_is_not_e5287():
    text = TB + "TypeError: Couldn't cast array of type\nstruct<a: int64>\nto\nstring\n"
    assert _id(text) != "ARL-E5287"


# ARL-E5080 widened --------------------------------------------------------------------------------------------------

def test_math_verify_builtin_timeout_error_is_e5080():
    text = TB + (
        '  File "/usr/local/lib/python3.10/site-packages/math_verify/utils.py", line 44, in handler\n'
        '    raise TimeoutError("Operation timed out!")\n'
        "TimeoutError: Operation timed out!\n"
    )
    assert _id(text) == "ARL-E5080"


def test_socket_timeout_is_not_e5080():
    text = TB + "TimeoutError: [Errno 110] Connection timed out\n"
    assert _id(text) != "ARL-E5080"


# ARL-E5289 -----------------------------------------------------------------------------------------------------------

def test_sympy_comparisons_in_grading_are_e5289():
    for line in (
        "TypeError: Can only compare inequalities with Expr",
        "TypeError: Invalid comparison of non-real 0.808783309216334 + 0.e-22*I",
        "TypeError: Invalid NaN comparison",
    ):
        assert _id(TB + line + "\n") == "ARL-E5289", line


def test_python_ordering_type_error_is_not_e5289():
    text = TB + "TypeError: '<' not supported between instances of 'str' and 'int'\n"
    assert _id(text) != "ARL-E5289"


# ARL-E5290 -----------------------------------------------------------------------------------------------------------

def test_int_max_str_digits_is_e5290():
    for line in (
        "ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use "
        "sys.set_int_max_str_digits() to increase the limit",
        "ValueError: Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() "
        "to increase the limit",
        "ValueError: Exceeds the limit (4300) for integer string conversion: value has 9131 digits; use "
        "sys.set_int_max_str_digits() to increase the limit",
    ):
        assert _id(TB + line + "\n") == "ARL-E5290", line


def test_int_overflow_is_not_e5290():
    text = TB + "OverflowError: int too large to convert to float\n"
    assert _id(text) != "ARL-E5290"


# ARL-E422 and ARL-E4328 widened ---------------------------------------------------------------------------------------

def test_peft_target_selection_wordings_are_e422():
    for line in (
        "ValueError: Please specify `target_modules` in `peft_config`",
        "ValueError: Please specify `target_modules` or `target_parameters`in `peft_config`",
        "ValueError: All modules were excluded. This is likely unintended. Check your `target_modules`, "
        "`exclude_modules` and `modules_to_save` configuration.",
        "ValueError: No `target_modules` passed but also no `target_parameters` found. Please check the values for "
        "these arguments.",
    ):
        assert _id(TB + line + "\n") == "ARL-E422", line


def test_peft_dora_refusal_is_not_e422():
    text = TB + "ValueError: Conv3d does not support DoRA (yet), please set use_dora to False\n"
    assert _id(text) != "ARL-E422"


def test_peft_adapter_weights_missing_is_e4328():
    text = TB + (
        "ValueError: Can't find weights for /home/user/out/lora/checkpoint-500 in /home/user/out/lora/checkpoint-500 "
        "or in the Hugging Face Hub. Please check that the file adapter_model.bin or adapter_model.safetensors is "
        "present at /home/user/out/lora/checkpoint-500.\n"
    )
    assert _id(text) == "ARL-E4328"


def test_model_weights_missing_is_not_e4328():
    text = TB + (
        "OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or "
        "flax_model.msgpack found in directory /home/user/ckpt.\n"
    )
    assert _id(text) != "ARL-E4328"


# ARL-E5291 -----------------------------------------------------------------------------------------------------------

def test_fast_tokenizer_decode_non_int_ids_is_e5291():
    for line in (
        "TypeError: argument 'ids': 'list' object cannot be interpreted as an integer",
        "TypeError: argument 'ids': 'float' object cannot be interpreted as an integer",
        "TypeError: argument 'sequences': 'NoneType' object cannot be interpreted as an integer",
    ):
        assert _id(TB + line + "\n") == "ARL-E5291", line


def test_negative_id_decode_is_not_e5291():
    text = TB + "OverflowError: out of range integral type conversion attempted\n"
    assert _id(text) != "ARL-E5291"


# ARL-E421 widened and DRV-trl-check ----------------------------------------------------------------------------------

TRL_CONFIG_FRAME = '  File "/usr/lib/python3.11/site-packages/trl/trainer/grpo_config.py", line 1104, in __post_init__\n'


def test_trl_grpo_new_divisibility_wordings_are_e421():
    for line in (
        "ValueError: generation_batch_size (12) must be divisible by num_generations (8).",
        "ValueError: The global eval batch size (3 * 4) must be divisible by num_generations (8).",
        "ValueError: The global eval batch size (3 * 4) must be divisible by the number of generations used for "
        "evaluation (8).",
    ):
        assert _id(TB + TRL_CONFIG_FRAME + line + "\n") == "ARL-E421", line


def test_trl_generation_batch_vs_global_batch_is_not_e421():
    text = TB + TRL_CONFIG_FRAME + (
        "ValueError: generation_batch_size (12) must be divisible by the global batch size (8).\n"
    )
    assert _id(text) != "ARL-E421"


def test_trl_own_checks_are_read_by_the_raising_frame():
    for frame, line, kind in (
        ('  File "/x/site-packages/trl/trainer/sft_trainer.py", line 733, in __init__\n',
         "ValueError: Packing is not supported for vision-language models. Please set `packing=False` in the SFTConfig.",
         "trl-config-check"),
        ('  File "/x/site-packages/trl/trainer/sft_trainer.py", line 1201, in _prepare_dataset\n',
         "RuntimeError: You're using `assistant_only_loss=True`, but at least one example has no assistant tokens.",
         "trl-data-check"),
        ('  File "/x/site-packages/trl/trainer/grpo_trainer.py", line 402, in __init__\n',
         "ValueError: Number of reward weights (2) must match number of reward functions (3)", "trl-config-check"),
    ):
        found = _top(TB + frame + line + "\n")
        assert found is not None and found.entry.id == "DRV-trl-check" and found.kind == kind, line


def test_a_value_error_outside_trl_is_not_a_trl_check():
    text = TB + '  File "/home/user/train.py", line 12, in main\n' + (
        "ValueError: Packing is not supported for vision-language models. Please set `packing=False` in the SFTConfig.\n"
    )
    found = _top(text)
    assert found is None or found.entry.id != "DRV-trl-check"


def test_openrlhf_launcher_asserts_are_read_by_the_raising_frame():
    frame = '  File "/usr/local/lib/python3.10/site-packages/openrlhf/cli/train_ppo_ray.py", line 212, in train\n'
    for line in (
        "AssertionError: --train.partial_rollout_enable requires --train.async_enable.",
        "AssertionError: packing_samples must be enabled when using ring attention",
    ):
        found = _top(TB + frame + line + "\n")
        assert found is not None and found.entry.id == "DRV-trl-check" and found.kind == "openrlhf-config-check", line


def test_openrlhf_bare_assert_outside_cli_is_not_a_launcher_check():
    frame = '  File "/usr/local/lib/python3.10/site-packages/openrlhf/utils/seqlen_balancing.py", line 40, in partition\n'
    found = _top(TB + frame + "AssertionError: number of items:[3] < k_partitions:[4]\n")
    assert found is None or found.entry.id != "DRV-trl-check"


# ARL-E162 widened ---------------------------------------------------------------------------------------------------

def test_arrow_unsupported_cast_is_e162():
    text = TB + (
        "pyarrow.lib.ArrowNotImplementedError: Unsupported cast from list<item: string> to utf8 using function "
        "cast_string\n"
    )
    assert _id(text) == "ARL-E162"


def test_arrow_cast_of_a_value_is_not_e162():
    text = TB + "pyarrow.lib.ArrowInvalid: Failed to parse string: 'abc' as a scalar of type int64\n"
    assert _id(text) != "ARL-E162"


# ARL-E2616 widened --------------------------------------------------------------------------------------------------

def test_mindspeed_converter_layer_split_wordings_are_e2616():
    for line in (
        "ValueError: sum of layer_list should be equal to num_layers",
        "ValueError: Sum of num_layer_list must equal num_layers",
        "ValueError: num_layer_list and vpp cannot be configured at the same time",
        "ValueError: num_layer_list and noop_layers cannot be configured at the same time",
        "ValueError: number of pp_stage should bu divisible by the vpp_stage",
        "ValueError: num_layers must be divisible by pp_size",
        "ValueError: error config pp_size(4) and vpp_size (3)",
    ):
        assert _id(TB + line + "\n") == "ARL-E2616", line


def test_mindspeed_converter_head_groups_is_not_e2616():
    assert _id(TB + "ValueError: nh % ng should equal 0\n") != "ARL-E2616"
