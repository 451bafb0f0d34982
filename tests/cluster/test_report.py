"""`ascendrl report`: what it collects, that secrets never reach the Markdown or the archive, and
that nothing is written before the user has seen it."""

from __future__ import annotations

import json
import os
import tarfile
from pathlib import Path

import pytest

from ascendrl.cli import main

HOSTS = Path(__file__).parent.parent / "hosts"
# Real-looking secrets, in the shapes they take in launch scripts, env and logs.
SECRETS = {
    "hf": "hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567890",
    "wandb": "0123456789abcdef0123456789abcdef01234567",
    "openai": "sk-proj-Abc123Def456Ghi789Jkl012Mno345Pqr678",
    "url": "s3cr3tP4ss",
    "ray": "raytok-9f8e7d6c5b4a39281706f5e4d3c2b1a0",
}


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "runs" / "20261130-120000-grpo"
    run.mkdir(parents=True)
    (run / "command.txt").write_text(
        f"python3 -m verl.trainer.main_ppo trainer.logger=[console,wandb] --api-key {SECRETS['openai']} "
        f"data.train_files=https://alice:{SECRETS['url']}@data.example.com/gsm8k/train.parquet\n")
    (run / "summary.json").write_text(json.dumps({"exit_code": 1, "reason": "fatal", "diagnosis": {"id": "ARL-E321"}}))
    (run / "summary.txt").write_text("run failed: ARL-E321 HCCL picked the wrong host NIC\n")
    lines = [f"step:{i} - actor/pg_loss:0.01" for i in range(300)]
    lines += [f"+ export HF_TOKEN={SECRETS['hf']}", f"wandb: export WANDB_API_KEY={SECRETS['wandb']}",
              f"ray start --address=10.0.0.3:6379 --token {SECRETS['ray']}", "RuntimeError: HCCL function error: hcclCommInitRootInfoConfig"]
    (run / "output.log").write_text("\n".join(lines) + "\n")
    return run


def test_report_redacts_everywhere_and_holds_the_material(tmp_path, run_dir, monkeypatch, capsys):
    monkeypatch.setenv("HF_TOKEN", SECRETS["hf"])
    monkeypatch.setenv("HCCL_SOCKET_IFNAME", "enp189s0f0")
    monkeypatch.setenv("RAY_AUTH_TOKEN", SECRETS["ray"])
    out = tmp_path / "rep"
    code = main(["report", "--yes", "--out", str(out), "--runs-dir", str(run_dir.parent),
                 "--root", str(HOSTS / "seed"), "--npu-smi", str(HOSTS / "npu-smi" / "healthy-8x910b3.txt")])
    printed = capsys.readouterr().out
    assert code == 0
    md = Path(f"{out}.md").read_text()
    with tarfile.open(f"{out}.tar.gz") as tar:
        members = {m.name.split("/", 1)[1]: tar.extractfile(m).read().decode() for m in tar.getmembers()}
    assert {"report.md", "check.json", "versions.json", "env.json", "pip-freeze.txt", "npu-smi.txt",
            "run/command.txt", "run/summary.json", "run/output.tail.log"} <= set(members)
    for text in [md, printed, *members.values()]:
        for secret in SECRETS.values():
            assert secret not in text
    assert "| torch_npu | 2.7.1 |" in md and "| CANN | 8.3.RC1 |" in md and "910B3" in members["npu-smi.txt"]
    assert "hcclCommInitRootInfoConfig" in members["run/output.tail.log"] and "step:0 " not in members["run/output.tail.log"]
    assert "HF_TOKEN=***" in members["run/output.tail.log"] and "https://alice:***@data.example.com" in members["run/command.txt"]
    assert json.loads(members["env.json"])["HCCL_SOCKET_IFNAME"] == "enp189s0f0"
    assert "pytest" in members["pip-freeze.txt"].lower()  # the checked interpreter's own freeze
    assert oct(os.stat(f"{out}.tar.gz").st_mode & 0o777) == "0o600"


def test_nothing_is_written_without_yes_when_it_cannot_ask(tmp_path, run_dir, capsys):
    out = tmp_path / "rep"
    code = main(["report", "--out", str(out), "--run", str(run_dir), "--root", str(HOSTS / "seed"),
                 "--npu-smi", str(HOSTS / "npu-smi" / "healthy-8x910b3.txt")])
    captured = capsys.readouterr()
    assert code == 2 and "nothing written" in captured.err
    assert "will write" in captured.out and "run/output.tail.log" in captured.out  # shown first
    assert not Path(f"{out}.md").exists() and not Path(f"{out}.tar.gz").exists()


def test_bad_run_folder_is_one_line(tmp_path, capsys):
    assert main(["report", "--run", str(tmp_path / "nope")]) == 2
    assert "not a folder" in capsys.readouterr().err
