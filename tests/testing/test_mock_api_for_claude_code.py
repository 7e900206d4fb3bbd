"""What the scripted server needs to drive Claude Code as well as us: side requests (no tools
offered) answered from the script's `side` list, so its session titles do not shift the
conversation's turns, and the request parameters it sends accepted as the API accepts them."""

from __future__ import annotations

import anthropic
import pytest

from claude_harness.testing import MockApiServer, ScriptError
from tests.testing.mock_api_helpers import USER_HI

TOOLS = [{"name": "Noop", "description": "does nothing",
          "input_schema": {"type": "object", "properties": {}}}]


async def _text(client: anthropic.AsyncAnthropic, *, tools: bool) -> str:
    extra = {"tools": TOOLS} if tools else {}
    message = await client.messages.create(model="claude-sonnet-5-5", max_tokens=100,
                                           messages=USER_HI, **extra)
    return message.content[0].text


async def test_side_requests_take_the_side_list_then_a_default() -> None:
    script = {"turns": ["main one", "main two"], "side": ["A title"]}
    with MockApiServer(script) as server:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        assert await _text(client, tools=False) == "A title"
        assert await _text(client, tools=True) == "main one"
        assert await _text(client, tools=False) == "Side answer."
        assert await _text(client, tools=True) == "main two"
        assert server.remaining_turns == 0
        ends = [e for e in server.log if e["event"] == "response_end"]
        assert [("side_turn" in e, e.get("turn", e.get("side_turn"))) for e in ends] == [
            (True, 0), (False, 0), (True, 0), (False, 1)]
        await client.close()


async def test_without_a_side_key_every_request_takes_a_turn() -> None:
    with MockApiServer({"turns": ["first", "second"]}) as server:
        client = anthropic.AsyncAnthropic(base_url=server.url, api_key="k", max_retries=0)
        assert await _text(client, tools=False) == "first"
        assert await _text(client, tools=True) == "second"
        await client.close()


def test_a_side_value_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(ScriptError, match="side"):
        MockApiServer({"turns": ["x"], "side": "title"})


def test_thinking_display_updates_is_accepted_with_its_beta() -> None:
    """Claude Code 2.1.332 asks for `display: "updates"` with its beta header, as the API
    allows; without the header the display is refused."""
    from claude_harness.testing.model_rules import ModelRuleBroken, check_model_params

    body = {"model": "claude-sonnet-5-5", "max_tokens": 1000, "messages": USER_HI,
            "thinking": {"type": "adaptive", "display": "updates"}}
    check_model_params(body, {"anthropic-beta": "thinking-display-updates-2026-08-18"},
                       strict_unknown=False)
    with pytest.raises(ModelRuleBroken, match="display"):
        check_model_params(body, {}, strict_unknown=False)
