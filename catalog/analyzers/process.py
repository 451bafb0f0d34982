"""A process died without a Python traceback: C++ terminate, a fatal signal, the HCCL watchdog.

These are fatal on their own — the process is gone — even when nothing else in the log is. The
``what():`` line that follows a C++ terminate carries the real message; the watchdog's timeout is
usually the consequence of another rank failing first, so it ranks below anything specific.
"""

from __future__ import annotations

import re

from ..chain import Chain, Link
from . import Analyzer, Facts, Finding, evidence

SOURCES = {
    "terminate": "https://gcc.gnu.org/onlinedocs/libstdc++/manual/termination.html",
    "fatal": "https://docs.python.org/3/library/faulthandler.html",
    "signal": "https://github.com/google/glog/blob/v0.7.1/src/signalhandler.cc",
    # torchrun's ChildFailedError summary: "Signal 7 (SIGBUS) received by PID 1234" (ProcessFailure.signal_name)
    "torchrun": "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/distributed/elastic/multiprocessing/errors/__init__.py",
    "watchdog": "https://github.com/Ascend/pytorch/blob/v26.1.0-pytorch2.12.0/torch_npu/csrc/distributed/ProcessGroupHCCL.cpp",
    "cublas-fpe": "https://github.com/pytorch/pytorch/issues/133548",
}


# What a shell prints for a job a signal ended, in the C and the zh_CN locale (bash's and glibc's translations).
SHELL_DEATHS = {"Segmentation fault": "SIGSEGV", "段错误": "SIGSEGV", "Aborted": "SIGABRT", "已放弃": "SIGABRT",
                "Bus error": "SIGBUS", "总线错误": "SIGBUS", "Killed": "SIGKILL", "已杀死": "SIGKILL",
                "Floating point exception": "SIGFPE", "浮点数例外": "SIGFPE"}
# Each signal's own class: only SIGKILL is a kill from outside (the OOM killer, a container limit); SIGABRT is the
# process aborting itself (std::terminate, a failed check), SIGSEGV / SIGBUS a bad memory access, SIGFPE an arithmetic
# trap (integer division by zero) in native code. faulthandler names them by glibc's strsignal text.
SIGNAL_KINDS = {"SIGSEGV": "process-segfault", "SEGMENTATION FAULT": "process-segfault", "SEGFAULT": "process-segfault",
                "SIGKILL": "process-killed", "SIGABRT": "process-aborted", "ABORTED": "process-aborted",
                "SIGBUS": "process-bus-error", "BUS ERROR": "process-bus-error",
                "SIGFPE": "process-fpe", "FLOATING POINT EXCEPTION": "process-fpe"}


def death_kind(m: re.Match) -> tuple[str, str]:
    """(kind, message) from a PROCESS_DEATH match."""
    if m.group(2):
        return f"terminate:{m.group(2)}", ""
    if m.group(3):
        return "fatal", m.group(3)
    if m.group(4):
        return f"signal:{m.group(4)}", ""
    if m.group(5) or m.group(8):
        return "signal:" + SHELL_DEATHS[m.group(5) or m.group(8)], ""
    if m.group(9):
        return "signal:SIGSEGV", ""  # tvm-ffi's "!!!!!!! Segfault encountered !!!!!!!"
    if m.group(11):
        return f"signal:{m.group(11)}", ""  # torchrun's summary of a worker a signal ended
    if m.group(10):
        return "watchdog", m.group(10)  # the heartbeat monitor's / watchdog's exit message (chains.PROCESS_DEATH)
    return "watchdog", f"{m.group(6)}({m.group(7)}"


def _abort(kind: str, message: str) -> bool:
    """Whether a death (death_kind's pair) is SIGABRT: the signal, the shell's "Aborted", "Fatal Python error: Aborted"."""
    signal = kind.split(":", 1)[1] if kind.startswith("signal:") else message if kind == "fatal" else ""
    return SIGNAL_KINDS.get(signal.upper()) == "process-aborted"


class ProcessDeath(Analyzer):
    id = "DRV-process"
    title = "The process died without a Python traceback"
    family = "device"

    def analyze(self, link: Link, chain: Chain, facts: Facts) -> Finding | None:
        if link.kind != "process":
            return None
        if link.type != "watchdog" and _abort(link.type, link.message) and any(
                other.kind == "process" and other.type == "watchdog" for other in chain.links if other is not link):
            # The watchdog / its heartbeat monitor ends the process with std::abort (terminateProcess: LOG(FATAL)):
            # the SIGABRT that follows in the same failure is its own exit, not a second crash.
            return None
        return self.finding(link.type, link.message, evidence(link), on_npu=facts.npu)

    def settle(self, derived) -> None:
        """A process group's watchdog (or its heartbeat monitor) ends the process with std::abort once it gives up on a
        collective (terminateProcess: LOG(FATAL)): a SIGABRT / "Fatal Python error: Aborted" printed after it in another
        chain (analyze drops the one in the same chain) is that exit, not a failure of its own."""
        watchdog = next((i for i in derived.items if i.kind == "collective-timeout" and i.entry.id == self.id), None)
        if watchdog is None:
            return
        for item in derived.items:
            if item.kind == "process-aborted" and item.demoted_by is None and item.order > watchdog.order:
                item.demoted_by = watchdog.entry.id

    @staticmethod
    def finding(kind: str, message: str, lines: tuple[str, ...], on_npu: bool | None = None) -> Finding:
        """``on_npu``: whether the log shows the Ascend stack (None: not known, as for a death seen live)."""
        if kind.startswith("terminate:"):
            what = f": {message}" if message else ""
            return Finding(
                f"C++ exception ended the process ({kind[10:]}{what})"[:160],
                f"A C++ exception ({kind[10:]}) escaped into std::terminate, which aborts the whole process without a "
                "Python traceback. In torch / torch_npu this is usually an error raised on a background thread "
                "(allocator, HCCL watchdog, op dispatch) — the `what():` line is the real message.",
                ("Read the `what():` line and the CANN lines (EZxxxx, error codes) just above it: they name the failing call",
                 "Rerun with ASCEND_LAUNCH_BLOCKING=1 so NPU errors surface at the op that caused them, not on a background thread",
                 "If it happens at import or start-up, check that torch and torch_npu are the same version (ascendrl check)"),
                lines, (SOURCES["terminate"],), key=f"{kind}:{message[:80]}", kind="cpp-terminate",
            )
        if kind == "watchdog":
            return Finding(
                "HCCL watchdog: a collective operation timed out",
                f"torch_npu's ProcessGroupHCCL watchdog aborted the process because a collective ({message[:120]}) did "
                "not finish in time. Usually one rank stopped earlier (an exception, OOM or a hang) and the others waited "
                "for it: the first failing rank's own error is the root cause.",
                ("Look for the earliest error of any rank (other worker logs, Ray's session folder) — that is the cause",
                 "If every rank was healthy but slow (first compile, long rollout), raise HCCL_EXEC_TIMEOUT and the process group timeout",
                 "Check the HCCL network (hccn_tool -i N -link -g) if the timeout repeats at the same step"),
                lines, (SOURCES["watchdog"],), key="watchdog", family="hccl", weak=True, kind="collective-timeout",
            )
        signal = kind.split(":", 1)[1] if ":" in kind else message
        signal_kind = SIGNAL_KINDS.get(signal.upper(), "process-killed")
        if signal_kind == "process-fpe" and on_npu is False:
            # No NPU in sight: a torch process on an NVIDIA GPU. Its SIGFPE with or without a backtrace is, in every
            # thread the catalog has (ARL-E1090's sources and the corpus), cuBLASLt's matmul-heuristic divide by zero on
            # H20 with the cuBLAS of CUDA 12.1-12.4; a backtrace through cublasLt frames is ARL-E1090 itself.
            return Finding(
                "Fatal signal SIGFPE in a GPU process: most likely the cuBLAS 12.1-12.4 bug on NVIDIA H20",
                "The process died of SIGFPE (an integer divide by zero in native code) with no Python exception. In a "
                "torch / vLLM process on an NVIDIA GPU the known cause is cuBLASLt's matmul heuristic dividing by zero on "
                "H20 GPUs, in the cuBLAS builds of CUDA 12.1-12.4 (the nvidia-cublas-cu12 wheel torch installs, or a "
                "container's system cuBLAS), at particular GEMM shapes in fp16 / bf16 (ARL-E1090 when the backtrace "
                "shows the cublasLt frames). On another GPU, look for a division by zero in a custom extension.",
                ("Check the GPU model (nvidia-smi) and the cuBLAS that is loaded (pip show nvidia-cublas-cu12; a system "
                 "cuBLAS first on LD_LIBRARY_PATH wins over the wheel)",
                 "On H20: pip install nvidia-cublas-cu12==12.4.5.8 (or newer), or a torch / container built on a newer CUDA 12.x",
                 "Rerun with PYTHONFAULTHANDLER=1 (or under gdb) to see the native frame that trapped"),
                lines, (SOURCES["cublas-fpe"], SOURCES["fatal"]), key=f"signal:{signal}", kind="cublas-h20-fpe",
            )
        cause, fixes = SIGNAL_READINGS.get(signal_kind, SIGNAL_READINGS["process-segfault"])
        return Finding(
            f"Fatal signal: the process crashed ({signal})",
            f"The process was ended by {signal}; Python printed no exception. {cause}",
            (*fixes, "Rerun with PYTHONFAULTHANDLER=1 (python -X faulthandler) to get the Python stack of the crashing thread"),
            lines, (_signal_source(kind, lines),), key=f"signal:{signal}",
            kind=signal_kind, family="memory" if signal_kind in ("process-bus-error", "process-killed") else "",
        )


# What each signal says of the death (signal(7)), and where to look first.
def _signal_source(kind: str, lines: tuple[str, ...]) -> str:
    """Who printed the death: faulthandler ("Fatal Python error"), torchrun's summary of a worker, else a signal handler."""
    if kind == "fatal":
        return SOURCES["fatal"]
    if any(TORCHRUN_SIGNAL.search(line) for line in lines):
        return SOURCES["torchrun"]
    return SOURCES["signal"]


TORCHRUN_SIGNAL = re.compile(r"Signal \d+ \(SIG[A-Z]+\) received by PID \d+")


SIGNAL_READINGS = {
    "process-segfault": (
        "A bad memory access in native code (a C/C++ extension, the driver or a custom op). At start-up this usually means "
        "native libraries from different builds (torch vs torch_npu, CANN toolkit vs driver); during training, a faulting "
        "operator.",
        ("Check torch / torch_npu / CANN / driver versions with `ascendrl check` — mismatched native libraries crash this way",
         "Read the lines just above the death (a native backtrace, CANN [ERROR] lines): they name the library that faulted")),
    "process-bus-error": (
        "A bus error: a shared-memory or memory-mapped file could not be backed. In a container this is nearly always "
        "/dev/shm running out (Docker gives 64 MB unless told otherwise) while DataLoader workers, HCCL / NCCL or Ray's "
        "object store write to it; less often a memory-mapped checkpoint file shrank or vanished while it was read.",
        ("Check the shared memory: df -h /dev/shm; start the container with --shm-size=64g (or --ipc=host), on Kubernetes "
         "an emptyDir with medium: Memory at /dev/shm",
         "Lower data_loader num_workers, or leave checkpoints alone (no copy or rewrite) while a job reads them")),
    "process-aborted": (
        "The process aborted itself: an uncaught C++ exception (std::terminate), a failed native check (LOG(FATAL), "
        "assert) or a watchdog giving up.",
        ("Read the lines just above the death: `terminate called after throwing …` / `what():`, an HCCL watchdog message "
         "or CANN's [ERROR] lines name what aborted it",
         "Rerun with ASCEND_LAUNCH_BLOCKING=1 so an NPU error surfaces at the operator that caused it")),
    "process-fpe": (
        "An arithmetic trap (an integer division by zero) in native code.",
        ("Read the native backtrace above the death for the library that trapped (a custom extension, a BLAS kernel)",
         "Check torch / torch_npu / CANN versions with `ascendrl check`")),
    "process-killed": (
        "SIGKILL cannot be caught: something outside the process killed it — nearly always the kernel's or the "
        "container's OOM killer because host RAM ran out, less often a scheduler (time limit, preemption) or kill -9.",
        ("Check `dmesg -T | grep -i -E 'killed process|out of memory'` (kubectl describe pod: OOMKilled) on that node, and "
         "watch free -h while the job loads",
         "Reduce host memory: fewer ranks loading the full model at once, no CPU offload unless RAM allows, fewer "
         "DataLoader workers; or raise the container's memory limit")),
}
