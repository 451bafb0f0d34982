"""Reading a script never runs it (issue 9 item 2): the static reader against bash itself, and the CLI paths."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from conftest import NPU_SMI as _NPU_SMI_DIR

from ascendrl.preflight.host import Host
from ascendrl.preflight.shellenv import read_environment, read_exports

SCRIPTS = Path(__file__).parent / "scripts"
BASE = {"PATH": "/usr/bin:/bin", "HOME": "/root"}

CORPUS = r"""#!/bin/bash
# export COMMENTED=1
export VLLM_ASCEND_ENABLE_NZ=1 && export MY_SETTING=42 && echo ready >/dev/null
export USE_OPTIMIZED_MODEL=1; source ./cluster_env.sh
A=1 B=2 true
C='single q' D="double $MY_SETTING"
export C
export E=${UNSET_VAR:-default}/x F=~/p G=$(echo hi)
if [ -n "$X" ]; then export IN_IF=1; fi
f() { export IN_FN=1; }
cat <<END >/dev/null
export IN_HEREDOC=1
END
export H="ünï" # trailing comment
false || export AFTER_OR=1
echo x | export IN_PIPE=1
export I=a\ b J="q\"uote" K='it''s'
declare -x L=dx
export M=1
unset M
N=2
export N
[[ -n "$A" && -z "$B" ]] && export AFTER_TEST=1
( export IN_SUB=1 )
{ export IN_BRACE=1; }
for i in 1 2; do export IN_LOOP=$i; done
case "$x" in a) export IN_CASE=1;; esac
export P+=suffix Q=$HOME/q R="$NOT_SET_ANYWHERE/r"
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export LIB="$HERE/lib:`dirname ${BASH_SOURCE[0]}`"
"""

CAPTURED_NPU_SMI = str(_NPU_SMI_DIR / "healthy-8x910b3.txt")  # a captured `npu-smi info`, read as text, never run


def bash_env(script: Path, env: dict[str, str]) -> dict[str, str]:
    """What bash really exports after sourcing (run from the script's folder, as its author does)."""
    out = subprocess.run(["bash", "-c", 'source "$1" >/dev/null 2>&1; env -0', "t", str(script)], cwd=script.parent, env=env, capture_output=True, check=True).stdout
    got = dict(item.split("=", 1) for item in out.decode().split("\0") if "=" in item)
    for noise in ("PWD", "OLDPWD", "SHLVL", "_"):
        got.pop(noise, None)
    return got


def test_reader_agrees_with_bash_and_names_what_it_cannot_know(tmp_path):
    script = tmp_path / "train.sh"
    script.write_text(CORPUS)
    (tmp_path / "cluster_env.sh").write_text('export CLUSTER=yes\nexport FROM_CLUSTER="$USE_OPTIMIZED_MODEL-x"\n')
    read = read_environment(Host(env=BASE), str(script))
    real = bash_env(script, BASE)
    unknown = {"G", "AFTER_OR", "IN_LOOP"}  # $(…), after ||, in a loop: bash sets them, the reader says it cannot know
    assert {k: v for k, v in real.items() if k not in unknown} == read.env
    text = "\n".join(read.unresolved)
    for name in ("G: a $(…) command substitution", "AFTER_OR: set after ||", "IN_LOOP: set inside a loop", "IN_IF: set inside if", "IN_FN: set inside a function"):
        assert name in text
    assert "R: $NOT_SET_ANYWHERE is not set here; read as empty" in text and "UNSET_VAR" not in text
    assert read.read == (str(script), str(tmp_path / "cluster_env.sh"))


def test_prefix_assignments_are_not_exported_and_quotes_are_undone():
    env = read_exports(b"A=1 B=2 python3 x.py\nexport C='x y' D=\"a$'b'\"\n")
    assert "A" not in env and "B" not in env
    assert env == {"C": "x y", "D": "a$'b'"}


def test_sources_outside_the_project_are_not_followed_but_cann_set_env_is(tmp_path):
    from conftest import HOSTS

    root = tmp_path / "root"
    shutil.copytree(HOSTS / "seed", root, symlinks=True)
    outside = tmp_path / "elsewhere.sh"
    outside.write_text("export OUTSIDE=1\n")
    project = tmp_path / "project"
    project.mkdir()
    (project / "inside.sh").write_text("export INSIDE=1\n")
    script = project / "train.sh"
    script.write_text(f"source /usr/local/Ascend/ascend-toolkit/set_env.sh\nsource {outside}\n. ./inside.sh\nsource ../elsewhere.sh\n")
    read = read_environment(Host(root=root, env=BASE), str(script))
    assert read.env["ASCEND_HOME_PATH"] == "/usr/local/Ascend/ascend-toolkit/latest"  # under --root, read as text
    assert read.env["INSIDE"] == "1" and "OUTSIDE" not in read.env
    assert sum("outside the project" in line for line in read.unresolved) == 2


def test_a_fifo_or_device_is_never_read(tmp_path):
    fifo = tmp_path / "env.sh"
    os.mkfifo(fifo)
    script = tmp_path / "train.sh"
    script.write_text("source ./env.sh\nexport AFTER=1\n")
    done: list = []
    worker = threading.Thread(target=lambda: done.append(read_environment(Host(env=BASE), str(script))), daemon=True)
    worker.start()
    worker.join(10)
    assert done, "reading a FIFO hung"
    assert done[0].env["AFTER"] == "1" and any("not a regular file" in line for line in done[0].unresolved)


HOSTILE = """#!/bin/bash
touch "{marker}"
sleep 30 &
export VLLM_ASCEND_ENABLE_NZ=1
export WHO=$(whoami)
python3 -c 'import time; time.sleep(30)'
"""


def _cli(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    env = {**BASE, "HOME": str(cwd)}
    return subprocess.run([sys.executable, "-m", "ascendrl", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_fix_dry_run_and_check_env_file_never_run_the_script(tmp_path):
    marker = tmp_path / "ran"
    script = tmp_path / "train.sh"
    script.write_text(HOSTILE.format(marker=marker))
    started = time.monotonic()
    dry = _cli("fix", "--script", str(script), "--npu-smi", CAPTURED_NPU_SMI, cwd=tmp_path)
    assert dry.returncode == 0, dry.stderr
    assert "not determined" in dry.stderr and "WHO: a $(…) command substitution (not run)" in dry.stderr
    as_json = _cli("fix", "--json", "--script", str(script), "--npu-smi", CAPTURED_NPU_SMI, cwd=tmp_path)
    assert any("WHO: a $(…)" in line for line in json.loads(as_json.stdout)["unresolved"])
    checked = _cli("check", "--env-file", str(script), "--npu-smi", CAPTURED_NPU_SMI, "--json", cwd=tmp_path)
    assert checked.returncode in (0, 1), checked.stderr
    assert "WHO: a $(…) command substitution (not run)" in checked.stderr  # check says what it could not know
    assert not marker.exists()
    assert time.monotonic() - started < 30  # the script's sleeps were never started


def test_run_reads_but_never_runs_the_env_file(tmp_path, monkeypatch):
    from ascendrl.run_cmd import run_env

    marker = tmp_path / "ran"
    (tmp_path / ".ascendrl").mkdir()
    (tmp_path / ".ascendrl" / "env.sh").write_text(f'touch "{marker}"\nexport FROM_ENV_FILE=yes\nexport HOST_NAME=$(hostname)\n')
    proc = _cli("run", "--dry-run", "--", "true", cwd=tmp_path)
    assert proc.returncode in (0, 1, 2), proc.stderr
    monkeypatch.chdir(tmp_path)
    env, notes = run_env(None)
    assert env["FROM_ENV_FILE"] == "yes"
    assert any("never run" in n for n in notes) and any("HOST_NAME" in n and "$(…)" in n for n in notes), notes
    assert not marker.exists()


@pytest.mark.parametrize("name", ["tune_qwen25vl7b_grpo", "crlf_no_newline"])
def test_golden_scripts_read_like_bash(tmp_path, name):
    script = tmp_path / "s.sh"
    body = (SCRIPTS / f"{name}.sh").read_bytes()
    # keep only the environment part: stop before the launch line
    cut = body.find(b"python3 -m verl")
    script.write_bytes(body[:cut].replace(b"\r\n", b"\n"))
    read = read_environment(Host(env=BASE), str(script))
    real = bash_env(script, BASE)
    assert {k: read.env.get(k) for k in real} == real
