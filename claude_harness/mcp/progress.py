"""MCP progress notifications as tool progress.

Every tools/call carries a progress token (the SDK sends one when a progress callback is given);
each `notifications/progress` the server sends for it reaches the tool's progress callback as a
plain dict. Both front ends already show a progress dict's `message` line under the running
tool, so no front end needs to know about MCP:

    {"type": "mcp_progress", "progress": 3, "total": 10, "message": "3/10 · Step 3 of 10"}
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

Progress = Callable[[Any], None]


def _number(value: float) -> str:
    return f"{value:g}"


def progress_line(progress: float, total: float | None, message: str | None) -> str:
    """`3/10 · message`, `42% · message` (total 1.0 or 100), or `3 · message`."""
    if total:
        if total in (1, 100) and progress <= total:
            count = f"{100 * progress / total:.0f}%"
        else:
            count = f"{_number(progress)}/{_number(total)}"
    else:
        count = _number(progress)
    return f"{count} · {message}" if message else count


def progress_event(progress: float, total: float | None, message: str | None) -> dict[str, Any]:
    return {"type": "mcp_progress", "progress": progress, "total": total,
            "message": progress_line(progress, total, message)}


def progress_callback(report: Progress) -> Callable[[float, float | None, str | None],
                                                    Awaitable[None]]:
    """The SDK's ProgressFnT, forwarding every notification to the tool's `progress`."""

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        report(progress_event(progress, total, message))

    return on_progress
