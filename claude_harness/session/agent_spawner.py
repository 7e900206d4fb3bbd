"""The session's spawner of sub-agents: the Agent tool's children, in the foreground or in the
background, and an `agent` hook's. What a child's definition may set for it is decided by
agents.child_setup; its prompts, denials and usage reach the session through `to_session`.
A background agent's report waits for the next turn, or wakes the session for a turn of its
own when nothing runs (in `-p` the running turn waits for it instead)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from claude_harness.agent.subagent import ChildSetup, run_subagent
from claude_harness.protocol.context import (
    BackgroundAgent,
    SubAgentReport,
    SubAgentSpec,
    ToolUseContext,
)
from claude_harness.protocol.events import AgentEvent, Notice, SessionEvent
from claude_harness.session.prompt.turn_extras import TurnExtras
from claude_harness.session.services.agents import BackgroundAgents, child_setup
from claude_harness.session.session_config import SessionConfig


class AgentSpawner:
    def __init__(self, config: SessionConfig, *, extras: TurnExtras,
                 emit: Callable[[SessionEvent], None], to_session: Callable[[AgentEvent], None],
                 wake: Callable[[], None]) -> None:
        """`config` says whether the folder is trusted and whether a turn waits for its
        background agents (read at each use); `to_session` applies and emits a child's event;
        `wake` starts a turn for a waiting report when nothing runs."""
        self._emit = emit
        self._config = config
        self._extras = extras
        self._to_session = to_session
        self._wake = wake
        self.background = BackgroundAgents(self._run_background, self._background_done)

    async def spawn(self, spec: SubAgentSpec, parent: ToolUseContext,
                    progress: Callable[[Any], None]) -> SubAgentReport:
        """The Agent tool's spawner: the child's prompts and denials reach this session."""
        setup, notes = child_setup(spec, parent, trusted=self._config.trusted)
        for note in notes:
            self._to_session(Notice(note, "warning"))
        return await run_subagent(spec, parent, progress, to_session=self._to_session,
                                  setup=setup)

    async def run_quietly(self, spec: SubAgentSpec, parent: ToolUseContext) -> SubAgentReport:
        """Run a sub-agent to its end without showing its steps (an `agent` hook's)."""
        return await self.spawn(spec, parent, lambda _step: None)

    def spawn_background(self, spec: SubAgentSpec, parent: ToolUseContext) -> BackgroundAgent:
        setup, notes = child_setup(spec, parent, trusted=self._config.trusted, background=True)
        for note in notes:
            self._to_session(Notice(note, "warning"))
        return self.background.start(spec, parent, setup)

    async def _run_background(self, spec: SubAgentSpec, parent: ToolUseContext,
                              setup: ChildSetup, agent_id: str) -> SubAgentReport:
        return await run_subagent(spec, parent, lambda _step: None,
                                  to_session=self._to_session, setup=setup, agent_id=agent_id)

    def _background_done(self, summary: str, notification: str) -> None:
        """A background agent ended: the model hears of it at the next turn, or now, in a
        turn of its own, when nothing runs (in -p the running turn waits for it)."""
        self._emit(Notice(f"{summary} (in the background); its report goes to the model."))
        self._extras.add(notification, wake=True)
        self._wake()

    def report_waits(self) -> bool:
        """A background agent's report waits and no prompt will carry it soon (in -p the
        running turn takes it before it ends)."""
        return self._extras.wakes and not self._config.wait_for_background
