"""Lead, thirteenth stop (2026-12-05): an exception raised while handling another is the handler's failure.

Python prints "During handling of the above exception, another exception occurred" when an ``except`` block raises
without ``from``: the first exception was caught and a fallback ran. When both exceptions are named specifically, the
fallback's failure is what ended the run (datasets 2.20's JSON loader falls back to pandas after Arrow refuses a file,
and that fallback passes ``dtype_backend=`` to a pandas older than 2.0). ``raise … from`` ("direct cause") keeps the
earlier exception first, and a handler that fails with nothing specific (a cleanup's AttributeError) leaves it first too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.catalog import load_catalog
from ascendrl.render_explain import to_plain
from kdata_helpers import classify

CATALOG = load_catalog()
CONTEXT = "During handling of the above exception, another exception occurred:"
CAUSE = "The above exception was the direct cause of the following exception:"
# datasets' JSON loader (packaged_modules/json/json.py, 2.20.0): Arrow's parse error, then pandas' fallback failing
DATASETS_6977 = (Path(__file__).parent / "realworld/dev/datasets-6977.log").read_text(encoding="utf-8")
PASTE = DATASETS_6977.split("\n", 4)[4]


def _explain(text: str):
    return classify(CATALOG, text, "paste.log")


def _ids(text: str) -> list[tuple[str, str | None, str | None]]:
    return [(d["id"], d["consequence_of"], d.get("handled_before")) for d in _explain(text).to_json()["diagnoses"]]


def test_the_paste_is_the_context_case():
    assert CONTEXT in PASTE and CAUSE not in PASTE


def test_the_handlers_failure_ranks_first_and_the_caught_error_is_marked_handled():
    ids = _ids(PASTE)
    assert ids[0] == ("DRV-package", None, None)
    assert ("ARL-E162", "DRV-package", "DRV-package") in ids


def test_a_direct_cause_keeps_the_earlier_exception_first():
    ids = _ids(PASTE.replace(CONTEXT, CAUSE))
    assert ids[0] == ("ARL-E162", None, None)
    assert all(handled is None for _, _, handled in ids)


def test_a_handler_failing_with_nothing_specific_leaves_the_caught_error_first():
    last = PASTE.rstrip("\n").rsplit("\n", 1)[1]
    ids = _ids(PASTE.replace(last, "AttributeError: 'NoneType' object has no attribute 'close'"))
    assert ids[0] == ("ARL-E162", None, None)


def test_the_text_report_says_the_error_was_caught():
    text = to_plain(_explain(PASTE))
    assert "caught, then its handler failed (DRV-package)" in text
    assert "consequence of DRV-package" not in text


# ---- round 40's development logs: accelerator ops that a library does not build for the NPU ----

def _top_id(text: str) -> str | None:
    diagnoses = _explain(text).to_json()["diagnoses"]
    return diagnoses[0]["id"] if diagnoses else None


XFORMERS_DISPATCH = """NotImplementedError: No operator found for `memory_efficient_attention_forward` with inputs:
     query       : shape=(1, 1025, 16, 64) (torch.float16)
     key         : shape=(1, 1025, 16, 64) (torch.float16)
     value       : shape=(1, 1025, 16, 64) (torch.float16)
     attn_bias   : <class 'NoneType'>
     p           : 0.0
`fa2F@v2.5.7-pt` is not supported because:
    device={device} (supported: {{'cuda'}})
`cutlassF-pt` is not supported because:
    device={device} (supported: {{'cuda'}})
"""


def test_xformers_dispatch_on_npu_tensors_is_a_cuda_only_package():
    # xformers >= 0.0.17's reasons (fmha/common.py, AttentionOpBase.not_supported_reasons), with a query on the npu device
    assert _top_id(XFORMERS_DISPATCH.format(device="npu")) == "ARL-E3961"


def test_xformers_dispatch_on_cpu_tensors_is_not_read_as_the_npu():
    assert _top_id(XFORMERS_DISPATCH.format(device="cpu")) != "ARL-E3961"


@pytest.mark.parametrize("backend", ["NPU", "CPU"])
def test_deepspeeds_missing_op_builder_is_named_for_any_backend(backend):
    assert _top_id(f"ValueError: This op had not been implemented on {backend} backend.") == "ARL-E3960"


def test_a_sentence_saying_a_lookup_resolves_to_a_builder_still_reports_the_error_it_quotes():
    # "resolves to" is where the lookup lands, not a fix (chains.NOT_A_REPORT); "resolved the error" still reads as a fix
    said = "the builder resolves to the NPU `NotImplementedBuilder` and `load()` raises `ValueError: This op had not been implemented on NPU backend.`"
    assert _top_id(said) == "ARL-E3960"
    assert _top_id(said.replace("the builder resolves to", "this PR resolved the error in")) != "ARL-E3960"
