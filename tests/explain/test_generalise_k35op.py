"""Forms the readers did not join, read from the emitters' own wording (k35op).

- A C++ logger's record that is the only failure of a log (Classifier._native_unknown) is given to the analyzers with
  the lines printed under it: MindSpore's GE kernel executor prints its verdict on a node no Ascend kernel takes only
  as an ERROR record, "The current [<scope>] operator did not match any operator prototype library. The reason is:" and
  the reason below (PrintQueryAclTypeErr, mindspore/ccsrc/plugin/device/ascend/hal/hardware/ge_kernel_executor.cc):
  the supported dtype lists (kInValidType) or "needs to be supplemented with an adapter" (kUnknownOp).
  DRV-ms-op-prototype reads both; the head sentence alone names neither and stays the unexplained error.
- An issue title that puts the exception type in a template-like bracket ("[RuntimeError]: …") keeps the type.
- A tool's own sentence for a shared library its dlopen could not load ("Failed to load the libdcmi.so dynamic
  library.", Ascend DMI) is read as the loader's failure, which the library readers judge.
Pastes from public threads: hiascend forum thread 0265156669620709366, mmcv#2467, MindCluster ToolBox's guide.
"""

from __future__ import annotations

import dataclasses

import pytest
from kdata_helpers import classify

MS_HEAD = ("[ERROR] DEVICE(1130203,ffff85d4b010,python):2024-06-28-16:46:49.413.553 [mindspore/ccsrc/plugin/device/ascend/"
           "hal/hardware/ge_kernel_executor.cc:139] PrintQueryAclTypeErr] The current [Default/AvgPool3DGrad-op507] operator "
           "did not match any operator prototype library. The reason is:\n")
MS_DTYPES = ("The supported input and output data types for the current operator are:\n"
             "InputDesc [0] support {int32,}\nInputDesc [1] support {float16,float,double,}\n"
             "OutputDesc [0] support {float16,float,double,}\n")
MS_ADAPTER = "The current operator needs to be supplemented with an adapter, please check in `transform` directory.\n"


@pytest.fixture(scope="module")
def explain(catalog):
    def run(text: str, drop: tuple[str, ...] = ()):
        kept = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in drop)) if drop else catalog
        return classify(kept, text)
    return run


@pytest.mark.parametrize("reason, kind", [(MS_DTYPES, "op-dtype-unsupported-on-npu"), (MS_ADAPTER, "op-not-supported-on-npu")])
def test_mindspore_prototype_record_is_read_with_its_reason(reason, kind, explain):
    result = explain("==> Start Training...\n" + MS_HEAD + reason)
    top = result.diagnoses[0]
    assert (top.entry.id, top.basis, top.kind, top.fatal) == ("DRV-ms-op-prototype", "derived", kind, True)
    assert "AvgPool3DGrad" in top.entry.title and result.unknown is None


def test_the_head_alone_stays_unexplained(explain):
    result = explain(MS_HEAD)
    assert not result.diagnoses and result.unknown is not None and result.unknown.type == "Exception"
    assert "operator prototype library" in result.unknown.message


def test_a_fatal_exception_still_outranks_a_native_record(explain):
    result = explain(MS_HEAD + MS_DTYPES + "Traceback (most recent call last):\n  File \"t.py\", line 1, in <module>\n"
                      "ValueError: bad input for x\n")
    assert all(d.entry.id != "DRV-ms-op-prototype" for d in result.diagnoses)


def test_a_native_record_is_not_read_as_a_persons_words(explain):
    # analyzers.prose names classes in a person's sentence; a logger's record is the program's, and is left unknown
    result = explain("E0101 00:00:00.000000  1 worker.cc:10] the job hit a HCCL connect timeout on rank 3\n")
    assert not result.diagnoses and result.unknown is not None


@pytest.mark.parametrize("title, type_", [
    ("[RuntimeError]: modulated_deformable_im2col_impl: implementation for device xla:0 not found.", "RuntimeError"),
    ("[Bug]: [ValueError] bad value for x", "ValueError"),
])
def test_a_bracketed_type_in_a_title_is_kept(title, type_, explain):
    result = explain(title + "\n", drop=("ARL-E630",))
    if result.diagnoses:
        assert result.diagnoses[0].entry.id == "DRV-op-no-npu-kernel"
        assert result.diagnoses[0].kind == "op-not-supported-on-npu"
    else:
        assert result.unknown is not None and result.unknown.type == type_


def test_a_template_tag_is_still_no_type(explain):
    result = explain("[Bug]: vllm fails to start\n")
    assert result.unknown is None or result.unknown.type == "Exception"


@pytest.mark.parametrize("line", [
    "Failed to load the libdcmi.so dynamic library. Check the environment configuration dependency.",
    "[root@host]# ascend-dmi -c\nFailed to load the libdcmi.so dynamic library. Check the environment configuration dependency.",
])
def test_a_tools_failed_to_load_sentence_is_the_loaders_failure(line, explain):
    result = explain(line + "\n", drop=("ARL-E358",))
    top = result.diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-library", "dcmi-library-missing")


def test_a_load_failure_with_its_reason_is_read_by_its_reason(explain):
    result = explain("Failed to load libfoo.so: undefined symbol: bar\n")
    assert all(d.kind != "ld-library-path-missing" for d in result.diagnoses)


@pytest.mark.parametrize("line", [
    # vllm_ascend/worker/worker.py logs bind_cpus' RuntimeError and goes on: a warning, the run is not over
    "WARNING 03-10 10:00:00 [worker.py:805] Bind cpus failed in rank0: Can not get running npu info. Skip binding cpu.",
    "RuntimeError: Can not get running npu info.",
])
def test_cpu_binding_without_a_running_npu_is_a_warning(line, explain):
    result = explain(line + "\n")
    top = result.diagnoses[0]
    assert top.entry.id == "ARL-E2800" and not top.entry.fatal
    assert "ASCEND_RT_VISIBLE_DEVICES" in top.entry.cause and "enable_cpu_binding" in " ".join(top.entry.fix)
