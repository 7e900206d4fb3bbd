"""The session's tool list, which sits at the front of the prompt cache: fixed before the first
request (MCP servers get until their startup timeout to connect) and never reordered after;
tools an MCP server adds later are appended after the cache breakpoint, and the model hears of
them in a reminder."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claude_harness.protocol.tool import Tool
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.state import SessionState
from claude_harness.tools.registry import assemble_tool_pool

if TYPE_CHECKING:
    from claude_harness.session.services.mcp_wiring import McpWiring


class ToolList:
    def __init__(self, config: SessionConfig, state: SessionState) -> None:
        """The tools are `config.tools`; their request form is `state.tool_schemas`."""
        self._config, self._state = config, state
        state.tool_schemas = schemas(config.tools)
        self._frozen = False
        self._fixed = False  # the first request's tool list is built

    async def freeze(self) -> None:
        """Fix the tool set for the whole session before the first request."""
        if self._frozen:
            return
        self._frozen = True
        config = self._config
        mcp = config.mcp
        if mcp is None:
            return
        mcp.start()
        await mcp.wait_ready()
        tools = assemble_tool_pool(self._state.permission, mcp_tools=mcp.tools(),
                                   only=config.tool_filter)
        tools = (*tools, *config.extra_tools)
        config.tools = tools
        self._state.tool_schemas = schemas(tools)
        self._fixed = True

    def add_later_tools(self, wiring: McpWiring) -> None:
        """An MCP server changed its tools after the list was fixed: the new ones join."""
        if not self._fixed:
            return  # the first request takes every tool connected by then
        config, state = self._config, self._state
        update = wiring.tool_update(config.tools, state.permission)
        if update is not None:
            config.tools = (*config.tools, *update.added)
            # Appended after the cache breakpoint: the cached prefix stays as it was.
            state.tool_schemas = [*state.tool_schemas, *(t.api_schema() for t in update.added)]
            state.reminders.note(update.reminder)


def schemas(tools: tuple[Tool, ...]) -> list[dict[str, Any]]:
    """Tool definitions for the request, the last one marked as a cache breakpoint."""
    result = [tool.api_schema() for tool in tools]
    if result:
        result[-1] = {**result[-1], "cache_control": {"type": "ephemeral"}}
    return result
