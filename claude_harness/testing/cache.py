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
from dataclasses import dataclass, field
from typing import Any


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


def _sources(body: dict[str, Any]) -> list[tuple[str | None, Any]]:
    """What each segment is made of, in cache order: (role or None, block)."""
    out: list[tuple[str | None, Any]] = [(None, tool) for tool in body.get("tools") or []]
    system = body.get("system")
    if isinstance(system, str) and system:
        out.append((None, {"type": "text", "text": system}))
    elif isinstance(system, list):
        out.extend((None, b) for b in system)
    for message in body.get("messages") or []:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [{"type": "text", "text": content}]
        out.extend((message.get("role"), block) for block in blocks)
    return out


def _segment(source: tuple[str | None, Any]) -> str:
    role, block = source
    return _dump(block if role is None else {"role": role, "block": block})


def segments(body: dict[str, Any]) -> list[tuple[str, bool]]:
    """(serialised segment, is_breakpoint) in cache order: tools, system, messages."""
    return [(_segment(src), _has_cache_control(src[1])) for src in _sources(body)]


@dataclass
class _Chain:
    """One request's segments and the running hash of its prefixes, kept so the next request
    (the same conversation, a turn longer) recomputes only what changed."""

    sources: list[tuple[str | None, Any]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)  # of the prefix ending at each segment
    lengths: list[int] = field(default_factory=list)  # ...and its length
    states: list[Any] = field(default_factory=list)  # the hasher after each segment


def _chain(body: dict[str, Any], before: _Chain) -> _Chain:
    chain = _Chain(_sources(body))
    hasher, length, same_prefix = hashlib.sha256(), 0, True
    for i, source in enumerate(chain.sources):
        known = i < len(before.sources)
        text = before.texts[i] if known and source == before.sources[i] else _segment(source)
        chain.texts.append(text)
        if same_prefix and known and text == before.texts[i]:
            hasher, length = before.states[i], before.lengths[i]
            chain.digests.append(before.digests[i])
        else:
            same_prefix = False
            hasher = hasher.copy()
            piece = text if i == 0 else "\n" + text
            hasher.update(piece.encode())
            length += len(piece)
            chain.digests.append(hasher.hexdigest())
        chain.states.append(hasher)
        chain.lengths.append(length)
    return chain


class _BodyLength:
    """len(json.dumps(body, ensure_ascii=False)) of each request, reusing the length of every
    message that equals the one at its place in the previous request."""

    def __init__(self) -> None:
        self._messages: list[Any] = []
        self._lengths: list[int] = []

    def __call__(self, body: dict[str, Any]) -> int:
        messages = body.get("messages")
        if not isinstance(messages, list) or not messages:
            return len(json.dumps(body, ensure_ascii=False))
        before, known = self._messages, self._lengths
        lengths = [known[i] if i < len(before) and message == before[i]
                   else len(json.dumps(message, ensure_ascii=False))
                   for i, message in enumerate(messages)]
        self._messages, self._lengths = messages, lengths
        rest = len(json.dumps({**body, "messages": []}, ensure_ascii=False))
        # "[]" becomes "[" + ", ".join(messages) + "]"
        return rest + sum(lengths) + 2 * (len(messages) - 1)


class CacheTracker:
    """Remembers written prefixes (by hash) and computes usage for each new request. Each
    request is one turn longer than the one before: what did not change is not recomputed."""

    def __init__(self) -> None:
        self._written: set[str] = set()
        self._lock = threading.Lock()
        self._last = _Chain()
        self._body_length = _BodyLength()

    def account(self, body: dict[str, Any]) -> dict[str, int]:
        """Usage input fields for this request; records its breakpoints as written."""
        with self._lock:
            total = max(1, self._body_length(body) // 4)
            chain = self._last = _chain(body, self._last)
            breakpoints = [i for i, (_, block) in enumerate(chain.sources)
                           if _has_cache_control(block)]
            if not breakpoints:
                return {"input_tokens": total, "cache_creation_input_tokens": 0,
                        "cache_read_input_tokens": 0}
            last = breakpoints[-1]
            hit = next((i for i in range(last, -1, -1) if chain.digests[i] in self._written),
                       None)
            self._written.update(chain.digests[i] for i in breakpoints)
        read = chain.lengths[hit] // 4 if hit is not None else 0
        cached_upto = chain.lengths[last] // 4
        read = min(read, total)
        creation = min(max(cached_upto - read, 0), total - read)
        return {"input_tokens": total - read - creation,
                "cache_creation_input_tokens": creation, "cache_read_input_tokens": read}
