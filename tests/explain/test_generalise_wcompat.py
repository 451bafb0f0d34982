"""Session 14, helper wcompat: version checks, missing distributions and unregistered compiled operators, in the
wordings their emitters print (transformers' require_version, setuptools' pkg_resources, importlib.metadata, torch's
dispatcher), and the boundaries of each."""

from __future__ import annotations

import pytest


def _top(explain_text, paste):
    _, top = explain_text(paste)
    assert top is not None, paste
    return top


@pytest.mark.parametrize("paste,kind", [
    # transformers >= 4.8: ImportError; a lower bound not met by a transformers pin names the too-old label
    ("ImportError: transformers>=4.51.0 is required for a normal functioning of this module, but found transformers==4.46.3.\n",
     "transformers-too-old"),
    # above the range's upper bound: a mismatch, not "too old"
    ("ImportError: transformers>=4.41.2,<=4.45.0 is required for a normal functioning of this module, but found transformers==4.45.2.\n"
     "To fix: pip install transformers>=4.41.2,<=4.45.0\n", "package-mismatch"),
    # another package below its floor: its own too-old kind (2026-12-04 eighth stop: any distribution, not six)
    ("ImportError: accelerate>=0.26.0 is required for a normal functioning of this module, but found accelerate==0.21.0.\n"
     "Try: `pip install transformers -U` or `pip install -e '.[dev]'` if you're working with git main\n", "accelerate-too-old"),
    # the Python special case
    ("ImportError: python>=3.9 is required for a normal functioning of this module, but found python==3.8.10.\n", "python-too-old"),
    # transformers' first require_version raised pkg_resources.VersionConflict with the same text
    ("pkg_resources.VersionConflict: tokenizers==0.9.4 is required for a normal functioning of this module, but found tokenizers==0.10.1.\n",
     "package-mismatch"),
    # pkg_resources' own VersionConflict, printed as its args, and as its report (torch below the lower bound: the
    # too-old kind since torch has one, 2026-12-04 fifth stop, as transformers above)
    ("pkg_resources.VersionConflict: (torch 2.1.0 (/usr/local/lib/python3.9/site-packages), Requirement.parse('torch>=2.4.0'))\n",
     "torch-too-old"),
    ("pkg_resources.ContextualVersionConflict: (numpy 2.0.1 (/usr/lib/python3/dist-packages), Requirement.parse('numpy<2'), {'vllm-ascend'})\n",
     "package-mismatch"),
    # the distribution is absent (importlib.metadata, transformers' require_version), or none inside a range (pkg_resources)
    ("importlib.metadata.PackageNotFoundError: No package metadata was found for vllm\n", "missing-dependency"),
    ("importlib.metadata.PackageNotFoundError: The 'peft' distribution was not found and is required by this application. \n",
     "missing-dependency"),
    ("pkg_resources.DistributionNotFound: The 'tqdm>=4.27' distribution was not found and is required by the application\n",
     "package-mismatch"),
])
def test_a_version_check_names_the_requirement_and_what_was_found(explain_text, paste, kind):
    top = _top(explain_text, paste)
    assert top.entry.id == "DRV-package" and top.kind == kind, (top.entry.id, top.kind)


def test_an_unregistered_operator_of_a_torch_sibling_is_a_pair_that_does_not_match(explain_text):
    top = _top(explain_text, "RuntimeError: operator torchvision::nms does not exist\n")
    assert top.entry.id == "DRV-package" and top.kind == "package-mismatch" and "torchvision" in top.entry.title
    top = _top(explain_text, "RuntimeError: No such operator torchvision::nms\n")
    assert top.entry.id == "DRV-package" and "torchvision" in top.entry.title


@pytest.mark.parametrize("paste", [
    # an operator namespace whose owner is not known: not claimed as a package pair
    "RuntimeError: operator mylib::custom_add does not exist\n",
])
def test_other_wordings_are_not_claimed(explain_text, paste):
    result, top = explain_text(paste)
    assert top is None or top.entry.id != "DRV-package" or top.kind not in ("package-mismatch", "transformers-too-old")


def test_a_stated_minimum_raised_as_an_error_is_the_package_too_old(explain_text):
    # k49compat (s48): a check that raises "X>=V is required" says the installed X is below V (it was once left unclaimed
    # as prose without what was found; the raise itself says what was found is not enough)
    result, top = explain_text("ValueError: transformers>=4.51.0 is required to load this model\n")
    assert top is not None and top.entry.id == "DRV-package" and top.kind == "transformers-too-old", top


@pytest.mark.parametrize("paste,want", [
    # an extension built with newer NumPy headers than the running numpy (1.x headers' API check; 2.x headers' wording)
    ("RuntimeError: module compiled against API version 0x10 but this version of numpy is 0xf\n", "ARL-E700"),
    ("RuntimeError: module was compiled against NumPy C-API version 0x12 (NumPy 2.0) but the running NumPy has C-API version 0x10. "
     "Check the section C-API incompatibility at the Troubleshooting ImportError section at "
     "https://numpy.org/devdocs/user/troubleshooting-importerror.html#c-api-incompatibility for indications on how to solve this problem.\n",
     "ARL-E700"),
    # Cython's type-size check as the ValueError that stops the import
    ("ValueError: numpy.ndarray size changed, may indicate binary incompatibility. Expected 88 from C header, got 80 from PyObject\n",
     "ARL-E700"),
    # NumPy 1.x headers meeting NumPy 2's ABI: numpy 2 under a package built for 1.x
    ("RuntimeError: module compiled against ABI version 0x1000009 but this version of numpy is 0x2000000\n", "ARL-E385"),
])
def test_numpy_c_api_mismatches_are_named(explain_text, paste, want):
    assert _top(explain_text, paste).entry.id == want


def test_cythons_size_warning_is_not_the_fatal_mismatch(explain_text):
    # older Cython warned (RuntimeWarning, no "from C header") when the running struct was larger: the import went on
    result, top = explain_text("/usr/lib/python3.6/importlib/_bootstrap.py:219: RuntimeWarning: numpy.dtype size changed, may indicate "
                               "binary incompatibility. Expected 96, got 88\n  return f(*args, **kwds)\n")
    assert not result.fatal and (top is None or top.entry.id != "ARL-E700")


def test_a_script_named_like_the_library_it_imports_is_named_as_shadowing(explain_text):
    paste = ("Traceback (most recent call last):\n"
             '  File "/home/user/grpo/trl.py", line 3, in <module>\n    from trl import GRPOConfig, GRPOTrainer\n'
             '  File "/home/user/grpo/trl.py", line 3, in <module>\n    from trl import GRPOConfig, GRPOTrainer\n'
             "ImportError: cannot import name 'GRPOConfig' from partially initialized module 'trl' (most likely due to a circular import) "
             "(/home/user/grpo/trl.py)\n")
    top = _top(explain_text, paste)
    assert top.kind == "local-dir-shadows-package" and "trl.py" in top.entry.title
    # imported from another script: the local file is the innermost frame, importing its own name once
    top = _top(explain_text, "Traceback (most recent call last):\n"
                             '  File "/home/user/grpo/train.py", line 3, in <module>\n    from trl import GRPOTrainer\n'
                             '  File "/home/user/grpo/trl.py", line 1, in <module>\n    from trl import GRPOConfig\n'
                             "ImportError: cannot import name 'GRPOConfig' from partially initialized module 'trl' (most likely due to a "
                             "circular import) (/home/user/grpo/trl.py)\n")
    assert top.kind == "local-dir-shadows-package"
    # the message alone, for a library this tool knows
    top = _top(explain_text, "ImportError: cannot import name 'LLM' from partially initialized module 'vllm' (most likely due to a "
                             "circular import) (/home/user/vllm.py)\n")
    assert top.kind == "local-dir-shadows-package"


@pytest.mark.parametrize("paste", [
    # a cycle between one's own modules (cpython#136094, Python 3.12 and 3.13 wordings): no library is shadowed
    "Traceback (most recent call last):\n"
    '  File "/home/user/mainmod.py", line 1, in <module>\n    from secondmod import secondaryitem\n'
    '  File "/home/user/secondmod.py", line 1, in <module>\n    from mainmod import mainitem\n'
    '  File "/home/user/mainmod.py", line 1, in <module>\n    from secondmod import secondaryitem\n'
    "ImportError: cannot import name 'secondaryitem' from 'secondmod' (consider renaming '/home/user/secondmod.py' if it has the same "
    "name as a library you intended to import)\n",
    "ImportError: cannot import name 'secondaryitem' from partially initialized module 'secondmod' (most likely due to a circular "
    "import) (/home/user/secondmod.py)\n",
    # the installed package itself mid-import: not a local file
    "ImportError: cannot import name 'ProcessorMixin' from partially initialized module 'transformers' (most likely due to a circular "
    "import) (/usr/local/lib/python3.10/site-packages/transformers/__init__.py)\n",
])
def test_a_circular_import_without_a_shadowing_file_is_not_called_shadowing(explain_text, paste):
    result, top = explain_text(paste)
    assert "local-dir-shadows-package" not in [d.kind for d in result.diagnoses]


@pytest.mark.parametrize("paste,caller", [
    # an issue title: a few words, the library, the symbol cut off (sgl-project/sglang#851, Dao-AILab/flash-attention#853)
    ("[Bug] can not run flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol\n", "flash_attn_2_cuda"),
    ("flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol\n", "flash_attn_2_cuda"),
    # words before the loader's line, the symbol kept
    ("flash-attn error flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationE\n",
     "flash_attn_2_cuda"),
    # torch's symbol alone
    ("undefined symbol: _ZN2at4_ops5zeros4callEN3c108ArrayRefINS2_6SymIntEEE\n", "a compiled extension"),
])
def test_an_undefined_symbol_in_a_title_is_the_extension_and_torch_pair(explain_text, paste, caller):
    top = _top(explain_text, paste)
    assert top.entry.id == "DRV-package" and top.kind == "extension-torch-abi-mismatch" and top.entry.title.startswith(f"{caller} and torch")


@pytest.mark.parametrize("paste", [
    # a library that is no Python extension, its symbol not pasted: whose symbol it was is unknown
    "libfoo.so: undefined symbol\n",
    # a symbol that is not torch's, alone: nothing says which library or pair
    "undefined symbol: _ZN4absl12lts_2023080212log_internalE\n",
])
def test_an_undefined_symbol_that_names_no_pair_is_not_claimed(explain_text, paste):
    result, top = explain_text(paste)
    assert top is None or not (top.entry.id == "DRV-package" and "torch" in top.entry.title)


@pytest.mark.parametrize("paste,kind", [
    ("ImportError: cannot import name 'Qwen2_5_VLForConditionalGeneration' from 'transformers' "
     "(/usr/local/lib/python3.10/site-packages/transformers/__init__.py)\n", "transformers-too-old"),
    ("AttributeError: module 'transformers' has no attribute 'Qwen3MoeForCausalLM'\n", "transformers-too-old"),
    # factories and TF / Flax classes that later releases dropped: every release the wheel table read up to the last
    # with it binds it, and the failed import shows the installed one does not, so it is newer than the caller
    # (apihistory, eleventh 2026-12-05 stop; these three read package-mismatch before); a submodule's internal class
    ("ImportError: cannot import name 'AutoModelForVision2Seq' from 'transformers'\n", "transformers-too-new"),
    ("ImportError: cannot import name 'TFPreTrainedModel' from 'transformers'\n", "transformers-too-new"),
    ("ImportError: cannot import name 'Qwen2_5_VLImageProcessor' from 'transformers.models.qwen2_5_vl'\n", "package-mismatch"),
    # a function, not a model class, that later releases dropped
    ("ImportError: cannot import name 'top_k_top_p_filtering' from 'transformers'\n", "transformers-too-new"),
])
def test_a_model_class_transformers_lacks_is_transformers_too_old(explain_text, paste, kind):
    top = _top(explain_text, paste)
    assert top.entry.id == "DRV-package" and top.kind == kind, (top.entry.id, top.kind)
