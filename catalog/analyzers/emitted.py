"""Exceptions whose emitter's own text (or class) states the mechanism, read from the message.

Each class below recognises one template its emitter prints, confirmed in that emitter's source, and names the
mechanism behind it rather than the one thread it was first seen in:

- vLLM's V1 engine refusing a feature or the device: ``_raise_or_fallback`` in vllm/engine/arg_utils.py raises
  ``NotImplementedError: VLLM_USE_V1=1 is not supported with <feature>.`` when V1 is forced; the V1 FlashAttention
  backend's ``assert is_fa_version_supported(self.fa_version)`` fails on a GPU older than FlashAttention 2 needs.
- torch_npu's stream table asked for device -1: ``Could not compute stream ID for <ptr> on device -1`` (NPUStream.cpp,
  the same assert as c10's CUDAStream.cpp): the thread has no current device, i.e. set_device was never called there.
- Ray's own classes and texts: a named actor whose name is taken (python/ray/actor.py, ValueError or its subclass
  ActorAlreadyExistsError), an object whose owner process died (OwnerDiedError, python/ray/exceptions.py), an object
  whose every copy went with a dead node or could not be rebuilt (ObjectLostError and its reconstruction / fetch-timeout
  subclasses, same file: the node's death is the cause), a client that could not reach the GCS (``Timed out while
  waiting for GCS to become available``).
- Libraries' own config/data checks whose literal text names the condition (own_checks.yaml): verl's multi-turn tool
  rollout needing GRPO, verl's empty train dataloader, DeepSpeed's batch-size product, transformers' Auto-class lookup of
  an unregistered config class, the Karmarkar-Karp partitioner's equal-size assert.
- transformers' AutoConfig refusing a model_type (configuration_auto.py: "… has model type `x` but Transformers does not
  recognize this architecture"): a model_type that no transformers release defines, of a family none of its model types
  belongs to (transformers_model_types.txt), is a custom architecture whose classes were not registered, not a checkpoint
  newer than the installed transformers.
"""

from __future__ import annotations

import functools

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence, lone, raised, shipped_rows, typed
from ...lazyre import lazy
from ascendrl import cache

cache.imported(__file__)  # own_source keys by the text this process runs

VLLM_ARGS = "https://github.com/vllm-project/vllm/blob/v0.8.2/vllm/engine/arg_utils.py"
VLLM_FA = "https://github.com/vllm-project/vllm/blob/v0.7.2/vllm/v1/attention/backends/flash_attn.py"
VLLM_V1_DOC = "https://docs.vllm.ai/en/latest/getting_started/v1_user_guide.html"
NPU_STREAM = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/torch_npu/csrc/core/npu/NPUStream.cpp"
RAY_ACTOR = "https://github.com/ray-project/ray/blob/ray-2.60.0/python/ray/actor.py"
RAY_EXC = "https://github.com/ray-project/ray/blob/ray-2.60.0/python/ray/exceptions.py"
RAY_NAMED = "https://docs.ray.io/en/latest/ray-core/actors/named-actors.html"
RAY_OWNERSHIP = "https://docs.ray.io/en/latest/ray-core/fault_tolerance/objects.html"
RAY_GCS_FT = "https://docs.ray.io/en/latest/ray-core/fault_tolerance/gcs.html"
# Ray's C++ core giving up on the GCS, as a RAY_LOG(FATAL) / RAY_CHECK record (the classifier reads a native record's message
# as a lone sentence when nothing else in the log is fatal): Ray 1.x's Redis context ("Could not establish connection to redis
# <ip>:<port> (context.err = N)"), its GCS client's reconnect ("Couldn't reconnect to GCS server. The last attempted GCS server
# address was …"), the gRPC client's channel check ("Failed to connect to GCS within N seconds").
RAY_REDIS_CTX = "https://github.com/ray-project/ray/blob/ray-1.0.0/src/ray/gcs/redis_context.cc"
RAY_GCS_CLIENT = "https://github.com/ray-project/ray/blob/ray-1.3.0/src/ray/gcs/gcs_client/service_based_gcs_client.cc"
RAY_GCS_RPC = "https://github.com/ray-project/ray/blob/00f8d99993b29b4d3fcbd688ef60c6c7c729df82/src/ray/rpc/gcs_server/gcs_rpc_client.h"
CORE_GCS_LOST = lazy(r"(?i)\b(?:could not|couldn't|failed to|unable to) (?:establish (?:a )?connection to|(?:re)?connect to) "
                     r"(?:the )?(?:GCS(?: server\b| within\b| at\b|[.,:]|$)|redis \S+:\d+)")

V1_FEATURE = lazy(r"VLLM_USE_V1=1 is not supported with (.+?)\.?$")
STREAM_NO_DEVICE = lazy(r"Could not compute stream ID for \S+ on device -1\b")
NAME_TAKEN = lazy(r"The name (\S+) \(namespace=([^)]*)\) is already taken")
GCS_TIMEOUT = "Timed out while waiting for GCS to become available"
# ObjectLostError and its reconstruction subclasses (python/ray/exceptions.py, read in the ray 2.6.0 wheel): the base text
# "Failed to retrieve object <hex>. …" then the subclass's reason; ObjectLostError's own reason is "All copies of <hex> have
# been lost due to node failure." (OwnerDiedError and the reference-counting / free() subclasses are read elsewhere or not at all).
RAY_EXC_26 = "https://github.com/ray-project/ray/blob/ray-2.6.0/python/ray/exceptions.py"
OBJECT_LOST_TYPES = frozenset(("ObjectLostError", "ObjectReconstructionFailedError", "ObjectFetchTimedOutError",
                               "ObjectReconstructionFailedMaxAttemptsExceededError",
                               "ObjectReconstructionFailedLineageEvictedError"))
OBJECT_LOST_TEXT = lazy(r"All copies of [0-9a-f]+ have been lost due to node failure|"
                        r"The object cannot be reconstructed because (?:it was created by an actor|the maximum number of "
                        r"task retries|its lineage has been evicted)|"
                        r"Fetch for object [0-9a-f]+ timed out because no locations were found")
TF_AUTO_CONFIG = "https://github.com/huggingface/transformers/blob/v5.25.0/src/transformers/models/auto/configuration_auto.py"
TF_MODEL_TYPES = "https://github.com/huggingface/transformers/blob/v5.25.0/src/transformers/models/auto/auto_mappings.py"
TF_CUSTOM = "https://huggingface.co/docs/transformers/custom_models#registering-a-model-with-custom-code-to-the-auto-classes"
UNKNOWN_MODEL_TYPE = lazy(r"has model type `([^`]+)` but Transformers does not recognize this architecture")
FAMILY_STEM = lazy(r"[a-z]+")
AUTO_CONFIG_FILE = lazy(r"transformers/models/auto/configuration_auto\.py$")
KEYERROR_NAME = lazy(r"^'([\w.\-]+)'$")
# CPython's pickling refusal (Lib/copyreg.py _reduce_ex / Objects/typeobject.c: "cannot pickle %R object"; Python < 3.8
# "can't pickle %s objects") for the process-local handles Ray's serialization troubleshooting names: thread locks and
# conditions, open files, sockets and SSL contexts, queues' locks. Other unpicklable types are left to the entries.
CPY_COPYREG = "https://github.com/python/cpython/blob/v3.13.0/Lib/copyreg.py"
RAY_SERIAL = "https://docs.ray.io/en/latest/ray-core/objects/serialization.html#troubleshooting"
UNPICKLABLE_HANDLE = lazy(r"(?:cannot pickle '|can't pickle )((?:_thread\.)?(?:R?[Ll]ock|Condition)|_io\.\w+|"
                          r"(?:_?socket\.)?socket|SSLContext|_queue\.SimpleQueue)'? object")


class VllmV1Unsupported(Analyzer):
    """vLLM's V1 engine, forced on, meets a feature or a device it does not run with."""

    id = "DRV-vllm-v1-unsupported"
    title = "vLLM's V1 engine does not support this feature or device"
    family = "device"
    stops_run = "the engine refuses the configuration at start-up, the same way on every retry"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        msg = link.message
        if "VLLM_USE_V1=1" in msg and typed(link, ("NotImplementedError",)) and (m := V1_FEATURE.search(msg)):
            what = m.group(1)
            cause = (f"{link.short_type}: {msg[:200]}. vLLM was told to use its V1 engine (VLLM_USE_V1=1) and the V1 engine "
                     f"of this release does not support {what}; with VLLM_USE_V1 unset vLLM would have fallen back to V0, "
                     "but a forced V1 raises instead (vllm/engine/arg_utils.py, _raise_or_fallback).")
            key = f"v1:{what}"
        elif link.short_type == "AssertionError" and "is_fa_version_supported" in link.statement + msg and any(
                "/v1/attention/" in f.path for f in link.frames[-3:]):
            what = "this GPU (the V1 FlashAttention backend needs a FlashAttention version the device supports)"
            cause = ("AssertionError at assert is_fa_version_supported(self.fa_version) in vLLM's V1 FlashAttention backend: "
                     "the V1 engine picked FlashAttention, and the installed vllm-flash-attn does not support this device "
                     "(FlashAttention 2 needs compute capability 8.0 or newer; V100 / T4 are older).")
            key = "v1:fa-device"
        else:
            return None
        return Finding(
            f"vLLM V1 engine does not support {what[:80]}",
            cause,
            ("Run the V0 engine: export VLLM_USE_V1=0 (or unset VLLM_USE_V1 on releases that fall back by themselves)",
             "Or drop the unsupported feature / attention backend from the config (unset VLLM_ATTENTION_BACKEND), or run on a "
             "device the V1 engine supports (vLLM's V1 user guide lists them)"),
            evidence(link), (VLLM_ARGS, VLLM_FA, VLLM_V1_DOC), key=key, family="device",
            kind="vllm-v1-unsupported-on-device",
        )


# vLLM's Platform base class (vllm/platforms/interface.py) raises a bare NotImplementedError from the device methods every
# real platform overrides (get_device_name, get_device_uuid, get_device_total_memory, is_async_output_supported,
# get_current_memory_usage, get_punica_wrapper). UnspecifiedPlatform, what vLLM runs on when it detects no platform and no
# platform plugin activates ("No platform detected, vLLM is running on UnspecifiedPlatform"), overrides none of them: the
# first of those calls raises from interface.py itself.
VLLM_PLATFORM_BASE = "https://github.com/vllm-project/vllm/blob/v0.8.5/vllm/platforms/interface.py"
VLLM_PLATFORM_PICK = "https://github.com/vllm-project/vllm/blob/v0.8.5/vllm/platforms/__init__.py"
NO_PLATFORM_FIX = (
    "On Ascend: install the vllm-ascend release that matches the installed vllm in the Python that runs it, source the CANN "
    "(and NNAL) set_env.sh first, and check python -c 'import vllm_ascend, torch_npu; print(torch_npu.npu.is_available())'",
    "Rerun with VLLM_LOGGING_LEVEL=DEBUG: vLLM then logs why each platform and plugin was rejected; fix the first import "
    "error it shows (on GPU hosts: the NVIDIA driver / container runtime that exposes the GPUs)",
)


class VllmNoPlatform(Analyzer):
    """A device method of vLLM's Platform base class was reached: vLLM is running with no platform (UnspecifiedPlatform)."""

    id = "DRV-vllm-no-platform"
    title = "vLLM runs with no platform: a device method of its Platform base class was called"
    family = "cann-env"
    stops_run = "the engine cannot configure a device it does not have; every start fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link) or link.short_type != "NotImplementedError" or not link.frames:
            return None
        last = link.frames[-1]
        if not last.path.replace("\\", "/").endswith("vllm/platforms/interface.py"):
            return None
        method = last.func or "a device method"
        return Finding(
            f"vLLM found no platform to run on: {method} is not implemented (UnspecifiedPlatform)",
            (f"NotImplementedError raised in vLLM's Platform base class (vllm/platforms/interface.py, {method}): every real "
             "platform (CUDA, ROCm, CPU, an out-of-tree plugin such as vllm-ascend's NPUPlatform) overrides this method, the "
             "UnspecifiedPlatform vLLM falls back to when it detects no platform does not. vLLM logs 'No platform detected, "
             "vLLM is running on UnspecifiedPlatform' at import when no accelerator it knows was visible (no CUDA driver, "
             "libcuda.so not loadable) and no platform plugin activated (vllm-ascend not installed in this Python, or its "
             "import failed because torch_npu / CANN could not load). The model and the arguments are not at fault."),
            NO_PLATFORM_FIX, evidence(link), (VLLM_PLATFORM_BASE, VLLM_PLATFORM_PICK), key=f"vllm-no-platform:{method}",
            family="cann-env", kind="vllm-device-unavailable",
        )


class NpuStreamNoDevice(Analyzer):
    """torch_npu looked up a stream on device -1: no NPU was made current in that thread or process."""

    id = "DRV-npu-stream-no-device"
    title = "NPU stream used before a device was set"
    family = "device"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        # A c10::Error that ended the process via std::terminate carries its what() only on the printed line.
        said = link.message if link.kind != "process" else link.text
        if "Could not compute stream ID" not in said or not STREAM_NO_DEVICE.search(said):
            return None
        return Finding(
            "NPU stream used before a device was set (device -1)",
            "torch_npu's stream table (NPUStream.cpp) was asked for a stream on device -1: the thread or process that "
            "created or used the stream had no current NPU. Each process (and each thread that launches work) must select "
            "its device before the first stream, tensor or collective; multi-NPU scripts that rely on the default device "
            "hit this in their worker processes.",
            ("Call torch.npu.set_device(local_rank) (or torch.npu.set_device(f'npu:{local_rank}')) at the start of every "
             "process / thread, before creating tensors, streams or the process group",
             "Launch one process per NPU (torchrun --nproc_per_node=N) and take local_rank from the LOCAL_RANK env var"),
            evidence(link), (NPU_STREAM,), key="npu-stream:-1", family="device",
            kind="npu-device-not-set",
        )


class RayMechanisms(Analyzer):
    """Ray's own exception classes and texts that state their cause: a taken actor name, a dead owner, no GCS."""

    id = "DRV-ray-mechanism"
    title = "A Ray failure named by its class or text"
    family = "ray"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        msg, short = link.message, link.short_type
        if "is already taken" in msg and short in ("ValueError", "ActorAlreadyExistsError", "Exception") and (m := NAME_TAKEN.search(msg)):
            name, namespace = m.group(1), m.group(2)
            return Finding(
                f"Ray actor name already taken: {name}",
                f"{short}: {msg[:200]}. An actor named {name} already exists in namespace {namespace} of this Ray cluster "
                "(python/ray/actor.py checks the name before creating a named actor): a detached or still-running actor from "
                "an earlier run, or a second job on the same cluster, holds the name.",
                ("Stop the old holder: ray stop --force (or kill it: ray.kill(ray.get_actor(NAME, namespace=NS))) before relaunching",
                 "Or give each run its own namespace: ray.init(namespace='run-<id>'), or create the actor with "
                 ".options(name=..., get_if_exists=True)"),
                evidence(link), (RAY_ACTOR, RAY_NAMED), key=f"ray-name:{name}", family="ray", kind="ray-named-actor-exists",
            )
        if short == "OwnerDiedError":
            return Finding(
                "Ray object lost: its owner process died",
                f"{short}: {msg[:200]}. The worker or driver that created this ObjectRef (its owner) exited while others "
                "still held the reference; Ray cannot rebuild an object whose owner is gone (python/ray/exceptions.py). "
                "The owner's own death is the root cause: look in the owner's log for the crash or the OOM kill.",
                ("Find why the owner died: the log named in the message (/tmp/ray/session_latest/logs/*<worker id>*), or "
                 "ray logs / dmesg for an OOM kill",
                 "Create long-lived objects from a process that outlives their users (the driver or a detached actor), not a "
                 "short-lived task"),
                evidence(link), (RAY_EXC, RAY_OWNERSHIP), key="ray-owner-died", family="ray", kind="ray-object-owner-died",
            )
        if GCS_TIMEOUT in msg and short in ("RpcError", "RaySystemError", "TimeoutError", "ConnectionError", "Exception"):
            return Finding(
                "Ray could not reach the GCS",
                f"{short}: {msg[:200]}. The Ray client or node gave up connecting to the head node's GCS server: the head is "
                "not running (crashed, or not started yet), or this node cannot reach its address and port.",
                ("Check that the head is up: ray status on the head node; look at /tmp/ray/session_latest/logs/gcs_server.out",
                 "Check the address the worker uses (RAY_ADDRESS / ray start --address=HEAD_IP:6379) and that the port is "
                 "reachable from this node (firewall, Kubernetes service, container network)"),
                evidence(link), (RAY_GCS_FT,), key="ray-gcs-timeout", family="ray", kind="ray-gcs-unreachable",
            )
        if lone(link) and CORE_GCS_LOST.search(msg):
            return Finding(
                "Ray's core gave up reaching the GCS",
                f"{msg[:200]}. A Ray process's C++ core (raylet, worker or driver) could not connect, or reconnect, to the "
                "head node's GCS (Redis in Ray 1.x) and exited on this fatal check: the head is down or restarting, the "
                "address it was given is wrong, or a firewall / container network lets the node reach one port of the head "
                "but not the GCS's (Ray uses several ports between nodes).",
                ("Check that the head is up and which address it serves: ray status on the head node, "
                 "/tmp/ray/session_latest/logs/gcs_server.out",
                 "Open every port Ray uses between the nodes (the GCS / Redis port, the node manager, object manager and "
                 "worker ports; see Ray's configuration docs), not only the one ray start --address names",
                 "Across slow or distant links raise the reconnect time-out (RAY_gcs_rpc_server_reconnect_timeout_s)"),
                evidence(link), (RAY_REDIS_CTX, RAY_GCS_CLIENT, RAY_GCS_RPC, RAY_GCS_FT), key="ray-core-gcs-lost",
                family="ray", kind="ray-gcs-unreachable",
            )
        if short in OBJECT_LOST_TYPES or OBJECT_LOST_TEXT.search(msg):
            return object_lost(link, short, msg)
        if short in ("TypeError", "PicklingError", "RaySystemError") and (m := UNPICKLABLE_HANDLE.search(msg)):
            what = m.group(1)
            return Finding(
                f"An object sent to another process holds a process-local handle ({what}) and cannot be pickled",
                f"{short}: {msg[:200]}. Pickle (and Ray's cloudpickle, which serializes task/actor arguments, captured "
                f"closures and ray.put values) refuses {what}: a lock, open file or socket belongs to one process and "
                "cannot be copied into another (Lib/copyreg.py raises this for types without a reduce method). The object "
                "being shipped, or something it references (a cache with an RLock, a logger handler, a client), holds it.",
                ("Create the lock / file / client inside the remote function or the actor's __init__ instead of capturing "
                 "it from the driver or passing it as an argument; ship only plain data",
                 "Find the member that holds it: ray.util.inspect_serializability(obj, name='obj') prints the path to the "
                 "unpicklable attribute",
                 "Or drop and recreate it in __getstate__ / __setstate__ (or ray.util.register_serializer)"),
                evidence(link), (CPY_COPYREG, RAY_SERIAL), key=f"unpicklable:{what}", family="ray",
                kind="ray-object-not-serializable",
            )
        return None


def object_lost(link: Link, short: str, msg: str) -> Finding:
    """Ray lost every copy of an object (or could not rebuild it): the node that held it died, or its lineage was dropped."""
    if short == "ObjectReconstructionFailedLineageEvictedError" or "lineage has been evicted" in msg:
        return Finding(
            "Ray object lost and not rebuilt: its lineage was evicted under memory pressure",
            f"{short}: {msg[:200]}. Every copy of the object was lost (its node died or it was evicted) and Ray could not "
            "re-run the task that made it, because the owner had dropped that task's lineage to stay under "
            "RAY_max_lineage_bytes (python/ray/exceptions.py). The loss itself comes first: look for the node or worker "
            "that died before this error.",
            ("Find what died before it: 'marked dead' / raylet lines, /tmp/ray/session_latest/logs/raylet.out, dmesg for "
             "an OOM kill, and fix that first",
             "Let Ray keep more lineage: RAY_max_lineage_bytes=<bytes> (default 1 GB) in the environment of ray start / "
             "ray.init"),
            evidence(link), (RAY_EXC_26, RAY_OWNERSHIP), key="ray-object-lineage-evicted", family="ray",
            kind="ray-object-lineage-evicted",
        )
    if short == "ObjectFetchTimedOutError" or "no locations were found" in msg:
        reason = ("no node reported a copy while this worker waited for it (a node that held it died or left, or the "
                  "object directory lost track of it)")
    elif short == "ObjectReconstructionFailedMaxAttemptsExceededError" or "maximum number of task retries" in msg:
        reason = ("its copies were lost with a node and Ray re-ran the task that made it up to max_retries times, each "
                  "try failing again (the nodes running it kept dying)")
    elif short == "ObjectReconstructionFailedError" or "created by an actor" in msg:
        reason = ("its copies were lost with a node, and Ray cannot re-run what made it: an actor method, ray.put, or "
                  "a task another worker owns")
    else:
        reason = "the node(s) holding every copy of it died (Ray: 'lost due to node failure')"
    return Finding(
        "Ray object lost: the node holding it died",
        f"{short}: {msg[:200]}. The object a ray.get (or a task argument) needed is gone: {reason} "
        "(python/ray/exceptions.py). The error is a consequence; the root cause is the node's death — its raylet "
        "killed by the kernel's OOM killer or Ray's memory monitor, the machine preempted or rebooted, a device or "
        "driver crash, or the GCS marking it dead after missed heartbeats.",
        ("Find which node died and why: 'marked dead' lines on the driver, ray status / ray list nodes --filter "
         "state=DEAD, /tmp/ray/session_latest/logs/raylet.out on that node, dmesg for an OOM kill",
         "Fix that cause (host memory: fewer rollout workers per node, smaller batches, offload less to host RAM; "
         "preemption: non-spot nodes), then rerun; objects from ray.put or actors are not rebuilt by Ray"),
        evidence(link), (RAY_EXC_26, RAY_OWNERSHIP), key="ray-object-lost", family="ray", kind="ray-node-marked-dead",
    )


@functools.lru_cache(maxsize=1)
def own_checks() -> tuple[dict, ...]:
    """The rows of own_checks.yaml."""
    return shipped_rows(__file__, __package__, "own_checks.yaml", "checks", frozenset(("texts", "types", "kind")))


class OwnCheck(Analyzer):
    """A library's own config/data check whose text names the condition (own_checks.yaml)."""

    id = "DRV-own-check"
    title = "A library's own config or data check failed"
    family = "verl-config"
    stops_run = "a config or data check fails the same way on every restart"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        # the message, the assert statement printed above it (or quoted by a sentence reporting it), and the source line
        # Python printed above a KeyError / TypeError (the lookup that missed)
        where = f"{link.message}\n{link.statement}\n{link.source}"
        for row in own_checks():
            if not any(t in where for t in row["texts"]) or not typed(link, tuple(row["types"])):
                continue
            fam = row.get("family") or ("data-model" if row["kind"] == "dataset-too-small" else "verl-config")
            return Finding(
                row["title"], f"{link.short_type}: {(link.message or link.statement)[:200]}. " + " ".join(row["cause"].split()),
                tuple(row["fix"]), evidence(link), tuple(row["sources"]), key=f"check:{row['kind']}", family=fam,
                kind=row["kind"],
            )
        return None


TRL_GRPO = "https://github.com/huggingface/trl/blob/v1.9.0/trl/trainer/grpo_trainer.py"
TRL_SFT = "https://github.com/huggingface/trl/blob/v1.9.0/trl/trainer/sft_trainer.py"
TRL_DOCS = "https://huggingface.co/docs/trl/main/en/grpo_trainer"
OPENRLHF_PPO = "https://github.com/OpenRLHF/OpenRLHF/blob/v0.11.0/openrlhf/cli/train_ppo_ray.py"
OPENRLHF_DOCS = "https://openrlhf.readthedocs.io/en/latest/"
# A trainer library's own check of its arguments or dataset, read by the raising frame rather than by each text (their
# texts change across releases):
# - TRL (trl/trainer/<name>_trainer.py, <name>_config.py, trl/data_utils.py; read in trl v1.9.0): more than a hundred
#   checks -- GRPO batch and generation sizes, packing / padding-free / assistant-only loss with VL models, Liger and PEFT
#   combinations, reward functions and weights, dataset keys and roles;
# - OpenRLHF's launchers (openrlhf/cli/train_*.py; read in v0.11.0): asserts on the command-line flags
#   ("--train.partial_rollout_enable requires --train.async_enable.", "packing_samples must be enabled when using ring
#   attention", "Async RLHF is not supported with --vllm.enable_sleep.").
TRL_FRAME = lazy(r"(?:^|/)trl/(?:trainer/\w+_(?:trainer|config)|data_utils|trainer/utils)\.py$")
TRL_TRAINER = lazy(r"/trl/trainer/(\w+?)_(?:trainer|config)\.py$")
OPENRLHF_CLI = lazy(r"(?:^|/)openrlhf/cli/(train_\w+)\.py$")
TRL_ARG = lazy(r"`(\w+)(?:=[^`]*)?`|(--[\w.-]+)")
# Of TRL's checks, GRPO's batch-versus-group one has a label of its own (the batch must hold whole groups of
# num_generations): its wordings across releases are listed at divisible.GENERATIONS.
TRL_GEN_DIVIDE = lazy(r"(?i)batch\w*\b.*?\b(?:divisible by|a multiple of)\b.*?(?:\bgenerations\b|num_generations)")


class TrlCheck(Analyzer):
    """TRL (or OpenRLHF's launcher) refused the trainer's arguments or its dataset with a sentence of its own."""

    id = "DRV-trl-check"
    title = "A trainer library's own check refused the trainer arguments or the dataset (TRL, OpenRLHF)"
    family = "verl-config"
    stops_run = "the library's check of the arguments or data fails the same way on every restart"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        msg = (link.message or "").strip()
        if len(msg) < 20 or not link.frames:
            return None
        inner = link.frames[-1]
        path = inner.path.replace("\\", "/")
        if TRL_FRAME.search(path):
            if link.short_type not in ("ValueError", "NotImplementedError", "TypeError", "RuntimeError", "KeyError", "ImportError"):
                return None
            m = TRL_TRAINER.search(path)
            lib, what = "TRL", f"{m.group(1).upper()} trainer" if m else "trainer"
            where, sources, kind = "the trainer's config (GRPOConfig / SFTConfig / DPOConfig ...)", (TRL_GRPO, TRL_SFT, TRL_DOCS), "trl"
        elif (m := OPENRLHF_CLI.search(path)) and link.short_type in ("AssertionError", "ValueError", "NotImplementedError"):
            lib, what = "OpenRLHF", f"launcher {m.group(1)}.py"
            where, sources, kind = "the launch command's flags", (OPENRLHF_PPO, OPENRLHF_DOCS), "openrlhf"
        else:
            return None
        args = list(dict.fromkeys(a or b for a, b in TRL_ARG.findall(msg)))[:4]
        data = any(w in msg.lower() for w in ("dataset", "example", "column", "message", "role", "conversational"))
        cause = (
            f"{link.short_type}: {msg[:220]} (raised in {inner}). {lib}'s {what} checks its arguments and the dataset "
            "before and while preparing training, and refuses combinations it does not support: batch and generation "
            "sizes that do not divide, a feature not available for vision-language models, PEFT, packing or a kernel, "
            "a dataset without the columns or roles the loss needs. The sentence names what to change"
            + (f" ({', '.join(args)})" if args else "") + f"; {lib}'s checks and their wording differ across releases, "
            "so a script written for another version meets them too."
        )
        fix = [
            "Change the arguments the message names" + (f" ({', '.join(args)})" if args else "") + f" in {where}",
            "If the message is about the data, fix the dataset's columns / message roles to the format the trainer "
            "documents (prompt / completion, or conversational messages with system / user / assistant / tool roles)"
            if data else
            f"If the option comes from a script or recipe written for another {lib} release, compare with the docs of the "
            f"installed version (pip show {lib.lower()}) or install the version the script was written for",
        ]
        label = f"{kind}-data-check" if data else f"{kind}-config-check"
        if lib == "TRL" and TRL_GEN_DIVIDE.search(msg):
            data, label = False, "grpo-num-generations-batch-mismatch"
        return Finding(
            f"{lib}'s own check refused the configuration: {msg[:90]}", cause, tuple(fix), evidence(link), sources,
            key=f"{kind}:{msg[:60]}", family="data-model" if data else "verl-config", kind=label,
        )


@functools.lru_cache(maxsize=1)
def transformers_model_types() -> tuple[frozenset[str], frozenset[str]]:
    """The model_type names transformers defines, and their family stems (the letters they start with: qwen, llama)."""
    from ascendrl import cache

    text = cache.shipped_text(__file__, __package__, "transformers_model_types.txt")
    names = frozenset(word for line in text.splitlines() if not line.startswith("#") for word in line.split())
    stems = frozenset(m.group(0) for name in names if (m := FAMILY_STEM.match(name)) is not None)
    return names, stems


def config_registry_miss(link: Link) -> str | None:
    """The model_type of a KeyError out of transformers' config registry (CONFIG_MAPPING's __getitem__), else None."""
    if link.short_type != "KeyError" or not (m := KEYERROR_NAME.match(link.message.strip())):
        return None
    inner = link.frames[-1] if link.frames else None
    if (inner is not None and AUTO_CONFIG_FILE.search(inner.path.replace("\\", "/"))) or "CONFIG_MAPPING[" in link.source:
        return m.group(1)
    return None


def custom_model_type(model_type: str) -> bool:
    """No transformers release defines this model_type, nor any of its family (its stem): a custom architecture."""
    names, stems = transformers_model_types()
    stem = FAMILY_STEM.match(model_type.lower())
    return model_type not in names and stem is not None and stem.group(0) not in stems


class CustomModelType(Analyzer):
    """transformers refused a model_type that is no release's: a custom architecture whose classes were never registered."""

    id = "DRV-custom-model-type"
    title = "The checkpoint's model_type is a custom architecture transformers does not define"
    family = "data-model"
    stops_run = "every process that loads the checkpoint through AutoConfig fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if not raised(link):
            return None
        if "does not recognize this architecture" in link.message and (m := UNKNOWN_MODEL_TYPE.search(link.message)):
            model_type = m.group(1)
        elif (model_type := config_registry_miss(link)) is None:
            return None
        if not custom_model_type(model_type):
            return None  # a model transformers defines, or a newer member of a family it has: transformers too old (ARL-E144)
        return Finding(
            f"Custom architecture not registered with transformers: model_type '{model_type}'"[:160],
            f"{link.short_type}: {link.message[:160]}. '{model_type}' is not a model_type any transformers release defines "
            "(nor one of a family it has), so upgrading transformers will not help: the checkpoint belongs to a custom "
            "architecture whose configuration and modeling code live in the model's own repository. AutoConfig finds such "
            "a model only when its classes are registered in this process (AutoConfig.register / AutoModel*.register) or "
            "loaded from the checkpoint's auto_map with trust_remote_code.",
            (f"Import the project's model package and register its classes before loading: AutoConfig.register('{model_type}', "
             "<ItsConfig>) and AutoModelForCausalLM.register(<ItsConfig>, <ItsModel>) (in the script that loads it, e.g. a "
             "checkpoint merger, and in every Ray worker)",
             "Or load with trust_remote_code=True from a checkpoint whose config.json has an auto_map to its modeling / "
             "configuration files (verl: actor_rollout_ref.model.trust_remote_code=True)"),
            evidence(link), (TF_AUTO_CONFIG, TF_MODEL_TYPES, TF_CUSTOM), key=f"custom-type:{model_type}", family="data-model",
            kind="custom-arch-not-registered",
        )
