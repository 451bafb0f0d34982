"""tools/regen_compat.py reproduces the committed rows from the vendored upstream files, and reports drift."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).parent
REPO = HERE.parents[1]
TOOL = REPO / "tools" / "regen_compat.py"
UPSTREAM = HERE / "upstream"
COMPAT = REPO / "preflight" / "data" / "compat.yaml"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=120)


def test_regenerated_rows_match_the_committed_data():
    result = run("--vllm-ascend", str(UPSTREAM / "vllm-ascend"), "--pytorch", str(UPSTREAM / "pytorch"), "--verl", str(UPSTREAM / "verl"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "matches" in result.stdout


def test_emitted_rows_are_the_committed_rows_field_for_field():
    result = run("--vllm-ascend", str(UPSTREAM / "vllm-ascend"), "--pytorch", str(UPSTREAM / "pytorch"), "--emit")
    emitted = yaml.safe_load(result.stdout)
    committed = yaml.safe_load(COMPAT.read_text())
    fields = ("vllm_ascend", "vllm", "python", "cann", "torch", "torch_npu", "triton_ascend")
    generated = [r for r in committed["vllm_ascend"]["rows"] if "hand-kept" not in r.get("note", "")]
    assert [{f: r.get(f) for f in fields} for r in emitted["vllm_ascend"]["rows"]] == [{f: r.get(f) for f in fields} for r in generated]
    assert all(r["source"].startswith("https://") for r in committed["vllm_ascend"]["rows"] if r not in generated)
    assert emitted["torch_npu_builds"]["builds"] == committed["torch_npu_builds"]["builds"]
    assert emitted["vllm_ascend"]["commit"] == committed["vllm_ascend"]["commit"]
    assert emitted["torch_npu_builds"]["commit"] == committed["torch_npu_builds"]["commit"]


def test_verl_rows_are_the_guides_stacks():
    result = run("--verl", str(UPSTREAM / "verl"), "--emit")
    emitted = {row["verl"]: row for row in yaml.safe_load(result.stdout)["verl"]["rows"]}
    committed = {row["verl"]: row for row in yaml.safe_load(COMPAT.read_text())["verl"]["rows"] if "hand-kept" not in row.get("note", "")}
    assert set(emitted) == set(committed) == {"0.5.0", "0.6.0", "0.6.1", "0.7.0.dev0", "0.7.1", "0.8.0.dev0", "0.9.0", "0.10.0.dev0"}
    for version, row in emitted.items():
        assert row.get("vllm") == committed[version].get("vllm"), version
        assert {k: str(v) for k, v in committed[version]["ascend"].items()} == row["ascend"], version


def test_drift_is_reported(tmp_path):
    """A changed matrix row and a new release tag both show up, with exit status 1."""
    upstream = tmp_path / "vllm-ascend"
    shutil.copytree(UPSTREAM / "vllm-ascend", upstream)
    policy = upstream / "main/docs/source/community/versioning_policy.md"
    policy.write_text(policy.read_text().replace("| 9.1.0       | 2.10.0 / 2.10.0.post4", "| 9.1.1       | 2.10.0 / 2.10.0.post5"))
    newer = upstream / "v0.27.0rc1"
    shutil.copytree(upstream / "v0.25.1rc1", newer)
    (newer / "Dockerfile").write_text((newer / "Dockerfile").read_text().replace("VLLM_TAG=v0.25.1", "VLLM_TAG=v0.27.0"))
    result = run("--vllm-ascend", str(upstream))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "~ vllm_ascend 0.23.0: cann '9.1.0' -> '9.1.1'" in result.stdout
    assert "~ vllm_ascend 0.23.0: torch_npu '2.10.0.post4' -> '2.10.0.post5'" in result.stdout
    assert "+ vllm_ascend 0.27.0rc1: vllm=['0.27.0']" in result.stdout


def test_new_torch_npu_release_tag_is_reported(tmp_path):
    upstream = tmp_path / "pytorch"
    shutil.copytree(UPSTREAM / "pytorch", upstream)
    tag = upstream / "v26.2.0-pytorch2.13.0"
    tag.mkdir()
    (tag / "version.txt").write_text("2.13.0\n")
    result = run("--pytorch", str(upstream))
    assert result.returncode == 1
    assert "+ torch_npu_builds 2.13.0: 26.2.0" in result.stdout


def test_bad_input_is_one_line(tmp_path):
    result = run("--vllm-ascend", str(tmp_path / "missing"))
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "neither a git repository nor a folder" in result.stderr + result.stdout


def test_reads_a_git_clone_like_a_snapshot(tmp_path):
    """The maintainer path: refs are real git tags and branches, read with `git show <ref>:<path>`."""
    repo = tmp_path / "vllm-ascend"
    repo.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                       env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin"})

    git("init", "-q", "-b", "main")
    snapshot = UPSTREAM / "vllm-ascend"
    for ref in ("v0.24.0rc1", "v0.25.1rc1", "main"):  # main last: it stays checked out
        git("checkout", "-q", "--orphan", f"build-{ref}")
        git("rm", "-rqf", "--ignore-unmatch", ".")
        shutil.copytree(snapshot / ref, repo, dirs_exist_ok=True)
        git("add", "-A")
        git("commit", "-qm", ref)
        if ref == "main":
            git("branch", "-f", "main")
        else:
            git("tag", ref)
    result = run("--vllm-ascend", str(repo))
    assert result.returncode == 0, result.stdout + result.stderr
    git("tag", "-d", "v0.25.1rc1")  # a row the upstream files no longer back is reported too
    result = run("--vllm-ascend", str(repo))
    assert result.returncode == 1 and "- vllm_ascend 0.25.1rc1: not in the upstream files" in result.stdout
