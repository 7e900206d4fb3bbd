"""ClaudeSDKClient: one CLI process for several prompts, steered while it runs (interrupt,
permission mode, model)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import anyio
from claude_agent_sdk import (
    AssistantMessage,
    ClaudeSDKClient,
    ResultMessage,
    TextBlock,
    ToolUseBlock,
)

from tests.sdk.sdk_helpers import (
    MODEL,
    Cli,
    conversation_text,
    main_requests,
    options,
    result_text,
    tool_results,
    tool_use,
)


async def response(client: ClaudeSDKClient) -> list[Any]:
    return [message async for message in client.receive_response()]


def texts(messages: list[Any]) -> list[str]:
    return [b.text for m in messages if isinstance(m, AssistantMessage)
            for b in m.content if isinstance(b, TextBlock)]


async def test_two_prompts_share_one_conversation(cli: Cli, project: Path,
                                                  scripted: Any) -> None:
    server = scripted(["First answer.", "Second answer."])
    async with ClaudeSDKClient(options(cli, project)) as client:
        await client.query("first question")
        first = await response(client)
        await client.query("second question")
        second = await response(client)

    assert texts(first) == ["First answer."] and texts(second) == ["Second answer."]
    assert isinstance(first[-1], ResultMessage) and isinstance(second[-1], ResultMessage)
    assert first[-1].session_id == second[-1].session_id
    assert second[-1].result == "Second answer."
    later = conversation_text(main_requests(server)[1])
    assert "first question" in later and "First answer." in later and "second question" in later


async def test_interrupt_stops_a_long_tool_within_a_second(cli: Cli, project: Path,
                                                           scripted: Any) -> None:
    server = scripted([tool_use("Bash", {"command": "python3 -c 'import time; time.sleep(25)'",
                                         "description": "wait"},
                                "toolu_sleep_1"),
                       "Ready for the next one."])
    async with ClaudeSDKClient(options(cli, project,
                                       permission_mode="bypassPermissions")) as client:
        await client.query("wait a long time")
        seen: list[Any] = []
        interrupted_at = 0.0
        async for message in client.receive_response():
            seen.append(message)
            if isinstance(message, AssistantMessage) and any(
                    isinstance(b, ToolUseBlock) for b in message.content):
                await anyio.sleep(1.0)  # the sleep is running now
                interrupted_at = time.monotonic()
                await client.interrupt()
        ended_after = time.monotonic() - interrupted_at
        assert interrupted_at and ended_after < 1.0
        assert isinstance(seen[-1], ResultMessage)

        await client.query("next")
        after = await response(client)

    assert texts(after) == ["Ready for the next one."]
    assert isinstance(after[-1], ResultMessage) and after[-1].subtype == "success"
    [result] = tool_results(main_requests(server)[-1])
    assert result["tool_use_id"] == "toolu_sleep_1"


async def test_set_permission_mode_applies_to_the_next_call(cli: Cli, project: Path,
                                                           scripted: Any) -> None:
    note = project / "note.txt"
    write = {"file_path": str(note), "content": "written\n"}
    server = scripted([tool_use("Write", write, "toolu_w1"), "Could not write.",
                       tool_use("Write", write, "toolu_w2"), "Written."])
    async with ClaudeSDKClient(options(cli, project)) as client:
        await client.query("write the note")
        first = await response(client)
        assert not note.exists()
        await client.set_permission_mode("acceptEdits")
        await client.query("write it again")
        second = await response(client)

    assert [d["tool_name"] for d in first[-1].permission_denials] == ["Write"]
    assert note.read_text() == "written\n"
    assert second[-1].permission_denials == []
    [denied, done] = tool_results(main_requests(server)[-1])
    assert denied["is_error"] is True and done.get("is_error") in (None, False)
    assert "written" not in result_text(denied)


async def test_set_model_switches_the_next_request(cli: Cli, project: Path,
                                                   scripted: Any) -> None:
    server = scripted(["From sonnet.", "From opus."])
    async with ClaudeSDKClient(options(cli, project)) as client:
        await client.query("one")
        first = await response(client)
        await client.set_model("claude-opus-5-5")
        await client.query("two")
        second = await response(client)

    assert [r["model"] for r in main_requests(server)] == [MODEL, "claude-opus-5-5"]
    [before] = [m for m in first if isinstance(m, AssistantMessage)]
    [after] = [m for m in second if isinstance(m, AssistantMessage)]
    assert (before.model, after.model) == (MODEL, "claude-opus-5-5")
    assert "claude-opus-5-5" in (second[-1].model_usage or {})
