"""Task-augmented tool calls (MCP 2025-11-25 `tasks`), for tools whose listing says
`execution.taskSupport: "required"`.

Such a tool cannot be called plainly: the call creates a task (`CreateTaskResult`), then the
client waits for the task's result with `tasks/result`, which blocks until the task ends. While
it runs, the server may ask the user questions through that same request (elicitation: answered
by our callbacks as usual), and `tasks/get` polls report its status message as tool progress.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

DEFAULT_TTL_MS = 300_000
DEFAULT_POLL_SECONDS = 1.0


def requires_task(tool: Any) -> bool:
    execution = getattr(tool, "execution", None)
    return getattr(execution, "task_support", None) == "required"


async def call_as_task(client: Any, name: str, arguments: dict[str, Any],
                       report: Callable[[Any], None], timeout: float | None = None) -> Any:
    """Create the task, report its status while waiting for its result; a CallToolResult."""
    import mcp_types as t

    session = client.session
    task = (await _create_task(session, name, arguments, timeout)).task
    poller = asyncio.ensure_future(_poll_status(session, task, report))
    try:
        payload = await session.send_request(
            t.GetTaskPayloadRequest(params=t.GetTaskPayloadRequestParams(task_id=task.task_id)),
            t.CallToolResult, request_read_timeout_seconds=timeout)
    except BaseException:
        with contextlib.suppress(Exception):
            await session.send_request(
                t.CancelTaskRequest(params=t.CancelTaskRequestParams(task_id=task.task_id)),
                t.CancelTaskResult, request_read_timeout_seconds=5)
        raise
    finally:
        poller.cancel()
    return payload


async def _create_task(session: Any, name: str, arguments: dict[str, Any],
                       timeout: float | None) -> Any:
    """tools/call with `task`, answered by a CreateTaskResult.

    The SDK checks every tools/call answer against CallToolResult and has no client side for
    task-augmented calls yet, so this one request goes through its dispatcher directly (the
    same stamping and framing `ClientSession.send_request` uses)."""
    import mcp_types as t

    request = t.CallToolRequest(params=t.CallToolRequestParams(
        name=name, arguments=arguments, task=t.TaskMetadata(ttl=DEFAULT_TTL_MS)))
    data = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    opts: dict[str, Any] = {}
    session._stamp(data, opts)  # noqa: SLF001 - see the docstring
    if timeout is not None:
        opts["timeout"] = timeout
    raw = await session._dispatcher.send_raw_request(  # noqa: SLF001
        data["method"], data.get("params"), opts)
    return t.CreateTaskResult.model_validate(raw, by_name=False)


async def _poll_status(session: Any, task: Any, report: Callable[[Any], None]) -> None:
    """Each new status message becomes a progress line until the task ends."""
    import mcp_types as t

    interval = (task.poll_interval or DEFAULT_POLL_SECONDS * 1000) / 1000
    last = None
    while True:
        try:
            state = await session.send_request(
                t.GetTaskRequest(params=t.GetTaskRequestParams(task_id=task.task_id)),
                t.GetTaskResult)
        except Exception:  # noqa: BLE001 - status is a nicety; the result request decides
            return
        line = state.status_message or state.status
        if line != last:
            last = line
            report({"type": "mcp_task", "status": state.status, "message": line})
        if state.status in ("completed", "failed", "cancelled"):
            return
        await asyncio.sleep(max(interval, 0.2))
