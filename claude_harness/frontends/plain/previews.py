"""What a tool call looks like in the scrollback: one header line, then a short preview.

Pure functions from event data to Rich Text, so the renderer stays a dispatcher and the
formatting is unit-testable. Tool output is never parsed as Rich markup (it may contain
`[brackets]`): everything goes through Text objects.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from claude_harness.frontends.shared.previews import (
    approval_lines,
    content_text,
    header_argument,
    presentation_of,
    progress_text,
    result_summary,
    strip_error_wrapper,
)
from claude_harness.text.bounded_diff import unified_lines
from claude_harness.text.terminal_safety import strip_unsafe

PREVIEW_LINES = 4
DIFF_LINES = 40
ARG_WIDTH = 100


def tool_header(name: str, inp: dict[str, Any], key_argument: str = "", bullet: str = "●") -> Text:
    text = Text()
    text.append(f"{bullet} ", style="ch.accent")
    text.append(name, style="ch.tool")
    argument = strip_unsafe(header_argument(name, inp, key_argument, ARG_WIDTH))
    if argument:
        text.append(f"({argument})")
    return text


def unified_diff(path: str, old: str, new: str, limit: int = DIFF_LINES) -> list[str]:
    """old → new as unified diff lines (no ---/+++ header), cut to `limit` lines; built
    within a deadline (bounded_diff.py), a one-line summary when it cannot be."""
    body = unified_lines(old, new, context=2).lines
    if len(body) > limit:
        body = [*body[:limit], f"… +{len(body) - limit} more diff lines"]
    return body


def diff_text(lines: list[str], indent: str = "    ") -> Text:
    text = Text()
    for line in map(strip_unsafe, lines):
        style = ""
        if line.startswith("+"):
            style = "ch.diff.add"
        elif line.startswith("-"):
            style = "ch.diff.del"
        elif line.startswith("@@"):
            style = "ch.diff.hunk"
        text.append(indent + line + "\n", style=style)
    return text


def edit_diff_lines(inp: dict[str, Any]) -> list[str] | None:
    """The diff a replaced passage makes, from the call's input alone."""
    path = str(inp.get("file_path", ""))
    if isinstance(inp.get("old_string"), str) and isinstance(inp.get("new_string"), str):
        return unified_diff(path, inp["old_string"], inp["new_string"])
    return None


def short_preview(body: str, limit: int = PREVIEW_LINES) -> list[str]:
    lines = body.rstrip("\n").splitlines() or ["(no output)"]
    if len(lines) > limit:
        return [*lines[:limit], f"… +{len(lines) - limit} lines"]
    return lines


def result_preview(name: str, inp: dict[str, Any], content: str | list[dict[str, Any]],
                   is_error: bool, branch: str = "⎿") -> Text:
    """The lines under a tool header: an error, an edit's diff, or the start of the output
    (escape sequences removed: the output may come from anything)."""
    body = strip_unsafe(content_text(content))
    text = Text()
    if is_error:
        body = strip_error_wrapper(body)
        for i, line in enumerate(short_preview(body, 6)):
            lead = f"  {branch} " if i == 0 else "    "
            text.append(lead + ("Error: " if i == 0 else "") + line + "\n", style="ch.error")
        return text
    presentation = presentation_of(name)
    summary = result_summary(name, inp, body)
    diff = edit_diff_lines(inp) if presentation.result_view == "diff" else None
    if diff is not None:
        text.append(f"  {branch} {summary or ''}\n", style="ch.dim")
        text.append_text(diff_text(diff))
        return text
    if presentation.result_view == "content" and isinstance(inp.get("content"), str):
        text.append(f"  {branch} {summary or ''}\n", style="ch.dim")
        for line in short_preview(inp["content"]):
            text.append(f"    {line}\n", style="ch.diff.add")
        return text
    if presentation.result_view == "checklist" and isinstance(inp.get("todos"), list):
        text.append_text(todo_lines(inp["todos"], f"  {branch} "))
        return text
    if presentation.result_view == "summary":
        text.append(f"  {branch} {summary or ''}\n", style="ch.dim")
        return text
    for i, line in enumerate(short_preview(body)):
        lead = f"  {branch} " if i == 0 else "    "
        text.append(lead + line + "\n", style="ch.dim")
    return text


def permission_body(tool_name: str, inp: dict[str, Any], preview: str | None,
                    diff: list[str] | None = None) -> list[str]:
    """The exact thing being approved, as the tool presents it (the app shows the same lines):
    the full command, the change against the file on disk (`diff`), or the input."""
    return approval_lines(tool_name, inp, preview, diff)


def progress_lines(data: Any) -> list[str]:
    """Live progress as non-blank lines: a Bash output tail, match counts, a sub-agent's step."""
    return [line for line in progress_text(data) if line.strip()] if data else []


TODO_MARKS = {"completed": ("☒", "ch.dim"), "in_progress": ("◐", "bold"), "pending": ("☐", "")}


def todo_lines(todos: list[Any], lead: str = "  ") -> Text:
    """The model's checklist: done items dimmed, the current one bold."""
    text = Text()
    for i, todo in enumerate(todos):
        if not isinstance(todo, dict):
            continue
        mark, style = TODO_MARKS.get(str(todo.get("status")), ("☐", ""))
        text.append((lead if i == 0 else " " * len(lead)) + f"{mark} {todo.get('content', '')}\n",
                    style=style)
    if not text.plain:
        text.append(f"{lead}(empty todo list)\n", style="ch.dim")
    return text
