"""What an ACP client does for our tools, as the narrow services they ask for
(protocol/client_files.py, protocol/client_terminal.py): writing a file through the editor's
buffer (`fs/write_text_file`) and running a command in its terminal (`terminal/*`).

Each call is one request to the client for one session; its errors (an ACP error, a closed
connection, a timeout) are raised to the tool, which turns them into its result."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from acp.schema import EnvVariable

from claude_harness.protocol.client_terminal import TerminalExit, TerminalText

REQUEST_TIMEOUT = 30.0  # seconds a client may take to answer a terminal request


@dataclass
class _SessionRequests:
    """Requests for one session: `session` is the AcpSession (its client, and its id, known once
    the session has started)."""

    session: Any

    @property
    def client(self) -> Any:
        return self.session.client

    @property
    def session_id(self) -> str:
        return str(self.session.id)


class AcpFileWriter(_SessionRequests):
    async def __call__(self, path: str, text: str) -> None:
        await self.client.write_text_file(session_id=self.session_id, path=path, content=text)


class AcpTerminals(_SessionRequests):
    """ClientTerminals over one ACP session. Waiting for an exit has no timeout of its own: the
    Bash call's timeout and interrupt decide how long (they kill the terminal)."""

    async def create(self, command: str, args: list[str], cwd: str, env: dict[str, str],
                     output_byte_limit: int) -> str:
        response = await asyncio.wait_for(self.client.create_terminal(
            session_id=self.session_id, command=command, args=args, cwd=cwd,
            env=[EnvVariable(name=k, value=v) for k, v in env.items()],
            output_byte_limit=output_byte_limit), REQUEST_TIMEOUT)
        return str(response.terminal_id)

    async def wait_for_exit(self, terminal_id: str) -> TerminalExit:
        response = await self.client.wait_for_terminal_exit(session_id=self.session_id,
                                                            terminal_id=terminal_id)
        return TerminalExit(response.exit_code, response.signal)

    async def output(self, terminal_id: str) -> TerminalText:
        response = await asyncio.wait_for(self.client.terminal_output(
            session_id=self.session_id, terminal_id=terminal_id), REQUEST_TIMEOUT)
        ended = response.exit_status
        return TerminalText(response.output, bool(response.truncated),
                            TerminalExit(ended.exit_code, ended.signal) if ended else None)

    async def kill(self, terminal_id: str) -> None:
        await asyncio.wait_for(self.client.kill_terminal(session_id=self.session_id,
                                                         terminal_id=terminal_id),
                               REQUEST_TIMEOUT)

    async def release(self, terminal_id: str) -> None:
        await asyncio.wait_for(self.client.release_terminal(session_id=self.session_id,
                                                            terminal_id=terminal_id),
                               REQUEST_TIMEOUT)
