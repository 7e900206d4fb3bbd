"""Ops: everything a front end can ask of the session, as plain frozen data.

A front end does two things only: `session.submit(op)` and `async for event in
session.events()`. Each op below is one thing a user (or a program driving us) does; the
session applies it and reports what changed as events. Ops are plain data so the same ones can
arrive over a pipe (the Agent SDK's control protocol).

Where does a permission answer go? `AnswerPermission(request_id, ...)` -> `Session.submit` ->
`session/services/prompter.py` (`Prompter.answer`), which wakes the pipeline's `ask_user` step waiting
for that `request_id`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from claude_harness.protocol.events import PermissionChoice
from claude_harness.protocol.panels import PanelOp


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
    """Stop the running turn (or `!cmd`); queued prompts come back as PromptsReturned.

    `reason` is given when something other than the user stops it (a signal: the front end is
    exiting): the turn's end reports it as its error, and no later prompt starts a turn."""

    reason: str = ""


@dataclass(frozen=True)
class AnswerPermission:
    """The answer to the PermissionRequest with `request_id`. A program's "yes" may carry an
    `updated_input` for the call (re-validated and re-checked against the deny rules)."""

    request_id: str
    choice: PermissionChoice
    feedback: str = ""
    updated_input: dict[str, Any] | None = None


@dataclass(frozen=True)
class SetMode:
    mode: str


@dataclass(frozen=True)
class CycleMode:
    """Shift+Tab: default -> acceptEdits -> plan (-> bypassPermissions when started with it)."""


@dataclass(frozen=True)
class SetModel:
    """Switch the model; aliases (sonnet, opus, haiku) are resolved by the session. `source`
    is what PreModelSwitch/PostModelSwitch hooks are told: command (/model NAME, /config),
    picker (an interactive model picker) or sdk (a program's set_model)."""

    model: str
    source: str = "command"


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
    """Save a permission rule to .claude/settings.local.json and apply it from now on
    (`persist=False`: for this session only)."""

    behavior: Literal["allow", "deny", "ask"]
    rule: str
    persist: bool = True
    destination: str = "localSettings"  # /permissions: userSettings, projectSettings, session


@dataclass(frozen=True)
class RemoveRule:
    """Drop a rule from .claude/settings.local.json and from this session (`source`: the
    /permissions editor's row: userSettings, projectSettings or session instead)."""

    rule: str
    source: str = "localSettings"


@dataclass(frozen=True)
class ShellCommand:
    """`!cmd`: run it in the session's working directory; the output rides on the next prompt."""

    command: str


@dataclass(frozen=True)
class Describe:
    """Ask for a Report: "permissions", "hooks", "mcp", "memory" or "sandbox" (lines to show),
    or "mcp_status" or "context" (structured `data` for a program)."""

    topic: str


@dataclass(frozen=True)
class McpServer:
    """`/mcp approve|reconnect|enable|disable <name>` (the /mcp panel's actions), or a
    program's toggle: `disable` stops the server, `enable` starts it again (its tools stay
    as listed at the start); both are saved for this project in Claude Code's
    `disabledMcpServers`."""

    action: Literal["approve", "reconnect", "disable", "enable"]
    name: str


@dataclass(frozen=True)
class HookCallbackMatcher:
    """One matcher of a program's hooks: `event` fires `callback_ids` for subjects matching
    `matcher` (a hook matcher: "" or None = all)."""

    event: str
    matcher: str | None
    callback_ids: tuple[str, ...]
    timeout: float | None = None


@dataclass(frozen=True)
class RegisterHookCallbacks:
    """A program on the SDK pipe hooks events with its own callbacks: each firing becomes a
    HookCallbackRequest event, answered by AnswerHookCallback. They run beside the command
    hooks and their answers count the same way."""

    matchers: tuple[HookCallbackMatcher, ...]


@dataclass(frozen=True)
class AnswerHookCallback:
    """The answer to the HookCallbackRequest with `request_id`: the hook's JSON output, or
    None with `error` when the callback failed (the hook made no decision)."""

    request_id: str
    output: dict[str, Any] | None
    error: str = ""


@dataclass(frozen=True)
class SetSandbox:
    """`/sandbox on|off`: run Bash commands in the sandbox or not, from now on (saved for this
    project in .claude/settings.local.json). Refused while a turn runs."""

    enabled: bool


@dataclass(frozen=True)
class Shutdown:
    """End the session: stop work, run SessionEnd hooks, close the transcript and servers."""

    reason: str = "other"


# ── rewind, background commands, questions, context, styles ───────────────────────────────


@dataclass(frozen=True)
class ListRewindPoints:
    """Esc Esc or /rewind: ask for the session's prompts (RewindPoints, newest first)."""


@dataclass(frozen=True)
class PlanRewind:
    """What rewinding the code to before prompt `prompt_id` would do (RewindPlanned)."""

    prompt_id: str


@dataclass(frozen=True)
class Rewind:
    """Go back to the point before prompt `prompt_id` (an id from RewindPoints, or its user
    message's uuid): restore the files, the conversation (forked into a new session whose
    transcript continues from that point; the old one stays resumable), or both. Files changed
    outside the session are left alone unless `force`."""

    prompt_id: str
    restore_code: bool = True
    restore_conversation: bool = True
    force: bool = False


@dataclass(frozen=True)
class AnswerQuestions:
    """The answer to the QuestionsAsked with `request_id` (AskUserQuestion): question text ->
    the chosen label(s) or the person's own words; `declined` when they closed the questions."""

    request_id: str
    answers: dict[str, str] = field(default_factory=dict)
    annotations: dict[str, dict[str, str]] = field(default_factory=dict)
    declined: bool = False


@dataclass(frozen=True)
class BackgroundCommands:
    """Ctrl+B: move the Bash commands running in the foreground to the background."""


@dataclass(frozen=True)
class ListTasks:
    """/tasks: the background shells (TasksListed)."""


@dataclass(frozen=True)
class StopTask:
    """Kill the background shell `task_id` (from /tasks)."""

    task_id: str


@dataclass(frozen=True)
class MeasureContext:
    """/context: what fills the context window (ContextMeasured)."""


@dataclass(frozen=True)
class ListOutputStyles:
    """/output-style without a name: the styles to choose from (OutputStylesListed)."""


@dataclass(frozen=True)
class SetOutputStyle:
    """Switch the output style (saved as `outputStyle` in .claude/settings.local.json)."""

    name: str


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


@dataclass(frozen=True)
class ListModels:
    """/model without a name, Alt+P: the models table (ModelsListed)."""


@dataclass(frozen=True)
class RenameSession:
    """/rename: give this conversation a title (shown by /resume)."""

    title: str


@dataclass(frozen=True)
class AddMemory:
    """`#` at the start of a prompt: append `text` to a CLAUDE.md ("project" or "user")."""

    text: str
    scope: Literal["project", "user"] = "project"


@dataclass(frozen=True)
class SessionCommand:
    """A built-in slash command the session answers itself (session/services/slash_commands.py:
    /usage, /diff, /btw, /copy, /fork, /skills, /vim...), so every front end gets it."""

    name: str
    args: str = ""


@dataclass(frozen=True)
class CreateAgent:
    """The /agents panel's new agent: a `<name>.md` file in Claude Code's format (front matter
    `name`, `description`, `tools`, `model`; the body is its system prompt) in the project's
    `.claude/agents/` or the user's `~/.claude/agents/`. `tools` empty: every tool."""

    scope: Literal["project", "user"]
    name: str
    description: str
    prompt: str
    tools: tuple[str, ...] = ()
    model: str = ""


@dataclass(frozen=True)
class DeleteAgent:
    """Remove a project or user agent's file (built-in, plugin and --agents ones have none)."""

    name: str


Op = (UserPrompt | RunCommand | Interrupt | AnswerPermission | SetMode | CycleMode | SetModel
      | Compact | Clear | Resume | AddRule | RemoveRule | ShellCommand | Describe | McpServer
      | RegisterHookCallbacks | AnswerHookCallback | Shutdown | SetSandbox | ListRewindPoints
      | PlanRewind | Rewind | AnswerQuestions | BackgroundCommands | ListTasks | StopTask
      | MeasureContext | ListOutputStyles | SetOutputStyle | ListModels | RenameSession | AddMemory
      | SetEffort | ToggleThinking | AnswerElicitation | AddDirectory | McpAuthenticate
      | SessionCommand | CreateAgent | DeleteAgent | PanelOp)
