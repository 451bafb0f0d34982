"""Every officially documented stack passes the stack rules: no ARL-C rule may fail a stack its maintainers ship.

The stacks are parsed from the vendored upstream files (tests/compat/upstream): the release compatibility
matrix of vllm-ascend's versioning_policy.md and the tags newer than it (plus compat.yaml's hand-kept
rows), and each verl release's Ascend guide (v0.5.0 ... v0.9.0 and main).
Each stack becomes a fixture host with the CANN layout of its release (<= 8.3: ascend-toolkit/,
>= 8.5: cann-<version>/), the HDK paired with its CANN, and its Python packages.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from typing import Any

import pytest

from ascendrl.preflight import check, compat
from ascendrl.preflight.versions import in_range, parse_ascend, parse_python_pkg

HERE = Path(__file__).parent
UPSTREAM = HERE / "upstream"
REPO = HERE.parents[1]

_spec = importlib.util.spec_from_file_location("regen_compat", REPO / "tools" / "regen_compat.py")
assert _spec and _spec.loader
regen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(regen)

TOOLKIT_INFO = {
    "seed": "usr/local/Ascend/ascend-toolkit/8.3.RC1/aarch64-linux/ascend_toolkit_install.info",
    "cann85": "usr/local/Ascend/cann-8.5.0/aarch64-linux/ascend_toolkit_install.info",
}
DRIVER_INFO = "usr/local/Ascend/driver/version.info"


def vllm_ascend_stacks() -> list[dict[str, Any]]:
    rows = regen.vllm_ascend_rows(regen.Source(UPSTREAM / "vllm-ascend"))
    # plus the hand-kept rows (releases newer than the vendored files), each with its own source
    generated = {row["vllm_ascend"] for row in rows}
    rows += [row for row in compat.matrices()["vllm_ascend"]["rows"] if row["vllm_ascend"] not in generated]
    return [{**row, "vllm": row["vllm"][0], "name": f"vllm-ascend-{row['vllm_ascend']}"} for row in rows]


def verl_stacks() -> list[dict[str, Any]]:
    """Parsed from the vendored verl guides (tests/compat/upstream/verl), one per release and main."""
    stacks = []
    for row in regen.verl_rows(regen.Source(UPSTREAM / "verl")):
        ascend = dict(row["ascend"])
        ascend.setdefault("torch_npu", ascend["torch"])
        stacks.append({**ascend, "verl": row["verl"], "name": f"verl-{row['verl']}"})
    return stacks


def _python_for(spec: str | None) -> str:
    for candidate in ("3.11", "3.10", "3.12"):
        if not spec or in_range(parse_python_pkg(candidate), spec):
            return candidate
    raise AssertionError(f"no Python for {spec}")


def _numpy_for(stack: dict[str, Any]) -> str:
    pins = [p for p in (compat.vllm_ascend_row(parse_python_pkg(stack["vllm_ascend"])) or {}, compat.verl_row(parse_python_pkg(stack.get("verl", "0"))) or {}) if p.get("numpy")]
    return "2.2.6" if any(not in_range(parse_python_pkg("1.26.4"), p["numpy"]) for p in pins) else "1.26.4"


def host_case(stack: dict[str, Any]) -> tuple[dict[str, Any], str]:
    cann = parse_ascend(stack["cann"])
    layout = "seed" if cann < parse_ascend("8.5.0") else "cann85"
    files = {TOOLKIT_INFO[layout]: f"package_name=Ascend-cann-toolkit\nversion={stack['cann']}\narch=aarch64\nos=linux\n"}
    hdk = stack.get("hdk") or (compat.cann_hdk_row(cann) or {}).get("paired")
    if hdk:
        files[DRIVER_INFO] = f"Version={hdk}\ncompatible_version_fw=[7.0.0,7.8.99]\n"
    packages = {
        "vllm-ascend": stack["vllm_ascend"],
        "vllm": stack["vllm"],
        "torch": stack["torch"],
        "torch-npu": stack["torch_npu"],
        "triton-ascend": stack.get("triton_ascend"),
        "verl": stack.get("verl"),
        "numpy": _numpy_for(stack),
    }
    if stack.get("transformers"):
        packages["transformers"] = stack["transformers"]
    return {"host": layout, "files": files, "packages": packages}, _python_for(stack.get("python"))


def _move_python(root: Path, python: str) -> None:
    """Fixture hosts carry Python 3.11 (the CANN images'); a stack that documents another moves it."""
    if python == "3.11":
        return
    old = root / "usr/local/python3.11.13"
    new = root / f"usr/local/python{python}.0"
    shutil.move(old / "lib/python3.11", old / f"lib/python{python}")
    shutil.move(old, new)


STACKS = vllm_ascend_stacks() + verl_stacks()


def test_every_matrix_row_and_newer_tag_is_a_stack():
    matrix = regen.parse_matrix((UPSTREAM / "vllm-ascend/main/docs/source/community/versioning_policy.md").read_text())
    names = {s["name"] for s in STACKS}
    assert len(matrix) == 36
    assert {f"vllm-ascend-{r['vllm_ascend']}" for r in matrix} <= names
    assert {"vllm-ascend-0.24.0rc1", "vllm-ascend-0.25.1rc1", "vllm-ascend-0.26.0rc1"} <= names
    assert {f"verl-{v}" for v in ("0.5.0", "0.6.0", "0.6.1", "0.7.0.dev0", "0.7.1", "0.8.0.dev0", "0.9.0", "0.10.0.dev0")} <= names


@pytest.mark.parametrize("stack", STACKS, ids=[s["name"] for s in STACKS])
def test_official_stack_has_no_failing_stack_rule(stack, host_factory):
    case, python = host_case(stack)
    host = host_factory(**case)
    _move_python(host.root, python)
    report = check(host)
    got = {f.rule_id: f for f in report.findings}
    assert got["ARL-C001"].facts.get("python", python).startswith(python)
    failed = {rid: f.detail for rid, f in got.items() if rid.startswith("ARL-C") and f.status.value == "fail"}
    assert not failed, failed
    assert "ARL-X001" not in got
    # The pair itself is always documented: the stack is its own evidence.
    assert got["ARL-C005"].status.value == "pass", got["ARL-C005"].detail
