"""The CLI's help formatter sizes help as argparse's own does (shutil's terminal width), without importing shutil."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from ascendrl.cli import _Formatter, _parser, _RawFormatter


@pytest.mark.parametrize("columns", ["", "0", "-3", "abc", "41", "200"])
def test_the_width_is_argparses(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    stock = argparse.HelpFormatter("ascendrl")
    for ours in (_Formatter("ascendrl"), _RawFormatter("ascendrl")):
        assert (ours._width, ours._max_help_position) == (stock._width, stock._max_help_position)


def test_help_reads_as_with_the_stock_formatter(monkeypatch):
    monkeypatch.setenv("COLUMNS", "61")
    for command in ("check", "explain", "run"):
        ours = _parser(command)._subparsers._group_actions[0].choices[command]
        stock = argparse.ArgumentParser(prog=ours.prog, usage=ours.usage, description=ours.description, epilog=ours.epilog,
                                        formatter_class=argparse.RawDescriptionHelpFormatter if command == "run" else argparse.HelpFormatter,
                                        add_help=False)
        stock._actions, stock._action_groups = ours._actions, ours._action_groups
        stock._mutually_exclusive_groups = ours._mutually_exclusive_groups
        assert ours.format_help() == stock.format_help()


def test_a_check_never_imports_shutil():
    code = "import sys; from ascendrl.cli import _parser; _parser('check').parse_args(['check', '--json']); print('shutil' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"
