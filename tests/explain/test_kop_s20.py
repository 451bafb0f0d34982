"""Operator failures of runtimes on the same CANN stack that no entry named (session 20, kop).

- ARL-E1560: ggml's CANN backend has no kernel for a graph node's operator (only the CANN backend's function name).
- ARL-E1561: onnxruntime's CANN EP could not compile-and-execute a single operator (aclopCompileAndExecute).
- ARL-E1562: vllm-ascend refuses a model feature on 310P (MLA, sparse attention, KV transfer, attention state, pooling).
- ARL-E1563: CANN's graph engine could not parse / build the graph (onnxruntime CANN EP graph mode, OpenCV DNN CANN).
- ARL-E501 (widened): the 310P quantization scheme registry's refusal of a quant type.
- ARL-E1564: vLLM's NPU platform refuses the checkpoint's quantization method (awq, gptq, fp8, mxfp4 …).
"""

from __future__ import annotations

import pytest

from conftest import top_of


@pytest.mark.parametrize("text, entry_id", [
    # the newer GGML_LOG_ERROR form from llama.cpp / whisper.cpp, another operator and node name
    ("ggml_backend_cann_graph_compute: error: op not supported node_12 (SSM_CONV)", "ARL-E1560"),
    ("ggml_backend_cann_graph_compute: error: op not supported ffn_moe_gate-0 (MUL_MAT_ID)", "ARL-E1560"),
    # CannCall's line with the other ACL code, and the executor's status alone
    ("2023-12-13 20:11:34.351330063 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANN failure 500001: ACL_ERROR_FAILURE ; "
     "NPU=0 ; hostname=ecs-b520 ; expr=aclopCompileAndExecute(opname.c_str(), prepare.inputDesc_.size(), Stream(ctx));",
     "ARL-E1561"),
    ("onnxruntime.capi.onnxruntime_pybind11_state.Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while "
     "running Conv node. Name:'/features/features.0/features.0.0/Conv' Status Message: CANN error executing "
     "aclopCompileAndExecute(opname.c_str(), prepare.inputDesc_.size(), NULL, Stream(ctx))", "ARL-E1561"),
    ("ValueError: MLAAttention is not supported for 310P.", "ARL-E1562"),
    ("ValueError: KV cache transfer is not supported for 310P.", "ARL-E1562"),
    ("RuntimeError: MLA is not supported on 310P currently.", "ARL-E1562"),
    ("NotImplementedError: AscendAttentionState: AscendAttentionState.SpecDecoding is not supported for 310P currently.",
     "ARL-E1562"),
    ("2024-05-09 07:05:28.107324198 [E:onnxruntime:Default, cann_call.cc:139 CannCall] CANNGRAPH failure -1: GRAPH_FAILED ; "
     "NPU=0 ; hostname=d5624f2a4431 ; expr=ge::aclgrphBuildModel(graph, options, model);", "ARL-E1563"),
    ("[ERROR:0@22.642] global net_cann.cpp:291 compileCannGraph CANN graph check failed, ret = 1343266818", "ARL-E1563"),
    ("NotImplementedError: Unsupported quant_type=W4A4_DYNAMIC for layer_type=linear.", "ARL-E501"),
    # vLLM's platform check, raised plainly and inside newer vLLM's pydantic ValidationError
    ("ValueError: awq quantization is currently not supported in npu.", "ARL-E1564"),
    ("pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n  Value error, mxfp4 quantization "
     "is currently not supported in npu. [type=value_error, input_value=ArgsKwargs((), {}), input_type=ArgsKwargs]", "ARL-E1564"),
])
def test_each_form_names_its_class(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text + "\n")
    assert top == entry_id, seen


@pytest.mark.parametrize("text, entry_id", [
    # the same ggml template from the CUDA / OpenCL backends is not the NPU
    ("ggml_backend_cuda_graph_compute: error: op not supported node_12 (SSM_CONV)", "ARL-E1560"),
    ("ggml_backend_opencl_graph_compute: error: op not supported node_185 (GROUP_NORM)", "ARL-E1560"),
    # CannCall on a runtime call (a stream synchronize) is not an operator compile
    ("CANN failure 507013: (look for ACL_ERROR_xxx in acl.h) ; NPU=0 ; hostname=davinci-mini ; "
     "expr=aclrtSynchronizeStream(GetStream(kCannStreamDefault));", "ARL-E1561"),
    # OpenCV's plain ACL check (loadToDevice) is not the graph build
    ("[ERROR:0@12.013] global op_cann.cpp:258 loadToDevice CANN check failed, ret = 100000", "ARL-E1563"),
    # the same platform check on ROCm is a GPU matter
    ("ValueError: gptq_bitblas quantization is currently not supported in rocm.", "ARL-E1564"),
])
def test_neighbours_are_not_these_classes(explain_text, text, entry_id):
    top, seen = top_of(explain_text, text + "\n")
    assert top != entry_id, seen
