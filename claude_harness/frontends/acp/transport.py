"""The stdio framing (newline-delimited JSON-RPC) with a tolerant reader.

The package's own reader skips a line that is not JSON without a word, and a line that is JSON
but not an object ends its receive loop (and so the session). Here both are answered with the
JSON-RPC error they are (-32700 parse error, -32600 invalid request) and the next line is read
as if nothing happened: a client's bug never costs the person their session.

The protocol is written to a duplicate of the process's stdout taken at start-up, and fd 1
then points at stderr, so nothing else (a library's print, a warning) can corrupt the stream."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from acp.task import MessageSender, TaskSupervisor

READ_LIMIT = 50 * 1024 * 1024  # images come inline: a prompt line may be large


def _error(code: int, message: str, request_id: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}


def problem(line: bytes) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(the message, None) for a well-formed line; (None, the error to answer) otherwise."""
    try:
        message = json.loads(line)
    except ValueError as exc:
        return None, _error(-32700, f"Parse error: the line is not JSON ({exc})")
    if not isinstance(message, dict):
        return None, _error(-32600, "Invalid request: a JSON-RPC message is a JSON object")
    request_id = message.get("id")
    if request_id is not None and not isinstance(request_id, (str, int)):
        return None, _error(-32600, "Invalid request: the id must be a string or a number")
    if "method" in message and not isinstance(message["method"], str):
        return None, _error(-32600, "Invalid request: the method must be a string", request_id)
    if "method" not in message and "id" not in message:
        return None, _error(-32600, "Invalid request: no method and no id")
    return message, None


class FdWriter:
    """What MessageSender needs of a writer, over a file descriptor (a pipe, a file or a
    terminal alike): a message is written whole before the next one starts."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view):]

    async def drain(self) -> None:
        return None


class StdioTransport:
    """`acp`'s message transport over this process's stdin and (a copy of) its stdout."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader = reader
        self._supervisor = TaskSupervisor(source="claude-harness.acp")
        self._sender = MessageSender(writer, self._supervisor)

    @classmethod
    async def open(cls) -> StdioTransport:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=READ_LIMIT)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        protocol_fd = os.dup(1)
        os.dup2(2, 1)  # stray writes to stdout go to stderr from now on
        sys.stdout = sys.stderr
        return cls(reader, FdWriter(protocol_fd))  # type: ignore[arg-type]

    async def send(self, message: dict[str, Any]) -> None:
        await self._sender.send(message)

    async def receive(self) -> dict[str, Any] | None:
        while True:
            try:
                line = await self._reader.readline()
            except ValueError:  # longer than READ_LIMIT: drop what is buffered, say so
                await self.send(_error(-32600, "Invalid request: the line is too long"))
                continue
            if not line:
                return None
            if not line.strip():
                continue
            message, error = problem(line)
            if message is not None:
                return message
            await self.send(error or {})

    async def close(self) -> None:
        await self._sender.close()
        await self._supervisor.shutdown()
