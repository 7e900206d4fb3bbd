"""Tool objects for a server's MCP tools, named `mcp__<server>__<tool>`.

They are ordinary `Tool`s built with `build_tool`, so every call takes the same pipeline as a
built-in: schema validation (against the server's schema), PreToolUse hooks, permission rules
(`mcp__server`, `mcp__server__tool`), result budgeting, PostToolUse hooks.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from claude_harness.mcp.connection import BadAnswer, McpConnection, ServerGone
from claude_harness.mcp.content import McpCallResult, call_result, output_limit_chars
from claude_harness.mcp.names import mcp_name
from claude_harness.mcp.progress import progress_callback
from claude_harness.mcp.schema import McpToolInput, make_input_model, normalised_schema
from claude_harness.mcp.tasks import call_as_task, requires_task
from claude_harness.protocol.tool import Tool, ToolError, ToolResult, build_tool

if TYPE_CHECKING:
    from claude_harness.protocol.context import ToolUseContext

MAX_DESCRIPTION = 2048
mcp_tool_name = mcp_name


def _description(server: str, tool: Any) -> str:
    text = (getattr(tool, "description", None) or "").strip()
    if not text:
        title = getattr(tool, "title", None) or tool.name
        text = f"{title} (a tool provided by the MCP server '{server}')."
    if len(text) > MAX_DESCRIPTION:
        text = text[: MAX_DESCRIPTION - 1] + "…"
    return text


def _hint(tool: Any, name: str) -> bool | None:
    annotations = getattr(tool, "annotations", None)
    return getattr(annotations, name, None) if annotations is not None else None


async def race_abort(coro: Any, ctx: ToolUseContext) -> Any:
    """Await `coro` unless the user interrupts first; an interrupt cancels the request."""
    from claude_harness.protocol.messages import INTERRUPTED_MESSAGE

    if ctx.abort.aborted:
        coro.close()
        raise ToolError(INTERRUPTED_MESSAGE, code="interrupted")
    work = asyncio.ensure_future(coro)
    stop = asyncio.ensure_future(ctx.abort.wait())
    try:
        await asyncio.wait({work, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
    if not work.done():
        work.cancel()
        raise ToolError(INTERRUPTED_MESSAGE, code="interrupted")
    return work.result()


def build_mcp_tool(conn: McpConnection, tool: Any) -> Tool:
    """One MCP tool as a Tool. `tool` is the server's listing entry (mcp_types.Tool)."""
    server = conn.name
    name = mcp_tool_name(server, tool.name)
    schema = normalised_schema(getattr(tool, "input_schema", None))
    read_only = _hint(tool, "read_only_hint") is True
    destructive = not read_only and _hint(tool, "destructive_hint") is not False
    title = getattr(tool, "title", None) or tool.name
    remote_name = tool.name
    as_task = requires_task(tool)

    async def call(inp: McpToolInput, ctx: ToolUseContext, progress: Any) -> ToolResult:
        from mcp.shared.exceptions import MCPError
        from mcp_types import REQUEST_TIMEOUT

        if conn.state == "connected" and not conn.offers(remote_name):
            raise ToolError(f"MCP server '{server}' no longer offers the tool {remote_name} "
                            "(its tool list changed during this session).",
                            code="mcp_tool_removed")
        args = inp.arguments()

        def send(client: Any) -> Any:
            if as_task:
                return call_as_task(client, remote_name, args, progress, conn.tool_timeout)
            return client.call_tool(remote_name, args, read_timeout_seconds=conn.tool_timeout,
                                    progress_callback=progress_callback(progress))

        try:
            result = await race_abort(conn.request(f"tool {remote_name}", send), ctx)
        except ServerGone as exc:
            raise ToolError(f"{exc}\nThe other tools keep working; this server's tools are "
                            "unavailable until it is restarted.", code="mcp_server_gone") from exc
        except BadAnswer as exc:
            raise ToolError(str(exc), code="mcp_bad_answer") from exc
        except MCPError as exc:
            if exc.code == REQUEST_TIMEOUT:
                raise ToolError(f"MCP tool {remote_name} on '{server}' gave no answer within "
                                f"{conn.tool_timeout or 0:g} s (MCP_TOOL_TIMEOUT)",
                                code="mcp_timeout") from exc
            raise ToolError(f"MCP server '{server}' refused {remote_name}: {exc.message}",
                            code="mcp_error") from exc
        return ToolResult(call_result(result, server), is_error=bool(result.is_error),
                          context_modifier=mark_loaded(name, ctx))

    return build_tool(
        name=name,
        description=_description(server, tool),
        input_model=make_input_model(name, schema),
        json_schema=schema,
        call=call,
        render_result=_render,
        is_read_only=lambda inp: read_only,
        is_concurrency_safe=lambda inp: read_only,
        is_destructive=lambda inp: destructive,
        user_facing_name=f"{server} - {title} (MCP)",
        key_argument=lambda inp: _key_argument(inp),
        to_classifier_input=lambda inp: f"{name} {json.dumps(inp.arguments(), default=str)}",
        max_result_size_chars=output_limit_chars(),
        search_hint=f"mcp {server} {tool.name}",
        loads_when_called=True,  # a direct call runs; mark_loaded counts it loaded after
    )


def _render(data: McpCallResult | str) -> str | list[dict[str, Any]]:
    return data.content if isinstance(data, McpCallResult) else data


def mark_loaded(name: str, ctx: ToolUseContext) -> Any:
    """A context modifier that counts a deferred tool as loaded once it ran.

    The model may call a deferred MCP tool straight from the name in the deferred list, before
    ToolSearch: the call is validated against the server's schema like any other and runs; from
    then on the tool counts as loaded (as if ToolSearch had returned it). None when it already
    is, so ordinary calls add no modifier."""
    loaded = getattr(ctx.options, "loaded_deferred", frozenset())
    if name in loaded:
        return None

    def load(c: ToolUseContext) -> ToolUseContext:
        now = c.options.loaded_deferred | {name}
        return replace(c, options=replace(c.options, loaded_deferred=now))

    return load


def allows_direct_call(tool: Tool) -> bool:
    """True for tools the pipeline may run before ToolSearch loaded them: MCP tools, which
    validate input against their server's JSON Schema (their input model does) and count
    themselves loaded after the call (`mark_loaded`). The pipeline reads the tool's
    `loads_when_called` field, which `build_mcp_tool` sets."""
    return tool.loads_when_called


def _key_argument(inp: McpToolInput) -> str:
    args = inp.arguments()
    for value in args.values():
        if isinstance(value, str) and value:
            return value[:80]
    return ""


def build_server_tools(conn: McpConnection, taken: set[str]) -> tuple[list[Tool], list[str]]:
    """Tools for one connected server; a name that collides after sanitising is skipped and
    reported (the first tool keeps it)."""
    tools: list[Tool] = []
    skipped: list[str] = []
    for listed in conn.tools:
        name = mcp_tool_name(conn.name, listed.name)
        if name in taken:
            skipped.append(f"{conn.name}: tool {listed.name!r} skipped, its name {name} is taken")
            continue
        taken.add(name)
        tools.append(build_mcp_tool(conn, listed))
    return tools, skipped
