"""A command-line parser's refusal, printed under the command's usage text, read as the failure (k25none2).

argparse (CPython Lib/argparse.py, ArgumentParser.error) prints the usage ("usage: …") and then
"<prog>: error: <message>"; Click (src/click/exceptions.py, UsageError.show) prints the usage ("Usage: …"),
"Try '<command> --help' for help." and then "Error: <message>". Neither prints an exception type, so such a log was
"nothing fatal found". The message is now read as ``Exception: <message>`` when the usage text is above it; a lone
"Error: …" or "name: error: …" line is not. The pastes are public (kuberay#1984, vllm-ascend#902); no catalog entry is
removed: what is checked is the reading, not a diagnosis.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog import chain as chains

# source: https://github.com/ray-project/kuberay/issues/1984 (ray start's Click parser)
CLICK = "Usage: ray start [OPTIONS]\nTry ‘ray start --help’ for help.\n\nError: Got unexpected extra argument (1})\n"
# source: https://github.com/vllm-project/vllm-ascend/issues/902 (vllm serve's argparse parser)
ARGPARSE = ("usage: vllm serve [model_tag] [options]\n"
            "vllm serve: error: argument --quantization/-q: invalid choice: 'ascend' (choose from 'aqlm', 'awq', 'fp8')\n")


def _explain(text: str, catalog=None):
    classifier = Classifier(catalog if catalog is not None else load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _bare_catalog():
    """The shipped catalog without any entry: the reading alone, whatever entries name these pastes."""
    import dataclasses

    return dataclasses.replace(load_catalog(), entries=())


@pytest.mark.parametrize("line, message", [
    ("Error: Got unexpected extra argument (1})", "Got unexpected extra argument (1})"),
    ("vllm serve: error: argument --quantization/-q: invalid choice: 'ascend'", "argument --quantization/-q: invalid choice: 'ascend'"),
    ("main_ppo.py: error: unrecognized arguments: --foo", "unrecognized arguments: --foo"),
])
def test_a_parser_refusal_line_is_matched(line, message):
    m = chains.USAGE_ERROR.match(line)
    assert m is not None and m.group(1) == message


@pytest.mark.parametrize("line", [
    "ERROR 03-04 12:57:08 [engine.py:409] error: x",  # a logger record, not a parser's line
    "/src/a.cc:3:1: error: expected ';'",  # a compiler diagnostic (chains.DIAG_ERROR reads those)
    "Error executing job with overrides: []",  # Hydra, no colon after Error
])
def test_other_lines_are_not(line):
    assert chains.USAGE_ERROR.match(line) is None


@pytest.mark.parametrize("text, message", [
    (CLICK, "Got unexpected extra argument (1})"),
    (ARGPARSE, "argument --quantization/-q: invalid choice: 'ascend'"),
])
def test_the_refusal_under_its_usage_is_the_failure(text, message):
    # no analyzer either (DRV-plugin-name reads the 'ascend' refusal since k37compat): the reading alone
    classifier = Classifier(_bare_catalog(), analyzers=())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    explanation = classifier.result()
    assert explanation.fatal
    assert explanation.unknown is not None and explanation.unknown.type == "Exception"
    assert explanation.unknown.message.startswith(message)


@pytest.mark.parametrize("text", [
    "Error: Got unexpected extra argument (1})\n",  # no usage above: a program's own line, not read this way
    "ggml_backend_cann_graph_compute: error: op not supported node_519 (SQRT)\n",
    # --help output: the usage with no refusal under it
    "usage: vllm serve [model_tag] [options]\n\noptions:\n  -h, --help            show this help message and exit\n",
])
def test_without_a_usage_head_or_a_refusal_nothing_is_read(text):
    explanation = _explain(text, _bare_catalog())
    assert explanation.unknown is None or "unexpected extra argument" not in explanation.unknown.message
    assert not explanation.fatal


def test_an_entry_naming_the_refusal_still_wins():
    # vllm-ascend#902: ARL-E220 names --quantization ascend refused; the reading must not put an unknown above it
    explanation = _explain(ARGPARSE)
    assert explanation.diagnoses and explanation.diagnoses[0].entry.id == "ARL-E220"


# An exception's repr pasted alone ("print(repr(e))", "%r"): BaseException.__repr__ (CPython Objects/exceptions.c).
# source: https://github.com/triton-lang/triton-ascend/issues/808
REPR = "NameError('loop_x0 is not defined')\n"


def test_a_repr_pasted_alone_is_the_exception_it_shows():
    explanation = _explain(REPR, _bare_catalog())
    assert explanation.fatal
    assert explanation.unknown is not None
    assert (explanation.unknown.type, explanation.unknown.message) == ("NameError", "loop_x0 is not defined")


@pytest.mark.parametrize("line", [
    "MoxFileNotExistsException(resp, 'file or directory or bucket not found.')",  # source code quoted, not a repr
    "x = NameError('loop_x0 is not defined')",  # an assignment, not the repr alone
])
def test_other_calls_are_not_a_repr(line):
    from ascendrl.catalog.classify import REPR_ALONE

    assert REPR_ALONE.match(line) is None


def test_a_repr_in_a_long_log_is_not_read_alone():
    # a whole log, not a short paste: a program may print a handled exception's repr and carry on
    lines = [f"step:{i} loss:0.5" for i in range(400)]
    text = "\n".join(lines[:200] + ["ConnectionError('peer closed the connection')"] + lines[200:]) + "\n"
    assert not _explain(text, _bare_catalog()).fatal


# pip's "ERROR: " record (IndentingFormatter.get_message_start, src/pip/_internal/utils/logging.py).
# source: https://github.com/GAIR-NLP/DeepResearcher/issues/4
PIP = ("cd verl\npip3 install -e .\n\n"
       "ERROR: file:///mnt/workspace/DeepResearcher/verl does not appear to be a Python project: "
       "neither 'setup.py' nor 'pyproject.toml' found.\n")


def test_pips_error_line_in_a_paste_is_the_failure():
    explanation = _explain(PIP, _bare_catalog())
    assert explanation.fatal
    assert explanation.unknown is not None and explanation.unknown.type == "Exception"
    assert explanation.unknown.message.startswith("file:///mnt/workspace/DeepResearcher/verl does not appear to be a Python project")


@pytest.mark.parametrize("text", [
    # the resolver's notice pip goes on after (commands/install.py _warn_about_conflicts)
    "ERROR: pip's dependency resolver does not currently take into account all the packages that are installed. "
    "This behaviour is the source of the following dependency conflicts.\n"
    "vllm 0.8.5 requires torch==2.6.0, but you have torch 2.5.1 which is incompatible.\nSuccessfully installed torch-2.5.1\n",
    "ERROR: Exception:\n",  # a heading: pip's own traceback follows it
])
def test_pips_resolver_notice_and_headings_are_not(text):
    from ascendrl.catalog import chain

    first = text.splitlines()[0]
    assert chain.PIP_ERROR.match(first) is None
