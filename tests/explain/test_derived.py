"""Chains and derived diagnoses on golden pastes: each analyzer alone, and its answer merged with the catalog's.

``tests/explain/derived/<name>.log`` with ``<name>.expect``, one ``field: value`` a line:

- ``derived: DRV-…`` — the analyzer that explains the failure. With a catalog lacking every entry
  the case lists (``catalog:``), it is the top diagnosis, basis ``derived``, with evidence, cause,
  fix and source.
- ``catalog: ARL-…`` — the entry that names the same failure. With the full catalog it is the top
  diagnosis, basis ``catalog``; the analyzer's finding is folded into it, not a competing diagnosis.
- ``note: <text>`` — a specific the analyzer reads from the log (a path, a number, a knob): in the
  analyzer's own answer, and in the notes of the catalog diagnosis.
- ``unknown: <ExceptionType>`` — nothing explains it; the answer is the unexplained exception.
- ``fatal: no`` — the finding reports a problem that does not end the run by itself (pip's resolver
  conflict): the answer is the top diagnosis but not fatal.
- ``kind: <label>`` — the root-cause label the analyzer recognises (the labels of tests/explain/realworld): the
  derived answer's kind, and the kind folded into the catalog diagnosis.
"""

from __future__ import annotations

import dataclasses
import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascendrl.catalog import Catalog, Classifier, explain_paths
from ascendrl.catalog.analyzers import registry
from ascendrl.catalog.codes import decode, extract
from ascendrl.catalog.normalize import strip_escapes, strip_prefixes
from ascendrl.cli import main

HERE = Path(__file__).parent
CASES = sorted((HERE / "derived").glob("*.log"))
FIELDS = ("derived", "catalog", "note", "unknown", "kind", "fatal")


def expect(log: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {f: [] for f in FIELDS}
    for line in log.with_suffix(".expect").read_text().splitlines():
        if line.strip():
            field, _, value = line.partition(":")
            assert field in FIELDS and value.strip(), (log.name, line)
            out[field].append(value.strip())
    assert out["derived"] or out["catalog"] or out["unknown"], log.name
    return out


DERIVED_CASES = [p for p in CASES if expect(p)["derived"]]


def without(catalog: Catalog, ids: list[str]) -> Catalog:
    """The catalog lacking the entries that name a case's failure: what the analyzer faces alone."""
    assert all(catalog.by_id(i) is not None for i in ids), ids
    return dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in ids))


def _text(d) -> str:
    return " ".join([d.entry.title, d.entry.cause, *d.entry.fix])


@pytest.mark.parametrize("log", DERIVED_CASES, ids=lambda p: p.stem)
def test_analyzer_alone(log, catalog):
    want = expect(log)
    result = explain_paths(without(catalog, want["catalog"]), [log])
    assert result.fatal is (want["fatal"] != ["no"]), (result.diagnoses, result.unknown)
    top = result.diagnoses[0]
    assert (top.entry.id, top.basis) == (want["derived"][0], "derived"), [(d.entry.id, d.basis, d.demoted_by) for d in result.diagnoses]
    assert top.entry.cause and top.entry.fix and top.evidence and top.entry.sources and top.kind
    for note in want["note"]:
        assert note in _text(top), (note, _text(top))
    for kind in want["kind"]:
        assert top.kind == kind, (top.kind, kind)


@pytest.mark.parametrize("log", CASES, ids=lambda p: p.stem)
def test_with_the_full_catalog(log, catalog):
    want = expect(log)
    result = explain_paths(catalog, [log])
    assert result.fatal is (want["fatal"] != ["no"]), (result.diagnoses, result.unknown)
    if want["unknown"]:  # without the entries that name it, the failure is still read as this exception
        alone = explain_paths(without(catalog, want["catalog"]), [log]) if want["catalog"] else result
        assert alone.unknown is not None and alone.unknown.type == want["unknown"][0], alone.unknown
        if not want["catalog"]:
            return
    top = result.diagnoses[0]
    ranked = [(d.entry.id, d.basis, d.demoted_by) for d in result.diagnoses]
    for kind in want["kind"]:
        assert top.kind == kind, (top.kind, kind)
    if not want["catalog"]:
        assert (top.entry.id, top.basis) == (want["derived"][0], "derived"), ranked
        return
    assert (top.entry.id, top.basis) == (want["catalog"][0], "catalog"), ranked
    if want["derived"]:  # the analyzer's answer is folded into the entry: its evidence, its label, its specifics
        assert top.evidence and top.kind, top
        assert not any(d.basis == "derived" and d.demoted_by is None and d.line == top.line for d in result.diagnoses), ranked
    for note in want["note"]:
        assert any(note in n for n in top.notes), (note, top.notes)


def test_every_analyzer_has_a_golden_case():
    expected = {expect(p)["derived"][0] for p in DERIVED_CASES}
    ids = {a.id for a in registry()}
    assert ids <= expected, ids - expected


def test_a_merged_case_is_one_where_the_catalog_names_the_analyzers_failure(catalog):
    """The merge is real: in each listed case the full catalog's top entry would otherwise compete with the analyzer."""
    merged = [p for p in DERIVED_CASES if expect(p)["catalog"]]
    assert len(merged) >= 10
    for log in merged:
        alone = explain_paths(without(catalog, expect(log)["catalog"]), [log]).diagnoses[0]
        full = explain_paths(catalog, [log]).diagnoses[0]
        # The same link: the same line, or the catalog matched a line of the analyzer's evidence
        # (a CANN block: "EE9999: Inner Error!" then the AI Core/vector exception line under it; a CMake error whose
        # message lines the analyzer's evidence joins, "CMake Error at …: <message>", the catalog matching one of them).
        # Or the catalog matched the same message quoted whole in a sentence above it (a PR description quoting the error
        # it fixes, then the error itself: k50compat's protobuf case).
        same_line = (alone.file, alone.line) == (full.file, full.line)
        quoted = any(e.strip() and e.strip() in full.excerpt for e in alone.evidence)
        assert same_line or (alone.file == full.file and (any(full.excerpt in e for e in alone.evidence) or quoted)), log.name


def classify(catalog, text: str):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(text.encode()), "paste")
    return c.result()


def test_remote_exception_beats_the_ray_wrapper_and_names_both_packages(catalog):
    result = explain_paths(catalog, [HERE / "derived" / "import_name_under_ray.log"])
    top = result.diagnoses[0]
    assert "verl" in top.entry.title and "vllm" in top.entry.title
    assert any(d.entry.id == "ARL-E112" and d.demoted_by for d in result.diagnoses) or all(
        d.entry.id != "ARL-E112" for d in result.diagnoses[:1]
    )


def test_enospc_names_the_writer_and_the_path(catalog):
    log = HERE / "derived" / "enospc_checkpoint.log"
    top = explain_paths(without(catalog, ["ARL-E003"]), [log]).diagnoses[0]
    assert "checkpoint" in top.entry.title and "global_step_50" in top.entry.title
    assert any("default_local_dir" in step for step in top.entry.fix)
    merged = explain_paths(catalog, [log]).diagnoses[0]
    assert merged.entry.id == "ARL-E003" and merged.kind == "enospc"
    assert merged.notes[0].startswith("DRV-oserror: ") and "verl's checkpoint saving" in merged.notes[0] and "global_step_50" in merged.notes[0]
    assert any(n.startswith("set trainer.default_local_dir") for n in merged.notes)


def test_kv_cache_numbers_give_the_knob_and_the_amount(catalog):
    log = HERE / "derived" / "kv_cache_too_small.log"
    top = explain_paths(without(catalog, ["ARL-E216"]), [log]).diagnoses[0]
    assert "13600" in " ".join(top.entry.fix) and "6.00 GiB" in top.entry.cause
    merged = explain_paths(catalog, [log]).diagnoses[0]
    assert merged.entry.id == "ARL-E216" and any("rollout.max_model_len" in n and "13600" in n for n in merged.notes)


def test_equal_chunk_suggests_a_multiple(catalog):
    log = HERE / "derived" / "verl_equal_chunk.log"
    top = explain_paths(without(catalog, ["ARL-E126"]), [log]).diagnoses[0]
    text = top.entry.cause + " ".join(top.entry.fix)
    assert "1024" in text and "data.train_batch_size" in text
    merged = explain_paths(catalog, [log]).diagnoses[0]
    assert merged.entry.id == "ARL-E126" and any("data.train_batch_size" in n for n in merged.notes)


def test_unknown_key_suggests_the_nearest_valid_key(catalog):
    result = classify(without(catalog, ["ARL-E130"]), "omegaconf.errors.ConfigAttributeError: Key 'ppo_mini_batch' is not in struct\n    full_key: actor_rollout_ref.actor.ppo_mini_batch\n")
    hydra = [d for d in result.diagnoses if d.entry.id == "DRV-hydra-key"]
    assert hydra and any("actor_rollout_ref.actor.ppo_mini_batch_size" in s for s in hydra[0].entry.fix)


def test_catalog_diagnosis_gets_the_numbers_as_notes(catalog):
    line = ("torch.OutOfMemoryError: NPU out of memory. Tried to allocate 4.00 GiB (NPU 0; 60.97 GiB total capacity; "
            "50.01 GiB already allocated; 50.01 GiB current active; 1.27 GiB free; 57.68 GiB reserved in total by PyTorch)")
    top = classify(catalog, "Traceback (most recent call last):\n  File \"/w/verl/x.py\", line 1, in f\n" + line + "\n").diagnoses[0]
    assert top.entry.id == "ARL-E204" and top.basis == "catalog"
    assert any("short by 2.73 GiB" in n for n in top.notes) and any("0.05" in n for n in top.notes)


def test_handled_traceback_is_not_fatal_and_healthy_codes_are_not_fatal(catalog):
    log = "Traceback (most recent call last):\n  File \"/w/verl/x.py\", line 1, in f\nModuleNotFoundError: No module named 'flash_attn'\nstep:1 - ok\n"
    assert not classify(catalog, log).fatal
    plog = "[INFO] RUNTIME(123,python):2025-11-20-10:00:00.000 [memcpy.cc:100] rtMemcpy ret 107030 ignored\nstep:1 - ok\n"
    assert not classify(catalog, plog).fatal
    # A serving log has no step lines: a logged, handled runtime code must still not be fatal.
    capture = "[ERROR] RUNTIME(4242,python):2025-11-20-10:00:00.000 [api.cc:10] rtMemcpy failed, runtime result = 107030\n"
    vllm_c = "WARNING 11-20 10:03:12 [_custom_ops.py:20] Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")\n"
    result = classify(catalog, "INFO 11-20 10:00:00 [api_server.py:1] vLLM API server version 0.11.0\n" + capture + vllm_c)
    assert not result.fatal, (result.diagnoses, result.unknown)


def test_codes_are_extracted_and_decoded():
    assert extract("RuntimeError: ... HcclAllreduce, error code is 107020 [ERROR] ERR01100 EI0002: x") == ["107020", "ERR01100", "EI0002"]
    assert decode("507015").name == "ACL_ERROR_RT_AICORE_EXCEPTION"
    assert decode("ERR00100").meaning.startswith("an ACL")
    assert decode("hccl:9").name == "HCCL_E_TIMEOUT"
    assert "HCCP" in decode("EJ0007").meaning and decode("EJ0003").name == "Bind failed"
    assert decode("999999") is None


def test_normalisation_of_escapes_and_prefixes():
    assert strip_escapes(b"\x1b[31mValueError: x\x1b[0m") == b"ValueError: x"
    for esc in ("#033[31m", "^[[31m", "\\x1b[31m", "\\u001b[31m"):
        assert strip_prefixes(esc + "ValueError: x" + esc[:-3] + "0m")[0] == "ValueError: x"
    assert strip_prefixes("Nov 30 10:00:01 node1 python3[42]: KeyError: 'a'")[0] == "KeyError: 'a'"
    assert strip_prefixes("[pod/trainer-0/main] 2025-11-20T10:20:01.1Z KeyError: 'a'")[0] == "KeyError: 'a'"
    text, key = strip_prefixes("(WorkerDict pid=7, ip=1.2.3.4) [rank3]: KeyError: 'a'")
    assert text == "KeyError: 'a'" and "pid=7" in key and "[rank3]" in key


def test_prefixes_that_look_like_a_syslog_header_or_a_pipeline_stage():
    # a container timestamp before an exception whose message has a colon is not "<ts> <host> <program>: "
    assert strip_prefixes("2026-12-01T02:52:20.123456789Z ImportError: libhccl.so: cannot open shared object file")[0] == (
        "ImportError: libhccl.so: cannot open shared object file"
    )
    assert strip_prefixes("2026-12-01T02:52:20Z fatal error: 'inner_interface/x.h' file not found")[0].startswith("fatal error:")
    assert strip_prefixes("2026-12-01T02:52:20+0000 node1 python3[42]: KeyError: 'a'")[0] == "KeyError: 'a'"
    # vLLM-Omni's stage workers: "[Stage-0] " before vLLM's own logger prefix
    text, key = strip_prefixes("[Stage-0] ERROR 01-21 17:28:55 [gpu_worker.py:226] ImportError: cannot import name 'X' from 'y'")
    assert text == "ImportError: cannot import name 'X' from 'y'" and "[Stage-0]" in key


def test_quoted_indented_and_python_logging_prefixes():
    # a GitHub reply quoting a paste, a paste indented as a whole, Python logging's default format at ERROR
    assert strip_prefixes("> > Traceback (most recent call last):")[0] == "Traceback (most recent call last):"
    assert strip_prefixes(">>> import torch_npu")[0] == ">>> import torch_npu"  # a REPL prompt stays
    assert strip_prefixes("    ERROR 08-28 02:33:28 [core.py:634] RuntimeError: x")[0] == "RuntimeError: x"
    assert strip_prefixes("ERROR 08-13 11:28:36 (multiproc_executor.py:1004) RuntimeError: x")[0] == "RuntimeError: x"
    assert strip_prefixes("INFO 08-13 11:28:36 (core.py:1) RuntimeError: x")[0].startswith("INFO")  # handled at INFO
    # the same logger with the year and milliseconds in its date (vllm-ascend#3785)
    assert strip_prefixes("ERROR 2025-10-25 15:32:13.272 [multiproc_executor.py:597] KeyError: 'x'")[0] == "KeyError: 'x'"
    assert strip_prefixes("INFO 2025-10-25 15:32:13.272 [core.py:1] KeyError: 'x'")[0].startswith("INFO")
    # vLLM's logger cut to its location tag by the paster: stripped before a traceback's own lines only
    assert strip_prefixes("[core.py:710] Traceback (most recent call last):")[0] == "Traceback (most recent call last):"
    assert strip_prefixes('[core.py:710]   File "a.py", line 1, in f')[0] == '  File "a.py", line 1, in f'
    assert strip_prefixes("[core.py:710] RuntimeError: x")[0] == "[core.py:710] RuntimeError: x"  # its level unknown
    assert strip_prefixes('    File "a.py", line 1, in <module>')[0] == '    File "a.py", line 1, in <module>'
    assert strip_prefixes("2026-12-01 02:52:20,123 - root - ERROR - KeyError: 'a'")[0] == "KeyError: 'a'"
    assert strip_prefixes("2026-12-01 02:52:20,123 - root - WARNING - KeyError: 'a'")[0].startswith("- root - WARNING")


def test_numbered_grepped_and_pytest_copies_of_a_log():
    # `cat -n`, `nl` or an editor's numbered copy: the number and its TAB go, then the prefixes behind them
    assert strip_prefixes("  1317\tERROR 01-29 20:46:04 [config.py:32] KeyError: 'a'")[0] == "KeyError: 'a'"
    assert strip_prefixes("12\t  File \"a.py\", line 1, in <module>")[0] == '  File "a.py", line 1, in <module>'
    assert strip_prefixes("1317 KeyError: 'a'")[0] == "1317 KeyError: 'a'"  # a number and a space is text
    # `grep -rn` over log files, a match and a context line
    assert strip_prefixes("ascend/log/plog/plog-1_2.log:4567:KeyError: 'a'")[0] == "KeyError: 'a'"
    assert strip_prefixes("logs/worker-01.err-12-  File \"a.py\", line 1")[0] == '  File "a.py", line 1'
    assert strip_prefixes("config.yaml:12:KeyError: 'a'")[0] == "config.yaml:12:KeyError: 'a'"  # not a log file
    # pytest's "E   " lines under a failed test
    assert strip_prefixes("E           RuntimeError: x")[0] == "RuntimeError: x"
    assert strip_prefixes("E RuntimeError: x")[0] == "E RuntimeError: x"


@pytest.mark.parametrize("level, fatal", [("ERROR", True), ("WARNING", False)])
def test_a_logged_sentence_that_quotes_the_caught_exception(tmp_path, catalog, level, fatal):
    # vLLM's logger.error("Failed to import Triton kernels. Please make sure your triton version is compatible. Error: %s", e):
    # the exception text after the sentence is read as the exception it is; at WARNING level it was handled
    log = tmp_path / "x.log"
    log.write_text(f"{level} 01-29 20:46:04 [config.py:32] Failed to import Triton kernels. Please make sure your triton "
                   "version is compatible. Error: No module named 'triton.language.target_info'\n")
    result = explain_paths(without(catalog, ["ARL-E223"]), [log])
    assert result.fatal is fatal, (result.diagnoses, result.unknown)
    if fatal:
        top = result.diagnoses[0]
        assert (top.entry.id, top.kind) == ("DRV-triton", "triton-ascend-mismatch"), top


@pytest.mark.parametrize("earlier, kind", [
    ("ERROR 04-28 16:10:09 camem.py:69] Failed to import vllm_ascend_C:No module named 'vllm_ascend.vllm_ascend_C'\n",
     "vllm-ascend-kernels-not-built"),
    ("WARNING 09-18 10:33:14 [camem.py:64] Failed to import vllm_ascend_C:libvllm_ascend_kernels.so: cannot open shared "
     "object file: No such file or directory. Sleep mode will be disabled.\n", "vllm-ascend-kernels-not-built"),
    ("WARNING 06-16 15:10:59 [_custom_ops.py:21] Failed to import from vllm._C with ImportError('libcudart.so.12: cannot "
     "open shared object file: No such file or directory')\n", "package-mismatch"),  # another package's library
    ("", "package-mismatch"),
])
def test_a_missing_custom_op_after_its_library_failed_to_load(tmp_path, catalog, earlier, kind):
    # torch.ops._C_ascend lacking an op: never loaded (the log said so earlier, at any level) or from another build
    log = tmp_path / "x.log"
    log.write_text(earlier + "AttributeError: '_OpNamespace' '_C_ascend' object has no attribute 'weak_ref_tensor'\n")
    top = explain_paths(catalog, [log]).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-package", kind), (top.entry.id, top.kind, top.entry.title)


@pytest.mark.parametrize("line, kind", [
    ("/tmp/tmpx/main.c:5:10: fatal error: Python.h: No such file or directory", "python-dev-headers-missing"),  # gcc
    ("C:\\Temp\\main.c(12): fatal error C1083: Cannot open include file: 'Python.h': No such file or directory",
     "python-dev-headers-missing"),  # MSVC
    ("csrc/kernels/x.cpp:17:10: fatal error: 'kernel_operator.h' file not found", "custom-ops-build-failed"),  # bisheng / clang
    ("src/a.cc:3:10: fatal error: zlib.h: No such file or directory", "build-header-missing"),
])
def test_a_compiler_stopping_on_a_missing_header(tmp_path, catalog, line, kind):
    log = tmp_path / "x.log"
    log.write_text(line + "\ncompilation terminated.\n")
    top = explain_paths(without(catalog, ["ARL-E272"]), [log]).diagnoses[0]
    assert (top.entry.id, top.kind, top.fatal) == ("DRV-build-header", kind, True), (top.entry.id, top.kind)


def top_of_line(tmp_path, catalog, line: str) -> tuple[str, str] | None:
    """(id, kind) of the top diagnosis of a one-line paste, or None when nothing fatal is found."""
    log = tmp_path / "x.log"
    log.write_text(line + "\n")
    result = explain_paths(catalog, [log])
    return (result.diagnoses[0].entry.id, result.diagnoses[0].kind) if result.fatal else None


@pytest.mark.parametrize("line, top", [
    # an issue title: a few words, then the exception as Python prints it (torch's c10d template, before 1.13 without the space)
    ("DeepSpeed during backward() RuntimeError: ProcessGroup nccldoes not support _reduce_scatter_base", "DRV-package"),
    ("RuntimeError: Backend hccl does not support allgather_into_tensor_coalesced", "DRV-package"),
    ("Retrying after ConnectionError: connection reset by peer", None),  # handled, says the line itself
    ("INFO 01-01 10:00:00 caught RuntimeError: x", None),
])
def test_an_exception_quoted_after_a_title(tmp_path, catalog, line, top):
    assert top_of_line(tmp_path, catalog, line) == (top and (top, "package-mismatch"))


@pytest.mark.parametrize("line, top", [
    ("段错误 (核心已转储)", ("DRV-process", "process-segfault")),  # a shell in the zh_CN locale
    ("./run.sh: 行 12: 4242 段错误 (核心已转储) python3 train.py", ("DRV-process", "process-segfault")),
    ("train.sh: line 3: 99 Segmentation fault      (core dumped) python t.py", ("DRV-process", "process-segfault")),  # bash's job report
    # bash's report of a command SIGKILL ended: since the twenty-sixth stop ARL-E4366 (k57mem) reads it as the entry of
    # torchrun's and DeepSpeed's exit code -9 does (the OOM killer nearly always; its cause names the other senders)
    ("./run.sh: line 12:  4242 Killed                  python3 -m verl.trainer.main_ppo", ("ARL-E4366", None)),
    ("Killed 3 zombie processes", None),
])
def test_a_shell_reporting_a_signal_death(tmp_path, catalog, line, top):
    found = top_of_line(tmp_path, catalog, line)
    assert (found and (found[0], found[1] if found[0].startswith("DRV-") else None)) == top


def test_pyacl_not_importable_is_the_cann_python_path(tmp_path, catalog):
    # pyACL (import acl) lives in the toolkit's python/site-packages, on PYTHONPATH only after set_env.sh
    # (ARL-E300, "CANN toolkit not sourced", names it first since its golden FAQ case; the derived unit says the same)
    found = top_of_line(tmp_path, catalog, "ModuleNotFoundError: No module named 'acl'")
    assert found[0] in ("ARL-E300", "DRV-cann-python") and found[1] == "cann-python-path-missing", found
    assert top_of_line(tmp_path, catalog, "ModuleNotFoundError: No module named 'aclruntime'")[1] != "cann-python-path-missing"


def test_a_message_that_opens_a_line_is_found_behind_a_prefix(tmp_path, catalog):
    log = tmp_path / "x.log"
    log.write_text(
        "2026-03-06T10:00:00.1Z Error is in the aclnnWeightQuantBatchMatmulV2\n"
        "2026-03-06T10:00:00.1Z the biasOptional's dtype should be [DT_FLOAT], actual is [DT_BFLOAT16]\n"
    )
    top = explain_paths(catalog, [log]).diagnoses[0]
    assert top.entry.id == "DRV-op-params" and top.fatal


@pytest.mark.parametrize("message, top", [
    # ARL-E2618 (kdoc) names this torch_npu message; the link's answer is the entry, carrying DRV-code's kind
    ("RuntimeError: _copy_from_and_resize now only support copy with same size!", "ARL-E2618"),
    # an ERR01007 message no entry names: the derived decoding is the answer
    ("RuntimeError: linalg_lstsq.out is not supported for this input layout", "DRV-code"),
])
def test_a_wrapper_never_outranks_a_fatal_consequence_of_a_warning(tmp_path, catalog, message, top):
    # the CPU-fallback warning (not fatal) demotes the ERR01007 failure it explains; Ray's wrapper around the
    # remote task still must not become the answer
    log = tmp_path / "x.log"
    log.write_text(
        "ray.exceptions.RayTaskError(RuntimeError): ray::WorkerDict.actor_rollout_init_model() (pid=123, ip=10.0.0.1)\n"
        "[W compiler_depend.ts:51] Warning: CAUTION: The operator 'aten::linalg_lstsq.out' is not currently supported on "
        "the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)\n"
        f"{message}\n"
        "[ERROR] 2024-11-28-11:37:15 (PID:6547, Device:0, RankID:-1) ERR01007 OPS feature not supported\n"
    )
    ranked = [d.entry.id for d in explain_paths(catalog, [log]).diagnoses]
    assert ranked[0] == top and ranked.index("ARL-E112") > ranked.index(top), ranked


@pytest.mark.parametrize("line, owner", [
    ("AttributeError: module 'torch_npu' has no attribute '_npu_ro", "torch_npu"),
    ("ModuleNotFoundError: No module named 'vllm.model_executor.la", "vllm"),
])
def test_a_package_error_cut_inside_its_last_quoted_name(tmp_path, catalog, line, owner):
    # an issue title at GitHub's length limit, a line cut in a screenshot: the owner is still the first name
    log = tmp_path / "x.log"
    log.write_text(line + "\n")
    top = explain_paths(without(catalog, ["ARL-E313"]), [log]).diagnoses[0]
    assert top.entry.id == "DRV-package" and owner in top.entry.title, top.entry.title


def test_json_has_basis_and_evidence(tmp_path, capsys):
    log = tmp_path / "x.log"
    log.write_text("*** SIGSEGV (@0x0) received by PID 42 (TID 0x7f) from PID 0; stack trace: ***\n")
    assert main(["explain", "--json", str(log)]) == 1
    first = json.loads(capsys.readouterr().out)["diagnoses"][0]
    assert first["basis"] == "derived" and first["id"] == "DRV-process" and "SIGSEGV" in first["title"]
    assert first["evidence"] and first["fix"] and first["kind"] == "process-segfault"


def test_json_of_a_merged_diagnosis_keeps_basis_evidence_and_notes(tmp_path, capsys):
    log = tmp_path / "x.log"
    log.write_text("terminate called after throwing an instance of 'c10::Error'\n  what():  boom\n")
    assert main(["explain", "--json", str(log)]) == 1
    diagnoses = json.loads(capsys.readouterr().out)["diagnoses"]
    first = diagnoses[0]
    assert first["basis"] == "catalog" and first["id"] == "ARL-E009" and first["kind"] == "cpp-terminate"
    assert any("boom" in line for line in first["evidence"]) and any("boom" in n for n in first["notes"])
    assert [d["id"] for d in diagnoses] == ["ARL-E009"]  # not a second, competing DRV-process diagnosis


def test_text_shows_the_notes_under_the_catalog_diagnosis(capsys):
    log = HERE / "derived" / "enospc_checkpoint.log"
    assert main(["explain", "--color", "never", str(log)]) == 1
    out = capsys.readouterr().out
    root = out.split("Also found")[0]
    notes = root.index("From this log")
    assert root.index("ARL-E003") < notes < root.index("verl's checkpoint saving (/models/ckpt/", notes) < root.index("  Fix", notes)
    assert "set trainer.default_local_dir" in root and "DRV-oserror" not in out.split("Also found")[-1]


def test_live_supervisor_sees_a_process_death(catalog):
    c = Classifier(catalog)
    c.feed_chunk(b"step:1 - ok\n*** SIGSEGV (@0x0) received by PID 42 (TID 0x7f) from PID 0; stack trace: ***\n", "output")
    hit = c.first_specific_fatal()
    assert hit is not None and hit.entry.id == "DRV-process"


def test_chains_stay_bounded(catalog):
    block = "".join(
        f"Traceback (most recent call last):\n  File \"/w/verl/x.py\", line {i}, in f\nKeyError: 'k{i}'\n" for i in range(3000)
    )
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(block.encode()), "many")
    assert len(c.chains) <= 256 and c.result().fatal


def test_a_call_the_callee_does_not_take_across_a_package_boundary(catalog):
    """Who called whom when the TypeError is raised in the callee package's own frame, or in the caller's."""
    frames = '  File "/x/site-packages/{}", line 9, in {}\n    y = f(**kw)\n'
    # verl calls vllm's LLM(**kwargs); LLM passes them on to EngineArgs, so the innermost frame is vllm's own
    through = ("Traceback (most recent call last):\n" + frames.format("verl/workers/rollout/vllm_rollout.py", "__init__")
               + frames.format("vllm/entrypoints/llm.py", "__init__")
               + "TypeError: EngineArgs.__init__() got an unexpected keyword argument 'model_hf_config'\n")
    top = classify(catalog, through).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-package", "package-mismatch") and "verl and vllm" in top.entry.title, top.entry.title
    # vllm's engine core calls the executor verl gave it, with an argument verl's release does not take
    into = ("Traceback (most recent call last):\n" + frames.format("vllm/v1/engine/core.py", "step")
            + "TypeError: ExternalZeroMQDistributedExecutor.collective_rpc() got an unexpected keyword argument 'non_block'\n")
    top = classify(catalog, into).diagnoses[0]
    assert "vllm and verl" in top.entry.title, top.entry.title
    for message in ("got multiple values for argument 'n'", "missing 2 required positional arguments: 'a' and 'b'",
                    "takes from 1 to 2 positional arguments but 3 were given"):
        top = classify(catalog, f"TypeError: SamplingParams.__init__() {message}\n").diagnoses[0]
        assert (top.entry.id, top.kind) == ("DRV-package", "package-mismatch") and "vllm" in top.entry.title, (message, top.entry.title)


def test_a_bare_pasted_call_error_names_the_package_that_owns_the_class(catalog):
    """A one-line paste keeps no frames: the class's owner (class_owners.yaml) is the package on the other side."""
    top = classify(catalog, "TypeError: ServerArgs.__init__() got an unexpected keyword argument 'mm_attention_backend'\n").diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-package", "package-mismatch") and "sglang" in top.entry.title, top.entry.title
    # a class no owner entry names stays an unexplained TypeError, not a guessed package
    other = classify(catalog, "TypeError: RolloutArgs.__init__() got an unexpected keyword argument 'mm_attention_backend'\n")
    assert all(d.entry.id != "DRV-package" for d in other.diagnoses)


def test_an_attribute_a_package_class_lacks_in_its_own_code_is_not_a_pair(catalog):
    own = ('Traceback (most recent call last):\n  File "/x/site-packages/vllm/forward_context.py", line 9, in f\n'
           "    x = meta.cu_tokens_across_dp_cpu\nAttributeError: 'DPMetadata' object has no attribute 'cu_tokens_across_dp_cpu'\n")
    assert all(d.entry.id != "DRV-package" for d in classify(catalog, own).diagnoses)
    other = own.replace("/vllm/forward_context.py", "/vllm_ascend/ops/fused_moe.py")
    top = classify(catalog, other).diagnoses[0]
    assert top.entry.id == "DRV-package" and "vllm_ascend and vllm" in top.entry.title, top.entry.title
    # a class no reviewed package owns stays unexplained
    assert classify(catalog, "AttributeError: 'Foo' object has no attribute 'bar'\n").unknown is not None


def test_an_error_out_of_vllms_plugin_loader_names_the_plugin(catalog):
    log = ("Traceback (most recent call last):\n"
           '  File "/x/site-packages/vllm/plugins/__init__.py", line 80, in load_general_plugins\n    func()\n'
           '  File "/x/site-packages/vllm_ascend/__init__.py", line 30, in register_connector\n    register(x)\n'
           '  File "/x/site-packages/vllm/distributed/kv_transfer/factory.py", line 40, in register\n    n = cls.__module__\n'
           "AttributeError: 'str' object has no attribute '__module__'\n")
    top = classify(catalog, log).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-package", "package-mismatch") and "vllm-ascend was written" in top.entry.cause, top.entry.cause
    # the same AttributeError anywhere else is not read as a plugin's
    elsewhere = log.replace("/vllm/plugins/__init__.py", "/vllm/engine/core.py").replace("load_general_plugins", "step")
    assert all(d.entry.id != "DRV-package" for d in classify(catalog, elsewhere).diagnoses)


def test_a_top_level_module_another_package_imports_is_missing(catalog):
    log = ('Traceback (most recent call last):\n  File "/x/site-packages/verl/trainer/main_ppo.py", line 138, in run\n'
           "    import some_dep_x as tq\nModuleNotFoundError: No module named 'some_dep_x'\n")
    top = classify(catalog, log).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-package", "missing-dependency"), (top.entry.id, top.kind)


def test_a_message_wrapped_before_its_quoted_value(catalog):
    joined = classify(catalog, "TypeError: SFTConfig.__init__() got an unexpected keyword argument\n'max_seq_length'. Did you mean 'max_length'?\n")
    assert joined.diagnoses[0].entry.id == "DRV-package", joined.diagnoses
    # the next line is not a quoted value: nothing is joined
    alone = classify(catalog, "TypeError: SFTConfig.__init__() got an unexpected keyword argument\nstep:1 - loss:0.1\n")
    assert not alone.diagnoses or alone.diagnoses[0].entry.id != "DRV-package"


def test_package_mismatch_uses_the_logged_versions_and_the_matrix(catalog):
    top = explain_paths(catalog, [HERE / "derived" / "import_name_with_versions.log"]).diagnoses[0]
    assert "vllm-ascend 0.11.0rc1" in top.entry.cause and "vllm 0.11.0" in top.entry.cause
    assert any("vllm-ascend 0.11.0rc1 pairs with vllm 0.11.0" in step for step in top.entry.fix)


def test_full_rendering_of_every_diagnosis(catalog, capsys):
    assert main(["explain", "--all", "--color", "never", str(HERE / "derived" / "aclnn_caused_by_aicore.log")]) == 1
    out = capsys.readouterr().out
    assert out.index("ARL-E330") < out.index("ARL-E331") and "consequence of ARL-E330" not in out.split("Also found")[0]


def test_unknown_key_that_newer_verl_has_says_upgrade(catalog):
    top = explain_paths(without(catalog, ["ARL-E130"]), [HERE / "derived" / "hydra_key_from_newer_verl.log"]).diagnoses[0]
    assert top.entry.id == "DRV-hydra-key" and "older" in top.entry.cause
    assert top.entry.fix[0].startswith("Upgrade verl") and "actor_rollout_ref.actor.optim.optimizer" in top.entry.fix[0]


def test_exception_text_in_a_warning_line_is_not_a_failure(catalog):
    log = "WARNING 11-20 10:03:12 [utils.py:20] ImportError: cannot import name 'foo' from 'bar' (/x/site-packages/bar/__init__.py)\n"
    assert not classify(catalog, log).fatal
    assert classify(catalog, log.replace("WARNING", "ERROR")).fatal


def test_ray_memory_monitor_numbers_become_notes(catalog):
    top = explain_paths(catalog, [HERE / "derived" / "ray_oom_numbers.log"]).diagnoses[0]
    assert top.entry.id == "ARL-E117" and any("240.1 of 250.0 GB" in n for n in top.notes)


def test_an_analyzer_bug_does_not_crash_explain(catalog):
    from ascendrl.catalog.analyzers import Analyzer

    class Broken(Analyzer):
        id = "DRV-broken"

        def analyze(self, link, chain, facts):
            raise ValueError("bug")

    log = HERE / "derived" / "ray_oom_numbers.log"
    c = Classifier(catalog, analyzers=(Broken(), *registry()))
    c.feed_path(log)
    top = c.result().diagnoses[0]
    # The broken analyzer runs first on every link; the others' answers and notes still arrive.
    assert top.entry.id == "ARL-E117" and any("240.1 of 250.0 GB" in n for n in top.notes)


FRAGMENTS = [
    "Traceback (most recent call last):", '  File "/x/site-packages/vllm_ascend/a.py", line 3, in f', '  File "/w/verl/verl/protocol.py", line 9, in chunk',
    "OSError: [Errno 28] No space left on device: '/ckpt/global_step_1/x.pt'", "PermissionError: [Errno 13] Permission denied: '/home/user/.cache'",
    "ImportError: cannot import name 'X' from 'vllm.a' (/x/site-packages/vllm/a.py)", "No module named 'vllm.v1.x'",
    "AttributeError: module 'torch_npu' has no attribute 'y'", "OSError: /x/site-packages/torch_npu/lib/a.so: undefined symbol: _ZN3c104impl",
    "TypeError: LLM.__init__() got an unexpected keyword argument 'z'", "AssertionError: only support equal chunk. Got size of DataProto 7 and chunk 0.",
    "ValueError: 3 must be divisible by 0", "torch.OutOfMemoryError: NPU out of memory. Tried to allocate 1.00 GiB (NPU 0; 0 GiB total capacity; 2 GiB free)",
    "ValueError: To serve at least one request with the models's max seq len (10), (-1.5 GiB KV cache is needed, which is larger than the available KV cache memory (-2.0 GiB).",
    "was 1.0GB / 0.0GB (1.0), which exceeds the memory usage threshold of 0.95.", "EZ9999: Inner Error!", "EI0002: timeout", "Bind_Failed(EJ0003): x",
    "[ERROR] 2025 (PID:1, Device:0, RankID:0) ERR99999 UNKNOWN applicaiton exception", "RuntimeError: x, error code is 507015", "dcmi init failed. ret is -8005",
    "terminate called after throwing an instance of 'c10::Error'", "  what():  boom", "*** SIGSEGV (@0x0) received by PID 1 (TID 0x1) from PID 0",
    "The above exception was the direct cause of the following exception:", "ray.exceptions.RayTaskError(KeyError): ray::T.run()",
    "Error executing job with overrides: ['a.b=1']", "omegaconf.errors.ConfigAttributeError: Key 'x' is not in struct", "    full_key: a.'b'.x", "step:1 - ok",
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=30), st.sampled_from(["", "(WorkerDict pid=7, ip=1.2.3.4) ", "[rank1]: ", "#033[31m"]))
def test_analyzers_never_crash_on_mixed_failures(catalog, lines, prefix):
    c = Classifier(catalog)
    c.feed_stream(io.BytesIO(("\n".join(prefix + line for line in lines) + "\n").encode()), "mix")
    result = c.result()
    for d in result.diagnoses:
        assert d.entry.id and d.entry.title and (d.basis == "catalog" or d.entry.fix)
    json.dumps(result.to_json())


@pytest.mark.parametrize(("line", "kind"), [
    ("RuntimeError: synchronize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:467 NPU function error: AclrtSynchronizeDevice, error code is 507010", "device-lost-heartbeat"),
    ("RuntimeError: initialize:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:217 NPU function error: aclrtSetDevice(device_id_), error code is 107001", "invalid-visible-device"),
    ("RuntimeError: hcclCommInitRootInfo failed: HCCL function error: hcclCommInitRootInfo(numRanks, &rootInfo, rank, &comm), error code is 7", "hccl-init-failed"),
])
def test_a_code_alone_is_classed_by_its_meaning(catalog, line, kind):
    """A decoded code whose meaning is a root-cause class answers with that class, not code-N."""
    result = classify(without(catalog, ["ARL-E324"]), line + "\n")
    assert result.diagnoses and result.diagnoses[0].kind == kind, [(d.entry.id, d.kind) for d in result.diagnoses]


def test_kernel_binary_missing_is_classed_from_the_cann_lines(catalog):
    """Under a catch-all EZ9999 and ERR01005, the CANN line's words give the class (no kernel binary)."""
    result = explain_paths(without(catalog, ["ARL-E331"]), [HERE / "derived" / "op_kernel_config_fail.log"])
    assert result.diagnoses[0].entry.id == "DRV-code" and result.diagnoses[0].kind == "op-no-binary"


def test_torch_writer_failures_without_errno_read_as_a_full_checkpoint_disk(catalog):
    alone = without(catalog, ["ARL-E004"])
    for message in ("RuntimeError: write(): fd 29 failed with Input/output error",
                    "RuntimeError: File out/checkpoints/ckpt_0.pt cannot be opened.",
                    "RuntimeError: [enforce fail at inline_container.cc:857] . PytorchStreamWriter failed writing file data/37: file write failed"):
        top = classify(alone, message + "\n").diagnoses[0]
        assert (top.entry.id, top.kind) == ("DRV-ckpt-write", "enospc"), (message, top.entry.id)
    # an errno the writer does state is the OS error's own class
    top = classify(alone, "RuntimeError: write(): fd 3 failed with Permission denied\n").diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-oserror", "eacces")
    # a reader's failure is not a write: it is a damaged (truncated) checkpoint file, ARL-E141
    reader = classify(alone, "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory\n")
    assert [d.entry.id for d in reader.diagnoses][:1] == ["ARL-E141"]
    assert not any(d.entry.id == "DRV-ckpt-write" for d in reader.diagnoses)


def test_an_ai_core_exception_the_runtime_says_timed_out_is_a_time_out(catalog):
    """The runtime's TraceBack under the exception names the time-out (ptoas board reports, CANN 8.x runtime)."""
    report = ("[ERROR] RecentErrMsg: EZ9999: Inner Error!\n"
              "EZ9999[PID: 1] 2026-05-01-22:48:12.951.007 (EZ9999):  The error from device(chipId:2, dieId:1), serial number "
              "is 98, there is an exception of aivec error, core id is 22, error code = 0\n"
              "        TraceBack (most recent call last):\n"
              "       Kernel task happen error, retCode=0x30, [vector core timeout].[FUNC:PreCheckTaskErr]"
              "[FILE:davinci_kernel_task.cc][LINE:1497]\n")
    result = classify(catalog, report)
    top = result.diagnoses[0]
    # the time-out finding names the report; ARL-E330 (a kernel that faulted) lists it as narrower (refined_by) and
    # stays below it, its echo
    assert (top.entry.id, top.kind) == ("DRV-code", "aicore-timeout"), (top.entry.id, top.kind)
    assert [d.entry.id for d in result.diagnoses[1:2]] == ["ARL-E330"]
    # the same exception without the time-out line stays an exception
    faulted = report.replace("retCode=0x30, [vector core timeout]", "retCode=0x2a, [aivec error]")
    top = classify(catalog, faulted).diagnoses[0]
    assert (top.entry.id, top.kind) == ("ARL-E330", "aicore-exception"), (top.entry.id, top.kind)
