"""Readings widened by helper k37gen (2026-12-04) from the emitting projects' sources, each for a class of failure rather
than one thread's paste:

- Ray's C++ core giving up on the GCS (DRV-ray-mechanism): a RAY_LOG(FATAL) / RAY_CHECK / error record whose message
  says the process could not connect, or reconnect, to the GCS (Redis in Ray 1.x), read when nothing else in the log is
  fatal: Ray 1.x's redis_context.cc ("Could not establish connection to redis <ip>:<port> (context.err = N)"), its
  GCS client's reconnect (service_based_gcs_client.cc), the gRPC client's channel check (gcs_rpc_client.h, the 1.x-2.x
  "Failed to connect to GCS within 60 seconds" and the later "… GCS may have been killed …").
- ROLL's DataProto (roll/distributed/scheduler/protocol.py, taken from verl's) asserting at least one row per chunk
  ("batch_size 32 < chunks 64"): read by DRV-verl as verl's own equal-chunk check is, with the batch size to reach.
- A reward function refusing a keyword only a trainer's reward call passes (DRV-reward-args): TRL's GRPOTrainer calls
  reward_func(prompts=…, completions=…, completion_ids=…, **reward_kwargs) with trainer_state among the kwargs
  (trl/trainer/grpo_trainer.py), verl's reward manager compute_score(data_source=…, solution_str=…, ground_truth=…,
  extra_info=…) (verl/workers/reward_manager/naive.py): CPython's "unexpected keyword argument 'completion_ids'" names
  the class even when the paste cut the function's name or the function is not named for a reward.
- A paste that is one message quoted whole in double quotes or backticks (a FAQ or an issue's prose quoting the
  program): the quotes are the person's; read with them, similar.templates masked the message whole and the resemblance
  compared nothing but the placeholder type.
- IPython / Jupyter's traceback head ("IndexError     Traceback (most recent call last)") is the chain reader's, not a
  sentence naming a failure: the paste readings no longer turn it into "IndexError: Traceback (most recent call last)",
  whose resemblance to other IPython pastes named unrelated classes.

Where a catalog entry names the same line it stays the diagnosis; the tests take the entries out to check the reading.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog.analyzers import Facts
from ascendrl.catalog.analyzers.data import RewardArguments
from ascendrl.catalog.analyzers.emitted import RayMechanisms
from ascendrl.catalog.analyzers.verl import VerlCondition
from ascendrl.catalog.chain import Chain, Frame, Link

CATALOG = load_catalog()


def _without(*ids: str):
    return dataclasses.replace(CATALOG, entries=tuple(e for e in CATALOG.entries if e.id not in ids))


def _result(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _facts() -> Facts:
    return Facts({}, {})


def _lone(message: str) -> Link:
    return Link("bare", "Exception", message, "paste.log", 1, text=message)


# --- Ray's core records about the GCS -------------------------------------------------------------------------------

# https://github.com/ray-project/ray/issues/45570 (Ray 2.22, a driver inside streamlit): the record as pasted
GCS_KILLED = (
    "2024-05-26 11:25:02,149 WARNING worker.py:1419 -- SIGTERM handler is not set because current thread is not the main thread.\n"
    "[2024-05-26 11:26:16,798 E 177479 178526] gcs_rpc_client.h:554: Failed to connect to GCS within 60 seconds. GCS may "
    "have been killed. It's either GCS is terminated by `ray stop` or is killed unexpectedly. If it is killed unexpectedly, "
    "see the log file gcs_server.out. https://docs.ray.io/en/master/ray-observability/user-guides/configure-logging.html"
    "#logging-directory-structure. The program will terminate.\n"
)


def test_a_core_record_that_lost_the_gcs_is_read_without_the_entry():
    result = _result(GCS_KILLED, _without("ARL-E119"))
    top = result.diagnoses[0]
    assert (top.entry.id, top.basis, top.kind) == ("DRV-ray-mechanism", "derived", "ray-gcs-unreachable")
    assert top.fatal and top.evidence and any("gcs_rpc_client.h" in s for s in top.entry.sources)


def test_the_entry_stays_the_diagnosis_when_it_names_the_record():
    top = _result(GCS_KILLED).diagnoses[0]
    assert (top.entry.id, top.basis) == ("ARL-E119", "catalog")


@pytest.mark.parametrize("line", [
    # Ray 1.x raylet, glog form (src/ray/gcs/redis_context.cc, ConnectWithRetries)
    "F0114 18:12:17.869905 324126 redis_context.cc:215] Could not establish connection to redis 10.0.0.5:39902 (context.err = 1)",
    # Ray 1.2-1.3 (src/ray/gcs/gcs_client/service_based_gcs_client.cc, ReconnectGcsServer)
    "[2021-04-18 06:54:54,934 C 756 756] service_based_gcs_client.cc:229: Couldn't reconnect to GCS server. The last "
    "attempted GCS server address was 10.42.0.44:43507",
    # Ray 2.x raylet (src/ray/rpc/gcs_server/gcs_rpc_client.h, CheckChannelStatus), with the component tag
    "[2022-07-25 08:35:14,805 C 157 212] (raylet) gcs_rpc_client.h:537:  Check failed: absl::ToInt64Seconds(absl::Now() - "
    "gcs_last_alive_time_) < ::RayConfig::instance().gcs_rpc_server_reconnect_timeout_s() Failed to connect to GCS within 60 seconds",
])
def test_each_release_s_wording_is_read(line):
    result = _result(line + "\n", _without("ARL-E119"))
    assert result.diagnoses and result.diagnoses[0].kind == "ray-gcs-unreachable", (result.diagnoses, result.unknown)


@pytest.mark.parametrize("message", [
    "Failed to connect to Redis, retrying.",  # the warning before the retries run out: no address, no context error
    "Could not establish connection to the database at 10.0.0.5:5432",
    "Failed to connect to GCS-compatible storage bucket",  # not Ray's GCS
    "Unable to connect to redis://localhost:6379/0: Error 111",  # a Celery-style URL, not Ray's record
])
def test_other_connection_messages_are_not_ray_s(message):
    assert RayMechanisms().analyze(_lone(message), Chain("paste.log", []), _facts()) is None


def test_a_typed_exception_with_the_words_is_left_to_the_entries():
    # only a native record (read as a lone sentence) is read so: a typed Python exception has its own entries (ARL-E119)
    link = Link("python", "ConnectionError", "Could not establish connection to redis 1.2.3.4:6379 (context.err = 1)",
                "paste.log", 3, [Frame("/x/site-packages/app/db.py", 10, "connect")])
    assert RayMechanisms().analyze(link, Chain("paste.log", [link]), _facts()) is None


# --- ROLL's DataProto chunk check -------------------------------------------------------------------------------------

def test_roll_s_fewer_rows_than_chunks_is_a_batch_config_condition():
    link = _lone("batch_size 32 < chunks 64")
    link.type = "AssertionError"
    found = VerlCondition().analyze(link, Chain("paste.log", [link]), _facts())
    assert found is not None and found.kind == "verl-batch-config"
    assert "at least 64" in " ".join(found.fix)
    assert any("ROLL" in s for s in found.sources)


def test_the_same_assert_from_roll_s_frames_is_read():
    frames = [Frame("/opt/ROLL/roll/distributed/scheduler/protocol.py", 412, "chunk")]
    link = Link("python", "AssertionError", "batch_size 8 < chunks 16", "paste.log", 9, frames)
    found = VerlCondition().analyze(link, Chain("paste.log", [link]), _facts())
    assert found is not None and found.kind == "verl-batch-config"


def test_a_batch_that_is_large_enough_gives_no_chunk_advice():
    link = _lone("batch_size 64 < chunks 32")  # not what the assert prints (it fails only when smaller): no advice
    link.type = "AssertionError"
    found = VerlCondition().analyze(link, Chain("paste.log", [link]), _facts())
    assert found is None or "data-parallel workers a row" not in " ".join(found.fix)


# --- a reward function refusing the trainer's keywords ------------------------------------------------------------------

@pytest.mark.parametrize("message, trainer", [
    ("unexpected keyword argument 'completion_ids'", "TRL"),  # the function's name cut from the paste
    ("length_penalty() got an unexpected keyword argument 'trainer_state'", "TRL"),  # a function not named for a reward
    ("my_fn() got an unexpected keyword argument 'solution_str'", "verl"),
])
def test_a_trainer_s_reward_keyword_names_the_signature_class(message, trainer):
    link = Link("python", "TypeError", message, "paste.log", 5)
    found = RewardArguments().analyze(link, Chain("paste.log", [link]), _facts())
    assert found is not None and found.kind == "reward-fn-signature-mismatch", found
    assert trainer in found.title and "**kwargs" in " ".join(found.fix)


@pytest.mark.parametrize("message", [
    "generate() got an unexpected keyword argument 'completion_ids'".replace("completion_ids", "attention_masks"),
    "__init__() got an unexpected keyword argument 'prompts'",  # a keyword any library may take
    "unexpected keyword argument 'completion_ids_list'",  # not the trainer's name
])
def test_other_unexpected_keywords_are_not_a_reward_signature(message):
    link = Link("python", "TypeError", message, "paste.log", 5)
    found = RewardArguments().analyze(link, Chain("paste.log", [link]), _facts())
    assert found is None or found.kind != "reward-fn-signature-mismatch"


def test_the_keyword_refused_inside_the_trainer_s_own_code_is_not_read():
    frames = [Frame("/x/site-packages/trl/trainer/grpo_trainer.py", 1200, "_generate_and_score_completions")]
    assert frames[-1].package == "trl"
    link = Link("python", "TypeError", "_prepare_inputs() got an unexpected keyword argument 'trainer_state'", "paste.log", 9, frames)
    assert RewardArguments().analyze(link, Chain("paste.log", [link]), _facts()) is None


# --- IPython's traceback head -------------------------------------------------------------------------------------

# https://huggingface.co/InstaDeepAI/nucleotide-transformer-500m-1000g/discussions/2 (a Colab traceback, cut to its ends)
IPYTHON = (
    "---------------------------------------------------------------------------\n"
    "IndexError                                Traceback (most recent call last)\n"
    "<ipython-input-8-5181f41be2fc> in <cell line: 1>()\n"
    "----> 1 torch_outs = model(\n"
    "      2     tokens_ids,\n"
    "\n"
    "IndexError: index out of range in self\n"
)


def test_the_ipython_head_is_not_read_as_an_exception_line():
    result = _result(IPYTHON, _without("ARL-E2776"))
    assert result.unknown is not None
    assert (result.unknown.type, result.unknown.message) == ("IndexError", "index out of range in self")


def test_a_cut_ipython_traceback_keeps_its_type_without_a_message():
    text = "\n".join(IPYTHON.splitlines()[:5]) + "\n"  # the paste stops before the exception line
    result = _result(text, _without("ARL-E2776"))
    assert result.unknown is None or "Traceback (most recent call last)" not in result.unknown.message


def test_a_sentence_naming_an_error_is_still_read():
    # the paste readings the guard leaves alone: a person's sentence that names the error class, or spells it as words
    result = _result("Training crashes with a KeyError after the first epoch finished\n")
    assert result.unknown is not None and result.unknown.type == "KeyError"
    result = _result("index error when running the model on long prompts\n")
    assert result.unknown is not None and result.unknown.type == "IndexError"


# --- a message quoted whole ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    '"Unable to register worker with raylet"',  # verl's Chinese FAQ quotes Ray's message so
    "`Unable to register worker with raylet`",
    "\u201cUnable to register worker with raylet\u201d",
])
def test_a_message_quoted_whole_is_read_without_its_quotes(text):
    result = _result(text + "\n", _without("ARL-E140"))
    assert result.unknown is not None and result.unknown.message == "Unable to register worker with raylet", result.unknown


def test_the_quoted_message_still_matches_its_entry():
    top = _result('"Unable to register worker with raylet"\n').diagnoses[0]
    assert top.entry.id == "ARL-E140"


@pytest.mark.parametrize("text", [
    "'model.layers.0.self_attn.q_proj.weight'",  # a KeyError's key, as str(KeyError) prints it: not a person's quotes
    '"foo" is not a valid choice for --model',  # quotes around a part only
])
def test_other_quoted_text_keeps_its_quotes(text):
    from ascendrl.catalog import classify

    sentence = classify._persons_sentence(text.encode())
    assert sentence is None or sentence == text


def test_the_similar_templates_unquote_a_message_quoted_whole():
    from ascendrl.catalog.similar import templates

    assert templates(['"Unable to register worker with raylet"']) == ["Unable to register worker with raylet"]
    assert templates(["KeyError: 'model.layers.0.mlp.weight'"]) == ["KeyError: <*>"]  # a key keeps its mask
