"""Session 21, kbr3: compat readings that name the specific cause from what the paste states.

A package that lacks a name every release of it defines (vllm's LLM / SamplingParams, any package's __version__), or
whose from-import CPython reports as "(unknown location)", is not the installed package: a local folder or script of
that name shadows it (DRV-package, kind local-dir-shadows-package), not a version mismatch."""

from __future__ import annotations

import io

from ascendrl.catalog import Classifier


def classify(catalog, text: str):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "paste")
    return c.result()


def kind(catalog, text: str):
    result = classify(catalog, text)
    return result.diagnoses[0].kind if result.diagnoses else None


def test_a_name_every_release_defines_missing_is_a_shadowing_folder_or_script(catalog):
    for msg in ("ImportError: cannot import name 'SamplingParams' from 'vllm'",
                "ImportError: cannot import name 'LLM' from 'vllm' (/home/user/proj/vllm/__init__.py)",
                "ImportError: cannot import name 'LLMEngine' from 'vllm' (/home/user/proj/vllm.py)",
                "AttributeError: module 'vllm' has no attribute 'LLM'",
                "AttributeError: module 'torch_npu' has no attribute '__version__'",
                "AttributeError: module 'transformers' has no attribute '__version__'",
                "ImportError: cannot import name 'AutoModel' from 'transformers' (unknown location)"):
        assert kind(catalog, msg + "\n") == "local-dir-shadows-package", msg


def test_the_installed_package_or_another_name_stays_a_version_reading(catalog):
    # the installed package's own __init__.py without the name: a broken or foreign build, not shadowing
    assert kind(catalog, "ImportError: cannot import name 'LLM' from 'vllm' "
                         "(/usr/local/lib/python3.10/site-packages/vllm/__init__.py)\n") != "local-dir-shadows-package"
    # a name only some releases define: the version reading
    assert kind(catalog, "ImportError: cannot import name 'FlexibleArgumentParser' from 'vllm.utils'\n") == "package-mismatch"
    assert kind(catalog, "AttributeError: module 'torch_npu' has no attribute 'npu_rotary_mul'\n") != "local-dir-shadows-package"
    # a package that is a namespace package when installed keeps its "(unknown location)" out of this reading
    assert kind(catalog, "ImportError: cannot import name 'descriptor' from 'google.protobuf' (unknown location)\n") != "local-dir-shadows-package"


VERL_FRAMES = ('Traceback (most recent call last):\n'
               '  File "/workspace/verl/verl/trainer/ppo/ray_trainer.py", line 786, in init_workers\n'
               '    self.async_rollout_manager = AgentLoopManager(config=self.config, worker_group=self.actor_rollout_wg)\n'
               '  File "/usr/local/lib/python3.10/site-packages/verl/workers/rollout/vllm_rollout/vllm_async_server.py", line 240, in run_server\n'
               '    await init_app_state(engine_client, vllm_config, app.state, args)\n')


def test_a_vllm_api_server_function_called_by_a_framework_with_another_release_arguments(catalog):
    for message in ("TypeError: init_app_state() takes 3 positional arguments but 4 were given",
                    "TypeError: build_async_engine_client_from_engine_args() got an unexpected keyword argument 'disable_frontend_multiprocessing'"):
        result = classify(catalog, VERL_FRAMES + message + "\n")
        # the import history may name the side that is behind (the keyword left vLLM's function in a later release)
        assert result.diagnoses[0].entry.id == "DRV-package", message
        assert result.diagnoses[0].kind in ("package-mismatch", "vllm-too-new"), message
        assert "vllm" in result.diagnoses[0].entry.title


def test_an_application_function_of_the_same_name_is_not_vllm(catalog):
    log = ('Traceback (most recent call last):\n  File "/home/user/app/main.py", line 12, in startup\n'
           '    await init_app_state(app, settings)\nTypeError: init_app_state() takes 1 positional argument but 2 were given\n')
    result = classify(catalog, log)
    assert not (result.diagnoses and "vllm" in result.diagnoses[0].entry.title)


def test_check_imports_refusal_wrapped_or_cut_before_its_tail(catalog):
    # transformers' check_imports message, wrapped after "that" (a terminal or a quoted paste) or with its head elided
    for text in ("ImportError: This modeling file requires the following packages that\nwere not found in your environment: flash_attn. Run `pip install flash_attn`\n",
                 "ImportError: XXX not found in your environment: flash_attn\n"):
        result = classify(catalog, text)
        assert result.diagnoses and result.diagnoses[0].entry.id == "ARL-E544", text
    # transformers' requires_backends wording ends "in your environment." and names a library, not check_imports
    result = classify(catalog, "ImportError: LlamaTokenizer requires the SentencePiece library but it was not found in your environment.\n")
    assert not (result.diagnoses and result.diagnoses[0].entry.id == "ARL-E544")


LOADER = ('Traceback (most recent call last):\n'
          '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 2338, in load_model\n'
          '    self.model = get_model(vllm_config=self.vllm_config)\n'
          '  File "/usr/local/python3.11.10/lib/python3.11/site-packages/vllm/model_executor/models/qwen2.py", line 460, in load_weights\n'
          '    param = params_dict[name]\n')


def test_a_quantized_checkpoint_tensor_the_npu_model_lacks(catalog):
    # (deq_scale / quant_bias / *_offset are ARL-E248's signature and weight_scale / weight_scale_inv ARL-E1991's, the same
    # root cause; qweight / qzeros are the other formats' tensors, which only this reading names)
    for key in ("model.layers.0.mlp.down_proj.qweight", "model.layers.0.mlp.down_proj.qzeros"):
        result = classify(catalog, LOADER + f"KeyError: '{key}'\n")
        assert (result.diagnoses[0].entry.id, result.diagnoses[0].kind) == ("DRV-quant-load", "quant-method-unsupported-on-npu"), key
    result = classify(catalog, LOADER + "KeyError: 'model.layers.3.self_attn.qkv_proj.weight_scale'\n")
    assert (result.diagnoses[0].entry.id, result.diagnoses[0].kind) == ("ARL-E1991", "quant-method-unsupported-on-npu")
    # the failing line says the checkpoint is quantized (an issue title)
    result = classify(catalog, "KeyError: 'visual.blocks.0.attn.qkv.weight' when Loading FP8 Quantized Qwen2.5-VL Model on Ascend NPU\n")
    assert result.diagnoses and result.diagnoses[0].kind == "quant-method-unsupported-on-npu"


def test_a_missing_weight_without_quantization_or_off_ascend_is_not_this(catalog):
    # a plain weight name on the NPU loader (a tied lm_head, another model's checkpoint): no quantization in sight
    result = classify(catalog, LOADER + "KeyError: 'lm_head.weight'\n")
    assert not (result.diagnoses and result.diagnoses[0].entry.id == "DRV-quant-load")
    # a quantization tensor on a GPU vLLM: not the NPU loader
    gpu = LOADER.replace("/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", "/usr/local/lib/python3.10/site-packages/vllm/v1/worker/gpu_model_runner.py")
    result = classify(catalog, gpu + "KeyError: 'layers.0.mlp.down_proj.weight_scale'\n")
    assert not (result.diagnoses and result.diagnoses[0].entry.id == "DRV-quant-load")
    # a dict key that is not a parameter path
    result = classify(catalog, LOADER + "KeyError: 'quantization'\n")
    assert not (result.diagnoses and result.diagnoses[0].entry.id == "DRV-quant-load")
