"""The scripted server rejects, like the real API, requests that break the API's rules.

Each broken request must get HTTP 400 with an invalid_request_error naming the rule, must not
consume a script turn, and must still be logged. Requests go through the real SDK.
"""

from __future__ import annotations

from typing import Any

import anthropic
import httpx2
import pytest

from tests.testing.mock_api_helpers import USER_HI

BASE: dict[str, Any] = {"model": "m", "max_tokens": 16}
SCHEMA = {"type": "object", "properties": {}}


def tool_use(tool_id: str, name: str = "Bash") -> dict[str, Any]:
    return {"type": "tool_use", "id": tool_id, "name": name, "input": {}}


def tool_result(tool_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_id, "content": "ok"}


def cached(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}


def convo(*messages: tuple[str, Any]) -> list[dict[str, Any]]:
    return [{"role": role, "content": content} for role, content in messages]


CASES: list[tuple[str, dict[str, Any], str]] = [
    ("model missing", {"max_tokens": 5, "messages": USER_HI}, "model: Field required"),
    ("max_tokens missing", {"model": "m", "messages": USER_HI}, "max_tokens: Field required"),
    ("no messages", {**BASE, "messages": []}, "at least one message"),
    ("first message from assistant",
     {**BASE, "messages": convo(("assistant", "hello"), ("user", "hi"))},
     "first message must use the `user` role"),
    ("empty content list", {**BASE, "messages": convo(("user", []))}, "non-empty content"),
    ("empty string content", {**BASE, "messages": convo(("user", ""))}, "non-whitespace text"),
    ("empty assistant message before the end",
     {**BASE, "messages": convo(("user", "hi"), ("assistant", []), ("user", "again"))},
     "messages.1: all messages must have non-empty content"),
    ("whitespace text block",
     {**BASE, "messages": convo(("user", [{"type": "text", "text": " \n\t"}]))},
     "messages.0.content.0: text content blocks must contain non-whitespace text"),
    ("empty text inside tool_result",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1")]),
                                ("user", [{"type": "tool_result", "tool_use_id": "t1",
                                           "content": [{"type": "text", "text": ""}]}]))},
     "messages.2.content.0.content.0: text content blocks must contain non-whitespace text"),
    ("empty system block",
     {**BASE, "system": [{"type": "text", "text": ""}], "messages": USER_HI},
     "system.0: text content blocks must contain non-whitespace text"),
    ("tool_use answered by plain text",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1")]), ("user", "hm"))},
     "`tool_use` ids were found without `tool_result` blocks immediately after: t1"),
    ("one of two tool_use ids unanswered",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1"), tool_use("t2")]),
                                ("user", [tool_result("t1")]))},
     "without `tool_result` blocks immediately after: t2"),
    ("tool_use in the final assistant message",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1")]))},
     "without `tool_result` blocks immediately after: t1"),
    ("tool_result answered twice",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1")]),
                                ("user", [tool_result("t1"), tool_result("t1")]))},
     "duplicate tool_result for t1"),
    ("tool_result after text",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1")]),
                                ("user", [{"type": "text", "text": "here"}, tool_result("t1")]))},
     "tool_result blocks must come first"),
    ("tool_result for an unknown id",
     {**BASE, "messages": convo(("user", "go"), ("assistant", [tool_use("t1")]),
                                ("user", [tool_result("t1"), tool_result("t9")]))},
     "unexpected `tool_use_id` found in `tool_result` blocks: t9"),
    ("tool_result with no assistant turn before",
     {**BASE, "messages": convo(("user", [tool_result("t1")]))},
     "unexpected `tool_use_id` found in `tool_result` blocks: t1"),
    ("tool name with a space",
     {**BASE, "tools": [{"name": "read file", "input_schema": SCHEMA}], "messages": USER_HI},
     "tools.0.name: String should match pattern"),
    ("tool name too long",
     {**BASE, "tools": [{"name": "x" * 129, "input_schema": SCHEMA}], "messages": USER_HI},
     "tools.0.name: String should match pattern"),
    ("duplicate tool names",
     {**BASE, "tools": [{"name": "Read", "input_schema": SCHEMA},
                        {"name": "Read", "input_schema": SCHEMA}], "messages": USER_HI},
     "Tool names must be unique (duplicate 'Read')"),
    ("input_schema not an object",
     {**BASE, "tools": [{"name": "Read", "input_schema": {"type": "array"}}], "messages": USER_HI},
     "tools.0.input_schema.type: Input should be 'object'"),
    ("input_schema missing",
     {**BASE, "tools": [{"name": "Read"}], "messages": USER_HI},
     "tools.0.input_schema.type: Input should be 'object'"),
    ("five cache breakpoints",
     {**BASE, "tools": [{"name": "Read", "input_schema": SCHEMA,
                         "cache_control": {"type": "ephemeral"}}],
      "system": [cached("sys one"), cached("sys two")],
      "messages": convo(("user", [cached("a"), cached("b")]))},
     "A maximum of 4 blocks with cache_control may be provided. Found 5."),
    ("prefill ending in whitespace",
     {**BASE, "messages": convo(("user", "hi"), ("assistant", "Sure, \n"))},
     "final assistant content cannot end with trailing whitespace"),
    ("unknown thinking signature",
     {**BASE, "messages": convo(("user", "hi"), ("assistant", [
         {"type": "thinking", "thinking": "hmm", "signature": "forged"},
         {"type": "text", "text": "ok"}]), ("user", "more"))},
     "Invalid `signature` in `thinking` block"),
]


async def post(client: anthropic.AsyncAnthropic, body: dict[str, Any]) -> httpx2.Response:
    return await client.post("/v1/messages", body=body, cast_to=httpx2.Response)


@pytest.mark.parametrize(("body", "expected"), [(b, e) for _, b, e in CASES],
                         ids=[name for name, _, _ in CASES])
async def test_broken_request_is_rejected_with_400_and_consumes_no_turn(
        serve, connect, body, expected):
    server = serve(["the turn"])
    client = connect(server)
    with pytest.raises(anthropic.BadRequestError) as info:
        await post(client, body)
    assert info.value.status_code == 400
    error = info.value.body["error"]
    assert error["type"] == "invalid_request_error"
    assert expected in error["message"]
    assert server.remaining_turns == 1
    assert server.requests == [body]
    assert [e["event"] for e in server.log] == ["request", "response_end"]
    message = await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    assert message.content[0].text == "the turn"


ACCEPTED: list[tuple[str, dict[str, Any]]] = [
    ("four cache breakpoints",
     {**BASE, "tools": [{"name": "Read", "input_schema": SCHEMA,
                         "cache_control": {"type": "ephemeral"}}],
      "system": [cached("sys one")], "messages": convo(("user", [cached("a"), cached("b")]))}),
    ("prefill without trailing whitespace",
     {**BASE, "messages": convo(("user", "hi"), ("assistant", "Sure,"))}),
    ("full tool round trip with extra text after results",
     {**BASE, "tools": [{"name": "Bash", "input_schema": SCHEMA},
                        {"name": "web_search", "type": "web_search_20250305"}],
      "messages": convo(("user", "go"), ("assistant", [{"type": "text", "text": "ok"},
                                                       tool_use("t1"), tool_use("t2")]),
                        ("user", [tool_result("t2"), tool_result("t1"),
                                  {"type": "text", "text": "and also"}]))}),
    ("empty final assistant message",
     {**BASE, "messages": convo(("user", "hi"), ("assistant", ""))}),
    ("empty tool_result content", {**BASE, "messages": convo(
        ("user", "go"), ("assistant", [tool_use("t1")]),
        ("user", [{"type": "tool_result", "tool_use_id": "t1", "content": ""}]))}),
]


@pytest.mark.parametrize("body", [b for _, b in ACCEPTED], ids=[n for n, _ in ACCEPTED])
async def test_valid_request_is_accepted(serve, connect, body):
    server = serve(["fine"])
    response = await post(connect(server), body)
    assert response.status_code == 200
    assert response.json()["content"] == [{"type": "text", "text": "fine"}]


THINKING = {"type": "enabled", "budget_tokens": 1024}


async def first_thinking_turn(server, client) -> tuple[dict, dict, dict]:
    """Run the first scripted turn and return (thinking block, tool_use block, history base)."""
    first = await client.messages.create(model="m", max_tokens=2000, messages=USER_HI,
                                         thinking=THINKING)
    think = {"type": "thinking", "thinking": first.content[0].thinking,
             "signature": first.content[0].signature}
    use = {"type": "tool_use", "id": first.content[1].id, "name": "Bash",
           "input": first.content[1].input}
    return think, use, {"type": "tool_result", "tool_use_id": use["id"], "content": "x"}


THINKING_SCRIPT = [{"content": [{"type": "thinking", "thinking": "Plan: run ls."},
                                {"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}]},
                   "done"]


@pytest.mark.parametrize(("mangle", "expected"), [
    (lambda t: {**t, "thinking": t["thinking"] + " (edited)"}, "must be sent back unchanged"),
    (lambda t: {**t, "signature": t["signature"][:-4]}, "Invalid `signature`"),
    (lambda t: {**t, "signature": ""}, "Invalid `signature`"),
], ids=["edited text", "truncated signature", "signature dropped"])
async def test_changed_thinking_block_is_rejected(serve, connect, mangle, expected):
    server = serve(THINKING_SCRIPT)
    client = connect(server)
    think, use, result = await first_thinking_turn(server, client)
    history = [*USER_HI, {"role": "assistant", "content": [mangle(think), use]},
               {"role": "user", "content": [result]}]
    with pytest.raises(anthropic.BadRequestError) as info:
        await client.messages.create(model="m", max_tokens=2000, messages=history,
                                     thinking=THINKING)
    assert expected in info.value.body["error"]["message"]
    assert server.remaining_turns == 1


async def test_thinking_stripped_from_tool_turn_is_rejected_when_thinking_on(serve, connect):
    server = serve(THINKING_SCRIPT)
    client = connect(server)
    think, use, result = await first_thinking_turn(server, client)
    stripped = [*USER_HI, {"role": "assistant", "content": [use]},
                {"role": "user", "content": [result]}]
    with pytest.raises(anthropic.BadRequestError) as info:
        await client.messages.create(model="m", max_tokens=2000, messages=stripped,
                                     thinking=THINKING)
    assert "must start with the thinking blocks" in info.value.body["error"]["message"]
    kept = [*USER_HI, {"role": "assistant", "content": [think, use]},
            {"role": "user", "content": [result]}]
    message = await client.messages.create(model="m", max_tokens=2000, messages=kept,
                                           thinking=THINKING)
    assert message.content[0].text == "done"


async def test_thinking_issued_by_another_server_is_accepted_like_after_a_resume(serve, connect):
    first_server = serve(THINKING_SCRIPT)
    think, use, result = await first_thinking_turn(first_server, connect(first_server))
    resumed = serve(["resumed fine"])
    history = [*USER_HI, {"role": "assistant", "content": [think, use]},
               {"role": "user", "content": [result]}]
    message = await connect(resumed).messages.create(model="m", max_tokens=2000,
                                                     messages=history, thinking=THINKING)
    assert message.content[0].text == "resumed fine"
