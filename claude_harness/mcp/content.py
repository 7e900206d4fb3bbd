"""MCP result content -> what the model reads, and what `tool_use_result` carries.

The model's side follows Claude Code: text stays text; images become base64 image blocks; a
resource link becomes `[Resource link: NAME] URI (DESCRIPTION)`; an embedded text resource
becomes `[Resource from SERVER at URI] TEXT`; an embedded image resource becomes an image block;
audio and other binary content become a short line saying what was left out (the API has no
block for them). An all-text result is one string, so the pipeline's result budgeting (persist +
preview past the limit) applies to it; a result with images is a block list whose text is capped
here instead.

The program's side (`McpCallResult.tool_use_result()`, stream-json's `tool_use_result`) keeps
what the text form loses: the server's `structuredContent` and its resource links with their
metadata, in the shapes Claude Code emits.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

from claude_harness.api.token_estimate import CHARS_PER_TOKEN

DEFAULT_MAX_OUTPUT_TOKENS = 25_000
API_IMAGE_TYPES = {"image/png", "image/jpeg", "image/gif", "image/webp"}

ModelContent = str | list[dict[str, Any]]


def output_limit_chars() -> int:
    """The MCP output limit in characters: MAX_MCP_OUTPUT_TOKENS (default 25k) x 4."""
    raw = os.environ.get("MAX_MCP_OUTPUT_TOKENS", "")
    try:
        tokens = int(raw) if raw.strip() else DEFAULT_MAX_OUTPUT_TOKENS
    except ValueError:
        tokens = DEFAULT_MAX_OUTPUT_TOKENS
    return max(tokens, 1) * CHARS_PER_TOKEN


@dataclass(frozen=True)
class McpCallResult:
    """One tools/call answer: `content` for the model, the rest for programs and front ends."""

    content: ModelContent
    structured: Any = None
    resource_links: tuple[dict[str, Any], ...] = field(default=())

    def tool_use_result(self) -> Any:
        """stream-json's `tool_use_result`, as Claude Code writes it for an MCP tool."""
        if self.structured is not None:
            return {"content": self.content, "structuredContent": self.structured}
        if self.resource_links:
            return {"content": self.content, "resourceLinks": list(self.resource_links)}
        return self.content


def _attr(item: Any, *names: str) -> Any:
    for name in names:
        value = getattr(item, name, None)
        if value is not None:
            return value
    return None


def _image(mime: str, data: str) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _resource_block(resource: Any, server: str) -> dict[str, Any]:
    uri = str(getattr(resource, "uri", ""))
    origin = f"[Resource from {server} at {uri}]" if server else f"[Resource at {uri}]"
    text = getattr(resource, "text", None)
    if text is not None:
        return _text(f"{origin} {text}")
    mime = _attr(resource, "mime_type", "mimeType") or "application/octet-stream"
    blob = getattr(resource, "blob", None) or ""
    if mime in API_IMAGE_TYPES and blob:
        return _image(mime, blob)
    return _text(f"{origin} (binary {mime}, {len(blob) * 3 // 4} bytes, not shown)")


def _link_text(item: Any) -> str:
    name = getattr(item, "name", "") or ""
    description = getattr(item, "description", None)
    line = f"[Resource link: {name}] {item.uri}"
    return f"{line} ({description})" if description else line


def convert_block(item: Any, server: str = "") -> dict[str, Any]:
    """One MCP content block as a Messages API block (`server` names embedded resources)."""
    kind = getattr(item, "type", "")
    if kind == "text":
        return _text(item.text)
    if kind == "image":
        mime = _attr(item, "mime_type", "mimeType") or "image/png"
        if mime in API_IMAGE_TYPES:
            return _image(mime, item.data)
        return _text(f"[image of type {mime} not shown: unsupported format]")
    if kind == "audio":
        mime = _attr(item, "mime_type", "mimeType") or "audio"
        return _text(f"[audio content ({mime}) not shown]")
    if kind == "resource":
        return _resource_block(item.resource, server)
    if kind == "resource_link":
        return _text(_link_text(item))
    return _text(json.dumps(_dump(item), ensure_ascii=False))


def _dump(item: Any) -> Any:
    dump = getattr(item, "model_dump", None)
    return dump(mode="json", by_alias=True, exclude_none=True) if dump else str(item)


def convert_result(content: list[Any], structured: Any = None, server: str = "") -> ModelContent:
    """The content of a CallToolResult as a string (all text) or a list of blocks."""
    blocks = [convert_block(item, server) for item in content]
    if not blocks and structured is not None:
        return json.dumps(structured, ensure_ascii=False)
    if all(b["type"] == "text" for b in blocks):
        return "\n".join(b["text"] for b in blocks) if blocks else "(no content)"
    return cap_blocks(blocks, output_limit_chars())


def call_result(result: Any, server: str) -> McpCallResult:
    """A CallToolResult (mcp_types) as an McpCallResult."""
    content = list(result.content or [])
    structured = getattr(result, "structured_content", None)
    links = tuple({k: v for k, v in _dump(item).items() if k != "type"}
                  for item in content if getattr(item, "type", "") == "resource_link")
    return McpCallResult(convert_result(content, structured, server), structured, links)


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
