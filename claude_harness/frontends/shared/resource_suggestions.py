"""MCP resources for the `@` popup (both front ends): the connected servers' resources whose
`server:uri` (or name) matches what follows the `@`, as Claude Code offers them beside the
files (`◇ srv:memo://notes   Team notes`). Pure: the front end passes the list it learned
from `McpResourcesChanged`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

MAX_RESOURCES = 15


def _subsequence(query: str, text: str) -> bool:
    position = 0
    for char in query:
        position = text.find(char, position) + 1
        if position == 0:
            return False
    return True


def suggest_resources(query: str, resources: Iterable[Any],
                      limit: int = MAX_RESOURCES) -> list[Any]:
    """The resources matching `query`, best first: `server:uri` starting with it, then
    holding it, then holding its letters in order; an empty query offers none."""
    wanted = query.casefold()
    if not wanted:
        return []
    ranked: list[tuple[int, str, Any]] = []
    for resource in resources:
        mention = f"{resource.server}:{resource.uri}"
        label = mention.casefold()
        name = (resource.name or "").casefold()
        if label.startswith(wanted):
            rank = 0
        elif wanted in label or wanted in name:
            rank = 1
        elif _subsequence(wanted, label):
            rank = 2
        else:
            continue
        ranked.append((rank, mention, resource))
    ranked.sort(key=lambda item: (item[0], item[1]))
    return [resource for _, _, resource in ranked[:limit]]


def resource_row(resource: Any) -> tuple[str, str]:
    """(what the mention inserts after `@`, the description shown beside it)."""
    return f"{resource.server}:{resource.uri}", (resource.description or resource.name
                                                 or resource.uri)[:60]
