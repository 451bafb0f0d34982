"""Round-25 operator / quantization readings (k25op).

* vllm-ascend's quantization config looks every layer the model builds up in the checkpoint's quantization description
  (``AscendQuantConfig.is_layer_skipped_ascend``: ``self.quant_description[prefix + '.weight']``, and on an NPU
  ``override_quantization_method`` turns any quantized checkpoint, AWQ / GPTQ too, into "ascend"): a ``KeyError:
  '<layer>.weight'`` whose source line is that lookup is a quantization the NPU path cannot place, even when the frame
  line itself was cut from the paste (https://github.com/vllm-project/vllm-ascend/blob/v0.11.0rc1/vllm_ascend/quantization/quant_config.py).
* A pasted sentence's words before the exception it quotes ("qwen2.5 量化模型，用vllm-ascend跑报错KeyError: …") are kept
  on the link (``Link.lead``) so the quantization analyzer sees the person's own "quantized" and "vllm-ascend".
* vLLM's MQLLMEngine logs the exception that stopped it with ``logger.exception(e)``; str() of a KeyError is the quoted
  key, so an ERROR line whose whole message is a quoted module path is that KeyError
  (https://github.com/vllm-project/vllm/blob/v0.9.1/vllm/engine/multiprocessing/engine.py).
* CMake's FindPackageHandleStandardArgs "Could NOT find Torch_npu (missing: TORCH_NPU_INCLUDE_DIRS)" for a REQUIRED NPU
  package (https://github.com/Kitware/CMake/blob/03e25d4ef77c135eb3bc58430ad389522f144363/Modules/FindPackageHandleStandardArgs.cmake):
  ARL-E2572, a failed NPU-extension build.

Inputs are lines of public pastes (vllm-ascend#5794, #6484, #1233, dlinfer#104).
"""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier, load_catalog


def _explain(text: str):
    classifier = Classifier(load_catalog())
    classifier.feed_stream(io.BytesIO(text.encode()), "paste.log")
    return classifier.result()


def _top(text: str) -> tuple[str, str]:
    result = _explain(text)
    assert result.diagnoses, "nothing diagnosed"
    d = result.diagnoses[0]
    return d.entry.id, d.kind


# https://github.com/vllm-project/vllm-ascend/issues/5794 (the frame line of quant_config.py cut from the paste)
QUANT_DESCRIPTION_CUT = """\
vllm-ascend-glm47  | (Worker_TP0 pid=367) ERROR 01-12 05:03:38 [multiproc_executor.py:751]   File "/vllm-workspace/vllm/vllm/model_executor/model_loader/utils.py", line 48, in initialize_model
vllm-ascend-glm47  | (Worker_TP0 pid=367) ERROR 01-12 05:03:38 [multiproc_executor.py:751]     return model_class(vllm_config=vllm_config, prefix=prefix)
vllm-ascend-glm47  | (Worker_TP0 pid=367) ERROR 01-12 05:03:38 [multiproc_executor.py:751]     is_shard_skipped = self.quant_description[shard_prefix +
vllm-ascend-glm47  | (Worker_TP0 pid=367) ERROR 01-12 05:03:38 [multiproc_executor.py:751]                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
vllm-ascend-glm47  | (Worker_TP0 pid=367) ERROR 01-12 05:03:38 [multiproc_executor.py:751] KeyError: 'model.layers.92.self_attn.q_proj.weight'
"""


def test_a_keyerror_from_the_quant_description_lookup_is_a_quantization_the_npu_cannot_place():
    assert _top(QUANT_DESCRIPTION_CUT) == ("DRV-quant-load", "quant-method-unsupported-on-npu")
    d = _explain(QUANT_DESCRIPTION_CUT).diagnoses[0]
    assert "quantization description" in d.entry.title


def test_the_same_keyerror_from_another_lookup_is_not_read_as_quantization():
    text = QUANT_DESCRIPTION_CUT.replace("is_shard_skipped = self.quant_description[shard_prefix +", "param = params_dict[name]")
    result = _explain(text)
    assert not result.diagnoses or result.diagnoses[0].kind != "quant-method-unsupported-on-npu"


# https://github.com/vllm-project/vllm-ascend/issues/6484 (the title: the person's words, then the error)
TITLE_6484 = "qwen2.5 -7b量化模型，用vllm-ascend跑报错KeyError: 'model.embed_tokens.weight'。在h800+vllm上跑正常，配置如下\n"


def test_the_words_before_a_quoted_exception_are_kept_and_read():
    result = _explain(TITLE_6484)
    assert (result.diagnoses[0].entry.id, result.diagnoses[0].kind) == ("DRV-quant-load", "quant-method-unsupported-on-npu")


def test_without_those_words_a_missing_weight_name_is_not_quantization():
    result = _explain("KeyError: 'model.embed_tokens.weight'\n")
    assert not result.diagnoses or result.diagnoses[0].kind != "quant-method-unsupported-on-npu"


# https://github.com/vllm-project/vllm-ascend/issues/1233: MQLLMEngine's logger.exception(e) of the KeyError
ENGINE_LOGGED = "ERROR 06-13 06:59:07 [engine.py:448] 'model.layers.0.self_attn.q_proj.weight'\n"


def test_an_error_line_whose_message_is_a_quoted_module_path_is_a_keyerror():
    unknown = _explain(ENGINE_LOGGED).unknown
    assert unknown is not None and (unknown.type, unknown.message) == ("KeyError", "'model.layers.0.self_attn.q_proj.weight'")


def test_the_same_words_at_info_level_or_a_short_name_are_not():
    for line in ("INFO 06-13 06:59:07 [engine.py:448] 'model.layers.0.self_attn.q_proj.weight'\n",
                 "ERROR 06-13 06:59:07 [engine.py:448] 'foo.bar'\n"):
        result = _explain(line)
        assert result.unknown is None or result.unknown.type != "KeyError", line


# https://github.com/DeepLink-org/dlinfer/issues/104: CMake's FindPackageHandleStandardArgs for a REQUIRED NPU package
CMAKE_TORCH_NPU = """\
-- Found Torch_npu: TORCH_NPU_LIBRARY: /home/user/miniconda3/envs/test/lib/python3.8/site-packages/torch_npu/lib/libtorch_npu.so, TORCH_NPU_INCLUDE_DIRS: TORCH_NPU_INCLUDE_DIRS-NOTFOUND
CMake Error at /home/user/miniconda3/envs/test/lib/python3.8/site-packages/cmake/data/share/cmake-3.31/Modules/FindPackageHandleStandardArgs.cmake:233 (message):
  Could NOT find Torch_npu (missing: TORCH_NPU_INCLUDE_DIRS)
Call Stack (most recent call first):
  cmake/FindTorch_npu.cmake:20 (find_package_handle_standard_args)

-- Configuring incomplete, errors occurred!
"""


def test_cmake_not_finding_torch_npu_is_the_npu_extension_build():
    assert _top(CMAKE_TORCH_NPU)[0] == "ARL-E2572"


def test_an_optional_package_status_line_or_another_package_is_not():
    for text in ("-- Could NOT find Torch_npu (missing: TORCH_NPU_INCLUDE_DIRS)\n",
                 "CMake Error at FindPackageHandleStandardArgs.cmake:230 (message):\n  Could NOT find CUDA (missing: CUDA_INCLUDE_DIRS)\n"):
        result = _explain(text)
        assert all(d.entry.id != "ARL-E2572" for d in result.diagnoses), text
