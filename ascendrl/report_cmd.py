"""`ascendrl report`: one Markdown file for an issue on verl or vllm-ascend, plus a .tar.gz of the raw material.

Everything goes through the shared redaction (preflight/redact.py) before it is shown or written,
and the user sees the list of files and the Markdown before anything is written.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ascendrl.preflight.redact import redact_json, redact_text

VERSION_KEYS = (("CANN", "cann.toolkit.version"), ("driver", "hdk.driver"), ("firmware", "hdk.firmware"),
                ("torch", "pkg.torch"), ("torch_npu", "pkg.torch_npu"), ("vllm", "pkg.vllm"), ("vllm-ascend", "pkg.vllm_ascend"),
                ("verl", "pkg.verl"), ("transformers", "pkg.transformers"), ("triton-ascend", "pkg.triton_ascend"),
                ("ray", "pkg.ray"), ("python", "python.version"))
TAIL_LINES = 200


def versions(facts: Mapping[str, Any]) -> dict[str, str]:
    """The versions table from a check document's facts; what was not read says so."""
    out = {}
    for label, key in VERSION_KEYS:
        value = (facts.get(key) or {}).get("value")
        if isinstance(value, dict):
            value = value.get("version")
        out[label] = str(value) if value is not None else "not found"
    return out


def _run(argv: list[str], timeout: float) -> str:
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"(could not run {argv[0]}: {exc})\n"
    return proc.stdout if proc.returncode == 0 else f"(exit {proc.returncode}) {proc.stdout}{proc.stderr}"


def _npu_smi_text(npu_smi: str | None, timeout: float) -> str:
    """`npu-smi info` as this host prints it; a captured output file given with --npu-smi is read as is."""
    if not npu_smi:
        return "(no npu-smi found)\n"
    if os.path.isfile(npu_smi) and not os.access(npu_smi, os.X_OK):
        return _read(Path(npu_smi)) or "(not readable)\n"
    return _run([npu_smi, "info"], timeout)


def latest_run(runs_dir: str) -> Path | None:
    """The newest run folder under runs_dir (the one `ascendrl run` wrote last)."""
    try:
        folders = [p for p in Path(runs_dir).iterdir() if p.is_dir() and not p.is_symlink()]
    except OSError:
        return None
    return max(folders, key=lambda p: p.stat().st_mtime, default=None)


def _tail(path: Path, lines: int) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 512 * 1024))
            text = fh.read().decode("utf-8", "replace")
    except OSError as exc:
        return f"(not readable: {exc.strerror or exc})\n"
    return "\n".join(text.splitlines()[-lines:]) + "\n"


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def collect(check_doc: Mapping[str, Any], *, python: str, npu_smi: str | None, run_dir: Path | None,
            cluster_doc: Mapping[str, Any] | None = None, timeout: float = 30.0) -> dict[str, str]:
    """Every file of the bundle by name, already redacted."""
    facts = check_doc.get("facts") or {}
    files = {
        "check.json": json.dumps(redact_json(check_doc), indent=1, default=str),
        "versions.json": json.dumps(versions(facts), indent=1),
        "env.json": json.dumps(redact_json((facts.get("env.settings") or {}).get("value") or {}), indent=1),
        "pip-freeze.txt": redact_text(f"# {python} -m pip freeze\n" + _run([python, "-m", "pip", "freeze"], timeout)),
        "npu-smi.txt": redact_text(_npu_smi_text(npu_smi, timeout)),
    }
    if cluster_doc is not None:
        files["cluster.json"] = json.dumps(redact_json(cluster_doc), indent=1, default=str)
    if run_dir is not None:
        for name in ("summary.json", "summary.txt", "command.txt", "preflight.json"):
            text = _read(run_dir / name)
            if text is not None:
                files[f"run/{name}"] = redact_text(text)
        if (run_dir / "output.log").exists():
            files["run/output.tail.log"] = redact_text(_tail(run_dir / "output.log", TAIL_LINES))
    files["report.md"] = markdown(files, check_doc, cluster_doc, run_dir)
    return files


def markdown(files: Mapping[str, str], check_doc: Mapping[str, Any], cluster_doc: Mapping[str, Any] | None, run_dir: Path | None) -> str:
    """Shaped like the environment section of verl's and vllm-ascend's bug templates."""
    table = json.loads(files["versions.json"])
    out = ["### Your current environment", "", "<details><summary>ascendrl report</summary>", "", "| component | version |", "|---|---|"]
    out += [f"| {k} | {v} |" for k, v in table.items()]
    summary = check_doc.get("summary") or {}
    failing = [f for f in check_doc.get("findings") or () if f.get("status") in ("fail", "warn")]
    out += ["", f"`ascendrl check`: {summary.get('fail', 0)} fail, {summary.get('warn', 0)} warn, {summary.get('pass', 0)} pass"]
    out += [f"- {f['status'].upper()} {f['id']} {f['title']}: {redact_text(str(f['detail']))}" for f in failing]
    out += ["", "```", files["npu-smi.txt"].rstrip(), "```", "", "Relevant env:", "```"]
    out += [f"{k}={v}" for k, v in json.loads(files["env.json"]).items()] + ["```"]
    for node in (cluster_doc or {}).get("nodes") or ():
        check = node.get("check") or {}
        node_table = versions(check.get("facts") or {})
        out += ["", f"#### node {node.get('node_id', '?')[:12]} ({node.get('address')})" + (f": {node['error']}" if node.get("error") else "")]
        out += [", ".join(f"{k} {v}" for k, v in node_table.items())] if check else []
    if cluster_doc is not None:
        out += [""] + [f"- {f['status'].upper()} {f['id']} {f['title']}: {redact_text(str(f['detail']))}"
                       for f in cluster_doc.get("findings") or () if f.get("status") in ("fail", "warn")]
    if run_dir is not None:
        out += ["", f"#### Latest run: {run_dir.name}", ""]
        if "run/command.txt" in files:
            out += ["```", files["run/command.txt"].rstrip(), "```"]
        if "run/summary.txt" in files:
            out += ["```", files["run/summary.txt"].rstrip(), "```"]
        if "run/output.tail.log" in files:
            tail = files["run/output.tail.log"].splitlines()[-40:]
            out += ["", "Last lines of its log:", "```", *tail, "```"]
    out += ["", "</details>", "", "The full material is in the attached .tar.gz (written by `ascendrl report`, secrets redacted)."]
    return "\n".join(out) + "\n"


def write_bundle(files: Mapping[str, str], out_prefix: str) -> tuple[str, str]:
    """report.md beside a .tar.gz of every file; both mode 0600 (they describe the host)."""
    md_path, tar_path = f"{out_prefix}.md", f"{out_prefix}.tar.gz"
    base = os.path.basename(out_prefix)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in sorted(files.items()):
            data = text.encode("utf-8", "replace")
            info = tarfile.TarInfo(f"{base}/{name}")
            info.size, info.mtime, info.mode = len(data), int(time.time()), 0o600
            tar.addfile(info, io.BytesIO(data))
    for path, data in ((md_path, files["report.md"].encode("utf-8", "replace")), (tar_path, buf.getvalue())):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    return md_path, tar_path


def preview(files: Mapping[str, str], out_prefix: str) -> str:
    """What will be written: the Markdown as it stands, then every file of the archive and its size."""
    lines = [files["report.md"].rstrip(), "", f"ascendrl report will write {out_prefix}.md and {out_prefix}.tar.gz holding:"]
    lines += [f"  {name:<26} {len(text.encode('utf-8', 'replace')):>9,} bytes" for name, text in sorted(files.items())]
    return "\n".join(lines)


def confirm(ask: Callable[[str], str]) -> bool:
    try:
        return ask("Write these files? [y/N] ").strip().lower() in ("y", "yes")
    except EOFError:
        return False
