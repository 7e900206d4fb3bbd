"""Run one hook command as a subprocess: JSON in on stdin, bounded output, a hard timeout.

Why each precaution:
- `start_new_session=True`: the hook gets its own process group (so a timeout can kill the
  whole tree, not just `/bin/sh`) and no controlling terminal (a hook must not read the TTY the
  app is drawing on).
- Output is drained to EOF but only a prefix is kept: a hook printing megabytes neither blocks on
  a full pipe nor fills memory.
- stdin is written concurrently with the reads: a hook that ignores its stdin while printing a
  lot would otherwise deadlock against us.
- After the shell exits, a background child may still hold the pipes open; we stop waiting for
  EOF after a short grace instead of hanging until that child dies.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

SHELL = "/bin/sh"
CAPTURE_LIMIT_BYTES = 256 * 1024  # kept per stream: enough for a JSON answer carrying a whole file
_READ_CHUNK = 64 * 1024
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
    """Drains one stream to EOF, keeping at most `limit` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept = bytearray()
        self.total = 0

    async def drain(self, stream: asyncio.StreamReader) -> None:
        while chunk := await stream.read(_READ_CHUNK):
            self.total += len(chunk)
            room = self.limit - len(self.kept)
            if room > 0:
                self.kept += chunk[:room]


async def _feed(stdin: asyncio.StreamWriter | None, data: bytes) -> None:
    if stdin is None:
        return
    try:
        stdin.write(data)
        await stdin.drain()
    except (BrokenPipeError, ConnectionResetError):
        pass  # the hook exited or closed stdin without reading it: that is its right
    finally:
        try:
            stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass


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
    started = time.monotonic()
    try:
        proc = await asyncio.create_subprocess_exec(
            SHELL,
            "-c",
            command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            cwd=str(cwd),
            env=dict(env),
            start_new_session=True,
        )
    except OSError as exc:
        return ProcessResult(None, b"", b"", 0, 0, time.monotonic() - started, spawn_error=str(exc))

    out, err = _Sink(capture_limit), _Sink(capture_limit)
    assert proc.stdout is not None and proc.stderr is not None
    readers = [
        asyncio.create_task(out.drain(proc.stdout)),
        asyncio.create_task(err.drain(proc.stderr)),
    ]

    async def finish() -> int:
        code = (await asyncio.gather(_feed(proc.stdin, stdin_data), proc.wait()))[1]
        await asyncio.wait(readers, timeout=_PIPE_GRACE_S)
        return code

    work = asyncio.create_task(finish())
    watchers: set[asyncio.Task[object]] = {work}
    abort_task = asyncio.create_task(abort.wait()) if abort is not None else None
    if abort_task is not None:
        watchers.add(abort_task)
    timed_out = aborted = False
    code: int | None = None
    try:
        done, _ = await asyncio.wait(
            watchers, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED
        )
        if work in done:
            code = work.result()
        else:
            aborted = abort_task is not None and abort_task in done
            timed_out = not aborted
            kill_group(proc.pid)
            work.cancel()
            await proc.wait()
    except asyncio.CancelledError:
        kill_group(proc.pid)
        raise
    finally:
        for task in (*readers, work, *([abort_task] if abort_task else [])):
            task.cancel()
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
