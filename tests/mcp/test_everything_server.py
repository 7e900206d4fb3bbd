"""Every tool of the reference server `@modelcontextprotocol/server-everything` (installed from
npm by .ci/run), called through the harness's MCP tool adapter and the real tool pipeline, each
result checked as the model and a program would see it."""

from __future__ import annotations

import asyncio
import base64
import gzip
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.mcp import McpManager
from claude_harness.mcp.config import McpServerConfig
from claude_harness.mcp.content import McpCallResult
from claude_harness.protocol.events import ToolProgress
from claude_harness.tools.registry import assemble_tool_pool
from tests.mcp.npm_servers import EVERYTHING, require
from tests.mcp.support import TypedAnswers, call, make_ctx, permission, text_of

# Every tool this server offers a client with roots and elicitation (no sampling: we do not
# declare it, so the sampling tools are never registered).
EXPECTED_TOOLS = {
    "echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference",
    "get-roots-list", "get-structured-content", "get-sum", "get-tiny-image",
    "gzip-file-as-resource", "simulate-research-query", "toggle-simulated-logging",
    "toggle-subscriber-updates", "trigger-elicitation-request", "trigger-long-running-operation",
    "trigger-url-elicitation",
}


class Everything:
    """One running server, a context over its tools, and the user at the elicitation form."""

    def __init__(self, manager: McpManager, cwd: Path) -> None:
        self.manager = manager
        self.user = TypedAnswers()
        manager.elicitation.front_end = self.user
        perm = permission(cwd, allow=("mcp__every",))
        self.ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))

    async def call(self, tool: str, args: dict[str, Any] | None = None,
                   events: list[Any] | None = None) -> Any:
        return await asyncio.wait_for(call(self.ctx, f"mcp__every__{tool}", args or {}, events),
                                      60)


@pytest.fixture
async def every(tmp_path: Path, home: Path) -> AsyncIterator[Everything]:
    script = require(EVERYTHING)
    cfg = McpServerConfig(name="every", command="node", args=(script, "stdio"), scope="cli")
    manager = McpManager([cfg], cwd=tmp_path, startup_timeout=30)
    manager.start()
    try:
        assert await manager.wait_ready(40)
        assert manager.status()[0].state == "connected", manager.status()[0].error
        yield Everything(manager, tmp_path)
    finally:
        await asyncio.wait_for(manager.close(), 20)


def data(outcome: Any) -> McpCallResult:
    assert isinstance(outcome.data, McpCallResult), outcome.content
    return outcome.data


async def test_the_server_offers_every_expected_tool(every: Everything) -> None:
    names = {t.name.removeprefix("mcp__every__") for t in every.manager.tools()
             if t.name.startswith("mcp__every__")}
    assert names == EXPECTED_TOOLS
    assert {c.name for c in every.manager.prompt_commands()} >= {
        "mcp__every__simple-prompt", "mcp__every__args-prompt"}


async def test_plain_tools(every: Everything) -> None:
    echo = await every.call("echo", {"message": "hello there"})
    assert not echo.is_error and echo.content == "Echo: hello there"
    total = await every.call("get-sum", {"a": 2, "b": 3.5})
    assert not total.is_error and "5.5" in text_of(total)
    env = await every.call("get-env")
    assert not env.is_error and "PATH" in json.loads(text_of(env))
    logging = await every.call("toggle-simulated-logging")
    assert not logging.is_error and "logging" in text_of(logging).lower()
    updates = await every.call("toggle-subscriber-updates")
    assert not updates.is_error and "update" in text_of(updates).lower()
    bad = await every.call("get-sum", {"a": "two", "b": 3})
    assert bad.is_error and "`a` is invalid" in text_of(bad)  # the server's own schema


async def test_images_stay_image_blocks(every: Everything) -> None:
    tiny = await every.call("get-tiny-image")
    assert not tiny.is_error and isinstance(tiny.content, list)
    images = [b for b in tiny.content if b["type"] == "image"]
    assert len(images) == 1 and images[0]["source"]["media_type"] == "image/png"
    assert base64.b64decode(images[0]["source"]["data"]).startswith(b"\x89PNG")
    annotated = await every.call("get-annotated-message",
                                 {"messageType": "success", "includeImage": True})
    assert not annotated.is_error
    assert [b["type"] for b in annotated.content].count("image") == 1
    assert "success" in text_of(annotated).lower()


async def test_structured_content_is_kept(every: Everything) -> None:
    weather = await every.call("get-structured-content", {"location": "Chicago"})
    assert not weather.is_error
    structured = data(weather).structured
    assert set(structured) == {"temperature", "conditions", "humidity"}
    assert json.loads(text_of(weather)) == structured  # the model reads the same facts
    assert data(weather).tool_use_result() == {"content": weather.content,
                                                "structuredContent": structured}


async def test_resource_links_and_embedded_resources(every: Everything) -> None:
    links = await every.call("get-resource-links", {"count": 2})
    assert not links.is_error
    text = text_of(links)
    assert text.count("[Resource link: ") == 2
    kept = data(links).resource_links
    assert len(kept) == 2 and all(link["description"] in text for link in kept)
    assert data(links).tool_use_result()["resourceLinks"] == list(kept)
    ref = await every.call("get-resource-reference", {"resourceType": "Text", "resourceId": 2})
    assert not ref.is_error
    assert "[Resource from every at demo://resource/dynamic/text/2] Resource 2:" in text_of(ref)
    blob = await every.call("get-resource-reference", {"resourceType": "Blob", "resourceId": 1})
    assert not blob.is_error and "[Resource from every at demo://resource/dynamic/blob/1]" in \
        text_of(blob)


async def test_gzip_as_embedded_resource_and_as_link(every: Everything) -> None:
    payload = "data:text/plain;base64," + base64.b64encode(b"zip me " * 50).decode()
    embedded = await every.call("gzip-file-as-resource",
                                {"name": "a.gz", "data": payload, "outputType": "resource"})
    assert not embedded.is_error
    assert "application/gzip" in text_of(embedded) and "not shown" in text_of(embedded)
    linked = await every.call("gzip-file-as-resource",
                              {"name": "b.gz", "data": payload, "outputType": "resourceLink"})
    assert not linked.is_error and "[Resource link: b.gz]" in text_of(linked)
    uri = data(linked).resource_links[0]["uri"]
    read = await asyncio.wait_for(call(every.ctx, "ReadMcpResourceTool",
                                       {"server": "every", "uri": uri}), 30)
    assert not read.is_error and "saved to" in text_of(read)
    saved = Path(text_of(read).rsplit("saved to ", 1)[1].rstrip("]"))
    assert gzip.decompress(saved.read_bytes()) == b"zip me " * 50


async def test_progress_notifications_become_tool_progress(every: Everything) -> None:
    events: list[Any] = []
    done = await every.call("trigger-long-running-operation", {"duration": 1, "steps": 3},
                            events)
    assert not done.is_error and "Steps: 3" in text_of(done)
    progress = [e.data for e in events if isinstance(e, ToolProgress)]
    assert [(p.message, p.kind) for p in progress] == [(f"{n}/3", "mcp_progress") for n in (1, 2, 3)]
    assert all(e.tool_use_id.startswith("toolu_") for e in events if isinstance(e, ToolProgress))


async def test_roots_are_the_working_directories_and_follow_add_dir(every: Everything,
                                                                    tmp_path: Path) -> None:
    first = await every.call("get-roots-list")
    assert not first.is_error and tmp_path.resolve().as_uri() in text_of(first)
    other = tmp_path / "other project"
    other.mkdir()
    assert every.manager.add_root(other)
    assert not every.manager.add_root(other)  # already a root: no second notification
    for _ in range(50):  # the server re-lists roots when told they changed
        again = await every.call("get-roots-list")
        if other.resolve().as_uri() in text_of(again):
            break
        await asyncio.sleep(0.1)
    assert "(2 total)" in text_of(again) and other.resolve().as_uri() in text_of(again)


async def test_elicitation_form_with_defaults_accept_decline_cancel(every: Everything) -> None:
    every.user.answers = {"name": "Ada Lovelace", "integer": "7"}
    accepted = await every.call("trigger-elicitation-request")
    assert not accepted.is_error
    request = every.user.requests[-1]
    assert request.server == "every" and request.mode == "form"
    assert [f.name for f in request.fields()][:2] == ["name", "check"]
    text = text_of(accepted)
    assert "Ada Lovelace" in text and '"integer": 7' in text
    assert "It was a dark and stormy night." in text  # a default the user left in place
    assert '"Guitar"' in text  # a multi-select default
    every.user.action = "decline"
    declined = await every.call("trigger-elicitation-request")
    assert "declined" in text_of(declined).lower()
    every.manager.elicitation.front_end = None  # -p: nobody to ask
    cancelled = await every.call("trigger-elicitation-request")
    assert "cancel" in text_of(cancelled).lower()


async def test_url_elicitation(every: Everything) -> None:
    opened = await every.call("trigger-url-elicitation",
                              {"url": "https://example.com/connect", "message": "Connect"})
    assert not opened.is_error
    request = every.user.requests[-1]
    assert request.mode == "url" and request.url == "https://example.com/connect"
    assert "completed the URL elicitation" in text_of(opened)
    assert '"action": "accept"' in text_of(opened)


async def test_task_augmented_tool_with_a_question_on_the_way(every: Everything) -> None:
    events: list[Any] = []
    every.user.answers = {}
    plain = await every.call("simulate-research-query", {"topic": "tides"}, events)
    assert not plain.is_error and "tides" in text_of(plain)
    statuses = [e.data.message for e in events if isinstance(e, ToolProgress)]
    assert statuses and statuses[0].startswith("Gathering")
    asked = await every.call("simulate-research-query", {"topic": "rust", "ambiguous": True})
    assert not asked.is_error and every.user.requests[-1].server == "every"
    assert "Clarification" in text_of(asked)
