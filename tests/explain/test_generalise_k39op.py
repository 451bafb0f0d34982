"""Readings widened by helper k39op (2026-12-04) from the emitting projects' sources, each for a class of failure:

- GE's zero-copy check of a caller's output buffer against the size its own inference gave the tensor (hicann/ge
  runtime/v1/graph/load/model_manager/davinci_model.cc, CheckUserAndModelSize and "Check output size failed, index …"):
  under torchair the buffer comes from the op's Meta (fake) inference, so the op's Meta dtype / shape disagrees with
  GE's (ARL-E2970), in the CANN 8.0/8.1 wording (E19025) and the v8.5.0+ one (E13025) alike.
- An aclnn call refused with the runtime's Invalid_Argument for a kernel launched with 0 blocks (EE1003, "value 0 for
  parameter blockDim is invalid"): DRV-code's kernel-launch-empty-grid is narrower than ARL-E331's rejected call, for
  any aclnn operator (ARL-E331 refined_by).
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str) -> dict:
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    assert data["diagnoses"], data
    return data["diagnoses"][0]


# --- ARL-E2970: GE refuses an output buffer smaller than its inferred size -------------------------------------------

GE_TRACEBACK = (
    "       TraceBack (most recent call last):\n"
    "       Check output size failed, index 2, user size 4096, op size 8192.[FUNC:ConstructZeroCopyIoActiveBaseAddrs]"
    "[FILE:davinci_model.cc][LINE:6868]\n"
    "       Assert ((UpdateAllNodeArgs(input_data, output_data,input_tensor, output_tensor)) == ge::SUCCESS) failed"
    "[FUNC:CopyModelData][FILE:davinci_model.cc][LINE:487]\n"
)


def test_e13025_wording_of_cann_8_5_names_the_output_size_check():
    text = ("Traceback (most recent call last):\n"
            '  File "/home/user/run.py", line 40, in <module>\n'
            "    out = compiled(x)\n"
            "RuntimeError: E13025: [PID: 1200] 2026-01-02-10:00:00.000.000 The input memory size set by the user is "
            "invalid.The provided 4096 bytes of buffer size plus the aligned 64 bytes is less than the tensor size "
            "8192 bytes required by the model\n" + GE_TRACEBACK)
    assert _top(text)["id"] == "ARL-E2970"


def test_cann_8_0_wording_alone_names_it():
    text = ("RuntimeError: E19025: [PID: 7] 2025-03-01-08:00:00.000.000 Input tensor is invalid. Reason: The Output "
            "memory provided by the user, plus 64 bytes for data alignment, is smaller than op_size in the model, which "
            "is an illegal behavior. Output size=1024 , op_size=4096.\n")
    assert _top(text)["id"] == "ARL-E2970"


def test_the_traceback_line_alone_names_it():
    assert _top("[ERROR] GE(1,python):2026-01-02 " + GE_TRACEBACK.splitlines()[1].strip() + "\n")["id"] == "ARL-E2970"


def test_an_input_size_check_is_not_read_as_the_meta_mismatch():
    text = ("RuntimeError: E19025: Input tensor is invalid.\n"
            "       Check input size failed, index 0, user size 16, op size 4096.[FUNC:X][FILE:davinci_model.cc][LINE:1]\n")
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    ids = [d["id"] for d in classifier.result().to_json()["diagnoses"]]
    assert "ARL-E2970" not in ids


# --- ARL-E331 yields to an empty launch grid (EE1003 blockDim 0) -----------------------------------------------------

def _aclnn_call(op: str, detail: str) -> str:
    return (f"[rank0]:[E101 10:00:00.000000000 compiler_depend.ts:350] call {op} failed, detail:[PID: 99] "
            f"2026-01-01-10:00:00.000.000 {detail}\n")


def test_empty_grid_under_any_aclnn_call_is_the_finding():
    for op, parameter in (("aclnnMoeGatingTopK", "blockDim"), ("aclnnGroupedMatmulV4", "numBlocks")):
        top = _top(_aclnn_call(op, f"Invalid_Argument(EE1003): LaunchKernelV2 failed because value 0 for parameter "
                                   f"{parameter} is invalid. Expected value: not equal to 0."))
        assert (top["id"], top.get("kind")) == ("DRV-code", "kernel-launch-empty-grid"), (op, top)


def test_a_non_zero_grid_refusal_stays_the_rejected_call():
    top = _top(_aclnn_call("aclnnMoeGatingTopK", "Invalid_Argument(EE1003): LaunchKernelV2 failed because value 70000 "
                                                 "for parameter blockDim is invalid. Expected value: less than or equal "
                                                 "to 65535."))
    assert top.get("kind") != "kernel-launch-empty-grid"
