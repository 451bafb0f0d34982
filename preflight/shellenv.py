"""The environment a run will get after `source FILE` (the managed env file or a launch script).

On the live host the file is sourced for real by bash (with a timeout) and the resulting
environment read back. Under --root, where the host's scripts cannot run, the file's
`export` and `source` lines are followed by reading them: enough for the CANN/NNAL set_env.sh
files, which are lists of exports.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from collections.abc import Mapping

from .host import Host

EXPORT_LINE = re.compile(rb"^(?P<indent>[ \t]*)export[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>[^\r\n]*)$")
_SOURCE = re.compile(rb"^[ \t]*(?:source|\.)[ \t]+(?P<path>\S+)")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def exported_value(raw: bytes) -> str:
    """The value an `export NAME=raw` line sets (quoting undone, comments dropped; expansions left)."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        parts = shlex.split(text, comments=True)
    except ValueError:
        return text
    return parts[0] if parts else ""


def read_exports(data: bytes) -> dict[str, str]:
    """NAME -> value of every top-level `export NAME=value` line (the last one wins, as in the shell)."""
    found: dict[str, str] = {}
    for line in data.splitlines():
        m = EXPORT_LINE.match(line)
        if m and not m.group("indent"):
            found[m.group("name").decode()] = exported_value(m.group("value"))
    return found


def read_sources(data: bytes) -> list[str]:
    return [m.group("path").decode("utf-8", "replace") for line in data.splitlines() if (m := _SOURCE.match(line))]


def _expand(value: str, env: Mapping[str, str]) -> str:
    return _VAR.sub(lambda m: env.get(m.group(1) or m.group(2), ""), value)


def _follow(host: Host, data: bytes, env: dict[str, str], depth: int = 0) -> None:
    for line in data.splitlines():
        source = _SOURCE.match(line)
        if source and depth < 4:
            path = _expand(source.group("path").decode("utf-8", "replace").strip("'\""), env)
            try:
                _follow(host, host.path(path).read_bytes(), env, depth + 1)
            except OSError:
                continue
            continue
        m = EXPORT_LINE.match(line)
        if m and not m.group("indent"):
            env[m.group("name").decode()] = _expand(exported_value(m.group("value")), env)


def environment_after(host: Host, path: str, *, timeout: float = 30.0) -> dict[str, str]:
    """host.env as it is after sourcing ``path``; the file itself is a path on this machine."""
    env = dict(host.env)
    data = open(path, "rb").read()
    if host.live:
        try:
            proc = subprocess.run(
                ["bash", "-c", 'source "$1" >/dev/null 2>&1; env -0', "ascendrl-env", os.path.abspath(path)],
                capture_output=True,
                env=env,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
            )
            if proc.returncode == 0:
                pairs = (item.split(b"=", 1) for item in proc.stdout.split(b"\0") if b"=" in item)
                return {k.decode(errors="replace"): v.decode(errors="replace") for k, v in pairs}
        except (OSError, subprocess.TimeoutExpired):
            pass
    _follow(host, data, env)
    return env
