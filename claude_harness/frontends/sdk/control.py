"""The control protocol's plumbing: answers to the program's requests, and our own requests to
the program (can_use_tool, hook_callback, mcp_message) waiting for its answers.

    {"type": "control_request", "request_id": ID, "request": {"subtype": ..., ...}}
    {"type": "control_response", "response": {"subtype": "success", "request_id": ID,
                                              "response": {...}}}
    {"type": "control_response", "response": {"subtype": "error", "request_id": ID,
                                              "error": "why"}}
    {"type": "control_cancel_request", "request_id": ID}

Our request ids are UUIDs, as Claude Code's are. When we stop waiting (the call it was for was
interrupted) the program is told with a control_cancel_request; when stdin ends, every request
still waiting fails.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Callable, Mapping
from typing import Any

from claude_harness.frontends.sdk.messages import (
    ControlErrorResponse,
    ControlResponse,
    OutboundControlRequest,
    SDKControlCancelRequest,
    SDKControlMcpMessageRequest,
    SDKControlRequest,
    SDKControlResponse,
)

Line = Mapping[str, Any]  # one JSON object on the pipe (a TypedDict of messages.py, mostly)


class ControlError(Exception):
    """The program answered with an error, or can no longer answer (stdin ended)."""


def success(request_id: str, response: Mapping[str, Any] | None = None) -> SDKControlResponse:
    body: ControlResponse = {"subtype": "success", "request_id": request_id}
    if response is not None:
        body["response"] = response
    return {"type": "control_response", "response": body}


def error(request_id: str, message: str, code: str | None = None) -> SDKControlResponse:
    body: ControlErrorResponse = {"subtype": "error", "request_id": request_id, "error": message}
    if code is not None:
        body["error_code"] = code
    return {"type": "control_response", "response": body}


class ControlChannel:
    """Our requests to the program and the futures waiting for their answers."""

    def __init__(self, write: Callable[[Line], None]) -> None:
        self._write = write
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._closed = ""

    async def request(self, body: OutboundControlRequest) -> dict[str, Any]:
        """Send `body` as a control_request; its success answer's `response` (or {})."""
        if self._closed:
            raise ControlError(self._closed)
        request_id = str(uuid.uuid4())
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        line: SDKControlRequest = {"type": "control_request", "request_id": request_id,
                                   "request": body}
        self._write(line)
        try:
            return await future
        except asyncio.CancelledError:
            if not self._closed:
                cancel: SDKControlCancelRequest = {"type": "control_cancel_request",
                                                   "request_id": request_id}
                self._write(cancel)
            raise
        finally:
            self._waiting.pop(request_id, None)

    def answered(self, response: Mapping[str, Any]) -> None:
        """A control_response line's `response` object arrived (ControlResponse or
        ControlErrorResponse, unchecked: read with `.get`)."""
        future = self._waiting.get(str(response.get("request_id")))
        if future is None or future.done():
            return
        if response.get("subtype") == "error":
            future.set_exception(ControlError(str(response.get("error") or "error")))
        else:
            answer = response.get("response")
            future.set_result(answer if isinstance(answer, dict) else {})

    def close(self, reason: str) -> None:
        """Nothing more can be answered: every waiting request fails with `reason`."""
        self._closed = reason
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ControlError(reason))

    async def send(self, server: str, message: dict[str, Any]) -> dict[str, Any] | None:
        """An `sdk` MCP server's JSON-RPC message (the mcp.sdk_transport.SdkMcpChannel)."""
        body: SDKControlMcpMessageRequest = {"subtype": "mcp_message", "server_name": server,
                                             "message": message}
        answer = await self.request(body)
        reply = answer.get("mcp_response")
        return reply if isinstance(reply, dict) else None
