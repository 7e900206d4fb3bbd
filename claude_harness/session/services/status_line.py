"""The session's side of the status line command: tell the runner what changed, report its line.

The settings key `statusLine` (read at start-up) names a command; after each turn and on every
mode, model or output-style change the session hands Claude Code's JSON to the StatusLineRunner
(statusline.py), which runs the command in the background (debounced, with a timeout, the last
good line kept). Each new first line comes out as a StatusLineChanged event that every front end
draws at its bottom. Nothing here waits: a slow command never holds up a turn or the input.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from claude_harness.protocol.events import SessionEvent, StatusLineChanged

if TYPE_CHECKING:
    from claude_harness.session.services.status_line_command import (
        SessionState,
        StatusLineConfig,
        StatusLineOutput,
        StatusLineRunner,
    )


class StatusLineFeed:
    def __init__(self, config: StatusLineConfig | None, cwd: Path,
                 emit: Callable[[SessionEvent], None]) -> None:
        self.config = config
        self.cwd = cwd
        self._emit = emit
        self._runner: StatusLineRunner | None = None
        self._started = time.monotonic()

    @property
    def enabled(self) -> bool:
        return self.config is not None

    def _updated(self, output: StatusLineOutput) -> None:
        assert self.config is not None
        line = output.first_line
        self._emit(StatusLineChanged(" " * self.config.padding + line if line else ""))

    def refresh(self, state: SessionState) -> None:
        """Run the command soon with `state` (must be called on the session's event loop)."""
        if self.config is None:
            return
        if self._runner is None:
            from claude_harness.session.services.status_line_command import (
                StatusLineRunner,  # a status line is set
            )

            self._runner = StatusLineRunner(self.config, self.cwd, self._updated)
        elapsed = int((time.monotonic() - self._started) * 1000)
        self._runner.request(replace(state, duration_ms=elapsed).payload())

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.aclose()

