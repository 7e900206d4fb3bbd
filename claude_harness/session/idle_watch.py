"""FileChanged and ConfigChange while the session waits for a prompt.

The files a FileChanged matcher names, and the settings files ConfigChange hooks watch, are
looked at before each prompt and after each tool batch; a person reading the screen between
prompts sends neither, and Claude Code fires these hooks when the file changes, not at the next
prompt. So while no job runs, the session looks every `interval` seconds (a few `stat` calls)
and runs the hooks of what changed; what they print is shown at once and what they add for the
model waits for the next prompt, as any hook's context does. Each change is seen once, whoever
looks first (the watches report changes since the last look).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from claude_harness.protocol.events import AgentEvent
from claude_harness.session.prompt.prompt_extras import watched_changes

if TYPE_CHECKING:
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.session.job_queue import JobQueue
    from claude_harness.session.prompt.turn_extras import TurnExtras

WATCHED_EVENTS = ("FileChanged", "ConfigChange")


class IdleWatch:
    def __init__(self, hooks: Callable[[], HookRunner | None], cwd: Callable[[], Path],
                 jobs: JobQueue, extras: TurnExtras, emit: Callable[[AgentEvent], None],
                 interval: float = 1.0) -> None:
        self._hooks = hooks
        self._cwd = cwd
        self._jobs = jobs
        self._extras = extras
        self._emit = emit
        self._interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """At the session's start (the runner is made after the session, by bootstrap)."""
        hooks = self._hooks()
        if hooks is None or not any(hooks.has_hooks(event) for event in WATCHED_EVENTS):
            return
        self._task = asyncio.create_task(self._watch(hooks), name="session-idle-watch")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self, hooks: HookRunner) -> None:
        while True:
            await asyncio.sleep(self._interval)
            if self._jobs.running:
                continue  # the turn looks itself, between tool batches
            try:
                outcomes = await watched_changes(hooks, self._cwd())
            except Exception:  # a watch that fails must not end the session; the next look
                continue      # before a prompt tries again
            for outcome in outcomes:
                for event in self._extras.from_hook(outcome):
                    self._emit(event)
