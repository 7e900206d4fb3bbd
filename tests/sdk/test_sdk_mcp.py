"""An in-process MCP server the program hosts (`create_sdk_mcp_server`): the CLI lists its
tools and calls them through the control channel, like any MCP tool."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_agent_sdk import (
    AssistantMessage,
    ResultMessage,
    ToolUseBlock,
    UserMessage,
    create_sdk_mcp_server,
    query,
    tool,
)

from tests.sdk.sdk_helpers import Cli, main_requests, options, result_text, tool_results, tool_use


async def test_sdk_mcp_tool_is_listed_and_called(cli: Cli, project: Path, scripted: Any) -> None:
    calls: list[dict[str, Any]] = []

    @tool("add", "Add two integers", {"a": int, "b": int})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(args)
        return {"content": [{"type": "text", "text": f"The sum is {args['a'] + args['b']}"}]}

    calc = create_sdk_mcp_server("calc", version="1.0.0", tools=[add])
    server = scripted([tool_use("mcp__calc__add", {"a": 2, "b": 3}, "toolu_add_1"),
                       "Two and three make five."])

    async def one_prompt() -> Any:
        yield {"type": "user", "message": {"role": "user", "content": "add 2 and 3"},
               "parent_tool_use_id": None, "session_id": "default"}

    opts = options(cli, project, mcp_servers={"calc": calc}, allowed_tools=["mcp__calc__add"])
    messages = [m async for m in query(prompt=one_prompt(), options=opts)]

    init = messages[0].data
    assert {"name": "calc", "status": "connected"} in [
        {k: s[k] for k in ("name", "status")} for s in init["mcp_servers"]]
    assert "mcp__calc__add" in init["tools"]
    first = main_requests(server)[0]  # the tool is offered, or named as a deferred one
    assert "mcp__calc__add" in json.dumps(first)
    assert calls == [{"a": 2, "b": 3}]
    [used] = [b for m in messages if isinstance(m, AssistantMessage) for b in m.content
              if isinstance(b, ToolUseBlock)]
    assert used.name == "mcp__calc__add"
    [result] = tool_results(main_requests(server)[-1])
    assert "The sum is 5" in result_text(result) and not result.get("is_error")
    assert any(isinstance(m, UserMessage) and m.tool_use_result for m in messages)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == (
        "Two and three make five.")


async def test_a_servers_question_on_the_pipe_is_cancelled_not_waited_for(
        cli: Cli, project: Path, scripted: Any) -> None:
    """A program that answers permission prompts has no form for an MCP server's question:
    the question is cancelled at once and the call ends (it never waits on nobody)."""
    import sys
    import time

    from claude_agent_sdk import PermissionResultAllow, ResultMessage, query

    demo = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"
    server = scripted([tool_use("mcp__srv__ask", {}, "toolu_ask_1"), "Nobody answered."])

    async def allow(name: str, tool_input: dict[str, Any], context: Any) -> Any:
        return PermissionResultAllow()

    opts = options(cli, project, can_use_tool=allow, mcp_servers={"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(demo), "srv"]}})

    async def prompts() -> Any:
        yield {"type": "user", "message": {"role": "user", "content": "who am I?"}}

    started = time.monotonic()
    messages = [m async for m in query(prompt=prompts(), options=opts)]

    assert time.monotonic() - started < 30
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "Nobody answered."
    requests = [r for r in server.requests if isinstance(r, dict) and r.get("tools")]
    assert "toolu_ask_1" in json.dumps(requests[-1]["messages"])
