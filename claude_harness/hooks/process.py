"""Run one hook command as a subprocess: JSON in on stdin, bounded output, a hard timeout.

Why each precaution:
- started by the process guardian (guardian/): nothing the hook starts outlives the harness,
  even after a `kill -9`; and in a session of its own: the hook has its own process group (so
  a timeout can kill the whole tree, not just `/bin/sh`) and no controlling terminal (a hook
  must not read the TTY the app is drawing on).
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
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from claude_harness.guardian.spawn import exit_future, kill_group, spawn_piped

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


class _Reader(asyncio.Protocol):
    """Feeds one output pipe into its sink; says when the pipe is closed (EOF)."""

    def __init__(self, sink: _Sink, closed: asyncio.Future[None]) -> None:
        self.sink = sink
        self.closed = closed

    def data_received(self, data: bytes) -> None:
        self.sink.add(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)


async def _read_pipe(loop: asyncio.AbstractEventLoop, fd: int,
                     sink: _Sink) -> tuple[asyncio.BaseTransport, asyncio.Future[None]]:
    closed: asyncio.Future[None] = loop.create_future()
    transport, _ = await loop.connect_read_pipe(lambda: _Reader(sink, closed),
                                                os.fdopen(fd, "rb", buffering=0))
    return transport, closed


async def _feed(loop: asyncio.AbstractEventLoop, fd: int, data: bytes) -> asyncio.BaseTransport:
    """Hand the payload to the stdin pipe (buffered by the loop) and close it after it; a hook
    that exits or closes stdin without reading it is within its rights."""
    transport, _ = await loop.connect_write_pipe(asyncio.Protocol,
                                                 os.fdopen(fd, "wb", buffering=0))
    try:
        transport.write(data)  # type: ignore[attr-defined]
        transport.close()
    except (BrokenPipeError, ConnectionResetError):
        pass
    return transport


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
    """Run `/bin/sh -c command` under the process guardian; never raises for anything the hook
    does."""
    loop = asyncio.get_running_loop()
    started = time.monotonic()
    try:
        process = spawn_piped([SHELL, "-c", command], cwd, env, stdin=True)
    except (OSError, ValueError) as exc:  # missing cwd, NUL byte in the command, fork failure
        return ProcessResult(None, b"", b"", 0, 0, time.monotonic() - started, spawn_error=str(exc))
    pid = process.child.pid
    exited = exit_future(process.child, loop)
    out, err = _Sink(capture_limit), _Sink(capture_limit)
    transports: list[asyncio.BaseTransport] = []
    abort_task = asyncio.ensure_future(abort.wait()) if abort is not None else None
    timed_out = aborted = False
    try:
        out_pipe, out_closed = await _read_pipe(loop, process.stdout, out)
        assert process.stderr is not None  # no stderr_fd given: it has a pipe of its own
        err_pipe, err_closed = await _read_pipe(loop, process.stderr, err)
        assert process.stdin is not None
        transports += [out_pipe, err_pipe, await _feed(loop, process.stdin, stdin_data)]

        async def finish() -> None:
            await asyncio.shield(exited)  # cancelling `finish` must not cancel `exited`
            await asyncio.wait([out_closed, err_closed], timeout=_PIPE_GRACE_S)

        work = asyncio.ensure_future(finish())
        watchers: set[asyncio.Future[Any]] = {work, *([abort_task] if abort_task else [])}
        try:
            done, _ = await asyncio.wait(watchers, timeout=timeout_s,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            work.cancel()
        if work not in done:
            aborted = abort_task is not None and abort_task in done
            timed_out = not aborted
            kill_group(pid)
            await asyncio.wait([exited], timeout=_PIPE_GRACE_S)
    except asyncio.CancelledError:
        kill_group(pid)
        raise
    finally:
        if abort_task is not None:
            abort_task.cancel()
        for transport in transports:
            transport.close()
    code = None if timed_out or aborted or not exited.done() else exited.result()
    return ProcessResult(
        exit_code=code,
        stdout=bytes(out.kept),
        stderr=bytes(err.kept),
        stdout_total=out.total,
        stderr_total=err.total,
        duration_s=time.monotonic() - started,
        timed_out=timed_out,
        aborted=aborted,
    )
