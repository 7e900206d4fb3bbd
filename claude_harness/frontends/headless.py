"""`-p`: run one prompt without a UI and print text, one JSON result, or NDJSON events.

Formats follow Claude Code's, so scripts that parse its output keep working (the lines come
from `frontends/sdk/lines.py`, shared with the Agent SDK front end):
  text         the final answer on stdout
  json         one `result` object
  stream-json  `system/init`, then one line per assistant message and per tool result, then
               the `result` object
A call that would need a prompt is denied (the model is told) and listed in
`permission_denials`; the run still succeeds unless something else failed.

Like every front end it only submits ops (a UserPrompt per prompt, then Shutdown) and renders
the session's events; what the result object reports (totals, denials) is folded from them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any, cast

from claude_harness import __version__
from claude_harness.commands.more_builtins import PROMPTS
from claude_harness.frontends.sdk.lines import Shaper
from claude_harness.frontends.sdk.messages import SDKResultMessage, SDKUserMessage
from claude_harness.protocol.events import (
    ApiRetry,
    Busy,
    Compaction,
    ContextMeasured,
    HookRan,
    ModeChanged,
    ModelChanged,
    Notice,
    Report,
    SessionClosed,
    SessionEvent,
    SessionStarted,
    StopNotice,
    TurnEnd,
)
from claude_harness.protocol.ops import (
    Compact,
    MeasureContext,
    Op,
    RunCommand,
    SessionCommand,
    Shutdown,
    UserPrompt,
)
from claude_harness.protocol.view import OpFollower, SessionView
from claude_harness.session.bootstrap import NO_KEY_HELP

if TYPE_CHECKING:
    from claude_harness.commands.registry import Invocation

PROMPT_COMMANDS = frozenset(PROMPTS)  # /review, /security-review: a turn of the model
UNAVAILABLE = "/{name} isn't available in this environment."  # Claude Code 2.1.332's words


def builtin(prompt: Any) -> Invocation | None:
    """The built-in a `-p` prompt such as `/model haiku` or `/usage` names, if any; a custom
    command or skill (expanded by the session) or any other `/word` is a prompt (None)."""
    if not isinstance(prompt, str) or not prompt.startswith("/"):
        return None
    from claude_harness.commands.registry import invoke

    invocation = invoke(prompt.strip())
    if invocation is None or any(isinstance(op, RunCommand) for op in invocation.ops):
        return None
    return invocation


def session_command(prompt: str) -> SessionCommand | None:
    """The SessionCommand a `-p` prompt such as `/usage` or `/review 12` names, if any (the
    session answers those built-ins)."""
    invocation = builtin(prompt)
    ops = invocation.ops if invocation is not None else ()
    return ops[0] if len(ops) == 1 and isinstance(ops[0], SessionCommand) else None


def said(event: SessionEvent) -> str | None:
    """What a local command's event says, for the result text (None: nothing to print)."""
    if isinstance(event, Notice):
        return event.text
    if isinstance(event, Report):
        return "\n".join(event.lines)
    if isinstance(event, ModelChanged):
        return f"Set model to `{event.model}` for this session only"  # Claude Code's words
    if isinstance(event, ModeChanged):
        return f"Set permission mode to {event.mode} for this session only"
    return None


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
        user = cast(SDKUserMessage, item) if isinstance(item, dict) else None
        message = user.get("message") if user is not None else None
        content = message.get("content") if isinstance(message, dict) else None
        if not (user is not None and user.get("type") == "user"
                and isinstance(content, (str, list))):
            raise ValueError(f'stdin line {number} is not a {{"type": "user", "message": ...}} '
                             "object")
        prompts.append(content)
    return prompts


class Headless:
    def __init__(self, session: Any, output_format: str, out: IO[str] | None = None,
                 err: IO[str] | None = None, *, verbose: bool = False,
                 budget_usd: float | None = None) -> None:
        self.session = session
        self.format = output_format
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.verbose = verbose
        # Claude Code's lines, shared with the Agent SDK front end (hook lines always shown)
        self.shaper = Shaper(__version__, hook_events=True, budget_usd=budget_usd)
        self._events: Any = None

    @property
    def view(self) -> SessionView:
        return self.shaper.view

    def _line(self, obj: Mapping[str, Any]) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n")
        self.out.flush()

    async def _next(self) -> SessionEvent:
        event = await anext(self._events)
        lines = self.shaper.feed(event)
        if self.format == "stream-json":
            for line in lines:
                self._line(line)
        return event

    async def run(self, prompt: str | list[Any]) -> int:
        """Run one prompt (or, for --input-format stream-json, each user message in turn);
        return the process exit code."""
        self._events = self.session.events()
        started = await self._next()  # after MCP servers connected: init lists their tools
        assert isinstance(started, SessionStarted)
        if not started.has_credentials:
            self.err.write(f"Error: {NO_KEY_HELP}\n")
            await self._close()
            return 1
        self.shaper.begin_turn()
        if self.format == "stream-json":
            self._line(self.shaper.init_line())
        prompts = prompt if isinstance(prompt, list) else [prompt]
        end: TurnEnd | None = None
        try:
            for number, one in enumerate(prompts, 1):
                end = await self._turn(one)
                if end is None or end.reason not in ("end_turn", "stop_sequence"):
                    end = self._skipped(end, len(prompts) - number)
                    break
        finally:
            await self._close()
        return self._finish(end)

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

    async def _turn(self, prompt: Any) -> TurnEnd | None:
        """One prompt. A built-in runs here, as Claude Code runs it in -p: a local one answers
        without a request (`/model x`, `/add-dir DIR`, `/clear`, `/compact`, `/context`), one
        that needs a screen says so (`/help`, `/theme`), a prompt command is a model turn."""
        invocation = builtin(prompt)
        name = invocation.name if invocation is not None else ""
        made = invocation.ops if invocation is not None else ()
        first = made[0] if made else None
        if invocation is not None and not made:  # a front-end action: a panel, a picker
            self.shaper.turn.last_text = UNAVAILABLE.format(name=name)
            return TurnEnd("end_turn", 0)
        if isinstance(first, MeasureContext):
            return await self._context()
        if isinstance(first, Compact):
            return await self._compact(first.instructions)
        if isinstance(first, SessionCommand) and len(made) == 1:
            if first.name not in PROMPT_COMMANDS:
                return await self._answered_locally(first, name)
            self.session.submit(first)
            return await self._answer()
        if invocation is not None and not any(isinstance(op, UserPrompt) for op in made):
            return await self._local(name, made)
        for op in made or (UserPrompt(prompt if isinstance(prompt, str) else tuple(prompt)),):
            self.session.submit(op)
        return await self._answer()

    async def _answer(self) -> TurnEnd:
        """The model's turn for what was submitted, up to its TurnEnd."""
        while True:
            event = await self._next()
            if isinstance(event, ApiRetry) and self.format != "stream-json" and self.verbose:
                self.err.write(f"Retrying ({event.attempt}/{event.max_retries}): "
                               f"{event.error}\n")
            elif isinstance(event, HookRan) and self.format != "stream-json" and self.verbose:
                self.err.write(event.summary() + "\n")
            elif isinstance(event, (Notice, StopNotice)) and (self.verbose
                                                              or event.level != "info"):
                self.err.write(f"{event.text}\n")
            elif isinstance(event, TurnEnd):
                return event

    async def _local(self, name: str, made: tuple[Op, ...]) -> TurnEnd:
        """`-p "/model haiku"`, `/add-dir DIR`, `/effort high`, `/clear`...: each op applied
        (with the hooks it fires), what the session said as the result text, no request;
        `local_command` names the command, as in Claude Code's result."""
        lines: list[str] = []
        for op in made:
            follower = OpFollower(self.session.submit(op))
            while True:
                event = await self._next()
                if isinstance(event, TurnEnd):
                    return event
                if (text := said(event)) is not None:
                    lines.append(text)
                if follower.ended_by(event):
                    break
        self.shaper.turn.last_text = "\n".join(lines)
        self.shaper.turn.local_command = name
        return TurnEnd("end_turn", 0)

    def result_object(self, end: TurnEnd | None) -> SDKResultMessage:
        """The `result` line (json and stream-json print it; text prints its `result`)."""
        return self.shaper.result_line(end)

    async def _answered_locally(self, command: SessionCommand, name: str) -> TurnEnd:
        """`-p /usage`, `-p /release-notes`...: the session's answer is the result text."""
        self.session.submit(command)
        while not isinstance(event := await self._next(), (Report, Notice, TurnEnd)):
            pass
        if isinstance(event, TurnEnd):  # it became a prompt (/statusline <description>)
            return event
        if isinstance(event, Notice) and event.level == "error":
            self.shaper.turn.last_text = event.text
            return TurnEnd("error", 0, event.text)
        self.shaper.turn.last_text = ("\n".join(event.lines) if isinstance(event, Report)
                                      else event.text)
        self.shaper.turn.local_command = name
        return TurnEnd("end_turn", 0)

    async def _context(self) -> TurnEnd:
        """`-p /context` answers locally, as Claude Code does: the usage table in Markdown."""
        from claude_harness.session.services.context_usage import (
            render_markdown,  # -p /context only
        )

        self.session.submit(MeasureContext())
        while not isinstance(event := await self._next(), ContextMeasured):
            pass
        self.shaper.turn.last_text = render_markdown(event.usage)
        return TurnEnd("end_turn", 0)

    async def _compact(self, instructions: str) -> TurnEnd:
        """`-p /compact [instructions]` (with -c or -r: the continued conversation) compacts,
        as Claude Code does: no model turn, an empty result, or the reason it did not."""
        self.session.submit(Compact(instructions))
        said: list[str] = []
        while True:
            event = await self._next()
            if isinstance(event, Notice):
                said.append(event.text)
                if event.level != "info" or self.verbose:
                    self.err.write(f"{event.text}\n")
            elif isinstance(event, TurnEnd):
                return event
            elif isinstance(event, Busy) and not event.running:
                break
            elif isinstance(event, Compaction):
                said.clear()
        self.shaper.turn.last_text = "\n".join(said)
        return TurnEnd("end_turn", 0)

    def _finish(self, end: TurnEnd | None) -> int:
        result = self.result_object(end)
        if self.format in ("json", "stream-json"):
            self._line(result)
        elif result["is_error"]:
            reason = end.error if end is not None and end.error else None
            why = reason or "; ".join(result.get("errors") or []) or result["subtype"]
            self.err.write(f"Error: {why}\n")
        else:
            text = result.get("result", "")  # every result line has one
            self.out.write(text + ("\n" if text and not text.endswith("\n") else ""))
            self.out.flush()
        return 1 if result["is_error"] else 0
