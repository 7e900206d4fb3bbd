"""The Tool interface, `build_tool()` with fail-closed SAFE_DEFAULTS, and ToolResult.

A tool is a frozen dataclass of plain functions. Every tool is made by `build_tool()`, which lays
the tool's own definition over SAFE_DEFAULTS: a tool that forgets to say it is concurrency-safe
runs serially, one that forgets to say it is read-only is treated as a write, one that forgets a
classifier input is skipped by the auto-mode classifier (the general permission chain decides).
The one default that says "yes" is `check_permissions`: it is the tool's *own* objection, asked
after the general chain has already looked at rules, hooks and the mode.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from claude_harness.protocol.input_schema import model_input_schema
from claude_harness.protocol.permission_data import PermissionDecision

if TYPE_CHECKING:
    from claude_harness.protocol.context import ToolUseContext

ContentBlocks = list[dict[str, Any]]
ToolContent = str | ContentBlocks
Progress = Callable[[Any], None]
ContextModifier = Callable[["ToolUseContext"], "ToolUseContext"]


class ToolInput(BaseModel):
    """Base of every tool's input model: unknown keys are refused (additionalProperties: false)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class ToolError(Exception):
    """A failure the model should read and act on; becomes an is_error tool_result.

    The pipeline wraps the message in <tool_use_error>...</tool_use_error>.
    """

    def __init__(self, message: str, *, code: str = "tool_error") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class ValidationResult:
    ok: bool = True
    message: str = ""
    code: str = ""

    @classmethod
    def fail(cls, message: str, code: str = "invalid_input") -> ValidationResult:
        return cls(False, message, code)


VALID = ValidationResult()


@dataclass
class ToolResult:
    """What `call()` returns.

    data             the tool's typed output; `Tool.render_result` turns it into tool_result content
    new_messages     extra messages for the conversation (a sub-agent transcript, reminders)
    context_modifier a function ToolUseContext -> ToolUseContext for the tools that run after
    is_error         a failure that still has useful content (Bash's non-zero exit)
    ends_turn        the call is the turn's final answer (StructuredOutput): no request follows
    extra_content    content blocks sent after the batch's tool_result blocks, in the same user
                     message (a skill's instructions: Claude Code sends them so)
    """

    data: Any
    new_messages: list[dict[str, Any]] = field(default_factory=list)
    context_modifier: ContextModifier | None = None
    is_error: bool = False
    ends_turn: bool = False
    extra_content: list[dict[str, Any]] = field(default_factory=list)


InputLines = Callable[[dict[str, Any]], list[str]]
InputLabel = Callable[[dict[str, Any]], str]
FileChange = Callable[[dict[str, Any]], "tuple[str, str] | None"]
ResultSummary = Callable[[dict[str, Any], str], "str | None"]


@dataclass(frozen=True)
class ToolPresentation:
    """How every front end shows a call of the tool, so none of them switches on tool names.

    title            the permission prompt's title; None: "Use <name>"
    kind             what the call does, for icons (ACP): read, edit, delete, move, search,
                     execute, think, fetch, switch_mode, other
    label            a short line saying what this call does (`Read a.py`); None: name + key
    approval_lines   the exact thing approved, from the input alone (quick, no disk)
    file_change      the file as it is now and as the call would leave it (read at once, before
                     the tool runs); the front end builds the diff off its event loop
    result_view      what the finished call shows: "output", "diff" (the change made), "content"
                     (the text written), "checklist" (a todo list), "summary" (the summary only)
    result_summary   the one-line summary of a finished call, from its input and output text
    plan_markdown    the approval's preview is a plan in Markdown (shown rendered)
    asks_user        the call puts questions to the person (QuestionsAsked): a front end that
                     shows them on the call's own card (ACP) knows which call they belong to
    """

    title: str | None = None
    kind: str = "other"
    label: InputLabel | None = None
    approval_lines: InputLines | None = None
    file_change: FileChange | None = None
    result_view: str = "output"
    result_summary: ResultSummary | None = None
    plan_markdown: bool = False
    asks_user: bool = False

    def permission_title(self, name: str) -> str:
        return self.title or f"Use {name}"


DEFAULT_PRESENTATION = ToolPresentation()


def _default_render(data: Any) -> ToolContent:
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        return data
    return str(data)


async def _allow(inp: Any, ctx: ToolUseContext) -> PermissionDecision:
    return PermissionDecision.passthrough()


async def _valid(inp: Any, ctx: ToolUseContext) -> ValidationResult:
    return VALID


def no_prompt_needed(reason: str) -> Callable[[Any, ToolUseContext], Awaitable[PermissionDecision]]:
    """A `check_permissions` for tools that change nothing outside the conversation (the task
    list, loading tool definitions, starting a sub-agent whose own calls are each checked)."""

    async def check(inp: Any, ctx: ToolUseContext) -> PermissionDecision:
        return PermissionDecision.allow(reason, decided_by="tool")

    return check


SAFE_DEFAULTS: dict[str, Any] = {
    "aliases": (),
    "is_enabled": lambda: True,
    "is_concurrency_safe": lambda inp: False,  # fail-closed: new tools run serially
    "is_read_only": lambda inp: False,  # fail-closed: treated as a write
    "is_destructive": lambda inp: False,
    "check_permissions": _allow,  # "no objection of my own"; the general chain already ran
    "validate_input": _valid,
    "backfill_input": lambda inp, ctx: {},
    "to_classifier_input": lambda inp: "",  # auto-mode classifier skips it
    "permission_subject": lambda inp: None,
    "user_facing_name": None,
    "key_argument": lambda inp: "",
    "render_result": _default_render,
    "should_defer": False,
    "max_result_size_chars": 100_000,
    "search_hint": "",
    "json_schema": None,
    "loads_when_called": False,
    "presentation": DEFAULT_PRESENTATION,
}


@dataclass(frozen=True)
class Tool:
    """One tool: its schema, its checks, its call, and how its result reads for the model.

    call(input, ctx, progress) -> ToolResult        run it; raise ToolError for a clean failure
    input_model                                      pydantic model: JSON Schema + validation
    is_concurrency_safe(input) / is_read_only(input) permission and scheduling hints per input
    validate_input(input, ctx) -> ValidationResult   semantic checks past the schema
    check_permissions(input, ctx) -> PermissionDecision   the tool's own objection, if any
    backfill_input(input, ctx) -> dict               derived fields (absolute paths) for hooks and
                                                     permissions; the original input stays in the
                                                     transcript
    permission_subject(input)                        what rules match: a command, a path, a URL
    """

    name: str
    description: str
    input_model: type[BaseModel]
    call: Callable[[Any, ToolUseContext, Progress], Awaitable[ToolResult]]
    aliases: tuple[str, ...]
    is_enabled: Callable[[], bool]
    is_concurrency_safe: Callable[[Any], bool]
    is_read_only: Callable[[Any], bool]
    is_destructive: Callable[[Any], bool]
    check_permissions: Callable[[Any, ToolUseContext], Awaitable[PermissionDecision]]
    validate_input: Callable[[Any, ToolUseContext], Awaitable[ValidationResult]]
    backfill_input: Callable[[Any, ToolUseContext], dict[str, Any]]
    to_classifier_input: Callable[[Any], str]
    permission_subject: Callable[[Any], str | None]
    user_facing_name: str | None
    key_argument: Callable[[Any], str]
    render_result: Callable[[Any], ToolContent]
    should_defer: bool
    max_result_size_chars: float
    search_hint: str
    json_schema: dict[str, Any] | None  # a ready schema (MCP tools); else from input_model
    # A deferred tool the model may call before ToolSearch loaded it (MCP tools: their input is
    # checked against the server's own schema, and the call counts them as loaded).
    loads_when_called: bool = False
    # The tool works only inside a conversation with a person and this session (it asks the
    # person, starts agents, switches the session's mode, loads other tools or gives the
    # turn's final answer): `mcp serve` does not offer it, as `claude mcp serve` leaves such
    # tools out.
    needs_conversation: bool = False
    # How front ends show a call (title, approval lines, result summary, kind): tool-declared.
    presentation: ToolPresentation = DEFAULT_PRESENTATION

    @property
    def display_name(self) -> str:
        return self.user_facing_name or self.name

    def input_schema(self) -> dict[str, Any]:
        """The JSON Schema sent to the API: `type: object`, `additionalProperties: false`."""
        if self.json_schema is not None:
            return self.json_schema
        return model_input_schema(self.input_model)

    def api_schema(self) -> dict[str, Any]:
        """The tool definition as the Messages API expects it."""
        if self.should_defer:
            return {
                "name": self.name,
                "description": self.description,
                "input_schema": self.input_schema(),
                "defer_loading": True,
            }
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema(),
        }


def build_tool(**definition: Any) -> Tool:
    """Make a Tool: the definition laid over SAFE_DEFAULTS (the definition wins)."""
    merged = {**SAFE_DEFAULTS, **definition}
    unknown = set(merged) - set(Tool.__dataclass_fields__)
    if unknown:
        raise TypeError(f"unknown tool fields: {sorted(unknown)}")
    return Tool(**merged)


UNBOUNDED = math.inf


def load_prompt(package_file: str, name: str = "prompt.md") -> str:
    """Read a tool's model-facing description from its own folder."""
    return (Path(package_file).parent / name).read_text(encoding="utf-8").strip()
