"""ListMcpResourcesTool and ReadMcpResourceTool: MCP resources reached through two tools.

They exist only while at least one connected server offers resources. Both are read-only and
safe to run in parallel. Names and parameters are Claude Code's, so permission rules and hook
matchers written for it apply unchanged.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import Field

from claude_harness.fsutil import atomic_write_bytes
from claude_harness.mcp.connection import McpConnection, ServerGone
from claude_harness.mcp.content import API_IMAGE_TYPES, output_limit_chars
from claude_harness.mcp.tools import race_abort
from claude_harness.protocol.tool import Tool, ToolError, ToolInput, ToolResult, build_tool

if TYPE_CHECKING:
    from claude_harness.protocol.context import ToolUseContext

LIST_NAME = "ListMcpResourcesTool"
READ_NAME = "ReadMcpResourceTool"

Connections = Callable[[], list[McpConnection]]


class ListInput(ToolInput):
    server: str | None = Field(None, description="Only this server's resources (default: all)")


class ReadInput(ToolInput):
    server: str = Field(description="The MCP server that holds the resource")
    uri: str = Field(description="The resource URI, as listed by ListMcpResourcesTool")


def _with_resources(connections: Connections) -> list[McpConnection]:
    return [c for c in connections() if c.state == "connected" and c.has_resources]


def _find(connections: Connections, server: str) -> McpConnection:
    for conn in connections():
        if conn.name == server:
            if not conn.has_resources and conn.state == "connected":
                raise ToolError(f"MCP server '{server}' does not offer resources.")
            return conn
    names = ", ".join(c.name for c in _with_resources(connections)) or "none"
    raise ToolError(f"No MCP server named '{server}'. Servers with resources: {names}.")


async def _list_all(conn: McpConnection) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(100):
        page = await conn.request("resources/list", lambda c, at=cursor: c.list_resources(cursor=at))
        for res in page.resources:
            entry = res.model_dump(mode="json", by_alias=True, exclude_none=True)
            entry["server"] = conn.name
            found.append(entry)
        cursor = page.next_cursor
        if not cursor:
            break
    return found


def build_list_tool(connections: Connections) -> Tool:
    async def call(inp: ListInput, ctx: ToolUseContext, progress: Any) -> ToolResult:
        targets = ([_find(connections, inp.server)] if inp.server
                   else _with_resources(connections))
        listed: list[dict[str, Any]] = []
        for conn in targets:
            try:
                listed.extend(await race_abort(_list_all(conn), ctx))
            except ServerGone as exc:
                raise ToolError(str(exc), code="mcp_server_gone") from exc
        if not listed:
            return ToolResult("No resources found.")
        return ToolResult(json.dumps(listed, ensure_ascii=False, indent=2))

    return build_tool(
        name=LIST_NAME,
        description=_description("list"),
        input_model=ListInput,
        call=call,
        is_read_only=lambda inp: True,
        is_concurrency_safe=lambda inp: True,
        key_argument=lambda inp: inp.server or "",
        max_result_size_chars=output_limit_chars(),
    )


def build_read_tool(connections: Connections) -> Tool:
    async def call(inp: ReadInput, ctx: ToolUseContext, progress: Any) -> ToolResult:
        from mcp.shared.exceptions import MCPError

        conn = _find(connections, inp.server)
        try:
            result = await race_abort(
                conn.request("resources/read", lambda c: c.read_resource(inp.uri)), ctx)
        except ServerGone as exc:
            raise ToolError(str(exc), code="mcp_server_gone") from exc
        except MCPError as exc:
            raise ToolError(f"MCP server '{inp.server}' could not read {inp.uri}: {exc.message}",
                            code="mcp_error") from exc
        return ToolResult(_render_contents(result.contents, ctx))

    return build_tool(
        name=READ_NAME,
        description=_description("read"),
        input_model=ReadInput,
        call=call,
        is_read_only=lambda inp: True,
        is_concurrency_safe=lambda inp: True,
        key_argument=lambda inp: inp.uri,
        max_result_size_chars=output_limit_chars(),
    )


def _render_contents(contents: list[Any], ctx: ToolUseContext) -> str | list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for item in contents:
        text = getattr(item, "text", None)
        if text is not None:
            blocks.append({"type": "text", "text": text})
            continue
        mime = getattr(item, "mime_type", None) or "application/octet-stream"
        blob = getattr(item, "blob", "") or ""
        if mime in API_IMAGE_TYPES:
            blocks.append({"type": "image",
                           "source": {"type": "base64", "media_type": mime, "data": blob}})
        else:
            blocks.append({"type": "text", "text": _save_blob(item.uri, mime, blob, ctx)})
    if all(b["type"] == "text" for b in blocks):
        return "\n".join(b["text"] for b in blocks) if blocks else "(empty resource)"
    return blocks


def _save_blob(uri: Any, mime: str, blob: str, ctx: ToolUseContext) -> str:
    """Binary content is written to the session's tool-results folder, for Read or Bash."""
    from claude_harness.tools.budget import tool_results_dir

    try:
        data = base64.b64decode(blob, validate=False)
    except ValueError:
        return f"[binary resource {uri} ({mime}) could not be decoded]"
    folder = tool_results_dir(ctx.options.session_dir)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"mcp-resource-{hashlib.sha256(data).hexdigest()[:16]}.bin"
    atomic_write_bytes(path, data)
    return f"[binary resource {uri} ({mime}, {len(data):,} bytes) saved to {path}]"


def _description(kind: str) -> str:
    if kind == "list":
        return (
            "List the resources (files, records, documents) that connected MCP servers offer. "
            "Call it when the user refers to data an MCP server holds, or before "
            f"{READ_NAME} when you do not know the exact URI. Give `server` to list only one "
            "server's resources."
        )
    return (
        "Read one resource from an MCP server by its URI. Use it after "
        f"{LIST_NAME} (or when the user names an MCP resource) to get the resource's content."
    )
