"""Session 14 (wdata): sibling wordings of data-model and Ray classes read in the emitting source, each checked both ways."""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return load_catalog(user_dir=tmp_path_factory.mktemp("no-user"))


def ids(catalog, text: str) -> list[str]:
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "log")
    return [d.entry.id for d in c.result().diagnoses]


@pytest.mark.parametrize("entry_id, line", [
    # torch.load of a Git LFS pointer / an HTML page, and of a truncated zip checkpoint
    ("ARL-E141", "_pickle.UnpicklingError: invalid load key, 'v'."),
    ("ARL-E141", "RuntimeError: PytorchStreamReader failed reading file data/2: invalid header or archive is corrupted"),
    # pandas.read_parquet (verl <= 0.3) and datasets' local-path forms
    ("ARL-E122", "FileNotFoundError: [Errno 2] No such file or directory: '/data/gsm8k/train.parquet'"),
    ("ARL-E122", "FileNotFoundError: Couldn't find a dataset script at /data/x/x.py or any data file in the same directory."),
    ("ARL-E122", "FileNotFoundError: Couldn't find any data file at /data/gsm8k. Couldn't find '/data/gsm8k' on the Hugging Face "
                 "Hub either: FileNotFoundError: Dataset '/data/gsm8k' doesn't exist on the Hub or cannot be accessed."),
    ("ARL-E122", "datasets.exceptions.DataFilesNotFoundError: No (supported) data files found in /data/x"),
    # transformers 4.37 / 4.51 wordings of a directory without weights
    ("ARL-E232", "OSError: Error no file named pytorch_model.bin, model.safetensors, tf_model.h5, model.ckpt.index or "
                 "flax_model.msgpack found in directory /data/m."),
    ("ARL-E232", "OSError: Error no file named model.safetensors found in directory /data/ckpt/actor."),
    ("ARL-E790", "ValueError: When connecting to an existing cluster, resources must not be provided."),
    ("ARL-E791", "ModuleNotFoundError: No module named 'custom_module'"),
    # transformers: a relative / namespace-shaped path that is neither a folder nor a Hub repo; a config.json without model_type
    ("ARL-E108", "OSError: models/Qwen2.5-7B-Instruct is not a local folder and is not a valid model identifier listed on "
                 "'https://huggingface.co/models'"),
    ("ARL-E155", "ValueError: Unrecognized model in /data/ckpt/global_step_100/actor. Should have a `model_type` key in its "
                 "config.json, or contain one of the following strings in its name: albert, align, altclip"),
    # OmegaConf 2.0 / 2.3 wordings of a value of the wrong type for a typed field (Hydra prints the message alone on its line)
    ("ARL-E792", "omegaconf.errors.ValidationError: Value 'abc' of type 'str' could not be converted to Integer"),
    ("ARL-E792", "Value '1.0' could not be converted to Integer"),
    ("ARL-E792", "omegaconf.errors.ValidationError: Value 'yes please' is not a valid bool (type str)"),
    # datasets' cast of a later block to the first block's features (one-line and multi-line forms)
    ("ARL-E162", "TypeError: Couldn't cast array of type string to null"),
    ("ARL-E162", "TypeError: Couldn't cast array of type"),
    # Ray 2.43 / 2.55 / 1.x wordings of a local node that did not start
    ("ARL-E793", "Exception: The current node timed out during startup. This could happen because some of the Ray "
                 "processes failed to startup."),
    ("ARL-E793", "Exception: The current node timed out during startup. This could happen because some of the raylet "
                 "failed to startup or the GCS has become overloaded."),
    ("ARL-E793", "Exception: The current node has not been updated within 30 seconds, this could happen because of some "
                 "of the Ray processes failed to startup."),
])
def test_sibling_forms_are_named(catalog, entry_id, line):
    assert ids(catalog, line + "\n")[:1] == [entry_id]


def test_a_hub_dataset_name_stays_a_hub_miss_and_a_local_path_is_not_one(catalog):
    hub = ("FileNotFoundError: Couldn't find a dataset script at /data/openai/gsm8k/gsm8k.py or any data file in the same "
           "directory. Couldn't find 'openai/gsm8k' on the Hugging Face Hub either: FileNotFoundError: Dataset 'openai/gsm8k' "
           "doesn't exist on the Hub\n")
    assert ids(catalog, hub)[:1] == ["ARL-E548"]
    assert "ARL-E122" not in ids(catalog, hub)
    local = "DatasetNotFoundError: Dataset '/data/gsm8k' doesn't exist on the Hub or cannot be accessed.\n"
    assert "ARL-E548" not in ids(catalog, local)


def test_weights_of_another_framework_and_other_files_are_not_a_missing_weights_directory(catalog):
    # transformers: the directory has TF weights (a different fix: from_tf=True); the truncated-paste heads must not claim it
    tf = ("OSError: Error no file named pytorch_model.bin found in directory /data/m but there is a file for TensorFlow "
          "weights. Use `from_tf=True` to load this model from those weights.\n")
    assert "ARL-E232" not in ids(catalog, tf)
    # a missing file that is not a parquet data file is not ARL-E122; a pickle of other data is not a weights file
    assert "ARL-E122" not in ids(catalog, "FileNotFoundError: [Errno 2] No such file or directory: '/data/models/config.json'\n")
    assert "ARL-E141" not in ids(catalog, "_pickle.UnpicklingError: invalid load key, '\\x00'.\n")
    assert "ARL-E791" not in ids(catalog, "ModuleNotFoundError: No module named 'custom_ops'\n")


def test_a_type_error_of_another_library_is_not_a_config_type_error(catalog):
    assert "ARL-E792" not in ids(catalog, "ValueError: invalid literal for int() with base 10: 'abc'\n")
    assert "ARL-E155" not in ids(catalog, "ValueError: The checkpoint you are trying to load has model type `qwen3` but "
                                          "Transformers does not recognize this architecture.\n")


def test_the_wait_for_node_source_line_is_not_the_timeout(catalog):
    # a traceback quotes the f-string that builds the message; only the raised message (with its number) is the failure
    quoted = '    461     f"Timed out after {timeout} seconds while waiting for node to startup. "\n'
    assert "ARL-E793" not in ids(catalog, quoted)


def test_the_cast_source_line_and_a_column_name_mismatch_are_not_a_type_change(catalog):
    source = '-> 2122 raise TypeError(f"Couldn\'t cast array of type\\n{_short_str(array.type)}\\nto\\n{_short_str(feature)}")\n'
    assert "ARL-E162" not in ids(catalog, source)
    names = "datasets.table.CastError: Couldn't cast\na: string\nto\n{'b': Value(dtype='string')}\nbecause column names don't match\n"
    assert "ARL-E162" not in ids(catalog, names)
