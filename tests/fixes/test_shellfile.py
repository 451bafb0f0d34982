"""The shell-file editor: golden scripts, byte-exact preservation, idempotence."""

from __future__ import annotations

from pathlib import Path

import pytest

from ascendrl.fixes import shellfile
from ascendrl.preflight.shellenv import read_exports

SCRIPTS = Path(__file__).parent / "scripts"
NZ = [("VLLM_ASCEND_ENABLE_NZ", "0"), ("USE_OPTIMIZED_MODEL", "0")]
TOOLKIT = "/usr/local/Ascend/ascend-toolkit/set_env.sh"


@pytest.mark.parametrize(
    "name, exports, sources",
    [
        ("tune_qwen25vl7b_grpo", NZ, []),  # the seed's script before its author added the NZ export
        ("crlf_no_newline", NZ, [TOOLKIT]),
    ],
)
def test_golden_script(name, exports, sources):
    before = (SCRIPTS / f"{name}.sh").read_bytes()
    expected = (SCRIPTS / f"{name}.fixed.sh").read_bytes()
    after = shellfile.edit(before, exports, sources, managed=False)
    assert after == expected
    assert shellfile.edit(after, exports, sources, managed=False) == after  # idempotent


def test_everything_else_is_kept_byte_for_byte():
    before = (SCRIPTS / "tune_qwen25vl7b_grpo.sh").read_bytes()
    after = shellfile.edit(before, NZ, [], managed=False)
    inserted = b"# >>> ascendrl fix >>>\nexport VLLM_ASCEND_ENABLE_NZ=0\n# <<< ascendrl fix <<<\n"
    assert after.replace(inserted, b"") == before


def test_crlf_and_missing_final_newline_survive():
    after = (SCRIPTS / "crlf_no_newline.fixed.sh").read_bytes()
    assert b"\n" not in after.replace(b"\r\n", b"")
    assert after.endswith(b"trainer.device=npu")
    assert b"export VLLM_ASCEND_ENABLE_NZ=0 # default\r\n" in after


def test_value_quoting_and_non_utf8_bytes():
    before = b"#!/bin/sh\n# \xff\xfe legacy comment\nexport RAY_TMPDIR=/old\n"
    after = shellfile.edit(before, [("RAY_TMPDIR", "/data dir/ray"), ("TMPDIR", "/data/tmp")], [], managed=False)
    assert b"\xff\xfe legacy comment" in after
    assert read_exports(after) == {"RAY_TMPDIR": "/data dir/ray", "TMPDIR": "/data/tmp"}
    assert b"export RAY_TMPDIR='/data dir/ray'\n" in after


def test_managed_file_is_created_with_a_header_and_extended_in_its_block():
    first = shellfile.edit(None, [("VLLM_ASCEND_ENABLE_NZ", "0")], [], managed=True)
    assert first.startswith(b"# Managed by `ascendrl fix`")
    second = shellfile.edit(first, [("HCCL_CONNECT_TIMEOUT", "3600")], [], managed=True)
    assert second.count(shellfile.BLOCK_BEGIN) == 1
    assert read_exports(second) == {"VLLM_ASCEND_ENABLE_NZ": "0", "HCCL_CONNECT_TIMEOUT": "3600"}


def test_indented_exports_inside_functions_are_not_touched():
    before = b"setup() {\n  export VLLM_ASCEND_ENABLE_NZ=1\n}\n"
    after = shellfile.edit(before, [("VLLM_ASCEND_ENABLE_NZ", "0")], [], managed=False)
    assert b"  export VLLM_ASCEND_ENABLE_NZ=1\n" in after
    assert read_exports(after)["VLLM_ASCEND_ENABLE_NZ"] == "0"


@pytest.mark.parametrize(
    "before, after",
    [
        # issue 9 item 4: the rest of the line is kept byte for byte
        (b"export VLLM_ASCEND_ENABLE_NZ=1 && export MY_SETTING=42 && echo ready\n", b"export VLLM_ASCEND_ENABLE_NZ=0 && export MY_SETTING=42 && echo ready\n"),
        (b"export USE_OPTIMIZED_MODEL=1; source ./cluster_env.sh\r\n", b"export USE_OPTIMIZED_MODEL=0; source ./cluster_env.sh\r\n"),
        (b"export VLLM_ASCEND_ENABLE_NZ='1'  # why\n", b"export VLLM_ASCEND_ENABLE_NZ=0  # why\n"),
        (b'export VLLM_ASCEND_ENABLE_NZ="1";export X="a b"', b'export VLLM_ASCEND_ENABLE_NZ=0;export X="a b"'),
        (b"declare -x VLLM_ASCEND_ENABLE_NZ=$(echo 1) Y=2\n", b"declare -x VLLM_ASCEND_ENABLE_NZ=0 Y=2\n"),
        (b"VLLM_ASCEND_ENABLE_NZ=1\nexport VLLM_ASCEND_ENABLE_NZ\n", b"VLLM_ASCEND_ENABLE_NZ=0\nexport VLLM_ASCEND_ENABLE_NZ\n"),
    ],
)
def test_only_the_value_bytes_change(before, after):
    wanted = [(name, "0") for name in ("VLLM_ASCEND_ENABLE_NZ", "USE_OPTIMIZED_MODEL") if name.encode() in before]
    assert shellfile.edit(before, wanted, [], managed=False) == after


def test_prefix_assignments_are_edited_and_the_shell_gets_an_export():
    before = b"#!/bin/bash\nA=1 VLLM_ASCEND_ENABLE_NZ=1 python3 -m verl.trainer.main_ppo x=1 2>&1 | tee log.txt # run\n"
    after = shellfile.edit(before, [("VLLM_ASCEND_ENABLE_NZ", "0")], [], managed=False)
    assert after.endswith(b"A=1 VLLM_ASCEND_ENABLE_NZ=0 python3 -m verl.trainer.main_ppo x=1 2>&1 | tee log.txt # run\n")
    assert read_exports(after) == {"VLLM_ASCEND_ENABLE_NZ": "0"}  # A=1 stays the command's own


def test_heredoc_bodies_and_conditionals_are_left_alone():
    before = b"cat <<EOF > cfg\nexport VLLM_ASCEND_ENABLE_NZ=1\nEOF\nif true; then export VLLM_ASCEND_ENABLE_NZ=1; fi\n"
    after = shellfile.edit(before, [("VLLM_ASCEND_ENABLE_NZ", "0")], [], managed=False)
    assert after.endswith(before) and after.count(b"VLLM_ASCEND_ENABLE_NZ=0") == 1
