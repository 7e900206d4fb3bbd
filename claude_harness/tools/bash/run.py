"""Run one foreground command to its end, its timeout, a move to the background, or an interrupt.

The event loop never blocks: the process is read by its own thread (see process.py); this
coroutine waits on "finished", the abort signal, the deadline and a Ctrl+B request, and every
PROGRESS_INTERVAL hands the output that arrived meanwhile to `progress` in one coalesced event.

Reaching the timeout does not kill the command (unless background tasks are disabled): it moves,
still running, to the background registry under the id it was given at start, with its output
file, and the model is told how to follow it. So does a person's Ctrl+B. An interrupt (Esc)
kills the whole process group.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.tool import Progress
from claude_harness.tools.bash.background import REGISTRY, FinishSignal
from claude_harness.tools.bash.capture import CapturedText, StreamCapture, fit_streams
from claude_harness.tools.bash.command_facts import exit_meaning
from claude_harness.tools.bash.foreground import FOREGROUND
from claude_harness.tools.bash.image import MAX_IMAGE_BYTES, sniff_image
from claude_harness.tools.bash.limits import BashLimits
from claude_harness.tools.bash.output_file import OutputFile
from claude_harness.tools.bash.process import ShellProcess, exit_status
from claude_harness.tools.bash.result import BashRun
from claude_harness.tools.bash.workdir import StartDir, build_script, new_cwd_file, read_final_dir

PROGRESS_INTERVAL = 0.1
LEFT_BEHIND_NOTE = (
    "Processes the command left running in the background kept its output open; they were "
    "stopped when the command finished. Use run_in_background for long-running processes."
)
BACKGROUND_CWD_NOTE = (
    "A command moved to the background does not change the shell's working directory for "
    "later commands, even if it ran `cd`."
)

EMPTY_CAPTURE = CapturedText("", "", 0, 0)
StopReason = Literal["timeout", "abort", "user"] | None


@dataclass
class ForegroundOutcome:
    run: BashRun
    final_dir: StartDir | None  # None: the command went to the background; the cwd stays


@dataclass
class _Started:
    """One command's process and everything that must outlive this coroutine if it goes on."""

    run_id: str
    proc: ShellProcess
    stdout: StreamCapture
    stderr: StreamCapture
    output: OutputFile
    finished: FinishSignal
    cwd_file: Path


def _spawn(command: str, cwd: Path, limits: BashLimits, output_dir: Path,
           loop: asyncio.AbstractEventLoop, done: asyncio.Event,
           argv_prefix: Sequence[str]) -> _Started:
    run_id = REGISTRY.next_id()
    output = OutputFile(output_dir / f"{run_id}.output", spill_at=limits.max_output_chars)
    half = max(1, limits.max_output_chars // 2)
    stdout = StreamCapture(half, half, image_limit=MAX_IMAGE_BYTES, sink=output.write)
    stderr = StreamCapture(half, half, sink=output.write)
    finished = FinishSignal()
    finished.add(lambda: _set_threadsafe(loop, done))
    cwd_file = new_cwd_file()
    try:
        proc = ShellProcess(build_script(command, cwd_file), cwd, stdout, stderr,
                            on_finish=finished.fire, argv_prefix=argv_prefix)
    except BaseException:
        cwd_file.unlink(missing_ok=True)
        raise
    return _Started(run_id, proc, stdout, stderr, output, finished, cwd_file)


async def run_foreground(
    command: str,
    cwd: Path,
    timeout_ms: int,
    abort: AbortSignal,
    progress: Progress,
    *,
    limits: BashLimits | None = None,
    output_dir: Path,
    argv_prefix: Sequence[str] = (),
) -> ForegroundOutcome:
    """Run `command` in `cwd`; returns the result and the directory it ended in."""
    limits = limits or BashLimits.from_env()
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    started = _spawn(command, cwd, limits, output_dir, loop, done, argv_prefix)
    handle = FOREGROUND.register(started.run_id, command)
    try:
        reason = await _wait(started, done, handle.requested, timeout_ms, abort, progress)
    except BaseException:  # cancelled: the group must not outlive the call
        started.proc.kill_group()
        _discard(started, keep_output=False)
        raise
    finally:
        FOREGROUND.unregister(handle)
    if reason in ("timeout", "user") and limits.background_enabled:
        return _move_to_background(command, started, reason, timeout_ms, limits)
    outcome: ForegroundOutcome | None = None
    try:
        outcome = await _finish(command, started, reason, timeout_ms, limits, progress, cwd)
        return outcome
    finally:
        _discard(started, keep_output=outcome is not None and bool(outcome.run.output_path))


async def _wait(started: _Started, done: asyncio.Event, requested: asyncio.Event,
                timeout_ms: int, abort: AbortSignal, progress: Progress) -> StopReason:
    """Wait for the process to finish; say why we stopped waiting if it did not."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_ms / 1000
    waits: set[asyncio.Future[Any]] = {asyncio.ensure_future(e.wait()) for e in (done, requested)}
    waits.add(asyncio.ensure_future(abort.wait()))
    try:
        while not done.is_set():
            if abort.aborted:
                return "abort"
            if requested.is_set():
                return "user"
            remaining = deadline - loop.time()
            if remaining <= 0:
                return "timeout"
            await asyncio.wait(waits, timeout=min(PROGRESS_INTERVAL, remaining),
                               return_when=asyncio.FIRST_COMPLETED)
            _emit_progress(progress, started.stdout, started.stderr)
        return None
    finally:
        for task in waits:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _move_to_background(command: str, started: _Started, reason: StopReason, timeout_ms: int,
                        limits: BashLimits) -> ForegroundOutcome:
    """Hand the still-running process to the background registry and tell the model so."""
    out, err = fit_streams(started.stdout.snapshot(), started.stderr.snapshot(),
                           limits.max_output_chars)
    shell = REGISTRY.adopt(started.run_id, command, started.proc, started.output,
                           started.finished, lifetime_ms=limits.background_default_ms,
                           origin="user" if reason == "user" else "timeout",
                           cleanup=lambda: started.cwd_file.unlink(missing_ok=True))
    started.stdout.take()  # what the model sees now is not "new" for TaskOutput
    started.stderr.take()
    run = BashRun(stdout=out, stderr=err, background_id=shell.id,
                  backgrounded_by_user=reason == "user",
                  timed_out_after_ms=timeout_ms if reason == "timeout" else None,
                  lifetime_ms=limits.background_default_ms, output_path=str(shell.output.path),
                  max_output_chars=limits.max_output_chars)
    run.notes.append(BACKGROUND_CWD_NOTE)
    return ForegroundOutcome(run, None)


async def _finish(command: str, started: _Started, reason: StopReason, timeout_ms: int,
                  limits: BashLimits, progress: Progress, cwd: Path) -> ForegroundOutcome:
    proc = started.proc
    notes: list[str] = []
    if reason is not None or proc.pipes_held_open:
        await asyncio.to_thread(proc.kill_group)
        await asyncio.to_thread(proc.stop_reading)
        if reason is None:
            notes.append(LEFT_BEHIND_NOTE)
    _emit_progress(progress, started.stdout, started.stderr)
    run = _build_run(started, reason, timeout_ms, limits)
    if run.exit_code:
        run.exit_meaning = exit_meaning(command, run.exit_code, run.stderr, cwd)
    run.notes.extend(notes)
    return ForegroundOutcome(run, read_final_dir(started.cwd_file, cwd))


def _discard(started: _Started, *, keep_output: bool) -> None:
    """Close the run's files; its output file stays only when the result points at it."""
    started.output.close()
    started.cwd_file.unlink(missing_ok=True)
    if not keep_output:
        started.output.path.unlink(missing_ok=True)


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


def _build_run(started: _Started, reason: StopReason, timeout_ms: int,
               limits: BashLimits) -> BashRun:
    proc, stdout, stderr = started.proc, started.stdout, started.stderr
    run = BashRun(max_output_chars=limits.max_output_chars)
    if reason == "timeout":
        run.timed_out_after_ms = timeout_ms
    elif reason in ("abort", "user") or proc.stopped_by_shutdown:  # not the command's doing
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
    is_text = image is None and oversized is None
    if is_text and started.output.spilled:
        run.output_path, run.output_bytes = str(started.output.path), started.output.total_bytes
    out_text = stdout.snapshot() if is_text else EMPTY_CAPTURE
    run.stdout, run.stderr = fit_streams(out_text, stderr.snapshot(), limits.max_output_chars)
    return run


def _set_threadsafe(loop: asyncio.AbstractEventLoop, event: asyncio.Event) -> None:
    with contextlib.suppress(RuntimeError):  # the loop may be gone when a reader ends late
        loop.call_soon_threadsafe(event.set)
