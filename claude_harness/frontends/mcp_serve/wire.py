"""The stdio side of `claude-harness mcp serve`: JSON-RPC lines in, JSON-RPC lines out, for a
server that offers tools and nothing else.

Why not the MCP SDK's server: importing it costs 0.4-0.9 s of pydantic models, and a client
does not wait for that. Claude Code in `-p` sends its first request about two seconds after it
starts its MCP servers; a server still starting then is left out of the run, so our tools never
reached its model (its own `claude mcp serve` connects in ~0.3 s). This module needs only the
standard library: `initialize` is answered while the session is still being built (in a
thread), and `tools/list` as soon as it is ready.

It speaks the handshake era of the protocol (`initialize`, versions 2024-11-05 to 2025-11-25).
A client that first probes the stateless era (`server/discover`) gets "method not found", which
clients take as "legacy server" and answer with `initialize` on the same connection.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import Any

PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
METHOD_NOT_FOUND, INVALID_REQUEST, PARSE_ERROR, INTERNAL_ERROR = -32601, -32600, -32700, -32603

ListTools = Callable[[], Awaitable[list[dict[str, Any]]]]
CallTool = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


class ToolWire:
    """One connection: answers requests as they come; calls run side by side (a client may
    send several at once) and a `notifications/cancelled` stops the one it names."""

    def __init__(self, list_tools: ListTools, call_tool: CallTool, *, name: str,
                 version: str, write: Callable[[bytes], None],
                 list_changes: bool = False) -> None:
        self._list_tools = list_tools
        self._call_tool = call_tool
        self._info = {"name": name, "version": version}
        self._write = write
        self._list_changes = list_changes
        self._running: dict[Any, asyncio.Task[None]] = {}

    def tools_changed(self) -> None:
        """Tell the client to list the tools again (only when we said we would)."""
        if self._list_changes:
            self._send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})

    async def handle_line(self, line: bytes) -> None:
        """One line from the client: a request, a notification, or something else."""
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except ValueError as exc:
            return self._error(None, PARSE_ERROR, f"Parse error: {exc}")
        if isinstance(message, list):  # a batch (2025-03-26 only): each in turn
            for item in message:
                await self._dispatch(item)
            return
        await self._dispatch(message)

    async def close(self) -> None:
        """The client closed our stdin: what it asked before is still answered (a client may
        write its requests and close at once); one that is gone ends us with a signal."""
        while self._running:
            await asyncio.wait(list(self._running.values()))

    async def _dispatch(self, message: Any) -> None:
        if not isinstance(message, dict) or not isinstance(message.get("method"), str):
            if isinstance(message, dict) and ("result" in message or "error" in message):
                return  # an answer to a request we never send
            return self._error(_id_of(message), INVALID_REQUEST, "Invalid request")
        method, params = message["method"], message.get("params") or {}
        if "id" not in message:
            return self._notification(method, params)
        request_id = message["id"]
        if method == "initialize":
            return self._reply(request_id, self._initialized(params))
        if method == "ping":
            return self._reply(request_id, {})
        if method == "tools/list":
            task = asyncio.ensure_future(self._answer_list(request_id))
        elif method == "tools/call":
            task = asyncio.ensure_future(self._answer_call(request_id, params))
        else:
            return self._error(request_id, METHOD_NOT_FOUND, f"Method not found: {method}")
        self._running[request_id] = task
        task.add_done_callback(lambda _t: self._running.pop(request_id, None))

    def _initialized(self, params: dict[str, Any]) -> dict[str, Any]:
        asked = params.get("protocolVersion") if isinstance(params, dict) else None
        version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[-1]
        tools = {"listChanged": self._list_changes}
        return {"protocolVersion": version, "capabilities": {"tools": tools},
                "serverInfo": self._info}

    def _notification(self, method: str, params: Any) -> None:
        if method == "notifications/cancelled" and isinstance(params, dict):
            task = self._running.get(params.get("requestId"))
            if task is not None:
                task.cancel()  # no answer is sent for a cancelled request

    async def _answer_list(self, request_id: Any) -> None:
        try:
            tools = await self._list_tools()
        except Exception as exc:  # the session could not be built: say so, keep serving
            return self._error(request_id, INTERNAL_ERROR, str(exc))
        self._reply(request_id, {"tools": tools})

    async def _answer_call(self, request_id: Any, params: Any) -> None:
        if not isinstance(params, dict) or not isinstance(params.get("name"), str):
            return self._error(request_id, -32602, "tools/call needs a tool name")
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict):
            return self._error(request_id, -32602, "tools/call arguments must be an object")
        try:
            result = await self._call_tool(params["name"], arguments)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a failure of ours is the call's error, not the server's end
            result = {"content": [{"type": "text", "text": f"Error: {exc}"}], "isError": True}
        self._reply(request_id, result)

    def _reply(self, request_id: Any, result: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "id": request_id, "result": result})

    def _error(self, request_id: Any, code: int, text: str) -> None:
        self._send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code,
                                                                   "message": text}})

    def _send(self, message: dict[str, Any]) -> None:
        self._write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")


def _id_of(message: Any) -> Any:
    return message.get("id") if isinstance(message, dict) else None


def claim_stdout() -> Callable[[bytes], None]:
    """The protocol's own copy of stdout; fd 1 then points at stderr, so a stray print (ours
    or a library's) cannot corrupt the stream."""
    sys.stdout.flush()
    fd = os.dup(1)
    os.dup2(2, 1)

    def write(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]

    return write


async def serve_lines(wire: ToolWire, read_fd: int = 0) -> None:
    """Feed `wire` the lines of `read_fd` until the client closes it. A thread reads (stdin may
    be a pipe, a socket or a file), the loop answers."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[bytes | None] = asyncio.Queue()

    def read() -> None:
        try:
            with os.fdopen(os.dup(read_fd), "rb") as stream:
                for line in stream:  # readline returns as soon as a line is there
                    loop.call_soon_threadsafe(lines.put_nowait, line)
        except OSError:
            pass  # a closed or broken stdin ends the connection like EOF does
        finally:
            try:
                loop.call_soon_threadsafe(lines.put_nowait, None)
            except RuntimeError:
                pass  # the loop has already ended

    threading.Thread(target=read, name="mcp-serve-stdin", daemon=True).start()
    while (line := await lines.get()) is not None:
        await wire.handle_line(line)
    await wire.close()
