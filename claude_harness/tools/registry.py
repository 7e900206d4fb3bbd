"""get_all_base_tools(): the single source of truth for built-in tools; assemble_tool_pool().

Tool modules are imported here, on first use, not at package import: `--help` and the first
paint never pay for them.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import cache

from claude_harness.permissions.resolver import tool_denied_entirely
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.protocol.tool import Tool

# (module, attribute) of every built-in tool. Feature-gated tools are appended conditionally
# in get_all_base_tools().
_BUILTIN_SPECS: tuple[tuple[str, str], ...] = (
    ("claude_harness.tools.agent", "TOOL"),
    ("claude_harness.tools.ask_user_question", "TOOL"),
    ("claude_harness.tools.bash", "TOOL"),
    ("claude_harness.tools.task_output", "TOOL"),
    ("claude_harness.tools.task_stop", "TOOL"),
    ("claude_harness.tools.read", "TOOL"),
    ("claude_harness.tools.write", "TOOL"),
    ("claude_harness.tools.edit", "TOOL"),
    ("claude_harness.tools.grep", "TOOL"),
    ("claude_harness.tools.glob", "TOOL"),
    ("claude_harness.tools.todo_write", "TOOL"),
    ("claude_harness.tools.notebook_edit", "TOOL"),
    ("claude_harness.tools.plan_mode", "ENTER_TOOL"),
    ("claude_harness.tools.plan_mode", "EXIT_TOOL"),
    ("claude_harness.tools.tool_search", "TOOL"),
    ("claude_harness.tools.skill", "TOOL"),
    ("claude_harness.tools.web_fetch", "TOOL"),
    ("claude_harness.tools.web_search", "TOOL"),
)

# Rarely used built-ins are announced by name only and loaded through ToolSearch; MCP tools are
# deferred too when a session has more than MCP_DEFER_THRESHOLD of them. A deferred built-in
# the model calls by name before ToolSearch runs all the same (its input model checks the
# input), as a deferred MCP tool does.
DEFERRED_BUILTINS = frozenset({"NotebookEdit", "WebFetch", "WebSearch"})
MCP_DEFER_THRESHOLD = 10
TOOL_SEARCH = "ToolSearch"


@cache
def get_all_base_tools() -> tuple[Tool, ...]:
    """Every built-in tool that can exist in this process."""
    tools: list[Tool] = []
    for module_name, attr in _BUILTIN_SPECS:
        module = importlib.import_module(module_name)
        tools.append(getattr(module, attr))
    return tuple(tools)


def find_base_tool(name: str) -> Tool | None:
    for tool in get_all_base_tools():
        if tool.name == name or name in tool.aliases:
            return tool
    return None


def _denied(tool: Tool, permission: PermissionContext) -> bool:
    return tool_denied_entirely(tool.name, permission)


def assemble_tool_pool(
    permission: PermissionContext,
    *,
    mcp_tools: Iterable[Tool] = (),
    only: Sequence[str] | None = None,
) -> tuple[Tool, ...]:
    """Built-ins (filtered by deny rules, `--tools` and is_enabled) sorted by name, then MCP
    tools (filtered by deny rules) sorted by name.

    Sorting each partition and concatenating keeps every built-in in place when an MCP tool is
    added or removed, so the prompt-cache prefix survives.
    """
    wanted = set(only) if only is not None else None
    builtins = [
        replace(t, should_defer=True, loads_when_called=True) if t.name in DEFERRED_BUILTINS
        else t
        for t in get_all_base_tools()
        if t.is_enabled()
        and t.name != TOOL_SEARCH
        and not _denied(t, permission)
        and (wanted is None or t.name in wanted or wanted & set(t.aliases))
    ]
    mcp = [t for t in mcp_tools if not _denied(t, permission)]
    if len(mcp) > MCP_DEFER_THRESHOLD:
        mcp = [replace(t, should_defer=True) for t in mcp]
    if any(t.should_defer for t in (*builtins, *mcp)):
        search = find_base_tool(TOOL_SEARCH)
        if search is not None and not _denied(search, permission):
            builtins.append(search)
    return (*sorted(builtins, key=lambda t: t.name), *sorted(mcp, key=lambda t: t.name))
