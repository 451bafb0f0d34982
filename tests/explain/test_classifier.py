"""The classifier on awkward input: folders, stdin, encodings, huge lines, repeats, unknown errors, user entries."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.cli import main

NZ = "ValueError: FRACTAL_NZ mode is enabled. This may cause model parameter precision issues in the RL scenarios. Please set VLLM_ASCEND_ENABLE_NZ=0."
HCCL = "ImportError: libhccl.so: cannot open shared object file: No such file or directory"
RAYLET_FULL = (
    "[2025-11-20 10:20:01,004 E 4411 4411] (raylet) file_system_monitor.cc:116: /tmp/ray/session_2025-11-20_10-01-00_1/ "
    "is over 95% full, available space: 3.1 GB; capacity: 99.8 GB. Object creation will fail if spilling is required."
)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory):
    return load_catalog(user_dir=tmp_path_factory.mktemp("no-user"))


def classify(catalog, data: bytes, chunk_size: int = 1 << 20, name: str = "log"):
    c = Classifier(catalog, chunk_size=chunk_size)
    c.feed_stream(io.BytesIO(data), name)
    return c.result()


def test_ray_session_folder_names_the_file(catalog, tmp_path):
    logs = tmp_path / "session_latest" / "logs"
    logs.mkdir(parents=True)
    (logs / "raylet.out").write_text("[2025-11-20 10:01:00,001 I 4411 4411] (raylet) main.cc:180: Setting cluster ID\n" + RAYLET_FULL + "\n")
    (logs / "worker-9a1c-01000000-20501.err").write_text(f"INFO starting\n{NZ}\n")
    (logs / "gcs_server.out").write_text("INFO gcs started\n")
    (logs / "ports.sock").write_bytes(b"\x00\x01binary")
    c = Classifier(catalog)
    c.feed_path(tmp_path / "session_latest")
    result = c.result()
    where = {d.entry.id: (d.file, d.line) for d in result.diagnoses}
    assert where["ARL-E002"] == ("logs/worker-9a1c-01000000-20501.err", 2)
    assert where["ARL-E114"] == ("logs/raylet.out", 2)
    assert result.diagnoses[0].entry.id == "ARL-E002"  # fatal beats the raylet's warning
    assert "logs/ports.sock" not in result.files


def test_ansi_crlf_and_ray_prefix(catalog):
    data = f"\x1b[36m(WorkerDict pid=4242, ip=10.0.0.3)\x1b[0m {NZ}\r\n".encode()
    top = classify(catalog, data).diagnoses[0]
    assert top.entry.id == "ARL-E002" and top.excerpt == NZ and top.line == 1


def test_eight_workers_are_one_diagnosis_with_a_count(catalog):
    lines = [f"(WorkerDict pid={4240 + i}, ip=10.0.0.3) {NZ}" for i in range(8)]
    lines.append(f"(WorkerDict pid=4250, ip=10.0.0.4) {NZ} [repeated 7x across cluster]")
    result = classify(catalog, ("\n".join(lines) + "\n").encode())
    nz = [d for d in result.diagnoses if d.entry.id == "ARL-E002"]
    assert len(nz) == 1 and nz[0].count == 8 + 8


def test_invalid_utf8_and_chinese_text_do_not_break_matching(catalog):
    data = "昇腾 训练日志 开始\n".encode() + b"\xff\xfe\xc3(garbage\n" + "错误: ".encode() + HCCL.encode() + b"\n"
    top = classify(catalog, data).diagnoses[0]
    assert top.entry.id == "ARL-E300" and top.line == 3


def test_a_multi_megabyte_line_is_read_in_pieces(catalog):
    big = b"x" * (5 << 20)
    data = big + b" " + NZ.encode() + b"\n" + b"step:1 - ok\n"
    result = classify(catalog, data, chunk_size=1 << 20)
    assert any(d.entry.id == "ARL-E002" for d in result.diagnoses)
    assert all(len(d.excerpt) <= 300 for d in result.diagnoses)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=20000), st.integers(min_value=1, max_value=4096))
def test_random_bytes_never_crash(catalog, data, chunk):
    result = classify(catalog, data, chunk_size=chunk)
    assert result.bytes_read == len(data)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from([NZ, HCCL, RAYLET_FULL, "step:1 - actor/pg_loss:0.1", "INFO 11-20 vllm ready", "Traceback (most recent call last):", '  File "/w/verl/x.py", line 3, in f', "KeyError: 'prompt'"]), max_size=40),
    st.integers(min_value=16, max_value=2048),
)
def test_chunk_size_does_not_change_the_verdict(catalog, lines, chunk):
    data = ("\n".join(lines) + "\n").encode()
    small, whole = classify(catalog, data, chunk_size=chunk), classify(catalog, data, chunk_size=1 << 20)
    summary = lambda r: [(d.entry.id, d.line, d.count) for d in r.diagnoses]  # noqa: E731
    assert summary(small) == summary(whole)
    assert (small.unknown is None) == (whole.unknown is None)


@given(st.text(max_size=300))
@settings(max_examples=60, deadline=None)
def test_truncated_utf8_sequences(catalog, text):
    raw = text.encode("utf-8")
    for cut in {len(raw) // 2, max(len(raw) - 1, 0)}:
        classify(catalog, raw[:cut] + b"\n" + NZ.encode()[:cut] + b"\n", chunk_size=7)


def test_unknown_error_reports_type_message_and_innermost_verl_frame(catalog):
    log = "\n".join([
        "Traceback (most recent call last):",
        '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main',
        '  File "/workspace/verl/verl/trainer/ppo/ray_trainer.py", line 1020, in fit',
        '  File "/workspace/verl/verl/utils/seqlen_balancing.py", line 77, in get_seqlen_balanced_partitions',
        '  File "/usr/local/python3.11.13/lib/python3.11/site-packages/torch/functional.py", line 12, in f',
        "ZeroDivisionError: integer division or modulo by zero",
        "ray.exceptions.RayTaskError(ZeroDivisionError): ray::TaskRunner.run()",
    ]) + "\n"
    result = classify(catalog, log.encode())
    assert result.fatal and result.unknown is not None
    u = result.unknown
    assert (u.type, u.message, u.line) == ("ZeroDivisionError", "integer division or modulo by zero", 6)
    assert u.frame == "/workspace/verl/verl/utils/seqlen_balancing.py:77 in get_seqlen_balanced_partitions"


def test_a_cann_error_title_is_the_cause_not_a_wrapped_exception(catalog):
    """'AclNN_Parameter_Error(EZ1001): …' under torch_npu's RuntimeError is CANN's report (title and code), not RayTaskError(X)."""
    log = (
        "RuntimeError: npu_quant_matmul_symint: NPU function error: call aclnnQuantMatmulWeightNz failed, error code is 161002\n"
        "AclNN_Parameter_Error(EZ1001): Tensor scale not implemented for DT_FLOAT16,\n"
        "should be in dtype support list [DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT].\n"
    )
    top = classify(catalog, log.encode()).diagnoses[0]
    assert (top.entry.id, top.line) == ("ARL-E221", 2)


def test_an_exception_logged_by_its_repr_is_read(catalog):
    """'… failed …: KeyError('question')' (a logger printing repr(e)) is the exception; survived, it is not fatal."""
    result = classify(catalog, b"[eval-reward] reward_fn failed on row 127: KeyError('question')\n")
    assert result.fatal and result.diagnoses[0].kind == "data-missing-field"
    assert "question" in result.diagnoses[0].entry.title
    assert not classify(catalog, b"reward failed: KeyError('question')\nstep:2 - ok\n").fatal
    assert classify(catalog, b"loaded KeyError('question') mapping\n").unknown is None


def test_a_traceback_the_run_survived_is_not_fatal(catalog):
    log = "Traceback (most recent call last):\n  File \"/w/verl/x.py\", line 1, in f\nModuleNotFoundError: No module named 'flash_attn'\nstep:1 - actor/pg_loss:0.1\n"
    assert not classify(catalog, log.encode()).fatal


def test_user_catalog_entry_and_a_malformed_one(tmp_path, capsys):
    user = tmp_path / "mine.yaml"
    user.write_text(
        "- id: USR-disk-quota\n"
        "  title: Project disk quota exceeded\n"
        "  family: disk\n"
        "  severity: critical\n"
        "  fatal: true\n"
        "  signatures: ['磁盘配额已满']\n"
        "  cause: The shared filesystem quota of the project is used up.\n"
        "  fix: [Ask for more quota]\n"
        "  sources: [https://wiki.example.org/quota]\n"
        "- id: USR-broken\n"
        "  title: broken\n"
        "  family: nonsense\n"
    )
    log = tmp_path / "run.log"
    log.write_text("INFO start\nOSError: 写入失败: 磁盘配额已满\n")
    assert main(["explain", "--json", "--catalog", str(user), str(log)]) == 1
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["diagnoses"][0]["id"] == "USR-disk-quota" and doc["diagnoses"][0]["line"] == 2
    assert f"{user}:10" in err and "USR-broken" in err


def test_garbled_catalog_file_is_reported_not_raised(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("- id: [unclosed\n  title: x\n")
    log = tmp_path / "ok.log"
    log.write_text("step:1 - fine\n")
    assert main(["explain", "--catalog", str(bad), str(log)]) == 0
    assert f"{bad}:" in capsys.readouterr().err


def test_json_schema(tmp_path, capsys):
    log = tmp_path / "x.log"
    log.write_text(f"{NZ}\n")
    assert main(["explain", "--json", str(log)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == 1 and doc["unknown"] is None
    first = doc["diagnoses"][0]
    assert {"id", "title", "family", "severity", "cause", "fix", "source", "file", "line", "excerpt", "count"} <= set(first)
    assert first["file"] == str(log) and first["line"] == 1 and first["count"] == 1


def test_exit_codes_and_usage(tmp_path, capsys):
    healthy = tmp_path / "h.log"
    healthy.write_text("step:1 - actor/pg_loss:0.1\n")
    assert main(["explain", str(healthy)]) == 0
    assert main(["explain", str(tmp_path / "missing.log")]) == 2
    assert main(["explain", "--id", "ARL-E999"]) == 2
    assert main(["explain", "--list"]) == 0
    listing = capsys.readouterr().out
    assert "ARL-E001" in listing and "known failures" in listing


def test_stdin_and_paste(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "explain"], input=f"noise\n{HCCL}\n", capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 1 and "ARL-E300" in proc.stdout and "<stdin>:2" in proc.stdout


def test_memory_stays_bounded_on_a_large_log(tmp_path):
    """~120 MB with a 40 MB single line: peak RSS of the explain process stays under 150 MB."""
    path = tmp_path / "big.log"
    with open(path, "wb") as fh:
        row = b"(TaskRunner pid=1) step:7 - actor/pg_loss:0.0123 - critic/score/mean:0.41 - timing_s/step:190.2\n"
        fh.write(row * 700_000)
        fh.write(b"y" * (40 << 20) + b"\n")
        fh.write(NZ.encode() + b"\n")
    # Measured from a fresh parent whose only child is the explain process.
    runner = (
        "import resource, subprocess, sys; "
        "p = subprocess.run([sys.executable, '-m', 'ascendrl', 'explain', '--json', sys.argv[1]], capture_output=True, text=True); "
        "sys.stdout.write(p.stdout); sys.stderr.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)); sys.exit(p.returncode)"
    )
    proc = subprocess.run([sys.executable, "-c", runner, str(path)], capture_output=True, text=True, timeout=300)
    peak_kb = int(proc.stderr.strip().splitlines()[-1])
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["diagnoses"][0]["id"] == "ARL-E002"
    assert peak_kb < 150 * 1024, f"peak RSS {peak_kb / 1024:.0f} MB"


def test_user_config_directory_is_loaded(tmp_path):
    folder = tmp_path / "config" / "ascendrl" / "catalog"
    folder.mkdir(parents=True)
    (folder / "site.yaml").write_text(
        "- id: ARL-E002\n"  # a site's own wording of a built-in entry replaces it
        "  title: Site note on NZ\n  family: nz\n  severity: critical\n  fatal: true\n"
        "  signatures: ['FRACTAL_NZ mode is enabled']\n  cause: See the cluster wiki.\n"
        "  fix: [Use the team launch script]\n  sources: [https://wiki.example.org/nz]\n"
    )
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "HOME": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "ascendrl", "explain", "--id", "ARL-E002"], capture_output=True, text=True, env={**env, "PATH": "/usr/bin:/bin"}
    )
    assert proc.returncode == 0 and "Site note on NZ" in proc.stdout and "site.yaml:1" in proc.stdout


@pytest.mark.parametrize("name", ["verl_grpo_qwen25vl_13_steps.log", "vllm_ascend_serve_crlf.log"])
def test_healthy_logs_fed_live_never_stop_on_a_derived_diagnosis(catalog, name):
    """`run` asks after every chunk; a healthy run's output must never give it a derived stop."""
    from pathlib import Path

    classifier = Classifier(catalog)
    for line in (Path(__file__).parent / "healthy" / name).read_bytes().splitlines(keepends=True):
        classifier.feed_chunk(line, name)
        assert classifier.first_derived_fatal(settle=0) is None


def test_live_derived_stop_waits_for_a_quiet_writer(catalog):
    classifier = Classifier(catalog)
    classifier.feed_chunk(b"Traceback (most recent call last):\n  File \"/w/verl/trainer/main_ppo.py\", line 9, in run\n", "out")
    classifier.feed_chunk(b"torch.distributed.DistStoreError: Timed out after 1801 seconds waiting for clients. 1/3 clients joined.\n", "out")
    assert classifier.first_derived_fatal(settle=30) is None  # just printed: a CANN report or a chained exception may follow
    assert classifier.first_derived_fatal(settle=30) is None
    hit = classifier.first_derived_fatal(settle=0)
    assert hit is not None and hit.entry.id == "DRV-rendezvous" and hit.basis == "derived" and hit.line == 3


def test_a_signature_ending_in_whitespace_does_not_swallow_the_next_line(tmp_path, capsys):
    """The chunk scan matches within one line: a trailing \\s* must not carry a match into the next line."""
    user = tmp_path / "mine.yaml"
    user.write_text(
        "- id: USR-wrapped\n"
        "  title: Wrapped warning head\n"
        "  family: user\n"
        "  severity: warning\n"
        "  fatal: false\n"
        "  signatures: ['cache is using \\S+ instead\\s*$']\n"
        "  cause: A warning wrapped after its first words.\n"
        "  fix: [Read the next line]\n"
        "  sources: [https://example.org/wrapped]\n"
    )
    log = tmp_path / "run.log"
    log.write_text("NOTICE: the cache is using /scratch instead\n  of /fast because it is small\n")
    main(["explain", "--json", "--catalog", str(user), str(log)])
    doc = json.loads(capsys.readouterr().out)
    assert [(d["id"], d["line"]) for d in doc["diagnoses"]] == [("USR-wrapped", 1)]


def test_an_os_error_logged_without_its_type_is_read_unless_logged_as_a_warning(catalog):
    failed = classify(catalog, b"ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 8000): address already in use\n")
    assert failed.diagnoses[0].entry.id == "DRV-oserror" and failed.diagnoses[0].kind == "eaddrinuse"
    handled = classify(catalog, b"WARNING: [Errno 111] Connection refused, retrying\n")
    assert not handled.diagnoses and handled.unknown is None


@pytest.mark.parametrize("line, kind", [
    (b"Too many open files: '/home/user/.cache/huggingface/token'\n", "emfile"),
    (b"No space left on device: '/ckpt/global_step_40/actor/model.pt'\n", "enospc"),
])
def test_an_os_errors_text_and_path_without_errno_or_type_is_read(catalog, line, kind):
    # an issue title quoting the strerror and the path only; the same words in prose (no quoted path) are not a failure
    top = classify(catalog, line).diagnoses[0]
    assert top.kind == kind and top.fatal  # DRV-oserror, or the catalog entry it is folded into (ENOSPC: ARL-E003)
    prose = classify(catalog, b"Tip: Too many open files errors mean ulimit -n is low\n")
    assert not prose.diagnoses and prose.unknown is None


@pytest.mark.parametrize("line", [
    b'DeepSeek-V4-Flash in 0.20.2rc1 signal node serve Error :"ModuleNotFoundError: No module named \'vllm.v1.attention.backends.mla.prefill\'"\n',
    b"trl == 0.14.0 would get error: ModuleNotFoundError: No module named 'vllm.v1.attention.backends.mla.prefill'\n",
])
def test_an_exception_quoted_after_a_title_or_sentence_is_read_without_its_quotes(catalog, line):
    found = classify(catalog, line)
    top = found.diagnoses[0]
    assert top.entry.id == "DRV-package" and "vllm.v1.attention.backends.mla.prefill" in top.entry.title
    assert not top.entry.title.rstrip(")").endswith('"')


def test_a_module_qualified_exception_of_any_class_name_is_read_but_not_a_warning(catalog):
    # pyarrow's ArrowInvalid, huggingface_hub's OfflineModeIsEnabled: classes not named …Error, printed with their module
    odd = classify(catalog, b"mylib.errors.FrobnicatorBroke: the frobnicator could not start\n")
    assert odd.unknown is not None and odd.unknown.type == "mylib.errors.FrobnicatorBroke"
    warned = classify(catalog, b"torch.jit.TracerWarning: Converting a tensor to a Python boolean might cause the trace to be incorrect\n")
    assert warned.unknown is None and not warned.fatal
    logger = classify(catalog, b"INFO worker.py:1 -- ray.init: connecting to an existing cluster\n")
    assert logger.unknown is None and not logger.fatal


def test_an_ipython_header_of_a_ray_wrapper_names_the_remote_type(catalog):
    log = (b"RayTaskError(PermissionError)             Traceback (most recent call last)\n"
           b"Cell In [26], line 2\n----> 2 ray.get(train_fn.remote())\n")
    top = classify(catalog, log).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-oserror", "eacces")


def test_grpc_error_reports_give_the_errno_they_carry(catalog):
    # gRPC's JSON report (older Ray raylet.err) and its absl-status form (newer): the bind failure is in the errno
    json_form = ('E0215 01:53:44.582325479    2825 server_chttp2.cc:40]        {"created":"@1613354024.582257191",'
                 '"description":"No address added out of total 1 resolved","file":"src/core/ext/transport/chttp2/server/'
                 'chttp2_server.cc","file_line":394,"referenced_errors":[{"created":"@1613354024.582255389","description":'
                 '"Failed to add any wildcard listeners","file":"src/core/lib/iomgr/tcp_server_posix.cc","file_line":340,'
                 '"referenced_errors":[{"description":"Address already in use","errno":98,"fd":32}]}]}')
    absl_form = ("E1120 10:00:01.000000000 77 chttp2_server.cc:1053] UNKNOWN:No address added out of total 1 resolved for "
                 "'0.0.0.0:6379' {created_time:\"2025-11-20T10:00:01.0+00:00\", children:[UNKNOWN:Failed to add any wildcard "
                 "listeners {children:[UNKNOWN:Unable to configure socket {fd:31, children:[UNKNOWN:Address already in use "
                 "{syscall:\"bind\", errno:98}]}]}]}")
    alone = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id != "ARL-E147"))
    for line in (json_form, absl_form):
        top = classify(alone, line.encode() + b"\n").diagnoses[0]
        assert (top.entry.id, top.kind) == ("DRV-oserror", "eaddrinuse"), line[:60]


def test_an_errno_named_in_a_title_is_the_os_error(catalog):
    top = classify(catalog, b"EADDRINUSE (-98) error when setting up NCCL communicator\n").diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-oserror", "eaddrinuse")
    quiet = classify(catalog, b"INFO the EADDRINUSE handler is installed\n")
    assert not quiet.fatal


def test_a_strerror_quoted_in_prose_is_the_os_error(catalog):
    top = classify(catalog, 'multi-node prefill fails at start: MessageQueue ZMQ bind "Address already in use" (shm_broadcast.py)\n'.encode()).diagnoses[0]
    assert (top.entry.id, top.kind) == ("DRV-oserror", "eaddrinuse")
    cjk = classify(catalog, "多机启动报 MessageQueue ZMQ bind “Address already in use”\n".encode()).diagnoses[0]
    assert cjk.kind == "eaddrinuse"
    assert not classify(catalog, b'WARNING: cleanup of /tmp/x skipped: "Permission denied", continuing\n').fatal


def test_the_ascend_drivers_errno_is_not_an_os_error_of_the_host(catalog):
    line = (b"[ERROR] DRV(41852,python3.7):2021-11-11-11:19:04.908.459 [ascend][curpid: 41852, 50983][drv][devmm]"
            b"[devmm_alloc_managed 126]<errno:12, 6> heap_alloc_managed out of memory, pp=0x1, bytesize=15069901824.\n")
    assert not any(d.entry.id == "DRV-oserror" for d in classify(catalog, line).diagnoses)


def test_an_exception_repr_logged_inside_a_tuple_is_read_unless_at_a_quiet_level(catalog):
    line = ("(APIServer pid=7) ERROR 09-02 01:27:54 [config.py:124] Error retrieving config: (ValueError(\"the frobnicator "
            "is broken beyond repair\"), '(Request ID: 208e)'), retrying 1 of 2\n")
    found = classify(catalog, line.encode())
    assert found.unknown is not None and (found.unknown.type, found.unknown.message) == ("ValueError", "the frobnicator is broken beyond repair")
    quiet = "WARNING 09-02 01:27:54 [config.py:124] Error retrieving config: (ValueError(\"transient\"), 'x'), retrying 1 of 2\n"
    assert not classify(catalog, quiet.encode()).fatal


def test_an_issue_titles_tag_before_the_exception_is_read_but_not_a_handled_one(catalog):
    for title in (b"[Train] RuntimeError: the frobnicator is broken\n", b"train RuntimeError: the frobnicator is broken\n"):
        found = classify(catalog, title)
        assert found.unknown is not None and found.unknown.type == "RuntimeError", title
    assert not classify(catalog, b"caught ValueError: transient, retrying\n").fatal


def test_a_shell_or_coreutils_error_ending_in_a_strerror_is_the_os_error(catalog):
    cases = {"mkdir: cannot create directory ‘/tmp/ray’: Permission denied": ("eacces", "/tmp/ray"),
             "cp: error writing '/ckpt/global_step_40/model.pt': No space left on device": ("enospc", "/ckpt/global_step_40/model.pt"),
             "bash: ./train_grpo.sh: Permission denied": ("eacces", "")}
    alone = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in ("ARL-E003", "ARL-E007")))
    for line, (kind, path) in cases.items():
        top = classify(alone, line.encode() + b"\n").diagnoses[0]
        assert (top.entry.id, top.kind) == ("DRV-oserror", kind), line
        assert path in top.entry.title, (line, top.entry.title)
    assert not classify(catalog, b"WARNING: rm: cannot remove '/tmp/x': Permission denied\n").fatal


def test_an_acl_code_reported_on_a_line_of_its_own_is_the_failure(catalog):
    """ACL's ReportCallError line and torch_npu's 'NPU error, error code is N' pasted alone (a FAQ, a PR) are failures."""
    result = classify(catalog, b"open device 3 failed, runtime result = 107001.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]\n")
    assert result.fatal and result.diagnoses[0].kind == "invalid-visible-device"
    result = classify(catalog, b"torch_npu._C._clear_overflow_npu() RuntimeError NPU error, error code is 107002.\n")
    assert result.fatal and result.diagnoses[0].kind == "npu-device-not-set"
    # a warning with a code, and an ACL code in a handled plog line, are not
    assert not classify(catalog, b"[W NPUStream.cpp:365] Warning: NPU warning, error code is 107020[Error]: .\n").fatal
    assert not classify(catalog, b"rtMemcpy: ErrCode=107030 [the current capture mode does not support this operation]\n").fatal


def test_runtime_lines_under_an_exception_refine_its_code(catalog):
    """A synchronize refused inside ACL graph capture, and a GetNext AI CPU timeout, read from the lines under the error."""
    log = (
        "RuntimeError: NPUModelRunner init failed, error is ACL stream synchronize failed, error code:507014\n"
        "StreamSynchronize: Not allow to synchronize captured-stream, stream_id=12\n"
        "rtStreamSynchronize: ErrCode=107027, desc=[stream is captured]\n"
    )
    assert classify(catalog, log.encode()).diagnoses[0].kind == "aclgraph-capture-failed"
    log = (
        "E30008: AI CPU operator execution time out.\n"
        "TraceBack (most recent call last):\n"
        "Aicpu kernel execute failed, device_id=0, stream_id=2, task_id=2, fault op_name=aicpu_getnext_IteratorGetNext[FUNC:GetError][FILE:stream.cc][LINE:1133]\n"
    )
    assert classify(catalog, log.encode()).diagnoses[0].kind == "getnext-aicpu-timeout"


def test_an_exception_typed_with_a_full_width_colon_is_read(catalog):
    """'RuntimeError：…' (a Chinese input method's colon) is the exception, as 'RuntimeError: …' would be."""
    log = "RuntimeError：SetDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:37 NPU function error: aclrtSetDevice, error code is 107001\n"
    result = classify(catalog, log.encode())
    assert result.fatal and result.diagnoses[0].kind == "invalid-visible-device"
    assert classify(catalog, "ValueError：期望的 dtype 不一致\n".encode()).unknown.type == "ValueError"


def test_context_null_after_a_failed_device_open_is_not_a_missing_set_device(catalog):
    """107002 (context null) whose CANN report says the SoC version could not be read: the device open failed."""
    log = (
        "RuntimeError: GetDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:60 NPU function error: "
        "aclrtGetCurrentContext(&used_devices[local_device]), error code is 107002\n"
        "[ERROR] 2025-05-09-08:06:34 (PID:207, Device:0, RankID:-1) ERR00100 PTA call acl api failed\n"
        "EE1001: [PID: 207] 2025-05-09-08:06:34.181.090 The argument is invalid.Reason: rtGetDevMsg execute failed, reason=[context pointer null]\n"
        "        TraceBack (most recent call last):\n"
        "        [Init][Version]init soc version failed, ret = 507008[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]\n"
    )
    kinds = [d.kind for d in classify(catalog, log.encode()).diagnoses]
    assert "npu-device-not-set" not in kinds and "npu-set-device-failed" in kinds


def test_a_narrower_reading_of_the_same_words_is_dropped(explain_text):
    """verl's Megatron registry refusal (ARL-E614, verl's own list) is also vLLM's registry sentence (ARL-E228): the
    wider, more literal match is the reading; the narrower one is not listed at all."""
    line = ("ValueError: Model architectures ['Qwen3MoeForCausalLM'] are not supported for now. Supported architectures: "
            "['LlamaForCausalLM', 'Qwen2ForCausalLM', 'MistralForCausalLM']\n")
    result, top = explain_text(line)
    assert top is not None and top.entry.id == "ARL-E614"
    assert "ARL-E228" not in {d.entry.id for d in result.diagnoses}
    # vLLM's own list (any other architectures) is read by ARL-E228 alone
    result, top = explain_text(line.replace("'LlamaForCausalLM', 'Qwen2ForCausalLM', 'MistralForCausalLM'", "'AquilaModel', 'BaiChuanForCausalLM'"))
    assert top is not None and top.entry.id == "ARL-E228"


def test_a_wider_match_of_wildcards_only_does_not_win():
    from ascendrl.catalog.classify import _literal_weight, _most_specific
    from ascendrl.catalog.entries import KnownFailure, Signature

    def entry(eid: str, regex: str) -> tuple[KnownFailure, Signature]:
        sig = Signature(regex)
        return KnownFailure(eid, eid, "operator", "critical", True, (sig,), "c", ("f",), ("s",)), sig

    line = "RuntimeError: Error X happened due to the tiling key 7"
    greedy, specific = entry("A", r"Error X happened.*"), entry("B", r"happened due to the tiling key \d+")
    assert _literal_weight(greedy[1].regex) < _literal_weight(specific[1].regex)
    assert _most_specific([greedy, specific], line) == [greedy, specific]  # neither is a narrower reading
    longer = entry("C", r"Error X happened due to the tiling key \d+")
    assert _most_specific([longer, specific], line) == [longer]  # B lies inside C, which spells more
    assert _literal_weight(r"a\.b[^\]]*\d{2,3}(?:c|d)") == 5  # a . b c d
