"""`query()` from the real Agent SDK, driving the CLI as a subprocess: the messages a program
reads (init, assistant, result), partial messages, resume by session id, and the budget."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from claude_agent_sdk import (
    AssistantMessage,
    ResultError,
    ResultMessage,
    StreamEvent,
    SystemMessage,
    TextBlock,
    query,
)

from tests.sdk.sdk_helpers import MODEL, Cli, conversation_text, main_requests, options, tool_use


async def collect(prompt: str, opts: Any) -> list[Any]:
    return [message async for message in query(prompt=prompt, options=opts)]


def only(messages: list[Any], kind: type) -> list[Any]:
    return [m for m in messages if isinstance(m, kind)]


async def test_query_reads_init_assistant_and_result(cli: Cli, project: Path,
                                                     scripted: Any) -> None:
    server = scripted(["Hello from the script."])
    messages = await collect("say hi", options(cli, project))

    init = messages[0]
    assert isinstance(init, SystemMessage) and init.subtype == "init"
    data = init.data
    assert re.fullmatch(r"\d+\.\d+\.\d+", data["claude_code_version"])
    assert data["cwd"] == str(project)
    assert data["model"] == MODEL
    assert data["permissionMode"] == "default"
    assert data["apiKeySource"] == "ANTHROPIC_API_KEY"
    assert {"Bash", "Read", "Edit", "Write"} <= set(data["tools"])
    assert data["mcp_servers"] == []
    assert isinstance(data["slash_commands"], list) and isinstance(data["agents"], list)

    [assistant] = only(messages, AssistantMessage)
    assert assistant.content == [TextBlock(text="Hello from the script.")]
    assert assistant.model == MODEL
    assert assistant.message_id and assistant.message_id.startswith("msg_")
    assert assistant.session_id == data["session_id"] and assistant.uuid
    assert assistant.usage is not None and assistant.usage["input_tokens"] > 0

    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error, result.num_turns) == ("success", False, 1)
    assert result.result == "Hello from the script."
    assert result.session_id == data["session_id"]
    assert result.stop_reason == "end_turn"
    assert result.total_cost_usd is not None and result.total_cost_usd > 0
    assert result.usage is not None and result.usage["output_tokens"] > 0
    assert result.model_usage is not None and result.model_usage[MODEL]["costUSD"] > 0
    assert result.permission_denials == []
    assert result.duration_ms >= 0 and result.duration_api_ms >= 0
    assert len(main_requests(server)) == 1


async def test_partial_messages_stream_the_text_as_it_comes(cli: Cli, project: Path,
                                                           scripted: Any) -> None:
    text = "A longer answer that arrives in several pieces."
    scripted([text])
    messages = await collect("stream it", options(cli, project, include_partial_messages=True))

    events = [m.event for m in only(messages, StreamEvent)]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    deltas = [e["delta"]["text"] for e in events if e["type"] == "content_block_delta"
              and e["delta"]["type"] == "text_delta"]
    assert len(deltas) > 1 and "".join(deltas) == text
    assert all(m.session_id and m.uuid and m.parent_tool_use_id is None
               for m in only(messages, StreamEvent))
    [assistant] = only(messages, AssistantMessage)
    assert assistant.content == [TextBlock(text=text)]
    assert messages.index(assistant) > kinds.index("content_block_start")
    assert isinstance(messages[-1], ResultMessage) and messages[-1].result == text


async def test_resume_by_session_id_continues_the_conversation(cli: Cli, project: Path,
                                                              scripted: Any) -> None:
    server = scripted(["I will remember 42.", "The number was 42."])
    first = await collect("remember the number 42", options(cli, project))
    session_id = first[-1].session_id

    second = await collect("which number?", options(cli, project, resume=session_id))

    request = main_requests(server)[-1]
    assert "remember the number 42" in conversation_text(request)
    assert "I will remember 42." in conversation_text(request)
    assert second[-1].result == "The number was 42."
    assert second[-1].session_id == session_id


async def test_max_budget_ends_with_error_max_budget_usd(cli: Cli, project: Path,
                                                         scripted: Any) -> None:
    """Over budget after the first answer: the run ends there (its tool call never runs), with
    an error result, then the CLI exits 1, which the SDK raises as ResultError."""
    server = scripted([tool_use("Bash", {"command": "touch spent.txt", "description": "touch"},
                                "toolu_budget_1"),
                       "Still going.", "And more."])
    messages: list[Any] = []
    with pytest.raises(ResultError) as raised:
        async for message in query(prompt="spend", options=options(
                cli, project, max_budget_usd=0.0001, permission_mode="bypassPermissions")):
            messages.append(message)

    result = messages[-1]
    assert isinstance(result, ResultMessage)
    assert (result.subtype, result.is_error) == ("error_max_budget_usd", True)
    assert result.errors == ["Reached maximum budget ($0.0001)"]
    assert result.total_cost_usd is not None and result.total_cost_usd > 0.0001
    assert raised.value.subtype == "error_max_budget_usd"
    assert len(main_requests(server)) == 1
    assert not (project / "spent.txt").exists()
