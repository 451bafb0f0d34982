"""explain reads an OOM or a negative / too small KV cache against the memory plan of the logged config.

The logs are built the way verl and vLLM print them: verl's resolved config through ``pprint``
(verl/trainer/main_ppo.py: ``pprint(OmegaConf.to_container(config, resolve=True))``), under Ray's
``(TaskRunner pid=…)`` prefix; vLLM's engine banner (``VllmConfig.__str__``, vllm/config/vllm.py);
the KV and allocator lines as vLLM / vllm-ascend / torch_npu emit them (sources in
catalog/analyzers/memory.py). The model's config.json is a vendored one (tests/memplan/configs).
"""

from __future__ import annotations

import pprint
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ascendrl.catalog import explain_paths
from ascendrl.catalog.run_settings import LogSettings

HERE = Path(__file__).parent
CONFIGS = HERE.parent / "memplan" / "configs"
BANNER = (
    "(WorkerDict pid=2301) INFO 11-20 10:02:11 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='{model}', "
    "speculative_config=None, tokenizer='{model}', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, tokenizer_revision=None, "
    "trust_remote_code=False, dtype=torch.bfloat16, max_seq_len={max_len}, download_dir=None, load_format=auto, tensor_parallel_size={tp}, "
    "pipeline_parallel_size=1, data_parallel_size=1, disable_custom_all_reduce=True, quantization=None, enforce_eager=True, kv_cache_dtype=auto"
)
NO_KV = [
    "(WorkerDict pid=2301) INFO 11-20 10:03:40 [worker_v1.py:250] Available KV cache memory: {kv} GiB",
    "(WorkerDict pid=2301) Traceback (most recent call last):",
    '(WorkerDict pid=2301)   File "/usr/local/lib/python3.11/site-packages/vllm/v1/core/kv_cache_utils.py", line 686, in check_enough_kv_cache_memory',
    "(WorkerDict pid=2301) ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
]
OOM = [
    "(WorkerDict pid=2301) Traceback (most recent call last):",
    '(WorkerDict pid=2301)   File "/workspace/verl/verl/workers/fsdp_workers.py", line 612, in update_actor',
    "(WorkerDict pid=2301) torch.OutOfMemoryError: NPU out of memory. Tried to allocate 9.28 GiB (NPU 0; 60.97 GiB total capacity; "
    "48.10 GiB already allocated; 48.10 GiB current active; 2.61 GiB free; 57.02 GiB reserved in total by PyTorch)",
]


def verl_dump(model: str, *, util: float, tp: int, micro: int, gc: bool, prompt: int = 1024, response: int = 3072) -> list[str]:
    cfg = {
        "actor_rollout_ref": {
            "actor": {"fsdp_config": {"optimizer_offload": False, "param_offload": False}, "optim": {"lr": 1e-06},
                      "ppo_micro_batch_size_per_gpu": micro, "ppo_mini_batch_size": 64, "use_dynamic_bsz": False, "use_kl_loss": True},
            "model": {"enable_gradient_checkpointing": gc, "path": model, "use_remove_padding": True},
            "ref": {"fsdp_config": {"param_offload": True}, "log_prob_micro_batch_size_per_gpu": 16},
            "rollout": {"enforce_eager": True, "free_cache_engine": True, "gpu_memory_utilization": util, "max_model_len": None,
                        "max_num_batched_tokens": 8192, "max_num_seqs": 1024, "n": 5, "name": "vllm", "tensor_model_parallel_size": tp},
        },
        "algorithm": {"adv_estimator": "grpo", "use_kl_in_reward": False},
        "data": {"max_prompt_length": prompt, "max_response_length": response, "train_batch_size": 128},
        "trainer": {"n_gpus_per_node": 8, "nnodes": 1},
    }
    return ["(TaskRunner pid=2101) " + line for line in pprint.pformat(cfg).splitlines()]


def model_dir(tmp_path: Path, config: str, name: str) -> str:
    folder = tmp_path / "models" / name
    folder.mkdir(parents=True)
    shutil.copy(CONFIGS / config, folder / "config.json")
    return str(folder)


def explain(catalog, tmp_path: Path, lines: list[str], drop: list[str]):
    log = tmp_path / "run.log"
    log.write_text("\n".join(lines) + "\n")
    cat = catalog if not drop else type(catalog)(**{**catalog.__dict__, "entries": tuple(e for e in catalog.entries if e.id not in drop)})
    return explain_paths(cat, [log]).diagnoses[0]


def test_the_settings_are_read_from_verls_dump_and_vllms_banner():
    found = LogSettings()
    for line in [*verl_dump("/m/Qwen", util=0.6, tp=2, micro=4, gc=True), BANNER.format(model="/m/Qwen", max_len=4096, tp=2),
                 "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.max_num_seqs=256 data.max_prompt_length=2048"]:
        found.feed(line)
    got = found.settings()
    assert found.model_path == "/m/Qwen"
    assert got["actor_rollout_ref.rollout.gpu_memory_utilization"] == 0.6 and got["actor_rollout_ref.rollout.tensor_model_parallel_size"] == 2
    assert got["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"] == 4 and got["actor_rollout_ref.ref.fsdp_config.param_offload"] is True
    assert got["actor_rollout_ref.rollout.max_model_len"] == 4096  # vLLM's banner: what it really used
    assert got["data.max_prompt_length"] == 1024  # the resolved dump wins over a command line
    assert got["actor_rollout_ref.rollout.max_num_seqs"] == 1024 and got["algorithm.use_kl_in_reward"] is False
    assert "actor_rollout_ref.actor.optim.lr" not in got and "data.train_batch_size" not in got  # only the planner's keys


def test_vllm_v0_profiling_lines_give_the_card_the_utilization_and_the_kv():
    """vLLM V0's worker.py profiling lines (as in vllm#10517-era logs): total, util, and the KV left."""
    found = LogSettings()
    found.feed("INFO 12-22 10:55:34 worker.py:241] the current vLLM instance can use total_gpu_memory (79.25GiB) x gpu_memory_utilization (0.15) = 11.89GiB")
    found.feed("INFO 12-22 10:55:34 worker.py:241] model weights take 8.51GiB; non_torch_memory takes 0.26GiB; PyTorch activation peak "
               "memory takes 0.94GiB; the rest of the memory reserved for KV Cache is 2.18GiB.")
    assert (found.total_gib, found.kv_logged) == (79.25, 2.18)
    assert found.settings() == {"actor_rollout_ref.rollout.gpu_memory_utilization": 0.15}


def test_negative_kv_is_read_against_the_plan_with_the_smallest_fix(catalog, tmp_path):
    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    lines = [*verl_dump(model, util=0.2, tp=1, micro=2, gc=True), BANNER.format(model=model, max_len=4096, tp=1),
             *(line.format(kv="-3.40") for line in NO_KV)]
    alone = explain(catalog, tmp_path, lines, ["ARL-E205"])
    assert alone.entry.id == "DRV-memory" and alone.kind == "kv-cache-no-memory"
    assert "predicts a KV cache of" in alone.entry.cause and "where the log says -3.40 GiB" in alone.entry.cause
    assert "64 GB card (not logged; nearest the logged KV)" in alone.entry.cause
    first = alone.entry.fix[0]
    assert first.startswith("set actor_rollout_ref.rollout.gpu_memory_utilization=") and "(fits)" in first, alone.entry.fix
    util = float(first.split("=")[1].split()[0])
    assert 0.2 < util <= 0.4  # the nearest value that fits, not the far end of the range
    merged = explain(catalog, tmp_path, lines, [])
    assert merged.entry.id == "ARL-E205" and any(n.startswith("set actor_rollout_ref.rollout.gpu_memory_utilization=") for n in merged.notes)
    assert any("memory plan for Qwen2.5-7B-Instruct (TP 1, gpu_memory_utilization 0.2, max_model_len 4096" in n for n in merged.notes)


def test_training_oom_is_read_against_the_plan(catalog, tmp_path):
    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    lines = [*verl_dump(model, util=0.5, tp=2, micro=4, gc=False), BANNER.format(model=model, max_len=4096, tp=2), *OOM]
    top = explain(catalog, tmp_path, lines, [])
    assert top.entry.id == "ARL-E204", top.entry.id
    notes = " | ".join(top.notes)
    assert "short by 6.67 GiB" in notes  # the message's own numbers still come first
    assert "60.97 GiB card (logged)" in notes and "the plan predicts a training peak of" in notes and "16,384 tokens per micro-batch" in notes
    fix = next(n for n in top.notes if n.startswith("set "))
    assert ("enable_gradient_checkpointing=True" in fix or "ppo_micro_batch_size_per_gpu=" in fix) and "(fits)" in fix, fix


def test_a_vllm_server_log_finds_a_hub_model_in_the_local_cache(catalog, tmp_path, monkeypatch):
    """vllm-ascend issue 9372: Qwen3-14B, util 0.9, max_model_len 4096 on a 32 GB NPU logs -0.87 GiB."""
    snapshot = tmp_path / "hub" / "models--Qwen--Qwen3-14B" / "snapshots" / "0a1b2c"
    snapshot.mkdir(parents=True)
    shutil.copy(CONFIGS / "qwen3-14b.json", snapshot / "config.json")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    lines = [BANNER.format(model="Qwen/Qwen3-14B", max_len=4096, tp=1).replace("(WorkerDict pid=2301) ", ""),
             *(line.replace("(WorkerDict pid=2301) ", "").format(kv="-0.87") for line in NO_KV)]
    top = explain(catalog, tmp_path, lines, [])
    notes = " | ".join(top.notes)
    assert top.entry.id == "ARL-E205" and "memory plan for Qwen3-14B (TP 1, gpu_memory_utilization 0.9, max_model_len 4096" in notes
    assert "32 GB card (not logged; nearest the logged KV)" in notes and "where the log says -0.87 GiB" in notes and "verdict: negative KV" in notes
    assert any("Available KV cache memory: -0.87 GiB" in line for line in top.evidence)
    assert any(n.startswith("set tensor_parallel_size=2 ") and "(fits)" in n for n in top.notes), top.notes  # vLLM's own name
    assert "training peak" not in notes  # no verl actor on a vLLM server's card


def test_a_paste_without_settings_says_what_the_plan_needs(catalog, tmp_path):
    top = explain(catalog, tmp_path, OOM[:1] + [line.replace("(WorkerDict pid=2301) ", "") for line in OOM[1:]], [])
    assert top.entry.id == "ARL-E204"
    assert any("the memory plan for this config needs the model's config.json (the log names no model path)" in n for n in top.notes)


def test_explain_loads_the_planner_only_for_a_memory_failure(tmp_path):
    log = tmp_path / "k.log"
    log.write_text("Traceback (most recent call last):\n  File \"/w/verl/x.py\", line 1, in f\nKeyError: 'k'\n")
    code = ("import sys; from ascendrl.catalog import explain_paths, load_catalog; "
            f"explain_paths(load_catalog(), [{str(log)!r}]); "
            "assert 'ascendrl.preflight.memplan' not in sys.modules and 'torch' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_live_stream_gets_the_plan_from_its_own_lines_and_no_file_is_read(catalog, tmp_path, monkeypatch):
    """`run` names its stream "output": the settings come from the stream as it passes (in pieces cut
    anywhere), and a file of that name in the current directory is never opened."""
    from ascendrl.catalog import Classifier

    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    settings = [*verl_dump(model, util=0.2, tp=1, micro=2, gc=True), BANNER.format(model=model, max_len=4096, tp=1)]
    failure = "\n".join(line.format(kv="-3.40") for line in NO_KV) + "\n"
    monkeypatch.chdir(tmp_path)
    (tmp_path / "output").write_text("\n".join(settings) + "\n")
    c = Classifier(catalog)
    c.feed_chunk(failure.encode(), "output")
    notes = " | ".join(c.result().diagnoses[0].notes)
    assert "memory plan for Qwen2.5-7B-Instruct" not in notes and "needs the model's config.json" in notes  # the decoy file was not read
    (tmp_path / "output").unlink()
    c = Classifier(catalog)
    data = ("\n".join(settings) + "\n" + failure).encode()
    for i in range(0, len(data), 97):
        c.feed_chunk(data[i:i + 97], "output")
    notes = " | ".join(c.result().diagnoses[0].notes)
    assert "memory plan for Qwen2.5-7B-Instruct (TP 1, gpu_memory_utilization 0.2, max_model_len 4096" in notes


def test_stdin_gets_the_plan(catalog, tmp_path):
    import io

    from ascendrl.catalog import Classifier

    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    lines = [*verl_dump(model, util=0.2, tp=1, micro=2, gc=True), BANNER.format(model=model, max_len=4096, tp=1),
             *(line.format(kv="-3.40") for line in NO_KV)]
    c = Classifier(catalog)
    c.feed_log(io.BytesIO(("\n".join(lines) + "\n").encode()), "<stdin>")
    assert any("where the log says -3.40 GiB" in n for n in c.result().diagnoses[0].notes)


def test_a_worker_log_in_a_folder_takes_the_drivers_settings(catalog, tmp_path):
    """A Ray session folder: verl's dump is in the driver's output, the OOM in a worker's log."""
    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    logs = tmp_path / "session" / "logs"
    logs.mkdir(parents=True)
    (logs / "job-driver-01.log").write_text("\n".join([*verl_dump(model, util=0.5, tp=2, micro=4, gc=False), BANNER.format(model=model, max_len=4096, tp=2)]) + "\n")
    (logs / "worker-02.err").write_text("\n".join(OOM) + "\n")
    top = explain_paths(catalog, [logs]).diagnoses[0]
    assert "the plan predicts a training peak of" in " | ".join(top.notes)


def test_settings_lines_do_not_change_the_chains(catalog, tmp_path):
    """A config line is collected, never attached to a failure as its detail."""
    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    lines = [*OOM, "(WorkerDict pid=2301) " + BANNER.format(model=model, max_len=4096, tp=2).split(") ", 1)[1],
             "(TaskRunner pid=2101) actor_rollout_ref.rollout.tensor_model_parallel_size=2"]
    top = explain(catalog, tmp_path, lines, [])
    assert not any("Initializing" in e or "tensor_model_parallel_size=2" in e for e in top.evidence)
    assert top.excerpt.startswith("torch.OutOfMemoryError")


def test_megatron_keys_are_read_from_the_dump():
    found = LogSettings()
    dump = {"actor_rollout_ref": {"actor": {"megatron": {"context_parallel_size": 2, "override_transformer_config": {"recompute_granularity": "full", "recompute_method": "uniform"},
                                                         "param_offload": True, "pipeline_model_parallel_size": 2, "tensor_model_parallel_size": 4},
                                            "strategy": "megatron"}}}
    for line in pprint.pformat(dump, width=60).splitlines():
        found.feed(line)
    got = found.settings()
    assert got["actor_rollout_ref.actor.strategy"] == "megatron" and got["actor_rollout_ref.actor.megatron.tensor_model_parallel_size"] == 4
    assert got["actor_rollout_ref.actor.megatron.override_transformer_config.recompute_granularity"] == "full"
    assert got["actor_rollout_ref.actor.megatron.pipeline_model_parallel_size"] == 2


def test_a_vllm_servers_non_default_args():
    """vllm/entrypoints/utils.py log_non_default_args: "non-default args: {…}"."""
    found = LogSettings()
    found.feed("INFO 11-20 10:02:11 [utils.py:253] non-default args: {'model': '/m/Qwen3-14B', 'max_model_len': 4096, "
               "'tensor_parallel_size': 2, 'gpu_memory_utilization': 0.85, 'enforce_eager': True}")
    got = found.settings()
    assert found.model_path == "/m/Qwen3-14B"
    assert (got["actor_rollout_ref.rollout.max_model_len"], got["actor_rollout_ref.rollout.tensor_model_parallel_size"],
            got["actor_rollout_ref.rollout.gpu_memory_utilization"]) == (4096, 2, 0.85)


def test_a_megatron_runs_oom_is_read_against_its_megatron_plan(catalog, tmp_path):
    """verl's dump of a model_engine=megatron run: the training peak is planned for its TP/PP layout."""
    model = model_dir(tmp_path, "qwen2.5-7b-instruct.json", "Qwen2.5-7B-Instruct")
    cfg = {
        "actor_rollout_ref": {
            "actor": {"megatron": {"context_parallel_size": 1, "optimizer_offload": False, "param_offload": False,
                                   "override_transformer_config": {"recompute_granularity": None}, "pipeline_model_parallel_size": 2,
                                   "tensor_model_parallel_size": 2},
                      "ppo_micro_batch_size_per_gpu": 8, "strategy": "megatron", "use_kl_loss": False},
            "model": {"path": model},
            "rollout": {"gpu_memory_utilization": 0.5, "tensor_model_parallel_size": 2},
        },
        "data": {"max_prompt_length": 1024, "max_response_length": 3072},
        "trainer": {"n_gpus_per_node": 8, "nnodes": 1},
    }
    lines = ["(TaskRunner pid=2101) " + line for line in pprint.pformat(cfg).splitlines()]
    top = explain(catalog, tmp_path, [*lines, *(line.replace("fsdp_workers.py", "megatron_workers.py") for line in OOM)], [])
    notes = " | ".join(top.notes)
    assert "Megatron TP 2 PP 2 CP 1 over 8 NPUs" in notes and "32,768 tokens per micro-batch" in notes, notes


def test_the_dump_is_looked_for_only_near_the_start_of_an_input():
    """verl prints its config at start-up: an input with no dump in its first 16 MiB is not scanned for one
    further (a long vLLM server log costs no second pass), and a finished dump ends the scan too."""
    from ascendrl.catalog.run_settings import MAX_DUMP_START, RunSettings

    s = RunSettings()
    s.dump_block("a", [], 0, MAX_DUMP_START)
    assert not s.scanning_dump("a") and s.scanning_dump("b")
    dump = pprint.pformat({"data": {"max_prompt_length": 512}, "trainer": {"n_gpus_per_node": 8}}, width=30).splitlines()
    s.dump_block("b", dump, 10, 1 << 20)
    assert s.scanning_dump("b")  # the block ended right after the dump: it may go on in the next one
    s.dump_block("b", [], 1 << 20, 1 << 20)
    assert not s.scanning_dump("b") and s.for_input("b").settings() == {"data.max_prompt_length": 512, "trainer.n_gpus_per_node": 8}
