"""The program steers the CLI with control requests while it runs (MCP status and toggles,
context usage, rewind, stop_task, a bad mode), asks for a structured answer, and survives an
overloaded model with a fallback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeSDKClient,
    ResultMessage,
    SystemMessage,
    create_sdk_mcp_server,
    query,
    tool,
)

from tests.sdk.sdk_helpers import Cli, main_requests, options, result_text, tool_results, tool_use


def calc_server(calls: list[dict[str, Any]]) -> Any:
    @tool("add", "Add two integers", {"a": int, "b": int})
    async def add(args: dict[str, Any]) -> dict[str, Any]:
        calls.append(args)
        return {"content": [{"type": "text", "text": f"The sum is {args['a'] + args['b']}"}]}

    return create_sdk_mcp_server("calc", version="1.0.0", tools=[add])


async def test_control_requests_are_answered_and_the_session_goes_on(
        cli: Cli, project: Path, scripted: Any) -> None:
    calls: list[dict[str, Any]] = []
    server = scripted([tool_use("mcp__calc__add", {"a": 4, "b": 5}, "toolu_add_2"), "Nine."])
    opts = options(cli, project, mcp_servers={"calc": calc_server(calls)},
                   allowed_tools=["mcp__calc__add"])
    async with ClaudeSDKClient(opts) as client:
        status = await client.get_mcp_status()
        assert isinstance(status["mcpServers"], list)
        for entry in status["mcpServers"]:
            assert {"name", "status"} <= set(entry)
        usage = await client.get_context_usage()
        assert isinstance(usage["categories"], list) and usage["categories"]
        assert usage["maxTokens"] > 0 and 0 <= usage["percentage"] <= 100
        assert isinstance(usage["totalTokens"], int) and usage["model"]
        with pytest.raises(Exception, match="Server not found: nope"):
            await client.reconnect_mcp_server("nope")
        await client.toggle_mcp_server("calc", False)
        await client.toggle_mcp_server("calc", True)
        with pytest.raises(Exception, match="rewind"):
            await client.rewind_files("00000000-0000-0000-0000-000000000000")
        await client.stop_task("no-such-task")
        await client.interrupt()  # idle: nothing to stop, still answered
        with pytest.raises(Exception, match="must be one of"):
            await client.set_permission_mode("bogus")  # type: ignore[arg-type]

        await client.query("add 4 and 5")
        messages = [m async for m in client.receive_response()]

    assert calls == [{"a": 4, "b": 5}]
    [result] = tool_results(main_requests(server)[-1])
    assert "The sum is 9" in result_text(result)
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == "Nine."


async def test_json_schema_gives_structured_output(cli: Cli, project: Path,
                                                   scripted: Any) -> None:
    schema = {"type": "object", "properties": {"answer": {"type": "integer"}},
              "required": ["answer"]}
    server = scripted([tool_use("StructuredOutput", {"answer": 42}, "toolu_so_1"),
                       "Never requested."])
    messages = [m async for m in query(prompt="answer", options=options(
        cli, project, output_format={"type": "json_schema", "schema": schema}))]

    result = messages[-1]
    assert isinstance(result, ResultMessage) and result.subtype == "success"
    assert result.structured_output == {"answer": 42}
    assert result.result == '{"answer":42}'
    [offered] = [t for t in main_requests(server)[0]["tools"] if t["name"] == "StructuredOutput"]
    assert offered["input_schema"]["properties"] == schema["properties"]
    assert len(main_requests(server)) == 1  # the structured answer ends the turn


async def test_fallback_model_takes_over_an_overloaded_one(cli: Cli, project: Path,
                                                           scripted: Any) -> None:
    overloaded = {"fault": {"status": 529}}
    server = scripted([overloaded, overloaded, overloaded, "From the fallback."])
    messages = [m async for m in query(prompt="hi", options=options(
        cli, project, model="claude-opus-5-5", fallback_model="claude-sonnet-5-5"))]

    [switch] = [m for m in messages if isinstance(m, SystemMessage)
                and m.subtype == "model_fallback"]
    assert (switch.data["original_model"], switch.data["fallback_model"]) == (
        "claude-opus-5-5", "claude-sonnet-5-5")
    [answer] = [m for m in messages if isinstance(m, AssistantMessage)]
    assert answer.model == "claude-sonnet-5-5"
    assert [r["model"] for r in main_requests(server)] == ["claude-opus-5-5"] * 3 + [
        "claude-sonnet-5-5"]
    assert messages[-1].result == "From the fallback."
    assert "claude-sonnet-5-5" in (messages[-1].model_usage or {})
