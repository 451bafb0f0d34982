"""Session 15 (kdata): sibling wordings of data-model classes read in the emitting source (transformers, datasets,
huggingface_hub, safetensors, verl), each checked both ways (the sibling form is named; a look-alike is not)."""

from __future__ import annotations

import pytest

from kdata_helpers import classify, top


@pytest.mark.parametrize("entry_id, text", [
    # transformers cached_files (current, and the older 'request access' wording without the server's lines), has_file,
    # and datasets >= 3.0 load_dataset: the same GatedRepoError
    ("ARL-E153", "OSError: You are trying to access a gated repo.\nMake sure to have access to it at "
                 "https://huggingface.co/google/gemma-3-1b-pt.\n401 Client Error. (Request ID: Root=1-6)\n"),
    ("ARL-E153", "OSError: You are trying to access a gated repo.\nMake sure to request access at "
                 "https://huggingface.co/meta-llama/Llama-2-7b-hf and pass a token having permission to this repo\n"),
    ("ARL-E153", "OSError: google/gemma-2b is a gated repository. Make sure to request access at https://huggingface.co/google/gemma-2b "
                 "and pass a token having permission to this repo either by logging in with `hf auth login`\n"),
    ("ARL-E153", "datasets.exceptions.DatasetNotFoundError: Dataset 'org/private-set' is a gated dataset on the Hub. "
                 "You must be authenticated to access it.\n"),
    # transformers' processor (multimodal) forms of a missing chat template, current and 4.44-era
    ("ARL-E145", "ValueError: Cannot use apply_chat_template because this processor does not have a chat template.\n"),
    ("ARL-E145", "ValueError: No chat template is set for this processor. Please either set the `chat_template` attribute, "
                 "or provide a chat template as an argument.\n"),
    # safetensors' other header errors: 0.3-0.5 variant names, >= 0.6 words
    ("ARL-E141", "safetensors_rust.SafetensorError: Error while deserializing header: InvalidHeaderDeserialization\n"),
    ("ARL-E141", "safetensors_rust.SafetensorError: Error while deserializing header: HeaderTooSmall\n"),
    ("ARL-E141", "safetensors_rust.SafetensorError: Error while deserializing header: invalid header length\n"),
    # the training-side count check (verl's patched VL forwards, transformers' VL models; newer comma wording)
    ("ARL-E504", "ValueError: Image features and image tokens do not match: tokens: 2641, features 2640\n"),
    ("ARL-E504", "ValueError: Video features and video tokens do not match: tokens: 0, features 2000\n"),
    ("ARL-E504", "ValueError: Image features and image tokens do not match, tokens: 8422, features: 8779\n"),
])
def test_entry_sibling_forms_are_named(catalog, entry_id, text):
    assert top(catalog, text)[0] == entry_id


@pytest.mark.parametrize("entry_id, text", [
    # a chat template that IS set but fails to render is not a missing template
    ("ARL-E145", "jinja2.exceptions.TemplateError: Conversation roles must alternate user/assistant/user/assistant/...\n"),
    # a tensor missing from a valid file is a key mismatch, not a broken file
    ("ARL-E141", "safetensors_rust.SafetensorError: File does not contain tensor model.embed_tokens.weight\n"),
    # a processor complaint about the number of images passed is not the token/feature count check
    ("ARL-E504", "ValueError: The number of images in the prompt (1) does not match the number of images (2)\n"),
])
def test_entry_look_alikes_are_not_named(catalog, entry_id, text):
    result = classify(catalog, text)
    assert entry_id not in [d.entry.id for d in result.diagnoses]


# Derived kinds read by the analyzers (DRV-hub, DRV-dataset-columns): (paste, kind, whether that kind must be the top answer).
DERIVED = [
    # huggingface_hub < 0.10 (a plain ValueError), datasets 1.18 (its "Couln't" spelling) and datasets < 2.x fetching a
    # canonical dataset's loading script from GitHub
    ("ValueError: Connection error, and we cannot find the requested files in the cached path. Please try again or make sure "
     "your Internet connection is on.\n", "hf-hub-unreachable", True),
    ("ConnectionError: Couln't reach the Hugging Face Hub for dataset 'gsm8k': Offline mode is enabled.\n",
     "hf-hub-unreachable", True),
    ("ConnectionError: Couldn't reach https://raw.githubusercontent.com/huggingface/datasets/1.18.3/datasets/gsm8k/gsm8k.py "
     "(ConnectionError(MaxRetryError(\"HTTPSConnectionPool(host='raw.githubusercontent.com', port=443): Max retries exceeded\")))\n",
     "hf-hub-unreachable", True),
    # not the Hub
    ("ConnectionError: Couldn't reach https://example.org/files/data.json (error 503)\n", "hf-hub-unreachable", False),
    ("ValueError: Connection error while reading the socket\n", "hf-hub-unreachable", False),
    # verl's own preprocessing script (examples/data_preprocess/gsm8k.py make_map_fn -> process_fn) on data with other columns
    ('Traceback (most recent call last):\n  File "examples/data_preprocess/gsm8k.py", line 54, in process_fn\n'
     '    question_raw = example.pop("question")\nKeyError: \'question\'\n', "data-missing-field", True),
    # a trainer's datasets.map callback reading a single-turn field from multi-turn data
    ('Traceback (most recent call last):\n  File "/home/user/MedicalGPT/rl_training.py", line 334, in preprocess_function\n'
     "    for instruction, input in zip(examples['instruction'], examples['input']):\nKeyError: 'instruction'\n", "data-missing-field", True),
    # a weight name missing from a model's parameters (dotted key, loader function): a checkpoint mismatch, not data
    ('Traceback (most recent call last):\n  File "/home/user/vllm/model_executor/models/qwen2.py", line 400, in load_weights\n'
     "    param = params_dict[name]\nKeyError: 'model.layers.0.mlp.gate_up_proj.weight'\n", "data-missing-field", False),
    # a bare field missing outside any row-mapping function
    ('Traceback (most recent call last):\n  File "/home/user/app/server.py", line 12, in process_request\n'
     "    user = payload['user']\nKeyError: 'user'\n", "data-missing-field", False),
    # an integer key inside a preprocessing function is an index, not a column
    ('Traceback (most recent call last):\n  File "/home/user/prep.py", line 9, in preprocess_function\n'
     "    first = turns[0]\nKeyError: 0\n", "data-missing-field", False),
]


@pytest.mark.parametrize("text, kind, named", DERIVED)
def test_derived_forms_both_ways(catalog, text, kind, named):
    got = (top(catalog, text) or ("", ""))[1]
    assert (got == kind) if named else (got != kind)
