"""Run one foreground command in the front end's client terminal (protocol/client_terminal.py):
an editor speaking ACP shows it live in its own terminal view.

The command line is the one our own runner would start: the same pwd-reporting script
(workdir.py, so a `cd` carries over to the next call), behind the same bubblewrap wrapper when
the command is sandboxed (`argv_prefix`), with our environment. The client reports the output as
one terminal stream (stdout and stderr together) and keeps its last bytes past the limit.

What does not map, and so stays ours: a timeout or an interrupt kills the command (there is no
moving a client's terminal to our background registry; Ctrl+B does not reach it either), and
`run_in_background` commands run in our own runner (tool.py). The client owns the process:
our guardian (process.py) does not, so releasing the terminal is what ends it, on every way out
of the call."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from claude_harness.protocol.client_terminal import ClientTerminals, TerminalExit
from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.progress import TerminalProgress
from claude_harness.protocol.tool import Progress, ToolError
from claude_harness.tools.bash.command_facts import exit_meaning
from claude_harness.tools.bash.limits import BashLimits
from claude_harness.tools.bash.process import BASH
from claude_harness.tools.bash.result import BashRun, cut_middle
from claude_harness.tools.bash.run import ForegroundOutcome
from claude_harness.tools.bash.workdir import build_script, new_cwd_file, read_final_dir

StopReason = Literal["timeout", "abort"] | None


async def run_in_client_terminal(
    terminals: ClientTerminals,
    command: str,
    cwd: Path,
    timeout_ms: int,
    abort: AbortSignal,
    progress: Progress,
    *,
    limits: BashLimits,
    argv_prefix: Sequence[str] = (),
) -> ForegroundOutcome:
    """Run `command` in a client terminal to its end, its timeout or an interrupt."""
    cwd_file = new_cwd_file()
    argv = [*argv_prefix, BASH, "-c", build_script(command, cwd_file)]
    try:
        terminal_id = await _create(terminals, argv, cwd, limits)
        progress(TerminalProgress(terminal_id))
        try:
            reason, ended = await _wait(terminals, terminal_id, timeout_ms, abort)
            if reason is not None:
                await terminals.kill(terminal_id)
            shown = await terminals.output(terminal_id)
        finally:  # also when cancelled: the terminal must not outlive the call
            with contextlib.suppress(Exception):
                await asyncio.shield(terminals.release(terminal_id))
        run = _build_run(shown.output, shown.truncated, ended or shown.exit, reason, timeout_ms,
                         limits)
        if run.exit_code:
            run.exit_meaning = exit_meaning(command, run.exit_code, run.stdout, cwd)
        return ForegroundOutcome(run, read_final_dir(cwd_file, cwd))
    finally:
        cwd_file.unlink(missing_ok=True)


async def _create(terminals: ClientTerminals, argv: list[str], cwd: Path,
                  limits: BashLimits) -> str:
    try:
        return await terminals.create(argv[0], argv[1:], str(cwd), dict(os.environ),
                                      limits.max_output_chars)
    except Exception as exc:  # the client's refusal, in its words; nothing ran
        raise ToolError(f"The editor could not start the command in its terminal: {exc}",
                        code="client_terminal_failed") from exc


async def _wait(terminals: ClientTerminals, terminal_id: str, timeout_ms: int,
                abort: AbortSignal) -> tuple[StopReason, TerminalExit | None]:
    """Wait for the exit, the timeout or the abort, whichever comes first."""
    exited = asyncio.ensure_future(terminals.wait_for_exit(terminal_id))
    aborted = asyncio.ensure_future(abort.wait())
    try:
        done, _ = await asyncio.wait({exited, aborted}, timeout=timeout_ms / 1000,
                                     return_when=asyncio.FIRST_COMPLETED)
        if exited in done:
            return None, exited.result()
        return ("abort" if aborted in done else "timeout"), None
    finally:
        for task in (exited, aborted):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _exit_code(ended: TerminalExit | None) -> int | None:
    """A shell-style code: a death by a signal reads as 128 + its number, as bash says."""
    if ended is None:
        return None
    if ended.exit_code is not None:
        return ended.exit_code
    number = getattr(signal, ended.signal or "", None)
    return 128 + int(number) if number is not None else None


def _build_run(output: str, truncated: bool, ended: TerminalExit | None, reason: StopReason,
               timeout_ms: int, limits: BashLimits) -> BashRun:
    run = BashRun(stdout=cut_middle(output, limits.max_output_chars),
                  max_output_chars=limits.max_output_chars)
    if reason == "timeout":
        run.timed_out_after_ms = timeout_ms
    elif reason == "abort":
        run.interrupted = True
    else:
        run.exit_code = _exit_code(ended)
    if truncated:
        run.notes.append(f"The editor's terminal kept only the last {limits.max_output_chars:,} "
                         "bytes of the output; the start is not shown.")
    return run
