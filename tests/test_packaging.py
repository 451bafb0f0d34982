"""What the wheel ships: every package folder, the catalog schema, the license (issue 12)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11

ROOT = Path(__file__).parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_package_folder_is_in_the_wheel():
    tool = PROJECT["tool"]["setuptools"]
    mapped = {Path(folder) for folder in tool["package-dir"].values()}
    for name in ("preflight", "fixes", "recipes", "catalog", "supervisor", "ascendrl"):
        for init in (ROOT / name).rglob("__init__.py"):
            folder = init.parent.relative_to(ROOT)
            assert folder in mapped, f"{folder} is a package the wheel would leave out"
    assert set(tool["package-dir"]) == set(tool["packages"])


def test_schema_and_license_ship():
    data = PROJECT["tool"]["setuptools"]["package-data"]
    assert "SCHEMA.md" in data["ascendrl.catalog"] and (ROOT / "catalog" / "SCHEMA.md").is_file()
    assert PROJECT["project"]["license"] == "Apache-2.0" and PROJECT["project"]["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().lstrip().startswith("Apache License")
    assert any(r.startswith("setuptools>=") and int(r.split(">=")[1].split(".")[0]) >= 77 for r in PROJECT["build-system"]["requires"])


def test_explain_schema_prints_the_catalog_format():
    proc = subprocess.run([sys.executable, "-m", "ascendrl", "explain", "--schema"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout == (ROOT / "catalog" / "SCHEMA.md").read_text()


def test_the_readme_sample_is_what_its_command_prints():
    """README's `check` sample names the command that produced it (fixture host, not an Ascend machine)."""
    import re

    readme = (ROOT / "README.md").read_text()
    block = readme[readme.index("A sample on the seed's host") :]
    command = block[block.index("```bash\n") + 8 : block.index("```", block.index("```bash\n") + 8)].replace("\\\n", " ").split()
    assert command[:4] == ["env", "-i", "PATH=/usr/bin:/bin", "HOME=/root"] and command[4].endswith("ascendrl")
    sample = block[block.index("```text\n") : block.index("```\n", block.index("```text\n"))]
    proc = subprocess.run([*command[:4], sys.executable, "-m", "ascendrl", *command[5:]], capture_output=True, text=True, cwd=ROOT, timeout=120)
    shown = lambda text: {m for m in re.findall(r"^  (FAIL|WARN) (ARL-\w+)", text, re.M)}  # noqa: E731
    assert shown(proc.stdout) == shown(sample) and shown(sample)
    summary = re.search(r"^(\d+) failed, (\d+) warnings?, (\d+) passed, (\d+) skipped", proc.stdout, re.M)
    assert summary and summary.group(0) in sample
