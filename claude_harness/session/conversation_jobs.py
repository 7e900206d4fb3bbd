"""The jobs that change the conversation itself, besides a prompt's turn: /compact, /clear,
/resume and `!cmd`. Each runs as the session's one job (see job_queue.py); the op handlers start
them (handlers/conversation.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_harness.agent.loop import QueryParams, run_compaction
from claude_harness.protocol.context import (
    AbortSignal,
    ContentReplacementState,
    FileStateCache,
    ShellState,
    ToolUseContext,
)
from claude_harness.protocol.events import (
    AgentEvent,
    HistoryReplaced,
    Notice,
    SessionEvent,
    ShellRan,
    TodosChanged,
)
from claude_harness.session.prompt.prompt_extras import Reminders
from claude_harness.session.services.shell_escape import run_shell_escape
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.state import SessionState
from claude_harness.session.store.transcript import find_session, load_messages
from claude_harness.tools.todo_write.state import clear_todos
from claude_harness.tools.tool_search import loaded_from_history

if TYPE_CHECKING:
    from claude_harness.api.client import ApiClient
    from claude_harness.session.prompt.path_rules import PathRules


@dataclass(frozen=True)
class ConversationJobs:
    config: SessionConfig  # the project's folder and transcript roots, for /resume
    state: SessionState
    shell: ShellState
    api: ApiClient
    path_rules: PathRules | None
    emit: Callable[[SessionEvent], None]
    apply: Callable[[AgentEvent], None]
    params: Callable[[], QueryParams]
    context: Callable[[AbortSignal], ToolUseContext]

    async def compact(self, instructions: str) -> None:
        """/compact [instructions]: summarise the conversation now."""
        state = self.state
        if not state.messages:
            self.emit(Notice("Nothing to compact yet."))
            return
        async for event in run_compaction(state.messages, self.params(),
                                          self.context(AbortSignal()), self.api, "manual",
                                          instructions, state.totals.last_context_tokens):
            self.apply(event)
            self.emit(event)

    async def clear(self) -> None:
        """A fresh conversation: history, read-file cache, result budget, `!cmd` output."""
        state = self.state
        state.messages.clear()
        state.read_file_state = FileStateCache()  # re-read before editing in the new one
        state.content_replacement = ContentReplacementState()
        state.shell_output = []
        state.reminders = Reminders()
        state.restart_source = "clear"
        if self.path_rules is not None:
            self.path_rules.forget()
        clear_todos()
        state.totals.last_context_tokens = 0
        self.emit(HistoryReplaced("clear"))
        self.emit(TodosChanged(()))
        self.emit(state.totals.event(state.model))

    async def resume(self, wanted: str) -> None:
        """Continue an earlier conversation of this project: its messages become the history."""
        state = self.state
        path = find_session(self.config.history_roots, self.config.cwd, wanted)
        if path is None:
            self.emit(Notice(f"No session {wanted!r}.", "error"))
            return
        state.messages[:] = load_messages(path)
        state.loaded_deferred = loaded_from_history(state.messages)
        self.emit(HistoryReplaced("resume", tuple(state.messages), path.stem))

    async def shell_command(self, command: str) -> None:
        """`!cmd`: run it now in the session's cwd; its output goes into the next prompt."""
        try:
            result = await run_shell_escape(command, self.shell.cwd)
        except asyncio.CancelledError:
            self.emit(Notice(f"Stopped !{command}", "warning"))
            raise
        self.emit(ShellRan(command, result.display(), tuple(result.display_lines()),
                           result.returncode, result.failed))
        self.state.shell_output.append(result.context_text())
