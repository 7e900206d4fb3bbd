"""Run one foreground command to its end, its timeout, or the user's interrupt.

The event loop never blocks: the process is read by its own thread (see process.py); this
coroutine waits on "finished", the abort signal and the deadline, and every PROGRESS_INTERVAL
hands the output that arrived meanwhile to `progress` in one coalesced event.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.tool import Progress
from claude_harness.tools.bash.capture import CapturedText, StreamCapture, fit_streams
from claude_harness.tools.bash.image import MAX_IMAGE_BYTES, sniff_image
from claude_harness.tools.bash.process import ShellProcess, exit_status
from claude_harness.tools.bash.result import MAX_OUTPUT_CHARS, BashRun
from claude_harness.tools.bash.workdir import StartDir, build_script, new_cwd_file, read_final_dir

PROGRESS_INTERVAL = 0.1
LEFT_BEHIND_NOTE = (
    "Processes the command left running in the background kept its output open; they were "
    "stopped when the command finished. Use run_in_background for long-running processes."
)

EMPTY_CAPTURE = CapturedText("", "", 0, 0)
StopReason = Literal["timeout", "abort"] | None


@dataclass
class ForegroundOutcome:
    run: BashRun
    final_dir: StartDir


async def run_foreground(
    command: str, cwd: Path, timeout_ms: int, abort: AbortSignal, progress: Progress,
    argv_prefix: Sequence[str] = (),
) -> ForegroundOutcome:
    """Run `command` in `cwd`; returns the result and the directory it ended in."""
    cwd_file = new_cwd_file()
    try:
        stdout = StreamCapture(image_limit=MAX_IMAGE_BYTES)
        stderr = StreamCapture()
        loop = asyncio.get_running_loop()
        done = asyncio.Event()
        proc = ShellProcess(
            build_script(command, cwd_file),
            cwd,
            stdout,
            stderr,
            on_finish=lambda: _set_threadsafe(loop, done),
            argv_prefix=argv_prefix,
        )
        try:
            reason = await _wait(proc, done, timeout_ms, abort, progress, loop.time())
        except BaseException:  # cancelled: the group must not outlive the call
            proc.kill_group()
            raise
        notes: list[str] = []
        if reason is not None or proc.pipes_held_open:
            await asyncio.to_thread(proc.kill_group)
            await asyncio.to_thread(proc.stop_reading)
            if reason is None:
                notes.append(LEFT_BEHIND_NOTE)
        _emit_progress(progress, stdout, stderr)
        run = _build_run(proc, stdout, stderr, reason, timeout_ms)
        run.notes.extend(notes)
        return ForegroundOutcome(run, read_final_dir(cwd_file, cwd))
    finally:
        cwd_file.unlink(missing_ok=True)


async def _wait(
    proc: ShellProcess,
    done: asyncio.Event,
    timeout_ms: int,
    abort: AbortSignal,
    progress: Progress,
    started: float,
) -> StopReason:
    """Wait for the process to finish; say why we stopped waiting if it did not."""
    loop = asyncio.get_running_loop()
    deadline = started + timeout_ms / 1000
    done_task = asyncio.ensure_future(done.wait())
    abort_task = asyncio.ensure_future(abort.wait())
    try:
        while not done.is_set():
            if abort.aborted:
                return "abort"
            remaining = deadline - loop.time()
            if remaining <= 0:
                return "timeout"
            await asyncio.wait(
                {done_task, abort_task},
                timeout=min(PROGRESS_INTERVAL, remaining),
                return_when=asyncio.FIRST_COMPLETED,
            )
            _emit_progress(progress, proc.stdout, proc.stderr)
        return None
    finally:
        for task in (done_task, abort_task):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _emit_progress(progress: Progress, stdout: StreamCapture, stderr: StreamCapture) -> None:
    out, err = stdout.take_recent(), stderr.take_recent()
    if out or err:
        progress(
            {
                "stdout": out,
                "stderr": err,
                "total_bytes": stdout.total_bytes + stderr.total_bytes,
            }
        )


def _build_run(
    proc: ShellProcess,
    stdout: StreamCapture,
    stderr: StreamCapture,
    reason: StopReason,
    timeout_ms: int,
) -> BashRun:
    run = BashRun()
    if reason == "timeout":
        run.timed_out_after_ms = timeout_ms
    elif reason == "abort":
        run.interrupted = True
    elif proc.returncode is not None:
        run.exit_code = exit_status(proc.returncode)
    image = stdout.image_bytes() if not run.failed else None
    oversized = stdout.oversized_image()
    if image is not None:
        run.image, run.image_media_type = image, sniff_image(image) or ""
    if oversized is not None:
        run.notes.append(
            f"stdout was a {oversized} image of {stdout.total_bytes:,} bytes, too large to "
            f"return (limit {MAX_IMAGE_BYTES:,} bytes); write it to a file and inspect it instead."
        )
    out_text = stdout.snapshot() if image is None and oversized is None else EMPTY_CAPTURE
    run.stdout, run.stderr = fit_streams(out_text, stderr.snapshot(), MAX_OUTPUT_CHARS)
    return run


def _set_threadsafe(loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
    with contextlib.suppress(RuntimeError):  # the loop may be gone when a reader ends late
        loop.call_soon_threadsafe(event.set)
