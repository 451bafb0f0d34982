"""A C++ logger's error / fatal record read as the failure when nothing else in the log is fatal (k25none).

glog ("[IWEF][yyyy]mmdd hh:mm:ss.uuuuuu threadid file:line] msg", https://github.com/google/glog/pull/530), Ray's C++
logger ("[%Y-%m-%d %H:%M:%S,%e %L %P %t] %v", kLogFormatTextPattern in src/ray/util/logging.cc), PyTorch's c10 logger
("[E ProcessGroupGloo.cpp:144] …", MessageLogger in c10/util/Logging.cpp) and CANN's log records
("[Level] ModuleName(PID,PName):DateTimeMS [FileName:LineNumber]LogContent", the CANN log reference) print a message
and a level but no exception type, so a log that is only such records ended as "nothing fatal found". The record's
message is now the unexplained error (``Exception: <message>``) the similar-failure fallback reads, but only as a last
resort: a Python exception, a catalog diagnosis or a CANN report's coded lines still come first, and a record the run
went on after (a progress line below it) stays harmless. The lines are from public threads (ray#12153, ray#28562, vllm#7074,
vllm-ascend#5635, MindAct#1761, WMPO#3, the CANN log reference); the catalog entries that name some of them are taken
out, so what is checked is the reading, not a diagnosis.
"""

from __future__ import annotations

import dataclasses
import io

import pytest

from ascendrl.catalog import Classifier, load_catalog
from ascendrl.catalog import chain as chains

# the entries that name these lines (ray-gcs-unreachable, ray-node-marked-dead, Mooncake transfer, MindSpore pool OOM,
# Ray OOM kill, Gloo connect): out, so that the lines are read as no entry knows them
NAMED = {"ARL-E119", "ARL-E139", "ARL-E426", "ARL-E652", "ARL-E117", "ARL-E1681"}

GLOG_F = ("F1119 08:22:23.602082 1513663 1513663 redis_context.cc:298] Could not establish connection to redis "
          "161.97.xx.xxx:12662 (context.err = 1)")
GLOG_E = ("E20260106 06:43:02.966156  5793 ascend_direct_transport.cpp:820] Failed to connect to target: "
          "172.17.0.16:25482, status: 103900")
RAY_C = ("[2022-09-16 13:13:46,502 C 2116 2116] (raylet) node_manager.cc:999: [Timeout] Exiting because this node manager "
         "has mistakenly been marked as dead by the GCS: GCS didn't receive heartbeats from this node for 30000 ms.")
RAY_E = ("(raylet) [2025-12-07 09:57:19,206 E 393463 393463] (raylet) node_manager.cc:3277: 2 Workers (tasks / actors) "
         "killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at")
CANN = ("[ERROR] TEFUSION(12940,atc):2021-10-17-05:54:07.599.074 [tensor_engine/te_fusion/pywrapper.cc:33]InitPyLogger "
        "Failed to import te.platform.log_util")
MINDSPORE = ("[ERROR] PRE_ACT(54175,fffdbcff91e0,python):2024-10-22-11:24:55.301.443 [mindspore/ccsrc/backend/common/mem_reuse/"
             "mem_dynamic_allocator.cc:392] AddMemBlockAndMemBufByEagerFree] TotalUsedMemStatistics : 29356337664 plus "
             "TotalUsedByEventMemStatistics : 0 and plus alloc size : 301990400 is more than total mem size : 29464985600.")


def _explain(text: str, chunk_size: int | None = None):
    catalog = load_catalog()
    catalog = dataclasses.replace(catalog, entries=tuple(e for e in catalog.entries if e.id not in NAMED))
    classifier = Classifier(catalog) if chunk_size is None else Classifier(catalog, chunk_size=chunk_size)
    classifier.feed_stream(io.BytesIO(text.encode()), "run.log")
    return classifier.result()


@pytest.mark.parametrize("line, message, fatal", [
    (GLOG_F, "Could not establish connection to redis 161.97.xx.xxx:12662 (context.err = 1)", True),
    (GLOG_E, "Failed to connect to target: 172.17.0.16:25482, status: 103900", False),
    (RAY_C, "[Timeout] Exiting because this node manager has mistakenly been marked as dead", True),
    (RAY_E.removeprefix("(raylet) "), "2 Workers (tasks / actors) killed due to memory pressure (OOM)", False),
    # normalize strips Ray's timestamp as a line prefix: the record is read without it too
    ("E 393463 393463] (raylet) node_manager.cc:3277: 2 Workers (tasks / actors) killed due to memory pressure (OOM)",
     "2 Workers (tasks / actors) killed", False),
    (CANN, "InitPyLogger Failed to import te.platform.log_util", False),
    (MINDSPORE, "TotalUsedMemStatistics : 29356337664 plus", False),
    # c10's MessageLogger, older torch (vllm#7074) and with the date (torch >= 2.4)
    ("[E ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with [../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error",
     "Gloo connectFullMesh failed with", False),
    ("[F106 06:43:02.555922410 ProcessGroupNCCL.cpp:1288] Heartbeat monitor timed out", "Heartbeat monitor timed out", True),
])
def test_an_error_record_is_read(line, message, fatal):
    m = chains.NATIVE_ERROR.match(line)
    assert m is not None and m.group("message").startswith(message)
    assert ((m.group("glog") or m.group("ray") or m.group("c10")) in ("F", "C")) is fatal


@pytest.mark.parametrize("line", [
    "I1119 08:22:23.602082 1513663 1513663 redis_context.cc:298] Connected to redis 161.97.xx.xxx:12662",
    "W1119 08:22:22.445783 1513663 1513663 redis_context.cc:303] Failed to connect to Redis, retrying.",
    "[2022-09-16 13:13:46,502 I 2116 2116] (raylet) node_manager.cc:999: Setting node ID node_id=9773b3",
    "[WARNING] RUNTIME(860,python3):2025-12-31-07:41:59.845.192 [task.cc:51] 860 RegTaskFailCallback: register finish",
    "[EVENT] RUNTIME(15568,acl_caffe_interp):2020-06-04-10:50:14.522.076 [runtime/feature/src/logger.cc:1014]15570 TaskLaunched:device_id=0",
    "[W106 06:43:02.555922410 compiler_depend.ts:117] Warning: Driver Version:  is invalid or not supported yet.",
    "ERROR 03-04 12:57:08 [engine.py:409] something went wrong here",  # a Python logger's record: not a C++ logger's
])
def test_other_records_are_not(line):
    assert chains.NATIVE_ERROR.match(line) is None


@pytest.mark.parametrize("text, message", [
    (f"W1119 08:22:22.445783 1513663 1513663 redis_context.cc:303] Failed to connect to Redis, retrying.\n{GLOG_F}\n",
     "Could not establish connection to redis"),
    (f"{RAY_E}\n(raylet)\n", "2 Workers (tasks / actors) killed due to memory pressure (OOM)"),
    (f"{MINDSPORE}\n", "TotalUsedMemStatistics"),
    ("(RayWorkerWrapper pid=1890, ip=10.41.0.8) [rank8]:[E ProcessGroupGloo.cpp:144] Gloo connectFullMesh failed with "
     "[../third_party/gloo/gloo/transport/tcp/pair.cc:144] no error\n", "Gloo connectFullMesh failed with"),
    # a fatal-level record outranks the error records around it
    (f"{GLOG_E}\n{RAY_C}\n", "[Timeout] Exiting because this node manager"),
])
def test_a_log_of_records_is_an_unexplained_error(text, message):
    explanation = _explain(text)
    assert explanation.fatal
    if explanation.diagnoses:  # an analyzer reads the record (Ray's core giving up on the GCS: DRV-ray-mechanism, k37gen)
        top = explanation.diagnoses[0]
        assert top.basis == "derived" and top.excerpt.startswith(message), top
        return
    assert explanation.unknown is not None and explanation.unknown.type == "Exception"
    assert explanation.unknown.message.startswith(message)


def test_a_python_exception_comes_first():
    text = (f"{MINDSPORE}\nTraceback (most recent call last):\n  File \"/app/run.py\", line 17, in <module>\n"
            "    outputs = model.generate(**input_ids)\nRuntimeError: Launch kernel failed, name:Default/MatMul-op1\n")
    explanation = _explain(text)
    assert explanation.unknown is not None and explanation.unknown.type == "RuntimeError"


def test_a_record_the_run_went_on_after_is_harmless():
    text = f"{GLOG_E}\nstep:12 - actor/loss:0.31 - timing/step:4.2\n"
    assert not _explain(text).fatal


def test_a_record_with_a_code_is_left_to_the_code_readers():
    # torch_npu logs a graph-capture code at ERROR and goes on (test_derived): the code readers judge it harmless
    text = "[ERROR] RUNTIME(4242,python):2025-11-20-10:00:00.000 [api.cc:10] rtMemcpy failed, runtime result = 107030\n"
    assert not _explain(text).fatal


def test_a_record_after_the_last_progress_line_is_the_failure_not_one_before_it():
    record = "E1119 08:22:23.602082 1513663 1513663 worker.cc:298] Lost connection to peer number {}"
    before = "".join(record.format(i) + "\n" for i in range(100))
    after = "".join(record.format(1000 + i) + "\n" for i in range(100))
    explanation = _explain(before + "step:3 - actor/loss:0.2\n" + after)
    # one block: the first record after its progress line answers, however many records came before that line
    assert explanation.unknown is not None and explanation.unknown.message.endswith("number 1000")
    assert explanation.unknown.line == 102


def test_a_fatal_record_comes_before_an_earlier_error_record():
    error = "E1119 08:22:23.602082 1513663 1513663 worker.cc:298] Lost connection to peer number 7"
    fatal = "F1119 08:22:24.000001 1513663 1513663 core_worker.cc:771] Check failed: worker_context_ is not null"
    explanation = _explain(f"{error}\n{error}\n{fatal}\n")
    assert explanation.unknown is not None and explanation.unknown.message.startswith("Check failed")
    assert explanation.unknown.line == 3


def test_records_in_a_large_log_are_found_in_every_block():
    # a log of many read blocks (the scan pass, not the per-line paste path): progress lines all along, then records
    filler = "".join(f"step:{i} - actor/loss:0.{i % 10} - timing/step:4.2\n" for i in range(20000))
    record = "[ERROR] RUNTIME(4242,python):2025-11-20-10:00:00.000.000 [stream.cc:88] stream synchronize did not finish"
    explanation = _explain(filler + record + "\n" + record + "\n", chunk_size=64 << 10)
    assert explanation.unknown is not None and explanation.unknown.message.startswith("stream synchronize did not finish")
    assert explanation.unknown.line == 20001
    assert not _explain(record + "\n" + filler, chunk_size=64 << 10).fatal  # the same record before the progress: the run went on


def test_a_paste_with_no_record_compiles_no_record_scan():
    # start-up: a one-line paste (no "] " anywhere) must not pay for the C++-record pass's compile
    catalog = load_catalog()
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(b"RuntimeError: call aclnnMatmul failed\n"), "one.log")
    classifier.result()
    assert classifier.matcher._native_scans == {}
    classifier = Classifier(catalog)
    classifier.feed_stream(io.BytesIO(f"{GLOG_E}\n".encode()), "run.log")
    classifier.result()
    assert classifier.matcher._native_scans != {}  # a block that may hold a record is scanned
