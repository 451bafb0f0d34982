"""Quantized weights per rank (preflight/memplan_quant.py) against what vLLM logs and what the
layouts in data/memplan.yaml imply.

Validated against: vLLM's own "Loading model weights took 5.2032 GB" for Qwen2.5-7B-Instruct-AWQ
(vllm#13882; V0 divides by 2**30, so the unit is GiB). The msModelSlim description below follows
the form vllm-ascend#633 quotes (one type per weight, ``FLOAT`` for a down_proj left in 16 bits).
No quantized NPU start-up was run here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ascendrl.preflight import memplan as mp
from ascendrl.preflight import memplan_quant as mq
from ascendrl.preflight.memplan_cli import PlanInputError, read_config

HERE = Path(__file__).parent
GIB = 1 << 30


def qwen7b(**extra) -> dict:
    cfg = json.loads((HERE / "configs" / "qwen2.5-7b-instruct.json").read_text())
    cfg.update(extra)
    return cfg


def weights(cfg: dict, **rollout) -> float:
    return mp.weights_per_rank(mp.ModelShape.from_config(cfg), mp.Rollout(**rollout)) / GIB


def modelslim(kind: str, layers: int = 28, float_down: tuple[int, ...] = ()) -> dict:
    desc: dict = {"model_quant_type": kind}
    for i in range(layers):
        for mod in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "mlp.gate_proj", "mlp.up_proj", "mlp.down_proj"):
            desc[f"model.layers.{i}.{mod}.weight"] = "FLOAT" if (mod == "mlp.down_proj" and i in float_down) else kind
        desc[f"model.layers.{i}.input_layernorm.weight"] = "FLOAT"
    desc["model.embed_tokens.weight"] = "FLOAT"
    desc["lm_head.weight"] = "FLOAT"
    return desc


def test_awq_matches_vllms_load_line():
    """vllm#13882: Qwen2.5-7B-Instruct-AWQ (4 bits, group 128), fp16, TP 1: 'Loading model weights took 5.2032 GB'."""
    got = weights(qwen7b(quantization_config={"quant_method": "awq", "bits": 4, "group_size": 128}), dtype="float16")
    assert abs(got - 5.2032) <= 0.01 * 5.2032, got


def test_awq_bits_follow_the_packed_layout():
    """qweight int32 (in, out/8), qzeros int32 (in/g, out/8), scales fp16 (in/g, out): 4 + 20/g bits."""
    q = mq.from_quantization_config({"quant_method": "awq", "bits": 4, "group_size": 128})
    assert q is not None and q.bits_per_weight(3584, 18944) == pytest.approx(4 + 20 / 128)
    g64 = mq.from_quantization_config({"quant_method": "awq", "bits": 4, "group_size": 64})
    assert g64 is not None and g64.bits_per_weight(3584, 18944) == pytest.approx(4 + 20 / 64)


def test_skipped_modules_stay_in_16_bits():
    """modules_to_not_convert matches by name fragment, as vLLM's is_layer_skipped_awq does."""
    base = {"quant_method": "awq", "bits": 4, "group_size": 128}
    plain = weights(qwen7b(quantization_config=base), dtype="float16")
    skipped = weights(qwen7b(quantization_config={**base, "modules_to_not_convert": ["down_proj"]}), dtype="float16")
    down = 28 * 18944 * 3584
    expected = down * (2 - (4 + 20 / 128) / 8) / GIB
    assert skipped - plain == pytest.approx(expected, rel=0.01)


def test_modelslim_description_and_float_layers():
    cfg = qwen7b(quant_model_description=modelslim("W8A8"))
    q = mp.ModelShape.from_config(cfg).quant
    assert q is not None and q.method == "w8a8" and q.bits == 8 and q.float_modules == ()
    mixed = mp.ModelShape.from_config(qwen7b(quant_model_description=modelslim("W8A8", float_down=(5,)))).quant
    assert mixed is not None and mixed.float_modules == ("model.layers.5.mlp.down_proj",)
    m = mp.ModelShape.from_config(qwen7b(quant_model_description=modelslim("W8A8", float_down=(5,))))
    l5, l6 = (mq.layer_bytes(m, mixed, i, 1, 1, 2) for i in (5, 6))
    assert l5 - l6 == pytest.approx(18944 * 3584 * (2 - mixed.bits_per_weight(18944, 3584) / 8), rel=1e-6)
    # a layer number is no prefix of another: layer 5 left in 16 bits leaves layer 50's name alone
    assert not mixed.is_float("model.layers.50.mlp.down_proj")


def test_w8a8_is_about_half_of_bf16_and_w4a8_half_again():
    bf16 = weights(qwen7b())
    w8 = weights(qwen7b(quant_model_description=modelslim("W8A8_DYNAMIC")))
    w4 = weights(qwen7b(quant_model_description=modelslim("W4A8_DYNAMIC")))
    embeds = 2 * 152064 * 3584 * 2 / GIB  # untied embed + lm_head stay bf16
    linear_bf16 = bf16 - embeds
    assert (w8 - embeds) / linear_bf16 == pytest.approx(0.5, abs=0.01)
    # vllm-ascend packs W4A8's int8 checkpoint to int4 after loading: HBM holds about half of W8A8's linear bytes
    assert 0.5 <= (w4 - embeds) / (w8 - embeds) <= 0.55


def test_tp_splits_quantized_layers():
    cfg = qwen7b(quant_model_description=modelslim("W8A8"))
    one, four = weights(cfg), weights(cfg, tp=4)
    assert four == pytest.approx(one / 4, rel=0.02)


def test_unquantized_and_unknown_methods():
    assert mp.ModelShape.from_config(qwen7b()).quant is None
    assert mq.from_quantization_config({"quant_method": "bitsandbytes"}) is None
    assert mq.from_modelslim({"model_quant_type": "C8"}) is None


def test_read_config_takes_the_description_next_to_config(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps(qwen7b()))
    (tmp_path / "quant_model_description.json").write_text(json.dumps(modelslim("W8A8_DYNAMIC")))
    cfg = read_config(str(tmp_path))
    assert mp.ModelShape.from_config(cfg).quant.method == "w8a8_dynamic"
    (tmp_path / "quant_model_description.json").write_text("{not json")
    with pytest.raises(PlanInputError, match="quant_model_description.json is not readable JSON"):
        read_config(str(tmp_path))


def test_plan_cli_names_the_quantization(tmp_path):
    """`ascendrl plan --model DIR` on an msModelSlim folder: the header and --json name the method."""
    import subprocess
    import sys

    (tmp_path / "config.json").write_text(json.dumps(qwen7b()))
    (tmp_path / "quant_model_description.json").write_text(json.dumps(modelslim("W8A8_DYNAMIC")))
    run = subprocess.run([sys.executable, "-m", "ascendrl", "plan", "--model", str(tmp_path), "--hbm-gb", "64", "--json"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 1), run.stderr
    doc = json.loads(run.stdout)
    assert doc["quantization"] == "w8a8_dynamic"
    assert abs(doc["plan"]["rollout"]["weights_gib"] - 8.11) < 0.05  # 6.5B linear at ~1 byte + 2.03 GiB of bf16 embeddings
    text = subprocess.run([sys.executable, "-m", "ascendrl", "plan", "--model", str(tmp_path), "--hbm-gb", "64"],
                          capture_output=True, text=True, timeout=120)
    assert "w8a8_dynamic weights" in text.stdout.splitlines()[0]
