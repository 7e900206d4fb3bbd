"""Session: one conversation, driven by ops, reporting events. Every front end uses it the same
way: `session.submit(op)` and `async for event in session.events()`.

The session owns the conversation: history, transcript, permission mode and rules (with the
ones added during the session), model, totals, denials, the read-file cache, the abort signal,
the prompt queue and `!cmd` output waiting for the next prompt. Ops are applied in order by one
driver task. Those that run for a while (a prompt's turn, /compact, `!cmd`) are jobs, run one at
a time as tasks; a prompt sent while a job runs waits in the queue and goes out with the
others when the job ends (a later "steering" step can inject it between tool batches instead:
`_take_queued` is the one place to ask). Everything else (interrupt, a permission answer, a
mode or model switch, rules) applies at once, even mid-turn.

The loop reports what a turn changed as events (ModeChanged, DenialRecorded, Usage...); the
session applies them (`_apply`) and passes every event on. Nothing here imports the anthropic
SDK: the API client imports it on first use.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from claude_harness.agent.api_history import ApiHistory
from claude_harness.agent.loop import QueryParams, query, run_compaction
from claude_harness.agent.messages import user_text
from claude_harness.agent.side_query import side_query
from claude_harness.agent.subagent import run_subagent
from claude_harness.api.client import ApiClient, ApiSettings
from claude_harness.api.models import resolve_alias
from claude_harness.api.pricing import context_window_for
from claude_harness.api.request_params import RequestSettings, settings_from_sources
from claude_harness.commands.catalog import catalog_for
from claude_harness.hooks.config import HookConfig
from claude_harness.mcp.prompts import McpPromptCommand
from claude_harness.mcp.status import waiting_reason
from claude_harness.permissions.rules import allow_rules
from claude_harness.protocol import ops
from claude_harness.protocol.context import (
    AbortSignal,
    BackgroundAgent,
    ContentReplacementState,
    FileStateCache,
    ShellState,
    SubAgentSpec,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.protocol.events import (
    AgentEvent,
    AssistantMessage,
    Busy,
    Compaction,
    DeferredToolsLoaded,
    DenialRecorded,
    DirectoriesChanged,
    HistoryReplaced,
    HookRan,
    ModeChanged,
    Notice,
    OpDone,
    PromptsReturned,
    QueueChanged,
    RulesChanged,
    SessionClosed,
    SessionEvent,
    SessionStarted,
    ShellRan,
    SideUsage,
    TodosChanged,
    ToolResultEvent,
    TurnEnd,
    Usage,
    UserMessage,
)
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.protocol.tool import Tool
from claude_harness.session import transcript_notices
from claude_harness.session.agents import BackgroundAgents, child_setup
from claude_harness.session.command_prompt import AsIs, CommandPreparation, typed_command
from claude_harness.session.config_report import unsupported_settings
from claude_harness.session.daily import TurnServices
from claude_harness.session.describe import report
from claude_harness.session.handlers.registry import HANDLERS
from claude_harness.session.handlers.services import OpServices
from claude_harness.session.hook_callbacks import HookCallbacks
from claude_harness.session.hook_setup import build_hook_runner
from claude_harness.session.listing import context_message
from claude_harness.session.mcp_questions import FrontEndQuestions
from claude_harness.session.mcp_wiring import McpWiring
from claude_harness.session.path_rules import PathRules
from claude_harness.session.prompt_extras import Reminders, prompt_hooks
from claude_harness.session.prompter import Prompter
from claude_harness.session.request_controls import controls_event
from claude_harness.session.result_journal import ResultJournal
from claude_harness.session.totals import Totals
from claude_harness.session.transcript import Transcript, find_session, load_messages
from claude_harness.session.turn_extras import TurnExtras, attribution_reminder
from claude_harness.shell_escape import run_shell_escape
from claude_harness.tools.registry import assemble_tool_pool
from claude_harness.tools.todo_write.state import clear_todos
from claude_harness.tools.tool_search import loaded_from_history

AUTO_COMPACT_FRACTION = 0.85
SHUTDOWN_GRACE_SECONDS = 1.5  # an aborted turn's time to record what it stopped, at exit


@dataclass
class SessionConfig:
    cwd: Path
    model: str
    permission: PermissionContext
    tools: tuple[Tool, ...]
    system_prompt: str
    api: ApiSettings
    data_dir: Path
    transcripts: Path | None = None  # root of projects/<key>/<id>.jsonl; None: data_dir
    max_turns: int | None = None
    max_tokens: int | None = None  # None: the model table's default
    session_id: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    hooks: Any = None
    persist: bool = True
    debug: bool = False
    verbose: bool = False
    auto_compact: bool = True
    tool_filter: tuple[str, ...] | None = None  # --tools: the built-ins to keep
    compact_threshold_tokens: int | None = None  # default: 85 % of the model's window
    tools_before_start: bool = False  # -p: MCP tools join before SessionStarted lists them
    memory_files: tuple[Path, ...] = ()
    mcp: Any = None  # an McpManager when servers are configured (set by bootstrap)
    request_settings: RequestSettings | None = None  # effort, thinking; None: from the env
    max_budget_usd: float | None = None  # the session ends its turn once it has cost this
    fallback_model: str | None = None  # taken for a turn when the model stays overloaded
    file_checkpointing: bool = True  # fileCheckpointingEnabled: copies for /rewind
    model_policy: Any = None  # session.model_policy.ModelPolicy: availableModels for /model
    stream_events: bool = False  # report the API's raw stream events (StreamEvent)
    extra_tools: tuple[Tool, ...] = ()  # offered beside the pool (StructuredOutput)

    catalog: Any = None  # commands, skills, agents, plugins (commands/catalog.py); None: cwd's
    trusted: bool = False  # a trusted folder: project agents may set their mode, rules, hooks
    output_style: str = "default"
    wait_for_background: bool = False  # -p: a prompt's turn ends after its background agents
    setup_trigger: str | None = None  # --init / --maintenance: Setup hooks run at start
    compact_fraction: float | None = None  # autoCompactThreshold: share of the window
    attribution: str | None = None  # the line commits end with (settings `attribution`)
    load_report: Any = None  # config/load_report.LoadReport of this start: /doctor shows it
    status_line: Any = None  # a statusline.StatusLineConfig (settings' `statusLine`), or None


Job = Callable[[], Awaitable[None]]


class Session:
    def __init__(self, config: SessionConfig) -> None:
        config.tools = (*config.tools, *config.extra_tools)
        self.config = config
        self.model = config.model
        self.messages: list[dict[str, Any]] = list(config.history)
        self.permission = config.permission
        self.totals = Totals()
        self.request_settings = config.request_settings or settings_from_sources()[0]
        self.api = ApiClient(config.api)
        self.read_file_state = FileStateCache()
        self.content_replacement = ContentReplacementState()
        self.api_history = ApiHistory()  # the history in API form, kept from turn to turn
        self.shell = ShellState(config.cwd)
        self.transcript: Transcript | None = None
        if config.persist:
            self.transcript = Transcript.create(self.history_roots[0], config.cwd,
                                                config.session_id, also=self.history_roots[1:])
        self.session_id = (
            self.transcript.session_id if self.transcript else (config.session_id or "ephemeral")
        )
        # messages, and each tool result as its call ends, into the transcript
        self.journal = ResultJournal(self.transcript) if self.transcript is not None else None
        if self.transcript is not None:  # a disk that refuses it is shown, not fatal
            self.transcript.on_failure = lambda failure: self._emit_all(
                transcript_notices.failed(failure))
            self.transcript.on_recovered = lambda: self._emit_all(transcript_notices.recovered())
        self._tool_schemas = _schemas(config.tools)
        self._tools_frozen = False
        self._system = [{"type": "text", "text": config.system_prompt,
                         "cache_control": {"type": "ephemeral"}}]
        self._session_started = False
        self.loaded_deferred = loaded_from_history(self.messages)
        self.reminders = Reminders.for_history(self.messages, self.mode)
        self.prompter = Prompter(config.cwd, self._emit, self._rules_changed)
        self.hook_callbacks = HookCallbacks(self._emit)
        self.catalog = config.catalog if config.catalog is not None else catalog_for(config.cwd)
        self.path_rules = PathRules.load(config.cwd, tuple(config.memory_files))
        self.background = BackgroundAgents(self._run_background, self._background_done)
        self.extras = TurnExtras()  # what waits for the next prompt: notices, hook context
        if config.attribution and not config.history:
            self.extras.add(attribution_reminder(config.attribution))
        self._restart_source: str | None = None  # SessionStart after /clear or a compaction
        self._listing = context_message(self.catalog, config.tools)  # fixed for the session
        # the driver: created on first use, inside the event loop
        self._ops: asyncio.Queue[tuple[int, ops.Op]] | None = None
        self._out: asyncio.Queue[SessionEvent] | None = None
        self._driver: asyncio.Task[None] | None = None
        self._op_ids = 0
        self._job: asyncio.Task[None] | None = None
        self._abort: AbortSignal | None = None
        self._queued: list[ops.UserPrompt] = []
        self._shell_output: list[str] = []  # `!cmd` output for the next prompt
        self._stopped = ""  # why no turn may start any more (a signal), once interrupted so
        self.turn_services = TurnServices(self)  # checkpoints, questions, notes, steering, status line
        self.op_services = OpServices(self)  # what the op handlers see of the session
        self.elicitations = FrontEndQuestions(self._emit)  # MCP servers' questions to the user
        self.mcp_wiring = McpWiring(config.mcp, self._emit) if config.mcp is not None else None
        self._stop_mcp_listener: Callable[[], None] | None = None
        self._tool_list_fixed = False  # the first request's tool list is built

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

    # ── the driver ──────────────────────────────────────────────────────────────────────────

    def _ensure_started(self) -> None:
        if self._driver is None:
            self._ops, self._out = asyncio.Queue(), asyncio.Queue()
            self._driver = asyncio.create_task(self._drive(), name="session-driver")

    def _emit(self, event: SessionEvent) -> None:
        assert self._out is not None
        self._out.put_nowait(event)
        self.turn_services.observe(event)

    def _emit_all(self, events: list[SessionEvent]) -> None:
        for event in events:
            self._emit(event)

    async def _drive(self) -> None:
        await self._start()
        assert self._ops is not None
        while True:
            op_id, op = await self._ops.get()
            if isinstance(op, ops.Shutdown):
                await self._shutdown(op.reason)
                return
            try:
                self._dispatch(op)
            except Exception as exc:  # a bad op must not stop the session
                self._emit(Notice(f"Error: {type(exc).__name__}: {exc}", "error"))
            self._emit(OpDone(op_id))

    async def _start(self) -> None:
        if self.config.setup_trigger is not None:
            await self._setup_hooks(self.config.setup_trigger)
        if self.config.tools_before_start:
            await self.freeze_tools()  # MCP servers connect before the tool list is shown
        elif self.config.mcp is not None:
            self.config.mcp.start()  # they connect while the user types
        mcp = self.config.mcp
        settings = self.api.settings
        self._emit(SessionStarted(
            session_id=self.session_id, cwd=str(self.config.cwd), model=self.model,
            mode=self.mode, tools=tuple(t.name for t in self.config.tools),
            transcript_path=self.transcript_path, api_base_url=settings.base_url or "",
            has_credentials=settings.has_credentials,
            api_key_source="ANTHROPIC_API_KEY" if settings.api_key else "none",
            bypass_available=self.permission.bypass_available,
            memory_files=tuple(str(p) for p in self.config.memory_files),
            mcp_servers=tuple(mcp.init_info()) if mcp is not None else (),
            mcp_pending_approval=tuple(c.name for c in mcp.pending_approvals()) if mcp else (),
            history=tuple(self.messages), **self._init_fields(),
            unsupported_settings=unsupported_settings(self.config.load_report)))
        self._emit(RulesChanged(self._rule_listing()))
        if self.transcript is not None:
            self._emit_all(transcript_notices.at_start(self.transcript))

        if self.config.tools_before_start and mcp is not None:  # -p: nobody to ask, so say why
            for server in mcp.pending_approvals():
                self._emit(Notice(waiting_reason(server, None) or server.name, "warning"))
        self._start_extras()

    def _init_fields(self) -> dict[str, Any]:
        """system/init's configuration lists, as Claude Code lists them."""
        fields = self.catalog.init_fields()
        return {"agents": tuple(fields["agents"]), "slash_commands": tuple(fields["slash_commands"]),
                "skills": tuple(fields["skills"]), "plugins": tuple(fields["plugins"]),
                "output_style": self.turn_services.output_style}

    async def _setup_hooks(self, trigger: str) -> None:
        """`--init` / `--maintenance`: Setup hooks, before anything else; what they print
        goes to the model with the first prompt."""
        if self.config.hooks is None:
            return
        outcome = await self.config.hooks.run("Setup", {"trigger": trigger,
                                                        "cwd": str(self.config.cwd)})
        for event in self.extras.from_hook(outcome):
            self._emit(event)

    def _dispatch(self, op: ops.Op) -> None:
        """The op table (session/handlers/), or one of the driver's own ops."""
        handler = HANDLERS.get(type(op))
        if handler is not None:
            handler(self.op_services, op)
            return
        match op:
            case ops.UserPrompt():
                self._prompt(op)
            case ops.RunCommand(name=name, args=args):
                self._run_command(name, args)
            case ops.Interrupt(reason=reason):
                self._interrupt(reason)
            case ops.Describe(topic=topic):
                self._emit(report(topic, self))
            case _:
                pass  # an op this session does not know: ignored

    # ── jobs: one at a time ─────────────────────────────────────────────────────────────────

    @property
    def running(self) -> bool:
        return self._job is not None and not self._job.done()

    def _start_job(self, job: Job, label: str, what: str = "") -> bool:
        if self.running:
            self._emit(Notice(f"Wait for the current job to finish (or Esc) before {what}.",
                              "warning"))
            return False
        self._emit(Busy(True, label))
        self._job = asyncio.create_task(self._run_job(job), name=f"session-{label}")
        return True

    async def _run_job(self, job: Job) -> None:
        try:
            await job()
        except asyncio.CancelledError:
            pass
        except Exception as exc:  # a bug or an API failure the loop did not turn into TurnEnd
            self._emit(Notice(f"Error: {type(exc).__name__}: {exc}", "error"))
            self._emit(TurnEnd("error", 0, f"{type(exc).__name__}: {exc}"))
        queued = self._take_queued()
        if queued is None and self._notification_waits():
            queued = ops.UserPrompt(())  # a background agent ended during the job
        if queued is not None:
            self._job = asyncio.create_task(self._run_job(lambda: self._turn(queued)))
            return
        self._job = None
        self._emit(Busy(False))

    def _prompt(self, op: ops.UserPrompt) -> None:
        if self.running:
            self._queued.append(op)
            self._emit(QueueChanged(tuple(_prompt_text(p) for p in self._queued)))
            return
        self._start_job(lambda: self._turn(op), "Working")

    def _take_queued(self) -> ops.UserPrompt | None:
        """Prompts sent during the last job, as one prompt (the texts joined)."""
        if not self._queued:
            return None
        queued, self._queued = self._queued, []
        self._emit(QueueChanged(()))
        if len(queued) == 1:
            return queued[0]
        return ops.UserPrompt("\n\n".join(_prompt_text(p) for p in queued))

    def _interrupt(self, reason: str = "") -> None:
        """Stop the job; queued prompts come back to the front end to edit or resend. With a
        `reason` (a signal), no turn starts afterwards either."""
        if reason:
            self._stopped = reason
        if self._abort is not None:
            self._abort.abort(reason or "interrupted by user")
        elif self.running and self._job is not None:
            self._job.cancel()  # a compaction or `!cmd`
        self.turn_services.interrupted()
        self.elicitations.cancel_all()  # no server call waits on a form after an interrupt
        if self._queued:
            texts = tuple(_prompt_text(p) for p in self._queued)
            self._queued = []
            self._emit(QueueChanged(()))
            self._emit(PromptsReturned(texts))

    # ── a prompt's turn ─────────────────────────────────────────────────────────────────────

    async def _turn(self, op: ops.UserPrompt) -> None:
        async for event in self._turn_events(op):
            self._apply(event)
            if isinstance(event, UserMessage) and self.transcript is not None:
                event = replace(event, uuid=self.transcript.last_uuid or "")
            self._emit(event)

    async def _turn_events(self, op: ops.UserPrompt) -> AsyncIterator[AgentEvent]:
        """Run one user prompt to the end of the model's turn, yielding every event."""
        if self._stopped:  # the front end is exiting (a signal): nothing new starts
            yield TurnEnd("aborted", 0, self._stopped)
            return
        abort = AbortSignal()
        self._abort = abort
        saved = self.permission
        allowed_tools: tuple[str, ...] = op.allowed_tools
        try:
            preparation = self._command_preparation(op, abort)
            async for event in preparation.run():
                yield event
            prepared = preparation.result
            if prepared.refusal is not None:  # a typed command that must not run
                yield Notice(prepared.refusal, "error")
                yield TurnEnd("end_turn", 0)
                return
            content = prepared.content
            if isinstance(preparation, AsIs):  # a command attaches its own @paths
                content, problems = await self.turn_services.attach_mentions(op.content, content,
                                                                     self._context(abort))
                for notice in problems:
                    yield notice
            allowed_tools = (*allowed_tools, *prepared.allowed_tools)
            if allowed_tools:
                self.permission = replace(saved, rules=(*saved.rules,
                                                        *allow_rules(allowed_tools)))
            for event in self.extras.collect_async(self.config.hooks):
                yield event
            waiting = [*self.extras.take(), *self._shell_output]
            self._shell_output = []
            content = [*({"type": "text", "text": c} for c in waiting), *content]
            extra, hook_events = await prompt_hooks(
                self.config.hooks, _prompt_text(op), self.shell.cwd,
                session_start=self._session_start(), memory_files=self.config.memory_files)
            for event in hook_events:
                yield event
            if extra is None:
                yield Notice("The prompt was blocked by a UserPromptSubmit hook.", "warning")
                yield TurnEnd("hook_stopped", 0)
                return
            await self.freeze_tools()
            reminders = self.reminders.blocks(self.config.tools, self.mode)
            message = {"role": "user", "content": [*content, *extra, *reminders]}
            self.messages.append(message)
            yield UserMessage(message)
            for note in self.turn_services.prompt_sent(_prompt_text(op)):
                yield note
            async for event in self._answer(self._params(prepared.model), abort):
                yield event
        finally:
            self._abort = None
            if allowed_tools:  # keep a mode change made during the turn, drop the turn's rules
                self.permission = replace(saved, mode=self.permission.mode)
            if self.transcript is not None:
                self.transcript.sync()

    def _command_preparation(self, op: ops.UserPrompt, abort: AbortSignal) -> Any:
        """A typed `/name args` of the catalog becomes the command's message (see
        command_prompt.py); any other prompt is sent as it is."""
        typed = typed_command(self.catalog, op.content) if isinstance(op.content, str) else None
        if typed is None:
            return AsIs(list(op.content) if isinstance(op.content, tuple)
                        else user_text(op.content)["content"])
        return CommandPreparation(*typed, self._context(abort), session_id=self.session_id,
                                  trusted=self.config.trusted)

    async def _answer(self, params: QueryParams, abort: AbortSignal) -> AsyncIterator[AgentEvent]:
        """The model's turn; in `-p`, also the turns that hand it the reports of background
        agents it started (the prompt's turn ends when they have all been told)."""
        while True:
            end: TurnEnd | None = None
            async for event in query(self.messages, params, self._context(abort), self.api):
                if isinstance(event, TurnEnd):
                    if event.reason == "aborted" and self._stopped:  # a signal stopped it
                        event = replace(event, error=event.error or self._stopped)
                    end = event
                    continue
                yield event
            for event in self.extras.collect_async(self.config.hooks):
                yield event
            if not (self.config.wait_for_background and end is not None
                    and end.reason in ("end_turn", "stop_sequence")
                    and (self.background.running or self.extras.pending)):
                break
            await self.extras.wait(self.background, abort)
            if abort.aborted or not self.extras.pending:
                break
            message = {"role": "user", "content": [{"type": "text", "text": t}
                                                   for t in self.extras.take()]}
            self.messages.append(message)
            yield UserMessage(message)
        if end is not None:
            yield end

    def _run_command(self, name: str, args: str) -> None:
        prompt = self.mcp_wiring.find_prompt(name) if self.mcp_wiring is not None else None
        if prompt is not None:
            self._start_job(lambda: self._mcp_prompt_turn(prompt, args), "Working", f"/{name}")
            return
        line = f"/{name} {args}".rstrip()
        if self.catalog.find_command(name) is None:
            self._emit(Notice(f"Unknown command /{name}. Type /help for the list.", "error"))
            return
        if self.running:
            self._emit(Notice(f"Wait for the current job to finish (or Esc) before /{name}.",
                              "warning"))
            return
        self._prompt(ops.UserPrompt(line))

    async def _mcp_prompt_turn(self, prompt: McpPromptCommand, args: str) -> None:
        """`/mcp__server__prompt args`: the server renders the prompt; it goes out as the
        user's message."""
        assert self.mcp_wiring is not None
        blocks = await self.mcp_wiring.render_prompt(prompt, args)
        if blocks is not None:
            await self._turn(ops.UserPrompt(blocks))

    @property
    def compact_threshold(self) -> int | None:
        """Context tokens past which the history is compacted (None: never automatically)."""
        return self._compact_threshold(self.model)

    def _compact_threshold(self, model: str) -> int | None:
        if not self.config.auto_compact:
            return None
        fraction = self.config.compact_fraction or AUTO_COMPACT_FRACTION
        return (self.config.compact_threshold_tokens
                or int(context_window_for(model) * fraction))

    def _params(self, model: str | None = None) -> QueryParams:
        """The request parameters; `model` for this turn only (a command's `model`)."""
        model = resolve_alias(model) if model else self.model
        budget = self.config.max_budget_usd
        return QueryParams(model, self._system, self._tool_schemas,
                           max_tokens=self.config.max_tokens, max_turns=self.config.max_turns,
                           compact_threshold=self._compact_threshold(model),
                           context_tokens=self.totals.last_context_tokens,
                           settings=self.request_settings,
                           stream_events=self.config.stream_events,
                           budget_usd=None if budget is None else budget - self.totals.cost_usd,
                           fallback_model=self.config.fallback_model,
                           api_history=self.api_history, context_message=self._listing,
                           between_batches=self.turn_services.between_batches)

    def _context(self, abort: AbortSignal) -> ToolUseContext:
        session_dir = (self.transcript.path.parent / self.session_id) if self.transcript else None
        return ToolUseContext(
            options=ToolUseOptions(tools=self.config.tools, model=self.model,
                                   debug=self.config.debug, verbose=self.config.verbose,
                                   session_dir=session_dir, api=self.api,
                                   max_tokens=self.config.max_tokens,
                                   request_settings=self.request_settings,
                                   loaded_deferred=self.loaded_deferred),
            permission=self.permission,
            abort=abort,
            messages=tuple(self.messages),  # the auto-mode classifier reads the user's words
            read_file_state=self.read_file_state,
            content_replacement=self.content_replacement,
            shell=self.shell,
            hooks=self.config.hooks,
            rendered_system_prompt=self.config.system_prompt,
            session_id=self.session_id,
            transcript_path=self.transcript_path,
            prompter=self.prompter,
            spawn_agent=self._spawn_agent,
            side_query=partial(side_query, self.api),
            debug_log=(session_dir / "debug.log") if (self.config.debug and session_dir) else None,
            file_reminders=self.path_rules.for_files if self.path_rules is not None else None,
            spawn_background=self._spawn_background,
            checkpoints=self.turn_services.checkpoints.service,
            questions=self.turn_services.questions,
        )

    async def _spawn_agent(self, spec: SubAgentSpec, parent: ToolUseContext,
                           progress: Callable[[Any], None]) -> Any:
        """The Agent tool's spawner: the child's prompts and denials reach this session."""
        setup, notes = child_setup(spec, parent, trusted=self.config.trusted)
        for note in notes:
            self._to_session(Notice(note, "warning"))
        return await run_subagent(spec, parent, progress, to_session=self._to_session,
                                  setup=setup)

    def tool_context(self) -> ToolUseContext:
        """A context for work beside the conversation (an `agent` hook's sub-agent)."""
        return self._context(AbortSignal())

    async def run_agent(self, spec: SubAgentSpec, parent: ToolUseContext) -> Any:
        """Run a sub-agent to its end without showing its steps (an `agent` hook's)."""
        return await self._spawn_agent(spec, parent, lambda _step: None)

    def _to_session(self, event: AgentEvent) -> None:
        self._apply(event)
        self._emit(event)

    def _spawn_background(self, spec: SubAgentSpec, parent: ToolUseContext) -> BackgroundAgent:
        setup, notes = child_setup(spec, parent, trusted=self.config.trusted, background=True)
        for note in notes:
            self._to_session(Notice(note, "warning"))
        return self.background.start(spec, parent, setup)

    async def _run_background(self, spec: SubAgentSpec, parent: ToolUseContext, setup: Any,
                              agent_id: str) -> Any:
        return await run_subagent(spec, parent, lambda _step: None,
                                  to_session=self._to_session, setup=setup, agent_id=agent_id)

    def _background_done(self, summary: str, notification: str) -> None:
        """A background agent ended: the model hears of it at the next turn, or now, in a
        turn of its own, when nothing runs (in -p the running turn waits for it)."""
        self._emit(Notice(f"{summary} (in the background); its report goes to the model."))
        self.extras.add(notification, wake=True)
        if not self.running and self._notification_waits():
            self._start_job(lambda: self._turn(ops.UserPrompt(())), "Working")

    def _notification_waits(self) -> bool:
        """A background agent's report waits and no prompt will carry it soon (in -p the
        running turn takes it before it ends)."""
        return self.extras.wakes and not self.config.wait_for_background

    def _apply(self, event: AgentEvent) -> None:
        """What a turn's event changes in the session (it is passed on as it is)."""
        if self.journal is not None:
            self.journal.record(event)
        self.turn_services.applied(event)
        match event:
            case AssistantMessage() | UserMessage():
                pass  # written by the journal
            case Compaction():  # its SessionStart (source compact) ran in the loop
                if self.path_rules is not None:
                    self.path_rules.forget()
                if self.transcript is not None:
                    self.transcript.append_system("compact_boundary", compactMetadata={
                        "trigger": event.trigger, "preTokens": event.pre_tokens})
                    for message in event.messages:
                        self.transcript.append_message(message)
                self.totals.last_context_tokens = 0
                self._emit_totals()
            case Usage() | SideUsage():  # side requests cost, but hold no context
                self.totals.add(event)
                self._emit_totals()
            case ModeChanged(mode=mode):  # EnterPlanMode, an approved plan
                self.permission = replace(self.permission, mode=mode)  # type: ignore[arg-type]
                self.reminders.announced_mode = mode  # the tool result told the model
            case DeferredToolsLoaded(names=names):
                self.loaded_deferred = names
            case ToolResultEvent(name="TodoWrite", data=dict() as data):
                self._emit(TodosChanged(tuple(data.get("todos") or ())))
            case DenialRecorded() | HookRan():
                pass  # reported as they are

    # ── the other jobs ──────────────────────────────────────────────────────────────────────

    async def _compact(self, instructions: str) -> None:
        """/compact [instructions]: summarise the conversation now."""
        if not self.messages:
            self._emit(Notice("Nothing to compact yet."))
            return
        async for event in run_compaction(self.messages, self._params(),
                                          self._context(AbortSignal()), self.api, "manual",
                                          instructions, self.totals.last_context_tokens):
            self._apply(event)
            self._emit(event)

    async def _clear(self) -> None:
        """A fresh conversation: history, read-file cache, result budget, `!cmd` output."""
        self.messages.clear()
        self.read_file_state = FileStateCache()  # re-read before editing in the new conversation
        self.content_replacement = ContentReplacementState()
        self._shell_output = []
        self.reminders = Reminders()
        self._restart_source = "clear"
        if self.path_rules is not None:
            self.path_rules.forget()
        clear_todos()
        self.totals.last_context_tokens = 0
        self._emit(HistoryReplaced("clear"))
        self._emit(TodosChanged(()))
        self._emit_totals()

    async def _resume(self, wanted: str) -> None:
        """Continue an earlier conversation of this project: its messages become the history."""
        path = find_session(self.history_roots, self.config.cwd, wanted)
        if path is None:
            self._emit(Notice(f"No session {wanted!r}.", "error"))
            return
        self.messages[:] = load_messages(path)
        self.loaded_deferred = loaded_from_history(self.messages)
        self._emit(HistoryReplaced("resume", tuple(self.messages), path.stem))

    async def _shell(self, command: str) -> None:
        """`!cmd`: run it now in the session's cwd; its output goes into the next prompt."""
        try:
            result = await run_shell_escape(command, self.shell.cwd)
        except asyncio.CancelledError:
            self._emit(Notice(f"Stopped !{command}", "warning"))
            raise
        self._emit(ShellRan(command, result.display(), tuple(result.display_lines()),
                            result.returncode, result.failed))
        self._shell_output.append(result.context_text())

    # ── state ops ───────────────────────────────────────────────────────────────────────────

    @property
    def mode(self) -> str:
        return self.permission.mode

    def _rule_listing(self) -> tuple[tuple[str, str, str], ...]:
        return self.prompter.describe_rules(self.permission.rules)

    def _rules_changed(self) -> None:
        self._emit(RulesChanged(self._rule_listing()))

    def hook_runner(self) -> Any:
        """The hook runner a program's hooks join (made, with no command hooks, if none)."""
        if self.config.hooks is None:
            self.config.hooks = build_hook_runner(HookConfig.empty(), self, always=True,
                                                  context=self.tool_context,
                                                  run_agent=self.run_agent)
        return self.config.hooks

    def _emit_totals(self) -> None:
        self._emit(self.totals.event(self.model))

    def _emit_controls(self) -> None:
        self._emit(controls_event(self.model, self.request_settings))

    def _start_extras(self) -> None:
        """After SessionStarted: effort and thinking, extra directories, and the MCP wiring
        (questions to the user, prompts as commands, tools added later)."""
        self._emit_controls()
        if self.permission.additional_dirs:
            self._emit(DirectoriesChanged(tuple(str(d) for d in
                                                self.permission.additional_dirs)))
        mcp = self.config.mcp
        if mcp is None:
            return
        if self.permission.interactive:  # a person at a front end answers (-p: cancelled)
            mcp.elicitation.front_end = self.elicitations
        self._stop_mcp_listener = mcp.add_listener(self._mcp_changed)
        self._mcp_changed(mcp)

    def _mcp_changed(self, _manager: Any) -> None:
        """A server connected, failed or changed its lists."""
        assert self.mcp_wiring is not None
        prompts = self.mcp_wiring.prompts_event()
        if prompts is not None:
            self._emit(prompts)
        if self.permission.interactive:  # for the `@` popup; -p leaves @server:uri as text
            self.mcp_wiring.resources_changed()
        if not self._tool_list_fixed:
            return  # the first request takes every tool connected by then
        update = self.mcp_wiring.tool_update(self.config.tools, self.permission)
        if update is not None:
            self.config.tools = (*self.config.tools, *update.added)
            # Appended after the cache breakpoint: the cached prefix stays as it was.
            self._tool_schemas = [*self._tool_schemas, *(t.api_schema() for t in update.added)]
            self.reminders.note(update.reminder)

    def _session_start(self) -> str | None:
        """SessionStart hooks run before the first prompt (startup, resume) and the first one
        after /clear or a compaction (clear, compact): their source, else None."""
        if not self._session_started:
            self._session_started = True
            return "resume" if self.config.history else "startup"
        source, self._restart_source = self._restart_source, None
        return source

    @property
    def history_roots(self) -> list[Path]:
        """Where this session's transcript is written, then the other roots it resumes from."""
        first = self.config.transcripts or self.config.data_dir
        return list(dict.fromkeys([first, self.config.data_dir]))

    @property
    def transcript_path(self) -> str:
        return str(self.transcript.path) if self.transcript else ""

    # ── tools, start and end ────────────────────────────────────────────────────────────────

    async def freeze_tools(self) -> None:
        """Fix the tool set for the whole session before the first request: MCP servers get
        until their startup timeout to connect; the list never changes afterwards, since it
        sits at the front of the prompt cache."""
        if self._tools_frozen:
            return
        self._tools_frozen = True
        mcp = self.config.mcp
        if mcp is None:
            return
        mcp.start()
        await mcp.wait_ready()
        tools = assemble_tool_pool(self.permission, mcp_tools=mcp.tools(),
                                   only=self.config.tool_filter)
        tools = (*tools, *self.config.extra_tools)
        self.config.tools = tools
        self._tool_schemas = _schemas(tools)
        self._tool_list_fixed = True

    async def _shutdown(self, reason: str) -> None:
        self.prompter.cancel_all()
        self.hook_callbacks.cancel_all()
        self.elicitations.cancel_all()
        if self._stop_mcp_listener is not None:
            self._stop_mcp_listener()
        if self.mcp_wiring is not None:
            await self.mcp_wiring.close()
        if self._abort is not None:
            self._abort.abort()
        if self._job is not None and self._abort is not None:  # let it record what it stopped
            await asyncio.wait({self._job}, timeout=SHUTDOWN_GRACE_SECONDS)
        if self._job is not None and not self._job.done():
            self._job.cancel()
            await asyncio.gather(self._job, return_exceptions=True)
        await self.background.stop_all()
        try:
            if self.config.mcp is not None:
                await self.config.mcp.close()
            if self.config.hooks is not None and self._session_started:
                await self.config.hooks.run("SessionEnd", {"reason": reason,
                                                           "cwd": str(self.shell.cwd)})
        finally:
            await self.turn_services.close()
            if self.transcript is not None:
                self.transcript.close()
            await self.api.close()
            self._emit(SessionClosed(reason))


def _prompt_text(op: ops.UserPrompt) -> str:
    if isinstance(op.content, str):
        return op.content
    return "\n".join(b.get("text", "") for b in op.content if b.get("type") == "text")


def _schemas(tools: tuple[Tool, ...]) -> list[dict[str, Any]]:
    """Tool definitions for the request, the last one marked as a cache breakpoint."""
    schemas = [tool.api_schema() for tool in tools]
    if schemas:
        schemas[-1] = {**schemas[-1], "cache_control": {"type": "ephemeral"}}
    return schemas
