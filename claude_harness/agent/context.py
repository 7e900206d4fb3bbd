"""ToolUseContext: the bag of state every tool call receives, grouped by concern.

It is copied before each call (`dataclasses.replace`); a tool changes what later tools see only
through a `context_modifier` in its ToolResult. The few pieces that are genuinely shared and
mutable (the shell's working directory, the read-file cache, the abort signal) are objects held by
reference, so a copy shares them on purpose.
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.permissions.types import PermissionContext

if TYPE_CHECKING:
    import os

    from claude_harness.tools.ask_user_question.model import Answers, Question
    from claude_harness.tools.base import Tool


class FileCheckpointer(Protocol):
    """Keeps a file's content before a tool changes it (session/checkpoints.py implements it)."""

    enabled: bool

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


@dataclass
class ContentReplacementState:
    """Per-conversation aggregate result budget: which results were replaced, and the total."""

    total_chars: int = 0
    replaced: dict[str, str] = field(default_factory=dict)  # tool_use_id -> persisted text

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
    max_tokens: int = 16_384


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
    hooks: Any = None
    session_id: str = ""
    transcript_path: str = ""
    # Shared, mutable by design: calls denied this session (for -p's permission_denials) and
    # rules the user added with "Yes, don't ask again" (seen by every later call).
    denials: list[dict[str, Any]] = field(default_factory=list)
    session_rules: list[Any] = field(default_factory=list)
    debug_log: Path | None = None
    # Session services (null objects when the session offers none)
    checkpoints: FileCheckpointer = NO_CHECKPOINTS
    questions: QuestionAsker = NOBODY_TO_ASK

    @property
    def cwd(self) -> Path:
        return self.shell.cwd

    def with_mode(self, mode: str) -> ToolUseContext:
        return replace(self, permission=replace(self.permission, mode=mode))  # type: ignore[arg-type]

    def effective_permission(self) -> PermissionContext:
        """The permission context with this session's "don't ask again" rules included."""
        if not self.session_rules:
            return self.permission
        return replace(self.permission, rules=(*self.permission.rules, *self.session_rules))

    def find_tool(self, name: str) -> Tool | None:
        for tool in self.options.tools:
            if tool.name == name or name in tool.aliases:
                return tool
        return None


def create_subagent_context(
    parent: ToolUseContext, *, agent_id: str, is_async: bool = False
) -> ToolUseContext:
    """Decide per field what a child agent shares with its parent and what it gets fresh.

    Shared: options, abort signal (a parent abort stops its children), the shell cwd.
    Isolated: read_file_state (cloned), content replacement (cloned), messages (empty).
    Permission prompts of a foreground child bubble up: its pipeline emits PermissionRequest
    events that the Agent tool relays to the parent's front end. A background child has no one
    to ask, so its undecided calls are denied as in headless mode.
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
        denials=[],  # fresh denial tracking
    )
