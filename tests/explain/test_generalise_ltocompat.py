"""Readings added by helper ltocompat (2026-12-06) while generalising the compat classes (package / version pairs)
that leave-thread-out scoring showed not reaching other users' logs. Each test input is a short excerpt around the
exact emitted message; each class also has a near miss (similar words, another failure) that must not give it.

- ARL-E5480 (new): CANN's bishengir-compile refusing an option triton-ascend's backend passes it (LLVM's option parser,
  "bishengir-compile: Unknown command line argument '--target=…'.  Try: '… --help'", older LLVM "-help", and the older
  bishengir-hivm-compile binary): the triton-ascend release is newer than the CANN toolkit. (An unknown --target VALUE,
  a chip newer than the toolkit, stays ARL-E392.) Before, the generic
  triton-ascend compile failure (ARL-E403) or nothing; E403 is now this entry's consequence.
- DRV-reward-args, kind trl-too-old (a package-mismatch kind): a reward function refusing two positional arguments
  passed by TRL's own GRPOTrainer frame. Only TRL main between PR #2606 (a1d295511) and PR #2650 (2578e9502), the
  0.14.0.dev0 snapshots, call reward_func(prompts, completions); v0.14.0 and every later release pass keywords. Before,
  read as a reward written for another trainer (reward-fn-signature-mismatch), which names the user's function as the
  fault when the installed TRL is the old side.
- ARL-E820 widened: TorchCodec's exceptions block, which stays when the RuntimeError's opening ("Could not load
  libtorchcodec. Likely causes:") is cut off: "[start of libtorchcodec loading traceback]" (v0.1.1 on) and the
  per-attempt "FFmpeg version N: <error>" lines (v0.3.0 on; alone on a line when later releases print a full
  traceback under it, after a log collector's timestamp, or with a leading space). Before, the missing CUDA library
  one attempt named read as a CUDA-only package on the Ascend host (DRV-library).
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first, first_id

CATALOG = load_catalog()
_top = functools.partial(first, CATALOG)
_id = functools.partial(first_id, CATALOG)

TB = 'Traceback (most recent call last):\n  File "/home/user/x.py", line 3, in <module>\n    main()\n'


# ARL-E5480 -----------------------------------------------------------------------------------------------------------

def test_bishengir_unknown_option_is_e5480():
    for line in (
        "bishengir-compile: Unknown command line argument '--target=Ascend910B2C'.  Try: "
        "'/usr/local/Ascend/ascend-toolkit/latest/bin/bishengir-compile --help'",
        "bishengir-compile: Unknown command line argument '--enable-auto-multi-buffer=True'.  Try: 'bishengir-compile -help'",
        "bishengir-hivm-compile: Unknown command line argument '--enable-triton-kernel-compile=true'.  Try: "
        "'/usr/local/Ascend/ascend-toolkit/8.0.0/bin/bishengir-hivm-compile --help'",
        # the title form: the MLIR stage's wrapper line and the refusal on one line
        "[Bug] [ConvertLinalgRToBinary] encounters error: bishengir-compile: Unknown command line argument "
        "'--reg-based=true'. Try: '/usr/local/Ascend/ascend-toolkit/latest/bin/bishengir-compile --help'",
    ):
        text = TB + "triton.compiler.errors.MLIRCompilationError:\n[ConvertLinalgRToBinary] encounters error:\n" + line + "\n"
        assert _id(text) == "ARL-E5480", line


def test_other_llvm_tool_unknown_option_is_not_e5480():
    # the same LLVM wording from another tool (mlir-opt given a pass a plugin did not register) is not a CANN pair
    text = "mlir-opt: Unknown command line argument '--ex1-noop'.  Try: 'mlir-opt --help'\n"
    assert _id(text) != "ARL-E5480"


def test_bishengir_compile_error_without_option_refusal_is_not_e5480():
    # bishengir-compile ran and failed on the kernel itself: the generic compile failure, not a version pair
    text = (TB + "triton.compiler.errors.MLIRCompilationError:\n[ConvertLinalgRToBinary] encounters error:\n"
            "loc(\"/tmp/kernel.ttadapter.mlir\":12:5): error: Failed to run BiShengHIR pipeline\n")
    assert _id(text) != "ARL-E5480"


# DRV-reward-args: TRL's pre-release positional reward call ----------------------------------------------------------

TRL_FRAMES = (
    '[rank1]:   File "/home/user/miniconda3/envs/openr1/lib/python3.11/site-packages/transformers/trainer.py", line 3675, in training_step\n'
    '[rank1]:     loss = self.compute_loss(model, inputs, num_items_in_batch=num_items_in_batch)\n'
    '[rank1]:   File "/home/user/miniconda3/envs/openr1/lib/python3.11/site-packages/trl/trainer/grpo_trainer.py", line 367, in compute_loss\n'
    '[rank1]:     rewards[i] = torch.tensor(reward_func(prompts, completions))\n'
)


def test_trl_snapshot_positional_reward_call_is_trl_too_old():
    for message in (
        "TypeError: accuracy_reward() takes 1 positional argument but 2 were given",
        "TypeError: reasoning_steps_reward() takes 1 positional argument but 2 were given",
        "TypeError: len_reward() takes 0 positional arguments but 2 were given",
    ):
        text = "[rank1]: Traceback (most recent call last):\n" + TRL_FRAMES + "[rank1]: " + message + "\n"
        found = _top(text)
        assert found is not None and found.entry.id == "DRV-reward-args", message
        assert found.kind == "trl-too-old", message


def test_reward_positional_call_from_verl_is_not_trl_too_old():
    # the same refusal from verl's reward manager: a reward written for another trainer, not an old TRL
    text = ('Traceback (most recent call last):\n'
            '  File "/home/user/verl/verl/workers/reward_manager/naive.py", line 70, in __call__\n'
            '    score = self.compute_score(data_source, response_str, ground_truth, extra_info)\n'
            'TypeError: my_reward_score() takes 2 positional arguments but 4 were given\n')
    found = _top(text)
    assert found is None or found.kind != "trl-too-old"


def test_trl_keyword_refusal_is_not_trl_too_old():
    # a released TRL passing keywords to a reward without **kwargs: the reward's signature, not TRL's age
    text = ("Traceback (most recent call last):\n"
            '  File "/usr/lib/python3.11/site-packages/trl/trainer/grpo_trainer.py", line 1160, in _calculate_rewards\n'
            "    output_reward_func = reward_func(prompts=prompts, completions=completions, **reward_kwargs)\n"
            "TypeError: format_reward() got an unexpected keyword argument 'prompts'\n")
    found = _top(text)
    assert found is not None and found.kind != "trl-too-old"


# ARL-E820 widened ----------------------------------------------------------------------------------------------------

def test_torchcodec_attempts_without_the_opening_are_e820():
    for block in (
        "[start of libtorchcodec loading traceback]\n"
        "FFmpeg version 7: libavutil.so.59: cannot open shared object file: No such file or directory\n",
        " FFmpeg version 8: Could not load this library: C:\\venv\\Lib\\site-packages\\torchcodec\\libtorchcodec_core8.dll \n",
        "  2026-07-07T15:44:47.316257096Z FFmpeg version 4:\n"
        "  2026-07-07T15:44:47.316259716Z Traceback (most recent call last):\n"
        '  2026-07-07T15:44:47.316262486Z   File "/usr/local/lib/python3.12/dist-packages/torch/_ops.py", line 1503, in load_library\n'
        "  2026-07-07T15:44:47.316265606Z     ctypes.CDLL(path)\n"
        "  2026-07-07T15:44:47.316277566Z OSError: libnvrtc.so.13: cannot open shared object file: No such file or directory\n",
    ):
        assert _id(block) == "ARL-E820", block


def test_ffmpeg_banner_and_other_version_lines_are_not_e820():
    text = ("ffmpeg version 6.1.1-3ubuntu5 Copyright (c) 2000-2023 the FFmpeg developers\n"
            "Traceback (most recent call last):\n"
            '  File "/home/user/x.py", line 3, in <module>\n'
            "    load()\n"
            "OSError: libnvrtc.so.13: cannot open shared object file: No such file or directory\n")
    assert _id(text) != "ARL-E820"
