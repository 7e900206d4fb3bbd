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
    from claude_harness.session.options import RunOptions

    opts = RunOptions(cwd=cwd, print_mode=True, interactive=False, persist_session=False,
                      permission_mode=args.permission_mode, allowed_tools=args.allowedTools,
                      disallowed_tools=args.disallowedTools)
    return asyncio.run(_serve(opts, argv))


def _build(opts: Any) -> Any:
    """The session whose rules, hooks and folder every call uses (run in a thread while the
    handshake is answered: it is most of the start-up)."""
    from claude_harness.session.bootstrap import StartupError, build_session

    try:
        session, warnings = build_session(opts)
    except StartupError as exc:
        sys.stderr.write(f"claude-harness mcp serve: {exc}\n")
        raise
    for warning in warnings:
        sys.stderr.write(f"claude-harness mcp serve: {warning}\n")
    return session


def offered_tools(session: Any) -> list[Any]:
    return [t for t in session.config.tools if not t.needs_conversation and t.is_enabled()]


async def _serve(opts: Any, argv: list[str]) -> int:
    """Serve until the client closes stdin (0), or until the session cannot be built (1: the
    reason is on stderr, and a client must not see a server without tools as connected)."""
    from claude_harness import __version__
    from claude_harness.frontends.mcp_serve.cache import cache_file, cached_tools, store_tools
    from claude_harness.frontends.mcp_serve.wire import ToolWire, claim_stdout, serve_lines

    write = claim_stdout()
    loop = asyncio.get_running_loop()
    cache = cache_file(opts.cwd, argv)
    cached = cached_tools(cache)  # last time's list: answered while ours is being made
    early: asyncio.Future[list[dict[str, Any]] | None] = loop.create_future()
    listed: list[list[dict[str, Any]]] = []  # what tools/list answered

    def build() -> Any:
        try:
            tools = _early_tools(opts)
        except Exception:  # noqa: BLE001 - the full build reports the problem
            tools = None
        loop.call_soon_threadsafe(early.set_result, tools)
        if tools is not None and tools != cached:
            store_tools(cache, tools)  # for the next start, even if this one ends soon
        return _build(opts)

    building = asyncio.ensure_future(asyncio.to_thread(build))

    async def list_tools() -> list[dict[str, Any]]:
        if cached is not None and not early.done():
            tools = cached
        else:
            tools = await early
            if tools is None or building.done():
                tools = _described(offered_tools(await building))
        listed.append(tools)
        return tools

    async def call_tool(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        session = await building
        if name not in {t.name for t in offered_tools(session)}:
            return _result(f"No tool named {name!r} is offered here.", True)
        outcome = await _call(session, name, arguments)
        return {"content": _content(outcome.content), "isError": bool(outcome.is_error)}

    wire = ToolWire(list_tools, call_tool, name="claude-harness", version=__version__,
                    write=write, list_changes=True)
    serving = asyncio.ensure_future(serve_lines(wire))
    await asyncio.wait([serving, building], return_when=asyncio.FIRST_COMPLETED)
    if building.done() and building.exception() is not None:
        serving.cancel()
        return 1
    if not serving.done():
        await asyncio.wait([building])
        if building.exception() is not None:
            serving.cancel()
            return 1
        final = _described(offered_tools(building.result()))
        if final != cached:
            store_tools(cache, final)
        if listed and listed[-1] != final:  # last time's list, or the early one, was not
            wire.tools_changed()  # the session's: the client lists again
    await serving
    return 0


def _early_tools(opts: Any) -> list[dict[str, Any]] | None:
    """The tools a session here offers, from the settings and the tool pool alone (the rest of
    the session is most of the start-up, and a client waits for this list); None when an
    `agent` setting may narrow them. Should it differ from the session's, the client is told
    to list again."""
    from claude_harness.config.paths import data_dir
    from claude_harness.config.settings import CliSettings, load_settings
    from claude_harness.config.trust import is_trusted
    from claude_harness.tools.registry import assemble_tool_pool

    cwd = opts.cwd.resolve()
    loaded = load_settings(cwd, trusted=is_trusted(data_dir(), cwd), cli=CliSettings(
        allowed_tools=opts.allowed_tools, disallowed_tools=opts.disallowed_tools,
        permission_mode=opts.permission_mode))
    if loaded.value("agent"):
        return None
    pool = assemble_tool_pool(loaded.permission_context(interactive=False))
    return _described([t for t in pool if not t.needs_conversation and t.is_enabled()])


def _described(tools: list[Any]) -> list[dict[str, Any]]:
    return [{"name": t.name, "description": t.description, "inputSchema": t.input_schema()}
            for t in tools]


async def _call(session: Any, name: str, arguments: dict[str, Any]) -> Any:
    """One call through the model's own pipeline, with a fresh context (the session's rules,
    hooks and working directory); a cancelled call aborts the tool as Esc does."""
    from claude_harness.tools.pipeline import check_permissions_and_call_tool

    use = {"id": f"toolu_mcp_{uuid.uuid4().hex[:20]}", "name": name, "input": arguments}
    context = session.tool_context()
    try:
        return await check_permissions_and_call_tool(use, context, _ignore)
    except asyncio.CancelledError:
        context.abort.abort("cancelled by the MCP client")
        raise


def _result(text: str, is_error: bool) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": is_error}


def _ignore(_event: Any) -> None:
    """Progress and notices have no reader on this pipe."""


def _content(content: Any) -> list[dict[str, Any]]:
    """Our tool result blocks as MCP content (text and images)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    for block in content or []:
        if block.get("type") == "image" and isinstance(block.get("source"), dict):
            source = block["source"]
            blocks.append({"type": "image", "data": source.get("data", ""),
                           "mimeType": source.get("media_type", "image/png")})
        else:
            blocks.append({"type": "text", "text": str(block.get("text", ""))})
    return blocks or [{"type": "text", "text": ""}]
