"""vllm-ascend's own refusals (helper sweepva, 2026-12-05): each wording that vllm-ascend's releases raise, assert or log
for a setting, an environment variable, a model / quantisation / parallel combination or the host, read as its entry.
Messages are formatted as the source formats them (the release and file in the comment), with plausible values in
the format fields; every wording a check used across releases is listed, so a rewording an entry missed fails here.
"""

from __future__ import annotations

import pytest
from kdata_helpers import classify

from ascendrl.catalog import load_catalog

CATALOG = load_catalog()


def _top(text: str):
    diagnoses = classify(CATALOG, text).diagnoses
    return diagnoses[0] if diagnoses else None


def _raised(exc_type: str, message: str) -> str:
    return ("Traceback (most recent call last):\n"
            '  File "/home/user/run.py", line 12, in <module>\n'
            "    llm = LLM(model=model_path)\n"
            f"{exc_type}: {message}\n")


RAISED = [
    # ascend_config.py TorchairGraphConfig, v0.9.1-v0.11.0
    ("RuntimeError", "use_cached_graph is valid only when Torchair graph mode is enabled", "ARL-E3050"),
    ("RuntimeError", "mode is valid only when Torchair graph mode is enabled", "ARL-E3050"),
    ("RuntimeError", "enable_kv_nz is valid only when Torchair graph mode is enabled", "ARL-E3050"),
    ("RuntimeError", "use_cached_kv_cache_bytes is valid only when Torchair graph mode and use_cached_graph are enabled", "ARL-E3050"),
    ("RuntimeError", "enable_super_kernel is valid only when Torchair graph mode and enable_multistream_moe is enabled", "ARL-E3050"),
    ("RuntimeError", "enable_super_kernel is valid only when tensor_parallel_size is 1", "ARL-E3050"),
    ("RuntimeError", "enable_super_kernel is valid only when multistream_overlap_shared_expert is enabled", "ARL-E3050"),
    ("TypeError", "graph_batch_sizes must be list[int]", "ARL-E3050"),
    ("ValueError", "graph_batch_sizes_init is only valid when graph_batch_sizes is empty", "ARL-E3050"),
    # check_ascend_config v0.9.1 / v0.11.0; torchair_attention.py v0.10.2rc1-v0.11.0
    ("NotImplementedError", "Torchair graph mode only works with deepseek model.", "ARL-E3051"),
    ("NotImplementedError", "Torchair graph mode only works with following model types:['deepseek', 'pangu'].", "ARL-E3051"),
    ("NotImplementedError", "Torchair graph mode with non-MLA attention backend is still experimental.v1 scheduler(chunked "
     "prefill) is not supported at this moment. Pleasesetting 'ascend_scheduler_config':{'enabled':true} in "
     "additional_configto use ascend scheduler.", "ARL-E3051"),
    ("RuntimeError", "Can't enable graph mode and eager mode at the same time. Please set `enforce_eager=False` if you "
     "attempt to enable NPU graph mode.", "ARL-E3052"),
    ("ValueError", "vLLM Ascend does not support V0 engine.", "ARL-E3053"),
    ("NotImplementedError", "Ascend scheduler is only supported for V1 Engine.", "ARL-E3053"),
    # schedule_config.py, v0.7.3 ("modles") to v0.11.0
    ("NotImplementedError", "currently AscendScheduler only supports LLM modles.", "ARL-E3054"),
    ("NotImplementedError", "currently AscendScheduler only supports LLM models.", "ARL-E3054"),
    ("NotImplementedError", "currently AscendScheduler doesn't support multi-step.", "ARL-E3054"),
    ("NotImplementedError", "currently AscendScheduler doesn't support scheduler_delay_factor.", "ARL-E3054"),
    ("ValueError", "LoRA model is not supported on NPU now.", "ARL-E3056"),
    ("RuntimeError", "PromptAdapter is not supported on NPU now.", "ARL-E3056"),
    ("NotImplementedError", "Prompt Adapter is not implemented for NPU backend currently.", "ARL-E3056"),
    ("NotImplementedError", "eagle method for spec decode doesn't work on vllm-ascend currently", "ARL-E3057"),
    ("NotImplementedError", "Eagle Is Not Supported Yet.", "ARL-E3057"),
    ("AssertionError", "Currently, only ngram spec decode is supported in V1.", "ARL-E3057"),
    ("ValueError", "Speculative tokens > 2 are not supported yet.", "ARL-E3057"),
    ("ValueError", "The current weight does not support moe part tp>16.", "ARL-E3059"),
    ("ValueError", "Tensor parallel size 16 is greater than the number of experts 8.", "ARL-E3060"),
    ("ValueError", "expert_num // ep_size is 0, which leads to division by zero in ep_rank calculation. Ensure "
     "expert_num >= ep_size.", "ARL-E3060"),
    # cpu_binding.py v0.9.1-v0.13.0, v0.18.0, v0.23.0+
    ("RuntimeError", "Cpu num in numa 0 to assign 12 for every device is not enough, please decrease the value of "
     "CPU_BINDING_NUM!", "ARL-E3061"),
    ("ValueError", "CPU_BINDING_NUM should not be less than 0.", "ARL-E3061"),
    ("RuntimeError", "Insufficient CPUs for binding with IRQ/ACL/REL reservations: total_allowed=16, total_npus=8, "
     "min_per_npu=2 (<5). Need at least 40 CPUs in cpuset.", "ARL-E3061"),
    ("RuntimeError", "Insufficient CPUs for binding with CPU role reservations: total_allowed=16, total_npus=8, "
     "min_per_npu=2 (<5). Need at least 40 CPUs in cpuset.", "ARL-E3061"),
    ("Exception", "lscpu command output error, please check !", "ARL-E3061"),
    ("RuntimeError", "lscpu command output error, no NUMA node available. Please check!", "ARL-E3061"),
    ("RuntimeError", "Failed to get correct chip_logic_id from command 'npu-smi info -m'.", "ARL-E3061"),
    ("RuntimeError", "Failed to resolve chip_logic_id because the process table does not contain chip_id and NPU 3 "
     "has 2 mapped chips.", "ARL-E3061"),
    ("ValueError", 'Can not enable dynamic_eplb when not export DYNAMIC_EPLB="true".', "ARL-E3062"),
    ("ValueError", 'Can not enable expert_map_record_path when not export EXPERT_MAP_RECORD="true".', "ARL-E3062"),
    ("AssertionError", "The environment variable DYNAMIC_EPLB or EXPERT_MAP_RECORD of the ePLB must be set to true.",
     "ARL-E3062"),
    ("ValueError", "Eplb supports only w8a8_dynamic quantization.", "ARL-E3063"),
    ("RuntimeError", "EPLB not support w4a8_dynamic", "ARL-E3063"),
    ("RuntimeError", "Xlite graph mode is not compatible with speculative decoding. Please disable speculative "
     "decoding.", "ARL-E3064"),
    ("RuntimeError", "Xlite graph mode is only compatible with block_size of 128. Please set block_size to 128.",
     "ARL-E3064"),
    ("AssertionError", "Flash Comm v1 (Sequence Parallelism) is only supported when tp_size > 1.", "ARL-E3065"),
    ("AssertionError", "Flash Comm v1 (Sequence Parallelism) requires enable_expert_parallel=True for MoE models.",
     "ARL-E3065"),
    ("AssertionError", "Flash Comm v1 requires enable_expert_parallel=True for MoE models.", "ARL-E3065"),
    ("RuntimeError", "MXFP8 MoE quantization is only supported on Ascend A5.", "ARL-E3068"),
    ("RuntimeError", "MSMONITOR_USE_DAEMON and torch profiler cannot be both enabled at the same time.", "ARL-E3069"),
    ("ValueError", "In the MTP fullgraph scenario, each graph size must be an integer multiple of "
     "(num_speculative_tokens + 1): 3. Please modify the cudagraph_capture_sizes variable to be integer multiple of 3, "
     "while ensuring the maximum cudagraph_capture_sizes does not exceed max_num_seqs * (num_speculative_tokens + 1): "
     "48.", "ARL-E3070"),
    ("AssertionError", "When enabling piecewise aclgraph, please make sure compilation_config.level == "
     "CompilationLevel.PIECEWISE and compilation_config.cudagraph_mode == CUDAGraphMode.PIECEWISE", "ARL-E3071"),
    ("AssertionError", "When enabling VLLM_COMPILE aclgraph, please make sure compilation_config.mode == "
     "CompilationMode.VLLM_COMPILE and compilation_config.cudagraph_mode == CUDAGraphMode.VLLM_COMPILE", "ARL-E3071"),
    ("AssertionError", "Only support P node tp size lagger then D node tp size", "ARL-E3072"),
    ("AssertionError", "lmhead_tensor_parallel_size is only supported in the pure DP scenario", "ARL-E3073"),
    ("AssertionError", "oproj_tensor_parallel_size is only supported in graph mode", "ARL-E3073"),
    ("RuntimeError", "enable_kv_nz is only supported for mla currently.", "ARL-E3073"),
    ("NotImplementedError", "enable_kv_nz is only supported in pd scenario and can only be used in D node.", "ARL-E3073"),
    ("AssertionError", "module tp sizes must divide data_parallel_size", "ARL-E3073"),
    ("ValueError", "HCCL only supports Ascend NPU backends.", "ARL-E3076"),
    ("ValueError", "Unsupported activation: gelu_new. Only silu is supported for now.", "ARL-E3077"),
    # widened: the sleep-mode build flag (v0.10.2rc1-v0.11.0) and FlashComm for omni models (v0.13.0)
    ("ValueError", "Sleep mode is not enabled. Please compile vllm-ascend with COMPILE_CUSTOM_KERNELS=1.", "ARL-E233"),
    ("AssertionError", "Currently, Omni models do not support FLASHCOMM in vllm-ascend.We will fix this in the future. "
     "Please set VLLM_ASCEND_ENABLE_FLASHCOMM1=0.", "ARL-E512"),
]


@pytest.mark.parametrize("exc_type,message,expected", RAISED)
def test_vllm_ascend_refusal_is_read_as_its_entry(exc_type, message, expected):
    top = _top(_raised(exc_type, message))
    assert top is not None and top.entry.id == expected
    assert top.fatal


def test_hccl_library_log_wordings_across_releases():
    # pyhccl_wrapper.py logs the failure before re-raising the loader's OSError: v0.8.5rc1-v0.18.0 and v0.23.0+ wordings
    old = ("ERROR 12-05 10:02:40 [pyhccl_wrapper.py:181] Failed to load HCCL library from libhccl.so. It is expected if "
           "you are not running on Ascend NPUs.Otherwise, the hccl library might not exist, be corrupted or it does not "
           "support the current platform Linux-5.10.0-aarch64. If you already have the library, please set the "
           "environment variable HCCL_SO_PATH to point to the correct hccl library path.\n")
    new = ("ERROR 12-05 10:02:40 [pyhccl_wrapper.py:186] Failed to load HCCL library. so_file=libhccl.so, "
           "error=libhccl.so: cannot open shared object file: No such file or directory. The hccl library might not "
           "exist, be corrupted or it does not support the current platform Linux-5.10.0-aarch64. If you already have "
           "the library, please set the environment variable HCCL_SO_PATH to point to the correct hccl library path.\n")
    for line in (old, new):
        top = _top(line + _raised("OSError", "libhccl.so: cannot open shared object file: No such file or directory"))
        assert top is not None and top.entry.id == "ARL-E3076"


def test_logged_only_checks_are_findings_not_fatal():
    # logger.error only: the run goes on (the 0.8.x V1 worker's sleep(), the torchair MC2 capacity on A3)
    for line, expected in (("ERROR 12-05 10:02:40 [worker_v1.py:93] Sleep mode is only supported on v0\n", "ARL-E3055"),
                           ("ERROR 12-05 10:02:40 [torchair_model_runner.py:112] A3: the max number of tokens must "
                            "smaller then 512, but now is 1024\n", "ARL-E3079")):
        top = _top(line)
        assert top is not None and top.entry.id == expected and not top.fatal


def test_neighbouring_vllm_ascend_messages_are_not_taken():
    # the ACL-graph refusal for DeepSeek (its own entry) and an unrelated torchair batch-size error stay outside these
    top = _top(_raised("NotImplementedError", "ACL Graph does not support deepseek. Please try torchair graph mode to "
                       "serve deepseek models on vllm-ascend. Or set `enforce_eager=True` to use eager mode."))
    assert top is not None and top.entry.id == "ARL-E500"
    top = _top(_raised("ValueError", "Bad graph batch size:80! max_graph_batch_sizes:64"))
    assert top is None or top.entry.id not in {f"ARL-E{n}" for n in range(3050, 3082)}
