"""`claude-harness mcp serve`: this program's tools offered to an MCP client over stdio, as
`claude mcp serve` offers Claude Code's.

Every call takes the path the model's own calls take (tools/pipeline.py): schema and input
checks, PreToolUse/PostToolUse hooks, and the permission rules of this folder's settings and the
flags (`--permission-mode`, `--allowedTools`, `--disallowedTools`). Nobody is there to answer a
permission question, so a call that would ask is refused, as in `-p`. Tools that need the model
or a person (Agent, AskUserQuestion, plan mode, ToolSearch...) are not offered.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import uuid
from pathlib import Path
from typing import Any

NOT_OFFERED = frozenset({"Agent", "AskUserQuestion", "ToolSearch", "Skill", "ExitPlanMode",
                         "EnterPlanMode", "StructuredOutput"})


def run_serve(argv: list[str], cwd: Path) -> int:
    parser = argparse.ArgumentParser(prog="claude-harness mcp serve", exit_on_error=False)
    parser.add_argument("--permission-mode", default=None)
    parser.add_argument("--allowedTools", "--allowed-tools", nargs="+", action="extend",
                        default=[])
    parser.add_argument("--disallowedTools", "--disallowed-tools", nargs="+",
                        action="extend", default=[])
    try:
        args = parser.parse_args(argv)
    except argparse.ArgumentError as exc:
        sys.stderr.write(f"claude-harness mcp serve: {exc}\n")
        return 2
    from claude_harness.bootstrap import StartupError, build_session
    from claude_harness.options import RunOptions

    opts = RunOptions(cwd=cwd, print_mode=True, interactive=False, persist_session=False,
                      permission_mode=args.permission_mode, allowed_tools=args.allowedTools,
                      disallowed_tools=args.disallowedTools)
    try:
        session, warnings = build_session(opts)
    except StartupError as exc:
        sys.stderr.write(f"claude-harness mcp serve: {exc}\n")
        return 1
    for warning in warnings:
        sys.stderr.write(f"claude-harness mcp serve: {warning}\n")
    asyncio.run(_serve(session))
    return 0


def offered_tools(session: Any) -> list[Any]:
    return [t for t in session.config.tools if t.name not in NOT_OFFERED and t.is_enabled()]


async def _serve(session: Any) -> None:
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server

    tools = {t.name: t for t in offered_tools(session)}

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=t.name, description=t.description, input_schema=t.input_schema())
            for t in tools.values()])

    async def call_tool(_ctx: Any, params: Any) -> types.CallToolResult:
        if params.name not in tools:
            return types.CallToolResult(content=[types.TextContent(
                text=f"No tool named {params.name!r} is offered here.")], is_error=True)
        outcome = await _call(session, params.name, dict(params.arguments or {}))
        return types.CallToolResult(content=_content(outcome.content), is_error=outcome.is_error)

    server = Server("claude-harness", on_list_tools=list_tools, on_call_tool=call_tool)
    async with stdio_server() as (reader, writer):
        await server.run(reader, writer, server.create_initialization_options())


async def _call(session: Any, name: str, arguments: dict[str, Any]) -> Any:
    """One call through the model's own pipeline, with a fresh context (the session's rules,
    hooks and working directory)."""
    from claude_harness.tools.pipeline import check_permissions_and_call_tool

    use = {"id": f"toolu_mcp_{uuid.uuid4().hex[:20]}", "name": name, "input": arguments}
    return await check_permissions_and_call_tool(use, session.tool_context(), _ignore)


def _ignore(_event: Any) -> None:
    """Progress and notices have no reader on this pipe."""


def _content(content: Any) -> list[Any]:
    import mcp_types as types

    if isinstance(content, str):
        return [types.TextContent(text=content)]
    blocks: list[Any] = []
    for block in content or []:
        if block.get("type") == "image" and isinstance(block.get("source"), dict):
            source = block["source"]
            blocks.append(types.ImageContent(data=source.get("data", ""),
                                             mime_type=source.get("media_type", "image/png")))
        else:
            blocks.append(types.TextContent(text=str(block.get("text", ""))))
    return blocks or [types.TextContent(text="")]
