"""Ops: everything a front end can ask of the session, as plain frozen data.

A front end does two things only: `session.submit(op)` and `async for event in
session.events()`. Each op below is one thing a user (or a program driving us) does; the
session applies it and reports what changed as events. Ops are plain data so the same ones can
arrive over a pipe (the Agent SDK's control protocol).

Where does a permission answer go? `AnswerPermission(request_id, ...)` -> `Session.submit` ->
`session/prompter.py` (`Prompter.answer`), which wakes the pipeline's `ask_user` step waiting
for that `request_id`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from claude_harness.protocol.events import PermissionChoice


@dataclass(frozen=True)
class UserPrompt:
    """Send a prompt. `content` is text or content blocks. A text `/name args` that names a
    custom command (.claude/commands) is expanded first. Sent while a turn runs, it waits in
    the queue and goes out when the turn ends. `allowed_tools` are extra allow rules for this
    turn only (a custom command's `allowed-tools`)."""

    content: str | tuple[dict[str, Any], ...]
    allowed_tools: tuple[str, ...] = ()


@dataclass(frozen=True)
class RunCommand:
    """Run the custom command `/name args` (a prompt template from .claude/commands)."""

    name: str
    args: str = ""


@dataclass(frozen=True)
class Interrupt:
    """Stop the running turn (or `!cmd`); queued prompts come back as PromptsReturned."""


@dataclass(frozen=True)
class AnswerPermission:
    """The answer to the PermissionRequest with `request_id`."""

    request_id: str
    choice: PermissionChoice
    feedback: str = ""


@dataclass(frozen=True)
class SetMode:
    mode: str


@dataclass(frozen=True)
class CycleMode:
    """Shift+Tab: default -> acceptEdits -> plan (-> bypassPermissions when started with it)."""


@dataclass(frozen=True)
class SetModel:
    """Switch the model; aliases (sonnet, opus, haiku) are resolved by the session."""

    model: str


@dataclass(frozen=True)
class Compact:
    instructions: str = ""


@dataclass(frozen=True)
class Clear:
    """Start a fresh conversation: history, read-file cache and pending `!cmd` output go."""


@dataclass(frozen=True)
class Resume:
    """Continue an earlier conversation of this project, by session id (or a unique prefix)."""

    session_id: str


@dataclass(frozen=True)
class AddRule:
    """Save a permission rule to .claude/settings.local.json and apply it from now on."""

    behavior: Literal["allow", "deny", "ask"]
    rule: str


@dataclass(frozen=True)
class RemoveRule:
    """Drop a rule from .claude/settings.local.json and from this session."""

    rule: str


@dataclass(frozen=True)
class ShellCommand:
    """`!cmd`: run it in the session's working directory; the output rides on the next prompt."""

    command: str


@dataclass(frozen=True)
class Describe:
    """Ask for a Report: "permissions", "hooks", "mcp" or "memory"."""

    topic: str


@dataclass(frozen=True)
class McpServer:
    """`/mcp approve <name>` or `/mcp reconnect <name>`."""

    action: Literal["approve", "reconnect"]
    name: str


@dataclass(frozen=True)
class Shutdown:
    """End the session: stop work, run SessionEnd hooks, close the transcript and servers."""

    reason: str = "other"


@dataclass(frozen=True)
class SetEffort:
    """/effort LEVEL: low, medium, high, xhigh, max, or auto (the model's default)."""

    level: str


@dataclass(frozen=True)
class ToggleThinking:
    """Alt+T: thinking off (or back on) for the following requests."""


@dataclass(frozen=True)
class AnswerElicitation:
    """The answer to the ElicitationRequested with `request_id`: accept (with the form's
    `content`), decline or cancel."""

    request_id: str
    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


@dataclass(frozen=True)
class AddDirectory:
    """/add-dir DIR: one more working directory for this session (permissions, MCP roots)."""

    path: str


@dataclass(frozen=True)
class McpAuthenticate:
    """/mcp authenticate NAME: log in to a remote MCP server (OAuth in the browser)."""

    name: str


Op = (UserPrompt | RunCommand | Interrupt | AnswerPermission | SetMode | CycleMode | SetModel
      | Compact | Clear | Resume | AddRule | RemoveRule | ShellCommand | Describe | McpServer
      | Shutdown | SetEffort | ToggleThinking | AnswerElicitation | AddDirectory
      | McpAuthenticate)
