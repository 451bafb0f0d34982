"""Readings the lead added in the fourteenth stop (2026-12-06), from the thirteenth stop's notes:

- DRV-package: "No module named X" raised while Ray unpickled an object (ray/_private/serialization.py's frames, or the
  RaySystemError "System error: " wrapper it becomes on ray.get) names the receiving process's environment and Ray's
  runtime_env, not a package to pip-install where the driver runs. Same kind (missing-dependency).
- ARL-E4160: datasets' ArrowWriter.finalize with no example and no features (ValueError up to 2.13,
  SchemaInferenceError from 2.14), ranked above the DatasetGenerationError that wraps it.
- logversions: pip show's Name / Version pair for every package of the stack, not only the three upstream ones.
- classify._after_cjk: the exception quoted after a Chinese lead-in is found however many CJK characters come before it
  (the cap counts only positions followed by ASCII text), and a closing backtick ends it.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from ascendrl.catalog.logversions import read_versions
from kdata_helpers import classify, first

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)


RAY_GET = """Traceback (most recent call last):
  File "/home/user/verl/verl/trainer/main_ppo.py", line 64, in run_ppo
    ray.get(runner.run.remote(config))
  File "/usr/lib/python3.10/site-packages/ray/_private/worker.py", line 866, in get_objects
    raise value
ray.exceptions.RaySystemError: System error: No module named 'my_reward'
traceback: Traceback (most recent call last):
  File "/usr/lib/python3.10/site-packages/ray/_private/serialization.py", line 404, in deserialize_objects
    obj = self._deserialize_object(data, metadata, object_ref)
  File "/usr/lib/python3.10/site-packages/ray/_private/serialization.py", line 215, in _deserialize_pickle5_data
    obj = pickle.loads(in_band)
ModuleNotFoundError: No module named 'my_reward'
"""


def test_module_missing_where_ray_unpickled_names_the_worker_environment():
    top = _top(RAY_GET)
    assert top is not None and top.entry.id == "DRV-package"
    assert "where Ray unpickled" in top.entry.title
    assert top.kind == "missing-dependency"
    assert any("runtime_env" in step for step in top.entry.fix)


def test_ray_system_error_line_alone_is_read_the_same_way():
    top = _top("ray.exceptions.RaySystemError: System error: No module named 'reward_utils'\n")
    assert top is not None and top.entry.id == "DRV-package" and "where Ray unpickled" in top.entry.title


def test_plain_missing_module_in_the_users_script_keeps_the_install_reading():
    top = _top('Traceback (most recent call last):\n  File "/home/user/train.py", line 2, in <module>\n'
               "    import peft\nModuleNotFoundError: No module named 'peft'\n")
    assert top is not None and top.entry.id == "DRV-package"
    assert "where Ray unpickled" not in top.entry.title
    assert any("pip install peft" in step for step in top.entry.fix)


SCHEMA = ("Traceback (most recent call last):\n"
          '  File "/usr/lib/python3.11/site-packages/datasets/builder.py", line 1854, in _prepare_split_single\n'
          "    num_examples, num_bytes = writer.finalize()\n"
          "datasets.arrow_writer.SchemaInferenceError: Please pass `features` or at least one example when writing data\n\n"
          "The above exception was the direct cause of the following exception:\n\n"
          "Traceback (most recent call last):\n"
          '  File "/home/user/prep.py", line 9, in <module>\n'
          '    ds = load_dataset("json", data_files="data/*.jsonl")\n'
          "datasets.exceptions.DatasetGenerationError: An error occurred while generating the dataset\n")


def test_no_examples_written_is_e4160_above_its_wrapper():
    top = _top(SCHEMA)
    assert top is not None and top.entry.id == "ARL-E4160"


def test_older_valueerror_wording_is_e4160():
    top = _top("ValueError: Please pass `features` or at least one example when writing data\n")
    assert top is not None and top.entry.id == "ARL-E4160"


def test_dataset_generation_error_over_a_parse_error_is_not_e4160():
    # From 2.14 datasets reports the exception that stopped generation (e.__context__), not the writer's.
    top = _top("pyarrow.lib.ArrowInvalid: JSON parse error: Missing a name for object member. in row 3\n\n"
               "The above exception was the direct cause of the following exception:\n\n"
               "datasets.exceptions.DatasetGenerationError: An error occurred while generating the dataset\n")
    assert top is None or top.entry.id != "ARL-E4160"


def test_pip_show_pairs_are_read_for_the_whole_stack():
    stated = read_versions(["Name: transformers", "Version: 4.38.2", "Summary: x", "Name: torchvision", "Version: 0.20.1",
                            "Name: ray", "Version: 2.40.0", "Name: numpy", "Version: 1.26.4"])
    assert {k: v.version for k, v in stated.items()} == {"transformers": "4.38.2", "ray": "2.40.0", "numpy": "1.26.4"}


def test_pip_show_version_feeds_the_package_reading():
    top = _top("Name: transformers\nVersion: 4.38.2\n"
               "ImportError: cannot import name 'Qwen2_5_VLForConditionalGeneration' from 'transformers' "
               "(/usr/lib/python3.10/site-packages/transformers/__init__.py)\n")
    assert top is not None and top.entry.id == "DRV-package"
    assert "4.38.2" in top.entry.cause


# classify: a typed exception quoted in a person's sentence.

def test_exception_after_a_long_chinese_lead_in_is_read():
    # More than 32 CJK characters before the quote: every one used to count toward the cap on tried positions.
    line = ("您好，请问你的问题解决了吗？插入model reward 而不是 rule reward。我发现简单地在reward_function里面定义model，"
            "会报错`RuntimeError: No CUDA GPUs are available`\n")
    top = _top(line)
    assert top is not None and top.excerpt.startswith("RuntimeError: No CUDA GPUs are available")
    assert not top.excerpt.endswith("`")  # the closing quote is not part of the message


def test_exception_in_backticks_in_an_english_sentence_is_read():
    top = _top("When I run the GRPO example I get `ModuleNotFoundError: No module named 'math_verify'` in the reward "
               "manager.\nAny idea?\n")
    assert top is not None and top.entry.id == "DRV-package" and "math_verify" in top.entry.title


def test_backticked_code_that_is_no_exception_is_not_read():
    assert _top("I set `actor_rollout_ref.rollout.n=8` and `data.train_batch_size=64` and it works fine now.\n") is None


# From round 41's development logs.

def test_numpy1_extension_under_numpy2_is_e385_and_fatal():
    text = ("A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.3 as it may crash. To support both 1.x "
            "and 2.x\n\nTraceback (most recent call last):  File \"<stdin>\", line 1, in <module>\n"
            "  File \"/usr/lib/python3/dist-packages/somepkg/__init__.py\", line 2, in <module>\n"
            "    from somepkg._ext import *\nAttributeError: _ARRAY_API not found\n"
            "ImportError: numpy.core._multiarray_umath failed to import\n")
    top = _top(text)
    assert top is not None and top.entry.id == "ARL-E385" and top.fatal


def test_torch_caught_array_api_warning_stays_not_fatal():
    result = classify(CATALOG, "/usr/lib/python3/dist-packages/torch/_subclasses/functional_tensor.py:258: UserWarning: "
                               "Failed to initialize NumPy: _ARRAY_API not found (Triggered internally at "
                               "../torch/csrc/utils/tensor_numpy.cpp:84.)\nstep:1 - loss:0.5\n", "run.log")
    assert not result.fatal


def test_builtin_tokenizer_class_of_a_later_transformers_reads_too_old():
    top = _top("ValueError: Tokenizer class Qwen2Tokenizer does not exist or is not currently imported.\n")
    assert top is not None and top.entry.id == "DRV-package" and top.kind == "transformers-too-old"
    assert "4.37" in top.entry.cause


def test_custom_tokenizer_class_keeps_e237():
    # No transformers release defines QWenTokenizer: it is the model repo's own code (trust_remote_code).
    top = _top("ValueError: Tokenizer class QWenTokenizer does not exist or is not currently imported.\n")
    assert top is not None and top.entry.id == "ARL-E237"


def test_datasets_cast_error_without_its_message_is_e148():
    top = _top("CastError                                 Traceback (most recent call last)\n"
               "File ~/miniconda3/lib/python3.13/site-packages/datasets/builder.py:1871, in "
               "ArrowBasedBuilder._prepare_split_single(self, gen_kwargs, fpath, file_format, max_shard_size, job_id)\n")
    assert top is not None and top.entry.id == "ARL-E148"


def test_another_librarys_cast_error_is_not_e148():
    top = _top("polars.exceptions.InvalidOperationError: conversion from `str` to `i64` failed in column 'id'\n")
    assert top is None or top.entry.id != "ARL-E148"


def test_conda_list_rows_are_read():
    stated = read_versions(["# Name                    Version                   Build  Channel",
                            "numpy                     1.26.4          py310h5f9d8c6_0",
                            "transformers              4.38.2                   pypi_0    pypi",
                            "[conda] ray                       2.40.0                   pypi_0    pypi",
                            "torchvision               0.16.0                   pypi_0    pypi"])
    assert {k: v.version for k, v in stated.items()} == {"numpy": "1.26.4", "transformers": "4.38.2", "ray": "2.40.0"}


def test_a_sentence_with_a_package_and_a_number_is_not_a_conda_row():
    assert "vllm" not in read_versions(["vllm  0.9.1  fails  to start on this host sometimes"])


# From round 42's development logs.

def test_strict_load_with_other_parameter_names_is_e4161():
    top = _top("RuntimeError: Error(s) in loading state_dict for UNet3D:\n"
               '\tMissing key(s) in state_dict: "encoders.0.conv.weight", "encoders.0.conv.bias". \n'
               '\tUnexpected key(s) in state_dict: "module.encoders.0.conv.weight", "module.encoders.0.conv.bias". \n')
    assert top is not None and top.entry.id == "ARL-E4161"


def test_dcp_missing_key_is_e4161():
    top = _top("[rank0]: RuntimeError: Missing key in checkpoint state_dict: model.layers.0.attention.wq.weight.\n")
    assert top is not None and top.entry.id == "ARL-E4161"


def test_size_mismatch_alone_stays_e546():
    top = _top("RuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n"
               "\tsize mismatch for model.embed_tokens.weight: copying a param with shape torch.Size([128260, 4096]) from "
               "checkpoint, the shape in current model is torch.Size([128256, 4096]).\n")
    assert top is not None and top.entry.id == "ARL-E546"


def test_unset_environment_variable_in_a_config_is_e4162():
    top = _top("omegaconf.errors.InterpolationResolutionError: KeyError raised while resolving interpolation: "
               "\"Environment variable 'DATA_ROOT' not found\"\n    full_key: data.train_files\n")
    assert top is not None and top.entry.id == "ARL-E4162"


def test_missing_config_key_is_not_e4162():
    top = _top("omegaconf.errors.ConfigAttributeError: Missing key reward_fn\n    full_key: custom_reward_function.reward_fn\n")
    assert top is None or top.entry.id != "ARL-E4162"


def test_negative_max_tokens_is_e4163_and_zero_is_not():
    top = _top("ValueError: max_tokens must be at least 1, got -239.\n")
    assert top is not None and top.entry.id == "ARL-E4163"
    zero = _top("ValueError: max_tokens must be at least 1, got 0.\n")
    assert zero is None or zero.entry.id != "ARL-E4163"


def test_quantized_layer_not_splittable_over_tp_is_e4164():
    top = _top("ValueError: The input size is not aligned with the quantized weight shape. This can be caused by too "
               "large tensor parallel size.\n")
    assert top is not None and top.entry.id == "ARL-E4164"


def test_ray_head_already_running_is_e4165_in_both_wordings():
    for text in ("ConnectionError: Ray is trying to start at 10.0.0.5:6379, but is already running at 10.0.0.5:6379. "
                 "Please specify a different port using the `--port` flag of `ray start` command.\n",
                 "ConnectionError: Ray is already running at 10.0.0.5:6379. Please specify a different port using the "
                 "`--port` command to `ray start`.\n"):
        top = _top(text)
        assert top is not None and top.entry.id == "ARL-E4165", text


def test_ray_init_twice_is_not_e4165():
    top = _top("RuntimeError: Maybe you called ray.init twice by accident? This error can be suppressed by passing in "
               "'ignore_reinit_error=True' or by calling 'ray.shutdown()' prior to 'ray.init()'.\n")
    assert top is None or top.entry.id != "ARL-E4165"


def test_dashboard_node_stats_grpc_size_warning_is_not_fatal():
    # ray-project/ray#48230: the dashboard logs an oversized node-stats reply on a healthy cluster.
    result = classify(CATALOG,
                      "2024-10-23 17:15:32,894 ~ ray.dashboard.modules.node.node_head:427 ~ <AioRpcError of RPC that "
                      "terminated with:\n        status = StatusCode.RESOURCE_EXHAUSTED\n"
                      '        details = "Received message larger than max (4690578 vs. 4194304)"\n>\nNoneType: None\n'
                      "(TaskRunner pid=123) step:5 - loss:0.3\n", "head.log")
    assert not result.fatal
    assert result.diagnoses and result.diagnoses[0].entry.id == "ARL-E4128"
