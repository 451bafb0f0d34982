"""The install-time entries fire on what pip itself prints, not only on the pastes they were written from.

Each test runs the pip of this environment against a local folder or file:// index (no network) so that it
fails the way a user's install fails, then explains pip's own output.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths


def pip(tmp_path: Path, *args: str) -> Path:
    """Run pip offline; its combined output, as a log file."""
    env = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
    env.pop("PIP_INDEX_URL", None)
    env.pop("PIP_EXTRA_INDEX_URL", None)
    done = subprocess.run([sys.executable, "-m", "pip", *args], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0, done.stdout + done.stderr
    log = tmp_path / "pip.log"
    log.write_text(done.stdout + done.stderr)
    return log


def top(catalog, log: Path) -> str:
    result = explain_paths(catalog, [log])
    assert result.diagnoses, log.read_text()
    return result.diagnoses[0].entry.id


def wheel(folder: Path, name: str, version: str, requires_python: str) -> Path:
    """A minimal pure-Python wheel whose metadata declares Requires-Python."""
    dist = f"{name}-{version}.dist-info"
    path = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name}/__init__.py", "")
        zf.writestr(f"{dist}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\nRequires-Python: {requires_python}\n")
        zf.writestr(f"{dist}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(f"{dist}/RECORD", "")
    return path


def test_pip_in_a_folder_without_a_project_is_the_wrong_directory(tmp_path, catalog):
    (tmp_path / "verl").mkdir()
    log = pip(tmp_path, "install", "--no-index", "-e", str(tmp_path / "verl"))
    assert "neither 'setup.py' nor 'pyproject.toml' found" in log.read_text() or "is not installable" in log.read_text()
    assert top(catalog, log) == "ARL-E245"


def test_a_wheel_requiring_a_newer_python_is_the_interpreter(tmp_path, catalog):
    found = tmp_path / "found"
    found.mkdir()
    whl = wheel(found, "needs_new_python", "1.0", ">=3.99")
    log = pip(tmp_path, "install", "--no-index", "--no-deps", str(whl))
    assert "requires a different Python" in log.read_text()
    assert top(catalog, log) == "ARL-E244"


def test_versions_skipped_for_requires_python_name_the_interpreter(tmp_path, catalog):
    index = tmp_path / "index"
    (index / "math-verify").mkdir(parents=True)
    whl = wheel(index, "math_verify", "0.5.0", ">=3.99")
    (index / "math-verify" / "index.html").write_text(
        f'<html><body><a href="../{whl.name}" data-requires-python="&gt;=3.99">{whl.name}</a></body></html>'
    )
    log = pip(tmp_path, "install", "--index-url", index.as_uri(), "math-verify")
    text = log.read_text()
    assert "Ignored the following versions that require a different python version" in text and "(from versions: none)" in text
    assert top(catalog, log) == "ARL-E244"


def test_triton_ascend_missing_from_the_index_points_at_the_ascend_index(tmp_path, catalog):
    empty = tmp_path / "empty"
    empty.mkdir()
    log = pip(tmp_path, "install", "--no-index", "--find-links", str(empty), "triton-ascend==3.2.1")
    assert "No matching distribution found for triton-ascend==3.2.1" in log.read_text()
    assert top(catalog, log) == "ARL-E246"


def test_another_missing_package_is_not_called_an_ascend_index_problem(tmp_path, catalog):
    empty = tmp_path / "empty"
    empty.mkdir()
    log = pip(tmp_path, "install", "--no-index", "--find-links", str(empty), "some-package==1.0")
    result = explain_paths(catalog, [log])
    assert all(d.entry.id not in ("ARL-E244", "ARL-E246") for d in result.diagnoses)


def test_a_file_under_site_packages_is_package_data_only_when_that_package_opens_it(tmp_path, catalog):
    """verl opening its own version file: package data the wheel left out; datasets opening a file a user put
    under another package's folder: an ordinary missing path."""
    own = tmp_path / "own.log"
    own.write_text(
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/verl/__init__.py", line 23, in <module>\n'
        "    with open(os.path.join(version_folder, 'version/version')) as f:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/opt/conda/lib/python3.10/site-packages/verl/version/version'\n"
    )
    other = tmp_path / "other.log"
    other.write_text(
        "Traceback (most recent call last):\n"
        '  File "/opt/conda/lib/python3.10/site-packages/datasets/load.py", line 1810, in load_dataset\n'
        "    with open(path) as f:\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/opt/conda/lib/python3.10/site-packages/verl/data/gsm8k/train.parquet'\n"
    )
    assert explain_paths(catalog, [own]).diagnoses[0].kind == "package-data-missing-from-wheel"
    assert explain_paths(catalog, [other]).diagnoses[0].kind == "enoent"
