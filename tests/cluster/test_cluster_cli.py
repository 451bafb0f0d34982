"""`check --cluster` on the command line, where no cluster is needed to get it right."""

from __future__ import annotations

import sys

from ascendrl.cli import main
from ascendrl.preflight.cluster import _auth_attempts


def test_interpreter_without_ray_is_one_line(capsys):
    # this test venv has no ray: the driver cannot start, and says which interpreter to give
    assert main(["check", "--cluster", "--python", sys.executable, "--node-timeout", "5"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has no ray" in err[0] and "--python" in err[0]


def test_cluster_options_are_checked(tmp_path, capsys):
    assert main(["check", "--address", "10.0.0.3:6379"]) == 2
    assert "--address goes with --cluster" in capsys.readouterr().err
    assert main(["check", "--cluster", "--root", str(tmp_path)]) == 2
    assert "each node is checked as it is" in capsys.readouterr().err
    assert main(["check", "--cluster", "--python", str(tmp_path / "nope")]) == 2
    assert main(["check", "--cluster", "--node-timeout", "inf"]) == 2


def test_token_auth_order(tmp_path):
    assert _auth_attempts({"RAY_AUTH_MODE": "token"}) == ({},)  # the user's choice stands
    assert _auth_attempts({"HOME": str(tmp_path)}) == ({}, {"RAY_AUTH_MODE": "token"})
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("x")
    assert _auth_attempts({"HOME": str(tmp_path)}) == ({"RAY_AUTH_MODE": "token"}, {})
