"""Property test for `fix` (issue 9): random launch scripts in every bash assignment form.

apply changes only the targeted values (every other byte is kept, and bash itself sees the
wanted values and nothing else changed); applying twice is a no-op; undo restores the exact
bytes; an edit made between apply and undo is never lost (undo refuses without --force).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascendrl.fixes import shellfile
from ascendrl.fixes.engine import UndoConflict, apply_plan, build_plan, undo_last
from ascendrl.fixes.model import Applicability, Proposal, SetEnv
from ascendrl.preflight.shellenv import parse

TARGETS = {"VLLM_ASCEND_ENABLE_NZ": "0", "HCCL_CONNECT_TIMEOUT": "3600"}
NAMES = [*TARGETS, "MY_SETTING", "OTHER_VAR"]
BASH = shutil.which("bash")

text = st.text(alphabet=st.sampled_from("abcXYZ019_-./:é中 "), max_size=8)


@st.composite
def value(draw) -> str:
    raw = draw(text)
    form = draw(st.sampled_from(["bare", "single", "double", "subst", "var"]))
    if form == "bare" or not raw:
        return raw.replace(" ", "") or "1"
    if form == "single":
        return f"'{raw}'"
    if form == "double":
        return f'"{raw}"'
    if form == "subst":
        return f"$(echo {raw.replace(' ', '') or 'x'})"
    return "${HOME}/" + raw.replace(" ", "")


@st.composite
def statement(draw) -> str:
    a, b = draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES))
    va, vb = draw(value()), draw(value())
    return draw(
        st.sampled_from(
            [
                f"export {a}={va}",
                f"{a}={va}",
                f"{a}={va} {b}={vb} true",
                f"export {a}={va} && export {b}={vb} && echo ready",
                f"export {a}={va}; source ./cluster_env.sh",
                f"# export {a}={va} is only a comment",
                f"export {a}={va}  # trailing comment",
                f"declare -x {a}={va}",
                f'echo "unicode ünï {va}"',
                f"if false; then export {a}={va}; fi",
            ]
        )
    )


@st.composite
def script(draw) -> bytes:
    lines = draw(st.lists(statement(), min_size=1, max_size=8))
    if draw(st.booleans()):
        lines.insert(0, "#!/bin/bash")
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    body = nl.join(lines) + (nl if draw(st.booleans()) else "")
    return body.encode()


def _words(data: bytes):
    return [w for cmd in parse(data) for w in (*cmd.assigns, *cmd.words)]


def _strip_block(after: bytes) -> bytes:
    begin = after.find(shellfile.BLOCK_BEGIN)
    if begin < 0:
        return after
    end = after.index(shellfile.BLOCK_END, begin)
    end = after.index(b"\n", end) + 1
    return after[:begin] + after[end:]


def _assert_only_target_values_changed(before: bytes, after: bytes) -> None:
    stripped = _strip_block(after)
    if after.rstrip(b"\r\n").endswith(shellfile.BLOCK_END) and not before.endswith(b"\n"):
        # the one allowed change outside values: a file of only header lines gets a newline before the block
        stripped = stripped[: -len(b"\r\n" if b"\r\n" in after else b"\n")]
    old, new = _words(before), _words(stripped)
    assert len(old) == len(new)
    pos_old = pos_new = 0
    for w_old, w_new in zip(old, new):
        assert before[pos_old : w_old.start] == stripped[pos_new : w_new.start]  # spaces, operators, comments
        if w_old.raw != w_new.raw:
            name = w_old.raw.split("=", 1)[0].rstrip("+")
            assert name in TARGETS and w_new.raw == f"{name}={TARGETS[name]}", (w_old.raw, w_new.raw)
        pos_old, pos_new = w_old.end, w_new.end
    assert before[pos_old:] == stripped[pos_new:]


def _bash_env(folder: Path, data: bytes) -> dict[str, str]:
    path = folder / "bash-view.sh"
    path.write_bytes(data.replace(b"\r\n", b"\n"))  # bash keeps a CR in words; the author meant a newline
    out = subprocess.run([BASH, "-c", 'source "$1" >/dev/null 2>&1; env -0', "t", str(path)], cwd=folder, env={"PATH": "/usr/bin:/bin", "HOME": "/home/u", "LC_ALL": "C.UTF-8"}, capture_output=True, check=True).stdout
    env = dict(item.split("=", 1) for item in out.decode().split("\0") if "=" in item)
    for noise in ("PWD", "OLDPWD", "SHLVL", "_"):
        env.pop(noise, None)
    return env


PROPOSAL = Proposal("t", "t", Applicability.SAFE, (), tuple(SetEnv(k, v) for k, v in TARGETS.items()))


@pytest.mark.skipif(BASH is None, reason="bash is the oracle")
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(before=script())
def test_apply_changes_only_targets_undo_restores_and_user_edits_survive(before):
    folder = Path(tempfile.mkdtemp(prefix="arl-prop-"))
    try:
        (folder / "cluster_env.sh").write_text("export FROM_CLUSTER=yes\n")
        target = folder / "train.sh"
        target.write_bytes(before)
        state = str(folder / ".ascendrl")
        plan = build_plan([PROPOSAL], target=str(target), managed=False, unsafe=False)
        apply_plan(plan, state_dir=state)
        after = target.read_bytes()
        _assert_only_target_values_changed(before, after)
        seen_before, seen_after = _bash_env(folder, before), _bash_env(folder, after)
        for name, wanted in TARGETS.items():
            assert seen_after[name] == wanted
        assert {k: v for k, v in seen_after.items() if k not in TARGETS} == {k: v for k, v in seen_before.items() if k not in TARGETS}
        assert build_plan([PROPOSAL], target=str(target), managed=False, unsafe=False).empty  # twice: a no-op
        user = after + b"echo user edit\n"
        target.write_bytes(user)
        with pytest.raises(UndoConflict):
            undo_last(state)
        assert target.read_bytes() == user  # never lost
        target.write_bytes(after)  # the user takes the edit back: undo now restores the exact bytes
        undo_last(state)
        assert target.read_bytes() == before
    finally:
        shutil.rmtree(folder)
