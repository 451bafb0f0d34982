"""Readings added by helper k44data (2026-12-05) from the emitting projects' sources, each for a class of failure:

- verl's own config checks that named their condition but had no reading (own_checks.yaml rows, read in verl's sources
  from the first release that has each sentence to v0.7.0): trainer.resume_from_path that is not a global_step_N folder
  (ray_trainer._load_checkpoint, both asserts), validation sampling with a rollout temperature of 0, a LoRA rank above
  vLLM's largest (512), a model config.json whose "architectures" is missing or lists several (HFModelConfig), and a
  config section without the _target_ the installed verl instantiates it from (omega_conf_to_dataclass, both the
  v0.5.0 wording without a space and the v0.7.0 one with the config printed).
"""

from __future__ import annotations

from ascendrl.catalog import load_catalog
from kdata_helpers import classify

CATALOG = load_catalog()


def _top(text: str, catalog=CATALOG):
    result = classify(catalog, text, "paste.log")
    diagnoses = result.to_json().get("diagnoses") or []
    return diagnoses[0] if diagnoses else None


def _kind(text: str) -> tuple[str | None, str | None]:
    top = _top(text)
    return (None, None) if top is None else (str(top.get("id")), top.get("kind"))


def test_verl_resume_path_both_asserts():
    for msg in ("resume ckpt must specify the global_steps", "resume ckpt must be str type"):
        assert _kind(f"AssertionError: {msg}\n") == ("DRV-own-check", "verl-resume-path-not-global-step"), msg
        # under the Ray task runner's prefix, as verl's main_ppo prints it
        assert _kind(f"(TaskRunner pid=4242) AssertionError: {msg}\n") == \
            ("DRV-own-check", "verl-resume-path-not-global-step"), msg


def test_verl_resume_check_is_an_assert_only():
    # the same words in another exception type are not verl's check
    assert _kind("ValueError: resume ckpt must specify the global_steps\n")[1] != "verl-resume-path-not-global-step"


def test_verl_val_sampling_temperature():
    top = _top("AssertionError: validation gen temperature should be greater than 0 when enabling do_sample\n")
    assert top is not None and top.get("kind") == "verl-val-sampling-temperature-zero"
    assert "val_kwargs.do_sample" in " ".join(top.get("fix") or [])


def test_verl_lora_rank_limit():
    assert _kind("AssertionError: LoRA rank in vLLM must be less than or equal to 512\n") == \
        ("DRV-own-check", "verl-lora-rank-above-vllm-limit")


def test_model_architectures_none_and_several():
    for got in ("None", "['Qwen2ForCausalLM', 'Qwen2ForSequenceClassification']"):
        top = _top(f"AssertionError: Expect only one architecture, got {got}\n")
        assert top is not None and top.get("kind") == "model-config-architectures-not-one", got
        assert top.get("family") == "data-model"


def test_verl_config_missing_target_both_wordings():
    v050 = ("AssertionError: When dataclass_type is not provided, config must contain _target_.See "
            "trainer/config/ppo_trainer.yaml algorithm section for an example.\n")
    v070 = ("AssertionError: When dataclass_type is not provided, config must contain _target_. See "
            "trainer/config/ppo_trainer.yaml algorithm section for an example. Got config: {'gamma': 1.0, 'lam': 1.0}\n")
    for text in (v050, v070):
        assert _kind(text) == ("DRV-own-check", "verl-config-section-missing-target")


# Ray's own refusals of a remote function / actor class / actor method called without .remote(), in the wordings of
# ray 0.7 (Exception, "Actors methods cannot be instantiated directly ... try") and 0.8 .. 2.49 (TypeError).
RAY_DIRECT_CALLS = (
    "TypeError: Remote functions cannot be called directly. Instead of running 'trainer.reward_fn()', try "
    "'trainer.reward_fn.remote()'.",
    "Exception: Remote functions cannot be called directly. Instead of running '__main__.f()', try '__main__.f.remote()'.",
    "TypeError: Actors cannot be instantiated directly. Instead of 'RolloutWorker()', use 'RolloutWorker.remote()'.",
    "Exception: Actors methods cannot be instantiated directly. Instead of running 'ActorBase()', try 'ActorBase.remote()'.",
    "Exception: Actor methods cannot be called directly. Instead of running 'object.generate()', try "
    "'object.generate.remote()'.",
)


def test_ray_called_without_remote_every_wording():
    for line in RAY_DIRECT_CALLS:
        assert _kind(line + "\n")[0] == "ARL-E3920", line


def test_ray_get_timeout_core_and_ray_data():
    for line in ("ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.",
                 "ray.exceptions.GetTimeoutError: Timed out while starting actors. This may mean that the cluster does "
                 "not have enough resources for the requested actor pool."):
        assert _kind(line + "\n")[0] == "ARL-E3921", line


def test_ray_get_timeout_ranks_below_a_specific_cause():
    # the timeout is generic: an actor that could not be placed, reported above it, is the cause named first
    text = ("(raylet) Warning: The following resource request cannot be scheduled right now: {'GPU': 1.0, 'CPU': 1.0}. "
            "This is likely due to all cluster resources being claimed by actors. Consider creating fewer actors or "
            "increase the resources available to this Ray cluster.\n"
            "ray.exceptions.GetTimeoutError: Get timed out: some object(s) not ready.\n")
    assert _kind(text)[0] != "ARL-E3921"


def test_datasets_local_cache_taken_for_remote():
    text = ('  File "/home/user/.venv/lib/python3.10/site-packages/datasets/builder.py", line 1173, in as_dataset\n'
            '    raise NotImplementedError(f"Loading a dataset cached in a {type(self._fs).__name__} is not supported.")\n'
            "NotImplementedError: Loading a dataset cached in a LocalFileSystem is not supported.\n")
    assert _kind(text)[0] == "ARL-E3922"


def test_arrow_32bit_offset_limit_other_wordings():
    # Arrow's builder CapacityError (bytes and list elements) and datasets' writer re-raise read as the 2 GiB column
    for line in ("pyarrow.lib.ArrowCapacityError: array cannot contain more than 2147483646 bytes, have 2147483647",
                 "pyarrow.lib.ArrowCapacityError: array cannot contain more than 2147483646 elements, have 2147483650",
                 "OverflowError: There was an overflow with type <class 'list'>. Try to reduce writer_batch_size to have "
                 "batches smaller than 2GB."):
        assert _kind(line + "\n")[0] == "ARL-E159", line


def test_datasets_cast_of_struct_and_list_types():
    # chat messages read as struct<...> / list<item: struct<...>>: the types print with spaces
    for line in ("TypeError: Couldn't cast array of type struct<content: string, role: string> to string",
                 "TypeError: Couldn't cast array of type list<item: struct<content: string, role: string>> to "
                 "Sequence(feature=Value(dtype='string', id=None), length=-1, id=None)",
                 "TypeError: Couldn't cast array of type string to int64"):
        assert _kind(line + "\n")[0] == "ARL-E162", line
