"""Session: one conversation, driven by ops, reporting events. Every front end uses it the same
way: `session.submit(op)` and `async for event in session.events()`.

The session owns the conversation (its SessionState: history, transcript, permission mode and
rules, model, totals, the read-file cache) and the parts that work on it: the job queue (one
job at a time, prompts sent meanwhile queued: job_queue.py), a prompt's turn (prompt_turn.py),
the conversation jobs (/compact, /clear, /resume, `!cmd`: conversation_jobs.py), what a turn
is given and what its events change (turn_inputs.py, turn_effects.py), the tool list, the
sub-agents and the turn's services. Ops are applied in order by one driver task: the op table
(handlers/) answers most of them through OpServices; a prompt, a command line, an interrupt and
shutdown are the driver's own. Everything but a job applies at once, even mid-turn.

The loop reports what a turn changed as events (ModeChanged, DenialRecorded, Usage...); the
session applies them (`apply`) and passes every event on. Nothing here imports the anthropic
SDK: the API client imports it on first use.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.agent.api_history import ApiHistory
from claude_harness.agent.loop import QueryParams
from claude_harness.api.client import ApiClient
from claude_harness.api.request_params import settings_from_sources
from claude_harness.commands.catalog import catalog_for
from claude_harness.hooks.config import HookConfig
from claude_harness.mcp.status import waiting_reason
from claude_harness.protocol import ops
from claude_harness.protocol.context import (
    AbortSignal,
    ShellState,
    SubAgentReport,
    SubAgentSpec,
    ToolUseContext,
)
from claude_harness.protocol.events import (
    AgentEvent,
    DirectoriesChanged,
    Notice,
    OpDone,
    RulesChanged,
    SessionClosed,
    SessionEvent,
)
from claude_harness.session.agent_spawner import AgentSpawner
from claude_harness.session.conversation_jobs import ConversationJobs
from claude_harness.session.handlers.registry import HANDLERS
from claude_harness.session.handlers.services import OpServices
from claude_harness.session.idle_watch import IdleWatch
from claude_harness.session.job_queue import WORKING, JobQueue
from claude_harness.session.prompt.listing import context_message
from claude_harness.session.prompt.path_rules import PathRules
from claude_harness.session.prompt.prompt_extras import Reminders
from claude_harness.session.prompt.turn_extras import TurnExtras, attribution_reminder
from claude_harness.session.prompt_turn import PromptTurn
from claude_harness.session.services.hook_callbacks import HookCallbacks
from claude_harness.session.services.hook_setup import build_hook_runner
from claude_harness.session.services.mcp_questions import FrontEndQuestions
from claude_harness.session.services.mcp_wiring import McpWiring
from claude_harness.session.services.prompter import Prompter
from claude_harness.session.services.request_controls import controls_event
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.started_event import started_event
from claude_harness.session.state import InState, SessionState
from claude_harness.session.store import transcript_notices
from claude_harness.session.store.result_journal import ResultJournal
from claude_harness.session.store.transcript import Transcript
from claude_harness.session.tool_list import ToolList
from claude_harness.session.turn_effects import TurnEffects
from claude_harness.session.turn_inputs import TurnInputs
from claude_harness.session.turn_services import TurnServices
from claude_harness.tools.tool_search import loaded_from_history

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.mcp.client import McpManager
    from claude_harness.protocol.context import FileStateCache
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.services.totals import Totals

__all__ = ["Session", "SessionConfig"]

SHUTDOWN_GRACE_SECONDS = 1.5  # an aborted turn's time to record what it stopped, at exit


class Session:
    # the conversation's state, shown as the session's own attributes
    model: InState[str] = InState()
    permission: InState[PermissionContext] = InState()
    request_settings: InState[RequestSettings] = InState()
    messages: InState[list[dict[str, Any]]] = InState()
    session_id: InState[str] = InState()
    transcript: InState[Transcript | None] = InState()
    totals: InState[Totals] = InState()
    read_file_state: InState[FileStateCache] = InState()
    reminders: InState[Reminders] = InState()

    def __init__(self, config: SessionConfig) -> None:
        config.tools = (*config.tools, *config.extra_tools)
        self.config = config
        self.api = ApiClient(config.api)
        self.shell = ShellState(config.cwd)
        transcript = (Transcript.create(self.history_roots[0], config.cwd, config.session_id,
                                        also=self.history_roots[1:]) if config.persist else None)
        messages = list(config.history)
        self.state = SessionState(
            model=config.model, permission=config.permission,
            request_settings=config.request_settings or settings_from_sources()[0],
            messages=messages, transcript=transcript,
            session_id=transcript.session_id if transcript else (config.session_id
                                                                 or "ephemeral"),
            # messages, and each tool result as its call ends, into the transcript
            journal=ResultJournal(transcript) if transcript is not None else None,
            loaded_deferred=loaded_from_history(messages),
            reminders=Reminders.for_history(messages, config.permission.mode))
        self.tool_list = ToolList(config, self.state)
        if transcript is not None:  # a disk that refuses it is shown, not fatal
            transcript.on_failure = lambda failure: self._emit_all(
                transcript_notices.failed(failure))
            transcript.on_recovered = lambda: self._emit_all(transcript_notices.recovered())
        self.prompter = Prompter(config.cwd, self.emit, self.rules_changed)
        self.hook_callbacks = HookCallbacks(self.emit)
        self.catalog = config.catalog if config.catalog is not None else catalog_for(config.cwd)
        self.path_rules = PathRules.load(config.cwd, tuple(config.memory_files))
        self.extras = TurnExtras()  # what waits for the next prompt: notices, hook context
        if config.attribution and not config.history:
            self.extras.add(attribution_reminder(config.attribution))
        self.agents = AgentSpawner(config, extras=self.extras, emit=self.emit,
                                   to_session=self._to_session, wake=self._wake)
        self.background = self.agents.background
        # the driver: created on first use, inside the event loop
        self._ops: asyncio.Queue[tuple[int, ops.Op]] | None = None
        self._out: asyncio.Queue[SessionEvent] | None = None
        self._driver: asyncio.Task[None] | None = None
        self._op_ids = 0
        self.jobs = JobQueue(self.emit, lambda op: self.turn.run(op), self.agents.report_waits)
        self.mcp_wiring = McpWiring(config.mcp, self.emit) if config.mcp is not None else None
        self.turn_services = TurnServices(  # checkpoints, questions, notes, status line
            config, self.state, emit=self.emit, jobs=self.jobs, catalog=self.catalog,
            shell=self.shell, mcp_wiring=self.mcp_wiring)
        self.elicitations = FrontEndQuestions(self.emit)  # MCP servers' questions to the user
        self._stop_mcp_listener: Callable[[], None] | None = None
        self.inputs = TurnInputs(
            config, self.state, self.api, ApiHistory(),
            [{"type": "text", "text": config.system_prompt, "cache_control": {"type": "ephemeral"}}],
            context_message(self.catalog, config.tools),  # fixed for the session
            self.shell, self.prompter, self.path_rules, self.turn_services, self.agents)
        self.effects = TurnEffects(self.state, self.path_rules, self.turn_services, self.emit)
        self.turn = PromptTurn(
            config, self.state, self.jobs, self.extras, self.turn_services, self.catalog,
            self.api, self.shell, self.background, self.mcp_wiring, self.emit, self.apply,
            self.params, self.inputs.context, self.freeze_tools)
        self.conversation_jobs = ConversationJobs(
            config, self.state, self.shell, self.api, self.path_rules, self.emit, self.apply,
            self.params, self.inputs.context)
        self.op_services = OpServices(self)  # what the op handlers see of the session
        self.idle_watch = IdleWatch(lambda: self.config.hooks, lambda: self.shell.cwd,
                                    self.jobs, self.extras, self.emit)

    # ── the two directions ──────────────────────────────────────────────────────────────────

    def submit(self, op: ops.Op) -> int:
        """Queue an op (applied in order by the driver); returns its id, echoed by OpDone."""
        self._ensure_started()
        assert self._ops is not None
        self._op_ids += 1
        self._ops.put_nowait((self._op_ids, op))
        return self._op_ids

    async def events(self) -> AsyncIterator[SessionEvent]:
        """Every event, in order, starting with SessionStarted; ends after SessionClosed."""
        self._ensure_started()
        assert self._out is not None
        while True:
            event = await self._out.get()
            yield event
            if isinstance(event, SessionClosed):
                return

    async def wait_closed(self) -> None:
        """After `Shutdown`: wait until servers, hooks and the transcript are closed."""
        if self._driver is not None:
            await asyncio.shield(self._driver)

    @property
    def pending_events(self) -> asyncio.Queue[SessionEvent] | None:
        """The events emitted and not yet read (None before the driver starts)."""
        return self._out

    # ── the driver ──────────────────────────────────────────────────────────────────────────

    def _ensure_started(self) -> None:
        if self._driver is None:
            self._ops, self._out = asyncio.Queue(), asyncio.Queue()
            self._driver = asyncio.create_task(self._drive(), name="session-driver")

    def emit(self, event: SessionEvent) -> None:
        """Send `event` to the front ends (and the turn services, which watch every one)."""
        assert self._out is not None
        self._out.put_nowait(event)
        self.turn_services.observe(event)

    def _emit_all(self, events: list[SessionEvent]) -> None:
        for event in events:
            self.emit(event)

    async def _drive(self) -> None:
        await self._start()
        assert self._ops is not None
        while True:
            op_id, op = await self._ops.get()
            if isinstance(op, ops.Shutdown):
                await self._shutdown(op.reason)
                return
            try:
                await self._dispatch(op)
            except Exception as exc:  # a bad op must not stop the session
                self.emit(Notice(f"Error: {type(exc).__name__}: {exc}", "error"))
            self.emit(OpDone(op_id))

    async def _dispatch(self, op: ops.Op) -> None:
        """The op table (session/handlers/), or one of the driver's own ops. A handler that
        must wait for hooks before its op is done (a model switch's PreModelSwitch) returns
        what to await."""
        handler = HANDLERS.get(type(op))
        if handler is not None:
            pending = handler(self.op_services, op)
            if inspect.isawaitable(pending):
                await pending
            return
        match op:
            case ops.UserPrompt():
                self.jobs.prompt(op)
            case ops.RunCommand(name=name, args=args):
                self.turn.run_command(name, args)
            case ops.Interrupt(reason=reason):
                self._interrupt(reason)
            case _:
                pass  # an op this session does not know: ignored

    def _interrupt(self, reason: str = "") -> None:
        """Stop the job; queued prompts come back to the front end to edit or resend. With a
        `reason` (a signal), no turn starts afterwards either."""
        self.jobs.interrupt(reason)
        self.turn_services.interrupted()
        self.elicitations.cancel_all()  # no server call waits on a form after an interrupt
        self.jobs.return_queued()

    @property
    def running(self) -> bool:
        return self.jobs.running

    # ── start ───────────────────────────────────────────────────────────────────────────────

    async def _start(self) -> None:
        if self.config.setup_trigger is not None:
            await self._setup_hooks(self.config.setup_trigger)
        if self.config.tools_before_start:
            await self.freeze_tools()  # MCP servers connect before the tool list is shown
        elif self.config.mcp is not None:
            self.config.mcp.start()  # they connect while the user types
        mcp = self.config.mcp
        self.emit(started_event(self.config, self.state, self.api.settings, self.catalog,
                                self.turn_services.output_style))
        self.rules_changed()
        if self.transcript is not None:
            self._emit_all(transcript_notices.at_start(self.transcript))
        if self.config.tools_before_start and mcp is not None:  # -p: nobody to ask, so say why
            for server in mcp.pending_approvals():
                self.emit(Notice(waiting_reason(server, None) or server.name, "warning"))
        self._start_extras()
        self.idle_watch.start()

    async def _setup_hooks(self, trigger: str) -> None:
        """`--init` / `--maintenance`: Setup hooks, before anything else; what they print
        goes to the model with the first prompt."""
        if self.config.hooks is None:
            return
        outcome = await self.config.hooks.run("Setup", {"trigger": trigger,
                                                        "cwd": str(self.config.cwd)})
        for event in self.extras.from_hook(outcome):
            self.emit(event)

    def _start_extras(self) -> None:
        """After SessionStarted: effort and thinking, extra directories, and the MCP wiring
        (questions to the user, prompts as commands, tools added later)."""
        self.emit_controls()
        if self.permission.additional_dirs:
            self.emit(DirectoriesChanged(tuple(str(d) for d in
                                               self.permission.additional_dirs)))
        mcp = self.config.mcp
        if mcp is None:
            return
        if self.permission.interactive:  # a person at a front end answers (-p: cancelled)
            mcp.elicitation.front_end = self.elicitations
        self._stop_mcp_listener = mcp.add_listener(self._mcp_changed)
        self._mcp_changed(mcp)

    def _mcp_changed(self, _manager: McpManager) -> None:
        """A server connected, failed or changed its lists."""
        assert self.mcp_wiring is not None
        prompts = self.mcp_wiring.prompts_event()
        if prompts is not None:
            self.emit(prompts)
        if self.permission.interactive:  # for the `@` popup; -p leaves @server:uri as text
            self.mcp_wiring.resources_changed()
        self.tool_list.add_later_tools(self.mcp_wiring)

    async def freeze_tools(self) -> None:
        """Fix the tool set for the whole session before the first request (tool_list.py)."""
        await self.tool_list.freeze()

    # ── what a turn is given, and what its events change ────────────────────────────────────

    @property
    def compact_threshold(self) -> int | None:
        """Context tokens past which the history is compacted (None: never automatically)."""
        return self.inputs.compact_threshold(self.model)

    def params(self, model: str | None = None) -> QueryParams:
        """The request parameters; `model` for this turn only (a command's `model`)."""
        return self.inputs.params(model)

    def tool_context(self) -> ToolUseContext:
        """A context for work beside the conversation (an `agent` hook's sub-agent)."""
        return self.inputs.context(AbortSignal())

    async def run_agent(self, spec: SubAgentSpec, parent: ToolUseContext) -> SubAgentReport:
        """Run a sub-agent to its end without showing its steps (an `agent` hook's)."""
        return await self.agents.run_quietly(spec, parent)

    def _to_session(self, event: AgentEvent) -> None:
        self.apply(event)
        self.emit(event)

    def _wake(self) -> None:
        """A background agent's report waits: a turn of its own, when nothing runs."""
        if not self.running and self.agents.report_waits():
            self.jobs.start(lambda: self.turn.run(ops.UserPrompt(())), WORKING)

    def apply(self, event: AgentEvent) -> None:
        """What a turn's event changes in the session (it is passed on as it is)."""
        self.effects.apply(event)

    # ── state ───────────────────────────────────────────────────────────────────────────────

    @property
    def mode(self) -> str:
        return self.permission.mode

    def rules_changed(self) -> None:
        self.emit(RulesChanged(self.prompter.describe_rules(self.permission.rules)))

    def emit_totals(self) -> None:
        self.emit(self.totals.event(self.model))

    def emit_controls(self) -> None:
        self.emit(controls_event(self.model, self.request_settings))

    def hook_runner(self) -> HookRunner:
        """The hook runner a program's hooks join (made, with no command hooks, if none)."""
        hooks = self.config.hooks
        if hooks is None:
            hooks = build_hook_runner(HookConfig.empty(), self, always=True,
                                      context=self.tool_context, run_agent=self.run_agent)
            assert hooks is not None  # always: a runner even with no hooks configured
            self.config.hooks = hooks
        return hooks

    @property
    def history_roots(self) -> list[Path]:
        """Where this session's transcript is written, then the other roots it resumes from."""
        return self.config.history_roots

    @property
    def transcript_path(self) -> str:
        return self.state.transcript_path

    # ── the end ─────────────────────────────────────────────────────────────────────────────

    async def _shutdown(self, reason: str) -> None:
        await self.idle_watch.stop()
        self.prompter.cancel_all()
        self.hook_callbacks.cancel_all()
        self.elicitations.cancel_all()
        if self._stop_mcp_listener is not None:
            self._stop_mcp_listener()
        if self.mcp_wiring is not None:
            await self.mcp_wiring.close()
        await self.jobs.stop(SHUTDOWN_GRACE_SECONDS)  # a turn may record what it stopped
        await self.background.stop_all()
        try:
            if self.config.mcp is not None:
                await self.config.mcp.close()
            if self.config.hooks is not None and self.state.session_started:
                await self.config.hooks.run("SessionEnd", {"reason": reason,
                                                           "cwd": str(self.shell.cwd)})
        finally:
            await self.turn_services.close()
            if self.transcript is not None:
                self.transcript.close()
            await self.api.close()
            self.emit(SessionClosed(reason))
