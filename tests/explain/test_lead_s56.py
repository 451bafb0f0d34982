"""The twenty-fifth stop's lead readings (each confirmed in the emitting source or measured on the dev logs).

- DRV-divisible reads DeepSpeed's tensor-parallel degree, mp_size, as the tensor-parallel side: AutoTP's
  "num_heads (52) must be divisible by mp_size (8)" (deepspeed/module_inject/auto_tp.py) is heads over TP ranks.
"""

from __future__ import annotations

import pytest
from kdata_helpers import first


@pytest.mark.parametrize("line", [
    "AssertionError: num_heads (52) must be divisible by mp_size (8)",
    "AssertionError: num_attention_heads (40) must be divisible by mp_size (3)",
    "AssertionError: n_heads (52) must be divisible by mp_size (8)",
])
def test_deepspeeds_mp_size_is_the_tensor_parallel_side(catalog, line):
    top = first(catalog, line + "\n")
    assert top is not None and top.entry.id == "DRV-divisible" and top.kind == "tp-size-not-divisor-of-heads"


def test_world_size_over_mp_size_is_not_a_head_split(catalog):
    top = first(catalog, "AssertionError: world_size must be divisible by mp_size\n")
    assert top is None or top.kind != "tp-size-not-divisor-of-heads"
