"""A compiler's error diagnostic, "<location>: error: <message>", read as the failure (k23none).

MLIR's default diagnostic handler (DiagnosticEngineImpl::emit, mlir/lib/IR/Diagnostics.cpp, as the BiShengIR /
triton-ascend kernel compilers print a rejected kernel) and GCC / clang ("file:line:column: error: message") print no
exception type: the message is read as ``Exception: <message>`` so the analyzers and the similar-failure fallback see
it, instead of "nothing fatal found". Warnings and notes in the same format
stay harmless (a diagnostic the run went on after is judged by the chain, as any error). The lines are taken from public pastes (triton-ascend#2, llama.cpp#10556); no catalog entry is removed:
what is checked is the reading, not a diagnosis.
"""

from __future__ import annotations

import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog import chain as chains


def _explain(text: str):
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


@pytest.mark.parametrize("line, message", [
    ('loc("/tmp/tmphdmn5wbn/kernel.ttadapter.mlir":59:15): error: \'arith.select\' op Unsupported user for root alloc op.',
     "'arith.select' op Unsupported user for root alloc op."),
    ("/usr/local/Ascend/ascend-toolkit/latest/tools/tikcpp/tikcfw/impl/dav_c100/kernel_operator_vec_vconv_impl.h:450:5: "
     "error: no matching function for call to 'CastIntrinsicsImpl'",
     "no matching function for call to 'CastIntrinsicsImpl'"),
])
def test_a_compiler_error_diagnostic_is_read(line, message):
    m = chains.DIAG_ERROR.match(line)
    assert m is not None and m.group(1) == message


@pytest.mark.parametrize("line", [
    'loc("/tmp/x/kernel.ttadapter.mlir":17:10): warning: unused value',
    "/usr/include/c++/9/bits/stl_vector.h:10:5: note: candidate: 'void f()'",
    "error: could not find a version that satisfies the requirement",  # no location: not a compiler diagnostic
    "ERROR 03-04 12:57:08 [engine.py:409] error: x",
])
def test_other_lines_are_not(line):
    assert chains.DIAG_ERROR.match(line) is None


def test_the_last_diagnostic_is_the_unknown_failure():
    # a location outside CANN's AscendC headers (those are read by DRV-ascendc-compile, test_generalise_k34pkg.py)
    text = ("/home/user/csrc/kernels/get_row_q4_0.cpp:450:5: "
            "error: no matching function for call to 'CastIntrinsicsImpl'\n")
    explanation = _explain(text)
    assert explanation.fatal
    assert explanation.unknown is not None and explanation.unknown.type == "Exception"
    assert "no matching function for call to" in explanation.unknown.message


def test_warnings_and_notes_are_not_fatal():
    text = ('loc("/tmp/x/kernel.ttadapter.mlir":17:10): warning: unused value\n'
            "/src/a.cc:3:1: note: declared here\n")
    assert not _explain(text).fatal
