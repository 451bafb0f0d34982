"""Readings added by helper k56pkg (2026-12-07) for the install and ABI layer under a verl stack, confirmed in the
emitters' source (glibc's dynamic loader at glibc-2.35, setuptools-scm v9.2.2, setuptools v75.8.0, uv 0.12.5,
pytorch/cpuinfo). Each test input is a short excerpt around the exact emitted message; each class also has a near miss
(similar words, another failure).

- ARL-E5960: the loader finding no ELF header in the file at a library's path ("X.so: invalid ELF header", "file too
  short"); before, unknown.
- ARL-E5961: a library aligned for 4 KiB pages on a 64 KiB-page kernel ("ELF load command address/offset not
  page-aligned"); before, unknown.
- ARL-E5962: mmap of a library's segment refused ("failed to map segment from shared object"); before, unknown.
- ARL-E5963: SELinux refusing a text-relocated library's mprotect ("cannot restore segment prot after reloc"); before,
  DRV-oserror's bare "Permission denied".
- ARL-E5964: a 32-bit library for a 64-bit process ("wrong ELF class: ELFCLASS32"); before, unknown.
- ARL-E5965: "<program>: symbol lookup error: X.so: undefined symbol: Y" (a generic reading: CANN symbols stay
  ARL-E349); before, nothing.
- ARL-E5966: the loader's "no version information available (required by ...)" warning; before, nothing.
- ARL-E5967: "setuptools-scm was unable to detect version for <dir>" (vLLM built from a tree without .git); before,
  unknown.
- ARL-E5968: setuptools < 77 rejecting a PEP 639 license string ("`project.license` must be valid exactly by one
  definition"); before, nothing or unknown.
- ARL-E5969: uv's first-index hint ("`torch` was found on <index>, but not at the requested version"); ranks over the
  resolver's own failure line (ARL-E270 / ARL-E615); before, ARL-E270.
- ARL-E5970: cpuinfo's "Error in cpuinfo: prctl(PR_SVE_GET_VL) failed" / "failed to parse the list of possible
  processors" start-up lines, a non-fatal warning below any real failure; before, nothing or unknown.
- ARL-E5971: pip's "Ignoring invalid distribution ~orch" (the leftovers of an interrupted pip run) and the "[Errno 39]
  Directory not empty: '.../~orch'" that follows; before, nothing or unknown.
- ARL-E5972: uv pip outside a virtual environment ("No virtual environment found; run `uv venv` ..."); before, unknown.
- ARL-E5973: uv finding no interpreter for the request ("No interpreter found for Python >=3.10 in managed
  installations or search path"); before, unknown.
- ARL-E5974: "version `GLIBC_PRIVATE' not found" (libraries of two glibc builds mixed); before, only a resemblance
  (SIM-glibc-too-old).
- ARL-E1684 widened: torch's BuildExtension warning "Attempted to use ninja as the BuildExtension backend but we could
  not find ninja." (a non-fatal signature); before, nothing.
- ARL-E700 widened: torch.from_numpy's "TypeError: expected np.ndarray (got numpy.ndarray)" (torch's numpy C API from
  another numpy than the running one); before, unknown.
"""

from __future__ import annotations

import functools

from ascendrl.catalog import load_catalog
from kdata_helpers import first_id

CATALOG = load_catalog()
_id = functools.partial(first_id, CATALOG)

SITE = "/usr/local/python3.10/lib/python3.10/site-packages"


def _import_error(message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/workspace/verl/verl/trainer/main_ppo.py", line 18, in <module>\n'
        "    import torch_npu\n"
        f"{message}\n"
    )


# ARL-E5960 -----------------------------------------------------------------------------------------------------------

def test_not_an_elf_file_is_e5960():
    for line in (
        f"ImportError: {SITE}/torch_npu/lib/libtorch_npu.so: invalid ELF header",
        "OSError: /workspace/verl/verl/custom_ops/libfused_kernels.so: invalid ELF header",
        "OSError: /usr/lib/aarch64-linux-gnu/libc.so: invalid ELF header",
        f"ImportError: {SITE}/vllm/_C.abi3.so: file too short",
    ):
        assert _id(_import_error(line)) == "ARL-E5960", line


def test_readelf_wrong_magic_is_not_e5960():
    assert _id("readelf: Error: Not an ELF file - it has the wrong magic bytes at the start\n") != "ARL-E5960"


# ARL-E5961 -----------------------------------------------------------------------------------------------------------

def test_page_alignment_is_e5961():
    for line in (
        f"ImportError: {SITE}/torch/lib/libgomp-6e1a1d1b.so.1.0.0: ELF load command address/offset not page-aligned",
        f"ImportError: {SITE}/torch/lib/libtorch_cpu.so: ELF load command address/offset not properly aligned",
        "OSError: /opt/app/lib/libcef.so: ELF load command alignment not page-aligned",
    ):
        assert _id(_import_error(line)) == "ARL-E5961", line


def test_other_alignment_words_are_not_e5961():
    assert _id("RuntimeError: The tensor's storage offset is not aligned to 64 bytes\n") != "ARL-E5961"


# ARL-E5962 -----------------------------------------------------------------------------------------------------------

def test_segment_map_failure_is_e5962():
    for line in (
        "ImportError: /tmp/torch_extensions/py310_cpu/fused_adam/fused_adam.so: failed to map segment from shared object",
        f"ImportError: {SITE}/torch/lib/libtorch_cpu.so: failed to map segment from shared object: Operation not permitted",
        f"OSError: {SITE}/torch/lib/libtorch_cpu.so: cannot map zero-fill pages: Cannot allocate memory",
    ):
        assert _id(_import_error(line)) == "ARL-E5962", line


def test_mmap_failure_of_a_checkpoint_is_not_e5962():
    assert _id("OSError: [Errno 12] Cannot allocate memory: mmap of /data/ckpt/model.safetensors failed\n") != "ARL-E5962"


# ARL-E5963 -----------------------------------------------------------------------------------------------------------

def test_selinux_textrel_is_e5963():
    for line in (
        f"ImportError: {SITE}/vendor_tokenizer/_core.so: cannot restore segment prot after reloc: Permission denied",
        f"ImportError: {SITE}/vendor_tokenizer/_core.so: cannot change memory protections",
    ):
        assert _id(_import_error(line)) == "ARL-E5963", line


def test_plain_permission_denied_is_not_e5963():
    assert _id(_import_error(f"PermissionError: [Errno 13] Permission denied: '{SITE}/yaml'")) != "ARL-E5963"


# ARL-E5964 -----------------------------------------------------------------------------------------------------------

def test_wrong_elf_class_is_e5964():
    for line in (
        "OSError: /opt/vendor/sdk/lib/libvendorio.so: wrong ELF class: ELFCLASS32",
        "ImportError: /usr/lib64/libfoo.so.1: wrong ELF class: ELFCLASS64",
    ):
        assert _id(_import_error(line)) == "ARL-E5964", line


def test_exec_format_error_is_not_e5964():
    assert _id("OSError: [Errno 8] Exec format error: '/usr/local/bin/ray'\n") != "ARL-E5964"


# ARL-E5965 -----------------------------------------------------------------------------------------------------------

def test_runtime_symbol_lookup_error_is_e5965():
    for line in (
        f"python3: symbol lookup error: {SITE}/torch/lib/libtorch_cpu.so: undefined symbol: iJIT_NotifyEvent",
        "/usr/bin/python3: symbol lookup error: /lib/x86_64-linux-gnu/libcurl.so.4: undefined symbol: "
        "nghttp2_option_set_no_rfc9113_leading_and_trailing_ws_validation",
    ):
        assert _id("root@train-0:/workspace/verl# python3 -m verl.trainer.main_ppo\n" + line + "\n") == "ARL-E5965", line


def test_cann_symbol_lookup_error_stays_e349():
    line = (f"python3: symbol lookup error: {SITE}/torch_npu/lib/libtorch_npu.so: undefined symbol: "
            "aclrtGetDeviceResLimit")
    assert _id(line + "\n") == "ARL-E349"


# ARL-E5966 -----------------------------------------------------------------------------------------------------------

def test_no_version_information_is_e5966():
    for line in (
        "bash: /opt/conda/envs/verl/lib/libtinfo.so.6: no version information available (required by bash)",
        "/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so: /lib/aarch64-linux-gnu/libtinfo.so.6: "
        "no version information available (required by /usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so)",
    ):
        assert _id(line + "\n") == "ARL-E5966", line


def test_a_real_failure_after_the_warning_ranks_first():
    text = ("bash: /opt/conda/envs/verl/lib/libtinfo.so.6: no version information available (required by bash)\n"
            + _import_error(f"ImportError: {SITE}/torch_npu/lib/libtorch_npu.so: invalid ELF header"))
    assert _id(text) == "ARL-E5960"


# ARL-E5967 -----------------------------------------------------------------------------------------------------------

def test_setuptools_scm_without_git_is_e5967():
    for root in ("/workspace/vllm-0.9.1", "/tmp/pip-req-build-7ptioibj", "/workspace"):
        assert _id(f"      LookupError: setuptools-scm was unable to detect version for {root}.\n") == "ARL-E5967", root


def test_other_lookup_errors_are_not_e5967():
    assert _id("LookupError: unknown encoding: utf-8-sig-x\n") != "ARL-E5967"


# ARL-E5968 -----------------------------------------------------------------------------------------------------------

def test_old_setuptools_license_string_is_e5968():
    for line in (
        "      configuration error: `project.license` must be valid exactly by one definition (2 matches found):",
        "      ValueError: invalid pyproject.toml config: `project.license`.",
    ):
        assert _id(line + "\n") == "ARL-E5968", line


def test_other_pyproject_fields_are_not_e5968():
    text = ("ValueError: invalid pyproject.toml config: `tool.setuptools.packages`.\n"
            "configuration error: `tool.setuptools.packages` must be valid exactly by one definition\n")
    assert _id(text) != "ARL-E5968"


# ARL-E5969 -----------------------------------------------------------------------------------------------------------

def test_uv_first_index_hint_is_e5969():
    text = (
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because there is no version of torch==2.5.1 and you require torch==2.5.1, we can conclude that your "
        "requirements are unsatisfiable.\n\n"
        "      hint: `torch` was found on https://download.pytorch.org/whl/cpu, but not at the requested version "
        "(torch==2.5.1). A compatible version may be available on a subsequent index (e.g., https://pypi.org/simple).\n"
    )
    assert _id(text) == "ARL-E5969"


def test_uv_without_the_hint_is_not_e5969():
    text = (
        "  × No solution found when resolving dependencies:\n"
        "  ╰─▶ Because there is no version of torch==2.5.1 and you require torch==2.5.1, we can conclude that your "
        "requirements are unsatisfiable.\n"
    )
    assert _id(text) != "ARL-E5969"


# ARL-E5970 -----------------------------------------------------------------------------------------------------------

def test_cpuinfo_start_up_lines_are_e5970():
    for line in (
        "Error in cpuinfo: prctl(PR_SVE_GET_VL) failed",
        "Error in cpuinfo: failed to parse the list of possible processors in /sys/devices/system/cpu/possible",
        "Error in cpuinfo: failed to parse both lists of possible and present processors",
    ):
        assert _id(line + "\n") == "ARL-E5970", line


def test_cpuinfo_line_ranks_below_the_real_failure():
    text = ("Error in cpuinfo: prctl(PR_SVE_GET_VL) failed\n"
            + _import_error(f"ImportError: {SITE}/torch/lib/libgomp-6e1a1d1b.so.1.0.0: ELF load command "
                            "address/offset not page-aligned"))
    assert _id(text) == "ARL-E5961"


def test_other_cpuinfo_text_is_not_e5970():
    assert _id("cat: /proc/cpuinfo: No such file or directory\n") != "ARL-E5970"


# ARL-E5971 -----------------------------------------------------------------------------------------------------------

def test_pip_tilde_leftovers_are_e5971():
    for line in (
        f"WARNING: Ignoring invalid distribution ~orch ({SITE})",
        "WARNING: Ignoring invalid distribution -umpy (/usr/local/lib/python3.10/site-packages)",
        f"ERROR: Could not install packages due to an OSError: [Errno 39] Directory not empty: '{SITE}/~orch'",
    ):
        assert _id(line + "\n") == "ARL-E5971", line


def test_other_directory_not_empty_is_not_e5971():
    assert _id("OSError: [Errno 39] Directory not empty: '/data/ckpt/global_step_10'\n") != "ARL-E5971"


# ARL-E5972 -----------------------------------------------------------------------------------------------------------

def test_uv_without_venv_is_e5972():
    for line in (
        "error: No virtual environment found; run `uv venv` to create an environment, or pass `--system` to install "
        "into a non-virtual environment",
        "error: No virtual environment found for Python 3.12; run `uv venv` to create an environment, or pass "
        "`--system` to install into a non-virtual environment",
    ):
        assert _id(line + "\n") == "ARL-E5972", line


def test_pip_user_site_in_venv_is_not_e5972():
    text = "ERROR: Can not perform a '--user' install. User site-packages are not visible in this virtualenv.\n"
    assert _id(text) != "ARL-E5972"


# ARL-E5973 -----------------------------------------------------------------------------------------------------------

def test_uv_no_interpreter_is_e5973():
    for line in (
        "error: No interpreter found for Python >=3.10 in managed installations or search path",
        "error: No interpreter found for Python 3.11 in virtual environments, managed installations, or search path",
    ):
        assert _id(line + "\n") == "ARL-E5973", line


def test_pip_requires_python_is_not_e5973():
    assert _id("ERROR: Package 'verl' requires a different Python: 3.8.10 not in '>=3.10'\n") != "ARL-E5973"


# ARL-E5974 -----------------------------------------------------------------------------------------------------------

def test_glibc_private_is_e5974():
    line = ("python3: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_PRIVATE' not found (required by "
            "/opt/conda/envs/verl/lib/libpthread.so.0)")
    assert _id(line + "\n") == "ARL-E5974"


def test_numbered_glibc_version_stays_e017():
    line = (f"ImportError: /lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by "
            f"{SITE}/vllm/_C.abi3.so)")
    assert _id(line + "\n") == "ARL-E017"


# ARL-E1684 (widened) -------------------------------------------------------------------------------------------------

def test_buildextension_without_ninja_is_e1684():
    line = (f"{SITE}/torch/utils/cpp_extension.py:476: UserWarning: Attempted to use ninja as the BuildExtension "
            "backend but we could not find ninja.. Falling back to using the slow distutils backend.")
    assert _id(line + "\n") == "ARL-E1684"


def test_buildextension_warning_ranks_below_a_real_build_failure():
    text = ("W0805 19:03:06.669000 29593 torch/utils/cpp_extension.py:680] Attempted to use ninja as the BuildExtension "
            "backend but we could not find ninja.. Falling back to using the slow distutils backend.\n"
            "LookupError: setuptools-scm was unable to detect version for /workspace/vllm.\n")
    assert _id(text) == "ARL-E5967"


# ARL-E700 (widened) --------------------------------------------------------------------------------------------------

def test_from_numpy_type_mismatch_is_e700():
    text = ("  File \"/workspace/verl/verl/utils/dataset/rl_dataset.py\", line 210, in __getitem__\n"
            "    input_ids = torch.from_numpy(ids)\n"
            "TypeError: expected np.ndarray (got numpy.ndarray)\n")
    assert _id(text) == "ARL-E700"


def test_from_numpy_with_a_list_is_not_e700():
    assert _id("TypeError: expected np.ndarray (got list)\n") != "ARL-E700"
