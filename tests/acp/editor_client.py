"""An ACP client that does what an editor does for the agent, for real: `fs/write_text_file`
writes its buffer and saves the file (as Zed does), `terminal/*` runs the command as a real
process in its own group with its output kept to the byte limit (the last bytes). Every call is
recorded, so a test can say which requests the agent made, in which order."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from acp import RequestError
from acp.schema import (
    CreateTerminalResponse,
    KillTerminalResponse,
    ReleaseTerminalResponse,
    TerminalExitStatus,
    TerminalOutputResponse,
    WaitForTerminalExitResponse,
    WriteTextFileResponse,
)

from tests.acp.acp_client import RecordingClient


@dataclass
class _Terminal:
    process: asyncio.subprocess.Process
    limit: int
    output: bytearray = field(default_factory=bytearray)
    truncated: bool = False
    reader: asyncio.Task[None] | None = None
    released: bool = False

    async def read(self) -> None:
        assert self.process.stdout is not None
        while chunk := await self.process.stdout.read(65536):
            self.output += chunk
            if len(self.output) > self.limit:
                del self.output[: len(self.output) - self.limit]
                self.truncated = True

    def exit_status(self) -> TerminalExitStatus | None:
        code = self.process.returncode
        if code is None:
            return None
        if code < 0:
            return TerminalExitStatus(signal=signal.Signals(-code).name)
        return TerminalExitStatus(exit_code=code)


@dataclass
class EditorClient(RecordingClient):
    """`write_errors`: paths whose write the editor refuses (as a read-only buffer would)."""

    write_errors: set[str] = field(default_factory=set)
    writes: list[tuple[str, str]] = field(default_factory=list)
    calls: list[tuple[str, str]] = field(default_factory=list)  # (method, terminal id)
    created: list[dict[str, Any]] = field(default_factory=list)
    terminals: dict[str, _Terminal] = field(default_factory=dict)

    async def write_text_file(self, content: str, path: str, session_id: str,
                              **_: Any) -> WriteTextFileResponse:
        self.writes.append((path, content))
        if path in self.write_errors:
            raise RequestError(-32603, f"the buffer of {Path(path).name} is read-only")
        self.buffers[path] = content
        Path(path).write_text(content)  # saved, as the editor does
        return WriteTextFileResponse()

    async def create_terminal(self, command: str, session_id: str, args: list[str] | None = None,
                              cwd: str | None = None, env: list[Any] | None = None,
                              output_byte_limit: int | None = None,
                              **_: Any) -> CreateTerminalResponse:
        self.created.append({"command": command, "args": list(args or []), "cwd": cwd,
                             "env": {e.name: e.value for e in env or []},
                             "limit": output_byte_limit})
        process = await asyncio.create_subprocess_exec(
            command, *(args or []), cwd=cwd, env={**os.environ, **self.created[-1]["env"]},
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        terminal_id = f"term-{len(self.terminals) + 1}"
        terminal = _Terminal(process, output_byte_limit or 1 << 20)
        terminal.reader = asyncio.create_task(terminal.read())
        self.terminals[terminal_id] = terminal
        self._record("create", terminal_id)
        return CreateTerminalResponse(terminal_id=terminal_id)

    def _terminal(self, terminal_id: str) -> _Terminal:
        terminal = self.terminals.get(terminal_id)
        if terminal is None or terminal.released:
            raise RequestError(-32602, f"no terminal {terminal_id}")
        return terminal

    def _record(self, method: str, terminal_id: str) -> None:
        self.calls.append((method, terminal_id))
        self.changed.set()

    async def wait_for_terminal_exit(self, session_id: str, terminal_id: str,
                                     **_: Any) -> WaitForTerminalExitResponse:
        self._record("wait_for_exit", terminal_id)
        terminal = self._terminal(terminal_id)
        await terminal.process.wait()
        assert terminal.reader is not None
        await terminal.reader
        status = terminal.exit_status()
        assert status is not None
        return WaitForTerminalExitResponse(exit_code=status.exit_code, signal=status.signal)

    async def terminal_output(self, session_id: str, terminal_id: str,
                              **_: Any) -> TerminalOutputResponse:
        self._record("output", terminal_id)
        terminal = self._terminal(terminal_id)
        if terminal.process.returncode is not None and terminal.reader is not None:
            await terminal.reader
        return TerminalOutputResponse(output=terminal.output.decode("utf-8", "replace"),
                                      truncated=terminal.truncated,
                                      exit_status=terminal.exit_status())

    async def kill_terminal(self, session_id: str, terminal_id: str,
                            **_: Any) -> KillTerminalResponse:
        self._record("kill", terminal_id)
        await self._kill(self._terminal(terminal_id))
        return KillTerminalResponse()

    async def release_terminal(self, session_id: str, terminal_id: str,
                               **_: Any) -> ReleaseTerminalResponse:
        self._record("release", terminal_id)
        terminal = self._terminal(terminal_id)
        await self._kill(terminal)
        terminal.released = True
        return ReleaseTerminalResponse()

    async def _kill(self, terminal: _Terminal) -> None:
        if terminal.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(terminal.process.pid, signal.SIGKILL)
            await terminal.process.wait()
        if terminal.reader is not None:
            await terminal.reader

    async def close(self) -> None:
        for terminal in self.terminals.values():
            await self._kill(terminal)

    def methods(self) -> list[str]:
        return [method for method, _ in self.calls]
