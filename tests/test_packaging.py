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
    # Disk and /dev/shm are measured on the machine running the command even with --root, so
    # their status is that machine's (CI once had under 50 GiB free: R001 warned). Compare the rest.
    from conftest import rules_measured_here

    live = rules_measured_here()
    assert {"ARL-R001", "ARL-R002", "ARL-R006"} <= live
    statuses = lambda text: dict((i, s) for s, i in re.findall(r"^  (PASS|FAIL|WARN|SKIP) (ARL-\w+)", text, re.M))  # noqa: E731
    shown = lambda text: {(s, i) for i, s in statuses(text).items() if s in ("FAIL", "WARN") and i not in live}  # noqa: E731
    assert shown(proc.stdout) == shown(sample) and shown(sample)
    counts = lambda text: re.search(r"^(\d+) failed, (\d+) warnings?, (\d+) passed, (\d+) skipped", text, re.M)  # noqa: E731
    ran, printed = counts(proc.stdout), counts(sample)
    assert ran and printed
    live_count = lambda text, status: sum(1 for i, s in statuses(text).items() if i in live and s == status)  # noqa: E731
    for group, status in ((1, "FAIL"), (2, "WARN")):
        assert int(ran.group(group)) - live_count(proc.stdout, status) == int(printed.group(group)) - live_count(sample, status)
    assert ran.group(4) == printed.group(4) and sum(map(int, ran.groups())) == sum(map(int, printed.groups()))
