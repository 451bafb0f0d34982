"""Supervising a verl run: launch, follow output and Ray's session logs, diagnose live, stop the whole tree."""

from .runner import RunOptions, RunResult, State, Supervisor, summary_text

__all__ = ["RunOptions", "RunResult", "State", "Supervisor", "summary_text"]
