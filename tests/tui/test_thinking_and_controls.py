"""Thinking in the app: thinking blocks with their timer, redacted thinking, server tool lines,
stop notices, /effort and Alt+T, and a resumed conversation with thinking and a meta message.

The real app and session against the scripted server; what the requests carry is read from
the server's log (it refuses an effort or thinking a model does not take, as the API does)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_harness.frontends.tui import clock
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.frontends.tui.widgets.server_tool import ServerToolView
from claude_harness.frontends.tui.widgets.thinking import RedactedThinkingView, ThinkingView
from claude_harness.frontends.tui.widgets.user_prompt import UserPromptView
from tests.tui.helpers import screen_text, send, wait_for


def footer(app: Any) -> str:
    return str(app.query_one("#status-info").render())


def notices(app: Any) -> list[str]:
    return [n.text for n in app.query(NoticeView)]


async def test_thinking_counts_seconds_then_says_how_long_it_took(
        api: Any, make_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(clock, "now", lambda: now[0])
    server = api([{"content": [{"type": "thinking", "thinking": "Step one. Step two. Three."},
                               "Done thinking."], "delay": 0.25, "chunk_size": 6}])
    app = make_app(server)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "think hard")
        view = await wait_for(pilot, lambda: next(iter(app.query(ThinkingView)), None),
                              what="thinking block")
        assert view.collapsed and view.title == "✻ Thinking… 0s"
        now[0] += 3  # three seconds of thinking
        await wait_for(pilot, lambda: view.title == "✻ Thinking… 3s", what="the timer")
        await wait_for(pilot, lambda: not app.busy and "Done thinking." in screen_text(app),
                       what="answer")
        assert view.title == "✻ Thought for 3s (ctrl+o to expand)"
        assert view.collapsed and view.text == "Step one. Step two. Three."
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert not view.collapsed and view.title == "✻ Thought for 3s"
        assert "Step one. Step two. Three." in str(view.query_one(".thinking-body").render())


async def test_redacted_thinking_server_tools_and_a_refusal(api: Any, make_app: Any) -> None:
    server = api([
        {"content": [
            {"type": "redacted_thinking"},
            {"type": "server_tool_use", "name": "web_search", "input": {"query": "paris weather"}},
            {"type": "web_search_tool_result", "content": [
                {"type": "web_search_result", "title": "A", "url": "https://a.example/x",
                 "encrypted_content": "x"},
                {"type": "web_search_result", "title": "B", "url": "https://b.example/",
                 "encrypted_content": "y"}]},
            {"type": "server_tool_use", "name": "web_fetch",
             "input": {"url": "https://c.example/"}},
            {"type": "web_fetch_tool_result", "content": {
                "type": "web_fetch_tool_result_error", "error_code": "url_not_accessible"}},
            "Sunny."]},
        {"content": ["No."], "stop_reason": "refusal"}])
    app = make_app(server)
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "weather?")
        await wait_for(pilot, lambda: not app.busy and "Sunny." in screen_text(app),
                       what="answer")
        (redacted,) = app.query(RedactedThinkingView)
        assert "redacted" in str(redacted.render())
        search, fetch = app.query(ServerToolView)
        assert search.line == "web_search: paris weather → a.example, b.example"
        assert fetch.line == "web_fetch: https://c.example/ → error: url_not_accessible"
        urls = search.query_one(".server-tool-urls")
        assert not urls.region.height  # the URLs wait for the detailed view
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert urls.region.height == 2 and "https://a.example/x" in str(urls.render())

        await send(pilot, "something bad")
        await wait_for(pilot, lambda: not app.busy and any(
            "declined" in text for text in notices(app)), what="refusal notice")
        (refusal,) = [n for n in app.query(NoticeView) if "declined" in n.text]
        assert refusal.level == "error"


async def test_effort_and_alt_t_change_the_requests_footer_and_status(
        api: Any, make_app: Any) -> None:
    server = api(["one", "two", "three", "four"])
    app = make_app(server)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready and app.view.controls, what="engine ready")
        assert "◐ medium" in footer(app)  # sonnet 5.5's default

        await send(pilot, "/effort high")
        await wait_for(pilot, lambda: "● high" in footer(app), what="footer")
        assert any("Effort level set to high" in t for t in notices(app))
        await send(pilot, "first")
        await wait_for(pilot, lambda: not app.busy and len(server.requests) == 1, what="turn")
        assert server.requests[0]["output_config"] == {"effort": "high"}
        assert server.requests[0]["thinking"]["type"] == "adaptive"

        await pilot.press("alt+t")  # sonnet 5.5 always thinks, as in Claude Code
        await wait_for(pilot, lambda: any("Thinking can't be turned off for claude-sonnet-5-5"
                                          in t for t in notices(app)), what="refusal")
        assert "● high" in footer(app)
        await send(pilot, "/model claude-opus-4-8")
        await pilot.press("alt+t")
        await wait_for(pilot, lambda: "thinking off" in footer(app), what="thinking off")
        assert any(t.startswith("Thinking off") for t in notices(app))
        await send(pilot, "second")
        await wait_for(pilot, lambda: not app.busy and len(server.requests) == 2, what="turn")
        assert server.requests[1]["thinking"] == {"type": "disabled"}
        assert server.requests[1]["model"] == "claude-opus-4-8"
        await pilot.press("alt+t")
        await wait_for(pilot, lambda: "● high" in footer(app), what="thinking back on")

        await send(pilot, "/effort bogus")
        await wait_for(pilot, lambda: any("Unknown effort level: bogus" in t
                                          for t in notices(app)), what="error")
        await send(pilot, "/model claude-opus-4-6")  # takes no xhigh
        await send(pilot, "/effort xhigh")
        await wait_for(pilot, lambda: any("claude-opus-4-6 does not offer xhigh; high is sent"
                                          in t for t in notices(app)), what="clamp notice")
        await send(pilot, "/status")
        await wait_for(pilot, lambda: "Effort: xhigh (high sent" in screen_text(app),
                       what="status")
        assert "Thinking: on" in screen_text(app)
        await send(pilot, "third")
        await wait_for(pilot, lambda: not app.busy and len(server.requests) == 3, what="turn")
        assert server.requests[2]["output_config"] == {"effort": "high"}

        await send(pilot, "/effort auto")
        await wait_for(pilot, lambda: any("Effort level set to auto" in t for t in notices(app)),
                       what="auto")
        await send(pilot, "fourth")
        await wait_for(pilot, lambda: not app.busy and len(server.requests) == 4, what="turn")
        assert server.requests[3]["output_config"] == {"effort": "high"}  # opus 4.6's default
        await send(pilot, "/effort")
        await wait_for(pilot, lambda: any(t.startswith("Effort: auto (high")
                                          for t in notices(app)), what="current effort")


async def test_a_resumed_conversation_shows_thinking_collapsed_and_no_meta_message(
        api: Any, project: Path) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from tests.tui.conftest import make_engine

    history = [
        {"role": "user", "content": [{"type": "text", "text": "write a long story"}]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "Plot first.", "signature": "sig"},
            {"type": "text", "text": "Once upon a"}]},
        {"role": "user", "content": [{"type": "text", "text": "Resume directly, no apology."}],
         "isMeta": True},
        {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "x"},
                                          {"type": "text", "text": "time, the end."}]},
    ]
    server = api([])
    app = HarnessApp(cwd=project, preload_transport=False,
                     session_factory=lambda: make_engine(server, project, history=history))
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready and "time, the end." in screen_text(app),
                       what="history")
        (thinking,) = app.query(ThinkingView)
        assert thinking.collapsed and thinking.title == "✻ Thought (ctrl+o to expand)"
        assert len(app.query(RedactedThinkingView)) == 1
        prompts = [v for v in app.query(UserPromptView)]
        assert len(prompts) == 1 and "Resume directly" not in screen_text(app)
