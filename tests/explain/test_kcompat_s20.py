"""Session 20, kcompat: DRV-package on a KeyError out of transformers' config registry (a model_type the installed
transformers does not define) and on an installed trainer calling a function handed to it (a reward function) with
arguments the function does not take; the source line above a TypeError read past Python 3.11's caret line."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier


def classify(catalog, text: str):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "paste")
    return c.result()


def top(result):
    return (result.diagnoses[0].entry.id, result.diagnoses[0].kind) if result.diagnoses else (None, None)


CONFIG_AUTO = "site-packages/transformers/models/auto/configuration_auto.py"


def test_a_model_type_transformers_does_not_define_is_transformers_too_old(catalog):
    for path in (f"/opt/conda/lib/python3.10/{CONFIG_AUTO}", "D:\\Anaconda\\envs\\qwen\\Lib\\" + CONFIG_AUTO.replace("/", "\\")):
        for model_type in ("qwen2_moe", "qwen3_5", "deepseek_v3", "mistral"):
            log = (f'Traceback (most recent call last):\n  File "{path}", line 1155, in from_pretrained\n'
                   '    config_class = CONFIG_MAPPING[config_dict["model_type"]]\n'
                   f'  File "{path}", line 723, in __getitem__\n    raise KeyError(key)\nKeyError: \'{model_type}\'\n')
            result = classify(catalog, log)
            assert top(result) == ("DRV-package", "transformers-too-old"), (path, model_type)
            assert model_type in result.diagnoses[0].entry.title


def test_a_keyerror_elsewhere_is_not_read_as_transformers(catalog):
    log = ('Traceback (most recent call last):\n  File "/x/site-packages/verl/utils/dataset/rl_dataset.py", line 9, in __getitem__\n'
           '    prompt = row["prompt"]\nKeyError: \'prompt\'\n')
    assert top(classify(catalog, log))[1] != "transformers-too-old"
    # the registry of another package that happens to be a dict named alike
    log = ('Traceback (most recent call last):\n  File "/x/site-packages/mylib/registry.py", line 9, in get\n'
           '    return MODELS[name]\nKeyError: \'qwen2\'\n')
    assert top(classify(catalog, log))[1] != "transformers-too-old"


def test_a_trainer_calling_a_handed_in_function_with_other_arguments(catalog):
    # (a reward function is DRV-reward-args' reading, merged at the same time: the reward interface's own advice; any other
    # function the trainer was handed, a collator here, is this reading's)
    for message in ("my_collate() takes 1 positional argument but 2 were given",
                    "my_collate() got an unexpected keyword argument 'processor'"):
        log = ('Traceback (most recent call last):\n'
               '  File "/home/u/.conda/envs/ml/lib/python3.12/site-packages/trl/trainer/grpo_trainer.py", line 1200, in _prepare_inputs\n'
               '    batch = collate_fn(features, processor=processor)\n'
               '            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n'
               f'TypeError: {message}\n')
        result = classify(catalog, log)
        assert top(result) == ("DRV-package", "package-mismatch"), message
        assert result.diagnoses[0].entry.title.startswith("trl calls your "), result.diagnoses[0].entry.title


def test_a_handed_in_reward_function_is_the_reward_reading(catalog):
    log = ('Traceback (most recent call last):\n'
           '  File "/home/u/.conda/envs/ml/lib/python3.12/site-packages/trl/trainer/grpo_trainer.py", line 1200, in _calculate_rewards\n'
           '    output_reward_func = reward_func(prompts=prompts, completions=completions, **reward_kwargs)\n'
           'TypeError: my_reward() got an unexpected keyword argument \'completion_ids\'\n')
    assert top(classify(catalog, log)) == ("DRV-reward-args", "reward-fn-signature-mismatch")


def test_a_direct_call_is_not_a_handed_in_function(catalog):
    # the package calls the function by its own name: no callback finding
    log = ('Traceback (most recent call last):\n  File "/x/site-packages/trl/trainer/utils.py", line 9, in f\n'
           '    out = pad(tensors, 0, side)\n    ^^^^^^^^^^^^^^^^^^^^^^^\nTypeError: pad() takes 2 positional arguments but 3 were given\n')
    result = classify(catalog, log)
    assert not (result.diagnoses and result.diagnoses[0].entry.title.startswith("trl calls your "))


def test_a_call_inside_torch_tensor_does_not_make_torch_the_callee(catalog):
    log = ('Traceback (most recent call last):\n  File "/x/site-packages/trl/trainer/grpo_trainer.py", line 372, in compute_loss\n'
           '    rewards[i] = torch.tensor(reward_func(prompts, completions))\n'
           'TypeError: format_reward_func() takes 1 positional argument but 2 were given\n')
    result = classify(catalog, log)
    # the reward reading names the reward function, not torch (the package reading did the same before the merge);
    # ltocompat: TRL's own frame passing two positional arguments is the pre-release TRL snapshot (only main between
    # PR #2606 and #2650 calls reward_func(prompts, completions)), so the kind is trl-too-old
    assert top(result) == ("DRV-reward-args", "trl-too-old"), top(result)
    assert "torch" not in result.diagnoses[0].entry.title and "format_reward_func" in result.diagnoses[0].entry.title


def test_an_error_listed_under_a_loaders_message_is_read(catalog):
    # a loader that lists each attempt's error under its own message (sgl_kernel's "Error details from previous import
    # attempts", an ExceptionGroup's bars): the first listed error the analyzer reads names the pair
    for bullet in ("- ", "| "):
        log = ("ImportError: \n[mylib] CRITICAL: Could not load any ops library!\nError details from previous import attempts:\n"
               f"{bullet}ImportError: /x/site-packages/mylib/ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa\n"
               f"{bullet}ModuleNotFoundError: No module named 'ops'\n")
        result = classify(catalog, log)
        assert top(result) == ("DRV-package", "extension-torch-abi-mismatch"), bullet
        assert "torch" in result.diagnoses[0].entry.title
    # a listed error the analyzer does not read leaves the outer one unexplained
    log = "ImportError: \n[mylib] could not load\n- ImportError: something else went wrong\n"
    assert top(classify(catalog, log))[0] != "DRV-package"
