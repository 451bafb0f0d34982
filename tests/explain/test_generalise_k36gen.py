"""A pasted message read as the failure it states, in two forms the lone-sentence reading declined (k36gen).

- A value a program prints inside its sentence is not code: Ray's raylet prints the worker's pid after the word
  ("Some workers of the worker process(67215) have not registered within the timeout", src/ray/raylet/worker_pool.cc),
  an issue title quotes a setting ("… When GRPO training with use_vllm=True", trl#2816). CODE_LINE took the
  ``process(`` and the ``=`` for a call and an assignment; in a sentence of five words or more a number in parentheses
  after a name and a ``key=value`` word are masked before it judges.
- One message printed over two or three lines (verl's platform manager's warning and the reason it gives on the next
  line, verl#6741): the lines are joined and read as one sentence when each is a sentence and the first states a failure.

Both are read as ``Exception: <sentence>`` so the analyzers and the similar-failure fallback see the words. Code lines,
log records, longer pastes and pastes whose first line states no failure stay as they were.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from ascendrl.catalog import Classifier, classify, load_catalog


def _read(text: str):
    """The reading alone: no catalog entry (the entries that name these messages, ARL-E140 and ARL-E425, would win)."""
    classifier = Classifier(dataclasses.replace(load_catalog(), entries=()))
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _unknown_exception(result):
    return result.unknown is not None and result.unknown.type == "Exception"


@pytest.mark.parametrize("text", [
    # ray#38946 (Ray's raylet, worker_pool.cc): the pid in parentheses after "process"
    "Some workers of the worker process(67215) have not registered within the timeout. The process is still alive, "
    "probably it's hanging during start.",
    # trl#2816's title: a setting written key=value
    "is_async_output_supported is not implemented error When GRPO training with use_vllm=True",
])
def test_values_printed_in_a_sentence_are_not_code(text):
    assert not classify._looks_like_code(text)


@pytest.mark.parametrize("text", [
    "x = foo(1)",
    "model.generate(input_ids=x, max_new_tokens=3) fails here now",
    "assert isinstance(device, torch.device) failed",
    "if rank == 0: raise ValueError(msg)",
])
def test_code_stays_code(text):
    assert classify._looks_like_code(text)


def test_a_sentence_with_a_printed_pid_is_read():
    text = ("Some workers of the worker process(67215) have not registered within the timeout. The process is still alive, "
            "probably it's hanging during start.\n")
    result = _read(text)
    assert result.fatal and _unknown_exception(result)
    assert result.unknown.message.startswith("Some workers of the worker process(67215) have not registered")


def test_a_message_over_two_lines_is_read_as_one():
    # verl#6741: verl/plugin/platform/platform_manager.py's warning, the reason on its second line
    text = ("Platform 'huawei' (PlatformNPU) is registered but not available.\n"
            "This may be due to this ray actor being a CPU-only actor.\n")
    result = _read(text)
    assert _unknown_exception(result), result.unknown
    assert result.unknown.message == ("Platform 'huawei' (PlatformNPU) is registered but not available. "
                                      "This may be due to this ray actor being a CPU-only actor.")
    assert result.unknown.line == 1


@pytest.mark.parametrize("text", [
    # the first line states no failure
    "Starting the rollout workers\ndevice_ip is invalid in ranktable file\n",
    # four lines: more than one message
    "model loaded\nthe socket is not ready\nretry later\nthe socket is not ready\n",
    # a command the person ran above the message
    "ray start --head --resources='{\"NPU\": 8}'\n`--resources` is not a valid JSON string.\n",
    # a frame line of a traceback cut above it
    "loading the checkpoint failed\n  File \"/w/verl/x.py\", line 3, in load\n",
    # a log record among the lines
    "INFO 04-28 16:10:09 [core.py:69] engine failed to start\nthe port is not free\n",
])
def test_other_short_pastes_stay_as_they_were(text):
    lines = [line.strip() for line in text.splitlines()]
    result = _read(text)
    joined = _unknown_exception(result) and all(line in result.unknown.message for line in lines[:2])
    assert not joined, result.unknown


# DRV-engine-lengths: EasyR1's own check of the rollout's token budget (verl/workers/rollout/vllm_rollout_spmd.py,
# vLLMRollout.__init__; forks copied it for their vLLM and SGLang rollouts), whole and as EasyR1#3425's title cuts it.
@pytest.mark.parametrize("message", [
    "max_num_batched_tokens should be greater than prompt_length + response_length.",
    "max_num_batched_tokens should be greater than p...",
])
def test_easyr1s_token_budget_check_is_read_by_the_lengths_analyzer(message):
    catalog = load_catalog()
    alone = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E156"))
    classifier = Classifier(alone)
    classifier.feed_stream(io.BytesIO(f"ValueError: {message}\n".encode()), "paste.log")
    top = classifier.result().diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-engine-lengths", "max-num-batched-tokens-below-max-model-len")
    assert any("worker.rollout.max_num_batched_tokens" in step for step in top.entry.fix)


def test_other_budget_sentences_are_not_easyr1s():
    from ascendrl.catalog.analyzers.lengths import EASYR1_BATCHED

    assert EASYR1_BATCHED.search("max_num_batched_tokens should be greater than max_num_seqs") is None


# The similar-failure index compares messages, not the logger heads before them: Ray's "(pid=raylet)" / "(WorkerDict
# pid=…)" and glog's record head (Ray's raylet and GCS). ray#8890's raylet record and ray#38946's quote of the same
# worker_pool.cc message are one failure.
def test_logger_heads_are_not_part_of_a_template():
    from ascendrl.catalog.similar import templates

    record = ("(pid=raylet) I0807 17:00:41.812641 71814 71814 worker_pool.cc:265] Some workers of the worker "
              "process(76769) have not registered to raylet within timeout.")
    assert templates([record]) == ["Some workers of the worker process(<*>) have not registered to raylet within timeout."]
    glog = ("F1119 08:22:23.602082 1513663 1513663 redis_context.cc:298] Could not establish connection to redis "
            "161.97.1.1:12662 (context.err = 1)")
    assert templates([glog])[0].startswith("Could not establish connection to redis")
    assert templates(["(WorkerDict pid=12, ip=10.0.0.1) RuntimeError: boom"]) == ["RuntimeError: boom"]


def test_a_quote_of_a_record_resembles_the_record():
    from ascendrl.catalog.similar import load_index, templates

    quote = templates(["Exception: Some workers of the worker process(67215) have not registered within the timeout. "
                       "The process is still alive, probably it's hanging during start."])
    found = load_index().nearest(quote, ("https://github.com/ray-project/ray/issues/38946",))
    assert found is not None and found[0].label == "ray-worker-register-timeout" and found[1] >= 0.5, found


# A link a message quotes is not part of its words: Ray's runtime_env refusal ends with "refer to
# https://docs.ray.io/…" (python/ray/_private/runtime_env/packaging.py), whose "docs" made the sentence read as one about
# documentation, and whose length made the line longer than a sentence (raylight#23's paste, over two lines).
def test_a_quoted_link_does_not_make_a_message_a_non_report():
    assert classify._a_report("Failed to upload working_dir: Package size (1765.45MiB) exceeds the maximum size of "
                              "512.00MiB, refer to https://docs.ray.io/en/latest/ray-core/handling-dependencies.html.")
    assert not classify._a_report("update the docs for the upload failure")


def test_rays_upload_refusal_over_two_lines_is_read():
    text = ("Failed to set up runtime environment.\n"
            "Failed to upload working_dir /home/user/ComfyUI/custom_nodes to the Ray cluster: Package size (1765.45MiB) "
            "exceeds the maximum size of 512.00MiB. You can exclude large files using the 'excludes' option to the "
            "runtime_env or provide a remote URI of a zip file using protocols such as 's3://', 'https://' and so on, "
            "refer to https://docs.ray.io/en/latest/ray-core/handling-dependencies.html#api-reference.\n")
    result = _read(text)
    assert _unknown_exception(result), result.unknown
    assert result.unknown.message.startswith("Failed to set up runtime environment. Failed to upload working_dir")
