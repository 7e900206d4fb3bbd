"""The transport of an `sdk` MCP server: one hosted inside the program on the Agent SDK pipe.

The program (`create_sdk_mcp_server` in the Python SDK) runs the server side; we run the MCP
client side as for any server, and each JSON-RPC message we write travels as an `mcp_message`
control request over the SDK pipe. The program answers a request with its JSON-RPC response
(a notification with an empty ack), which becomes the message we read. The pipe end is an
`SdkMcpChannel`, given by the SDK front end (`claude_harness/frontends/sdk`); without one (an `sdk`
server in a settings file, outside the SDK) the server fails with a clear reason.

Messages go out concurrently: a long tool call must not hold up a `tools/list` or a ping.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any, Protocol


class SdkMcpChannel(Protocol):
    """Sends one JSON-RPC message to the program's server `server`; returns its JSON-RPC
    answer, or None when there is nothing to read (a notification's ack)."""

    async def send(self, server: str, message: dict[str, Any]) -> dict[str, Any] | None: ...


class NoSdkChannel(RuntimeError):
    """An `sdk` server outside the Agent SDK: nothing hosts it."""


@contextlib.asynccontextmanager
async def sdk_transport(channel: SdkMcpChannel | None, server: str) -> AsyncIterator[Any]:
    """(read stream, write stream) of SessionMessages, as the other transports yield."""
    if channel is None:
        raise NoSdkChannel("an sdk server is hosted by the program driving claude-harness "
                           "through the Agent SDK; none is connected")
    import anyio
    from mcp.shared.message import SessionMessage
    from mcp.types import JSONRPCNotification, JSONRPCRequest, jsonrpc_message_adapter

    to_client, read_stream = anyio.create_memory_object_stream[Any](100)
    write_stream, from_client = anyio.create_memory_object_stream[Any](100)

    async def deliver(message: Any) -> None:
        payload = message.message.model_dump(by_alias=True, mode="json", exclude_none=True)
        try:
            answer = await channel.send(server, payload)
        except Exception as exc:  # noqa: BLE001 - the caller's request fails, not the session
            if not isinstance(message.message, JSONRPCRequest):
                return
            answer = {"jsonrpc": "2.0", "id": payload["id"],
                      "error": {"code": -32603, "message": str(exc) or type(exc).__name__}}
        if answer is None or isinstance(message.message, JSONRPCNotification):
            return
        if "result" not in answer and "error" not in answer:
            return  # an ack with nothing to read
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
            await to_client.send(SessionMessage(
                jsonrpc_message_adapter.validate_python(answer, by_name=False)))

    async def pump(tasks: Any) -> None:
        async with from_client:
            async for message in from_client:
                tasks.start_soon(deliver, message)

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(pump, tasks)
        try:
            yield read_stream, write_stream
        finally:
            tasks.cancel_scope.cancel()
            await to_client.aclose()
            await write_stream.aclose()
