"""Session 15, helper r13a: round-13 compat / cann-env dev misses read as classes, in the wordings their emitters print."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("paste,entry", [
    # torch_npu OpCommand::Run sets the JIT option before the first aclop (v7.2.0+): the call text has val->c_str()
    ("RuntimeError: Run:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:135 NPU function error: "
     "AclSetCompileopt(aclCompileOpt::ACL_OP_JIT_COMPILE, val->c_str()), error code is 500001\n"
     "[ERROR] 2026-01-30-18:03:36 (PID:118, Device:0, RankID:0) ERR00100 PTA call acl api failed\n", "ARL-E336"),
    # the jit list's literal and the deterministic option's ternary, as NPU_CHECK_ERROR prints their source text
    ("RuntimeError: NPU function error: AclSetCompileopt(aclCompileOpt::ACL_OP_JIT_COMPILE, \"enable\"), error code is 500001\n",
     "ARL-E336"),
    ("RuntimeError: NPU function error: AclSetCompileopt(aclCompileOpt::ACL_OP_DETERMINISTIC, "
     "deterministicAlgorithmsStatus ? \"1\" : \"0\"), error code is 500001\n", "ARL-E336"),
    # transformers cached_files' OSError, cut before the hub's 'Cannot access gated repo' text; has_file's own wording
    ("OSError: You are trying to access a gated repo.\nMake sure to have access to it at "
     "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct.\n", "ARL-E153"),
    ("OSError: meta-llama/Llama-3.1-8B-Instruct is a gated repository. Make sure to request access at "
     "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct and pass a token having permission to this repo either by "
     "logging in with `hf auth login` or by passing `token=<your_token>`.\n", "ARL-E153"),
    # MindIE-LLM's newer runtime words the unsupported model_type in English
    ("NotImplementedError: unsupported model type: qwen3_vl_moe;Please check if a folder named "
     "qwen3_vl_moe exists in the mindie_llm.runtime.models directory.\n", "ARL-E910"),
    # paddle-custom-npu: only on PaddlePaddle's index, with wheels for few Pythons
    ("ERROR: Could not find a version that satisfies the requirement paddle-custom-npu (from versions: none)\n"
     "ERROR: No matching distribution found for paddle-custom-npu\n", "ARL-E246"),
    ("ERROR: No matching distribution found for paddle_custom_npu==3.2.0\n", "ARL-E246"),
    # the other Auto* processors' wordings of the same unknown processor class
    ("ValueError: Unrecognized feature extractor in /models/whisper-x. Should have a `feature_extractor_type` key in its "
     "preprocessor_config.json of config.json, or one of the following `model_type` keys in its config.json: clap\n", "ARL-E911"),
    ("ValueError: Unrecognized video processor in /models/vl. Should have a `video_processor_type` key in its "
     "video_preprocessor_config.json of config.json, or one of the following `model_type` keys in its config.json: llava_onevision\n",
     "ARL-E911"),
    # ProcessorMixin's class check with a tuple of accepted classes
    ("TypeError: Received a Qwen2TokenizerFast for argument image_processor, but a "
     "('Qwen2VLImageProcessor', 'Qwen2VLImageProcessorFast') was expected.\n", "ARL-E912"),
])
def test_the_class_is_named_in_each_wording(explain_text, paste, entry):
    result, top = explain_text(paste)
    assert top is not None and top.entry.id == entry and result.fatal, top


@pytest.mark.parametrize("paste,entry", [
    # another ACL result than 500001 is not the init failure
    ("RuntimeError: NPU function error: AclSetCompileopt(aclCompileOpt::ACL_OP_JIT_COMPILE, val->c_str()), error code is 500002\n",
     "ARL-E336"),
    # the same three words from another project (an embedding runner's ValueError) say nothing about MindIE's model folders
    ("ValueError: unsupported model type: bert.\n", "ARL-E910"),
    # installing the package is not a failure
    ("Looking in indexes: https://www.paddlepaddle.org.cn/packages/stable/npu/\nSuccessfully installed paddle-custom-npu-3.2.0\n",
     "ARL-E246"),
])
def test_near_misses_are_not_the_class(explain_text, paste, entry):
    _, top = explain_text(paste)
    assert top is None or top.entry.id != entry, top


def test_an_undefined_symbol_no_rule_assigns_names_no_empty_package(explain_text):
    # the symbol's namespace (custom_kernel) belongs to no package the analyzer knows: the finding must not read
    # "X and  versions do not match" with an empty package name
    result, top = explain_text(
        "ValueError: (InvalidArgument) Fail to open library: /usr/lib/python3.10/site-packages/paddle_custom_device/"
        "libpaddle-custom-npu.so with error: /usr/lib/python3.10/site-packages/paddle_custom_device/libpaddle-custom-npu.so: "
        "undefined symbol: _ZN13custom_kernel14GatherNdKernelIbN3phi13CustomContextEEEvRKT0_\n")
    assert top is not None and top.entry.id == "DRV-package", top
    assert "  " not in top.entry.title and " and  " not in top.entry.cause and "into ," not in top.entry.cause, top.entry.title


def test_a_cuda_extension_build_on_the_npu_host_is_the_cuda_build_of_a_package(explain_text):
    # torch.utils.cpp_extension._join_cuda_home, reached from a package's setup.py CUDAExtension(...)
    result, top = explain_text(
        "Traceback (most recent call last):\n"
        "  File \"/tmp/pip-install-x/flash-attn_1/setup.py\", line 133, in <module>\n    CUDAExtension(\n"
        "  File \"/usr/local/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 1074, in CUDAExtension\n"
        "    library_dirs += library_paths(cuda=True)\n"
        "  File \"/usr/local/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", line 1252, in _join_cuda_home\n"
        "    raise EnvironmentError('CUDA_HOME environment variable is not set. '\n"
        "OSError: CUDA_HOME environment variable is not set. Please set it to your CUDA install root.\n")
    assert top is not None and top.entry.id == "DRV-cuda-only" and top.kind == "cuda-only-package-on-npu" and result.fatal, top
