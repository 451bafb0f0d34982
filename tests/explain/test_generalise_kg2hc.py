"""Readings added by helper kg2hc (2026-12-06, fifth wave) from the torch_npu / PyTorch, HCCL and vLLM entries of the
MindCluster fault knowledge base (Ascend/mind-cluster kg-config.json, kg codes in brackets), with the wording checked in
the emitting project's source. Each class has its wordings and a near miss that must not give it.

- ARL-E320 widened, ARL-E321 narrowed (AISW_CANN_HCCL_005): HCCL's "[Get][Connection]topo exchange agent get socket
  timeout" is a non-root rank that never got a connection to the root rank (TopoInfoExchangeAgent::GetConnection),
  the root-info connect timeout, not by itself a wrong host NIC.
- ARL-E374 widened (AISW_CANN_HCCL_012): HCCL's environment-variable refusals as alg_env_config.cc logs them ("parse
  intra comm type failed", "parse hccl algorithm config failed", "In init environment param, parse HCCL_DFS_CONFIG
  failed") and hcomm's configuration reader ('Env config "HCCL_X" value "v" is invalid.', "Invalid env config, [...]
  contains non-digit char").
- ARL-E5440 (AISW_PyTorch_Model_02): torch.optim's load_state_dict refusing a saved optimizer state with other
  parameter groups ("loaded state dict has a different number of parameter groups", "... contains a parameter group
  that doesn't match the size of optimizer's group").
- ARL-E5441 (AISW_VLLM_SAMPLER_001): vLLM V1 failing to import a logits-processor plugin ("Failed to load
  LogitsProcessor plugin <EntryPoint>", "Failed to load 0th LogitsProcessor plugin module:Class").
- ARL-E5442 (AISW_VLLM_ASCEND_SPECDECODE_001): vLLM's SpeculativeConfig refusing the method name (pydantic literal_error
  "Input should be 'ngram', 'eagle', 'eagle3', ..." / "'ngram', 'medusa', 'mlp_speculator', ...").
- ARL-E5443 (AISW_VLLM_ASCEND_QUANTIZATION_COMPRESSED_TENSORS_001): quantization=compressed-tensors for a model whose
  config.json has no such quantization_config, so vLLM builds (Ascend)CompressedTensorsConfig() with no arguments
  ("__init__() missing 3 required positional arguments: 'target_scheme_map', 'ignore', and 'quant_format'"); read
  before as a version mismatch (DRV-package).
- ARL-E5444 (AISW_PyTorch_Data_02): torch.Generator(device=...) for a device type the torch build has no generator for
  ("Device type NPU is not supported for torch.Generator() api.": torch before 2.1 on the NPU, a CPU-only build for
  CUDA); read before only as a resemblance to ARL-E5240.
- DRV-cli-choice, a new analyzer (the structure of AISW_VLLM_SCHEDULER_001): argparse refusing any option's value that
  is not among its choices ("<prog>: error: argument --X: invalid choice: 'v' (choose from ...)"), the vllm-ascend
  'ascend' quantization value left to its own reading (ARL-E220 / DRV-plugin-name).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

P = "[ERROR] HCCL(12345,python3):2025-06-01-10:00:00.000.001 "
TORCH_NPU_TAIL = (
    "RuntimeError: create:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2061 HCCL function error: "
    "HcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 9\n"
)


# ARL-E320 (the non-root side of the root-info connect) ------------------------------------------------------------

def test_topo_exchange_agent_timeout_is_e320():
    for line in (
        "[topoinfo_exchange_agent.cc:260] [347][Get][Connection]topo exchange agent get socket timeout! timeout[120]\n",
        "[topoinfo_exchange_agent.cc:88] [4021][Get][Connection]topo exchange agent get socket timeout! timeout[600 s]\n",
    ):
        assert _id(P + line) == "ARL-E320", line
        assert _id(P + line + TORCH_NPU_TAIL) == "ARL-E320", line


def test_wrong_socket_ifname_stays_e321():
    text = P + "[sal.cc:400] [347][Get][LocalServerId]get host ip fail by socket Ifname[eth9], name[eth9], ip[]\n"
    assert _id(text) == "ARL-E321"


# ARL-E374 (an HCCL environment variable refused) ------------------------------------------------------------------

def test_hccl_env_var_parse_failures_are_e374():
    for line in (
        "[alg_env_config.cc:320] [347][Init][EnvVarParam]errNo[0x0000000005000003] In init env variable param, parse "
        "intra comm type failed. errorno[3]\n",
        "[alg_env_config.cc:380] [347][Init][EnvVarParam]errNo[0x0000000005000003] In init env variable param, parse "
        "hccl algorithm config failed. errorno[3]\n",
        "[alg_env_config.cc:410] [347][InitEnvParam]errNo[0x0000000005000003] In init environment param, parse "
        "HCCL_DFS_CONFIG failed. errorno[3]\n",
        '[cfg_field.h:57] [347][InitGroupStage][EnvConfig] errNo[0x0000000005000003] Env config "HCCL_CONNECT_TIMEOUT" '
        'value "12o0" is invalid. [Init][EnvVarParam]Invalid env config, [12o0] contains non-digit char.\n',
        "[env_func.h:80] [347][Init][EnvVarParam]Invalid env config, [60000a] contains non-digit char.\n",
    ):
        assert _id(P + line) == "ARL-E374", line


def test_hccl_env_var_info_line_is_not_e374():
    text = ('[INFO] HCCL(229424,python3.8):2025-12-23-22:31:40.239.170[base_config.cc:33][229424][Init][EnvVarParam]'
            'Env config "HCCL_IF_IP" is not set. Default value is used.\n')
    assert _id(text) != "ARL-E374"


# ARL-E5440 (optimizer state from another parameter layout) --------------------------------------------------------

def test_optimizer_param_group_mismatch_is_e5440():
    for message in (
        "ValueError: loaded state dict has a different number of parameter groups",
        "ValueError: loaded state dict contains a parameter group that doesn't match the size of optimizer's group",
        "ValueError: Loaded state dict has a different number of parameter groups.",
    ):
        text = (
            "Traceback (most recent call last):\n"
            '  File "/home/user/verl/verl/utils/checkpoint/fsdp_checkpoint_manager.py", line 172, in load_checkpoint\n'
            "    self.optimizer.load_state_dict(optimizer_state_dict)\n"
            f"{message}\n"
        )
        assert _id(text) == "ARL-E5440", message


def test_model_state_dict_mismatch_is_not_e5440():
    text = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 40, in <module>\n'
        "    model.load_state_dict(sd)\n"
        'RuntimeError: Error(s) in loading state_dict for Qwen2ForCausalLM:\n'
        '\tMissing key(s) in state_dict: "lm_head.weight".\n'
    )
    assert _id(text) != "ARL-E5440"


# ARL-E5441 (a logits-processor plugin that does not import) -------------------------------------------------------

def test_logitsprocs_plugin_load_failure_is_e5441():
    for message in (
        "RuntimeError: Failed to load LogitsProcessor plugin EntryPoint(name='qr', value='qr_sampler:QRLP', "
        "group='vllm.logits_processors')",
        "RuntimeError: Failed to load 0th LogitsProcessor plugin my_pkg.lp:BanWords",
    ):
        text = (
            "Traceback (most recent call last):\n"
            '  File "/usr/local/python3.11/lib/python3.11/site-packages/vllm/v1/sample/logits_processor/__init__.py", '
            "line 62, in _load_logitsprocs_plugins\n"
            "    raise RuntimeError(\n"
            f"{message}\n"
        )
        assert _id(text) == "ARL-E5441", message


def test_other_plugin_load_failure_is_not_e5441():
    text = "RuntimeError: Failed to load plugin vllm_ascend: No module named 'torch_npu'\n"
    assert _id(text) != "ARL-E5441"


# ARL-E5442 (speculative method name) ------------------------------------------------------------------------------

def test_speculative_method_literal_is_e5442():
    for choices in (
        "'ngram', 'eagle', 'eagle3', 'medusa', 'mlp_speculator', 'draft_model' or 'deepseek_mtp'",
        "'ngram', 'medusa', 'mlp_speculator', 'draft_model', 'suffix', 'eagle', 'eagle3', 'deepseek_mtp' or 'mtp'",
    ):
        text = (
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig\n"
            "method\n"
            f"  Input should be {choices} [type=literal_error, input_value='mtpx', input_type=str]\n"
            "    For further information visit https://errors.pydantic.dev/2.11/v/literal_error\n"
        )
        assert _id(text) == "ARL-E5442", choices


def test_lora_rank_literal_is_not_e5442():
    text = (
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for LoRAConfig\n"
        "max_lora_rank\n"
        "  Input should be 1, 8, 16, 32, 64, 128, 256, 320 or 512 [type=literal_error, input_value=4, input_type=int]\n"
    )
    assert _id(text) != "ARL-E5442"


# DRV-cli-choice (argparse invalid choice) -------------------------------------------------------------------------

def test_argparse_invalid_choice_is_cli_choice():
    for usage, error, option in (
        ("usage: vllm serve [model_tag] [options]",
         "vllm serve: error: argument --scheduling-policy: invalid choice: 'fifo' (choose from 'fcfs', 'priority')",
         "--scheduling-policy"),
        ("usage: torchrun [-h] [--nnodes NNODES]",
         "torchrun: error: argument --rdzv-backend/--rdzv_backend: invalid choice: 'c10' (choose from c10d, etcd)",
         "--rdzv-backend/--rdzv_backend"),
        ("usage: train.py [-h] [--mode {grpo,ppo}]",
         "train.py: error: argument --mode: invalid choice: 'dapo' (choose from 'grpo', 'ppo')",
         "--mode"),
    ):
        found = _top(f"{usage}\n{error}\n")
        assert found is not None and found.entry.id == "DRV-cli-choice", error
        assert option in found.entry.title, found.entry.title


def test_ascend_quantization_choice_keeps_its_reading():
    text = ("usage: vllm serve [model_tag] [options]\n"
            "vllm serve: error: argument --quantization/-q: invalid choice: 'ascend' (choose from 'aqlm', 'awq')\n")
    assert _id(text) not in (None, "DRV-cli-choice")


def test_unrecognized_arguments_stay_cli_extra():
    text = "usage: torchrun [-h] [--nnodes NNODES]\ntorchrun: error: unrecognized arguments: --foo\n"
    assert _id(text) == "DRV-cli-extra"


# ARL-E5443 (compressed-tensors asked of a model that is not one) ------------------------------------------------

def test_compressed_tensors_without_config_is_e5443():
    for message in (
        "TypeError: AscendCompressedTensorsConfig.__init__() missing 3 required positional arguments: "
        "'target_scheme_map', 'ignore', and 'quant_format'",
        "TypeError: CompressedTensorsConfig.__init__() missing 5 required positional arguments: 'target_scheme_map', "
        "'ignore', 'quant_format', 'sparsity_scheme_map', and 'sparsity_ignore_list'",
        "TypeError: __init__() missing 3 required positional arguments: 'target_scheme_map', 'ignore', and 'quant_format'",
    ):
        text = (
            "Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.10/site-packages/vllm/model_executor/model_loader/weight_utils.py", '
            "line 213, in get_quant_config\n"
            "    return quant_cls()\n"
            f"{message}\n"
        )
        assert _id(text) == "ARL-E5443", message


def test_other_missing_init_arguments_are_not_e5443():
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 3, in <module>\n'
            "    cfg = AscendModelSlimConfig()\n"
            "TypeError: AscendModelSlimConfig.__init__() missing 1 required positional argument: 'quant_config'\n")
    assert _id(text) != "ARL-E5443"


# ARL-E5444 (torch.Generator on a device type the torch build has no generator for) -------------------------------

def test_generator_device_unsupported_is_e5444():
    for message in (
        "RuntimeError: Device type NPU is not supported for torch.Generator() api.",
        "RuntimeError: Device type CUDA is not supported for torch.Generator() api.",
        "RuntimeError: Device type MPS is not supported for torch.Generator() api.",
    ):
        text = ("Traceback (most recent call last):\n"
                '  File "train.py", line 61, in main\n'
                "    g = torch.Generator(device=device)\n"
                f"{message}\n")
        assert _id(text) == "ARL-E5444", message


def test_generator_on_other_device_is_not_e5444():
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 70, in main\n'
            "    idx = torch.randperm(n, generator=g, device='npu')\n"
            "RuntimeError: Expected a 'npu' device type for generator but found 'cpu'\n")
    assert _id(text) == "ARL-E5240"
