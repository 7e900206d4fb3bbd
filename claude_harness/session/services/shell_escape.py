"""`!cmd` in the prompt: run a shell command directly (no model, no permission prompt: the user
typed it) and keep its output for the model's next prompt.

Shared by the Textual app and the plain REPL, so the context the model gets
(<bash-input>/<bash-stdout>/<bash-stderr>) is the same whichever front end ran the command.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from pathlib import Path

from claude_harness.guardian.spawn import exit_future, kill_group, spawn_piped

MAX_CHARS = 30_000
TIMEOUT = 120.0


@dataclass(frozen=True)
class ShellResult:
    command: str
    stdout: str
    stderr: str
    returncode: int | None  # None: timed out

    @property
    def failed(self) -> bool:
        return self.returncode != 0

    def display_lines(self, limit: int = 20) -> list[str]:
        """What the user sees: the output (at most `limit` lines) and a status line if it
        failed."""
        lines = ((self.stdout + self.stderr).rstrip() or "(no output)").splitlines()
        if len(lines) > limit:
            lines = [*lines[:limit], f"… +{len(lines) - limit} lines"]
        if self.returncode is None:
            lines.append("(timed out)")
        elif self.returncode != 0:
            lines.append(f"(exit {self.returncode})")
        return lines

    def display(self) -> str:
        return "\n".join(self.display_lines())

    def context_text(self) -> str:
        """What the model sees in front of the next prompt."""
        parts = [f"<bash-input>{self.command}</bash-input>",
                 f"<bash-stdout>{self.stdout}</bash-stdout>",
                 f"<bash-stderr>{self.stderr}</bash-stderr>"]
        if self.returncode != 0:
            parts.append(f"<bash-exit-code>{self.returncode}</bash-exit-code>")
        return "\n".join(parts)


def _cut(text: str) -> str:
    if len(text) <= MAX_CHARS:
        return text
    half = MAX_CHARS // 2
    return f"{text[:half]}\n… [{len(text) - MAX_CHARS} characters cut] …\n{text[-half:]}"


async def run_shell_escape(command: str, cwd: Path, timeout: float = TIMEOUT) -> ShellResult:
    """Run `command` in bash under the process guardian (it dies with the harness, whatever
    it started too); a timeout or Esc kills its whole process group."""
    loop = asyncio.get_running_loop()
    process = spawn_piped(["/bin/bash", "-c", command], cwd, os.environ.copy(), stdin=False)
    exited = exit_future(process.child, loop)
    out = asyncio.ensure_future(_read_all(loop, process.stdout))
    assert process.stderr is not None  # no stderr_fd given: it has a pipe of its own
    err = asyncio.ensure_future(_read_all(loop, process.stderr))
    try:
        _done, pending = await asyncio.wait([exited, out, err], timeout=timeout)
    except asyncio.CancelledError:  # Esc: stop the whole process group, then give up
        kill_group(process.child.pid)
        out.cancel()
        err.cancel()
        raise
    if pending:  # timed out: what it printed so far, once the kill closes its pipes
        kill_group(process.child.pid)
    code = None if pending else exited.result()
    return ShellResult(command, _cut((await out).decode("utf-8", "replace")),
                       _cut((await err).decode("utf-8", "replace")), code)


async def _read_all(loop: asyncio.AbstractEventLoop, fd: int) -> bytes:
    reader = asyncio.StreamReader()
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                os.fdopen(fd, "rb", buffering=0))
    try:
        return await reader.read()
    finally:
        transport.close()
