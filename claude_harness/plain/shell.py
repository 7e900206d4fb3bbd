"""`!cmd`: run a shell command directly (no model, no permission prompt: the user typed it) and
keep its output so the next prompt carries it to the model.

The context format (<bash-input>/<bash-stdout>/<bash-stderr>) matches the Textual app's, so a
transcript looks the same whichever front end ran the command.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

MAX_CHARS = 30_000
TIMEOUT = 120.0


@dataclass(frozen=True)
class ShellResult:
    command: str
    stdout: str
    stderr: str
    returncode: int | None  # None: timed out or interrupted

    def display_lines(self, limit: int = 20) -> list[str]:
        body = (self.stdout + self.stderr).rstrip() or "(no output)"
        lines = body.splitlines()
        if len(lines) > limit:
            lines = [*lines[:limit], f"… +{len(lines) - limit} lines"]
        if self.returncode is None:
            lines.append("(stopped)")
        elif self.returncode != 0:
            lines.append(f"(exit {self.returncode})")
        return lines

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


async def run_shell(command: str, cwd: Path, timeout: float = TIMEOUT) -> ShellResult:
    """Run in its own process group so Ctrl+C (task cancel) or the timeout kills all of it."""
    proc = await asyncio.create_subprocess_exec(
        "/bin/bash", "-c", command, cwd=str(cwd), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
        code: int | None = proc.returncode
    except (TimeoutError, asyncio.CancelledError):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = await proc.communicate()
        code = None
    return ShellResult(command, _cut(out.decode("utf-8", "replace")),
                       _cut(err.decode("utf-8", "replace")), code)
