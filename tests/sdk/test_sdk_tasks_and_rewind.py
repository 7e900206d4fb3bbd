"""`rewind_files` and `stop_task` from a ClaudeSDKClient: the files a prompt changed come back
as they were, and a background command stops when the program asks."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import anyio
from claude_agent_sdk import ClaudeSDKClient, ResultMessage, ToolResultBlock, UserMessage

from tests.sdk.sdk_helpers import Cli, options, tool_use


async def response(client: ClaudeSDKClient) -> list[Any]:
    return [message async for message in client.receive_response()]


def replayed_prompts(messages: list[Any]) -> list[str]:
    """The uuids of the prompts the CLI wrote back (--replay-user-messages)."""
    return [m.uuid for m in messages if isinstance(m, UserMessage) and m.uuid
            and not m.tool_use_result and not m.parent_tool_use_id
            and not any(isinstance(b, ToolResultBlock) for b in m.content or [])]


async def test_rewind_files_puts_back_what_a_prompt_changed(cli: Cli, project: Path,
                                                            scripted: Any) -> None:
    notes, created = project / "notes.txt", project / "new.txt"
    notes.write_text("before\n")
    scripted([
        tool_use("Read", {"file_path": str(notes)}, "toolu_r1"),
        tool_use("Write", {"file_path": str(notes), "content": "after\n"}, "toolu_w1"),
        tool_use("Write", {"file_path": str(created), "content": "fresh\n"}, "toolu_w2"),
        "Both written.",
    ])
    opts = options(cli, project, permission_mode="acceptEdits", enable_file_checkpointing=True,
                   extra_args={"replay-user-messages": None})
    async with ClaudeSDKClient(opts) as client:
        await client.query("change the notes and add a file")
        messages = await response(client)
        assert isinstance(messages[-1], ResultMessage) and not messages[-1].is_error
        assert notes.read_text() == "after\n" and created.read_text() == "fresh\n"
        prompts = replayed_prompts(messages)
        assert len(prompts) == 1
        await client.rewind_files(prompts[0])

    assert notes.read_text() == "before\n"
    assert not created.exists()


async def test_stop_task_kills_a_background_command(cli: Cli, project: Path,
                                                    scripted: Any) -> None:
    marker = project / "late.txt"
    command = f"sleep 3 && touch {marker}"
    server = scripted([
        tool_use("Bash", {"command": command, "description": "wait then touch",
                          "run_in_background": True}, "toolu_bg1"),
        "Started it.",
    ])
    opts = options(cli, project, permission_mode="bypassPermissions")
    async with ClaudeSDKClient(opts) as client:
        await client.query("start it in the background")
        await response(client)
        started = [b for m in server.requests for b in _results(m)]
        task_id = re.search(r"ID: (\S+?)\.?(?:\s|$)", started[0]).group(1)
        begun = time.monotonic()
        await client.stop_task(task_id)
        await anyio.sleep(max(0.0, 4.0 - (time.monotonic() - begun)))

    assert not marker.exists()


def _results(request: Any) -> list[str]:
    if not isinstance(request, dict):
        return []
    texts = []
    for message in request.get("messages", []):
        for block in message["content"] if isinstance(message["content"], list) else []:
            if block.get("type") == "tool_result":
                content = block.get("content")
                texts.append(content if isinstance(content, str) else " ".join(
                    b.get("text", "") for b in content or []))
    return texts
