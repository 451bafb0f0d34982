"""Quantized weights as vLLM / vllm-ascend hold them on the device: bits per linear weight and the
modules a checkpoint leaves in 16 bits.

The layouts per method (stored bits, per-group scale/zero tensors, per-output-channel and
per-input vectors) are reviewed data in ``data/memplan.yaml`` (``quantization``), each cited to the
``create_weights`` / ``get_weight`` code that allocates them. Two sources of settings:
``quantization_config`` in config.json (AWQ, GPTQ, compressed-tensors, FP8) and msModelSlim's
``quant_model_description.json`` next to it (vllm-ascend's W8A8 / W8A8_DYNAMIC / W4A8_DYNAMIC / W4A16,
one entry per weight, ``FLOAT`` for those left unquantized).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .memplan import constants


@dataclasses.dataclass(frozen=True)
class QuantScheme:
    """What one quantized linear weight costs, and which modules stay in the model's dtype."""

    method: str
    bits: float  # stored bits per weight element
    group_size: int  # 0: no per-group tensors
    group_bits: float  # bits of the per-group tensors per (group x output channel)
    channel_bytes: float  # per output channel (scales, offsets, bias, dequant scale)
    input_bytes: float  # per input element (GPTQ's g_idx, W8A8's repeated input scale)
    float_modules: tuple[str, ...] = ()  # name fragments left in 16 bits (vLLM matches by substring)

    def bits_per_weight(self, fan_in: int, fan_out: int) -> float:
        """Bits one element of a (fan_in x fan_out) quantized weight takes with its side tensors."""
        per_group = self.group_bits / self.group_size if self.group_size > 0 else 0.0
        return self.bits + per_group + 8.0 * self.channel_bytes / max(fan_in, 1) + 8.0 * self.input_bytes / max(fan_out, 1)

    def is_float(self, module: str) -> bool:
        """vLLM's skip test (AWQ ``modules_to_not_convert``, compressed-tensors ``ignore``): a fragment in the name."""
        return any(f and f in module for f in self.float_modules)


def _layout(method: str) -> dict[str, Any]:
    table: dict[str, Any] = constants()["quantization"]["methods"]
    return dict(table[method])


def _scheme(method: str, bits: float | None = None, group: int | None = None, skip: tuple[str, ...] = ()) -> QuantScheme:
    lay = _layout(method)
    b = float(bits if bits is not None else lay["bits"])
    g = int(group if group is not None else lay.get("group_size", 0) or 0)
    group_bits = float(lay.get("group_bits", 0)) + (b if lay.get("zeros_packed") else 0.0)
    return QuantScheme(method, b, g, group_bits, float(lay.get("channel_bytes", 0)), float(lay.get("input_bytes", 0)), skip)


def from_quantization_config(qc: dict[str, Any] | None) -> QuantScheme | None:
    """config.json's ``quantization_config``; None for an unquantized model or a method not modelled."""
    if not qc:
        return None
    method = str(qc.get("quant_method") or "").lower()
    if "fp8" in method or qc.get("fmt") in ("e4m3", "e5m2"):
        return _scheme("fp8", skip=tuple(qc.get("ignored_layers") or ()))
    if method == "awq" or "w_bit" in qc:
        return _scheme("awq", qc.get("bits") or qc.get("w_bit"), qc.get("group_size") or qc.get("q_group_size"), tuple(qc.get("modules_to_not_convert") or ()))
    if method == "gptq":
        skip = () if qc.get("lm_head") else ("lm_head",)
        return _scheme("gptq", qc.get("bits"), qc.get("group_size"), skip)
    if method == "compressed-tensors" and isinstance(qc.get("config_groups"), dict):
        for group in qc["config_groups"].values():
            w = group.get("weights") or {}
            if not w.get("num_bits"):
                continue
            strategy = str(w.get("strategy") or "")
            size = int(w.get("group_size") or 0) if strategy == "group" else 0
            ignore = tuple(str(i).removeprefix("re:").strip(".*") for i in (qc.get("ignore") or ()))
            return _scheme("compressed_tensors", w["num_bits"], size, ignore)
    bits = qc.get("bits") or qc.get("weight_bits")
    if bits:
        return _scheme("gptq", bits, qc.get("group_size"))
    return None


def from_modelslim(desc: dict[str, Any] | None) -> QuantScheme | None:
    """msModelSlim's quant_model_description.json: ``model_quant_type`` and one type per weight."""
    if not desc:
        return None
    kind = str(desc.get("model_quant_type") or "").upper()
    key = {"W8A8": "w8a8", "W8A8_DYNAMIC": "w8a8_dynamic", "W4A8_DYNAMIC": "w4a8_dynamic", "W4A8": "w4a8_dynamic", "W4A16": "w4a16"}.get(kind)
    if key is None:
        return None
    floats = tuple(
        name.removesuffix(".weight") for name, t in desc.items()
        if isinstance(t, str) and t.upper() == "FLOAT" and name.endswith(".weight") and "proj" in name
    )
    group = desc.get("group_size")
    return _scheme(key, group=int(group) if group else None, skip=floats)


def linear_modules(m: Any, layer: int) -> list[tuple[str, int, int, int, bool]]:
    """The linear weights of one decoder layer as vLLM builds them, HF-named:
    (name, fan_in, fan_out, copies, expert). MLA attention is one block (its projections are not split here)."""
    h, pre = m.hidden, f"model.layers.{layer}."
    out: list[tuple[str, int, int, int, bool]] = []
    if m.mla_kv:
        out.append((pre + "self_attn", h, max(m.attn_params() // h, 1), 1, False))
    else:
        q, kv = m.heads * m.head_dim, m.kv_heads * m.head_dim
        out += [(pre + "self_attn.q_proj", h, q, 1, False), (pre + "self_attn.k_proj", h, kv, 1, False),
                (pre + "self_attn.v_proj", h, kv, 1, False), (pre + "self_attn.o_proj", q, h, 1, False)]
    if m.experts and layer >= m.dense_layers:
        mi = m.moe_intermediate
        out += [(pre + "mlp.experts", h, 3 * mi, m.experts, True)]  # one FusedMoE per layer (vLLM's prefix)
        if m.shared_intermediate:
            si = m.shared_intermediate
            out += [(pre + "mlp.shared_expert.gate_proj", h, si, 1, False), (pre + "mlp.shared_expert.up_proj", h, si, 1, False),
                    (pre + "mlp.shared_expert.down_proj", si, h, 1, False)]
    else:
        i = m.intermediate
        out += [(pre + "mlp.gate_proj", h, i, 1, False), (pre + "mlp.up_proj", h, i, 1, False), (pre + "mlp.down_proj", i, h, 1, False)]
    return out


def layer_bytes(m: Any, q: QuantScheme, layer: int, tp: int, ep: int, dtype_bytes: int) -> float:
    """Bytes of one decoder layer's linear weights on one rank: quantized ones at their layout's
    bits, the skipped ones (and MoE routers, which vLLM builds without quant_config) in 16 bits."""
    total = 0.0
    for name, fan_in, fan_out, copies, expert in linear_modules(m, layer):
        elems = fan_in * fan_out * copies / (ep if expert else tp)
        total += elems * (dtype_bytes if q.is_float(name) else q.bits_per_weight(fan_in, fan_out) / 8.0)
    if m.experts and layer >= m.dense_layers:
        total += m.hidden * m.experts * dtype_bytes  # router (gate), replicated
    if m.qkv_bias and not m.mla_kv:
        total += (m.heads + 2 * m.kv_heads) * m.head_dim / tp * dtype_bytes
    return total
