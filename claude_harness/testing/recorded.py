"""Recorded Messages API streams: read their SSE text, and the message they add up to.

The scripted server can play a stream recorded from the real API byte for byte (a turn's
`"sse"`, see script.py), so the client is tested on the shapes the API really sends (block
types we do not model, tool input that arrives whole, whitespace-padded frames...). The
server still has to know what it issued (thinking signatures, server tool blocks that must
come back unchanged), and a test has to know what the client should send back: both come from
`message_blocks`, which applies the deltas the way the API documents them, independently of
the harness's own reader.
"""

from __future__ import annotations

import json
from typing import Any

SseFrame = tuple[str, dict[str, Any]]


def sse_frames(text: str) -> list[SseFrame]:
    """The (event name, parsed data) of every frame of an SSE body, in order."""
    frames: list[SseFrame] = []
    for chunk in text.replace("\r\n", "\n").split("\n\n"):
        name, data = "", []
        for line in chunk.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip(" "))
        if data:
            payload = json.loads("\n".join(data))
            frames.append((name or str(payload.get("type", "")), payload))
    return frames


def sse_frame_texts(text: str) -> list[bytes]:
    """The body cut into its frames (each with its blank line), to send one at a time."""
    body = text.replace("\r\n", "\n")
    parts = [p for p in body.split("\n\n") if p.strip()]
    return [(p + "\n\n").encode() for p in parts]


def _merge_delta(block: dict[str, Any], delta: dict[str, Any], partial: list[str]) -> None:
    kind = delta.get("type")
    if kind == "input_json_delta":
        partial.append(delta.get("partial_json") or "")
    elif kind == "citations_delta":
        block["citations"] = [*(block.get("citations") or []), delta["citation"]]
    elif kind == "signature_delta":
        block["signature"] = delta["signature"]
    else:  # text_delta, thinking_delta and any *_delta of the same kind: strings add up
        for key, value in delta.items():
            if key == "type":
                continue
            before = block.get(key)
            block[key] = (before or "") + value if isinstance(value, str) and (
                before is None or isinstance(before, str)) else value


def message_blocks(frames: list[SseFrame]) -> tuple[list[dict[str, Any]], str | None]:
    """The content blocks the frames add up to (in index order) and the stop reason."""
    blocks: dict[int, dict[str, Any]] = {}
    partial: dict[int, list[str]] = {}
    stop_reason = None
    for _name, data in frames:
        kind = data.get("type")
        if kind == "message_start":  # an answer may come whole in it (content, stop_reason)
            message = data.get("message") or {}
            for index, block in enumerate(message.get("content") or []):
                blocks[index] = json.loads(json.dumps(block))
            stop_reason = message.get("stop_reason") or stop_reason
        elif kind == "content_block_start":
            blocks[data["index"]] = json.loads(json.dumps(data["content_block"]))
            partial[data["index"]] = []
        elif kind == "content_block_delta":
            _merge_delta(blocks[data["index"]], data["delta"], partial[data["index"]])
        elif kind == "content_block_stop":
            raw = "".join(partial.pop(data["index"], []))
            if raw.strip():
                blocks[data["index"]]["input"] = json.loads(raw)
        elif kind == "message_delta":
            stop_reason = (data.get("delta") or {}).get("stop_reason") or stop_reason
    return [blocks[i] for i in sorted(blocks)], stop_reason
