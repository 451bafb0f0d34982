"""Session 16, helper kcompat: compat wordings of other releases and emitters (uv, CPython 3.13, the loader), and
the near misses that must stay outside each class."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("paste,entry", [
    # uv's resolver on an exact pin the index does not have (pip's form is the entry's first signature)
    ("  × No solution found when resolving dependencies:\n  ╰─▶ Because there is no version of xgrammar==0.1.11 and you "
     "require xgrammar==0.1.11, we can conclude that your requirements are unsatisfiable.\n", "ARL-E615"),
    # a from-import of a listed package that resolved to a folder without __init__.py (a namespace package)
    ("ImportError: cannot import name 'LLM' from 'vllm' (unknown location)\n", "ARL-E082"),
    # CPython 3.13's own shadowing hints, third-party and standard-library forms
    ("ImportError: cannot import name 'load_dataset' from 'datasets' (consider renaming '/home/user/datasets.py' "
     "if it has the same name as a library you intended to import)\n", "ARL-E082"),
    ("AttributeError: module 'random' has no attribute 'randint' (consider renaming '/home/user/random.py' since it "
     "has the same name as the standard library module named 'random' and prevents importing that standard library module)\n",
     "ARL-E082"),
    # the loader's version node of libstdc++'s C++ ABI, next to GLIBCXX_*
    ("ImportError: /lib64/libstdc++.so.6: version `CXXABI_1.3.8' not found (required by "
     "/home/user/envs/a/lib/python3.9/site-packages/pkg/_ext.so)\n", "ARL-E017"),
    # an extension older than Python 3.10's '#'-format rule
    ("SystemError: PY_SSIZE_T_CLEAN macro must be defined for '#' formats\n", "ARL-E244"),
])
def test_the_class_is_named_in_each_wording(explain_text, paste, entry):
    result, top = explain_text(paste)
    assert top is not None and top.entry.id == entry and result.fatal, top


@pytest.mark.parametrize("paste,entry", [
    # a missing name in a package imported from its real file is a version pair, not a shadow
    ("ImportError: cannot import name 'selective_log_softmax' from 'trl.trainer.utils' "
     "(/usr/local/lib/python3.10/site-packages/trl/trainer/utils.py)\n", "ARL-E082"),
    # the same from-import cut before its location: nothing says where the module came from
    ("ImportError: cannot import name 'AscendFusedMoE'\n", "ARL-E082"),
    ("ImportError: cannot import name 'AsyncEngineArgs' from 'vllm'\n", "ARL-E082"),
    # google.* is a namespace package when installed: "unknown location" there is a missing distribution
    ("ImportError: cannot import name 'genai' from 'google' (unknown location)\n", "ARL-E082"),
    # uv on a package the index lacks altogether, and on a range, is not the pinned-version case
    ("  ╰─▶ Because there are no versions of torch-npu and you require torch-npu, we can conclude that your requirements "
     "are unsatisfiable.\n", "ARL-E615"),
    ("  ╰─▶ Because there is no version of numpy>=3.0 and you require numpy>=3.0, we can conclude that your requirements "
     "are unsatisfiable.\n", "ARL-E615"),
])
def test_near_misses_are_not_the_class(explain_text, paste, entry):
    _, top = explain_text(paste)
    assert top is None or top.entry.id != entry, top


FLASH_IMPORT = (
    "Traceback (most recent call last):\n"
    "  File \"/usr/lib/python3.10/site-packages/flash_attn/flash_attn_interface.py\", line 10, in <module>\n"
    "    import flash_attn_2_cuda as flash_attn_cuda\n")


@pytest.mark.parametrize("error,kind", [
    # an undefined symbol: the loader found every CUDA library the extension links, so it was built for another torch
    ("ImportError: /usr/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: "
     "_ZN3c104cuda9SetDeviceEi\n", "extension-torch-abi-mismatch"),
    # CUDA's runtime not found: the CUDA-only package on a host without CUDA, as before
    ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory\n", "cuda-only-package-on-npu"),
])
def test_a_cuda_only_package_failing_to_load_is_read_by_what_the_loader_missed(explain_text, error, kind):
    _, top = explain_text(FLASH_IMPORT + error)
    assert top is not None and top.kind == kind, top
