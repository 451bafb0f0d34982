"""Ranking fixes from the leave-thread-out misses (session 19, helper kwin): the right reading was in the diagnoses
list or in the log's own lines, but another ranked first. Each fix with a near miss that must stay as it is."""

from __future__ import annotations

from test_rank_krank import _paste  # a dev log without its header, as the user pasted it


# --- a decoded code that names a root-cause class outranks a bare decoded code ----------------------------------------

def test_a_code_read_as_a_class_outranks_a_bare_code_read_earlier(explain_text):
    # vllm-ascend#3141: the EL0004 report's best code is 200000 ACL_ERROR_BAD_ALLOC (no class: code-200000) and the
    # aclnn call's 207001 decodes to npu-oom; both fatal, the bare one earlier in the log. The class is the answer.
    result, top = explain_text(_paste("vllm-ascend-3141-release-checklist.log"))
    assert top is not None and (top.entry.id, top.kind) == ("DRV-code", "npu-oom")
    assert "code-200000" in [d.kind for d in result.diagnoses[1:]]


def test_a_bare_code_alone_still_reads_as_that_code(explain_text):
    # near miss: with no finding naming a class, the bare code stays on top (and the similar fallback may still answer)
    paste = "\n".join(line for line in _paste("vllm-ascend-3141-release-checklist.log").splitlines()
                      if "error code is 207001" not in line) + "\n"
    _, top = explain_text(paste)
    assert top is not None and (top.entry.id, top.kind) == ("DRV-code", "code-200000")


def test_a_catalog_entry_still_outranks_a_decoded_class(explain_text):
    # near miss: the rule only orders derived findings among themselves; a specific catalog entry on the log still
    # ranks before any of them (ARL-E204, torch_npu's own out-of-memory message, over the decoded codes)
    paste = _paste("vllm-ascend-3141-release-checklist.log") + (
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 7; 60.96 GiB total capacity; "
        "58.10 GiB already allocated; 58.10 GiB current active; 1.02 GiB free; 59.00 GiB reserved in total by PyTorch)\n")
    _, top = explain_text(paste)
    assert top is not None and top.basis == "catalog"
