"""MCP result content -> tool_result content the Messages API accepts.

Text stays text; images become base64 image blocks; audio, embedded binary resources and links
become a short text line saying what was left out (the API has no block for them). An all-text
result is one string, so the pipeline's result budgeting (persist + preview past the limit)
applies to it; a result with images is a block list whose text is capped here instead.
"""

from __future__ import annotations

import json
import os
from typing import Any

DEFAULT_MAX_OUTPUT_TOKENS = 25_000
CHARS_PER_TOKEN = 4
API_IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}


def output_limit_chars() -> int:
    """The MCP output limit in characters: MAX_MCP_OUTPUT_TOKENS (default 25k) x 4."""
    raw = os.environ.get("MAX_MCP_OUTPUT_TOKENS", "")
    try:
        tokens = int(raw) if raw.strip() else DEFAULT_MAX_OUTPUT_TOKENS
    except ValueError:
        tokens = DEFAULT_MAX_OUTPUT_TOKENS
    return max(tokens, 1) * CHARS_PER_TOKEN


def _attr(item: Any, *names: str) -> Any:
    for name in names:
        value = getattr(item, name, None)
        if value is not None:
            return value
    return None


def _resource_block(resource: Any) -> dict[str, Any]:
    text = getattr(resource, "text", None)
    uri = str(getattr(resource, "uri", ""))
    if text is not None:
        return {"type": "text", "text": text}
    mime = _attr(resource, "mime_type", "mimeType") or "application/octet-stream"
    blob = getattr(resource, "blob", None) or ""
    if mime in API_IMAGE_TYPES and blob:
        return _image(mime, blob)
    return {"type": "text", "text": f"[binary resource {uri} ({mime}, {len(blob) * 3 // 4} bytes) "
                                    "not shown]"}


def _image(mime: str, data: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}


def convert_block(item: Any) -> dict[str, Any]:
    kind = getattr(item, "type", "")
    if kind == "text":
        return {"type": "text", "text": item.text}
    if kind == "image":
        mime = _attr(item, "mime_type", "mimeType") or "image/png"
        if mime in API_IMAGE_TYPES:
            return _image(mime, item.data)
        return {"type": "text", "text": f"[image of type {mime} not shown: unsupported format]"}
    if kind == "audio":
        mime = _attr(item, "mime_type", "mimeType") or "audio"
        return {"type": "text", "text": f"[audio content ({mime}) not shown]"}
    if kind == "resource":
        return _resource_block(item.resource)
    if kind == "resource_link":
        name = getattr(item, "name", "") or ""
        return {"type": "text", "text": f"[resource link: {name} {item.uri}]".replace("  ", " ")}
    return {"type": "text", "text": json.dumps(_dump(item), ensure_ascii=False)}


def _dump(item: Any) -> Any:
    dump = getattr(item, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if dump else str(item)


def convert_result(content: list[Any], structured: Any = None) -> str | list[dict[str, Any]]:
    """The content of a CallToolResult as a string (all text) or a list of blocks."""
    blocks = [convert_block(item) for item in content]
    if not blocks and structured is not None:
        return json.dumps(structured, ensure_ascii=False)
    if all(b["type"] == "text" for b in blocks):
        return "\n".join(b["text"] for b in blocks) if blocks else "(no content)"
    return cap_blocks(blocks, output_limit_chars())


def cap_blocks(blocks: list[dict[str, Any]], limit: int) -> list[dict[str, Any]]:
    """Cut the text blocks of a mixed result so their total stays within `limit` characters."""
    left = limit
    cut = False
    capped: list[dict[str, Any]] = []
    for block in blocks:
        if block["type"] != "text":
            capped.append(block)
            continue
        if cut:
            continue  # the truncation note was already added
        text = block["text"]
        if len(text) > left:
            text = text[:left] + (f"\n[output truncated: the MCP result exceeded {limit:,} "
                                  "characters]")
            cut = True
        left -= min(left, len(text))
        if text:
            capped.append({"type": "text", "text": text})
    return capped
