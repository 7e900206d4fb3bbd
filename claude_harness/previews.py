"""Pure functions that turn tool inputs, progress and results into short text for people.

Shared by both front ends (the Textual app's widgets, the plain REPL's Rich output) and the
transcript export, so a tool call reads the same everywhere; each front end only styles it.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from claude_harness.bounded_diff import unified_lines
from claude_harness.protocol.progress import (
    AgentStep,
    MatchProgress,
    MessageProgress,
    OutputProgress,
)

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
    if not value and name == "TodoWrite":
        return ""  # the checklist itself is the preview
    if not value:
        for key in ("command", "file_path", "path", "pattern", "notebook_path", "url", "query",
                    "description", "bash_id", "shell_id"):
            if isinstance(inp.get(key), str) and inp[key]:
                value = inp[key]
                break
    value = " ".join(str(value).split())
    return value if len(value) <= width else value[: width - 1] + "…"


def edit_diff(inp: dict[str, Any]) -> list[str]:
    """A unified diff of an Edit's old_string → new_string (what the change does), bounded
    in time like every preview diff (a huge old_string gets the summary line)."""
    return unified_lines(str(inp.get("old_string", "")), str(inp.get("new_string", "")),
                         context=1).lines


MAX_DIFF_FILE = 16_000_000  # a bigger file is not read for a preview at all


def file_change_texts(name: str, inp: dict[str, Any]) -> tuple[str, str] | None:
    """The file as it is now and as an Edit or Write would leave it; None when it cannot be
    read or the edit cannot be located verbatim (the tool may still match tolerantly).

    Reading is quick (bounded by MAX_DIFF_FILE), so callers do it at once, before the tool can
    touch the file; the diff itself (`change_diff`) may take longer and runs off the event loop.
    """
    path = inp.get("file_path")
    if name not in ("Edit", "Write") or not isinstance(path, str):
        return None
    try:
        file = Path(path)
        if not file.is_file() or file.stat().st_size > MAX_DIFF_FILE:
            return None
        old_text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if name == "Write":
        return old_text, str(inp.get("content", ""))
    old, new = str(inp.get("old_string", "")), str(inp.get("new_string", ""))
    if not old or old not in old_text:
        return None
    return old_text, old_text.replace(old, new, -1 if inp.get("replace_all") else 1)


def change_diff(texts: tuple[str, str] | None) -> list[str] | None:
    """The unified diff (2 context lines) between the two texts, built within a deadline: a
    one-line summary ("+1234 −567 lines (diff too large to show)") when it cannot be."""
    if texts is None:
        return None
    return unified_lines(*texts, context=2).lines or None


def file_change_diff(name: str, inp: dict[str, Any]) -> list[str] | None:
    """The change an Edit or Write would make to the file as it is now, with context lines.

    Called before the tool runs (permission prompt, ToolStart). It may take up to the diff's
    deadline: on an event loop, use `file_change_diff_async`.
    """
    return change_diff(file_change_texts(name, inp))


async def file_change_diff_async(name: str, inp: dict[str, Any]) -> list[str] | None:
    """`file_change_diff` with the file read now and the diff built in a worker thread, so the
    event loop (keystrokes, the screen) never waits on it."""
    import asyncio

    return await asyncio.to_thread(change_diff, file_change_texts(name, inp))


def result_lines(name: str, inp: dict[str, Any], content: str | list[dict[str, Any]],
                 is_error: bool, diff: list[str] | None = None) -> list[str]:
    """All lines worth showing for a finished call; the widget cuts them to a preview."""
    text = content_text(content)
    if is_error:
        return strip_error_wrapper(text).splitlines() or ["(error)"]
    if diff:
        return diff
    if name == "Edit" and "old_string" in inp:
        return edit_diff(inp) or text.splitlines()
    if name == "Write" and isinstance(inp.get("content"), str):
        body = inp["content"].splitlines()
        return [f"+ {ln}" for ln in body] or ["(empty file)"]
    if name == "Read":
        count = len(text.splitlines())
        return [f"Read {count} lines"] + text.splitlines()
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


def format_elapsed(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}m{secs:02d}s"


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
