"""Prompt-cache usage reported by the scripted server follows the request prefixes it has seen."""

from __future__ import annotations

import json
from typing import Any

from claude_harness.testing.cache import segments

SYSTEM = "You are a careful coding agent. " * 40
TOOLS = [{"name": "Read", "description": "Read a file. " * 20,
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}}]
EPHEMERAL = {"type": "ephemeral"}


def system(cached: bool) -> list[dict[str, Any]]:
    block: dict[str, Any] = {"type": "text", "text": SYSTEM}
    if cached:
        block["cache_control"] = EPHEMERAL
    return [block]


def user(text: str, cached: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "text", "text": text}
    if cached:
        block["cache_control"] = EPHEMERAL
    return {"role": "user", "content": [block]}


async def usage_for(client, **request: Any):
    async with client.messages.stream(model="m", max_tokens=10, tools=TOOLS, **request) as s:
        return (await s.get_final_message()).usage


def total_estimate(body: dict[str, Any]) -> int:
    return len(json.dumps(body, ensure_ascii=False)) // 4


async def test_cache_reads_the_longest_prefix_written_before(serve, connect):
    server = serve(["one", "two", "three", "four", "five"])
    client = connect(server)

    plain = await usage_for(client, system=system(False), messages=[user("hi")])
    assert plain.cache_read_input_tokens == 0 and plain.cache_creation_input_tokens == 0
    assert plain.input_tokens == total_estimate(server.requests[0])

    first = await usage_for(client, system=system(True), messages=[user("hi")])
    assert first.cache_read_input_tokens == 0
    assert first.cache_creation_input_tokens > len(SYSTEM) // 4
    assert (first.input_tokens + first.cache_creation_input_tokens
            == total_estimate(server.requests[1]))

    history = [user("hi"), {"role": "assistant", "content": "one"},
               user("now read the file " * 10, cached=True)]
    # No marker on the system block this time: the earlier prefix is still found by look-back.
    second = await usage_for(client, system=system(False), messages=history)
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens
    assert second.cache_creation_input_tokens > 0
    assert (second.input_tokens + second.cache_read_input_tokens
            + second.cache_creation_input_tokens == total_estimate(server.requests[2]))

    again = await usage_for(client, system=system(False), messages=history)
    assert again.cache_creation_input_tokens == 0
    assert again.cache_read_input_tokens == (second.cache_read_input_tokens
                                             + second.cache_creation_input_tokens)

    changed = await usage_for(client, system=[{"type": "text", "text": "Different system."}],
                              messages=history)
    assert changed.cache_read_input_tokens == 0
    assert changed.cache_creation_input_tokens > 0


def test_serialisation_ignores_cache_control_and_orders_tools_system_messages():
    body = {"tools": TOOLS, "system": "sys",
            "messages": [{"role": "user", "content": [
                {"type": "text", "text": "a", "cache_control": EPHEMERAL}]}]}
    segs = segments(body)
    assert [bp for _, bp in segs] == [False, False, True]
    assert json.loads(segs[0][0]) == TOOLS[0]
    assert json.loads(segs[1][0]) == {"type": "text", "text": "sys"}
    assert json.loads(segs[2][0]) == {"role": "user", "block": {"type": "text", "text": "a"}}
