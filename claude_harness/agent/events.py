"""Typed events the agent loop yields; front ends (TUI, plain REPL, headless) only render them.

Every event is a plain frozen dataclass so it can cross threads, be logged, or be compared in
tests without touching the loop's internals.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal


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
    data: Any


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


@dataclass
class PermissionRequest:
    """The loop asks the front end to decide; the front end resolves `future`.

    The future's result is a `PermissionAnswer`. Headless mode never sees these: it answers
    from rules alone.
    """

    tool_use_id: str
    tool_name: str
    input: dict[str, Any]
    reason: str
    suggestion: str | None
    future: asyncio.Future[PermissionAnswer]
    preview: str | None = None


@dataclass(frozen=True)
class PermissionAnswer:
    """The user's answer to a permission prompt."""

    choice: Literal["yes", "always", "no"]
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
    | ThinkingDone
    | StopNotice
    | ServerToolUse
    | SideUsage
)
