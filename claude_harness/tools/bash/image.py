"""Recognise image bytes on stdout by their signature, so `cat plot.png` reaches the model as a picture."""

from __future__ import annotations

import base64
from typing import Any

IMAGE_SNIFF_BYTES = 12
# The API refuses images over 5 MB of base64; 3.75 MB of raw bytes stays under that.
MAX_IMAGE_BYTES = 3_750_000

_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def sniff_image(data: bytes) -> str | None:
    """The media type of `data` when it starts with a known image signature, else None."""
    for magic, media_type in _SIGNATURES:
        if data.startswith(magic):
            return media_type
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def image_block(data: bytes, media_type: str) -> dict[str, Any]:
    """An API image content block holding `data` as base64."""
    return {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": media_type,
            "data": base64.b64encode(data).decode("ascii"),
        },
    }
