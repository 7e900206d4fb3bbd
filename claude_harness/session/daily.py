"""The services a turn uses beside the loop, kept apart so core.py stays the conversation's
driver: checkpoints (for /rewind), AskUserQuestion, background-task notices, steering, `@`
mentions, the status line command, the output style and the notes for the next prompt. The op
handlers (session/handlers/) reach them through handlers.services.OpServices.

The Session owns one TurnServices. It calls, at fixed points:
  - `attach_mentions` before a prompt goes out and `prompt_sent` once it is in the transcript;
  - `between_batches` (through the loop's QueryParams) after each tool batch;
  - `applied(event)` for each turn event it applies, `observe(event)` for each it emits;
  - `interrupted()` on Esc, `close()` at shutdown.
Everything it reports goes out as events; front ends only ever see those.
"""

from __future__ import annotations

import asyncio
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
from claude_harness.session.command_prompt import typed_command
from claude_harness.session.prompt_extras import Reminders
from claude_harness.session.questions import SessionQuestions
from claude_harness.session.result_journal import ResultJournal
from claude_harness.session.resume import load_session
from claude_harness.session.rewind import SessionCheckpoints
from claude_harness.session.status_line import StatusLineFeed
from claude_harness.session.task_notes import TaskNotes
from claude_harness.session.transcript import Transcript
from claude_harness.tools.tool_search import loaded_from_history

if TYPE_CHECKING:
    from claude_harness.config.output_styles import StyleCatalog
    from claude_harness.session.core import Session
    from claude_harness.statusline import SessionState
    from claude_harness.tools.bash.background import BackgroundShell

STEERING = ("The user sent this message while you were working:\n{text}\n\nTake it into account "
            "as you continue this turn.")
STATUS_TRIGGERS = (Busy, ModeChanged, ModelChanged, OutputStyleChanged, SessionStarted)


class TurnServices:
    def __init__(self, session: Session) -> None:
        self.session = session  # the Session this half belongs to
        config = session.config
        self.checkpoints = SessionCheckpoints(
            self.session_dir, lambda text: session._emit(Notice(text, "warning")))
        self.checkpoints.snapshots = getattr(config, "file_checkpointing", True)
        self.questions = SessionQuestions(session._emit, config.permission.interactive)
        self.task_notes = TaskNotes(self._shell_ended)
        self.task_notes.watch(self.session_dir)
        self.status_line = StatusLineFeed(getattr(config, "status_line", None), config.cwd,
                                          session._emit)
        self._styles: StyleCatalog | None = None
        self.output_style = getattr(config, "output_style", "default") or "default"
        self._notes: list[dict[str, Any]] = []  # system messages for the next prompt
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def session_dir(self) -> Path | None:
        s = self.session
        return (s.transcript.path.parent / s.session_id) if s.transcript is not None else None

    def _emit(self, event: SessionEvent) -> None:
        self.session._emit(event)

    # ── the turn's fixed points ─────────────────────────────────────────────────────────────

    async def attach_mentions(self, prompt: Any, content: list[dict[str, Any]],
                              ctx: ToolUseContext) -> tuple[list[dict[str, Any]], list[Notice]]:
        """A text prompt's `@` mentions, attached as Read would (in a worker thread; the files
        count as read); mentions that could not be attached become notices."""
        if not isinstance(prompt, str) or "@" not in prompt:
            return content, []
        from claude_harness.mentions import attach_mentions  # Read's machinery, for an @ only

        attached = await asyncio.to_thread(attach_mentions, prompt, self.session.config.cwd,
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
        wiring = self.session.mcp_wiring
        if wiring is None or not ctx.permission.interactive or ":" not in prompt:
            return []
        from claude_harness.permissions.resolver import tool_denied_entirely
        from claude_harness.session.mcp_resources import READ_TOOL, read_mentioned

        messages, notices = await read_mentioned(
            wiring.manager, prompt, wiring.resources(),
            denied=tool_denied_entirely(READ_TOOL, ctx.permission))
        for message in messages:
            self.add_note(message)
        return notices

    def prompt_sent(self, text: str) -> list[AgentEvent]:
        """The prompt's user message is in the transcript: group the coming file changes under
        it, and add the notes waiting for it (after it, as Claude Code places them)."""
        transcript = self.session.transcript
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
        session = self.session
        queued = session._queued
        if not queued or any(
                p.allowed_tools or not isinstance(p.content, str)
                or typed_command(session.catalog, p.content) is not None for p in queued):
            return []
        prompt = session._take_queued()
        return [{"type": "text", "text": STEERING.format(text=prompt.content)}]

    def _take_notes(self) -> list[dict[str, Any]]:
        notes, self._notes = self._notes, []
        ended = self.task_notes.take_message()
        return [*notes, *([ended] if ended else [])]

    def _append_note(self, note: dict[str, Any]) -> UserMessage:
        self.session.messages.append(note)
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
        from claude_harness.session.fork import fork_transcript  # a rewind or /branch

        session = self.session
        old: Transcript = session.transcript
        old.sync()
        fork = fork_transcript(old.path, ending_before=ending_before)
        old.close()
        new = Transcript.create(session.history_roots[0], session.config.cwd, fork.session_id)
        new.on_failure, new.on_recovered = old.on_failure, old.on_recovered
        session.transcript, session.session_id = new, fork.session_id
        session.journal = ResultJournal(new)  # the answers go on into the new file too
        session.messages[:] = load_session(fork.path).messages
        session.loaded_deferred = loaded_from_history(session.messages)
        session.reminders = Reminders.for_history(session.messages, session.mode)
        session.totals.last_context_tokens = 0
        _point_hooks_at(session.config.hooks, fork.session_id, str(new.path))
        new_dir = self.session_dir
        if new_dir is not None:
            self.checkpoints.link_into(new_dir)
            self.task_notes.watch(new_dir)
        self._emit(HistoryReplaced(reason, tuple(session.messages),  # type: ignore[arg-type]
                                   fork.session_id))
        return fork.session_id

    # ── output styles, notes for the next prompt ────────────────────────────────────────────

    @property
    def styles(self) -> StyleCatalog:
        if self._styles is None:
            from claude_harness.config.output_styles import load_output_styles  # /output-style

            self._styles = load_output_styles(self.session.config.cwd)
        return self._styles

    def reload_styles(self) -> StyleCatalog:
        """The styles as they are on disk now (a style file may have been added)."""
        self._styles = None
        return self.styles

    def add_note(self, message: dict[str, Any]) -> None:
        """A system message for the model, sent after the next prompt."""
        self._notes.append(message)

    def _status_state(self) -> SessionState:
        from claude_harness.statusline import SessionState  # only with a status line command

        session = self.session
        totals = session.totals
        usage = {"input_tokens": totals.last_context_tokens} if totals.last_context_tokens else {}

        return SessionState(
            session_id=session.session_id, transcript_path=session.transcript_path,
            cwd=session.shell.cwd, project_dir=session.config.cwd, model=session.model,
            version=__version__, output_style=self.output_style,
            added_dirs=tuple(session.permission.additional_dirs), cost_usd=totals.cost_usd,
            api_duration_ms=int(totals.api_seconds * 1000), input_tokens=totals.input_tokens,
            output_tokens=totals.output_tokens, context_window=context_window_for(session.model),
            last_usage=usage)


def _point_hooks_at(hooks: Any, session_id: str, transcript_path: str) -> None:
    """Hooks hear the forked session's id and transcript from now on."""
    for name, value in (("session_id", session_id), ("transcript_path", transcript_path)):
        if hooks is not None and hasattr(hooks, name):
            setattr(hooks, name, value)



