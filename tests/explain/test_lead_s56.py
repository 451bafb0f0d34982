"""The twenty-fifth stop's lead readings (each confirmed in the emitting source or measured on the dev logs).

- DRV-divisible reads DeepSpeed's tensor-parallel degree, mp_size, as the tensor-parallel side: AutoTP's
  "num_heads (52) must be divisible by mp_size (8)" (deepspeed/module_inject/auto_tp.py) is heads over TP ranks.
- Ray's terminate handler ("Unhandled exception: <type>. what(): <msg>", src/ray/util/logging.cc) is ARL-E009 (a C++
  exception ended the process); Boost.Asio's "thread: Resource temporarily unavailable" (posix_thread.ipp) is ARL-E014.
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


def test_rays_terminate_handler_is_a_cpp_exception_that_ended_the_process(catalog):
    top = first(catalog, "[2025-03-21 08:14:02,117 E 48211 48211] logging.cc:112: Unhandled exception: St13runtime_error. "
                         "what(): something broke badly\n")
    assert top is not None and top.entry.id == "ARL-E009"


def test_asios_thread_creation_failure_is_the_process_limit(catalog):
    top = first(catalog, "Unhandled exception: N5boost10wrapexceptINS_6system12system_errorEEE. what(): thread: Resource "
                         "temporarily unavailable [system:11]\n")
    assert top is not None and top.entry.id == "ARL-E014"
    # the same words about a socket, not a thread: not the thread limit
    top = first(catalog, "Unhandled exception: N5boost10wrapexceptINS_6system12system_errorEEE. what(): read: Resource "
                         "temporarily unavailable [system:11]\n")
    assert top is None or top.entry.id != "ARL-E014"
