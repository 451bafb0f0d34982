"""Lead, seventh stop (s38): readings from round 34's dev half, each written from the emitter's source."""

from __future__ import annotations

import pytest

# Megatron-Core's get_num_layers_to_build, both wordings (core_v0.16.0 and core_v0.19.0), and the uneven-pipeline one.
MCORE_OLD = (
    '  File "/usr/local/lib/python3.12/dist-packages/megatron/core/transformer/transformer_block.py", line 110, in get_num_layers_to_build\n'
    "    num_layers % config.pipeline_model_parallel_size == 0\n"
    "AssertionError: num_layers should be divisible by pipeline_model_parallel_size\n"
)
MCORE_NEW = "AssertionError: num_layers=60 should be divisible by config.pipeline_model_parallel_size=8\n"
MCORE_UNEVEN = "AssertionError: With uneven pipelineing the left over layers must be divisible by left over stages\n"


@pytest.mark.parametrize("text", [MCORE_OLD, MCORE_NEW, MCORE_UNEVEN])
def test_megatron_core_layer_split_is_named(explain_text, text):
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E2940" and top.fatal


def test_megatron_core_vp_split_is_not_the_pp_entry(explain_text):
    """The virtual-pipeline check below it is another knob (vp_size), not the layer count against PP."""
    _, top = explain_text("AssertionError: num_layers_per_pipeline_rank 7 should be divisible by vp_size 2\n")
    assert top is None or top.entry.id != "ARL-E2940"


TRITON_SMEM = ("triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 98304, Hardware limit: 65536. "
               "Reducing block sizes or `num_stages` may help.\n")


def test_triton_out_of_resources_is_named(explain_text):
    _, top = explain_text(TRITON_SMEM)
    assert top is not None and top.entry.id == "ARL-E2941"


def test_autotuner_with_no_config_stays_the_autotuner_entry(explain_text):
    """'No valid triton configs. OutOfResources: …' is the autotuner giving up (E404), whose cause covers each config's
    OutOfResources."""
    _, top = explain_text("RuntimeError: No valid triton configs. OutOfResources: out of resource: shared memory, Required: "
                          "110592, Hardware limit: 101376. Reducing block sizes or `num_stages` may help.\n")
    assert top is not None and top.entry.id == "ARL-E404"


WANDB_DNS = ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.wandb.ai', port=443): Max retries exceeded "
             "with url: /graphql (Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object at 0x765a141842f0>: "
             "Failed to resolve 'api.wandb.ai' ([Errno -3] Temporary failure in name resolution)\"))\n")


def test_tracker_host_unreachable_names_the_tracker(explain_text):
    _, top = explain_text(WANDB_DNS)
    assert top is not None and top.entry.id == "DRV-tracker" and top.kind == "wandb-api-unreachable"
    assert "WANDB_MODE=offline" in " ".join(top.entry.fix)
    _, top = explain_text(WANDB_DNS.replace("api.wandb.ai", "api.swanlab.cn").replace("/graphql", "/api/login/api_key"))
    assert top is not None and top.kind == "swanlab-api-unreachable" and "SWANLAB_MODE" in " ".join(top.entry.fix)


def test_other_hosts_are_not_a_tracker(explain_text):
    """The Hub, a pip index or any other host unreachable is not the tracker's reading."""
    for host in ("huggingface.co", "pypi.org", "10.0.0.3"):
        _, top = explain_text(WANDB_DNS.replace("api.wandb.ai", host))
        assert top is None or top.entry.id != "DRV-tracker", host


def test_a_tracker_host_in_a_healthy_line_is_not_a_failure(explain_text):
    result, top = explain_text("wandb: Syncing run spring-sun-4 to https://api.wandb.ai\nwandb: View run at https://wandb.ai/x/y/runs/z\n")
    assert not result.fatal and (top is None or top.entry.id != "DRV-tracker")


def test_megatron_bridge_unknown_module_type_is_named(explain_text):
    """Any module class the bridge's registry lacks, not only the output layer's."""
    for module, weight in (("LinearCrossEntropyModule", "output_layer.weight"), ("DSAIndexer", "decoder.layers.0.self_attention.core_attention.indexer.weight")):
        _, top = explain_text(f"ValueError: Cannot determine parallelism type for module '{module}' at weight '{weight}'.\n")
        assert top is not None and top.entry.id == "ARL-E2942", module


def test_a_patched_bridge_warning_is_not_the_failure(explain_text):
    """A patched AutoMapping that logs the case and assumes replicated (lower-case 'cannot') did not fail."""
    result, top = explain_text("WARNING AutoMapping: cannot determine parallelism type for module 'Foo' at weight 'x.weight'. "
                               "Assuming replicated.\n")
    assert top is None or top.entry.id != "ARL-E2942"
