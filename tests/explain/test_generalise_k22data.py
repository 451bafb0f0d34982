"""Libraries' own checks and registries that name the mechanism (stop 29, k22data).

Each paste is scored without the catalog entries written from the threads these lines come from, so only the
analyzers (and data rows) can name them: transformers' Auto-class lookup of a config class nobody registered
(auto_factory.py ``self._reverse_config_mapping[key.__name__]``, an own_checks row read from the source line above the
KeyError), a model_type no transformers release defines (emitted.CustomModelType, against transformers' own
CONFIG_MAPPING_NAMES), the Karmarkar-Karp partitioner's equal-size assert (own_checks row; a sentence quoting the assert
gives its statement), TRL's reward loop turning a reward function's None into a tensor (own_checks row, read from the
source line above the TypeError), and verl's own model registries (modelarch.VerlModelArchitecture). Near misses stay
something else.
"""

from __future__ import annotations

import pytest

# entries written from the threads these lines come from (taken out so the analyzers alone must answer)
OWN = ("ARL-E614", "ARL-E1500")


JANUS = (
    'traceback (most recent call last):\n'
    '  File "/home/ashim/miniconda3/envs/captioning/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", line 1092, in from_pretrained\n'
    '    config_class = CONFIG_MAPPING[config_dict["model_type"]]\n'
    '  File "/home/ashim/miniconda3/envs/captioning/lib/python3.10/site-packages/transformers/models/auto/configuration_auto.py", line 794, in __getitem__\n'
    '    raise KeyError(key)\n'
    "KeyError: 'multi_modality'\n")


@pytest.mark.parametrize("text, analyzer, kind", [
    # transformers#38517: a reward model's own config class, unknown to AutoModelForSequenceClassification's mapping
    ('File "/anaconda/envs/openrlhf/lib/python3.10/site-packages/transformers/models/auto/auto_factory.py", line 767, in __getitem__\n'
     '    model_type = self._reverse_config_mapping[key.__name__]\n'
     "KeyError: 'Qwen2RMConfig'\n", "DRV-own-check", "custom-arch-not-registered"),
    # Janus (deepseek-ai/Janus#68, transformers#36294): the checkpoint's model_type is the repo's own
    ("ValueError: The checkpoint you are trying to load has model type `multi_modality` but Transformers does not recognize "
     "this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is "
     "out of date.\n", "DRV-custom-model-type", "custom-arch-not-registered"),
    # the KeyError older transformers let out of AutoConfig (transformers#36294's first traceback)
    (JANUS, "DRV-custom-model-type", "custom-arch-not-registered"),
    # miles#1356: a report that quotes the partitioner's assert and the AssertionError it raised
    ("which trips the Karmarkar-Karp assertion `assert len(seqlen_list) % k_partitions == 0` in "
     "`miles/utils/seqlen_balancing.py` and crashes the run (`AssertionError: 206 % 4 != 0`).\n",
     "DRV-own-check", "seqlen-balance-count-not-divisible"),
    # TRL <= 0.15's reward loop (grpo_trainer.py, the line ms-swift#4751 names): a reward function returned None
    ('  File "/usr/local/lib/python3.10/site-packages/trl/trainer/grpo_trainer.py", line 624, in _prepare_inputs\n'
     '    rewards_per_func[:, i] = torch.tensor(output_reward_func, dtype=torch.float32, device=device)\n'
     'TypeError: must be real number, not NoneType\n', "DRV-own-check", "reward-fn-returned-none"),
    # ms-swift#4751: the exception pasted alone, then where it was raised with the code, as the reporter wrote it
    ("TypeError: must be real number, not NoneType\n"
     "报错位置：swift/trainers/rlhf_trainer/grpo_trainer.py，881行 rewards_per_func[:, i] = torch.tensor(output_reward_func, "
     "dtype=torch.float32, device=device)\n", "DRV-own-check", "reward-fn-returned-none"),
    # verl#3043: verl's Megatron registry, worded as vLLM's
    ("ValueError: Model architectures ['Qwen3MoeForCausalLM'] are not supported for now. Supported architectures: "
     "['LlamaForCausalLM', 'Qwen2ForCausalLM', 'MistralForCausalLM']\n", "DRV-verl-model-arch", "model-arch-unsupported-by-verl"),
    # verl#1305: verl < 0.3's remove-padding list
    ("ValueError: Model architecture qwen3 is not supported for now. RMPad supported architectures: dict_keys(['llama', "
     "'mistral', 'gemma', 'qwen2']).Please set `use_remove_padding=False` in the model config.\n",
     "DRV-verl-model-arch", "model-arch-unsupported-by-verl"),
])
def test_the_check_names_the_mechanism(explain_without, text, analyzer, kind):
    top, top_kind = explain_without(text)
    assert (top, top_kind) == (analyzer, kind)


@pytest.mark.parametrize("text, not_kind", [
    # a model_type of a family transformers has (llamafactory#6784, qwen2_5_vl): transformers too old, not custom
    ("[rank1]: ValueError: The checkpoint you are trying to load has model type `qwen2_5_vl` but Transformers does not "
     "recognize this architecture. This could be because of an issue with the checkpoint, or because your version of "
     "Transformers is out of date.\n", "custom-arch-not-registered"),
    # a newer member of a known family (vllm#36217's title): transformers too old
    ("[Bug]: The checkpoint you are trying to load has model type `qwen3_5` but Transformers does not recognize this "
     "architecture\n", "custom-arch-not-registered"),
    # QwenLM/Qwen3#434: the registry KeyError for 'qwen2' (transformers < 4.37)
    (JANUS.replace("multi_modality", "qwen2"), "custom-arch-not-registered"),
    # a KeyError naming a config class outside the Auto-class lookup
    ("KeyError: 'Qwen2RMConfig'\n", "custom-arch-not-registered"),
    # torch's message alone does not say the list held rewards (ms-swift#6868: rollout logprobs)
    ("[rank7]: TypeError: must be real number, not NoneType\n", "reward-fn-returned-none"),
    # a location without the code says nothing of what was converted
    ("TypeError: must be real number, not NoneType\nIt is raised in grpo_trainer.py, line 881.\n", "reward-fn-returned-none"),
    # the partitioner's message alone does not say which check it is
    ("AssertionError: 206 % 4 != 0\n", "seqlen-balance-count-not-divisible"),
    # vLLM's own registry (vllm#22231): its list is vLLM's, not verl's
    ("ValueError: Model architectures ['Qwen3ForCausalLM'] are not supported for now. Supported architectures: "
     "['AquilaModel', 'AquilaForCausalLM', 'ArcticForCausalLM', 'LlamaForCausalLM', 'MistralForCausalLM', 'Qwen2ForCausalLM']\n",
     "model-arch-unsupported-by-verl"),
])
def test_near_misses_are_not_named_so(explain_without, text, not_kind):
    _, kind = explain_without(text)
    assert kind != not_kind


def test_a_reward_manager_without_extra_info_is_named_and_not_fatal(catalog, tmp_path):
    """mll-lab-nu/RAGEN#89: verl prints the KeyError it caught and trains on (ARL-E2230, a warning)."""
    from ascendrl.catalog import explain_paths

    log = tmp_path / "x.log"
    log.write_text("(TaskRunner pid=1241451) Error in reward_fn: 'reward_extra_info'\n"
                   "(TaskRunner pid=1241451) list(reward_extra_infos_dict.keys())=[]\n", encoding="utf-8")
    result = explain_paths(catalog, [log])
    assert result.diagnoses[0].entry.id == "ARL-E2230" and not result.fatal
    log.write_text("Error in reward_fn: 'acc'\n", encoding="utf-8")
    assert all(d.entry.id != "ARL-E2230" for d in explain_paths(catalog, [log]).diagnoses)
