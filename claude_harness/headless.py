"""`-p`: run one prompt without a UI and print text, one JSON result, or NDJSON events.

Formats follow Claude Code's, so scripts that parse its output keep working:
  text         the final answer on stdout
  json         one `result` object
  stream-json  `system/init`, then one line per assistant message and per tool-results message,
               then the `result` object
A call that would need a prompt is denied (the model is told) and listed in
`permission_denials`; the run still succeeds unless something else failed.

Like every front end it only submits ops (a UserPrompt per prompt, then Shutdown) and renders
the session's events; what the result object reports (totals, denials) is folded from them.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from typing import IO, Any

from claude_harness.agent.messages import final_text
from claude_harness.bootstrap import NO_KEY_HELP
from claude_harness.protocol.events import (
    ApiRetry,
    AssistantMessage,
    ContextMeasured,
    HookRan,
    Notice,
    SessionClosed,
    SessionEvent,
    SessionStarted,
    StopNotice,
    TurnEnd,
    UserMessage,
)
from claude_harness.protocol.ops import MeasureContext, Shutdown, UserPrompt
from claude_harness.protocol.view import SessionView

SUBTYPES = {"max_turns": "error_max_turns", "error": "error_during_execution",
            "refusal": "error_during_execution", "max_tokens": "error_during_execution"}


def parse_stream_json_input(text: str) -> list[str | list[dict[str, Any]]]:
    """`--input-format stream-json`: one `{"type": "user", "message": {...}}` per line; each
    message's content (a string or content blocks) becomes one prompt."""
    prompts: list[str | list[dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"stdin line {number} is not JSON: {exc.msg}") from exc
        message = item.get("message") if isinstance(item, dict) else None
        if not (isinstance(item, dict) and item.get("type") == "user" and isinstance(message, dict)
                and isinstance(message.get("content"), (str, list))):
            raise ValueError(f'stdin line {number} is not a {{"type": "user", "message": ...}} '
                             "object")
        prompts.append(message["content"])
    return prompts


class Headless:
    def __init__(self, session: Any, output_format: str, out: IO[str] | None = None,
                 err: IO[str] | None = None, *, verbose: bool = False) -> None:
        self.session = session
        self.format = output_format
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.verbose = verbose
        self.view = SessionView()
        self._events: Any = None
        self.stop_reason: str | None = None  # the API's, of the last answer

    def _line(self, obj: dict[str, Any]) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    @staticmethod
    def init_line(started: SessionStarted) -> dict[str, Any]:
        return {"type": "system", "subtype": "init", "session_id": started.session_id,
                "cwd": started.cwd, "model": started.model, "tools": list(started.tools),
                "permissionMode": started.mode, "mcp_servers": list(started.mcp_servers),
                "apiKeySource": started.api_key_source}

    async def _next(self) -> SessionEvent:
        event = await anext(self._events)
        self.view.apply(event)
        return event

    async def run(self, prompt: str | list[Any]) -> int:
        """Run one prompt (or, for --input-format stream-json, each user message in turn);
        return the process exit code."""
        start = time.monotonic()
        self._events = self.session.events()
        started = await self._next()  # after MCP servers connected: init lists their tools
        assert isinstance(started, SessionStarted)
        if not started.has_credentials:
            self.err.write(f"Error: {NO_KEY_HELP}\n")
            await self._close()
            return 1
        if self.format == "stream-json":
            self._line(self.init_line(started))
        prompts = prompt if isinstance(prompt, list) else [prompt]
        end: TurnEnd | None = None
        last_text = ""
        try:
            for number, one in enumerate(prompts, 1):
                end, last_text = await self._turn(one, last_text)
                if end is None or end.reason not in ("end_turn", "stop_sequence"):
                    end = self._skipped(end, len(prompts) - number)
                    break
        finally:
            await self._close()
        return self._finish(end, last_text, start)

    def _skipped(self, end: TurnEnd | None, count: int) -> TurnEnd | None:
        """Say so when a failed turn leaves prompts from stdin unsent (never drop them
        silently)."""
        if not count or end is None:
            return end
        note = f"{count} remaining prompt(s) from stdin were not sent because this turn ended " \
               f"with {end.reason}."
        self.err.write(note + "\n")
        return replace(end, error=f"{end.error or end.reason} ({note})")

    async def _close(self) -> None:
        self.session.submit(Shutdown())
        while not isinstance(await self._next(), SessionClosed):
            pass

    async def _turn(self, prompt: Any, last_text: str) -> tuple[TurnEnd | None, str]:
        if isinstance(prompt, str) and prompt.strip() == "/context":
            return await self._context()
        self.session.submit(UserPrompt(prompt if isinstance(prompt, str) else tuple(prompt)))
        self.stop_reason = None
        while True:
            event = await self._next()
            if isinstance(event, AssistantMessage):
                if not event.message.get("isSidechain"):
                    text = final_text(event.message)
                    continued = self.stop_reason in ("max_tokens", "pause_turn")
                    last_text = (last_text + text if continued else text or last_text)
                    self.stop_reason = event.stop_reason
                self._emit_message("assistant", event.message)
            elif isinstance(event, UserMessage):
                if event.message.get("isSidechain") or event.message.get("isMeta") or any(
                        b.get("type") == "tool_result" for b in event.message["content"]):
                    self._emit_message("user", event.message)
            elif isinstance(event, ApiRetry):
                self._retry(event)
            elif isinstance(event, HookRan):
                self._hook(event)
            elif isinstance(event, (Notice, StopNotice)) and (self.verbose
                                                              or event.level != "info"):
                self.err.write(f"{event.text}\n")
            elif isinstance(event, TurnEnd):
                if event.reason == "refusal":
                    self.stop_reason = "refusal"  # even when the refused message was empty
                return event, last_text

    async def _context(self) -> tuple[TurnEnd, str]:
        """`-p /context` answers locally, as Claude Code does: the usage table in Markdown."""
        from claude_harness.context_usage import render_markdown  # -p /context only

        self.session.submit(MeasureContext())
        while not isinstance(event := await self._next(), ContextMeasured):
            pass
        return TurnEnd("end_turn", 0), render_markdown(event.usage)

    def _emit_message(self, kind: str, message: dict[str, Any]) -> None:
        if self.format != "stream-json":
            return
        parent = message.get("parentToolUseId")  # a sub-agent's message, under its Agent call
        body = {"role": message["role"], "content": message["content"]}
        self._line({"type": kind, "message": body, "parent_tool_use_id": parent,
                    "session_id": self.view.session_id})

    def _hook(self, event: HookRan) -> None:
        if self.format == "stream-json":
            outcome = event.outcome
            self._line({
                "type": "system", "subtype": "hook_response", "hook_event": event.event,
                "tool_name": event.tool_name, "blocked": outcome.blocked,
                "hooks": [{"command": r.command, "source": r.source, "exit_code": r.exit_code,
                           "duration_ms": int(r.duration_s * 1000), "stdout": r.stdout,
                           "stderr": r.stderr, "timed_out": r.timed_out}
                          for r in outcome.results],
                "session_id": self.view.session_id})
        elif self.verbose:
            self.err.write(event.summary() + "\n")

    def _retry(self, event: ApiRetry) -> None:
        if self.format == "stream-json":
            self._line({"type": "system", "subtype": "api_retry", "attempt": event.attempt,
                        "max_retries": event.max_retries, "retry_delay_ms": int(event.delay * 1000),
                        "error": event.error, "session_id": self.view.session_id})
        elif self.verbose:
            self.err.write(f"Retrying ({event.attempt}/{event.max_retries}): {event.error}\n")

    def result_object(self, end: TurnEnd | None, text: str, duration_ms: int) -> dict[str, Any]:
        reason = end.reason if end else "error"
        subtype = SUBTYPES.get(reason, "success")
        if reason == "aborted":
            subtype = "error_during_execution"
        is_error = subtype != "success"
        t = self.view.totals
        return {
            "type": "result",
            "subtype": subtype,
            "is_error": is_error,
            "duration_ms": duration_ms,
            "duration_api_ms": int(t.api_seconds * 1000),
            "num_turns": end.num_turns if end else 0,
            "result": (end.error if end and end.error else text) if is_error else text,
            "stop_reason": self.stop_reason,
            "session_id": self.view.session_id,
            "total_cost_usd": round(t.cost_usd, 6),
            "usage": {
                "input_tokens": t.input_tokens,
                "cache_creation_input_tokens": t.cache_write_tokens,
                "cache_read_input_tokens": t.cache_read_tokens,
                "output_tokens": t.output_tokens,
            },
            "permission_denials": [d.as_json() for d in self.view.denials],
        }

    def _finish(self, end: TurnEnd | None, text: str, start: float) -> int:
        result = self.result_object(end, text, int((time.monotonic() - start) * 1000))
        if self.format in ("json", "stream-json"):
            self._line(result)
        elif result["is_error"]:
            self.err.write(f"Error: {result['result'] or result['subtype']}\n")
        else:
            self.out.write(text + ("\n" if text and not text.endswith("\n") else ""))
            self.out.flush()
        return 1 if result["is_error"] else 0
