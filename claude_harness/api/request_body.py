"""A Messages request body as bytes, its messages already serialised.

The SDK's `messages.create` walks and copies the whole request before it serialises it, so a
long conversation costs more each turn for nothing. The loop keeps the history's JSON a
message at a time (agent/api_history.py); this module puts the other fields around it, in the
order they are given, and the client posts the bytes as they are.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any


def dump_json(value: Any) -> bytes:
    """The compact JSON the body is made of (ASCII escapes, so any string encodes)."""
    return json.dumps(value, separators=(",", ":")).encode()


def encode_body(request: Mapping[str, Any], encoded_messages: Sequence[bytes]) -> bytes:
    """`request` as a JSON object whose "messages" are `encoded_messages` (each message's JSON),
    copied once into the body."""
    pieces: list[bytes] = []
    for key, value in request.items():
        pieces.append(b"," if pieces else b"{")
        pieces.append(dump_json(key) + b":")
        if key == "messages":
            pieces += (b"[", b",".join(encoded_messages), b"]")
        else:
            pieces.append(dump_json(value))
    pieces.append(b"}" if pieces else b"{}")
    return b"".join(pieces)
