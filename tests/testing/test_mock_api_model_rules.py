"""The scripted server's newer rules and abilities, through the real SDK: model parameters from
the model table, server tool blocks and paused turns sent back as issued, redacted and omitted
thinking, a context window, and the faults that test stream robustness."""

from __future__ import annotations

import json
from typing import Any

import anthropic
import httpx2
import pytest

from claude_harness.testing.script import sign_thinking
from tests.testing.mock_api_helpers import USER_HI

BETA = {"anthropic-beta": "context-management-2025-06-27"}
CLEAR = {"edits": [{"type": "clear_thinking_20251015", "keep": "all"}]}


async def post(client: anthropic.AsyncAnthropic, body: dict[str, Any],
               headers: dict[str, str] | None = None) -> httpx2.Response:
    return await client.post("/v1/messages", cast_to=httpx2.Response, body=body,
                             options={"headers": headers or {}})


REFUSED: list[tuple[str, dict[str, Any], dict[str, str], str]] = [
    ("max_tokens over the model's maximum",
     {"model": "claude-opus-4-8", "max_tokens": 200_000}, {},
     "200000 > 128000, which is the maximum allowed number of output tokens for claude-opus-4-8"),
    ("adaptive thinking on a budget-only model",
     {"model": "claude-sonnet-4-5", "max_tokens": 2000, "thinking": {"type": "adaptive"}}, {},
     "'adaptive' is not supported by claude-sonnet-4-5"),
    ("budget not below max_tokens",
     {"model": "claude-sonnet-4-5", "max_tokens": 2000,
      "thinking": {"type": "enabled", "budget_tokens": 2000}}, {},
     "must be greater than `thinking.budget_tokens`"),
    ("budget under 1024",
     {"model": "claude-sonnet-4-5", "max_tokens": 2000,
      "thinking": {"type": "enabled", "budget_tokens": 500}}, {}, "greater than or equal to 1024"),
    ("thinking on a model without it",
     {"model": "claude-3-5-haiku-20241022", "max_tokens": 2000,
      "thinking": {"type": "enabled", "budget_tokens": 1024}}, {}, "does not support extended"),
    ("an effort level the model lacks",
     {"model": "claude-opus-4-6", "max_tokens": 100, "output_config": {"effort": "xhigh"}}, {},
     "'xhigh' is not supported by claude-opus-4-6"),
    ("effort on a model without effort",
     {"model": "claude-sonnet-4-5", "max_tokens": 100, "output_config": {"effort": "low"}}, {},
     "not supported by claude-sonnet-4-5"),
    ("context_management without its beta header",
     {"model": "claude-opus-5-5", "max_tokens": 100, "thinking": {"type": "adaptive"},
      "context_management": CLEAR}, {}, "anthropic-beta header"),
    ("context_management malformed",
     {"model": "claude-opus-5-5", "max_tokens": 100, "thinking": {"type": "adaptive"},
      "context_management": {"edits": [{"type": "clear_thinking_20251015", "keep": 0}]}}, BETA,
     "keep: expected 'all'"),
    ("clearing thinking with thinking off",
     {"model": "claude-opus-5-5", "max_tokens": 100, "thinking": {"type": "disabled"},
      "context_management": CLEAR}, BETA, "requires thinking to be enabled"),
]


@pytest.mark.parametrize(("body", "headers", "expected"), [c[1:] for c in REFUSED],
                         ids=[c[0] for c in REFUSED])
async def test_model_parameters_the_api_refuses(serve, connect, body, headers, expected):
    server = serve(["unused"])
    with pytest.raises(anthropic.BadRequestError) as info:
        await post(connect(server), {**body, "messages": USER_HI}, headers)
    assert expected in info.value.body["error"]["message"]
    assert server.remaining_turns == 1


async def test_what_claude_code_sends_is_accepted(serve, connect):
    server = serve(["fine"])
    body = {"model": "claude-opus-5-5", "max_tokens": 128_000, "messages": USER_HI,
            "thinking": {"type": "adaptive", "display": "omitted"},
            "context_management": CLEAR, "output_config": {"effort": "medium"}}
    response = await post(connect(server), body, BETA)
    assert response.json()["content"] == [{"type": "text", "text": "fine"}]


SERVER_TURN = {"content": [
    {"type": "server_tool_use", "name": "web_search", "input": {"query": "q"}},
    {"type": "web_search_tool_result", "content": [
        {"type": "web_search_result", "title": "T", "url": "https://x.example/",
         "encrypted_content": "E"}]},
    "Part one"], "stop_reason": "pause_turn"}


async def paused(serve, connect) -> tuple[Any, Any, list[dict[str, Any]]]:
    server = serve([SERVER_TURN, "continued", "next"])
    client = connect(server)
    first = await client.messages.create(model="m", max_tokens=100, messages=USER_HI)
    assert first.stop_reason == "pause_turn"
    blocks = [b.model_dump(exclude_none=True) for b in first.content]
    return server, client, blocks


async def test_a_paused_turn_continued_properly_is_accepted(serve, connect):
    server, client, blocks = await paused(serve, connect)
    assert [b["type"] for b in blocks] == ["server_tool_use", "web_search_tool_result", "text"]
    assert blocks[0]["id"] == blocks[1]["tool_use_id"]
    history = [*USER_HI, {"role": "assistant", "content": blocks}]
    message = await client.messages.create(model="m", max_tokens=100, messages=history)
    assert message.content[0].text == "continued"
    later = [*history, {"role": "user", "content": "thanks"}]  # after the continuation: fine
    assert (await client.messages.create(model="m", max_tokens=100, messages=later)).content


async def test_a_paused_turn_followed_by_a_user_message_is_refused(serve, connect):
    server, client, blocks = await paused(serve, connect)
    history = [*USER_HI, {"role": "assistant", "content": blocks},
               {"role": "user", "content": "go on"}]
    with pytest.raises(anthropic.BadRequestError, match="without a user message after it"):
        await client.messages.create(model="m", max_tokens=100, messages=history)


async def test_changed_server_tool_blocks_and_tool_results_for_them_are_refused(serve, connect):
    server, client, blocks = await paused(serve, connect)
    edited = json.loads(json.dumps(blocks))
    edited[1]["content"][0]["title"] = "edited"
    with pytest.raises(anthropic.BadRequestError, match="exactly as they were returned"):
        await client.messages.create(model="m", max_tokens=100, messages=[
            *USER_HI, {"role": "assistant", "content": edited}])
    answered = [*USER_HI, {"role": "assistant", "content": blocks},
                {"role": "user", "content": [{"type": "tool_result",
                                              "tool_use_id": blocks[0]["id"], "content": "x"}]}]
    with pytest.raises(anthropic.BadRequestError, match="unexpected `tool_use_id`"):
        await client.messages.create(model="m", max_tokens=100, messages=answered)


async def test_omitted_thinking_streams_only_its_signature(serve, connect):
    server = serve([{"content": [{"type": "thinking", "thinking": "secret plan"}, "ok"]}] * 2)
    client = connect(server)
    async with client.messages.stream(
            model="claude-opus-5-5", max_tokens=1000, messages=USER_HI,
            thinking={"type": "adaptive", "display": "omitted"}) as stream:
        message = await stream.get_final_message()
    think = message.content[0]
    assert think.thinking == "" and think.signature == sign_thinking("secret plan")
    shown = await client.messages.create(model="claude-opus-5-5", max_tokens=1000,
                                         messages=USER_HI, thinking={"type": "adaptive"})
    assert shown.content[0].thinking == "secret plan"


async def test_redacted_thinking_must_come_back_unchanged(serve, connect):
    server = serve([{"content": [{"type": "redacted_thinking"}, "ok"]}, "fine"])
    client = connect(server)
    first = await client.messages.create(model="m", max_tokens=100, messages=USER_HI)
    data = first.content[0].data
    forged = [*USER_HI, {"role": "assistant", "content": [
        {"type": "redacted_thinking", "data": data[:-4] + "AAAA"}, {"type": "text", "text": "ok"}]},
        {"role": "user", "content": "again"}]
    with pytest.raises(anthropic.BadRequestError, match="redacted_thinking"):
        await client.messages.create(model="m", max_tokens=100, messages=forged)
    kept = [*USER_HI, {"role": "assistant", "content": [
        {"type": "redacted_thinking", "data": data}, {"type": "text", "text": "ok"}]},
        {"role": "user", "content": "again"}]
    assert (await client.messages.create(model="m", max_tokens=100, messages=kept)).content


async def test_a_prompt_over_the_context_window_is_too_long(serve, connect):
    server = serve({"turns": ["short is fine"], "context_window": 50})
    client = connect(server)
    with pytest.raises(anthropic.BadRequestError, match=r"prompt is too long: \d+ tokens > 50"):
        await client.messages.create(model="m", max_tokens=10,
                                     messages=[{"role": "user", "content": "x" * 400}])
    assert server.remaining_turns == 1
    message = await client.messages.create(model="m", max_tokens=10, messages=USER_HI)
    assert message.content[0].text == "short is fine"


async def test_a_malformed_frame_breaks_the_sdk_stream(serve, connect):
    server = serve([{"content": ["abc"], "fault": {"malformed_after_events": 2}}])
    stream = await connect(server).messages.create(model="m", max_tokens=10, messages=USER_HI,
                                                   stream=True)
    with pytest.raises(json.JSONDecodeError):
        async for _event in stream:
            pass


async def test_a_stall_sends_nothing_until_the_client_gives_up(serve, connect):
    server = serve([{"content": ["abc"], "fault": {"stall_after_events": 1, "stall": 2}}])
    client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0,
                                      timeout=httpx2.Timeout(5, read=0.3))
    stream = await client.messages.create(model="m", max_tokens=10, messages=USER_HI,
                                          stream=True)
    with pytest.raises(httpx2.ReadTimeout):
        async for _event in stream:
            pass
    await client.close()
