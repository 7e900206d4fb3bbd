"""Events: everything the session reports, and all a front end ever learns from it.

The loop yields the turn's events (deltas, tool start/progress/result, messages, usage); the
session adds its own state changes (mode, model, totals, denials, todos, the prompt queue,
busy/idle) so that no front end reads a session attribute. Every event is a frozen dataclass of
plain data: it can cross threads, be logged or serialised (`dataclasses.asdict`), and be
compared in tests. A permission request carries an id, never a future: the answer comes back as
the `AnswerPermission` op (see `protocol/ops.py`; the session matches them in
`session/prompter.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from claude_harness.protocol.progress import ProgressData


@dataclass(frozen=True)
class TextDelta:
    """A fragment of assistant text as it streams."""

    text: str
    index: int = 0


@dataclass(frozen=True)
class ThinkingDelta:
    """A fragment of extended thinking as it streams."""

    text: str
    index: int = 0


@dataclass(frozen=True)
class AssistantMessage:
    """A whole assistant message, appended to the history (API shape: role + content blocks)."""

    message: dict[str, Any]
    stop_reason: str | None = None


@dataclass(frozen=True)
class ToolStart:
    """A tool_use block has been received and handed to the executor."""

    tool_use_id: str
    name: str
    input: dict[str, Any]
    key_argument: str = ""


@dataclass(frozen=True)
class ToolProgress:
    """Live progress of a running tool (Bash output lines, Grep counts, sub-agent steps)."""

    tool_use_id: str
    name: str
    data: ProgressData


@dataclass(frozen=True)
class ToolResultEvent:
    """A tool finished (or failed); `content` is what the model will see."""

    tool_use_id: str
    name: str
    content: str | list[dict[str, Any]]
    is_error: bool = False
    input: dict[str, Any] = field(default_factory=dict)
    data: Any = None


@dataclass(frozen=True)
class UserMessage:
    """A user message appended to the history (a prompt or the tool_results of a turn)."""

    message: dict[str, Any]


@dataclass(frozen=True)
class PermissionRequest:
    """A tool call needs the user's approval: show it, then submit `AnswerPermission` with the
    same `request_id` (yes / always / no + feedback).

    `agent_id` names the sub-agent that asks (None: the main conversation); a sub-agent's
    request travels the same path as the parent's. Headless mode never sees these unless a
    program registered to answer them: it decides from rules alone.
    """

    request_id: str
    tool_use_id: str
    tool_name: str
    input: dict[str, Any]
    reason: str
    suggestion: str | None  # the rule "Yes, and don't ask again" would save
    preview: str | None = None
    agent_id: str | None = None


@dataclass(frozen=True)
class PermissionSettled:
    """The request is closed (answered, or answered "no" by an interrupt): drop its prompt."""

    request_id: str
    choice: Literal["yes", "always", "no"]


PermissionChoice = Literal["yes", "always", "no"]


@dataclass(frozen=True)
class PermissionAnswer:
    """The user's answer to a permission prompt, as the pipeline receives it."""

    choice: PermissionChoice
    feedback: str = ""


@dataclass(frozen=True)
class Usage:
    """Token use reported by the API for one request, and the running session cost."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    cost_usd: float = 0.0
    session_cost_usd: float = 0.0
    api_seconds: float = 0.0  # time spent waiting on this request's stream

    @property
    def context_tokens(self) -> int:
        """Tokens the conversation occupies after this turn: the prompt (cached or not) plus
        the answer. Drives the context-use figure and auto-compaction."""
        return (self.input_tokens + self.cache_read_input_tokens
                + self.cache_creation_input_tokens + self.output_tokens)


@dataclass(frozen=True)
class ApiRetry:
    """The API call failed and will be retried after `delay` seconds."""

    attempt: int
    max_retries: int
    delay: float
    error: str


@dataclass(frozen=True)
class Notice:
    """A one-line message for the user (hook output, mode change, warnings)."""

    text: str
    level: Literal["info", "warning", "error"] = "info"


@dataclass(frozen=True)
class HookRan:
    """Hooks ran for `event` (their per-hook results are in `outcome.results`)."""

    event: str
    outcome: Any  # claude_harness.hooks.HookOutcome
    tool_name: str | None = None

    def summary(self) -> str:
        """One compact line for front ends."""
        results = getattr(self.outcome, "results", [])
        codes = ", ".join(
            "timeout" if r.timed_out else f"exit {r.exit_code}" for r in results)
        verdict = " (blocked)" if getattr(self.outcome, "blocked", False) else ""
        target = f" {self.tool_name}" if self.tool_name else ""
        return f"{self.event}{target} hook{'s' if len(results) > 1 else ''}: {codes}{verdict}"


@dataclass(frozen=True)
class Compaction:
    """The history was replaced by a summary (`messages` is the new history)."""

    trigger: Literal["auto", "manual"]
    pre_tokens: int
    summary: str
    messages: list[dict[str, Any]]


@dataclass(frozen=True)
class ThinkingDone:
    """A thinking block finished streaming (front ends stop its "thinking..." timer).

    `redacted` is true for a redacted_thinking block (nothing to show but that it happened);
    `text` is empty when the request asked for the thinking to be omitted.
    """

    index: int
    text: str = ""
    redacted: bool = False


@dataclass(frozen=True)
class StopNotice:
    """The model stopped in a way the user must see: `reason` is the API's stop_reason
    (refusal, max_tokens, pause_turn, model_context_window_exceeded) and `text` says what
    happened and what to do."""

    reason: str
    text: str
    level: Literal["info", "warning", "error"] = "warning"


@dataclass(frozen=True)
class ServerToolUse:
    """The API ran one of its own tools (web search, web fetch, code execution) in this turn.

    `summary` is one compact line (the query, the URL, the code's first line); `urls` are the
    results' addresses, when the result block lists any. Never answered with a tool_result.
    """

    tool_use_id: str
    name: str
    summary: str
    urls: tuple[str, ...] = ()
    error: str | None = None


@dataclass(frozen=True)
class SideUsage:
    """Tokens and cost of a request made beside the conversation (a WebFetch summary, a
    WebSearch, a compaction, a sub-agent's turn): counted in the session totals, not in the
    context use."""

    purpose: str
    model: str
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    cost_usd: float = 0.0


@dataclass(frozen=True)
class TurnEnd:
    """The loop stopped: `reason` is end_turn, max_turns, aborted, error or stop_hook."""

    reason: str
    num_turns: int
    error: str | None = None


# ── session state (the session emits these; the loop never does, except ModeChanged and
#    DenialRecorded, which it reports for the session to apply) ──────────────────────────────


@dataclass(frozen=True)
class SessionStarted:
    """The first event of every session: what a status line and `/status` show."""

    session_id: str
    cwd: str
    model: str
    mode: str
    tools: tuple[str, ...]
    transcript_path: str = ""
    api_base_url: str = ""
    has_credentials: bool = True
    api_key_source: str = "none"
    bypass_available: bool = False
    memory_files: tuple[str, ...] = ()
    mcp_servers: tuple[dict[str, str], ...] = ()
    mcp_pending_approval: tuple[str, ...] = ()  # project servers waiting for /mcp approve
    history: tuple[dict[str, Any], ...] = ()  # a continued conversation's messages


@dataclass(frozen=True)
class ModeChanged:
    """The permission mode changed (Shift+Tab, /mode, EnterPlanMode, an approved plan)."""

    mode: str


@dataclass(frozen=True)
class ModelChanged:
    model: str


@dataclass(frozen=True)
class DeferredToolsLoaded:
    """ToolSearch loaded deferred tool definitions; later requests may call them."""

    names: frozenset[str]


@dataclass(frozen=True)
class TotalsChanged:
    """The session's running totals after a request (cost, tokens, context use)."""

    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    api_turns: int = 0
    api_seconds: float = 0.0
    context_tokens: int = 0  # prompt size of the latest request
    context_percent: float = 0.0
    cache_read_percent: float | None = None  # share of prompt tokens read from the cache


@dataclass(frozen=True)
class DenialRecorded:
    """A tool call was refused (by a rule, a hook, the user or headless mode); `-p` lists
    every one in `permission_denials`."""

    tool_name: str
    tool_use_id: str
    tool_input: dict[str, Any]
    agent_id: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {"tool_name": self.tool_name, "tool_use_id": self.tool_use_id,
                "tool_input": self.tool_input}


@dataclass(frozen=True)
class TodosChanged:
    """The model's task checklist (TodoWrite) changed."""

    todos: tuple[dict[str, Any], ...]
    agent_id: str | None = None


@dataclass(frozen=True)
class RulesChanged:
    """Permission rules in force, as `(behavior, rule, source)`, after /permissions or a
    "don't ask again" answer."""

    rules: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Busy:
    """A job (a turn, a compaction, a `!cmd`) started (`running`) or the session went idle."""

    running: bool
    label: str = ""


@dataclass(frozen=True)
class QueueChanged:
    """Prompts sent while a turn runs wait here; they go out together when it ends."""

    pending: tuple[str, ...]


@dataclass(frozen=True)
class PromptsReturned:
    """An interrupt means "stop and listen": queued prompts come back to be edited or resent."""

    texts: tuple[str, ...]


@dataclass(frozen=True)
class HistoryReplaced:
    """/clear or /resume replaced the conversation: redraw from `messages`."""

    reason: Literal["clear", "resume"]
    messages: tuple[dict[str, Any], ...] = ()
    session_id: str = ""


@dataclass(frozen=True)
class ShellRan:
    """`!cmd` finished; its output goes to the model with the next prompt."""

    command: str
    display: str
    lines: tuple[str, ...]
    returncode: int | None
    failed: bool


@dataclass(frozen=True)
class Report:
    """The answer to a `Describe` op: lines for a command such as /permissions or /mcp."""

    topic: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class OpDone:
    """The session has applied the op `submit()` numbered `op_id` (a job has started or
    queued); a line-mode front end waits for it before reading the next line."""

    op_id: int


@dataclass(frozen=True)
class SessionClosed:
    """The session shut down (the `Shutdown` op); the event stream ends after this."""

    reason: str = "other"


@dataclass(frozen=True)
class RequestControlsChanged:
    """Effort and thinking as the next request will carry them (at start, after /effort,
    Alt+T or a model switch): `effort` is the user's choice (None: the model's default),
    `effort_sent` the level actually sent after the model's own limits (None: the model takes
    no effort), `thinking` whether thinking is asked for, `thinking_available` whether the
    model thinks at all."""

    effort: str | None
    effort_sent: str | None
    thinking: bool
    thinking_available: bool = True


@dataclass(frozen=True)
class ElicitationRequested:
    """An MCP server asks the user for input in the middle of a tool call: show the form, then
    submit `AnswerElicitation` with the same `request_id`. `request` is an
    `mcp.elicitation.ElicitationRequest` (frozen plain data: server, message, mode, schema,
    url). Only sessions with a person at a front end emit it; `-p` cancels instead."""

    request_id: str
    request: Any


@dataclass(frozen=True)
class ElicitationSettled:
    """The question is closed (answered, or cancelled by an interrupt): drop its form."""

    request_id: str


@dataclass(frozen=True)
class McpPromptInfo:
    """One MCP prompt offered as the slash command `/name args`."""

    name: str  # mcp__server__prompt, without the slash
    description: str
    argument_hint: str = ""


@dataclass(frozen=True)
class McpPromptsChanged:
    """The MCP prompts a front end offers as commands (in /help and completion) changed."""

    prompts: tuple[McpPromptInfo, ...]


@dataclass(frozen=True)
class DirectoriesChanged:
    """The working directories beyond the cwd (`--add-dir`, `/add-dir`) changed."""

    directories: tuple[str, ...]


@dataclass(frozen=True)
class McpAuthUrl:
    """`/mcp authenticate NAME`: open `url` in a browser to log in to the server."""

    server: str
    url: str


AgentEvent = (
    TextDelta
    | ThinkingDelta
    | AssistantMessage
    | ToolStart
    | ToolProgress
    | ToolResultEvent
    | UserMessage
    | PermissionRequest
    | Usage
    | ApiRetry
    | Notice
    | HookRan
    | Compaction
    | TurnEnd
    | ModeChanged
    | DenialRecorded
    | DeferredToolsLoaded
    | ThinkingDone
    | StopNotice
    | ServerToolUse
    | SideUsage
)
"""What the loop yields for one turn."""

SessionEvent = (
    AgentEvent
    | PermissionSettled
    | SessionStarted
    | ModelChanged
    | TotalsChanged
    | TodosChanged
    | RulesChanged
    | Busy
    | QueueChanged
    | PromptsReturned
    | HistoryReplaced
    | ShellRan
    | Report
    | OpDone
    | SessionClosed
    | RequestControlsChanged
    | ElicitationRequested
    | ElicitationSettled
    | McpPromptsChanged
    | DirectoriesChanged
    | McpAuthUrl
)
"""Everything `Session.events()` yields."""
