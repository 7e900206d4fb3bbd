"""AcpSession: one ACP session over one of our sessions, ops in and `session/update`s out.

One task (`_pump`) reads the session's events in order and sends each as the update it is, so
the client sees chunks, tool calls and their updates in the order they happened, and a turn's
`session/prompt` is answered only after its last update went out. A permission request is
asked in a task of its own (the events keep flowing while the person decides); the answer goes
back as the AnswerPermission op. `session/cancel` is the Interrupt op: the running command is
killed, a pending question is closed, and the turn ends with `cancelled`."""

from __future__ import annotations

import asyncio
import contextvars
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp import (
    RequestError,
    plan_entry,
    start_tool_call,
    update_agent_message_text,
    update_agent_thought_text,
    update_plan,
    update_tool_call,
)
from acp.helpers import update_available_commands, update_current_mode
from acp.schema import (
    AllowedOutcome,
    ConfigOptionUpdate,
    Cost,
    PermissionOption,
    TerminalToolCallContent,
    ToolCallUpdate,
    UsageUpdate,
)

from claude_harness.commands.registry import invoke
from claude_harness.frontends.acp import choices, tool_calls
from claude_harness.frontends.acp.client_services import AcpFileWriter, AcpTerminals
from claude_harness.frontends.acp.questions import ask_questions
from claude_harness.frontends.acp.replay import replay_updates
from claude_harness.frontends.shared.previews import presentation_of
from claude_harness.protocol import ops
from claude_harness.protocol.client_files import buffer_reader, buffer_writer
from claude_harness.protocol.client_terminal import client_terminals
from claude_harness.protocol.events import (
    Busy,
    ContextMeasured,
    ElicitationRequested,
    McpPromptsChanged,
    ModeChanged,
    ModelChanged,
    ModelsListed,
    Notice,
    OpDone,
    PermissionRequest,
    PermissionSettled,
    QuestionsAsked,
    QuestionsSettled,
    Report,
    SessionClosed,
    SessionStarted,
    StopNotice,
    TextDelta,
    ThinkingDelta,
    TodosChanged,
    ToolProgress,
    ToolResultEvent,
    ToolStart,
    TotalsChanged,
    TurnEnd,
)
from claude_harness.protocol.progress import OutputProgress, TerminalProgress
from claude_harness.protocol.view import SessionView

STOP_REASONS = {"end_turn": "end_turn", "stop_sequence": "end_turn", "max_tokens": "max_tokens",
                "max_turns": "max_turn_requests", "refusal": "refusal", "aborted": "cancelled"}
BUFFER_TIMEOUT = 10.0  # seconds an editor may take to hand over a buffer
ANSWERS = {"allow": "yes", "allow_always": "always", "reject": "no"}


@dataclass
class _Turn:
    """A `session/prompt` being answered."""

    future: asyncio.Future[str]
    op_id: int = 0
    job: bool = False  # the ops started a job (a model turn, /compact...)
    end: TurnEnd | None = None
    cancelled: bool = False


@dataclass
class _Waiter:
    wanted: Callable[[Any], bool]
    future: asyncio.Future[Any]
    op_id: int = 0  # also done (with None) once this op is applied


@dataclass
class AcpSession:
    session: Any  # claude_harness.session.core.Session
    client: Any  # the connection's client side (session_update, request_permission...)
    reads_files: bool = False  # the client offers fs/read_text_file: Read asks it first
    writes_files: bool = False  # fs/write_text_file: Write, Edit and sed -i write through it
    runs_terminals: bool = False  # terminal/*: Bash's foreground commands run in its terminals
    view: SessionView = field(default_factory=SessionView)
    models: tuple[Any, ...] = ()
    turn: _Turn | None = None
    _pump_task: asyncio.Task[None] | None = None
    _asking: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    _waiters: list[_Waiter] = field(default_factory=list)
    _tool_names: dict[str, str] = field(default_factory=dict)
    _terminals: set[str] = field(default_factory=set)  # tool calls showing a client terminal
    _started: asyncio.Event = field(default_factory=asyncio.Event)
    _question_call: str = ""  # the AskUserQuestion call its questions are shown on
    _closed: bool = False

    @property
    def id(self) -> str:
        return self.view.session_id

    # ── life ───────────────────────────────────────────────────────────────────────────────

    async def start(self) -> SessionStarted:
        """Start the event pump; the SessionStarted once MCP servers and the rest are set."""
        # The session's driver starts in the pump's task and inherits the buffer reader.
        token = buffer_reader.set(self._read_buffer if self.reads_files else None)
        try:
            self._pump_task = asyncio.create_task(self._pump(), name="acp-session-events",
                                                  context=self._client_services())
        finally:
            buffer_reader.reset(token)
        await self._started.wait()
        assert self.view.started is not None
        listed = await self.apply(ops.ListModels(), lambda e: isinstance(e, ModelsListed))
        if listed is not None:
            self.models = listed.models
        return self.view.started

    def _client_services(self) -> contextvars.Context:
        """The context the session runs in: the client's writer and terminals, when offered
        (client_services.py), for this session's tools alone."""
        context = contextvars.copy_context()
        if self.writes_files:
            context.run(buffer_writer.set, AcpFileWriter(self))
        if self.runs_terminals:
            context.run(client_terminals.set, AcpTerminals(self))
        return context

    async def close(self) -> None:
        if self._pump_task is None or self._closed:
            return
        self.session.submit(ops.Shutdown())
        await self._pump_task

    async def apply(self, op: ops.Op, wanted: Callable[[Any], bool]) -> Any:
        """Submit `op`; the first event `wanted` picks before the op is applied, or None."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters.append(_Waiter(wanted, future, self.session.submit(op)))
        return await future

    # ── what the client is told about the session ─────────────────────────────────────────

    def mode_state(self) -> Any:
        return choices.mode_state(self.view.mode, self._bypass())

    def config_options(self) -> list[Any]:
        return choices.config_options(self.view.mode, self._bypass(), self.view.model,
                                      self.models)

    def _bypass(self) -> bool:
        return bool(self.view.started and self.view.started.bypass_available)

    def commands_update(self) -> Any:
        cwd = Path(self.view.started.cwd) if self.view.started else Path.cwd()
        return update_available_commands(choices.available_commands(cwd,
                                                                    self.view.mcp_prompts))

    async def send(self, update: Any) -> None:
        try:
            await self.client.session_update(session_id=self.id, update=update)
        except ConnectionError:
            pass  # the client is gone; the session ends with stdin

    async def _read_buffer(self, path: str) -> str | None:
        """Read's text of `path` from the editor (`fs/read_text_file`: unsaved changes
        included); None, and so the disk, when the client cannot say."""
        try:
            response = await asyncio.wait_for(
                self.client.read_text_file(session_id=self.id, path=path), BUFFER_TIMEOUT)
        except Exception as exc:  # the client's failure is not the tool's: read the disk
            sys.stderr.write(f"claude-harness: fs/read_text_file {path} failed ({exc}); "
                             "reading the disk\n")
            return None
        return response.content

    async def replay(self) -> None:
        """`session/load`: the conversation so far, as the updates that draw it."""
        for update in replay_updates(self.view.messages):
            await self.send(update)

    # ── a prompt ───────────────────────────────────────────────────────────────────────────

    async def prompt(self, content: str | tuple[dict[str, Any], ...]) -> str:
        """Run one `session/prompt` to its end; its ACP stop reason."""
        if self._closed:
            raise RequestError(-32603, "This session has ended; start or load another.")
        if self.turn is not None:
            raise RequestError(-32600, "A prompt is already running in this session: wait for "
                                       "its answer or send session/cancel.")
        turn = _Turn(asyncio.get_running_loop().create_future())
        self.turn = turn
        for op in self._ops_for(content):
            turn.op_id = self.session.submit(op)
        try:
            return await turn.future
        finally:
            self.turn = None

    def _ops_for(self, content: str | tuple[dict[str, Any], ...]) -> list[ops.Op]:
        """A built-in `/command` with session ops runs them; an MCP prompt's command is run by
        name; anything else (custom commands and skills included: the session expands
        them) is a prompt."""
        called = invoke(content) if isinstance(content, str) and content.startswith("/") else None
        if called is not None and called.ops:
            first = called.ops[0]
            if not isinstance(first, ops.RunCommand):
                return list(called.ops)
            if any(p.name == first.name for p in self.view.mcp_prompts):
                return [first]
        return [ops.UserPrompt(content)]

    def cancel(self) -> None:
        if self.turn is not None:
            self.turn.cancelled = True
            self.session.submit(ops.Interrupt())

    def _turn_over(self) -> None:
        turn = self.turn
        if turn is None or turn.future.done():
            return
        end = turn.end
        if turn.cancelled or (end is not None and end.reason == "aborted"):
            turn.future.set_result("cancelled")
        elif end is not None and end.reason == "error":
            turn.future.set_exception(RequestError(-32603, f"The turn failed: {end.error}"))
        else:
            turn.future.set_result(STOP_REASONS.get(end.reason, "end_turn") if end else "end_turn")

    # ── the events ─────────────────────────────────────────────────────────────────────────

    async def _pump(self) -> None:
        try:
            async for event in self.session.events():
                self.view.apply(event)
                await self._render(event)
                self._react(event)
        finally:
            self._closed = True
            self._started.set()
            for waiter in self._waiters:
                if not waiter.future.done():
                    waiter.future.set_result(None)
            if self.turn is not None and not self.turn.future.done():
                self.turn.future.set_exception(RequestError(-32603, "The session ended."))

    def _react(self, event: Any) -> None:
        for waiter in list(self._waiters):
            hit = waiter.wanted(event)
            if hit or (isinstance(event, OpDone) and event.op_id == waiter.op_id):
                if not waiter.future.done():
                    waiter.future.set_result(event if hit else None)
                self._waiters.remove(waiter)
        turn = self.turn
        match event:
            case SessionStarted():
                self._started.set()
            case PermissionRequest():
                task = asyncio.create_task(self._ask(event), name="acp-permission")
                self._asking[event.request_id] = task
            case PermissionSettled(request_id=rid):
                asking = self._asking.pop(rid, None)
                if asking is not None and not asking.done():
                    asking.cancel()  # answered by an interrupt: the question is gone
            case QuestionsAsked(request_id=rid):
                self._asking[rid] = asyncio.create_task(self._questions(event),
                                                        name="acp-questions")
            case QuestionsSettled(request_id=rid):
                asking = self._asking.pop(rid, None)
                if asking is not None and not asking.done():
                    asking.cancel()
            case ElicitationRequested(request_id=rid):
                self.session.submit(ops.AnswerElicitation(rid, "cancel"))
            case TurnEnd() if turn is not None:
                turn.end = event
            case Busy(running=True) if turn is not None:
                turn.job = True
            case Busy(running=False) if turn is not None:
                self._turn_over()
            case OpDone(op_id=op_id) if turn is not None and turn.op_id == op_id and not turn.job:
                self._turn_over()  # a command that changed state and started nothing

    async def _render(self, event: Any) -> None:
        """Send what the client shows for `event` (most events show nothing)."""
        match event:
            case TextDelta(text=text) if text:
                await self.send(update_agent_message_text(text))
            case ThinkingDelta(text=text) if text:
                await self.send(update_agent_thought_text(text))
            case ToolStart():
                await self._tool_started(event)
            case ToolProgress(data=TerminalProgress(terminal_id=terminal)):
                self._terminals.add(event.tool_use_id)
                await self.send(update_tool_call(
                    event.tool_use_id, status="in_progress",
                    content=[TerminalToolCallContent(type="terminal", terminal_id=terminal)]))
            case ToolProgress(data=OutputProgress() as out):
                text = tool_calls.progress_output(out.stdout, out.stderr)
                await self.send(update_tool_call(
                    event.tool_use_id, status="in_progress",
                    content=[tool_calls.text_content(text)] if text else None))
            case ToolResultEvent():
                name = self._tool_names.pop(event.tool_use_id, event.name)
                in_terminal = event.tool_use_id in self._terminals  # it stays what is shown
                self._terminals.discard(event.tool_use_id)
                await self.send(update_tool_call(
                    event.tool_use_id, status="failed" if event.is_error else "completed",
                    content=None if in_terminal else tool_calls.result_content(
                        name, event.content, event.is_error),
                    raw_output=tool_calls.result_text(event.content)))
            case TodosChanged(todos=todos, agent_id=None):
                await self.send(update_plan([
                    plan_entry(str(t.get("content") or ""), status=_plan_status(t))
                    for t in todos]))
            case ModeChanged(mode=mode):
                await self.send(update_current_mode(mode))
                await self._options_changed()
            case ModelChanged():
                await self._options_changed()
            case TotalsChanged(context_tokens=used, context_percent=percent) if used and percent:
                await self.send(UsageUpdate(
                    session_update="usage_update", used=used, size=round(used * 100 / percent),
                    cost=Cost(amount=event.cost_usd, currency="USD")))
            case McpPromptsChanged():
                await self.send(self.commands_update())
            case Report(lines=lines) if self.turn is not None and lines:
                await self.send(update_agent_message_text("\n".join(lines) + "\n"))
            case ContextMeasured(usage=usage) if self.turn is not None:
                from claude_harness.session.services.context_usage import (
                    render_markdown,  # /context only
                )

                await self.send(update_agent_message_text(render_markdown(usage)))
            case Notice(level=level, text=text) | StopNotice(level=level, text=text):
                if level != "info" or (self.turn is not None and not self.turn.job):
                    await self._notice(text, level)
            case SessionClosed():
                self._closed = True

    async def _notice(self, text: str, level: str) -> None:
        """A warning or an error: on stderr (the client's log) and, during a prompt, in the
        answer, where the person sees it."""
        sys.stderr.write(f"claude-harness: {text}\n")
        sys.stderr.flush()
        if self.turn is not None:
            prefix = "" if level == "info" else ("Error: " if level == "error" else "Warning: ")
            body = text if text.startswith(("Error", "Warning")) else prefix + text
            await self.send(update_agent_message_text(f"\n\n{body}\n\n"))

    async def _options_changed(self) -> None:
        await self.send(ConfigOptionUpdate(session_update="config_option_update",
                                           config_options=self.config_options()))

    async def _tool_started(self, event: ToolStart) -> None:
        self._tool_names[event.tool_use_id] = event.name
        if presentation_of(event.name).asks_user:
            self._question_call = event.tool_use_id
        await self.send(start_tool_call(
            event.tool_use_id, tool_calls.title(event.name, event.input, event.key_argument),
            kind=tool_calls.kind(event.name), status="pending",  # type: ignore[arg-type]
            content=tool_calls.start_content(event.name, event.input) or None,
            locations=tool_calls.locations(event.name, event.input) or None,
            raw_input=event.input))

    # ── permission prompts ─────────────────────────────────────────────────────────────────

    async def _ask(self, request: PermissionRequest) -> None:
        """`session/request_permission` with our prompt's choices; the answer as the op."""
        options = [PermissionOption(option_id="allow", name="Yes", kind="allow_once")]
        if request.suggestion:
            options.append(PermissionOption(
                option_id="allow_always", kind="allow_always",
                name=f"Yes, and don't ask again for {request.suggestion}"))
        options.append(PermissionOption(option_id="reject", name="No", kind="reject_once"))
        content = tool_calls.start_content(request.tool_name, request.input)
        if request.preview:  # a plan to approve, a command's preview
            content = [*content, tool_calls.text_content(request.preview)]
        call = ToolCallUpdate(
            tool_call_id=request.tool_use_id, status="pending",
            title=tool_calls.title(request.tool_name, request.input),
            kind=tool_calls.kind(request.tool_name),  # type: ignore[arg-type]
            content=content or None,
            locations=tool_calls.locations(request.tool_name, request.input) or None,
            raw_input=request.input)
        feedback = ""
        try:
            response = await self.client.request_permission(session_id=self.id, tool_call=call,
                                                            options=options)
            outcome = response.outcome
            choice = ANSWERS.get(outcome.option_id, "no") if isinstance(
                outcome, AllowedOutcome) else "no"
            if not isinstance(outcome, AllowedOutcome):
                feedback = "The user cancelled the request."
        except asyncio.CancelledError:
            return  # settled already (an interrupt)
        except Exception as exc:  # the client failed to answer: the call does not run
            choice, feedback = "no", f"The editor could not ask the user: {exc}"
        finally:
            self._asking.pop(request.request_id, None)
        self.session.submit(ops.AnswerPermission(request.request_id, choice,  # type: ignore[arg-type]
                                                 feedback))


    async def _questions(self, event: QuestionsAsked) -> None:
        """AskUserQuestion's questions as permission requests (questions.py)."""
        try:
            answer = await ask_questions(self.client, self.id, event,
                                         self._question_call or event.request_id)
        except asyncio.CancelledError:
            return  # settled already (an interrupt)
        except Exception as exc:  # the client could not ask: the model is told
            sys.stderr.write(f"claude-harness: could not ask the questions: {exc}\n")
            answer = ops.AnswerQuestions(event.request_id, declined=True)
        finally:
            self._asking.pop(event.request_id, None)
        self.session.submit(answer)


def _plan_status(todo: dict[str, Any]) -> Any:
    status = todo.get("status")
    return status if status in ("pending", "in_progress", "completed") else "pending"
