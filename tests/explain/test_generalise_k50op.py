"""Readings added by helper k50op (2026-12-06, second wave) while probing public threads of operator, CANN / torch_npu
error-code, dtype and graph-mode failures for classes explain did not name. Each test input is a short excerpt around
the exact emitted message; each class also has a near miss (similar words, another failure).

- Ranking (catalog field ``narrows``, catalog/analyzers/__init__.py ``_narrowed``): an entry naming a link that wraps a
  deeper link an analyzer read as a broader class (vllm-ascend's acl_graph.py re-raising the runtime's EE9999 /
  AclmdlRICaptureBegin capture failure with its own diagnosis) ranks first, the finding becomes its notes. Before, the
  EE9999 reading (DRV-code aclgraph-capture-failed) ranked over ARL-E4841 (old HDK) and ARL-E212 (streams exhausted).
- ARL-E5040: vllm-ascend's FA3 backend of RL training-inference consistency (rl_config.enable_training_consistency)
  refusing MLA / SFA models, sliding-window layers, FULL_DECODE_ONLY graphs, or a flash_attn_npu_v3 without
  flash_attn_with_kvcache (platform.py _validate_fa3_backend, attention/fa3_v1.py).
- ARL-E5041: vllm-ascend's MC2 hierarchical communication (enable_mc2_hierarchy_comm) on a torch_npu / CANN without
  npu_moe_distribute_dispatch_v2 (ops/fused_moe/token_dispatcher.py).
- ARL-E5042: PyTorch FlexAttention called on NPU tensors (flex_attention.py _validate_device, three releases'
  device lists).
- ARL-E5043: vLLM / vllm-ascend refusing a piecewise cudagraph_mode with compilation off ("Compilation mode should be
  CompilationMode.VLLM_COMPILE" / older "Compilation level should be CompilationLevel.PIECEWISE").
- catalog/codes/acl.yaml: the runtime codes 107039-107044 (aclError table of hicann/runtime); 107041
  ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC joins CAPTURE_CODES (a synchronize refused inside ACL graph capture).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

_P = "(EngineCore pid=4127) ERROR 07-21 10:02:13 [core.py:1107] "
_CAPTURE_REPORT = (
    _P + "Original error:\n"
    + _P + "capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:214 NPU function error: "
    "c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is {code}\n"
    + _P + "[ERROR] 2025-07-21-10:02:13 (PID:4127, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
    + _P + "EE9999: Inner Error!\n"
    + _P + "EE9999: [PID: 4127] 2025-07-21-10:02:13.123.456 [SqCqManage]Alloc sq cq fail, stream_id=1025, "
    "retCode=0x7020010.[FUNC:AllocStreamSqCq][FILE:stream_sqcq_manage.cc][LINE:95]\n"
    + _P + "        TraceBack (most recent call last):\n"
    + _P + "        rtStreamCreate execute failed, reason=[driver error:out of resource][FUNC:FuncErrorReason]"
    "[FILE:error_message_manage.cc][LINE:53]\n"
    "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {{}}\n"
)


def _wrapped(message: str, code: str = "207005") -> str:
    return (_P + "Traceback (most recent call last):\n"
            + _P + '  File "/vllm-workspace/vllm-ascend/vllm_ascend/compilation/acl_graph.py", line 205, in __call__\n'
            + _P + "    raise RuntimeError(\n"
            + _P + "RuntimeError: " + message + "\n" + _CAPTURE_REPORT.format(code=code))


# ranking: narrows ----------------------------------------------------------------------------------------------------

def test_old_hdk_wrapper_outranks_the_ee9999_capture_reading():
    text = _wrapped("ACL graph capture failed with an old Ascend HDK/CANN stack signature (`Alloc sq cq fail`). Please "
                    "upgrade Ascend HDK to 25.5.1 or later and use the matching CANN stack.")
    top = _top(text)
    assert top is not None and top.entry.id == "ARL-E4841"


def test_stream_exhaustion_wrapper_outranks_the_ee9999_capture_reading():
    text = _wrapped("ACL graph capture failed with a known stream-resource exhaustion signature. Consider reducing "
                    "cudagraph_capture_sizes.", code="207008")
    assert _id(text) == "ARL-E212"


def test_the_raw_capture_report_without_a_wrapper_stays_derived():
    # near miss: no framework diagnosis wraps the runtime's report: the analyzer's reading stays the answer
    text = _CAPTURE_REPORT.format(code="207005")
    assert _id(text) not in (None, "ARL-E4841")


def test_narrows_is_read_from_the_yaml_and_kept_by_the_cache():
    from ascendrl.catalog.entries import _from_data, _to_data

    e4841 = CATALOG.by_id("ARL-E4841")
    assert "aclgraph-capture-failed" in e4841.narrows
    again, _ = _from_data(_to_data(([e4841], [])))
    assert again[0] == e4841


# ARL-E5040 ---------------------------------------------------------------------------------------------------------

def test_fa3_consistency_backend_refusals_are_e5040():
    for text in (
        "ValueError: FA3 backend does not support MLA and SFA.\n",
        "(WorkerDict pid=21344) ValueError: AscendFAImpl does not support sliding window attention. Please disable "
        "sliding window or use the default FIA backend.\n",
        "ValueError: AscendFAImpl does not support ACL graph capture with FULL_DECODE_ONLY mode. Please set "
        "enforce_eager=True or not set FULL_DECODE_ONLY or use the default FIA backend.\n",
        "ValueError: flash_attn_npu_v3 is installed but does not provide flash_attn_with_kvcache. Please check "
        "flash_attn_npu_v3 whether it supports flash_attn_with_kvcache.\n",
    ):
        assert _id(text) == "ARL-E5040", text


def test_fa3_package_missing_is_not_e5040():
    # near miss: the package itself is absent (a missing dependency, read by DRV-package), not a refused model
    text = ("ValueError: flash_attn_npu_v3 is not installed but FA3 backend is requested. Please install "
            "flash_attn_npu_v3 to enable FA3.\n")
    assert _id(text) != "ARL-E5040"


# ARL-E5041 ---------------------------------------------------------------------------------------------------------

def test_mc2_hierarchy_comm_on_old_pta_is_e5041():
    text = ("(Worker_TP0_EP0 pid=9128) ERROR 04-02 11:20:44 [multiproc_executor.py:671] RuntimeError: PTA and CANN "
            "version is too old to support mc2 hierarchy comm, please upgrade your version.\n")
    assert _id(text) == "ARL-E5041"


def test_other_old_cann_refusal_is_not_e5041():
    # near miss: another "too old" refusal (CANN for a fused op), not the MC2 hierarchy mode
    text = "RuntimeError: CANN version is too old to support npu_moe_distribute_dispatch, please upgrade CANN.\n"
    assert _id(text) != "ARL-E5041"


# ARL-E5042 ---------------------------------------------------------------------------------------------------------

def test_flex_attention_on_npu_is_e5042():
    for text in (
        "ValueError: FlexAttention is only supported on CUDA or CPU devices. Found input tensors on npu device.\n",
        "[rank0]: ValueError: FlexAttention is only supported on CUDA, CPU or HPU devices. Found input tensors on npu device.\n",
        "ValueError: FlexAttention is only supported on CUDA, CPU, HPU, or MPS devices. Found input tensors on npu device.\n",
    ):
        assert _id(text) == "ARL-E5042", text


def test_flex_attention_backward_on_cpu_is_not_e5042():
    # near miss: FlexAttention's other device check (backward on CPU), a tensor left on the CPU rather than an NPU run
    text = ("NotImplementedError: FlexAttention does not support backward on CPU. Please set the input requires_grad to "
            "False or use another device.\n")
    assert _id(text) != "ARL-E5042"


# ARL-E5043 ---------------------------------------------------------------------------------------------------------

def test_piecewise_graphs_without_compile_is_e5043():
    for text in (
        # vllm-ascend's copy (a tuple, the %s left in)
        "AssertionError: ('Compilation mode should be CompilationMode.VLLM_COMPILE when cudagraph_mode piecewise "
        "cudagraphs is used, cudagraph_mode=%s', <CUDAGraphMode.PIECEWISE: 1>)\n",
        # upstream vLLM 0.11.1+
        "AssertionError: Compilation mode should be CompilationMode.VLLM_COMPILE when cudagraph_mode piecewise "
        "cudagraphs is used, cudagraph_mode=FULL_AND_PIECEWISE\n",
        # vLLM 0.10.x
        "AssertionError: Compilation level should be CompilationLevel.PIECEWISE when cudagraph_mode piecewise "
        "cudagraphs is used, cudagraph_mode=PIECEWISE\n",
    ):
        assert _id(text) == "ARL-E5043", text


def test_capture_sizes_not_multiple_of_tp_is_not_e5043():
    # near miss: another graph-mode config refusal of vllm-ascend (ARL-E4843)
    text = ("AssertionError: cudagraph_capture_sizes [1, 2, 4] does not containvalues that are multiples of tp_size 8\n")
    assert _id(text) != "ARL-E5043"


# ACL codes 107039-107044 -------------------------------------------------------------------------------------------

def test_new_acl_runtime_codes_decode():
    from ascendrl.catalog.codes import CAPTURE_CODES, decode

    for code, name in (("107039", "ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY"), ("107040", "ACL_ERROR_RT_MODEL_UPDATE_FAILED"),
                       ("107041", "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC"), ("107042", "ACL_ERROR_RT_SYMBOL_NOT_FOUND"),
                       ("107043", "ACL_ERROR_RT_INVALID_SYMBOL"), ("107044", "ACL_ERROR_RT_INVALID_DEVICE_FUNCTION")):
        info = decode(code)
        assert info is not None and info.name == name, code
    assert "107041" in CAPTURE_CODES and "107040" not in CAPTURE_CODES


def test_capture_mode_block_async_reads_as_a_refused_capture():
    text = ("RuntimeError: ACL stream synchronize failed, error code:107041\n"
            "[ERROR] 2026-05-02-10:11:12 (PID:4127, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n")
    top = _top(text)
    assert top is not None and top.kind == "aclgraph-capture-failed"


def test_a_plain_task_timeout_is_not_a_refused_capture():
    # near miss: the synchronize's own time-out (107020), no capture involved
    text = ("RuntimeError: ACL stream synchronize failed, error code:107020\n"
            "[ERROR] 2026-05-02-10:11:12 (PID:4127, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n")
    top = _top(text)
    assert top is None or top.kind != "aclgraph-capture-failed"
