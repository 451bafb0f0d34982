"""Session 19, kpkg: DRV-package on a transformers model family's config / processor object lacking an attribute another
package reads; DRV-library on a library the OS's packages install (libGL, libglib, libsndfile, libaio, libquadmath, libgomp)."""

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


def test_each_system_library_names_its_os_package(catalog):
    for lib, deb in (("libGL.so.1", "libgl1"), ("libgthread-2.0.so.0", "libglib2.0-0"), ("libsndfile.so.1", "libsndfile1"),
                     ("libaio.so.1", "libaio1"), ("libquadmath.so.0", "libquadmath0"),
                     ("libgomp.so.1", "libgomp1")):
        result = classify(catalog, f"ImportError: {lib}: cannot open shared object file: No such file or directory\n")
        assert top(result) == ("DRV-library", "missing-dependency"), lib
        assert any(deb in step for step in result.diagnoses[0].entry.fix), (lib, result.diagnoses[0].entry.fix)


def test_other_libraries_keep_their_reading(catalog):
    # a library no row names stays a search-path finding; CANN's and CUDA's keep theirs
    for lib, kind in (("libfoo_private.so.3", "ld-library-path-missing"), ("libnuma.so.1", "ld-library-path-missing"),
                      ("libascendcl.so", "cann-env-not-sourced"), ("libcudart.so.12", "cuda-only-package-on-npu")):
        result = classify(catalog, f"ImportError: {lib}: cannot open shared object file: No such file or directory\n")
        assert result.diagnoses and result.diagnoses[0].kind == kind, (lib, top(result))
    # a name that only starts like a row's is not that row (libGLU, libGLX are other packages)
    result = classify(catalog, "ImportError: libGLU.so.1: cannot open shared object file: No such file or directory\n")
    assert top(result) != ("DRV-library", "missing-dependency")


def test_a_warning_that_a_system_library_is_missing_is_not_fatal(catalog):
    log = ("WARNING 01-01 00:00:00 [x.py:1] Failed to load libGL.so.1: cannot open shared object file: No such file or directory; "
           "rendering disabled\nINFO step:1 - loss:0.5\n")
    assert not classify(catalog, log).fatal
