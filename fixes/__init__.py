"""Registered auto-fixes, by id.

Rules name the fix that resolves them (``Rule.fix_id``); the fix engine (dry run,
journal, atomic writes, undo) arrives with ``ascendrl fix``. Until then this registry
declares the ids rules may reference, with what each fix will do, so a rule can never
point at a fix that does not exist.
"""

from __future__ import annotations

FIXES: dict[str, str] = {
    "nz-off": "export VLLM_ASCEND_ENABLE_NZ=0 and USE_OPTIMIZED_MODEL=0 in the managed env file or launch script",
    "relocate-caches": "point RAY_TMPDIR, TMPDIR, HF_DATASETS_CACHE and HF_HOME at the filesystem with most free space",
    "cann-source-env": "source the CANN toolkit and NNAL set_env.sh from the managed env file",
    "visible-devices": "rewrite ASCEND_RT_VISIBLE_DEVICES as ascending ids of present NPUs",
    "hccl-timeouts": "raise HCCL_CONNECT_TIMEOUT / HCCL_EXEC_TIMEOUT within CANN's limits",
    "kill-npu-holders": "stop leftover processes holding NPU memory (unsafe: needs --unsafe)",
}
