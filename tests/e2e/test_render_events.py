"""The events front ends will render for thinking, server tools and stop reasons (the session
core in-process, against the scripted server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.protocol.events import (
    ServerToolUse,
    SideUsage,
    StopNotice,
    ThinkingDelta,
    ThinkingDone,
    TotalsChanged,
    TurnEnd,
)
from claude_harness.protocol.ops import Compact
from tests.e2e.support import make_engine, run_op, run_prompt


async def test_thinking_and_server_tools_give_compact_events(project: Path, api: Any) -> None:
    server = api([{"content": [
        {"type": "thinking", "thinking": "Search first, then answer."},
        {"type": "redacted_thinking"},
        {"type": "server_tool_use", "name": "web_search", "input": {"query": "paris weather"}},
        {"type": "web_search_tool_result", "content": [
            {"type": "web_search_result", "title": "A", "url": "https://a.example/",
             "encrypted_content": "x"},
            {"type": "web_search_result", "title": "B", "url": "https://b.example/",
             "encrypted_content": "y"}]},
        {"type": "server_tool_use", "name": "web_fetch", "input": {"url": "https://c.example/"}},
        {"type": "web_fetch_tool_result",
         "content": {"type": "web_fetch_tool_result_error", "error_code": "url_not_accessible"}},
        "Sunny."]}])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "weather?")
    deltas = "".join(e.text for e in events if isinstance(e, ThinkingDelta))
    assert deltas == "Search first, then answer."  # interactive sessions ask for the text
    done = [e for e in events if isinstance(e, ThinkingDone)]
    assert [(d.text, d.redacted) for d in done] == [("Search first, then answer.", False),
                                                    ("", True)]
    search, fetch = [e for e in events if isinstance(e, ServerToolUse)]
    assert (search.name, search.summary, search.urls) == (
        "web_search", "paris weather", ("https://a.example/", "https://b.example/"))
    assert (fetch.name, fetch.summary, fetch.error) == (
        "web_fetch", "https://c.example/", "url_not_accessible")
    assert server.requests[0]["thinking"] == {"type": "adaptive", "display": "summarized"}


async def test_a_refusal_is_a_visible_notice_and_the_turn_end(project: Path, api: Any) -> None:
    server = api([{"content": ["No."], "stop_reason": "refusal"}])
    events = await run_prompt(make_engine(server, project), "bad idea")
    (notice,) = [e for e in events if isinstance(e, StopNotice)]
    assert notice.reason == "refusal" and notice.level == "error"
    assert [e for e in events if isinstance(e, TurnEnd)][0].reason == "refusal"


async def test_side_usage_counts_in_the_session_totals(project: Path, api: Any) -> None:
    server = api([{"content": ["ok"]}, {"content": ["SUMMARY: hi."],
                                        "usage": {"input_tokens": 1_000_000}}])
    engine = make_engine(server, project)
    first = await run_prompt(engine, "hello")
    before = [e for e in first if isinstance(e, TotalsChanged)][-1].cost_usd
    events = await run_op(engine, Compact())
    (side,) = [e for e in events if isinstance(e, SideUsage)]
    assert side.purpose == "compact" and side.input_tokens >= 1_000_000
    after = [e for e in events if isinstance(e, TotalsChanged)][-1].cost_usd
    assert after - before >= 2.0  # a million input tokens at $2/M (sonnet 5.5)
