"""Prompt-cache accounting for the scripted server: simple, but real enough to measure.

How a request is serialised: the prompt is cut into *segments* in the order the API caches
them: each tool, then each system block (a system string is one text block), then each content
block of each message (a string content is one text block). A segment is the compact JSON
(`sort_keys`, no spaces) of the block with every `cache_control` key removed (recursively);
message blocks are wrapped as `{"role": ..., "block": ...}` so the same text from a user and
from the assistant differ. A prefix is the segments up to a boundary joined by "\\n"; its token
estimate is len(prefix) // 4. A `cache_control` marker (also one nested in a tool_result's
content) makes the segment holding it a breakpoint.

Accounting, like the API: each successful request *writes* the prefixes ending at its
breakpoints. A request *reads* the longest prefix, ending at any segment boundary up to its last
breakpoint, that equals a prefix written by an earlier request (the API's look-back);
`cache_creation_input_tokens` is the rest up to its last breakpoint; `input_tokens` is the
remainder of the whole-request estimate (len(request JSON) // 4). No minimum cacheable length
and no expiry are modelled.
"""

from __future__ import annotations

import hashlib
import json
import threading
from typing import Any

from claude_harness.testing.events import estimate_tokens


def _strip_cache_control(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache_control(v) for v in value]
    return value


def _has_cache_control(block: Any) -> bool:
    if not isinstance(block, dict):
        return False
    if block.get("cache_control"):
        return True
    inner = block.get("content")
    return isinstance(inner, list) and any(
        isinstance(b, dict) and b.get("cache_control") for b in inner)


def _dump(value: Any) -> str:
    return json.dumps(_strip_cache_control(value), sort_keys=True, ensure_ascii=False,
                      separators=(",", ":"))


def segments(body: dict[str, Any]) -> list[tuple[str, bool]]:
    """(serialised segment, is_breakpoint) in cache order: tools, system, messages."""
    out: list[tuple[str, bool]] = []
    for tool in body.get("tools") or []:
        out.append((_dump(tool), _has_cache_control(tool)))
    system = body.get("system")
    if isinstance(system, str) and system:
        out.append((_dump({"type": "text", "text": system}), False))
    elif isinstance(system, list):
        out.extend((_dump(b), _has_cache_control(b)) for b in system)
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        for block in blocks:
            out.append((_dump({"role": message.get("role"), "block": block}),
                        _has_cache_control(block)))
    return out


class CacheTracker:
    """Remembers written prefixes (by hash) and computes usage for each new request."""

    def __init__(self) -> None:
        self._written: set[str] = set()
        self._lock = threading.Lock()

    def account(self, body: dict[str, Any]) -> dict[str, int]:
        """Usage input fields for this request; records its breakpoints as written."""
        total = estimate_tokens(json.dumps(body, ensure_ascii=False))
        segs = segments(body)
        breakpoints = [i for i, (_, bp) in enumerate(segs) if bp]
        if not breakpoints:
            return {"input_tokens": total, "cache_creation_input_tokens": 0,
                    "cache_read_input_tokens": 0}
        last = breakpoints[-1]
        hashes: list[str] = []
        lengths: list[int] = []
        hasher = hashlib.sha256()
        length = 0
        for i, (text, _) in enumerate(segs[:last + 1]):
            piece = text if i == 0 else "\n" + text
            hasher.update(piece.encode())
            length += len(piece)
            hashes.append(hasher.hexdigest())
            lengths.append(length)
        with self._lock:
            hit = next((i for i in range(last, -1, -1) if hashes[i] in self._written), None)
            self._written.update(hashes[i] for i in breakpoints)
        read = lengths[hit] // 4 if hit is not None else 0
        cached_upto = lengths[last] // 4
        read = min(read, total)
        creation = min(max(cached_upto - read, 0), total - read)
        return {"input_tokens": total - read - creation,
                "cache_creation_input_tokens": creation, "cache_read_input_tokens": read}
