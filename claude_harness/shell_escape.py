"""`!cmd` in the prompt: run a shell command directly (no model, no permission prompt: the user
typed it) and keep its output for the model's next prompt.

Shared by the Textual app and the plain REPL, so the context the model gets
(<bash-input>/<bash-stdout>/<bash-stderr>) is the same whichever front end ran the command.
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
    proc = await asyncio.create_subprocess_exec(
        "/bin/bash", "-c", command, cwd=str(cwd), stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), timeout)
        code: int | None = proc.returncode
    except TimeoutError:
        _kill_group(proc.pid)
        out, err = await proc.communicate()
        code = None
    except asyncio.CancelledError:  # Esc: stop the whole process group, then give up
        _kill_group(proc.pid)
        with contextlib.suppress(Exception):
            await asyncio.shield(proc.wait())
        raise
    return ShellResult(command, _cut(out.decode("utf-8", "replace")),
                       _cut(err.decode("utf-8", "replace")), code)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
