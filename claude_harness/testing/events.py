"""Turn a scripted Turn into the exact SSE event sequence (or Message) the real API sends.

Kept separate from the HTTP layer so the event grammar can be read and checked in one place:
message_start, then per block content_block_start / deltas / content_block_stop (a single
ping right after the first block start), then message_delta and message_stop.
"""

from __future__ import annotations

import json
import math
from typing import Any

from claude_harness.api.token_estimate import estimate_text_tokens
from claude_harness.testing.script import Block, Turn

SseEvent = tuple[str, dict[str, Any]]


def estimate_tokens(text: str) -> int:
    """The mock's count of a text: the harness's own estimate, at least one token for any text."""
    return max(1, estimate_text_tokens(text)) if text else 0


def split_chunks(text: str, chunk_size: int, min_pieces: int = 3) -> list[str]:
    """Split text into several pieces (at least `min_pieces` when long enough).

    Several pieces are the point: a client that only handles one delta per block would pass
    against a lazier mock and then break on the real API.
    """
    if not text:
        return []
    size = max(1, min(chunk_size, math.ceil(len(text) / min_pieces)))
    return [text[i:i + size] for i in range(0, len(text), size)]


def output_tokens_for(turn: Turn) -> int:
    """Estimated output tokens of a turn unless the script pins usage.output_tokens."""
    if "output_tokens" in turn.usage:
        return turn.usage["output_tokens"]
    body = json.dumps([b.to_api() for b in turn.blocks], ensure_ascii=False)
    return max(1, estimate_tokens(body))


def build_message(turn: Turn, message_id: str, model: str,
                  usage: dict[str, int], omit_thinking: bool = False) -> dict[str, Any]:
    """The complete Message object for a non-streaming request."""
    return {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [b.to_api(omit_thinking) for b in turn.blocks],
        "stop_reason": turn.stop_reason,
        "stop_sequence": turn.stop_sequence,
        "usage": _api_usage({**usage, "output_tokens": output_tokens_for(turn)}),
    }


def _api_usage(usage: dict[str, int]) -> dict[str, Any]:
    """A script's flat `web_search_requests` count as the API nests it."""
    searches = usage.pop("web_search_requests", None)
    return {**usage, "server_tool_use": {"web_search_requests": searches}} if searches else usage


def build_stream(turn: Turn, message_id: str, model: str,
                 usage: dict[str, int], omit_thinking: bool = False) -> list[SseEvent]:
    """Every SSE event of a successful streamed response, in order (thinking text left out
    when the request asked for `display: "omitted"`)."""
    start_usage = {**usage, "output_tokens": 1}
    events: list[SseEvent] = [("message_start", {
        "type": "message_start",
        "message": {
            "id": message_id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None, "usage": start_usage,
        },
    })]
    for index, block in enumerate(turn.blocks):
        events.append(("content_block_start", {
            "type": "content_block_start", "index": index, "content_block": _start_block(block),
        }))
        if index == 0:
            events.append(("ping", {"type": "ping"}))
        for delta in _deltas(block, turn.chunk_size, omit_thinking):
            events.append(("content_block_delta", {
                "type": "content_block_delta", "index": index, "delta": delta,
            }))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    final_usage = _api_usage({**usage, "output_tokens": output_tokens_for(turn)})
    events.append(("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": turn.stop_reason, "stop_sequence": turn.stop_sequence},
        "usage": final_usage,
    }))
    events.append(("message_stop", {"type": "message_stop"}))
    return events


def _start_block(block: Block) -> dict[str, Any]:
    if block.type == "text":
        return {"type": "text", "text": ""}
    if block.type == "thinking":
        return {"type": "thinking", "thinking": "", "signature": ""}
    if block.raw is not None:  # server tool results, redacted thinking: whole, at the start
        return dict(block.raw)
    return {"type": block.type, "id": block.tool_id, "name": block.name, "input": {}}


def _deltas(block: Block, chunk_size: int, omit_thinking: bool = False) -> list[dict[str, Any]]:
    if block.type == "text":
        return [{"type": "text_delta", "text": c} for c in split_chunks(block.text, chunk_size)]
    if block.type == "thinking":
        chunks = [] if omit_thinking else [{"type": "thinking_delta", "thinking": c}
                                           for c in split_chunks(block.text, chunk_size)]
        return [*chunks, {"type": "signature_delta", "signature": block.signature}]
    if block.raw is not None:
        return []
    # The real API opens every tool input with an empty partial_json chunk.
    return [{"type": "input_json_delta", "partial_json": c}
            for c in ["", *split_chunks(block.input_json, chunk_size)]]


def malformed_frame() -> bytes:
    """A frame whose data is not JSON (a proxy that mangled the stream)."""
    return b"event: content_block_delta\ndata: {\"type\": \"content_block_delta\", \"ind\n\n"


def format_sse(name: str, data: dict[str, Any]) -> bytes:
    """One SSE frame: `event: <type>\\ndata: <json>\\n\\n`."""
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()
