"""What a fix proposes: typed actions, grouped in a proposal. Fixes never write; the engine does."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any, ClassVar

from ascendrl.preflight.host import Host
from ascendrl.preflight.model import Facts, Finding


class Applicability(str, enum.Enum):
    """ruff's fix safety: safe fixes apply with --apply, unsafe ones also need --unsafe, manual ones only instruct."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    MANUAL = "manual"


@dataclasses.dataclass(frozen=True)
class SetEnv:
    """export NAME=VALUE in the managed env file (or the user's launch script)."""

    name: str
    value: str


@dataclasses.dataclass(frozen=True)
class SetOverride:
    """Hydra override ``key=value`` on the launch script's verl command (value-only edit, or appended)."""

    key: str
    value: str


@dataclasses.dataclass(frozen=True)
class SourceScript:
    """source PATH (a CANN/NNAL set_env.sh) before the exports."""

    path: str


@dataclasses.dataclass(frozen=True)
class MakeDir:
    path: str


@dataclasses.dataclass(frozen=True)
class StopProcess:
    """SIGTERM, then SIGKILL after a grace period. Cannot be undone.

    ``create_time`` and ``argv`` are what the process was when the plan was made; the engine
    signals only a process that still matches them (a reused PID is another process).
    """

    pid: int
    name: str
    cmdline: str
    create_time: float | None = None
    argv: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Instruction:
    """Something only the user can do (e.g. change the docker run line)."""

    text: str


Action = SetEnv | SetOverride | SourceScript | MakeDir | StopProcess | Instruction


@dataclasses.dataclass(frozen=True)
class Proposal:
    fix_id: str
    title: str
    applicability: Applicability
    resolves: tuple[str, ...]  # rule ids of the findings it answers
    actions: tuple[Action, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "fix_id": self.fix_id,
            "title": self.title,
            "applicability": self.applicability.value,
            "resolves": list(self.resolves),
            "actions": [{"kind": type(a).__name__, **dataclasses.asdict(a)} for a in self.actions],
        }


@dataclasses.dataclass(frozen=True)
class FixContext:
    host: Host
    facts: Facts
    findings: tuple[Finding, ...]
    data_dir: str | None = None
    script: str | None = None  # the launch script given with --script
    launch: Any = None  # its verl command (preflight.launch.Launch); None when it starts none
    forced: tuple[str, ...] = ()  # fix ids asked for by --only whose rule does not fail here

    def targets(self, fix_id: str) -> list[Finding]:
        """The failing or warning findings that name this fix."""
        return [f for f in self.findings if f.fix_id == fix_id and f.status.value in ("fail", "warn")]


class Fix:
    """Base of every registered fix: metadata plus ``propose``, which only describes."""

    id: ClassVar[str]
    title: ClassVar[str]
    applicability: ClassVar[Applicability]
    description: ClassVar[str]

    def propose(self, ctx: FixContext) -> Proposal | None:
        raise NotImplementedError

    def _proposal(self, resolves: Sequence[Finding], actions: Sequence[Action]) -> Proposal | None:
        if not actions:
            return None
        return Proposal(self.id, self.title, self.applicability, tuple(sorted({f.rule_id for f in resolves})), tuple(actions))
