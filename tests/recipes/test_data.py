"""`ascendrl data gsm8k`: verl's row format, local copies, and a clear word when offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from ascendrl.recipes.data import DataError, extract_solution, to_verl_row


def test_answer_extraction_as_verl_does_it():
    assert extract_solution("Natalia sold 48+24 = 72 clips.\n#### 72") == "72"
    assert extract_solution("so it is\n#### 1,000") == "1000"
    assert extract_solution("#### -3.5") == "-3.5"
    with pytest.raises(DataError, match="no '#### <number>'"):
        extract_solution("no final line")


def test_row_format():
    row = to_verl_row({"question": "What is 2+2?", "answer": "2+2=4\n#### 4"}, 7, "train")
    assert row["data_source"] == "openai/gsm8k" and row["ability"] == "math"
    assert row["prompt"] == [{"role": "user", "content": 'What is 2+2? Let\'s think step by step and output the final answer after "####".'}]
    assert row["reward_model"] == {"style": "rule", "ground_truth": "4"}
    assert row["extra_info"] == {"split": "train", "index": 7, "answer": "2+2=4\n#### 4", "question": "What is 2+2?"}


def test_without_datasets_installed_it_says_what_to_do(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "ascendrl", "data", "gsm8k", "--out", str(tmp_path)], capture_output=True, text=True)
    if "datasets" in proc.stderr and "needs the `datasets` package" in proc.stderr:
        assert proc.returncode == 1
    else:  # datasets happens to be installed here: then it is the offline message
        assert proc.returncode == 1 and "--source" in proc.stderr


@pytest.mark.slow
def test_local_copy_in_the_hub_layout_and_offline_hub(verl_python, tmp_path):
    src = tmp_path / "gsm8k" / "main"
    src.mkdir(parents=True)
    write = (
        "import pyarrow as pa, pyarrow.parquet as pq, sys\n"
        "t = pa.table({'question': ['Q1?', 'Q2?'], 'answer': ['a\\n#### 5', 'b\\n#### 1,250']})\n"
        "pq.write_table(t, sys.argv[1] + '/train-00000-of-00001.parquet')\n"
        "pq.write_table(t.slice(0, 1), sys.argv[1] + '/test-00000-of-00001.parquet')\n"
        "pq.write_table(t, sys.argv[1] + '/../socratic-train.parquet')\n"  # the repo's other config: ignored
    )
    subprocess.run([verl_python, "-c", write, str(src)], check=True)
    env = {**os.environ, "HF_DATASETS_CACHE": str(tmp_path / "cache"), "HF_HUB_OFFLINE": "1"}
    out = tmp_path / "out"
    proc = subprocess.run([verl_python, "-m", "ascendrl", "data", "gsm8k", "--source", str(tmp_path / "gsm8k"), "--out", str(out)], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert "train: 2 rows" in proc.stdout and "test: 1 rows" in proc.stdout
    read = "import pyarrow.parquet as pq, json, sys; print(json.dumps(pq.read_table(sys.argv[1]).to_pylist()))"
    rows = json.loads(subprocess.run([verl_python, "-c", read, str(out / "train.parquet")], capture_output=True, text=True, check=True).stdout)
    assert [r["reward_model"]["ground_truth"] for r in rows] == ["5", "1250"]
    assert [r["extra_info"]["index"] for r in rows] == [0, 1]
    assert not list(out.glob("*.partial"))
    offline = subprocess.run([verl_python, "-m", "ascendrl", "data", "gsm8k", "--out", str(tmp_path / "o2")], env=env, capture_output=True, text=True, timeout=120)
    assert offline.returncode == 1 and "offline mode is on" in offline.stderr and "--source" in offline.stderr


def test_an_unreachable_hub_is_found_in_seconds_not_after_retries():
    import socket
    import time

    from ascendrl.recipes.data import hub_unreachable

    assert "offline mode is on" in hub_unreachable({"HF_HUB_OFFLINE": "1"})
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now: connection refused
    start = time.monotonic()
    why = hub_unreachable({"HF_ENDPOINT": f"http://127.0.0.1:{port}"})
    assert why is not None and f"127.0.0.1:{port} cannot be reached" in why and time.monotonic() - start < 5
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        assert hub_unreachable({"HF_ENDPOINT": f"http://127.0.0.1:{listening.getsockname()[1]}"}) is None
    assert hub_unreachable({"HTTPS_PROXY": "http://proxy:3128", "HF_ENDPOINT": f"http://127.0.0.1:{port}"}) is None
