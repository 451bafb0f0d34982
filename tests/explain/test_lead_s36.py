"""Session 36 (lead): torch's embedding / index_select index check (ARL-E2776), from a round-31 development log
(realworld/dev/hf-nucleotide-transformer-500m-disc2.log; the wording confirmed in ATen's index_select_out_cpu_)."""

from __future__ import annotations

import pytest


EMBEDDING_TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/user/train.py", line 40, in <module>\n'
    "    out = model(input_ids=batch[\"input_ids\"])\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/modules/sparse.py", line 190, in forward\n'
    "    return F.embedding(\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py", line 2551, in embedding\n'
    "    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)\n"
    "IndexError: index out of range in self\n"
)


@pytest.mark.parametrize("text, expected", [
    (EMBEDDING_TRACEBACK, "ARL-E2776"),
    ("IndexError: index out of range in self\n", "ARL-E2776"),  # the line alone, as an issue title quotes it
])
def test_an_index_past_the_embedding_table_is_named(explain_text, text, expected):
    _, top = explain_text(text)
    assert top is not None and top.fatal and top.entry.id == expected


def test_a_python_list_index_error_is_not_the_embedding_check(explain_text):
    text = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    y = xs[9]\nIndexError: list index out of range\n"
    result, top = explain_text(text)
    assert result.fatal and (top is None or top.entry.id != "ARL-E2776")
