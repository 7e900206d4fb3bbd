"""What `mcp_tool` hooks call (hooks/mcp_hook.py): a tool of a server this session has
configured, through the same connection the model's calls use."""

from __future__ import annotations

from typing import Any

from claude_harness.hooks.mcp_hook import McpToolCaller


def hook_tool_caller(manager: Any) -> McpToolCaller:
    """`(server, tool, arguments) -> (text, is_error)` over `manager`'s connections; a server
    the session does not have raises LookupError (the hook reports it as its failure)."""

    async def call(server: str, tool: str, arguments: dict[str, Any]) -> tuple[str, bool]:
        conn = manager.get(server) if manager is not None else None
        if conn is None:
            raise LookupError(f"MCP server '{server}' is not configured in this session")

        def send(client: Any) -> Any:
            return client.call_tool(tool, arguments, read_timeout_seconds=conn.tool_timeout)

        result = await conn.request(f"tool {tool} (hook)", send)
        text = "\n".join(str(getattr(block, "text", "")) for block in result.content
                         if getattr(block, "type", "") == "text")
        error = getattr(result, "is_error", None)
        if error is None:
            error = getattr(result, "isError", False)
        return text, bool(error)

    return call
