"""Resource rules (ARL-R*): disk where the run writes, /dev/shm, RAM and open-file limits.

Thresholds are sized for the seed's run: GRPO on a 7B model, one 8-NPU node.
"""

from __future__ import annotations

from ..engine import Rule
from ..model import Area, Facts, Finding, Severity
from ..probes.disk import GIB, DiskUsage

RAY_FS_MONITOR = "https://github.com/ray-project/ray/blob/master/src/ray/common/file_system_monitor.cc"


def _gib(n: int) -> str:
    return f"{n / GIB:.1f} GiB"


class _FreeSpace(Rule):
    """Shared body: a directory a run writes, with fail/warn floors in GiB."""

    fact_key = ""
    fail_below_gib = 0.0
    warn_below_gib = 0.0
    label = ""
    needs_write = True

    def evaluate(self, facts: Facts) -> Finding:
        usage: DiskUsage | None = facts.value(self.fact_key)
        if usage is None:
            fact = facts.get_fact(self.fact_key)
            return self.skip(fact.reason or "not measured")
        found = dict(path=usage.path, measured_at=usage.measured_at, available=_gib(usage.available_bytes), capacity=_gib(usage.capacity_bytes))
        if self.needs_write and not usage.writable:
            return self.fail(f"{self.label} {usage.path} is not writable (read-only filesystem or permissions)", **found)
        return self.judge(facts, usage, found)

    def judge(self, facts: Facts, usage: DiskUsage, found: dict) -> Finding:
        free = usage.available_bytes / GIB
        where = f"{self.label} {usage.path}: {_gib(usage.available_bytes)} free of {_gib(usage.capacity_bytes)}"
        if free < self.fail_below_gib:
            return self.fail(f"{where} (needs at least {self.fail_below_gib:g} GiB)", **found)
        if free < self.warn_below_gib:
            return self.warn(f"{where} (recommended {self.warn_below_gib:g} GiB)", **found)
        return self.passed(where, **found)


class RayTempDisk(_FreeSpace):
    id = "ARL-R001"
    title = "Ray's temp dir has room by Ray's own measure"
    severity = Severity.CRITICAL
    area = Area.RESOURCES
    what = "Measures the filesystem of Ray's temp dir (RAY_TMPDIR, else TMPDIR, else /tmp; plus /ray) as Ray's file-system monitor does: 1 - available/capacity against RAY_local_fs_capacity_threshold (0.95)."
    why = "Past the threshold the raylet refuses to create or spill objects ('is over 95% full … Object creation will fail if spilling is required'); Ray counts reserved blocks, so it reaches it long before df's Use% does."
    fix = "Point RAY_TMPDIR (and TMPDIR) at a large local disk before starting Ray."
    fix_id = "relocate-caches"
    sources = (RAY_FS_MONITOR, "https://github.com/ray-project/ray/blob/master/python/ray/_private/utils.py")
    fact_key = "disk.ray_tmp"
    label = "Ray temp dir"
    warn_below_gib = 50.0

    def judge(self, facts: Facts, usage: DiskUsage, found: dict) -> Finding:
        if usage.missing is not None and usage.missing != usage.path:
            # Not just <temp>/ray (Ray makes that): the temp root itself points nowhere. Ray would
            # create it (try_to_create_directory: os.makedirs) on whatever disk its parent is on.
            root = usage.path.rstrip("/").rsplit("/", 1)[0] or "/"
            return self.warn(
                f"Ray's temp root {root} does not exist ({usage.missing} is missing); Ray would create it with "
                f"os.makedirs on the filesystem of {usage.measured_at}, which has {_gib(usage.available_bytes)} free",
                fix=f"Create {root} on the large disk, or point RAY_TMPDIR/TMPDIR at an existing folder there.",
                missing=usage.missing,
                **found,
            )
        threshold = facts.value("ray.fs_capacity_threshold", 0.95)
        full = usage.ray_fullness
        found.update(ray_fullness=round(full, 4), threshold=threshold)
        where = f"{usage.path}: {full:.0%} full by Ray's count (threshold {threshold:.0%}), {_gib(usage.available_bytes)} free"
        if full >= threshold:
            return self.fail(where, **found)
        if full >= threshold - 0.05 or usage.available_bytes / GIB < self.warn_below_gib:
            return self.warn(where, **found)
        return self.passed(where, **found)


class TmpDisk(_FreeSpace):
    id = "ARL-R002"
    title = "TMPDIR has room"
    severity = Severity.ERROR
    area = Area.RESOURCES
    what = "Free space and writability of TMPDIR (else /tmp)."
    why = "Ray's dashboard, multiprocessing sockets, torch compile caches and datasets' temp files land here; a full root disk stops the run (the seed moved TMPDIR)."
    fix = "export TMPDIR=<dir on the large disk>"
    fix_id = "relocate-caches"
    sources = (
        "https://docs.python.org/3/library/tempfile.html#tempfile.gettempdir",
        "https://github.com/ray-project/ray/blob/master/python/ray/_private/utils.py",
    )
    fact_key = "disk.tmpdir"
    label = "TMPDIR"
    fail_below_gib = 2.0
    warn_below_gib = 20.0

    def judge(self, facts: Facts, usage: DiskUsage, found: dict) -> Finding:
        if usage.missing is not None:
            # tempfile.gettempdir() skips a TMPDIR it cannot write to and silently uses /tmp;
            # mktemp(1) and others fail outright. Either way the free space of an ancestor says nothing.
            return self.warn(
                f"TMPDIR {usage.path} does not exist ({usage.missing} is missing): Python's tempfile silently "
                "falls back to /tmp and tools such as mktemp fail; free space not judged",
                fix=f"mkdir -p {usage.path} on the large disk, or point TMPDIR at an existing folder.",
                missing=usage.missing,
                **found,
            )
        return super().judge(facts, usage, found)


class DatasetsCacheDisk(_FreeSpace):
    id = "ARL-R003"
    title = "Hugging Face datasets cache has room"
    severity = Severity.ERROR
    area = Area.RESOURCES
    what = "Free space of HF_DATASETS_CACHE (else $HF_HOME/datasets, ~/.cache/huggingface/datasets)."
    why = "datasets checks free space before it prepares a dataset and raises `OSError: Not enough disk space` — the seed's first failure."
    fix = "export HF_DATASETS_CACHE=<dir on the large disk>"
    fix_id = "relocate-caches"
    sources = ("https://github.com/huggingface/datasets/blob/main/src/datasets/builder.py",)
    fact_key = "disk.hf_datasets_cache"
    label = "datasets cache"
    fail_below_gib = 1.0
    warn_below_gib = 10.0


class HubCacheDisk(_FreeSpace):
    id = "ARL-R004"
    title = "Hugging Face hub cache has room for the model"
    severity = Severity.WARNING
    area = Area.RESOURCES
    what = "Free space of HF_HUB_CACHE (else $HF_HOME/hub)."
    why = "A model given by hub id downloads here; a 7B model in bf16 is ~16 GB."
    fix = "export HF_HOME=<dir on the large disk>, or pass a local model path."
    fix_id = "relocate-caches"
    sources = ("https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables",)
    fact_key = "disk.hf_hub_cache"
    label = "hub cache"
    needs_write = False
    warn_below_gib = 20.0


class CheckpointDisk(_FreeSpace):
    id = "ARL-R005"
    title = "Checkpoint dir has room for a 7B actor checkpoint"
    severity = Severity.ERROR
    area = Area.RESOURCES
    what = "With --checkpoint-dir: free space for verl's FSDP checkpoints (fp32 params + Adam states ~ 12 bytes/param: ~90 GB for 7.6B params, plus HF weights)."
    why = "A checkpoint that runs out of disk mid-save loses the step and can leave a torn checkpoint behind."
    fix = "Point trainer.default_local_dir at a larger disk or lower trainer.max_actor_ckpt_to_keep."
    sources = ("https://github.com/verl-project/verl/blob/main/verl/utils/checkpoint/fsdp_checkpoint_manager.py",)
    fact_key = "disk.checkpoint"
    label = "checkpoint dir"
    fail_below_gib = 30.0
    warn_below_gib = 120.0

    def evaluate(self, facts: Facts) -> Finding:
        if "disk.checkpoint" not in facts:
            return self.skip("no --checkpoint-dir given")
        return super().evaluate(facts)


class SharedMemory(Rule):
    id = "ARL-R006"
    title = "/dev/shm is large enough"
    severity = Severity.CRITICAL
    area = Area.RESOURCES
    what = "Size of /dev/shm (Docker's default is 64 MB unless --shm-size or --ipc=host)."
    why = "Ray puts its object store in /dev/shm and falls back to slow disk when it is small; vLLM and torch workers share tensors through it and crash with bus errors when it fills."
    fix = "Restart the container with --ipc=host (as the seed does) or --shm-size=64g."
    fix_id = "container-setup"
    sources = ("https://docs.docker.com/reference/cli/docker/container/run/#shm-size", "https://github.com/vllm-project/vllm-ascend/blob/main/docs/source/faqs.md")

    def evaluate(self, facts: Facts) -> Finding:
        size = facts.value("mem.shm_bytes")
        if size is None:
            return self.skip(facts.get_fact("mem.shm_bytes").reason or "not measured")
        if size < 1 * GIB:
            return self.fail(f"/dev/shm is {size / (1 << 20):.0f} MB", shm_bytes=size)
        if size < 16 * GIB:
            return self.warn(f"/dev/shm is {_gib(size)} (recommended 16 GiB or more)", shm_bytes=size)
        return self.passed(f"/dev/shm is {_gib(size)}", shm_bytes=size)


class HostMemory(Rule):
    id = "ARL-R007"
    title = "Host RAM fits a 7B GRPO run"
    severity = Severity.WARNING
    area = Area.RESOURCES
    what = "Total host RAM, read with psutil on the live host."
    why = "Eight workers load the model on CPU before sharding, the reference model is offloaded to CPU, and Ray's object store takes 30% of RAM; small hosts hit the OOM killer."
    fix = "Use a host with at least 128 GiB, or offload less (actor_rollout_ref.ref.fsdp_config.param_offload=False)."
    sources = ("https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html",)

    def evaluate(self, facts: Facts) -> Finding:
        ram = facts.value("mem.ram_bytes")
        if ram is None:
            return self.skip(facts.get_fact("mem.ram_bytes").reason or "not measured")
        if ram < 128 * GIB:
            return self.warn(f"{_gib(ram)} RAM (128 GiB or more recommended for 7B)", ram_bytes=ram)
        return self.passed(f"{_gib(ram)} RAM", ram_bytes=ram)


class OpenFiles(Rule):
    id = "ARL-R008"
    title = "Open-file limit is high enough"
    severity = Severity.WARNING
    area = Area.RESOURCES
    what = "The soft RLIMIT_NOFILE of this shell."
    why = "Ray, vLLM and HCCL open many sockets and files per worker; verl's multi-node guide raises the limit to 32768."
    fix = "ulimit -n 32768 in the launch shell (or --ulimit nofile=65535 for docker)."
    sources = ("https://github.com/verl-project/verl/blob/main/docs/ascend_tutorial/model_support/examples/multi-machine_task_startup_practice.rst",)

    def evaluate(self, facts: Facts) -> Finding:
        limits = facts.value("env.nofile")
        if limits is None:
            return self.skip(facts.get_fact("env.nofile").reason or "not read")
        if limits["soft"] < 32768:
            return self.warn(f"ulimit -n is {limits['soft']}", **limits)
        return self.passed(f"ulimit -n is {limits['soft']}", **limits)


# <ray root>/session_<YYYY-MM-DD_HH-MM-SS_ffffff>_<pid>/sockets/plasma_store, pid up to 7 digits.
SOCKET_SUFFIX_LEN = len("/session_2026-11-30_09-11-06_382605_") + 7 + len("/sockets/plasma_store")
AF_UNIX_MAX = 107  # Ray's validate_socket_filepath on Linux (108 - 1)


class RaySocketPath(Rule):
    id = "ARL-R009"
    title = "Ray's temp dir path is short enough for its sockets"
    severity = Severity.CRITICAL
    area = Area.RESOURCES
    what = "Adds the length of Ray's session socket paths (<temp>/ray/session_<date>_<pid>/sockets/plasma_store) to the Ray temp dir and compares it with the 107-byte AF_UNIX limit Ray enforces."
    why = "ray.init refuses with 'validate_socket_filename failed: AF_UNIX path length cannot exceed 107 bytes' — moving RAY_TMPDIR to a deep folder on the big disk is how people hit it."
    fix = "Use a short RAY_TMPDIR (at most about 39 characters), e.g. /data/ray_tmp, or a short symlink to the deep folder."
    fix_id = "relocate-caches"
    sources = ("https://github.com/ray-project/ray/blob/master/python/ray/_private/utils.py",)

    def evaluate(self, facts: Facts) -> Finding:
        usage: DiskUsage | None = facts.value("disk.ray_tmp")
        if usage is None:
            return self.skip(facts.get_fact("disk.ray_tmp").reason or "not measured")
        longest = len(usage.path.rstrip("/").encode()) + SOCKET_SUFFIX_LEN
        if longest > AF_UNIX_MAX:
            return self.fail(f"{usage.path}: Ray's socket paths would be {longest} bytes (> {AF_UNIX_MAX})", length=longest)
        return self.passed(f"socket paths up to {longest} bytes (limit {AF_UNIX_MAX})", length=longest)


RULES: tuple[type[Rule], ...] = (RaySocketPath, RayTempDisk, TmpDisk, DatasetsCacheDisk, HubCacheDisk, CheckpointDisk, SharedMemory, HostMemory, OpenFiles)
