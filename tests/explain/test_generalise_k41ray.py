"""Readings added by helper k41ray (2026-12-05) for the ray / data-model / verl-config families, each from the emitting
project's source and for every wording it prints:

- Ray >= 2.5 refusing a resource fraction below its 1/10000 unit (ray/_private/ray_option_utils.py, ARL-E3280), for any
  resource name (node:<ip>, num_gpus, a custom NPU resource).
- The FSDP transformer auto-wrap list naming a layer class the model lacks (ARL-E3281): verl's get_fsdp_wrap_policy and
  accelerate 0.x / transformers 4.2x raise Exception "... to wrap in the model.", accelerate 1.x a ValueError naming the
  class.
- pydantic 2 refusing dataclass(init=True) (ARL-E3282), as Ray < 2.6's state API calls it.
- Ray's ObjectLostError family (python/ray/exceptions.py): every copy of an object lost with a dead node, or not
  rebuilt (max retries, actor / ray.put objects, fetch time-out) -> the node's death (DRV-ray-mechanism kind
  ray-node-marked-dead); an evicted lineage is its own reading; the reference-counting / free() subclasses are not a
  node's death.
- verl's config checks that name their condition (own_checks.yaml, v0.3.0.post1 .. v0.9.0): Ulysses sequence
  parallelism without use_remove_padding (actor/ref or critic, an assert or a ValueError), an unknown loss_agg_mode, a
  rollout expert_parallel_size other than TP x DP.
- datasets' loaders: fsspec >= 2023.12 refusing an older datasets' '**' patterns (ARL-E3283); load_from_disk /
  load_dataset on the other storage form (ARL-E3284, every sentence of load.py / arrow_dataset.py / dataset_dict.py);
  DRV-dataset-columns reads every method's "... not in the dataset" wording (input_columns, rename, sort).
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog

CATALOG = load_catalog()


def _top(text: str, catalog=CATALOG):
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    data = classifier.result().to_json()
    diagnoses = data.get("diagnoses") or []
    return diagnoses[0] if diagnoses else None


def _id(text: str) -> str | None:
    top = _top(text)
    return None if top is None else str(top.get("id"))


def test_ray_resource_precision_any_resource_name():
    for name in ("node:172.17.0.8", "num_gpus", "NPU", "custom_resource"):
        assert _id(f"ValueError: The precision of the fractional quantity of resource {name} cannot go beyond 0.0001\n") \
            == "ARL-E3280"


def test_ray_resource_negative_is_not_precision():
    assert _id("ValueError: The quantity of resource num_gpus cannot be negative\n") != "ARL-E3280"


def test_fsdp_wrap_class_both_wordings():
    assert _id("Exception: Could not find the transformer layer class to wrap in the model.\n") == "ARL-E3281"
    assert _id("ValueError: Could not find the transformer layer class Qwen2DecoderLayer in the model.\n") == "ARL-E3281"
    # the same words under a Ray worker prefix (verl's fsdp workers)
    assert _id("(WorkerDict pid=2120, ip=10.0.0.1) Exception: Could not find the transformer layer class to wrap in "
               "the model.\n") == "ARL-E3281"


def test_pydantic2_dataclass_init_assert():
    assert _id("AssertionError: pydantic.dataclasses.dataclass only supports init=False\n") == "ARL-E3282"


RAY_LOST_BASE = ("ray.exceptions.{cls}: Failed to retrieve object 8774b2e5680a48cdffffffffffffffffffffffff0200000003000000. "
                 "To see information about where this ObjectRef was created in Python, set the environment variable "
                 "RAY_record_ref_creation_sites=1 during `ray start` and `ray.init()`.\n\n{reason}\n")


ENTRY_OF_LOST = {"ObjectLostError": "ARL-E6060", "ObjectReconstructionFailedMaxAttemptsExceededError": "ARL-E6062",
                 "ObjectReconstructionFailedError": "ARL-E6061", "ObjectFetchTimedOutError": "ARL-E6064"}


def test_object_lost_is_the_node_death():
    for cls, reason in (
        ("ObjectLostError", "All copies of 8774b2e5680a48cdffffffffffffffffffffffff0200000003000000 have been lost due to "
                            "node failure. Check cluster logs (`/tmp/ray/session_latest/logs`) for more information about "
                            "the failure."),
        ("ObjectReconstructionFailedMaxAttemptsExceededError",
         "The object cannot be reconstructed because the maximum number of task retries has been exceeded. To prevent "
         "this error, set `@ray.remote(max_retries=<num retries>)` (default 3)."),
        ("ObjectReconstructionFailedError",
         "The object cannot be reconstructed because it was created by an actor, ray.put() call, or its ObjectRef was "
         "created by a different worker."),
        ("ObjectFetchTimedOutError", "Fetch for object 8774b2e5680a48cdffffffffffffffffffffffff0200000003000000 timed out "
                                     "because no locations were found for the object. This may indicate a system-level "
                                     "bug."),
    ):
        top = _top(RAY_LOST_BASE.format(cls=cls, reason=reason))
        # Since the twenty-sixth stop k57ray2's entries name each message (E6060-E6064); DRV-ray-mechanism's reading
        # is folded into them: the kind stays the node death.
        assert top is not None and top["id"] == ENTRY_OF_LOST[cls], cls
        assert top.get("kind") == "ray-node-marked-dead", cls


def test_object_lineage_evicted_is_its_own_reading():
    top = _top(RAY_LOST_BASE.format(
        cls="ObjectReconstructionFailedLineageEvictedError",
        reason="The object cannot be reconstructed because its lineage has been evicted to reduce memory pressure. To "
               "prevent this error, set the environment variable RAY_max_lineage_bytes=<bytes> (default 1GB) during "
               "`ray start`."))
    assert top is not None and top["id"] == "ARL-E6063"  # k57ray2's entry, DRV-ray-mechanism's reading folded in
    assert top.get("kind") == "ray-object-lineage-evicted"


def test_object_freed_is_not_a_node_death():
    top = _top(RAY_LOST_BASE.format(
        cls="ObjectFreedError",
        reason="The object was manually freed using the internal `free` call. Please ensure that `free` is only called "
               "once the object is no longer needed."))
    assert top is None or top.get("kind") != "ray-node-marked-dead"


def test_a_dead_node_line_outranks_the_lost_object():
    text = ("2022-09-16 15:06:49,327 WARNING worker.py:1828 -- The node with node id: 9773b3cedec83f2a48b6cfe683138f4a32c6"
            "52534eafc06355c6cfb6 and address: 172.31.78.144 and node name: 172.31.78.144 has been marked dead because "
            "the detector has missed too many heartbeats from it.\n"
            + RAY_LOST_BASE.format(cls="ObjectLostError", reason="All copies of 8774b2e5680a48cdffffffffffffffffffffffff02"
                                   "00000003000000 have been lost due to node failure."))
    assert _id(text) == "ARL-E139"


def test_verl_sp_without_remove_padding_every_role_and_form():
    for role in ("actor/ref policy", "critic"):
        for typ in ("AssertionError", "ValueError"):
            top = _top(f"{typ}: When using sequence parallelism for {role}, you must enable `use_remove_padding`.\n")
            assert top is not None and top["id"] == "DRV-own-check" and top["kind"] == "verl-sp-requires-remove-padding"


def test_verl_loss_agg_mode_and_ep_size():
    for typ in ("ValueError", "AssertionError"):
        top = _top(f"{typ}: Invalid loss_agg_mode: token-sum\n")
        assert top is not None and top["kind"] == "verl-loss-agg-mode-invalid"
    top = _top("AssertionError: expert_parallel_size must be equal to tensor_model_parallel_size * data_parallel_size\n")
    assert top is not None and top["kind"] == "verl-rollout-ep-size-mismatch"


def test_verl_checks_need_their_sentence():
    # a different config value error is not read as any of them
    top = _top("ValueError: Invalid router_replay mode: R4. Must be one of ['disabled', 'R2', 'R3']\n")
    assert top is None or top.get("kind") not in ("verl-loss-agg-mode-invalid", "verl-sp-requires-remove-padding")


def test_fsspec_double_star_pattern():
    assert _id("ValueError: Invalid pattern: '**' can only be an entire path component\n") == "ARL-E3283"


def test_datasets_storage_form_mismatch_every_sentence():
    for line in (
        "FileNotFoundError: Directory /data/gsm8k is neither a `Dataset` directory nor a `DatasetDict` directory.",
        "FileNotFoundError: No such files: '/d/dataset_info.json', nor '/d/state.json' found. Expected to load a `Dataset` "
        "object, but got a `DatasetDict`. Please use either `datasets.load_from_disk` or `DatasetDict.load_from_disk` instead.",
        "FileNotFoundError: No such file: '/d/state.json'. Expected to load a `Dataset` object but provided path is not a "
        "`Dataset`.",
        "FileNotFoundError: No such file: '/d/dataset_dict.json'. Expected to load a `DatasetDict` object, but provided path "
        "is not a `DatasetDict`.",
        "ValueError: You are trying to load a dataset that was saved using `save_to_disk`. Please use `load_from_disk` instead.",
    ):
        assert _id(line + "\n") == "ARL-E3284", line


def test_dataset_columns_every_method_wording():
    for line in (
        "ValueError: Input column ['prompt'] not in the dataset. Current columns in the dataset: ['question', 'answer']",
        "ValueError: Original column name prompt not in the dataset. Current columns in the dataset: ['question', 'answer']",
        "ValueError: Column 'prompt' not found in the dataset. Please provide a column selected in: ['question', 'answer']",
        "ValueError: Column name ['prompt'] not in the dataset. Current columns in the dataset: ['question', 'answer']",
    ):
        top = _top(line + "\n")
        assert top is not None and top["id"] == "DRV-dataset-columns" and top["kind"] == "data-missing-field", line
        assert "prompt" in top["title"] and "question" in top["title"], line
