"""ACP prompt content -> the content of our UserPrompt op.

Text stays text. A `resource_link` to a local file becomes an `@"path"` mention when the prompt
is text only, so the session attaches the file exactly as Claude Code attaches an @-mentioned
file (as if Read had run: the model sees numbered lines and may Edit it at once); otherwise, and
for other URIs, a Markdown link. An embedded text resource (an editor's buffer, perhaps unsaved)
goes after the text as `<context ref="uri">...</context>`, the form Zed's Claude Code adapter
uses. Images go as image blocks; audio is refused (we do not offer it)."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlparse

from acp import RequestError
from acp.schema import (
    BlobResourceContents,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)


def file_path(uri: str) -> str | None:
    """The local path a `file://` URI (or a bare absolute path) names, else None."""
    if uri.startswith("/"):
        return uri
    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" and parsed.path else None


def to_prompt(blocks: list[Any]) -> str | tuple[dict[str, Any], ...]:
    """The UserPrompt content for these ACP blocks (a string when they are text and links)."""
    if all(isinstance(b, (TextContentBlock, ResourceContentBlock)) for b in blocks):
        return _joined_text(blocks)
    content: list[dict[str, Any]] = []
    context: list[dict[str, Any]] = []
    for block in blocks:
        match block:
            case TextContentBlock(text=text):
                content.append({"type": "text", "text": text})
            case ResourceContentBlock(uri=uri, name=name):
                content.append({"type": "text", "text": f"[@{name}]({uri})"})
            case ImageContentBlock():
                content.append(_image(block))
            case EmbeddedResourceContentBlock(resource=resource):
                _embedded(resource, content, context)
            case _:
                raise RequestError(-32602, f"{getattr(block, 'type', 'this')} content is not "
                                           "supported (text, images, resources and resource "
                                           "links are)")
    return tuple(content + context)


def _joined_text(blocks: list[Any]) -> str:
    parts: list[str] = []
    for block in blocks:
        if isinstance(block, TextContentBlock):
            parts.append(block.text)
            continue
        path = file_path(block.uri)
        parts.append(f'@"{path}"' if path else f"[@{block.name}]({block.uri})")
    return " ".join(p for p in parts if p)


def _image(block: ImageContentBlock) -> dict[str, Any]:
    if block.data:
        return {"type": "image", "source": {"type": "base64", "media_type": block.mime_type,
                                            "data": block.data}}
    if block.uri and block.uri.startswith(("http://", "https://")):
        return {"type": "image", "source": {"type": "url", "url": block.uri}}
    raise RequestError(-32602, "An image needs its data (or an http URL).")


def _embedded(resource: Any, content: list[dict[str, Any]], context: list[dict[str, Any]]) -> None:
    if isinstance(resource, TextResourceContents):
        content.append({"type": "text", "text": f"[@{resource.uri}]({resource.uri})"})
        context.append({"type": "text",
                        "text": f'\n<context ref="{resource.uri}">\n{resource.text}\n</context>'})
    elif isinstance(resource, BlobResourceContents) and (resource.mime_type or "").startswith(
            "image/"):
        content.append({"type": "image", "source": {"type": "base64",
                                                    "media_type": resource.mime_type,
                                                    "data": resource.blob}})
    else:
        content.append({"type": "text", "text": f"[binary resource {resource.uri} not attached]"})
