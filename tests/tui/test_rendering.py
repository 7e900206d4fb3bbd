"""Thinking, todos and compaction as the app renders them from the real engine's events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.frontends.tui.widgets.thinking import ThinkingView
from claude_harness.frontends.tui.widgets.todo_panel import TodoPanel
from tests.tui.helpers import screen_text, send, wait_for


async def test_thinking_is_collapsed_and_dimmed_until_opened(api: Any, make_app: Any) -> None:
    server = api([{"content": [{"type": "thinking", "thinking": "Weighing the secret plan."},
                               "The visible answer."]}])
    app = make_app(server)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "think")
        await wait_for(pilot, lambda: not app.busy and "The visible answer." in screen_text(app),
                       what="answer")
        view = app.query_one(ThinkingView)
        assert view.collapsed and view.text == "Weighing the secret plan."
        body = view.query_one(".thinking-body")
        assert not body.region.height  # collapsed: nothing of it on screen
        await pilot.press("ctrl+o")  # the detailed transcript shows thinking
        await pilot.pause()
        assert not view.collapsed
        assert "Weighing the secret plan." in str(body.render())
        assert body.region.height >= 1
        await pilot.press("ctrl+o")
        assert view.collapsed


async def test_todo_write_fills_the_ctrl_t_panel(api: Any, make_app: Any) -> None:
    todos = [{"content": "Write the tests", "status": "completed", "activeForm": "Writing"},
             {"content": "Fix the bug", "status": "in_progress", "activeForm": "Fixing"},
             {"content": "Ship it", "status": "pending", "activeForm": "Shipping"}]
    server = api([{"content": [{"type": "tool_use", "name": "TodoWrite",
                                "input": {"todos": todos}}]}, "Planned."])
    app = make_app(server)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "plan it")
        await wait_for(pilot, lambda: not app.busy and "Planned." in screen_text(app),
                       what="answer")
        panel = app.query_one(TodoPanel)
        assert not panel.has_class("-open")
        await pilot.press("ctrl+t")
        assert panel.has_class("-open") and panel.region.height >= 5
        text = str(panel.render())
        assert "☒ Write the tests" in text and "◐ Fix the bug" in text and "☐ Ship it" in text
        await pilot.press("ctrl+t")
        assert not panel.has_class("-open")


async def test_compact_replaces_the_history_with_a_summary(api: Any, make_app: Any) -> None:
    server = api(["First answer.", "Summary: the user asked one question and got an answer."])
    app = make_app(server)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "a question")
        await wait_for(pilot, lambda: not app.busy and len(app.view.messages) == 2,
                       what="first turn")
        before = [dict(m) for m in app.view.messages]
        await send(pilot, "/compact")
        await wait_for(pilot, lambda: "Conversation compacted on request" in screen_text(app),
                       what="compaction notice")
        await wait_for(pilot, lambda: not app.busy, what="idle")
        assert app.view.messages != before
        assert "the user asked one question" in str(app.view.messages)


async def test_exit_plan_mode_shows_the_plan_and_approval_leaves_plan_mode(
        api: Any, make_app: Any) -> None:
    from claude_harness.frontends.tui.widgets.status_bar import StatusBar

    plan = "## Plan\n\n1. Add the **flag**\n2. Write a test"
    server = api([{"content": [{"type": "tool_use", "name": "ExitPlanMode",
                                "input": {"plan": plan}}]}, "Implementing now."])
    app = make_app(server, mode="plan")
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        assert app.query_one(StatusBar).mode == "plan"
        await send(pilot, "plan it")
        prompt = await wait_for(pilot, lambda: app.prompt_widget, what="plan approval")
        assert "Leave plan mode" in screen_text(app)
        rendered = prompt.query_one(".perm-body")
        assert rendered.region.height >= 4  # the plan is drawn as Markdown, not as JSON
        await pilot.press("1")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        assert app.view.mode == "default"
        assert app.query_one(StatusBar).mode == "default"


async def test_hook_runs_are_compact_lines_with_details_on_ctrl_o(api: Any, project: Path,
                                                                   tmp_path: Path) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from claude_harness.frontends.tui.widgets.notice import NoticeView
    from claude_harness.hooks import HookConfig, HookRunner
    from tests.tui.conftest import make_engine

    quiet = tmp_path / "quiet.sh"
    quiet.write_text("#!/bin/sh\necho quiet-hook-output\n")
    loud = tmp_path / "loud.sh"
    loud.write_text("#!/bin/sh\necho 'no touching' >&2\nexit 2\n")
    for script in (quiet, loud):
        script.chmod(0o755)
    config = HookConfig.from_sources([("userSettings", None, {
        "PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": str(quiet)}]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": str(loud)}]}],
    })])
    server = api([
        {"content": [{"type": "tool_use", "name": "Read",
                      "input": {"file_path": str(project / "README.md")}}]},
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "touch x"}}]},
        "done"])

    def factory() -> Any:
        engine = make_engine(server, project)
        engine.config.hooks = HookRunner(config, project_dir=project, session_id="s",
                                         transcript_path="", get_permission_mode=lambda: "default")
        return engine

    app = HarnessApp(cwd=project, session_factory=factory, preload_transport=False)
    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "go")
        await wait_for(pilot, lambda: not app.busy and server.remaining_turns == 0, what="end")
        hooks = [v for v in app.query(NoticeView) if "hook" in v.text]
        quiet_view = next(v for v in hooks if "PostToolUse" in v.text)
        loud_view = next(v for v in hooks if "PreToolUse" in v.text)
        assert "blocked" in loud_view.text and loud_view.display
        assert "quiet-hook-output" in quiet_view.text and not quiet_view.display
        await pilot.press("ctrl+o")
        await wait_for(pilot, lambda: quiet_view.display, what="details shown")
