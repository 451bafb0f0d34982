"""Shared fixtures: build a checkable copy of a fixture host (tests/hosts/*)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ascendrl.preflight.host import Host

HOSTS = Path(__file__).parent / "hosts"
NPU_SMI = HOSTS / "npu-smi"


def rules_measured_here() -> frozenset[str]:
    """Rules read on the machine running the command even under --root (free disk, /dev/shm): their status is that
    machine's, so a test on a fixture host leaves them out (CI has had under R001's 50 GiB free)."""
    from ascendrl.preflight.rules import all_rules
    from ascendrl.preflight.rules.resources import SharedMemory, _FreeSpace

    return frozenset(rule.id for rule in all_rules() if isinstance(rule, (_FreeSpace, SharedMemory)))
IMAGE_NPU_SMI = "usr/local/sbin/npu-smi"  # where the fixture hosts keep their npu-smi, as real hosts do
SITE = "usr/local/python3.11.13/lib/python3.11/site-packages"

# What `source set_env.sh` (toolkit + NNAL) leaves in the environment on each host,
# as listed by the CANN image Dockerfiles (Ascend/cann-container-image), plus the seed's exports.
SOURCED_ENV: dict[str, dict[str, str]] = {
    "seed": {
        "ASCEND_TOOLKIT_HOME": "/usr/local/Ascend/ascend-toolkit/latest",
        "ASCEND_HOME_PATH": "/usr/local/Ascend/ascend-toolkit/latest",
        "ASCEND_OPP_PATH": "/usr/local/Ascend/ascend-toolkit/latest/opp",
        "ASCEND_AICPU_PATH": "/usr/local/Ascend/ascend-toolkit/latest",
        "LD_LIBRARY_PATH": "/usr/local/Ascend/driver/lib64/common:/usr/local/Ascend/driver/lib64/driver:"
        "/usr/local/Ascend/ascend-toolkit/latest/lib64:/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_0/lib",
        "ATB_HOME_PATH": "/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_0",
    },
    "cann85": {
        "ASCEND_TOOLKIT_HOME": "/usr/local/Ascend/cann-8.5.0",
        "ASCEND_HOME_PATH": "/usr/local/Ascend/cann-8.5.0",
        "ASCEND_OPP_PATH": "/usr/local/Ascend/cann-8.5.0/opp",
        "LD_LIBRARY_PATH": "/usr/local/Ascend/driver/lib64/common:/usr/local/Ascend/driver/lib64/driver:"
        "/usr/local/Ascend/cann-8.5.0/lib64:/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1/lib",
        "ATB_HOME_PATH": "/usr/local/Ascend/nnal/atb/latest/atb/cxx_abi_1",
    },
}
BASE_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/root",
    "VLLM_ASCEND_ENABLE_NZ": "0",
    "USE_OPTIMIZED_MODEL": "0",
}


def write_dist(root: Path, name: str, version: str | None) -> None:
    """Install (or, with None, remove) a distribution's metadata in the host's site-packages."""
    site = root / SITE
    stem = name.replace("-", "_").lower()
    for old in site.glob("*.dist-info"):
        if old.name.lower().split("-")[0] == stem:
            shutil.rmtree(old)
    if version is not None:
        meta = site / f"{stem}-{version}.dist-info"
        meta.mkdir(parents=True)
        (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")


def build_host(tmp_path: Path, case: dict[str, Any]) -> Host:
    """Copy a fixture host, apply the case's changes, and describe it as a Host."""
    name = case.get("host", "seed")
    root = tmp_path / "root"
    shutil.copytree(HOSTS / name, root, symlinks=True)
    for rel in case.get("remove", []):
        target = root / rel
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        else:
            for match in root.glob(rel):
                match.unlink() if not match.is_dir() else shutil.rmtree(match)
    for rel, content in (case.get("files") or {}).items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.unlink(missing_ok=True)
        target.write_bytes(content.encode("latin-1") if isinstance(content, str) else content)
    for dist, version in (case.get("packages") or {}).items():
        write_dist(root, dist, version)
    env = dict(BASE_ENV)
    if case.get("sourced", True):
        env.update(SOURCED_ENV[name])
    env.update({k: str(v) for k, v in (case.get("env") or {}).items()})
    for var in case.get("unset", []):
        env.pop(var, None)
    npu_smi = case.get("npu_smi")
    if npu_smi:
        npu_smi = str(NPU_SMI / npu_smi)
    elif (root / IMAGE_NPU_SMI).is_file():
        # --root never runs the image's own files; a test names the fixture's npu-smi explicitly, as a user would.
        npu_smi = str(root / IMAGE_NPU_SMI)
    return Host(
        root=root,
        env=env,
        npu_smi=npu_smi,
        timeout=float(case.get("timeout", 10)),
        checkpoint_dir=case.get("checkpoint_dir"),
    )


@pytest.fixture
def host_factory(tmp_path: Path):
    def make(**case: Any) -> Host:
        return build_host(tmp_path, case)

    return make


REPO = Path(__file__).resolve().parents[1]


def build_venv(path: Path, *requirements: list[str]) -> str:
    """A venv of its own for tests that need the heavy stack; built once, reused by later runs.

    Each requirement list is one `pip install` (torch first, from this machine's local CPU
    wheel, so that later packages find their torch pin already satisfied).
    """
    import subprocess
    import sys

    python = path / "bin" / "python"
    marker = path / ".ascendrl-complete"
    wanted = repr(requirements)
    if marker.exists() and marker.read_text() == wanted:
        return str(python)
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    for group in requirements:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *group], check=True)
    marker.write_text(wanted)
    return str(python)


def heavy_venv(name: str, override_var: str, *requirements: list[str]) -> str:
    """A heavy test venv outside the clone, reused between runs and keyed by what it holds.

    ``$override_var`` names the folder outright; otherwise it is
    ``$ASCENDRL_TEST_CACHE`` (default ``$XDG_CACHE_HOME/ascendrl-tests``, i.e. ``~/.cache/ascendrl-tests``)
    ``/<name>-<hash of the requirements>``, so a change of pins builds a new one instead of
    patching an old one, and the clone itself stays small.
    """
    import hashlib
    import os

    if os.environ.get(override_var):
        return build_venv(Path(os.environ[override_var]), *requirements)
    cache = os.environ.get("ASCENDRL_TEST_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ascendrl-tests"
    )
    key = hashlib.sha256(repr(requirements).encode()).hexdigest()[:12]
    return build_venv(Path(cache) / f"{name}-{key}", *requirements)


@pytest.fixture(scope="session")
def verl_python() -> str:
    """The real verl 0.9.1 (+ verl-core for TransferQueue) on the CPU torch 2.13.0, with ascendrl."""
    return heavy_venv("verl-0.9.1", "ASCENDRL_VERL_VENV", ["torch==2.13.0"], ["verl[verl-core]==0.9.1"], ["-e", str(REPO)])


@pytest.fixture(scope="session")
def verl_workspace(verl_python, tmp_path_factory):
    """GSM8K-shaped data written by `ascendrl data gsm8k` from a local copy, and a tiny real model."""
    root = tmp_path_factory.mktemp("lint")
    src = root / "gsm8k" / "main"
    src.mkdir(parents=True)
    questions = ["Natalia sold clips to 48 of her friends in April, and then she sold half as many clips in May. How many clips did Natalia sell altogether in April and May?"] * 3
    answers = ["Natalia sold 48/2 = 24 clips in May.\n#### 72"] * 3
    write = (
        "import pyarrow as pa, pyarrow.parquet as pq, sys; t = pa.table({'question': %r, 'answer': %r});"
        "pq.write_table(t, sys.argv[1] + '/train-00000-of-00001.parquet'); pq.write_table(t, sys.argv[1] + '/test-00000-of-00001.parquet')"
        % (questions, answers)
    )
    subprocess.run([verl_python, "-c", write, str(src)], check=True)
    env = {**os.environ, "HF_DATASETS_CACHE": str(root / "cache"), "HF_HUB_OFFLINE": "1"}
    subprocess.run([verl_python, "-m", "ascendrl", "data", "gsm8k", "--source", str(root / "gsm8k"), "--out", str(root / "data")], check=True, env=env, capture_output=True)
    subprocess.run([verl_python, str(Path(__file__).parent / "recipes" / "make_tiny_model.py"), str(root / "model")], check=True, capture_output=True)
    return root


@pytest.fixture
def shared_tmp():
    """A folder a second user (uid 1000, via setpriv) can reach: pytest's own tmp is private to root."""
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="ascendrl-test-", dir="/tmp"))
    path.chmod(0o755)
    yield path
    for sub in path.rglob("*"):
        if sub.is_dir() and not sub.is_symlink():
            sub.chmod(0o755)
    shutil.rmtree(path)


# explain's tests: the shipped catalog alone (no user catalog), and explain on a pasted text. Here, not in a
# tests/explain/conftest.py: test modules import this one as `conftest`, and a second module of that name shadows it.
@pytest.fixture(scope="session")
def catalog():
    from ascendrl.catalog import load_catalog

    return load_catalog(user_dir=Path(__file__).parent / "explain" / "no-user-catalog")


@pytest.fixture(scope="session")
def realworld_scorer():
    """bench/score_realworld.py, loaded once: it keeps each reading it makes, so the modules that score the real-world
    corpus with the session catalog (test_realworld, test_similar) read each log once between them."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("score_realworld", Path(__file__).parent.parent / "bench" / "score_realworld.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def explain_without(catalog, tmp_path, request):
    """explain on a paste without the entries the test module lists in ``OWN`` (those written from the threads its
    pastes come from), as leave-thread-out scores a log: (the top diagnosis's id, its kind), or (None, None)."""
    import dataclasses

    from ascendrl.catalog import explain_paths

    own = request.module.OWN
    kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in own))

    def run(text: str):
        log = tmp_path / "x.log"
        log.write_text(text, encoding="utf-8")
        result = explain_paths(kept, [log])
        top = result.diagnoses[0] if result.diagnoses else None
        return (top.entry.id if top else None), (top.kind if top else None)

    return run


@pytest.fixture
def explain_text(catalog, tmp_path):
    """explain on ``text`` written to a file, as a user's paste: (the result, its top diagnosis or None)."""
    from ascendrl.catalog import explain_paths

    def run(text: str):
        log = tmp_path / "x.log"
        log.write_text(text, encoding="utf-8")
        result = explain_paths(catalog, [log])
        return result, (result.diagnoses[0] if result.diagnoses else None)

    return run


def _same_pid_again(pid: int, argv: list[str]):
    """A new process with ``pid`` (the kernel's ns_last_pid set just below it), or None where the PID cannot be chosen."""
    for _ in range(50):
        try:
            Path("/proc/sys/kernel/ns_last_pid").write_text(str(pid - 1))
        except OSError:
            return None
        candidate = subprocess.Popen(argv)
        if candidate.pid == pid:
            return candidate
        candidate.kill()
        candidate.wait()
    return None


@pytest.fixture
def same_pid_again():
    """Start a process with a PID another process just gave up: the reuse that signals by PID must never hit."""
    return _same_pid_again


def top_of(explain_text, text: str) -> tuple[str | None, list]:
    """The top diagnosis id of ``text`` as a paste, and every (id, kind) read, for an assertion message."""
    result, top = explain_text(text)
    return (top.entry.id if top is not None else None), [(d.entry.id, d.kind) for d in result.diagnoses]
