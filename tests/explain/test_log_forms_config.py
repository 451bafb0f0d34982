"""Log forms of config failures the classifier must read, whatever the catalog holds.

Each test feeds the form to a catalog without the entries that know the message, so what names the
failure is the engine and the analyzers (the leave-thread-out measure's situation), and checks the
full catalog still names it too.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from ascendrl.catalog import Classifier, load_catalog


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return load_catalog(user_dir=tmp_path_factory.mktemp("no-user"))


def classify(catalog, text: str, without: tuple[str, ...] = ()):
    if without:
        catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in without))
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "log")
    return c.result()


def top(result) -> tuple[str, str]:
    d = result.diagnoses[0]
    return d.entry.id, d.kind


VERL_ENTRIES = ("ARL-E104", "ARL-E143")


def test_a_bare_assertion_error_takes_its_condition_from_the_assert_line_above(catalog):
    log = (
        "assert config.data.train_batch_size >= config.actor_rollout_ref.actor.ppo_mini_batch_size\n"
        "AssertionError\n"
    )
    result = classify(catalog, log, VERL_ENTRIES)
    assert top(result) == ("DRV-verl", "verl-batch-config")
    assert "ppo_mini_batch_size" in result.diagnoses[0].entry.title
    assert top(classify(catalog, log))[0] == "ARL-E104"
    # The assert line alone (no exception under it) is no failure, and an assert with a message keeps the message.
    assert not classify(catalog, "assert config.data.train_batch_size >= 4\n").fatal
    said = classify(catalog, 'assert a > b, "a must exceed b"\nAssertionError: a must exceed b\n', VERL_ENTRIES)
    assert said.unknown is not None and said.unknown.message == "a must exceed b"


def test_an_error_raised_inside_a_verl_assert_is_read_with_the_condition(catalog):
    """A ZeroDivisionError in verl's batch-size assert: a micro-batch size became 0, a verl config condition."""
    log = "\n".join([
        "(main_task pid=3666690) Traceback (most recent call last):",
        '(main_task pid=3666690)   File "/data/RAGEN/verl/workers/critic/dp_critic.py", line 54, in __init__',
        "(main_task pid=3666690)     assert self.config.ppo_mini_batch_size % self.config.ppo_micro_batch_size == 0",
        "(main_task pid=3666690) ZeroDivisionError: integer division or modulo by zero",
    ]) + "\n"
    result = classify(catalog, log, VERL_ENTRIES)
    assert top(result) == ("DRV-verl", "verl-batch-config")
    assert "0" in result.diagnoses[0].entry.cause and "ppo_micro_batch_size" in result.diagnoses[0].entry.cause
    # Outside an assert, or in an assert on something else, a ZeroDivisionError stays unexplained.
    plain = log.replace("assert self.config.ppo_mini_batch_size % self.config.ppo_micro_batch_size == 0", "x = a % b")
    assert classify(catalog, plain, VERL_ENTRIES).unknown is not None


def test_hydra_compact_error_reads_the_omegaconf_reason_below_it(catalog):
    """Without HYDRA_FULL_ERROR, Hydra prints 'Error merging override X' and OmegaConf's reason under it."""
    log = (
        "$ python my_app.py +a.j=2\n"
        "Error merging override +a.j=2\n"
        "Key 'j' not in 'A'\n"
        "\tfull_key: a.j\n"
        "\treference_type=A\n"
        "\tobject_type=A\n"
        "\n"
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n"
    )
    result = classify(catalog, log, ("ARL-E061",))
    assert top(result) == ("DRV-hydra-key", "hydra-not-in-struct")
    assert "a.j" in result.diagnoses[0].entry.title and "dataclass A" in result.diagnoses[0].entry.cause
    # A merge error for another reason (a value of the wrong type) is no unknown-key finding.
    typed = log.replace("Key 'j' not in 'A'", "Value '[1, 2]' could not be converted to Integer")
    assert classify(catalog, typed, ("ARL-E061",)).diagnoses[0].entry.id != "DRV-hydra-key"


PYDANTIC = (
    "pydantic_core._pydantic_core.ValidationError: 1 validation error for SchedulerConfig\n"
    "  Value error, max_num_batched_tokens (8192) is smaller than max_model_len (40960). This effectively limits the\n"
    "  maximum sequence length to max_num_batched_tokens and makes vLLM reject longer sequences. [type=value_error, "
    "input_value=ArgsKwargs(()), input_type=ArgsKwargs]\n"
    "    For further information visit https://errors.pydantic.dev/2.11/v/value_error\n"
)


def test_a_pydantic_validation_error_is_read_as_the_value_error_it_carries(catalog):
    result = classify(catalog, PYDANTIC, ("ARL-E156",))
    assert top(result) == ("DRV-engine-lengths", "max-num-batched-tokens-below-max-model-len")
    assert "8192 < 40960" in result.diagnoses[0].entry.title
    assert top(classify(catalog, PYDANTIC))[0] == "ARL-E156"
    unknown = classify(catalog, PYDANTIC.replace("max_num_batched_tokens (8192) is smaller than max_model_len (40960)",
                                                 "the frobnicator is misaligned"), ("ARL-E156",)).unknown
    assert unknown is not None and unknown.message.startswith("the frobnicator is misaligned")
    assert "[type=" not in unknown.message


@pytest.mark.parametrize("line,kind", [
    ("ValueError: max_num_batched_tokens (8192) is smaller than max_model_len (9216). Please increase "
     "max_num_batched_tokens or enable chunked prefill.", "max-num-batched-tokens-below-max-model-len"),
    ("ValueError: Enable chunked prefill, max_num_batched_tokens is smaller than max_model_len, please increase "
     "max_num_batched_tokens or disable chunked prefill", "max-num-batched-tokens-below-max-model-len"),
    ("ValueError: User-specified max_model_len (32768) is greater than the derived max_model_len "
     "(max_position_embeddings=4096 or model_max_length=None in model's config.json).", "max-model-len-exceeds-model"),
    ("AssertionError: model context length should be greater than total sequence length", "max-model-len-exceeds-model"),
])
def test_engine_length_checks_in_vllm_and_verl_wording(catalog, line, kind):
    result = classify(catalog, line + "\n", ("ARL-E156", "ARL-E222"))
    assert top(result) == ("DRV-engine-lengths", kind)
    with_entries = classify(catalog, line + "\n")
    assert with_entries.diagnoses[0].entry.id in ("ARL-E156", "ARL-E222")


@pytest.mark.parametrize("line", [
    "KeyError: \"Column question not in the dataset. Current columns in the dataset: ['prompt', 'answer']\"",
    "ValueError: Columns ['attention_mask'] not in the dataset. Current columns in the dataset: ['text', 'meta', 'input_ids']",
])
def test_a_dataset_missing_the_columns_a_loader_asks_for(catalog, line):
    result = classify(catalog, line + "\n")
    assert top(result) == ("DRV-dataset-columns", "data-missing-field")
    assert "['" in result.diagnoses[0].entry.title


@pytest.mark.parametrize("line,kind", [
    ("pyarrow.lib.ArrowInvalid: Could not open Parquet input source '<Buffer>': Parquet magic bytes not found in footer. "
     "Either the file is corrupted or this is not a parquet file.", "parquet-not-parquet"),
    ("huggingface_hub.errors.OfflineModeIsEnabled: Cannot reach https://huggingface.co/api/models/Qwen/Qwen2.5-7B: offline "
     "mode is enabled. To disable it, please unset the `HF_HUB_OFFLINE` environment variable.", "hf-hub-unreachable"),
])
def test_exception_classes_whose_names_do_not_end_in_error(catalog, line, kind):
    """Module-qualified classes such as pyarrow's ArrowInvalid are exceptions too; the analyzers that know them answer."""
    result = classify(catalog, line + "\n", ("ARL-E134", "ARL-E132"))
    assert result.diagnoses and result.diagnoses[0].kind == kind
    # Unqualified, or without a message, such a word is no exception line.
    assert not classify(catalog, "ArrowInvalid: parquet magic bytes not found\n", ("ARL-E134",)).fatal
    assert not classify(catalog, "pyarrow.lib.ArrowInvalid\n", ("ARL-E134",)).fatal


def test_a_jupyter_traceback_head_of_a_ray_wrapper_names_the_remote_type(catalog):
    """IPython heads a Ray failure 'RayTaskError(PermissionError)    Traceback …': the carried type is the failure."""
    log = (
        "---------------------------------------------------------------------------\n"
        "RayTaskError(PermissionError)             Traceback (most recent call last)\n"
        "Cell In [26], line 2\n"
        "----> 2 ray.get(train_fn.remote())\n"
    )
    result = classify(catalog, log, ("ARL-E007",))
    assert result.diagnoses and result.diagnoses[0].kind == "eacces"
    plain = classify(catalog, log.replace("RayTaskError(PermissionError)", "RayTaskError(ValueError)"), ("ARL-E007",))
    assert plain.unknown is not None and plain.unknown.type == "ValueError"


def test_flags_an_argument_parser_does_not_declare(catalog):
    line = ("ValueError: Some specified arguments are not used by the HfArgumentParser: ['--max_prompt_length', '512', "
            "'--sampling_strategy', 'balanced']\n")
    result = classify(catalog, line)
    assert top(result) == ("DRV-cli-args", "unrecognized-cli-args")
    assert "--max_prompt_length" in result.diagnoses[0].entry.title and "--sampling_strategy" in result.diagnoses[0].entry.title
    # ms-swift logs the same list as a warning under --ignore_args_error: not raised, not a failure.
    assert not classify(catalog, "[WARNING:swift] remaining_argv: ['--use_fused_swiglu']\n").fatal


def test_an_architecture_missing_from_the_registry_vllm_prints(catalog):
    line = ("ValueError: Model architectures ['Qwen3ForCausalLM'] are not supported for now. Supported architectures: "
            "['LlamaForCausalLM', 'Qwen2ForCausalLM', 'Qwen2MoeForCausalLM']\n")
    result = classify(catalog, line, ("ARL-E228",))
    assert top(result) == ("DRV-model-arch", "model-arch-unsupported-by-vllm")
    assert "3 architectures" in result.diagnoses[0].entry.cause and "Qwen2ForCausalLM" in result.diagnoses[0].entry.cause
    assert top(classify(catalog, line))[0] == "ARL-E228"
    # Listed but refused: the model's code failed to import; that error, not the registry, is the cause.
    listed = line.replace("['LlamaForCausalLM',", "['Qwen3ForCausalLM', 'LlamaForCausalLM',")
    refused = classify(catalog, listed, ("ARL-E228",)).diagnoses
    assert not refused or refused[0].entry.id != "DRV-model-arch"


def test_verl_megatron_registry_refusal_is_not_read_as_vllms(catalog):
    """verl/utils/model.py raises vLLM's sentence with verl's own registry list (verl#3043): ARL-E614, no vLLM advice."""
    line = ("ValueError: Model architectures ['Qwen3MoeForCausalLM'] are not supported for now. Supported architectures: "
            "['LlamaForCausalLM', 'Qwen2ForCausalLM', 'MistralForCausalLM']\n")
    result = classify(catalog, line)
    assert result.diagnoses[0].entry.id == "ARL-E614"
    assert not any("DRV-model-arch" in note for d in result.diagnoses for note in d.notes)
    alone = classify(catalog, line, ("ARL-E614", "ARL-E228"))
    assert all(d.entry.id != "DRV-model-arch" for d in alone.diagnoses)


def test_a_message_is_not_read_as_the_cut_head_of_another_whose_wildcard_would_swallow_it(catalog):
    """'Model architectures [...] are not supported' is not a cut-off 'Model architectures [.*] failed to be inspected'."""
    line = "ValueError: Model architectures ['FooForCausalLM'] are not supported for now.\n"
    assert all(d.entry.id != "ARL-E239" for d in classify(catalog, line, ("ARL-E228",)).diagnoses)
    cut = "ValueError: Model architectures ['FooForCausalLM'] failed to be\n"  # a real cut head still is
    assert classify(catalog, cut).diagnoses[0].entry.id == "ARL-E239"


def test_torch_npu_code_description_without_its_number(catalog):
    """torch_npu's words for an ACL code (NPUErrorCodes.h), pasted without the code, still name the code."""
    line = ("通过910B4 32G VNPU部署报错 : Failed to apply for memory. Check the remaining storage space in the hardware "
            "environment.\n")
    result = classify(catalog, line, ("ARL-E400",))
    assert top(result) == ("DRV-code", "npu-oom") and "207001" in result.diagnoses[0].entry.title
    # The description alone is common words: without its advice sentence (or torch_npu's "[Error]: ") it is nothing.
    assert not classify(catalog, "Invalid file.\n").fatal
    assert not classify(catalog, "note: the cache dir is small. Check the docs.\n").fatal


def test_pythons_operand_type_error_pasted_without_its_type(catalog):
    line = "unsupported operand type(s) for %: 'int' and 'NoneType'\n"
    unknown = classify(catalog, line, VERL_ENTRIES).unknown
    assert unknown is not None and unknown.type == "TypeError"
    assert top(classify(catalog, line))[0] == "ARL-E143"


def test_an_exception_repr_in_double_quotes_or_a_tuple_is_read(catalog):
    line = ("ERROR 09-02 01:27:54 [config.py:124] Error retrieving safetensors: (MaxRetryError(\"HTTPConnectionPool(host='hf.local', "
            "port=80): Max retries exceeded with url: /org/model/resolve/main/model.safetensors (Caused by NewConnectionError("
            "'<urllib3.connection.HTTPConnection object at 0x7f40>: Failed to establish a new connection: [Errno 111] Connection "
            "refused'))\"), '(Request ID: 208e9bd0)')\n")
    result = classify(catalog, line, ("ARL-E132",))
    assert top(result) == ("DRV-hub", "hf-hub-unreachable")
    # A repr inside an INFO message that is not about a failure stays a plain line.
    assert not classify(catalog, "INFO loaded mapping: (KeyError(\"x\"), 1)\n").fatal
