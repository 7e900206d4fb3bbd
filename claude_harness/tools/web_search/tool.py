"""The WebSearch tool: a side request that hands the model the API's web search server tool and
brings back the results' titles and URLs (and the searching model's short summary).

The search itself runs on Anthropic's side (`web_search_20250305`), so this tool only builds
the request, carries on a paused turn, and reads the result blocks. Each session may run
CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION searches (50 by default).
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from typing import Any

from pydantic import Field

from claude_harness.api.request_params import side_request_params
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import (
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)
from claude_harness.tools.web_search.presentation import PRESENTATION

WEB_SEARCH_TOOL_TYPE = "web_search_20250305"
MAX_USES = 8  # searches the side request may run for one call
MAX_PAUSES = 3
DEFAULT_SESSION_CAP = 50
SYSTEM = ("You run a web search for another model, which is waiting for the result and can "
          "search again. Search once, then reply with a brief summary of the results.")
REMINDER = ("REMINDER: cite the sources you use in your answer to the user, as Markdown links "
            "[Title](URL).")

_searches_by_session: Counter[str] = Counter()


class WebSearchInput(ToolInput):
    query: str = Field(min_length=2, description="The search query to use")
    allowed_domains: list[str] | None = Field(
        None, description="Only include search results from these domains")
    blocked_domains: list[str] | None = Field(
        None, description="Never include search results from these domains")


def session_cap() -> int:
    raw = os.environ.get("CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION", "")
    try:
        return max(int(raw), 0) if raw.strip() else DEFAULT_SESSION_CAP
    except ValueError:
        return DEFAULT_SESSION_CAP


def search_request(model: str, inp: WebSearchInput) -> dict[str, Any]:
    tool: dict[str, Any] = {"type": WEB_SEARCH_TOOL_TYPE, "name": "web_search",
                            "max_uses": MAX_USES}
    if inp.allowed_domains:
        tool["allowed_domains"] = inp.allowed_domains
    if inp.blocked_domains:
        tool["blocked_domains"] = inp.blocked_domains
    params = side_request_params(model)
    return {"model": model, "max_tokens": params.pop("max_tokens"),
            "system": [{"type": "text", "text": SYSTEM}],
            "messages": [{"role": "user", "content": [
                {"type": "text", "text": f"Perform a web search for the query: {inp.query}"}]}],
            "tools": [tool], "tool_choice": {"type": "tool", "name": "web_search"}, **params}


def read_results(blocks: list[dict[str, Any]]) -> tuple[list[Any], int, list[str]]:
    """(results as Claude Code lists them: hit groups and text, searches run, error codes)."""
    results: list[Any] = []
    errors: list[str] = []
    searches = 0
    for block in blocks:
        kind = block.get("type")
        if kind == "server_tool_use" and block.get("name") == "web_search":
            searches += 1
        elif kind == "web_search_tool_result":
            content = block.get("content")
            if isinstance(content, dict):
                errors.append(str(content.get("error_code") or content.get("type")))
                continue
            hits = [{"title": h.get("title", ""), "url": h["url"]} for h in content or []
                    if isinstance(h, dict) and isinstance(h.get("url"), str)]
            results.append({"tool_use_id": block.get("tool_use_id"), "content": hits})
        elif kind == "text" and block.get("text", "").strip():
            results.append(block["text"].strip())
    return results, searches, errors


def render(data: Any) -> str:
    if not isinstance(data, dict):
        return str(data)
    lines = [f'Web search results for query: "{data["query"]}"', ""]
    for item in data["results"]:
        if isinstance(item, dict):
            lines += [f"Links: {json.dumps(item['content'], ensure_ascii=False)}", ""]
        else:
            lines += [item, ""]
    if data.get("errors"):
        lines += [f"Search errors: {', '.join(data['errors'])}", ""]
    if not data["results"]:
        lines += ["No results found.", ""]
    lines.append(REMINDER)
    return "\n".join(lines)


async def call(inp: WebSearchInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    side_query = ctx.side_query
    if side_query is None:
        raise ToolError("WebSearch needs the model API, which is not available here.")
    cap = session_cap()
    if _searches_by_session[ctx.session_id] >= cap:
        raise ToolError(f"This session has used all of its {cap} web searches "
                        "(CLAUDE_CODE_MAX_WEB_SEARCHES_PER_SESSION). Answer from what you have.",
                        code="search_cap")
    _searches_by_session[ctx.session_id] += 1
    started = time.monotonic()
    request = search_request(ctx.options.model, inp)
    blocks: list[dict[str, Any]] = []
    for _ in range(MAX_PAUSES + 1):
        result = await side_query(request, purpose="web_search")
        blocks.extend(result.message["content"])
        if result.stop_reason != "pause_turn":
            break
        request = {**request, "messages": [request["messages"][0],
                                           {"role": "assistant", "content": list(blocks)}]}
    results, searches, errors = read_results(blocks)
    if errors and not results:
        raise ToolError(f"The web search failed: {', '.join(errors)}.", code="search_failed")
    return ToolResult({"query": inp.query, "results": results, "errors": errors,
                       "durationSeconds": time.monotonic() - started, "searchCount": searches})


async def _validate(inp: WebSearchInput, ctx: ToolUseContext) -> ValidationResult:
    if inp.allowed_domains and inp.blocked_domains:
        return ValidationResult.fail("Use allowed_domains or blocked_domains, not both.")
    return ValidationResult()


TOOL = build_tool(
    name="WebSearch",
    presentation=PRESENTATION,
    description=load_prompt(__file__),
    input_model=WebSearchInput,
    call=call,
    validate_input=_validate,
    is_read_only=lambda inp: True,
    is_concurrency_safe=lambda inp: True,
    key_argument=lambda inp: inp.query,
    render_result=render,
    max_result_size_chars=100_000,
    search_hint="search the web for current information",
)
