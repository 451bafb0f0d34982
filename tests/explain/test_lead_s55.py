"""The twenty-fourth stop's lead readings (each confirmed in the emitting source or measured on the dev logs).

- A resemblance to the same words around another DCMI / driver / HCCL code is no resemblance: the code is the failure
  ("dcmi module initialize failed. ret is -8008" is a device that does not exist, not -8005's device held elsewhere).
  DCMI's "ret is N" keeps its number in the templates, as "error code is N" did.
- Ray's raylet line "Failed to create runtime env: {…}, error message: …" (agent_manager.cc) is ARL-E166.
- ARL-E4185: Triton's CompilationError carrying AttributeError("'tensor' object has no attribute 'X'"): a kernel calling a
  tensor method the installed Triton lacks (round 53's LlamaFactory-5784: Liger's .cast on an older Triton).
- ARL-E4186: NCCL's NVLS setup (transport/nvls.cc) reporting a CUDA failure on an NVSwitch host.
- An issue title pasted as a markdown heading ("# AssertionError: …") is read as the exception it names.
- DeepSpeed's launcher line "<cmd> exits with return code = -9" is a worker killed by SIGKILL (ARL-E4366, host OOM).
"""

from __future__ import annotations

from kdata_helpers import classify

from ascendrl.catalog.similar import Example, Index, codes_conflict, error_codes, templates


def test_dcmis_return_code_stays_in_the_template():
    assert templates(["dcmi module initialize failed. ret is -8008"]) == ["dcmi module initialize failed. ret is -8008"]
    assert error_codes(templates(["dcmi module initialize failed. ret is -8008"])) == {"dcmi:-8008"}


def test_another_dcmi_code_is_no_resemblance():
    held = Example("a", "https://example.invalid/a", "dcmi-device-occupied", None, "", "device",
                   ("dcmi module initialize failed. ret is -8005",))
    query = templates(["dcmi module initialize failed. ret is -8008"])
    index = Index([held])
    assert index.nearest(templates(["dcmi module initialize failed."])) is not None  # the words alone: a resemblance
    assert index.nearest(query) is None
    assert index.nearest(templates(["dcmi module initialize failed. ret is -8005"])) is not None


def test_codes_conflict_only_within_an_identifying_table():
    assert codes_conflict(frozenset({"dcmi:-8008"}), frozenset({"dcmi:-8005"}))
    assert not codes_conflict(frozenset({"dcmi:-8005", "EZ9999"}), frozenset({"dcmi:-8005"}))
    # ACL runtime codes around one long message name one class (a task failed on the device): not a conflict
    assert not codes_conflict(frozenset({"507048"}), frozenset({"507035"}))
    assert not codes_conflict(frozenset({"EZ9999"}), frozenset({"EE9999"}))
    assert not codes_conflict(frozenset(), frozenset({"dcmi:-8005"}))


def test_the_pasted_dcmi_code_is_decoded_not_resembled(explain_text):
    _, top = explain_text("dcmi module initialize failed. ret is -8008\n")
    assert top is not None and top.entry.id == "DRV-code" and "8008" in top.entry.title


def test_rays_raylet_runtime_env_failure_line_is_e166(catalog):
    text = ('[2021-07-14 14:21:28,621 E 21484 7063843] agent_manager.cc:122: Failed to create runtime env: {"conda": null, '
            '"env_vars": null, "pip": "tensorflow==1.15\\n", "working_dir": null}, error message: Non-zero exit code\n')
    ids = [d.entry.id for d in classify(catalog, text).diagnoses]
    assert "ARL-E166" in ids


def test_the_delete_line_is_not_a_setup_failure(catalog):
    text = ('[2023-01-01 00:00:00,000 E 1 2] agent_manager.cc:300: Failed to delete runtime env for {"pip": ["x"]}, '
            'error message: gone\n')
    assert "ARL-E166" not in [d.entry.id for d in classify(catalog, text).diagnoses]


DS = ("[2023-11-13 16:59:54,760] [INFO] [launch.py:314:sigkill_handler] Killing subprocess 9439\n"
      "[2023-11-13 16:59:55,650] [ERROR] [launch.py:320:sigkill_handler] ['/opt/conda/bin/python', '-u', 'train.py', "
      "'--local_rank=1'] exits with return code = {code}\n")


def test_deepspeeds_launcher_reporting_sigkill_is_e4366(catalog):
    assert "ARL-E4366" == classify(catalog, DS.format(code=-9)).diagnoses[0].entry.id


def test_deepspeeds_launcher_reporting_exit_code_1_is_not_a_sigkill(catalog):
    assert "ARL-E4366" not in [d.entry.id for d in classify(catalog, DS.format(code=1)).diagnoses]


KERNEL = ("triton.compiler.errors.CompilationError: at 4:31:def _swiglu_forward_kernel(\n"
          "    a_ptr, b_ptr, c_ptr, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr\n):\n"
          "    program_id = tl.program_id(0).cast(tl.int64)\n                               ^\n")


def test_a_triton_tensor_lacking_a_method_is_e4185(catalog):
    text = KERNEL + "AttributeError(\"'tensor' object has no attribute 'cast'\")\n"
    assert classify(catalog, text).diagnoses[0].entry.id == "ARL-E4185"


def test_another_objects_missing_attribute_is_not_e4185(catalog):
    text = KERNEL + "AttributeError(\"'NoneType' object has no attribute 'shape'\")\n"
    assert "ARL-E4185" not in [d.entry.id for d in classify(catalog, text).diagnoses]


def test_an_issue_title_as_a_markdown_heading_is_read(explain_text):
    result, top = explain_text("# AssertionError: APEX and CUDA required for fused optimizers\n"
                               "I have four gpus and installed apex but still I am getting this error.\n")
    assert result.unknown is not None and result.unknown.type == "AssertionError"


def test_a_heading_that_names_no_exception_is_left_alone(explain_text):
    result, top = explain_text("# Training notes\nEverything ran fine on 8 cards.\n")
    assert top is None and result.unknown is None


def test_nccls_nvls_setup_cuda_failure_is_e4186(catalog):
    text = ("node23:12098:12141 [2] transport/nvls.cc:244 NCCL WARN Cuda failure 1 'invalid argument'\n"
            "node23:12098:12141 [2] NCCL INFO transport/nvls.cc:394 -> 1\n")
    assert classify(catalog, text).diagnoses[0].entry.id == "ARL-E4186"


def test_a_cuda_failure_of_another_nccl_transport_is_not_e4186(catalog):
    text = "node23:12098:12141 [2] transport/p2p.cc:200 NCCL WARN Cuda failure 1 'invalid argument'\n"
    assert "ARL-E4186" not in [d.entry.id for d in classify(catalog, text).diagnoses]
