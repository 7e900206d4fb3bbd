"""A cheap token estimate for a request (or any part of one), without a network round trip.

One token per four characters of its JSON, except base64 payloads (images, PDFs), which the API
bills by size of picture or page rather than by the length of their encoding: counted at a flat
rate. The one estimate of the harness: the loop decides with it, before sending, whether a
request still fits the model's context window; `/context` sizes its categories with it; the
scripted server uses it to refuse prompts that are "too long" and to count tokens, so tests of
those paths measure what the harness measures.
"""

from __future__ import annotations

import json
from typing import Any

CHARS_PER_TOKEN = 4
ATTACHMENT_TOKENS = 1_600  # an image or document page, whatever its encoded size


def _base64_payloads(value: Any) -> tuple[int, int]:
    """(number of base64 sources, total length of their data) inside `value`."""
    count = length = 0
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("type") == "base64" and isinstance(item.get("data"), str):
                count += 1
                length += len(item["data"])
                continue
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count, length


def estimate_text_tokens(text: str) -> int:
    """Estimated tokens of plain text: one per four characters."""
    return len(text) // CHARS_PER_TOKEN


def estimate_tokens(value: Any) -> int:
    """Estimated tokens of a request body, a message list or a single block."""
    if isinstance(value, str):
        return estimate_text_tokens(value)
    text = json.dumps(value, ensure_ascii=False)
    count, length = _base64_payloads(value)
    return (len(text) - length) // CHARS_PER_TOKEN + count * ATTACHMENT_TOKENS
