"""Pure functions that turn tool inputs, progress and results into short text for people.

Shared by both front ends (the Textual app's widgets, the plain REPL's Rich output) and the
transcript export, so a tool call reads the same everywhere; each front end only styles it.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from claude_harness.frontends.shared.terminal_text import show_controls
from claude_harness.protocol.progress import (
    AgentStep,
    MatchProgress,
    MessageProgress,
    OutputProgress,
)
from claude_harness.text.bounded_diff import unified_lines
from claude_harness.tools.elapsed import format_elapsed

if TYPE_CHECKING:
    from claude_harness.protocol.tool import ToolPresentation

__all__ = ["format_elapsed"]  # where the front ends import it from

PREVIEW_LINES = 5
EXPANDED_LINES = 400


def content_text(content: str | list[dict[str, Any]]) -> str:
    """The text of a tool_result content (image blocks become a placeholder)."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif block.get("type") == "image":
            parts.append("[image]")
    return "\n".join(parts)


def strip_error_wrapper(text: str) -> str:
    return text.replace("<tool_use_error>", "").replace("</tool_use_error>", "").strip()


def header_argument(name: str, inp: dict[str, Any], key_argument: str = "",
                    width: int = 120) -> str:
    """The one argument that identifies a call in its header line."""
    value = key_argument
    if not value:
        for key in ("command", "file_path", "path", "pattern", "notebook_path", "url", "query",
                    "description", "bash_id", "shell_id"):
            if isinstance(inp.get(key), str) and inp[key]:
                value = inp[key]
                break
    value = " ".join(str(value).split())
    return value if len(value) <= width else value[: width - 1] + "…"


def presentation_of(name: str) -> ToolPresentation:
    """What the tool called `name` declares about its presentation; the defaults for an MCP
    tool or one this process does not know."""
    from claude_harness.protocol.tool import DEFAULT_PRESENTATION  # not before the first paint
    from claude_harness.tools.registry import find_base_tool

    tool = find_base_tool(name)
    return tool.presentation if tool is not None else DEFAULT_PRESENTATION


MAX_APPROVAL_LINES = 14


def approval_lines(name: str, inp: dict[str, Any], preview: str | None,
                   diff: list[str] | None = None, pending: bool = False) -> list[str]:
    """The exact thing the user approves, the same in every front end: the preview the
    checker sent, the change against the file on disk (`diff`, once built; `pending` while it
    is being built), else what the tool says from its input alone, else the input itself.
    Control characters are written out (a command must not hide behind them); cut to
    MAX_APPROVAL_LINES."""
    path = str(inp.get("file_path", ""))
    if preview:
        lines = preview.rstrip("\n").splitlines()
    elif diff is not None:
        lines = [path, *diff]
    elif pending:
        lines = [path, "(working out the change…)"]
    elif (declared := presentation_of(name).approval_lines) is not None:
        lines = declared(inp)
    else:
        lines = format_input(inp).splitlines()
    lines = [show_controls(line) for line in lines]
    if len(lines) > MAX_APPROVAL_LINES:
        extra = len(lines) - MAX_APPROVAL_LINES
        lines = [*lines[:MAX_APPROVAL_LINES], f"… +{extra} more lines"]
    return lines


def needs_file_diff(name: str, inp: dict[str, Any], preview: str | None) -> bool:
    """The tool diffs the call against the file on disk (built off the event loop)."""
    return not preview and presentation_of(name).file_change is not None


def file_change_texts(name: str, inp: dict[str, Any]) -> tuple[str, str] | None:
    """The file as it is now and as the call would leave it, as the tool declares; None when
    it cannot say. Reading is quick, so callers do it at once, before the tool can touch the
    file; the diff itself (`change_diff`) may take longer and runs off the event loop."""
    declared = presentation_of(name).file_change
    return declared(inp) if declared is not None else None


def change_diff(texts: tuple[str, str] | None) -> list[str] | None:
    """The unified diff (2 context lines) between the two texts, built within a deadline: a
    one-line summary ("+1234 −567 lines (diff too large to show)") when it cannot be."""
    if texts is None:
        return None
    return unified_lines(*texts, context=2).lines or None


def file_change_diff(name: str, inp: dict[str, Any]) -> list[str] | None:
    """The change the call would make to the file as it is now, with context lines. It may
    take up to the diff's deadline: on an event loop, use `file_change_diff_async`."""
    return change_diff(file_change_texts(name, inp))


async def file_change_diff_async(name: str, inp: dict[str, Any]) -> list[str] | None:
    """`file_change_diff` with the file read now and the diff built in a worker thread, so the
    event loop (keystrokes, the screen) never waits on it. Both front ends call this."""
    import asyncio

    return await asyncio.to_thread(change_diff, file_change_texts(name, inp))


def result_summary(name: str, inp: dict[str, Any], text: str) -> str | None:
    declared = presentation_of(name).result_summary
    return declared(inp, text) if declared is not None else None


def result_lines(name: str, inp: dict[str, Any], content: str | list[dict[str, Any]],
                 is_error: bool, diff: list[str] | None = None) -> list[str]:
    """All lines worth showing for a finished call; the widget cuts them to a preview."""
    text = content_text(content)
    if is_error:
        return strip_error_wrapper(text).splitlines() or ["(error)"]
    if diff:
        return diff
    view = presentation_of(name).result_view
    declared = presentation_of(name).approval_lines
    if view in ("diff", "content") and declared is not None:
        change = declared(inp)[1:]  # past the path line
        return change or (text.splitlines() if view == "diff" else ["(empty file)"])
    if view == "summary":
        return [result_summary(name, inp, text) or "", *text.splitlines()]
    return text.splitlines() or ["(no output)"]


def progress_text(data: Any) -> list[str]:
    """Live progress lines: Bash output tails, match counts, sub-agent steps."""
    match data:
        case OutputProgress(stdout=out, stderr=err):
            return f"{out}{err}".splitlines()
        case MatchProgress(matches=matches):
            return [f"{matches} matches so far"]
        case AgentStep():
            return [agent_step_line({"agent_step": data.kind, "name": data.name, "key": data.key,
                                     "is_error": data.is_error, "reason": data.reason,
                                     "agent_type": data.agent_type})]
        case MessageProgress(message=message):
            return message.splitlines()
    if isinstance(data, dict):
        if "agent_step" in data:
            return [agent_step_line(data)]
        if "stdout" in data or "stderr" in data:
            text = f"{data.get('stdout') or ''}{data.get('stderr') or ''}"
            return text.splitlines()
        if "matches" in data:
            return [f"{data['matches']} matches so far"]
        if "message" in data:
            return [str(data["message"])]
        return [json.dumps(data, default=str)[:200]]
    if isinstance(data, str):
        return data.splitlines()
    return [str(data)]


def agent_step_line(step: dict[str, Any]) -> str:
    """One line per sub-agent step, nested under its Agent call (a custom agent's steps carry
    its name)."""
    kind = step.get("agent_step")
    who = step.get("agent_type") or ""
    tag = f"{who} " if who and who != "general-purpose" else ""
    if kind == "tool":
        key = f"({step['key']})" if step.get("key") else ""
        return f"{tag}→ {step.get('name')}{key}"
    if kind == "result":
        return f"{tag}{'✗' if step.get('is_error') else '✓'} {step.get('name')}"
    return f"{who or 'sub-agent'} finished ({step.get('reason', 'done')})"


def format_input(inp: dict[str, Any]) -> str:
    """The full input, for the expanded (Ctrl+O) view."""
    return json.dumps(inp, indent=2, ensure_ascii=False, default=str)


def ago(created: float, now: float | None = None) -> str:
    """"12s ago", "5m ago", "3h ago", "2d ago": when a prompt was sent (the rewind pickers)."""
    seconds = max(0, int((now or time.time()) - created))
    if seconds < 60:
        return f"{seconds}s ago"
    if seconds < 3600:
        return f"{seconds // 60}m ago"
    if seconds < 86400:
        return f"{seconds // 3600}h ago"
    return f"{seconds // 86400}d ago"


def window_label(tokens: int) -> str:
    """A context window as the model pickers name it: "1M", "200k"."""
    return f"{tokens // 1_000_000}M" if tokens >= 1_000_000 else f"{tokens // 1000}k"


REWIND_CHOICES: tuple[tuple[str, bool, bool], ...] = (  # label, restore code, conversation
    ("Restore code and conversation", True, True),
    ("Restore conversation", False, True),
    ("Restore code", True, False),
    ("Never mind", False, False),
)
"""What a rewind can take back, in the order both pickers offer it."""
