"""Ascend version strings order like the releases they name."""

from __future__ import annotations

import pytest

from ascendrl.preflight.versions import base, parse_ascend, parse_python_pkg


@pytest.mark.parametrize(
    "older, newer",
    [
        ("8.0.RC3", "8.0.0"),  # release candidates precede the final release
        ("8.3.RC1", "8.3.RC2"),
        ("8.3.rc1", "8.3.RC2"),  # image tags write lower case
        ("8.3.RC2", "8.5.0"),
        ("8.5.0.alpha001", "8.5.0"),
        ("9.1.0-beta.1", "9.1.0"),
        ("25.2.0", "25.3.rc1"),
        ("25.3.rc1", "25.3.0"),
        ("24.1.rc1", "25.0.0"),
    ],
)
def test_ascend_order(older, newer):
    assert parse_ascend(older) < parse_ascend(newer)


def test_case_insensitive_equal():
    assert parse_ascend("8.3.RC1") == parse_ascend("8.3.rc1")


@pytest.mark.parametrize("junk", ["", None, "latest", "8.x", "\x00"])
def test_not_a_version(junk):
    assert parse_ascend(junk) is None


def test_torch_npu_base():
    assert base(parse_python_pkg("2.7.1.post1")) == "2.7.1"
    assert base(parse_python_pkg("2.7.1.dev20250724")) == "2.7.1"
    assert base(parse_python_pkg("2.13.0+cpu")) == "2.13.0"
