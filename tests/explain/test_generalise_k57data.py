"""Readings added by helper k57data (2026-12-07) for verl's data pipeline and the data libraries under it, each message
confirmed in the emitting project's source at a tag (verl v0.5.0-v0.9.0, datasets 4.0.0, pandas 2.2.3, transformers
4.57.1; the Qwen3.5 chat template only in threads). Each test input is a short excerpt around the exact emitted
message; each class also has a near miss (similar words, another failure).

- ARL-E6100: verl's data.custom_cls naming a class that is not a torch Dataset ("The custom dataset class 'X' from 'Y'
  must inherit from torch.utils.data.Dataset"); before, nothing.
- ARL-E6101: verl's MultiTurnSFTDataset per-turn vs whole-conversation input_ids ("MultiTurnSFTDataset
  apply_chat_template to each turn separately and concat `input_ids` ..."), fatal as an AssertionError, not as the
  warning logged with ignore_input_ids_mismatch=True; before, nothing.
- ARL-E6102: verl multi-turn interaction rows ("'name' key is required in interaction_kwargs" / "Interaction 'X' not
  found in interaction_map. Available interactions: [...]"); before, nothing.
- ARL-E6103: verl's tool agent loop given a video by a tool ("Multimedia type 'video' is not currently supported. Only
  'image' is supported."); before, nothing.
- ARL-E6104: verl's process_video given a video entry that is not a {'video': ...} dict ("Currently, we only support
  the video formats introduced in qwen2-vl."); before, nothing.
- ARL-E6105: datasets inferring different formats per split ("Couldn't infer the same data file format for all
  splits. Got {...}"); before, nothing.
- ARL-E6106: datasets reading a split with no data ('Instruction "train" corresponds to no data!'); before, nothing.
- ARL-E6107: a datasets .map() function returning the wrong type ("Provided `function` which is applied to all
  elements of table returns a ..."); before, nothing.
- ARL-E6108: pandas.read_json's ujson errors ("Trailing data" / "Expected object or value" / "Unexpected character
  found when decoding 'true'"); before, nothing.
- ARL-E6109: the Qwen3.5 chat template's "No user query found in messages."; before, nothing.
- ARL-E6110: tokenizer.pad / a data collator without input_ids ("You should supply an encoding or a list of encodings
  to this method that includes input_ids, but you provided [...]"); before, nothing.
- ARL-E6111: Arrow's JSON reader meeting invalid JSON ("JSON parse error: Missing a closing quotation mark in string. in
  row N" and RapidJSON's other syntax messages); before, nothing (or the generic DatasetGenerationError).
- ARL-E6112: a length-less (streaming / iterable) dataset where a length is needed ("The train_dataset does not
  implement __len__, max_steps has to be specified" / "Iterable datasets are not yet supported in GRPOTrainer" /
  "object of type 'IterableDataset' has no len()"); before, nothing.
- ARL-E6113: apply_chat_template refusing continue_final_message ("continue_final_message and add_generation_prompt
  are not compatible." / "... is not compatible with return_assistant_tokens_mask." / "continue_final_message is set
  but the final message does not appear in the chat after applying the chat template"); before, nothing.
- ARL-E547 widened: datasets' streaming "Bad split: X. Available splits: [...]"; before, nothing.
- ARL-E122 widened: datasets' "EmptyDatasetError: The directory at X doesn't contain any data files"; before, nothing.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

TB = "Traceback (most recent call last):\n  File \"/home/user/verl/verl/trainer/main_ppo.py\", line 65, in run_ppo\n"


# ARL-E6100 -----------------------------------------------------------------------------------------------------------

def test_custom_dataset_class_not_torch_dataset_is_e6100():
    line = ("TypeError: The custom dataset class 'build_geo_dataset' from '/home/user/proj/geo_dataset.py' must inherit "
            "from torch.utils.data.Dataset")
    assert _id(TB + line + "\n") == "ARL-E6100"


def test_custom_sampler_class_is_not_e6100():
    line = "AssertionError: the custom sampler class 'MySampler' must inherit from AbstractSampler"
    assert _id(TB + line + "\n") != "ARL-E6100"


# ARL-E6101 -----------------------------------------------------------------------------------------------------------

SFT_MSG = ("MultiTurnSFTDataset apply_chat_template to each turn separately and concat `input_ids` as a whole sequence, "
           "which may not equal to apply_chat_template to whole messages at once.")


def test_multiturn_sft_input_ids_mismatch_is_e6101():
    assert _id(TB + "AssertionError: " + SFT_MSG + "\n") == "ARL-E6101"
    assert _id(TB + "[rank3]: AssertionError: " + SFT_MSG + "\n") == "ARL-E6101"


def test_multiturn_sft_mismatch_warning_is_not_fatal():
    found = first(CATALOG, "WARNING:verl.utils.dataset.multiturn_sft_dataset:" + SFT_MSG + "\nstep:1 - loss:1.02\n")
    assert found is None or not found.fatal


def test_multiturn_sft_too_long_is_not_e6101():
    line = "ValueError: sequence_length=9000 is larger than self.max_length=8192"
    assert _id(TB + line + "\n") != "ARL-E6101"


# ARL-E6102 -----------------------------------------------------------------------------------------------------------

def test_interaction_name_missing_or_unknown_is_e6102():
    for line in (
        "ValueError: 'name' key is required in interaction_kwargs",
        "ValueError: Interaction 'gsm8k' not found in interaction_map. Available interactions: ['weather']",
    ):
        assert _id(TB + line + "\n") == "ARL-E6102", line


def test_duplicate_interaction_name_is_not_e6102():
    line = "ValueError: Duplicate interaction name 'gsm8k' found. Each interaction must have a unique name."
    assert _id(TB + line + "\n") != "ARL-E6102"


# ARL-E6103 -----------------------------------------------------------------------------------------------------------

def test_tool_returned_video_is_e6103():
    line = "NotImplementedError: Multimedia type 'video' is not currently supported. Only 'image' is supported."
    assert _id(TB + line + "\n") == "ARL-E6103"


def test_tool_image_without_processor_is_not_e6103():
    line = ("ValueError: Multimedia data can only be processed by `processor`, but the processor is None. This error is "
            "often caused if you are using a LLM model but your tool returns multimodal data. Plase use a vlm as the "
            "base model.")
    assert _id(TB + line + "\n") != "ARL-E6103"


# ARL-E6104 -----------------------------------------------------------------------------------------------------------

def test_video_not_qwen2vl_dict_is_e6104():
    line = "NotImplementedError: Currently, we only support the video formats introduced in qwen2-vl."
    assert _id(TB + line + "\nRefer to https://github.com/QwenLM/Qwen2.5-VL\n") == "ARL-E6104"


def test_video_of_unsupported_type_is_not_e6104():
    line = "TypeError: video must be dict, list, or path-like, unsupported video type: <class 'bytes'>"
    assert _id(TB + line + "\n") != "ARL-E6104"


# ARL-E6105 -----------------------------------------------------------------------------------------------------------

def test_different_formats_per_split_is_e6105():
    for line in (
        "ValueError: Couldn't infer the same data file format for all splits. Got {NamedSplit('train'): ('arrow', {}), "
        "NamedSplit('test'): ('json', {})}",
        "ValueError: Couldn't infer the same data file format for all splits. Got {'train': ('json', {}), "
        "'validation': (None, {})}",
    ):
        assert _id(TB + line + "\n") == "ARL-E6105", line


def test_no_data_files_is_not_e6105():
    line = "datasets.exceptions.DataFilesNotFoundError: No (supported) data files found in /data/gsm8k"
    assert _id(TB + line + "\n") != "ARL-E6105"


# ARL-E6106 -----------------------------------------------------------------------------------------------------------

def test_split_with_no_data_is_e6106():
    for line in (
        'ValueError: Instruction "train" corresponds to no data!',
        'ValueError: Instruction "train[:1%]" corresponds to no data!',
    ):
        assert _id(TB + line + "\n") == "ARL-E6106", line


def test_unknown_split_is_not_e6106():
    line = "ValueError: Unknown split \"test\". Should be one of ['train']."
    assert _id(TB + line + "\n") != "ARL-E6106"


# ARL-E6107 -----------------------------------------------------------------------------------------------------------

def test_map_function_wrong_return_type_is_e6107():
    for line in (
        "TypeError: Provided `function` which is applied to all elements of table returns a `dict` of types "
        "[<class 'str'>, <class 'dict'>]. When using `batched=True`, make sure provided `function` returns a `dict` of "
        "types like `(<class 'list'>, <class 'numpy.ndarray'>)`.",
        "TypeError: Provided `function` which is applied to all elements of table returns a variable of type "
        "<class 'str'>. Make sure provided `function` returns a variable of type `dict` (or a pyarrow table) to update "
        "the dataset or `None` if you are only interested in side effects.",
    ):
        assert _id(TB + line + "\n") == "ARL-E6107", line


def test_map_column_length_mismatch_is_not_e6107():
    line = "pyarrow.lib.ArrowInvalid: Column 1 named input_ids expected length 1000 but got length 1500"
    assert _id(TB + line + "\n") != "ARL-E6107"


# ARL-E6108 -----------------------------------------------------------------------------------------------------------

def test_pandas_read_json_errors_are_e6108():
    for line in (
        "ValueError: Trailing data",
        "ValueError: Expected object or value",
        "ValueError: Unexpected character found when decoding 'true'",
    ):
        assert _id(TB + line + "\n") == "ARL-E6108", line


def test_stdlib_json_extra_data_is_not_e6108():
    line = "json.decoder.JSONDecodeError: Extra data: line 2 column 1 (char 85)"
    assert _id(TB + line + "\n") != "ARL-E6108"


# ARL-E6109 -----------------------------------------------------------------------------------------------------------

def test_no_user_query_is_e6109():
    for line in (
        "jinja2.exceptions.TemplateError: No user query found in messages.",
        "ValueError: No user query found in messages.",
    ):
        assert _id(TB + line + "\n") == "ARL-E6109", line


def test_roles_must_alternate_is_not_e6109():
    line = ("jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...")
    assert _id(TB + line + "\n") != "ARL-E6109"


# ARL-E6110 -----------------------------------------------------------------------------------------------------------

def test_pad_without_input_ids_is_e6110():
    for line in (
        "ValueError: You should supply an encoding or a list of encodings to this method that includes input_ids, "
        "but you provided ['text', 'label']",
        "ValueError: You should supply an encoding or a list of encodings to this method that includes input_ids, "
        "but you provided []",
    ):
        assert _id(TB + line + "\n") == "ARL-E6110", line


def test_unable_to_create_tensor_is_not_e6110():
    line = ("ValueError: Unable to create tensor, you should probably activate truncation and/or padding with "
            "'padding=True' 'truncation=True' to have batched tensors with the same length.")
    assert _id(TB + line + "\n") != "ARL-E6110"


# ARL-E547 (widened) --------------------------------------------------------------------------------------------------

def test_streaming_bad_split_is_e547():
    line = "ValueError: Bad split: test. Available splits: ['train']"
    assert _id(TB + line + "\n") == "ARL-E547"


def test_split_key_error_is_not_e547():
    line = "KeyError: \"Invalid key: 0. Please first select a split. For example: `my_dataset_dictionary['train'][0]`.\""
    assert _id(TB + line + "\n") != "ARL-E547"


# ARL-E122 (widened) --------------------------------------------------------------------------------------------------

def test_empty_dataset_directory_is_e122():
    line = "datasets.data_files.EmptyDatasetError: The directory at /data/gsm8k doesn't contain any data files"
    assert _id(TB + line + "\n") == "ARL-E122"


def test_not_a_saved_dataset_directory_is_not_e122():
    line = ("FileNotFoundError: Directory /data/gsm8k is neither a `Dataset` directory nor a `DatasetDict` directory.")
    assert _id(TB + line + "\n") != "ARL-E122"


# ARL-E6111 -----------------------------------------------------------------------------------------------------------

def test_arrow_json_syntax_error_is_e6111():
    for line in (
        "pyarrow.lib.ArrowInvalid: JSON parse error: Missing a closing quotation mark in string. in row 11",
        "pyarrow.lib.ArrowInvalid: JSON parse error: Invalid value. in row 0",
        "pyarrow.lib.ArrowInvalid: JSON parse error: Missing a name for object member. in row 3",
        "pyarrow.lib.ArrowInvalid: JSON parse error: Missing a comma or '}' after an object member. in row 12",
        "pyarrow.lib.ArrowInvalid: JSON parse error: Invalid escape character in string. in row 7",
    ):
        assert _id(TB + line + "\n") == "ARL-E6111", line


def test_arrow_json_column_type_change_is_not_e6111():
    line = "pyarrow.lib.ArrowInvalid: JSON parse error: Column(/answer) changed from number to string in row 13"
    assert _id(TB + line + "\n") != "ARL-E6111"


# ARL-E6112 -----------------------------------------------------------------------------------------------------------

def test_iterable_dataset_without_length_is_e6112():
    for line in (
        "ValueError: The train_dataset does not implement __len__, max_steps has to be specified. The number of steps "
        "needs to be known in advance for the learning rate scheduler.",
        "NotImplementedError: Iterable datasets are not yet supported in GRPOTrainer. Please use a standard dataset "
        "instead.",
        "TypeError: object of type 'IterableDataset' has no len()",
    ):
        assert _id(TB + line + "\n") == "ARL-E6112", line


def test_empty_dataset_is_not_e6112():
    line = "ValueError: num_samples should be a positive integer value, but got num_samples=0"
    assert _id(TB + line + "\n") != "ARL-E6112"


# ARL-E6113 -----------------------------------------------------------------------------------------------------------

def test_continue_final_message_refused_is_e6113():
    for line in (
        "ValueError: continue_final_message and add_generation_prompt are not compatible. Use continue_final_message "
        "when you want the model to continue the final message, and add_generation_prompt when you want to add a "
        "header that will prompt it to start a new assistant message instead.",
        "ValueError: continue_final_message is not compatible with return_assistant_tokens_mask.",
        "ValueError: continue_final_message is set but the final message does not appear in the chat after applying "
        "the chat template! This can happen if the chat template deletes portions of the final message.",
    ):
        assert _id(TB + line + "\n") == "ARL-E6113", line


def test_no_chat_template_is_not_e6113():
    line = ("ValueError: Cannot use chat template functions because tokenizer.chat_template is not set and no template "
            "argument was passed! For information about writing templates and setting the tokenizer.chat_template "
            "attribute, please see the documentation at https://huggingface.co/docs/transformers/main/en/chat_templating")
    assert _id(TB + line + "\n") != "ARL-E6113"
