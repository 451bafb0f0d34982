"""A message a person broke across two lines of a short paste is read joined (stop 19, lead).

Dao-AILab/flash-attention#950 (a round 48 dev log) pastes "`flash_attn_2_cuda….so: undefined" and " symbol:
_ZN3c104impl3cow11cow_deleterEPv`" on two lines: neither alone is a line the engine reads, joined they are the loader's
undefined-symbol error. Only in a short paste nothing else read, only for two neighbouring lines that neither alone
reads; the quote marks around a pasted library name are not part of it.
"""

from __future__ import annotations

import pytest

BROKEN = ("ENV\n- torch                     2.1.2\n- flash-attn                2.5.8\n\nERROR\n"
          "`flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined\n symbol: _ZN3c104impl3cow11cow_deleterEPv`\n")


def test_the_two_halves_are_the_undefined_symbol_error(explain_text):
    result, top = explain_text(BROKEN)
    assert result.fatal and top is not None and top.entry.id == "DRV-package" and top.kind == "extension-torch-abi-mismatch"
    assert "`" not in top.entry.title  # the paste's backticks are not the library's name


@pytest.mark.parametrize("paste", [
    "I looked for the symbol\nin the table of contents and it was not there.\n",  # two sentences that read nothing joined
    "ERROR\nsomething went wrong, undefined behaviour\nsymbol table looks fine\n",
])
def test_lines_that_join_into_nothing_the_engine_reads_stay_unread(explain_text, paste):
    result, top = explain_text(paste)
    assert top is None or top.entry.id != "DRV-package"


def test_a_paste_already_read_is_not_joined_again(explain_text):
    # the traceback is read; the two lines below it are not joined into a second failure
    paste = ("Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\n    import acl\n"
             "ModuleNotFoundError: No module named 'acl'\nlib.so: undefined\nsymbol: foo\n")
    _, top = explain_text(paste)
    assert top is not None and top.entry.id == "ARL-E300"
