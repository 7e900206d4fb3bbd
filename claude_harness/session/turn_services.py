"""The services a turn uses beside the loop, kept apart so core.py stays the conversation's
driver: checkpoints (for /rewind), AskUserQuestion, background-task notices, steering, `@`
mentions, the status line command, the output style and the notes for the next prompt. The op
handlers (session/handlers/) reach them through handlers.services.OpServices. They work on the
session's state (state.py), never on the Session itself.

The Session owns one TurnServices. It calls, at fixed points:
  - `attach_mentions` before a prompt goes out and `prompt_sent` once it is in the transcript;
  - `between_batches` (through the loop's QueryParams) after each tool batch;
  - `applied(event)` for each turn event it applies, `observe(event)` for each it emits;
  - `interrupted()` on Esc, `close()` at shutdown.
Everything it reports goes out as events; front ends only ever see those.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness import __version__
from claude_harness.agent.messages import has_tool_results
from claude_harness.api.pricing import context_window_for
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import (
    AgentEvent,
    Busy,
    HistoryReplaced,
    ModeChanged,
    ModelChanged,
    Notice,
    OutputStyleChanged,
    SessionEvent,
    SessionStarted,
    UserMessage,
)
from claude_harness.session.checkpointing.rewind import SessionCheckpoints
from claude_harness.session.job_queue import JobQueue
from claude_harness.session.prompt.command_prompt import typed_command
from claude_harness.session.prompt.prompt_extras import Reminders
from claude_harness.session.services.questions import SessionQuestions
from claude_harness.session.services.status_line import StatusLineFeed
from claude_harness.session.services.task_notes import TaskNotes
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.state import SessionState
from claude_harness.session.store.result_journal import ResultJournal
from claude_harness.session.store.resume import load_session
from claude_harness.session.store.transcript import Transcript
from claude_harness.tools.tool_search import loaded_from_history

if TYPE_CHECKING:
    from claude_harness.commands.catalog import Catalog
    from claude_harness.config.output_styles import StyleCatalog
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.protocol.context import ShellState
    from claude_harness.session.services.mcp_wiring import McpWiring
    from claude_harness.session.services.status_line_command import SessionState as StatusLineState
    from claude_harness.tools.bash.background import BackgroundShell

STEERING = ("The user sent this message while you were working:\n{text}\n\nTake it into account "
            "as you continue this turn.")
STATUS_TRIGGERS = (Busy, ModeChanged, ModelChanged, OutputStyleChanged, SessionStarted)


class TurnServices:
    def __init__(self, config: SessionConfig, state: SessionState, *,
                 emit: Callable[[SessionEvent], None], jobs: JobQueue, catalog: Catalog,
                 shell: ShellState, mcp_wiring: McpWiring | None = None) -> None:
        """`jobs` holds the prompts queued for steering; `mcp_wiring` reads `@server:uri`
        mentions (None without MCP servers)."""
        self.config, self.state = config, state
        self._emit = emit
        self._jobs = jobs
        self._catalog = catalog
        self._shell = shell
        self._mcp_wiring = mcp_wiring
        self.checkpoints = SessionCheckpoints(
            self.session_dir, lambda text: emit(Notice(text, "warning")))
        self.checkpoints.snapshots = config.file_checkpointing
        self.questions = SessionQuestions(emit, config.permission.interactive)
        self.task_notes = TaskNotes(self._shell_ended)
        self.task_notes.watch(self.session_dir)
        self.status_line = StatusLineFeed(config.status_line, config.cwd, emit)
        self._styles: StyleCatalog | None = None
        self.output_style = config.output_style or "default"
        self._notes: list[dict[str, Any]] = []  # system messages for the next prompt
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def session_dir(self) -> Path | None:
        state = self.state
        if state.transcript is None:
            return None
        return state.transcript.path.parent / state.session_id

    # ── the turn's fixed points ─────────────────────────────────────────────────────────────

    async def attach_mentions(self, prompt: Any, content: list[dict[str, Any]],
                              ctx: ToolUseContext) -> tuple[list[dict[str, Any]], list[Notice]]:
        """A text prompt's `@` mentions, attached as Read would (in a worker thread; the files
        count as read); mentions that could not be attached become notices."""
        if not isinstance(prompt, str) or "@" not in prompt:
            return content, []
        from claude_harness.session.prompt.mentions import (
            attach_mentions,  # Read's machinery, for an @ only
        )

        attached = await asyncio.to_thread(attach_mentions, prompt, self.config.cwd,
                                           ctx.permission)
        attached.mark_read(ctx)
        notices = [Notice(f"Not attached: {problem}", "warning") for problem in attached.problems]
        notices += await self._attach_resources(prompt, ctx)
        if not attached.blocks:
            return content, notices
        return [*attached.blocks, *content], notices

    async def _attach_resources(self, prompt: str, ctx: ToolUseContext) -> list[Notice]:
        """`@server:uri` mentions, read and noted for after the prompt (mcp_resources.py);
        only with a person at a front end, as in Claude Code."""
        wiring = self._mcp_wiring
        if wiring is None or not ctx.permission.interactive or ":" not in prompt:
            return []
        from claude_harness.permissions.resolver import tool_denied_entirely
        from claude_harness.session.services.mcp_resources import READ_TOOL, read_mentioned

        messages, notices = await read_mentioned(
            wiring.manager, prompt, wiring.resources(),
            denied=tool_denied_entirely(READ_TOOL, ctx.permission))
        for message in messages:
            self.add_note(message)
        return notices

    def prompt_sent(self, text: str) -> list[AgentEvent]:
        """The prompt's user message is in the transcript: group the coming file changes under
        it, and add the notes waiting for it (after it, as Claude Code places them)."""
        transcript = self.state.transcript
        self.checkpoints.prompt_sent(transcript.last_uuid if transcript else None, text)
        return [self._append_note(note) for note in self._take_notes()]

    def between_batches(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """After a tool batch the turn goes on from: prompts sent meanwhile (steering, in the
        results' message) and notes (background tasks that ended) as system messages."""
        return self._steering(), self._take_notes()

    def applied(self, event: AgentEvent) -> None:
        if isinstance(event, UserMessage) and has_tool_results(event.message):
            self.checkpoints.settle()

    def observe(self, event: SessionEvent) -> None:
        """Every event the session emits: the status line follows turns, modes and models."""
        if isinstance(event, SessionStarted):
            self._loop = asyncio.get_running_loop()  # shells end on other threads: hop here
        if isinstance(event, STATUS_TRIGGERS) and self.status_line.enabled:
            if isinstance(event, Busy) and event.running:
                return
            self.status_line.refresh(self._status_state())

    def interrupted(self) -> None:
        self.questions.decline_all()

    async def close(self) -> None:
        self.task_notes.close()
        self.checkpoints.close()
        await self.status_line.close()

    # ── steering and notes ──────────────────────────────────────────────────────────────────

    def _steering(self) -> list[dict[str, Any]]:
        """Prompts queued during the turn, as text for the model to read now. A custom command
        or a prompt with attachments waits for the turn's end instead (it is a turn of its own)."""
        queued = self._jobs.queued
        if not queued or any(
                p.allowed_tools or not isinstance(p.content, str)
                or typed_command(self._catalog, p.content) is not None for p in queued):
            return []
        prompt = self._jobs.take_queued()
        assert prompt is not None
        return [{"type": "text", "text": STEERING.format(text=prompt.content)}]

    def _take_notes(self) -> list[dict[str, Any]]:
        notes, self._notes = self._notes, []
        ended = self.task_notes.take_message()
        return [*notes, *([ended] if ended else [])]

    def _append_note(self, note: dict[str, Any]) -> UserMessage:
        self.state.messages.append(note)
        return UserMessage(note)

    def _shell_ended(self, shell: BackgroundShell) -> None:
        """From the shell's reader thread: tell the person (the model hears at its next turn)."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        notice = Notice(f"Background command {shell.id} {shell.status()}: "
                        f"{shell.command.strip().splitlines()[0] if shell.command.strip() else ''}")
        loop.call_soon_threadsafe(self._emit, notice)

    # ── forks (a rewind of the conversation, /branch) ─────────────────────────────────────────

    def continue_in_fork(self, ending_before: str | None, reason: str) -> str:
        """Go on in a new session holding this conversation (up to `ending_before`, or all of
        it for /branch); the old transcript stays as it is (resumable)."""
        from claude_harness.session.store.fork import fork_transcript  # a rewind or /branch

        state = self.state
        old = state.transcript
        assert old is not None  # a rewind or /branch needs the transcript
        old.sync()
        fork = fork_transcript(old.path, ending_before=ending_before)
        old.close()
        new = Transcript.create(self.config.history_roots[0], self.config.cwd, fork.session_id)
        new.on_failure, new.on_recovered = old.on_failure, old.on_recovered
        state.transcript, state.session_id = new, fork.session_id
        state.journal = ResultJournal(new)  # the answers go on into the new file too
        state.messages[:] = load_session(fork.path).messages
        state.loaded_deferred = loaded_from_history(state.messages)
        state.reminders = Reminders.for_history(state.messages, state.mode)
        state.totals.last_context_tokens = 0
        _point_hooks_at(self.config.hooks, fork.session_id, str(new.path))
        new_dir = self.session_dir
        if new_dir is not None:
            self.checkpoints.link_into(new_dir)
            self.task_notes.watch(new_dir)
        self._emit(HistoryReplaced(reason, tuple(state.messages),  # type: ignore[arg-type]
                                   fork.session_id))
        return fork.session_id

    # ── output styles, notes for the next prompt ────────────────────────────────────────────

    @property
    def styles(self) -> StyleCatalog:
        if self._styles is None:
            from claude_harness.config.output_styles import load_output_styles  # /output-style

            self._styles = load_output_styles(self.config.cwd)
        return self._styles

    def reload_styles(self) -> StyleCatalog:
        """The styles as they are on disk now (a style file may have been added)."""
        self._styles = None
        return self.styles

    def add_note(self, message: dict[str, Any]) -> None:
        """A system message for the model, sent after the next prompt."""
        self._notes.append(message)

    def _status_state(self) -> StatusLineState:
        from claude_harness.session.services.status_line_command import (
            SessionState,  # only with a status line command
        )

        state = self.state
        totals = state.totals
        usage = {"input_tokens": totals.last_context_tokens} if totals.last_context_tokens else {}

        return SessionState(
            session_id=state.session_id, transcript_path=state.transcript_path,
            cwd=self._shell.cwd, project_dir=self.config.cwd, model=state.model,
            version=__version__, output_style=self.output_style,
            added_dirs=tuple(state.permission.additional_dirs), cost_usd=totals.cost_usd,
            api_duration_ms=int(totals.api_seconds * 1000), input_tokens=totals.input_tokens,
            output_tokens=totals.output_tokens, context_window=context_window_for(state.model),
            last_usage=usage)


def _point_hooks_at(hooks: HookRunner | None, session_id: str, transcript_path: str) -> None:
    """Hooks hear the forked session's id and transcript from now on."""
    for name, value in (("session_id", session_id), ("transcript_path", transcript_path)):
        if hooks is not None and hasattr(hooks, name):
            setattr(hooks, name, value)



