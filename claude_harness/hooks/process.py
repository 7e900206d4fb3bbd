"""Run one hook command as a subprocess: JSON in on stdin, bounded output, a hard timeout.

Why each precaution:
- `start_new_session=True`: the hook gets its own process group (so a timeout can kill the
  whole tree, not just `/bin/sh`) and no controlling terminal (a hook must not read the TTY the
  app is drawing on).
- Output is drained to EOF but only a prefix is kept: a hook printing megabytes neither blocks on
  a full pipe nor fills memory.
- stdin is handed to the event loop's buffered pipe writer: a hook that ignores its stdin while
  printing a lot cannot deadlock against us.
- After the shell exits, a background child may still hold the pipes open; we stop waiting for
  EOF after a short grace instead of hanging until that child dies.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

SHELL = "/bin/sh"
CAPTURE_LIMIT_BYTES = 256 * 1024  # kept per stream: enough for a JSON answer carrying a whole file
_PIPE_GRACE_S = 0.5  # how long to wait for EOF once the hook process itself has exited


class Waitable(Protocol):
    """asyncio.Event or the agent's AbortSignal: anything with `await x.wait()`."""

    async def wait(self) -> object: ...


@dataclass(frozen=True)
class ProcessResult:
    """What a hook process did. `exit_code` is None when it never finished (timeout/abort/spawn)."""

    exit_code: int | None
    stdout: bytes
    stderr: bytes
    stdout_total: int  # bytes the hook wrote, including the part not kept
    stderr_total: int
    duration_s: float
    timed_out: bool = False
    aborted: bool = False
    spawn_error: str | None = None


class _Sink:
    """Keeps at most `limit` bytes of one stream while counting everything written to it."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = bytearray()
        self.total = 0

    def add(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.limit - len(self.kept)
        if room > 0:
            self.kept += chunk[:room]


class _HookProtocol(asyncio.SubprocessProtocol):
    """Collects bounded output and reports process exit and pipe closure separately.

    asyncio's own `Process.wait()` only returns once the pipes are closed too, which a
    backgrounded grandchild can delay indefinitely; the protocol's `process_exited` does not.
    """

    def __init__(self, limit: int, loop: asyncio.AbstractEventLoop) -> None:
        self.out = _Sink(limit)
        self.err = _Sink(limit)
        self.exited: asyncio.Future[None] = loop.create_future()
        self.pipes_closed: asyncio.Future[None] = loop.create_future()
        self._open_pipes = {1, 2}

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        (self.out if fd == 1 else self.err).add(data)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        self._open_pipes.discard(fd)
        if not self._open_pipes and not self.pipes_closed.done():
            self.pipes_closed.set_result(None)

    def process_exited(self) -> None:
        if not self.exited.done():
            self.exited.set_result(None)


def _feed(transport: asyncio.SubprocessTransport, data: bytes) -> None:
    """Hand the payload to the stdin pipe (buffered by the loop) and close it after it."""
    stdin = transport.get_pipe_transport(0)
    if stdin is None:
        return
    try:
        stdin.write(data)  # type: ignore[attr-defined]
        stdin.close()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the hook exited or closed stdin without reading it: that is its right


def kill_group(pid: int) -> None:
    """SIGKILL the hook's whole process group (its pgid is its pid: it leads a new session)."""
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


async def run_process(
    command: str,
    stdin_data: bytes,
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout_s: float,
    abort: Waitable | None = None,
    capture_limit: int = CAPTURE_LIMIT_BYTES,
) -> ProcessResult:
    """Run `/bin/sh -c command`; never raises for anything the hook does."""
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    try:
        transport, protocol = await loop.subprocess_exec(
            lambda: _HookProtocol(capture_limit, loop),
            SHELL,
            "-c",
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(cwd),
            env=dict(env),
            start_new_session=True,
        )
    except (OSError, ValueError) as exc:  # missing cwd, NUL byte in the command, fork failure
        return ProcessResult(None, b"", b"", 0, 0, time.monotonic() - started, spawn_error=str(exc))

    pid = transport.get_pid()
    _feed(transport, stdin_data)

    async def finish() -> None:
        await protocol.exited
        await asyncio.wait([protocol.pipes_closed], timeout=_PIPE_GRACE_S)

    work = asyncio.ensure_future(finish())
    watchers: set[asyncio.Future[object]] = {work}
    abort_task = asyncio.ensure_future(abort.wait()) if abort is not None else None
    if abort_task is not None:
        watchers.add(abort_task)
    timed_out = aborted = False
    try:
        done, _ = await asyncio.wait(
            watchers, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
        )
        if work not in done:
            aborted = abort_task is not None and abort_task in done
            timed_out = not aborted
            kill_group(pid)
            await asyncio.wait([protocol.exited], timeout=_PIPE_GRACE_S)
    except asyncio.CancelledError:
        kill_group(pid)
        raise
    finally:
        work.cancel()
        if abort_task is not None:
            abort_task.cancel()
        transport.close()
    code = None if timed_out or aborted else transport.get_returncode()
    return ProcessResult(
        exit_code=code,
        stdout=bytes(protocol.out.kept),
        stderr=bytes(protocol.err.kept),
        stdout_total=protocol.out.total,
        stderr_total=protocol.err.total,
        duration_s=time.monotonic() - started,
        timed_out=timed_out,
        aborted=aborted,
    )
