"""The twenty-third stop's lead readings: the helpers' review and round 52's dev half (each confirmed in the emitting source).

- ARL-E4184: PaddlePaddle's "Device id must be less than GPU count, but received id is: N. GPU count is: M" (and the
  OutOfRange form) with M >= 1: a device id past the visible cards; M = 0 (no card visible) is another class.
- A person's lead-in may hold short quoted names before the quoted exception ('the demo in the "X.ipynb" file, I get
  "ValueError: …"'), as it holds `code spans`.
- DRV-package: "No module named X" raised by Ray's worker start-up script (default_worker.py) is the worker's interpreter
  lacking X (kind ray-worker-python-mismatch); Python 2's unquoted "No module named numpy" is read.
- A handler's failure that only a wrapper entry names (SGLang's "torch_npu is required when run on npu device.") does not
  outrank the exception it handled.
"""

from __future__ import annotations

import pytest
from kdata_helpers import first_id, top

TB = 'Traceback (most recent call last):\n  File "/home/user/run.py", line 3, in <module>\n    main()\n'


@pytest.mark.parametrize("line", [
    "InvalidArgumentError: Device id must be less than GPU count, but received id is: 3. GPU count is: 1.",
    "OutOfRangeError: The device id 2 is out of range [0, 2), where 2 is the number of devices on this machine.",
])
def test_paddle_device_id_past_the_visible_gpus_is_e4184(catalog, line):
    assert first_id(catalog, line + "\n") == "ARL-E4184"


def test_paddle_with_no_gpu_visible_is_not_e4184(catalog):
    line = "InvalidArgumentError: Device id must be less than GPU count, but received id is: 0. GPU count is: 0.\n"
    assert first_id(catalog, line) != "ARL-E4184"


def test_a_lead_in_with_a_quoted_file_name_still_reads_the_quoted_exception(catalog):
    text = ('However, when I try the demo in the "LLaVA_OneVision_Tutorials.ipynb" file, I encountered a problem, that is '
            '"ValueError: Tokenizer class Qwen2Tokenizer does not exist or is not currently imported.". It happened when '
            'running load_pretrained_model.\n')
    assert top(catalog, text) == ("DRV-package", "transformers-too-old")


WORKER = ('  File "/opt/conda/envs/rl/lib/python3.10/site-packages/ray/_private/workers/default_worker.py", line 8, in '
          '<module>\n    import {m}\n')


@pytest.mark.parametrize("module", ["numpy", "ray"])
def test_an_import_failing_in_rays_worker_start_up_is_the_workers_interpreter(catalog, module):
    text = "Traceback (most recent call last):\n" + WORKER.format(m=module) + f"ModuleNotFoundError: No module named '{module}'\n"
    assert top(catalog, text) == ("DRV-package", "ray-worker-python-mismatch")


def test_python2s_unquoted_no_module_is_read(catalog):
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/anaconda3/lib/python3.6/site-packages/ray/workers/default_worker.py", line 7, in <module>\n'
            "    import numpy as np\nImportError: No module named numpy\n")
    assert top(catalog, text) == ("DRV-package", "ray-worker-python-mismatch")


def test_the_same_import_in_the_users_code_is_a_missing_dependency(catalog):
    text = TB + "  File \"/home/user/reward.py\", line 2, in <module>\n    import numpy\nModuleNotFoundError: No module named 'numpy'\n"
    assert top(catalog, text) == ("DRV-package", "missing-dependency")


def test_a_wrapper_reraising_in_a_handler_leaves_the_handled_import_error_first(catalog):
    text = (TB + "    import torch_npu\nModuleNotFoundError: No module named 'torch_npu'\n\n"
            "During handling of the above exception, another exception occurred:\n\n"
            + TB + '  File "/usr/local/lib/python3.11/site-packages/sglang/srt/utils.py", line 1513, in get_npu_memory_capacity\n'
            '    raise ImportError("torch_npu is required when run on npu device.")\n'
            "ImportError: torch_npu is required when run on npu device.\n")
    assert top(catalog, text) == ("DRV-package", "missing-dependency")


def test_a_specific_handler_failure_still_outranks_what_it_handled(catalog):
    # the handler's own failure named by a specific entry ranks first, as before
    text = (TB + "ValueError: Unknown rollout quantization\n\n"
            "During handling of the above exception, another exception occurred:\n\n"
            + TB + "  File \"/x/sglang_rollout/async_sglang_server.py\", line 293, in launch_server\n"
            "ValueError: Currently only support fp8 quantization, got: awq\n")
    assert first_id(catalog, text) == "ARL-E5813"
