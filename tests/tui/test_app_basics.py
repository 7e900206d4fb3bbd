"""The app opens, takes typing at once, streams answers and keeps the footer current."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.widgets.assistant_text import AssistantTextView
from claude_harness.frontends.tui.widgets.status_bar import StatusBar
from tests.e2e.support import conversation
from tests.tui.helpers import screen_text, send, sent_texts, type_text, wait_for


async def test_streamed_answer_appears_as_markdown(api: Any, make_app: Any) -> None:
    answer = "Here is **bold** text.\n\n```python\nprint('hi')\n```\n\nDone streaming."
    server = api([{"content": [answer], "chunk_size": 7}])
    app = make_app(server)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "say hello")
        view = await wait_for(pilot, lambda: next(iter(app.query(AssistantTextView)), None),
                              what="assistant text")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        assert view.text == answer
        # the Markdown widget parsed the stream into blocks, including a code fence
        await wait_for(pilot, lambda: len(view.query("MarkdownFence")) == 1, what="code fence")
        assert "Done streaming." in view.source
    assert server.requests[0]["messages"][0]["content"][0]["text"] == "say hello"


async def test_prompt_typed_before_engine_ready_is_queued_then_sent(
        api: Any, project: Path) -> None:
    import threading

    from claude_harness.frontends.tui.app import HarnessApp
    from tests.tui.conftest import make_engine

    server = api(["queued answer"])
    gate = threading.Event()

    def slow_factory() -> Any:
        gate.wait(5)
        return make_engine(server, project)

    app = HarnessApp(cwd=project, session_factory=slow_factory, preload_transport=False)
    async with app.run_test() as pilot:
        await send(pilot, "early prompt")
        assert not app.ready
        assert app.early == ["early prompt"]
        gate.set()
        await wait_for(pilot, lambda: "queued answer" in screen_text(app), what="answer")
    assert "early prompt" in sent_texts(server.requests[0]["messages"][0])


async def test_no_api_key_still_opens_with_a_clear_notice(project: Path, home: Path) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from tests.tui.conftest import make_engine

    app = HarnessApp(cwd=project, session_factory=lambda: make_engine(None, project, key=None),
                     preload_transport=False)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        text = await wait_for(pilot, lambda: "ANTHROPIC_API_KEY" in screen_text(app)
                              and screen_text(app), what="notice")
        assert "ANTHROPIC_BASE_URL" in text
        await type_text(pilot, "still typing")
        assert app.prompt.text == "still typing"
        await pilot.press("enter")  # sending anyway fails cleanly and leaves the app usable
        await wait_for(pilot, lambda: not app.busy and "Error" in screen_text(app),
                       what="error notice")
        await type_text(pilot, "more")
        assert app.prompt.text == "more"


async def test_shift_tab_cycles_the_footer_mode(api: Any, make_app: Any) -> None:
    app = make_app(api([]))
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        footer = app.query_one(StatusBar)
        seen = []
        for _ in range(4):
            seen.append((footer.mode, str(footer.query_one("#status-mode").render())))
            await pilot.press("shift+tab")
        assert [m for m, _ in seen] == ["default", "acceptEdits", "plan", "default"]
        assert "accept edits on" in seen[1][1]
        assert "plan mode on" in seen[2][1]
        assert app.view.mode == footer.mode == "acceptEdits"  # four presses from default


async def test_shift_tab_reaches_bypass_only_when_started_with_it(api: Any, make_app: Any) -> None:
    app = make_app(api([]), mode="bypassPermissions", bypass=True)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        modes = []
        for _ in range(4):
            await pilot.press("shift+tab")
            modes.append(app.query_one(StatusBar).mode)
        assert modes == ["default", "acceptEdits", "plan", "bypassPermissions"]


async def test_footer_shows_model_cost_context_and_cwd(api: Any, make_app: Any,
                                                       project: Path) -> None:
    server = api([{"content": ["ok"], "usage": {"input_tokens": 200000, "output_tokens": 1000}}])
    app = make_app(server)
    async with app.run_test(size=(140, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "hi")
        await wait_for(pilot, lambda: not app.busy and app.view.totals.api_turns == 1,
                       what="turn end")
        await pilot.pause()
        info = str(app.query_one("#status-info").render())
        assert "claude-sonnet-5-5" in info
        totals = app.view.totals
        assert totals.context_percent >= 10  # 201k+ tokens of claude-sonnet-5-5's 1M window
        assert f"ctx {totals.context_percent:.0f}%" in info
        assert totals.cost_usd > 0
        assert f"${totals.cost_usd:.4f}" in info
        assert project.name in info


async def test_engine_that_fails_to_start_is_explained(project: Path, home: Path) -> None:
    from claude_harness.frontends.tui.app import HarnessApp

    def broken() -> Any:
        raise RuntimeError("settings file is not JSON")

    app = HarnessApp(cwd=project, session_factory=broken, preload_transport=False)
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: "settings file is not JSON" in screen_text(app),
                       what="start-up error")
        await send(pilot, "hello?")
        await wait_for(pilot, lambda: "The agent is not available" in screen_text(app),
                       what="not available notice")
        assert app.queued == []


async def test_continued_session_draws_its_tail_and_goes_on(api: Any, make_app: Any) -> None:
    history = [
        {"role": "user", "content": [{"type": "text", "text": "earlier question"}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_old", "name": "Bash", "input": {"command": "ls"}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_old",
                                      "content": "README.md"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Earlier answer."}]},
    ]
    server = api(["New answer."])
    app = make_app(server, history=history)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        text = await wait_for(pilot, lambda: "Continuing the conversation (4 messages)"
                              in screen_text(app) and screen_text(app), what="history")
        assert "earlier question" in text and "Earlier answer." in text
        assert "Bash(ls)" in text and "README.md" in text
        await send(pilot, "and now?")
        await wait_for(pilot, lambda: "New answer." in screen_text(app), what="new answer")
    assert len(conversation(server.requests[0])) == 5
