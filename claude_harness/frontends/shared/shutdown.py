"""Dying well on SIGTERM, SIGHUP and SIGINT: the commands die first, then the front end ends.

A terminal closed under the app (SIGHUP), a `kill` or a container stop (SIGTERM), a Ctrl+C sent
to `-p` (SIGINT): each must leave nothing running and exit with the code shells expect (128 + the
signal: 143, 129, 130). The order matters: every running command's process group is killed at
once, inside the handler, before anything that could block or fail; only then does the front end
get its callback to record the interrupted call in the transcript, print `-p`'s result line and
exit with `exit_code_for(sig)`. A second signal while that runs exits at once, and so does the
first once `grace` seconds have passed: a front end whose terminal is gone can block for ever
in its own shutdown (Textual's writer thread dies on the first write that fails with EIO, and
the writes of the shutdown then wait on its full queue), and a process left waiting on a
closed terminal is a process nobody can see to stop.

Front ends own the callback (what to print, how to stop their loop); this module owns the order.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterable
from types import FrameType

DEFAULT_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
GRACE_SECONDS = 5.0  # the transcript and the terminal take well under a second


_WHY = {signal.SIGTERM: "the process was asked to terminate",
        signal.SIGHUP: "the terminal was closed", signal.SIGINT: "Ctrl+C"}


def exit_code_for(sig: int) -> int:
    """The exit status a shell reports for a death by `sig`: 143 for TERM, 129 HUP, 130 INT."""
    return 128 + int(sig)


def stop_reason(sig: signal.Signals) -> str:
    """What a turn stopped by `sig` reports: "Stopped by SIGTERM (the process was asked to
    terminate): running commands were killed." """
    why = _WHY.get(sig)
    return (f"Stopped by {sig.name}{f' ({why})' if why else ''}: running commands were "
            "killed.")


class ShutdownSignals:
    """Handlers that kill every command, then call `on_signal(sig)` once; the process exits
    `grace` seconds later if it has not by then.

    `on_signal` runs on the event loop when `install()` was given one (so it may touch loop
    state and schedule coroutines), else in the signal handler itself. Uninstall restores the
    previous handlers.
    """

    def __init__(self, on_signal: Callable[[signal.Signals], None],
                 signals: Iterable[signal.Signals] = DEFAULT_SIGNALS,
                 grace: float = GRACE_SECONDS) -> None:
        self._on_signal = on_signal
        self._signals = tuple(signals)
        self._grace = grace
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous: dict[signal.Signals, object] = {}
        self.received: signal.Signals | None = None

    def install(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop
        for sig in self._signals:
            if loop is not None:
                loop.add_signal_handler(sig, self._handle, sig, None)
            else:
                self._previous[sig] = signal.signal(sig, self._handle)

    def uninstall(self) -> None:
        for sig in self._signals:
            if self._loop is not None:
                with contextlib.suppress(Exception):
                    self._loop.remove_signal_handler(sig)
            elif sig in self._previous:
                signal.signal(sig, self._previous[sig])  # type: ignore[arg-type]
        self._previous.clear()

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        # imported on the signal, not at install (the app installs this after its first
        # paint): by now the session has loaded it, and before that no command runs
        from claude_harness.tools.bash.process import kill_all_running

        sig = signal.Signals(signum)
        kill_all_running()
        if self.received is not None:  # asked twice: do not wait for the first to finish
            os._exit(exit_code_for(sig))
        self.received = sig
        deadline = threading.Timer(self._grace, os._exit, (exit_code_for(sig),))
        deadline.daemon = True  # an exit in time is not held up by it
        deadline.start()
        self._on_signal(sig)
