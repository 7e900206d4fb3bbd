"""One shell command as a child process: spawned in its own process group, read by one thread.

Why a thread and not asyncio pipes: background shells outlive the tool call (and, in tests, the
event loop that started them), so their reading must not depend on any loop. Foreground calls use
the same machinery and only *await* its completion.

Why a process group: `sleep 100 & sleep 100` leaves children that a plain kill of bash would
orphan. Every command gets a new session, so its group id is its pid and `killpg` reaches
everything it started, short of a process that deliberately leaves the group.

Why a guardian (claude_harness/guardian/): a process group does not die with the harness. Commands are started
by the guardian, a subreaper that outlives the harness by an instant and kills every descendant
(those that left the group too) when the harness goes, even by `kill -9`. Where it cannot run,
commands are spawned directly, as before. `kill_all_running()` is what signal handlers call.

A sandboxed command is the same shell behind a wrapper (`argv_prefix`, e.g. bwrap's arguments).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from claude_harness.guardian import client as guardian
from claude_harness.guardian.spawn import ChildHandle, spawn_piped
from claude_harness.tools.bash.capture import StreamCapture

BASH = "/bin/bash"
READ_CHUNK = 65_536
# After the shell exits, how long to keep reading from pipes a left-behind child still holds.
DRAIN_SECONDS = 1.0
TERM_GRACE_SECONDS = 1.0

# Every command still running, by pid: what kill_all_running() reaches. A plain dict: adding,
# removing and copying its values are atomic, so a signal handler can read it without a lock.
_RUNNING: dict[int, ShellProcess] = {}


def exit_status(returncode: int) -> int:
    """A shell-style exit code: a death by signal N reads as 128 + N, as bash reports it."""
    return 128 - returncode if returncode < 0 else returncode


def kill_all_running() -> None:
    """SIGKILL every running command's process group now, and have the guardian kill whatever
    left its group. For SIGTERM/SIGHUP/SIGINT handlers: takes no lock, never waits."""
    for process in list(_RUNNING.values()):
        process.stopped_by_shutdown = True
        _signal_group(process.pid, signal.SIGKILL)
    keeper = guardian.current()
    if keeper is not None:
        keeper.kill_all(wait=False)


class ShellProcess:
    """A running `/bin/bash -c script`, its two captured streams, and how to stop it."""

    def __init__(
        self,
        script: str,
        cwd: Path,
        stdout: StreamCapture,
        stderr: StreamCapture,
        on_finish: Callable[[], None] | None = None,
        drain_seconds: float | None = DRAIN_SECONDS,
        argv_prefix: Sequence[str] = (),
    ) -> None:
        self.stdout = stdout
        self.stderr = stderr
        self.pipes_held_open = False  # the shell exited but something it started kept our pipes
        self.stopped_by_shutdown = False  # killed by kill_all_running (the harness is exiting)
        self._on_finish = on_finish
        self._drain_seconds = drain_seconds  # None: read until every writer has closed
        self._stop = threading.Event()
        self._finished = threading.Event()
        started = spawn_piped([*argv_prefix, BASH, "-c", script], cwd, os.environ.copy(),
                              stdin=False)
        assert started.stderr is not None
        self._child: ChildHandle = started.child
        self._out_fd, self._err_fd = started.stdout, started.stderr
        self.pid = self._child.pid
        _RUNNING[self.pid] = self
        self._thread = threading.Thread(
            target=self._run, name=f"bash-{self.pid}", daemon=True
        )
        self._thread.start()

    # -- state ---------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        """The shell has exited and its output has been read to the end (or given up on)."""
        return self._finished.is_set()

    @property
    def returncode(self) -> int | None:
        return self._child.returncode

    def wait_finished(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    # -- the reader thread ---------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._read_until_closed()
            while not self._stop.is_set():
                try:
                    self._child.wait(timeout=0.1)
                    break
                except subprocess.TimeoutExpired:
                    continue
        finally:
            for fd in (self._out_fd, self._err_fd):
                with contextlib.suppress(OSError):
                    os.close(fd)
            _RUNNING.pop(self.pid, None)
            self._finished.set()
            if self._on_finish is not None:
                self._on_finish()

    def _read_until_closed(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self._out_fd, selectors.EVENT_READ, self.stdout)
        selector.register(self._err_fd, selectors.EVENT_READ, self.stderr)
        drain_deadline: float | None = None
        try:
            while selector.get_map() and not self._stop.is_set():
                for key, _ in selector.select(timeout=0.1):
                    chunk = os.read(key.fd, READ_CHUNK)
                    if chunk:
                        key.data.write(chunk)
                    else:
                        selector.unregister(key.fileobj)
                if (
                    drain_deadline is None
                    and self._drain_seconds is not None
                    and self._child.poll() is not None
                ):
                    drain_deadline = time.monotonic() + self._drain_seconds
                if drain_deadline is not None and time.monotonic() > drain_deadline:
                    self.pipes_held_open = bool(selector.get_map())
                    return
        finally:
            selector.close()

    # -- stopping ------------------------------------------------------------------------

    def group_alive(self) -> bool:
        """Whether any process is left in the command's process group (zombies do not count)."""
        return group_has_live_members(self.pid)

    def kill_group(self, grace: float = TERM_GRACE_SECONDS) -> None:
        """SIGTERM the whole group, wait up to `grace` for it to go, then SIGKILL what remains.

        Blocking: call it from a worker thread when on the event loop.
        """
        _signal_group(self.pid, signal.SIGTERM)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            self._child.poll()  # reap our own child so its zombie does not count as alive
            if not self.group_alive():
                break
            time.sleep(0.02)
        _signal_group(self.pid, signal.SIGKILL)
        self._child.poll()

    def stop_reading(self, timeout: float = 2.0) -> None:
        """Wait briefly for the reader to reach the end, then make it give up."""
        if not self._finished.wait(timeout):
            self._stop.set()
            self._finished.wait(1.0)


def group_has_live_members(pgid: int) -> bool:
    """True while a non-zombie process belongs to group `pgid`.

    `killpg(pgid, 0)` alone is not enough: a killed grandchild is re-parented to init, and an init
    that is slow to reap (as in many containers) leaves a zombie that still "exists" in the group.
    """
    proc = Path("/proc")
    if not proc.is_dir():
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()  # state, ppid, pgrp, ...
        if len(fields) >= 3 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass
