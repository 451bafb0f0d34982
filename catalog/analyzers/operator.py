"""An operator rejected its inputs: the aclnn parameter check names the argument and what it wanted.

CANN's op-api checks every argument before it runs a kernel and says which one failed — ``the
biasOptional's dtype should be [DT_FLOAT], actual is [DT_BFLOAT16]``, ``get unsupported atten_mask
shape`` — under an ``EZ9999``/``EZ1001`` line, an ``ERR00100`` tag and ``call aclnnX failed``. The
codes only say "an operator failed"; the check says which input to change. A dtype a quantized
matmul rejects is a quantized-rollout setting (the activation/bias dtype the quant method feeds it).
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence
from .codes import SOC_REFUSAL, registry_kind
from ...lazyre import lazy

PARAM_CHECK = lazy(
    # (older opbase releases: "Io input dtype or format not support, get io input info is …", its SupportInfo lines below)
    r"Io (input|output) (dtype) or format (?:is )?not support(?:ed)?,? get io \w+ info is [^.]*?(?= but supported list|$)"
    r"|(\w+)'s (dtype|shape|format|dim\w*) (?:should be|must be)[^,.]*(?:, actual is \[?[\w, ]*\]?)?"
    r"|(?:get )?(?:unsupported|invalid) (\w+) (dtype|shape|format|layout)"
    r"|\b(?:dtype|shape|format) (?:of )?(?!is\b)(\w+) (?:is )?not supported"
    r"|(\w+) not implemented for (DT_\w+)"
    # a tiling check on an attribute: "this platform only support output transpose_x1 false …, actual [false, false]"
    r"|only supports? (?:output )?(\w+) [^,]*, actual"
    # CANN's registered argument errors (EZ0008-EZ0028, opbase src/op_common/log/log.cpp):
    # "Parameter scale of aclnnX has incorrect dtype DT_FLOAT16. It should be …" / ". Reason: …"
    r"|[Pp]arameters? ([\w(),]+) (?:of (?:operator )?\w+ )?ha(?:s|ve) incorrect (dtype|shape dim|shape size|shape|format|stride)s?(?: \[?[\w, ]*\]?)?"
    # the reason ops-nn's quant matmul checks give ("the dtype of scale must be in dtype support list …")
    r"|the (dtype|shape dim|format) of (\w+) must be"
    # a value check on a named attribute, often after the dtype/format that makes it apply (ops-nn weight-quant
    # matmul: "when weight's dtype is [int4], weight's format is [FRACTAL_NZ], antiquantGroupSize should be 128 or 64",
    # "In the per-group scenario, antiquantGroupSize should be in range [32, …], Actual is 16"): the value is wrong
    r"|\b([a-z]+[A-Z]\w*) should be\b(?:[^.,]*(?:, (?:but )?[Aa]ctual[^.]*)?)?"
)
# aclnn's pairing checks (hicann/ops-math common/inc/external/aclnn_kernels/common/op_error_check.h, OP_API_CHECKS):
# OP_CHECK_DTYPE_NOT_MATCH "Tensor %s expected dtype is %s but found %s." (older CANN "%s expected scalar type %s but
# found %s"), OP_CHECK_DTYPE_NOT_SAME "Expected both tensors to have same dtype, but found %s %s and %s %s.". They compare
# an input with the dtype the operator pairs it with (a mask with DT_BOOL, out with self), not with a support list: the
# caller passed that input in another dtype, whichever dtypes they name (a bf16 one is not a device without bf16).
DTYPE_PAIRING = lazy(r"\b(\w+) expected (?:scalar type|dtype is) (DT_\w+) but found (DT_\w+)"
                     r"|Expected both tensors to have same dtype, but found (\w+) (DT_\w+) and (\w+) (DT_\w+)")
OP_API_CHECKS = ("https://github.com/hicann/ops-math/blob/ee839ce2ab9632f88231eb3eb78a4bd8c0948eaa/common/inc/external/"
                 "aclnn_kernels/common/op_error_check.h")
# nnopbase's support-list check (hicann/opbase src/nnopbase/individual_op/executor/indv_executor.cpp): the actual
# parameters ("Io input dtype or format is not supported, get io input info is x(DT_BFLOAT16, ND) weight(…) …", master
# "… details of parameter are x(DT_…, ND), …") and, one line each, the rows it accepts ("SupportInfo[1] x(DT_…, ND) …",
# master "SupportInfo[1]: x(DT_…, ND), …"). Where one row matches every parameter but one, in dtype and format, the
# operator takes this combination except that input's dtype: the caller passed it in another dtype than the one it
# pairs with the rest (a quantized matmul's scale in uint8 beside a bf16 activation), as DTYPE_PAIRING states it.
# The same refusal's head sentence as opbase words it from 2026-06 (commit 7ec8156: "... is not supported, details of
# parameter are ... but supported list is:") and on master ("... of the operator is inconsistent with that defined in the
# operator prototype OpDef, details of parameter are ..."): the operator rejected its inputs' dtype / format.
IO_REFUSED = lazy(r"The dtype or format of the actual input or output parameter (?:is not supported,|of the operator is "
                  r"inconsistent with that defined in the operator prototype OpDef,) details of parameter are "
                  r"[^.]*?(?= ?but supported list|$)")
IO_ACTUAL = lazy(r"(?:get io input info is|details of parameter are) (.*)")
IO_ROW = lazy(r"SupportInfo\[\d+\]:? (.*)")
IO_PARAM = lazy(r"(\w+)\((DT_\w+), ?(\w+)\)")
OPBASE_SUPPORT = ("https://github.com/hicann/opbase/blob/313b0146bf9d5cc334f50052c462a25082938c40/src/nnopbase/"
                  "individual_op/executor/indv_executor.cpp")


def one_input_off(texts) -> tuple[str, str, str] | None:
    """(parameter, dtype a support row pairs it with, dtype passed) where a SupportInfo row differs from the actual
    parameters in that one input's dtype alone (at least one other parameter agreeing), else None."""
    actual: dict[str, tuple[str, str]] | None = None
    rows: list[dict[str, tuple[str, str]]] = []
    for text in texts:
        if (m := IO_ROW.search(text)) is not None:
            rows.append({n: (d, f) for n, d, f in IO_PARAM.findall(m.group(1))})
        elif actual is None and (m := IO_ACTUAL.search(text)) is not None:
            actual = {n: (d, f) for n, d, f in IO_PARAM.findall(m.group(1))}
    if not actual or len(actual) < 2:
        return None
    for row in rows:
        if set(row) != set(actual):
            continue
        off = [n for n in actual if actual[n][0] != row[n][0]]
        if len(off) == 1 and all(actual[n][1] == row[n][1] for n in actual):
            return off[0], row[off[0]][0], actual[off[0]][0]
    return None
# A required (or, in the named case, conditionally required) input left out: the ops' own null checks, OP_LOGE in the
# op_host tiling / op_api code of hicann/ops-transformer (and ops-nn): "%s should not be null", "When D is 512,
# inputlayout %s q_rope and k_rope should not be null!" (incre_flash_attention_tiling.cpp), "attentionOutGrad must not be
# nullptr." (aclnn_nsa_selected_attention_grad.cpp), "FAG keepProb [%f], dropMask can not be nullptr",
# "%s[%lu] must not be nullptr, but now is null", "…, must not be null, but a null was actually passed". The caller
# passed None for an optional tensor the operator needs in this mode (the aclnn code is 161001 ACLNN_ERR_PARAM_NULLPTR
# when one is printed). The words alone are common, so they count only with an operator around them (NULL_CONTEXT).
NULL_INPUT = lazy(r"(?P<arg>\w[\w\[\]' ]{0,48}?)(?: data| desc)? (?:should|must|can) ?not be (?:a )?null(?:ptr)?\b")
NULL_CONTEXT = lazy(r"\baclnn[A-Z]|\bnpu_\w+|torch_npu|\bE[Z]\d{4}\b|\bERR\d{5}\b|[Ii]nput ?[Ll]ayout|\blayout\b|[Tt]iling|\bOP_LOGE\b")
# The runtime's own argument checks under a device-open failure ("Check param failed, context can not be null.",
# runtime.cc / api_impl.cc, under 507033 / E30006) are about the device context, not an operator's input: not read.
LAYOUT_LEAD = lazy(r"^(?:input ?)?layout \w+ ", re.I)  # "inputlayout TND q_rope and k_rope": the inputs are the rest
RUNTIME_NULL = lazy(r"Check param failed|\b(?:ctx|context|dev|device|stream|handle|executor) (?:should|must|can) ?not be null")
OPS_NULL_CHECKS = (
    "https://github.com/hicann/ops-transformer/blob/c29bc1069d3252c641e2aa059ec88f392d3f05ac/attention/"
    "fused_infer_attention_score/op_host/fused_infer_attention_score_tiling_check_existence.cpp",
    "https://github.com/hicann/ops-transformer/blob/c29bc1069d3252c641e2aa059ec88f392d3f05ac/attention/"
    "incre_flash_attention/op_host/incre_flash_attention_tiling.cpp",
)
OP = lazy(r"\b(aclnn[A-Z]\w+)")
OPNAME = lazy(r"OpName:\[(\w+?)(?:_\d+)?\]")
# torch_npu's op-plugin (Ascend/op-plugin op_plugin/ops/**, torch_npu's own NPU kernels) checks an operator's
# arguments in C++ before any aclnn call: TORCH_CHECK(cond, "<what it wants>", OPS_ERROR(ErrCode::PARAM | TYPE | VALUE)),
# printed as the check's own text then, on the next line, torch_npu's tag "[ERROR] <time> (PID:…, Device:…, RankID:…)
# ERR01001 OPS invalid parameter" (ERR01002 … invalid type, ERR01003 … invalid value; torch_npu/utils/_error_code.py
# formats ERR<submodule><code>, OPS = 01). The texts are the op's own ("The x and expert_ids should be 2D", "input must be
# half, float or bfloat16", "head_num must > 0, but got 0", "The param softmax_layout is not supported", "Tensor query
# is empty.", "x last dim size should be even"): the caller handed the operator an argument it refuses. The codes alone
# say only "invalid parameter"; the text before them is the check. The chip refusals (SOC_REFUSAL), ERR01007 (OPS
# NOT_SUPPORT) and the catalog's own readings of such texts stay theirs.
OPS_ARG_CODE = lazy(r"\bERR0100[123] OPS invalid (?:parameter|type|value)\b")
OPS_TAG = lazy(r"\s*\[ERROR\] \d{4}-.*$")
NPU_OP = lazy(r"\b(npu_\w+)")
OP_PLUGIN = ("https://github.com/Ascend/op-plugin/blob/517f2e7d0f202f38b76310706cb977ca2388ad21/op_plugin/ops/opapi/"
             "MoeDistributeCombineKernelOpApi.cpp",
             "https://github.com/Ascend/pytorch/blob/2010cdbe1b62fdae01b5b7ed1af353c89bd57983/torch_npu/utils/_error_code.py")

# The sentence of a CANN reason that speaks of a dtype ("When scale dtype is …, out dtype should …").
DTYPE_SAID = lazy(r"[^.:\]]*\bdtype\b[^.]*")
OP_API = "https://www.hiascend.com/document/detail/en/canncommercial/850/API/aolapi/atlasascendc_api_07_1205.html"
QUANT = "https://github.com/vllm-project/vllm-ascend/issues/7039"


SUPPORT_LIST = lazy(r"not implemented for (DT_\w+).*?support list\s*\[([^\]]*)\]", re.S)


def _model_dtype(text: str) -> str:
    """The model dtype to switch to when a check rejects fp16 or bf16 and lists the other as supported."""
    m = SUPPORT_LIST.search(text)
    if m is None:
        return ""
    listed = m.group(2)
    if m.group(1) == "DT_FLOAT16" and "DT_BFLOAT16" in listed:
        return "bfloat16"
    if m.group(1) == "DT_BFLOAT16" and re.search(r"DT_FLOAT16\b", listed):
        return "float16"
    return ""


def _op_name(link: Link, chain: Chain) -> str:
    for text in (link.message, link.text, *link.detail, *(t for other in chain.links for t in (other.message, *other.detail))):
        if m := OP.search(text):
            return m.group(1)
    return ""


class OperatorParams(Analyzer):
    id = "DRV-op-params"
    title = "An operator rejected an input's dtype or shape"
    family = "operator"
    stops_run = "the operator rejects its inputs on every call"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("cann", "bare", "python", "remote"):
            return None
        paired = next((m for t in (link.message, *link.detail) if (m := DTYPE_PAIRING.search(t))), None)
        if paired is not None:
            return self._pairing(paired, link, chain)
        if (off := one_input_off((link.message, *link.detail))) is not None:
            return self._one_off(off, link, chain)
        if any(SOC_REFUSAL.search(t) for t in (link.message, *link.detail)):
            return None  # the check refuses it because of the chip: DRV-code reads that class (codes.SOC_REFUSAL)
        text = next((t for t in (link.message, *link.detail) if PARAM_CHECK.search(t)), None)
        refused = next((m for t in (link.message, *link.detail) if (m := IO_REFUSED.search(t))), None)
        if text is None and refused is not None:
            text, said, arg, what = refused.string, refused.group(0), "its inputs", "dtype"
        elif text is not None:
            m = PARAM_CHECK.search(text)
            said = m.group(0)
            arg = (m.group(3) or m.group(5) or m.group(7) or m.group(8) or m.group(10) or m.group(11) or m.group(14)
                   or m.group(15) or (f"its {m.group(1)}" if m.group(1) else "an input"))
            what = (m.group(2) or m.group(4) or m.group(6) or ("dtype" if m.group(9) else "") or ("value" if m.group(10) or m.group(15) else "")
                    or m.group(12) or m.group(13) or "dtype/shape").lower()
        elif (null := self._null_input(link, chain)) is not None:
            return null
        elif (checked := self._op_plugin_check(link, chain)) is not None:
            return checked
        elif any(registry_kind(code) == "aclnn-param-unsupported" for code in link.codes):
            # A registered argument-check code (EZ1001 AclNN_Parameter_Error …) whose free-text reason names a dtype
            # in words this table does not parse: the operator still rejected an input's dtype.
            text = next((t for t in (link.message, *link.detail) if DTYPE_SAID.search(t)), None)
            if text is None:
                return None
            said, arg, what = DTYPE_SAID.search(text).group(0).strip(), "an input", "dtype"
        else:
            return None
        op = _op_name(link, chain)
        quant = "dtype" in what and "quant" in op.lower()
        # bf16 inputs rejected by a non-quantized operator: this device / kernel has no bf16 path (310P, older chips).
        # Not when integer inputs sit beside it (a bf16 activation with int4 / int8 weights and a uint8 scale): that is a
        # quantized kernel's dtype combination, not a device without bf16.
        bf16 = (not quant and "dtype" in what and bool(re.search(r"DT_BF(?:LOAT)?16", said))
                and re.search(r"DT_U?INT(?:4|8)\b", said) is None)
        whose = f"the {what} of {arg}" if arg.startswith("its ") else f"{arg}'s {what}"
        cause = (f"{'The operator ' + op if op else 'An operator'} checked its arguments and rejected {whose}: {said[:160]}. "
                 "The model code (or a patch/plugin) hands it a tensor the operator does not accept on this CANN release.")
        if quant:
            cause += " In a quantized matmul this is the activation/bias dtype the quantization method passes (bf16 vs float32/float16)."
            wanted = _model_dtype(text)
            fix = ("Use the dtype the operator asks for: run the quantized model with the dtype its quant method supports "
                   + (f"(here: --dtype {wanted}, the model dtype in the operator's support list)" if wanted else
                      "(the operator's support list names it)")
                   + ", or upgrade vllm-ascend to the release whose quant method casts the input",
                   "Check the quantization guide's supported dtype per method")
        else:
            fix = (f"Change the caller so {arg} has a {what} the operator supports (reshape/cast before the call), or disable the feature that produces it",
                   "Upgrade CANN / vllm-ascend to a release whose operator supports this input; the operator's aclnn API page lists the supported dtypes and shapes")
        if bf16:
            cause += " The rejected inputs are bfloat16: this operator has no bf16 kernel on this device."
            fix = ("Run the model in float16: dtype=float16 (vLLM --dtype float16; verl actor_rollout_ref.rollout.dtype=float16 and "
                   "the actor's mixed precision) — devices such as Atlas 300I (310P) have no bf16 kernels",
                   "Or upgrade CANN / vllm-ascend to a release whose operator lists DT_BFLOAT16 for this device")
        return Finding(
            f"{op or 'Operator'} rejected {whose}"[:160], cause, fix, evidence(link), (OP_API, QUANT) if quant else (OP_API,),
            key=f"param:{op}:{arg}:{what}", family="dtype" if quant or bf16 else "operator",
            kind="quant-rollout-dtype" if quant else ("bf16-unsupported-on-device" if bf16 else "aclnn-param-unsupported"),
        )

    def _null_input(self, link: Link, chain: Chain) -> Finding | None:
        """An operator check that a required input is null (NULL_INPUT), where the link shows an operator (NULL_CONTEXT)."""
        texts = (link.message, *link.detail)
        m = next((m for t in texts if not RUNTIME_NULL.search(t) and (m := NULL_INPUT.search(t))), None)
        if m is None:
            return None
        around = " ".join((link.text, *texts, *(t for other in chain.links for t in (other.message, *other.detail))))
        if link.kind != "cann" and not NULL_CONTEXT.search(around):
            return None
        op = _op_name(link, chain)
        arg = LAYOUT_LEAD.sub("", m.group("arg").strip())
        said = m.group(0).strip()
        return Finding(
            f"{op or 'An NPU operator'} needs an input that was passed as null ({arg})"[:160],
            (f"{'The operator ' + op if op else 'An NPU operator'} checked its arguments and found a tensor it needs missing: "
             f"{said[:160]}. The operator received no value for an input it requires in this mode (this layout, head size, "
             "dtype or quantization) and refused the call before any kernel ran: the caller passed None for an optional "
             "input (a rope / scale / mask / sequence-length tensor), or, where the caller does pass it, the operator "
             "extension or custom-op package it was built with and the installed CANN operator package disagree on the "
             "operator's argument list (a signature changed between releases), so the value lands in another slot."),
            ("Pass the input the check names for this mode (build it in the caller), or call the operator in a mode where "
             "it is optional (another layout / head size, or the plain non-fused path the framework offers)",
             "If the caller does pass it: install the operator extension / custom-op package (vllm-ascend's, "
             "cann_ops_transformer, a vendor package) built for the installed CANN release, so both sides have one signature",
             "If the call is in a framework (vllm-ascend, MindSpeed, a model patch), upgrade it to the release that supplies "
             "the input or routes this model to another kernel; the operator's aclnn API page lists which inputs each mode needs"),
            evidence(link), (*OPS_NULL_CHECKS, OP_API), key=f"null:{op}:{arg}", family="operator",
            kind="aclnn-param-unsupported",
        )

    def _op_plugin_check(self, link: Link, chain: Chain) -> Finding | None:
        """torch_npu's op-plugin argument check: its text, then an ERR0100[123] OPS tag (OPS_ARG_CODE)."""
        if link.kind not in ("python", "remote", "bare"):
            return None
        texts = (link.message, *link.detail)
        if not any(OPS_ARG_CODE.search(t) for t in (*texts, link.text)):
            return None
        said = OPS_TAG.sub("", link.message).strip()
        if len(said) < 6 or OPS_ARG_CODE.search(said) or said.startswith("[ERROR]"):
            return None
        around = (link.text, *texts, *(f.func for f in link.frames),
                  *(t for other in chain.links for t in (other.message, other.text, *(f.func for f in other.frames))))
        op = next((m.group(1) for t in around if (m := NPU_OP.search(t or ""))), "") or _op_name(link, chain)
        who = f"torch_npu's {op}" if op else "A torch_npu operator"
        return Finding(
            f"{who} refused an argument: {said}"[:160],
            (f"{who} checked its arguments in torch_npu's op-plugin before calling the CANN kernel and refused one: "
             f"\"{said[:200]}\" (tagged OPS invalid parameter / type / value). The caller -- the model code, a framework's "
             "NPU path (vllm-ascend, MindSpeed, a model patch) or a custom script -- passed a tensor whose shape, rank, "
             "dtype or attribute this operator does not take in this release: a layout or head size the fused kernel was "
             "not written for, a 3-D tensor where it wants 2-D, fp32 where it takes fp16 / bf16, an empty tensor, an "
             "option value outside its range."),
            ("Read the check's words: they name the argument and what the operator wants; make the caller pass that "
             "(reshape / cast / pad before the call, or pick the layout or option the check lists)",
             "If the call is inside a framework (vllm-ascend, MindSpeed, transformers' NPU path), the model or setting is "
             "one its NPU kernel path does not support: turn off the fused-kernel option for it, or upgrade the framework "
             "and torch_npu together to a release whose operator takes these inputs; the operator's torch_npu API page "
             "lists its constraints"),
            evidence(link), OP_PLUGIN, key=f"opplugin:{op}:{said[:60]}", family="operator",
            kind="aclnn-param-unsupported",
        )

    def _one_off(self, off: tuple[str, str, str], link: Link, chain: Chain) -> Finding:
        """The support list takes every actual parameter but one input's dtype (one_input_off)."""
        arg, wanted, got = off
        op = _op_name(link, chain) or next((m.group(1) for t in (link.message, *link.detail)
                                            if (m := OPNAME.search(t))), "")
        return Finding(
            f"{op or 'An aclnn operator'} takes these inputs with {arg} in {wanted}, not {got}"[:160],
            (f"{'The operator ' + op if op else 'An aclnn operator'} checked its parameters against its support list "
             f"and refused them, but one listed combination matches every parameter except {arg}: it is {got} where "
             f"that combination pairs it with {wanted}. The operator supports these dtypes; the caller passed {arg} "
             "in another dtype than the one it pairs with the rest (a quantized matmul's scale or offset in another "
             "dtype than the activation, an output left in another precision)."),
            (f"Pass {arg} as {wanted} (cast it, or produce it in that dtype: for a quantized weight's scale, the "
             "dtype the quantization method stores it in for this activation dtype)",
             "If the call is in a framework (vllm-ascend, a quantization plugin, a model patch), upgrade it or use the "
             "quantization / dtype setting whose combination the operator lists"),
            evidence(link), (OPBASE_SUPPORT, OP_API_CHECKS), key=f"pairrow:{op}:{arg}", family="dtype",
            kind="op-input-dtype-mismatch",
        )

    def _pairing(self, m: re.Match, link: Link, chain: Chain) -> Finding:
        """An input whose dtype differs from the one the operator pairs it with (DTYPE_PAIRING)."""
        op = _op_name(link, chain)
        if m.group(1):
            arg, wanted, got = m.group(1), m.group(2), m.group(3)
            said = f"{arg} should be {wanted}, got {got}"
        else:
            arg = f"{m.group(4)} / {m.group(6)}"
            said = f"{m.group(4)} is {m.group(5)}, {m.group(6)} is {m.group(7)}"
        return Finding(
            f"{op or 'An aclnn operator'} got {arg} in another dtype than it pairs it with"[:160],
            (f"{'The operator ' + op if op else 'An aclnn operator'} compares the dtype of {arg} with the dtype it pairs "
             f"it with and they differ ({said}): the caller passed that input in the wrong dtype (a float attention mask "
             "where a bool one is expected, an output or second operand left in another precision). The check is about how "
             "the inputs pair, not a dtype the operator or the device lacks."),
            (f"Cast {arg} to the dtype the check names before the call (for a mask: mask.bool(); for mixed operands: "
             "bring both to the model dtype)",
             "If the call is in a library (transformers, a model's remote code), upgrade it or patch the line that builds "
             "that tensor"),
            evidence(link), (OP_API_CHECKS,), key=f"pair:{op}:{arg}", family="dtype", kind="op-input-dtype-mismatch",
        )



# MindSpore's GE kernel executor (ge_kernel_executor.cc, PrintQueryAclTypeErr) when no ACL, AI CPU or host kernel takes the
# node: "The current [<scope>] operator did not match any operator prototype library. The reason is:" then the reason by
# ErrorAclType. kInValidType: "The supported input and output data types for the current operator are:" with the
# InputDesc/OutputDesc lists: the operator exists on Ascend, not for these dtypes. kUnknownOp: "The current operator needs
# to be supplemented with an adapter": MindSpore has no Ascend adapter for the operator at all. The head sentence alone
# (the reason cut off, or the kernel selector's default branch in kernel_select_ascend.cc) names neither: not read.
MS_PROTOTYPE = lazy(r"The current \[(?:[\w./-]*/)?(?P<op>[A-Za-z]\w*?)(?:-op\d+)?\] operator did not match any operator prototype library")
MS_DTYPES = lazy(r"supported input and output data types for the current operator|InputDesc \[\d+\] support \{")
MS_ADAPTER = lazy(r"needs to be supplemented with an adapter")
MS_GE_EXECUTOR = ("https://github.com/mindspore-ai/mindspore/blob/a735c3cecec02fd176aa185cb4aa3c350f42347f/mindspore/ccsrc/plugin/"
                  "device/ascend/hal/hardware/ge_kernel_executor.cc")


class MindSporeOpPrototype(Analyzer):
    id = "DRV-ms-op-prototype"
    title = "MindSpore found no Ascend operator prototype for the node (its dtypes, or the operator)"
    family = "operator"
    stops_run = "the operator has no Ascend kernel for these inputs, so every run fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        m = MS_PROTOTYPE.search(link.message)
        if m is None:
            return None
        op = m.group("op")
        below = " ".join((link.message, *link.detail))
        if MS_ADAPTER.search(below):
            return Finding(
                f"MindSpore has no Ascend adapter for {op}",
                f"{link.short_type}: {m.group(0)}. MindSpore's GE kernel executor found no ACL, AI CPU or host kernel for {op} "
                "and says the operator needs an adapter: the installed MindSpore does not implement it on Ascend.",
                (f"Replace {op} with operators MindSpore lists as supported on Ascend, or run that part with device_target='CPU'",
                 "Upgrade MindSpore with its matching CANN to a release whose operator list has it on Ascend"),
                evidence(link), (MS_GE_EXECUTOR, MS_OPS), key=f"ms-prototype:{op}", family="operator", kind="op-not-supported-on-npu",
            )
        if not MS_DTYPES.search(below):
            return None  # the head alone ("… The reason is:" cut off): the reason under it says which class
        return Finding(
            f"{op} has no Ascend kernel for these input/output dtypes (MindSpore)",
            f"{link.short_type}: {m.group(0)}. MindSpore's GE kernel executor matched no kernel for {op}: the lines under it list "
            "the dtypes the operator supports on Ascend (InputDesc/OutputDesc [i] support {…}) and the ones this node has, which "
            "are not among them. The operator exists on Ascend; the dtypes the network feeds it (an int tensor where float is "
            "wanted, float64, a mixed pair) do not.",
            (f"Cast {op}'s inputs to a supported dtype before the call (ops.cast / Tensor.astype), as the support list under the "
             "error names; check the network's dtypes where that input is produced",
             "Or use another operator that supports these dtypes on Ascend (MindSpore's operator list gives the platforms of each)"),
            evidence(link), (MS_GE_EXECUTOR, MS_OPS), key=f"ms-prototype:{op}", family="operator",
            kind="op-dtype-unsupported-on-npu",
        )


# A framework's dispatcher found no kernel for an operator on the device the tensors are on. Each framework words it its
# own way, but the class is one: the operator (or this variant of it) has no NPU implementation in the installed build.
# - mmcv's C++ op registry (pytorch_device_registry.hpp): "nms_impl: implementation for device npu:0 not found." —
#   torch_npu's tensors report "npu:N", torch_npu 1.x's "xla:N".
# - PaddlePaddle's phi KernelFactory (kernel_factory.cc): "The kernel `sync_batch_norm` is not registered." (no kernel of
#   that name in this build for any device: a GPU-only kernel on the NPU plugin), or the keyed form for the npu/ascend
#   custom device. A keyed CPU / GPU miss is a dtype or build matter, not this class.
# - PyTorch's dispatcher (OperatorEntry::reportError): "Could not run 'aten::x' with arguments from the 'npu' backend."
#   — torch_npu renames PrivateUse1 to npu (older: 'PrivateUse1', torch_npu 1.x 'XLA'). The 'CPU' backend is another
#   class (an NPU-only op handed CPU tensors), and an Autograd* key a missing backward registration. A sparse, quantized
#   or nested tensor's key on the NPU ('Sparsenpu', 'SparsePrivateUse1') is the same class for that layout.
# - MindSpore's Ascend kernel selection (kernel_select_ascend.cc, CollectNotMatchMessage): "Can not find any available
#   kernel info for: Xxx. Maybe the operator is not supported on Ascend platform." — neither an AI Core nor an AI CPU
#   kernel exists for the operator. Its sibling "Can not select a valid kernel info for [X]" (kernels exist, not for
#   these dtypes / shapes) is an input matter, not this class.
NO_DEVICE_KERNEL = lazy(
    r"\b(?P<mop>\w+): implementation for device (?P<mdev>(?:npu|xla)(?::\d+)?) not found"
    r"|The kernel `(?P<pop>\w+)` is not registered\."
    r"|The kernel with key \((?P<pdev>npu|ascend|npu_\w+), [\w(), ]{0,80}?\) of kernel `(?P<pkop>\w+)` is not registered"
    r"|Could not run '(?P<top>[\w:.]+)' with arguments from the '(?P<tdev>(?:Sparse(?:Csr)?|Quantized|NestedTensor)?"
    r"(?:npu|NPU|PrivateUse1)|XLA)' backend"
    r"|Can not find any available kernel info for: (?P<msop>\w+)\. Maybe the operator is not supported on Ascend platform"
)
MS_KERNEL_SELECT = ("https://github.com/mindspore-ai/mindspore/blob/2b08f1dcba8a942102addb8c8bc08d9f24445eed/mindspore/ccsrc/plugin/"
                    "device/ascend/hal/device/kernel_select_ascend.cc")
MS_OPS = "https://www.mindspore.cn/docs/en/master/api_python/operator_list.html"
MMCV_REGISTRY = "https://github.com/open-mmlab/mmcv/blob/011ba9a1c946fc34ae0f7e28e6c5aabb4ab0a9f3/mmcv/ops/csrc/common/pytorch_device_registry.hpp"
MMCV_NPU = "https://mmcv.readthedocs.io/en/latest/get_started/build.html"
PADDLE_KERNELS = "https://github.com/PaddlePaddle/Paddle/blob/03bae73b2646d7f4ba98d2101fa68b2c20928dce/paddle/phi/core/kernel_factory.cc"
PADDLE_NPU = "https://github.com/PaddlePaddle/PaddleCustomDevice/tree/develop/backends/npu"
TORCH_DISPATCH = "https://github.com/pytorch/pytorch/blob/0046a72e189bb931f8932dc6c40780ef485cea4d/aten/src/ATen/core/dispatch/OperatorEntry.cpp"
TORCH_NPU_OPS = "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/README.md"


# PyTorch's dispatcher (OperatorEntry::reportError) for an operator only torch_npu registers (namespace npu::, or an npu_*
# name) called with tensors whose dispatch key is the CPU: "Could not run 'npu::npu_rms_norm' with arguments from the 'CPU'
# backend." The operator exists; its inputs were never moved to the NPU. (The 'Meta' backend is another matter: no meta
# implementation for tracing, torch.compile's fake tensors.)
NPU_OP_ON_CPU = lazy(r"Could not run '(?P<op>(?:npu|torch_npu)::\w+|[\w:]*\bnpu_\w+)' with arguments from the 'CPU' backend")


class NpuOpOnCpuTensors(Analyzer):
    id = "DRV-npu-op-cpu-tensors"
    title = "An NPU-only operator was called with tensors on the CPU"
    family = "operator"
    stops_run = "the operator has only an NPU kernel: every call with CPU tensors fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        m = next((m for t in (link.message, *link.detail) if (m := NPU_OP_ON_CPU.search(t))), None)
        if m is None:
            return None
        op = m.group("op")
        return Finding(
            f"{op} runs only on the NPU, and its inputs are CPU tensors",
            f"{link.type}: {link.message[:200]}. {op} is an operator torch_npu registers for the NPU alone; PyTorch's "
            "dispatcher picked the kernel by the inputs' device and found them on the CPU, where the "
            "operator has no kernel. The inputs were created or left on the CPU: a model or buffer never moved with "
            ".to('npu'), a tensor built without device=, a path that runs before torch_npu set the device, or a CPU-offloaded "
            "module reaching a fused NPU kernel.",
            (f"Move the inputs of {op} to the NPU (tensor.npu() / .to('npu:N'), model.to(device)) before the call, or create "
             "them there (torch.zeros(..., device='npu'))",
             "If the step is meant to run on the CPU (offload, a CPU reward model, a test), use the plain PyTorch operator "
             "instead of the fused NPU one there"),
            evidence(link), (TORCH_DISPATCH, TORCH_NPU_OPS), key=f"npu-op-cpu:{op}", family="operator",
            kind="npu-op-cpu-tensors",
        )


class OpNoDeviceKernel(Analyzer):
    id = "DRV-op-no-npu-kernel"
    title = "The operator has no kernel for the NPU in the installed framework"
    family = "operator"
    stops_run = "the operator has no NPU kernel, so every call to it fails the same way"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare"):
            return None
        m = next((m for t in (link.message, *link.detail) if (m := NO_DEVICE_KERNEL.search(t))), None)
        if m is None:
            return None
        if m.group("mop"):
            op, where = m.group("mop").removesuffix("_impl"), "mmcv"
            cause = (f"mmcv's C++ operator {op} dispatches on the device of its input tensors and has no implementation registered "
                     f"for {m.group('mdev')} (the NPU as torch_npu reports it): the installed mmcv was built without its NPU "
                     "operators, or this operator has no NPU version in that mmcv release.")
            fix = ("Install an mmcv built with its NPU operators (built from source with MMCV_WITH_OPS=1 FORCE_NPU=1 against the "
                   "installed torch / torch_npu / CANN), in a release whose NPU operator list has this operator",
                   f"Or keep {op} off the NPU: run it on CPU tensors (.cpu() before, .npu() after) or use a model config without it")
            sources = (MMCV_REGISTRY, MMCV_NPU)
        elif m.group("pop") or m.group("pkop"):
            op, where = m.group("pop") or m.group("pkop"), "PaddlePaddle"
            cause = (f"Paddle's kernel registry has no kernel `{op}` for the device the program runs on"
                     + (f" ({m.group('pdev')})" if m.group("pdev") else " (none of that name in this build at all: a kernel "
                        "only the GPU build has, such as sync_batch_norm, on the NPU plugin)")
                     + ". On Ascend, Paddle runs through the paddle-custom-npu plugin, which registers a kernel only for the "
                     "operators (and dtypes) it supports.")
            fix = (f"Use an operator the NPU plugin supports instead of {op} (for sync_batch_norm: plain batch_norm, as the model "
                   "suites' NPU configs do), or a supported dtype",
                   "Upgrade paddle-custom-npu (PaddleCustomDevice) to a release that adds the kernel, matched with the installed paddlepaddle")
            sources = (PADDLE_KERNELS, PADDLE_NPU)
        elif m.group("msop"):
            op, where = m.group("msop"), "MindSpore"
            cause = (f"MindSpore's Ascend kernel selection found neither an AI Core (TBE) nor an AI CPU kernel for {op}: the "
                     "operator has no implementation on Ascend in the installed MindSpore and CANN (an operator only the "
                     "GPU / CPU backends have, or one that a newer release adds).")
            fix = (f"Replace {op} with operators MindSpore lists as supported on Ascend (its operator list shows the platforms "
                   "of each), or run that part with device_target='CPU'",
                   "Upgrade MindSpore with its matching CANN to a release whose operator list has it on Ascend")
            sources = (MS_KERNEL_SELECT, MS_OPS)
        else:
            op, where = m.group("top"), "PyTorch"
            cause = (f"PyTorch's dispatcher found no kernel for {op} on the '{m.group('tdev')}' backend, the key torch_npu "
                     "registers its NPU kernels under: the installed torch_npu implements no NPU version of this operator "
                     "(or of this overload).")
            fix = ("Upgrade torch and torch_npu together to a release whose operator list has it (torch_npu's release notes "
                   "list the operators each release adds)",
                   f"Or compute {op} on CPU (move its inputs with .cpu(), and the result back with .npu()), or replace the "
                   "call with operators the NPU supports")
            sources = (TORCH_DISPATCH, TORCH_NPU_OPS)
        return Finding(
            f"{op} has no NPU kernel in the installed {where}", f"{link.short_type}: {m.group(0)[:200]}. {cause}", fix,
            evidence(link), sources, key=f"no-npu-kernel:{where}:{op}", family="operator", kind="op-not-supported-on-npu",
        )


# PyTorch's Python argument parser (torch/csrc/utils/python_arg_parser.cpp) checks a call of a C++-bound operator -- an
# aten function (torch.xxx, Tensor.xxx, F.linear) or an out-of-tree one such as torch_npu's npu_* -- against the operator's
# schema before anything runs, in its own words: FunctionParameter checks "%s(): argument '%s' (position %ld) must be %s,
# not %s" (keyword: "%s(): argument '%s' must be %s, not %s"; a list: "..., but found element of type %s at pos %ld");
# print_error's "%s() received an invalid combination of arguments - got (...), but expected one of:" (no overload fits);
# missing_args "%s() missing %d required positional argument(s): \"x\""; extra_args "%s() takes %d positional argument(s)
# but %d were given"; extra_kwargs "%s() got an unexpected keyword argument '%s'". The first two forms are the parser's
# alone; the last three read as Python's own and are taken only for torch_npu's npu_* operators, where they mean the
# caller was written against another torch_npu release's schema.
ARG_TYPE = lazy(r"\b(?P<op>\w+)\(\): argument '(?P<arg>\w+)' (?:\(position (?P<pos>\d+)\) )?must be (?P<want>[\w\[\]., ]+?),"
                r" (?:not (?P<got>[\w.]+)|but found element of type (?P<elem>[\w.]+) at pos \d+)")
ARG_COMBO = lazy(r"\b(?P<op>\w+)\(\) received an invalid combination of arguments - got \(")
# is_tensor_list's check of a tensor-list argument (torch.cat / torch.stack / torch.tensor_split ...): "expected Tensor
# as element %d in argument %d, but got %s" -- the op is not named; a list with a None (or a non-tensor) in it
ARG_LIST = lazy(r"\bexpected Tensor as element (?P<elem_at>\d+) in argument (?P<arg>\d+), but got (?P<got>[\w.]+)")
NPU_SIGNATURE = lazy(r"\b(?P<op>npu_\w+)\(\) (?:missing \d+ required positional arguments?: (?P<missing>.+)"
                     r"|got an unexpected keyword argument '(?P<kw>\w+)'"
                     r"|takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:was|were) given)")
ARG_PARSER = "https://github.com/pytorch/pytorch/blob/v2.5.1/torch/csrc/utils/python_arg_parser.cpp"
TORCH_NPU_API = "https://www.hiascend.com/document/detail/zh/Pytorch/730/apiref/torchnpuCustomsapi/context/overview.md"


class OpArgumentParser(Analyzer):
    id = "DRV-op-args"
    title = "PyTorch's argument parser refused an operator call (argument type or schema)"
    family = "operator"
    stops_run = "the call is refused before the operator runs, on every call"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare") or link.short_type != "TypeError":
            return None
        text = link.message
        typed = ARG_TYPE.search(text) or ARG_LIST.search(text)
        m = typed or ARG_COMBO.search(text) or NPU_SIGNATURE.search(text)
        if m is None:
            return None
        op = m.groupdict().get("op") or "a tensor-list operator (torch.cat / torch.stack)"
        said = text.split(", but expected one of")[0].strip()[:200]
        groups = m.groupdict()
        if typed is None and op.startswith("npu_"):
            # a torch_npu operator whose schema the caller did not match: another torch_npu release's signature
            return Finding(
                f"torch_npu's {op} was called with arguments its installed schema does not take"[:160],
                (f"{link.short_type}: {said}. PyTorch's argument parser checked the call against the schema the installed "
                 f"torch_npu registered for {op} and refused it before the operator ran. torch_npu's custom operators change "
                 "their signatures between releases (arguments added, renamed, made keyword-only or required, a list where a "
                 "tensor was), so a caller written for another release -- vllm-ascend, MindSpeed / MindSpeed-RL, "
                 "transformers' or a model's NPU patch, verl's NPU path -- passes what this torch_npu does not take. The "
                 "framework and the installed torch_npu (and the CANN it pairs with) are from different releases."),
                ("Install the torch_npu release the calling framework pins (its install page or requirements: vllm-ascend, "
                 "MindSpeed and verl's Ascend guide each name one; pip show torch_npu to see what is installed), or move "
                 "the framework to the release written for this torch_npu",
                 f"Compare the call with {op}'s signature in the installed release: python -c \"import torch, torch_npu; "
                 f"help(torch_npu.{op})\" and the torch_npu API page for that version"),
                evidence(link), (ARG_PARSER, TORCH_NPU_API), key=f"npu-sig:{op}", family="operator",
                kind="npu-op-signature-mismatch",
            )
        arg = groups.get("arg") or "an argument"
        if groups.get("elem_at") is not None:
            arg = f"element {groups['elem_at']} of its tensor list (argument {groups['arg']})"
        got = groups.get("got") or groups.get("elem") or ""
        want = (groups.get("want") or "").strip()
        listed = groups.get("elem_at") is not None
        if listed:
            why = (f"the list of tensors it was given holds a {got} at element {groups['elem_at']}: one of the pieces "
                   "being concatenated or stacked was never produced (a step or hook that returned None, an output a "
                   "model or feature left off, a batch field missing for some samples) or is a nested list")
        elif got == "NoneType":
            why = (f"the caller passed None for {arg}, which this operator requires: a tensor the model left unset (a norm "
                   "layer built without a weight -- elementwise_affine=False -- or without a bias, an optional mask or "
                   "scale that this code path needs, an output of a step that returned nothing)")
        elif got == "tuple" or got == "list":
            why = (f"the caller passed a {got} for {arg}: usually a module or function that returns a tuple (output, "
                   "extra) used as if it returned a tensor, after a library release changed what it returns")
        elif want:
            why = f"the caller passed {got or 'another type'} where the operator takes {want}"
        else:
            why = "no overload of the operator takes the argument types of this call (the message lists the ones it has)"
        return Finding(
            (f"A tensor-list operator (torch.cat / torch.stack) got a {got} in its list of tensors" if listed else
             f"{op}() refused the type of {arg}" + (f" ({got} where it takes {want})" if got and want else "")),
            (f"{link.short_type}: {said}. PyTorch's argument parser checked the call of {op} against the operator's "
             f"schema and refused it before anything ran: {why}. The frame above the error is the caller to change; when "
             "it is in a library (transformers, vllm-ascend, verl, a model's remote code) the library and the model or "
             "the other library it calls are from releases that do not go together."),
            (("Read the failing frame: find which piece of the list is None (print the types of what is concatenated) and "
              "why the step that should produce it returned nothing") if listed else
             f"Read the failing frame: give {op} the argument it names in the type it wants ({want or 'see the overloads listed'})"
             + (" -- build or load the missing tensor, or take the code path that does not need it" if got == "NoneType" else ""),
             "If the call is inside a library, install the versions that go together (the library's release notes or "
             "requirements name the torch / torch_npu / transformers versions it was written for)"),
            evidence(link), (ARG_PARSER,), key=f"args:{op}:{arg}", family="operator", kind="op-argument-type-mismatch",
        )


# vllm-ascend refusing a feature, model path or setting combination on the NPU: its raise sites (NotImplementedError,
# ValueError, RuntimeError, AssertionError) in vllm_ascend/ (ascend_config.py, platform.py, attention/,
# ops/, quantization/, worker/, _310p/ ...) word them "X is not supported for 310P", "... does not support ...",
# "X is only supported in graph mode / on A2 and A3", "X cannot be used with Y", "... not support ...". (A bare "not
# implemented" is an abstract method left unimplemented -- another release's subclass -- not a refusal: not read.)
# Many have an entry of their own (those win); this reads the rest as one class: the installed vllm-ascend has no NPU
# path for what the engine was asked to do, and the message names it.
VA_REFUSAL = lazy(r"(?i)\b(?:is |are )?not (?:yet |currently )?supported\b|\bdo(?:es)?(?: not|n't) (?:yet )?support\b"
                  r"|\bnot support\b|\bunsupported\b|\b(?:is |are )?only support(?:s|ed)?\b|\bcannot be used with\b"
                  r"|\bcan only be (?:used|enabled)\b")
VA_FRAME = lazy(r"[/\\]vllm_ascend[/\\]")
VA_WORDS = lazy(r"(?i)\bvllm[-_]ascend\b|\bAscend\w*|\bNPU\b|\b310P\b|\bAtlas\b|\btorchair\b|\bACL ?graph\b")
VA_TYPES = ("NotImplementedError", "ValueError", "RuntimeError", "AssertionError")
# Python's and torch's own words that contain the same phrases but report a bug in the code, not a refusal
VA_NOT_REFUSAL = lazy(r"(?i)unsupported operand type|not supported between instances of|unsupported format"
                      r"|object does not support|does not support (?:item assignment|indexing|the buffer)"
                      r"|not supported for (?:the )?input types|Unsupported function referenced")
VA_SOURCE = "https://github.com/vllm-project/vllm-ascend/blob/182b75ea84ff13ece27b57391331ef8935410aea/vllm_ascend/ascend_config.py"
VA_MATRIX = "https://docs.vllm.ai/projects/ascend/en/latest/user_guide/support_matrix/supported_features.html"


class VllmAscendRefusal(Analyzer):
    id = "DRV-vllm-ascend-refusal"
    title = "vllm-ascend refused a feature or setting it has no NPU path for"
    family = "verl-config"
    stops_run = "the engine refuses the same request at every start"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind not in ("python", "remote", "bare") or link.short_type not in VA_TYPES:
            return None
        said = link.message.strip()
        if len(said) < 12 or not VA_REFUSAL.search(said) or VA_NOT_REFUSAL.search(said):
            return None
        raised_here = bool(link.frames) and bool(VA_FRAME.search(link.frames[-1].path))
        if not raised_here and not (any(VA_FRAME.search(f.path) for f in link.frames) and VA_WORDS.search(said)):
            return None
        where = link.frames[-1].path.replace("\\", "/").split("vllm_ascend/")[-1] if link.frames else ""
        return Finding(
            f"vllm-ascend refused: {said}"[:160],
            (f"{link.short_type}: {said[:240]} -- raised by vllm-ascend ({'vllm_ascend/' + where if where else 'its own code'}) "
             "while the engine was being set up or ran. vllm-ascend checks the requested model path, feature and settings "
             "against what its NPU implementation covers and refuses combinations it has no path for: a feature on a chip "
             "it is not written for (310P / Atlas 300I, A2 vs A3 vs A5), a graph mode, parallelism, quantization or "
             "speculative-decoding option combined with one it excludes, a model architecture or attention variant the "
             "NPU backend does not implement. The message names what it refused; the configuration (verl's rollout "
             "engine kwargs, vllm serve flags, additional_config) asked for it."),
            ("Turn off or change what the message names: the additional_config / engine option, the graph mode "
             "(enforce_eager=True; verl actor_rollout_ref.rollout.enforce_eager=True), the parallel or quantization "
             "setting -- verl passes these through actor_rollout_ref.rollout.* and engine_kwargs.vllm",
             "Check vllm-ascend's feature support matrix for the installed release and chip; where a newer release "
             "adds it, upgrade vllm-ascend together with the vLLM (and torch_npu / CANN) it pairs with"),
            evidence(link), (VA_SOURCE, VA_MATRIX), key=f"va-refusal:{where}:{said[:60]}", family="verl-config",
            kind="vllm-ascend-feature-unsupported",
        )
