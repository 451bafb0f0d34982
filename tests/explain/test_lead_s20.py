"""Session 20 (lead): a report unfolded from an escaped string keeps the input's line numbers.

A JSON / repr string is written out as its lines before it is read (normalize.unfold_one_line_reports_mapped). The evidence
``file:line`` must still point at the input: a finding inside the string at the string's one line, and a finding on a
later line at that line's own number, not pushed down by the lines the string was written out as.
"""

from __future__ import annotations

from pathlib import Path

from ascendrl.catalog import explain_paths, load_catalog
from ascendrl.catalog.normalize import unfold_one_line_reports_mapped

HERE = Path(__file__).parent
CATALOG = load_catalog(user_dir=HERE / "no-user-catalog")

# A traceback in a Python repr (its words are torch_npu's allocator message, ARL-E204), a plain line, then vllm-ascend's
# NZ refusal (ARL-E002) as the program prints it: three input lines, the first holding four.
REPR_THEN_LINES = (
    "'Traceback (most recent call last):\\n  File \"/srv/app/run.py\", line 12, in <module>\\n"
    "    x = torch.ones(1 << 34).npu()\\nRuntimeError: NPU out of memory. Tried to allocate 64.00 GiB "
    "(NPU 0; 60.97 GiB total capacity; 1.20 GiB already allocated)\\n'\n"
    "INFO worker restarted\n"
    "ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. "
    "Please set VLLM_ASCEND_ENABLE_NZ=0.\n"
)


def test_findings_keep_the_inputs_line_numbers_around_an_unfolded_string(tmp_path):
    log = tmp_path / "paste.log"
    log.write_text(REPR_THEN_LINES, encoding="utf-8")
    result = explain_paths(CATALOG, [log])
    lines = {d.entry.id: d.line for d in result.diagnoses}
    assert lines.get("ARL-E204") == 1, result.diagnoses  # inside the string: the string's own line
    assert lines.get("ARL-E002") == 3, result.diagnoses  # after it: its own line, not 3 + the 3 lines added


def test_the_line_map_sends_each_written_out_line_back_to_its_input_line():
    block = b"a\n'x\\ny\\nz'\nb\n'p\\nq\\nr\\ns'\nc\n"
    out, unfolded = unfold_one_line_reports_mapped(block)
    assert out == b"a\nx\ny\nz\nb\np\nq\nr\ns\nc\n"
    assert unfolded is not None and unfolded.added == 5
    assert [unfolded.original(i) for i in range(out.count(b"\n"))] == [0, 1, 1, 1, 2, 3, 3, 3, 3, 4]


def test_a_block_with_nothing_escaped_has_no_map():
    block = b"plain line\nanother \\n once\n"
    out, unfolded = unfold_one_line_reports_mapped(block)
    assert out is block and unfolded is None
