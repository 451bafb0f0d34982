"""Error-code tables (reviewed data, one YAML file per family, each row from a cited reference) and
the extraction of codes from log lines.

Codes are normalised to one spelling per family: ``507015`` (ACL / runtime return code),
``EZ9999`` (CANN error code), ``ERR00100`` (torch_npu sub-module + error), ``hccl:7`` (HcclResult),
``dcmi:-8005`` (DCMI / npu-smi), ``drv:87`` (the driver's drvError_t). Tables load on first use, so a paste without codes never reads them.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ascendrl import cache
from ...lazyre import lazy

cache.imported(__file__)  # own_source keys by the text this process runs

# PaddleCustomDevice's PADDLE_ENFORCE_NPU_SUCCESS writes "is :" (backends/npu/kernels/funcs/npu_enforce.h,
# build_npu_error_msg: " ACL error, the error code is : " << stat), so "is" may be followed by a colon.
ACL = lazy(
    r"(?i)(?:error ?code|errcode|ret(?:code)?|result|errno|error|return code|status)\s*(?:is\s*:|is|=|:)?\s*\[?\s*([125]\d{5})\b"
)
CANN = lazy(r"\b(E[A-Z]\d{4})\b|\b(E\d{5}):")
TORCH_NPU = lazy(r"\bERR(\d\d)(\d{3})\b")
# torch_npu's "HCCL function error: hcclX(...), error code is N", the same call quoted without that prefix,
# and HcclResult printed on its own.
HCCL = lazy(
    r"HCCL function error: .*?error code is (\d{1,2})\b|\bHcclResult\D{0,12}(\d{1,2})\b"
    r"|\b[Hh]ccl[A-Z]\w*(?:\([^)]*\))?,? error code is (\d{1,2})\b"
    # PaddleCustomDevice's PADDLE_ENFORCE_NPU_SUCCESS on an HcclResult (npu_enforce.h build_npu_error_msg)
    r"|\bHCCL error, the error code is : (\d{1,2})\b"
)
# k54hdk: npu-smi's own report of a DCMI code (hicann/driver ef377e9 src/custom/dev_prod/user/npucli/src/npu_smi.c
# execute_command: "Failed to execute npu-smi %s. ret is %d.") and its DCMI calls' "err is %d" ("dcmi_get_card_list
# failed. err is %d", npu_smi.c) are DCMI codes too.
DCMI = lazy(r"(?i)(?:\bdcmi\w*|\bnpu-smi\b).*?(?:ret|error code|errcode|result|err is)\s*(?:is|=|:)?\s*(-\d{4,5})\b")
# The driver's own return code (drvError_t), as CANN components print a driver call that failed
# ("get platform info failed, drvErr=87", "halMemAlloc failed: …, drvRetCode=6!"). The runtime also writes it
# "drvRet=%d" and "drv_ret=%d" ("[drv api] halGetDeviceInfo failed, device_id=%u, drv_ret=%d", hicann/runtime v8.5.0
# src/runtime/feature/src/runtime.cc), and older releases name the failed driver HAL call (hal*, which returns a
# drvError_t) and its "ret:N" ("halGetDeviceInfo get device type version failed , ret:87").
DRV = lazy(r"\bdrv_?(?:Err|RetCode|Ret|ret)\s*[=:]\s*(\d{1,3})\b|\bhal[A-Z]\w*\b[^,;]{0,60}?\bfailed\b[ ,]{0,4}ret\s*[=:]\s*(\d{1,3})\b")
# torch c10d's "(errno: 98 - Address already in use)"; gRPC's error report, as JSON ("errno":98, older releases) or
# as an absl status ({syscall:"bind", errno:98}) — how Ray's raylet and GCS report a port they could not bind. Not the
# Ascend driver's "<errno:12, 6>", which is about device memory.
ERRNO = lazy(r"\(errno: (\d+) - |\"errno\":(\d+)\b|[{,] ?errno:(\d+)\b")
# errno by its symbolic name, as newer torch (c10d) and libuv print it ("name: EADDRINUSE, message: address already in
# use") and as issue titles quote it ("EADDRINUSE (-98) error when setting up NCCL communicator").
ERRNO_NAMES = {"ENOSPC": 28, "EDQUOT": 122, "EMFILE": 24, "EADDRINUSE": 98, "EACCES": 13, "EROFS": 30, "ENOMEM": 12, "EPERM": 1}
ERRNO_NAME_SOURCE = r"\b(" + "|".join(ERRNO_NAMES) + r")\b"
# The runtime's words for an AI Core / vector core kernel that ran past its time limit rather than faulted ("Kernel task
# happen error, retCode=0x30, [vector core timeout]", "[Error]: The aicore execution times out.", "[aicore timeout]"):
# the classifier's prefilter lets these lines join their CANN report, and analyzers/codes.py reads them.
AICORE_TIMEOUT_WORDS = r"(?i:(?:vector |ai ?)core (?:execution )?tim(?:eout|ed out))|\[aicore timeout\]"
ERRNO_NAME = lazy(ERRNO_NAME_SOURCE)
# The runtime's stream-capture codes (acl.yaml: ACL_ERROR_RT_CAPTURE_DEPENDENCY .. ACL_ERROR_STREAM_CAPTURE_CONFLICT,
# _STREAM_CAPTURE_UNMATCHED, _STREAM_CAPTURE_WRONG_THREAD): an operation ACL graph capture does not allow, issued on a
# stream being captured. vLLM-Ascend and plog also print them while graph capture probes what it may capture.
# k50op: 107041 ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC (the capture mode refuses an async-to-sync call) is a refused
# operation inside capture too.
CAPTURE_CODES = frozenset([*(str(code) for code in range(107024, 107033)), "107036", "107038", "107041"])
# torch_npu's names for the device faults it stops on, thrown without the ACL code they stand for: the task queue's
# status once the runtime reported the fault (NPUQueue.cpp deviceErrorMap, "RuntimeError: UCE ERROR, <CANN message>"),
# and NPU_CHECK_ERROR's "NPU function error: <name>, error code is N" (NPUException.cpp errCodeHandlerMap: 507053 "UCE
# ERROR", 507054 "HBM MULTI BIT ECC ERROR", 507055 "SUSPECT MEM ERROR", 507056 "HCCS LINK ERROR" / "UB LINK ERROR",
# 507057 "SUSPECT REMOTE ERROR", 507904 "HCCL OP RETRY FAILED", 107022 "FORCE STOP"), torch_npu v7.1.0 to v7.3.1 and
# master. Only where an error message opens with the name: the same words sit inside torch_npu's INFO / debug lines.
TORCH_NPU_DEVICE_ERRORS = {"UCE ERROR": "507053", "HBM MULTI BIT ECC ERROR": "507054", "SUSPECT MEM ERROR": "507055",
                           "HCCS LINK ERROR": "507056", "UB LINK ERROR": "507056", "SUSPECT REMOTE ERROR": "507057",
                           "HCCL OP RETRY FAILED": "507904", "FORCE STOP": "107022"}
TORCH_NPU_DEVICE_ERROR_SOURCE = (r"(?:\b[A-Z]\w*Error: |NPU function error: ) ?(" + "|".join(TORCH_NPU_DEVICE_ERRORS)
                                 + r")(?=[,.]|\s*$)")
TORCH_NPU_DEVICE_ERROR = lazy(TORCH_NPU_DEVICE_ERROR_SOURCE)
HINT = lazy(r"(?i)\d{5}|dcmi|npu-smi \S+\. ret is -|drv_?(?:err|ret)|(?-i:\bhal[A-Z]\w*\b.*\bret\b)|hccl function error|hccl error, the error code is :|errno\"?: ?\d|\bhccl\w+\(|"
            # torch_npu's OPS layer on an HCCL call (OPS_CHECK_ERROR: "OPS function error: HcclAllreduce, error code is 6")
            r"|\bhccl[a-z]\w*,? error code is \d|"
            + ERRNO_NAME_SOURCE + "|(?-i:" + TORCH_NPU_DEVICE_ERROR_SOURCE + ")")


@dataclasses.dataclass(frozen=True)
class CodeInfo:
    code: str
    family: str  # acl | cann | torch_npu | hccl | dcmi | drv
    name: str
    meaning: str
    advice: str
    source: str

    def summary(self) -> str:
        name = f" {self.name}" if self.name and self.name != self.code else ""
        return f"{self.code}{name}: {self.meaning}"


def extract(text: str) -> list[str]:
    """Every code in a line, normalised, in the order they appear (no duplicates)."""
    if not HINT.search(text):
        return []
    found: list[tuple[int, str]] = []
    for m in TORCH_NPU.finditer(text):
        found.append((m.start(), f"ERR{m.group(1)}{m.group(2)}"))
    for m in CANN.finditer(text):
        found.append((m.start(), m.group(1) or m.group(2)))
    for m in ACL.finditer(text):
        found.append((m.start(1), m.group(1)))
    for m in HCCL.finditer(text):
        found.append((m.start(), f"hccl:{m.group(1) or m.group(2) or m.group(3) or m.group(4)}"))
    for m in TORCH_NPU_DEVICE_ERROR.finditer(text):
        found.append((m.start(1), TORCH_NPU_DEVICE_ERRORS[m.group(1)]))
    for m in ERRNO.finditer(text):
        group = next(g for g in (1, 2, 3) if m.group(g))
        found.append((m.start(group), f"errno:{m.group(group)}"))
    for m in ERRNO_NAME.finditer(text):
        found.append((m.start(1), f"errno:{ERRNO_NAMES[m.group(1)]}"))
    for m in DCMI.finditer(text):
        found.append((m.start(1), f"dcmi:{m.group(1)}"))
    for m in DRV.finditer(text):
        group = 1 if m.group(1) else 2
        found.append((m.start(group), f"drv:{m.group(group)}"))
    out: list[str] = []
    for _, code in sorted(found):
        if code not in out:
            out.append(code)
    return out


# The one-line form of torch_npu's description + advice ("… memory. Check the remaining …"): a cheap hint only.
DESCRIBED_HINT = lazy(r"\[Error\]: ?\S|\.\s+(?:\(1\))?(?:Check|Rectify) ")


@functools.lru_cache(maxsize=1)
def _descriptions() -> tuple[Any, dict[str, list[str]]]:
    """One pattern for every torch_npu code description (acl_messages.yaml), and each matched text's codes."""
    import re

    codes: dict[str, list[str]] = {}
    for description, advice, numbers in (tables().get("acl_messages") or {}).get("messages") or ():
        for text in (f"[Error]: {description}", f"{description} {advice}"):
            codes.setdefault(text, [])
            codes[text] += [str(n) for n in numbers if str(n) not in codes[text]]
    # "[Error]: X" may stand alone or before the advice; the one-line form needs both sentences (short descriptions
    # such as "Invalid file." are common words on their own).
    alternatives = sorted(codes, key=len, reverse=True)
    pattern = re.compile("|".join(re.escape(t).replace(r"\ ", r"\s+") for t in alternatives))
    return pattern, codes


# The runtime's report of a failed call with its reason and no number (rt_reasons.yaml): "<rtApi> execution failed,
# reason=<reason>", "<rtApi> execution failed, <reason>." (a null context, an unsupported feature) and the older
# "<rtApi> execute failed, reason=[<reason>]". The reason runs to its bracket, the sentence's full stop, plog's
# "[FUNC:FuncErrorReason][FILE:error_message_manage.cc]…" tail or the line's end.
RT_REASON = lazy(r"\b\w+ execut(?:e|ion) failed, (?:reason=\[?([^\[\]\n]+?)\]?|(the (?:context|feature) [^.\[\n]+?))\.?(?=\[FUNC:|\s*$)")


@functools.lru_cache(maxsize=1)
def _rt_reasons() -> dict[str, str]:
    """Each runtime reason text (rt_reasons.yaml) and the ACL code it stands for."""
    return {str(reason): str(code) for reason, code, *_ in (tables().get("rt_reasons") or {}).get("reasons") or ()}


def described(text: str) -> list[str]:
    """The ACL codes a torch_npu code description in this line stands for (the paste lost the number)."""
    if not DESCRIBED_HINT.search(text):
        return []
    pattern, codes = _descriptions()
    m = pattern.search(text)
    if m is None:
        return []
    return codes.get(" ".join(m.group(0).split()), [])


def reasoned(text: str) -> list[str]:
    """The ACL code the runtime's reason for a failed call in this line stands for (rt_reasons.yaml; the number lost)."""
    if " failed, " not in text or (m := RT_REASON.search(text)) is None:
        return []
    code = _rt_reasons().get((m.group(1) or m.group(2) or "").strip())
    return [code] if code else []


@functools.lru_cache(maxsize=1)
def tables() -> dict[str, dict[str, Any]]:
    """Every table by file name; parsed from the YAML once, then from the parsed-data cache (ascendrl/cache.py)."""
    texts = cache.shipped_texts(__file__, __package__, (".yaml",))
    return cache.cached("codes", cache.content_key("codes", cache.own_source(__file__), texts), lambda: _parse(texts), _checked)


def _parse(texts: list[tuple[str, str]]) -> dict[str, dict[str, Any]]:
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    out: dict[str, dict[str, Any]] = {}
    for name, text in texts:
        table = yaml.load(text, Loader=loader)
        for section in ("codes", "families", "submodules", "errors", "special"):  # numeric keys as text: JSON keeps only strings
            if isinstance(table.get(section), dict):
                table[section] = {str(k): v for k, v in table[section].items()}
        out[name[:-5]] = table
    return out


def _checked(data: Any) -> dict[str, dict[str, Any]]:
    if not isinstance(data, dict) or not all(isinstance(t, dict) for t in data.values()):
        raise TypeError("not the code tables")
    return data


def decode(code: str) -> CodeInfo | None:
    """What a code means, from the shipped tables; ``None`` when no table names it."""
    t = tables()
    if code.startswith("ERR"):
        return _torch_npu(code, t.get("torch_npu") or {})
    if code.startswith("hccl:"):
        return _row(code, "hccl", t.get("hccl") or {}, code[5:])
    if code.startswith("errno:"):
        return None  # the OS-error analyzer reads errno with its path and writer
    if code.startswith("dcmi:"):
        return _row(code, "dcmi", t.get("dcmi") or {}, code[5:])
    if code.startswith("drv:"):
        return _row(code, "drv", t.get("drv") or {}, code[4:])
    if code[0] in "EW":
        table = t.get("cann") or {}
        info = _row(code, "cann", table, code) or _registry(code, t.get("cann_registry") or {})
        if info is None:
            family = (table.get("families") or {}).get(code[1])
            if family:
                return CodeInfo(code, "cann", code, f"{family} error (CANN error-code module E{code[1]})", "", table.get("source", ""))
        return info
    if code.isdigit():
        return _row(code, "acl", t.get("acl") or {}, code)
    return None


def _registry(code: str, table: dict[str, Any]) -> CodeInfo | None:
    """A code only CANN's own registry names (cann_registry.yaml): its title and message template."""
    row = (table.get("codes") or {}).get(code)
    if row is None:
        return None
    klass, title, message, source = (list(row) + ["", "", "", ""])[:4]
    name = str(title).replace("_", " ")
    meaning = str(message).replace("%s", "…") if str(message).strip() not in ("", "%s") else f"{klass}: {name}"
    return CodeInfo(code, "cann", name, meaning, "", str((table.get("sources") or {}).get(source, source)))


def _row(code: str, family: str, table: dict[str, Any], key: Any) -> CodeInfo | None:
    row = (table.get("codes") or {}).get(key)
    if row is None:
        return None
    name, meaning, *rest = row
    source = str(rest[1]) if len(rest) > 1 and rest[1] else str(table.get("source", ""))
    return CodeInfo(code, family, str(name), str(meaning), str(rest[0]) if rest else "", source)


def _torch_npu(code: str, table: dict[str, Any]) -> CodeInfo | None:
    sub, err = int(code[3:5]), int(code[5:])
    if err == 0:
        return None  # ERRxx000 is "success": nothing to decode
    if code in (table.get("special") or {}):
        name, meaning, *rest = table["special"][code]
        return CodeInfo(code, "torch_npu", name, meaning, rest[0] if rest else "", str(table.get("source", "")))
    submodule = (table.get("submodules") or {}).get(str(sub))
    error = (table.get("errors") or {}).get(str(err))
    if submodule is None or error is None:
        return None
    return CodeInfo(code, "torch_npu", f"{submodule} {error[0]}", f"{error[1]} (reported by torch_npu's {submodule} layer)", "", str(table.get("source", "")))
