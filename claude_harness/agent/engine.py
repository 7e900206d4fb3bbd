"""Engine: one conversation, shared by every front end (Textual app, plain REPL, `-p`).

It owns the history, the session transcript, the permission mode and the running totals, and
turns a user prompt into a stream of AgentEvents by running `query()`. Front ends render the
events, resolve PermissionRequest futures, and call `interrupt()`; they never touch the loop.

Nothing here imports the anthropic SDK: the API client imports it on first use.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from claude_harness.agent.context import (
    AbortSignal,
    ContentReplacementState,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.agent.events import (
    AgentEvent,
    AssistantMessage,
    Compaction,
    HookRan,
    Notice,
    SideUsage,
    TurnEnd,
    Usage,
    UserMessage,
)
from claude_harness.agent.loop import QueryParams, query, run_compaction
from claude_harness.agent.messages import user_text
from claude_harness.api.client import ApiClient, ApiSettings
from claude_harness.api.pricing import context_window_for
from claude_harness.api.request_params import RequestSettings, settings_from_sources
from claude_harness.permissions.types import PermissionContext, PermissionMode
from claude_harness.session.transcript import Transcript
from claude_harness.tools.base import Tool

AUTO_COMPACT_FRACTION = 0.85
MODE_NOTES = {
    "plan": "Plan mode is active: research and plan only. Do not edit files or run commands "
            "that change anything; when the plan is ready, present it with ExitPlanMode.",
    "default": "The permission mode is now default: changes need the user's approval.",
    "acceptEdits": "The permission mode is now acceptEdits: file edits in the working "
                   "directories are allowed without asking.",
    "bypassPermissions": "The permission mode is now bypassPermissions.",
}


@dataclass
class EngineConfig:
    cwd: Path
    model: str
    permission: PermissionContext
    tools: tuple[Tool, ...]
    system_prompt: str
    api: ApiSettings
    data_dir: Path
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
    request_settings: RequestSettings | None = None  # effort, thinking; None: from the env


@dataclass
class Totals:
    cost_usd: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    last_context_tokens: int = 0  # prompt size of the latest request: context use
    api_turns: int = 0


class Engine:
    def __init__(self, config: EngineConfig) -> None:
        self.config = config
        self.model = config.model
        self.messages: list[dict[str, Any]] = list(config.history)
        self.permission = config.permission
        self.totals = Totals()
        self.request_settings = config.request_settings or settings_from_sources()[0]
        self.api = ApiClient(config.api)
        self.read_file_state = FileStateCache()
        self.content_replacement = ContentReplacementState()
        self.shell = ShellState(config.cwd)
        self.session_rules: list[Any] = []
        self.denials: list[dict[str, Any]] = []
        self.transcript: Transcript | None = None
        if config.persist:
            self.transcript = Transcript.create(config.data_dir, config.cwd, config.session_id)
        self.session_id = (
            self.transcript.session_id if self.transcript else (config.session_id or "ephemeral")
        )
        self._tool_schemas = _schemas(config.tools)
        self.mcp: Any = None  # an McpManager when servers are configured (set by bootstrap)
        self._tools_frozen = False
        self._system = [{"type": "text", "text": config.system_prompt,
                         "cache_control": {"type": "ephemeral"}}]
        self._abort: AbortSignal | None = None
        self.memory_files: list[Path] = []
        self.api_time = 0.0
        self._session_started = False
        from claude_harness.tools.tool_search import loaded_from_history

        self.loaded_deferred = loaded_from_history(self.messages)
        self._announced_mode: str | None = "default" if not self.messages else self.mode
        self._announced_deferred = bool(self.messages)

    # ── state the front ends show ───────────────────────────────────────────────────────────

    @property
    def mode(self) -> PermissionMode:
        return self.permission.mode

    def set_mode(self, mode: PermissionMode) -> None:
        self.permission = replace(self.permission, mode=mode)

    def cycle_mode(self) -> PermissionMode:
        """Shift+Tab: default → acceptEdits → plan (→ bypassPermissions if started with it)."""
        from claude_harness.permissions.modes import next_mode

        mode = next_mode(self.mode, self.permission.bypass_available)
        self.set_mode(mode)
        return mode

    @property
    def context_percent(self) -> float:
        window = context_window_for(self.model)
        return 100.0 * self.totals.last_context_tokens / window if window else 0.0

    @property
    def cache_read_percent(self) -> float | None:
        """Share of this session's prompt tokens served from the prompt cache (None before
        the first answer)."""
        t = self.totals
        prompt = t.input_tokens + t.cache_read_tokens + t.cache_write_tokens
        return 100.0 * t.cache_read_tokens / prompt if prompt else None

    @property
    def running(self) -> bool:
        return self._abort is not None

    @property
    def transcript_path(self) -> str:
        return str(self.transcript.path) if self.transcript else ""

    def tool_names(self) -> list[str]:
        return [t.name for t in self.config.tools]

    # ── running a turn ──────────────────────────────────────────────────────────────────────

    def start_background(self) -> None:
        """Start MCP servers now (front ends call this right after their first paint)."""
        if self.mcp is not None:
            self.mcp.start()

    async def freeze_tools(self) -> None:
        """Fix the tool set for the whole session before the first request: MCP servers get
        until their startup timeout to connect; the list never changes afterwards, since it
        sits at the front of the prompt cache."""
        if self._tools_frozen:
            return
        self._tools_frozen = True
        if self.mcp is None:
            return
        from claude_harness.tools.registry import assemble_tool_pool

        self.mcp.start()
        await self.mcp.wait_ready()
        from claude_harness.tools.agent.definitions import with_agent_types

        tools = with_agent_types(assemble_tool_pool(self.permission, mcp_tools=self.mcp.tools(),
                                                    only=self.config.tool_filter), self.config.cwd)
        self.config.tools = tools
        self._tool_schemas = _schemas(tools)

    def interrupt(self) -> None:
        if self._abort is not None:
            self._abort.abort()

    def _context(self, abort: AbortSignal) -> ToolUseContext:
        session_dir = (self.transcript.path.parent / self.session_id) if self.transcript else None
        return ToolUseContext(
            options=ToolUseOptions(tools=self.config.tools, model=self.model,
                                   debug=self.config.debug, verbose=self.config.verbose,
                                   session_dir=session_dir, api=self.api,
                                   max_tokens=self.config.max_tokens,
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
            denials=self.denials,
            session_rules=self.session_rules,
            debug_log=(session_dir / "debug.log") if (self.config.debug and session_dir) else None,
        )

    def _append(self, message: dict[str, Any]) -> None:
        if self.transcript is not None:
            self.transcript.append_message(message)

    async def submit(
        self, prompt: str | list[dict[str, Any]], *, allowed_tools: tuple[str, ...] = ()
    ) -> AsyncIterator[AgentEvent]:
        """Run one user prompt to the end of the model's turn, yielding every event.

        `allowed_tools` are extra allow rules for this turn only (a custom command's
        `allowed-tools` front matter)."""
        abort = AbortSignal()
        self._abort = abort
        saved = self.permission
        if allowed_tools:
            from claude_harness.permissions.rules import parse_rule
            from claude_harness.permissions.types import PermissionRule

            extra_rules = tuple(PermissionRule("session", "allow", parse_rule(r))
                                for r in allowed_tools)
            self.permission = replace(saved, rules=(*saved.rules, *extra_rules))
        try:
            content = prompt if isinstance(prompt, list) else user_text(prompt)["content"]
            extra, hook_events = await self._user_prompt_hooks(prompt)
            for event in hook_events:
                yield event
            if extra is None:
                yield Notice("The prompt was blocked by a UserPromptSubmit hook.", "warning")
                yield TurnEnd("hook_stopped", 0)
                return
            await self.freeze_tools()
            message = {"role": "user", "content": [*content, *extra, *self._reminders()]}
            self.messages.append(message)
            self._append(message)
            yield UserMessage(message)
            params = self._params()
            async for event in query(self.messages, params, self._context(abort), self.api,
                                     on_context=self._adopt_context):
                self._observe(event)
                yield event
        finally:
            self._abort = None
            if allowed_tools:  # keep a mode change made during the turn, drop the turn's rules
                self.permission = replace(saved, mode=self.permission.mode)
            if self.transcript is not None:
                self.transcript.sync()

    def _params(self) -> QueryParams:
        threshold = None
        if self.config.auto_compact:
            threshold = (self.config.compact_threshold_tokens
                         or int(context_window_for(self.model) * AUTO_COMPACT_FRACTION))
        return QueryParams(self.model, self._system, self._tool_schemas,
                           max_tokens=self.config.max_tokens, max_turns=self.config.max_turns,
                           compact_threshold=threshold,
                           context_tokens=self.totals.last_context_tokens,
                           settings=self.request_settings)

    async def compact(self, instructions: str = "") -> AsyncIterator[AgentEvent]:
        """/compact [instructions]: summarise the conversation now."""
        if not self.messages:
            yield Notice("Nothing to compact yet.")
            return
        abort = AbortSignal()
        async for event in run_compaction(self.messages, self._params(), self._context(abort),
                                          self.api, "manual", instructions,
                                          self.totals.last_context_tokens):
            self._observe(event)
            yield event

    def _adopt_context(self, ctx: ToolUseContext) -> None:
        """Context modifiers changed the mode (EnterPlanMode) or loaded deferred tools
        (ToolSearch): keep that for the next turns."""
        if ctx.permission.mode != self.permission.mode:
            self.set_mode(ctx.permission.mode)
            self._announced_mode = ctx.permission.mode  # the tool result told the model
        self.loaded_deferred = ctx.options.loaded_deferred

    def _reminders(self) -> list[dict[str, Any]]:
        """State the model must know, sent as messages so the cached prefix never changes: the
        deferred tools (once), and the permission mode whenever it changed."""
        notes = []
        if not self._announced_deferred:
            self._announced_deferred = True
            deferred = [t.name for t in self.config.tools if t.should_defer]
            if deferred:
                notes.append("These deferred tools are available; load one with ToolSearch "
                             "before calling it: " + ", ".join(deferred))
        if self.mode != self._announced_mode:
            self._announced_mode = self.mode
            notes.append(MODE_NOTES.get(self.mode, f"The permission mode is now {self.mode}."))
        return [{"type": "text", "text": f"<system-reminder>\n{n}\n</system-reminder>"}
                for n in notes]

    def _observe(self, event: AgentEvent) -> None:
        if isinstance(event, (AssistantMessage, UserMessage)):
            self._append(event.message)
        elif isinstance(event, Compaction):
            if self.transcript is not None:
                self.transcript.append_system("compact_boundary", compactMetadata={
                    "trigger": event.trigger, "preTokens": event.pre_tokens})
                for message in event.messages:
                    self.transcript.append_message(message)
            self.totals.last_context_tokens = 0
        elif isinstance(event, (Usage, SideUsage)):  # side requests cost, but hold no context
            t = self.totals
            t.cost_usd += event.cost_usd
            t.input_tokens += event.input_tokens
            t.output_tokens += event.output_tokens
            t.cache_read_tokens += event.cache_read_input_tokens
            t.cache_write_tokens += event.cache_creation_input_tokens
            if isinstance(event, Usage):
                t.last_context_tokens = event.context_tokens
                t.api_turns += 1
                self.api_time += event.api_seconds

    async def _user_prompt_hooks(
        self, prompt: Any
    ) -> tuple[list[dict[str, Any]] | None, list[AgentEvent]]:
        """SessionStart (once) and UserPromptSubmit hooks: (extra context blocks, or None when a
        hook blocks the prompt; events to show)."""
        hooks = self.config.hooks
        if hooks is None:
            return [], []
        context: list[str] = []
        outcomes = []
        if not self._session_started:
            self._session_started = True
            source = "resume" if self.config.history else "startup"
            outcomes.append(await hooks.run("SessionStart", {"source": source,
                                                             "cwd": str(self.shell.cwd)}))
        text = prompt if isinstance(prompt, str) else ""
        outcomes.append(await hooks.run("UserPromptSubmit", {"prompt": text,
                                                             "cwd": str(self.shell.cwd)}))
        events: list[AgentEvent] = []
        for outcome in outcomes:
            if outcome.ran:
                events.append(HookRan(outcome.event, outcome))
            events += [Notice(m) for m in outcome.system_messages]
            events += [Notice(m, "warning") for m in outcome.errors]
            context += outcome.additional_context
        submitted = outcomes[-1]
        if submitted.blocked or submitted.stop:
            reason = submitted.block_reason or submitted.stop_reason
            if reason:
                events.append(Notice(reason, "warning"))
            return None, events
        return [{"type": "text", "text": c} for c in context if c.strip()], events

    def expand_command(self, line: str) -> tuple[str, tuple[str, ...]] | None:
        """`/name args` of a custom command (.claude/commands) → (prompt, allowed tools), or
        None when `line` names no custom command."""
        from claude_harness.commands import expand, find_command, load_commands

        if not line.startswith("/"):
            return None
        name, _, args = line[1:].partition(" ")
        command = find_command(load_commands(self.config.cwd, []), name)
        if command is None:
            return None
        expanded = expand(command, args.strip(), session_id=self.session_id,
                          project_dir=self.config.cwd)
        return expanded.text, tuple(expanded.allowed_tools)

    def mcp_status(self) -> list[dict[str, str]]:
        return self.mcp.init_info() if self.mcp is not None else []

    async def close(self, reason: str = "other") -> None:
        if self.mcp is not None:
            await self.mcp.close()
        if self.config.hooks is not None and self._session_started:
            await self.config.hooks.run("SessionEnd", {"reason": reason,
                                                       "cwd": str(self.shell.cwd)})
        if self.transcript is not None:
            self.transcript.close()
        await self.api.close()


def _schemas(tools: tuple[Tool, ...]) -> list[dict[str, Any]]:
    """Tool definitions for the request, the last one marked as a cache breakpoint."""
    schemas = [tool.api_schema() for tool in tools]
    if schemas:
        schemas[-1] = {**schemas[-1], "cache_control": {"type": "ephemeral"}}
    return schemas
