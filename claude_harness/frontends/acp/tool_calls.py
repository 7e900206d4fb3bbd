"""How a tool call looks to an ACP client: its kind (the icon), a title, the file locations it
touches (follow-along) and its content (a diff for an edit, the output for a command).

Pure functions of the call's input and of its result, shaped by what the tool declares about
itself (its kind, its label): the client is told only what the session's events say (no file
is read here)."""

from __future__ import annotations

from typing import Any

from acp.schema import (
    ContentToolCallContent,
    FileEditToolCallContent,
    TextContentBlock,
    ToolCallLocation,
)

from claude_harness.frontends.shared.previews import approval_lines, presentation_of

RESULT_TEXT_LIMIT = 40_000  # what a client shows of a result; the model saw all of it


def kind(name: str) -> str:
    """The icon the client shows: what the tool declares it does (MCP tools: "other")."""
    return presentation_of(name).kind


def title(name: str, tool_input: dict[str, Any], key_argument: str = "") -> str:
    """A short line saying what the call does (`Edit src/app.py`, `` `ls -la` ``), as the tool
    declares it; an MCP tool is named with its server."""
    label = presentation_of(name).label
    if label is not None:
        return label(tool_input)
    if name.startswith("mcp__"):
        _, server, tool = (name.split("__", 2) + ["", ""])[:3]
        return f"{tool} ({server})"
    return f"{name} {key_argument}".strip()


def locations(name: str, tool_input: dict[str, Any]) -> list[ToolCallLocation]:
    """The files the call reads or changes (with the first line a read starts at)."""
    call_kind = kind(name)
    path = tool_input.get("file_path") or tool_input.get("notebook_path")
    if call_kind == "search" and isinstance(tool_input.get("path"), str):
        path = tool_input["path"]
    if not isinstance(path, str) or not path:
        return []
    offset = tool_input.get("offset") if call_kind == "read" else None
    return [ToolCallLocation(path=path, line=offset if isinstance(offset, int) else None)]


def start_content(name: str, tool_input: dict[str, Any]) -> list[Any]:
    """What the client shows before the call runs: the diff an edit will make (a replaced
    passage; a whole file's new text), the command's description."""
    path = str(tool_input.get("file_path") or "")
    call_kind = kind(name)
    if call_kind == "edit" and path and "old_string" in tool_input:
        return [FileEditToolCallContent(type="diff", path=path,
                                        old_text=str(tool_input.get("old_string") or ""),
                                        new_text=str(tool_input.get("new_string") or ""))]
    if call_kind == "edit" and path and "content" in tool_input:
        return [FileEditToolCallContent(type="diff", path=path, old_text=None,
                                        new_text=str(tool_input.get("content") or ""))]
    if call_kind == "execute" and tool_input.get("description"):
        return [text_content(str(tool_input["description"]))]
    if call_kind == "edit":  # an edit of another shape (a notebook cell): what the app shows
        return [text_content("\n".join(approval_lines(name, tool_input, None)))]
    return []


def text_content(text: str) -> ContentToolCallContent:
    return ContentToolCallContent(type="content", content=TextContentBlock(type="text", text=text))


def result_text(content: str | list[dict[str, Any]]) -> str:
    """A tool result's text (text blocks joined; an image says so)."""
    if isinstance(content, str):
        return content
    parts = []
    for block in content:
        if block.get("type") == "text":
            parts.append(str(block.get("text") or ""))
        elif block.get("type") == "image":
            parts.append("[image]")
    return "\n".join(parts)


def result_content(name: str, content: str | list[dict[str, Any]], is_error: bool) -> list[Any] | None:
    """The content once the call ended: a command's output, a search's matches, a read's text;
    None for an edit that worked (its diff stays as the client shows it)."""
    call_kind = kind(name)
    if call_kind == "edit" and not is_error:
        return None
    text = result_text(content)
    if len(text) > RESULT_TEXT_LIMIT:
        text = text[:RESULT_TEXT_LIMIT] + f"\n… ({len(text) - RESULT_TEXT_LIMIT} more characters)"
    if call_kind == "execute" and not is_error:
        text = f"```console\n{text}\n```" if text else ""
    return [text_content(text)] if text else []


def progress_output(stdout: str, stderr: str) -> str:
    """A running command's recent output, as the client's tool card shows it."""
    text = stdout + (("\n" if stdout and not stdout.endswith("\n") else "") + stderr if stderr else "")
    return f"```console\n{text.rstrip()}\n```" if text.strip() else ""
