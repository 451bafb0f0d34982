"""The upstream-fix miner on a small git repository built here, shaped like vllm-ascend's history.

The error lines in the commit messages are copied from real vllm-ascend commits (sources on
each); the repository, its dates, tags and branch layout are made up to exercise the miner:
a fix on main, its backport on a release branch, a fix not yet tagged, a non-fix commit and a
tests-only fix that both quote errors.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MINER = ROOT / "tools" / "mine_upstream_fixes.py"

# source: https://github.com/vllm-project/vllm-ascend/pull/6455 (commit c08364f7)
ZMQ_BODY = """### What this PR does / why we need it?

If `kv_port` overlaps with this range, users may encounter intermittent
startup failures:
```bash
zmq.error.ZMQError: Address already in use (addr='tcp://x.x.x.x:30012')
RuntimeError: KV Cache sending/receiving thread failed to start.
```
"""
# source: https://github.com/vllm-project/vllm-ascend/pull/10379 (commit 9d2fe2d3); the
# workaround and issue lines are written for this test.
FORK_BODY = """error:
``` bash
    File "/__w/vllm-ascend/vllm-ascend/vllm_ascend/utils.py", line 794, in check_ascend_device_type
      soc_version = torch_npu.npu.get_soc_version()
    File "/usr/local/python3.12.13/lib/python3.12/site-packages/torch_npu/npu/__init__.py", line 272, in _lazy_init
      raise RuntimeError(
  RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with multiprocessing, you must use the 'spawn' start method [92224,91917][core.py:1186,run_engine_core]
```

Workaround: export VLLM_WORKER_MULTIPROC_METHOD=spawn

Fixes #10300. Related: https://github.com/vllm-project/vllm/issues/20000
"""
# source: https://github.com/vllm-project/vllm-ascend/pull/8899 (commit 7fd2cede)
KWARG_LINE = "- `TypeError: rejection_sample() got an unexpected keyword argument\n'synthetic_mode'` -> Add param"


# source: https://github.com/verl-project/verl/pull/5085 (commit 5a82d526)
CPU_BODY = """Due to conflict between CPU affinity opt of tensorrt llm and ray env
manager in verl, tensorrt initialization of AsyncLLM may occur error
"ValueError: CPU number 0 is not eligible" cause the prefix cpu are
masked.
This PR fix the error by using environment variable when creating trtllm
rollout worker to disable cpu affinity in tensorrt_llm.
"TLLM_NUMA_AWARE_WORKER_AFFINITY" can be set as "0" to avoid the cpu
affinity option in tensorrt_llm
"""


def _git(repo: Path, *args: str, date: str | None = None) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
               GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com")
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


def _commit(repo: Path, path: str, message: str, date: str) -> str:
    f = repo / path
    f.parent.mkdir(parents=True, exist_ok=True)
    f.write_text(f.read_text() + date + "\n" if f.exists() else date + "\n")
    _git(repo, "add", path)
    _git(repo, "commit", "-q", "-m", message, date=date)
    return _git(repo, "rev-parse", "HEAD")


def _tag(repo: Path, name: str, date: str) -> None:
    _git(repo, "tag", "-a", name, "-m", name, date=date)


@pytest.fixture(scope="module")
def history(tmp_path_factory) -> dict:
    repo = tmp_path_factory.mktemp("vllm-ascend")
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "vllm_ascend/__init__.py", "Initial commit", "2026-01-05T10:00:00+00:00")
    _tag(repo, "v0.1.0", "2026-01-06T10:00:00+00:00")
    _git(repo, "branch", "releases/v0.1")
    shas = {}
    shas["zmq"] = _commit(repo, "vllm_ascend/distributed/mooncake_connector.py",
                          "[Bugfix] Fix intermittent kv_port conflict with AscendDirectTransport (#6455)\n\n"
                          + ZMQ_BODY, "2026-02-02T09:31:21+00:00")
    # A feature quoting an error is not a fix; a fix touching only tests is not a user-facing bug.
    _commit(repo, "vllm_ascend/ops/new.py", "[Feature] Add op (#7000)\n\nRuntimeError: KV Cache sending/"
            "receiving thread failed to start twice over", "2026-02-10T09:00:00+00:00")
    _commit(repo, "tests/e2e/test_x.py", "[CI] fix test (#7001)\n\nValueError: Free memory on device "
            "(3.2 GiB) on startup is less than desired", "2026-02-11T09:00:00+00:00")
    _tag(repo, "v0.2.0rc1", "2026-03-01T10:00:00+00:00")
    shas["kwarg"] = _commit(repo, "vllm_ascend/sample/rejection_sampler.py",
                            "[Misc][Main2Main] Upgrade vLLM to 0427 (#8899)\n\nFix:\n" + KWARG_LINE,
                            "2026-03-05T09:00:00+00:00")
    _tag(repo, "v0.2.0", "2026-04-01T10:00:00+00:00")
    shas["fork"] = _commit(repo, "vllm_ascend/utils.py",
                           "[BugFix] Fix NPU re-init in forked worker (#10379)\n\n" + FORK_BODY,
                           "2026-06-12T07:52:22+00:00")
    _commit(repo, "verl/workers/rollout/trtllm_rollout/trtllm_rollout.py",
            "[rollout] fix: fix cpu allocation error in tensorrt_llm rollout manager (#5085)\n\n" + CPU_BODY,
            "2026-06-20T07:00:00+00:00")
    # The backport of #6455 on the release branch, with its own PR number.
    _git(repo, "checkout", "-q", "releases/v0.1")
    shas["zmq_backport"] = _commit(repo, "vllm_ascend/distributed/mooncake_connector.py",
                                   "[v0.1][Bugfix] Fix intermittent kv_port conflict (#6500)\n\n" + ZMQ_BODY,
                                   "2026-02-20T09:00:00+00:00")
    _tag(repo, "v0.1.1", "2026-02-21T10:00:00+00:00")
    _git(repo, "checkout", "-q", "main")
    return {"repo": repo, "shas": shas}


def _mine(history: dict, tmp_path: Path, *extra: str) -> list[dict]:
    out = tmp_path / "fixes.json"
    r = subprocess.run([sys.executable, str(MINER), "--repo", f"vllm-project/vllm-ascend={history['repo']}/.git",
                        "-o", str(out), *extra], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text())["entries"]


def _by_template(entries: list[dict]) -> dict[str, dict]:
    return {e["template"]: e for e in entries}


def test_extracts_fix_commits_with_their_error_lines(history, tmp_path):
    got = _by_template(_mine(history, tmp_path))
    assert set(got) == {
        "zmq.error.ZMQError: Address already in use (addr=<*>)",
        "RuntimeError: KV Cache sending/receiving thread failed to start",
        "TypeError: rejection_sample() got an unexpected keyword argument <*>",
        "RuntimeError: Cannot re-initialize NPU in forked subprocess. To use NPU with multiprocessing, "
        "you must use the <*> start method [<*>][core.py:<*>,run_engine_core]",
        "ValueError: CPU number <*> is not eligible",
    }
    zmq = got["zmq.error.ZMQError: Address already in use (addr=<*>)"]
    assert zmq["args"] == ["tcp://x.x.x.x:30012"]
    assert zmq["raw_example"] == "zmq.error.ZMQError: Address already in use (addr='tcp://x.x.x.x:30012')"
    assert zmq["pr"] == 6455 and zmq["link"] == "https://github.com/vllm-project/vllm-ascend/pull/6455"
    assert zmq["commit"] == history["shas"]["zmq"] and zmq["date"] == "2026-02-02"
    assert zmq["files"] == ["vllm_ascend/distributed/mooncake_connector.py"]


def test_first_tag_and_backport_lines(history, tmp_path):
    got = _by_template(_mine(history, tmp_path))
    zmq = got["zmq.error.ZMQError: Address already in use (addr=<*>)"]
    # main got it in v0.2.0rc1; the backport put it in v0.1.1, which is the earliest by version.
    assert zmq["fixed_in"] == {"0.1": ["v0.1.1", "0.1.1"], "0.2": ["v0.2.0rc1", "0.2.0rc1"]}
    assert zmq["tag_first_fixed"] == "v0.1.1"
    # The message was hard-wrapped in the PR text; the miner rejoined it.
    kw = got["TypeError: rejection_sample() got an unexpected keyword argument <*>"]
    assert kw["args"] == ["synthetic_mode"]
    assert kw["tag_first_fixed"] == "v0.2.0" and kw["pr"] == 8899
    fork = next(e for t, e in got.items() if "re-initialize" in t)
    assert fork["tag_first_fixed"] is None and fork["fixed_in"] == {}
    assert fork["workaround"] == "Workaround: export VLLM_WORKER_MULTIPROC_METHOD=spawn"
    assert fork["issues"] == [10300]        # vllm's own issue tracker is not this repository's
    # A workaround stated in prose; the error was quoted inside a sentence.
    cpu = got["ValueError: CPU number <*> is not eligible"]
    assert cpu["raw_example"] == "ValueError: CPU number 0 is not eligible"
    assert cpu["workaround"] == ('"TLLM_NUMA_AWARE_WORKER_AFFINITY" can be set as "0" to avoid the cpu '
                                 'affinity option in tensorrt_llm')
    assert fork["frames"] == ["vllm_ascend/utils.py:check_ascend_device_type", "npu/__init__.py:_lazy_init"]


def test_until_keeps_only_earlier_commits_and_tags(history, tmp_path):
    got = _by_template(_mine(history, tmp_path, "--until", "2026-02-25"))
    assert set(got) == {"zmq.error.ZMQError: Address already in use (addr=<*>)",
                        "RuntimeError: KV Cache sending/receiving thread failed to start"}
    # v0.2.0rc1 (March) did not exist yet: only the backport's tag counts.
    assert got["zmq.error.ZMQError: Address already in use (addr=<*>)"]["fixed_in"] == {"0.1": ["v0.1.1", "0.1.1"]}


def test_bad_input_is_one_line_error(tmp_path):
    for args in (["--repo", "vllm-project/vllm-ascend=" + str(tmp_path)], ["--repo", "nobody/x=/tmp"],
                 ["--repo", "verl-project/verl=/tmp", "--until", "May 1st"]):
        r = subprocess.run([sys.executable, str(MINER), *args, "-o", str(tmp_path / "o.json")],
                           capture_output=True, text=True)
        assert r.returncode == 2 and r.stderr.startswith("error: ") and "Traceback" not in r.stderr, r.stderr
