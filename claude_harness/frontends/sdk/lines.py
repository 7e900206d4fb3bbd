"""Claude Code's stream-json lines, made from the session's events.

One `Shaper` per session folds every event (through a SessionView) and returns the lines Claude
Code would write for it; the Agent SDK bridge and `-p --output-format stream-json|json` both
print what it returns, so the two outputs cannot drift apart. Shapes follow Claude Code 2.1.332
(recorded in tests/sdk; the fields the SDKs read are all here, its UI-only extras are not):

  system/init        once per turn, at its start (`init_line`)
  assistant          the API message (id, model, content, stop_reason, usage) + uuid, session_id,
                     parent_tool_use_id
  user               one line per tool result, with `tool_use_result` (the tool's own data)
  stream_event       each API stream event (--include-partial-messages)
  system/...         api_retry, model_fallback, status (permission mode), permission_denied,
                     hook_response (--include-hook-events)
  result             at the end of every turn (`result_line`)
"""

from __future__ import annotations

import dataclasses
import json
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

from claude_harness.agent.messages import final_text, has_tool_results
from claude_harness.frontends.sdk.messages import SDKResultMessage, SystemInitData
from claude_harness.protocol.events import (
    ApiRetry,
    AssistantMessage,
    DenialRecorded,
    HookRan,
    ModeChanged,
    ModelFallback,
    StreamEvent,
    ToolResultEvent,
    TotalsChanged,
    TurnEnd,
    Usage,
    UserMessage,
)
from claude_harness.protocol.view import SessionView

Line = dict[str, Any]

# TurnEnd.reason -> (result subtype, terminal_reason); anything else ends a turn normally
ENDINGS = {
    "max_turns": ("error_max_turns", "max_turns"),
    "max_budget": ("error_max_budget_usd", "budget_exhausted"),
    "aborted": ("error_during_execution", "aborted_tools"),
    "error": ("success", "api_error"),  # as Claude Code: success + is_error, the error as result
    "hook_stopped": ("success", "hook_stopped"),
    "refusal": ("error_during_execution", "refusal"),
    "max_tokens": ("error_during_execution", "max_tokens"),  # cut again after continuing
}
CONTINUED = ("max_tokens", "pause_turn")  # the next answer goes on with this one's text
ERROR_NAMES = {429: "rate_limit", 529: "overloaded", 401: "authentication_failed",
               400: "invalid_request"}


def new_uuid() -> str:
    return str(uuid.uuid4())


@dataclass
class TurnTally:
    """What one turn's result reports, folded from its events."""

    started: float = field(default_factory=time.monotonic)
    api_seconds_before: float = 0.0
    usage: dict[str, int] = field(default_factory=lambda: {
        "input_tokens": 0, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
        "output_tokens": 0})
    denials: list[DenialRecorded] = field(default_factory=list)
    last_text: str = ""
    stop_reason: str | None = None
    local_command: str | None = None  # a built-in answered without the model (`/model x`)


@dataclass
class ModelTally:
    inputTokens: int = 0  # Claude Code's field names
    outputTokens: int = 0
    cacheReadInputTokens: int = 0
    cacheCreationInputTokens: int = 0
    webSearchRequests: int = 0
    costUSD: float = 0.0
    contextWindow: int = 200_000


class Shaper:
    """Events in, Claude Code's lines out (see the module docstring)."""

    def __init__(self, version: str, *, partial: bool = False, hook_events: bool = False,
                 prompts_answered: bool = False, budget_usd: float | None = None,
                 replay_prompts: bool = False) -> None:
        self.version = version
        self.replay_prompts = replay_prompts  # --replay-user-messages
        self.budget_usd = budget_usd
        self.partial = partial
        self.hook_events = hook_events
        self.prompts_answered = prompts_answered  # a program answers can_use_tool
        self.view = SessionView()
        self.turn = TurnTally()
        self.models: dict[str, ModelTally] = {}
        self.structured_output: Any = None
        self._tool_data: dict[str, Any] = {}

    @property
    def session_id(self) -> str:
        return self.view.session_id

    def _stamp(self, line: Line) -> Line:
        return {**line, "session_id": self.session_id, "uuid": new_uuid()}

    # ── events ─────────────────────────────────────────────────────────────────────────────

    def feed(self, event: Any) -> list[Line]:
        """Fold `event` in; the lines to write for it (often none)."""
        self.view.apply(event)
        match event:
            case AssistantMessage():
                return [self._assistant(event)]
            case UserMessage(message=message):
                if self.replay_prompts and _is_prompt(message):
                    return [self._replayed(event)]
                return self._user(message)
            case ToolResultEvent(final_answer=True):  # the answer asked for by --json-schema
                self.structured_output = event.data
                self._tool_data[event.tool_use_id] = event.content
            case ToolResultEvent():
                self._tool_data[event.tool_use_id] = tool_use_result(event)
            case StreamEvent(event=raw) if self.partial:
                return [self._stamp({"type": "stream_event", "event": raw,
                                     "parent_tool_use_id": None})]
            case Usage():
                self._usage(event)
            case DenialRecorded():
                self.turn.denials.append(event)
                if event.decided_by == "headless" and not self.prompts_answered:
                    return [self._stamp({"type": "system", "subtype": "permission_denied",
                                         "tool_name": event.tool_name,
                                         "tool_use_id": event.tool_use_id,
                                         "message": event.reason})]
            case ApiRetry():
                return [self._stamp({
                    "type": "system", "subtype": "api_retry", "attempt": event.attempt,
                    "max_retries": event.max_retries, "retry_delay_ms": int(event.delay * 1000),
                    "error_status": event.status, "error": _error_name(event.status),
                    "message": event.error})]  # Claude Code's category, and our words
            case ModelFallback():
                return [self._stamp({
                    "type": "system", "subtype": "model_fallback", "trigger": event.trigger,
                    "original_model": event.original_model, "fallback_model": event.fallback_model,
                    "content": f"Switched to {event.fallback_model} due to high demand for "
                               f"{event.original_model}"})]
            case ModeChanged(mode=mode):
                return [self._stamp({"type": "system", "subtype": "status", "status": None,
                                     "permissionMode": mode})]
            case HookRan() if self.hook_events:
                return [self._hook(event)]
        return []

    def _assistant(self, event: AssistantMessage) -> Line:
        message = event.message
        if not message.get("isSidechain"):
            text = final_text(message)
            if self.turn.stop_reason in CONTINUED:
                self.turn.last_text += text
            else:
                self.turn.last_text = text or self.turn.last_text
            self.turn.stop_reason = event.stop_reason
        body = {"id": event.message_id, "type": "message", "role": "assistant",
                "model": event.model, "content": _public(message["content"]),
                "stop_reason": event.stop_reason, "stop_sequence": None, "usage": event.usage}
        return self._stamp({"type": "assistant", "message": body,
                            "parent_tool_use_id": message.get("parentToolUseId")})

    def _replayed(self, event: UserMessage) -> Line:
        """A prompt written back (--replay-user-messages), with its transcript uuid: the id
        `rewind_files` takes."""
        return {"type": "user", "message": {"role": "user", "content": _public(
                    event.message["content"])},
                "parent_tool_use_id": None, "session_id": self.session_id,
                "uuid": event.uuid or new_uuid(), "isReplay": True}

    def _user(self, message: dict[str, Any]) -> list[Line]:
        parent = message.get("parentToolUseId")  # a sub-agent's message, under its Agent call
        content = message["content"]
        if message.get("isSidechain") or message.get("isMeta"):
            return [self._stamp({"type": "user",
                                 "message": {"role": "user", "content": _public(content)},
                                 "parent_tool_use_id": parent})]
        if isinstance(content, str):
            return []
        return [self._stamp({"type": "user", "message": {"role": "user", "content": [block]},
                             "parent_tool_use_id": parent,
                             "tool_use_result": self._tool_data.pop(block["tool_use_id"],
                                                                    _error_data(block))})
                for block in content if block.get("type") == "tool_result"]

    def _usage(self, event: Usage) -> None:
        turn = self.turn.usage
        turn["input_tokens"] += event.input_tokens
        turn["output_tokens"] += event.output_tokens
        turn["cache_creation_input_tokens"] += event.cache_creation_input_tokens
        turn["cache_read_input_tokens"] += event.cache_read_input_tokens
        tally = self.models.setdefault(event.model or self.view.model, ModelTally())
        tally.inputTokens += event.input_tokens
        tally.outputTokens += event.output_tokens
        tally.cacheReadInputTokens += event.cache_read_input_tokens
        tally.cacheCreationInputTokens += event.cache_creation_input_tokens
        tally.costUSD += event.cost_usd

    def _hook(self, event: HookRan) -> Line:
        outcome = event.outcome
        return self._stamp({
            "type": "system", "subtype": "hook_response", "hook_event": event.event,
            "tool_name": event.tool_name, "blocked": outcome.blocked,
            "hooks": [{"command": r.command, "source": r.source, "exit_code": r.exit_code,
                       "duration_ms": int(r.duration_s * 1000), "stdout": r.stdout,
                       "stderr": r.stderr, "timed_out": r.timed_out} for r in outcome.results]})

    # ── turns ──────────────────────────────────────────────────────────────────────────────

    def begin_turn(self) -> None:
        self.turn = TurnTally(api_seconds_before=self.view.totals.api_seconds)
        self.structured_output = None

    def init_line(self) -> SystemInitData:
        """system/init: the session's tools, servers and configuration lists (agents, slash
        commands, skills, plugins as the catalog lists them, in Claude Code's order)."""
        started = self.view.started
        assert started is not None, "init_line() before SessionStarted"
        return {
            "type": "system", "subtype": "init", "cwd": started.cwd,
            "tools": list(started.tools),
            "mcp_servers": [dict(s) for s in started.mcp_servers],  # name, status[, error]
            "model": self.view.model, "permissionMode": self.view.mode,
            "slash_commands": list(started.slash_commands),
            "apiKeySource": started.api_key_source,
            "claude_code_version": self.version, "output_style": started.output_style,
            "agents": list(started.agents), "skills": list(started.skills),
            "plugins": [dict(p) for p in started.plugins],
            "session_id": self.session_id, "uuid": new_uuid()}  # as _stamp puts them

    def result_line(self, end: TurnEnd | None) -> SDKResultMessage:
        reason = end.reason if end is not None else "error"
        if reason == "refusal":
            self.turn.stop_reason = "refusal"  # even when the refused message was empty
        subtype, terminal = ENDINGS.get(reason, ("success", "completed"))
        is_error = subtype != "success" or reason == "error"
        totals: TotalsChanged = self.view.totals
        line: SDKResultMessage = {
            "type": "result", "subtype": subtype, "is_error": is_error,
            "duration_ms": int((time.monotonic() - self.turn.started) * 1000),
            "duration_api_ms": int((totals.api_seconds - self.turn.api_seconds_before) * 1000),
            "num_turns": end.num_turns if end is not None else 0,
            "stop_reason": self.turn.stop_reason, "session_id": self.session_id,
            "total_cost_usd": round(totals.cost_usd, 6), "usage": dict(self.turn.usage),
            "modelUsage": {m: dataclasses.asdict(t) for m, t in self.models.items()},
            "permission_denials": [d.as_json() for d in self.turn.denials],
            "terminal_reason": terminal, "uuid": new_uuid(),
        }
        if reason == "error":
            line["result"] = f"API Error: {end.error}" if end and end.error else "API Error"
        elif subtype == "success":
            line["result"] = self.turn.last_text
        else:  # the reason as `errors` (what the SDKs read) and as `result` (what -p prints)
            text = _error_text(reason, end, self)
            line["errors"] = [text]
            line["result"] = text
        if self.turn.local_command is not None:
            line["local_command"] = self.turn.local_command  # Claude Code's field
        if self.structured_output is not None:
            line["structured_output"] = self.structured_output
            line["result"] = json.dumps(self.structured_output, separators=(",", ":"),
                                        ensure_ascii=False)
        if (problem := self._transcript_error()) is not None:
            line["transcript_error"] = problem
        return line

    def _transcript_error(self) -> str | None:
        """`transcript_error`, only when the transcript could not be written at some point."""
        problem = self.view.transcript_problem
        if not problem:
            return None
        return (problem if not self.view.transcript_written else
                f"{problem} (It was written again later: nothing was lost.)")


def _error_text(reason: str, end: TurnEnd | None, shaper: Shaper) -> str:
    if reason == "max_turns":
        return f"Reached maximum number of turns ({end.num_turns if end else 0})"
    if reason == "max_budget":
        budget = shaper.budget_usd or 0.0
        return f"Reached maximum budget (${f'{budget:.10f}'.rstrip('0').rstrip('.')})"
    return (end.error if end is not None and end.error else "The turn was interrupted")


def _error_name(status: int | None) -> str:
    if status is None:
        return "connection_error"
    return ERROR_NAMES.get(status, "server_error" if status >= 500 else "unknown")


def _is_prompt(message: dict[str, Any]) -> bool:
    """A person's (or program's) prompt, not a batch of tool results or a sub-agent's."""
    return not (message.get("isSidechain") or message.get("isMeta")
                or has_tool_results(message))


def _public(content: Any) -> Any:
    """Content blocks without our private keys (`_invalid_json`...)."""
    if not isinstance(content, list):
        return content
    return [{k: v for k, v in b.items() if not k.startswith("_")} if isinstance(b, dict) else b
            for b in content]


def tool_use_result(event: ToolResultEvent) -> Any:
    """The tool's structured result, as the `tool_use_result` field carries it: its data as
    JSON, or for a failure `"Error: <what the model was told>"`."""
    if event.is_error:
        return "Error: " + _text(event.content)
    return _as_json(event.data) if event.data is not None else event.content


def _error_data(block: dict[str, Any]) -> Any:
    content = block.get("content")
    return ("Error: " + _text(content)) if block.get("is_error") else content


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content.removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")
    return "\n".join(b.get("text", "") for b in content or [] if isinstance(b, dict))


def _as_json(data: Any) -> Any:
    """Plain JSON from a tool's data (a pydantic model, a dataclass, a dict)."""
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json", by_alias=True)
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        data = dataclasses.asdict(data)
    try:
        return json.loads(json.dumps(data, ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        return str(data)
