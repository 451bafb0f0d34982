"""Session 35 (lead): older and newer wordings of Ray's and CANN's messages read by the entries that name their class.

Each line is quoted from a round 27-28 development log (realworld/dev/, its thread in the log's header) and each wording
was confirmed in the emitting release's source (the `confirmed` URL of the signature): Ray 1.x's GCS client giving up
("Couldn't reconnect to GCS server"), Ray 0.8-1.x's worker-registration timeout ("have not registered to raylet within
timeout"), the Ray client server's runtime_env wrapper, and ACL's "open device N failed" without the space after the
comma; vLLM's pydantic refusal of a max_lora_rank outside its allowed set.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ascendrl.catalog import Classifier, load_catalog

HERE = Path(__file__).parent
CATALOG = load_catalog(user_dir=HERE / "no-user-catalog")


def _top(text: str) -> str | None:
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    result = classifier.result()
    return result.diagnoses[0].entry.id if result.diagnoses and result.diagnoses[0].fatal else None


@pytest.mark.parametrize("line, expected", [
    # ray-15389 (Ray 1.3, a worker joining a head 260 ms away)
    ("[2021-04-18 06:54:54,934 C 756 756] service_based_gcs_client.cc:229: Couldn't reconnect to GCS server. "
     "The last attempted GCS server address was 10.42.0.44:43507", "ARL-E119"),
    # ray-8890 (Ray 0.8.x): the raylet's INFO line, repeated while the training hangs
    ("(pid=raylet) I0807 17:00:41.812641 71814 71814 worker_pool.cc:265] Some workers of the worker process(76769) "
     "have not registered to raylet within timeout.", "ARL-E140"),
    # ray-22610 (Ray 1.x client server)
    ("RuntimeError: Failed to create runtime_env for Ray client server: Failed to install conda environment "
     "/tmp/ray/session_x/runtime_resources/conda/bda0b0d5:", "ARL-E166"),
    # ais-bench FAQ (CANN's ACL record, no space after the comma)
    ("\t   open device 0 failed,runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:162]", "ARL-E312"),
    # vllm-omni-pr1397: the pydantic form of vLLM's allowed max_lora_rank values (LoRAConfig's Literal)
    ("E         Input should be 1, 8, 16, 32, 64, 128, 256, 320 or 512 [type=literal_error, input_value=48, "
     "input_type=int]", "ARL-E510"),
    # ray-8089: no cluster where the driver looked; no longer read as an unreachable GCS
    ("ConnectionError: Could not find any running Ray instance. Please specify the one to connect to by setting "
     "`address`.", "ARL-E2770"),
])
def test_wording_is_read_by_its_class(line, expected):
    assert _top(line + "\n") == expected


@pytest.mark.parametrize("signal, expected", [("Killed", "ARL-E2772"), ("Bus error", "ARL-E015")])
def test_dataloader_worker_death_is_read_by_its_signal(signal, expected):
    """SIGKILL (the OOM killer) is host memory; SIGBUS is /dev/shm: the same torch line, two causes."""
    assert _top(f"RuntimeError: DataLoader worker (pid 9833) is killed by signal: {signal}. \n") == expected


def test_scripts_off_path_is_a_warning_naming_the_directory():
    """pip's own warning (round 29 dev, Ascend mind-cluster FAQ): non-fatal, and the plural form reads the same."""
    for line in ("WARNING: The script ascend-fd is installed in '/usr/local/python3.8/bin' which is not on PATH.",
                 "  WARNING: The scripts pip, pip3 and pip3.8 are installed in '/home/user/.local/bin' which is not on PATH"):
        classifier = Classifier(CATALOG)
        classifier.feed_stream(io.BytesIO((line + "\n").encode()), "paste.log")
        result = classifier.result()
        assert result.diagnoses[0].entry.id == "ARL-E2774" and not result.fatal


# infinity-31 (round 30 dev): torch's BackendCompilerFailed prints the backend's own exception on the line under it.
COMPILE_WRAPPED = (
    '  File "/opt/conda/lib/python3.10/site-packages/torch/_dynamo/output_graph.py", line 1465, in _call_user_compiler\n'
    "    raise BackendCompilerFailed(self.compiler_fn, e) from e\n"
    "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
    "ImportError: cannot import name 'triton_key' from 'triton.compiler.compiler' "
    "(/opt/conda/lib/python3.10/site-packages/triton/compiler/compiler.py)\n"
)


def test_the_backend_error_under_backend_compiler_failed_is_its_cause():
    """The line under "backend='inductor' raised:" is the exception the wrapper carries: read as the deeper link, so the
    import failure is diagnosed and ARL-E1781 (the compile wrapper) ranks below it."""
    classifier = Classifier(CATALOG)
    classifier.feed_stream(io.BytesIO(COMPILE_WRAPPED.encode()), "paste.log")
    result = classifier.result()
    top = result.diagnoses[0]
    assert top.basis == "derived" and "triton_key" in top.excerpt
    assert any(d.entry.id == "ARL-E1781" for d in result.diagnoses[1:])

