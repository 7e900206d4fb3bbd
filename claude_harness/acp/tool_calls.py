"""How a tool call looks to an ACP client: its kind (the icon), a title, the file locations it
touches (follow-along) and its content (a diff for an edit, the output for a command).

Pure functions of the call's name and input, and of its result: the client is told only what
the session's events say (no file is read here)."""

from __future__ import annotations

from typing import Any

from acp.schema import (
    ContentToolCallContent,
    FileEditToolCallContent,
    TextContentBlock,
    ToolCallLocation,
)

KINDS: dict[str, str] = {
    "Read": "read", "NotebookRead": "read",
    "Edit": "edit", "Write": "edit", "NotebookEdit": "edit",
    "Bash": "execute", "BashOutput": "execute", "TaskOutput": "execute", "TaskStop": "execute",
    "KillShell": "execute",
    "Grep": "search", "Glob": "search", "LS": "search", "ToolSearch": "search",
    "WebFetch": "fetch", "WebSearch": "fetch",
    "TodoWrite": "think", "Agent": "think", "Task": "think",
    "ExitPlanMode": "switch_mode", "EnterPlanMode": "switch_mode",
}
RESULT_TEXT_LIMIT = 40_000  # what a client shows of a result; the model saw all of it
EDIT_TOOLS = frozenset({"Edit", "Write", "NotebookEdit"})


def kind(name: str) -> str:
    return KINDS.get(name, "other")


def title(name: str, tool_input: dict[str, Any], key_argument: str = "") -> str:
    """A short line saying what the call does (`Edit src/app.py`, `` `ls -la` ``)."""
    path = str(tool_input.get("file_path") or tool_input.get("notebook_path") or "")
    match name:
        case "Read":
            return f"Read {path}{_line_range(tool_input)}"
        case "Edit" | "Write" | "NotebookEdit":
            return f"{'Write' if name == 'Write' else 'Edit'} {path}"
        case "Bash":
            command = str(tool_input.get("command") or "")
            return f"`{command.splitlines()[0] if command else ''}`"
        case "Grep":
            where = tool_input.get("path")
            return f"grep {tool_input.get('pattern', '')!s}" + (f" in {where}" if where else "")
        case "Glob":
            return f"Find {tool_input.get('pattern', '')!s}"
        case "WebFetch":
            return f"Fetch {tool_input.get('url', '')!s}"
        case "WebSearch":
            return f"Search the web: {tool_input.get('query', '')!s}"
        case "TodoWrite":
            return "Update the plan"
        case "Agent" | "Task":
            return str(tool_input.get("description") or "Sub-agent")
        case "ExitPlanMode":
            return "Ready to code?"
        case "EnterPlanMode":
            return "Enter plan mode"
    if name.startswith("mcp__"):
        _, server, tool = (name.split("__", 2) + ["", ""])[:3]
        return f"{tool} ({server})"
    return f"{name} {key_argument}".strip()


def _line_range(tool_input: dict[str, Any]) -> str:
    offset, limit = tool_input.get("offset"), tool_input.get("limit")
    if not isinstance(offset, int):
        return ""
    return f" (from line {offset})" if not isinstance(limit, int) else \
        f" (lines {offset}-{offset + limit - 1})"


def locations(name: str, tool_input: dict[str, Any]) -> list[ToolCallLocation]:
    """The files the call reads or changes (with the first line Read starts at)."""
    path = tool_input.get("file_path") or tool_input.get("notebook_path")
    if name in ("Grep", "Glob") and isinstance(tool_input.get("path"), str):
        path = tool_input["path"]
    if not isinstance(path, str) or not path:
        return []
    offset = tool_input.get("offset") if name == "Read" else None
    return [ToolCallLocation(path=path, line=offset if isinstance(offset, int) else None)]


def start_content(name: str, tool_input: dict[str, Any]) -> list[Any]:
    """What the client shows before the call runs: the diff an edit will make (Edit: the
    replaced text; Write: the new file's text), the command's description."""
    path = str(tool_input.get("file_path") or "")
    if name == "Edit" and path:
        return [FileEditToolCallContent(type="diff", path=path,
                                        old_text=str(tool_input.get("old_string") or ""),
                                        new_text=str(tool_input.get("new_string") or ""))]
    if name == "Write" and path:
        return [FileEditToolCallContent(type="diff", path=path, old_text=None,
                                        new_text=str(tool_input.get("content") or ""))]
    if name == "Bash" and tool_input.get("description"):
        return [text_content(str(tool_input["description"]))]
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
    if name in EDIT_TOOLS and not is_error:
        return None
    text = result_text(content)
    if len(text) > RESULT_TEXT_LIMIT:
        text = text[:RESULT_TEXT_LIMIT] + f"\n… ({len(text) - RESULT_TEXT_LIMIT} more characters)"
    if name == "Bash" and not is_error:
        text = f"```console\n{text}\n```" if text else ""
    return [text_content(text)] if text else []


def progress_output(stdout: str, stderr: str) -> str:
    """A running command's recent output, as the client's tool card shows it."""
    text = stdout + (("\n" if stdout and not stdout.endswith("\n") else "") + stderr if stderr else "")
    return f"```console\n{text.rstrip()}\n```" if text.strip() else ""
