"""DRV-divisible: a divisibility check of any framework, read by the names of its two sizes (stop 20, lead).

verl's own conditions stay DRV-verl's, Megatron's DRV-launch-args' and YOLOv5's DRV-own-check's; a trainer's spec check
and a bare printed ``assert a % b == 0`` are read here, the class chosen from the names (batch / devices, batch /
mini-batches, heads / TP, layers / PP), the nearest fitting values from the numbers.
"""

from __future__ import annotations

import pytest
from kdata_helpers import first

YOLO = """Traceback (most recent call last):
  File "train.py", line 472, in <module>
    device = select_device(opt.device, batch_size=opt.batch_size)
  File "/home/user/ScaledYOLOv4/utils/torch_utils.py", line 33, in select_device
    assert batch_size % ng == 0, 'batch-size %g not multiple of GPU count %g' % (batch_size, ng)
AssertionError: batch-size 64 not multiple of GPU count 3
"""
BARE_ASSERT = """Traceback (most recent call last):
  File "train_matching.py", line 70, in train_model
    assert args.batch_size % len(devices) == 0
AssertionError
"""
SPEC = "SystemExit: spec invalid: ['rollout_steps (250) must be divisible by num_mini_batches (4)']\n"
HEADS = """Traceback (most recent call last):
  File "/home/user/proj/model.py", line 40, in __init__
    raise ValueError(f"num_heads ({n}) must be divisible by tp_size ({tp})")
ValueError: num_heads (28) must be divisible by tp_size (8)
"""


def test_yolos_own_wording_stays_its_own_check(catalog):
    """YOLOv5's select_device has a row of its own (DRV-own-check, the same kind): it keeps it."""
    top = first(catalog, YOLO)
    assert top is not None and top.entry.id == "DRV-own-check" and top.kind == "batch-size-not-divisible-by-world-size"


@pytest.mark.parametrize("text, kind", [
    (BARE_ASSERT, "batch-size-not-divisible-by-world-size"),
    (SPEC, "batch-size-not-divisible-by-minibatches"),
    (HEADS, "tp-size-not-divisor-of-heads"),
])
def test_the_names_choose_the_class(catalog, text, kind):
    top = first(catalog, text)
    assert top is not None and top.entry.id == "DRV-divisible" and top.kind == kind


def test_the_numbers_give_the_nearest_fit(catalog):
    top = first(catalog, "ValueError: global batch size (64) must be divisible by the number of data parallel ranks (3)\n")
    assert top.entry.id == "DRV-divisible" and top.kind == "batch-size-not-divisible-by-world-size"
    assert "66" in top.entry.cause and "63" in top.entry.cause  # multiples of 3 around 64


def test_an_unnamed_pair_is_a_weak_generic_reading(catalog):
    top = first(catalog, "ValueError: chunk_len (100) must be divisible by stride (3)\n")
    assert top is not None and top.entry.id == "DRV-divisible" and top.kind == "size-not-divisible"


@pytest.mark.parametrize("text", [
    # verl's own check keeps verl's reading
    "Traceback (most recent call last):\n  File \"/usr/local/lib/python3.10/site-packages/verl/workers/fsdp_workers.py\", line 120, in __init__\n"
    "    assert self.config.rollout.n % world_size == 0\nAssertionError: rollout world_size: 1 is not divisible by infer_tp: 2\n",
    # a log line, not a raised exception
    "INFO 05-01 10:00:00 batch size 64 is a multiple of the GPU count, splitting evenly\n",
    # a modulo that is not a divisibility check
    "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n    y = a % b\nZeroDivisionError: integer division or modulo by zero\n",
])
def test_near_misses(catalog, text):
    top = first(catalog, text)
    assert top is None or top.entry.id != "DRV-divisible"
