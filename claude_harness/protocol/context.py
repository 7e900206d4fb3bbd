"""ToolUseContext: the bag of state every tool call receives, grouped by concern.

It is copied before each call (`dataclasses.replace`); a tool changes what later tools see only
through a `context_modifier` in its ToolResult. The few pieces that are genuinely shared and
mutable (the shell's working directory, the read-file cache, the abort signal) are objects held by
reference, so a copy shares them on purpose.

Two services come from the session that runs the call, as interfaces defined here so tools and
the pipeline never import the session or the loop:
- `prompter` (Prompter): waits for the AnswerPermission op that answers a PermissionRequest
  event (matched by request_id); also the rules the user added during the session, which
  every later call sees.
- `spawn_agent` (AgentSpawner): runs a sub-agent's own loop for the Agent tool.
- `side_query` (SideQuery): one request beside the conversation (WebFetch's answer, WebSearch),
  streamed, retried and counted in the session's totals.
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol.permission_data import PermissionContext, PermissionRule

if TYPE_CHECKING:
    import os

    from claude_harness.protocol.events import PermissionAnswer, PermissionRequest
    from claude_harness.protocol.progress import ProgressData
    from claude_harness.protocol.questions import Answers, Question
    from claude_harness.protocol.tool import Tool


class HookCaller(Protocol):
    """The session's hooks as the loop and the tools call them (hooks/runner.HookRunner)."""

    def has_hooks(self, event: str) -> bool: ...

    def with_config(self, extra: Any) -> HookCaller:
        """These hooks and a hooks.HookConfig's more (a sub-agent's own)."""
        ...

    async def run(self, event: str, payload: Mapping[str, Any], *,
                  matcher_value: str | None = None, abort: Any = None) -> Any:
        """Run the hooks matching `event`; their hooks.HookOutcome (typed there: protocol/
        imports nothing of ours)."""
        ...

    async def run_file_changed(self, cwd: Path) -> list[Any]:
        """FileChanged for each watched file that changed since the last look: the outcomes."""
        ...


class FileCheckpointer(Protocol):
    """Keeps a file's content before a tool changes it (session/checkpointing/checkpoints.py implements it)."""

    @property
    def enabled(self) -> bool: ...  # read only: a class attribute or a property

    def before_change(self, path: str | os.PathLike[str]) -> None: ...

    def before_changes(self, paths: Iterable[str | os.PathLike[str]]) -> None: ...


class QuestionAsker(Protocol):
    """Puts AskUserQuestion's questions to a person: the app's widget, the REPL's numbered
    prompt, or an SDK client. `available` is False when nobody can answer (`-p`)."""

    available: bool

    async def ask(self, questions: list[Question]) -> Answers: ...


class _NoCheckpoints:
    enabled = False

    def before_change(self, path: str | os.PathLike[str]) -> None:
        return None

    def before_changes(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        return None


class _NobodyToAsk:
    available = False

    async def ask(self, questions: list[Question]) -> Answers:
        raise RuntimeError("nobody can answer questions in this session")


NO_CHECKPOINTS: FileCheckpointer = _NoCheckpoints()
NOBODY_TO_ASK: QuestionAsker = _NobodyToAsk()


class AbortSignal:
    """A cancellation flag tools and the loop poll, plus an event they can await."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self.reason = ""
        self._listeners: list[Callable[[], None]] = []

    @property
    def aborted(self) -> bool:
        return self._event.is_set()

    def abort(self, reason: str = "interrupted by user") -> None:
        if self._event.is_set():
            return
        self.reason = reason
        self._event.set()
        for listener in list(self._listeners):
            listener()

    def add_listener(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback` once on abort; returns a function that removes it."""
        self._listeners.append(callback)
        return lambda: self._listeners.remove(callback) if callback in self._listeners else None

    async def wait(self) -> None:
        await self._event.wait()


@dataclass
class FileState:
    """What a Read saw: the text (normalised to \\n) and the file's mtime then."""

    content: str
    mtime_ns: int
    partial: bool = False  # an offset/limit view: does not count as having read the whole file


class FileStateCache:
    """LRU of file path -> FileState; the basis of read-before-edit and staleness checks."""

    def __init__(self, max_entries: int = 100) -> None:
        self._data: OrderedDict[str, FileState] = OrderedDict()
        self.max_entries = max_entries

    def get(self, path: str | Path) -> FileState | None:
        key = str(path)
        state = self._data.get(key)
        if state is not None:
            self._data.move_to_end(key)
        return state

    def set(self, path: str | Path, state: FileState) -> None:
        key = str(path)
        self._data[key] = state
        self._data.move_to_end(key)
        while len(self._data) > self.max_entries:
            self._data.popitem(last=False)

    def __contains__(self, path: object) -> bool:
        return str(path) in self._data

    def discard(self, path: str | Path) -> None:
        """Forget a file (a rewind rewrote it: it must be read again before an edit)."""
        self._data.pop(str(path), None)

    def __len__(self) -> int:
        return len(self._data)

    def clone(self) -> FileStateCache:
        other = FileStateCache(self.max_entries)
        other._data = OrderedDict((k, copy.copy(v)) for k, v in self._data.items())
        return other


@dataclass
class ShellState:
    """The Bash tool's persistent working directory (a `cd` carries over between calls)."""

    cwd: Path
    announced: Path | None = None  # the directory CwdChanged hooks last heard of

    def __post_init__(self) -> None:
        if self.announced is None:
            self.announced = self.cwd


@dataclass
class ContentReplacementState:
    """Per-conversation aggregate result budget: which results were replaced, and the total."""

    total_chars: int = 0
    replaced: dict[str, str] = field(default_factory=dict)  # tool_use_id -> persisted text
    # tools/budget.py's running count over the history (rebuilt when the history changes)
    index: Any = field(default=None, repr=False, compare=False)

    def clone(self) -> ContentReplacementState:
        return ContentReplacementState(self.total_chars, dict(self.replaced))


@dataclass(frozen=True)
class ToolUseOptions:
    """Configuration fixed when the query starts."""

    tools: tuple[Tool, ...] = ()
    model: str = ""
    debug: bool = False
    verbose: bool = False
    mcp_clients: tuple[Any, ...] = ()
    session_dir: Path | None = None  # where tool-results/ and the transcript live
    api: Any = None  # the session's ApiClient: sub-agents talk to the model through it
    loaded_deferred: frozenset[str] = frozenset()  # deferred tools loaded by ToolSearch
    max_tokens: int | None = None  # None: the model table's default for the model in use
    request_settings: Any = None  # the session's effort and thinking (api.RequestSettings)
    skill_shell_disabled: bool = False  # disableSkillShellExecution: the Skill tool's !`cmd`s


@dataclass(frozen=True)
class ToolUseContext:
    options: ToolUseOptions
    permission: PermissionContext
    abort: AbortSignal
    read_file_state: FileStateCache
    shell: ShellState
    messages: tuple[dict[str, Any], ...] = ()
    content_replacement: ContentReplacementState = field(
        default_factory=ContentReplacementState
    )
    # Agent context
    agent_id: str | None = None
    rendered_system_prompt: str | None = None
    # Hooks runner (None = no hooks configured); see claude_harness.hooks
    hooks: HookCaller | None = None
    session_id: str = ""
    transcript_path: str = ""
    # Services of the session running this call (None: nobody to ask / no sub-agents here).
    prompter: Prompter | None = None
    spawn_agent: AgentSpawner | None = None
    side_query: SideQuery | None = None
    debug_log: Path | None = None
    # Session services (null objects when the session offers none)
    checkpoints: FileCheckpointer = NO_CHECKPOINTS
    questions: QuestionAsker = NOBODY_TO_ASK
    # The sub-agent's kind (`general-purpose`, a custom agent's name); None in the main loop.
    agent_type: str | None = None
    # The `.claude/rules` texts a read or edit of these files brings in, each once a session
    # (session/prompt/path_rules.py); None: no such rules.
    file_reminders: Callable[[list[Path]], list[str]] | None = None
    spawn_background: BackgroundSpawner | None = None  # the Agent tool's run_in_background
    # The memory files of the system prompt (InstructionsLoaded `compact` after a compaction).
    memory_files: tuple[Path, ...] = ()

    @property
    def cwd(self) -> Path:
        return self.shell.cwd

    def with_mode(self, mode: str) -> ToolUseContext:
        return replace(self, permission=replace(self.permission, mode=mode))  # type: ignore[arg-type]

    def effective_permission(self) -> PermissionContext:
        """The permission context with the rules the user added during the session ("don't ask
        again", /permissions) included, as they are now."""
        added = self.prompter.rules() if self.prompter is not None else ()
        if not added:
            return self.permission
        return replace(self.permission, rules=(*self.permission.rules, *added))

    def find_tool(self, name: str) -> Tool | None:
        for tool in self.options.tools:
            if tool.name == name or name in tool.aliases:
                return tool
        return None


def create_subagent_context(
    parent: ToolUseContext, *, agent_id: str, is_async: bool = False
) -> ToolUseContext:
    """Decide per field what a child agent shares with its parent and what it gets fresh.

    Shared: options, abort signal (a parent abort stops its children), the shell cwd, the
    session's prompter (a foreground child's prompts reach the user the same way the parent's
    do, marked with its `agent_id`).
    Isolated: read_file_state (cloned), content replacement (cloned), messages (empty).
    A background child has no one to ask, so its undecided calls are denied as in headless mode.
    """
    permission = parent.permission
    if is_async:
        permission = replace(permission, interactive=False)
    return replace(
        parent,
        permission=permission,
        read_file_state=parent.read_file_state.clone(),
        content_replacement=parent.content_replacement.clone(),
        messages=(),
        agent_id=agent_id,
    )


class Prompter(Protocol):
    """The session's side of a permission prompt (see `session/services/prompter.py`)."""

    def expect(self, request: PermissionRequest,
               abort: AbortSignal) -> asyncio.Future[PermissionAnswer]:
        """Register `request` now; the future resolves when the AnswerPermission op with its
        request_id arrives (an abort answers "no"). The caller emits the request as an event,
        in line with the call's other events."""
        ...

    def rules(self) -> tuple[PermissionRule, ...]:
        """Rules added during the session ("don't ask again", /permissions), newest last."""
        ...


@dataclass(frozen=True)
class SubAgentSpec:
    """What the Agent tool asks the spawner to run."""

    prompt: str
    system_prompt: str  # the agent kind's own; the spawner adds the environment section
    tools: tuple[Tool, ...]
    model: str
    agent_type: str = "general-purpose"
    # What the agent's definition asks for (commands/agents.py); the spawner applies them.
    allow_rules: tuple[str, ...] = ()  # `tools` entries written as rules: pre-approved
    permission_mode: str | None = None  # applied only where the definition may set it
    max_turns: int | None = None
    hooks: dict[str, Any] | None = None  # hooks active while the agent runs
    scope: str = "built-in"  # where the definition came from: project ones need a trusted folder
    definition_path: Path | None = None
    color: str | None = None
    description: str = ""  # the Agent call's short description


@dataclass(frozen=True)
class BackgroundAgent:
    """A sub-agent the Agent tool started in the background (`run_in_background`)."""

    agent_id: str
    output_file: str  # its transcript (JSONL), written as it works


@dataclass(frozen=True)
class SubAgentReport:
    """How a sub-agent's run ended: its whole transcript and the reason it stopped."""

    agent_id: str
    messages: tuple[dict[str, Any], ...]
    end_reason: str
    error: str | None = None
    final_text: str = ""  # the child's last non-empty answer: its report to the parent
    transcript_path: str = ""  # the child's own transcript (JSONL), when written


class SideQuery(Protocol):
    """Runs one request beside the conversation (provided by the session:
    `agent/side_query.py`); the answer has `.message`, `.stop_reason` and `.text`."""

    async def __call__(self, request: dict[str, Any], *, purpose: str) -> Any: ...


class AgentSpawner(Protocol):
    """Runs a sub-agent's loop under `parent` (provided by the session: `agent/subagent.py`)."""

    async def __call__(self, spec: SubAgentSpec, parent: ToolUseContext,
                       progress: Callable[[ProgressData], None]) -> SubAgentReport: ...


class BackgroundSpawner(Protocol):
    """Starts a sub-agent that works while the conversation goes on; the session tells the
    model its report when it is done (provided by the session: `session/background.py`)."""

    def __call__(self, spec: SubAgentSpec, parent: ToolUseContext) -> BackgroundAgent: ...
