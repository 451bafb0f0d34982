"""opbase's "Io input dtype or format … not support(ed)" support-list refusal in both its wordings (stop 19, lead).

nnopbase's NnopbasePrintSupportInfo logs "Io input dtype or format is not supported, get io input info is … but supported
list is:" (hicann/opbase src/nnopbase/individual_op/executor/indv_executor.cpp); older releases printed "… not support,
get io input info is …" with [NNOP] heads (a dev log, thu-pacman/chitu#102). A bf16 activation beside int4 / int8 weights
and a uint8 scale is a quantized kernel's dtype combination, not a device without bf16.
"""

from __future__ import annotations

OLD = ("[ERROR] OP(30567,python3.10):2025-08-13-02:23:08.912.908 [nnopbase_executor.cpp:1006][NNOP][NnopbasePrintSupportInfo]"
       "[30567] errno[161002] OpName:[GroupedSoftGemv_0] Io input dtype or format not support, get io input info is "
       "x(DT_BFLOAT16, ND) weight(DT_INT4, ND) scale(DT_UINT8, ND) groupList(DT_INT64, ND) y(DT_BFLOAT16, ND)\n")
NEW = ("AclNN_Parameter_Error(EZ1001): Io input dtype or format is not supported, get io input info is x(DT_BFLOAT16, ND) "
       "gamma(DT_BFLOAT16, ND) yOut(DT_BFLOAT16, ND) rstdOut(DT_FLOAT, ND) but supported list is:\n")


def test_the_older_wording_is_the_operators_refusal_not_an_unexplained_error(explain_text):
    result, top = explain_text(OLD)
    assert result.unknown is None and top is not None and top.entry.id == "DRV-op-params"
    assert top.kind == "aclnn-param-unsupported"  # int4 weight and uint8 scale beside bf16: not the no-bf16 device reading


def test_bf16_alone_is_still_the_device_without_bf16(explain_text):
    _, top = explain_text(NEW)
    assert top is not None and top.kind == "bf16-unsupported-on-device"


def test_a_sentence_about_the_support_list_is_not_the_refusal(explain_text):
    result, top = explain_text("The support list of GroupedSoftGemv gained DT_BFLOAT16 scale in CANN 8.3.\n")
    assert top is None or top.entry.id != "DRV-op-params"
