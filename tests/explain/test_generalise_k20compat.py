"""Stop 28 (k20compat): compat / cann-env readings generalised from the emitters' source, not from one thread.

Each test feeds a line as its emitter prints it (the project's source at the commit the catalog cites) and asserts
the answer, so a signature narrowed back to one thread's wording, or a class owner dropped, makes it fail.
"""

from __future__ import annotations


def test_a_custom_opp_the_loader_cannot_find_is_the_custom_opp_path(explain_text):
    # fla_npu/__init__.py _resolve_vendor_dir's FileNotFoundError (the path is the user's site-packages)
    text = ("FileNotFoundError: Unable to find FLA NPU custom OPP. Expected /home/user/.venv/lib/python3.11/site-packages/"
            "fla_npu/opp/vendors/fla_npu_transformer. If you installed it separately, source the custom OPP set_env.bash, "
            "or set FLA_NPU_OPP_PATH to either the OPP root containing vendors/ or the vendor directory itself.\n")
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E2110"


def test_the_custom_op_api_library_missing_at_dlopen_is_the_custom_opp_path(explain_text):
    text = "OSError: libcust_opapi.so: cannot open shared object file: No such file or directory\n"
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "ARL-E2110"


def test_the_builtin_op_api_library_missing_is_not_a_custom_package(explain_text):
    text = "OSError: libopapi.so: cannot open shared object file: No such file or directory\n"
    _, top = explain_text(text)
    assert top is None or top.entry.id != "ARL-E2110"


def test_input_batch_taking_another_releases_arguments_is_a_vllm_pair(explain_text):
    # vLLM's V1 InputBatch.__init__ (vllm/v1/worker/gpu_input_batch.py) built by a plugin's model runner written for
    # another vLLM; the paste keeps only the TypeError
    text = "TypeError: InputBatch.__init__() got an unexpected keyword argument 'max_num_blocks_per_req'\n"
    _, top = explain_text(text)
    assert top is not None and top.entry.id == "DRV-package" and top.kind == "package-mismatch"
    assert "vllm" in top.entry.title
