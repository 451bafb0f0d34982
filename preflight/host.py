"""What a probe may look at: the filesystem root, the environment, the tools.

Every probe reads the host only through a :class:`Host`, so ``--root DIR`` (audit a
mounted image or a captured host) and the fixture hosts in ``tests/`` work the same
way as the live machine.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

TIMEOUT_RC = 124  # like coreutils' timeout(1)
NOT_FOUND_RC = 127  # like a shell for a missing command


@dataclasses.dataclass(frozen=True)
class CommandResult:
    """Outcome of one external command; never raised, always returned."""

    argv: tuple[str, ...]
    rc: int
    stdout: str
    stderr: str

    @property
    def timed_out(self) -> bool:
        return self.rc == TIMEOUT_RC

    @property
    def not_found(self) -> bool:
        return self.rc == NOT_FOUND_RC

    def describe(self) -> str:
        """One line for a finding: the command and what went wrong."""
        cmd = " ".join(self.argv)
        if self.timed_out:
            return f"`{cmd}` did not finish in time (hung?)"
        if self.not_found:
            return f"`{cmd}`: {self.stderr.strip() or 'not found'}"
        tail = (self.stderr.strip() or self.stdout.strip()).splitlines()[-1:] or [""]
        return f"`{cmd}` exited {self.rc}: {tail[0][:200]}"


def run_command(
    argv: Sequence[str], *, timeout: float, env: Mapping[str, str] | None = None
) -> CommandResult:
    """Run a command with a timeout; a missing, hung or crashing tool is a result, not an error."""
    args = tuple(str(a) for a in argv)
    try:
        proc = subprocess.run(
            args,
            capture_output=True,
            timeout=timeout,
            env=dict(env) if env is not None else None,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    except FileNotFoundError as exc:
        return CommandResult(args, NOT_FOUND_RC, "", str(exc))
    except PermissionError as exc:
        return CommandResult(args, 126, "", str(exc))
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or b""
        return CommandResult(args, TIMEOUT_RC, out.decode("utf-8", "replace"), "timed out")
    except OSError as exc:  # e.g. exec format error for a foreign-arch binary
        return CommandResult(args, 126, "", str(exc))
    return CommandResult(
        args,
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


@dataclasses.dataclass(frozen=True)
class Host:
    """The host being checked.

    ``root`` is "/" for the live machine. Absolute paths, including those named by
    environment variables, are looked up under it.
    """

    root: Path = Path("/")
    env: Mapping[str, str] = dataclasses.field(default_factory=lambda: dict(os.environ))
    npu_smi: str | None = None  # explicit --npu-smi
    python: str | None = None  # explicit --python
    checkpoint_dir: str | None = None
    deep: bool = False
    timeout: float = 10.0
    recipe: Any = None  # an ascendrl.recipes.ResolvedRecipe to lint against this host
    validate: bool = False  # also run verl's own validate_config (imports verl: seconds)

    @property
    def live(self) -> bool:
        """True when checking this very machine (RAM, /proc, processes are meaningful)."""
        return self.root == Path("/")

    def path(self, path: str | os.PathLike[str]) -> Path:
        """Map a host path (absolute, as the host sees it) to where we can read it."""
        p = Path(os.path.expanduser(str(path))) if self.live else Path(str(path))
        if self.live:
            return p
        return self.root / str(p).lstrip("/")

    def home(self) -> str:
        return self.env.get("HOME") or ("/root" if not self.live else os.path.expanduser("~"))

    def getenv(self, name: str, default: str | None = None) -> str | None:
        return self.env.get(name, default)

    def read_text(self, path: str, *, limit: int = 1 << 20) -> str:
        """Read a small text file under the root; raises OSError/UnicodeError to the probe."""
        with open(self.path(path), "rb") as fh:
            data = fh.read(limit)
        return data.decode("utf-8", "replace")

    def run(self, argv: Sequence[str], *, timeout: float | None = None) -> CommandResult:
        return run_command(argv, timeout=timeout or self.timeout, env=self.env)

    def which(self, name: str, extra_dirs: Sequence[str] = ()) -> str | None:
        """Find an executable on the host's PATH (under the root), then in ``extra_dirs``."""
        dirs = [d for d in self.env.get("PATH", "").split(os.pathsep) if d]
        for directory in [*dirs, *extra_dirs]:
            candidate = self.path(os.path.join(directory, name))
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
        return None
