"""The history in API form, a turn at a time: the same messages as preparing it from scratch,
whatever happened to the history in between, and a body the scripted server's rules accept."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from claude_harness.agent.api_history import ApiHistory, normalize_for_api, with_cache_breakpoint
from claude_harness.api.models import DEFAULT_MODEL
from claude_harness.api.request_body import encode_body
from claude_harness.protocol.messages import CANCELLED_MESSAGE
from claude_harness.testing.validation import IssuedThinking, validate_request

Message = dict[str, Any]


class RandomHistory:
    """A conversation grown at random: prompts, answers with tool calls, results (some for
    calls long gone), empty and private blocks, sub-agent and system messages."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.ids: list[str] = []

    def message(self) -> Message:
        rng = self.rng
        role = rng.choice(["user", "assistant", "user", "assistant", "system"])
        blocks: list[dict[str, Any]] = []
        for _ in range(rng.randint(0, 3)):
            pick = rng.random()
            if role == "assistant" and pick < 0.4:
                self.ids.append(f"toolu_{len(self.ids)}")
                blocks.append({"type": "tool_use", "id": self.ids[-1], "name": "Read",
                               "input": {"file_path": "/x"}})
            elif role == "user" and pick < 0.5 and self.ids:
                blocks.append({"type": "tool_result", "tool_use_id": rng.choice(self.ids),
                               "content": "result"})
            elif pick < 0.6:
                blocks.append({"type": "text", "text": " "})
            else:
                blocks.append({"type": "text", "text": f"words {rng.random():.3f}", "_seen": 1})
        message: Message = {"role": role, "content": blocks}
        if rng.random() < 0.08:
            message = {"role": role, "content": f"plain {rng.random():.3f}"}
        if rng.random() < 0.05:
            message["isSidechain"] = True
        return message

    def step(self, history: list[Message]) -> None:
        """Append a few messages; now and then cut the history back (a rewind) or replace a
        message (a persisted result, a resumed session)."""
        for _ in range(self.rng.randint(1, 3)):
            history.append(self.message())
        if self.rng.random() < 0.05:
            del history[self.rng.randint(0, len(history)):]
        if self.rng.random() < 0.05 and history:
            history[self.rng.randrange(len(history))] = self.message()


@pytest.mark.parametrize("seed", range(0, 400, 5))
def test_turn_by_turn_matches_from_scratch_and_the_api_accepts_it(seed: int) -> None:
    """Prepared turn by turn, the history is what preparing it from scratch gives, its JSON is
    those messages, and each request the loop could send passes the API's rules."""
    grower, history, kept = RandomHistory(seed), [], ApiHistory()
    for _turn in range(30):
        grower.step(history)
        prepared = kept.prepare(history)
        assert prepared.messages == with_cache_breakpoint(normalize_for_api(history))
        assert json.loads(prepared.json) == prepared.messages
        roles = [m["role"] for m in prepared.messages]
        if "user" in roles and roles[-1] == "user":  # the loop only sends after a user turn
            body = json.loads(encode_body({"model": DEFAULT_MODEL, "max_tokens": 1024,
                                           "messages": None}, prepared.encoded))
            validate_request(body, IssuedThinking())


def test_unanswered_calls_are_answered_and_stray_results_dropped() -> None:
    history: list[Message] = [
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "old", "content": "x"},
                                     {"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "Read",
                                           "input": {}},
                                          {"type": "tool_use", "id": "b", "name": "Read",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "text", "text": "steer"},
                                     {"type": "tool_result", "tool_use_id": "b", "content": "B"}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "Read",
                                           "input": {}}]},
    ]
    sent = normalize_for_api(history)
    assert sent[0]["content"] == [{"type": "text", "text": "hi"}]
    assert [b.get("tool_use_id") for b in sent[2]["content"]] == ["a", "b", None]
    assert sent[2]["content"][0] == {"type": "tool_result", "tool_use_id": "a",
                                     "content": CANCELLED_MESSAGE, "is_error": True}
    assert sent[-1] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c", "content": CANCELLED_MESSAGE,
         "is_error": True}]}


def test_a_replaced_message_is_sent_as_replaced() -> None:
    """A message changed by replacing it in the history (a persisted result) is sent new, even
    once it was closed."""
    history: list[Message] = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "Bash",
                                           "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a",
                                      "content": "x" * 50}]},
        {"role": "assistant", "content": [{"type": "text", "text": "done"}]},
        {"role": "user", "content": "more"},
    ]
    kept = ApiHistory()
    kept.prepare(history)
    history[2] = {**history[2], "content": [{**history[2]["content"][0], "content": "short"}]}
    history.append({"role": "assistant", "content": [{"type": "text", "text": "ok"}]})
    history.append({"role": "user", "content": "again"})
    prepared = kept.prepare(history)
    assert prepared.messages[2]["content"][0]["content"] == "short"
    assert b"x" * 50 not in prepared.json
