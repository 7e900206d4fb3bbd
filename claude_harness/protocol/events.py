"""Events: everything the session reports, and all a front end ever learns from it.

The loop yields the turn's events (deltas, tool start/progress/result, messages, usage); the
session adds its own state changes (mode, model, totals, denials, todos, the prompt queue,
busy/idle) so that no front end reads a session attribute. Every event is a frozen dataclass of
plain data: it can cross threads, be logged or serialised (`dataclasses.asdict`), and be
compared in tests. A permission request carries an id, never a future: the answer comes back as
the `AnswerPermission` op (see `protocol/ops.py`; the session matches them in
`session/services/prompter.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from claude_harness.protocol.panels import PanelEvent
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
    """A whole assistant message, appended to the history (API shape: role + content blocks).

    `message_id`, `model` and `usage` are the API's for the response it came from (empty for a
    message that was not an API response, such as a sub-agent's replayed one)."""

    message: dict[str, Any]
    stop_reason: str | None = None
    message_id: str = ""
    model: str = ""
    usage: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class StreamEvent:
    """One event of the API's answer stream, as the API sent it (`message_start`,
    `content_block_delta`...). Only when the session was asked for them (the Agent SDK's
    `--include-partial-messages`): front ends draw from TextDelta and friends."""

    event: dict[str, Any]


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
    final_answer: bool = False  # the call is the turn's answer (StructuredOutput's `data`)


@dataclass(frozen=True)
class UserMessage:
    """A user message appended to the history (a prompt or the tool_results of a turn);
    `uuid` is its transcript entry's, once written (what a rewind names it by)."""

    message: dict[str, Any]
    uuid: str = ""


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
    """The user's answer to a permission prompt, as the pipeline receives it. `updated_input`
    (a program's allow may rewrite the call) is validated and re-checked against the deny
    rules before the call runs."""

    choice: PermissionChoice
    feedback: str = ""
    updated_input: dict[str, Any] | None = None


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
    model: str = ""  # the model that answered (a fallback model after an overload)

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
    status: int | None = None  # the HTTP status, when the failure had one


@dataclass(frozen=True)
class ModelFallback:
    """The model stayed overloaded: this turn goes on with the fallback model."""

    original_model: str
    fallback_model: str
    trigger: str = "overloaded"


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
    """The loop stopped: `reason` is end_turn (or the API's other stop reasons), max_turns,
    max_budget, aborted, error, hook_stopped or structured_output."""

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
    # the configuration's part of system/init (commands/catalog.py), as Claude Code lists it
    agents: tuple[str, ...] = ()
    slash_commands: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    plugins: tuple[dict[str, str], ...] = ()
    output_style: str = "default"
    unsupported_settings: tuple[str, ...] = ()  # `key (file)`: /status lists them
    verbose: bool = False  # --verbose or the `verbose` setting: front ends show details


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
    reason: str = ""  # what the model was told
    decided_by: str = ""  # rule, hook, user, headless (nobody could be asked), ...

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
    """/clear, /resume, a rewind or /branch replaced the conversation: redraw from `messages`
    (for /branch the same messages, now under the new `session_id`)."""

    reason: Literal["clear", "resume", "rewind", "branch"]
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
    """The answer to a `Describe` op: lines for a command such as /permissions or /mcp, and
    for the topics a program asks about (mcp_status, context) the facts as `data`."""

    topic: str
    lines: tuple[str, ...]
    data: Any = None


@dataclass(frozen=True)
class ClipboardText:
    """/copy found no clipboard program: the front end puts `text` on the terminal's clipboard
    (OSC 52), since only it owns the terminal."""

    text: str


@dataclass(frozen=True)
class HookCallbackRequest:
    """A hook registered by a program on the SDK pipe (`RegisterHookCallbacks`) fired: ask it,
    then submit `AnswerHookCallback` with the same `request_id`. `input` is what a command
    hook reads on stdin."""

    request_id: str
    callback_id: str
    input: dict[str, Any]
    tool_use_id: str | None = None


@dataclass(frozen=True)
class SideQuestionsPending:
    """How many /btw answers are still on their way. They run beside the session's jobs (a
    side question never waits for a turn), so no `Busy` or `OpDone` covers them: a line-mode
    front end waits for none to be pending before it reads the next line or leaves."""

    count: int


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
class TranscriptStatus:
    """The transcript could not be written (`problem` says why; the session goes on in
    memory), or, with `problem` empty, everything kept meanwhile is written again."""

    problem: str = ""


# ── pickers, questions, rewind, context, the status line ────────────────────────────────────


@dataclass(frozen=True)
class RewindPoint:
    """One prompt of the session a rewind can go back to (the point just before it)."""

    prompt_id: str
    message_uuid: str | None  # the prompt's user message in the transcript
    text: str
    created: float
    files: tuple[str, ...] = ()  # the files changed while answering it
    rewound: bool = False


@dataclass(frozen=True)
class RewindPoints:
    """The answer to ListRewindPoints: the session's prompts, newest first."""

    points: tuple[RewindPoint, ...]


@dataclass(frozen=True)
class RewindPlanned:
    """The answer to PlanRewind: what restoring the code would do (a checkpoints.RestorePlan,
    or None with `error` when that prompt cannot be rewound)."""

    prompt_id: str
    plan: Any = None
    error: str = ""


@dataclass(frozen=True)
class Rewound:
    """A rewind happened: the files written back or deleted, those left alone because they
    changed outside the session, and (after a conversation restore) the new session id and the
    prompt's text, which goes back into the input to be edited or resent."""

    prompt_id: str
    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    conversation: bool = False
    session_id: str = ""
    prompt_text: str = ""
    insertions: int = 0  # lines the restore added back (the SDK's RewindFilesResult)
    deletions: int = 0


@dataclass(frozen=True)
class RewindProgress:
    """A code restore is under way: `phase` "prepared" (new contents written aside) then
    "applied" (files swapped in), `done` of `total` files."""

    phase: str
    done: int
    total: int


@dataclass(frozen=True)
class QuestionsAsked:
    """AskUserQuestion: put these questions (Claude Code's JSON shape: question, header, options
    [{label, description}], multiSelect) to the person, then submit `AnswerQuestions` with the
    same `request_id`."""

    request_id: str
    questions: tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class QuestionsSettled:
    """The questions are closed (answered, or declined by an interrupt): drop their widget."""

    request_id: str


@dataclass(frozen=True)
class TaskInfo:
    """One background shell as /tasks lists it."""

    task_id: str
    command: str
    state: str  # running, completed, failed, killed, expired
    summary: str  # one line: id, status, age, command
    output_path: str = ""


@dataclass(frozen=True)
class TasksListed:
    """The answer to ListTasks (newest first)."""

    tasks: tuple[TaskInfo, ...]


@dataclass(frozen=True)
class ContextMeasured:
    """The answer to MeasureContext: a context_usage.ContextUsage (grid, legend, markdown)."""

    usage: Any


@dataclass(frozen=True)
class StatusLineChanged:
    """The status line command printed a new first line (ANSI colours kept)."""

    text: str


@dataclass(frozen=True)
class OutputStyleInfo:
    name: str
    description: str
    source: str  # built-in, user, project


@dataclass(frozen=True)
class OutputStylesListed:
    """The answer to ListOutputStyles."""

    styles: tuple[OutputStyleInfo, ...]
    current: str


@dataclass(frozen=True)
class OutputStyleChanged:
    name: str


@dataclass(frozen=True)
class ModelInfo:
    """One row of the /model picker."""

    alias: str  # what to submit in SetModel ("" when the id is the only name)
    model: str
    label: str
    context_window: int
    efforts: tuple[str, ...] = ()
    default_effort: str | None = None
    price: str = ""  # "$3/$15 per Mtok"


@dataclass(frozen=True)
class ModelsListed:
    """The answer to ListModels: the models table, the current model and effort."""

    models: tuple[ModelInfo, ...]
    current: str
    effort: str | None = None


@dataclass(frozen=True)
class SessionRenamed:
    title: str


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
class McpResourceInfo:
    """One resource a connected MCP server offers, mentioned in a prompt as `@server:uri`."""

    server: str
    uri: str
    name: str = ""
    description: str = ""


@dataclass(frozen=True)
class McpResourcesChanged:
    """The connected servers' resources (for the `@` popup) changed."""

    resources: tuple[McpResourceInfo, ...]


@dataclass(frozen=True)
class DirectoriesChanged:
    """The working directories beyond the cwd (`--add-dir`, `/add-dir`) changed."""

    directories: tuple[str, ...]


@dataclass(frozen=True)
class EditorModeChanged:
    """/vim switched `editorMode`: the front ends' inputs follow ("vim" or "normal")."""

    mode: str


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
    | ModelFallback
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
    | StreamEvent
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
    | ClipboardText
    | HookCallbackRequest
    | OpDone
    | SideQuestionsPending
    | SessionClosed
    | TranscriptStatus
    | RewindPoints
    | RewindPlanned
    | Rewound
    | RewindProgress
    | QuestionsAsked
    | QuestionsSettled
    | TasksListed
    | ContextMeasured
    | StatusLineChanged
    | OutputStylesListed
    | OutputStyleChanged
    | ModelsListed
    | SessionRenamed
    | RequestControlsChanged
    | ElicitationRequested
    | ElicitationSettled
    | McpPromptsChanged
    | McpResourcesChanged
    | DirectoriesChanged
    | McpAuthUrl
    | EditorModeChanged
    | PanelEvent
)
"""Everything `Session.events()` yields."""

SELF_DRAWN_EVENTS = (RewindPoints, RewindPlanned, RewindProgress, Rewound, QuestionsAsked,
                QuestionsSettled, TasksListed, ContextMeasured, StatusLineChanged,
                OutputStylesListed, ModelsListed)
"""The events a front end draws itself: pickers' answers, questions, /context, the status
line."""
