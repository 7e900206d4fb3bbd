"""The Bash commands running in the foreground right now, so a person can send them to the
background by hand (Ctrl+B in the app, `background_tasks` from an SDK client).

A request only sets an event the waiting coroutine watches; the run itself moves the process to
the background registry and answers the model, so there is one path for "timeout reached" and
"moved by hand". Requests may come from any thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from dataclasses import dataclass, field


@dataclass
class ForegroundRun:
    id: str
    command: str
    loop: asyncio.AbstractEventLoop
    started_at: float = field(default_factory=time.time)
    requested: asyncio.Event = field(default_factory=asyncio.Event)

    def request_background(self) -> None:
        with contextlib.suppress(RuntimeError):  # the loop closed: the run is over anyway
            self.loop.call_soon_threadsafe(self.requested.set)


class ForegroundRuns:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[str, ForegroundRun] = {}

    def register(self, run_id: str, command: str) -> ForegroundRun:
        """Called by the run itself, on its event loop."""
        run = ForegroundRun(run_id, command, asyncio.get_running_loop())
        with self._lock:
            self._runs[run_id] = run
        return run

    def unregister(self, run: ForegroundRun) -> None:
        with self._lock:
            self._runs.pop(run.id, None)

    def running(self) -> list[ForegroundRun]:
        with self._lock:
            return list(self._runs.values())

    def background(self, run_id: str) -> bool:
        """Move one run to the background; False when it is not running (any more)."""
        with self._lock:
            run = self._runs.get(run_id)
        if run is None:
            return False
        run.request_background()
        return True

    def background_all(self) -> list[str]:
        """Ctrl+B: move every foreground command to the background; returns their ids."""
        runs = self.running()
        for run in runs:
            run.request_background()
        return [run.id for run in runs]


FOREGROUND = ForegroundRuns()
