"""`ascendrl data gsm8k`: GSM8K in verl's RL parquet format, with the `datasets` library.

The row format is the one verl's examples/data_preprocess/gsm8k.py writes (the seed ran it):
data_source "openai/gsm8k", a one-message chat prompt ending in the step-by-step instruction,
ability "math", reward_model {style: rule, ground_truth: the number after "####"} and
extra_info {split, index, answer, question}.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

DATA_SOURCE = "openai/gsm8k"
INSTRUCTION = 'Let\'s think step by step and output the final answer after "####".'
_FINAL = re.compile(r"#### (\-?[0-9\.\,]+)")
_SPLIT_FILE = re.compile(r"(train|test)[^/]*\.(parquet|jsonl|json)$")


class DataError(Exception):
    """The data could not be prepared; the message says why and what to do."""


def extract_solution(answer: str) -> str:
    match = _FINAL.search(answer)
    if match is None:
        raise DataError(f"an answer has no '#### <number>' line: {answer[-80:]!r}")
    return match.group(1).replace(",", "")


def to_verl_row(example: dict, idx: int, split: str) -> dict:
    question_raw, answer_raw = example["question"], example["answer"]
    return {
        "data_source": DATA_SOURCE,
        "prompt": [{"role": "user", "content": question_raw + " " + INSTRUCTION}],
        "ability": "math",
        "reward_model": {"style": "rule", "ground_truth": extract_solution(answer_raw)},
        "extra_info": {"split": split, "index": idx, "answer": answer_raw, "question": question_raw},
    }


def _local_files(source: Path) -> dict[str, list[str]]:
    """train/test files of a local copy: the hub repo folder (main/train-*.parquet) or loose files."""
    if source.is_file():
        raise DataError(f"{source} is a file; pass the folder holding the train and test files")
    found: dict[str, list[str]] = {"train": [], "test": []}
    for path in sorted(source.rglob("*")):
        rel = str(path.relative_to(source))
        if "socratic" in rel:  # the repo's other config
            continue
        m = _SPLIT_FILE.search(path.name)
        if m and path.is_file():
            found[m.group(1)].append(str(path))
    if not found["train"] or not found["test"]:
        raise DataError(f"{source}: expected train and test files (parquet or jsonl), as in the openai/gsm8k repo's main/ folder")
    return found


HUB_CONNECT_TIMEOUT_S = 3.0


def hub_unreachable(env: dict[str, str] | None = None) -> str | None:
    """Why the hub cannot be reached, found in seconds (offline env, or no TCP connect), else None.

    `datasets` retries for about 25 s before it gives up; one short connect says it sooner. Behind a
    proxy (HTTPS_PROXY…) the direct connect proves nothing, so then the hub is tried as usual.
    """
    import socket
    from urllib.parse import urlparse

    env = dict(os.environ if env is None else env)
    if env.get("HF_HUB_OFFLINE", "").lower() in ("1", "true", "yes", "on") or env.get("HF_DATASETS_OFFLINE", "").lower() in ("1", "true", "yes", "on"):
        return "offline mode is on (HF_HUB_OFFLINE/HF_DATASETS_OFFLINE)"
    if any(env.get(k) for k in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")):
        return None
    endpoint = urlparse(env.get("HF_ENDPOINT") or "https://huggingface.co")
    host, port = endpoint.hostname or "huggingface.co", endpoint.port or (80 if endpoint.scheme == "http" else 443)
    try:
        socket.create_connection((host, port), timeout=HUB_CONNECT_TIMEOUT_S).close()
    except OSError as exc:
        return f"{host}:{port} cannot be reached ({exc.strerror or type(exc).__name__}; offline?)"
    return None


def load_raw(source: str | None):
    import importlib.util

    if importlib.util.find_spec("datasets") is None:
        raise DataError(
            "needs the `datasets` package: run it with the training venv's python (python -m ascendrl data gsm8k ...) "
            "or pip install 'ascendrl[stack]'"
        )
    if not source and (why := hub_unreachable()) is not None:
        raise DataError(f"cannot get {DATA_SOURCE} from the hub: {why}. Copy the dataset from a machine with access (the repo's main/ folder) and pass --source PATH.")
    import datasets

    if source:
        path = Path(source)
        if not path.exists():
            raise DataError(f"--source {source}: no such file or directory")
        files = _local_files(path)
        kind = "parquet" if files["train"][0].endswith(".parquet") else "json"
        return datasets.load_dataset(kind, data_files=files)
    try:
        return datasets.load_dataset(DATA_SOURCE, "main")
    except Exception as exc:  # offline, no cache, blocked hub
        offline = os.environ.get("HF_HUB_OFFLINE") or os.environ.get("HF_DATASETS_OFFLINE")
        why = "offline mode is on (HF_HUB_OFFLINE/HF_DATASETS_OFFLINE)" if offline else f"{type(exc).__name__}: {str(exc)[:200]}"
        raise DataError(
            f"cannot get {DATA_SOURCE} from the hub ({why}). Copy the dataset from a machine with access "
            "(the repo's main/ folder) and pass --source PATH."
        ) from None


def prepare_gsm8k(out: str, *, source: str | None = None) -> dict[str, tuple[str, int]]:
    raw = load_raw(source)
    os.makedirs(out, exist_ok=True)
    written = {}
    for split in ("train", "test"):
        if split not in raw:
            raise DataError(f"the source has no {split} split")
        part = raw[split]
        missing = [c for c in ("question", "answer") if c not in part.column_names]
        if missing:
            raise DataError(f"the {split} split lacks {', '.join(missing)}")
        converted = part.map(lambda ex, idx: to_verl_row(ex, idx, split), with_indices=True, remove_columns=part.column_names)
        target = os.path.join(out, f"{split}.parquet")
        tmp = target + ".partial"
        converted.to_parquet(tmp)
        os.replace(tmp, target)  # a killed run never leaves a half-written train.parquet behind
        written[split] = (target, len(converted))
    return written
