"""Probes that stopped importing a library for start-up's sake must still answer as that library does.

RAM was psutil's answer; the installer-file reader's printable test was a regular expression. Each is
compared with the original on this machine.
"""

from __future__ import annotations

import re
import sys

import psutil
import pytest
from hypothesis import given, strategies as st

from ascendrl.preflight.probes.disk import _ram_total
from ascendrl.preflight.probes.kvfile import _printable

OLD_PRINTABLE = re.compile(r"^[\x20-\x7e\t\u00a0-\uffff]*$")  # kvfile's pattern before


@given(st.text())
def test_printable_is_the_old_pattern(text):
    value = text.strip()  # read_kv tests stripped values
    assert _printable(value) == bool(OLD_PRINTABLE.match(value))


@pytest.mark.parametrize("value", ["8.3.RC1", "a\tb", "\x7f", "\x9f", "\xa0", "\ufffd", "\U0001f600", "x\x01y", "版本"])
def test_printable_edges(value):
    assert _printable(value) == bool(OLD_PRINTABLE.match(value))


def test_ram_is_psutils_figure():
    assert _ram_total() == (psutil.virtual_memory().total, "/proc/meminfo MemTotal")


def test_probes_that_wait_on_commands_run_together(tmp_path):
    """The --python query waits for npu-smi to have run: in turn (packages first) it would time out."""
    from pathlib import Path

    from ascendrl.preflight.host import Host
    from ascendrl.preflight.probes import PROBES, WAITS, collect

    assert set(WAITS) <= set(PROBES)
    captured = Path(__file__).parent / "hosts" / "npu-smi" / "healthy-8x910b3.txt"
    npu_smi = tmp_path / "npu-smi"
    npu_smi.write_text(f'#!/bin/sh\ntouch "{tmp_path}/npu-smi-ran"\ncat "{captured}"\n')
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\nwhile [ ! -e "{tmp_path}/npu-smi-ran" ]; do sleep 0.05; done\nexec "{sys.executable}" "$@"\n')
    for script in (npu_smi, python):
        script.chmod(0o755)
    facts = collect(Host(npu_smi=str(npu_smi), python=str(python), timeout=30))
    assert facts.value("python.version") == "%d.%d.%d" % sys.version_info[:3]
    assert facts.get_fact("npu_smi.info").reason is None
