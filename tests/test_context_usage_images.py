"""`/context` and the loop count a conversation the same way: one estimate, an image at a flat
rate whatever the length of its base64 (the API bills it by picture, not by encoding)."""

from __future__ import annotations

import base64
import os

from claude_harness.api.token_estimate import ATTACHMENT_TOKENS, estimate_tokens
from claude_harness.session.services.context_usage import measure_context


def image_message(size: int) -> dict[str, object]:
    data = base64.b64encode(os.urandom(size)).decode()
    return {"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}},
        {"type": "text", "text": "what is in this picture?"},
    ]}


def test_context_counts_an_image_as_the_loop_does_not_by_its_base64_length() -> None:
    message = image_message(400_000)  # about 533k characters of base64
    usage = measure_context(model="claude-sonnet-5-5", window=200_000, system_prompt="p",
                            messages=[message])
    messages = usage.category("messages")
    assert messages is not None
    assert messages.tokens == estimate_tokens(message["content"])
    assert ATTACHMENT_TOKENS <= messages.tokens < ATTACHMENT_TOKENS + 200


def test_a_bigger_picture_costs_no_more_tokens() -> None:
    small, big = image_message(10_000), image_message(300_000)
    sizes = [measure_context(model="claude-sonnet-5-5", window=200_000, system_prompt="p",
                             messages=[m]).category("messages") for m in (small, big)]
    assert sizes[0] is not None and sizes[1] is not None
    assert sizes[0].tokens == sizes[1].tokens
