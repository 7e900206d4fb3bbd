"""ToolSearch: find deferred tools by `select:Name` or keywords and load them.

A deferred tool is in the request's tool list from the first turn, marked `defer_loading`, so
the tool list (the front of the prompt cache) never changes. Loading answers with
`tool_reference` blocks, which make the API expand the referenced definitions in place, after
everything already cached; the loaded names are kept in the context (and can be rebuilt from the
history on resume).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from pydantic import Field

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    ContextModifier,
    Tool,
    ToolInput,
    ToolResult,
    build_tool,
    load_prompt,
    no_prompt_needed,
)
from claude_harness.tools.tool_search.presentation import PRESENTATION


class ToolSearchInput(ToolInput):
    query: str = Field(description='"select:Name[,Name...]" or keywords')
    max_results: int = Field(5, ge=1, le=50, description="How many tools to load at most")


def _words(text: str) -> set[str]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return {w for w in re.split(r"[^a-z0-9]+", spaced.lower()) if len(w) > 1}


def search(tools: tuple[Tool, ...], query: str, limit: int) -> list[Tool]:
    deferred = [t for t in tools if t.should_defer]
    if query.strip().lower().startswith("select:"):
        wanted = [n.strip() for n in query.split(":", 1)[1].split(",") if n.strip()]
        by_name = {t.name: t for t in deferred}
        return [by_name[n] for n in wanted if n in by_name][:limit]
    terms = _words(query)
    scored = []
    for tool in deferred:
        name_words = _words(tool.name)
        text_words = _words(f"{tool.description} {tool.search_hint}")
        score = 3 * len(terms & name_words) + len(terms & text_words)
        if score:
            scored.append((-score, tool.name, tool))
    return [t for _, _, t in sorted(scored)][:limit]


async def call(inp: ToolSearchInput, ctx: ToolUseContext, progress: Any) -> ToolResult:
    found = search(ctx.options.tools, inp.query, inp.max_results)
    names = [t.name for t in found]

    def load(c: ToolUseContext) -> ToolUseContext:
        loaded = c.options.loaded_deferred | frozenset(names)
        return replace(c, options=replace(c.options, loaded_deferred=loaded))

    return ToolResult({"matches": names, "query": inp.query},
                      context_modifier=load if names else None)


def render(data: dict[str, Any]) -> str | list[dict[str, Any]]:
    if not data["matches"]:
        return f"No deferred tools matched {data['query']!r}."
    return [{"type": "tool_reference", "tool_name": n} for n in data["matches"]]


def loaded_by_call(name: str, ctx: ToolUseContext,
                   then: ContextModifier | None = None) -> ContextModifier | None:
    """A deferred tool the model called straight from its name in the deferred list (no
    ToolSearch first) ran like any other; from then on it counts as loaded, as if ToolSearch
    had returned it. `then` is the call's own modifier, applied first; it alone when the tool
    was already loaded."""
    if name in ctx.options.loaded_deferred:
        return then

    def load(c: ToolUseContext) -> ToolUseContext:
        c = then(c) if then is not None else c
        return replace(c, options=replace(c.options, loaded_deferred=c.options.loaded_deferred
                                          | {name}))

    return load


def loaded_from_history(messages: list[dict[str, Any]]) -> frozenset[str]:
    """Names loaded earlier in a (resumed) conversation."""
    names = set()
    for message in messages:
        for block in message.get("content") or []:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                inner = block.get("content")
                if isinstance(inner, list):
                    names |= {b["tool_name"] for b in inner if b.get("type") == "tool_reference"}
    return frozenset(names)


TOOL = build_tool(
    name="ToolSearch",
    needs_conversation=True,
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=ToolSearchInput,
    call=call,
    render_result=render,
    check_permissions=no_prompt_needed("loading tool definitions changes nothing"),
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    key_argument=lambda inp: inp.query,
)
