"""Session 36 (lead): torch's embedding / index_select index check (ARL-E2776), from a round-31 development log
(realworld/dev/hf-nucleotide-transformer-500m-disc2.log; the wording confirmed in ATen's index_select_out_cpu_)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ascendrl.catalog import Classifier, load_catalog

HERE = Path(__file__).parent
CATALOG = load_catalog(user_dir=HERE / "no-user-catalog")


def _top(text: str) -> str | None:
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result.diagnoses[0].entry.id if result.diagnoses and result.diagnoses[0].fatal else None


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
def test_an_index_past_the_embedding_table_is_named(text, expected):
    assert _top(text) == expected


def test_a_python_list_index_error_is_not_the_embedding_check():
    text = "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\n    y = xs[9]\nIndexError: list index out of range\n"
    assert _top(text) != "ARL-E2776"
