"""A prompt's turn: a typed command prepared (or the prompt as it is, its `@` mentions
attached), what waits for the next prompt put in front (hook context, `!cmd` output, the
reports of background agents), UserPromptSubmit hooks, then the model's turn; in `-p`, also the
turns that hand the model its background agents' reports. Also `/name args` of a custom
command or an MCP prompt, which become a prompt's turn."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from claude_harness.agent.loop import QueryParams, query
from claude_harness.agent.messages import user_text
from claude_harness.permissions.rules import allow_rules
from claude_harness.protocol import ops
from claude_harness.protocol.context import AbortSignal, ShellState, ToolUseContext
from claude_harness.protocol.events import (
    AgentEvent,
    Notice,
    SessionEvent,
    TurnEnd,
    UserMessage,
)
from claude_harness.session.job_queue import WORKING, JobQueue, prompt_text
from claude_harness.session.prompt.command_prompt import AsIs, CommandPreparation, typed_command
from claude_harness.session.prompt.prompt_extras import prompt_hooks
from claude_harness.session.prompt.turn_extras import TurnExtras
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.state import SessionState

if TYPE_CHECKING:
    from claude_harness.api.client import ApiClient
    from claude_harness.commands.catalog import Catalog
    from claude_harness.mcp.prompts import McpPromptCommand
    from claude_harness.session.services.agents import BackgroundAgents
    from claude_harness.session.services.mcp_wiring import McpWiring
    from claude_harness.session.turn_services import TurnServices


@dataclass(frozen=True)
class PromptTurn:
    config: SessionConfig
    state: SessionState
    jobs: JobQueue
    extras: TurnExtras
    services: TurnServices
    catalog: Catalog
    api: ApiClient
    shell: ShellState
    background: BackgroundAgents
    mcp_wiring: McpWiring | None
    emit: Callable[[SessionEvent], None]
    apply: Callable[[AgentEvent], None]
    params: Callable[[str | None], QueryParams]  # a command's own model, or None
    context: Callable[[AbortSignal], ToolUseContext]
    freeze_tools: Callable[[], Awaitable[None]]

    async def run(self, op: ops.UserPrompt) -> None:
        """The turn as a job: each event applied, then emitted."""
        async for event in self._events(op):
            self.apply(event)
            transcript = self.state.transcript
            if isinstance(event, UserMessage) and transcript is not None:
                event = replace(event, uuid=transcript.last_uuid or "")
            self.emit(event)

    async def _events(self, op: ops.UserPrompt) -> AsyncIterator[AgentEvent]:
        """Run one user prompt to the end of the model's turn, yielding every event."""
        state, jobs = self.state, self.jobs
        if jobs.stopped:  # the front end is exiting (a signal): nothing new starts
            yield TurnEnd("aborted", 0, jobs.stopped)
            return
        abort = AbortSignal()
        jobs.abort = abort
        saved = state.permission
        allowed_tools: tuple[str, ...] = op.allowed_tools
        try:
            preparation = self._preparation(op, abort)
            async for event in preparation.run():
                yield event
            prepared = preparation.result
            if prepared.refusal is not None:  # a typed command that must not run
                yield Notice(prepared.refusal, "error")
                yield TurnEnd("end_turn", 0)
                return
            content = prepared.content
            if isinstance(preparation, AsIs):  # a command attaches its own @paths
                content, problems = await self.services.attach_mentions(op.content, content,
                                                                        self.context(abort))
                for notice in problems:
                    yield notice
            allowed_tools = (*allowed_tools, *prepared.allowed_tools)
            if allowed_tools:
                state.permission = replace(saved, rules=(*saved.rules,
                                                         *allow_rules(allowed_tools)))
            for event in self.extras.collect_async(self.config.hooks):
                yield event
            waiting = [*self.extras.take(), *state.shell_output]
            state.shell_output = []
            content = [*({"type": "text", "text": c} for c in waiting), *content]
            extra, hook_events = await prompt_hooks(
                self.config.hooks, prompt_text(op), self.shell.cwd,
                session_start=self._session_start(), memory_files=self.config.memory_files,
                memory_imports=self.config.memory_imports)
            for event in hook_events:
                yield event
            if extra is None:
                yield Notice("The prompt was blocked by a UserPromptSubmit hook.", "warning")
                yield TurnEnd("hook_stopped", 0)
                return
            await self.freeze_tools()
            reminders = state.reminders.blocks(self.config.tools, state.mode)
            message = {"role": "user", "content": [*content, *extra, *reminders]}
            state.messages.append(message)
            yield UserMessage(message)
            for note in self.services.prompt_sent(prompt_text(op)):
                yield note
            async for event in self._answer(self.params(prepared.model), abort):
                yield event
        finally:
            jobs.abort = None
            if allowed_tools:  # keep a mode change made during the turn, drop the turn's rules
                state.permission = replace(saved, mode=state.permission.mode)
            if state.transcript is not None:
                state.transcript.sync()

    def _preparation(self, op: ops.UserPrompt, abort: AbortSignal) -> AsIs | CommandPreparation:
        """A typed `/name args` of the catalog becomes the command's message (see
        command_prompt.py); any other prompt is sent as it is."""
        typed = typed_command(self.catalog, op.content) if isinstance(op.content, str) else None
        if typed is None:
            return AsIs(list(op.content) if isinstance(op.content, tuple)
                        else user_text(op.content)["content"])
        return CommandPreparation(*typed, self.context(abort), session_id=self.state.session_id,
                                  trusted=self.config.trusted,
                                  shell_disabled=self.config.skill_shell_disabled)

    async def _answer(self, params: QueryParams, abort: AbortSignal) -> AsyncIterator[AgentEvent]:
        """The model's turn; in `-p`, also the turns that hand it the reports of background
        agents it started (the prompt's turn ends when they have all been told)."""
        messages, extras = self.state.messages, self.extras
        while True:
            end: TurnEnd | None = None
            async for event in query(messages, params, self.context(abort), self.api):
                if isinstance(event, TurnEnd):
                    stopped = self.jobs.stopped
                    if event.reason == "aborted" and stopped:  # a signal stopped it
                        event = replace(event, error=event.error or stopped)
                    end = event
                    continue
                yield event
            for event in extras.collect_async(self.config.hooks):
                yield event
            if not (self.config.wait_for_background and end is not None
                    and end.reason in ("end_turn", "stop_sequence")
                    and (self.background.running or extras.pending)):
                break
            await extras.wait(self.background, abort)
            if abort.aborted or not extras.pending:
                break
            message = {"role": "user", "content": [{"type": "text", "text": t}
                                                   for t in extras.take()]}
            messages.append(message)
            yield UserMessage(message)
        if end is not None:
            yield end

    def _session_start(self) -> str | None:
        """SessionStart hooks run before the first prompt (startup, resume) and the first one
        after /clear or a compaction (clear, compact): their source, else None."""
        state = self.state
        if not state.session_started:
            state.session_started = True
            return "resume" if self.config.history else "startup"
        source, state.restart_source = state.restart_source, None
        return source

    def run_command(self, name: str, args: str) -> None:
        """`/name args` of an MCP prompt or a custom command: a prompt's turn."""
        prompt = self.mcp_wiring.find_prompt(name) if self.mcp_wiring is not None else None
        if prompt is not None:
            self.jobs.start(lambda: self._mcp_prompt_turn(prompt, args), WORKING, f"/{name}")
            return
        line = f"/{name} {args}".rstrip()
        if self.catalog.find_command(name) is None:
            self.emit(Notice(f"Unknown command /{name}. Type /help for the list.", "error"))
            return
        if self.jobs.running:
            self.emit(Notice(f"Wait for the current job to finish (or Esc) before /{name}.",
                             "warning"))
            return
        self.jobs.prompt(ops.UserPrompt(line))

    async def _mcp_prompt_turn(self, prompt: McpPromptCommand, args: str) -> None:
        """`/mcp__server__prompt args`: the server renders the prompt; it goes out as the
        user's message."""
        assert self.mcp_wiring is not None
        blocks = await self.mcp_wiring.render_prompt(prompt, args)
        if blocks is not None:
            await self.run(ops.UserPrompt(blocks))
