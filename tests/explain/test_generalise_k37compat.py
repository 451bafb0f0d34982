"""k37compat: readings of compat classes that other threads' entries name, written from the emitters' source.

DRV-plugin-name (catalog/analyzers/pluginname.py): vLLM refuses a name only the Ascend platform plugin supplies.
vllm-ascend appends 'ascend' to the parser's --quantization choices (NPUPlatform.pre_register_and_update, from
v0.9.0rc1, vllm-ascend PR #877), and its attention backend named itself 'ASCEND' until v0.12.0rc1 moved it to vLLM's
'CUSTOM' slot (commit bc69d7cf, "upgrade to vllm 0.11.2"), where vLLM's AttentionBackendEnum refuses any other name
("Unknown attention backend: '<name>'. Valid options are: …", vllm/v1/attention/backends/registry.py). The lines
are the real pastes of vllm-ascend#902 and #4197; the tests read them with no catalog entry, as a user whose failure
no entry names would be read.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from ascendrl.catalog import Classifier, load_catalog

QUANT = ("usage: vllm serve [model_tag] [options]\n"
         "vllm serve: error: argument --quantization/-q: invalid choice: 'ascend' (choose from 'aqlm', 'awq', "
         "'deepspeedfp', 'tpu_int8', 'fp8', 'ptpc_fp8', 'fbgemm_fp8', 'modelopt', 'nvfp4', 'marlin', 'gguf', 'gptq', "
         "'compressed-tensors', 'bitsandbytes', 'moe_wna16', 'torchao', None)\n")
BACKEND = ("ValueError: Unknown attention backend: 'ASCEND'. Valid options are: FLASH_ATTN, TRITON_ATTN, XFORMERS, "
           "ROCM_ATTN, TORCH_SDPA, FLASHINFER, FLASHINFER_MLA, TRITON_MLA, CUTLASS_MLA, FLASHMLA, PALLAS, IPEX, NO_ATTENTION, "
           "FLEX_ATTENTION, TREE_ATTN, CPU_ATTN\n")
ACTIVATED = "INFO 09-09 13:13:55 __init__.py:198] Platform plugin ascend is activated\n"


def _read(text: str, without: tuple[str, ...] = ("ARL-E220", "ARL-E274")):
    """The reading without the entries that name these messages (they would win: their own threads)."""
    catalog = load_catalog()
    classifier = Classifier(dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in without)))
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result, (result.diagnoses[0] if result.diagnoses else None)


def test_quantization_ascend_refused_is_a_vllm_ascend_too_old():
    result, top = _read(QUANT)
    assert result.fatal and top is not None
    assert (top.entry.id, top.kind) == ("DRV-plugin-name", "vllm-ascend-too-old")
    assert "pre_register_and_update" in top.entry.cause and "did not load" in top.entry.cause
    assert any("v0.9.0rc1" in step for step in top.entry.fix)


def test_quantization_refused_with_the_plugin_activated_says_the_release_is_too_old():
    _, top = _read(ACTIVATED + QUANT)
    assert top.entry.id == "DRV-plugin-name"
    assert "the plugin was activated" in top.entry.cause and "did not load" not in top.entry.cause


def test_the_ascend_backend_refused_by_the_enum_is_a_vllm_ascend_older_than_vllm():
    result, top = _read(BACKEND)
    assert result.fatal and (top.entry.id, top.kind) == ("DRV-plugin-name", "vllm-ascend-too-old")
    assert "'CUSTOM'" in top.entry.cause


def test_another_npu_plugins_backend_is_a_pair_that_does_not_match():
    # vllm-plugin-FL's backend name: the pair is out of step, which side is behind is not stated by the name
    _, top = _read(BACKEND.replace("'ASCEND'", "'ASCEND_FL'"))
    assert (top.entry.id, top.kind) == ("DRV-plugin-name", "package-mismatch")


@pytest.mark.parametrize("text", [
    # a backend name the user mistyped for a GPU: not an NPU plugin's name
    BACKEND.replace("'ASCEND'", "'ROCM_FLASH'"),
    # a quantization method vLLM lacks, not the plugin's
    QUANT.replace("'ascend' (choose", "'awq_marlin2' (choose"),
])
def test_other_refused_names_are_not_read_as_the_plugin(text):
    _, top = _read(text)
    assert top is None or top.entry.id != "DRV-plugin-name"


def test_with_the_full_catalog_the_entries_name_them_and_carry_the_reading():
    for text, entry in ((QUANT, "ARL-E220"), (BACKEND, "ARL-E274")):
        _, top = _read(text, without=())
        assert top.entry.id == entry
        assert top.kind == "vllm-ascend-too-old"
        assert any(note.startswith("DRV-plugin-name") for note in top.notes)


# DRV-versions, pip's ResolutionImpossible (pip/_internal/resolution/resolvelib/factory.py, get_installation_error): the
# CRITICAL "Cannot install … because these package versions have conflicting dependencies." and its causes under
# "The conflict is caused by:". The paste is LlamaFactory#5763's.
RESOLUTION = ("ERROR: Cannot install llamafactory and llamafactory[metrics,torch-npu]==0.9.1.dev0 because these package "
              "versions have conflicting dependencies.\n\nThe conflict is caused by:\n"
              "    llamafactory[metrics,torch-npu] 0.9.1.dev0 depends on torch==2.1.0; extra == \"torch-npu\"\n"
              "    torch-npu 2.1.0.post3 depends on torch==2.1.0+cpu\n")


def test_pips_conflict_report_names_the_two_pins_on_one_package():
    result, top = _read(RESOLUTION, without=("ARL-E270",))
    assert result.fatal and (top.entry.id, top.kind) == ("DRV-versions", "package-mismatch")
    assert "two pins on torch" in top.entry.title
    assert "torch-npu 2.1.0.post3 requires torch==2.1.0+cpu" in top.entry.cause
    assert "requires torch==2.1.0;" in top.entry.cause and "extra ==" not in top.entry.cause  # the marker is not the pin


def test_the_report_without_its_causes_is_still_a_version_conflict():
    # an issue title quotes only pip's first line
    _, top = _read(RESOLUTION.split("\n", 1)[0] + "\n", without=("ARL-E270",))
    assert (top.entry.id, top.kind) == ("DRV-versions", "package-mismatch")


def test_a_user_pin_against_a_package_is_read_as_the_clash():
    text = ("ERROR: Cannot install -r requirements.txt (line 3) and vllm==0.9.1 because these package versions have "
            "conflicting dependencies.\n\nThe conflict is caused by:\n    The user requested torch==2.7.1\n"
            "    vllm 0.9.1 depends on torch==2.7.0\n")
    _, top = _read(text, without=("ARL-E270",))
    assert top.entry.id == "DRV-versions"
    assert "you requested torch==2.7.1" in top.entry.cause and "vllm 0.9.1 requires torch==2.7.0" in top.entry.cause


def test_with_the_full_catalog_the_entry_names_it_and_carries_the_pins():
    _, top = _read(RESOLUTION, without=())
    assert top.entry.id == "ARL-E270"
    assert any("torch==2.1.0+cpu" in note for note in top.notes)


# DRV-custom-opp (catalog/analyzers/library.py): a CANN custom operator package (vendors/<vendor_name> with
# op_api/lib/libcust_opapi.so) found only through $ASCEND_OPP_PATH/vendors or ASCEND_CUSTOM_OPP_PATH, which the
# package's own set_env.bash exports (CANN's environment-variable reference). DRV-library read libcust_opapi.so as CANN's
# own library (cann-env-not-sourced): it is the custom package's.
@pytest.mark.parametrize("text, what", [
    # xllm#67's title: the link of a program against the package's op API
    ("undefined reference to aclnnPpMatMulOpt Or libcust_opapi.so cannot be found\n", "libcust_opapi.so"),
    # the loader's words (glibc dl-load.c), as a Python ctypes load prints them
    ("OSError: libcust_opapi.so: cannot open shared object file: No such file or directory\n", "libcust_opapi.so"),
    # flash-linear-attention-npu#304: the project's own lookup of its vendors/ folder (fla_npu _resolve_vendor_dir)
    ("FileNotFoundError: Unable to find FLA NPU custom OPP. Expected /x/site-packages/fla_npu/opp/vendors/fla_npu_transformer. "
     "If you installed it separately, source the custom OPP set_env.bash, or set FLA_NPU_OPP_PATH\n", "OPP folder"),
])
def test_a_custom_operator_package_not_found(text, what):
    result, top = _read(text, without=("ARL-E2110",))
    assert result.fatal and (top.entry.id, top.kind) == ("DRV-custom-opp", "custom-opp-path-not-set")
    assert what in top.entry.title and "set_env.bash" in " ".join(top.entry.fix)


@pytest.mark.parametrize("text", [
    "OSError: libopapi.so: cannot open shared object file: No such file or directory\n",  # CANN's own op API: set_env.sh
    "RuntimeError: custom OPP loaded from /usr/local/Ascend/opp/vendors/customize\n",  # an OPP named, nothing missing
])
def test_cann_own_libraries_and_found_packages_are_not_read_as_it(text):
    _, top = _read(text, without=())
    assert top is None or top.entry.id != "DRV-custom-opp"


# DRV-package: a module its distribution removed in a release. setuptools v82.0.0 removed pkg_resources (NEWS.rst,
# "Deprecations and Removals", #3085): "No module named 'pkg_resources'" is setuptools too new for the caller (or none at
# all), fixed by setuptools<82, not a package named pkg_resources to install.
def test_pkg_resources_missing_is_setuptools_newer_than_the_caller():
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.11/site-packages/torchair/__init__.py", line 9, in <module>\n'
            "    import pkg_resources\n"
            "ModuleNotFoundError: No module named 'pkg_resources'\n")
    result, top = _read(text, without=("ARL-E2690",))
    assert result.fatal and (top.entry.id, top.kind) == ("DRV-package", "package-mismatch")
    assert "setuptools 82.0.0" in top.entry.title and "torchair" in top.entry.title
    assert any("setuptools<82" in step for step in top.entry.fix)
    assert not any("pip install pkg_resources" in step for step in top.entry.fix)


def test_other_missing_top_level_modules_stay_missing_dependencies():
    _, top = _read("ModuleNotFoundError: No module named 'sentencepiece'\n", without=())
    assert top is not None and top.kind == "missing-dependency"


# DRV-torch-npu-soc: torch_npu's SetSocVersion (NpuVariables.cpp) refuses a chip its table does not list, printing the
# name's underscores as spaces. A chip the current torch_npu lists (or an Ascend950 name, accepted by prefix) means the
# installed build is too old; one it does not list has no torch_npu at all.
@pytest.mark.parametrize("printed, kind", [
    ("Ascend950PR 9579", "torch-npu-too-old"),  # RLinf#1577: the install script pinned torch-npu 2.6.0
    ("Ascend910 9391", "torch-npu-too-old"),  # an A3 name, Ascend910_9391 in the table
    ("Ascend310", "soc-unsupported-by-torch-npu"),
    ("Ascend610", "soc-unsupported-by-torch-npu"),
])
def test_the_refused_chip_is_read_against_the_current_table(printed, kind):
    result, top = _read(f"RuntimeError: Unsupported soc version: {printed}\n", without=("ARL-E271",))
    assert result.fatal and (top.entry.id, top.kind) == ("DRV-torch-npu-soc", kind)
    assert printed.replace(" ", "_") in top.entry.cause


def test_an_application_that_catches_it_prints_the_same_words():
    # PaddleOCR's wrapper prints the RuntimeError's text after its own words (the refusal is still torch_npu's)
    _, top = _read("RuntimeError: PytorchPaddleOCR init failed: Unsupported soc version: Ascend310\n", without=("ARL-E271",))
    assert (top.entry.id, top.kind) == ("DRV-torch-npu-soc", "soc-unsupported-by-torch-npu")
