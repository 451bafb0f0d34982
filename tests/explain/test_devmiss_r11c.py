"""Round-11 dev misses of the ray and memory families, generalised (session 13, helper r11c): the sibling wordings
each widened signature now reads, and the boundaries of the new entries, on pastes written here."""

from __future__ import annotations

import pytest

# (paste, the entry that must come out on top)
NAMED = [
    # ray 1.x / 2.x Node._prepare_socket_file, bare OSError (Linux and macOS limits), and the older wrapped form
    ("OSError: AF_UNIX path length cannot exceed 107 bytes: "
     "'/scratch/job/tmp.x/ray/session_2025-01-01_00-00-00_000000_1/sockets/plasma_store'", "ARL-E123"),
    ("OSError: AF_UNIX path length cannot exceed 103 bytes: "
     "'/var/folders/ab/cd/T/ray/session_2025-01-01_00-00-00_000000_1/sockets/raylet'", "ARL-E123"),
    ("OSError: validate_socket_filename failed: AF_UNIX path length cannot exceed 107 bytes: "
     "/tmp/x/ray/session_1/sockets/plasma_store", "ARL-E123"),
    # ray 1.x RAY_LOG(FATAL) and ray 2.x RedisError status: the head's Redis cannot be reached
    ("F1119 08:22:23.602082 1513663 1513663 redis_context.cc:298] Could not establish connection to redis 10.0.0.1:6379 "
     "(context.err = 1)", "ARL-E119"),
    ("Could not establish connection to Redis 10.0.0.1:6379 (context.err = 1).", "ARL-E119"),
    # ray 2.x: the GCS client's retries exhausted, and a non-head node's Node._init_gcs_client
    ("2023-05-22 16:41:02,771 ERROR gcs_utils.py:213 -- Failed to connect to GCS. Please check `gcs_server.out` for more "
     "details.", "ARL-E119"),
    ("RuntimeError: Failed to connect to GCS.  Last 0 lines of error files:\n\n.Please check "
     "/tmp/ray/session_latest/logs/gcs_server.out for details", "ARL-E119"),
    # Ray's memory monitor: a paste that starts at the kill reason (second line of the OutOfMemoryError text)
    ("Memory on the node (IP: 10.0.0.1, ID: abc) where the task (actor ID: def, name=WorkerDict.__init__, pid=123) was "
     "running was 950.2GB / 1000.0GB (0.950), which exceeds the memory usage threshold of 0.95. Ray killed this worker "
     "(ID: 0123) because it was the most recently scheduled task;", "ARL-E117"),
    # PaddlePaddle's DataLoader: the worker's SIGBUS handler and the main process's report
    ("ERROR: Unexpected BUS error encountered in DataLoader worker. This might be caused by insufficient shared memory (shm), "
     "please check whether use_shared_memory is set and storage space in /dev/shm is enough", "ARL-E015"),
    ("SystemError: (Fatal) DataLoader process (pid 1234) exited is killed by signal: Bus error.\n"
     "  It may be caused by insufficient shared storage space.", "ARL-E015"),
    # vLLM V0: a negative KV-cache budget, then zero device blocks
    ("INFO 02-26 09:54:05 worker.py:267] model weights take 5.20GiB; non_torch_memory takes 0.03GiB; PyTorch activation "
     "peak memory takes 1.42GiB; the rest of the memory reserved for KV Cache is -1.05GiB.\n"
     "INFO 02-26 09:54:05 executor_base.py:111] # cuda blocks: 0, # CPU blocks: 4681", "ARL-E205"),
    # named actor clash, ray 2.x (namespace) and ray 1.x (none)
    ("ValueError: The name ZChSMX_register_center (namespace=None) is already taken. Please use a different name or get the "
     "existing actor using ray.get_actor('ZChSMX_register_center', namespace='None')", "ARL-E650"),
    ("ValueError: The name bar is already taken. Please use a different name or get the existing actor using "
     "ray.get_actor('bar')", "ARL-E650"),
    # infeasible requests naming GPU: autoscaler v1 (defaultdict and dict reprs) and v2
    ("(autoscaler +34s) Error: No available node types can fulfill resource request defaultdict(<class 'float'>, "
     "{'CPU': 8.0, 'GPU': 8.0}). Add suitable node types to this cluster to resolve this issue.", "ARL-E651"),
    ("(autoscaler +8s) Error: No available node types can fulfill resource request {'CPU': 1.0, 'GPU': 1.0}. "
     "Add suitable node types to this cluster to resolve this issue.", "ARL-E651"),
    ("No available node types can fulfill resource requests {'GPU': 1.0, 'CPU': 1.0}*8. "
     "Add suitable node types to this cluster to resolve this issue.", "ARL-E651"),
    # an infeasible request without GPU stays the generic capacity warning
    ("(autoscaler +8s) Error: No available node types can fulfill resource request {'CPU': 1.0, 'NPU': 8.0}. "
     "Add suitable node types to this cluster to resolve this issue.", "ARL-E128"),
    # MindSpore's pool past the device memory, with and without the event-memory term, and the Ascend adapter's form
    ("[ERROR] PRE_ACT(1,f,python):2024-10-22-11:24:55.301.443 [mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] "
     "TotalUsedMemStatistics : 29356337664 plus TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more "
     "than total mem size : 29464985600.", "ARL-E652"),
    ("[ERROR] PRE_ACT(1,f,python):2024-01-01-00:00:00.000.000 [mem_dynamic_allocator.cc:300] AddMemBlockAndMemBufByEagerFree] "
     "TotalUsedMemStatistics : 100 plus alloc size : 50 is more than total mem size : 120.", "ARL-E652"),
    ("Out of Memory!!! Request memory size: 33100113920B, Memory Statistic:", "ARL-E652"),
]

# (paste, an entry that must not be among the diagnoses)
NOT_NAMED = [
    # the warning before each retry is no verdict: the connection may still succeed
    ("W1119 08:22:22.445783 1 1 redis_context.cc:303] Failed to connect to Redis, retrying.", "ARL-E119"),
    # the head failing to start its own GCS is not an unreachable head
    ("RuntimeError: Failed to start GCS.  Last 1 lines of error files:", "ARL-E119"),
    # Paddle's other worker signals are not shared memory
    ("ERROR: Unexpected segmentation fault encountered in DataLoader workers.\n"
     "SystemError: (Fatal) DataLoader process (pid 1234) exited is killed by signal: Segmentation fault.", "ARL-E015"),
    # a healthy V0 start: a positive budget, blocks allocated
    ("INFO 05-30 06:40:55 worker.py:267] model weights take 2.89GiB; non_torch_memory takes 0.01GiB; PyTorch activation peak "
     "memory takes 2.02GiB; the rest of the memory reserved for KV Cache is 2.36GiB.\n"
     "INFO 05-30 06:40:55 executor_base.py:110] # CUDA blocks: 5517, # CPU blocks: 9362", "ARL-E205"),
    ("INFO 12-22 10:55:35 gpu_executor.py:76] # GPU blocks: 715, # CPU blocks: 0", "ARL-E205"),
]


@pytest.mark.parametrize("paste,entry_id", NAMED)
def test_each_wording_names_its_entry(explain_text, paste, entry_id):
    _, top = explain_text(paste + "\n")
    assert top is not None and top.entry.id == entry_id


@pytest.mark.parametrize("paste,entry_id", NOT_NAMED)
def test_the_boundary_is_not_named(explain_text, paste, entry_id):
    result, _ = explain_text(paste + "\n")
    assert entry_id not in [d.entry.id for d in result.diagnoses]
