"""A script turn may be an SSE body recorded from the real API: checked at load time like any
other turn, its blocks read from it (for what the server must see come back)."""

from __future__ import annotations

import pytest

from claude_harness.testing.script import ScriptError, load_script

BODY = (
    'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message",'
    '"role":"assistant","model":"m","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
    'event: content_block_start\ndata: {"type":"content_block_start","index":0,'
    '"content_block":{"type":"future_block","payload":null}}   \n\n'
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
    '"delta":{"type":"future_delta","payload":"ab"}}\n\n'
    'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n'
    'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},'
    '"usage":{"output_tokens":2}}\n\n'
    'event: message_stop\ndata: {"type":"message_stop"}\n\n')


def test_a_recorded_turn_adds_up_its_blocks() -> None:
    (turn,) = load_script([{"sse": BODY}])
    assert turn.sse == BODY and turn.stop_reason == "end_turn"
    assert [b.to_api() for b in turn.blocks] == [{"type": "future_block", "payload": "ab"}]


@pytest.mark.parametrize("bad", [{"sse": BODY, "delay": 1}, {"sse": 3},
                                 {"sse": "event: x\ndata: {not json\n\n"}])
def test_a_bad_recorded_turn_is_refused_at_load(bad: dict[str, object]) -> None:
    with pytest.raises(ScriptError, match=r"turns\[0\]"):
        load_script([bad])
