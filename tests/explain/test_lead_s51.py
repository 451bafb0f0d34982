"""The twentieth stop's lead classes, from round 49's dev half (each confirmed in the emitting source).

- ARL-E4178: an RDMA verbs call failing with ENOMEM is the locked-memory limit (NCCL's ibvwrap.cc WARN, UCX's ucs_error);
  the same call failing with another errno (EINVAL: a GPUDirect / peer-memory problem) is not.
"""

from __future__ import annotations

import pytest
from kdata_helpers import first_id


@pytest.mark.parametrize("line", [
    "node1:1458:1480 [0] misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory",
    "node1:1458:1480 [3] misc/ibvwrap.cc:190 NCCL WARN Call to ibv_create_cq failed with error Cannot allocate memory",
    "[1733 10:02:01.123] ib_device.c:1170 UCX ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory",
    "ERROR mlx5_0: ibv_create_cq() failed: Cannot allocate memory.",
])
def test_verbs_enomem_is_the_memlock_limit(catalog, line):
    assert first_id(catalog, line + "\n") == "ARL-E4178"


@pytest.mark.parametrize("line", [
    "node1:1458:1480 [0] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument",
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB (cannot allocate memory for the buffer)",
])
def test_other_errno_or_plain_oom_is_not(catalog, line):
    assert first_id(catalog, line + "\n") != "ARL-E4178"
