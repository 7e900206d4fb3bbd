"""MCP resources in the prompt, as Claude Code 2.1.332 handles them in its interactive app:

- the `@` popup offers every connected server's resources as `@server:uri`; the front ends
  learn them from `McpResourcesChanged` (listed with `resources/list` when a server connects);
- a sent prompt that names `@server:uri` of a connected server has the resource read
  (`resources/read`) and its contents given to the model in a system message after the
  prompt, the prompt itself left as typed (checked against Claude Code's own request):

      {"role": "system", "content": [{"type": "text", "text": "Full contents of resource:\\n
       <text>\\nDo NOT read this resource again unless you think it may have changed, since
       you already have the full contents."}]}

  binary contents as `[Binary content: <mime type>]`; a resource with nothing to show, or one
  the permissions keep from being read (a deny rule on ReadMcpResourceTool), as
  `<mcp-resource server=".." uri="..">(why)</mcp-resource>`. The person sees one line,
  "Read MCP resource <name> from <server>".

Claude Code does not do this in `-p` (nor with stream-json input): there the mention stays
text, and so it does here (the session attaches only with a person at a front end).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from claude_harness.protocol.events import McpResourceInfo, Notice

READ_TOOL = "ReadMcpResourceTool"
_MENTION = re.compile(r"(?<![^\s(\[{,;])@(?P<server>[A-Za-z0-9_.-]+):(?P<uri>\S+)")
_TRAILING = ".,;:!?)]}'\""
_CLOSING_REMINDER = re.compile(r"<\s*/\s*system-reminder\s*>", re.IGNORECASE)
DO_NOT_READ_AGAIN = ("Do NOT read this resource again unless you think it may have changed, "
                     "since you already have the full contents.")


@dataclass(frozen=True)
class ResourceMention:
    server: str
    uri: str


def find_resource_mentions(text: str, servers: Iterable[str],
                           known: Iterable[McpResourceInfo] = ()) -> list[ResourceMention]:
    """Every `@server:uri` naming one of `servers`, in order, once. A URI that ends a
    sentence (`@srv:memo://notes.`) loses the punctuation unless the listed URI has it."""
    names = set(servers)
    listed = {(r.server, r.uri) for r in known}
    found: dict[tuple[str, str], ResourceMention] = {}
    for match in _MENTION.finditer(text):
        server, uri = match["server"], match["uri"]
        if server not in names:
            continue
        stripped = uri.rstrip(_TRAILING)
        if (server, uri) not in listed and stripped and (
                not listed or (server, stripped) in listed):
            uri = stripped
        found.setdefault((server, uri), ResourceMention(server, uri))
    return list(found.values())


def _attribute(value: str) -> str:
    """An attribute's value as Claude Code writes it: quotes as `&quot;`, the rest as is."""
    return value.replace('"', "&quot;")


def _tag(mention: ResourceMention, why: str) -> str:
    return (f'<mcp-resource server="{_attribute(mention.server)}" '
            f'uri="{_attribute(mention.uri)}">({why})</mcp-resource>')


def contents_text(mention: ResourceMention, contents: list[Any]) -> str:
    """The system message's text for what `resources/read` returned."""
    parts: list[str] = []
    for item in contents:
        text = getattr(item, "text", None)
        if isinstance(text, str):
            parts += ["Full contents of resource:", _CLOSING_REMINDER.sub(
                "&lt;/system-reminder&gt;", text), DO_NOT_READ_AGAIN]
        elif getattr(item, "blob", None) is not None:
            parts.append(f"[Binary content: {getattr(item, 'mime_type', None) or 'application/octet-stream'}]")
    return "\n".join(parts) if parts else _tag(mention, "No content")


def system_message(text: str) -> dict[str, Any]:
    return {"role": "system", "content": [{"type": "text", "text": text}]}


async def read_mentioned(manager: Any, prompt: str, known: Iterable[McpResourceInfo],
                         denied: bool) -> tuple[list[dict[str, Any]], list[Notice]]:
    """The system messages for the prompt's `@server:uri` mentions, and the lines the person
    sees (one per resource read, or why it was not)."""
    connected = {c.name: c for c in manager.connections
                 if c.state == "connected" and c.has_resources}
    known = list(known)
    messages: list[dict[str, Any]] = []
    notices: list[Notice] = []
    for mention in find_resource_mentions(prompt, connected, known):
        name = next((r.name for r in known if (r.server, r.uri) == (mention.server,
                                                                    mention.uri)), "")
        if denied:
            messages.append(system_message(_tag(
                mention, "Not read: this session's permissions do not allow it")))
            notices.append(Notice(f"Did not read MCP resource {name or mention.uri} from "
                                  f"{mention.server} (blocked by permission settings)",
                                  "warning"))
            continue
        try:
            result = await connected[mention.server].request(
                "resources/read", lambda c, uri=mention.uri: c.read_resource(uri))
        except Exception as exc:  # noqa: BLE001 - a server's error is the person's to read
            notices.append(Notice(f"MCP resource read failed for {mention.server} "
                                  f"{mention.uri}: {getattr(exc, 'message', None) or exc}",
                                  "error"))
            continue
        messages.append(system_message(contents_text(mention, list(result.contents))))
        notices.append(Notice(f"Read MCP resource {name or mention.uri} from {mention.server}"))
    return messages, notices


async def list_resources(conn: Any) -> tuple[McpResourceInfo, ...]:
    """One server's resources for the popup (every page); none when the listing fails."""
    from claude_harness.mcp.resources import _list_all  # the tools' own pager

    try:
        listed = await _list_all(conn)
    except Exception:  # noqa: BLE001 - a server that cannot list offers nothing to pick
        return ()
    return tuple(McpResourceInfo(conn.name, str(r.get("uri", "")), str(r.get("name") or ""),
                                 str(r.get("description") or ""))
                 for r in listed if r.get("uri"))
