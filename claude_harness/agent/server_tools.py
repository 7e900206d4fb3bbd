"""Server tools: tools the API runs itself (web search, web fetch, code execution).

Their `server_tool_use` and `*_tool_result` blocks arrive in the assistant message and go back
exactly as they came: the harness never runs them and never answers them with a tool_result.
This module only reads them, to give the front ends one compact line per call (the query, the
URL, the command) and the addresses a search found.
"""

from __future__ import annotations

from typing import Any

from claude_harness.protocol.events import ServerToolUse

_SUMMARY_KEYS = ("query", "url", "command", "code", "path")
MAX_SUMMARY = 120


def is_server_use(block: dict[str, Any]) -> bool:
    """A call the API runs itself: server_tool_use, mcp_tool_use (the MCP connector)..."""
    kind = str(block.get("type", ""))
    return kind.endswith("_tool_use") and kind != "tool_use"


def is_server_result(block: dict[str, Any]) -> bool:
    """A result block of a server tool (web_search_tool_result, code_execution_tool_result...)."""
    kind = str(block.get("type", ""))
    return kind.endswith("_tool_result") and kind != "tool_result" and "tool_use_id" in block


def summary_of(use: dict[str, Any] | None) -> str:
    """One line about what a server_tool_use asked for."""
    if use is None:
        return ""
    given = use.get("input")
    inp: dict[str, Any] = given if isinstance(given, dict) else {}
    # the known keys first, then (an MCP connector tool's own arguments) the first string
    for value in [*(inp.get(key) for key in _SUMMARY_KEYS), *inp.values()]:
        if isinstance(value, str) and value.strip():
            line = value.strip().splitlines()[0]
            return line if len(line) <= MAX_SUMMARY else line[:MAX_SUMMARY - 1] + "…"
    return ""


def _urls(content: Any) -> tuple[str, ...]:
    items = content if isinstance(content, list) else [content]
    urls = [item["url"] for item in items
            if isinstance(item, dict) and isinstance(item.get("url"), str)]
    return tuple(dict.fromkeys(urls))


def _error(content: Any) -> str | None:
    if isinstance(content, dict) and str(content.get("type", "")).endswith("_error"):
        return str(content.get("error_code") or content.get("type"))
    return None


def server_tool_event(block: dict[str, Any],
                      uses: dict[Any, dict[str, Any]]) -> ServerToolUse | None:
    """The event for a finished server tool result block (None for any other block)."""
    if not is_server_result(block):
        return None
    use = uses.get(block.get("tool_use_id"))
    name = str(use.get("name")) if use else str(block["type"]).removesuffix("_tool_result")
    content = block.get("content")
    return ServerToolUse(str(block.get("tool_use_id")), name, summary_of(use), _urls(content),
                         _error(content))
