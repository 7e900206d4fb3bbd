"""What a running tool reports while it works: the typed payloads of `ToolProgress.data`.

Tools call the `progress` function they are given; the pipeline passes what they send through
`as_progress()`, so every ToolProgress event carries one of these dataclasses whatever the tool
sent (older tools send small dicts: they are read here, in one place).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class OutputProgress:
    """New output of a running command (Bash): the recent stdout/stderr and the total so far."""

    stdout: str = ""
    stderr: str = ""
    total_bytes: int = 0


@dataclass(frozen=True)
class MatchProgress:
    """A search's running count (Grep)."""

    matches: int


@dataclass(frozen=True)
class AgentStep:
    """One step of a sub-agent, shown nested under its Agent call."""

    kind: Literal["tool", "result", "end"]
    agent_id: str = ""
    name: str = ""
    key: str = ""
    is_error: bool = False
    reason: str = ""
    agent_type: str = ""  # the agent's kind, and the colour its definition gives it
    color: str | None = None


@dataclass(frozen=True)
class MessageProgress:
    """Any other status line a tool wants shown; `kind` says who sent it (e.g. "mcp_progress",
    "mcp_task"), so a front end or the SDK bridge can single out MCP progress."""

    message: str
    kind: str = ""


@dataclass(frozen=True)
class TerminalProgress:
    """The command runs in the front end's client terminal (protocol/client_terminal.py): the
    front end shows that terminal on the tool call, live."""

    terminal_id: str


ProgressData = OutputProgress | MatchProgress | AgentStep | MessageProgress | TerminalProgress
PROGRESS_TYPES = (OutputProgress, MatchProgress, AgentStep, MessageProgress, TerminalProgress)


def as_progress(raw: Any) -> ProgressData:
    """The typed form of whatever a tool reported."""
    if isinstance(raw, PROGRESS_TYPES):
        return raw
    if isinstance(raw, dict):
        if "stdout" in raw or "stderr" in raw:
            return OutputProgress(str(raw.get("stdout") or ""), str(raw.get("stderr") or ""),
                                  int(raw.get("total_bytes") or 0))
        if "matches" in raw:
            return MatchProgress(int(raw["matches"]))
        if "message" in raw:
            return MessageProgress(str(raw["message"]), str(raw.get("type") or ""))
        return MessageProgress(json.dumps(raw, default=str)[:200])
    return MessageProgress(str(raw))
