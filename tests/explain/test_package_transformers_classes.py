"""DRV-package on a transformers model family's config / processor object lacking an attribute another package reads."""

from __future__ import annotations

import dataclasses
import io

from ascendrl.catalog import Classifier


def classify(catalog, text: str, drop=("ARL-E610",)):
    kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in drop))
    c = Classifier(kept)
    c.feed_stream(io.BytesIO(text.encode()), "paste")
    return c.result()


def top(result):
    return (result.diagnoses[0].entry.id, result.diagnoses[0].kind) if result.diagnoses else (None, None)


def test_a_processor_lacking_its_special_token_attribute_is_transformers_too_old(catalog):
    for name, attribute in (("Qwen2VLProcessor", "image_token"), ("Qwen2_5_VLProcessor", "video_token"), ("Qwen3VLProcessor", "image_token_id")):
        assert top(classify(catalog, f"AttributeError: '{name}' object has no attribute '{attribute}'\n")) == ("DRV-package", "transformers-too-old"), name
    # with vLLM's frame as the reader, and a transformers release the log states
    log = ('Traceback (most recent call last):\n  File "/x/site-packages/vllm/model_executor/models/qwen2_vl.py", line 9, in f\n'
           "    t = processor.image_token\nAttributeError: 'Qwen2VLProcessor' object has no attribute 'image_token'\n")
    result = classify(catalog, log)
    assert top(result) == ("DRV-package", "transformers-too-old") and "vllm" in result.diagnoses[0].entry.cause


def test_a_config_lacking_an_attribute_is_a_pair_in_either_direction(catalog):
    # configuration attributes are renamed across releases (5.0's rope_parameters): package-mismatch, not too-old
    for name in ("LlamaConfig", "Qwen3MoeConfig", "Qwen2_5_VLTextConfig"):
        result = classify(catalog, f"AttributeError: '{name}' object has no attribute 'rope_parameters'\n")
        assert top(result) == ("DRV-package", "package-mismatch") and "transformers" in result.diagnoses[0].entry.title, name


def test_near_misses_stay_as_they_were(catalog):
    # a processor's special token on transformers 5 (attributes renamed there): not called too old
    five = "transformers==5.0.0\nAttributeError: 'Qwen2VLProcessor' object has no attribute 'image_token'\n"
    assert top(classify(catalog, five))[1] != "transformers-too-old"
    # a processor part or a tokenizer attribute read from the wrong object, a tokenizer class, a class of no known family
    for message in ("'Qwen2VLImageProcessor' object has no attribute 'tokenizer'",
                    "'Qwen2VLProcessor' object has no attribute 'eos_token_id'",
                    "'Qwen2TokenizerFast' object has no attribute 'image_token'",
                    "'MyVLProcessor' object has no attribute 'image_token'"):
        result = classify(catalog, f"AttributeError: {message}\n")
        assert all(d.entry.id != "DRV-package" for d in result.diagnoses), message
    # transformers' own code reading it, and a remote-code model reading it: not a pair this rule names
    own = ('Traceback (most recent call last):\n  File "/x/site-packages/transformers/models/qwen3_omni_moe/modeling_qwen3_omni_moe.py", '
           "line 9, in f\n    r = config.rope_parameters\nAttributeError: 'Qwen3MoeConfig' object has no attribute 'rope_parameters'\n")
    assert all(d.entry.id != "DRV-package" for d in classify(catalog, own).diagnoses)
    remote = own.replace("/x/site-packages/transformers/models/qwen3_omni_moe/modeling_qwen3_omni_moe.py",
                         "/home/user/.cache/huggingface/modules/transformers_modules/m/modeling_m.py")
    assert all(d.entry.id != "DRV-package" for d in classify(catalog, remote).diagnoses)


def test_healthy_lines_naming_these_classes_are_not_fatal(catalog):
    log = ("INFO 01-01 00:00:00 [processing.py:10] Loaded Qwen2VLProcessor for Qwen/Qwen2-VL-7B-Instruct\n"
           "WARNING Qwen3MoeConfig has no attribute rope_parameters set; using rope_theta\n")
    assert not classify(catalog, log).fatal
